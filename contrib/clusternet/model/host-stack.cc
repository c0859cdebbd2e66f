// SPDX-License-Identifier: GPL-2.0-only
#include "host-stack.h"

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
            .AddAttribute("RcvWindowFraction",
                          "Advertised receive window as a fraction of the requested socket "
                          "buffer (OS bookkeeping of skb overhead) [ratio].",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&HostStack::m_rcvWindowFraction),
                          MakeDoubleChecker<double>(0.05, 4.0))
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
                          "Delayed-ACK timer [Time].",
                          TimeValue(MilliSeconds(40)),
                          MakeTimeAccessor(&HostStack::m_delAckTimeout),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("NoDelay",
                          "TCP_NODELAY (Nagle off), as NetPIPE and MPI libraries set it.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&HostStack::m_noDelay),
                          MakeBooleanChecker())
            .AddAttribute("InitialCwnd",
                          "Initial congestion window [segments].",
                          UintegerValue(2),
                          MakeUintegerAccessor(&HostStack::m_initialCwnd),
                          MakeUintegerChecker<uint32_t>(1, 1000));
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
HostStack::SegmentSize(uint16_t mtu) const
{
    // IP header 20 B + TCP header 20 B (+ 12 B timestamp option, padded)
    return mtu - 40 - (m_timestamps ? 12 : 0);
}

uint32_t
HostStack::ReceiveWindow(uint32_t sockbuf) const
{
    return static_cast<uint32_t>(sockbuf * m_rcvWindowFraction);
}

void
HostStack::ConfigureSocket(Ptr<Socket> socket, uint32_t sockbuf, uint16_t mtu) const
{
    NS_LOG_FUNCTION(this << socket << sockbuf << mtu);
    socket->SetAttribute("SegmentSize", UintegerValue(SegmentSize(mtu)));
    socket->SetAttribute("SndBufSize",
                         UintegerValue(static_cast<uint32_t>(sockbuf * m_sndBufFraction)));
    socket->SetAttribute("RcvBufSize", UintegerValue(ReceiveWindow(sockbuf)));
    socket->SetAttribute("Timestamp", BooleanValue(m_timestamps));
    socket->SetAttribute("WindowScaling", BooleanValue(m_windowScaling));
    socket->SetAttribute("DelAckCount", UintegerValue(m_delAckCount));
    socket->SetAttribute("DelAckTimeout", TimeValue(m_delAckTimeout));
    socket->SetAttribute("TcpNoDelay", BooleanValue(m_noDelay));
    socket->SetAttribute("InitialCwnd", UintegerValue(m_initialCwnd));
}

} // namespace clusternet
} // namespace ns3
