// SPDX-License-Identifier: GPL-2.0-only
#include "netpipe-application.h"

#include "ns3/host-cpu.h"
#include "ns3/host-stack.h"
#include "ns3/host-tcp-socket.h"

#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("NetpipeApplication");
NS_OBJECT_ENSURE_REGISTERED(NetpipeApplication);

TypeId
NetpipeApplication::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::NetpipeApplication")
            .SetParent<Application>()
            .SetGroupName("Clusternet")
            .AddConstructor<NetpipeApplication>()
            .AddAttribute("Role",
                          "Transmitter (times the ping-pong) or Receiver (echoes blocks).",
                          EnumValue(TRANSMITTER),
                          MakeEnumAccessor<Role>(&NetpipeApplication::m_role),
                          MakeEnumChecker(TRANSMITTER, "Transmitter", RECEIVER, "Receiver"))
            .AddAttribute("Remote",
                          "Transmitter: the receiver's address and port.",
                          AddressValue(),
                          MakeAddressAccessor(&NetpipeApplication::m_peer),
                          MakeAddressChecker())
            .AddAttribute("Port",
                          "Receiver: TCP port to listen on.",
                          UintegerValue(5002),
                          MakeUintegerAccessor(&NetpipeApplication::m_port),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("SocketBuffer",
                          "SO_SNDBUF/SO_RCVBUF requested on both sockets [bytes].",
                          UintegerValue(131072),
                          MakeUintegerAccessor(&NetpipeApplication::m_sockBuf),
                          MakeUintegerChecker<uint32_t>(4096, 64 << 20))
            .AddAttribute("MaxBlock",
                          "Largest block size [bytes].",
                          UintegerValue(1 << 21),
                          MakeUintegerAccessor(&NetpipeApplication::m_maxBlock),
                          MakeUintegerChecker<uint32_t>(1, 1 << 30))
            .AddAttribute("WriteChunk",
                          "Bytes the kernel copies into the socket per step of a write(); 0 "
                          "means one segment (MSS), as Linux fills one skb at a time [bytes].",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NetpipeApplication::m_writeChunk),
                          MakeUintegerChecker<uint32_t>(0))
            .AddAttribute("RunTime",
                          "Target duration of one timing, from which the repeat count follows "
                          "(NetPIPE's RUNTM, scaled down for simulation) [Time].",
                          TimeValue(MilliSeconds(2)),
                          MakeTimeAccessor(&NetpipeApplication::m_runTime),
                          MakeTimeChecker(MicroSeconds(1)))
            .AddAttribute("StopAfter",
                          "Stop after a block whose round trip exceeds this [Time].",
                          TimeValue(Seconds(1)),
                          MakeTimeAccessor(&NetpipeApplication::m_stopTime),
                          MakeTimeChecker(MicroSeconds(1)))
            .AddAttribute("Trials",
                          "Timings per block size; the fastest is kept [count].",
                          UintegerValue(2),
                          MakeUintegerAccessor(&NetpipeApplication::m_trials),
                          MakeUintegerChecker<uint32_t>(1, 100))
            .AddAttribute("MaxRepeats",
                          "Upper bound on round trips per timing [count].",
                          UintegerValue(20),
                          MakeUintegerAccessor(&NetpipeApplication::m_maxRepeats),
                          MakeUintegerChecker<uint32_t>(1, 100000))
            .AddTraceSource("Sample",
                            "A block size was measured: bytes and one-way time.",
                            MakeTraceSourceAccessor(&NetpipeApplication::m_sampleTrace),
                            "ns3::clusternet::NetpipeApplication::SampleCallback");
    return tid;
}

NetpipeApplication::NetpipeApplication()
{
    NS_LOG_FUNCTION(this);
}

NetpipeApplication::~NetpipeApplication()
{
    NS_LOG_FUNCTION(this);
}

void
NetpipeApplication::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_socket = nullptr;
    m_conn = nullptr;
    m_cpu = nullptr;
    m_peerApp = nullptr;
    m_doneCallback = MakeNullCallback<void>();
    Application::DoDispose();
}

std::vector<uint32_t>
NetpipeApplication::BlockSizes(uint32_t maxBlock, uint32_t pert)
{
    std::vector<uint32_t> sizes;
    uint32_t inc = 1;
    uint32_t nq = 0;
    for (uint64_t len = 1; len <= maxBlock; len += inc, ++nq)
    {
        if (nq > 2)
        {
            inc = (nq % 2) ? inc + inc : inc;
        }
        if (len > pert + 1 && pert > 0)
        {
            for (int64_t d : {-static_cast<int64_t>(pert), int64_t{0}, static_cast<int64_t>(pert)})
            {
                if (len + d <= maxBlock)
                {
                    sizes.push_back(static_cast<uint32_t>(len + d));
                }
            }
        }
        else
        {
            sizes.push_back(static_cast<uint32_t>(len));
        }
    }
    return sizes;
}

void
NetpipeApplication::SetPeerApplication(Ptr<NetpipeApplication> peer)
{
    m_peerApp = peer;
}

const std::vector<NetpipeApplication::Sample>&
NetpipeApplication::GetSamples() const
{
    return m_samples;
}

bool
NetpipeApplication::IsDone() const
{
    return m_done;
}

void
NetpipeApplication::SetDoneCallback(Callback<void> done)
{
    m_doneCallback = done;
}

void
NetpipeApplication::StartApplication()
{
    NS_LOG_FUNCTION(this);
    Ptr<Node> node = GetNode();
    m_cpu = node->GetObject<HostCpu>();
    m_socket = HostTcpSocket::CreateOn(node);
    Ptr<HostStack> stack = node->GetObject<HostStack>();
    Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
    NS_ABORT_MSG_UNLESS(stack && ipv4, "NetpipeApplication needs HostStack and an IPv4 stack");
    NS_ABORT_MSG_UNLESS(ipv4->GetNInterfaces() > 1, "NetpipeApplication: node has no interface");
    // The driver's receive buffer size sets what each segment costs the receive buffer; a
    // device that does not say (attribute RxBufferBytes) gets the stack's default.
    UintegerValue rxBuffer(0);
    ipv4->GetNetDevice(1)->GetAttributeFailSafe("RxBufferBytes", rxBuffer);
    stack->ConfigureSocket(m_socket, m_sockBuf, ipv4->GetMtu(1), rxBuffer.Get());
    if (m_writeChunk == 0)
    {
        m_writeChunk = stack->SegmentSize(ipv4->GetMtu(1));
    }
    if (m_role == RECEIVER)
    {
        m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port));
        m_socket->Listen();
        m_socket->SetAcceptCallback(MakeCallback(&NetpipeApplication::AcceptRequest, this),
                                    MakeCallback(&NetpipeApplication::NewConnection, this));
    }
    else
    {
        NS_ABORT_MSG_UNLESS(m_peerApp, "NetpipeApplication transmitter needs its peer application");
        m_sizes = BlockSizes(m_maxBlock);
        m_socket->Bind();
        m_socket->SetConnectCallback(MakeCallback(&NetpipeApplication::ConnectionSucceeded, this),
                                     MakeCallback(&NetpipeApplication::ConnectionFailed, this));
        m_socket->Connect(m_peer);
    }
}

void
NetpipeApplication::StopApplication()
{
    NS_LOG_FUNCTION(this);
    if (m_conn)
    {
        m_conn->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_conn->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
    }
}

void
NetpipeApplication::ConnectionSucceeded(Ptr<Socket> s)
{
    NS_LOG_FUNCTION(this << s);
    m_conn = s;
    m_conn->SetRecvCallback(MakeCallback(&NetpipeApplication::DataArrived, this));
    m_conn->SetSendCallback(MakeCallback(&NetpipeApplication::WriteMore, this));
    StartSize();
}

void
NetpipeApplication::ConnectionFailed(Ptr<Socket> s)
{
    NS_FATAL_ERROR("NetPIPE: connection to the receiver failed");
}

bool
NetpipeApplication::AcceptRequest(Ptr<Socket> s, const Address& from)
{
    return !m_conn; // one connection, as NetPIPE
}

void
NetpipeApplication::NewConnection(Ptr<Socket> s, const Address& from)
{
    NS_LOG_FUNCTION(this << s << from);
    m_conn = s;
    m_conn->SetRecvCallback(MakeCallback(&NetpipeApplication::DataArrived, this));
    m_conn->SetSendCallback(MakeCallback(&NetpipeApplication::WriteMore, this));
}

// ---------------------------------------------------------------- data movement

void
NetpipeApplication::ExpectBlock(uint32_t bytes)
{
    m_blockBytes = bytes;
    m_toRead = bytes;
}

void
NetpipeApplication::SendBlock(uint32_t bytes)
{
    NS_LOG_FUNCTION(this << bytes);
    NS_ASSERT_MSG(m_toWrite == 0, "NetPIPE: a write is still in progress");
    m_toWrite = bytes;
    // write(): one system call for the whole block; the kernel copies it in chunks.
    Time cost = m_cpu ? m_cpu->GetSyscallCost() : Seconds(0);
    auto start = [this]() { WriteMore(m_conn, 0); };
    if (m_cpu)
    {
        m_cpu->Execute(cost, HostCpu::USER, start);
    }
    else
    {
        start();
    }
}

void
NetpipeApplication::WriteMore(Ptr<Socket> s, uint32_t available)
{
    if (m_writing || m_toWrite == 0 || !m_conn)
    {
        return;
    }
    uint32_t room = m_conn->GetTxAvailable();
    if (room == 0)
    {
        return; // blocked in write() until the send callback says there is room
    }
    uint32_t chunk = std::min({m_toWrite, room, m_writeChunk});
    m_writing = true;
    if (m_cpu)
    {
        m_cpu->Execute(m_cpu->CopyCost(chunk),
                       HostCpu::USER,
                       MakeCallback(&NetpipeApplication::WriteChunkDone, this, chunk));
    }
    else
    {
        WriteChunkDone(chunk);
    }
}

void
NetpipeApplication::WriteChunkDone(uint32_t chunk)
{
    m_writing = false;
    int sent = m_conn->Send(Create<Packet>(chunk));
    NS_ASSERT_MSG(sent == static_cast<int>(chunk), "NetPIPE: socket refused a chunk it had room for");
    m_toWrite -= chunk;
    WriteMore(m_conn, 0);
}

void
NetpipeApplication::DataArrived(Ptr<Socket> s)
{
    if (m_reading || m_toRead == 0)
    {
        return;
    }
    uint32_t avail = m_conn->GetRxAvailable();
    if (avail == 0)
    {
        return;
    }
    Ptr<Packet> p = m_conn->Recv(std::min(avail, m_toRead), 0);
    uint32_t bytes = p->GetSize();
    m_reading = true;
    // read(): wake-up and system call, then the copy out of the socket buffer.
    if (m_cpu)
    {
        m_cpu->Execute(m_cpu->GetSyscallCost() + m_cpu->CopyCost(bytes),
                       HostCpu::USER,
                       MakeCallback(&NetpipeApplication::ReadDone, this, bytes));
    }
    else
    {
        ReadDone(bytes);
    }
}

void
NetpipeApplication::ReadDone(uint32_t bytes)
{
    m_reading = false;
    NS_ASSERT_MSG(bytes <= m_toRead, "NetPIPE: read past the block");
    m_toRead -= bytes;
    if (m_toRead == 0)
    {
        BlockReceived();
    }
    else
    {
        DataArrived(m_conn);
    }
}

void
NetpipeApplication::BlockReceived()
{
    if (m_role == RECEIVER)
    {
        // Echo the block, then wait for the next one of the same size.
        m_toRead = m_blockBytes;
        SendBlock(m_blockBytes);
        DataArrived(m_conn);
    }
    else
    {
        RoundTripDone();
    }
}

// ---------------------------------------------------------------- transmitter schedule

void
NetpipeApplication::StartSize()
{
    if (m_sizeIndex >= m_sizes.size())
    {
        m_done = true;
        if (!m_doneCallback.IsNull())
        {
            m_doneCallback();
        }
        return;
    }
    uint32_t bytes = m_sizes[m_sizeIndex];
    m_blockBytes = bytes;
    m_peerApp->ExpectBlock(bytes);
    m_best = Time::Max();
    m_warmup = true;
    m_timingStart = Simulator::Now();
    m_toRead = bytes;
    SendBlock(bytes);
}

void
NetpipeApplication::StartTiming()
{
    m_timingStart = Simulator::Now();
    m_roundTripsLeft = m_repeats;
    m_toRead = m_blockBytes;
    SendBlock(m_blockBytes);
}

void
NetpipeApplication::RoundTripDone()
{
    Time now = Simulator::Now();
    if (m_warmup)
    {
        m_warmup = false;
        Time rtt = now - m_timingStart;
        m_repeats = static_cast<uint32_t>(
            std::clamp<int64_t>(m_runTime.GetNanoSeconds() / std::max<int64_t>(rtt.GetNanoSeconds(), 1),
                                1,
                                m_maxRepeats));
        m_trialsLeft = m_trials;
        StartTiming();
        return;
    }
    if (--m_roundTripsLeft > 0)
    {
        m_toRead = m_blockBytes;
        SendBlock(m_blockBytes);
        return;
    }
    Time oneWay = (now - m_timingStart) / static_cast<int64_t>(2 * m_repeats);
    m_best = std::min(m_best, oneWay);
    if (--m_trialsLeft > 0)
    {
        StartTiming();
        return;
    }
    m_samples.push_back({m_blockBytes, m_best, m_repeats});
    m_sampleTrace(m_blockBytes, m_best);
    NS_LOG_INFO("NetPIPE " << m_blockBytes << " bytes: " << m_best.GetMicroSeconds() << " us");
    ++m_sizeIndex;
    if (m_best * 2 > m_stopTime)
    {
        m_sizeIndex = m_sizes.size();
    }
    StartSize();
}

} // namespace clusternet
} // namespace ns3
