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
                          MakeBooleanChecker());
    return tid;
}

HostTcpSocket::HostTcpSocket()
    : m_windowUpdate(true)
{
}

HostTcpSocket::HostTcpSocket(const HostTcpSocket& sock)
    : TcpSocketBase(sock),
      m_windowUpdate(sock.m_windowUpdate)
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

Ptr<TcpSocketBase>
HostTcpSocket::Fork()
{
    return CopyObject<HostTcpSocket>(this);
}

Ptr<Packet>
HostTcpSocket::Recv(uint32_t maxSize, uint32_t flags)
{
    Ptr<Packet> p = TcpSocketBase::Recv(maxSize, flags);
    if (!m_windowUpdate || !p || p->GetSize() == 0 || m_state != ESTABLISHED)
    {
        return p;
    }
    uint32_t read = p->GetSize();
    uint32_t window =
        m_tcb->m_rxBuffer->MaxRxSequence() - m_tcb->m_rxBuffer->NextRxSequence();
    // Before the read the sender could have been offered at most window - read bytes.
    if (window >= m_tcb->m_segmentSize && read * 2 >= window)
    {
        NS_LOG_LOGIC("window update: " << window << " bytes after reading " << read);
        SendEmptyPacket(TcpHeader::ACK);
    }
    return p;
}

} // namespace clusternet
} // namespace ns3
