// SPDX-License-Identifier: GPL-2.0-only
#include "switch-frame-tag.h"

namespace ns3
{
namespace clusternet
{

NS_OBJECT_ENSURE_REGISTERED(SwitchFrameTag);

TypeId
SwitchFrameTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::clusternet::SwitchFrameTag")
                            .SetParent<Tag>()
                            .SetGroupName("Clusternet")
                            .AddConstructor<SwitchFrameTag>();
    return tid;
}

TypeId
SwitchFrameTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

SwitchFrameTag::SwitchFrameTag(uint64_t id)
    : m_id(id)
{
}

uint64_t
SwitchFrameTag::GetId() const
{
    return m_id;
}

uint32_t
SwitchFrameTag::GetSerializedSize() const
{
    return sizeof(uint64_t);
}

void
SwitchFrameTag::Serialize(TagBuffer i) const
{
    i.WriteU64(m_id);
}

void
SwitchFrameTag::Deserialize(TagBuffer i)
{
    m_id = i.ReadU64();
}

void
SwitchFrameTag::Print(std::ostream& os) const
{
    os << "switch-frame=" << m_id;
}

} // namespace clusternet
} // namespace ns3
