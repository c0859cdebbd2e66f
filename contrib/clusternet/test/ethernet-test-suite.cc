// SPDX-License-Identifier: GPL-2.0-only
//
// Ethernet layer TestSuite: Gigabit Ethernet framing, PAUSE, switches, the drivers and
// their interrupt coalescing. Every expectation is computed here from first principles
// (Ethernet framing, PAUSE quanta, coalescing timeouts), independently of the code under test.

#include "ns3/applications-module.h"
#include "ns3/clusternet-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/test.h"

#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <vector>

using namespace ns3;
using namespace ns3::clusternet;

namespace
{

/// Two bare devices (no host CPU, no PCI) back to back, with zero NIC processing time.
NetDeviceContainer
BareLink(NodeContainer& nodes, GigeHelper& gige)
{
    nodes.Create(2);
    gige.SetDeviceAttribute("NicTxCost", TimeValue(Seconds(0)));
    gige.SetDeviceAttribute("NicRxCost", TimeValue(Seconds(0)));
    return gige.Install(nodes);
}

Ptr<Packet>
PauseFrame(uint16_t quanta)
{
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(PauseHeader(quanta));
    EthernetHeader eth(false);
    eth.SetSource(Mac48Address("00:00:00:00:00:99"));
    eth.SetDestination(PauseHeader::GetPauseAddress());
    eth.SetLengthType(PauseHeader::ETHERTYPE);
    p->AddHeader(eth);
    return p;
}

} // namespace

/**
 * Frames back to back on the wire: the k-th of N frames of an MTU-1500 payload arrives at
 * (k-1) * 1538 * 8 ns + (1538 - 12) * 8 ns + delay, and minimum frames take 84 bytes.
 */
class GigeFramingTestCase : public TestCase
{
  public:
    GigeFramingTestCase()
        : TestCase("Wire time equals Ethernet framing arithmetic")
    {
    }

  private:
    void DoRun() override
    {
        // 8 preamble/SFD + 14 header + 1500 + 4 FCS + 12 IFG
        NS_TEST_ASSERT_MSG_EQ(GigeNetDevice::WireBytes(14 + 1500), 1538u, "full frame");
        NS_TEST_ASSERT_MSG_EQ(GigeNetDevice::WireBytes(14 + 1), 84u, "padded to 64 B + 20");
        NS_TEST_ASSERT_MSG_EQ(GigeNetDevice::WireBytes(14 + 9000), 9038u, "jumbo frame");

        NodeContainer nodes;
        GigeHelper gige;
        gige.SetDeviceAttribute("Mtu", UintegerValue(1500));
        NetDeviceContainer devs = BareLink(nodes, gige);
        const uint32_t n = 100;
        std::vector<Time> arrivals;
        devs.Get(1)->SetReceiveCallback(
            [&arrivals](Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&) {
                arrivals.push_back(Simulator::Now());
                return true;
            });
        Simulator::Schedule(Seconds(0), [&devs]() {
            for (uint32_t i = 0; i < n; ++i)
            {
                devs.Get(0)->Send(Create<Packet>(1500), devs.Get(1)->GetAddress(), 0x0800);
            }
        });
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(arrivals.size(), n, "every frame delivered");
        Time delay = NanoSeconds(25); // GigeChannel default
        Time expectLast = NanoSeconds((n - 1) * 1538 * 8 + (1538 - 12) * 8) + delay;
        NS_TEST_ASSERT_MSG_EQ(arrivals.back(), expectLast, "back-to-back frame timing");
    }
};

/**
 * ns-3 TCP bulk transfer over a bare link: goodput approaches 1e9 * 1448 / 1538 bit/s at MTU
 * 1500 with timestamps (1448 payload bytes per 1538 wire bytes), and never exceeds it.
 */
class GigeTcpGoodputTestCase : public TestCase
{
  public:
    GigeTcpGoodputTestCase()
        : TestCase("TCP goodput bound by framing at MTU 1500 with timestamps")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        GigeHelper gige;
        NetDeviceContainer devs = BareLink(nodes, gige);
        InternetStackHelper internet;
        internet.Install(nodes);
        Ipv4AddressHelper addr("10.1.0.0", "255.255.255.0");
        Ipv4InterfaceContainer ifs = addr.Assign(devs);
        Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));
        Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(4 << 20));
        Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(4 << 20));
        Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(1000));
        BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(ifs.GetAddress(1), 9));
        bulk.SetAttribute("MaxBytes", UintegerValue(0));
        ApplicationContainer src = bulk.Install(nodes.Get(0));
        PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 9));
        ApplicationContainer dst = sink.Install(nodes.Get(1));
        src.Start(Seconds(0));
        Ptr<PacketSink> ps = DynamicCast<PacketSink>(dst.Get(0));
        uint64_t atStart = 0;
        Simulator::Schedule(MilliSeconds(20), [&]() { atStart = ps->GetTotalRx(); });
        Simulator::Stop(MilliSeconds(70));
        Simulator::Run();
        double goodput = (ps->GetTotalRx() - atStart) * 8.0 / 0.050;
        Simulator::Destroy();
        Config::Reset();
        double bound = 1e9 * 1448.0 / 1538.0;
        NS_TEST_ASSERT_MSG_LT_OR_EQ(goodput, bound * 1.0001, "goodput above the framing bound");
        NS_TEST_ASSERT_MSG_GT(goodput, bound * 0.98, "goodput far below the framing bound");
    }
};

/**
 * A received PAUSE stops the transmitter within one maximum frame and for quanta * 512 bit
 * times; a zero-quanta PAUSE resumes at once.
 */
class GigePauseTestCase : public TestCase
{
  public:
    GigePauseTestCase()
        : TestCase("PAUSE stops the peer within one frame and for the quanta given")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        GigeHelper gige;
        gige.SetDeviceAttribute("Mtu", UintegerValue(9000));
        NetDeviceContainer devs = BareLink(nodes, gige);
        Ptr<GigeNetDevice> tx = DynamicCast<GigeNetDevice>(devs.Get(0));
        std::vector<Time> starts;
        tx->TraceConnectWithoutContext("PhyTxBegin",
                                       Callback<void, Ptr<const Packet>>(
                                           [&starts](Ptr<const Packet>) {
                                               starts.push_back(Simulator::Now());
                                           }));
        for (uint32_t i = 0; i < 400; ++i)
        {
            tx->Send(Create<Packet>(9000), devs.Get(1)->GetAddress(), 0x0800);
        }
        const Time pauseAt = MicroSeconds(100);
        const uint16_t quanta = 1000; // 1000 * 512 ns = 512 us at 1 Gb/s
        Simulator::Schedule(pauseAt, &GigeNetDevice::Receive, tx, PauseFrame(quanta));
        Simulator::Schedule(MicroSeconds(1000), &GigeNetDevice::Receive, tx, PauseFrame(quanta));
        Simulator::Schedule(MicroSeconds(1100), &GigeNetDevice::Receive, tx, PauseFrame(0));
        Simulator::Stop(MilliSeconds(2));
        Simulator::Run();
        Simulator::Destroy();

        const Time maxFrame = NanoSeconds(9038 * 8);
        const Time pauseTime = NanoSeconds(quanta * 512);
        Time lastBefore;
        Time firstAfter = Time::Max();
        for (const Time& t : starts)
        {
            if (t <= pauseAt)
            {
                lastBefore = t;
            }
            else if (t < MicroSeconds(1000))
            {
                firstAfter = std::min(firstAfter, t);
            }
        }
        // The frame on the wire when PAUSE arrives finishes; nothing else starts until the
        // pause expires.
        NS_TEST_ASSERT_MSG_LT_OR_EQ(lastBefore + maxFrame, pauseAt + maxFrame, "sanity");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(firstAfter, pauseAt + pauseTime, "sent during PAUSE");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(firstAfter,
                                    pauseAt + pauseTime + maxFrame,
                                    "did not resume when the pause expired");
        // Second PAUSE at 1000 us, zero-quanta resume at 1100 us.
        Time resumed = Time::Max();
        bool sentWhilePaused = false;
        for (const Time& t : starts)
        {
            if (t > MicroSeconds(1000) + maxFrame && t < MicroSeconds(1100))
            {
                sentWhilePaused = true;
            }
            if (t >= MicroSeconds(1100))
            {
                resumed = std::min(resumed, t);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(sentWhilePaused, false, "transmitted while paused");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(resumed, MicroSeconds(1100) + maxFrame, "no resume on quanta 0");
    }
};

/**
 * Back-to-back overload into a slow host: with PAUSE on, the receiver's FIFO never overflows
 * and every frame is delivered (bytes conserved); with PAUSE off the same load drops.
 */
class GigeLosslessTestCase : public TestCase
{
  public:
    GigeLosslessTestCase()
        : TestCase("PAUSE makes a back-to-back overload lossless; without it frames drop")
    {
    }

  private:
    struct Outcome
    {
        uint64_t delivered;
        uint64_t drops;
        uint64_t pauses;
    };

    Outcome Run(bool pause)
    {
        NodeContainer nodes;
        nodes.Create(2);
        HostHelper host;
        // 30 us at 450 MHz (1500 B take 12 us on the wire)
        host.SetCpuAttribute("RxPacketCycles", DoubleValue(13500));
        host.SetCpuAttribute("InterruptCycles", DoubleValue(450)); // 1 us
        host.Install(nodes.Get(1));
        GigeHelper gige;
        gige.SetDeviceAttribute("PauseEnabled", BooleanValue(pause));
        gige.SetDeviceAttribute("RxRingSize", UintegerValue(8));
        NetDeviceContainer devs = gige.Install(nodes);
        Ptr<GigeNetDevice> rx = DynamicCast<GigeNetDevice>(devs.Get(1));
        uint64_t delivered = 0;
        rx->SetReceiveCallback([&delivered](Ptr<NetDevice>, Ptr<const Packet> p, uint16_t, const Address&) {
            delivered += p->GetSize();
            return true;
        });
        const uint32_t n = 600;
        for (uint32_t i = 0; i < n; ++i)
        {
            devs.Get(0)->Send(Create<Packet>(1500), rx->GetAddress(), 0x0800);
        }
        Simulator::Run();
        Outcome o{delivered, rx->GetRxFifoDrops(), rx->GetPauseFramesSent()};
        Simulator::Destroy();
        return o;
    }

    void DoRun() override
    {
        Outcome on = Run(true);
        NS_TEST_ASSERT_MSG_EQ(on.drops, 0u, "drops with PAUSE on");
        NS_TEST_ASSERT_MSG_EQ(on.delivered, 600u * 1500u, "bytes not conserved with PAUSE on");
        NS_TEST_ASSERT_MSG_GT(on.pauses, 0u, "overload never triggered PAUSE");
        Outcome off = Run(false);
        NS_TEST_ASSERT_MSG_GT(off.drops, 0u, "no drops with PAUSE off: the load is no overload");
        NS_TEST_ASSERT_MSG_EQ(off.delivered + off.drops * 1514 - off.drops * 14,
                              600u * 1500u,
                              "delivered + dropped != sent");
    }
};

/**
 * Two senders at line rate into one output of a store-and-forward switch (2:1 overload). With
 * PAUSE on, the switch's ingress buffers push back, nothing drops, every byte arrives and the
 * output link stays saturated: the 2N frames arrive 1538 * 8 ns apart. With PAUSE off the same
 * load overflows the ingress buffers.
 */
class GigeSwitchOverloadTestCase : public TestCase
{
  public:
    GigeSwitchOverloadTestCase()
        : TestCase("2:1 overload through a switch port is lossless with PAUSE, lossy without")
    {
    }

  private:
    static constexpr uint32_t N = 400; //!< frames per sender

    struct Outcome
    {
        uint64_t delivered{0};
        uint64_t drops{0};
        uint64_t pauses{0};
        Time first;
        Time last;
    };

    Outcome Run(bool pause)
    {
        NodeContainer hosts;
        hosts.Create(3);
        Ptr<Node> swNode = CreateObject<Node>();
        GigeHelper nic;
        nic.SetDeviceAttribute("NicTxCost", TimeValue(Seconds(0)));
        nic.SetDeviceAttribute("NicRxCost", TimeValue(Seconds(0)));
        nic.SetDeviceAttribute("PauseEnabled", BooleanValue(pause));
        GigeSwitchHelper swHelper;
        swHelper.SetPortAttribute("PauseEnabled", BooleanValue(pause));
        NetDeviceContainer devs = swHelper.Install(swNode, hosts, nic);
        Ptr<GigeSwitchNetDevice> sw = GigeSwitchHelper::GetSwitch(swNode);
        Ptr<NetDevice> sink = devs.Get(2);
        Outcome o;
        sink->SetReceiveCallback(
            [&o](Ptr<NetDevice>, Ptr<const Packet> p, uint16_t proto, const Address&) {
                if (proto == 0x0800)
                {
                    o.delivered += p->GetSize();
                    o.first = o.first.IsZero() ? Simulator::Now() : o.first;
                    o.last = Simulator::Now();
                }
                return true;
            });
        // The sink announces itself so the switch learns its port; then both senders blast.
        sink->Send(Create<Packet>(100), sink->GetBroadcast(), 0x0806);
        for (uint32_t s = 0; s < 2; ++s)
        {
            Simulator::Schedule(MicroSeconds(50), [&devs, s, sink]() {
                for (uint32_t i = 0; i < N; ++i)
                {
                    devs.Get(s)->Send(Create<Packet>(1500), sink->GetAddress(), 0x0800);
                }
            });
        }
        Simulator::Run();
        for (uint32_t i = 0; i < sw->GetNSwitchPorts(); ++i)
        {
            Ptr<GigeNetDevice> port = DynamicCast<GigeNetDevice>(sw->GetSwitchPort(i));
            o.drops += port->GetRxFifoDrops();
            o.pauses += port->GetPauseFramesSent();
        }
        o.drops += sw->GetOutputDrops();
        o.drops += DynamicCast<GigeNetDevice>(sink)->GetRxFifoDrops();
        Simulator::Destroy();
        return o;
    }

    void DoRun() override
    {
        Outcome on = Run(true);
        NS_TEST_ASSERT_MSG_EQ(on.drops, 0u, "drops through the switch with PAUSE on");
        NS_TEST_ASSERT_MSG_EQ(on.delivered, 2u * N * 1500u, "bytes not conserved with PAUSE on");
        NS_TEST_ASSERT_MSG_GT(on.pauses, 0u, "the overload never made the switch send PAUSE");
        // The output link is the bottleneck and never idles: 2N - 1 frame slots of 1538 bytes.
        Time slots = NanoSeconds(8 * 1538) * (2 * N - 1);
        NS_TEST_ASSERT_MSG_GT_OR_EQ(on.last - on.first, slots, "faster than the output link");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(on.last - on.first, slots * 1.01, "output link idled");

        Outcome off = Run(false);
        NS_TEST_ASSERT_MSG_GT(off.drops, 0u, "no drops with PAUSE off: the load is no overload");
        NS_TEST_ASSERT_MSG_EQ(off.pauses, 0u, "PAUSE sent while disabled");
        NS_TEST_ASSERT_MSG_EQ(off.delivered + off.drops * 1500u,
                              2u * N * 1500u,
                              "delivered + dropped != sent");
    }
};

/**
 * Interrupt coalescing delays a lone frame by exactly its timeout (no other frame arrives to
 * reach the frame count), and by nothing when coalescing is off.
 */
class CoalescingTestCase : public TestCase
{
  public:
    CoalescingTestCase()
        : TestCase("Coalescing adds at most its timeout to a lone packet")
    {
    }

  private:
    Time LoneFrameDelivery(bool enabled,
                           Time timeout,
                           uint16_t mtu = 1500,
                           Time jumbo = Time())
    {
        NodeContainer nodes;
        nodes.Create(2);
        HostHelper host;
        host.Install(nodes.Get(1));
        GigeHelper gige;
        gige.SetCoalescerAttribute("Enabled", BooleanValue(enabled));
        gige.SetCoalescerAttribute("Timeout", TimeValue(timeout));
        gige.SetCoalescerAttribute("MaxFrames", UintegerValue(8));
        gige.SetCoalescerAttribute("JumboTuning", BooleanValue(jumbo.IsStrictlyPositive()));
        gige.SetCoalescerAttribute("JumboTimeout", TimeValue(jumbo));
        gige.SetCoalescerAttribute("JumboMaxFrames", UintegerValue(8));
        NetDeviceContainer devs = gige.Install(nodes);
        for (uint32_t i = 0; i < devs.GetN(); ++i)
        {
            devs.Get(i)->SetMtu(mtu);
        }
        Time at;
        devs.Get(1)->SetReceiveCallback([&at](Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&) {
            at = Simulator::Now();
            return true;
        });
        devs.Get(0)->Send(Create<Packet>(100), devs.Get(1)->GetAddress(), 0x0800);
        Simulator::Run();
        Simulator::Destroy();
        return at;
    }

    void DoRun() override
    {
        const Time t = MicroSeconds(50);
        Time off = LoneFrameDelivery(false, t);
        Time on = LoneFrameDelivery(true, t);
        NS_TEST_ASSERT_MSG_GT(off, Seconds(0), "frame not delivered");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(on - off, t, "coalescing added more than its timeout");
        NS_TEST_ASSERT_MSG_EQ(on - off, t, "a lone frame waits exactly the timeout");
        // acenic-style jumbo tuning: the jumbo timeout applies above MTU 1500 only.
        const Time j = MicroSeconds(20);
        NS_TEST_ASSERT_MSG_EQ(LoneFrameDelivery(true, t, 1500, j) - off,
                              t,
                              "jumbo tuning changed the coalescing at MTU 1500");
        Time offJumbo = LoneFrameDelivery(false, t, 9000);
        NS_TEST_ASSERT_MSG_GT(offJumbo, Seconds(0), "frame not delivered at MTU 9000");
        NS_TEST_ASSERT_MSG_EQ(LoneFrameDelivery(true, t, 9000, j) - offJumbo,
                              j,
                              "at MTU 9000 a lone frame waits the jumbo timeout");
        NS_TEST_ASSERT_MSG_EQ(LoneFrameDelivery(true, t, 9000) - offJumbo,
                              t,
                              "without jumbo tuning MTU 9000 keeps the standard timeout");
    }
};

/**
 * The coalescer's three triggers, driven by hand: events at 0, 50 and 120 us. A packet (gap)
 * timer of 100 us restarted by each event fires at 120 + 100 = 220 us; an absolute timer of
 * 150 us from the first event fires first at 150 us; a frame count of 3 fires at the third
 * event, 120 us; with no timer at all every event interrupts at once (0 us).
 */
class CoalescerTriggersTestCase : public TestCase
{
  public:
    CoalescerTriggersTestCase()
        : TestCase("Coalescer: frame count, absolute timer and restarted gap timer")
    {
    }

  private:
    /// @return the time of the first interrupt
    Time FirstInterrupt(uint32_t maxFrames, Time timeout, Time gap)
    {
        Ptr<InterruptCoalescer> c = CreateObject<InterruptCoalescer>();
        c->SetAttribute("Enabled", BooleanValue(true));
        c->SetAttribute("MaxFrames", UintegerValue(maxFrames));
        c->SetAttribute("Timeout", TimeValue(timeout));
        c->SetAttribute("GapTimeout", TimeValue(gap));
        Time first = Seconds(-1);
        c->SetHandler(Callback<void>([&first, c]() {
            if (first.IsStrictlyNegative())
            {
                first = Simulator::Now();
            }
            c->Consume();
            c->Unmask();
        }));
        for (double us : {0.0, 50.0, 120.0})
        {
            Simulator::Schedule(MicroSeconds(us), &InterruptCoalescer::Notify, c);
        }
        Simulator::Run();
        Simulator::Destroy();
        c->Dispose();
        return first;
    }

    void DoRun() override
    {
        struct Case
        {
            uint32_t maxFrames;
            double timeoutUs;
            double gapUs;
            double expectUs;
            const char* what;
        };

        for (const Case& k : {Case{24, 0, 100, 220, "the gap timer restarts at every event"},
                              Case{24, 150, 100, 150, "the absolute timer caps the gap timer"},
                              Case{24, 100, 0, 100, "the absolute timer runs from the first"},
                              Case{3, 0, 100, 120, "the third event reaches the frame count"},
                              Case{24, 0, 0, 0, "no timer: every event interrupts at once"}})
        {
            NS_TEST_ASSERT_MSG_EQ(
                FirstInterrupt(k.maxFrames, MicroSeconds(k.timeoutUs), MicroSeconds(k.gapUs)),
                MicroSeconds(k.expectUs),
                k.what);
        }
    }
};

/**
 * A software device (NT's loopback) has a LoopbackDriver: against an EthernetDriver on the same
 * host its transmit work adds the frame's copy (1000 bytes plus the 14-byte Ethernet header at
 * 800 Mbit/s: 10.14 us), it enters no interrupt (the host's InterruptCycles, 9000 at 450 MHz, is
 * 20 us for the other), and its frames cross no bus. Built by GigeHelper from the driver type,
 * its TxCycles reach the delivery time one for one (450 cycles: 1 us later); a device on a node
 * without a host CPU gets no driver.
 */
class SoftwareDeviceTestCase : public TestCase
{
  public:
    SoftwareDeviceTestCase()
        : TestCase("Software device: a LoopbackDriver copies, takes no interrupt, uses no bus")
    {
    }

  private:
    Time Delivery(double txCycles)
    {
        NodeContainer nodes;
        nodes.Create(2);
        HostHelper host;
        host.Install(nodes);
        GigeHelper gige;
        gige.SetDriverType(LoopbackDriver::GetTypeId());
        gige.SetDriverAttribute("TxCycles", DoubleValue(txCycles));
        NetDeviceContainer devs = gige.Install(nodes);
        Time at;
        devs.Get(1)->SetReceiveCallback(
            [&at](Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&) {
                at = Simulator::Now();
                return true;
            });
        // Sent once the simulation has started: devices find their host CPU when initialized.
        Ptr<NetDevice> tx = devs.Get(0);
        Address to = devs.Get(1)->GetAddress();
        Simulator::Schedule(Seconds(0), [tx, to]() { tx->Send(Create<Packet>(1000), to, 0x0800); });
        Simulator::Run();
        Simulator::Destroy();
        return at;
    }

    void DoRun() override
    {
        Ptr<Node> node = CreateObject<Node>();
        Ptr<HostCpu> cpu = CreateObject<HostCpu>();
        cpu->SetAttribute("Clock", DoubleValue(450));
        cpu->SetAttribute("CoreFactor", DoubleValue(1));
        cpu->SetAttribute("CopyBandwidth", DataRateValue(DataRate("800Mbps")));
        cpu->SetAttribute("CopyEfficiency", DoubleValue(1));
        cpu->SetAttribute("InterruptCycles", DoubleValue(9000));
        node->AggregateObject(cpu);
        Ptr<PciBus> bus = CreateObject<PciBus>();
        node->AggregateObject(bus);
        Ptr<EthernetDriver> plain = CreateObject<EthernetDriver>();
        Ptr<LoopbackDriver> loop = CreateObject<LoopbackDriver>();
        plain->SetNode(node);
        loop->SetNode(node);
        Ptr<Packet> frame = Create<Packet>(1014);
        NS_TEST_ASSERT_MSG_EQ(loop->TxCost(frame) - plain->TxCost(frame),
                              NanoSeconds(1014 * 8 * 1000 / 800),
                              "the loopback copies every frame it sends");
        NS_TEST_ASSERT_MSG_EQ(plain->InterruptEntryCost(), MicroSeconds(20), "interrupt entry");
        NS_TEST_ASSERT_MSG_EQ(loop->InterruptEntryCost(), Seconds(0), "a deferred call");
        NS_TEST_ASSERT_MSG_EQ(plain->GetBus(), bus, "a NIC's DMA crosses the node's bus");
        NS_TEST_ASSERT_MSG_EQ(loop->GetBus(), nullptr, "the loopback crosses no bus");
        Simulator::Destroy();

        const Time base = Delivery(0);
        NS_TEST_ASSERT_MSG_GT(base, Seconds(0), "frame not delivered");
        NS_TEST_ASSERT_MSG_EQ(Delivery(450) - base, MicroSeconds(1), "TxCycles at 450 MHz");

        NodeContainer bare;
        GigeHelper gige;
        NetDeviceContainer devs = BareLink(bare, gige);
        Ptr<GigeNetDevice> d = DynamicCast<GigeNetDevice>(devs.Get(0));
        NS_TEST_ASSERT_MSG_EQ(d->GetDriver(), nullptr, "no host CPU, no driver");
        Simulator::Destroy();
    }
};

/**
 * A NIC tells an application the size of the receive buffer its driver posts per frame through
 * the read-only attribute RxBufferBytes, whatever the device (the application never casts).
 */
class RxBufferBytesTestCase : public TestCase
{
  public:
    RxBufferBytesTestCase()
        : TestCase("RxBufferBytes: the driver's per-frame receive buffer, read as an attribute")
    {
    }

  private:
    static uint64_t Read(Ptr<NetDevice> dev)
    {
        UintegerValue v;
        NS_ABORT_UNLESS(dev->GetAttributeFailSafe("RxBufferBytes", v));
        return v.Get();
    }

    void DoRun() override
    {
        Ptr<GigeNetDevice> gige = CreateObject<GigeNetDevice>();
        // Ethernet header 14 + MTU + FCS 4 + 2 alignment bytes.
        NS_TEST_ASSERT_MSG_EQ(Read(gige), 14 + 1500 + 4 + 2, "GigE at MTU 1500");
        gige->SetAttribute("Mtu", UintegerValue(9000));
        NS_TEST_ASSERT_MSG_EQ(Read(gige), 14 + 9000 + 4 + 2, "GigE at MTU 9000, MTU-sized buffers");
        gige->SetAttribute("JumboBufferSize", UintegerValue(16384));
        NS_TEST_ASSERT_MSG_EQ(Read(gige), 16384, "GigE jumbo buffers");
        Ptr<GmEthernetNetDevice> gm = CreateObject<GmEthernetNetDevice>();
        // IP over GM provides whole frames: Ethernet header 14 + MTU (default 9000).
        NS_TEST_ASSERT_MSG_EQ(Read(gm), 14 + 9000, "IP over GM");
        NS_TEST_ASSERT_MSG_EQ(gm->SetAttributeFailSafe("RxBufferBytes", UintegerValue(1)),
                              false,
                              "read only");
    }
};

/**
 * The ethernet TestSuite.
 */
class EthernetTestSuite : public TestSuite
{
  public:
    EthernetTestSuite()
        : TestSuite("clusternet-ethernet", Type::UNIT)
    {
        AddTestCase(new GigeFramingTestCase, TestCase::Duration::QUICK);
        AddTestCase(new RxBufferBytesTestCase, TestCase::Duration::QUICK);
        AddTestCase(new GigeTcpGoodputTestCase, TestCase::Duration::QUICK);
        AddTestCase(new GigePauseTestCase, TestCase::Duration::QUICK);
        AddTestCase(new GigeLosslessTestCase, TestCase::Duration::QUICK);
        AddTestCase(new GigeSwitchOverloadTestCase, TestCase::Duration::QUICK);
        AddTestCase(new CoalescingTestCase, TestCase::Duration::QUICK);
        AddTestCase(new CoalescerTriggersTestCase, TestCase::Duration::QUICK);
        AddTestCase(new SoftwareDeviceTestCase, TestCase::Duration::QUICK);
    }
};

static EthernetTestSuite g_ethernetTestSuite; //!< Static variable for test initialization
