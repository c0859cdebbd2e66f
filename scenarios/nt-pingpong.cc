// SPDX-License-Identifier: GPL-2.0-only
//
// Seed 002 (Baker, Scott, Geist & Browne, "GigaBit Performance under NT"): PingPong between
// two dual Pentium III 450 hosts under NT 4 SP5 or Windows 2000 ("NT5"): blocking send and
// receive of messages of increasing length, each length repeated, through WinSock, MPI/Pro,
// WMPI, PaTENT or PVM; between two processes on one host (shared memory, or the loopback for
// WinSock and PVM) or on two hosts linked back to back by a pair of NICs: NetGear FA310TX
// (100 Mb/s), GigaNet cLAN GNN1000 (TCP over LAN emulation), Packet Engines GNIC-II,
// SysKonnect SK-9841, NetGear GA620. Writes the 1-byte latencies of Table 3, the bandwidth
// curves of Figs 2-4 with their peaks, and Table 4 (price over simulated peak bandwidth and
// minimum latency of MPI/Pro).
//
//   ./ns3 run scenarios/nt-pingpong
//   ./ns3 run scenarios/nt-pingpong -- --config=winsock:nt4:shm,mpipro:nt4:ga620
//   ./ns3 run scenarios/nt-pingpong -- --help

#include "ping-pong-experiment.h"
#include "ns3/host-helper.h"
#include "ns3/profile-catalogue.h"
#include "scenario-args.h"
#include "sweep-runner.h"

#include <map>
#include <sstream>

using namespace ns3;
using namespace ns3::clusternet;

namespace
{

/// The paper's names for the networks (reference keys) and their NIC profiles.
const std::map<std::string, std::string> kNets = {{"fe100", "fa310tx"},
                                                  {"giganet", "giganet"},
                                                  {"gnic2", "gnic2-nt"},
                                                  {"sk9841", "sk9841"},
                                                  {"ga620", "ga620"}};
/// The paper's operating systems and their host profiles.
const std::map<std::string, std::string> kOs = {{"nt4", "piii450-nt4"}, {"nt5", "piii450-nt5"}};
/// The paper's stacks (library profiles).
const std::vector<std::string> kStacks = {"winsock", "mpipro", "wmpi", "patent", "pvm"};

/// Every curve of seed 002's Table 3 and Figs 2-4, and PVM (no figures in the paper).
const char* kPaperConfigs =
    "mpipro:nt4:shm,winsock:nt4:shm,wmpi:nt4:shm,patent:nt4:shm,"
    "mpipro:nt5:shm,winsock:nt5:shm,patent:nt5:shm,"
    "mpipro:nt4:fe100,winsock:nt4:fe100,wmpi:nt4:fe100,mpipro:nt5:fe100,winsock:nt5:fe100,"
    "mpipro:nt4:giganet,winsock:nt4:giganet,mpipro:nt4:gnic2,winsock:nt4:gnic2,"
    "mpipro:nt4:sk9841,winsock:nt4:sk9841,mpipro:nt4:ga620,winsock:nt4:ga620,"
    "pvm:nt4:shm,pvm:nt4:fe100,pvm:nt4:sk9841";

std::string
Join(const std::vector<std::string>& v)
{
    std::string out;
    for (const auto& s : v)
    {
        out += (out.empty() ? "" : ", ") + s;
    }
    return out;
}

} // namespace

int
main(int argc, char** argv)
{
    ScenarioArgs args(argc, argv, "nt-pingpong",
                      "Seed 002: PingPong latency and bandwidth under Windows NT 4 and 2000 "
                      "through WinSock, MPI/Pro, WMPI, PaTENT and PVM, in shared memory and "
                      "over five NICs (Table 3, Figs 2-4, Table 4).");
    std::vector<std::string> netNames = {"shm"};
    for (const auto& [net, nic] : kNets)
    {
        netNames.push_back(net);
    }
    args.Add("config",
             "curves STACK:OS:NET, comma-separated; STACK " + Join(kStacks) + " (or any MPI "
             "profile); OS nt4 or nt5 (the paper's dual PIII-450 hosts), or any host profile (" +
                 ProfileCatalogue::JoinNames("host") +
                 "); NET shm (two processes on one host) or " +
                 Join(std::vector<std::string>(netNames.begin() + 1, netNames.end())) +
                 " (two hosts), or any NIC profile (" + ProfileCatalogue::JoinNames("nic") + ")",
             kPaperConfigs);
    args.AddUint("switches",
                 "Ethernet switches between two hosts: 0 back to back (the paper's), 1 one "
                 "store-and-forward switch",
                 "switches",
                 0,
                 1,
                 0);
    args.MarkSetup("switches");
    const uint32_t maxLength = 64u << 20;
    const uint32_t maxRepeats = 100000;
    args.Add("lengths",
             "message lengths, comma-separated [bytes, 0.." + std::to_string(maxLength) +
                 "; 0 not with winsock, which sends no header] (default: powers of two, "
                 "1 B to 1 MB)",
             "");
    args.AddUint("repeats", "timed round trips per length", "count", 1, maxRepeats, 10);
    args.AddOverrides(PingPongExperiment::Targets(), "stack.NoDelay=true");
    args.AddPartOptions({"os", "driver"});
    args.AddChoice("pci",
                   "PCI slot WIDTHxCLOCK of the hosts [bits x MHz]; empty = the host profile's",
                   HostHelper::PciSlots(),
                   "",
                   true);
    SweepRunner::AddArguments(args, "nt-pingpong", "summary.csv, table4.csv and the plots");
    args.Parse();

    std::vector<uint32_t> lengths = args.Get("lengths").empty()
                                        ? PingPongBenchmark::PowersOfTwo(1 << 20)
                                        : args.GetUintList("lengths", 0, maxLength, "bytes");
    uint32_t repeats = args.GetUint("repeats");

    SweepRunner sweep(args,
                      "nt-pingpong",
                      {"stack",
                       "os",
                       "net",
                       "transport",
                       "host",
                       "nic",
                       "pci",
                       "switches",
                       "price_usd",
                       "msg_bytes",
                       "oneway_us",
                       "mbps",
                       "mbytes_per_s"});
    std::stringstream ss(args.Get("config"));
    for (std::string item; std::getline(ss, item, ',');)
    {
        std::vector<std::string> parts;
        std::stringstream is(item);
        for (std::string p; std::getline(is, p, ':');)
        {
            parts.push_back(p);
        }
        if (parts.size() != 3)
        {
            args.Fail("--config: '" + item + "' is not STACK:OS:NET (e.g. mpipro:nt4:fe100)");
        }
        const std::string& stack = parts[0];
        // The OS column names the OS the hosts ran: --os's when given.
        const std::string os = args.Get("os").empty() ? parts[1] : args.Get("os");
        const std::string& net = parts[2];
        if (!ProfileCatalogue::Find("mpi", stack))
        {
            args.Fail("--config: unknown stack '" + stack + "' in '" + item +
                      "'; allowed: " + Join(kStacks) + " (or " +
                      ProfileCatalogue::JoinNames("mpi") + ")");
        }
        PingPongConfig c;
        c.host = kOs.count(parts[1]) ? kOs.at(parts[1]) : parts[1];
        if (!ProfileCatalogue::Find("host", c.host))
        {
            args.Fail("--config: unknown OS '" + parts[1] + "' in '" + item +
                      "'; allowed: nt4, nt5 or a host profile (" +
                      ProfileCatalogue::JoinNames("host") + ")");
        }
        c.useSwitch = args.GetUint("switches") > 0;
        c.pci = args.Get("pci"); // checked by Parse(): empty or a slot
        c.stack = stack;
        c.intranode = net == "shm";
        c.nic = kNets.count(net) ? kNets.at(net) : net;
        if (!c.intranode && !ProfileCatalogue::Find("nic", c.nic))
        {
            args.Fail("--config: unknown NIC '" + net + "' in '" + item + "'; allowed: " +
                      Join(netNames) + " or a NIC profile (" +
                      ProfileCatalogue::JoinNames("nic") + ")");
        }
        c.host = args.WithParts("host", c.host); // --os
        if (!c.intranode)
        {
            c.nic = args.WithParts("nic", c.nic); // --driver
        }
        c.lengths = lengths;
        c.repeats = repeats;
        c.overrides = args.Get("set");
        std::string err = PingPongExperiment::Validate(c);
        if (!err.empty())
        {
            args.Fail(err);
        }
        std::string transport = PingPongExperiment::TransportOf(c);
        std::string nic = c.intranode ? (transport == "shm" ? "" : PingPongExperiment::LOOPBACK)
                                      : c.nic;
        double price = c.intranode ? -1.0 : PingPongExperiment::PriceUsd(c.nic);
        std::string priceText = price < 0 ? "" : SweepRunner::Fixed(price, 2);
        sweep.AddPoint(item, [=]() {
            SweepRunner::Rows rows;
            for (const auto& s : PingPongExperiment::Run(c))
            {
                double us = s.oneway.GetSeconds() * 1e6;
                rows.push_back({stack,
                                os,
                                net,
                                transport,
                                c.host,
                                nic,
                                c.pci.empty() ? HostHelper::ProfileSlot(c.host) : c.pci,
                                c.intranode ? "" : std::to_string(c.useSwitch ? 1 : 0),
                                priceText,
                                std::to_string(s.bytes),
                                SweepRunner::Fixed(us),
                                SweepRunner::Rate(us > 0 ? s.bytes / us : 0.0, false).first,
                                SweepRunner::Rate(us > 0 ? s.bytes / us : 0.0, false).second});
            }
            return rows;
        });
    }
    return sweep.Run();
}
