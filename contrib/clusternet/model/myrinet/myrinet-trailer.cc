// SPDX-License-Identifier: GPL-2.0-only
#include "myrinet-trailer.h"

#include <array>
#include <cstring>
#include <memory>

namespace ns3
{
namespace clusternet
{

NS_OBJECT_ENSURE_REGISTERED(MyrinetTrailer);

namespace
{

/// The CRC-8 step table: entry c is the CRC state c after one zero byte (x^8 c mod the
/// polynomial); the CRC of a byte b from state c is entry c ^ b.
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

/// The byte-step table (MakeTable).
const std::array<uint8_t, 256>&
StepTable()
{
    static const std::array<uint8_t, 256> table = MakeTable();
    return table;
}

/// Zero-run tables: entry [k][c] is the CRC state c after 2^k zero bytes.
using ZeroTables = std::array<std::array<uint8_t, 256>, 32>;

/// @return the zero-run tables, made from the step table by repeated squaring
ZeroTables
MakeZeroTables()
{
    ZeroTables z{};
    z[0] = StepTable();
    for (std::size_t k = 1; k < z.size(); ++k)
    {
        for (unsigned c = 0; c < 256; ++c)
        {
            z[k][c] = z[k - 1][z[k - 1][c]];
        }
    }
    return z;
}

/// @return the CRC state @p crc after @p n zero bytes (as many table steps as bits set in n)
uint8_t
SkipZeros(uint8_t crc, uint32_t n)
{
    static const ZeroTables zeros = MakeZeroTables();
    for (uint32_t k = 0; n != 0; ++k, n >>= 1)
    {
        if (n & 1)
        {
            crc = zeros[k][crc];
        }
    }
    return crc;
}

/// @return the CRC-8 of @p p's bytes (a packet's payload is mostly an unwritten, zero area)
uint8_t
PacketCrc(Ptr<const Packet> p)
{
    // Packets up to a GM fragment with headers, or an IP-over-GM MTU, are copied to the stack:
    // a heap block this large would make malloc consolidate its free lists on every packet.
    constexpr uint32_t STACK_BYTES = 16384;
    uint32_t size = p->GetSize();
    if (size <= STACK_BYTES)
    {
        uint8_t bytes[STACK_BYTES];
        p->CopyData(bytes, size);
        return MyrinetTrailer::Crc8(bytes, size);
    }
    auto bytes = std::make_unique_for_overwrite<uint8_t[]>(size);
    p->CopyData(bytes.get(), size);
    return MyrinetTrailer::Crc8(bytes.get(), size);
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
    // Byte by byte, except that a run of zero bytes (found a word at a time) is crossed in one
    // table step per bit of its length: the same CRC at a fraction of the cost on packets
    // whose payload is an unwritten (zero) area.
    const std::array<uint8_t, 256>& table = StepTable();
    uint8_t crc = 0;
    uint32_t i = 0;
    while (i < size)
    {
        if (data[i] != 0)
        {
            crc = table[crc ^ data[i]];
            ++i;
            continue;
        }
        uint32_t j = i + 1;
        for (uint64_t word = 0; j + sizeof(word) <= size; j += sizeof(word))
        {
            std::memcpy(&word, data + j, sizeof(word));
            if (word != 0)
            {
                break;
            }
        }
        while (j < size && data[j] == 0)
        {
            ++j;
        }
        crc = SkipZeros(crc, j - i);
        i = j;
    }
    return crc;
}

void
MyrinetTrailer::Compute(Ptr<const Packet> p)
{
    m_crc = PacketCrc(p);
}

void
MyrinetTrailer::StripFirstByte(uint8_t first, uint32_t rest)
{
    // The CRC has no initial value or final XOR, so it is linear: over (first, rest...) it is
    // the CRC over rest XOR the CRC of first followed by |rest| zero bytes.
    m_crc ^= SkipZeros(StepTable()[first], rest);
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
