// SPDX-License-Identifier: GPL-2.0-only
#include "pause-header.h"

namespace ns3
{
namespace clusternet
{

NS_OBJECT_ENSURE_REGISTERED(PauseHeader);

TypeId
PauseHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::clusternet::PauseHeader")
                            .SetParent<Header>()
                            .SetGroupName("Clusternet")
                            .AddConstructor<PauseHeader>();
    return tid;
}

TypeId
PauseHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

PauseHeader::PauseHeader()
    : m_opcode(OPCODE_PAUSE),
      m_quanta(0)
{
}

PauseHeader::PauseHeader(uint16_t quanta)
    : m_opcode(OPCODE_PAUSE),
      m_quanta(quanta)
{
}

Mac48Address
PauseHeader::GetPauseAddress()
{
    return Mac48Address("01:80:c2:00:00:01");
}

void
PauseHeader::SetQuanta(uint16_t quanta)
{
    m_quanta = quanta;
}

uint16_t
PauseHeader::GetQuanta() const
{
    return m_quanta;
}

uint16_t
PauseHeader::GetOpcode() const
{
    return m_opcode;
}

void
PauseHeader::Print(std::ostream& os) const
{
    os << "MAC Control opcode=0x" << std::hex << m_opcode << std::dec << " quanta=" << m_quanta;
}

uint32_t
PauseHeader::GetSerializedSize() const
{
    return BODY_SIZE;
}

void
PauseHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU16(m_opcode);
    start.WriteHtonU16(m_quanta);
    start.WriteU8(0, BODY_SIZE - 4);
}

uint32_t
PauseHeader::Deserialize(Buffer::Iterator start)
{
    m_opcode = start.ReadNtohU16();
    m_quanta = start.ReadNtohU16();
    start.Next(BODY_SIZE - 4);
    return BODY_SIZE;
}

} // namespace clusternet
} // namespace ns3
