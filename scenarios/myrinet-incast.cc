// SPDX-License-Identifier: GPL-2.0-only
//
// Incast on one XBar16 Myrinet switch: --senders hosts each send --msg bytes (as GM-sized
// packets) to one receiver whose port drains arriving bytes slower than the link (--drain).
// The switch output to the receiver is contended 15 ways and the receiver's slack buffer
// fills: STOP/GO flow control pushes back through the switch to every sender, and the
// wormhole fabric loses nothing. Reports, per link direction, the STOPs its receiving port
// sent, the bytes it carried, the peak slack-buffer occupancy and any loss, and per sender the
// payload sent and received (bytes conserved).
//
//   ./ns3 run scenarios/myrinet-incast
//   ./ns3 run scenarios/myrinet-incast -- --drain=250,500,1000,2000 --senders=7

#include "scenario-args.h"
#include "run-checks.h"
#include "sweep-runner.h"
#include "ns3/clusternet-module.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include <map>

using namespace ns3;
using namespace ns3::clusternet;

namespace
{

/// One incast run.
struct IncastConfig
{
    uint32_t senders{15};      //!< hosts sending
    uint32_t receiverPort{0};  //!< switch port of the receiver
    uint32_t msg{1 << 20};     //!< bytes each sender sends
    uint32_t packet{4096};     //!< largest packet payload [bytes]
    uint32_t drainMbps{1000};  //!< receiver's drain rate [Mbit/s]
    std::string lanai;         //!< LANai profile giving link rate and port settings
    std::string overrides;     //!< "target.Attribute=value;..." (port, link, switch)
};

/// --set targets: the ports, links and switch of the LANai profile's Myrinet generation.
const std::vector<std::string>&
Targets()
{
    static const std::vector<std::string> targets =
        ProfileCatalogue::TargetsOf({"lanai"}, {"lanai.lanai", "lanai.mcp"});
    return targets;
}

/// @return the run's values: the LANai profile's, then the overrides (checked: the error or ""
/// in @p err)
ProfileSet
Values(const IncastConfig& c, std::string& err)
{
    ProfileSet values(Targets());
    values.AddProfile(*ProfileCatalogue::Find("lanai", c.lanai));
    // The host ports take any packet up to --packet (a Myrinet packet has no length limit of
    // its own; the port's Mtu is only what it accepts from the host).
    values.Set("port", "Mtu", std::to_string(c.packet));
    err = values.SetOverrides(c.overrides);
    return values;
}

std::vector<std::string>
Columns()
{
    return {"drain_mbps",     "link",         "from",          "to",
            "wire_bytes",     "packets",      "stops",         "gos",
            "max_slack_bytes", "overflows",   "drops",         "payload_sent_bytes",
            "payload_received_bytes", "sim_time_us", "receiver_mbps", "receiver_mbytes_per_s"};
}

SweepRunner::Rows
RunIncast(const IncastConfig& c)
{
    const uint32_t hosts = c.senders + 1;
    NodeContainer nodes(hosts);
    Ptr<Node> swNode = CreateObject<Node>();
    MyrinetHelper myrinet;
    std::string err;
    ProfileSet values = Values(c, err);
    for (const auto& [attribute, value] : values.GetProfileValues("link"))
    {
        myrinet.SetChannelAttribute(attribute, StringValue(value));
    }
    for (const auto& [attribute, value] : values.GetProfileValues("port"))
    {
        myrinet.SetDeviceAttribute(attribute, StringValue(value));
    }
    // The switch's overrides too before it is built: its Ports bound the ports added to it.
    for (const auto& [attribute, value] : values.GetProfileValues("switch"))
    {
        myrinet.SetSwitchAttribute(attribute, StringValue(value));
    }
    for (const auto& [attribute, value] : values.GetOverrides("switch"))
    {
        myrinet.SetSwitchAttribute(attribute, StringValue(value));
    }
    NetDeviceContainer ports = myrinet.InstallSwitch(swNode, nodes);
    Ptr<MyrinetSwitch> sw = swNode->GetObject<MyrinetSwitch>();
    NodeContainer machine(nodes, NodeContainer(swNode));
    values.Apply(machine); // every port, its link, the switch
    auto port = [&](uint32_t i) { return DynamicCast<MyrinetNetDevice>(ports.Get(i)); };
    Ptr<MyrinetNetDevice> rx = port(c.receiverPort);
    rx->SetAttribute("ReceiveRate", DataRateValue(DataRate(uint64_t(c.drainMbps) * 1000000)));

    // Which sender each packet came from, by packet uid, to count payload per sender.
    std::map<uint64_t, uint32_t> origin;
    std::vector<uint64_t> sent(hosts, 0);
    std::vector<uint64_t> received(hosts, 0);
    rx->SetReceiveCallback(
        Callback<bool, Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&>(
            [&](Ptr<NetDevice>, Ptr<const Packet> p, uint16_t, const Address&) {
                auto it = origin.find(p->GetUid());
                NS_ASSERT_MSG(it != origin.end(), "a packet nobody sent");
                received[it->second] += p->GetSize();
                return true;
            }));
    uint32_t perMsg = (c.msg + c.packet - 1) / c.packet;
    for (uint32_t i = 0; i < hosts; ++i)
    {
        if (i == c.receiverPort)
        {
            continue;
        }
        port(i)->SetAttribute("MaxQueue", UintegerValue(perMsg));
        for (uint32_t f = 0; f < perMsg; ++f)
        {
            uint32_t size = std::min(c.packet, c.msg - f * c.packet);
            Ptr<Packet> p = Create<Packet>(size);
            origin[p->GetUid()] = i;
            NS_ABORT_MSG_UNLESS(port(i)->Send(p, rx->GetAddress(), 1), "host queue refused");
            sent[i] += size;
        }
    }
    Simulator::Run();
    double us = Simulator::Now().GetNanoSeconds() / 1e3;
    uint64_t total = 0;
    for (uint64_t r : received)
    {
        total += r;
    }
    std::string drain = std::to_string(c.drainMbps);
    std::string simUs = SweepRunner::Fixed(us, 3);
    const auto [mbps, mbytes] = SweepRunner::Rate(us > 0 ? total * 8.0 / us : 0.0, true);
    SweepRunner::Rows rows;
    // A link direction is reported at the port that receives it (the one that sends STOP).
    auto row = [&](const std::string& name,
                   const std::string& from,
                   const std::string& to,
                   Ptr<MyrinetPort> tx,
                   Ptr<MyrinetPort> recv,
                   uint64_t payloadSent,
                   uint64_t payloadReceived) {
        rows.push_back({drain,
                        name,
                        from,
                        to,
                        std::to_string(tx->GetTxBytes()),
                        std::to_string(tx->GetTxPackets()),
                        std::to_string(recv->GetStopCount()),
                        std::to_string(recv->GetGoCount()),
                        SweepRunner::Fixed(recv->GetMaxOccupancy(), 1),
                        std::to_string(recv->GetOverflowCount() + tx->GetOverflowCount()),
                        std::to_string(recv->GetDropCount() + tx->GetDropCount()),
                        std::to_string(payloadSent),
                        std::to_string(payloadReceived),
                        simUs,
                        mbps,
                        mbytes});
    };
    uint64_t totalSent = 0;
    for (uint32_t i = 0; i < hosts; ++i)
    {
        if (i == c.receiverPort)
        {
            continue;
        }
        totalSent += sent[i];
        std::string h = "host" + std::to_string(i);
        std::string s = "switch.port" + std::to_string(i);
        row(h + "->switch", h, s, port(i), sw->GetPort(i), sent[i], received[i]);
    }
    std::string h = "host" + std::to_string(c.receiverPort);
    std::string s = "switch.port" + std::to_string(c.receiverPort);
    row("switch->" + h, s, h, sw->GetPort(c.receiverPort), rx, totalSent, total);
    Simulator::Destroy();
    return rows;
}

} // namespace

int
main(int argc, char** argv)
{
    ScenarioArgs args(argc, argv, "myrinet-incast",
                      "Incast through one XBar16: --senders hosts each send --msg bytes to one "
                      "receiver that drains slower than the link. Reports per-link STOP counts, "
                      "bytes carried, peak slack occupancy, drops and bytes conserved per "
                      "sender, for each --drain rate.");
    args.AddUint("senders", "hosts sending to the receiver", "hosts", 1, 15, 15);
    args.AddUint("receiver-port",
                 "switch port of the receiver; senders take the other ports of 0..senders",
                 "port",
                 0,
                 15,
                 0);
    // A sender queues its whole message at once: at most the host port's MaxQueue packets.
    const uint64_t maxPackets =
        UintegerRange::Of("ns3::clusternet::MyrinetNetDevice", "MaxQueue").max;
    args.AddUint("msg",
                 "bytes each sender sends, at most " + std::to_string(maxPackets) +
                     " packets of --packet",
                 "bytes",
                 1,
                 1u << 26,
                 1048576);
    args.AddUint("packet", "largest packet payload (GM: 4096)", "bytes", 1, 65535, 4096);
    args.AddUintList("drain",
                     "receiver's drain rates (the link runs at the LANai profile's rate, "
                     "lanai9: 2000)",
                     "Mbit/s",
                     1,
                     100000,
                     "250,500,1000,2000");
    args.AddChoice("lanai",
                   "LANai profile giving the link rate and port settings",
                   ProfileCatalogue::Names("lanai"),
                   "lanai9");
    args.AddOverrides(Targets(), "port.StopThreshold=48");
    SweepRunner::AddArguments(args, "myrinet-incast", "the plot");
    args.Parse();

    IncastConfig base;
    base.senders = args.GetUint("senders");
    base.msg = args.GetUint("msg");
    base.packet = args.GetUint("packet");
    if ((uint64_t(base.msg) + base.packet - 1) / base.packet > maxPackets)
    {
        args.Fail("--msg: " + std::to_string(base.msg) + " bytes are more than " +
                  std::to_string(maxPackets) + " packets of --packet=" +
                  std::to_string(base.packet) + " bytes (the host port's queue)");
    }
    base.lanai = args.GetChoice("lanai");
    base.overrides = args.Get("set");
    base.receiverPort = args.GetUint("receiver-port");
    if (base.receiverPort > base.senders)
    {
        args.Fail("--receiver-port: switch port " + std::to_string(base.receiverPort) +
                  " has no host linked; with " + std::to_string(base.senders) +
                  " senders allowed 0.." + std::to_string(base.senders));
    }
    std::vector<uint32_t> drains = args.GetUintList("drain");
    std::string err;
    ProfileSet values = Values(base, err);
    err = err.empty() ? RunChecks::MyrinetFlowControl(values) : err;
    if (err.empty() && values.GetValue<UintegerValue>("port", "Mtu").Get() < base.packet)
    {
        err = "port.Mtu is below --packet=" + std::to_string(base.packet) +
              ": the host ports would refuse the largest packets";
    }
    for (const auto& [attribute, value] : values.GetOverrides("port"))
    {
        if (attribute == "ReceiveRate" && err.empty())
        {
            err = "port.ReceiveRate is the receiver's drain rate, which --drain sets; give the "
                  "rates with --drain";
        }
        if (attribute == "MaxQueue" && err.empty())
        {
            err = "port.MaxQueue: each sender queues its whole message on its host port at "
                  "once, so the queue holds --msg / --packet packets; give the message with "
                  "--msg and --packet";
        }
    }
    if (!err.empty())
    {
        args.Fail("--set: " + err);
    }
    const UintegerRange portsRange = UintegerRange::Of("ns3::clusternet::MyrinetSwitch", "Ports");
    uint64_t switchPorts = values.GetValue<UintegerValue>("switch", "Ports").Get();
    if (switchPorts < base.senders + 1)
    {
        args.Fail("--set: switch.Ports=" + std::to_string(switchPorts) + " cannot link the " +
                  std::to_string(base.senders) + " senders and the receiver; allowed: " +
                  std::to_string(base.senders + 1) + ".." + std::to_string(portsRange.max));
    }

    SweepRunner sweep(args, "myrinet-incast", Columns());
    for (uint32_t d : drains)
    {
        IncastConfig c = base;
        c.drainMbps = d;
        sweep.AddPoint("drain=" + std::to_string(d) + "Mbps", [c]() { return RunIncast(c); });
    }
    return sweep.Run();
}
