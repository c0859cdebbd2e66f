// SPDX-License-Identifier: GPL-2.0-only
#include "ethernet-device-base.h"

namespace ns3
{
namespace clusternet
{

NS_OBJECT_ENSURE_REGISTERED(EthernetDeviceBase);

TypeId
EthernetDeviceBase::GetTypeId()
{
    static TypeId tid = TypeId("ns3::clusternet::EthernetDeviceBase")
                            .SetParent<NetDevice>()
                            .SetGroupName("Clusternet");
    return tid;
}

void
EthernetDeviceBase::DoDispose()
{
    m_node = nullptr;
    m_rxCallback = MakeNullCallback<bool, Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&>();
    m_promiscCallback = MakeNullCallback<bool,
                                         Ptr<NetDevice>,
                                         Ptr<const Packet>,
                                         uint16_t,
                                         const Address&,
                                         const Address&,
                                         NetDevice::PacketType>();
    NetDevice::DoDispose();
}

void
EthernetDeviceBase::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
EthernetDeviceBase::GetIfIndex() const
{
    return m_ifIndex;
}

void
EthernetDeviceBase::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
EthernetDeviceBase::GetAddress() const
{
    return m_address;
}

void
EthernetDeviceBase::AddLinkChangeCallback(Callback<void> callback)
{
    m_linkChangeCallbacks.ConnectWithoutContext(callback);
}

bool
EthernetDeviceBase::IsBroadcast() const
{
    return true;
}

Address
EthernetDeviceBase::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
EthernetDeviceBase::IsMulticast() const
{
    return true;
}

Address
EthernetDeviceBase::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
EthernetDeviceBase::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
EthernetDeviceBase::IsPointToPoint() const
{
    return false;
}

bool
EthernetDeviceBase::IsBridge() const
{
    return false;
}

Ptr<Node>
EthernetDeviceBase::GetNode() const
{
    return m_node;
}

void
EthernetDeviceBase::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
EthernetDeviceBase::NeedsArp() const
{
    return true;
}

void
EthernetDeviceBase::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
EthernetDeviceBase::SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb)
{
    m_promiscCallback = cb;
}

void
EthernetDeviceBase::ForwardUp(Ptr<Packet> packet,
                              const EthernetHeader& eth,
                              const TracedCallback<Ptr<const Packet>>& macRx)
{
    Mac48Address dst = eth.GetDestination();
    PacketType type;
    if (dst.IsBroadcast())
    {
        type = NetDevice::PACKET_BROADCAST;
    }
    else if (dst.IsGroup())
    {
        type = NetDevice::PACKET_MULTICAST;
    }
    else if (dst == m_address)
    {
        type = NetDevice::PACKET_HOST;
    }
    else
    {
        type = NetDevice::PACKET_OTHERHOST;
    }
    if (!m_promiscCallback.IsNull())
    {
        m_promiscCallback(this, packet, eth.GetLengthType(), eth.GetSource(), dst, type);
    }
    if (type != NetDevice::PACKET_OTHERHOST)
    {
        macRx(packet);
        if (!m_rxCallback.IsNull())
        {
            m_rxCallback(this, packet, eth.GetLengthType(), eth.GetSource());
        }
    }
}

bool
EthernetDeviceBase::SupportsSendFrom() const
{
    return true;
}

} // namespace clusternet
} // namespace ns3
