// SPDX-License-Identifier: GPL-2.0-only
#include "fm-context.h"

#include "fm-header.h"
#include "fm-mcp.h"
#include "fm-smt.h"
#include "ns3/host-bridge.h"
#include "ns3/host-cpu.h"
#include "ns3/lanai-nic.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <memory>

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("FmContext");
NS_OBJECT_ENSURE_REGISTERED(FmContext);

namespace
{
/// Region slots for control (CREDIT) packets per remote peer, beyond its credits: at most two
/// refills (each for half the credits) are in flight.
constexpr uint32_t kControlSlots = 2;
} // namespace

TypeId
FmContext::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::FmContext")
            .SetParent<Object>()
            .SetGroupName("Clusternet")
            .AddConstructor<FmContext>()
            .AddAttribute("Notify",
                          "Arrival detection: PciPoll (read the LANai's count across PCI) or "
                          "Memory (poll the flag at the end of the next region slot).",
                          EnumValue(MEMORY),
                          MakeEnumAccessor<Notify>(&FmContext::m_notify),
                          MakeEnumChecker(PCI_POLL, "PciPoll", MEMORY, "Memory"))
            .AddAttribute("Intranode",
                          "Transport to processes on the same host: Smt (shared memory) or "
                          "Loopback (through the Myrinet NIC).",
                          EnumValue(SMT),
                          MakeEnumAccessor<Intranode>(&FmContext::m_intranode),
                          MakeEnumChecker(SMT, "Smt", LOOPBACK, "Loopback"))
            .AddAttribute("Credits",
                          "Credits per peer: packets it may send before a refill [packets].",
                          UintegerValue(32),
                          MakeUintegerAccessor(&FmContext::m_creditsPerPeer),
                          MakeUintegerChecker<uint32_t>(1, 65535))
            .AddAttribute("PacketPayload",
                          "Data bytes per packet behind the 32-byte header [bytes].",
                          UintegerValue(2048),
                          MakeUintegerAccessor(&FmContext::m_payload),
                          MakeUintegerChecker<uint32_t>(1, 65535))
            .AddAttribute("PacingBytes",
                          "PIO pacing chunk: after each chunk the CPU waits for the bridge's "
                          "posted writes to drain; 0 = no pacing [bytes].",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FmContext::m_pacing),
                          MakeUintegerChecker<uint32_t>(0, 65535))
            .AddAttribute("ReceiveCopy",
                          "Handlers copy each packet's data out of the region or frame into "
                          "the user's buffer (FM_receive).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FmContext::m_receiveCopy),
                          MakeBooleanChecker())
            .AddAttribute("MessageSendCycles",
                          "FM_begin_message and FM_end_message, per message [reference cycles; see "
                          "HostCpu::CoreFactor].",
                          DoubleValue(135),
                          MakeDoubleAccessor(&FmContext::m_messageSendCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddAttribute("PacketSendCycles",
                          "Per packet: credit and buffer checks, header, addresses [reference "
                          "cycles; see "
                          "HostCpu::CoreFactor].",
                          DoubleValue(450),
                          MakeDoubleAccessor(&FmContext::m_packetSendCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddAttribute("ExtractCycles",
                          "FM_extract entry and exit, including its lock: the fixed part of a "
                          "poll [reference cycles].",
                          DoubleValue(27),
                          MakeDoubleAccessor(&FmContext::m_extractCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddAttribute("MemoryProbeCycles",
                          "Check the flag at the end of the next region slot (a cache hit) "
                          "[reference cycles].",
                          DoubleValue(4.5),
                          MakeDoubleAccessor(&FmContext::m_memoryProbeCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddAttribute("SmtProbeCycles",
                          "Check one shared-memory receive queue: head index, queue entry "
                          "and frame flag [reference cycles].",
                          DoubleValue(18),
                          MakeDoubleAccessor(&FmContext::m_smtProbeCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddAttribute("HandlerCycles",
                          "Per packet extracted: header checks, credit accounting and the "
                          "handler call [reference cycles].",
                          DoubleValue(225),
                          MakeDoubleAccessor(&FmContext::m_handlerCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddAttribute("AtomicCycles",
                          "One fetch-and-increment or test-and-set on shared memory [reference "
                          "cycles; see "
                          "HostCpu::CoreFactor].",
                          DoubleValue(25.65),
                          MakeDoubleAccessor(&FmContext::m_atomicCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddAttribute("CacheMissCost",
                          "The poll that follows an invalidation fetches the line again (from "
                          "memory or the other CPU's cache) [Time].",
                          TimeValue(NanoSeconds(150)),
                          MakeTimeAccessor(&FmContext::m_cacheMissCost),
                          MakeTimeChecker(Seconds(0)))
            .AddTraceSource("CreditStall",
                            "The next packet waits for credit (true) or has it again (false).",
                            MakeTraceSourceAccessor(&FmContext::m_stallTrace),
                            "ns3::clusternet::FmContext::CreditStallTracedCallback")
            .AddTraceSource("State",
                            "What the process is doing: idle, working, polling, a poll pass.",
                            MakeTraceSourceAccessor(&FmContext::m_state),
                            "ns3::clusternet::FmContext::StateTracedCallback")
            .AddTraceSource("Tx",
                            "A packet (FmHeader first) leaves the process.",
                            MakeTraceSourceAccessor(&FmContext::m_txTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

FmContext::FmContext()
{
    NS_LOG_FUNCTION(this);
    m_phase = CreateObject<UniformRandomVariable>();
}

FmContext::~FmContext()
{
    NS_LOG_FUNCTION(this);
}

void
FmContext::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_notice.Cancel();
    m_pollStartEvent.Cancel();
    m_cpu = nullptr;
    m_bridge = nullptr;
    m_mcp = nullptr;
    m_smt = nullptr;
    m_phase = nullptr;
    m_visible.clear();
    m_sendQueue.clear();
    m_receive = ReceiveCallback();
    Object::DoDispose();
}

uint32_t
FmContext::Key(uint16_t node, uint8_t ctx)
{
    return (static_cast<uint32_t>(node) << 8) | ctx;
}

void
FmContext::Setup(uint16_t node,
                 uint8_t id,
                 Ptr<HostCpu> cpu,
                 Ptr<HostBridge> bridge,
                 Ptr<FmMcp> mcp,
                 Ptr<FmSmt> smt)
{
    m_node = node;
    m_id = id;
    m_cpu = cpu;
    m_bridge = bridge;
    m_mcp = mcp;
    m_smt = smt;
    NS_ASSERT_MSG(!mcp || bridge, "FmContext: Myrinet sends need the host bridge");
    if (m_mcp)
    {
        Ptr<FmContext> self(this);
        m_mcp->RegisterContext(id,
                               {MakeCallback(&FmContext::ClaimRegionSlot, self),
                                MakeCallback(&FmContext::PacketVisible, self),
                                MakeCallback(&FmContext::SendSlotFreed, self),
                                MakeCallback(&FmContext::PollsMemory, self)});
    }
    if (m_smt)
    {
        m_smtId = m_smt->Attach(MakeCallback(&FmContext::SmtPosted, this));
    }
}

void
FmContext::AddPeer(uint16_t node, uint8_t ctx)
{
    Peer p;
    p.local = node == m_node;
    p.smt = p.local && m_intranode == SMT;
    p.credits = m_creditsPerPeer;
    if (p.smt)
    {
        NS_ASSERT_MSG(m_smt, "FmContext: an intranode peer over SMT needs the shared region");
        // SMT ids follow context ids on a host (both are assigned in attach order).
        p.smtId = ctx;
    }
    else
    {
        NS_ASSERT_MSG(m_mcp, "FmContext: a peer over Myrinet needs the NIC");
        m_region.resize(m_region.size() + m_creditsPerPeer + kControlSlots, false);
    }
    m_peers[Key(node, ctx)] = p;
}

uint8_t
FmContext::GetContextId() const
{
    return m_id;
}

uint16_t
FmContext::GetNodeId() const
{
    return m_node;
}

FmContext::Notify
FmContext::GetNotify() const
{
    return m_notify;
}

bool
FmContext::PollsMemory() const
{
    return m_notify == MEMORY;
}

Ptr<HostCpu>
FmContext::GetCpu() const
{
    return m_cpu;
}

void
FmContext::SetReceiveCallback(ReceiveCallback cb)
{
    m_receive = cb;
}

void
FmContext::SetPacing(uint32_t bytes)
{
    m_pacing = bytes;
}

uint32_t
FmContext::GetPacing() const
{
    return m_pacing;
}

int64_t
FmContext::AssignStreams(int64_t stream)
{
    m_phase->SetStream(stream);
    return 1;
}

Time
FmContext::Cost(double cycles) const
{
    return m_cpu->CyclesToTime(cycles);
}

Time
FmContext::GetPollPeriod() const
{
    double cycles = m_extractCycles;
    if (m_mcp)
    {
        cycles += m_memoryProbeCycles;
    }
    if (m_smt)
    {
        cycles += m_smtProbeCycles * m_smt->GetQueues();
    }
    return Cost(cycles);
}

uint64_t
FmContext::GetPolls() const
{
    if (IsPolling() && !(m_mcp && m_notify == PCI_POLL))
    {
        Time idle = Simulator::Now() - m_pollStart;
        return m_polls + static_cast<uint64_t>(idle.GetSeconds() / GetPollPeriod().GetSeconds());
    }
    return m_polls;
}

Time
FmContext::GetPollTime() const
{
    return IsPolling() ? m_pollTime + (Simulator::Now() - m_pollStart) : m_pollTime;
}

uint32_t
FmContext::GetCredits(uint16_t node, uint8_t ctx) const
{
    auto it = m_peers.find(Key(node, ctx));
    return it == m_peers.end() ? 0 : it->second.credits;
}

uint64_t
FmContext::GetCreditStalls() const
{
    return m_creditStalls;
}

uint64_t
FmContext::GetRegionOverruns() const
{
    return m_overruns;
}

uint32_t
FmContext::GetRegionSlots() const
{
    return m_region.size();
}

uint32_t
FmContext::GetMaxRegionUsed() const
{
    return m_maxRegionUsed;
}

uint64_t
FmContext::GetMessagesReceived() const
{
    return m_msgsReceived;
}

uint64_t
FmContext::GetBytesReceived() const
{
    return m_bytesReceived;
}

uint64_t
FmContext::GetPacketsSent() const
{
    return m_packetsSent;
}

uint64_t
FmContext::GetSendQueueReads() const
{
    return m_slotReads;
}

bool
FmContext::IsSendQueueEmpty() const
{
    return m_sendQueue.empty() && m_creditQueue.empty();
}

// ------------------------------------------------------------------------------ the process

void
FmContext::Start()
{
    Kick();
}

void
FmContext::Send(uint16_t node,
                uint8_t ctx,
                uint32_t bytes,
                uint8_t handler,
                std::function<void()> sent)
{
    NS_LOG_FUNCTION(this << node << +ctx << bytes);
    uint32_t key = Key(node, ctx);
    NS_ASSERT_MSG(m_peers.count(key), "FmContext: send to unknown peer " << node << "." << +ctx);
    m_sendQueue.push_back({key, bytes, handler, m_nextMsgId++, std::move(sent)});
    Kick();
}

FmContext::State
FmContext::GetState() const
{
    return m_state;
}

bool
FmContext::IsBusy() const
{
    return m_state == WORKING || m_state == POLL_PASS;
}

bool
FmContext::IsPolling() const
{
    return m_state == POLLING || m_state == POLL_PASS;
}

void
FmContext::SetState(bool busy, bool polling)
{
    const State next = polling ? (busy ? POLL_PASS : POLLING) : (busy ? WORKING : IDLE);
    if (next != m_state)
    {
        NS_LOG_LOGIC("process " << m_node << "." << +m_id << ": state " << m_state.Get() << " -> "
                                << next);
    }
    m_state = next;
}

void
FmContext::SetBusy(bool busy)
{
    SetState(busy, IsPolling());
    if (!busy)
    {
        Kick();
    }
}

bool
FmContext::CanSend(uint32_t key, bool control) const
{
    const Peer& p = m_peers.at(key);
    if (!control && p.credits == 0)
    {
        return false;
    }
    return p.smt || m_mcp->GetKnownFreeSlots() > 0;
}

bool
FmContext::WantsSlot() const
{
    if (!m_creditQueue.empty() && !m_peers.at(m_creditQueue.front()).smt)
    {
        return true;
    }
    if (m_sendQueue.empty())
    {
        return false;
    }
    const Peer& p = m_peers.at(m_sendQueue.front().peer);
    return !p.smt && p.credits > 0;
}

void
FmContext::ReadSendQueue()
{
    // The host learns which send slots the control program has emptied by reading the
    // LANai's send-queue state across PCI (behind any posted writes).
    SetState(true, IsPolling());
    ++m_slotReads;
    auto sampled = std::make_shared<uint32_t>(0);
    m_bridge->Read([this, sampled]() { *sampled = m_mcp->GetNic()->GetFreeSendBuffers(); },
                   [this, sampled]() {
                       m_mcp->SetKnownFreeSlots(*sampled);
                       SetBusy(false);
                   });
}

void
FmContext::Kick()
{
    if (IsBusy())
    {
        return;
    }
    // A read that would find every slot still busy is skipped: the control program's
    // SendSlotFreed wakes the process, which then reads (a spinning host reads until then).
    if (m_mcp && m_mcp->GetKnownFreeSlots() == 0 && WantsSlot() &&
        m_mcp->GetNic()->GetFreeSendBuffers() > 0)
    {
        StopPolling();
        ReadSendQueue();
        return;
    }
    // Credit refills first: a peer may be stalled on them.
    while (!m_creditQueue.empty() && m_peers.at(m_creditQueue.front()).owed == 0)
    {
        m_peers.at(m_creditQueue.front()).refillQueued = false; // returned on a data packet
        m_creditQueue.pop_front();
    }
    if (!m_creditQueue.empty() && CanSend(m_creditQueue.front(), true))
    {
        StopPolling();
        uint32_t key = m_creditQueue.front();
        m_creditQueue.pop_front();
        SendPacket(key, true);
        return;
    }
    if (m_detected > 0)
    {
        StopPolling();
        ProcessNext();
        return;
    }
    if (!m_sendQueue.empty())
    {
        uint32_t key = m_sendQueue.front().peer;
        if (CanSend(key, false))
        {
            if (m_stalled)
            {
                NS_LOG_LOGIC("credit stall over: peer " << key << " has credits again");
                m_stalled = false;
                m_stallTrace(false);
            }
            StopPolling();
            SendPacket(key, false);
            return;
        }
        if (m_peers.at(key).credits == 0 && !m_stalled)
        {
            NS_LOG_LOGIC("credit stall: no credit for peer " << key << ", extracting until a "
                                                               "refill arrives");
            m_stalled = true;
            ++m_creditStalls;
            m_stallTrace(true);
        }
    }
    if (HasArrivals())
    {
        StopPolling();
        Extract();
        return;
    }
    StartPolling();
}

void
FmContext::SendPacket(uint32_t key, bool credit)
{
    Peer& peer = m_peers.at(key);
    FmHeader h;
    h.SetSourceNode(m_node);
    h.SetSourceContext(m_id);
    h.SetDestinationNode(static_cast<uint16_t>(key >> 8));
    h.SetDestinationContext(static_cast<uint8_t>(key & 0xff));
    h.SetCredits(static_cast<uint16_t>(peer.owed));
    peer.owed = 0;
    uint32_t payload = 0;
    double cost = m_packetSendCycles;
    std::function<void()> sent; // the message's, with its last packet
    if (credit)
    {
        h.SetKind(FmHeader::CREDIT);
        peer.refillQueued = false;
    }
    else
    {
        OutMessage& m = m_sendQueue.front();
        payload = std::min(m_payload, m.bytes - m.next);
        if (!m.started)
        {
            cost += m_messageSendCycles;
            m.started = true;
        }
        h.SetKind(FmHeader::DATA);
        h.SetHandler(m.handler);
        h.SetMessageId(m.id);
        h.SetMessageLength(m.bytes);
        h.SetOffset(m.next);
        h.SetPayload(static_cast<uint16_t>(payload));
        m.next += payload;
        NS_ASSERT_MSG(peer.credits > 0, "FmContext: a data packet without credit");
        --peer.credits;
        if (m.next >= m.bytes)
        {
            sent = std::move(m.sent);
            m_sendQueue.pop_front();
        }
    }
    Ptr<Packet> packet = Create<Packet>(payload);
    packet->AddHeader(h);
    ++m_packetsSent;
    m_txTrace(packet);
    SetState(true, IsPolling());
    if (peer.smt)
    {
        m_cpu->Execute(Cost(cost), HostCpu::USER, [this, key, packet, payload, sent]() {
            AcquireSmtFrame(m_peers.at(key).smtId, packet, payload, sent);
        });
        return;
    }
    // The send buffer is reserved now; the host writes into it.
    m_mcp->UseKnownFreeSlot();
    m_cpu->Execute(Cost(cost), HostCpu::USER, [this, packet, payload, sent]() {
        SendMyrinet(packet, payload, sent);
    });
}

void
FmContext::SendMyrinet(Ptr<Packet> packet, uint32_t payload, std::function<void()> sent)
{
    Ptr<FmMcp> mcp = m_mcp;
    // Header and data, then the ready flag (posted writes stay in order).
    m_bridge->Write(FmHeader::SIZE + payload, m_pacing, [this, mcp, packet, sent]() {
        m_bridge->Write(
            4,
            0,
            [this, sent]() {
                if (sent)
                {
                    sent();
                }
                SetBusy(false);
            },
            [mcp, packet]() { mcp->PacketPosted(packet); });
    }, Callback<void>());
}

void
FmContext::AcquireSmtFrame(uint32_t receiver,
                           Ptr<Packet> packet,
                           uint32_t payload,
                           std::function<void()> sent)
{
    // Fetch-and-increment the free-list head, test-and-set the frame's in-use flag.
    m_cpu->Execute(Cost(m_atomicCycles * 2), HostCpu::USER, [=, this]() {
        int32_t frame = m_smt->AcquireFrame(receiver, m_smtId);
        Time misses = m_cacheMissCost * static_cast<int64_t>(m_smt->CollectMisses(m_smtId));
        if (frame < 0)
        {
            m_cpu->Execute(misses, HostCpu::USER, [=, this]() {
                AcquireSmtFrame(receiver, packet, payload, sent); // in use: the next one
            });
            return;
        }
        // Copy in, then fetch-and-increment the receive-queue tail.
        Time copy = misses + m_cpu->CopyCost(payload) + Cost(m_atomicCycles);
        m_cpu->Execute(copy, HostCpu::USER, [=, this]() {
            // Storing the index: the tail's and the slot's lines must be ours first.
            Time own =
                m_cacheMissCost * static_cast<int64_t>(m_smt->MissesToPost(receiver, m_smtId));
            m_cpu->Execute(own, HostCpu::USER, [=, this]() {
                m_smt->Post(receiver, m_smtId, frame, packet);
                if (sent)
                {
                    sent();
                }
                SetBusy(false);
            });
        });
    });
}

// ---------------------------------------------------------------------------- receive side

uint32_t
FmContext::ClaimRegionSlot()
{
    NS_ASSERT_MSG(!m_region.empty(), "FmContext: no region (no Myrinet peer)");
    uint32_t slot = m_regionNext;
    m_regionNext = (m_regionNext + 1) % m_region.size();
    if (m_region[slot])
    {
        ++m_overruns;
        NS_LOG_WARN("FM region overrun at slot " << slot);
    }
    else
    {
        ++m_regionUsed;
    }
    m_region[slot] = true;
    m_maxRegionUsed = std::max(m_maxRegionUsed, m_regionUsed);
    return slot;
}

void
FmContext::PacketVisible(Ptr<Packet> packet, uint32_t slot)
{
    m_visible.push_back({packet, slot});
    if (IsPolling() && m_notify == MEMORY && !m_notice.IsPending())
    {
        // The flag's line is invalidated; the poll loop sees it on its next pass.
        Time phase = Seconds(m_phase->GetValue(0.0, GetPollPeriod().GetSeconds()));
        m_notice = Simulator::Schedule(phase + m_cacheMissCost, &FmContext::ArrivalNoticed, this);
    }
}

void
FmContext::SmtPosted()
{
    if (IsPolling() && !m_notice.IsPending() && (m_notify == MEMORY || !m_mcp))
    {
        Time phase = Seconds(m_phase->GetValue(0.0, GetPollPeriod().GetSeconds()));
        m_notice = Simulator::Schedule(phase + m_cacheMissCost, &FmContext::ArrivalNoticed, this);
    }
}

void
FmContext::SendSlotFreed()
{
    if (IsPolling())
    {
        StopPolling();
        Kick();
    }
}

bool
FmContext::HasArrivals() const
{
    return CountArrivals() > 0;
}

uint32_t
FmContext::CountArrivals() const
{
    uint32_t n = m_visible.size();
    if (m_smt)
    {
        for (uint32_t q = 0; q < m_smt->GetQueues(); ++q)
        {
            n += m_smt->Peek(m_smtId, q) ? 1 : 0;
        }
    }
    return n;
}

void
FmContext::StartPolling()
{
    if (IsPolling())
    {
        return;
    }
    SetState(IsBusy(), true);
    m_pollStart = Simulator::Now();
    if (m_mcp && m_notify == PCI_POLL)
    {
        // The loop's phase against arrivals is arbitrary: start it part-way through a pass.
        SetState(true, IsPolling());
        Time phase = Seconds(m_phase->GetValue(0.0, Cost(m_extractCycles).GetSeconds() +
                                                        m_bridge->GetReadTime().GetSeconds()));
        m_pollStartEvent = Simulator::Schedule(phase, [this]() {
            SetState(false, IsPolling());
            if (IsPolling())
            {
                PciPoll();
            }
            else
            {
                Kick();
            }
        });
    }
}

void
FmContext::StopPolling()
{
    if (!IsPolling())
    {
        return;
    }
    SetState(IsBusy(), false);
    m_notice.Cancel();
    Time idle = Simulator::Now() - m_pollStart;
    m_pollTime += idle;
    if (!(m_mcp && m_notify == PCI_POLL))
    {
        m_polls += static_cast<uint64_t>(idle.GetSeconds() / GetPollPeriod().GetSeconds());
    }
}

void
FmContext::ArrivalNoticed()
{
    StopPolling();
    m_detected = CountArrivals();
    Kick();
}

void
FmContext::PciPoll()
{
    // One pass: FM_extract's entry, then the read of the LANai's count (it waits behind any
    // posted writes; the count is what the LANai holds when the read reaches it, and the CPU
    // has it when the value returns).
    SetState(true, IsPolling());
    auto sampled = std::make_shared<uint32_t>(0);
    m_cpu->Execute(
        Cost(m_extractCycles + (m_smt ? m_smtProbeCycles : 0.0)),
        HostCpu::USER,
        [this, sampled]() {
            m_bridge->Read([this, sampled]() { *sampled = CountArrivals(); },
                           [this, sampled]() {
                               ++m_polls;
                               SetState(false, IsPolling());
                               if (!IsPolling())
                               {
                                   Kick();
                                   return;
                               }
                               if (*sampled > 0 || !m_sendQueue.empty() ||
                                   !m_creditQueue.empty())
                               {
                                   StopPolling();
                                   m_detected = *sampled;
                                   Kick();
                                   return;
                               }
                               PciPoll();
                           });
        });
}

void
FmContext::Extract()
{
    // Arrivals found while busy: one poll finds them.
    SetState(true, IsPolling());
    if (m_mcp && m_notify == PCI_POLL)
    {
        auto sampled = std::make_shared<uint32_t>(0);
        m_cpu->Execute(Cost(m_extractCycles), HostCpu::USER, [this, sampled]() {
            m_bridge->Read([this, sampled]() { *sampled = CountArrivals(); },
                           [this, sampled]() {
                               ++m_polls;
                               m_detected = *sampled;
                               SetBusy(false);
                           });
        });
        return;
    }
    m_cpu->Execute(GetPollPeriod() + m_cacheMissCost, HostCpu::USER, [this]() {
        ++m_polls;
        m_detected = CountArrivals();
        SetBusy(false);
    });
}

void
FmContext::ProcessNext()
{
    NS_ASSERT_MSG(m_detected > 0, "FmContext: nothing detected");
    --m_detected;
    SetState(true, IsPolling());
    Time handler = Cost(m_handlerCycles);
    if (!m_visible.empty())
    {
        Visible v = m_visible.front();
        m_visible.pop_front();
        FmHeader h;
        v.packet->PeekHeader(h);
        Time cost = handler + (m_receiveCopy ? m_cpu->CopyCost(h.GetPayload()) : Time(0));
        if (m_notify == MEMORY && m_detected > 0)
        {
            cost += m_cacheMissCost; // the next slot's flag
        }
        m_cpu->Execute(cost, HostCpu::USER, [this, v]() {
            m_region[v.slot] = false;
            --m_regionUsed;
            Handle(v.packet);
            SetBusy(false);
        });
        return;
    }
    // Shared memory: the next queue with a frame at its head.
    uint32_t m = m_smt->GetQueues();
    for (uint32_t i = 0; i < m; ++i)
    {
        uint32_t q = (m_smtNext + i) % m;
        if (m_smt->Peek(m_smtId, q))
        {
            m_smtNext = (q + 1) % m;
            int32_t frame;
            Ptr<Packet> packet = m_smt->Take(m_smtId, q, frame); // fetch-and-increment
            FmHeader h;
            packet->PeekHeader(h);
            Time misses = m_cacheMissCost * static_cast<int64_t>(m_smt->CollectMisses(m_smtId));
            Time cost = Cost(m_atomicCycles) + misses + handler +
                        (m_receiveCopy ? m_cpu->CopyCost(h.GetPayload()) : Time(0));
            m_cpu->Execute(cost, HostCpu::USER, [this, q, frame, packet]() {
                // Clearing the in-use flag: the header line is shared with the sender.
                m_smt->Release(m_smtId, q, frame);
                Time own =
                    m_cacheMissCost * static_cast<int64_t>(m_smt->CollectMisses(m_smtId));
                m_cpu->Execute(own, HostCpu::USER, [this, packet]() {
                    Handle(packet);
                    SetBusy(false);
                });
            });
            return;
        }
    }
    // Counted but gone (cannot happen: only this process takes from its queues).
    NS_ASSERT_MSG(false, "FmContext: a detected arrival vanished");
}

void
FmContext::Handle(Ptr<Packet> packet)
{
    FmHeader h;
    packet->PeekHeader(h);
    uint32_t key = Key(h.GetSourceNode(), h.GetSourceContext());
    auto it = m_peers.find(key);
    NS_ASSERT_MSG(it != m_peers.end(), "FmContext: packet from unknown peer " << h);
    Peer& peer = it->second;
    peer.credits += h.GetCredits();
    NS_ASSERT_MSG(peer.credits <= m_creditsPerPeer, "FmContext: more credits than granted");
    if (h.GetKind() == FmHeader::CREDIT)
    {
        return;
    }
    ++peer.owed;
    if (peer.owed >= std::max<uint32_t>(1, m_creditsPerPeer / 2) && !peer.refillQueued)
    {
        peer.refillQueued = true;
        m_creditQueue.push_back(key);
    }
    auto msg = std::make_pair(key, h.GetMessageId());
    uint32_t got = (m_partial[msg] += h.GetPayload());
    if (got >= h.GetMessageLength())
    {
        m_partial.erase(msg);
        ++m_msgsReceived;
        m_bytesReceived += h.GetMessageLength();
        if (!m_receive.IsNull())
        {
            m_receive(h.GetSourceNode(), h.GetSourceContext(), h.GetHandler(),
                      h.GetMessageLength());
        }
    }
}

} // namespace clusternet
} // namespace ns3
