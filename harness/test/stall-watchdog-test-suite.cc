// SPDX-License-Identifier: GPL-2.0-only
//
// The stall watchdog: it passes events on in ns-3's order (time, then insertion) and reports a zero-time loop
// or an endless run exactly at its limits, never before.

#include "stall-watchdog-scheduler.h"

#include "ns3/boolean.h"
#include "ns3/event-impl.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <memory>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::clusternet;

namespace
{

/// An event that does nothing (the scheduler only orders them).
class NoOp : public EventImpl
{
    void Notify() override
    {
    }
};

/// Feed @p times (time steps, in insertion order) through a watchdog; return the stall reasons
/// and the time stamps in the order the watchdog gave the events back.
std::vector<std::string>
Feed(Ptr<StallWatchdogScheduler> s,
     const std::vector<uint64_t>& times,
     std::vector<uint64_t>& order)
{
    auto reasons = std::make_shared<std::vector<std::string>>();
    s->SetStallCallback(Callback<void, const std::string&>(
        [reasons](const std::string& r) { reasons->push_back(r); }));
    std::vector<Ptr<EventImpl>> keep;
    uint32_t uid = 0;
    for (uint64_t ts : times)
    {
        keep.push_back(Create<NoOp>());
        Scheduler::Event ev;
        ev.impl = PeekPointer(keep.back());
        ev.key.m_ts = ts;
        ev.key.m_uid = uid++;
        ev.key.m_context = 0;
        s->Insert(ev);
    }
    while (!s->IsEmpty())
    {
        order.push_back(s->RemoveNext().key.m_ts);
    }
    return *reasons;
}

/**
 * Same-instant limit 5: five events at one instant pass (the first one starts the run, four
 * more follow it); the sixth is the fifth in a row and stalls, once however long the loop
 * goes on; the order is by time.
 */
class ZeroTimeLoopTestCase : public TestCase
{
  public:
    ZeroTimeLoopTestCase()
        : TestCase("a zero-time loop is reported at SameTimeLimit events in a row, not before")
    {
    }

  private:
    void DoRun() override
    {
        auto s = CreateObject<StallWatchdogScheduler>();
        s->SetAttribute("SameTimeLimit", UintegerValue(5));
        std::vector<uint64_t> order;
        // 5 events at t=7 (4 in a row after the first): no stall
        auto reasons = Feed(s, {7, 7, 7, 7, 7, 3, 9}, order);
        NS_TEST_EXPECT_MSG_EQ(reasons.size(), 0, "five at one instant is within the limit");
        const bool inOrder = order == std::vector<uint64_t>{3, 7, 7, 7, 7, 7, 9};
        NS_TEST_EXPECT_MSG_EQ(inOrder, true, "events leave in time order");

        auto t = CreateObject<StallWatchdogScheduler>();
        t->SetAttribute("SameTimeLimit", UintegerValue(5));
        order.clear();
        reasons = Feed(t, {7, 7, 7, 7, 7, 7}, order);
        NS_TEST_EXPECT_MSG_EQ(reasons.size(), 1, "six at one instant stalls");
        const std::string reason = reasons.empty() ? "" : reasons[0];
        const bool named = reason.find("stopped advancing") != std::string::npos;
        NS_TEST_EXPECT_MSG_EQ(named, true, reason);
        NS_TEST_EXPECT_MSG_EQ(order.size(), 6, "every event is still given back");

        auto u = CreateObject<StallWatchdogScheduler>();
        u->SetAttribute("SameTimeLimit", UintegerValue(5));
        order.clear();
        reasons = Feed(u, std::vector<uint64_t>(20, 7), order);
        NS_TEST_EXPECT_MSG_EQ(reasons.size(), 1, "a longer loop is reported once");
    }
};

/// Horizon 2 s: an event at 2 s passes, one after it is reported.
class HorizonTestCase : public TestCase
{
  public:
    HorizonTestCase()
        : TestCase("a run that goes on past Horizon of simulated time is reported")
    {
    }

  private:
    void DoRun() override
    {
        auto s = CreateObject<StallWatchdogScheduler>();
        s->SetAttribute("Horizon", TimeValue(Seconds(2)));
        const uint64_t twoSeconds = Seconds(2).GetTimeStep();
        std::vector<uint64_t> order;
        auto reasons = Feed(s, {1, twoSeconds}, order);
        NS_TEST_EXPECT_MSG_EQ(reasons.size(), 0, "up to the horizon is fine");
        auto t = CreateObject<StallWatchdogScheduler>();
        t->SetAttribute("Horizon", TimeValue(Seconds(2)));
        order.clear();
        reasons = Feed(t, {1, twoSeconds + 1, twoSeconds + 2}, order);
        NS_TEST_EXPECT_MSG_EQ(reasons.size(), 1, "past the horizon stalls, once");
        const std::string reason = reasons.empty() ? "" : reasons[0];
        const bool named = reason.find("passed") != std::string::npos;
        NS_TEST_EXPECT_MSG_EQ(named, true, reason);
    }
};

/// The harness's stall watchdog.
/// Another kind of event for the census.
class Other : public EventImpl
{
    void Notify() override
    {
    }
};

/**
 * The census counts what the watchdog hands back by the event's type: three NoOp events, two
 * Other events of which one was cancelled; nothing when it is off.
 */
class CensusTestCase : public TestCase
{
  public:
    CensusTestCase()
        : TestCase("census: events counted by kind, run and cancelled apart")
    {
    }

  private:
    void DoRun() override
    {
        for (bool on : {true, false})
        {
            Ptr<StallWatchdogScheduler> s = CreateObject<StallWatchdogScheduler>();
            s->SetAttribute("Census", BooleanValue(on));
            std::vector<Ptr<EventImpl>> keep{Create<NoOp>(),
                                             Create<Other>(),
                                             Create<NoOp>(),
                                             Create<Other>(),
                                             Create<NoOp>()};
            keep[3]->Cancel();
            uint32_t uid = 0;
            for (const auto& e : keep)
            {
                Scheduler::Event ev;
                ev.impl = PeekPointer(e);
                ev.key.m_ts = 10 * uid;
                ev.key.m_uid = uid++;
                ev.key.m_context = 0;
                s->Insert(ev);
            }
            while (!s->IsEmpty())
            {
                s->RemoveNext();
            }
            auto census = s->GetCensus();
            if (!on)
            {
                NS_TEST_ASSERT_MSG_EQ(census.size(), 0u, "no census when off");
                continue;
            }
            NS_TEST_ASSERT_MSG_EQ(census.size(), 2u, "two kinds");
            NS_TEST_ASSERT_MSG_EQ((census[0].kind.find("NoOp") != std::string::npos),
                                  true,
                                  census[0].kind);
            NS_TEST_ASSERT_MSG_EQ(census[0].run, 3u, "NoOp run");
            NS_TEST_ASSERT_MSG_EQ(census[0].cancelled, 0u, "NoOp cancelled");
            NS_TEST_ASSERT_MSG_EQ((census[1].kind.find("Other") != std::string::npos),
                                  true,
                                  census[1].kind);
            NS_TEST_ASSERT_MSG_EQ(census[1].run, 1u, "Other run");
            NS_TEST_ASSERT_MSG_EQ(census[1].cancelled, 1u, "Other cancelled");
            s->SetAttribute("Census", BooleanValue(false)); // nothing printed at its end
        }
    }
};

class StallWatchdogTestSuite : public TestSuite
{
  public:
    StallWatchdogTestSuite()
        : TestSuite("clusternet-harness-watchdog", Type::UNIT)
    {
        AddTestCase(new ZeroTimeLoopTestCase, TestCase::Duration::QUICK);
        AddTestCase(new HorizonTestCase, TestCase::Duration::QUICK);
        AddTestCase(new CensusTestCase, TestCase::Duration::QUICK);
    }
};

StallWatchdogTestSuite g_stallWatchdogTestSuite; //!< registers the suite

} // namespace
