// SPDX-License-Identifier: GPL-2.0-only
//
// Seed 001 (Myrinet/GM on a Pentium 200 cluster), section 4.4, Figures 7 and 8: NetPIPE TCP
// throughput and latency over GM's Ethernet emulation ("IP over GM") with 9000-byte frames and
// socket buffers of 64 KB to 512 KB; LANai9 in a 32-bit/33 MHz slot, Linux 2.4.9.
//
//   ./ns3 run scenarios/myrinet-tcp-over-gm

#include "netpipe-scenario.h"

int
main(int argc, char** argv)
{
    ns3::clusternet::NetpipeScenarioSpec figures78;
    figures78.name = "myrinet-tcp-over-gm";
    figures78.description =
        "Seed 001 Figures 7 and 8: NetPIPE TCP throughput against block size and latency over "
        "IP over GM (MTU 9000) for socket buffers of 64 KB to 512 KB, Pentium 200/Linux 2.4.9 "
        "hosts with LANai9 NICs back to back.";
    figures78.nics = "lanai9";
    figures78.mtus = "9000";
    figures78.sockbufs = "65536,131072,262144,524288";
    figures78.host = "p200-430vx-linux24";
    figures78.maxBlock = 1u << 23;
    return ns3::clusternet::RunNetpipeScenario(figures78, argc, argv);
}
