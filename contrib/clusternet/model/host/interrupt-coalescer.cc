// SPDX-License-Identifier: GPL-2.0-only
#include "interrupt-coalescer.h"

#include "member-event.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("InterruptCoalescer");
NS_OBJECT_ENSURE_REGISTERED(InterruptCoalescer);

TypeId
InterruptCoalescer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::InterruptCoalescer")
            .SetParent<Object>()
            .SetGroupName("Clusternet")
            .AddConstructor<InterruptCoalescer>()
            .AddAttribute("Enabled",
                          "Interrupt coalescing on; when off every event interrupts at once.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&InterruptCoalescer::m_enabled),
                          MakeBooleanChecker())
            .AddAttribute("MaxFrames",
                          "Events (frames) that raise the interrupt at once [frames].",
                          UintegerValue(1),
                          MakeUintegerAccessor(&InterruptCoalescer::m_maxFrames),
                          MakeUintegerChecker<uint32_t>(1, 4096))
            .AddAttribute("Timeout",
                          "Longest an event waits for its interrupt, from the first pending "
                          "event [Time].",
                          TimeValue(MicroSeconds(0)),
                          MakeTimeAccessor(&InterruptCoalescer::m_timeout),
                          MakeTimeChecker(Seconds(0), MilliSeconds(100)))
            .AddAttribute("GapTimeout",
                          "Packet timer: raise the interrupt when no new event has come for "
                          "this long, restarted by every event (the Hamachi's maximum receive "
                          "gap, the 8254x's RDTR); 0 means none [Time].",
                          TimeValue(MicroSeconds(0)),
                          MakeTimeAccessor(&InterruptCoalescer::m_gapTimeout),
                          MakeTimeChecker(Seconds(0), MilliSeconds(100)))
            .AddAttribute("JumboTuning",
                          "The driver programs JumboMaxFrames and JumboTimeout instead when the "
                          "interface MTU exceeds 1500 bytes (as acenic does).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&InterruptCoalescer::m_jumboTuning),
                          MakeBooleanChecker())
            .AddAttribute("JumboMaxFrames",
                          "MaxFrames above MTU 1500 when JumboTuning is on [frames].",
                          UintegerValue(1),
                          MakeUintegerAccessor(&InterruptCoalescer::m_jumboMaxFrames),
                          MakeUintegerChecker<uint32_t>(1, 4096))
            .AddAttribute("JumboTimeout",
                          "Timeout above MTU 1500 when JumboTuning is on [Time].",
                          TimeValue(MicroSeconds(0)),
                          MakeTimeAccessor(&InterruptCoalescer::m_jumboTimeout),
                          MakeTimeChecker(Seconds(0), MilliSeconds(100)))
            .AddTraceSource("Interrupt",
                            "An interrupt is raised: number of pending events.",
                            MakeTraceSourceAccessor(&InterruptCoalescer::m_interruptTrace),
                            "ns3::TracedValueCallback::Uint32");
    return tid;
}

InterruptCoalescer::InterruptCoalescer()
{
    NS_LOG_FUNCTION(this);
}

InterruptCoalescer::~InterruptCoalescer()
{
    NS_LOG_FUNCTION(this);
}

void
InterruptCoalescer::DoDispose()
{
    m_timer.Cancel();
    m_gapTimer.Cancel();
    m_handler = MakeNullCallback<void>();
    Object::DoDispose();
}

void
InterruptCoalescer::SetJumbo(bool jumbo)
{
    m_jumbo = jumbo;
}

uint32_t
InterruptCoalescer::GetMaxFrames() const
{
    return (m_jumbo && m_jumboTuning) ? m_jumboMaxFrames : m_maxFrames;
}

Time
InterruptCoalescer::GetTimeout() const
{
    return (m_jumbo && m_jumboTuning) ? m_jumboTimeout : m_timeout;
}

Time
InterruptCoalescer::GetGapTimeout() const
{
    return m_gapTimeout;
}

void
InterruptCoalescer::SetHandler(Callback<void> handler)
{
    m_handler = handler;
}

void
InterruptCoalescer::Notify()
{
    NS_LOG_FUNCTION(this);
    ++m_pending;
    if (m_masked)
    {
        return;
    }
    Time timeout = GetTimeout();
    if (!m_enabled || m_pending >= GetMaxFrames() || (timeout.IsZero() && m_gapTimeout.IsZero()))
    {
        Fire();
        return;
    }
    if (!timeout.IsZero() && !m_timer.IsPending())
    {
        m_timer = ScheduleMember(timeout, &InterruptCoalescer::Fire, this);
    }
    if (!m_gapTimeout.IsZero())
    {
        m_gapTimer.Cancel();
        m_gapTimer = ScheduleMember(m_gapTimeout, &InterruptCoalescer::Fire, this);
    }
}

void
InterruptCoalescer::Fire()
{
    NS_LOG_FUNCTION(this << m_pending);
    m_timer.Cancel();
    m_gapTimer.Cancel();
    if (m_masked || m_pending == 0)
    {
        return;
    }
    m_masked = true;
    m_interruptTrace(m_pending);
    m_handler();
}

void
InterruptCoalescer::Mask()
{
    m_masked = true;
}

void
InterruptCoalescer::Unmask()
{
    NS_LOG_FUNCTION(this << m_pending);
    m_masked = false;
    if (m_pending > 0)
    {
        Fire();
    }
}

void
InterruptCoalescer::Consume()
{
    m_pending = 0;
}

uint32_t
InterruptCoalescer::GetPending() const
{
    return m_pending;
}

} // namespace clusternet
} // namespace ns3
