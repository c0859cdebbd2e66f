// SPDX-License-Identifier: GPL-2.0-only
//
// HPVM / Fast Messages through the harness's FmExperiment (seed 004): credits bound what is
// in flight, the host learns free send slots by reading them, shared-memory frames arrive
// exactly once, and the pacing probe picks the chunk that fits the bridge's queue.

#include "fm-experiment.h"

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
 * clusternet-harness-fm: tests of the harness's experiments.
 */
class FmExperimentTestSuite : public TestSuite
{
  public:
    FmExperimentTestSuite()
        : TestSuite("clusternet-harness-fm", Type::UNIT)
    {
        AddTestCase(new FmCreditTestCase, TestCase::Duration::QUICK);
        AddTestCase(new FmSendSlotTestCase, TestCase::Duration::QUICK);
        AddTestCase(new FmSmtTestCase, TestCase::Duration::QUICK);
        AddTestCase(new FmPioProbeTestCase, TestCase::Duration::QUICK);
    }
};

/// Static instance registering the suite.
static FmExperimentTestSuite g_fmExperimentTestSuite;

} // namespace
