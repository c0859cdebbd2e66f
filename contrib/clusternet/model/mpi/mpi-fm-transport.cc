// SPDX-License-Identifier: GPL-2.0-only
#include "mpi-fm-transport.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("MpiFmTransport");
NS_OBJECT_ENSURE_REGISTERED(MpiFmTransport);

TypeId
MpiFmTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::MpiFmTransport")
            .SetParent<MpiTransport>()
            .SetGroupName("Clusternet")
            .AddConstructor<MpiFmTransport>()
            .AddAttribute("Handler",
                          "FM handler id the library registers for its messages [id].",
                          UintegerValue(1),
                          MakeUintegerAccessor(&MpiFmTransport::m_handler),
                          MakeUintegerChecker<uint8_t>());
    return tid;
}

MpiFmTransport::MpiFmTransport()
{
}

MpiFmTransport::~MpiFmTransport()
{
}

void
MpiFmTransport::DoDispose()
{
    if (m_context)
    {
        m_context->SetReceiveCallback(FmContext::ReceiveCallback());
    }
    m_context = nullptr;
    m_peers.clear();
    m_inbound.clear();
    MpiTransport::DoDispose();
}

void
MpiFmTransport::Setup(Ptr<FmContext> context, uint32_t rank, const std::vector<Endpoint>& endpoints)
{
    m_context = context;
    m_rank = rank;
    m_endpoints = endpoints;
    for (uint32_t r = 0; r < endpoints.size(); ++r)
    {
        m_rankOf[endpoints[r]] = r;
    }
    m_context->SetReceiveCallback(MakeCallback(&MpiFmTransport::Received, this));
}

void
MpiFmTransport::SetPeers(const std::vector<Ptr<MpiTransport>>& peers)
{
    m_peers = PeersAs<MpiFmTransport>(peers);
}

void
MpiFmTransport::Send(const MpiEnvelope& envelope,
                     uint32_t envelopeBytes,
                     std::function<void()> written)
{
    NS_ABORT_MSG_UNLESS(envelope.dst < m_peers.size(), "MpiFmTransport: no rank " << envelope.dst);
    NS_LOG_LOGIC("rank " << m_rank << " sends " << envelope);
    m_peers[envelope.dst]->m_inbound[m_rank].push_back(envelope);
    const Endpoint& to = m_endpoints[envelope.dst];
    m_context->Send(to.first, to.second, envelopeBytes + envelope.payload, m_handler, written);
}

void
MpiFmTransport::Received(uint16_t node, uint8_t ctx, uint8_t /* handler */, uint32_t bytes)
{
    // Every rank's library registers the same handler (its Handler attribute) and sends for it.
    auto at = m_rankOf.find({node, ctx});
    NS_ABORT_MSG_IF(at == m_rankOf.end(),
                    "MpiFmTransport: a message from an unknown sender " << node << "." << +ctx);
    std::deque<MpiEnvelope>& q = m_inbound[at->second];
    NS_ABORT_MSG_IF(q.empty(), "MpiFmTransport: a message nobody sent");
    MpiEnvelope envelope = q.front();
    q.pop_front();
    NS_LOG_LOGIC("rank " << m_rank << " received " << envelope << " (" << bytes << " bytes)");
    Deliver(envelope);
}

} // namespace clusternet
} // namespace ns3
