// SPDX-License-Identifier: GPL-2.0-only
#include "fm-mcp.h"

#include "fm-header.h"
#include "ns3/lanai-nic.h"
#include "ns3/myrinet-net-device.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("FmMcp");
NS_OBJECT_ENSURE_REGISTERED(FmMcp);

TypeId
FmMcp::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::FmMcp")
            .SetParent<Object>()
            .SetGroupName("Clusternet")
            .AddConstructor<FmMcp>()
            .AddAttribute("LoopCycles",
                          "One pass of the control program's main loop (send queue, network, "
                          "DMA checks): the wait until it notices new work is uniformly "
                          "distributed over it [LANai cycles].",
                          UintegerValue(20),
                          MakeUintegerAccessor(&FmMcp::m_loopCycles),
                          MakeUintegerChecker<uint32_t>(0, 1000000))
            .AddAttribute("SendCycles",
                          "Take a posted packet: check its flag, build the route and start the "
                          "send DMA to the wire [LANai cycles].",
                          UintegerValue(60),
                          MakeUintegerAccessor(&FmMcp::m_sendCycles),
                          MakeUintegerChecker<uint32_t>(0, 1000000))
            .AddAttribute("RecvCycles",
                          "Take an arrived packet: check it, find its context and region slot, "
                          "append the length and start the host DMA [LANai cycles].",
                          UintegerValue(60),
                          MakeUintegerAccessor(&FmMcp::m_recvCycles),
                          MakeUintegerChecker<uint32_t>(0, 1000000))
            .AddAttribute("NotifyCycles",
                          "PCI-polling contexts only: after the host DMA has finished, update "
                          "the delivered count the host polls [LANai cycles].",
                          UintegerValue(10),
                          MakeUintegerAccessor(&FmMcp::m_notifyCycles),
                          MakeUintegerChecker<uint32_t>(0, 1000000))
            .AddAttribute("LengthBytes",
                          "Length word appended to a packet so that its end is the flag the "
                          "host polls [bytes].",
                          UintegerValue(4),
                          MakeUintegerAccessor(&FmMcp::m_lengthBytes),
                          MakeUintegerChecker<uint32_t>(0, 64))
            .AddTraceSource("Tx",
                            "An FM packet (FmHeader first) is handed to the wire.",
                            MakeTraceSourceAccessor(&FmMcp::m_txTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Rx",
                            "An FM packet (FmHeader first) has arrived in SRAM.",
                            MakeTraceSourceAccessor(&FmMcp::m_rxTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

FmMcp::FmMcp()
{
    NS_LOG_FUNCTION(this);
    m_phase = CreateObject<UniformRandomVariable>();
}

FmMcp::~FmMcp()
{
    NS_LOG_FUNCTION(this);
}

void
FmMcp::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_nic = nullptr;
    m_contexts.clear();
    m_phase = nullptr;
    Object::DoDispose();
}

void
FmMcp::SetNic(Ptr<LanaiNic> nic)
{
    m_nic = nic;
    Ptr<MyrinetNetDevice> port = nic->GetPort();
    NS_ASSERT_MSG(port, "FmMcp::SetNic: the NIC has no packet interface");
    port->SetReceiveCallback(MakeCallback(&FmMcp::Receive, this));
    port->SetSendDoneCallback(MakeCallback(&FmMcp::SendDone, this));
}

Ptr<LanaiNic>
FmMcp::GetNic() const
{
    return m_nic;
}

uint32_t
FmMcp::GetKnownFreeSlots() const
{
    return m_knownFree;
}

void
FmMcp::SetKnownFreeSlots(uint32_t free)
{
    m_knownFree = std::min(free, m_nic->GetFreeSendBuffers());
}

void
FmMcp::UseKnownFreeSlot()
{
    NS_ASSERT_MSG(m_knownFree > 0, "FmMcp: a send slot not known free");
    --m_knownFree;
    m_nic->TakeSendBuffer();
}

void
FmMcp::SetNodeId(uint16_t id)
{
    m_nodeId = id;
}

uint16_t
FmMcp::GetNodeId() const
{
    return m_nodeId;
}

void
FmMcp::AddPeer(uint16_t id, Mac48Address address)
{
    m_peers[id] = address;
}

void
FmMcp::RegisterContext(uint8_t id, const FmHostContext& context)
{
    m_contexts[id] = context;
}

uint64_t
FmMcp::GetPacketsSent() const
{
    return m_sent;
}

uint64_t
FmMcp::GetPacketsDelivered() const
{
    return m_delivered;
}

int64_t
FmMcp::AssignStreams(int64_t stream)
{
    m_phase->SetStream(stream);
    return 1;
}

uint64_t
FmMcp::LoopPhase()
{
    return static_cast<uint64_t>(m_phase->GetValue(0.0, m_loopCycles));
}

void
FmMcp::PacketPosted(Ptr<Packet> packet)
{
    NS_LOG_FUNCTION(this << packet);
    m_nic->Execute(LoopPhase() + m_sendCycles, [this, packet]() { Forward(packet); });
}

void
FmMcp::Forward(Ptr<Packet> packet)
{
    FmHeader h;
    packet->PeekHeader(h);
    if (h.GetDestinationNode() == m_nodeId)
    {
        // Intranode through the NIC: the send buffer is the receive buffer.
        m_rxTrace(packet);
        m_nic->Execute(m_recvCycles, [this, packet]() { Deliver(packet, true); });
        return;
    }
    auto peer = m_peers.find(h.GetDestinationNode());
    NS_ASSERT_MSG(peer != m_peers.end(), "FM: send to unknown node " << h.GetDestinationNode());
    std::vector<uint8_t> route;
    bool found = m_nic->GetPort()->GetRoute(peer->second, route);
    NS_ASSERT_MSG(found, "FM: no route to node " << h.GetDestinationNode());
    m_txTrace(packet);
    ++m_sent;
    bool queued = m_nic->GetPort()->SendRoute(packet, route, FmHeader::MYRINET_TYPE);
    NS_ASSERT_MSG(queued, "FM: the packet interface refused a packet");
}

void
FmMcp::SendDone(Ptr<const Packet> wire)
{
    m_nic->ReleaseSendBuffer();
    SlotFreed();
}

void
FmMcp::SlotFreed()
{
    for (auto& [id, ctx] : m_contexts)
    {
        ctx.sendSlotFreed();
    }
}

bool
FmMcp::Receive(Ptr<NetDevice> dev, Ptr<const Packet> p, uint16_t type, const Address& from)
{
    NS_LOG_FUNCTION(this << p);
    NS_ASSERT_MSG(type == FmHeader::MYRINET_TYPE, "FmMcp received a non-FM packet");
    m_nic->TakeReceiveBuffer();
    m_rxTrace(p);
    Ptr<Packet> packet = p->Copy();
    m_nic->Execute(LoopPhase() + m_recvCycles, [this, packet]() { Deliver(packet, false); });
    return true;
}

void
FmMcp::Deliver(Ptr<Packet> packet, bool local)
{
    FmHeader h;
    packet->PeekHeader(h);
    auto it = m_contexts.find(h.GetDestinationContext());
    NS_ASSERT_MSG(it != m_contexts.end(),
                  "FM: packet for unknown context " << +h.GetDestinationContext());
    FmHostContext ctx = it->second;
    uint32_t slot = ctx.claimRegionSlot();
    uint32_t bytes = packet->GetSize() + m_lengthBytes;
    // The region is pinned at load time and addressed physically: no translation misses.
    m_nic->HostDma(bytes, PciBus::DMA_WRITE, 0, [this, packet, ctx, slot, local]() {
        if (local)
        {
            m_nic->ReleaseSendBuffer();
            SlotFreed();
        }
        else
        {
            m_nic->ReleaseReceiveBuffer();
        }
        ++m_delivered;
        if (ctx.pollsMemory())
        {
            ctx.packetVisible(packet, slot);
        }
        else
        {
            // The control program notices the finished DMA on a pass of its loop.
            m_nic->Execute(LoopPhase() + m_notifyCycles,
                           [ctx, packet, slot]() { ctx.packetVisible(packet, slot); });
        }
    });
}

} // namespace clusternet
} // namespace ns3
