// SPDX-License-Identifier: GPL-2.0-only
//
// All-to-all over a full-bisection Clos of XBar16 Myrinet switches, at the wire level: every
// host sends --msg bytes to every other host as packets of at most --packet bytes (GM's 4 KB
// fragments), destinations in a shifted order (host i sends to i+1, i+2, ...). A benchmark of
// the wormhole model: it prints simulated time, wall time, events, events per second and peak
// memory (and, at the wire level, the most packets alive at once: each host creates its packets
// as its port needs them), and checks the fabric lost nothing.
//
// With --level=gm every host runs GM on a LANai NIC behind its PCI bus (the --lanai and --host
// profiles): a process on each host keeps up to its send tokens of --msg-byte messages in
// flight (destinations in the same shifted order), keeps receive buffers provided, and polls
// for events until it has sent and received one message to and from every other host.
//
// data.csv holds the run's counts and simulated times (one row; the wall time, events per
// second and memory are printed only, so that the file is the same on every run; being a
// benchmark, it is never reused from an earlier run). A fabric
// that lost anything is reported and ends with status 1.
//
//   ./ns3 run scenarios/myrinet-clos-alltoall -- --hosts=128 --msg=65536
//   ./ns3 run scenarios/myrinet-clos-alltoall -- --hosts=128 --msg=65536 --level=gm

#include "scenario-args.h"
#include "sweep-runner.h"

#include "ns3/clusternet-module.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include <chrono>
#include <iomanip>
#include <iostream>
#include <sys/resource.h>

using namespace ns3;
using namespace ns3::clusternet;

namespace
{

/// Packets created and not yet delivered, over all hosts of a wire-level run.
struct InFlight
{
    uint64_t now{0};  //!< created, not yet delivered
    uint64_t peak{0}; //!< the largest @c now
};

/**
 * One host's wire-level all-to-all: its packets in destination order (host self+1, self+2, ...),
 * each --packet bytes at most, created only when the port's queue needs one: the queue holds
 * kDepth packets besides the one on the link, refilled when a packet's last byte has left, so
 * the port never waits for one and memory stays with what is in flight.
 */
struct WireSender
{
    static constexpr uint32_t kDepth = 4;
    Ptr<NetDevice> port;
    const NetDeviceContainer* ports{nullptr};
    InFlight* inFlight{nullptr};
    uint32_t self{0};
    uint32_t hosts{0};
    uint32_t msg{0};
    uint32_t packet{0};
    uint32_t shift{1};    //!< destination of the next packet: self + shift
    uint32_t fragment{0}; //!< next packet's index within its message

    /// Queue the next packet, if any is left.
    void SendNext()
    {
        if (shift == hosts)
        {
            return;
        }
        uint32_t size = std::min(packet, msg - fragment * packet);
        Address dst = ports->Get((self + shift) % hosts)->GetAddress();
        if (++fragment * uint64_t{packet} >= msg)
        {
            fragment = 0;
            ++shift;
        }
        inFlight->peak = std::max(inFlight->peak, ++inFlight->now);
        port->Send(Create<Packet>(size), dst, 1);
    }
};

/**
 * One host's all-to-all process over GM: up to its send tokens of messages in flight, a
 * receive buffer provided for each message still to come (up to its receive tokens).
 */
struct GmAllToAllProcess
{
    Ptr<GmPort> port;
    uint32_t self{0};
    uint32_t hosts{0};
    uint32_t msg{0};
    uint32_t nextShift{1}; //!< next destination: self + nextShift
    uint32_t completed{0}; //!< sends acknowledged
    uint32_t received{0};  //!< messages received
    uint32_t provided{0};  //!< receive buffers provided so far
    uint32_t buffers{0};   //!< receive buffers kept provided (0 = the port's receive tokens)
    static constexpr uint64_t kSendBase = uint64_t{1} << 30;
    static constexpr uint64_t kReceiveBase = uint64_t{1} << 32;

    bool Done() const
    {
        return completed == hosts - 1 && received == hosts - 1;
    }

    void SendNext()
    {
        uint32_t dst = (self + nextShift) % hosts;
        ++nextShift;
        port->Send(static_cast<uint16_t>(dst), 2, Create<Packet>(msg), kSendBase, nullptr);
    }

    void Provide(uint64_t address)
    {
        ++provided;
        port->ProvideReceiveBuffer(msg, address, nullptr);
    }

    void Start()
    {
        uint64_t stride = (uint64_t{msg} + 4095) / 4096 * 4096;
        uint32_t keep = buffers == 0 ? port->GetReceiveTokens()
                                     : std::min(buffers, port->GetReceiveTokens());
        for (uint32_t k = 0; k < std::min(keep, hosts - 1); ++k)
        {
            Provide(kReceiveBase + k * stride);
        }
        for (uint32_t k = 0; k < std::min(port->GetSendTokens(), hosts - 1); ++k)
        {
            SendNext();
        }
        Wait();
    }

    void Wait()
    {
        port->WaitEvent([this](const GmEvent& ev) {
            if (ev.type == GmEvent::SENT)
            {
                ++completed;
                if (nextShift < hosts)
                {
                    SendNext();
                }
            }
            else if (ev.type == GmEvent::RECEIVED)
            {
                ++received;
                if (provided < hosts - 1)
                {
                    Provide(ev.address);
                }
            }
            if (!Done())
            {
                Wait();
            }
        });
    }
};

/// One all-to-all: its command-line values.
struct AllToAll
{
    uint32_t n;
    uint32_t msg;
    uint32_t packet;
    bool gmLevel;
    std::string lanai;
    std::string hostProfile;
    uint32_t receiveBuffers;
};

/// Run @p a: print its counts, times and costs, return its data.csv row; a lossy fabric ends
/// the process with status 1.
SweepRunner::Rows
RunAllToAll(AllToAll a)
{
    const uint32_t n = a.n;
    const uint32_t msg = a.msg;
    uint32_t packet = a.packet;
    const bool gmLevel = a.gmLevel;
    const std::string& lanai = a.lanai;
    const std::string& hostProfile = a.hostProfile;
    const uint32_t receiveBuffers = a.receiveBuffers;
    auto wall0 = std::chrono::steady_clock::now();
    MyrinetHelper helper;
    NodeContainer hosts(n);
    NodeContainer switches;
    GmHelper gm;
    std::vector<GmAllToAllProcess> procs(gmLevel ? n : 0);
    std::vector<Ptr<GmMcp>> mcps;
    if (gmLevel)
    {
        packet = 4096; // GM's fragment size (GmMcp MaxPayload)
        HostHelper hostHelper;
        hostHelper.SetHostProfile(hostProfile);
        hostHelper.Install(hosts);
        gm.SetLanaiProfile(lanai);
        gm.SetHostProfile(hostProfile);
        gm.ConfigureFabric(helper);
    }
    else
    {
        // The host ports take packets up to --packet (Myrinet itself has no length limit).
        helper.SetDeviceAttribute("Mtu", UintegerValue(packet));
    }
    NetDeviceContainer ports = helper.InstallTopology("ns3::clusternet::MyrinetClosTopology", hosts, switches);
    uint32_t perMsg = (msg + packet - 1) / packet;
    if (gmLevel)
    {
        mcps = gm.Install(ports);
        for (uint32_t i = 0; i < n; ++i)
        {
            GmAllToAllProcess& p = procs[i];
            p.port = gm.OpenPort(mcps[i], 2);
            p.self = i;
            p.hosts = n;
            p.msg = msg;
            p.buffers = receiveBuffers;
            Simulator::ScheduleWithContext(hosts.Get(i)->GetId(), Seconds(0), [&p]() {
                p.Start();
            });
        }
    }
    // Each host queues its packets in destination order, a few at a time; the port sends them
    // one by one.
    InFlight inFlight;
    std::vector<WireSender> senders(gmLevel ? 0 : n);
    for (uint32_t i = 0; i < n && !gmLevel; ++i)
    {
        WireSender& w = senders[i];
        w = WireSender{ports.Get(i), &ports, &inFlight, i, n, msg, packet};
        w.port->TraceConnectWithoutContext(
            "PhyTxEnd",
            Callback<void, Ptr<const Packet>>([&w](Ptr<const Packet>) { w.SendNext(); }));
        w.port->TraceConnectWithoutContext(
            "MacRx",
            Callback<void, Ptr<const Packet>>([&inFlight](Ptr<const Packet>) { --inFlight.now; }));
        for (uint32_t k = 0; k <= WireSender::kDepth; ++k)
        {
            w.SendNext();
        }
    }
    auto wall1 = std::chrono::steady_clock::now();
    Simulator::Run();
    auto wall2 = std::chrono::steady_clock::now();
    uint64_t events = Simulator::GetEventCount();
    Time simEnd = Simulator::Now();

    uint64_t tx = 0;
    uint64_t rx = 0;
    uint64_t rxPackets = 0;
    uint64_t stops = 0;
    uint64_t overflows = 0;
    uint64_t drops = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        auto d = DynamicCast<MyrinetNetDevice>(ports.Get(i));
        tx += d->GetTxPackets();
        rx += d->GetRxBytes();
        rxPackets += d->GetRxPackets();
        drops += d->GetDropCount();
    }
    for (uint32_t s = 0; s < switches.GetN(); ++s)
    {
        Ptr<MyrinetSwitch> sw = switches.Get(s)->GetObject<MyrinetSwitch>();
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            stops += sw->GetPort(p)->GetStopCount();
            overflows += sw->GetPort(p)->GetOverflowCount();
        }
    }
    uint32_t unfinished = 0;
    for (const auto& p : procs)
    {
        unfinished += p.Done() ? 0 : 1;
    }
    uint64_t gmData = 0;
    uint64_t gmMessages = 0;
    uint64_t gmBytes = 0;
    uint64_t gmNacks = 0;
    uint64_t gmResent = 0;
    for (const auto& mcp : mcps)
    {
        gmNacks += mcp->GetNacksSent();
        gmResent += mcp->GetRetransmissions();
        gmData += mcp->GetDataPacketsReceived();
        gmMessages += mcp->GetMessagesDelivered();
        gmBytes += mcp->GetBytesDelivered();
    }
    if (gmLevel)
    {
        rxPackets = gmData; // the wire also carried GM's ACKs
        rx = gmBytes;       // message payload delivered to the processes
    }
    procs.clear();
    senders.clear();
    mcps.clear();
    Simulator::Destroy();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double build = std::chrono::duration<double>(wall1 - wall0).count();
    double run = std::chrono::duration<double>(wall2 - wall1).count();
    uint64_t expectPackets = uint64_t(n) * (n - 1) * perMsg;
    std::cout << std::fixed << std::setprecision(3);
    std::cout << "level=" << (gmLevel ? "gm" : "wire") << " hosts=" << n
              << " switches=" << switches.GetN() << " msg=" << msg << " packet=" << packet
              << (gmLevel ? " unfinished_processes=" + std::to_string(unfinished) +
                                " gm_messages=" + std::to_string(gmMessages) +
                                " gm_nacks=" + std::to_string(gmNacks) +
                                " gm_resent=" + std::to_string(gmResent)
                          : "")
              << "\n"
              << "packets_sent=" << tx << " packets_delivered=" << rxPackets
              << " expected=" << expectPackets << " drops=" << drops
              << " slack_overflows=" << overflows << " switch_port_stops=" << stops << "\n"
              << "sim_time_ms=" << simEnd.GetSeconds() * 1e3
              << " aggregate_MBps=" << rx / simEnd.GetSeconds() / 1e6 << "\n"
              << "wall_build_s=" << build << " wall_run_s=" << run << " events=" << events
              << " events_per_s=" << std::setprecision(0) << events / run
              << " peak_rss_MB=" << std::setprecision(1) << ru.ru_maxrss / 1024.0
              << (gmLevel ? "" : " peak_packets_in_flight=" + std::to_string(inFlight.peak))
              << std::endl;
    const bool lossless =
        rxPackets == expectPackets && drops == 0 && overflows == 0 && unfinished == 0;
    if (!lossless)
    {
        std::cerr << "myrinet-clos-alltoall: the fabric lost packets or processes did not "
                     "finish (delivered "
                  << rxPackets << " of " << expectPackets << ", drops " << drops
                  << ", slack overflows " << overflows << ", unfinished " << unfinished << ")"
                  << std::endl;
        std::exit(1);
    }
    return {{gmLevel ? "gm" : "wire",
             std::to_string(n),
             std::to_string(switches.GetN()),
             std::to_string(msg),
             std::to_string(packet),
             std::to_string(unfinished),
             std::to_string(gmMessages),
             std::to_string(gmNacks),
             std::to_string(gmResent),
             std::to_string(tx),
             std::to_string(rxPackets),
             std::to_string(expectPackets),
             std::to_string(drops),
             std::to_string(overflows),
             std::to_string(stops),
             SweepRunner::Fixed(simEnd.GetSeconds() * 1e3),
             SweepRunner::Rate(rx / simEnd.GetSeconds() / 1e6, false).second,
             SweepRunner::Rate(rx / simEnd.GetSeconds() / 1e6, false).first,
             std::to_string(events)}};
}

} // namespace

int
main(int argc, char** argv)
{
    ScenarioArgs args(argc, argv, "myrinet-clos-alltoall",
                      "All-to-all of --msg bytes between every pair of hosts of an XBar16 Clos "
                      "(wire level, packets of --packet bytes); prints wall time, events/s, "
                      "peak memory and lossless-fabric checks.");
    args.AddChoice("hosts",
                   "hosts: 16 x 8^(levels-1), the sizes the XBar16 Clos rule builds",
                   {"16", "128", "1024", "8192"},
                   "128");
    args.AddUint("msg", "bytes each host sends to each other host", "bytes", 1, 1u << 24, 65536);
    args.AddUint("packet",
                 "largest packet payload (GM: 4096); wire level only",
                 "bytes",
                 1,
                 65535,
                 4096);
    args.AddChoice("level",
                   "what the hosts run: wire (packets handed to the host ports) or gm (GM "
                   "processes on LANai NICs behind PCI)",
                   {"wire", "gm"},
                   "wire");
    args.AddChoice("lanai", "LANai profile for --level=gm", ProfileCatalogue::Names("lanai"),
                   "lanai9");
    args.AddChoice("host", "host profile for --level=gm", ProfileCatalogue::Names("host"),
                   "p200-430vx-linux24");
    args.AddPartOptions({"os", "gm", "mcp"});
    args.AddUint("receive-buffers",
                 "--level=gm: receive buffers each process keeps provided (0 = all its "
                 "receive tokens); fewer than the messages arriving at once makes GM drop, "
                 "NACK and resend",
                 "buffers",
                 0,
                 1024,
                 0);
    SweepRunner::AddArguments(args, "myrinet-clos-alltoall", "");
    args.Parse();
    uint32_t receiveBuffers = args.GetUint("receive-buffers");
    bool gmLevel = args.GetChoice("level") == "gm";
    std::string lanai = args.GetChoice("lanai");
    std::string hostProfile = args.GetChoice("host");
    uint32_t n = std::stoul(args.GetChoice("hosts"));
    uint32_t msg = args.GetUint("msg");
    uint32_t packet = args.GetUint("packet");
    if (MyrinetClosTopology::Levels(n) == 0)
    {
        args.Fail("--hosts: " + std::to_string(n) +
                  " is not a size the XBar16 Clos rule builds; allowed 16, 128, 1024, 8192");
    }

    AllToAll run{n, msg, packet, gmLevel, lanai, hostProfile, receiveBuffers};
    SweepRunner sweep(args,
                      "myrinet-clos-alltoall",
                      {"level", "hosts", "switches", "msg_bytes", "packet_bytes",
                       "unfinished_processes", "gm_messages", "gm_nacks", "gm_resent",
                       "packets_sent", "packets_delivered", "expected", "drops",
                       "slack_overflows", "switch_port_stops", "sim_time_ms",
                       "aggregate_mbytes_per_s", "aggregate_mbps", "events"});
    sweep.SetReusable(false); // a benchmark: its wall time and memory are measured anew
    sweep.AddPoint(std::string("level=") + (gmLevel ? "gm" : "wire") + " hosts=" +
                       std::to_string(n) + " msg=" + std::to_string(msg),
                   [run]() { return RunAllToAll(run); });
    return sweep.Run();
}
