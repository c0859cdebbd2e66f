// SPDX-License-Identifier: GPL-2.0-only
//
// Myrinet wire-level TestSuite. Expectations come from the packet format (route bytes, 2-byte
// type, CRC-8), link rate and cable delay, and the STOP/GO slack arithmetic, computed here.

#include "ns3/clusternet-module.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/test.h"

using namespace ns3;
using namespace ns3::clusternet;

namespace
{

constexpr double RATE = 250e6; // 2 Gb/s in bytes per second

/// Seconds to carry @p bytes at 2 Gb/s.
Time
Serial(double bytes)
{
    return NanoSeconds(bytes / RATE * 1e9);
}

/// Record delivery times at a host port.
struct Sink
{
    std::vector<Time> at;
    std::vector<uint32_t> sizes;

    bool Receive(Ptr<NetDevice>, Ptr<const Packet> p, uint16_t, const Address&)
    {
        at.push_back(Simulator::Now());
        sizes.push_back(p->GetSize());
        return true;
    }

    void Attach(Ptr<MyrinetNetDevice> dev)
    {
        dev->SetReceiveCallback(MakeCallback(&Sink::Receive, this));
    }
};

/// A chain host A - k switches - host B, A on port 0 of the first switch, links on port 1.
struct Chain
{
    Ptr<MyrinetNetDevice> a;
    Ptr<MyrinetNetDevice> b;
    std::vector<Ptr<MyrinetNetDevice>> outs; //!< switch output ports along the path

    Chain(MyrinetHelper& helper, uint32_t k)
    {
        NodeContainer hosts(2);
        NodeContainer switches(k);
        a = helper.CreateHostPort(hosts.Get(0));
        b = helper.CreateHostPort(hosts.Get(1));
        Ptr<MyrinetNetDevice> prev = a;
        for (uint32_t i = 0; i < k; ++i)
        {
            Ptr<MyrinetNetDevice> in = helper.CreateSwitchPort(switches.Get(i));
            Ptr<MyrinetNetDevice> out = helper.CreateSwitchPort(switches.Get(i));
            helper.Link(prev, in);
            outs.push_back(out);
            prev = out;
        }
        helper.Link(prev, b);
    }

    std::vector<uint8_t> Route() const
    {
        return std::vector<uint8_t>(outs.size(), 1);
    }
};

} // namespace

/**
 * A lone packet through k switches arrives after (k+1) cable delays, k switch latencies and the
 * serialization of the packet as it is on the last link (route bytes gone): payload + 2-byte
 * type + CRC-8.
 */
class MyrinetLoneLatencyTestCase : public TestCase
{
  public:
    MyrinetLoneLatencyTestCase()
        : TestCase("Myrinet: lone packet latency = per-hop delays + serialization")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t k : {0u, 1u, 3u})
        {
            MyrinetHelper helper;
            helper.SetChannelAttribute("Delay", TimeValue(NanoSeconds(20)));
            helper.SetSwitchAttribute("Latency", TimeValue(NanoSeconds(500)));
            Chain c(helper, k);
            Sink sink;
            sink.Attach(c.b);
            const uint32_t payload = 4096;
            Simulator::Schedule(MicroSeconds(1), [&]() {
                c.a->SendRoute(Create<Packet>(payload), c.Route(), 0x0005);
            });
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(sink.at.size(), 1u, "delivered once");
            Time expect = MicroSeconds(1) + NanoSeconds(20) * (k + 1) + NanoSeconds(500) * k +
                          Serial(payload + 2 + 1);
            Time err = sink.at[0] - expect;
            NS_TEST_ASSERT_MSG_LT_OR_EQ(std::abs(err.GetNanoSeconds()), 2 * (k + 2),
                                        "k=" << k << " got " << sink.at[0] << " expected "
                                             << expect);
            NS_TEST_ASSERT_MSG_EQ(sink.sizes[0], payload, "payload delivered");
            // Route bytes stripped per hop: each link carries one byte less than the previous.
            NS_TEST_ASSERT_MSG_EQ(c.a->GetTxBytes(), payload + 3 + k, "first link");
            for (uint32_t i = 0; i < k; ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(c.outs[i]->GetTxBytes(), payload + 3 + k - i - 1,
                                      "link after switch " << i);
            }
            NS_TEST_ASSERT_MSG_EQ(c.b->GetRxBytes(), payload + 3, "last link: no route bytes");
            NS_TEST_ASSERT_MSG_EQ(c.b->GetDropCount(), 0u, "CRC-8 checks at the host");
            Simulator::Destroy();
        }
    }
};

/**
 * A receiver that does not drain: STOP at StopThreshold halts the sender one cable delay later,
 * so the buffer ends at StopThreshold + 2 x delay x rate (within the slack buffer); when the
 * receiver drains again GO resumes the sender and every byte arrives.
 */
class MyrinetStopBudgetTestCase : public TestCase
{
  public:
    MyrinetStopBudgetTestCase()
        : TestCase("Myrinet: STOP halts the sender within the slack budget; GO resumes it")
    {
    }

  private:
    void DoRun() override
    {
        MyrinetHelper helper;
        helper.SetChannelAttribute("Delay", TimeValue(NanoSeconds(40)));
        NodeContainer n(2);
        NetDeviceContainer d = helper.Install(n.Get(0), n.Get(1));
        Ptr<MyrinetNetDevice> a = DynamicCast<MyrinetNetDevice>(d.Get(0));
        Ptr<MyrinetNetDevice> b = DynamicCast<MyrinetNetDevice>(d.Get(1));
        NS_TEST_ASSERT_MSG_EQ(helper.CheckFlowControl(), "", "consistent thresholds");
        Sink sink;
        sink.Attach(b);
        b->SetReceiveEnabled(false);
        a->SendRoute(Create<Packet>(1000), {}, 1);
        Simulator::Schedule(MicroSeconds(5), [&]() {
            // Held: the buffer holds STOP + 2 * 40 ns * 0.25 B/ns = 56 + 20 bytes.
            NS_TEST_EXPECT_MSG_EQ_TOL(b->GetMaxOccupancy(), 76.0, 0.5, "slack budget");
            NS_TEST_EXPECT_MSG_EQ(b->GetStopCount(), 1u, "one STOP");
            b->SetReceiveEnabled(true);
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(sink.at.size(), 1u, "delivered after GO");
        NS_TEST_ASSERT_MSG_EQ(b->GetGoCount(), 1u, "one GO");
        NS_TEST_ASSERT_MSG_EQ(b->GetOverflowCount(), 0u, "no overflow");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(b->GetMaxOccupancy(), 80.0, "within the slack buffer");
        NS_TEST_ASSERT_MSG_EQ(b->GetRxBytes(), a->GetTxBytes(), "bytes conserved");
        // After GO (occupancy 40 -> the sender restarts 40 ns later, its bytes arrive 40 ns
        // after that) the rest flows at the link rate: delivery at 5 us + (1003 - 76) bytes
        // of serialization + the 16 bytes drained before GO... equivalently the 1003 - 76
        // bytes still at the sender plus the 76 buffered drain back to back at 0.25 B/ns
        // with at most the 2 x 40 ns GO round trip hidden by the 40 buffered bytes.
        Time expect = MicroSeconds(5) + Serial(1003);
        NS_TEST_ASSERT_MSG_LT_OR_EQ(std::abs((sink.at[0] - expect).GetNanoSeconds()), 3,
                                    "no bubble after GO (GoThreshold >= 2 x delay x rate)");
        Simulator::Destroy();

        // Inconsistent thresholds are refused by the helper's check.
        MyrinetHelper bad;
        bad.SetChannelAttribute("Delay", TimeValue(NanoSeconds(100))); // 50 bytes in flight
        NS_TEST_ASSERT_MSG_NE(bad.CheckFlowControl(), "", "56 + 50 > 80");
        MyrinetHelper bad2;
        bad2.SetDeviceAttribute("GoThreshold", UintegerValue(60));
        NS_TEST_ASSERT_MSG_NE(bad2.CheckFlowControl(), "", "GO above STOP");
    }
};

/**
 * A receiver draining at half the link rate: STOP/GO throttles the sender so that a long packet
 * arrives at the drain rate, losslessly.
 */
class MyrinetSlowDrainTestCase : public TestCase
{
  public:
    MyrinetSlowDrainTestCase()
        : TestCase("Myrinet: STOP and GO throttle a sender to a slow receiver, losslessly")
    {
    }

  private:
    void DoRun() override
    {
        MyrinetHelper helper;
        NodeContainer n(2);
        NetDeviceContainer d = helper.Install(n.Get(0), n.Get(1));
        Ptr<MyrinetNetDevice> a = DynamicCast<MyrinetNetDevice>(d.Get(0));
        Ptr<MyrinetNetDevice> b = DynamicCast<MyrinetNetDevice>(d.Get(1));
        b->SetAttribute("ReceiveRate", DataRateValue(DataRate("1Gbps")));
        Sink sink;
        sink.Attach(b);
        const uint32_t payload = 100000;
        a->SendRoute(Create<Packet>(payload), {}, 1);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(sink.at.size(), 1u, "delivered");
        double seconds = sink.at[0].GetSeconds();
        double expect = (payload + 3) / 125e6; // drain rate 1 Gb/s
        NS_TEST_ASSERT_MSG_EQ_TOL(seconds, expect, expect * 0.002, "throughput = drain rate");
        NS_TEST_ASSERT_MSG_GT(b->GetStopCount(), 100u, "STOP/GO cycles");
        NS_TEST_ASSERT_MSG_EQ(b->GetOverflowCount(), 0u, "lossless");
        Simulator::Destroy();
    }
};

/**
 * Two switches S1 (hosts A, B) and S2 (hosts C, D) joined by one link. C->D holds D's port;
 * A->D blocks at S2 and holds the S1->S2 link; B->C needs that link and must wait for it, so it
 * arrives only after C->D has finished, although its own path to C is idle.
 */
class MyrinetBlockedWormTestCase : public TestCase
{
  public:
    MyrinetBlockedWormTestCase()
        : TestCase("Myrinet: a blocked worm holds its links and delays a flow sharing one")
    {
    }

  private:
    void DoRun() override
    {
        MyrinetHelper helper;
        NodeContainer hosts(4); // A B C D
        NodeContainer sw(2);
        std::vector<Ptr<MyrinetNetDevice>> h;
        for (uint32_t i = 0; i < 4; ++i)
        {
            h.push_back(helper.CreateHostPort(hosts.Get(i)));
            helper.Link(h[i], helper.CreateSwitchPort(sw.Get(i / 2))); // ports 0, 1
        }
        Ptr<MyrinetNetDevice> s1up = helper.CreateSwitchPort(sw.Get(0)); // port 2
        Ptr<MyrinetNetDevice> s2up = helper.CreateSwitchPort(sw.Get(1)); // port 2
        helper.Link(s1up, s2up);
        Sink c;
        Sink d;
        c.Attach(h[2]);
        d.Attach(h[3]);
        const uint32_t big = 20000;
        h[2]->SendRoute(Create<Packet>(big), {1}, 1);                 // X: C -> D
        Simulator::Schedule(MicroSeconds(1), [&]() {
            h[0]->SendRoute(Create<Packet>(big), {2, 1}, 1);          // Y: A -> D
        });
        Simulator::Schedule(MicroSeconds(3), [&]() {
            h[1]->SendRoute(Create<Packet>(100), {2, 0}, 1);          // Z: B -> C
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(d.at.size(), 2u, "X and Y delivered");
        NS_TEST_ASSERT_MSG_EQ(c.at.size(), 1u, "Z delivered");
        Time xDone = d.at[0];
        NS_TEST_ASSERT_MSG_GT(xDone, Serial(big), "X took its serialization");
        NS_TEST_ASSERT_MSG_GT(c.at[0], xDone, "Z waited for the link Y held");
        // Z alone would take 3 delays, 2 latencies and 103 bytes: about 1.5 us after 3 us.
        NS_TEST_ASSERT_MSG_GT(c.at[0], MicroSeconds(3) + Serial(big) / 2, "Z delayed");
        NS_TEST_ASSERT_MSG_GT(s2up->GetStopCount(), 0u, "STOP on the inter-switch link");
        Ptr<MyrinetPort> s1a = sw.Get(0)->GetObject<MyrinetSwitch>()->GetPort(0);
        NS_TEST_ASSERT_MSG_GT(s1a->GetStopCount(), 0u, "STOP on A's link (held behind Y's head)");
        for (uint32_t i = 0; i < 4; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(h[i]->GetOverflowCount(), 0u, "no overflow");
        }
        Simulator::Destroy();
    }
};

/**
 * The XBar16 Clos rule: 16, 128, 1024 hosts (24 switches for 128, seed 001 sec. 2); routes go
 * up to the nearest common ancestor and down, so every packet arrives with one route byte per
 * switch crossed (1 on a leaf, 3 across the 128-host enclosure).
 */
class MyrinetClosTestCase : public TestCase
{
  public:
    MyrinetClosTestCase()
        : TestCase("Myrinet: Clos of XBar16s, 128 hosts on 24 switches, up and down routes")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(MyrinetClosTopology::Levels(16), 1u, "one switch");
        NS_TEST_ASSERT_MSG_EQ(MyrinetClosTopology::Levels(128), 2u, "enclosure");
        NS_TEST_ASSERT_MSG_EQ(MyrinetClosTopology::Levels(1024), 3u, "three levels");
        NS_TEST_ASSERT_MSG_EQ(MyrinetClosTopology::Levels(100), 0u, "no rule for 100");
        NS_TEST_ASSERT_MSG_EQ(MyrinetClosTopology::Route(3, 0, 1023).size(), 5u, "1024: 5 hops");

        MyrinetHelper helper;
        NodeContainer hosts(128);
        NodeContainer switches;
        NetDeviceContainer ports =
            helper.InstallTopology("ns3::clusternet::MyrinetClosTopology", hosts, switches);
        NS_TEST_ASSERT_MSG_EQ(switches.GetN(), 24u, "24 XBar16s");
        NS_TEST_ASSERT_MSG_EQ(ports.GetN(), 128u, "128 host ports");
        std::vector<Sink> sinks(128);
        for (uint32_t i = 0; i < 128; ++i)
        {
            sinks[i].Attach(DynamicCast<MyrinetNetDevice>(ports.Get(i)));
        }
        // Every host sends to a neighbour on its leaf and to a host on another leaf.
        for (uint32_t i = 0; i < 128; ++i)
        {
            Ptr<NetDevice> src = ports.Get(i);
            src->Send(Create<Packet>(1000), ports.Get(i ^ 1)->GetAddress(), 1);
            src->Send(Create<Packet>(1000), ports.Get((i + 37) % 128)->GetAddress(), 1);
        }
        Simulator::Run();
        uint64_t tx = 0;
        uint64_t rx = 0;
        for (uint32_t i = 0; i < 128; ++i)
        {
            auto dev = DynamicCast<MyrinetNetDevice>(ports.Get(i));
            NS_TEST_ASSERT_MSG_EQ(sinks[i].at.size(), 2u, "host " << i << " got both");
            NS_TEST_ASSERT_MSG_EQ(dev->GetOverflowCount(), 0u, "lossless");
            tx += dev->GetTxBytes();
            rx += dev->GetRxBytes();
        }
        // Route bytes: 1 per packet on its leaf, 3 per packet across the spine.
        NS_TEST_ASSERT_MSG_EQ(tx - rx, 128u * (1 + 3), "one route byte per switch crossed");
        for (uint32_t s = 0; s < switches.GetN(); ++s)
        {
            NS_TEST_ASSERT_MSG_EQ(switches.Get(s)->GetObject<MyrinetSwitch>()->GetBadRoutes(),
                                  0u,
                                  "valid routes");
        }
        Simulator::Destroy();
    }
};

/**
 * A topology of the test's own, chosen by name like the module's: two hosts back to back. A
 * new topology is a MyrinetTopology subclass; the helper builds it from its TypeId name, and
 * a topology that does not fit the hosts builds nothing (the Clos rule has none for 100).
 */
class BackToBackTopology : public MyrinetTopology
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::clusternet::test::BackToBackTopology")
                                .SetParent<MyrinetTopology>()
                                .SetGroupName("Clusternet")
                                .AddConstructor<BackToBackTopology>();
        return tid;
    }

    bool Fits(uint32_t hosts) const override
    {
        return hosts == 2;
    }

    NetDeviceContainer Install(MyrinetHelper& helper,
                               const NodeContainer& hosts,
                               NodeContainer&) const override
    {
        return helper.Install(hosts.Get(0), hosts.Get(1));
    }
};

NS_OBJECT_ENSURE_REGISTERED(BackToBackTopology);

/// A topology is chosen by its TypeId name.
class MyrinetTopologyTestCase : public TestCase
{
  public:
    MyrinetTopologyTestCase()
        : TestCase("Myrinet: topologies chosen by name; a new one is a subclass")
    {
    }

  private:
    void DoRun() override
    {
        MyrinetHelper helper;
        NodeContainer switches;
        NodeContainer three(3);
        NS_TEST_ASSERT_MSG_EQ(
            helper.InstallTopology("ns3::clusternet::test::BackToBackTopology", three, switches)
                .GetN(),
            0u,
            "back to back does not fit 3 hosts");
        NodeContainer hundred(100);
        NS_TEST_ASSERT_MSG_EQ(
            helper.InstallTopology("ns3::clusternet::MyrinetClosTopology", hundred, switches)
                .GetN(),
            0u,
            "no Clos for 100 hosts");
        NodeContainer sixteen(16);
        NS_TEST_ASSERT_MSG_EQ(
            helper.InstallTopology("ns3::clusternet::MyrinetClosTopology", sixteen, switches)
                .GetN(),
            16u,
            "16 hosts");
        NS_TEST_ASSERT_MSG_EQ(switches.GetN(), 1u, "16 hosts: one XBar16");
        NodeContainer two(2);
        NetDeviceContainer ports =
            helper.InstallTopology("ns3::clusternet::test::BackToBackTopology", two, switches);
        NS_TEST_ASSERT_MSG_EQ(ports.GetN(), 2u, "two host ports");
        NS_TEST_ASSERT_MSG_EQ(switches.GetN(), 1u, "no switch added");
        Sink sink;
        sink.Attach(DynamicCast<MyrinetNetDevice>(ports.Get(1)));
        ports.Get(0)->Send(Create<Packet>(100), ports.Get(1)->GetAddress(), 1);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(sink.at.size(), 1u, "delivered over the cable");
        Simulator::Destroy();
    }
};

/**
 * A line of switches (InstallLine): hosts spread evenly along it, two hosts at its two ends;
 * every packet crosses the switches between its hosts' switches, one route byte each plus the
 * last switch's, and a lone packet from end to end arrives as through the Chain of the lone
 * latency test: (k+1) cable delays, k switch latencies, its last link's serialization.
 */
class MyrinetLineTestCase : public TestCase
{
  public:
    MyrinetLineTestCase()
        : TestCase("Myrinet: a line of switches, hosts spread along it, end-to-end latency")
    {
    }

  private:
    void DoRun() override
    {
        // Host i of n on a line of k: round(i (k-1) / (n-1)).
        NS_TEST_ASSERT_MSG_EQ(MyrinetHelper::LineSwitchOf(0, 2, 5), 0u, "first end");
        NS_TEST_ASSERT_MSG_EQ(MyrinetHelper::LineSwitchOf(1, 2, 5), 4u, "last end");
        const uint32_t at4[] = {0, 1, 1, 2}; // 4 hosts on 3 switches: 0, 2/3, 4/3, 2
        for (uint32_t i = 0; i < 4; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(MyrinetHelper::LineSwitchOf(i, 4, 3), at4[i], "host " << i);
        }

        MyrinetHelper helper;
        helper.SetChannelAttribute("Delay", TimeValue(NanoSeconds(20)));
        helper.SetSwitchAttribute("Latency", TimeValue(NanoSeconds(500)));
        NodeContainer hosts(4);
        NodeContainer switches;
        NetDeviceContainer ports = helper.InstallLine(hosts, 3, switches);
        NS_TEST_ASSERT_MSG_EQ(switches.GetN(), 3u, "three switches");
        for (uint32_t i = 0; i < 4; ++i)
        {
            Ptr<Channel> link = ports.Get(i)->GetChannel();
            Ptr<NetDevice> far = link->GetDevice(0) == ports.Get(i) ? link->GetDevice(1)
                                                                    : link->GetDevice(0);
            NS_TEST_ASSERT_MSG_EQ(far->GetNode(),
                                  switches.Get(at4[i]),
                                  "host " << i << "'s switch");
        }
        std::vector<Sink> sinks(4);
        for (uint32_t i = 0; i < 4; ++i)
        {
            sinks[i].Attach(DynamicCast<MyrinetNetDevice>(ports.Get(i)));
        }
        const uint32_t payload = 1000;
        Simulator::Schedule(MicroSeconds(1), [&]() {
            ports.Get(0)->Send(Create<Packet>(payload), ports.Get(3)->GetAddress(), 1);
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(sinks[3].at.size(), 1u, "end to end delivered");
        const uint32_t k = 3;
        Time expect = MicroSeconds(1) + NanoSeconds(20) * (k + 1) + NanoSeconds(500) * k +
                      Serial(payload + 2 + 1);
        NS_TEST_ASSERT_MSG_LT_OR_EQ(std::abs((sinks[3].at[0] - expect).GetNanoSeconds()),
                                    2 * (k + 2),
                                    "got " << sinks[3].at[0] << " expected " << expect);

        // Then every host to every other: route bytes |at_i - at_j| + 1 per packet.
        uint64_t routeBytes = k; // the lone packet: one per switch of the line
        for (uint32_t i = 0; i < 4; ++i)
        {
            for (uint32_t j = 0; j < 4; ++j)
            {
                if (i != j)
                {
                    ports.Get(i)->Send(Create<Packet>(500), ports.Get(j)->GetAddress(), 1);
                    routeBytes += (at4[i] > at4[j] ? at4[i] - at4[j] : at4[j] - at4[i]) + 1;
                }
            }
        }
        Simulator::Run();
        uint64_t tx = 0;
        uint64_t rx = 0;
        for (uint32_t i = 0; i < 4; ++i)
        {
            auto dev = DynamicCast<MyrinetNetDevice>(ports.Get(i));
            NS_TEST_ASSERT_MSG_EQ(sinks[i].at.size(), (i == 3 ? 4u : 3u), "host " << i);
            tx += dev->GetTxBytes();
            rx += dev->GetRxBytes();
        }
        NS_TEST_ASSERT_MSG_EQ(tx - rx, routeBytes, "one route byte per switch crossed");
        for (uint32_t s = 0; s < switches.GetN(); ++s)
        {
            NS_TEST_ASSERT_MSG_EQ(switches.Get(s)->GetObject<MyrinetSwitch>()->GetBadRoutes(),
                                  0u,
                                  "valid routes");
        }
        Simulator::Destroy();
    }
};

/**
 * The CRC-8 (x^8 + x^2 + x + 1, no reflection, initial value 0) against a bit-by-bit
 * computation, over data with zero runs of every length around the word size and long ones (the
 * CRC crosses zero runs in table steps), and a packet that checks after a switch strips a route
 * byte and updates the CRC.
 */
class MyrinetCrcTestCase : public TestCase
{
  public:
    MyrinetCrcTestCase()
        : TestCase("Myrinet: CRC-8 equals a bit-by-bit CRC over zero runs of any length")
    {
    }

  private:
    /// @return the CRC-8 of @p data, one bit at a time
    static uint8_t BitwiseCrc(const std::vector<uint8_t>& data)
    {
        uint8_t crc = 0;
        for (uint8_t byte : data)
        {
            crc ^= byte;
            for (int b = 0; b < 8; ++b)
            {
                crc = (crc & 0x80) ? static_cast<uint8_t>((crc << 1) ^ 0x07)
                                   : static_cast<uint8_t>(crc << 1);
            }
        }
        return crc;
    }

    void DoRun() override
    {
        uint32_t state = 12345;
        auto next = [&state]() {
            state = state * 1103515245u + 12345u;
            return state >> 16;
        };
        for (uint32_t run = 0; run < 40; ++run)
        {
            for (uint32_t lead = 0; lead < 3; ++lead)
            {
                // lead nonzero bytes, a zero run, a nonzero byte, a zero run again
                std::vector<uint8_t> data;
                for (uint32_t k = 0; k < lead; ++k)
                {
                    data.push_back(static_cast<uint8_t>(1 + next() % 255));
                }
                data.insert(data.end(), run, 0);
                data.push_back(static_cast<uint8_t>(1 + next() % 255));
                data.insert(data.end(), run / 2, 0);
                NS_TEST_ASSERT_MSG_EQ(unsigned(MyrinetTrailer::Crc8(data.data(), data.size())),
                                      unsigned(BitwiseCrc(data)),
                                      "zero run " << run << " after " << lead << " bytes");
            }
        }
        for (uint32_t size : {4096u, 65539u, 100000u})
        {
            std::vector<uint8_t> data(size, 0);
            data[0] = 0x83;
            data[1] = 0x05;
            for (uint32_t k = 0; k < 20; ++k)
            {
                data[next() % size] = static_cast<uint8_t>(next());
            }
            NS_TEST_ASSERT_MSG_EQ(unsigned(MyrinetTrailer::Crc8(data.data(), data.size())),
                                  unsigned(BitwiseCrc(data)),
                                  size << " bytes, mostly zero");
        }

        Ptr<Packet> p = Create<Packet>(4096);
        p->AddHeader(MyrinetHeader({3, 9}, 0x0700));
        MyrinetTrailer trailer;
        trailer.Compute(p);
        std::vector<uint8_t> bytes(p->GetSize());
        p->CopyData(bytes.data(), bytes.size());
        NS_TEST_ASSERT_MSG_EQ(unsigned(trailer.GetCrc()), unsigned(BitwiseCrc(bytes)), "packet");
        NS_TEST_ASSERT_MSG_EQ(trailer.Check(p), true, "checks");
        MyrinetHeader header;
        p->RemoveHeader(header);
        header.PopRoute();
        p->AddHeader(header);
        NS_TEST_ASSERT_MSG_EQ(trailer.Check(p), false, "a stripped route byte changes the CRC");
        MyrinetTrailer stripped = trailer;
        stripped.StripFirstByte(0x80 | 3, p->GetSize());
        NS_TEST_ASSERT_MSG_EQ(stripped.Check(p), true, "updated as a switch does");
        trailer.Compute(p);
        NS_TEST_ASSERT_MSG_EQ(unsigned(stripped.GetCrc()), unsigned(trailer.GetCrc()), "recomputed");
    }
};

/**
 * The Myrinet TestSuite.
 */
class MyrinetTestSuite : public TestSuite
{
  public:
    MyrinetTestSuite()
        : TestSuite("clusternet-myrinet", Type::UNIT)
    {
        AddTestCase(new MyrinetLoneLatencyTestCase, TestCase::Duration::QUICK);
        AddTestCase(new MyrinetStopBudgetTestCase, TestCase::Duration::QUICK);
        AddTestCase(new MyrinetSlowDrainTestCase, TestCase::Duration::QUICK);
        AddTestCase(new MyrinetBlockedWormTestCase, TestCase::Duration::QUICK);
        AddTestCase(new MyrinetClosTestCase, TestCase::Duration::QUICK);
        AddTestCase(new MyrinetTopologyTestCase, TestCase::Duration::QUICK);
        AddTestCase(new MyrinetLineTestCase, TestCase::Duration::QUICK);
        AddTestCase(new MyrinetCrcTestCase, TestCase::Duration::QUICK);
    }
};

/// Static instance registering the suite.
static MyrinetTestSuite g_myrinetTestSuite;
