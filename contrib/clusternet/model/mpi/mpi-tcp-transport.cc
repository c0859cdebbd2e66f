// SPDX-License-Identifier: GPL-2.0-only
#include "mpi-tcp-transport.h"

#include "ns3/host-cpu.h"
#include "ns3/host-stack.h"
#include "ns3/host-tcp-socket.h"

#include "ns3/boolean.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("MpiTcpTransport");
NS_OBJECT_ENSURE_REGISTERED(MpiTcpTransport);

TypeId
MpiTcpTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::MpiTcpTransport")
            .SetParent<MpiTransport>()
            .SetGroupName("Clusternet")
            .AddConstructor<MpiTcpTransport>()
            .AddAttribute("SocketBuffer",
                          "SO_SNDBUF/SO_RCVBUF the MPI library requests for every connection "
                          "[bytes] (applied through the host's HostStack).",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&MpiTcpTransport::m_sockBuf),
                          MakeUintegerChecker<uint32_t>(1024, 64u << 20))
            .AddAttribute("SetSocketBuffer",
                          "The library applies SocketBuffer with setsockopt(); false: its "
                          "sockets keep the kernel's default buffers (the host's HostStack "
                          "DefaultSocketBuffer).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MpiTcpTransport::m_setSockBuf),
                          MakeBooleanChecker())
            .AddAttribute("Port",
                          "TCP port every rank listens on [port].",
                          UintegerValue(4000),
                          MakeUintegerAccessor(&MpiTcpTransport::m_port),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("TcpNoDelay",
                          "Set TCP_NODELAY on every connection (Nagle off), as LAM and MPICH do.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MpiTcpTransport::m_noDelay),
                          MakeBooleanChecker())
            .AddAttribute("AfdBuffering",
                          "Windows AFD send semantics with Nagle on: a send() that fits the "
                          "socket's send buffer is copied and pushed whole (its last, short "
                          "segment goes at once); a larger one is sent from the user's buffer "
                          "and its last short segment waits, under Nagle, for the ACK of "
                          "everything before it (Microsoft KB 214397). No effect with "
                          "TcpNoDelay.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&MpiTcpTransport::m_afdBuffering),
                          MakeBooleanChecker())
            .AddAttribute("EnvelopeRead",
                          "The library reads each packet's envelope with a read() of its own, "
                          "then the data.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MpiTcpTransport::m_envelopeRead),
                          MakeBooleanChecker())
            .AddAttribute("EnvelopeWrite",
                          "The library writes each packet's envelope with a write() of its own, "
                          "then the data (with TCP_NODELAY, two segments for a short message); "
                          "false: one writev() for both.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&MpiTcpTransport::m_envelopeWrite),
                          MakeBooleanChecker())
            .AddAttribute("SelectPolling",
                          "Non-blocking sockets driven by select(): a select() system call "
                          "before every read and before every write resumed after the send "
                          "buffer filled.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MpiTcpTransport::m_select),
                          MakeBooleanChecker());
    return tid;
}

MpiTcpTransport::MpiTcpTransport()
{
    NS_LOG_FUNCTION(this);
}

MpiTcpTransport::~MpiTcpTransport()
{
    NS_LOG_FUNCTION(this);
}

void
MpiTcpTransport::DoDispose()
{
    for (auto& [s, c] : m_connections)
    {
        s->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        s->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
    }
    m_connections.clear();
    m_held.clear();
    m_sendSocket.clear();
    m_inbound.clear();
    m_peers.clear();
    m_listener = nullptr;
    m_node = nullptr;
    m_cpu = nullptr;
    MpiTransport::DoDispose();
}

void
MpiTcpTransport::Setup(Ptr<Node> node, uint32_t rank, const std::vector<Ipv4Address>& addresses)
{
    NS_LOG_FUNCTION(this << node << rank);
    m_node = node;
    m_rank = rank;
    m_addresses = addresses;
    m_cpu = node->GetObject<HostCpu>();
    Ptr<HostStack> stack = node->GetObject<HostStack>();
    Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
    NS_ABORT_MSG_UNLESS(ipv4 && ipv4->GetNInterfaces() > 1, "MpiTcpTransport: node has no IPv4 interface");
    m_chunk = stack ? stack->SegmentSize(ipv4->GetMtu(1)) : 1448;
    m_listener = NewSocket();
    m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port));
    m_listener->Listen();
    m_listener->SetAcceptCallback(MakeCallback(&MpiTcpTransport::AcceptRequest, this),
                                  MakeCallback(&MpiTcpTransport::NewConnection, this));
}

void
MpiTcpTransport::SetPeers(const std::vector<Ptr<MpiTransport>>& peers)
{
    m_peers = PeersAs<MpiTcpTransport>(peers);
}

uint32_t
MpiTcpTransport::GetConnections() const
{
    return m_connections.size();
}

Ptr<Socket>
MpiTcpTransport::GetSocket(uint32_t peer) const
{
    for (const auto& [s, c] : m_connections)
    {
        if (c.peer == peer)
        {
            return s;
        }
    }
    return nullptr;
}

Ptr<Socket>
MpiTcpTransport::NewSocket()
{
    Ptr<Socket> s = HostTcpSocket::CreateOn(m_node);
    Configure(s);
    return s;
}

void
MpiTcpTransport::Configure(Ptr<Socket> s) const
{
    Ptr<HostStack> stack = m_node->GetObject<HostStack>();
    Ptr<Ipv4> ipv4 = m_node->GetObject<Ipv4>();
    if (stack)
    {
        stack->ConfigureSocket(s,
                               m_setSockBuf ? m_sockBuf : stack->GetDefaultSocketBuffer(),
                               ipv4->GetMtu(1));
    }
    s->SetAttribute("TcpNoDelay", BooleanValue(m_noDelay));
}

MpiTcpTransport::Connection&
MpiTcpTransport::Adopt(Ptr<Socket> s, uint32_t peer)
{
    Connection& c = m_connections[s];
    c.socket = s;
    c.peer = peer;
    s->SetRecvCallback(MakeCallback(&MpiTcpTransport::DataArrived, this));
    s->SetSendCallback(MakeCallback(&MpiTcpTransport::WriteMore, this));
    return c;
}

bool
MpiTcpTransport::AcceptRequest(Ptr<Socket> s, const Address& from)
{
    return true;
}

void
MpiTcpTransport::NewConnection(Ptr<Socket> s, const Address& from)
{
    Ipv4Address ip = InetSocketAddress::ConvertFrom(from).GetIpv4();
    uint32_t peer = 0;
    while (peer < m_addresses.size() && m_addresses[peer] != ip)
    {
        ++peer;
    }
    NS_ABORT_MSG_IF(peer == m_addresses.size(), "MpiTcpTransport: connection from a non-rank " << ip);
    NS_LOG_FUNCTION(this << m_rank << "accepted" << peer);
    Adopt(s, peer);
    DataArrived(s); // bytes may have arrived with the handshake
}

void
MpiTcpTransport::RunCpu(Time cost, std::function<void()> done)
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

// ---------------------------------------------------------------- send

void
MpiTcpTransport::Send(const MpiEnvelope& env, uint32_t envelopeBytes, std::function<void()> written)
{
    NS_LOG_FUNCTION(this << env);
    NS_ASSERT_MSG(env.src == m_rank && env.dst < m_peers.size() && env.dst != m_rank,
                  "MpiTcpTransport: bad envelope " << env);
    auto it = m_sendSocket.find(env.dst);
    if (it == m_sendSocket.end())
    {
        // The first packet to this peer: use a connection it opened, else open one.
        Ptr<Socket> s;
        for (auto& [sock, c] : m_connections)
        {
            if (c.peer == env.dst)
            {
                s = sock;
                break;
            }
        }
        if (!s)
        {
            s = NewSocket();
            s->Bind();
            s->Connect(InetSocketAddress(m_addresses[env.dst], m_port));
            Adopt(s, env.dst);
        }
        it = m_sendSocket.emplace(env.dst, s).first;
    }
    uint32_t bytes = envelopeBytes + env.payload;
    m_peers[env.dst]->Announce(m_rank, env, bytes, envelopeBytes);
    Connection& c = m_connections.at(it->second);
    bool wasIdle = c.writes.empty();
    if (m_envelopeWrite && env.payload > 0 && envelopeBytes > 0)
    {
        c.writes.push_back({envelopeBytes, nullptr});
        c.writes.push_back({env.payload, written});
    }
    else
    {
        c.writes.push_back({bytes, written});
    }
    if (wasIdle)
    {
        WriteMore(c.socket, 0);
    }
}

void
MpiTcpTransport::Hold(Ptr<Socket> s)
{
    if (std::find(m_held.begin(), m_held.end(), s) == m_held.end())
    {
        m_held.push_back(s);
    }
}

void
MpiTcpTransport::Resume()
{
    std::vector<Ptr<Socket>> held;
    held.swap(m_held);
    for (const Ptr<Socket>& s : held)
    {
        WriteMore(s, 0);
        DataArrived(s);
    }
}

void
MpiTcpTransport::WriteMore(Ptr<Socket> s, uint32_t)
{
    auto it = m_connections.find(s);
    if (it == m_connections.end())
    {
        return;
    }
    if (!IsProgressing())
    {
        Hold(s); // a polling library writes only inside MPI calls
        return;
    }
    Connection& c = it->second;
    if (c.copying || c.writes.empty())
    {
        return;
    }
    if (!c.writeStarted)
    {
        // write(): one system call per packet, then the copies.
        c.writeStarted = true;
        c.toWrite = c.writes.front().bytes;
        if (m_afdBuffering && !m_noDelay)
        {
            UintegerValue sndbuf;
            s->GetAttribute("SndBufSize", sndbuf);
            s->SetAttribute("TcpNoDelay", BooleanValue(c.toWrite <= sndbuf.Get()));
        }
        c.copying = true;
        RunCpu(m_cpu ? m_cpu->GetSyscallCost() : Seconds(0), [this, s]() {
            m_connections.at(s).copying = false;
            WriteMore(s, 0);
        });
        return;
    }
    uint32_t room = s->GetTxAvailable();
    if (room == 0)
    {
        c.stalled = true;
        return; // blocked until the send callback reports room
    }
    if (c.stalled && m_select && m_cpu)
    {
        // Non-blocking: select() reports the socket writable, then a new write() call.
        c.stalled = false;
        c.copying = true;
        RunCpu(m_cpu->GetSyscallCost() * 2, [this, s]() {
            m_connections.at(s).copying = false;
            WriteMore(s, 0);
        });
        return;
    }
    c.stalled = false;
    uint32_t chunk = std::min({c.toWrite, room, m_chunk});
    c.copying = true;
    RunCpu(m_cpu ? m_cpu->CopyCost(chunk) : Seconds(0), [this, s, chunk]() { ChunkCopied(s, chunk); });
}

void
MpiTcpTransport::ChunkCopied(Ptr<Socket> s, uint32_t chunk)
{
    Connection& c = m_connections.at(s);
    c.copying = false;
    int sent = s->Send(Create<Packet>(chunk));
    NS_ASSERT_MSG(sent == static_cast<int>(chunk), "MpiTcpTransport: socket refused a chunk");
    c.toWrite -= chunk;
    if (c.toWrite == 0)
    {
        std::function<void()> written = c.writes.front().written;
        c.writes.pop_front();
        c.writeStarted = false;
        if (written)
        {
            written();
        }
    }
    WriteMore(s, 0);
}

// ---------------------------------------------------------------- receive

void
MpiTcpTransport::Announce(uint32_t src,
                          const MpiEnvelope& env,
                          uint32_t bytes,
                          uint32_t envelopeBytes)
{
    m_inbound[src].push_back({env, bytes, bytes, envelopeBytes});
}

void
MpiTcpTransport::DataArrived(Ptr<Socket> s)
{
    auto it = m_connections.find(s);
    if (it == m_connections.end() || it->second.reading)
    {
        return;
    }
    if (!IsProgressing())
    {
        Hold(s); // a polling library reads only inside MPI calls
        return;
    }
    Connection& c = it->second;
    uint32_t avail = s->GetRxAvailable();
    if (avail == 0)
    {
        return;
    }
    std::deque<Inbound>& in = m_inbound[c.peer];
    NS_ASSERT_MSG(!in.empty(), "MpiTcpTransport: bytes from rank " << c.peer << " nobody announced");
    // read(): up to the end of the packet being read (or of its envelope, read first).
    const Inbound& head = in.front();
    uint32_t done = head.total - head.remaining;
    uint32_t want = head.remaining;
    if (m_envelopeRead && done < head.envelopeBytes && head.total > head.envelopeBytes)
    {
        want = head.envelopeBytes - done; // the rest of the envelope
    }
    Ptr<Packet> p = s->Recv(std::min(avail, want), 0);
    uint32_t bytes = p->GetSize();
    c.reading = true;
    Time cost = Seconds(0);
    if (m_cpu)
    {
        cost = m_cpu->GetSyscallCost() * (m_select ? 2 : 1) + m_cpu->CopyCost(bytes);
    }
    RunCpu(cost, [this, s, bytes]() { ReadDone(s, bytes); });
}

void
MpiTcpTransport::ReadDone(Ptr<Socket> s, uint32_t bytes)
{
    Connection& c = m_connections.at(s);
    c.reading = false;
    std::deque<Inbound>& in = m_inbound[c.peer];
    NS_ASSERT_MSG(bytes <= in.front().remaining, "MpiTcpTransport: read past a packet");
    Inbound& head = in.front();
    uint32_t before = head.total - head.remaining;
    head.remaining -= bytes;
    if (head.envelope.payload > 0 && before < head.envelopeBytes &&
        head.total - head.remaining >= head.envelopeBytes)
    {
        DeliverHeader(head.envelope); // the envelope is in; the data follows
    }
    if (in.front().remaining == 0)
    {
        MpiEnvelope env = in.front().envelope;
        in.pop_front();
        Deliver(env);
    }
    DataArrived(s);
}

} // namespace clusternet
} // namespace ns3
