// SPDX-License-Identifier: GPL-2.0-only
#include "mpi-transport.h"

#include "ns3/log.h"

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("MpiTransport");
NS_OBJECT_ENSURE_REGISTERED(MpiTransport);

std::ostream&
operator<<(std::ostream& os, const MpiEnvelope& e)
{
    static const char* names[] = {"?", "EAGER", "RTS", "CTS", "DATA"};
    os << names[e.kind <= MpiEnvelope::DATA ? e.kind : 0] << " " << e.src << "->" << e.dst
       << " tag=" << e.tag << " ctx=" << e.context << " len=" << e.length
       << " payload=" << e.payload << " id=" << e.id;
    return os;
}

TypeId
MpiTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::MpiTransport").SetParent<Object>().SetGroupName("Clusternet");
    return tid;
}

MpiTransport::~MpiTransport()
{
}

void
MpiTransport::SetDeliverCallback(DeliverCallback cb)
{
    m_deliver = cb;
}

void
MpiTransport::SetHeaderCallback(DeliverCallback cb)
{
    m_header = cb;
}

void
MpiTransport::DeliverHeader(const MpiEnvelope& envelope)
{
    if (m_header)
    {
        m_header(envelope);
    }
}

uint32_t
MpiTransport::GetMaxMessage() const
{
    return 0;
}

void
MpiTransport::SetProgressing(bool on)
{
    bool resumed = on && !m_progressing;
    m_progressing = on;
    if (resumed)
    {
        Resume();
    }
}

bool
MpiTransport::IsProgressing() const
{
    return m_progressing;
}

void
MpiTransport::Resume()
{
}

void
MpiTransport::DoDispose()
{
    m_deliver = nullptr;
    m_header = nullptr;
    Object::DoDispose();
}

void
MpiTransport::Deliver(const MpiEnvelope& envelope)
{
    NS_LOG_FUNCTION(this << envelope);
    if (m_deliver)
    {
        m_deliver(envelope);
    }
}

} // namespace clusternet
} // namespace ns3
