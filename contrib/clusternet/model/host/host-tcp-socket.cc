// SPDX-License-Identifier: GPL-2.0-only
#include "host-tcp-socket.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/rtt-estimator.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-recovery-ops.h"
#include "ns3/tcp-rx-buffer.h"
#include "ns3/tcp-congestion-ops.h"

#include <algorithm>

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("HostTcpSocket");
NS_OBJECT_ENSURE_REGISTERED(HostTcpSocket);

TypeId
HostTcpSocket::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::HostTcpSocket")
            .SetParent<TcpSocketBase>()
            .SetGroupName("Clusternet")
            .AddConstructor<HostTcpSocket>()
            .AddAttribute("WindowUpdate",
                          "Send a pure ACK when a read opens the receive window significantly.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&HostTcpSocket::m_windowUpdate),
                          MakeBooleanChecker())
            .AddAttribute("BoundMssToHalfWindow",
                          "Bound the segment size to half the largest window the peer "
                          "advertised, as Linux does (tcp_current_mss).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&HostTcpSocket::m_boundMss),
                          MakeBooleanChecker());
    return tid;
}

HostTcpSocket::HostTcpSocket()
    : m_windowUpdate(true),
      m_boundMss(true)
{
}

HostTcpSocket::HostTcpSocket(const HostTcpSocket& sock)
    : TcpSocketBase(sock),
      m_windowUpdate(sock.m_windowUpdate),
      m_boundMss(sock.m_boundMss),
      m_maxWindow(sock.m_maxWindow),
      m_mssConfigured(sock.m_mssConfigured),
      m_memRcvBuf(sock.m_memRcvBuf),
      m_truesize(sock.m_truesize),
      m_divisor(sock.m_divisor),
      m_quantize(sock.m_quantize)
{
}

HostTcpSocket::~HostTcpSocket()
{
}

Ptr<HostTcpSocket>
HostTcpSocket::CreateOn(Ptr<Node> node)
{
    Ptr<TcpL4Protocol> tcp = node->GetObject<TcpL4Protocol>();
    NS_ABORT_MSG_UNLESS(tcp, "HostTcpSocket::CreateOn: node has no TCP (install the internet stack)");
    Ptr<HostTcpSocket> s = CreateObject<HostTcpSocket>();
    s->SetNode(node);
    s->SetTcp(tcp);
    s->SetRtt(CreateObject<RttMeanDeviation>());
    s->SetCongestionControlAlgorithm(CreateObject<TcpNewReno>());
    s->SetRecoveryAlgorithm(CreateObject<TcpClassicRecovery>());
    tcp->AddSocket(s);
    return s;
}

void
HostTcpSocket::BoundSegmentSize(uint32_t window)
{
    if (!m_boundMss)
    {
        return;
    }
    if (m_mssConfigured == 0)
    {
        m_mssConfigured = m_tcb->m_segmentSize;
    }
    m_maxWindow = std::max(m_maxWindow, window);
    if (m_maxWindow == 0)
    {
        return;
    }
    uint32_t cutoff = m_maxWindow > 536 ? m_maxWindow / 2 : m_maxWindow;
    m_tcb->m_segmentSize = std::max<uint32_t>(std::min(m_mssConfigured, cutoff), 1);
}

uint32_t
HostTcpSocket::GetEffectiveSegmentSize() const
{
    return m_tcb->m_segmentSize;
}

int
HostTcpSocket::Send(Ptr<Packet> p, uint32_t flags)
{
    BoundSegmentSize(m_rWnd.Get());
    return TcpSocketBase::Send(p, flags);
}

void
HostTcpSocket::ReceivedAck(Ptr<Packet> packet, const TcpHeader& tcpHeader)
{
    uint32_t window = static_cast<uint32_t>(tcpHeader.GetWindowSize()) << m_sndWindShift;
    BoundSegmentSize(window);
    TcpSocketBase::ReceivedAck(packet, tcpHeader);
}

Ptr<TcpSocketBase>
HostTcpSocket::Fork()
{
    return CopyObject<HostTcpSocket>(this);
}

void
HostTcpSocket::SetBufferAccounting(uint32_t rcvbuf, uint32_t truesize, uint32_t divisor, bool quantize)
{
    NS_LOG_FUNCTION(this << rcvbuf << truesize << divisor << quantize);
    NS_ASSERT_MSG(divisor >= 1, "window divisor must be at least 1");
    m_memRcvBuf = rcvbuf;
    m_truesize = truesize;
    m_divisor = divisor;
    m_quantize = quantize;
}

uint32_t
HostTcpSocket::GetReceiveWindow() const
{
    // ns-3's window: payload space left in the receive buffer.
    uint32_t space =
        m_tcb->m_rxBuffer->MaxRxSequence() - m_tcb->m_rxBuffer->NextRxSequence();
    if (m_memRcvBuf == 0 || m_tcb->m_rxBuffer->GotFin())
    {
        return space;
    }
    uint32_t mss = m_tcb->m_segmentSize;
    // Memory charged for the data held (in order and out of order), segment by segment.
    uint64_t held = m_tcb->m_rxBuffer->Size();
    uint64_t charged = (held * m_truesize + mss - 1) / mss;
    uint64_t freeMem = charged < m_memRcvBuf ? m_memRcvBuf - charged : 0;
    uint64_t window = freeMem / m_divisor;
    if (m_quantize && window > mss)
    {
        window = window / mss * mss;
    }
    return static_cast<uint32_t>(std::min<uint64_t>(window, space));
}

uint16_t
HostTcpSocket::AdvertisedWindowSize(bool scale) const
{
    // Remember the right edge offered to the sender, for the window update after a read.
    auto self = const_cast<HostTcpSocket*>(this);
    self->m_advEdge = m_tcb->m_rxBuffer->NextRxSequence() + SequenceNumber32(GetReceiveWindow());
    self->m_advEdgeValid = true;
    if (m_memRcvBuf == 0)
    {
        return TcpSocketBase::AdvertisedWindowSize(scale);
    }
    uint32_t w = GetReceiveWindow();
    if (w != m_advWnd)
    {
        const_cast<HostTcpSocket*>(this)->m_advWnd = w; // traced value, as the base class does
    }
    if (scale)
    {
        w >>= m_rcvWindShift;
    }
    return static_cast<uint16_t>(std::min<uint32_t>(w, m_maxWinSize));
}

Ptr<Packet>
HostTcpSocket::Recv(uint32_t maxSize, uint32_t flags)
{
    Ptr<Packet> p = TcpSocketBase::Recv(maxSize, flags);
    if (!m_windowUpdate || !p || p->GetSize() == 0 || m_state != ESTABLISHED)
    {
        return p;
    }
    uint32_t window = GetReceiveWindow();
    // What the sender may still send: the right edge last advertised, less what arrived since.
    SequenceNumber32 next = m_tcb->m_rxBuffer->NextRxSequence();
    uint32_t offered = m_advEdgeValid && m_advEdge > next ? m_advEdge - next : 0;
    // Linux cleanup_rbuf(): update when the window has at least doubled (and is worth a
    // segment, avoiding a silly window).
    if (window >= m_tcb->m_segmentSize && window >= 2 * offered)
    {
        NS_LOG_LOGIC("window update: " << window << " bytes, " << offered << " offered");
        SendEmptyPacket(TcpHeader::ACK);
    }
    return p;
}

} // namespace clusternet
} // namespace ns3
