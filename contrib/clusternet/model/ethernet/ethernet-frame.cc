// SPDX-License-Identifier: GPL-2.0-only
#include "ethernet-frame.h"

namespace ns3
{
namespace clusternet
{

namespace
{
constexpr uint16_t kIpv4 = 0x0800;
constexpr uint16_t kArp = 0x0806;
constexpr uint8_t kUdp = 17;
constexpr uint32_t kTypeOffset = 12;     //!< EtherType after the two MAC addresses
constexpr uint32_t kProtocolOffset = 23; //!< IPv4 protocol: Ethernet header + 9

/// @return the EtherType of @p frame, its first @p size bytes in @p bytes (0 for a frame
/// shorter than @p size bytes)
uint16_t
ReadEtherType(Ptr<const Packet> frame, uint8_t* bytes, uint32_t size)
{
    // Read the bytes in place: deserialising the headers copies the packet (a hot path).
    if (frame->CopyData(bytes, size) < size)
    {
        return 0;
    }
    return static_cast<uint16_t>(bytes[kTypeOffset] << 8 | bytes[kTypeOffset + 1]);
}
} // namespace

uint16_t
GetEtherType(Ptr<const Packet> frame)
{
    uint8_t bytes[kTypeOffset + 2];
    return ReadEtherType(frame, bytes, sizeof(bytes));
}

bool
IsIpFrame(Ptr<const Packet> frame)
{
    uint16_t type = GetEtherType(frame);
    return type == kIpv4 || type == kArp;
}

bool
IsUdpFrame(Ptr<const Packet> frame)
{
    uint8_t bytes[kProtocolOffset + 1];
    return ReadEtherType(frame, bytes, sizeof(bytes)) == kIpv4 && bytes[kProtocolOffset] == kUdp;
}

} // namespace clusternet
} // namespace ns3
