// SPDX-License-Identifier: GPL-2.0-only
//
// Seed 000 (Ong & Farrell, ALS 2000), section 4.1, Figure 2: M-VIA 0.01 on the GNIC-II,
// measured with vnettest's ping-pong up to its 32 KB limit, PIII-450 hosts back to back.
//
//   ./ns3 run scenarios/gige-via-netpipe

#include "netpipe-scenario.h"

int
main(int argc, char** argv)
{
    ns3::clusternet::NetpipeScenarioSpec figure2;
    figure2.name = "gige-via-netpipe";
    figure2.description =
        "Seed 000 Figure 2: M-VIA throughput against message size and latency on the "
        "GNIC-II (vnettest ping-pong, up to M-VIA's 32 KB maximum transfer).";
    figure2.nics = "gnic2";
    figure2.mtus = "1500";
    figure2.stacks = "mvia";
    figure2.maxBlock = 32768;
    return ns3::clusternet::RunNetpipeScenario(figure2, argc, argv);
}
