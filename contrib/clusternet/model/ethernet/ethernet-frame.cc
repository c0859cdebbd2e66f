// SPDX-License-Identifier: GPL-2.0-only
#include "ethernet-frame.h"

#include "ns3/ethernet-header.h"
#include "ns3/ipv4-header.h"

namespace ns3
{
namespace clusternet
{

namespace
{
constexpr uint16_t kIpv4 = 0x0800;
constexpr uint16_t kArp = 0x0806;
constexpr uint8_t kUdp = 17;
} // namespace

bool
IsIpFrame(Ptr<const Packet> frame)
{
    EthernetHeader eth(false);
    frame->PeekHeader(eth);
    return eth.GetLengthType() == kIpv4 || eth.GetLengthType() == kArp;
}

bool
IsUdpFrame(Ptr<const Packet> frame)
{
    EthernetHeader eth(false);
    Ptr<Packet> copy = frame->Copy();
    copy->RemoveHeader(eth);
    if (eth.GetLengthType() != kIpv4)
    {
        return false;
    }
    Ipv4Header ip;
    copy->PeekHeader(ip);
    return ip.GetProtocol() == kUdp;
}

} // namespace clusternet
} // namespace ns3
