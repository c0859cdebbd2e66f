// SPDX-License-Identifier: GPL-2.0-only
//
// Seed 000 (Ong & Farrell, ALS 2000), Table 1: TCP/IP performance with large socket buffer
// and MTU. Two PIII-450 PCs running Linux 2.2.12, linked back to back by Gigabit Ethernet NICs
// in 32-bit/33 MHz PCI slots; NetPIPE 2.3 over TCP measures the peak throughput of each NIC
// (Alteon ACEnic, SysKonnect SK-NET) at MTU 1500, 4500, 8500 and 9000 bytes with 64 KB and
// 128 KB socket buffers.
//
//   ./ns3 run scenarios/gige-mtu-sweep
//   ./ns3 run scenarios/gige-mtu-sweep -- --mtu=1500,4500,9000 --sockbuf=65536,262144 --pci=64x66
//   ./ns3 run scenarios/gige-mtu-sweep -- --help

#include "netpipe-scenario.h"

int
main(int argc, char** argv)
{
    ns3::clusternet::NetpipeScenarioSpec table1;
    table1.name = "gige-mtu-sweep";
    table1.description =
        "Seed 000 Table 1: NetPIPE TCP peak throughput for NIC x MTU x socket buffer, two "
        "PIII-450/Linux 2.2.12 hosts back to back over Gigabit Ethernet.";
    table1.nics = "acenic,sknet";
    table1.mtus = "1500,4500,8500,9000";
    table1.sockbufs = "65536,131072";
    return ns3::clusternet::RunNetpipeScenario(table1, argc, argv);
}
