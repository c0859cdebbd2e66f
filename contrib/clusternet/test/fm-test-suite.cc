// SPDX-License-Identifier: GPL-2.0-only
//
// HPVM / Fast Messages TestSuite (seed 004). Expectations come from PCI and FSB cycle
// arithmetic computed here and from invariants: credits bound what is in flight, the receive
// region is never overrun, shared-memory frames are delivered exactly once, and the pacing
// probe picks the chunk that fits the bridge's queue.

#include "ns3/clusternet-module.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/test.h"

#include <map>
#include <set>

using namespace ns3;
using namespace ns3::clusternet;

namespace
{

/**
 * A paced 160-byte write on an idle 32-bit/33 MHz bus: the first line reaches the bridge after
 * one line time (FsbCyclesPerLine at FsbClock), then the five lines go out as one PIO burst of
 * TransactionOverhead + 40 data cycles. A 192-byte write into a 5-line queue with Retry
 * overflows, and every line after the overflow pays the transaction overhead.
 */
class HostBridgeTestCase : public TestCase
{
  public:
    HostBridgeTestCase()
        : TestCase("Host bridge: one PCI burst for a queue-sized write; overflow breaks bursts")
    {
    }

  private:
    Time WriteTime(uint32_t bytes, HostBridge::FullQueuePolicy policy, uint64_t& transactions)
    {
        Ptr<PciBus> bus = CreateObject<PciBus>(); // 32-bit, 33 MHz, overhead 4
        Ptr<HostBridge> bridge = CreateObject<HostBridge>();
        bridge->SetAttribute("QueueLines", UintegerValue(5));
        bridge->SetAttribute("FsbClock", UintegerValue(100));
        bridge->SetAttribute("FsbCyclesPerLine", UintegerValue(6));
        bridge->SetAttribute("FullQueue", EnumValue(policy));
        bridge->SetBus(bus);
        Time end;
        bridge->Write(bytes, 0, Callback<void>(), [&end]() { end = Simulator::Now(); });
        Simulator::Run();
        transactions = bridge->GetTransactions();
        NS_TEST_EXPECT_MSG_LT_OR_EQ(bridge->GetMaxQueuedLines(), 5u, "queue depth exceeded");
        Simulator::Destroy();
        return end;
    }

    void DoRun() override
    {
        uint64_t tr = 0;
        // 60 ns to the bridge, then (4 + 160 / 4) cycles of 30 ns.
        Time t = WriteTime(160, HostBridge::RETRY, tr);
        NS_TEST_ASSERT_MSG_EQ(t, NanoSeconds(60 + (4 + 40) * 30), "160 B in one burst");
        NS_TEST_ASSERT_MSG_EQ(tr, 1u, "one PCI transaction");
        // Stall: 192 B (6 lines) still one burst, 8 more data cycles.
        t = WriteTime(192, HostBridge::STALL, tr);
        NS_TEST_ASSERT_MSG_EQ(t, NanoSeconds(60 + (4 + 48) * 30), "192 B in one burst (Stall)");
        NS_TEST_ASSERT_MSG_EQ(tr, 1u, "one PCI transaction (Stall)");
        // Retry: the 6th line finds the queue full (5 lines arrive in 300 ns, none has left
        // the bus by then), so it and the lines still queued go out one transaction each.
        WriteTime(192, HostBridge::RETRY, tr);
        NS_TEST_ASSERT_MSG_GT(tr, 1u, "the overflow breaks the burst (Retry)");
    }
};

/**
 * Credit exhaustion: with 2 credits the sender stalls after two packets, sends no data packet
 * until a refill arrives, and the receiver's region (Credits + 2 slots for the one peer) is
 * never overrun.
 */
class FmCreditTestCase : public TestCase
{
  public:
    FmCreditTestCase()
        : TestCase("FM credits: exhaustion blocks the sender until a refill; region never overrun")
    {
    }

  private:
    void DoRun() override
    {
        FmConfig c;
        c.credits = 2;
        FmExperiment exp(c);
        Ptr<FmContext> a = exp.GetContext(0, 0);
        Ptr<FmContext> b = exp.GetContext(1, 0);
        bool stalled = false;
        uint32_t dataWhileStalled = 0;
        uint32_t inFlightMax = 0;
        Callback<void, bool> stallCb([&stalled](bool v) { stalled = v; });
        a->TraceConnectWithoutContext("CreditStall", stallCb);
        auto onTx = [&](Ptr<const Packet> p) {
            FmHeader h;
            p->PeekHeader(h);
            if (h.GetKind() == FmHeader::DATA && stalled)
            {
                ++dataWhileStalled;
            }
            inFlightMax = std::max(inFlightMax, 2 - a->GetCredits(1, 0));
        };
        Callback<void, Ptr<const Packet>> txCb(onTx);
        a->TraceConnectWithoutContext("Tx", txCb);
        const uint32_t messages = 20;
        for (uint32_t i = 0; i < messages; ++i)
        {
            a->Send(1, 0, 2048);
        }
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(b->GetMessagesReceived(), messages, "every message arrives");
        NS_TEST_ASSERT_MSG_EQ(b->GetBytesReceived(), messages * 2048u, "bytes conserved");
        NS_TEST_ASSERT_MSG_GT(a->GetCreditStalls(), 0u, "two credits run out");
        NS_TEST_ASSERT_MSG_EQ(dataWhileStalled, 0u, "no data packet leaves while stalled");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(inFlightMax, 2u, "at most two packets on credit");
        NS_TEST_ASSERT_MSG_EQ(b->GetRegionSlots(), 4u, "region: 2 credits + 2 control slots");
        NS_TEST_ASSERT_MSG_EQ(b->GetRegionOverruns(), 0u, "region never overrun");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(b->GetMaxRegionUsed(), 4u, "region occupancy bounded");
    }
};

/**
 * Send slots: the host learns free LANai send slots only by reading the send queue's state.
 * A stream of 40 one-packet messages through 4 slots needs at least 40 / 4 = 10 reads (one
 * read reveals at most 4 free slots), and the stream still delivers every message.
 */
class FmSendSlotTestCase : public TestCase
{
  public:
    FmSendSlotTestCase()
        : TestCase("FM send slots: learnt by reading the LANai, at most SendBuffers per read")
    {
    }

  private:
    void DoRun() override
    {
        FmConfig c;
        c.overrides = "lanai.SendBuffers=4";
        FmExperiment exp(c);
        Ptr<FmContext> a = exp.GetContext(0, 0);
        Ptr<FmContext> b = exp.GetContext(1, 0);
        const uint32_t messages = 40;
        for (uint32_t i = 0; i < messages; ++i)
        {
            a->Send(1, 0, 64);
        }
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(b->GetMessagesReceived(), messages, "every message arrives");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(a->GetSendQueueReads(), messages / 4, "<= 4 slots per read");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(a->GetSendQueueReads(),
                                    uint64_t{a->GetPacketsSent()},
                                    "no read without a packet to send");
    }
};

/**
 * Shared-memory rings: three processes stream to a fourth over SMT with M = 1, 2 and 3 queues;
 * every message arrives once (bytes conserved, posted = taken), frames in use stay within
 * the free list. A direct check: a free-list frame still in use is skipped (test-and-set).
 */
class FmSmtTestCase : public TestCase
{
  public:
    FmSmtTestCase()
        : TestCase("FM SMT: several concurrent senders, no frame lost or duplicated")
    {
    }

  private:
    void DoRun() override
    {
        {
            Ptr<FmSmt> smt = CreateObject<FmSmt>();
            smt->SetAttribute("FreeListFrames", UintegerValue(4));
            smt->SetAttribute("MaxProcesses", UintegerValue(2));
            smt->Attach(FmSmt::PostedCallback());
            smt->Attach(FmSmt::PostedCallback());
            std::vector<int32_t> frames;
            for (int i = 0; i < 4; ++i)
            {
                frames.push_back(smt->AcquireFrame(0, 1));
            }
            NS_TEST_ASSERT_MSG_EQ(frames[3], 3, "frames taken in ring order");
            NS_TEST_ASSERT_MSG_EQ(smt->AcquireFrame(0, 1), -1, "a frame in use is skipped");
            smt->Release(0, 0, 1);
            NS_TEST_ASSERT_MSG_EQ(smt->AcquireFrame(0, 1), 1, "released frame taken again");
        }
        for (uint32_t m = 1; m <= 3; ++m)
        {
            FmConfig c;
            c.processes = 4;
            c.queues = m;
            c.credits = 4;
            c.overrides = "smt.FreeListFrames=16";
            FmExperiment exp(c);
            Ptr<FmContext> rx = exp.GetContext(0, 0);
            std::map<uint8_t, uint32_t> got;
            rx->SetReceiveCallback(
                [&got](uint16_t, uint8_t ctx, uint8_t, uint32_t) { ++got[ctx]; });
            const uint32_t perSender = 30;
            for (uint8_t s = 1; s <= 3; ++s)
            {
                for (uint32_t i = 0; i < perSender; ++i)
                {
                    exp.GetContext(0, s)->Send(0, 0, 1000 + 500 * s);
                }
            }
            Simulator::Stop(MilliSeconds(20));
            Simulator::Run();
            Ptr<FmSmt> smt = exp.GetSmt(0);
            for (uint8_t s = 1; s <= 3; ++s)
            {
                NS_TEST_ASSERT_MSG_EQ(got[s], perSender, "each sender's messages once, M=" << m);
            }
            NS_TEST_ASSERT_MSG_EQ(rx->GetBytesReceived(),
                                  perSender * (1500u + 2000u + 2500u),
                                  "bytes conserved, M=" << m);
            NS_TEST_ASSERT_MSG_EQ(smt->GetPosted(), smt->GetTaken(), "posted = taken, M=" << m);
            for (uint32_t q = 0; q < m; ++q)
            {
                NS_TEST_ASSERT_MSG_EQ(smt->GetInUse(0, q), 0u, "all frames free again");
            }
        }
    }
};

/**
 * Coherence misses of the SMT steps, counted by hand from the protocol: a read misses when
 * the reader holds no copy of the line, a write when anyone else holds one (or nobody does).
 * One sender to one receiver, steady state: the sender misses on the frame's header (the
 * receiver cleared its in-use flag) and on the slot line (the receiver cleared the slot); the
 * receiver on the frame header (read), the slot (clear) and the in-use flag (clear). Two
 * senders sharing one queue (M = 1) also miss on the free-list head and the receive-queue
 * tail, which bounce between them; with M = 2 they do not.
 */
class FmSmtCoherenceTestCase : public TestCase
{
  public:
    FmSmtCoherenceTestCase()
        : TestCase("FM SMT: coherence misses per step (one sender; two senders, M = 1 vs 2)")
    {
    }

  private:
    struct Counts
    {
        uint32_t acquire; //!< sender: AcquireFrame
        uint32_t post;    //!< sender: MissesToPost
        uint32_t receive; //!< receiver: Take and Release
    };

    static Counts Message(Ptr<FmSmt> smt, uint32_t sender)
    {
        Counts c{};
        int32_t frame = smt->AcquireFrame(0, sender);
        c.acquire = smt->CollectMisses(sender);
        c.post = smt->MissesToPost(0, sender);
        smt->Post(0, sender, frame, Create<Packet>(8));
        uint32_t queue = smt->QueueOf(sender);
        int32_t taken = -1;
        smt->Take(0, queue, taken);
        smt->Release(0, queue, taken);
        c.receive = smt->CollectMisses(0);
        return c;
    }

    static Ptr<FmSmt> Region(uint32_t processes, uint32_t queues)
    {
        Ptr<FmSmt> smt = CreateObject<FmSmt>();
        smt->SetAttribute("FreeListFrames", UintegerValue(4));
        smt->SetAttribute("MaxProcesses", UintegerValue(processes));
        smt->SetAttribute("Queues", UintegerValue(queues));
        for (uint32_t p = 0; p < processes; ++p)
        {
            smt->Attach(FmSmt::PostedCallback());
        }
        return smt;
    }

    void DoRun() override
    {
        Ptr<FmSmt> smt = Region(2, 1);
        Counts first = Message(smt, 1);
        NS_TEST_ASSERT_MSG_EQ(first.acquire, 2u, "cold: free-list head and frame header");
        NS_TEST_ASSERT_MSG_EQ(first.post, 2u, "cold: tail and slot line");
        NS_TEST_ASSERT_MSG_EQ(first.receive,
                              4u,
                              "cold head; frame read, slot clear, flag clear");
        uint64_t total = smt->GetMisses();
        NS_TEST_ASSERT_MSG_EQ(total, 2u + 2u + 3u + 1u, "every miss counted once");
        // 12 more: slots cross into a second line, frames wrap the 4-frame ring
        for (int i = 0; i < 12; ++i)
        {
            Counts c = Message(smt, 1);
            NS_TEST_ASSERT_MSG_EQ(c.acquire, 1u, "steady: the frame header only");
            NS_TEST_ASSERT_MSG_EQ(c.post, 1u, "steady: the slot line only");
            NS_TEST_ASSERT_MSG_EQ(c.receive, 3u, "steady: frame read, slot and flag clears");
        }

        for (uint32_t m : {1u, 2u})
        {
            Ptr<FmSmt> two = Region(3, m);
            Message(two, 1);
            Message(two, 2);
            Counts c1 = Message(two, 1);
            Counts c2 = Message(two, 2);
            uint32_t expected = m == 1 ? 2 : 1; // + head, + tail when the lines bounce
            NS_TEST_ASSERT_MSG_EQ(c1.acquire, expected, "sender 1 acquire, M=" << m);
            NS_TEST_ASSERT_MSG_EQ(c2.acquire, expected, "sender 2 acquire, M=" << m);
            NS_TEST_ASSERT_MSG_EQ(c1.post, expected, "sender 1 post, M=" << m);
            NS_TEST_ASSERT_MSG_EQ(c2.post, expected, "sender 2 post, M=" << m);
        }
    }
};

/**
 * The boot-time probe: on the 440BX (5-line queue of 32-byte lines, Retry) it picks the
 * queue's 160 bytes, with a 4-line queue 128; on the 440LX (Stall) no pacing.
 */
class FmPioProbeTestCase : public TestCase
{
  public:
    FmPioProbeTestCase()
        : TestCase("PIO probe: the queue-depth chunk on the 440BX, no pacing on the 440LX")
    {
    }

  private:
    uint32_t Probe(const std::string& chipset, const std::string& overrides)
    {
        FmConfig c;
        c.host = FmExperiment::MachineOf(chipset);
        c.chipset = chipset;
        c.pacing = "probe";
        c.start = false;
        c.overrides = overrides;
        FmExperiment exp(c);
        return exp.GetPacing();
    }

    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(Probe("440bx", ""), 5u * 32u, "440BX: the 160-byte queue");
        NS_TEST_ASSERT_MSG_EQ(Probe("440bx", "bridge.QueueLines=4"), 4u * 32u,
                              "a shallower queue: its depth");
        NS_TEST_ASSERT_MSG_EQ(Probe("440lx", ""), 0u, "440LX: no pacing");
    }
};

/**
 * The FM TestSuite.
 */
class FmTestSuite : public TestSuite
{
  public:
    FmTestSuite()
        : TestSuite("clusternet-fm", Type::UNIT)
    {
        AddTestCase(new HostBridgeTestCase, TestCase::Duration::QUICK);
        AddTestCase(new FmCreditTestCase, TestCase::Duration::QUICK);
        AddTestCase(new FmSendSlotTestCase, TestCase::Duration::QUICK);
        AddTestCase(new FmSmtTestCase, TestCase::Duration::QUICK);
        AddTestCase(new FmSmtCoherenceTestCase, TestCase::Duration::QUICK);
        AddTestCase(new FmPioProbeTestCase, TestCase::Duration::QUICK);
    }
};

/// Static instance registering the suite.
static FmTestSuite g_fmTestSuite;

} // namespace
