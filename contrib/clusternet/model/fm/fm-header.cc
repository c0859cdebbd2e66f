// SPDX-License-Identifier: GPL-2.0-only
#include "fm-header.h"

namespace ns3
{
namespace clusternet
{

NS_OBJECT_ENSURE_REGISTERED(FmHeader);

TypeId
FmHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::clusternet::FmHeader")
                            .SetParent<Header>()
                            .SetGroupName("Clusternet")
                            .AddConstructor<FmHeader>();
    return tid;
}

TypeId
FmHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

FmHeader::FmHeader() = default;

void
FmHeader::SetKind(Kind v)
{
    m_kind = v;
}

FmHeader::Kind
FmHeader::GetKind() const
{
    return m_kind;
}

void
FmHeader::SetHandler(uint8_t v)
{
    m_handler = v;
}

uint8_t
FmHeader::GetHandler() const
{
    return m_handler;
}

void
FmHeader::SetSourceContext(uint8_t v)
{
    m_srcCtx = v;
}

uint8_t
FmHeader::GetSourceContext() const
{
    return m_srcCtx;
}

void
FmHeader::SetDestinationContext(uint8_t v)
{
    m_dstCtx = v;
}

uint8_t
FmHeader::GetDestinationContext() const
{
    return m_dstCtx;
}

void
FmHeader::SetSourceNode(uint16_t v)
{
    m_srcNode = v;
}

uint16_t
FmHeader::GetSourceNode() const
{
    return m_srcNode;
}

void
FmHeader::SetDestinationNode(uint16_t v)
{
    m_dstNode = v;
}

uint16_t
FmHeader::GetDestinationNode() const
{
    return m_dstNode;
}

void
FmHeader::SetMessageId(uint32_t v)
{
    m_msgId = v;
}

uint32_t
FmHeader::GetMessageId() const
{
    return m_msgId;
}

void
FmHeader::SetMessageLength(uint32_t v)
{
    m_msgLength = v;
}

uint32_t
FmHeader::GetMessageLength() const
{
    return m_msgLength;
}

void
FmHeader::SetOffset(uint32_t v)
{
    m_offset = v;
}

uint32_t
FmHeader::GetOffset() const
{
    return m_offset;
}

void
FmHeader::SetPayload(uint16_t v)
{
    m_payload = v;
}

uint16_t
FmHeader::GetPayload() const
{
    return m_payload;
}

void
FmHeader::SetCredits(uint16_t v)
{
    m_credits = v;
}

uint16_t
FmHeader::GetCredits() const
{
    return m_credits;
}

void
FmHeader::Print(std::ostream& os) const
{
    os << (m_kind == DATA ? "DATA" : "CREDIT") << " " << m_srcNode << "." << +m_srcCtx << "->"
       << m_dstNode << "." << +m_dstCtx << " msg=" << m_msgId << " len=" << m_msgLength
       << " off=" << m_offset << " payload=" << m_payload << " credits=" << m_credits;
}

uint32_t
FmHeader::GetSerializedSize() const
{
    return SIZE;
}

void
FmHeader::Serialize(Buffer::Iterator i) const
{
    i.WriteU8(m_kind);
    i.WriteU8(m_handler);
    i.WriteU8(m_srcCtx);
    i.WriteU8(m_dstCtx);
    i.WriteHtonU16(m_srcNode);
    i.WriteHtonU16(m_dstNode);
    i.WriteHtonU32(m_msgId);
    i.WriteHtonU32(m_msgLength);
    i.WriteHtonU32(m_offset);
    i.WriteHtonU16(m_payload);
    i.WriteHtonU16(m_credits);
    i.WriteHtonU32(0); // program id (one program per run)
    i.WriteHtonU32(0); // reserved
}

uint32_t
FmHeader::Deserialize(Buffer::Iterator i)
{
    m_kind = static_cast<Kind>(i.ReadU8());
    m_handler = i.ReadU8();
    m_srcCtx = i.ReadU8();
    m_dstCtx = i.ReadU8();
    m_srcNode = i.ReadNtohU16();
    m_dstNode = i.ReadNtohU16();
    m_msgId = i.ReadNtohU32();
    m_msgLength = i.ReadNtohU32();
    m_offset = i.ReadNtohU32();
    m_payload = i.ReadNtohU16();
    m_credits = i.ReadNtohU16();
    i.ReadNtohU32();
    i.ReadNtohU32();
    return SIZE;
}

} // namespace clusternet
} // namespace ns3
