// SPDX-License-Identifier: GPL-2.0-only
//
// Seed 000 (Ong & Farrell, ALS 2000), Figure 1: TCP throughput and latency with NetPIPE 2.3
// for the GNIC-II, ACEnic and SK-NET at MTU 1500, and for the ACEnic and SK-NET at MTU 9000,
// with 128 KB socket buffers (section 4.1).
//
//   ./ns3 run scenarios/gige-tcp-netpipe

#include "netpipe-scenario.h"

int
main(int argc, char** argv)
{
    ns3::clusternet::NetpipeScenarioSpec figure1;
    figure1.name = "gige-tcp-netpipe";
    figure1.description =
        "Seed 000 Figure 1: NetPIPE TCP throughput against block size and latency for three "
        "Gigabit Ethernet NICs, PIII-450/Linux 2.2.12 back to back.";
    figure1.nics = "gnic2,acenic,sknet";
    figure1.mtus = "1500";
    figure1.sockbufs = "131072";
    figure1.cases = "gnic2@1500,acenic@1500,sknet@1500,acenic@9000,sknet@9000";
    return ns3::clusternet::RunNetpipeScenario(figure1, argc, argv);
}
