// SPDX-License-Identifier: GPL-2.0-only
//
// MPI shared-memory TestSuite (seed 002, NT): the shared-memory transport's slot pipeline and
// the PingPong benchmark's timing over it, with times computed by hand from the attribute values
// (copies at the CPU's CopyBandwidth, per-packet and wake-up costs).

#include "ns3/clusternet-module.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/test.h"

using namespace ns3;
using namespace ns3::clusternet;

namespace
{

/// Two processors of one host, each a node with a HostCpu copying at 800 Mbit/s (10 ns/byte).
struct ShmPair
{
    NodeContainer nodes;
    std::vector<Ptr<MpiShmTransport>> transports;

    explicit ShmPair(uint32_t slotBytes, uint32_t slots)
    {
        nodes.Create(2);
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<HostCpu> cpu = CreateObject<HostCpu>();
            cpu->SetAttribute("CopyBandwidth", DataRateValue(DataRate("800Mbps")));
            nodes.Get(i)->AggregateObject(cpu);
            Ptr<MpiShmTransport> t = CreateObject<MpiShmTransport>();
            t->SetAttribute("SlotBytes", UintegerValue(slotBytes));
            t->SetAttribute("Slots", UintegerValue(slots));
            t->SetAttribute("SendCycles", DoubleValue(900));  // 2 us at 450 MHz
            t->SetAttribute("RecvCycles", DoubleValue(1350)); // 3 us
            t->SetAttribute("WakeCycles", DoubleValue(2250)); // 5 us
            t->Setup(cpu, i);
            transports.push_back(t);
        }
        const std::vector<Ptr<MpiTransport>> peers(transports.begin(), transports.end());
        for (auto& t : transports)
        {
            t->SetPeers(peers);
        }
    }
};

/**
 * One packet through the shared ring: a single-slot packet arrives after the sender's
 * SendCycles and copy, then the receiver's WakeCycles, RecvCycles and copy; a packet of several
 * slots fills at most Slots slots at once, every slot is copied out, and the packet is delivered
 * once, after its last slot.
 */
class ShmTransportTestCase : public TestCase
{
  public:
    ShmTransportTestCase()
        : TestCase("shared-memory transport: slot pipeline timing and flow control")
    {
    }

  private:
    void DoRun() override
    {
        {
            ShmPair pair(1000, 2);
            Time delivered;
            pair.transports[1]->SetDeliverCallback(
                [&delivered](const MpiEnvelope&) { delivered = Simulator::Now(); });
            MpiEnvelope e;
            e.src = 0;
            e.dst = 1;
            e.length = 100;
            e.payload = 100;
            Simulator::Schedule(MicroSeconds(1), [&pair, e]() {
                pair.transports[0]->Send(e, 32, nullptr);
            });
            Simulator::Run();
            // 132 bytes at 10 ns/byte = 1.32 us per copy.
            Time expect = MicroSeconds(1) + NanoSeconds(2000 + 1320) +
                          NanoSeconds(5000 + 3000 + 1320);
            NS_TEST_ASSERT_MSG_EQ(delivered, expect, "one-slot packet delivery time");
            Simulator::Destroy();
        }
        {
            ShmPair pair(1000, 2);
            uint32_t deliveries = 0;
            uint32_t maxInUse = 0;
            uint64_t bytesOut = 0;
            Time written;
            pair.transports[1]->SetDeliverCallback(
                [&deliveries](const MpiEnvelope&) { ++deliveries; });
            pair.transports[1]->TraceConnectWithoutContext(
                "SlotCopied",
                MakeBoundCallback(
                    +[](uint64_t* total, uint32_t, uint32_t, uint32_t bytes) { *total += bytes; },
                    &bytesOut));
            MpiEnvelope e;
            e.src = 0;
            e.dst = 1;
            e.length = 4500;
            e.payload = 4500;
            pair.transports[0]->Send(e, 0, [&written]() { written = Simulator::Now(); });
            // Sample the ring occupancy every 100 ns.
            for (uint32_t t = 0; t < 2000; ++t)
            {
                Simulator::Schedule(NanoSeconds(100 * t), [&pair, &maxInUse]() {
                    maxInUse = std::max(maxInUse, pair.transports[0]->GetSlotsInUse(1));
                });
            }
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(deliveries, 1u, "delivered once");
            NS_TEST_ASSERT_MSG_EQ(bytesOut, 4500u, "every byte copied out once");
            NS_TEST_ASSERT_MSG_EQ(pair.transports[1]->GetSlotsReceived(), 5u, "five slots");
            NS_TEST_ASSERT_MSG_EQ(maxInUse, 2u, "never more than Slots filled");
            NS_TEST_ASSERT_MSG_EQ(pair.transports[0]->GetSlotsInUse(1), 0u, "ring drained");
            // The copy-in of 4500 bytes alone takes 45 us plus SendCost; the last slot cannot
            // be written before the receiver freed the third.
            NS_TEST_ASSERT_MSG_GT(written, MicroSeconds(47), "sender waited for free slots");
            Simulator::Destroy();
        }
    }
};

/**
 * PingPong over the shared-memory transport with no library costs: the one-way time of a
 * length that fits one slot is SendCycles + copy + WakeCycles + RecvCycles + copy, the same for
 * every round trip, so the benchmark's mean of half round trips equals it.
 */
class PingPongTimingTestCase : public TestCase
{
  public:
    PingPongTimingTestCase()
        : TestCase("PingPong one-way time over shared memory")
    {
    }

  private:
    void DoRun() override
    {
        ShmPair pair(4096, 2);
        std::vector<Ptr<MpiRank>> ranks;
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<MpiRank> r = CreateObject<MpiRank>();
            r->SetAttribute("EnvelopeBytes", UintegerValue(0));
            r->SetAttribute("SendCycles", DoubleValue(0));
            r->SetAttribute("RecvCycles", DoubleValue(0));
            r->SetAttribute("ReceiveCopy", BooleanValue(false));
            r->SetRank(i, 2);
            r->SetTransport(pair.transports[i]);
            pair.nodes.Get(i)->AddApplication(r);
            ranks.push_back(r);
        }
        Ptr<PingPongBenchmark> bench = CreateObject<PingPongBenchmark>();
        bench->SetAttribute("Repeats", UintegerValue(5));
        bench->Start(ranks[0], ranks[1], {1, 1000}, []() {});
        Simulator::Run();
        const auto& s = bench->GetSamples();
        NS_TEST_ASSERT_MSG_EQ(s.size(), 2u, "two lengths");
        for (const auto& sample : s)
        {
            Time copy = NanoSeconds(10 * sample.bytes);
            Time expect = MicroSeconds(2) + copy + MicroSeconds(5 + 3) + copy;
            NS_TEST_ASSERT_MSG_EQ(sample.oneway, expect, "one-way of " << sample.bytes << " B");
        }
        bench->Dispose();
        Simulator::Destroy();
    }
};

/**
 * The NT profiles' price and lookups: every seed 002 NIC has its Table 2 price, and the
 * PowersOfTwo lengths run from 1 byte to the maximum.
 */
class NtProfilesTestCase : public TestCase
{
  public:
    NtProfilesTestCase()
        : TestCase("seed 002 NIC prices and PingPong lengths")
    {
    }

  private:
    /// The NIC profile's PriceUsd property (Table 4's dollars), -1 without one.
    static double Price(const std::string& nic)
    {
        const Profile* p = ProfileCatalogue::Find("nic", nic);
        NS_ABORT_MSG_UNLESS(p, "no NIC profile " << nic);
        std::string price = p->Get("properties", "PriceUsd");
        return price.empty() ? -1.0 : std::stod(price);
    }

    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(Price("fa310tx"), 24.95, "FA310TX");
        NS_TEST_ASSERT_MSG_EQ(Price("giganet"), 795.0, "GigaNet");
        NS_TEST_ASSERT_MSG_EQ(Price("gnic2-nt"), 995.0, "GNIC-II");
        NS_TEST_ASSERT_MSG_EQ(Price("sk9841"), 729.0, "SK-9841");
        NS_TEST_ASSERT_MSG_EQ(Price("ga620"), 299.99, "GA620");
        NS_TEST_ASSERT_MSG_LT(Price("sknet"), 0.0, "no price");
        std::vector<uint32_t> l = PingPongBenchmark::PowersOfTwo(1024);
        NS_TEST_ASSERT_MSG_EQ(l.size(), 11u, "1..1024");
        NS_TEST_ASSERT_MSG_EQ(l.front(), 1u, "first");
        NS_TEST_ASSERT_MSG_EQ(l.back(), 1024u, "last");
    }
};

/// The MPI shared-memory TestSuite (seed 002).
class MpiShmTestSuite : public TestSuite
{
  public:
    MpiShmTestSuite()
        : TestSuite("clusternet-mpi-shm", Type::UNIT)
    {
        AddTestCase(new ShmTransportTestCase, TestCase::Duration::QUICK);
        AddTestCase(new PingPongTimingTestCase, TestCase::Duration::QUICK);
        AddTestCase(new NtProfilesTestCase, TestCase::Duration::QUICK);
    }
};

static MpiShmTestSuite g_mpiShmTestSuite; //!< Static variable for test initialization

} // namespace
