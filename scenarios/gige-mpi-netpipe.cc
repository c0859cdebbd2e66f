// SPDX-License-Identifier: GPL-2.0-only
//
// Seed 000 (Ong & Farrell, ALS 2000), section 4.2, Figures 3, 4 and 5: NetPIPE 2.3 in MPI mode
// over LAM 6.3 (C2C, short/long switch at 128 KB) and MPICH 1.1.2 (ch_p4) on TCP, for the
// GNIC-II, ACEnic and SK-NET at MTU 1500 and the ACEnic and SK-NET at MTU 9000; PIII-450 hosts
// back to back, Linux 2.2.12; and MVICH 0.02 over M-VIA on the GNIC-II (Figure 5).
//
//   ./ns3 run scenarios/gige-mpi-netpipe

#include "netpipe-scenario.h"

int
main(int argc, char** argv)
{
    ns3::clusternet::NetpipeScenarioSpec figures34;
    figures34.name = "gige-mpi-netpipe";
    figures34.description =
        "Seed 000 Figures 3 and 4: NetPIPE MPI throughput against block size and latency for "
        "LAM and MPICH over TCP on three Gigabit Ethernet NICs, PIII-450/Linux 2.2.12 back to "
        "back.";
    figures34.nics = "gnic2,acenic,sknet";
    figures34.mtus = "1500";
    figures34.cases = "gnic2@1500,acenic@1500,sknet@1500,acenic@9000,sknet@9000";
    figures34.stacks = "lam,mpich,mvich";
    return ns3::clusternet::RunNetpipeScenario(figures34, argc, argv);
}
