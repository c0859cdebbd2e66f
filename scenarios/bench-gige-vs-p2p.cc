// SPDX-License-Identifier: GPL-2.0-only
//
// Benchmark, not a test: the cost of clusternet's detail. The same TCP bulk transfer (ns-3's
// TCP, BulkSendApplication -> PacketSink, MTU 1500, equal socket buffers) runs twice in one
// process:
//   1. through clusternet: GigeNetDevice (NIC profile, FIFOs, PAUSE, PCI DMA, coalescing) and
//      the host model (HostCpu, PciBus) of the chosen profiles;
//   2. through ns-3's PointToPointNetDevice at the same line rate, no host model.
// Each run reports the wall time of Simulator::Run() per simulated packet (frames on the wire,
// both directions) and the events it executed per packet. The last line is
// ratio=<wall per packet, clusternet / p2p>.
//
// data.csv has one row per model (its wall times change from run to run: a benchmark is
// never reused from an earlier run).
//
//   ./ns3 run scenarios/bench-gige-vs-p2p [-- --bytes=100000000]

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
    double simSeconds;  //!< simulated time of the transfer [s]
    double wallSeconds; //!< wall time of Simulator::Run() [s]
    uint64_t packets;   //!< frames on the wire, both directions
    uint64_t received;  //!< bytes at the sink
    uint64_t events;    //!< events Simulator::Run() executed
};

/// Run a BulkSend transfer of @p bytes between the two nodes of @p nodes over @p devs.
BenchResult
RunTransfer(NodeContainer nodes, NetDeviceContainer devs, uint64_t bytes)
{
    InternetStackHelper internet;
    internet.Install(nodes);
    internet.AssignStreams(nodes, 0);
    Ipv4AddressHelper addr("10.0.0.0", "255.255.255.0");
    Ipv4InterfaceContainer ifs = addr.Assign(devs);

    uint64_t packets = 0;
    for (uint32_t i = 0; i < devs.GetN(); ++i)
    {
        devs.Get(i)->TraceConnectWithoutContext(
            "PhyTxEnd",
            Callback<void, Ptr<const Packet>>([&packets](Ptr<const Packet>) { ++packets; }));
    }
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
    Simulator::Stop(Seconds(1000));
    auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    auto t1 = std::chrono::steady_clock::now();
    BenchResult r{(done - MilliSeconds(1)).GetSeconds(),
                  std::chrono::duration<double>(t1 - t0).count(),
                  packets,
                  sink->GetTotalRx(),
                  Simulator::GetEventCount()};
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
                r.received * 8.0 / r.simSeconds / 1e6,
                static_cast<unsigned long long>(r.packets),
                r.wallSeconds,
                r.wallSeconds / r.packets * 1e6,
                static_cast<unsigned long long>(r.events),
                static_cast<double>(r.events) / r.packets);
    return {model,
            std::to_string(r.received),
            SweepRunner::Fixed(r.simSeconds, 6),
            SweepRunner::Fixed(r.received * 8.0 / r.simSeconds / 1e6, 3),
            std::to_string(r.packets),
            SweepRunner::Fixed(r.wallSeconds, 3),
            SweepRunner::Fixed(r.wallSeconds / r.packets * 1e6, 3),
            std::to_string(r.events),
            SweepRunner::Fixed(static_cast<double>(r.events) / r.packets, 3)};
}

/// One benchmark: the clusternet run, then the point-to-point run.
struct Bench
{
    uint64_t bytes;
    std::string nic;
    std::string host;
    uint32_t sockbuf;
};

SweepRunner::Rows
RunBench(const Bench& b)
{
    // The same TCP in both runs: MSS for MTU 1500 with timestamps, equal buffers.
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(b.sockbuf));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(b.sockbuf));

    std::printf("model        bytes_rx      sim_s     goodput_Mbps  packets    wall_s   wall_us/pkt"
                "  events      events/pkt\n");
    SweepRunner::Rows rows;
    BenchResult gige;
    {
        NodeContainer nodes;
        nodes.Create(2);
        HostHelper hosts;
        hosts.SetHostProfile(b.host);
        hosts.Install(nodes);
        GigeHelper helper;
        helper.SetNicProfile(b.nic);
        gige = RunTransfer(nodes, helper.Install(nodes), b.bytes);
        rows.push_back(Report("clusternet", gige));
    }
    BenchResult p2p;
    {
        NodeContainer nodes;
        nodes.Create(2);
        PointToPointHelper helper;
        helper.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        helper.SetDeviceAttribute("Mtu", UintegerValue(1500));
        helper.SetChannelAttribute("Delay", StringValue("0s"));
        p2p = RunTransfer(nodes, helper.Install(nodes), b.bytes);
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
                      "Wall time per simulated packet of one TCP bulk transfer through "
                      "clusternet's GigE NIC + host model and through ns-3's "
                      "PointToPointNetDevice; last line ratio=<clusternet / p2p>.");
    args.AddUint("bytes", "bytes to transfer", "bytes", 1000000, 4000000000u, 100000000);
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
    SweepRunner::AddArguments(args, "bench-gige-vs-p2p", "");
    args.Parse();
    Bench b{args.GetUint("bytes"),
            args.GetChoice("nic"),
            args.GetChoice("host"),
            args.GetUint("sockbuf")};
    SweepRunner sweep(args,
                      "bench-gige-vs-p2p",
                      {"model", "bytes_rx", "sim_s", "goodput_mbps", "packets", "wall_s",
                       "wall_us_per_pkt", "events", "events_per_pkt"});
    sweep.SetReusable(false); // wall times: measured anew on every run
    sweep.AddPoint("nic=" + b.nic + " host=" + b.host, [b]() { return RunBench(b); });
    return sweep.Run();
}
