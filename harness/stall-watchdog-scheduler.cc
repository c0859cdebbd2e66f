// SPDX-License-Identifier: GPL-2.0-only
#include "stall-watchdog-scheduler.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/event-impl.h"
#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdlib>
#include <cxxabi.h>
#include <iostream>
#include <memory>
#include <typeinfo>

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
                          MakeTimeChecker(Seconds(1)))
            .AddAttribute("Census",
                          "count the events by kind (the C++ type of the event object: the "
                          "model method or ns-3 call it runs) and print the counts on stderr "
                          "when the simulation is destroyed; $CLUSTERNET_EVENT_CENSUS=1 turns "
                          "it on for every point [bool]",
                          BooleanValue(false),
                          MakeBooleanAccessor(&StallWatchdogScheduler::m_census),
                          MakeBooleanChecker());
    return tid;
}

StallWatchdogScheduler::StallWatchdogScheduler()
    : m_stall(MakeCallback(&ReportAndExit))
{
    NS_LOG_FUNCTION(this);
}

StallWatchdogScheduler::~StallWatchdogScheduler()
{
    std::vector<CensusEntry> census = GetCensus();
    if (!m_census || census.empty())
    {
        return;
    }
    uint64_t run = 0;
    uint64_t cancelled = 0;
    for (const auto& e : census)
    {
        run += e.run;
        cancelled += e.cancelled;
    }
    std::cerr << "event census: " << run << " events run, " << cancelled
              << " cancelled ones taken off the list (at their time, or when the simulation "
                 "was destroyed)\n";
    for (const auto& e : census)
    {
        std::cerr << "  " << e.run << " run, " << e.cancelled << " cancelled: " << e.kind << "\n";
    }
}

std::vector<StallWatchdogScheduler::CensusEntry>
StallWatchdogScheduler::GetCensus() const
{
    std::vector<CensusEntry> out;
    for (const auto& [type, counts] : m_counts)
    {
        int status = 0;
        std::unique_ptr<char, void (*)(void*)> name(
            abi::__cxa_demangle(type.name(), nullptr, nullptr, &status),
            std::free);
        std::string kind = status == 0 && name ? name.get() : type.name();
        // A MakeEvent's type names the bound call first; the rest repeats it.
        if (kind.size() > 200)
        {
            kind = kind.substr(0, 200) + "...";
        }
        out.push_back({kind, counts.first, counts.second});
    }
    std::sort(out.begin(), out.end(), [](const CensusEntry& a, const CensusEntry& b) {
        return a.run + a.cancelled != b.run + b.cancelled
                   ? a.run + a.cancelled > b.run + b.cancelled
                   : a.kind < b.kind;
    });
    return out;
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
    const char* census = std::getenv("CLUSTERNET_EVENT_CENSUS");
    if (census && std::string(census) == "1")
    {
        Config::SetDefault("ns3::clusternet::StallWatchdogScheduler::Census", BooleanValue(true));
    }
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
    if (m_census)
    {
        auto& counts = m_counts[std::type_index(typeid(*ev.impl))];
        ++(ev.impl->IsCancelled() ? counts.second : counts.first);
    }
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
