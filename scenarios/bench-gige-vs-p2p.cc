// SPDX-License-Identifier: GPL-2.0-only
//
// Benchmark, not a test: the cost of clusternet's detail. The same TCP workload (ns-3's TCP,
// equal socket buffers) runs twice in one process:
//   1. through clusternet: GigeNetDevice (NIC profile, FIFOs, PAUSE, PCI DMA, coalescing) and
//      the host model (HostCpu, PciBus) of the chosen profiles;
//   2. through ns-3's PointToPointNetDevice at the same line rate and MTU, no host model.
// --workload=bulk (the default): one BulkSendApplication -> PacketSink transfer of --bytes.
// --workload=netpipe: seed 000's NetPIPE ping-pong (NetpipeApplication, 1 B to --max-block,
// the host profile's TCP settings on both runs): the clusternet run is a gige-mtu-sweep point,
// the point-to-point run what ns-3's TCP and the same application cost without a device or
// host model (the floor a packet-level model over ns-3's TCP cannot go below).
// Each run reports the wall time of Simulator::Run() per simulated packet (frames on the wire,
// both directions) and the events it executed per packet. The last line is
// ratio=<wall per packet, clusternet / p2p>.
//
// data.csv has one row per model (its wall times change from run to run: a benchmark is
// never reused from an earlier run).
//
//   ./ns3 run scenarios/bench-gige-vs-p2p [-- --bytes=100000000]
//   ./ns3 run scenarios/bench-gige-vs-p2p -- --workload=netpipe --nic=acenic --mtu=4500

#include "netpipe-experiment.h"
#include "netpipe-scenario.h"
#include "scenario-args.h"
#include "sweep-runner.h"
#include "ns3/applications-module.h"
#include "ns3/clusternet-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <chrono>
#include <cstdio>
#include <iostream>

using namespace ns3;
using namespace ns3::clusternet;

namespace
{

/// What one run measured.
struct BenchResult
{
    double simSeconds;  //!< simulated time of the workload [s]
    double wallSeconds; //!< wall time of Simulator::Run() [s]
    uint64_t packets;   //!< frames on the wire, both directions
    uint64_t received;  //!< bulk: bytes at the sink; netpipe: block sizes measured
    uint64_t events;    //!< events Simulator::Run() executed
    double mbps;        //!< bulk: goodput; netpipe: NetPIPE's peak throughput [Mbit/s]
};

/// Count the frames @p devs put on the wire into @p packets.
void
CountFrames(NetDeviceContainer devs, uint64_t& packets)
{
    for (uint32_t i = 0; i < devs.GetN(); ++i)
    {
        devs.Get(i)->TraceConnectWithoutContext(
            "PhyTxEnd",
            Callback<void, Ptr<const Packet>>([&packets](Ptr<const Packet>) { ++packets; }));
    }
}

/// Install ns-3's internet stack on @p nodes and number @p devs 10.0.0.0/24; @return them
Ipv4InterfaceContainer
InstallInternet(NodeContainer nodes, NetDeviceContainer devs)
{
    InternetStackHelper internet;
    internet.Install(nodes);
    internet.AssignStreams(nodes, 0);
    Ipv4AddressHelper addr("10.0.0.0", "255.255.255.0");
    return addr.Assign(devs);
}

/// Run the simulation (bounded at @p limit); @return the wall time of Simulator::Run() [s]
double
TimedRun(Time limit)
{
    Simulator::Stop(limit);
    auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    auto t1 = std::chrono::steady_clock::now();
    return std::chrono::duration<double>(t1 - t0).count();
}

/// Run a BulkSend transfer of @p bytes between the two nodes of @p nodes over @p devs.
BenchResult
RunTransfer(NodeContainer nodes, NetDeviceContainer devs, uint64_t bytes)
{
    Ipv4InterfaceContainer ifs = InstallInternet(nodes, devs);

    uint64_t packets = 0;
    CountFrames(devs, packets);
    PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                InetSocketAddress(Ipv4Address::GetAny(), 5001));
    ApplicationContainer sinkApp = sinkHelper.Install(nodes.Get(1));
    BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(ifs.GetAddress(1), 5001));
    bulk.SetAttribute("MaxBytes", UintegerValue(bytes));
    bulk.SetAttribute("SendSize", UintegerValue(65536));
    ApplicationContainer srcApp = bulk.Install(nodes.Get(0));
    srcApp.Start(MilliSeconds(1));
    Ptr<PacketSink> sink = DynamicCast<PacketSink>(sinkApp.Get(0));
    Time done;
    sink->TraceConnectWithoutContext(
        "Rx",
        Callback<void, Ptr<const Packet>, const Address&>(
            [&](Ptr<const Packet>, const Address&) {
                if (sink->GetTotalRx() >= bytes)
                {
                    done = Simulator::Now();
                    Simulator::Stop();
                }
            }));
    double wall = TimedRun(Seconds(1000));
    double sim = (done - MilliSeconds(1)).GetSeconds();
    BenchResult r{sim,
                  wall,
                  packets,
                  sink->GetTotalRx(),
                  Simulator::GetEventCount(),
                  sink->GetTotalRx() * 8.0 / sim / 1e6};
    Simulator::Destroy();
    return r;
}

/// Run NetPIPE's ping-pong, blocks of 1 B to @p maxBlock, between the two nodes of @p nodes
/// over @p devs (as TcpNetpipeExperiment sets it up, with NetpipeHelper).
BenchResult
RunNetpipe(NodeContainer nodes, NetDeviceContainer devs, uint32_t sockbuf, uint32_t maxBlock)
{
    Ipv4InterfaceContainer ifs = InstallInternet(nodes, devs);
    uint64_t packets = 0;
    CountFrames(devs, packets);
    NetpipeHelper netpipe;
    netpipe.SetAttribute("SocketBuffer", UintegerValue(sockbuf));
    netpipe.SetAttribute("MaxBlock", UintegerValue(maxBlock));
    Ptr<NetpipeApplication> tx = netpipe.Install(nodes.Get(0), nodes.Get(1), ifs.GetAddress(1));
    tx->SetDoneCallback(Callback<void>([]() { Simulator::Stop(); }));
    double wall = TimedRun(Seconds(600));
    double peak = 0;
    for (const auto& sample : tx->GetSamples())
    {
        peak = std::max(peak, sample.bytes * 8.0 / sample.oneWay.GetSeconds() / 1e6);
    }
    BenchResult r{(Simulator::Now() - MilliSeconds(1)).GetSeconds(),
                  wall,
                  packets,
                  tx->GetSamples().size(),
                  Simulator::GetEventCount(),
                  peak};
    Simulator::Destroy();
    return r;
}

/// Print @p r as a line of the table; @return it as a data.csv row
std::vector<std::string>
Report(const char* model, const BenchResult& r)
{
    std::printf("%-11s  %12llu  %8.4f  %12.1f  %9llu  %7.3f  %9.3f  %10llu  %8.2f\n",
                model,
                static_cast<unsigned long long>(r.received),
                r.simSeconds,
                r.mbps,
                static_cast<unsigned long long>(r.packets),
                r.wallSeconds,
                r.wallSeconds / r.packets * 1e6,
                static_cast<unsigned long long>(r.events),
                static_cast<double>(r.events) / r.packets);
    return {model,
            std::to_string(r.received),
            SweepRunner::Fixed(r.simSeconds, 6),
            SweepRunner::Rate(r.mbps, true).first,
            SweepRunner::Rate(r.mbps, true).second,
            std::to_string(r.packets),
            SweepRunner::Fixed(r.wallSeconds, 3),
            SweepRunner::Fixed(r.wallSeconds / r.packets * 1e6, 3),
            std::to_string(r.events),
            SweepRunner::Fixed(static_cast<double>(r.events) / r.packets, 3)};
}

/// One benchmark: the clusternet run, then the point-to-point run.
struct Bench
{
    bool netpipe;      //!< the NetPIPE ping-pong, else one bulk transfer
    uint64_t bytes;    //!< bulk: bytes to transfer
    uint32_t maxBlock; //!< netpipe: largest block [bytes]
    std::string nic;
    std::string host;
    uint32_t sockbuf; //!< TCP send and receive buffer [bytes]
    uint32_t mtu;     //!< IP MTU of both devices [bytes]
};

/// @return the data.csv columns of @p netpipe's workload
std::vector<std::string>
Columns(bool netpipe)
{
    if (netpipe)
    {
        return {"model", "blocks", "sim_s", "peak_mbps", "peak_mbytes_per_s", "packets",
                "wall_s", "wall_us_per_pkt", "events", "events_per_pkt"};
    }
    return {"model", "bytes_rx", "sim_s", "goodput_mbps", "goodput_mbytes_per_s", "packets",
            "wall_s", "wall_us_per_pkt", "events", "events_per_pkt"};
}

SweepRunner::Rows
RunBench(const Bench& b)
{
    HostHelper hosts;
    hosts.SetHostProfile(b.host);
    auto workload = [&b](NodeContainer nodes, NetDeviceContainer devs) {
        return b.netpipe ? RunNetpipe(nodes, devs, b.sockbuf, b.maxBlock)
                         : RunTransfer(nodes, devs, b.bytes);
    };
    if (!b.netpipe)
    {
        // The same TCP in both runs: ns-3's socket with the MSS for the MTU with timestamps
        // (IP and TCP headers, 12 option bytes), equal buffers. NetPIPE's own sockets take
        // the host profile's stack settings instead (HostStack, installed on both).
        Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(b.mtu - 52));
        Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(b.sockbuf));
        Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(b.sockbuf));
        std::printf("model        bytes_rx      sim_s     goodput_Mbps  packets    wall_s   "
                    "wall_us/pkt  events      events/pkt\n");
    }
    else
    {
        std::printf("model          blocks      sim_s        peak_Mbps  packets    wall_s   "
                    "wall_us/pkt  events      events/pkt\n");
    }
    SweepRunner::Rows rows;
    BenchResult gige;
    {
        NodeContainer nodes;
        nodes.Create(2);
        hosts.Install(nodes);
        GigeHelper helper;
        helper.SetNicProfile(b.nic);
        helper.SetDeviceAttribute("Mtu", UintegerValue(b.mtu));
        gige = workload(nodes, helper.Install(nodes));
        rows.push_back(Report("clusternet", gige));
    }
    BenchResult p2p;
    {
        NodeContainer nodes;
        nodes.Create(2);
        if (b.netpipe)
        {
            hosts.InstallStack(nodes);
        }
        PointToPointHelper helper;
        helper.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        helper.SetDeviceAttribute("Mtu", UintegerValue(b.mtu));
        helper.SetChannelAttribute("Delay", StringValue("0s"));
        p2p = workload(nodes, helper.Install(nodes));
        rows.push_back(Report("p2p", p2p));
    }
    double ratio = (gige.wallSeconds / gige.packets) / (p2p.wallSeconds / p2p.packets);
    std::printf("ratio=%.2f\n", ratio);
    std::fflush(stdout);
    return rows;
}

} // namespace

int
main(int argc, char** argv)
{
    ScenarioArgs args(argc, argv, "bench-gige-vs-p2p",
                      "Wall time per simulated packet of one TCP workload (a bulk transfer, or "
                      "seed 000's NetPIPE ping-pong) through clusternet's GigE NIC + host model "
                      "and through ns-3's PointToPointNetDevice; last line ratio=<clusternet / "
                      "p2p>.");
    args.AddChoice("workload",
                   "bulk: one BulkSend transfer of --bytes; netpipe: NetPIPE's ping-pong of 1 "
                   "B to --max-block, as a gige-mtu-sweep point runs it",
                   {"bulk", "netpipe"},
                   "bulk");
    args.AddUint("bytes", "bytes to transfer (bulk)", "bytes", 1000000, 4000000000u, 100000000);
    const UintegerRange maxBlockRange = TcpNetpipeExperiment::MaxBlockRange();
    args.AddUint("max-block",
                 "largest NetPIPE block (netpipe)",
                 "bytes",
                 maxBlockRange.min,
                 maxBlockRange.max,
                 2097152);
    args.AddChoice("nic", "clusternet NIC profile", ProfileCatalogue::Names("nic"), "sknet");
    args.AddChoice("host",
                   "clusternet host profile",
                   ProfileCatalogue::Names("host"),
                   "piii450-linux22");
    args.AddUint("sockbuf",
                 "TCP send and receive buffer, both runs",
                 "bytes",
                 4096,
                 16777216,
                 131072);
    const UintegerRange mtuRange = TcpNetpipeExperiment::MtuRange();
    args.AddUint("mtu", "IP MTU, both runs", "bytes", mtuRange.min, mtuRange.max, 1500);
    SweepRunner::AddArguments(args, "bench-gige-vs-p2p", "");
    args.Parse();
    const auto [mtuProfile, ownMtu] = ProfileMtu(args.GetChoice("nic"), args.GetChoice("host"));
    Bench b{args.GetChoice("workload") == "netpipe",
            args.GetUint("bytes"),
            static_cast<uint32_t>(args.GetUint("max-block")),
            args.GetChoice("nic"),
            args.GetChoice("host"),
            static_cast<uint32_t>(args.GetUint("sockbuf")),
            static_cast<uint32_t>(std::stoul(args.OverProfile("mtu",
                                                              std::to_string(args.GetUint("mtu")),
                                                              mtuProfile,
                                                              "device.Mtu",
                                                              ownMtu)))};
    SweepRunner sweep(args, "bench-gige-vs-p2p", Columns(b.netpipe));
    sweep.SetReusable(false); // wall times: measured anew on every run
    sweep.AddPoint("workload=" + args.GetChoice("workload") + " nic=" + b.nic + " host=" + b.host +
                       " mtu=" + std::to_string(b.mtu) + " sockbuf=" + std::to_string(b.sockbuf),
                   [b]() { return RunBench(b); });
    return sweep.Run();
}
