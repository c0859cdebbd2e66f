// SPDX-License-Identifier: GPL-2.0-only
#include "myrinet-header.h"

#include "ns3/assert.h"

namespace ns3
{
namespace clusternet
{

NS_OBJECT_ENSURE_REGISTERED(MyrinetHeader);

TypeId
MyrinetHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::clusternet::MyrinetHeader")
                            .SetParent<Header>()
                            .SetGroupName("Clusternet")
                            .AddConstructor<MyrinetHeader>();
    return tid;
}

TypeId
MyrinetHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

MyrinetHeader::MyrinetHeader()
    : m_type(0)
{
}

MyrinetHeader::MyrinetHeader(const std::vector<uint8_t>& ports, uint16_t type)
    : m_route(ports),
      m_type(type)
{
    NS_ASSERT_MSG(type < 0x8000, "a Myrinet packet type has its most significant bit clear");
    for (uint8_t p : ports)
    {
        NS_ASSERT_MSG(p < ROUTE_FLAG, "route port " << unsigned(p) << " does not fit 7 bits");
    }
}

std::vector<uint8_t>
MyrinetHeader::GetRoute() const
{
    return m_route;
}

uint16_t
MyrinetHeader::GetType() const
{
    return m_type;
}

uint8_t
MyrinetHeader::PopRoute()
{
    NS_ASSERT_MSG(!m_route.empty(), "no route byte left");
    uint8_t p = m_route.front();
    m_route.erase(m_route.begin());
    return p;
}

void
MyrinetHeader::Print(std::ostream& os) const
{
    os << "route=";
    for (std::size_t i = 0; i < m_route.size(); ++i)
    {
        os << (i ? "," : "") << unsigned(m_route[i]);
    }
    os << " type=0x" << std::hex << m_type << std::dec;
}

uint32_t
MyrinetHeader::GetSerializedSize() const
{
    return m_route.size() + TYPE_SIZE;
}

void
MyrinetHeader::Serialize(Buffer::Iterator start) const
{
    for (uint8_t p : m_route)
    {
        start.WriteU8(ROUTE_FLAG | p);
    }
    start.WriteHtonU16(m_type);
}

uint32_t
MyrinetHeader::Deserialize(Buffer::Iterator start)
{
    m_route.clear();
    uint32_t n = 0;
    while (true)
    {
        uint8_t b = start.PeekU8();
        if (!(b & ROUTE_FLAG))
        {
            break;
        }
        start.ReadU8();
        m_route.push_back(b & ~ROUTE_FLAG);
        ++n;
    }
    m_type = start.ReadNtohU16();
    return n + TYPE_SIZE;
}

} // namespace clusternet
} // namespace ns3
