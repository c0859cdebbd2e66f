// SPDX-License-Identifier: GPL-2.0-only
#include "mpi-shm-transport.h"

#include "ns3/host-cpu.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("MpiShmTransport");
NS_OBJECT_ENSURE_REGISTERED(MpiShmTransport);

TypeId
MpiShmTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::MpiShmTransport")
            .SetParent<MpiTransport>()
            .SetGroupName("Clusternet")
            .AddConstructor<MpiShmTransport>()
            .AddAttribute("SlotBytes",
                          "Size of one buffer of the shared ring between a pair of ranks "
                          "[bytes].",
                          UintegerValue(16384),
                          MakeUintegerAccessor(&MpiShmTransport::m_slotBytes),
                          MakeUintegerChecker<uint32_t>(64, 16u << 20))
            .AddAttribute("Slots",
                          "Buffers in the ring of each ordered pair of ranks [count].",
                          UintegerValue(2),
                          MakeUintegerAccessor(&MpiShmTransport::m_slots),
                          MakeUintegerChecker<uint32_t>(1, 1024))
            .AddAttribute("SendCycles",
                          "Sender's CPU work per packet besides the copy: lock the ring, "
                          "write the header, signal the peer [reference cycles; see "
                          "HostCpu::CoreFactor].",
                          DoubleValue(900),
                          MakeDoubleAccessor(&MpiShmTransport::m_sendCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddAttribute("RecvCycles",
                          "Receiver's CPU work per packet besides the copy: dequeue it and "
                          "read its header [reference cycles; see HostCpu::CoreFactor].",
                          DoubleValue(900),
                          MakeDoubleAccessor(&MpiShmTransport::m_recvCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddAttribute("WakeCycles",
                          "CPU work of a process that waited (for a filled slot, or for a free "
                          "one) to resume: the wake-up from the library's event, or its "
                          "polling loop [reference cycles; see HostCpu::CoreFactor].",
                          DoubleValue(2250),
                          MakeDoubleAccessor(&MpiShmTransport::m_wakeCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddTraceSource("SlotCopied",
                            "A slot was copied out: sending rank, receiving rank, bytes.",
                            MakeTraceSourceAccessor(&MpiShmTransport::m_slotTrace),
                            "ns3::clusternet::MpiShmTransport::SlotTracedCallback");
    return tid;
}

MpiShmTransport::MpiShmTransport()
{
    NS_LOG_FUNCTION(this);
}

MpiShmTransport::~MpiShmTransport()
{
    NS_LOG_FUNCTION(this);
}

void
MpiShmTransport::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_cpu = nullptr;
    m_peers.clear();
    m_rings.clear();
    m_filled.clear();
    MpiTransport::DoDispose();
}

void
MpiShmTransport::Setup(Ptr<HostCpu> cpu, uint32_t rank)
{
    NS_LOG_FUNCTION(this << cpu << rank);
    m_cpu = cpu;
    m_rank = rank;
}

void
MpiShmTransport::SetPeers(const std::vector<Ptr<MpiTransport>>& peers)
{
    m_peers = PeersAs<MpiShmTransport>(peers);
}

uint32_t
MpiShmTransport::GetSlotsInUse(uint32_t dst) const
{
    auto it = m_rings.find(dst);
    return it == m_rings.end() ? 0 : it->second.inUse;
}

uint64_t
MpiShmTransport::GetSlotsReceived() const
{
    return m_slotsReceived;
}

void
MpiShmTransport::RunCpu(Time cost, std::function<void()> done)
{
    if (m_cpu)
    {
        m_cpu->Execute(cost, HostCpu::USER, Callback<void>(done));
    }
    else
    {
        Simulator::ScheduleNow(done);
    }
}

void
MpiShmTransport::Send(const MpiEnvelope& envelope,
                      uint32_t envelopeBytes,
                      std::function<void()> written)
{
    NS_LOG_FUNCTION(this << envelope);
    NS_ASSERT_MSG(envelope.dst < m_peers.size() && envelope.dst != m_rank,
                  "MpiShmTransport: no peer rank " << envelope.dst);
    Ring& ring = m_rings[envelope.dst];
    // A packet takes at least one slot, even with no bytes at all.
    ring.queue.push_back({envelope, envelopeBytes + envelope.payload, false, std::move(written)});
    CopyIn(envelope.dst);
}

void
MpiShmTransport::CopyIn(uint32_t dst)
{
    Ring& ring = m_rings[dst];
    if (ring.copying || ring.queue.empty())
    {
        return;
    }
    if (ring.inUse >= m_slots)
    {
        ring.waited = true; // sleep until the peer frees a slot
        return;
    }
    Outbound& out = ring.queue.front();
    uint32_t bytes = std::min(out.remaining, m_slotBytes);
    Time cost = m_cpu ? m_cpu->CopyCost(bytes) : Time(0);
    bool first = !out.started;
    if (first)
    {
        cost += HostCpu::CyclesToTime(m_cpu, m_sendCycles);
    }
    if (ring.waited)
    {
        cost += HostCpu::CyclesToTime(m_cpu, m_wakeCycles);
        ring.waited = false;
    }
    out.started = true;
    ring.copying = true;
    ++ring.inUse;
    RunCpu(cost, [this, dst, bytes, first]() {
        Ring& r = m_rings[dst];
        Outbound& o = r.queue.front();
        o.remaining -= bytes;
        bool last = o.remaining == 0;
        Slot slot{o.envelope, bytes, first, last};
        std::function<void()> written;
        if (last)
        {
            written = std::move(o.written);
            r.queue.pop_front();
        }
        r.copying = false;
        m_peers[dst]->SlotFilled(m_rank, slot);
        if (written)
        {
            written();
        }
        CopyIn(dst);
    });
}

void
MpiShmTransport::SlotFilled(uint32_t src, const Slot& slot)
{
    NS_LOG_FUNCTION(this << src << slot.bytes);
    m_filled.emplace_back(src, slot);
    CopyOut();
}

void
MpiShmTransport::SlotFreed(uint32_t dst)
{
    Ring& ring = m_rings[dst];
    NS_ASSERT_MSG(ring.inUse > 0, "MpiShmTransport: slot freed twice");
    --ring.inUse;
    CopyIn(dst);
}

void
MpiShmTransport::CopyOut()
{
    if (m_reading)
    {
        return;
    }
    if (m_filled.empty() || !IsProgressing())
    {
        m_idle = true;
        return;
    }
    auto [src, slot] = m_filled.front();
    m_filled.pop_front();
    Time cost = m_cpu ? m_cpu->CopyCost(slot.bytes) : Time(0);
    if (slot.first)
    {
        cost += HostCpu::CyclesToTime(m_cpu, m_recvCycles);
    }
    if (m_idle)
    {
        cost += HostCpu::CyclesToTime(m_cpu, m_wakeCycles);
        m_idle = false;
    }
    m_reading = true;
    RunCpu(cost, [this, src, slot]() {
        m_reading = false;
        ++m_slotsReceived;
        m_slotTrace(src, m_rank, slot.bytes);
        m_peers[src]->SlotFreed(m_rank);
        if (slot.last)
        {
            Deliver(slot.envelope);
        }
        CopyOut();
    });
}

void
MpiShmTransport::Resume()
{
    CopyOut();
}

} // namespace clusternet
} // namespace ns3
