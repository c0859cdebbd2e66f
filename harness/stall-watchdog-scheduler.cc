// SPDX-License-Identifier: GPL-2.0-only
#include "stall-watchdog-scheduler.h"

#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <cstdlib>
#include <iostream>

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("StallWatchdogScheduler");
NS_OBJECT_ENSURE_REGISTERED(StallWatchdogScheduler);

namespace
{
std::string g_program; //!< the report's program name (Install)
std::string g_point;   //!< the report's point label (Install)

void
ReportAndExit(const std::string& reason)
{
    std::cerr << g_program << ": " << g_point << ": " << reason
              << " (a model bug, or a setting the model cannot run; please report it with "
                 "this command)"
              << std::endl;
    std::exit(3);
}
} // namespace

TypeId
StallWatchdogScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::StallWatchdogScheduler")
            .SetParent<PriorityQueueScheduler>()
            .SetGroupName("Clusternet")
            .AddConstructor<StallWatchdogScheduler>()
            .AddAttribute("SameTimeLimit",
                          "events in a row at one simulated instant that mean the simulation "
                          "no longer advances (a zero-time loop) [events]; the largest legitimate "
                          "burst is the start of a 1024-host all-to-all, about 2 million",
                          UintegerValue(100000000),
                          MakeUintegerAccessor(&StallWatchdogScheduler::m_sameTimeLimit),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("Horizon",
                          "simulated time beyond which a run counts as endless [s]; the longest "
                          "experiment simulates a few thousand seconds",
                          TimeValue(Seconds(1e6)),
                          MakeTimeAccessor(&StallWatchdogScheduler::m_horizon),
                          MakeTimeChecker(Seconds(1)));
    return tid;
}

StallWatchdogScheduler::StallWatchdogScheduler()
    : m_stall(MakeCallback(&ReportAndExit))
{
    NS_LOG_FUNCTION(this);
}

void
StallWatchdogScheduler::SetStallCallback(StallCallback callback)
{
    m_stall = callback;
}

void
StallWatchdogScheduler::Install(const std::string& program, const std::string& point)
{
    g_program = program;
    g_point = point;
    // For this simulation and for any the point creates after a Simulator::Destroy.
    GlobalValue::Bind("SchedulerType", TypeIdValue(GetTypeId()));
    Simulator::SetScheduler(ObjectFactory("ns3::clusternet::StallWatchdogScheduler"));
}

void
StallWatchdogScheduler::Stall(const std::string& reason)
{
    if (!m_stalled)
    {
        m_stalled = true;
        m_stall(reason);
    }
}

Scheduler::Event
StallWatchdogScheduler::RemoveNext()
{
    Scheduler::Event ev = PriorityQueueScheduler::RemoveNext();
    if (ev.key.m_ts != m_lastTs)
    {
        m_lastTs = ev.key.m_ts;
        m_sameTime = 0;
        if (static_cast<int64_t>(m_lastTs) > m_horizon.GetTimeStep())
        {
            Stall("simulated time passed " + std::to_string(m_horizon.GetSeconds()) +
                  " s without the run ending");
        }
    }
    else if (++m_sameTime == m_sameTimeLimit)
    {
        Stall("simulated time stopped advancing at " +
              std::to_string(TimeStep(m_lastTs).GetSeconds()) + " s: " +
              std::to_string(m_sameTimeLimit) + " events in a row at that instant");
    }
    return ev;
}

} // namespace clusternet
} // namespace ns3
