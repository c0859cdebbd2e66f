// SPDX-License-Identifier: GPL-2.0-only
#include "host-bridge.h"

#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("HostBridge");
NS_OBJECT_ENSURE_REGISTERED(HostBridge);

TypeId
HostBridge::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::HostBridge")
            .SetParent<Object>()
            .SetGroupName("Clusternet")
            .AddConstructor<HostBridge>()
            .AddAttribute("LineBytes",
                          "Write-combining line: the unit the CPU hands to the bridge [bytes].",
                          UintegerValue(32),
                          MakeUintegerAccessor(&HostBridge::m_lineBytes),
                          MakeUintegerChecker<uint32_t>(4, 256))
            .AddAttribute("QueueLines",
                          "Depth of the CPU-to-PCI posted-write queue [lines].",
                          UintegerValue(5),
                          MakeUintegerAccessor(&HostBridge::m_queueLines),
                          MakeUintegerChecker<uint32_t>(1, 1024))
            .AddAttribute("MaxBurstLines",
                          "Most lines one PCI write burst carries before the bridge starts a "
                          "new transaction; 0 = no limit [lines].",
                          UintegerValue(0),
                          MakeUintegerAccessor(&HostBridge::m_maxBurstLines),
                          MakeUintegerChecker<uint32_t>(0, 1024))
            .AddAttribute("FsbClock",
                          "Front-side bus clock [MHz].",
                          UintegerValue(100),
                          MakeUintegerAccessor(&HostBridge::m_fsbClockMhz),
                          MakeUintegerChecker<uint32_t>(1, 10000))
            .AddAttribute("FsbCyclesPerLine",
                          "Front-side-bus cycles to move one write-combined line from the CPU "
                          "into the bridge [FSB cycles].",
                          UintegerValue(6),
                          MakeUintegerAccessor(&HostBridge::m_fsbCyclesPerLine),
                          MakeUintegerChecker<uint32_t>(1, 10000))
            .AddAttribute("FullQueue",
                          "What a write into a full posted-write queue does: Stall (the CPU "
                          "waits, the burst continues) or Retry (single-line transactions "
                          "until the queue empties).",
                          EnumValue(STALL),
                          MakeEnumAccessor<FullQueuePolicy>(&HostBridge::m_policy),
                          MakeEnumChecker(STALL, "Stall", RETRY, "Retry"))
            .AddAttribute("SaturatedLineGap",
                          "Idle time before each single-line transaction while the queue is "
                          "saturated (Retry) [Time].",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&HostBridge::m_saturatedGap),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("ReadOverhead",
                          "Host-side time of an uncached device read beyond its PCI "
                          "transaction: FSB request, bridge, data return [Time].",
                          TimeValue(NanoSeconds(300)),
                          MakeTimeAccessor(&HostBridge::m_readOverhead),
                          MakeTimeChecker(Seconds(0)))
            .AddTraceSource("Saturated",
                            "The posted-write queue overflowed (true) or emptied after an "
                            "overflow (false).",
                            MakeTraceSourceAccessor(&HostBridge::m_saturatedTrace),
                            "ns3::clusternet::HostBridge::SaturatedTracedCallback");
    return tid;
}

HostBridge::HostBridge()
{
    NS_LOG_FUNCTION(this);
}

HostBridge::~HostBridge()
{
    NS_LOG_FUNCTION(this);
}

void
HostBridge::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_issueEvent.Cancel();
    m_bus = nullptr;
    m_runs.clear();
    m_queue.clear();
    m_reads.clear();
    Object::DoDispose();
}

void
HostBridge::SetBus(Ptr<PciBus> bus)
{
    m_bus = bus;
}

Ptr<PciBus>
HostBridge::GetBus() const
{
    return m_bus;
}

Time
HostBridge::GetReadTime() const
{
    return m_bus->GetTransferTime(m_bus->GetBytesPerCycle(), PciBus::PIO_READ) + m_readOverhead;
}

Time
HostBridge::GetLineTime() const
{
    return MicroSeconds(1) * static_cast<int64_t>(m_fsbCyclesPerLine) / m_fsbClockMhz;
}

uint32_t
HostBridge::GetLineBytes() const
{
    return m_lineBytes;
}

uint32_t
HostBridge::GetQueueLines() const
{
    return m_queueLines;
}

uint32_t
HostBridge::GetQueuedLines() const
{
    return m_queue.size();
}

uint32_t
HostBridge::GetMaxQueuedLines() const
{
    return m_maxQueued;
}

uint64_t
HostBridge::GetBytesWritten() const
{
    return m_bytesWritten;
}

uint64_t
HostBridge::GetTransactions() const
{
    return m_transactions;
}

uint64_t
HostBridge::GetSaturations() const
{
    return m_saturations;
}

bool
HostBridge::IsIdle() const
{
    return m_runs.empty() && m_queue.empty() && !m_fsbBusy;
}

void
HostBridge::Write(uint32_t bytes, uint32_t pacing, Callback<void> cpuDone, Callback<void> drained)
{
    NS_LOG_FUNCTION(this << bytes << pacing);
    NS_ASSERT_MSG(m_bus, "HostBridge::Write: no PCI bus attached");
    NS_ASSERT_MSG(bytes > 0, "HostBridge::Write: empty write");
    uint32_t chunk = pacing > 0 ? pacing : bytes;
    m_runs.push_back({bytes, pacing, std::min(chunk, bytes), cpuDone, drained});
    if (m_runs.size() == 1)
    {
        Issue();
    }
}

void
HostBridge::Issue()
{
    if (m_runs.empty() || m_fsbBusy || m_waitRoom || m_waitDrain)
    {
        return;
    }
    if (!m_reads.empty() && !WriterFirst())
    {
        // A read asked first: it holds the host bus (and a CPU that issued it) until it
        // returns. The writer's place in line is when it first asked.
        if (!m_writerWaits)
        {
            m_writerWaits = true;
            m_writerAsked = Simulator::Now();
        }
        return;
    }
    Run& run = m_runs.front();
    if (run.chunkLeft == 0)
    {
        // Paced: the chunk is written; go on once the queue has drained.
        if (!m_queue.empty())
        {
            m_waitDrain = true;
            return;
        }
        run.chunkLeft = std::min(run.pacing, run.remaining);
    }
    if (m_queue.size() >= m_queueLines)
    {
        if (m_policy == RETRY && !m_saturated)
        {
            m_saturated = true;
            ++m_saturations;
            m_saturatedTrace(true);
        }
        m_waitRoom = true;
        return;
    }
    // A line: the rest of the chunk up to the line size (a short last line is a partial line).
    uint32_t bytes = std::min({m_lineBytes, run.chunkLeft, run.remaining});
    run.remaining -= bytes;
    run.chunkLeft -= bytes;
    Line line{bytes, Callback<void>()};
    if (run.remaining == 0)
    {
        line.drained = run.drained;
    }
    m_fsbBusy = true;
    m_writerWaits = false;
    m_issueEvent = Simulator::Schedule(GetLineTime(), [this, line]() { LineArrived(line); });
}

void
HostBridge::LineArrived(Line line)
{
    m_fsbBusy = false;
    m_queue.push_back(line);
    m_maxQueued = std::max<uint32_t>(m_maxQueued, m_queue.size());
    NS_ASSERT_MSG(m_queue.size() <= m_queueLines, "posted-write queue overflow");
    Run& run = m_runs.front();
    if (run.remaining == 0)
    {
        Callback<void> done = run.cpuDone;
        m_runs.pop_front();
        if (!done.IsNull())
        {
            done();
        }
    }
    Drain();
    Issue();
}

void
HostBridge::Drain()
{
    if (m_pciBusy || m_readBusy || m_queue.empty())
    {
        return;
    }
    m_pciBusy = true;
    Line line = m_queue.front();
    bool continuing = !m_saturated && m_burstLines > 0 &&
                      (m_maxBurstLines == 0 || m_burstLines < m_maxBurstLines);
    m_burstLines = continuing ? m_burstLines + 1 : 1;
    // A continued burst costs no overhead only if the bus is handed back at once (PciBus
    // decides); count a transaction when it may not be.
    if (!continuing)
    {
        ++m_transactions;
    }
    auto start = [this, line, continuing]() {
        m_bus->Transfer(line.bytes,
                        PciBus::PIO_WRITE,
                        Callback<void>([this, line]() { LineDone(line); }),
                        m_lineBytes,
                        continuing);
    };
    if (m_saturated && !m_saturatedGap.IsZero())
    {
        Simulator::Schedule(m_saturatedGap, start);
    }
    else
    {
        start();
    }
}

void
HostBridge::LineDone(Line line)
{
    m_pciBusy = false;
    m_queue.pop_front();
    m_bytesWritten += line.bytes;
    if (m_queue.empty())
    {
        m_burstLines = 0;
        if (m_saturated)
        {
            m_saturated = false;
            m_saturatedTrace(false);
        }
    }
    m_waitRoom = false;
    if (m_queue.empty())
    {
        m_waitDrain = false;
    }
    if (!line.drained.IsNull())
    {
        line.drained();
    }
    if (m_queue.empty() && !m_reads.empty() && !WriterFirst())
    {
        StartRead();
        return;
    }
    Drain();
    Issue();
}

void
HostBridge::Read(Callback<void> sampled, Callback<void> done)
{
    NS_LOG_FUNCTION(this);
    NS_ASSERT_MSG(m_bus, "HostBridge::Read: no PCI bus attached");
    m_reads.push_back({sampled, done, Simulator::Now()});
    if (m_reads.size() == 1 && m_queue.empty() && !m_fsbBusy)
    {
        StartRead();
    }
}

void
HostBridge::StartRead()
{
    // Posted writes ahead of the read have reached the device (PCI ordering).
    m_readBusy = true;
    m_burstLines = 0;
    m_bus->Transfer(m_bus->GetBytesPerCycle(), PciBus::PIO_READ, [this]() {
        m_readBusy = false;
        if (!m_reads.front().sampled.IsNull())
        {
            m_reads.front().sampled();
        }
        Simulator::Schedule(m_readOverhead, [this]() {
            PendingRead r = m_reads.front();
            m_reads.pop_front();
            if (!m_reads.empty() && m_queue.empty() && !WriterFirst())
            {
                StartRead();
            }
            else
            {
                Drain();
                Issue();
            }
            if (!r.done.IsNull())
            {
                r.done();
            }
        });
    });
}

bool
HostBridge::WriterFirst() const
{
    return m_writerWaits && !m_reads.empty() && m_writerAsked < m_reads.front().asked;
}

} // namespace clusternet
} // namespace ns3
