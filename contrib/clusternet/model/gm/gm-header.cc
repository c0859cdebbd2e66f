// SPDX-License-Identifier: GPL-2.0-only
#include "gm-header.h"

namespace ns3
{
namespace clusternet
{

NS_OBJECT_ENSURE_REGISTERED(GmHeader);

TypeId
GmHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::clusternet::GmHeader")
                            .SetParent<Header>()
                            .SetGroupName("Clusternet")
                            .AddConstructor<GmHeader>();
    return tid;
}

TypeId
GmHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

GmHeader::GmHeader() = default;

void
GmHeader::SetKind(Kind kind)
{
    m_kind = kind;
}

GmHeader::Kind
GmHeader::GetKind() const
{
    return m_kind;
}

void
GmHeader::SetSourcePort(uint8_t port)
{
    m_srcPort = port;
}

uint8_t
GmHeader::GetSourcePort() const
{
    return m_srcPort;
}

void
GmHeader::SetDestinationPort(uint8_t port)
{
    m_dstPort = port;
}

uint8_t
GmHeader::GetDestinationPort() const
{
    return m_dstPort;
}

void
GmHeader::SetSourceNode(uint16_t node)
{
    m_srcNode = node;
}

uint16_t
GmHeader::GetSourceNode() const
{
    return m_srcNode;
}

void
GmHeader::SetDestinationNode(uint16_t node)
{
    m_dstNode = node;
}

uint16_t
GmHeader::GetDestinationNode() const
{
    return m_dstNode;
}

void
GmHeader::SetSequence(uint32_t seq)
{
    m_seq = seq;
}

uint32_t
GmHeader::GetSequence() const
{
    return m_seq;
}

void
GmHeader::SetMessageLength(uint32_t bytes)
{
    m_msgLength = bytes;
}

uint32_t
GmHeader::GetMessageLength() const
{
    return m_msgLength;
}

void
GmHeader::SetOffset(uint32_t offset)
{
    m_offset = offset;
}

uint32_t
GmHeader::GetOffset() const
{
    return m_offset;
}

void
GmHeader::Print(std::ostream& os) const
{
    os << (m_kind == ACK ? "ACK" : (m_kind == NACK ? "NACK" : "DATA")) << " " << m_srcNode << ":" << +m_srcPort << "->"
       << m_dstNode << ":" << +m_dstPort << " seq=" << m_seq << " len=" << m_msgLength
       << " off=" << m_offset;
}

uint32_t
GmHeader::GetSerializedSize() const
{
    return SIZE;
}

void
GmHeader::Serialize(Buffer::Iterator i) const
{
    i.WriteU8(m_kind);
    i.WriteU8(m_srcPort);
    i.WriteU8(m_dstPort);
    i.WriteU8(0);
    i.WriteHtonU16(m_srcNode);
    i.WriteHtonU16(m_dstNode);
    i.WriteHtonU32(m_seq);
    i.WriteHtonU32(m_msgLength);
    i.WriteHtonU32(m_offset);
}

uint32_t
GmHeader::Deserialize(Buffer::Iterator i)
{
    m_kind = static_cast<Kind>(i.ReadU8());
    m_srcPort = i.ReadU8();
    m_dstPort = i.ReadU8();
    i.ReadU8();
    m_srcNode = i.ReadNtohU16();
    m_dstNode = i.ReadNtohU16();
    m_seq = i.ReadNtohU32();
    m_msgLength = i.ReadNtohU32();
    m_offset = i.ReadNtohU32();
    return SIZE;
}

} // namespace clusternet
} // namespace ns3
