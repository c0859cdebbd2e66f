// SPDX-License-Identifier: GPL-2.0-only
#include "pci-bus.h"

#include "member-event.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("PciBus");
NS_OBJECT_ENSURE_REGISTERED(PciBus);

TypeId
PciBus::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::PciBus")
            .SetParent<Object>()
            .SetGroupName("Clusternet")
            .AddConstructor<PciBus>()
            .AddAttribute("Width",
                          "Bus width [bits]: 32 or 64.",
                          EnumValue(WIDTH_32),
                          MakeEnumAccessor<Width>(&PciBus::m_width),
                          MakeEnumChecker(WIDTH_32, "32", WIDTH_64, "64"))
            .AddAttribute("Clock",
                          "Bus clock [MHz]: 33 (33.33 MHz) or 66 (66.67 MHz).",
                          EnumValue(CLOCK_33),
                          MakeEnumAccessor<Clock>(&PciBus::m_clock),
                          MakeEnumChecker(CLOCK_33, "33", CLOCK_66, "66"))
            .AddAttribute("BurstSize",
                          "Largest burst a master keeps the bus for before re-arbitration "
                          "(latency timer / cache-line multiple) [bytes].",
                          UintegerValue(256),
                          MakeUintegerAccessor(&PciBus::m_burstSize),
                          MakeUintegerChecker<uint32_t>(4, 65536))
            .AddAttribute("TransactionOverhead",
                          "Cycles per burst for arbitration, address phase and turnaround "
                          "[bus cycles].",
                          UintegerValue(4),
                          MakeUintegerAccessor(&PciBus::m_overheadCycles),
                          MakeUintegerChecker<uint32_t>(0, 1000))
            .AddAttribute("ReadLatency",
                          "Extra cycles per DMA read burst while the host bridge fetches "
                          "memory (initial target latency) [bus cycles].",
                          UintegerValue(8),
                          MakeUintegerAccessor(&PciBus::m_readLatencyCycles),
                          MakeUintegerChecker<uint32_t>(0, 1000))
            .AddAttribute("WriteLatency",
                          "Extra cycles per DMA write burst (posted writes) [bus cycles].",
                          UintegerValue(1),
                          MakeUintegerAccessor(&PciBus::m_writeLatencyCycles),
                          MakeUintegerChecker<uint32_t>(0, 1000))
            .AddAttribute("PioCyclesPerWord",
                          "Cycles per data word of a programmed-I/O write (no bursting "
                          "without write combining) [bus cycles].",
                          UintegerValue(1),
                          MakeUintegerAccessor(&PciBus::m_pioCycles),
                          MakeUintegerChecker<uint32_t>(1, 1000))
            .AddAttribute("PioReadLatency",
                          "Target latency of a CPU read of a device register: cycles from the "
                          "address phase until the device returns the data [bus cycles].",
                          UintegerValue(8),
                          MakeUintegerAccessor(&PciBus::m_pioReadLatencyCycles),
                          MakeUintegerChecker<uint32_t>(0, 1000))
            .AddTraceSource("Burst",
                            "A burst starts on the bus: its bytes and direction. A master alone on the bus "
                            "runs its bursts back to back and reports the first only.",
                            MakeTraceSourceAccessor(&PciBus::m_burstTrace),
                            "ns3::clusternet::PciBus::BurstCallback");
    return tid;
}

PciBus::PciBus()
{
    NS_LOG_FUNCTION(this);
}

PciBus::~PciBus()
{
    NS_LOG_FUNCTION(this);
}

void
PciBus::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_burstEvent.Cancel();
    m_pending.clear();
    Object::DoDispose();
}

Time
PciBus::GetCyclePeriod() const
{
    // 33.33 MHz -> 30 ns, 66.67 MHz -> 15 ns
    return m_clock == CLOCK_66 ? NanoSeconds(15) : NanoSeconds(30);
}

uint32_t
PciBus::GetBytesPerCycle() const
{
    return static_cast<uint32_t>(m_width) / 8;
}

uint64_t
PciBus::BurstCycles(uint32_t bytes, Direction dir) const
{
    uint32_t bpc = GetBytesPerCycle();
    uint64_t words = (bytes + bpc - 1) / bpc;
    switch (dir)
    {
    case DMA_READ:
        return m_overheadCycles + m_readLatencyCycles + words;
    case DMA_WRITE:
        return m_overheadCycles + m_writeLatencyCycles + words;
    case PIO_READ:
        return m_overheadCycles + m_pioReadLatencyCycles + words;
    case PIO_WRITE:
    default:
        return m_overheadCycles + words * m_pioCycles;
    }
}

uint32_t
PciBus::BurstLimit(Direction dir, uint32_t maxBurst) const
{
    if (dir == PIO_WRITE)
    {
        // Without write combining each word is its own transaction; a write-combining
        // bridge hands over whole lines (its maxBurst).
        return maxBurst ? std::min(maxBurst, m_burstSize) : GetBytesPerCycle();
    }
    if (dir == PIO_READ)
    {
        return GetBytesPerCycle();
    }
    return maxBurst ? std::min(maxBurst, m_burstSize) : m_burstSize;
}

Time
PciBus::GetTransferTime(uint32_t bytes, Direction dir, uint32_t maxBurst) const
{
    uint64_t cycles = 0;
    uint32_t burst = BurstLimit(dir, maxBurst);
    while (bytes > 0)
    {
        uint32_t b = std::min(bytes, burst);
        cycles += BurstCycles(b, dir);
        bytes -= b;
    }
    return GetCyclePeriod() * static_cast<int64_t>(cycles);
}

void
PciBus::Transfer(uint32_t bytes,
                 Direction dir,
                 Callback<void> done,
                 uint32_t maxBurst,
                 bool continuing)
{
    NS_LOG_FUNCTION(this << bytes << dir << maxBurst << continuing);
    NS_ASSERT_MSG(!continuing || dir == PIO_WRITE, "only PIO writes continue a burst");
    Enqueue({std::max<uint32_t>(bytes, 1), 0, dir, done, BurstLimit(dir, maxBurst), continuing});
}

void
PciBus::TransferPair(uint32_t first,
                     uint32_t second,
                     Direction dir,
                     Callback<void> done,
                     uint32_t maxBurst)
{
    NS_LOG_FUNCTION(this << first << second << dir << maxBurst);
    NS_ASSERT_MSG(dir == DMA_READ || dir == DMA_WRITE, "only DMA transfers come in pairs");
    Enqueue({std::max<uint32_t>(first, 1),
             std::max<uint32_t>(second, 1),
             dir,
             done,
             BurstLimit(dir, maxBurst),
             false});
}

void
PciBus::Enqueue(const Request& r)
{
    m_pending.push_back(r);
    if (!m_busy)
    {
        StartBurst();
    }
    else if (m_batch)
    {
        SplitBatch();
    }
}

bool
PciBus::Continues(const Request& r) const
{
    return r.continuing && m_lastDir == PIO_WRITE && m_lastEnd == Simulator::Now();
}

void
PciBus::StartBurst()
{
    m_batch = false;
    if (m_pending.empty())
    {
        m_busy = false;
        return;
    }
    m_busy = true;
    Request& r = m_pending.front();
    Time cycle = GetCyclePeriod();
    if (m_pending.size() == 1 && (r.remaining > r.burst || r.next > 0) && !r.continuing)
    {
        // Alone on the bus: its bursts (of both transfers of a pair) follow each other without
        // re-arbitration losses to others, so run them as one event (split again if another
        // master arrives).
        m_batch = true;
        m_batchStart = Simulator::Now();
        m_burstBytes = r.remaining + r.next;
        m_burstTrace(std::min(r.remaining, r.burst), r.dir);
        Time end = BurstEndAfter(r, m_batchStart, Time::Max()).first;
        m_burstEvent = ScheduleMember(end - m_batchStart, &PciBus::EndBurst, this);
        return;
    }
    m_burstBytes = std::min(r.remaining, r.burst);
    int64_t cycles = static_cast<int64_t>(BurstCycles(m_burstBytes, r.dir));
    if (Continues(r))
    {
        cycles -= m_overheadCycles; // the same burst goes on: no arbitration, no address phase
        r.continuing = false;
    }
    else
    {
        m_burstTrace(m_burstBytes, r.dir);
    }
    Time t = cycle * cycles;
    m_burstEvent = ScheduleMember(t, &PciBus::EndBurst, this);
}

std::pair<Time, uint32_t>
PciBus::BurstEndAfter(const Request& r, Time start, Time t) const
{
    Time cycle = GetCyclePeriod();
    Time at = start;
    uint32_t moved = 0;
    for (uint32_t bytes : {r.remaining, r.next})
    {
        uint32_t full = bytes / r.burst;
        uint32_t last = bytes % r.burst;
        if (full > 0)
        {
            Time unit = cycle * static_cast<int64_t>(BurstCycles(r.burst, r.dir));
            Time fullEnd = at + unit * static_cast<int64_t>(full);
            if (fullEnd > t)
            {
                // The burst in progress at t (a burst ending exactly at t is done).
                int64_t k = (t - at).GetTimeStep() / unit.GetTimeStep() + 1;
                return {at + unit * k, moved + static_cast<uint32_t>(k) * r.burst};
            }
            at = fullEnd;
            moved += full * r.burst;
        }
        if (last > 0)
        {
            at += cycle * static_cast<int64_t>(BurstCycles(last, r.dir));
            moved += last;
            if (at > t)
            {
                return {at, moved};
            }
        }
    }
    return {at, moved};
}

bool
PciBus::FirstOfPairEndsBeforeNow() const
{
    Request first = m_pending.front();
    first.next = 0;
    Time now = Simulator::Now();
    if (BurstEndAfter(first, m_batchStart, Time::Max()).first != now)
    {
        return false;
    }
    // Two transfers would have ended the first with an event of its own, scheduled when the
    // batch started, as the batch's end was: the one running now precedes it among the events
    // of this instant iff it was scheduled earlier, i.e. iff an event at this instant with the
    // batch end's insertion number has not run yet (ns-3 orders by time, then insertion).
    EventId boundary(Ptr<EventImpl>(m_burstEvent.PeekEventImpl()),
                     now.GetTimeStep(),
                     Simulator::GetContext(),
                     m_burstEvent.GetUid());
    return !Simulator::IsExpired(boundary);
}

void
PciBus::SplitBatch()
{
    // The burst in progress completes; the bus is re-arbitrated after it.
    m_batch = false;
    const Request& r = m_pending.front();
    if (r.next > 0 && FirstOfPairEndsBeforeNow())
    {
        // The first transfer of the pair ends now, and the new request comes from an event
        // that ran before that end's would have: it is queued before the second is requested.
        m_burstEvent.Cancel();
        m_burstBytes = r.remaining;
        EndBurst();
        return;
    }
    auto [end, bytes] = BurstEndAfter(r, m_batchStart, Simulator::Now());
    if (bytes >= m_burstBytes)
    {
        return; // already in the last burst of the batch
    }
    m_burstEvent.Cancel();
    m_burstBytes = bytes;
    m_burstEvent = ScheduleMember(end - Simulator::Now(), &PciBus::EndBurst, this);
}

void
PciBus::EndBurst()
{
    m_batch = false;
    m_lastEnd = Simulator::Now();
    m_lastDir = m_pending.front().dir;
    Request r = m_pending.front();
    m_pending.pop_front();
    m_bytes += m_burstBytes;
    if (m_burstBytes >= r.remaining && r.next > 0)
    {
        // The first of a pair is done: the second was requested at that instant.
        m_burstBytes -= r.remaining;
        r.remaining = r.next;
        r.next = 0;
    }
    r.remaining -= m_burstBytes;
    if (r.remaining > 0)
    {
        // Re-arbitrate: the next master gets the bus, this one queues behind it.
        m_pending.push_back(r);
        StartBurst();
        return;
    }
    StartBurst();
    if (!r.done.IsNull())
    {
        r.done();
    }
}

uint64_t
PciBus::GetBytesTransferred() const
{
    return m_bytes;
}

} // namespace clusternet
} // namespace ns3
