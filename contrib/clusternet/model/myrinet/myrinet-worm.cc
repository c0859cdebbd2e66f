// SPDX-License-Identifier: GPL-2.0-only
#include "myrinet-worm.h"

#include "myrinet-channel.h"
#include "myrinet-header.h"
#include "myrinet-port.h"
#include "myrinet-switch.h"
#include "myrinet-trailer.h"

#include "ns3/log.h"
#include "ns3/member-event.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("MyrinetWorm");

namespace
{
constexpr double EPS = 1e-6; //!< bytes treated as zero

/// A time span [s] as simulator time, rounded up (at least 1 ns) so the threshold is reached.
Time
Ceil(double seconds)
{
    double ns = std::ceil(seconds * 1e9 - 1e-9);
    return NanoSeconds(static_cast<int64_t>(std::max(1.0, ns)));
}

} // namespace

template <typename... Args>
EventId
MyrinetWorm::Schedule(Time delay, void (MyrinetWorm::*method)(Args...), Args... args)
{
    // The event holds a Ptr: a worm lives as long as it has events to run.
    return ScheduleMember(delay, method, Ptr<MyrinetWorm>(this), args...);
}

MyrinetWorm::MyrinetWorm(Ptr<Packet> wire, Ptr<MyrinetPort> source)
    : m_packet(wire),
      m_source(source)
{
    NS_LOG_FUNCTION(this << wire << source);
    // One hop per route byte, and the first link.
    MyrinetHeader header;
    wire->PeekHeader(header);
    m_hops.reserve(header.GetSerializedSize() - MyrinetHeader::TYPE_SIZE + 1);
}

MyrinetWorm::~MyrinetWorm()
{
    NS_LOG_FUNCTION(this);
}

Ptr<const Packet>
MyrinetWorm::GetPacket() const
{
    return m_packet;
}

uint32_t
MyrinetWorm::GetNHops() const
{
    return m_hops.size();
}

void
MyrinetWorm::AddHop(Ptr<MyrinetPort> tx)
{
    Ptr<MyrinetChannel> ch = tx->GetMyrinetChannel();
    Ptr<MyrinetPort> rx = tx->GetPeer();
    NS_ASSERT_MSG(ch && rx, "Myrinet port is not linked");
    Hop& h = m_hops.emplace_back();
    h.tx = tx;
    h.rx = rx;
    h.length = m_packet->GetSize();
    h.rate = ch->GetDataRate().GetBitRate() / 8.0;
    h.delay = ch->GetDelay();
    if (Ptr<MyrinetSwitch> sw = h.rx->GetSwitch())
    {
        h.pipe = h.rate * sw->GetLatency().GetSeconds();
    }
    tx->SetTxWorm(this);
    h.rx->SetRxWorm(this);
}

void
MyrinetWorm::Start()
{
    NS_LOG_FUNCTION(this);
    Ptr<MyrinetWorm> self(this);
    m_last = Simulator::Now();
    AddHop(m_source);
    Process();
    Recompute();
}

void
MyrinetWorm::Grant(uint32_t hop, Ptr<MyrinetPort> out)
{
    NS_LOG_FUNCTION(this << hop << out);
    Ptr<MyrinetWorm> self(this);
    Advance();
    NS_ASSERT(hop + 1 == m_hops.size());
    // The output strips the route byte; the CRC-8 is updated for what remains.
    MyrinetTrailer trailer;
    m_packet->RemoveTrailer(trailer);
    MyrinetHeader header;
    m_packet->RemoveHeader(header);
    uint8_t route = header.PopRoute() | MyrinetHeader::ROUTE_FLAG;
    m_packet->AddHeader(header);
    trailer.StripFirstByte(route, m_packet->GetSize());
    m_packet->AddTrailer(trailer);
    Hop& h = m_hops[hop];
    h.forwarding = true;
    h.out = std::min(h.arrived, h.out + 1); // the route byte is consumed, not forwarded
    AddHop(out);
    Process();
    Recompute();
}

void
MyrinetWorm::Touch()
{
    Ptr<MyrinetWorm> self(this);
    if (m_done)
    {
        return;
    }
    Advance();
    Process();
    Recompute();
}

void
MyrinetWorm::Advance()
{
    Time now = Simulator::Now();
    double dt = (now - m_last).GetSeconds();
    m_last = now;
    if (dt <= 0)
    {
        return;
    }
    for (Hop& h : m_hops)
    {
        if (h.released)
        {
            continue;
        }
        h.sent = std::min(h.length, h.sent + h.txRate * dt);
        h.arrived = std::min(h.length, h.arrived + h.inRate * dt);
        h.out = std::min(h.arrived, h.out + h.outRate * dt);
    }
}

void
MyrinetWorm::Process()
{
    for (uint32_t k = 0; k < m_hops.size(); ++k)
    {
        Hop& h = m_hops[k];
        if (h.released)
        {
            continue;
        }
        if (!h.txDone && h.sent >= h.length - EPS)
        {
            h.sent = h.length;
            h.txDone = true;
            if (k == 0)
            {
                m_source->NotifySendDone(m_packet);
            }
        }
        double occ = std::max(0.0, h.arrived - h.out);
        double slack = std::max(0.0, occ - h.pipe);
        if (slack > h.recorded)
        {
            // The port keeps the largest occupancy it was told: a smaller one changes nothing.
            h.recorded = slack;
            h.rx->RecordOccupancy(slack);
        }
        if (!h.rx->IsStopAsserted() && slack >= h.rx->GetStopThreshold() - EPS)
        {
            h.rx->AssertStop(slack);
        }
        else if (h.rx->IsStopAsserted() && slack <= h.rx->GetGoThreshold() + EPS)
        {
            h.rx->AssertGo(slack);
        }
        if (h.arrived >= h.length - EPS && h.out >= h.length - EPS && h.txDone &&
            (h.sink || h.forwarding))
        {
            Release(k);
        }
    }
}

void
MyrinetWorm::Release(uint32_t k)
{
    Hop& h = m_hops[k];
    NS_LOG_FUNCTION(this << k);
    h.released = true;
    h.txRate = h.inRate = h.outRate = 0;
    Ptr<MyrinetPort> tx = h.tx;
    Ptr<MyrinetPort> rx = h.rx;
    bool drop = h.drop;
    uint32_t bytes = static_cast<uint32_t>(std::lround(h.length));
    rx->SetRxWorm(nullptr);
    bool last = k + 1 == m_hops.size();
    if (last)
    {
        m_done = true;
        m_step.Cancel();
        // The step event holds a Ptr to this worm; dropping its id breaks that cycle, so the
        // worm and its packet are freed once the last hop is released.
        m_step = EventId();
    }
    tx->NotifyTxReleased(bytes); // may hand the port to another worm
    if (last)
    {
        if (drop)
        {
            NS_LOG_LOGIC("worm consumed at switch port without a route");
        }
        else
        {
            rx->Deliver(m_packet);
        }
    }
}

void
MyrinetWorm::Recompute()
{
    if (m_done)
    {
        return;
    }
    const double inf = std::numeric_limits<double>::infinity();
    for (uint32_t k = 0; k < m_hops.size(); ++k)
    {
        Hop& h = m_hops[k];
        if (h.released)
        {
            continue;
        }
        double tx = 0;
        if (!h.txDone && !h.tx->IsStopped())
        {
            if (k == 0)
            {
                tx = h.rate;
            }
            else
            {
                const Hop& up = m_hops[k - 1];
                double occ = up.arrived - up.out;
                tx = occ > EPS ? h.rate : std::min(h.rate, up.inRate);
            }
        }
        if (k > 0)
        {
            m_hops[k - 1].outRate = tx;
        }
        if (tx != h.txRate)
        {
            h.txRate = tx;
            Schedule(h.delay, &MyrinetWorm::ArrivalChange, k, tx);
        }
    }
    Hop& head = m_hops.back();
    if (head.sink)
    {
        bool accept = head.drop || head.rx->IsReceiveEnabled();
        double sinkRate = head.drop ? head.rate : head.rx->GetReceiveRateBytes();
        double occ = head.arrived - head.out;
        head.outRate = !accept ? 0 : (occ > EPS ? sinkRate : std::min(sinkRate, head.inRate));
    }
    else if (!head.forwarding)
    {
        head.outRate = 0;
    }

    // The next threshold any hop reaches.
    double next = inf;
    for (const Hop& h : m_hops)
    {
        if (h.released)
        {
            continue;
        }
        if (h.txRate > 0)
        {
            next = std::min(next, (h.length - h.sent) / h.txRate);
        }
        double occ = std::max(0.0, h.arrived - h.out);
        double net = h.inRate - h.outRate;
        double stop = h.pipe + h.rx->GetStopThreshold();
        double go = h.pipe + h.rx->GetGoThreshold();
        if (net > 0 && !h.rx->IsStopAsserted() && occ < stop)
        {
            next = std::min(next, (stop - occ) / net);
        }
        if (net < 0 && occ > EPS)
        {
            if (h.rx->IsStopAsserted() && occ > go)
            {
                next = std::min(next, (occ - go) / -net);
            }
            next = std::min(next, occ / -net);
        }
    }
    m_step.Cancel();
    if (next < inf)
    {
        m_step = Schedule(Ceil(next), &MyrinetWorm::Step);
    }
}

void
MyrinetWorm::Step()
{
    Touch();
}

void
MyrinetWorm::ArrivalChange(uint32_t k, double rate)
{
    Ptr<MyrinetWorm> self(this);
    if (m_done || m_hops[k].released)
    {
        return;
    }
    Advance();
    Hop& h = m_hops[k];
    h.inRate = rate;
    if (!h.headArrived && rate > 0)
    {
        h.headArrived = true;
        if (Ptr<MyrinetSwitch> sw = h.rx->GetSwitch())
        {
            Schedule(sw->GetLatency(), &MyrinetWorm::RouteDecision, k);
        }
        else
        {
            h.sink = true;
        }
    }
    Process();
    Recompute();
}

void
MyrinetWorm::RouteDecision(uint32_t k)
{
    NS_LOG_FUNCTION(this << k);
    Ptr<MyrinetWorm> self(this);
    Advance();
    Hop& h = m_hops[k];
    Ptr<MyrinetSwitch> sw = h.rx->GetSwitch();
    // The route byte this switch consumes is the packet's first byte (MyrinetHeader); a byte
    // without the route flag is the type: no route left.
    uint8_t first = 0;
    m_packet->CopyData(&first, 1);
    bool routed = (first & MyrinetHeader::ROUTE_FLAG) != 0;
    uint8_t out = first & ~MyrinetHeader::ROUTE_FLAG;
    if (!routed || !sw->HasPort(out))
    {
        // Myrinet switches consume a packet whose route names no linked port.
        sw->NotifyBadRoute(m_packet, h.rx->GetSwitchPort());
        h.sink = true;
        h.drop = true;
        Process();
        Recompute();
        return;
    }
    Process();
    Recompute();
    sw->Request(this, k, h.rx->GetSwitchPort(), out);
}

} // namespace clusternet
} // namespace ns3
