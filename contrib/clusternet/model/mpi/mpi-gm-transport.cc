// SPDX-License-Identifier: GPL-2.0-only
#include "mpi-gm-transport.h"

#include "ns3/host-cpu.h"

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
MpiGmTransport::SetPeers(const std::vector<Ptr<MpiGmTransport>>& peers)
{
    m_peers = peers;
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
MpiGmTransport::Announce(uint32_t src, const MpiEnvelope& envelope)
{
    m_inbound[m_nodes.at(src)].push_back(envelope);
}

void
MpiGmTransport::Send(const MpiEnvelope& env, uint32_t envelopeBytes, std::function<void()> written)
{
    NS_LOG_FUNCTION(this << env);
    bool zeroCopy = env.kind == MpiEnvelope::DATA;
    uint32_t bytes = zeroCopy ? env.payload : envelopeBytes + env.payload;
    if (env.kind == MpiEnvelope::CTS)
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
    if (m_sending || m_pending.empty() || m_port->GetSendTokens() == 0)
    {
        return;
    }
    PendingSend s = m_pending.front();
    m_pending.pop_front();
    m_sending = true;
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
    m_peers.at(s.envelope.dst)->Announce(m_rank, s.envelope);
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
    {
        if (ev.type == GmEvent::SENT)
        {
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
        std::deque<MpiEnvelope>& in = m_inbound[ev.node];
        NS_ASSERT_MSG(!in.empty(), "MpiGmTransport: a message nobody announced");
        MpiEnvelope env = in.front();
        in.pop_front();
        bool bounce = ev.address >= kBounceReceive && ev.address < kUserMemory;
        Time cost = (m_cpu && env.kind != MpiEnvelope::DATA) ? m_cpu->CopyCost(ev.length)
                                                             : Seconds(0);
        RunCpu(cost, [this, env, bounce, ev]() {
            if (bounce)
            {
                Provide(m_bounceSize, ev.address); // the bounce buffer goes back to GM
            }
            Deliver(env);
            Poll();
        });
    }
}

} // namespace clusternet
} // namespace ns3
