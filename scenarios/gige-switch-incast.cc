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
//   ./ns3 run scenarios/gige-switch-incast --senders=2 --pcap=incast

#include "scenario-args.h"

#include "ns3/clusternet-module.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include <iomanip>
#include <iostream>

using namespace ns3;
using namespace ns3::clusternet;

int
main(int argc, char** argv)
{
    ScenarioArgs args(argc, argv, "gige-switch-incast",
                      "N senders at line rate into one switch port (N:1 overload), with 802.3x "
                      "PAUSE on or off; prints drops, PAUSE frames and the sink's throughput.");
    args.Add("senders", "hosts sending to the sink (1-15)", "2");
    args.Add("frames", "frames each sender sends [frames] (1-100000)", "400");
    args.Add("size", "payload per frame [bytes] (46-9000)", "1500");
    args.Add("pause", "IEEE 802.3x flow control on hosts and switch ports (true/false)", "true");
    args.Add("buffer", "ingress buffer per switch port [bytes] (9018-16777216)", "65536");
    args.Add("pcap", "write <prefix>-<node>-<device>.pcap for every host NIC (empty: none)", "");
    args.Parse();
    uint32_t senders = args.GetUint("senders", 1, 15, "hosts");
    uint32_t frames = args.GetUint("frames", 1, 100000, "frames");
    uint32_t size = args.GetUint("size", 46, 9000, "bytes");
    bool pause = args.GetBool("pause");
    uint32_t buffer = args.GetUint("buffer", 9018, 16777216, "bytes");
    std::string pcap = args.Get("pcap");

    NodeContainer hosts;
    hosts.Create(senders + 1);
    Ptr<Node> swNode = CreateObject<Node>();
    GigeHelper nic;
    nic.SetDeviceAttribute("Mtu", UintegerValue(std::max<uint32_t>(size, 1500)));
    nic.SetDeviceAttribute("PauseEnabled", BooleanValue(pause));
    nic.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", QueueSizeValue(QueueSize("200000p")));
    GigeSwitchHelper swHelper;
    swHelper.SetPortAttribute("PauseEnabled", BooleanValue(pause));
    swHelper.SetPortAttribute("RxFifoSize", UintegerValue(buffer));
    swHelper.SetPortAttribute("PauseHighWater", UintegerValue(buffer - 2 * 9038));
    swHelper.SetPortAttribute("PauseLowWater", UintegerValue((buffer - 2 * 9038) / 3));
    NetDeviceContainer devs = swHelper.Install(swNode, hosts, nic);
    Ptr<GigeSwitchNetDevice> sw = GigeSwitchHelper::GetSwitch(swNode);
    Ptr<NetDevice> sink = devs.Get(senders);
    if (!pcap.empty())
    {
        nic.EnablePcap(pcap, devs);
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
    for (uint32_t i = 0; i < sw->GetNSwitchPorts(); ++i)
    {
        Ptr<GigeNetDevice> port = DynamicCast<GigeNetDevice>(sw->GetSwitchPort(i));
        drops += port->GetRxFifoDrops();
        std::cout << std::setw(4) << i << "  " << std::setw(6) << (i == senders ? "sink" : "sender")
                  << std::setw(12) << port->GetPauseFramesSent() << std::setw(12)
                  << port->GetPauseFramesReceived() << std::setw(15) << port->GetRxFifoDrops()
                  << std::setw(19) << port->GetRxFifoPeak() << "\n";
    }
    uint64_t sent = uint64_t(senders) * frames * size;
    double mbps = (last > first) ? delivered * 8.0 / (last - first).GetSeconds() / 1e6 : 0.0;
    std::cout << "sent_bytes=" << sent << " delivered_bytes=" << delivered << " drops=" << drops
              << " sink_goodput_mbps=" << std::fixed << std::setprecision(1) << mbps << "\n";
    Simulator::Destroy();
    return 0;
}
