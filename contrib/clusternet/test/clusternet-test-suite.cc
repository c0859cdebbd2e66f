// SPDX-License-Identifier: GPL-2.0-only
//
// clusternet TestSuite. Every expectation is computed here from first principles (Ethernet
// framing, PCI cycles, PAUSE quanta), independently of the code under test.

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
 * PCI DMA time: width x clock x efficiency, with efficiency = data cycles / (data cycles +
 * per-burst overhead + target latency).
 */
class PciDmaTestCase : public TestCase
{
  public:
    PciDmaTestCase()
        : TestCase("PCI DMA time matches width x clock x efficiency")
    {
    }

  private:
    void DoRun() override
    {
        struct Case
        {
            const char* width;
            const char* clock;
            double bytesPerCycle;
            double cycleNs;
        };
        const Case cases[] = {{"32", "33", 4, 30}, {"64", "66", 8, 15}};
        for (const auto& c : cases)
        {
            Ptr<PciBus> bus = CreateObject<PciBus>();
            bus->SetAttribute("Width", StringValue(c.width));
            bus->SetAttribute("Clock", StringValue(c.clock));
            bus->SetAttribute("BurstSize", UintegerValue(256));
            bus->SetAttribute("TransactionOverhead", UintegerValue(4));
            bus->SetAttribute("ReadLatency", UintegerValue(10));
            bus->SetAttribute("WriteLatency", UintegerValue(1));
            const double bytes = 4096;
            double dataCycles = 256 / c.bytesPerCycle;
            double readEff = dataCycles / (dataCycles + 4 + 10);
            double writeEff = dataCycles / (dataCycles + 4 + 1);
            double rateBytesPerNs = c.bytesPerCycle / c.cycleNs; // width x clock
            Time expectRead = NanoSeconds(bytes / (rateBytesPerNs * readEff));
            Time expectWrite = NanoSeconds(bytes / (rateBytesPerNs * writeEff));
            NS_TEST_ASSERT_MSG_EQ(bus->GetTransferTime(4096, PciBus::DMA_READ), expectRead, "read");
            NS_TEST_ASSERT_MSG_EQ(bus->GetTransferTime(4096, PciBus::DMA_WRITE), expectWrite, "write");

            // Two masters sharing the bus finish together after the sum of their times.
            Time done1;
            Time done2;
            bus->Transfer(4096, PciBus::DMA_READ, [&done1]() { done1 = Simulator::Now(); });
            bus->Transfer(4096, PciBus::DMA_WRITE, [&done2]() { done2 = Simulator::Now(); });
            Simulator::Run();
            Simulator::Destroy();
            NS_TEST_ASSERT_MSG_EQ(std::max(done1, done2), expectRead + expectWrite, "shared bus");
            NS_TEST_ASSERT_MSG_GT(std::min(done1, done2), expectRead, "bursts not interleaved");
        }
    }
};

/**
 * A lone master's bursts follow each other; a second master gets the bus when the burst in
 * progress ends, and the first resumes after it (64-bit/66 MHz: 15 ns cycles, 8 B per cycle).
 */
class PciArbitrationTestCase : public TestCase
{
  public:
    PciArbitrationTestCase()
        : TestCase("PCI: a second master is served at the next burst boundary")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<PciBus> bus = CreateObject<PciBus>();
        bus->SetAttribute("Width", StringValue("64"));
        bus->SetAttribute("Clock", StringValue("66"));
        bus->SetAttribute("BurstSize", UintegerValue(256));
        bus->SetAttribute("TransactionOverhead", UintegerValue(4));
        bus->SetAttribute("ReadLatency", UintegerValue(10));
        bus->SetAttribute("WriteLatency", UintegerValue(1));
        const Time readBurst = NanoSeconds((256 / 8 + 4 + 10) * 15);  // 690 ns
        const Time writeBurst = NanoSeconds((256 / 8 + 4 + 1) * 15); // 555 ns

        // A master's own burst limit: 4096 B in 128 B bursts = 32 x (16 + 4 + 10) cycles.
        NS_TEST_ASSERT_MSG_EQ(bus->GetTransferTime(4096, PciBus::DMA_READ, 128),
                              NanoSeconds(32 * 30 * 15),
                              "128 B bursts");

        Time readDone;
        Time writeDone;
        bus->Transfer(4096, PciBus::DMA_READ, [&readDone]() { readDone = Simulator::Now(); });
        Simulator::Schedule(readBurst + readBurst / 2, [&]() {
            bus->Transfer(256, PciBus::DMA_WRITE, [&writeDone]() {
                writeDone = Simulator::Now();
            });
        });
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(writeDone, readBurst * 2 + writeBurst, "write after 2nd burst");
        NS_TEST_ASSERT_MSG_EQ(readDone, readBurst * 16 + writeBurst, "read resumes after write");
        NS_TEST_ASSERT_MSG_EQ(bus->GetBytesTransferred(), 4096u + 256u, "bytes conserved");
    }
};

/**
 * A DMA engine's pair of transfers (descriptor and frame) on the PCI bus: alone it takes the sum
 * of its bursts; among other masters it is served exactly as two transfers of which the first's
 * completion requests the second (the bus runs a lone pair as one event, so this checks the
 * shortcut against the plain protocol over random traffic).
 */
class PciPairTestCase : public TestCase
{
  public:
    PciPairTestCase()
        : TestCase("PCI: a transfer pair is served as two back-to-back transfers")
    {
    }

  private:
    /// Completion times of the three masters' requests over one random workload.
    struct Log
    {
        std::vector<Time> tx;  //!< pairs read by the transmit engine
        std::vector<Time> rx;  //!< pairs written by the receive engine
        std::vector<Time> pio; //!< CPU register writes and reads
    };

    /// Run the workload drawn from @p seed on a fresh bus; pairs as TransferPair or chained.
    static Log Run(uint32_t seed, bool pairs)
    {
        Ptr<PciBus> bus = CreateObject<PciBus>();
        Log log;
        std::mt19937 rng(seed);
        // Gaps in picoseconds: never a whole number of 30 ns cycles, so no request arrives at
        // the very instant a burst ends (where either order is right).
        auto gap = [&rng]() { return PicoSeconds(rng() % 4000000 + 1 + 2 * (rng() % 7)); };
        auto issue = [bus, pairs](uint32_t a, uint32_t b, PciBus::Direction dir,
                                  Callback<void> done) {
            if (pairs)
            {
                bus->TransferPair(a, b, dir, done, 128);
                return;
            }
            bus->Transfer(a, dir, Callback<void>([bus, b, dir, done]() {
                              bus->Transfer(b, dir, done, 128);
                          }),
                          128);
        };
        std::function<void()> tx;
        std::function<void()> rx;
        std::function<void()> pio;
        tx = [&]() {
            if (log.tx.size() < 300)
            {
                issue(16, 60 + rng() % 9000, PciBus::DMA_READ, Callback<void>([&]() {
                          log.tx.push_back(Simulator::Now());
                          Simulator::Schedule(gap() / 4, tx);
                      }));
            }
        };
        rx = [&]() {
            if (log.rx.size() < 300)
            {
                issue(60 + rng() % 9000, 16, PciBus::DMA_WRITE, Callback<void>([&]() {
                          log.rx.push_back(Simulator::Now());
                          Simulator::Schedule(gap(), rx);
                      }));
            }
        };
        pio = [&]() {
            if (log.pio.size() < 300)
            {
                bool read = rng() % 2;
                bus->Transfer(4,
                              read ? PciBus::PIO_READ : PciBus::PIO_WRITE,
                              Callback<void>([&]() {
                                  log.pio.push_back(Simulator::Now());
                                  Simulator::Schedule(gap(), pio);
                              }));
            }
        };
        Simulator::Schedule(gap(), tx);
        Simulator::Schedule(gap(), rx);
        Simulator::Schedule(gap(), pio);
        Simulator::Run();
        Simulator::Destroy();
        return log;
    }

    void DoRun() override
    {
        // Alone: a 16 B descriptor then a 1500 B frame read on 32 bits at 33 MHz (BurstSize
        // 256, TransactionOverhead 4, ReadLatency 8 cycles): 4 + 8 + 4 cycles, then five
        // bursts of 4 + 8 + 64 and one of 4 + 8 + 55 -> 463 cycles of 30 ns.
        Ptr<PciBus> bus = CreateObject<PciBus>();
        Time done;
        bus->TransferPair(16, 1500, PciBus::DMA_READ, [&done]() { done = Simulator::Now(); });
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(done, NanoSeconds(463 * 30), "a lone pair: the sum of its bursts");
        NS_TEST_ASSERT_MSG_EQ(bus->GetBytesTransferred(), 1516u, "both transfers' bytes");

        // A write request at the very instant the descriptor's read ends (480 ns): from an
        // event scheduled before the pair started it is served first, as ns-3 would run it
        // before the descriptor's own end; from one scheduled after, the frame's first burst
        // (76 cycles) goes first. The 256 B write takes 4 + 1 + 64 cycles; the 1000 B frame
        // 3 x 76 + (4 + 8 + 58) cycles either way.
        for (bool earlier : {true, false})
        {
            for (bool pairs : {true, false})
            {
                Time writeDone;
                Time pairDone;
                Ptr<PciBus> tie = CreateObject<PciBus>();
                auto write = [&]() {
                    tie->Transfer(256, PciBus::DMA_WRITE, [&]() { writeDone = Simulator::Now(); });
                };
                Simulator::Schedule(Seconds(0), [&]() {
                    if (earlier)
                    {
                        Simulator::Schedule(NanoSeconds(480), write);
                    }
                    Callback<void> done([&]() { pairDone = Simulator::Now(); });
                    if (pairs)
                    {
                        tie->TransferPair(16, 1000, PciBus::DMA_READ, done);
                    }
                    else
                    {
                        tie->Transfer(16, PciBus::DMA_READ, Callback<void>([&, done]() {
                                          tie->Transfer(1000, PciBus::DMA_READ, done);
                                      }));
                    }
                    if (!earlier)
                    {
                        Simulator::Schedule(NanoSeconds(480), write);
                    }
                });
                Simulator::Run();
                Simulator::Destroy();
                Time expectWrite = earlier ? NanoSeconds((16 + 69) * 30)
                                           : NanoSeconds((16 + 76 + 69) * 30);
                NS_TEST_ASSERT_MSG_EQ(writeDone,
                                      expectWrite,
                                      "tie at the descriptor's end: pairs " << pairs << ", earlier "
                                                                            << earlier);
                NS_TEST_ASSERT_MSG_EQ(pairDone,
                                      NanoSeconds((16 + 69 + 3 * 76 + 70) * 30),
                                      "pair's end: pairs " << pairs << ", earlier " << earlier);
            }
        }

        for (uint32_t seed = 1; seed <= 20; ++seed)
        {
            Log chained = Run(seed, false);
            Log paired = Run(seed, true);
            NS_TEST_ASSERT_MSG_EQ(paired.tx.size(), 300u, "every transmit pair done");
            NS_TEST_ASSERT_MSG_EQ((paired.tx == chained.tx), true, "transmit pairs, seed " << seed);
            NS_TEST_ASSERT_MSG_EQ((paired.rx == chained.rx), true, "receive pairs, seed " << seed);
            NS_TEST_ASSERT_MSG_EQ((paired.pio == chained.pio), true, "PIO, seed " << seed);
        }
    }
};

/**
 * The receive window a host stack advertises: Linux-style accounting grants mult x SO_RCVBUF
 * of memory and advertises free memory / divisor in whole segments.
 */
class ReceiveWindowTestCase : public TestCase
{
  public:
    ReceiveWindowTestCase()
        : TestCase("Receive window: buffer multiplier, divisor and segment quantization")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<HostStack> plain = CreateObject<HostStack>();
        plain->SetAttribute("Timestamps", BooleanValue(true));
        Ptr<HostTcpSocket> s1 = CreateObject<HostTcpSocket>();
        plain->ConfigureSocket(s1, 65536, 9000);
        NS_TEST_ASSERT_MSG_EQ(s1->GetReceiveWindow(), 65536u, "ns-3 window = SO_RCVBUF");
        NS_TEST_ASSERT_MSG_EQ(plain->MaxReceiveWindow(65536, 9000), 65536u, "plain max");

        Ptr<HostStack> kernel = CreateObject<HostStack>();
        kernel->SetAttribute("Timestamps", BooleanValue(true));
        kernel->SetAttribute("RcvBufMultiplier", DoubleValue(2.0));
        kernel->SetAttribute("WindowDivisor", UintegerValue(2));
        kernel->SetAttribute("QuantizeWindow", BooleanValue(true));
        // 2 x 65536 / 2 = 65536, in whole 8948-byte segments (9000 - 52): 7 x 8948.
        NS_TEST_ASSERT_MSG_EQ(kernel->SegmentSize(9000), 8948u, "MSS with timestamps");
        NS_TEST_ASSERT_MSG_EQ(kernel->MaxReceiveWindow(65536, 9000), 62636u, "max window");
        Ptr<HostTcpSocket> s2 = CreateObject<HostTcpSocket>();
        kernel->ConfigureSocket(s2, 65536, 9000, 9020);
        NS_TEST_ASSERT_MSG_EQ(s2->GetReceiveWindow(), 62636u, "socket window");
        // truesize: 9020 rounded up to 16 B, plus SkbOverhead (0).
        NS_TEST_ASSERT_MSG_EQ(kernel->SegmentTruesize(9020), 9024u, "truesize");
    }
};

/**
 * The host CPU serves interrupts before user work, user work before computation, and resumes
 * preempted work for what it still needs.
 */
class HostCpuTestCase : public TestCase
{
  public:
    HostCpuTestCase()
        : TestCase("Host CPU: priorities and preemption of user work and computation")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<HostCpu> cpu = CreateObject<HostCpu>();
        Time user;
        Time irq;
        cpu->Execute(MicroSeconds(10), HostCpu::USER, [&user]() { user = Simulator::Now(); });
        Simulator::Schedule(MicroSeconds(3), [&]() {
            cpu->Execute(MicroSeconds(2), HostCpu::INTERRUPT, [&irq]() { irq = Simulator::Now(); });
        });
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(irq, MicroSeconds(5), "interrupt not served at once");
        NS_TEST_ASSERT_MSG_EQ(user, MicroSeconds(12), "user work not resumed for its remainder");
        NS_TEST_ASSERT_MSG_EQ(cpu->GetBusyTime(), MicroSeconds(12), "busy time");
        NS_TEST_ASSERT_MSG_EQ(cpu->CopyCost(1000), NanoSeconds(10000), "copy at 800 Mb/s");

        // Computation yields to library (user) work, which yields to interrupts; user work
        // does not preempt user work. Compute 0-20 us; user A arrives at 2 us (4 us), an
        // interrupt at 3 us (1 us), user B at 4 us (2 us): A runs 2-3, irq 3-4, A 4-7, B 7-9,
        // compute resumes 9-27 with the 18 us it still needs.
        cpu = CreateObject<HostCpu>();
        Time compute;
        Time userA;
        Time userB;
        cpu->Execute(MicroSeconds(20), HostCpu::COMPUTE, [&]() { compute = Simulator::Now(); });
        Simulator::Schedule(MicroSeconds(2), [&]() {
            cpu->Execute(MicroSeconds(4), HostCpu::USER, [&]() { userA = Simulator::Now(); });
        });
        Simulator::Schedule(MicroSeconds(3), [&]() {
            cpu->Execute(MicroSeconds(1), HostCpu::INTERRUPT, []() {});
        });
        Simulator::Schedule(MicroSeconds(4), [&]() {
            cpu->Execute(MicroSeconds(2), HostCpu::USER, [&]() { userB = Simulator::Now(); });
        });
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(userA, MicroSeconds(7), "user work preempts computation");
        NS_TEST_ASSERT_MSG_EQ(userB, MicroSeconds(9), "user work waits for user work");
        NS_TEST_ASSERT_MSG_EQ(compute, MicroSeconds(27), "computation resumed for its remainder");
        NS_TEST_ASSERT_MSG_EQ(cpu->GetBusyTime(), MicroSeconds(27), "busy time conserved");

        // A user-level thread library (libc_r: 20 ms slice, 10 ms scheduling signal): the
        // computing thread, scheduled at 0 for 100 ms, keeps the CPU when user work arrives at
        // 5 ms until the first tick after its slice, 20 ms; an interrupt at 12 ms (1 ms) still
        // runs at once and returns to the computation. The user item (2 ms) runs 20-22 ms; the
        // computation ends at 100 + 1 + 2 = 103 ms. Without a slice the user item ends at 7 ms.
        for (Time slice : {MilliSeconds(20), Seconds(0)})
        {
            cpu = CreateObject<HostCpu>();
            cpu->SetAttribute("ComputeSlice", TimeValue(slice));
            Time irqEnd;
            cpu->Execute(MilliSeconds(100), HostCpu::COMPUTE, [&]() { compute = Simulator::Now(); });
            Simulator::Schedule(MilliSeconds(5), [&]() {
                cpu->Execute(MilliSeconds(2), HostCpu::USER, [&]() { userA = Simulator::Now(); });
            });
            Simulator::Schedule(MilliSeconds(12), [&]() {
                cpu->Execute(MilliSeconds(1), HostCpu::INTERRUPT, [&]() { irqEnd = Simulator::Now(); });
            });
            Simulator::Run();
            Simulator::Destroy();
            bool sliced = slice.IsStrictlyPositive();
            NS_TEST_ASSERT_MSG_EQ(userA, MilliSeconds(sliced ? 22 : 7), "user work waits for the slice");
            NS_TEST_ASSERT_MSG_EQ(irqEnd, MilliSeconds(13), "interrupts are not held");
            NS_TEST_ASSERT_MSG_EQ(compute, MilliSeconds(103), "computation resumed");
        }
        // The slice counts from when the computing thread was scheduled: computation from 0,
        // user work at 45 ms (the slice expired at 20 ms) runs at the next tick, 50 ms.
        cpu = CreateObject<HostCpu>();
        cpu->SetAttribute("ComputeSlice", TimeValue(MilliSeconds(20)));
        cpu->Execute(MilliSeconds(100), HostCpu::COMPUTE, [&]() { compute = Simulator::Now(); });
        Simulator::Schedule(MilliSeconds(45), [&]() {
            cpu->Execute(MilliSeconds(2), HostCpu::USER, [&]() { userA = Simulator::Now(); });
        });
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(userA, MilliSeconds(52), "switch at the next tick");
    }
};

/**
 * The kernel-level UDP benchmark (seed 003 sec. 3.1) between two Athlon XP / FreeBSD 4.7 hosts
 * with PRO/1000 MT NICs back to back. IP fragmentation: a fragment carries (MTU - 20) rounded
 * down to 8 bytes of the UDP datagram (its 8-byte header included). Interrupt coalescing of
 * the em driver only delays interrupts, so turning it off never raises the latency. A stream
 * on the lossless link delivers every datagram, and its payload rate stays under the wire's:
 * a 1472-byte datagram is a 1538-byte slot (preamble 8, Ethernet 14 + 4, IP 20, UDP 8, gap 12).
 */
class KernelUdpBenchmarkTestCase : public TestCase
{
  public:
    KernelUdpBenchmarkTestCase()
        : TestCase("Kernel UDP benchmark: fragmentation, coalescing and conservation")
    {
    }

  private:
    struct Result
    {
        std::vector<Time> latency;
        double bps{0};
        uint32_t received{0};

        void Count(uint32_t)
        {
            ++received;
        }
    };

    Result Run(const std::string& nic, const std::vector<uint32_t>& sizes, uint32_t count)
    {
        NodeContainer nodes;
        nodes.Create(2);
        HostHelper hosts;
        hosts.SetHostProfile("athlonxp2800-fbsd47");
        hosts.Install(nodes);
        GigeHelper gige;
        gige.SetNicProfile(nic);
        NetDeviceContainer devs = gige.Install(nodes.Get(0), nodes.Get(1));
        InternetStackHelper internet;
        internet.Install(nodes);
        Ipv4AddressHelper addr("10.5.0.0", "255.255.255.0");
        Ipv4InterfaceContainer ifs = addr.Assign(devs);
        Ptr<KernelUdpBenchmark> a = CreateObject<KernelUdpBenchmark>();
        Ptr<KernelUdpBenchmark> b = CreateObject<KernelUdpBenchmark>();
        nodes.Get(0)->AddApplication(a);
        nodes.Get(1)->AddApplication(b);
        a->SetPeer(ifs.GetAddress(1), b);
        b->SetPeer(ifs.GetAddress(0), a);
        Result r;
        b->TraceConnectWithoutContext("Rx", MakeCallback(&Result::Count, &r));
        auto step = [&](std::function<void()> f) {
            Simulator::ScheduleWithContext(nodes.Get(0)->GetId(), Seconds(0), f);
            Simulator::Run();
        };
        Simulator::Run();
        step([&]() { a->PingPong(1, 1, [](Time) {}); }); // ARP
        for (uint32_t size : sizes)
        {
            step([&]() { a->PingPong(size, 5, [&](Time t) { r.latency.push_back(t); }); });
        }
        r.received = 0;
        step([&]() { a->Stream(1472, count, [&](double bps) { r.bps = bps; }); });
        Simulator::Destroy();
        return r;
    }

    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(KernelUdpBenchmark::FramesPerDatagram(1, 1500), 1u, "1 byte");
        NS_TEST_ASSERT_MSG_EQ(KernelUdpBenchmark::FramesPerDatagram(1472, 1500), 1u, "fits");
        NS_TEST_ASSERT_MSG_EQ(KernelUdpBenchmark::FramesPerDatagram(1473, 1500), 2u, "one over");
        // 65000 + 8 bytes in fragments of 1480: 43 full ones and a 1368-byte tail.
        NS_TEST_ASSERT_MSG_EQ(KernelUdpBenchmark::FramesPerDatagram(65000, 1500), 44u, "64 KB");
        NS_TEST_ASSERT_MSG_EQ(KernelUdpBenchmark::FramesPerDatagram(8000, 9000), 1u, "jumbo");

        const std::vector<uint32_t> sizes = {1, 1472, 4096};
        const uint32_t count = 200;
        Result on = Run("pro1000mt", sizes, count);
        Result off = Run("pro1000mt-nocoal", sizes, count);
        for (std::size_t i = 0; i < sizes.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_LT_OR_EQ(off.latency.at(i),
                                        on.latency.at(i),
                                        "coalescing off raised the latency at " << sizes[i]);
        }
        const double wire = 1e9 * 1472.0 / 1538.0;
        for (const Result* r : {&on, &off})
        {
            NS_TEST_ASSERT_MSG_EQ(r->received, count, "every datagram arrives");
            NS_TEST_ASSERT_MSG_GT(r->bps, 0.0, "a stream rate");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(r->bps, wire * 1.0001, "above the wire's payload rate");
        }
    }
};

/**
 * NetPIPE's block schedule: 1, 2, 3, 4, then n-3, n, n+3 around 6, 8, 12, 16, 24, ...
 */
class NetpipeScheduleTestCase : public TestCase
{
  public:
    NetpipeScheduleTestCase()
        : TestCase("NetPIPE block sizes with +-3 perturbations")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<uint32_t> s = NetpipeApplication::BlockSizes(20000);
        std::vector<uint32_t> head(s.begin(), s.begin() + 10);
        std::vector<uint32_t> expect = {1, 2, 3, 4, 3, 6, 9, 5, 8, 11};
        NS_TEST_ASSERT_MSG_EQ((head == expect), true, "first block sizes");
        auto has = [&s](uint32_t v) { return std::find(s.begin(), s.end(), v) != s.end(); };
        NS_TEST_ASSERT_MSG_EQ(has(16381) && has(16384) && has(16387), true, "16 KB triple");
        NS_TEST_ASSERT_MSG_EQ(has(12288), true, "1.5 x power of two");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(*std::max_element(s.begin(), s.end()), 20000u, "max block");
    }
};

/**
 * NetpipeHelper builds NetPIPE's pair on nodes that have only HostHelper::InstallStack's TCP
 * settings (no CPU, no bus) over ns-3's SimpleNetDevice: the receiver on the second node, the
 * transmitter aimed at its address and port, both with the helper's attributes; the run then
 * measures every block size of the schedule.
 */
class NetpipeHelperTestCase : public TestCase
{
  public:
    NetpipeHelperTestCase()
        : TestCase("NetpipeHelper on nodes with HostHelper::InstallStack")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(2);
        HostHelper hosts;
        hosts.SetHostProfile("piii450-linux22");
        hosts.InstallStack(nodes);
        NS_TEST_ASSERT_MSG_EQ((nodes.Get(0)->GetObject<HostStack>() != nullptr), true, "stack");
        NS_TEST_ASSERT_MSG_EQ((nodes.Get(0)->GetObject<HostCpu>() == nullptr &&
                               nodes.Get(0)->GetObject<PciBus>() == nullptr),
                              true,
                              "InstallStack installs no CPU and no bus");
        SimpleNetDeviceHelper link;
        link.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        NetDeviceContainer devs = link.Install(nodes);
        InternetStackHelper internet;
        internet.Install(nodes);
        Ipv4AddressHelper addr("10.0.0.0", "255.255.255.0");
        Ipv4InterfaceContainer ifs = addr.Assign(devs);

        NetpipeHelper netpipe;
        netpipe.SetAttribute("SocketBuffer", UintegerValue(32768));
        netpipe.SetAttribute("MaxBlock", UintegerValue(100));
        netpipe.SetAttribute("Port", UintegerValue(6001));
        Ptr<NetpipeApplication> tx = netpipe.Install(nodes.Get(0), nodes.Get(1), ifs.GetAddress(1));
        NS_TEST_ASSERT_MSG_EQ(nodes.Get(0)->GetNApplications(), 1u, "transmitter's node");
        NS_TEST_ASSERT_MSG_EQ(nodes.Get(1)->GetNApplications(), 1u, "receiver's node");
        NS_TEST_ASSERT_MSG_EQ((nodes.Get(0)->GetApplication(0) == tx), true, "transmitter");
        StringValue role;
        nodes.Get(1)->GetApplication(0)->GetAttribute("Role", role);
        NS_TEST_ASSERT_MSG_EQ(role.Get(), "Receiver", "the second node receives");
        tx->GetAttribute("Role", role);
        NS_TEST_ASSERT_MSG_EQ(role.Get(), "Transmitter", "the first node transmits");
        AddressValue remote;
        tx->GetAttribute("Remote", remote);
        NS_TEST_ASSERT_MSG_EQ((remote.Get() == Address(InetSocketAddress(ifs.GetAddress(1), 6001))),
                              true,
                              "the transmitter connects to the receiver's address and port");
        UintegerValue sockbuf;
        nodes.Get(1)->GetApplication(0)->GetAttribute("SocketBuffer", sockbuf);
        NS_TEST_ASSERT_MSG_EQ(sockbuf.Get(), 32768u, "the receiver has the helper's attributes");

        tx->SetDoneCallback(Callback<void>([]() { Simulator::Stop(); }));
        Simulator::Stop(Seconds(10));
        Simulator::Run();
        // 1, 2, 3, 4, then n-3, n, n+3 around 6, 8, 12, ..., 96 (the +3 of 96 is 99): 4 + 3 x 9
        NS_TEST_ASSERT_MSG_EQ(tx->GetSamples().size(), 31u, "every block size measured");
        NS_TEST_ASSERT_MSG_EQ(tx->GetSamples().back().bytes, 99u, "the largest block");
        Simulator::Destroy();
    }
};

/**
 * ProfileCatalogue::Used: what a run is composed of. After ForgetUsed, finding the host
 * pii450-netserver-nt4 (parts pii450-netserver and nt4; pii450-netserver derives from
 * piii450-440bx, hosts.toml and cpus.toml) and the NIC acenic (parts tigon2 and acenic-045)
 * records exactly those seven, sorted; a name that is not a profile records nothing.
 */
class ProfileUsedTestCase : public TestCase
{
  public:
    ProfileUsedTestCase()
        : TestCase("ProfileCatalogue::Used names the profiles found, their parts and bases")
    {
    }

  private:
    void DoRun() override
    {
        ProfileCatalogue::ForgetUsed();
        NS_TEST_ASSERT_MSG_EQ(ProfileCatalogue::Used().empty(), true, "nothing found yet");
        ProfileCatalogue::Find("host", "pii450-netserver-nt4");
        ProfileCatalogue::Find("nic", "acenic");
        ProfileCatalogue::Find("nic", "no-such-nic");
        ProfileCatalogue::Find("host", "acenic"); // a name of another kind: not found
        std::vector<std::string> expect = {"chip:tigon2",
                                           "cpu:pii450-netserver",
                                           "cpu:piii450-440bx",
                                           "driver:acenic-045",
                                           "host:pii450-netserver-nt4",
                                           "nic:acenic",
                                           "os:nt4"};
        std::vector<std::string> used = ProfileCatalogue::Used();
        std::string got;
        for (const auto& u : used)
        {
            got += u + " ";
        }
        NS_TEST_ASSERT_MSG_EQ((used == expect), true, "used: " << got);
        ProfileCatalogue::ForgetUsed();
        NS_TEST_ASSERT_MSG_EQ(ProfileCatalogue::Used().empty(), true, "forgotten");
    }
};

/**
 * A profile file: a derived profile holds its base's values with its own laid over them, an
 * abstract base is not selectable, the values reach an object's attributes, and a bad file is
 * refused with its file and line.
 */
class ProfileFileTestCase : public TestCase
{
  public:
    ProfileFileTestCase()
        : TestCase("profile files: bases, overrides, application, refusal")
    {
    }

  private:
    void DoRun() override
    {
        std::string dir = CreateTempDirFilename("clusternet-profiles");
        std::filesystem::create_directories(dir);
        std::string good = dir + "/good.toml";
        std::ofstream(good) << "[test-base]\n"
                               "kind = \"nic\"\n"
                               "abstract = true\n"
                               "description = \"a base\"\n"
                               "[test-base.device]\n"
                               "Mtu = [\"4000\", \"test\"]\n"
                               "TxRingSize = [\"64\", \"test\"]\n"
                               "[test-derived]\n"
                               "kind = \"nic\"\n"
                               "base = \"test-base\"\n"
                               "description = \"derived\"\n"
                               "[test-derived.device]\n"
                               "TxRingSize = [\"128\", \"test override\"]\n"
                               "[test-derived.properties]\n"
                               "PriceUsd = [12.5, \"test\"]\n";
        NS_TEST_ASSERT_MSG_EQ(ProfileCatalogue::Load({good}), "", "a good file loads");
        NS_TEST_ASSERT_MSG_EQ((ProfileCatalogue::Find("nic", "test-base") == nullptr),
                              true,
                              "an abstract profile is not selectable");
        const Profile* p = ProfileCatalogue::Find("nic", "test-derived");
        NS_TEST_ASSERT_MSG_NE(p, nullptr, "derived profile");
        NS_TEST_ASSERT_MSG_EQ(p->values.size(), 3, "two device values and one property");
        NS_TEST_ASSERT_MSG_EQ(p->Get("device", "Mtu"), "4000", "inherited");
        NS_TEST_ASSERT_MSG_EQ(p->Get("device", "TxRingSize"), "128", "overridden");
        NS_TEST_ASSERT_MSG_EQ(p->Get("properties", "PriceUsd"), "12.5", "a bare number");
        Ptr<GigeNetDevice> dev = CreateObject<GigeNetDevice>();
        NS_TEST_ASSERT_MSG_EQ(ProfileCatalogue::Apply(*p, "device", dev), 2, "two applied");
        NS_TEST_ASSERT_MSG_EQ(dev->GetMtu(), 4000, "Mtu reached the device");
        UintegerValue ring;
        dev->GetAttribute("TxRingSize", ring);
        NS_TEST_ASSERT_MSG_EQ(ring.Get(), 128, "the override reached the device");

        std::string bad = dir + "/bad.toml";
        std::ofstream(bad) << "[test-bad]\nkind = \"nic\"\ndescription = \"x\"\n"
                              "[test-bad.device]\nMtu = [\"100000\", \"test\"]\n";
        std::string err = ProfileCatalogue::Load({bad});
        NS_TEST_ASSERT_MSG_EQ(err.rfind(bad + ":5: test-bad.device.Mtu = '100000': value not "
                                              "allowed",
                                        0),
                              0,
                              err);
        NS_TEST_ASSERT_MSG_EQ((ProfileCatalogue::Find("nic", "test-bad") == nullptr),
                              true,
                              "nothing of a refused file is added");
        std::filesystem::remove_all(dir);
    }
};

/**
 * A NIC composed of parts (a chip and a driver) holds both parts' values, each once, and a
 * derived NIC (base) holds them too. Refused, each with file:line: two parts that set the same
 * attribute (a value belongs to one part), a part of a kind the composition cannot have, parts
 * together with a base, and parts on a kind that is not composed (an MPI library).
 */
class ProfilePartsTestCase : public TestCase
{
  public:
    ProfilePartsTestCase()
        : TestCase("profile parts: a NIC is its chip and its driver, each value once")
    {
    }

  private:
    void DoRun() override
    {
        std::string dir = CreateTempDirFilename("clusternet-profile-parts");
        std::filesystem::create_directories(dir);
        std::string good = dir + "/parts.toml";
        std::ofstream(good) << "[pt-chip]\nkind = \"chip\"\ndescription = \"c\"\n"
                               "[pt-chip.device]\nRxFifoSize = [\"32768\", \"datasheet\"]\n"
                               "[pt-drv]\nkind = \"driver\"\ndescription = \"d\"\n"
                               "[pt-drv.device]\nTxRingSize = [\"128\", \"source\"]\n"
                               "[pt-drv.coalescer]\nEnabled = [\"false\", \"source\"]\n"
                               "[pt-nic]\nkind = \"nic\"\nparts = [\"pt-chip\", \"pt-drv\"]\n"
                               "description = \"n\"\n"
                               "[pt-mine]\nkind = \"nic\"\nbase = \"pt-nic\"\ndescription = \"m\"\n"
                               "[pt-mine.device]\nTxRingSize = [\"64\", \"mine\"]\n";
        NS_TEST_ASSERT_MSG_EQ(ProfileCatalogue::Load({good}), "", "a good file loads");
        const Profile* nic = ProfileCatalogue::Find("nic", "pt-nic");
        NS_TEST_ASSERT_MSG_NE(nic, nullptr, "the composed NIC");
        NS_TEST_ASSERT_MSG_EQ(nic->values.size(), 3, "the chip's one value and the driver's two");
        NS_TEST_ASSERT_MSG_EQ(nic->Get("device", "RxFifoSize"), "32768", "from the chip");
        NS_TEST_ASSERT_MSG_EQ(nic->Get("device", "TxRingSize"), "128", "from the driver");
        NS_TEST_ASSERT_MSG_EQ(nic->Get("coalescer", "Enabled"), "false", "from the driver");
        const Profile* mine = ProfileCatalogue::Find("nic", "pt-mine");
        NS_TEST_ASSERT_MSG_EQ(mine->Get("device", "RxFifoSize"), "32768", "inherited part value");
        NS_TEST_ASSERT_MSG_EQ(mine->Get("device", "TxRingSize"), "64", "overridden");
        Ptr<GigeNetDevice> dev = CreateObject<GigeNetDevice>();
        NS_TEST_ASSERT_MSG_EQ(ProfileCatalogue::Apply(*nic, "device", dev),
                              2,
                              "both parts applied");

        struct Bad
        {
            std::string text;
            std::string says;
        };
        const std::string parts = "[pb-a]\nkind = \"chip\"\ndescription = \"a\"\n"
                                  "[pb-a.device]\nRxFifoSize = [\"32768\", \"s\"]\n"
                                  "[pb-b]\nkind = \"driver\"\ndescription = \"b\"\n"
                                  "[pb-b.device]\nRxFifoSize = [\"16384\", \"s\"]\n";
        for (const Bad& b :
             {Bad{parts + "[pb-nic]\nkind = \"nic\"\nparts = [\"pb-a\", \"pb-b\"]\n"
                          "description = \"x\"\n",
                  ":13: pb-nic: parts 'pb-a' and 'pb-b' both set device.RxFifoSize"},
              Bad{parts + "[pb-nic]\nkind = \"nic\"\nparts = [\"pb-a\", \"pb-lam\"]\n"
                          "description = \"x\"\n[pb-lam]\nkind = \"mpi\"\ndescription = \"l\"\n",
                  ":13: pb-nic: part 'pb-lam' is not a profile of a part kind of a nic "
                  "(chip, driver)"},
              Bad{parts + "[pb-nic]\nkind = \"nic\"\nbase = \"pb-x\"\nparts = [\"pb-a\"]\n"
                          "description = \"x\"\n[pb-x]\nkind = \"nic\"\ndescription = \"x\"\n",
                  ":14: pb-nic: has both base and parts"},
              Bad{"[pb-lib]\nkind = \"mpi\"\nparts = [\"pb-q\"]\ndescription = \"x\"\n",
                  ":3: pb-lib: a mpi profile has no parts"}})
        {
            std::string bad = dir + "/bad.toml";
            std::ofstream(bad) << b.text;
            std::string err = ProfileCatalogue::Load({bad});
            NS_TEST_ASSERT_MSG_EQ(err.rfind(bad + b.says, 0), 0, err);
            NS_TEST_ASSERT_MSG_EQ((ProfileCatalogue::Find("nic", "pb-nic") == nullptr),
                                  true,
                                  "nothing of a refused file is added");
        }
        std::filesystem::remove_all(dir);
    }
};

/**
 * A run's values (ProfileSet): an attribute is the attribute's initial value until a profile
 * sets it, a later layer wins (profile, then the run's choice, then --set), a profile value
 * for the same target name of another object is not taken, bad overrides are refused whole,
 * and the values reach an object only when applied.
 */
class ProfileSetTestCase : public TestCase
{
  public:
    ProfileSetTestCase()
        : TestCase("profile sets: layers, kinds, refused overrides, application")
    {
    }

  private:
    void DoRun() override
    {
        std::string dir = CreateTempDirFilename("clusternet-profile-set");
        std::filesystem::create_directories(dir);
        std::string file = dir + "/set.toml";
        std::ofstream(file) << "[ps-nic]\nkind = \"nic\"\ndescription = \"x\"\n"
                               "[ps-nic.device]\nMtu = [\"4000\", \"test\"]\n"
                               "[ps-host]\nkind = \"host\"\ndescription = \"y\"\n"
                               "[ps-host.bus]\nWidth = [\"64\", \"test\"]\n"
                               "[ps-host.device]\nSendBuffers = [\"5\", \"test: IP over GM\"]\n";
        NS_TEST_ASSERT_MSG_EQ(ProfileCatalogue::Load({file}), "", "the file loads");

        ProfileSet values({"nic.device", "host.bus"});
        NS_TEST_ASSERT_MSG_EQ(values.Get("device", "Mtu"), "1500", "GigeNetDevice's default");
        NS_TEST_ASSERT_MSG_EQ(values.Get("bus", "Width"), "32", "PciBus's default");
        values.AddProfile(*ProfileCatalogue::Find("nic", "ps-nic"));
        values.AddProfile(*ProfileCatalogue::Find("host", "ps-host"));
        NS_TEST_ASSERT_MSG_EQ(values.Get("device", "Mtu"), "4000", "the NIC profile's");
        NS_TEST_ASSERT_MSG_EQ(values.Get("bus", "Width"), "64", "the host profile's");
        NS_TEST_ASSERT_MSG_EQ(values.GetProfileValues("device").size(),
                              1,
                              "the host's device (GmEthernetNetDevice) is another object");
        values.Set("bus", "Clock", "66");
        NS_TEST_ASSERT_MSG_EQ(values.Get("bus", "Clock"), "66", "the run's choice");

        NS_TEST_ASSERT_MSG_EQ(values.SetOverrides("device.Mtu=9000;bus.Width=32"), "", "good");
        NS_TEST_ASSERT_MSG_EQ(values.GetValue<UintegerValue>("device", "Mtu").Get(),
                              9000,
                              "--set wins");
        NS_TEST_ASSERT_MSG_EQ(values.Get("bus", "Width"), "32", "--set wins over the profile");

        std::string err = values.SetOverrides("device.Mtu=1500;stack.Timestamps=false");
        NS_TEST_ASSERT_MSG_EQ(err,
                              "'stack.Timestamps=false': unknown target 'stack'; allowed: device, "
                              "bus",
                              "a target the run does not have");
        NS_TEST_ASSERT_MSG_EQ(values.Get("device", "Mtu"), "9000", "nothing added when refused");
        err = values.SetOverrides("device.Mtu=100000");
        NS_TEST_ASSERT_MSG_EQ(err.rfind("'device.Mtu=100000': value not allowed", 0), 0, err);
        err = values.SetOverrides("device.Frob=1");
        bool named = err.find("has no attribute Frob") != std::string::npos;
        NS_TEST_ASSERT_MSG_EQ(named, true, err);
        err = values.SetOverrides("device.Mtu");
        NS_TEST_ASSERT_MSG_EQ(err, "'device.Mtu' is not target.Attribute=value", err);

        // Issue 26: empty items and values, unused targets, values ns-3 cannot hold.
        NS_TEST_ASSERT_MSG_EQ(values.SetOverrides(""), "", "no overrides");
        for (const char* bad : {";;", "device.Mtu=9000;", ";device.Mtu=9000"})
        {
            err = values.SetOverrides(bad);
            NS_TEST_ASSERT_MSG_NE(err.find("has an empty item"), std::string::npos, err);
        }
        err = values.SetOverrides("device.Mtu=");
        NS_TEST_ASSERT_MSG_EQ(err, "'device.Mtu=': no value (give target.Attribute=value)", err);
        err = values.SetOverrides(".Mtu=9000");
        NS_TEST_ASSERT_MSG_EQ(err, "'.Mtu=9000' is not target.Attribute=value", err);
        err = values.SetOverrides("bus.Width=64", {"device"});
        NS_TEST_ASSERT_MSG_EQ(err,
                              "'bus.Width=64': this program does not use target 'bus'; "
                              "allowed: device",
                              "a target the run builds but does not exercise");
        NS_TEST_ASSERT_MSG_EQ(values.SetOverrides("device.Mtu=9000", {"device"}), "", "used");
        err = values.SetOverrides("device.DataRate=0bps");
        NS_TEST_ASSERT_MSG_EQ(err,
                              "'device.DataRate=0bps': value not allowed (a rate above 0 bit/s, "
                              "e.g. 1Gbps)",
                              err);
        NS_TEST_ASSERT_MSG_EQ(values.Get("device", "Mtu"), "9000", "nothing added when refused");

        // Every attribute value (--set and profile files) goes through CheckAttribute.
        struct Case
        {
            std::string typeId;
            std::string attribute;
            std::string value;
            bool ok;
        };
        const std::string cpu = "ns3::clusternet::HostCpu";
        const std::string gige = "ns3::clusternet::GigeNetDevice";
        const std::string myrinet = "ns3::clusternet::Myrinet";
        for (const Case& c : {Case{cpu, "CoreFactor", "1.5", true},
                              Case{cpu, "CoreFactor", "nan", false},
                              Case{cpu, "CoreFactor", "inf", false},
                              Case{cpu, "CoreFactor", "1e999", false},
                              Case{cpu, "CoreFactor", "1.5 ", false},
                              Case{cpu, "CoreFactor", "", false},
                              Case{cpu, "ComputeSlice", "5us", true},
                              Case{cpu, "ComputeSlice", "1e30s", false},
                              Case{cpu, "ComputeSlice", "5xs", false},
                              Case{cpu, "ComputeSlice", "nan", false},
                              Case{cpu, "ComputeSlice", "5 us", false},
                              Case{cpu, "CopyBandwidth", "0bps", false},
                              Case{cpu, "CopyBandwidth", "", false},
                              Case{cpu, "ChecksumBandwidth", "0bps", true}, // 0: folded in
                              Case{gige, "DataRate", "1Gbps", true},
                              Case{gige, "DataRate", "1bps", true},
                              Case{gige, "DataRate", "0.5bps", false},
                              Case{gige, "DataRate", "99999999999999999999bps", false},
                              Case{gige, "DataRate", "1e9bps", false},
                              Case{gige, "DataRate", "1Gbps ", false},
                              Case{gige, "Mtu", "99999999999999999999", false},
                              Case{myrinet + "Channel", "DataRate", "0Gbps", false},
                              Case{myrinet + "NetDevice", "ReceiveRate", "0bps", true}})
        {
            err = ProfileCatalogue::CheckAttribute(TypeId::LookupByName(c.typeId),
                                                   c.attribute,
                                                   c.value);
            NS_TEST_ASSERT_MSG_EQ(err.empty(), c.ok, c.attribute << "=" << c.value << ": " << err);
        }
        // Time holds int64 nanoseconds: 9223372036.854775807 s either way.
        NS_TEST_ASSERT_MSG_EQ(ValueText::CheckTime("9223372036s"), "", "the largest whole second");
        NS_TEST_ASSERT_MSG_EQ(ValueText::CheckTime("-9223372036s"), "", "and the smallest");
        NS_TEST_ASSERT_MSG_EQ(ValueText::CheckTime("106751d"), "", "in days");
        for (const char* t : {"9223372037s", "-9223372037s", "106752d", "1e30", "inf", "ms", ""})
        {
            NS_TEST_ASSERT_MSG_NE(ValueText::CheckTime(t), "", t);
        }
        NS_TEST_ASSERT_MSG_EQ(ValueText::CheckTime("9223372037s"),
                              "a time within -9223372036s..9223372036s: ns-3 counts time in "
                              "64-bit steps of its resolution",
                              "the limit in the message");

        Ptr<GigeNetDevice> dev = CreateObject<GigeNetDevice>();
        values.ApplyProfiles("device", dev);
        NS_TEST_ASSERT_MSG_EQ(dev->GetMtu(), 4000, "profiles only");
        values.ApplyOverrides("device", dev);
        NS_TEST_ASSERT_MSG_EQ(dev->GetMtu(), 9000, "then --set");
        Ptr<PciBus> bus = CreateObject<PciBus>();
        values.Apply("bus", bus);
        NS_TEST_ASSERT_MSG_EQ(bus->GetBytesPerCycle(), 4, "32 bits: --set");
        NS_TEST_ASSERT_MSG_EQ(bus->GetCyclePeriod(), NanoSeconds(15), "66 MHz: the choice");
        std::filesystem::remove_all(dir);
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
 * A limit is written once, in an attribute's checker, and read from there by command lines and
 * the Python API.
 */
class UintegerRangeTestCase : public TestCase
{
  public:
    UintegerRangeTestCase()
        : TestCase("UintegerRange reads an attribute checker's limits")
    {
    }

  private:
    void DoRun() override
    {
        // Standard Ethernet payload to jumbo frames.
        UintegerRange mtu = UintegerRange::Of("ns3::clusternet::GigeNetDevice", "Mtu");
        NS_TEST_ASSERT_MSG_EQ(mtu.min, 1500, "smallest MTU");
        NS_TEST_ASSERT_MSG_EQ(mtu.max, 9000, "largest MTU");
        NS_TEST_ASSERT_MSG_EQ(mtu.ToString(), "1500..9000", "as text");
        NS_TEST_ASSERT_MSG_EQ(mtu.Contains(1500) && mtu.Contains(9000), true, "ends included");
        NS_TEST_ASSERT_MSG_EQ(mtu.Contains(1499) || mtu.Contains(9001), false, "outside");
        // 4 KB to 64 MB socket buffers.
        UintegerRange sockbuf =
            UintegerRange::Of("ns3::clusternet::NetpipeApplication", "SocketBuffer");
        NS_TEST_ASSERT_MSG_EQ(sockbuf.min, 4096, "smallest socket buffer");
        NS_TEST_ASSERT_MSG_EQ(sockbuf.max, 64ULL << 20, "largest socket buffer");
        // The checker is the attribute's: a value inside is accepted, one outside refused.
        Ptr<GigeNetDevice> dev = CreateObject<GigeNetDevice>();
        NS_TEST_ASSERT_MSG_EQ(dev->SetAttributeFailSafe("Mtu", UintegerValue(mtu.max)), true, "max");
        NS_TEST_ASSERT_MSG_EQ(dev->SetAttributeFailSafe("Mtu", UintegerValue(mtu.max + 1)),
                              false,
                              "max + 1");
    }
};

/**
 * The clusternet TestSuite.
 */
class ClusternetTestSuite : public TestSuite
{
  public:
    ClusternetTestSuite()
        : TestSuite("clusternet", Type::UNIT)
    {
        AddTestCase(new GigeFramingTestCase, TestCase::Duration::QUICK);
        AddTestCase(new NetpipeHelperTestCase, TestCase::Duration::QUICK);
        AddTestCase(new ProfileUsedTestCase, TestCase::Duration::QUICK);
        AddTestCase(new ProfileFileTestCase, TestCase::Duration::QUICK);
        AddTestCase(new ProfilePartsTestCase, TestCase::Duration::QUICK);
        AddTestCase(new ProfileSetTestCase, TestCase::Duration::QUICK);
        AddTestCase(new RxBufferBytesTestCase, TestCase::Duration::QUICK);
        AddTestCase(new UintegerRangeTestCase, TestCase::Duration::QUICK);
        AddTestCase(new GigeTcpGoodputTestCase, TestCase::Duration::QUICK);
        AddTestCase(new GigePauseTestCase, TestCase::Duration::QUICK);
        AddTestCase(new GigeLosslessTestCase, TestCase::Duration::QUICK);
        AddTestCase(new GigeSwitchOverloadTestCase, TestCase::Duration::QUICK);
        AddTestCase(new CoalescingTestCase, TestCase::Duration::QUICK);
        AddTestCase(new CoalescerTriggersTestCase, TestCase::Duration::QUICK);
        AddTestCase(new SoftwareDeviceTestCase, TestCase::Duration::QUICK);
        AddTestCase(new PciDmaTestCase, TestCase::Duration::QUICK);
        AddTestCase(new PciArbitrationTestCase, TestCase::Duration::QUICK);
        AddTestCase(new PciPairTestCase, TestCase::Duration::QUICK);
        AddTestCase(new ReceiveWindowTestCase, TestCase::Duration::QUICK);
        AddTestCase(new HostCpuTestCase, TestCase::Duration::QUICK);
        AddTestCase(new NetpipeScheduleTestCase, TestCase::Duration::QUICK);
        AddTestCase(new KernelUdpBenchmarkTestCase, TestCase::Duration::QUICK);
    }
};

static ClusternetTestSuite g_clusternetTestSuite; //!< Static variable for test initialization
