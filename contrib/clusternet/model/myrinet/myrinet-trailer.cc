// SPDX-License-Identifier: GPL-2.0-only
#include "myrinet-trailer.h"

#include <array>
#include <vector>

namespace ns3
{
namespace clusternet
{

NS_OBJECT_ENSURE_REGISTERED(MyrinetTrailer);

namespace
{

std::array<uint8_t, 256>
MakeTable()
{
    std::array<uint8_t, 256> t{};
    for (unsigned i = 0; i < 256; ++i)
    {
        uint8_t c = static_cast<uint8_t>(i);
        for (int b = 0; b < 8; ++b)
        {
            c = (c & 0x80) ? static_cast<uint8_t>((c << 1) ^ 0x07) : static_cast<uint8_t>(c << 1);
        }
        t[i] = c;
    }
    return t;
}

uint8_t
PacketCrc(Ptr<const Packet> p)
{
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), bytes.size());
    return MyrinetTrailer::Crc8(bytes.data(), bytes.size());
}

} // namespace

TypeId
MyrinetTrailer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::clusternet::MyrinetTrailer")
                            .SetParent<Trailer>()
                            .SetGroupName("Clusternet")
                            .AddConstructor<MyrinetTrailer>();
    return tid;
}

TypeId
MyrinetTrailer::GetInstanceTypeId() const
{
    return GetTypeId();
}

MyrinetTrailer::MyrinetTrailer()
    : m_crc(0)
{
}

uint8_t
MyrinetTrailer::Crc8(const uint8_t* data, uint32_t size)
{
    static const std::array<uint8_t, 256> table = MakeTable();
    uint8_t crc = 0;
    for (uint32_t i = 0; i < size; ++i)
    {
        crc = table[crc ^ data[i]];
    }
    return crc;
}

void
MyrinetTrailer::Compute(Ptr<const Packet> p)
{
    m_crc = PacketCrc(p);
}

bool
MyrinetTrailer::Check(Ptr<const Packet> p) const
{
    return PacketCrc(p) == m_crc;
}

uint8_t
MyrinetTrailer::GetCrc() const
{
    return m_crc;
}

void
MyrinetTrailer::Print(std::ostream& os) const
{
    os << "crc8=0x" << std::hex << unsigned(m_crc) << std::dec;
}

uint32_t
MyrinetTrailer::GetSerializedSize() const
{
    return SIZE;
}

void
MyrinetTrailer::Serialize(Buffer::Iterator start) const
{
    start.Prev(SIZE);
    start.WriteU8(m_crc);
}

uint32_t
MyrinetTrailer::Deserialize(Buffer::Iterator end)
{
    end.Prev(SIZE);
    m_crc = end.ReadU8();
    return SIZE;
}

} // namespace clusternet
} // namespace ns3
