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

/// @return the EtherType of @p frame (0 for a frame shorter than an Ethernet header)
uint16_t
EtherType(Ptr<const Packet> frame, uint8_t* bytes, uint32_t size)
{
    // Read the bytes in place: deserialising the headers copies the packet (a hot path).
    if (frame->CopyData(bytes, size) < size)
    {
        return 0;
    }
    return static_cast<uint16_t>(bytes[kTypeOffset] << 8 | bytes[kTypeOffset + 1]);
}
} // namespace

bool
IsIpFrame(Ptr<const Packet> frame)
{
    uint8_t bytes[kTypeOffset + 2];
    uint16_t type = EtherType(frame, bytes, sizeof(bytes));
    return type == kIpv4 || type == kArp;
}

bool
IsUdpFrame(Ptr<const Packet> frame)
{
    uint8_t bytes[kProtocolOffset + 1];
    return EtherType(frame, bytes, sizeof(bytes)) == kIpv4 && bytes[kProtocolOffset] == kUdp;
}

} // namespace clusternet
} // namespace ns3
