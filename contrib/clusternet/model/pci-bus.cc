// SPDX-License-Identifier: GPL-2.0-only
#include "pci-bus.h"

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
            .AddTraceSource("Burst",
                            "A burst starts on the bus: its bytes and direction.",
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
    case PIO_WRITE:
    default:
        return m_overheadCycles + words * m_pioCycles;
    }
}

Time
PciBus::GetTransferTime(uint32_t bytes, Direction dir) const
{
    uint64_t cycles = 0;
    uint32_t burst = dir == PIO_WRITE ? GetBytesPerCycle() : m_burstSize;
    while (bytes > 0)
    {
        uint32_t b = std::min(bytes, burst);
        cycles += BurstCycles(b, dir);
        bytes -= b;
    }
    return GetCyclePeriod() * static_cast<int64_t>(cycles);
}

void
PciBus::Transfer(uint32_t bytes, Direction dir, Callback<void> done)
{
    NS_LOG_FUNCTION(this << bytes << dir);
    m_pending.push_back({std::max<uint32_t>(bytes, 1), dir, done});
    if (!m_busy)
    {
        StartBurst();
    }
}

void
PciBus::StartBurst()
{
    if (m_pending.empty())
    {
        m_busy = false;
        return;
    }
    m_busy = true;
    Request& r = m_pending.front();
    uint32_t burst = r.dir == PIO_WRITE ? GetBytesPerCycle() : m_burstSize;
    m_burstBytes = std::min(r.remaining, burst);
    m_burstTrace(m_burstBytes, r.dir);
    Time t = GetCyclePeriod() * static_cast<int64_t>(BurstCycles(m_burstBytes, r.dir));
    m_burstEvent = Simulator::Schedule(t, &PciBus::EndBurst, this);
}

void
PciBus::EndBurst()
{
    Request r = m_pending.front();
    m_pending.pop_front();
    r.remaining -= m_burstBytes;
    m_bytes += m_burstBytes;
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
