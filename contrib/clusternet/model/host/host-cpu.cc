// SPDX-License-Identifier: GPL-2.0-only
#include "host-cpu.h"

#include "member-event.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("HostCpu");
NS_OBJECT_ENSURE_REGISTERED(HostCpu);

TypeId
HostCpu::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::HostCpu")
            .SetParent<Object>()
            .SetGroupName("Clusternet")
            .AddConstructor<HostCpu>()
            .AddAttribute("Clock",
                          "Core clock of the CPU [MHz]: CPU work given in cycles takes "
                          "cycles / (Clock x CoreFactor) microseconds.",
                          DoubleValue(REFERENCE_CLOCK_MHZ),
                          MakeDoubleAccessor(&HostCpu::m_clockMhz),
                          MakeDoubleChecker<double>(1.0, 100000.0))
            .AddAttribute("CoreFactor",
                          "Work the core does per clock relative to the reference core, the "
                          "P6 (Pentium Pro, II, III) = 1: CPU work is given in reference "
                          "cycles, the cycles a P6 core takes for it [ratio].",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&HostCpu::m_coreFactor),
                          MakeDoubleChecker<double>(0.01, 100.0))
            .AddAttribute("SyscallCycles",
                          "CPU work of one system call (trap, socket layer, return) [reference "
                          "cycles].",
                          DoubleValue(2250),
                          MakeDoubleAccessor(&HostCpu::m_syscallCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddAttribute("CopyBandwidth",
                          "The machine's memory copy bandwidth for buffers larger than the "
                          "caches (processor, memory and chipset) [bit/s; e.g. 800Mbps = 100 "
                          "MB/s]; the OS's routine runs at CopyEfficiency times it.",
                          DataRateValue(DataRate("800Mbps")),
                          MakeDataRateAccessor(&HostCpu::m_copyRate),
                          MakeDataRateChecker())
            .AddAttribute("CopyEfficiency",
                          "Speed of the operating system's copy routine for user/kernel and "
                          "library copies (with a checksum folded in where the stack does so) "
                          "relative to the machine's CopyBandwidth [ratio]: copies run at "
                          "CopyBandwidth x CopyEfficiency.",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&HostCpu::m_copyEfficiency),
                          MakeDoubleChecker<double>(0.01, 100.0))
            .AddAttribute("ChecksumBandwidth",
                          "Bandwidth of a separate checksum pass over the data; 0 means the "
                          "checksum is folded into the copy or offloaded [bit/s].",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&HostCpu::m_checksumRate),
                          MakeDataRateChecker())
            .AddAttribute("InterruptCycles",
                          "CPU work to take one interrupt (entry, acknowledge, exit) [reference "
                          "cycles].",
                          DoubleValue(2250),
                          MakeDoubleAccessor(&HostCpu::m_interruptCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddAttribute("TxPacketCycles",
                          "Per-packet TCP/IP protocol work on transmit, excluding the data copy "
                          "and the driver [reference cycles].",
                          DoubleValue(4500),
                          MakeDoubleAccessor(&HostCpu::m_txPacketCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddAttribute("RxPacketCycles",
                          "Per-packet TCP/IP protocol work on receive, excluding the data copy "
                          "and the driver [reference cycles].",
                          DoubleValue(4500),
                          MakeDoubleAccessor(&HostCpu::m_rxPacketCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddAttribute("UdpTxPacketCycles",
                          "Per-packet UDP/IP protocol work on transmit (each IP fragment), "
                          "excluding the data copy and the driver [reference cycles].",
                          DoubleValue(2250),
                          MakeDoubleAccessor(&HostCpu::m_udpTxPacketCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddAttribute("UdpRxPacketCycles",
                          "Per-packet UDP/IP protocol work on receive (each IP fragment), "
                          "excluding the data copy and the driver [reference cycles].",
                          DoubleValue(2250),
                          MakeDoubleAccessor(&HostCpu::m_udpRxPacketCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddAttribute("ComputeSlice",
                          "Time slice of a user-level (M:1) thread library such as FreeBSD's "
                          "libc_r: user work (a library thread woken by I/O) takes the CPU from "
                          "the application's computation only at the first scheduler tick after "
                          "the computing thread has run this long since it was scheduled; "
                          "interrupts and kernel work return to the computing thread. 0 = "
                          "kernel-scheduled threads: user work preempts computation at once "
                          "[Time].",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&HostCpu::m_computeSlice),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("SchedulerTick",
                          "Period of the thread library's scheduling signal, counted from time "
                          "0; used with ComputeSlice [Time].",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&HostCpu::m_schedulerTick),
                          MakeTimeChecker(MicroSeconds(1)))
            .AddTraceSource("WorkStart",
                            "A work item starts running: its cost and priority.",
                            MakeTraceSourceAccessor(&HostCpu::m_workStartTrace),
                            "ns3::clusternet::HostCpu::WorkStartCallback");
    return tid;
}

HostCpu::HostCpu()
{
    NS_LOG_FUNCTION(this);
}

HostCpu::~HostCpu()
{
    NS_LOG_FUNCTION(this);
}

void
HostCpu::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_running.Cancel();
    m_sliceEnd.Cancel();
    m_current.done = MakeNullCallback<void>();
    for (auto& q : m_queues)
    {
        q.clear();
    }
    Object::DoDispose();
}

void
HostCpu::Execute(Time cost, Priority prio, Callback<void> done)
{
    NS_LOG_FUNCTION(this << cost << prio);
    NS_ASSERT_MSG(!cost.IsStrictlyNegative(), "negative CPU cost");
    m_queues[prio].push_back({cost, done});
    if (m_busy && m_currentPrio >= USER && prio < m_currentPrio)
    {
        if (prio == USER && m_inSlice)
        {
            // A user-level thread library switches threads only at a scheduling signal after
            // the computing thread's slice.
            if (!m_sliceEnd.IsPending())
            {
                m_sliceEnd = Simulator::Schedule(NextSliceEnd() - Simulator::Now(),
                                                 &HostCpu::EndSlice,
                                                 this);
            }
            return;
        }
        Preempt();
    }
    if (!m_busy)
    {
        StartNext();
    }
}

void
HostCpu::Preempt()
{
    // The user or compute item resumes first in its class with what it still needs.
    Time left = m_current.cost - (Simulator::Now() - m_currentStart);
    m_running.Cancel();
    m_busyTime -= left;
    m_queues[m_currentPrio].push_front({left, m_current.done});
    m_busy = false;
}

Time
HostCpu::NextSliceEnd() const
{
    Time earliest = std::max(m_sliceStart + m_computeSlice, Simulator::Now());
    int64_t ticks = (earliest.GetTimeStep() + m_schedulerTick.GetTimeStep() - 1) /
                    m_schedulerTick.GetTimeStep();
    return TimeStep(ticks * m_schedulerTick.GetTimeStep());
}

void
HostCpu::EndSlice()
{
    NS_LOG_FUNCTION(this);
    m_inSlice = false;
    if (m_queues[USER].empty())
    {
        return;
    }
    if (m_busy && m_currentPrio == COMPUTE)
    {
        Preempt();
        StartNext();
    }
}

void
HostCpu::StartNext()
{
    bool urgent = !m_queues[INTERRUPT].empty() || !m_queues[KERNEL].empty();
    if (m_inSlice && !urgent && !m_queues[COMPUTE].empty())
    {
        // Back from an interrupt or kernel work: the computing thread keeps its slice.
        StartItem(COMPUTE);
        return;
    }
    for (uint8_t p = 0; p < m_queues.size(); ++p)
    {
        if (!m_queues[p].empty())
        {
            StartItem(static_cast<Priority>(p));
            return;
        }
    }
    m_busy = false;
    m_inSlice = false;
}

void
HostCpu::StartItem(Priority p)
{
    m_current = m_queues[p].front();
    m_queues[p].pop_front();
    m_currentPrio = p;
    m_currentStart = Simulator::Now();
    m_busy = true;
    m_busyTime += m_current.cost;
    if (p == USER)
    {
        m_inSlice = false; // a thread switch
    }
    else if (p == COMPUTE && !m_inSlice && m_computeSlice.IsStrictlyPositive())
    {
        m_inSlice = true; // the computing thread is scheduled with a fresh slice
        m_sliceStart = Simulator::Now();
        m_sliceEnd.Cancel();
    }
    m_workStartTrace(m_current.cost, p);
    m_running = ScheduleMember(m_current.cost, &HostCpu::Complete, this);
}

void
HostCpu::Complete()
{
    NS_LOG_FUNCTION(this);
    Callback<void> done = m_current.done;
    m_current.done = MakeNullCallback<void>();
    m_busy = false;
    if (!done.IsNull())
    {
        done();
    }
    if (!m_busy)
    {
        StartNext();
    }
}

Time
HostCpu::CopyCost(uint32_t bytes) const
{
    Time t = Seconds(0);
    if (m_copyRate.GetBitRate())
    {
        auto bps = std::llround(static_cast<double>(m_copyRate.GetBitRate()) * m_copyEfficiency);
        t = DataRate(static_cast<uint64_t>(std::max<long long>(bps, 1)))
                .CalculateBytesTxTime(bytes);
    }
    if (m_checksumRate.GetBitRate())
    {
        t += m_checksumRate.CalculateBytesTxTime(bytes);
    }
    return t;
}

Time
HostCpu::GetSyscallCost() const
{
    return CyclesToTime(m_syscallCycles);
}

Time
HostCpu::GetInterruptCost() const
{
    return CyclesToTime(m_interruptCycles);
}

Time
HostCpu::GetTxPacketCost() const
{
    return CyclesToTime(m_txPacketCycles);
}

Time
HostCpu::GetRxPacketCost() const
{
    return CyclesToTime(m_rxPacketCycles);
}

Time
HostCpu::GetUdpTxPacketCost() const
{
    return CyclesToTime(m_udpTxPacketCycles);
}

Time
HostCpu::GetUdpRxPacketCost() const
{
    return CyclesToTime(m_udpRxPacketCycles);
}

Time
HostCpu::CyclesToTime(double cycles) const
{
    // The same few costs are converted for every packet: keep the recent conversions (the
    // cache is dropped when Clock or CoreFactor change).
    double mhz = m_clockMhz * m_coreFactor;
    if (mhz != m_cacheMhz)
    {
        m_cyclesCache.fill(CachedCycles{});
        m_cacheMhz = mhz;
    }
    for (const auto& e : m_cyclesCache)
    {
        if (e.cycles == cycles)
        {
            return e.time;
        }
    }
    Time t = Time::FromDouble(cycles / mhz, Time::US);
    m_cyclesCache[m_cacheNext] = CachedCycles{cycles, t};
    m_cacheNext = (m_cacheNext + 1) % m_cyclesCache.size();
    return t;
}

Time
HostCpu::CyclesToTime(Ptr<const HostCpu> cpu, double cycles)
{
    return cpu ? cpu->CyclesToTime(cycles)
               : Time::FromDouble(cycles / REFERENCE_CLOCK_MHZ, Time::US);
}

Time
HostCpu::GetBusyTime() const
{
    return m_busyTime;
}

uint32_t
HostCpu::GetQueueLength() const
{
    uint32_t n = 0;
    for (const auto& q : m_queues)
    {
        n += q.size();
    }
    return n;
}

} // namespace clusternet
} // namespace ns3
