// SPDX-License-Identifier: GPL-2.0-only
#include "host-stack.h"

#include "host-tcp-socket.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("HostStack");
NS_OBJECT_ENSURE_REGISTERED(HostStack);

TypeId
HostStack::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::HostStack")
            .SetParent<Object>()
            .SetGroupName("Clusternet")
            .AddConstructor<HostStack>()
            .AddAttribute("RcvBufMultiplier",
                          "Receive buffer memory the kernel grants per byte requested with "
                          "SO_RCVBUF [ratio] (Linux 2.2 doubles the request).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&HostStack::m_rcvBufMultiplier),
                          MakeDoubleChecker<double>(0.25, 4.0))
            .AddAttribute("WindowDivisor",
                          "The advertised window is the free receive memory divided by this "
                          "[ratio] (Linux: TCP_WINDOW_ADVERTISE_DIVISOR).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&HostStack::m_windowDivisor),
                          MakeUintegerChecker<uint32_t>(1, 16))
            .AddAttribute("SkbOverhead",
                          "Receive memory charged per segment beyond its receive buffer "
                          "(socket-buffer head) [bytes]. With 0 and a divisor of 1 the window "
                          "is plain payload space, as in ns-3.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&HostStack::m_skbOverhead),
                          MakeUintegerChecker<uint32_t>(0, 65536))
            .AddAttribute("QuantizeWindow",
                          "Advertise the window in whole segments (rounded down).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&HostStack::m_quantizeWindow),
                          MakeBooleanChecker())
            .AddAttribute("SndBufFraction",
                          "Usable send buffer as a fraction of the requested socket buffer "
                          "[ratio].",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&HostStack::m_sndBufFraction),
                          MakeDoubleChecker<double>(0.05, 4.0))
            .AddAttribute("Timestamps",
                          "RFC 1323 timestamps (12 option bytes per segment).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&HostStack::m_timestamps),
                          MakeBooleanChecker())
            .AddAttribute("WindowScaling",
                          "RFC 1323 window scaling (needed for windows over 64 KB).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&HostStack::m_windowScaling),
                          MakeBooleanChecker())
            .AddAttribute("DelAckCount",
                          "Full-sized segments received before an ACK is sent [segments].",
                          UintegerValue(2),
                          MakeUintegerAccessor(&HostStack::m_delAckCount),
                          MakeUintegerChecker<uint32_t>(1, 64))
            .AddAttribute("DelAckTimeout",
                          "Delayed-ACK timer [Time], at most 500 ms (RFC 1122 sec. 4.2.3.2: an "
                          "ACK must not be delayed longer).",
                          TimeValue(MilliSeconds(40)),
                          MakeTimeAccessor(&HostStack::m_delAckTimeout),
                          MakeTimeChecker(Seconds(0), MilliSeconds(500)))
            .AddAttribute("NoDelay",
                          "TCP_NODELAY (Nagle off), as NetPIPE and MPI libraries set it.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&HostStack::m_noDelay),
                          MakeBooleanChecker())
            .AddAttribute("InitialCwnd",
                          "Initial congestion window [segments].",
                          UintegerValue(2),
                          MakeUintegerAccessor(&HostStack::m_initialCwnd),
                          MakeUintegerChecker<uint32_t>(1, 1000))
            .AddAttribute("DefaultSocketBuffer",
                          "Socket buffer of a socket whose application never calls "
                          "setsockopt(SO_SNDBUF/SO_RCVBUF), as the request that would give the "
                          "same buffers [bytes].",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&HostStack::m_defaultSockBuf),
                          MakeUintegerChecker<uint32_t>(1024, 64u << 20));
    return tid;
}

HostStack::HostStack()
{
    NS_LOG_FUNCTION(this);
}

HostStack::~HostStack()
{
    NS_LOG_FUNCTION(this);
}

uint32_t
HostStack::SegmentTruesize(uint32_t rxBufferBytes) const
{
    return (rxBufferBytes + 15) / 16 * 16 + m_skbOverhead;
}

uint32_t
HostStack::MaxReceiveWindow(uint32_t sockbuf, uint16_t mtu) const
{
    uint32_t mss = SegmentSize(mtu);
    uint32_t w = static_cast<uint32_t>(sockbuf * m_rcvBufMultiplier) / m_windowDivisor;
    return (m_quantizeWindow && w > mss) ? w / mss * mss : w;
}

uint32_t
HostStack::GetDefaultSocketBuffer() const
{
    return m_defaultSockBuf;
}

uint32_t
HostStack::SegmentSize(uint16_t mtu) const
{
    // IP header 20 B + TCP header 20 B (+ 12 B timestamp option, padded)
    return mtu - 40 - (m_timestamps ? 12 : 0);
}

void
HostStack::ConfigureSocket(Ptr<Socket> socket,
                           uint32_t sockbuf,
                           uint16_t mtu,
                           uint32_t rxBufferBytes) const
{
    NS_LOG_FUNCTION(this << socket << sockbuf << mtu << rxBufferBytes);
    uint32_t mss = SegmentSize(mtu);
    uint32_t rcvMem = static_cast<uint32_t>(sockbuf * m_rcvBufMultiplier);
    socket->SetAttribute("SegmentSize", UintegerValue(mss));
    socket->SetAttribute("SndBufSize",
                         UintegerValue(static_cast<uint32_t>(sockbuf * m_sndBufFraction)));
    // ns-3's buffer holds at most the granted memory in payload; the kernel's accounting
    // (below) keeps the advertised window within it.
    socket->SetAttribute("RcvBufSize", UintegerValue(rcvMem));
    Ptr<HostTcpSocket> host = DynamicCast<HostTcpSocket>(socket);
    if (host && (m_windowDivisor > 1 || m_skbOverhead > 0 || m_quantizeWindow))
    {
        uint32_t buffer = rxBufferBytes ? rxBufferBytes : mtu + 20;
        host->SetBufferAccounting(rcvMem, SegmentTruesize(buffer), m_windowDivisor, m_quantizeWindow);
    }
    socket->SetAttribute("Timestamp", BooleanValue(m_timestamps));
    socket->SetAttribute("WindowScaling", BooleanValue(m_windowScaling));
    socket->SetAttribute("DelAckCount", UintegerValue(m_delAckCount));
    socket->SetAttribute("DelAckTimeout", TimeValue(m_delAckTimeout));
    socket->SetAttribute("TcpNoDelay", BooleanValue(m_noDelay));
    socket->SetAttribute("InitialCwnd", UintegerValue(m_initialCwnd));
}

} // namespace clusternet
} // namespace ns3
