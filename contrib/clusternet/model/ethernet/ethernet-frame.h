// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_ETHERNET_FRAME_H
#define CLUSTERNET_ETHERNET_FRAME_H

#include "ns3/packet.h"

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @return the EtherType (or length) field of the Ethernet frame @p frame (EthernetHeader first,
 * no preamble), read in place; 0 for a frame shorter than the header
 */
uint16_t GetEtherType(Ptr<const Packet> frame);

/**
 * @ingroup clusternet
 * @return true for an Ethernet frame (EthernetHeader first) of IPv4 or ARP, which pays the
 * host's TCP/IP per-packet costs; other protocols (VIA) pay the driver's costs only
 */
bool IsIpFrame(Ptr<const Packet> frame);

/**
 * @ingroup clusternet
 * @return true if the Ethernet frame @p frame carries an IPv4 packet (or fragment) of UDP
 */
bool IsUdpFrame(Ptr<const Packet> frame);

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_ETHERNET_FRAME_H
