// SPDX-License-Identifier: GPL-2.0-only
#include "gm-mcp.h"

#include "ns3/lanai-nic.h"
#include "ns3/myrinet-net-device.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <set>

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("GmMcp");
NS_OBJECT_ENSURE_REGISTERED(GmMcp);

namespace
{
constexpr uint64_t kPageSize = 4096;
/// Host address of a port's receive queue (events), apart from any message buffer.
constexpr uint64_t kEventQueueBase = uint64_t{1} << 40;
} // namespace

TypeId
GmMcp::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::GmMcp")
            .SetParent<Object>()
            .SetGroupName("Clusternet")
            .AddConstructor<GmMcp>()
            .AddAttribute("MaxPayload",
                          "Largest message fragment in one packet (GM fragments longer "
                          "messages) [bytes].",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&GmMcp::m_maxPayload),
                          MakeUintegerChecker<uint32_t>(64, 65536))
            .AddAttribute("EventBytes",
                          "Size of one event written into the host's receive queue [bytes].",
                          UintegerValue(32),
                          MakeUintegerAccessor(&GmMcp::m_eventBytes),
                          MakeUintegerChecker<uint32_t>(4, 4096))
            .AddAttribute("DoorbellCycles",
                          "Take a send token the host wrote and queue its message [LANai "
                          "cycles].",
                          UintegerValue(150),
                          MakeUintegerAccessor(&GmMcp::m_doorbellCycles),
                          MakeUintegerChecker<uint32_t>(0, 1000000))
            .AddAttribute("SdmaCycles",
                          "Set up the host DMA read of one fragment [LANai cycles].",
                          UintegerValue(250),
                          MakeUintegerAccessor(&GmMcp::m_sdmaCycles),
                          MakeUintegerChecker<uint32_t>(0, 1000000))
            .AddAttribute("SendCycles",
                          "Build a data packet's route and header and start the send DMA to "
                          "the wire, once the last packet has left (one send DMA) [LANai "
                          "cycles].",
                          UintegerValue(250),
                          MakeUintegerAccessor(&GmMcp::m_sendCycles),
                          MakeUintegerChecker<uint32_t>(0, 1000000))
            .AddAttribute("RecvCycles",
                          "Check an arrived data packet, match its buffer and set up the host "
                          "DMA write [LANai cycles].",
                          UintegerValue(300),
                          MakeUintegerAccessor(&GmMcp::m_recvCycles),
                          MakeUintegerChecker<uint32_t>(0, 1000000))
            .AddAttribute("AckCycles",
                          "Send an ACK for a data packet, or retire the packet an arrived ACK "
                          "acknowledges [LANai cycles].",
                          UintegerValue(150),
                          MakeUintegerAccessor(&GmMcp::m_ackCycles),
                          MakeUintegerChecker<uint32_t>(0, 1000000))
            .AddAttribute("EventCycles",
                          "Build an event and set up its DMA into the host's receive queue "
                          "[LANai cycles].",
                          UintegerValue(200),
                          MakeUintegerAccessor(&GmMcp::m_eventCycles),
                          MakeUintegerChecker<uint32_t>(0, 1000000))
            .AddAttribute("ProvideCycles",
                          "Take a receive token the host wrote [LANai cycles].",
                          UintegerValue(100),
                          MakeUintegerAccessor(&GmMcp::m_provideCycles),
                          MakeUintegerChecker<uint32_t>(0, 1000000))
            .AddAttribute("RetransmitDelay",
                          "Time from a NACK to resending the connection's unacknowledged "
                          "packets [Time] (GM's resend timer; estimate).",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&GmMcp::m_retransmitDelay),
                          MakeTimeChecker(Seconds(0)))
            .AddTraceSource("Tx",
                            "A GM packet (GmHeader first) is handed to the packet interface.",
                            MakeTraceSourceAccessor(&GmMcp::m_txTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Rx",
                            "A GM packet (GmHeader first) has arrived in SRAM.",
                            MakeTraceSourceAccessor(&GmMcp::m_rxTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

GmMcp::GmMcp()
{
    NS_LOG_FUNCTION(this);
}

GmMcp::~GmMcp()
{
    NS_LOG_FUNCTION(this);
}

void
GmMcp::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_nic = nullptr;
    m_ports.clear();
    m_sendQueues.clear();
    m_unacked.clear();
    m_resendQueue.clear();
    m_resendsPending.clear();
    m_backlog.clear();
    for (auto& [node, ev] : m_goBackTimer)
    {
        ev.Cancel();
    }
    m_goBackTimer.clear();
    for (auto& [node, ev] : m_owedNack)
    {
        ev.Cancel();
    }
    m_owedNack.clear();
    m_received.clear();
    m_assemblies.clear();
    Object::DoDispose();
}

void
GmMcp::SetNic(Ptr<LanaiNic> nic)
{
    m_nic = nic;
    Ptr<MyrinetNetDevice> port = nic->GetPort();
    NS_ASSERT_MSG(port, "GmMcp::SetNic: the NIC has no packet interface");
    port->SetReceiveCallback(MakeCallback(&GmMcp::Receive, this));
    port->SetSendDoneCallback(MakeCallback(&GmMcp::SendDone, this));
}

Ptr<LanaiNic>
GmMcp::GetNic() const
{
    return m_nic;
}

void
GmMcp::SetNodeId(uint16_t id)
{
    m_nodeId = id;
}

uint16_t
GmMcp::GetNodeId() const
{
    return m_nodeId;
}

void
GmMcp::AddPeer(uint16_t id, Mac48Address address)
{
    m_peers[id] = address;
}

void
GmMcp::RegisterPort(uint8_t id, Callback<void, const GmEvent&> postEvent)
{
    m_ports[id] = postEvent;
}

bool
GmMcp::IsPortOpen(uint8_t id) const
{
    return m_ports.count(id) > 0;
}

uint32_t
GmMcp::GetMaxPayload() const
{
    return m_maxPayload;
}

uint64_t
GmMcp::GetDataPacketsSent() const
{
    return m_dataSent;
}

uint64_t
GmMcp::GetDataPacketsReceived() const
{
    return m_dataReceived;
}

uint64_t
GmMcp::GetMessagesDelivered() const
{
    return m_delivered;
}

uint64_t
GmMcp::GetBytesDelivered() const
{
    return m_deliveredBytes;
}

uint64_t
GmMcp::GetMessagesCompleted() const
{
    return m_completed;
}

uint64_t
GmMcp::GetNoBufferDrops() const
{
    return m_noBufferDrops;
}

uint64_t
GmMcp::GetOutOfOrderDrops() const
{
    return m_outOfOrderDrops;
}

uint64_t
GmMcp::GetNacksSent() const
{
    return m_nacksSent;
}

uint64_t
GmMcp::GetRetransmissions() const
{
    return m_retransmissions;
}

uint32_t
GmMcp::GetUnacknowledged() const
{
    return m_unacked.size();
}

// ------------------------------------------------------------------------------ send path

void
GmMcp::PostSend(uint8_t port,
                uint16_t node,
                uint8_t dstPort,
                Ptr<Packet> message,
                uint64_t address)
{
    NS_LOG_FUNCTION(this << +port << node << +dstPort << message->GetSize());
    NS_ASSERT_MSG(m_peers.count(node), "GM send to unknown node " << node);
    auto rec = std::make_shared<SendRecord>();
    rec->port = port;
    rec->node = node;
    rec->dstPort = dstPort;
    rec->message = message;
    rec->address = address;
    rec->length = message->GetSize();
    // The token lands in the port's send queue in SRAM; the control program takes it
    // (DoorbellCycles) when its send DMA machine is ready for the next message, and keeps
    // it on the queue of its destination's connection.
    m_sendQueues[node].push_back(rec);
    TrySdma();
}

void
GmMcp::TrySdma()
{
    if (m_sdmaActive || m_nic->GetFreeSendBuffers() == 0)
    {
        return;
    }
    // GM's fair send queue: the connections with packets to send (resends after a NACK, or
    // messages) take turns, one packet each, in node order after the one served last; a
    // connection resends before it goes on, in sequence order, and sends its messages in order.
    // A resend acknowledged meanwhile needs none.
    std::set<uint16_t> waiting;
    for (auto r = m_resendQueue.begin(); r != m_resendQueue.end();)
    {
        if (!m_unacked.count({r->node, r->seq}))
        {
            r = m_resendQueue.erase(r);
            continue;
        }
        waiting.insert(r->node);
        ++r;
    }
    for (const auto& [node, queue] : m_sendQueues)
    {
        waiting.insert(node);
    }
    if (waiting.empty())
    {
        return;
    }
    auto next = waiting.upper_bound(m_lastServed);
    m_lastServed = next != waiting.end() ? *next : *waiting.begin();
    // The connection's lowest sequence first: a second go-back (a NACK that came while the
    // first one's resends were going out) queues packets already resent behind later ones
    // still waiting, and the receiver takes only the next in sequence.
    auto first = m_resendQueue.end();
    for (auto r = m_resendQueue.begin(); r != m_resendQueue.end(); ++r)
    {
        if (r->node == m_lastServed && (first == m_resendQueue.end() || r->seq < first->seq))
        {
            first = r;
        }
    }
    if (first != m_resendQueue.end())
    {
        Resend resend = *first;
        m_resendQueue.erase(first);
        m_sdmaActive = true;
        m_nic->TakeSendBuffer();
        const InFlight& f = m_unacked.at({resend.node, resend.seq});
        uint64_t page = (f.rec->address + f.offset) / kPageSize;
        uint32_t bytes = f.bytes;
        m_nic->Execute(m_sdmaCycles, [this, resend, bytes, page]() {
            m_nic->HostDma(bytes, PciBus::DMA_READ, page, [this, resend]() { ResendRead(resend); });
        });
        return;
    }
    auto turn = m_sendQueues.find(m_lastServed);
    std::shared_ptr<SendRecord> rec = turn->second.front();
    uint64_t cycles = m_sdmaCycles + (rec->fragments == 0 ? m_doorbellCycles : 0);
    uint32_t offset = rec->next;
    uint32_t bytes = std::min(m_maxPayload, rec->length - offset);
    rec->next += bytes;
    ++rec->fragments;
    if (rec->next >= rec->length)
    {
        rec->allRead = true;
        turn->second.pop_front();
        if (turn->second.empty())
        {
            m_sendQueues.erase(turn);
        }
    }
    m_sdmaActive = true;
    m_nic->TakeSendBuffer();
    uint64_t page = (rec->address + offset) / kPageSize;
    m_nic->Execute(cycles, [this, rec, offset, bytes, page]() {
        m_nic->HostDma(bytes, PciBus::DMA_READ, page, [this, rec, offset, bytes]() {
            FragmentRead(rec, offset, bytes);
        });
    });
}

void
GmMcp::FragmentRead(std::shared_ptr<SendRecord> rec, uint32_t offset, uint32_t bytes)
{
    m_sdmaActive = false;
    Ptr<Packet> p = bytes > 0 ? rec->message->CreateFragment(offset, bytes) : Create<Packet>();
    GmHeader h;
    h.SetKind(GmHeader::DATA);
    h.SetSourcePort(rec->port);
    h.SetDestinationPort(rec->dstPort);
    h.SetSourceNode(m_nodeId);
    h.SetDestinationNode(rec->node);
    uint32_t seq = m_nextSeq[rec->node]++;
    if (m_resendsPending[rec->node] > 0)
    {
        // A go-back of this connection came while the fragment was being read: the
        // receiver drops everything until the resends, so the fragment goes behind them.
        m_unacked[{rec->node, seq}] = InFlight{rec, offset, bytes, true};
        ++m_resendsPending[rec->node];
        m_resendQueue.push_back({rec->node, seq});
        m_nic->ReleaseSendBuffer();
        TrySdma();
        return;
    }
    h.SetSequence(seq);
    h.SetMessageLength(rec->length);
    h.SetOffset(offset);
    p->AddHeader(h);
    m_unacked[{rec->node, seq}] = InFlight{rec, offset, bytes};
    ++m_dataSent;
    Transmit(p, rec->node, true);
    TrySdma();
}

void
GmMcp::ResendRead(Resend r)
{
    m_sdmaActive = false;
    auto it = m_unacked.find({r.node, r.seq});
    if (it == m_unacked.end())
    {
        // Acknowledged while it was being read: nothing to resend.
        m_nic->ReleaseSendBuffer();
        TrySdma();
        return;
    }
    InFlight& f = it->second;
    f.resendQueued = false;
    --m_resendsPending[r.node];
    Ptr<Packet> p = f.bytes > 0 ? f.rec->message->CreateFragment(f.offset, f.bytes)
                                : Create<Packet>();
    GmHeader h;
    h.SetKind(GmHeader::DATA);
    h.SetSourcePort(f.rec->port);
    h.SetDestinationPort(f.rec->dstPort);
    h.SetSourceNode(m_nodeId);
    h.SetDestinationNode(r.node);
    h.SetSequence(r.seq);
    h.SetMessageLength(f.rec->length);
    h.SetOffset(f.offset);
    p->AddHeader(h);
    ++m_retransmissions;
    Transmit(p, r.node, true);
    TrySdma();
}

void
GmMcp::Transmit(Ptr<Packet> packet, uint16_t node, bool data)
{
    Ptr<MyrinetNetDevice> port = m_nic->GetPort();
    std::vector<uint8_t> route;
    bool found = port->GetRoute(m_peers.at(node), route);
    NS_ASSERT_MSG(found, "GM: no route to node " << node);
    m_txTrace(packet);
    // ACKs are not bounded by send buffers: when the link is held back long enough (STOP
    // through a congested switch), they wait in the control program, in order.
    m_backlog.push_back({packet, route, data});
    DrainBacklog();
}

void
GmMcp::DrainBacklog()
{
    if (m_backlog.empty() || m_sendState != SEND_IDLE)
    {
        return;
    }
    Pending next = m_backlog.front();
    m_backlog.pop_front();
    if (!next.data)
    {
        // An ACK's send was set up within its AckCycles.
        StartSend(next);
        return;
    }
    // The packet interface has one send DMA: the control program sets up the next data packet
    // (header, route, DMA pointers) only once the last one has left.
    NS_LOG_LOGIC("send interface: idle -> setting up");
    m_sendState = SEND_SETUP;
    m_nic->Execute(m_sendCycles, [this, next]() { StartSend(next); });
}

void
GmMcp::StartSend(const Pending& next)
{
    m_sendState = next.data ? SEND_DATA : SEND_ACK;
    NS_LOG_LOGIC("send interface: sending " << (next.data ? "data" : "an ACK"));
    bool queued = m_nic->GetPort()->SendRoute(next.packet, next.route, GmHeader::MYRINET_TYPE);
    NS_ASSERT_MSG(queued, "GM: the packet interface refused a packet");
}

void
GmMcp::SendDone(Ptr<const Packet> wire)
{
    NS_ASSERT_MSG(m_sendState == SEND_DATA || m_sendState == SEND_ACK,
                  "send done with nothing on the wire");
    bool data = m_sendState == SEND_DATA;
    NS_LOG_LOGIC("send interface: idle");
    m_sendState = SEND_IDLE;
    DrainBacklog();
    if (data)
    {
        m_nic->ReleaseSendBuffer();
        TrySdma();
    }
}

// --------------------------------------------------------------------------- receive path

bool
GmMcp::Receive(Ptr<NetDevice> dev, Ptr<const Packet> p, uint16_t type, const Address& from)
{
    NS_LOG_FUNCTION(this << p);
    NS_ASSERT_MSG(type == GmHeader::MYRINET_TYPE, "GmMcp received a non-GM packet");
    m_nic->TakeReceiveBuffer();
    m_rxTrace(p);
    Ptr<Packet> packet = p->Copy();
    GmHeader h;
    packet->PeekHeader(h);
    if (h.GetKind() == GmHeader::ACK || h.GetKind() == GmHeader::NACK)
    {
        m_nic->Execute(m_ackCycles, [this, h]() {
            m_nic->ReleaseReceiveBuffer();
            if (h.GetKind() == GmHeader::ACK)
            {
                HandleAck(h);
            }
            else
            {
                HandleNack(h);
            }
        });
    }
    else
    {
        m_nic->Execute(m_recvCycles, [this, packet]() { HandleData(packet); });
    }
    return true;
}

void
GmMcp::HandleAck(GmHeader h)
{
    auto it = m_unacked.find({h.GetSourceNode(), h.GetSequence()});
    NS_ASSERT_MSG(it != m_unacked.end(), "GM: ACK for a packet not in flight: " << h);
    std::shared_ptr<SendRecord> rec = it->second.rec;
    if (it->second.resendQueued)
    {
        --m_resendsPending[h.GetSourceNode()]; // acknowledged before its resend went out
    }
    m_unacked.erase(it);
    ++rec->acked;
    if (rec->allRead && rec->acked == rec->fragments)
    {
        ++m_completed;
        GmEvent ev;
        ev.type = GmEvent::SENT;
        ev.message = rec->message;
        ev.node = rec->node;
        ev.port = rec->dstPort;
        ev.length = rec->length;
        ev.address = rec->address;
        PostEventToHost(rec->port, ev);
    }
}

void
GmMcp::HandleNack(GmHeader h)
{
    uint16_t node = h.GetSourceNode();
    uint32_t from = h.GetSequence();
    if (!m_unacked.count({node, from}))
    {
        return; // stale: the packet it names has been acknowledged since
    }
    auto& timer = m_goBackTimer[node];
    if (timer.IsPending())
    {
        return; // a go-back is already due; it will cover this drop
    }
    NS_LOG_LOGIC("NACK from node " << node << " at sequence " << from << ": go back in "
                                   << m_retransmitDelay.As(Time::US));
    timer = Simulator::Schedule(m_retransmitDelay, &GmMcp::GoBack, this, node, from);
}

void
GmMcp::GoBack(uint16_t node, uint32_t from)
{
    NS_LOG_FUNCTION(this << node << from);
    NS_LOG_LOGIC("go back to node " << node << ": resend from sequence " << from);
    for (auto it = m_unacked.lower_bound({node, from});
         it != m_unacked.end() && it->first.first == node;
         ++it)
    {
        if (!it->second.resendQueued)
        {
            it->second.resendQueued = true;
            ++m_resendsPending[node];
            m_resendQueue.push_back({node, it->first.second});
        }
    }
    TrySdma();
}

void
GmMcp::Drop(const GmHeader& h, bool noBuffer)
{
    NS_LOG_FUNCTION(this << h << noBuffer);
    m_nic->ReleaseReceiveBuffer();
    uint32_t expected = m_expectedSeq[h.GetSourceNode()];
    if (noBuffer)
    {
        ++m_noBufferDrops;
    }
    else
    {
        ++m_outOfOrderDrops;
        if (h.GetSequence() < expected)
        {
            return; // a duplicate of a packet already taken: its ACK is on the way
        }
    }
    uint32_t& highest = m_highestDropped[h.GetSourceNode()];
    highest = std::max(highest, h.GetSequence());
    // One NACK per expected sequence number per RetransmitDelay: every packet sent before the
    // sender's go-back is covered by it.
    // A NACK held back is owed: if the window closes with a packet dropped since still missing
    // (the go-back's first packet dropped too, or its resends came in part), it goes out then,
    // for the sequence expected then.
    auto last = m_lastNack.find(h.GetSourceNode());
    if (last != m_lastNack.end() && last->second.first == expected &&
        Simulator::Now() - last->second.second < m_retransmitDelay)
    {
        EventId& owed = m_owedNack[h.GetSourceNode()];
        if (!owed.IsPending())
        {
            NS_LOG_LOGIC("NACK of " << expected << " held back: owed at the window's end");
            owed = Simulator::Schedule(last->second.second + m_retransmitDelay - Simulator::Now(),
                                       &GmMcp::OwedNack,
                                       this,
                                       h,
                                       expected);
        }
        return;
    }
    m_lastNack[h.GetSourceNode()] = {expected, Simulator::Now()};
    SendNack(h, expected);
}

void
GmMcp::OwedNack(GmHeader h, uint32_t expected)
{
    uint32_t now = m_expectedSeq[h.GetSourceNode()];
    if (now != expected && now > m_highestDropped[h.GetSourceNode()])
    {
        return; // every packet dropped has come since: nothing owed
    }
    NS_LOG_LOGIC("owed NACK of " << now << " sent");
    m_lastNack[h.GetSourceNode()] = {now, Simulator::Now()};
    SendNack(h, now);
}

void
GmMcp::SendNack(const GmHeader& h, uint32_t expected)
{
    ++m_nacksSent;
    SendControl(GmHeader::NACK, h, expected);
}

void
GmMcp::SendControl(GmHeader::Kind kind, const GmHeader& data, uint32_t seq)
{
    GmHeader ctl;
    ctl.SetKind(kind);
    ctl.SetSourceNode(m_nodeId);
    ctl.SetDestinationNode(data.GetSourceNode());
    ctl.SetSourcePort(data.GetDestinationPort());
    ctl.SetDestinationPort(data.GetSourcePort());
    ctl.SetSequence(seq);
    uint16_t to = data.GetSourceNode();
    m_nic->Execute(m_ackCycles, [this, ctl, to]() {
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(ctl);
        Transmit(p, to, false);
    });
}

void
GmMcp::HandleData(Ptr<Packet> packet)
{
    GmHeader h;
    packet->PeekHeader(h);
    uint32_t& expected = m_expectedSeq[h.GetSourceNode()];
    if (h.GetSequence() != expected)
    {
        Drop(h, false); // go-back-N: after a dropped packet, or a duplicate
        return;
    }
    uint64_t key = AssemblyKey(h);
    if (h.GetOffset() == 0)
    {
        // First fragment: claim the smallest provided buffer that holds the message.
        auto& bufs = m_buffers[h.GetDestinationPort()];
        auto best = bufs.end();
        for (auto b = bufs.begin(); b != bufs.end(); ++b)
        {
            if (b->size >= h.GetMessageLength() && (best == bufs.end() || b->size < best->size))
            {
                best = b;
            }
        }
        if (best == bufs.end())
        {
            Drop(h, true);
            return;
        }
        m_assemblies[key].push_back({best->address, Create<Packet>(), h.GetMessageLength()});
        bufs.erase(best);
    }
    NS_ASSERT_MSG(!m_assemblies[key].empty(), "GM: fragment of a message never started");
    ++expected;
    ++m_dataReceived;
    m_received.push_back(packet);
    ProcessReceived();
}

uint64_t
GmMcp::AssemblyKey(const GmHeader& h)
{
    return (uint64_t{h.GetSourceNode()} << 16) | (uint64_t{h.GetSourcePort()} << 8) |
           h.GetDestinationPort();
}

void
GmMcp::ProcessReceived()
{
    // Accepted packets go to host memory in arrival order, each into its message's buffer.
    while (!m_received.empty())
    {
        Ptr<Packet> packet = m_received.front();
        m_received.pop_front();
        GmHeader h;
        packet->RemoveHeader(h);
        uint64_t key = AssemblyKey(h);
        uint64_t page = (m_assemblies[key].back().address + h.GetOffset()) / kPageSize;
        m_nic->HostDma(packet->GetSize(), PciBus::DMA_WRITE, page, [this, key, packet, h]() {
            FragmentWritten(key, packet, h);
        });
    }
}

void
GmMcp::SendAck(const GmHeader& h)
{
    SendControl(GmHeader::ACK, h, h.GetSequence());
}

void
GmMcp::FragmentWritten(uint64_t key, Ptr<Packet> fragment, GmHeader h)
{
    m_nic->ReleaseReceiveBuffer();
    // Host DMA is in order: the fragment belongs to the oldest message of its connection.
    Assembly& a = m_assemblies[key].front();
    NS_ASSERT_MSG(h.GetOffset() == a.received, "GM: fragment written out of order");
    a.data->AddAtEnd(fragment);
    a.received += fragment->GetSize();
    if (a.received < a.length)
    {
        SendAck(h);
        return;
    }
    ++m_delivered;
    m_deliveredBytes += a.length;
    GmEvent ev;
    ev.type = GmEvent::RECEIVED;
    ev.message = a.data;
    ev.node = h.GetSourceNode();
    ev.port = h.GetSourcePort();
    ev.length = a.length;
    ev.address = a.address;
    m_assemblies[key].pop_front();
    // The receive event first (it is what the process waits for), then the ACK.
    PostEventToHost(h.GetDestinationPort(), ev);
    SendAck(h);
}

void
GmMcp::PostEventToHost(uint8_t port, const GmEvent& event)
{
    auto it = m_ports.find(port);
    NS_ASSERT_MSG(it != m_ports.end(), "GM: event for port " << +port << " which is not open");
    Callback<void, const GmEvent&> post = it->second;
    uint64_t page = (kEventQueueBase + port * kPageSize) / kPageSize;
    m_nic->Execute(m_eventCycles, [this, post, page, event]() {
        m_nic->HostDma(m_eventBytes, PciBus::DMA_WRITE, page, [post, event]() { post(event); });
    });
}

void
GmMcp::PostReceiveBuffer(uint8_t port, uint32_t size, uint64_t address)
{
    NS_LOG_FUNCTION(this << +port << size << address);
    m_nic->Execute(m_provideCycles, [this, port, size, address]() {
        m_buffers[port].push_back({size, address});
        ProcessReceived();
    });
}

} // namespace clusternet
} // namespace ns3
