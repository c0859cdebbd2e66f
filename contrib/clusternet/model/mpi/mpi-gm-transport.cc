// SPDX-License-Identifier: GPL-2.0-only
#include "mpi-gm-transport.h"

#include "ns3/host-cpu.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("MpiGmTransport");
NS_OBJECT_ENSURE_REGISTERED(MpiGmTransport);

namespace
{
constexpr uint64_t kBounceSend = uint64_t{3} << 28;    //!< registered send bounce buffers
constexpr uint64_t kBounceReceive = uint64_t{5} << 28; //!< provided receive bounce buffers
constexpr uint64_t kUserMemory = uint64_t{7} << 28;    //!< the user's (registered) buffer
constexpr uint64_t kLongReceive = uint64_t{9} << 28;   //!< buffers provided for long data
constexpr uint64_t kLongSlots = 16;                    //!< long receive regions in rotation

uint64_t
Stride(uint32_t bytes)
{
    return (uint64_t{bytes} + 4095) / 4096 * 4096;
}
} // namespace

TypeId
MpiGmTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::MpiGmTransport")
            .SetParent<MpiTransport>()
            .SetGroupName("Clusternet")
            .AddConstructor<MpiGmTransport>()
            .AddAttribute("BounceSize",
                          "Size of the registered buffers short packets are copied through "
                          "[bytes]; the eager limit plus the envelope.",
                          UintegerValue(16384 + 64),
                          MakeUintegerAccessor(&MpiGmTransport::m_bounceSize),
                          MakeUintegerChecker<uint32_t>(64, 1u << 24))
            .AddAttribute("ReceiveBuffers",
                          "Bounce buffers kept provided to GM for short packets [buffers].",
                          UintegerValue(16),
                          MakeUintegerAccessor(&MpiGmTransport::m_receiveBuffers),
                          MakeUintegerChecker<uint32_t>(1, 1024))
            .AddAttribute("LongDataCopied",
                          "Send a long message's data through the bounce buffers, in fragments "
                          "of BounceSize less the envelope, copied in by the sender and out by "
                          "the receiver (true), instead of zero-copy between the users' "
                          "registered buffers (false).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&MpiGmTransport::m_longDataCopied),
                          MakeBooleanChecker())
            .AddAttribute("MaxOutstandingFragments",
                          "Fragments of one long message in flight at once (sent, GM send "
                          "callback not yet returned) when LongDataCopied [fragments]; 0: no "
                          "limit but the GM send tokens.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MpiGmTransport::m_maxOutstanding),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("PortId",
                          "GM port the library opens [port number].",
                          UintegerValue(2),
                          MakeUintegerAccessor(&MpiGmTransport::m_portId),
                          MakeUintegerChecker<uint8_t>());
    return tid;
}

MpiGmTransport::MpiGmTransport()
{
}

MpiGmTransport::~MpiGmTransport()
{
}

void
MpiGmTransport::DoDispose()
{
    m_port = nullptr;
    m_cpu = nullptr;
    m_peers.clear();
    m_pending.clear();
    m_inFlight.clear();
    m_held.reset();
    m_inbound.clear();
    m_outstanding.clear();
    m_fragmentOf.clear();
    MpiTransport::DoDispose();
}

void
MpiGmTransport::Setup(Ptr<GmPort> port,
                      Ptr<HostCpu> cpu,
                      uint32_t rank,
                      const std::vector<uint16_t>& nodes)
{
    m_port = port;
    m_cpu = cpu;
    m_rank = rank;
    m_nodes = nodes;
    uint32_t n = std::min(m_receiveBuffers, port->GetReceiveTokens() / 2);
    for (uint32_t i = 0; i < n; ++i)
    {
        Provide(m_bounceSize, kBounceReceive + i * Stride(m_bounceSize));
    }
    Poll();
}

void
MpiGmTransport::SetPeers(const std::vector<Ptr<MpiTransport>>& peers)
{
    m_peers = PeersAs<MpiGmTransport>(peers);
}

void
MpiGmTransport::RunCpu(Time cost, std::function<void()> done)
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
MpiGmTransport::Provide(uint32_t size, uint64_t address)
{
    m_port->ProvideReceiveBuffer(size, address, nullptr);
}

void
MpiGmTransport::Announce(uint32_t src, const Inbound& inbound)
{
    m_inbound[m_nodes.at(src)].push_back(inbound);
}

std::string
MpiGmTransport::CheckBounce(uint32_t bounceSize, uint32_t envelopeBytes)
{
    if (bounceSize > envelopeBytes)
    {
        return "";
    }
    return "gmtransport.BounceSize=" + std::to_string(bounceSize) +
           " leaves no room after the envelope (mpi.EnvelopeBytes=" +
           std::to_string(envelopeBytes) + "); allowed: above EnvelopeBytes";
}

void
MpiGmTransport::Send(const MpiEnvelope& env, uint32_t envelopeBytes, std::function<void()> written)
{
    NS_LOG_FUNCTION(this << env);
    bool data = env.kind == MpiEnvelope::DATA;
    if (data && m_longDataCopied)
    {
        // Fragments of the bounce buffer's size, each with its envelope; the sender copies a
        // fragment in when it sends it, and the last one's send completion frees the user's
        // buffer.
        std::string bounce = CheckBounce(m_bounceSize, envelopeBytes);
        NS_ABORT_MSG_UNLESS(bounce.empty(), "MpiGmTransport: " << bounce);
        uint32_t room = m_bounceSize - envelopeBytes;
        uint32_t left = env.payload;
        do
        {
            uint32_t part = std::min(room, left);
            left -= part;
            PendingSend s{env, envelopeBytes + part, false, left == 0 ? written : nullptr};
            s.copyBytes = part;
            s.fragment = true;
            s.last = left == 0;
            m_pending.push_back(s);
        } while (left > 0);
        Kick();
        return;
    }
    bool zeroCopy = data;
    uint32_t bytes = zeroCopy ? env.payload : envelopeBytes + env.payload;
    if (env.kind == MpiEnvelope::CTS && !m_longDataCopied)
    {
        // The long data will land straight in the user's buffer: provide it now.
        Provide(env.length, kLongReceive + (m_nextLongAddress++ % kLongSlots) * Stride(env.length));
    }
    if (zeroCopy)
    {
        m_pending.push_back({env, bytes, true, written});
        Kick();
        return;
    }
    // Copy the envelope and the data into a registered bounce buffer.
    Time cost = m_cpu ? m_cpu->CopyCost(bytes) : Seconds(0);
    RunCpu(cost, [this, env, bytes, written]() {
        m_pending.push_back({env, bytes, false, nullptr});
        Kick();
        if (written)
        {
            written();
        }
    });
}

void
MpiGmTransport::Kick()
{
    if (m_sending || m_port->GetSendTokens() == 0)
    {
        return;
    }
    // The first send not held back by its message's limit of fragments in flight.
    auto it = m_pending.begin();
    while (it != m_pending.end() && it->fragment && m_maxOutstanding > 0 &&
           m_outstanding[it->envelope.id] >= m_maxOutstanding)
    {
        ++it;
    }
    if (it == m_pending.end())
    {
        return;
    }
    PendingSend s = *it;
    m_pending.erase(it);
    m_sending = true;
    if (s.copyBytes > 0 && m_cpu)
    {
        RunCpu(m_cpu->CopyCost(s.copyBytes), [this, s]() { Post(s); });
        return;
    }
    Post(s);
}

void
MpiGmTransport::Post(const PendingSend& s)
{
    // Send bounce buffers come from a free list used as a stack (the buffer freed last is
    // taken first), so a ping-pong keeps reusing one buffer, as a library's free list does.
    uint64_t slot = 0;
    if (!s.zeroCopy)
    {
        if (m_freeSendSlots.empty())
        {
            m_freeSendSlots.push_back(m_sendSlots++);
        }
        slot = m_freeSendSlots.back();
        m_freeSendSlots.pop_back();
    }
    uint64_t address = s.zeroCopy ? kUserMemory : kBounceSend + slot * Stride(m_bounceSize);
    bool bounce = !s.zeroCopy;
    Ptr<Packet> message = Create<Packet>(s.bytes);
    if (s.written)
    {
        m_inFlight[message->GetUid()] = s.written;
    }
    if (s.fragment)
    {
        ++m_outstanding[s.envelope.id];
        m_fragmentOf[message->GetUid()] = s.envelope.id;
    }
    m_peers.at(s.envelope.dst)->Announce(m_rank, {s.envelope, s.fragment, s.copyBytes, s.last});
    m_port->Send(m_nodes.at(s.envelope.dst), m_portId, message, address, [this, bounce, slot]() {
        m_sending = false;
        if (bounce)
        {
            m_freeSendSlots.push_back(slot); // the send completed: its buffer is free
        }
        Kick();
    });
}

void
MpiGmTransport::Poll()
{
    m_port->WaitEvent([this](const GmEvent& ev) {
        if (!IsProgressing())
        {
            m_held = ev; // a polling library calls gm_receive only inside MPI calls
            return;
        }
        Handle(ev);
    });
}

void
MpiGmTransport::Resume()
{
    if (m_held)
    {
        GmEvent ev = *m_held;
        m_held.reset();
        Handle(ev);
    }
}

void
MpiGmTransport::Handle(const GmEvent& ev)
{
    if (ev.type == GmEvent::SENT)
    {
        auto frag = m_fragmentOf.find(ev.message->GetUid());
        if (frag != m_fragmentOf.end())
        {
            auto out = m_outstanding.find(frag->second);
            NS_ASSERT_MSG(out != m_outstanding.end() && out->second > 0,
                          "MpiGmTransport: a fragment returned that was not in flight");
            if (--out->second == 0)
            {
                m_outstanding.erase(out);
            }
            m_fragmentOf.erase(frag);
        }
        auto it = m_inFlight.find(ev.message->GetUid());
        if (it != m_inFlight.end())
        {
            std::function<void()> written = it->second;
            m_inFlight.erase(it);
            written(); // the user's buffer may be reused
        }
        Kick();
        Poll();
        return;
    }
    std::deque<Inbound>& in = m_inbound[ev.node];
    NS_ASSERT_MSG(!in.empty(), "MpiGmTransport: a message nobody announced");
    Inbound msg = in.front();
    in.pop_front();
    const MpiEnvelope& env = msg.envelope;
    bool bounce = ev.address >= kBounceReceive && ev.address < kUserMemory;
    Time cost = Seconds(0);
    if (m_cpu && (env.kind != MpiEnvelope::DATA || msg.fragment))
    {
        cost = m_cpu->CopyCost(msg.fragment ? msg.bytes : ev.length);
    }
    RunCpu(cost, [this, msg, bounce, ev]() {
        if (bounce)
        {
            Provide(m_bounceSize, ev.address); // the bounce buffer goes back to GM
        }
        if (msg.last)
        {
            Deliver(msg.envelope);
        }
        Poll();
    });
}

} // namespace clusternet
} // namespace ns3
