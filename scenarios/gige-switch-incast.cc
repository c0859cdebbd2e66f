// SPDX-License-Identifier: GPL-2.0-only
//
// Incast through a store-and-forward Gigabit Ethernet switch, with and without 802.3x PAUSE.
//
//   sender 1 ---\
//   ...          [GigeSwitchNetDevice] --- sink
//   sender N ---/
//
// N senders each blast --frames frames at line rate to one sink: an N:1 overload of the sink's
// switch port. With PAUSE on, the switch's ingress buffers push back on the senders and nothing
// is lost; with --pause=false the ingress buffers overflow and drop. --pcap=<prefix> writes a
// capture of every host NIC (PAUSE frames included, decoded by Wireshark as MAC Control).
//
// Prints a table per switch port and writes it to data.csv (one row per port, with the run's
// totals), so the run is also one point for the sweep driver and clusternet.run.
//
//   ./ns3 run scenarios/gige-switch-incast -- --senders=2 --pcap=incast

#include "scenario-args.h"
#include "sweep-runner.h"

#include "ns3/clusternet-module.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include <filesystem>
#include <iomanip>
#include <iostream>
#include <unistd.h>

using namespace ns3;
using namespace ns3::clusternet;

namespace
{

/// A jumbo frame on the wire [bytes]: 9000 of payload, 18 of header and FCS, 8 of preamble and
/// 12 of inter-frame gap (the largest frame --size allows).
constexpr uint32_t kJumboWireBytes = 9038;
/// Switch-port buffer above the PAUSE high-water mark [bytes]: once it is crossed, two jumbo
/// frames may still arrive (the one on the wire and the one the sender starts before the PAUSE
/// reaches it), so PAUSE loses nothing whatever the frame size.
constexpr uint32_t kPauseHeadroom = 2 * kJumboWireBytes;
/// Smallest --buffer [bytes]: the headroom and a high-water mark of at least one byte (the
/// low-water mark, a third of it, then stays below it as the port requires).
constexpr uint32_t kMinBuffer = kPauseHeadroom + 1;

/// One incast run: its command-line values.
struct IncastRun
{
    uint32_t senders;
    uint32_t frames;
    uint32_t size;
    bool pause;
    uint32_t buffer;
    std::string pcap;
};

/// Simulate @p r, print the per-port table and totals, and return them as data.csv rows.
SweepRunner::Rows
RunIncast(const IncastRun& r)
{
    const uint32_t senders = r.senders;
    const uint32_t frames = r.frames;
    const uint32_t size = r.size;
    NodeContainer hosts;
    hosts.Create(senders + 1);
    Ptr<Node> swNode = CreateObject<Node>();
    GigeHelper nic;
    nic.SetDeviceAttribute("Mtu", UintegerValue(std::max<uint32_t>(size, 1500)));
    nic.SetDeviceAttribute("PauseEnabled", BooleanValue(r.pause));
    nic.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", QueueSizeValue(QueueSize("200000p")));
    GigeSwitchHelper swHelper;
    swHelper.SetPortAttribute("PauseEnabled", BooleanValue(r.pause));
    swHelper.SetPortAttribute("RxFifoSize", UintegerValue(r.buffer));
    swHelper.SetPortAttribute("PauseHighWater", UintegerValue(r.buffer - kPauseHeadroom));
    swHelper.SetPortAttribute("PauseLowWater", UintegerValue((r.buffer - kPauseHeadroom) / 3));
    NetDeviceContainer devs = swHelper.Install(swNode, hosts, nic);
    Ptr<GigeSwitchNetDevice> sw = GigeSwitchHelper::GetSwitch(swNode);
    Ptr<NetDevice> sink = devs.Get(senders);
    if (!r.pcap.empty())
    {
        nic.EnablePcap(r.pcap, devs);
    }

    uint64_t delivered = 0;
    Time first;
    Time last;
    sink->SetReceiveCallback([&](Ptr<NetDevice>, Ptr<const Packet> p, uint16_t proto, const Address&) {
        if (proto == 0x0800)
        {
            delivered += p->GetSize();
            first = first.IsZero() ? Simulator::Now() : first;
            last = Simulator::Now();
        }
        return true;
    });
    // The sink announces itself (as ARP would) so the switch learns its port; then the blast.
    sink->Send(Create<Packet>(46), sink->GetBroadcast(), 0x0806);
    for (uint32_t s = 0; s < senders; ++s)
    {
        Ptr<NetDevice> dev = devs.Get(s);
        Simulator::Schedule(MicroSeconds(50), [dev, sink, frames, size]() {
            for (uint32_t i = 0; i < frames; ++i)
            {
                dev->Send(Create<Packet>(size), sink->GetAddress(), 0x0800);
            }
        });
    }
    Simulator::Run();

    std::cout << "port  role    pause_sent  pause_recv  ingress_drops  buffer_peak_bytes\n";
    uint64_t drops = sw->GetOutputDrops();
    SweepRunner::Rows rows;
    for (uint32_t i = 0; i < sw->GetNSwitchPorts(); ++i)
    {
        Ptr<GigeNetDevice> port = DynamicCast<GigeNetDevice>(sw->GetSwitchPort(i));
        drops += port->GetRxFifoDrops();
        const char* role = i == senders ? "sink" : "sender";
        std::cout << std::setw(4) << i << "  " << std::setw(6) << role << std::setw(12)
                  << port->GetPauseFramesSent() << std::setw(12)
                  << port->GetPauseFramesReceived() << std::setw(15) << port->GetRxFifoDrops()
                  << std::setw(19) << port->GetRxFifoPeak() << "\n";
        rows.push_back({std::to_string(senders),
                        std::to_string(frames),
                        std::to_string(size),
                        r.pause ? "1" : "0",
                        std::to_string(r.buffer),
                        std::to_string(i),
                        role,
                        std::to_string(port->GetPauseFramesSent()),
                        std::to_string(port->GetPauseFramesReceived()),
                        std::to_string(port->GetRxFifoDrops()),
                        std::to_string(port->GetRxFifoPeak())});
    }
    uint64_t sent = uint64_t(senders) * frames * size;
    double mbps = (last > first) ? delivered * 8.0 / (last - first).GetSeconds() / 1e6 : 0.0;
    std::cout << "sent_bytes=" << sent << " delivered_bytes=" << delivered << " drops=" << drops
              << " sink_goodput_mbps=" << std::fixed << std::setprecision(1) << mbps << "\n";
    for (auto& row : rows)
    {
        row.insert(row.end(),
                   {std::to_string(sent),
                    std::to_string(delivered),
                    std::to_string(drops),
                    SweepRunner::Rate(mbps, true, 1).first,
                    SweepRunner::Rate(mbps, true, 1).second});
    }
    Simulator::Destroy();
    return rows;
}

/// @return "" if the captures of prefix @p pcap can be written, else what is wrong
std::string
CheckPcapPrefix(const std::string& pcap)
{
    // The files are <prefix>-<node>-<device>.pcap: their folder must exist and be writable.
    std::filesystem::path dir = std::filesystem::path(pcap).parent_path();
    dir = dir.empty() ? "." : dir;
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec) || access(dir.c_str(), W_OK | X_OK) != 0)
    {
        return "--pcap: cannot write " + pcap + "-<node>-<device>.pcap: '" + dir.string() +
               "' is not a writable folder";
    }
    return "";
}

} // namespace

int
main(int argc, char** argv)
{
    ScenarioArgs args(argc, argv, "gige-switch-incast",
                      "N senders at line rate into one switch port (N:1 overload), with 802.3x "
                      "PAUSE on or off; prints drops, PAUSE frames and the sink's throughput.");
    args.AddUint("senders", "hosts sending to the sink", "hosts", 1, 15, 2);
    args.AddUint("frames", "frames each sender sends", "frames", 1, 100000, 400);
    args.AddUint("size", "payload per frame", "bytes", 46, 9000, 1500);
    args.AddBool("pause", "IEEE 802.3x flow control on hosts and switch ports", true);
    // The largest buffer is the port's (RxFifoSize); the smallest leaves PAUSE its headroom.
    const uint64_t maxBuffer =
        UintegerRange::Of("ns3::clusternet::GigeNetDevice", "RxFifoSize").max;
    args.AddUint("buffer",
                 "ingress buffer per switch port; PAUSE is sent " +
                     std::to_string(kPauseHeadroom) +
                     " bytes, two jumbo frames, below the top, so that it loses nothing",
                 "bytes",
                 kMinBuffer,
                 maxBuffer,
                 65536);
    args.Add("pcap", "write <prefix>-<node>-<device>.pcap for every host NIC (empty: none)", "");
    SweepRunner::AddArguments(args, "gige-switch-incast", "");
    args.Parse();
    uint32_t senders = args.GetUint("senders");
    uint32_t frames = args.GetUint("frames");
    uint32_t size = args.GetUint("size");
    bool pause = args.GetBool("pause");
    uint32_t buffer = args.GetUint("buffer");
    IncastRun run{senders, frames, size, pause, buffer, args.Get("pcap")};
    if (std::string err = run.pcap.empty() ? "" : CheckPcapPrefix(run.pcap); !err.empty())
    {
        args.Fail(err);
    }

    SweepRunner sweep(args,
                      "gige-switch-incast",
                      {"senders", "frames", "size_bytes", "pause", "buffer_bytes", "port",
                       "role", "pause_sent", "pause_recv", "ingress_drops",
                       "buffer_peak_bytes", "sent_bytes", "delivered_bytes", "drops",
                       "sink_goodput_mbps",
                       "sink_goodput_mbytes_per_s"});
    sweep.SetReusable(run.pcap.empty()); // a capture asked for is written again
    sweep.AddPoint("senders=" + std::to_string(senders) + " pause=" + (pause ? "on" : "off"),
                   [run]() { return RunIncast(run); });
    return sweep.Run();
}

