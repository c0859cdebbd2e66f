// SPDX-License-Identifier: GPL-2.0-only
#include "myrinet-switch.h"

#include "myrinet-port.h"
#include "myrinet-worm.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("MyrinetSwitch");
NS_OBJECT_ENSURE_REGISTERED(MyrinetSwitch);

TypeId
MyrinetSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::MyrinetSwitch")
            .SetParent<Object>()
            .SetGroupName("Clusternet")
            .AddConstructor<MyrinetSwitch>()
            .AddAttribute("Latency",
                          "Cut-through latency of a packet head through the crossbar (route "
                          "decision and connection) [Time]; seed 001 sec. 2: about 0.5 us.",
                          TimeValue(NanoSeconds(500)),
                          MakeTimeAccessor(&MyrinetSwitch::m_latency),
                          MakeTimeChecker(Seconds(0), MicroSeconds(100)))
            .AddAttribute("Ports",
                          "Number of ports [ports] (XBar16: 16; route bytes carry 7 bits).",
                          UintegerValue(16),
                          MakeUintegerAccessor(&MyrinetSwitch::m_maxPorts),
                          MakeUintegerChecker<uint32_t>(2, 128))
            .AddTraceSource("Grant",
                            "An output port was granted: input, output, time the head waited.",
                            MakeTraceSourceAccessor(&MyrinetSwitch::m_grantTrace),
                            "ns3::clusternet::MyrinetSwitch::GrantTracedCallback")
            .AddTraceSource("BadRoute",
                            "A packet was consumed because its route names no linked port.",
                            MakeTraceSourceAccessor(&MyrinetSwitch::m_badRouteTrace),
                            "ns3::clusternet::MyrinetSwitch::BadRouteTracedCallback");
    return tid;
}

MyrinetSwitch::MyrinetSwitch()
{
    NS_LOG_FUNCTION(this);
}

MyrinetSwitch::~MyrinetSwitch()
{
    NS_LOG_FUNCTION(this);
}

void
MyrinetSwitch::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_ports.clear();
    m_outputs.clear();
    Object::DoDispose();
}

uint32_t
MyrinetSwitch::AddPort(Ptr<MyrinetPort> port)
{
    NS_LOG_FUNCTION(this << port);
    NS_ASSERT_MSG(m_ports.size() < m_maxPorts,
                  "switch has only " << m_maxPorts << " ports");
    uint32_t i = m_ports.size();
    m_ports.push_back(port);
    m_outputs.emplace_back();
    port->SetSwitch(this, i);
    return i;
}

Ptr<MyrinetPort>
MyrinetSwitch::GetPort(uint32_t i) const
{
    NS_ASSERT(i < m_ports.size());
    return m_ports[i];
}

uint32_t
MyrinetSwitch::GetNPorts() const
{
    return m_ports.size();
}

uint32_t
MyrinetSwitch::GetMaxPorts() const
{
    return m_maxPorts;
}

bool
MyrinetSwitch::HasPort(uint32_t i) const
{
    return i < m_ports.size() && m_ports[i]->GetPeer();
}

Time
MyrinetSwitch::GetLatency() const
{
    return m_latency;
}

void
MyrinetSwitch::Request(Ptr<MyrinetWorm> worm, uint32_t hop, uint32_t in, uint32_t out)
{
    NS_LOG_FUNCTION(this << worm << hop << in << out);
    NS_ASSERT(out < m_outputs.size());
    Waiting w{worm, hop, in, Simulator::Now()};
    if (!m_outputs[out].busy)
    {
        GrantTo(out, w);
        return;
    }
    ++m_blocked;
    m_outputs[out].waiting.push_back(w);
}

void
MyrinetSwitch::GrantTo(uint32_t out, const Waiting& w)
{
    Output& o = m_outputs[out];
    o.busy = true;
    o.lastIn = w.in;
    m_grantTrace(w.in, out, Simulator::Now() - w.since);
    w.worm->Grant(w.hop, m_ports[out]);
}

void
MyrinetSwitch::Release(uint32_t out)
{
    NS_LOG_FUNCTION(this << out);
    Output& o = m_outputs[out];
    o.busy = false;
    if (o.waiting.empty())
    {
        return;
    }
    // Round robin: the first waiting input after the one served last.
    uint32_t n = m_ports.size();
    std::size_t best = 0;
    uint32_t bestDist = n + 1;
    for (std::size_t i = 0; i < o.waiting.size(); ++i)
    {
        uint32_t dist = (o.waiting[i].in + n - o.lastIn - 1) % n;
        if (dist < bestDist)
        {
            bestDist = dist;
            best = i;
        }
    }
    Waiting w = o.waiting[best];
    o.waiting.erase(o.waiting.begin() + best);
    GrantTo(out, w);
}

void
MyrinetSwitch::NotifyBadRoute(Ptr<const Packet> p, uint32_t in)
{
    NS_LOG_FUNCTION(this << p << in);
    ++m_badRoutes;
    m_badRouteTrace(p, in);
}

uint64_t
MyrinetSwitch::GetBadRoutes() const
{
    return m_badRoutes;
}

uint64_t
MyrinetSwitch::GetBlockedHeads() const
{
    return m_blocked;
}

} // namespace clusternet
} // namespace ns3
