// SPDX-License-Identifier: GPL-2.0-only
//
// Seed 003 (Majumder & Rixner, LACSI 2004), sec. 3.1, Figures 1 and 2,
// predicted blind twice, then released: raw
// network latency (half the ping-pong time) and unidirectional bandwidth against message size
// between two AMD Athlon XP 2800+ / FreeBSD 4.7 nodes. Ethernet: a kernel-level UDP benchmark
// (zero-copy send and receive inside the kernel) over Intel PRO/1000 MT Server NICs through a
// store-and-forward Gigabit Ethernet switch, with the em driver's interrupt coalescing at its
// defaults and turned off. Myrinet: gm_allsize over LANai 7.2 NICs.
//
//   ./ns3 run scenarios/raw-ethernet-vs-myrinet
//   ./ns3 run scenarios/raw-ethernet-vs-myrinet -- --net=gige --max-msg=16384
//   ./ns3 run scenarios/raw-ethernet-vs-myrinet -- --help

#include "cluster-args.h"
#include "gm-experiment.h"
#include "scenario-args.h"
#include "sweep-runner.h"
#include "ns3/clusternet-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <set>

using namespace ns3;
using namespace ns3::clusternet;

namespace
{

/// Seed 003's parts: Athlon XP 2800+ / FreeBSD 4.7 nodes, PRO/1000 MT Server NICs (em
/// coalescing at the driver defaults, and off), LANai 7.2 boards, one switch per network.
const ClusterParts kPaper{"athlonxp2800-fbsd47", "pro1000mt", "lanai72", 1};
const std::string kPaperNicOff = "pro1000mt-nocoal";

/// Powers of two from 1 byte up to @p max, with the Ethernet payload sizes 1472 and 1500.
std::vector<uint32_t>
Sizes(uint32_t max)
{
    std::set<uint32_t> s{1472, 1500, max};
    for (uint64_t p = 1; p <= max; p *= 2)
    {
        s.insert(static_cast<uint32_t>(p));
    }
    std::vector<uint32_t> v;
    for (uint32_t x : s)
    {
        if (x <= max)
        {
            v.push_back(x);
        }
    }
    return v;
}

/// Datagrams (or messages) streamed per size: @p streamBytes worth, within 64..4096.
uint32_t
StreamCount(uint32_t size, uint32_t streamBytes)
{
    return std::clamp<uint32_t>(streamBytes / std::max<uint32_t>(size, 1), 64, 4096);
}

/// The Ethernet machine: two nodes with the NIC @p nic (of the curve @p coalesce) on a switch
/// or back to back, kernel UDP benchmarks.
SweepRunner::Rows
RunGige(const ClusterParts& parts,
        const std::string& coalesce,
        const std::string& nic,
        const std::vector<uint32_t>& sizes,
        uint32_t reps,
        uint32_t streamBytes)
{
    EthernetCluster cluster(2, parts.host, nic, parts.switches > 0, 0, parts.pci);
    const NodeContainer& nodes = cluster.GetHosts();
    const Ipv4InterfaceContainer& ifs = cluster.GetInterfaces();
    Ptr<KernelUdpBenchmark> a = CreateObject<KernelUdpBenchmark>();
    Ptr<KernelUdpBenchmark> b = CreateObject<KernelUdpBenchmark>();
    nodes.Get(0)->AddApplication(a);
    nodes.Get(1)->AddApplication(b);
    a->SetPeer(ifs.GetAddress(1), b);
    b->SetPeer(ifs.GetAddress(0), a);
    Simulator::Run(); // start the applications

    SweepRunner::Rows rows;
    Time latency;
    double bps = 0;
    // Each step starts on node 0 (its own event context), then runs until the network is idle.
    auto step = [&](std::function<void()> f) {
        Simulator::ScheduleWithContext(nodes.Get(0)->GetId(), Seconds(0), f);
        Simulator::Run();
    };
    step([&]() { a->PingPong(1, 1, [&](Time t) { latency = t; }); }); // resolve ARP first
    for (uint32_t size : sizes)
    {
        step([&]() { a->PingPong(size, reps, [&](Time t) { latency = t; }); });
        uint32_t count = StreamCount(size, streamBytes);
        step([&]() { a->Stream(size, count, [&](double r) { bps = r; }); });
        rows.push_back({"gige",
                        coalesce,
                        nic,
                        parts.host,
                        ClusterArgs::EthernetPci(parts),
                        std::to_string(parts.switches),
                        std::to_string(size),
                        SweepRunner::Fixed(latency.GetSeconds() * 1e6),
                        SweepRunner::Rate(bps / 1e6, true).first,
                        SweepRunner::Rate(bps / 1e6, true).second,
                        std::to_string(count)});
    }
    Simulator::Destroy();
    return rows;
}

/// The Myrinet machine: gm_allsize between two nodes with LANai NICs.
SweepRunner::Rows
RunMyrinet(const GmConfig& c,
           uint32_t reps,
           const std::vector<uint32_t>& sizes,
           uint32_t streamBytes)
{
    GmExperiment exp(c);
    Ptr<GmBenchmark> bench = exp.GetBenchmark();
    SweepRunner::Rows rows;
    for (uint32_t size : sizes)
    {
        uint32_t count = StreamCount(size, streamBytes);
        bench->Stream(size, count, false);
        exp.Run();
        double mbps = bench->GetThroughput() * 8 / 1e6;
        bench->PingPong(size, reps);
        exp.Run();
        rows.push_back({"myrinet",
                        "none",
                        c.lanai,
                        c.host,
                        GmExperiment::EffectivePci(c),
                        std::to_string(c.switches),
                        std::to_string(size),
                        SweepRunner::Fixed(bench->GetTime().GetSeconds() * 1e6),
                        SweepRunner::Rate(mbps, true).first,
                        SweepRunner::Rate(mbps, true).second,
                        std::to_string(count)});
    }
    return rows;
}

} // namespace

int
main(int argc, char** argv)
{
    ScenarioArgs args(argc, argv, "raw-ethernet-vs-myrinet",
                      "Seed 003 Figs 1 and 2 (released after two blind predictions): raw latency "
                      "and unidirectional "
                      "bandwidth against message size, kernel-level UDP over Intel PRO/1000 MT "
                      "(em coalescing at the driver defaults and off) through a Gigabit switch, "
                      "and gm_allsize over LANai 7.2, Athlon XP 2800+ / FreeBSD 4.7 nodes.");
    args.AddChoiceList("net", "networks", {"gige", "myrinet"}, "gige,myrinet");
    args.AddChoiceList("coalesce",
                       "Ethernet curves: the NIC's interrupt coalescing at its driver's defaults "
                       "(on: --nic) or off (off: --nic-nocoal)",
                       {"on", "off"},
                       "on,off");
    ClusterArgs::Add(args, kPaper);
    args.AddChoice("nic-nocoal",
                   "Gigabit Ethernet NIC profile of the coalescing-off curve (--nic's with its "
                   "interrupt coalescing off)",
                   ProfileCatalogue::Names("nic"),
                   kPaperNicOff);
    args.AddUint("max-msg",
                 "largest message: powers of two up to it, 1472, 1500 and itself",
                 "bytes",
                 1,
                 65000,
                 65000);
    args.AddUint("stream-bytes",
                 "bytes streamed per size, within 64..4096 messages",
                 "bytes",
                 1,
                 1u << 30,
                 2097152);
    args.AddUint("reps", "round trips per latency point", "count", 1, 100000, 20);
    SweepRunner::AddArguments(args, "raw-ethernet-vs-myrinet", "summary.csv and the plots");
    args.Parse();
    std::vector<std::string> nets = args.GetChoiceList("net");
    std::vector<std::string> coalesce = args.GetChoiceList("coalesce");
    uint32_t maxMsg = args.GetUint("max-msg");
    uint32_t streamBytes = args.GetUint("stream-bytes");
    uint32_t reps = args.GetUint("reps");
    std::vector<uint32_t> sizes = Sizes(maxMsg);
    const bool gige = std::find(nets.begin(), nets.end(), "gige") != nets.end();
    const ClusterParts parts = ClusterArgs::Parse(args, gige);
    const std::string nicOff = args.GetChoice("nic-nocoal");
    const GmConfig gm = ClusterArgs::Myrinet(parts);
    if (std::find(nets.begin(), nets.end(), "myrinet") != nets.end())
    {
        ClusterArgs::CheckMyrinet(args, parts, 2);
    }

    SweepRunner sweep(args,
                      "raw-ethernet-vs-myrinet",
                      {"net",
                       "coalesce",
                       "nic",
                       "host",
                       "pci",
                       "switches",
                       "msg_bytes",
                       "latency_us",
                       "mbps",
                       "mbytes_per_s",
                       "stream_msgs"});
    for (const auto& net : nets)
    {
        if (net == "myrinet")
        {
            sweep.AddPoint("net=myrinet",
                           [=]() { return RunMyrinet(gm, reps, sizes, streamBytes); });
            continue;
        }
        for (const auto& co : coalesce)
        {
            sweep.AddPoint("net=gige coalesce=" + co,
                           [=]() {
                               return RunGige(parts,
                                              co,
                                              co == "on" ? parts.nic : nicOff,
                                              sizes,
                                              reps,
                                              streamBytes);
                           });
        }
    }
    return sweep.Run();
}
