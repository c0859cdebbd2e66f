// SPDX-License-Identifier: GPL-2.0-only
#include "host-cpu.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

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
            .AddAttribute("SyscallCost",
                          "CPU time of one system call (trap, socket layer, return) [Time].",
                          TimeValue(MicroSeconds(5)),
                          MakeTimeAccessor(&HostCpu::m_syscallCost),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("CopyBandwidth",
                          "User<->kernel copy bandwidth, including a checksum folded into the "
                          "copy [bit/s; e.g. 800Mbps = 100 MB/s].",
                          DataRateValue(DataRate("800Mbps")),
                          MakeDataRateAccessor(&HostCpu::m_copyRate),
                          MakeDataRateChecker())
            .AddAttribute("ChecksumBandwidth",
                          "Bandwidth of a separate checksum pass over the data; 0 means the "
                          "checksum is folded into the copy or offloaded [bit/s].",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&HostCpu::m_checksumRate),
                          MakeDataRateChecker())
            .AddAttribute("InterruptCost",
                          "CPU time to take one interrupt (entry, acknowledge, exit) [Time].",
                          TimeValue(MicroSeconds(5)),
                          MakeTimeAccessor(&HostCpu::m_interruptCost),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("TxPacketCost",
                          "Per-packet TCP/IP protocol cost on transmit, excluding the data copy "
                          "and the driver [Time].",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&HostCpu::m_txPacketCost),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("RxPacketCost",
                          "Per-packet TCP/IP protocol cost on receive, excluding the data copy "
                          "and the driver [Time].",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&HostCpu::m_rxPacketCost),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("UdpTxPacketCost",
                          "Per-packet UDP/IP protocol cost on transmit (each IP fragment), "
                          "excluding the data copy and the driver [Time].",
                          TimeValue(MicroSeconds(5)),
                          MakeTimeAccessor(&HostCpu::m_udpTxPacketCost),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("UdpRxPacketCost",
                          "Per-packet UDP/IP protocol cost on receive (each IP fragment), "
                          "excluding the data copy and the driver [Time].",
                          TimeValue(MicroSeconds(5)),
                          MakeTimeAccessor(&HostCpu::m_udpRxPacketCost),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("Speed",
                          "Speed of this host at user-level library code relative to the "
                          "reference host, a Pentium III 450 [ratio]; an MPI profile's per-call "
                          "costs measured on another host scale by the ratio of the speeds.",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&HostCpu::m_speed),
                          MakeDoubleChecker<double>(0.01, 100.0))
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
        // Preempt the user or compute item; it resumes first in its class with what it still
        // needs.
        Time left = m_current.cost - (Simulator::Now() - m_currentStart);
        m_running.Cancel();
        m_busyTime -= left;
        m_queues[m_currentPrio].push_front({left, m_current.done});
        m_busy = false;
    }
    if (!m_busy)
    {
        StartNext();
    }
}

void
HostCpu::StartNext()
{
    for (uint8_t p = 0; p < m_queues.size(); ++p)
    {
        if (!m_queues[p].empty())
        {
            m_current = m_queues[p].front();
            m_queues[p].pop_front();
            m_currentPrio = static_cast<Priority>(p);
            m_currentStart = Simulator::Now();
            m_busy = true;
            m_busyTime += m_current.cost;
            m_workStartTrace(m_current.cost, p);
            m_running = Simulator::Schedule(m_current.cost, &HostCpu::Complete, this);
            return;
        }
    }
    m_busy = false;
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
    Time t = m_copyRate.GetBitRate() ? m_copyRate.CalculateBytesTxTime(bytes) : Seconds(0);
    if (m_checksumRate.GetBitRate())
    {
        t += m_checksumRate.CalculateBytesTxTime(bytes);
    }
    return t;
}

Time
HostCpu::GetSyscallCost() const
{
    return m_syscallCost;
}

Time
HostCpu::GetInterruptCost() const
{
    return m_interruptCost;
}

Time
HostCpu::GetTxPacketCost() const
{
    return m_txPacketCost;
}

Time
HostCpu::GetRxPacketCost() const
{
    return m_rxPacketCost;
}

Time
HostCpu::GetUdpTxPacketCost() const
{
    return m_udpTxPacketCost;
}

Time
HostCpu::GetUdpRxPacketCost() const
{
    return m_udpRxPacketCost;
}

double
HostCpu::GetSpeed() const
{
    return m_speed;
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
