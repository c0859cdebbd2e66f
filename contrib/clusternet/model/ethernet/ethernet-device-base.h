// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_ETHERNET_DEVICE_BASE_H
#define CLUSTERNET_ETHERNET_DEVICE_BASE_H

#include "ns3/ethernet-header.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/traced-callback.h"

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief What every Ethernet-addressed host interface of the module does the same way: an
 * interface index, a MAC-48 address, broadcast and multicast as Ethernet has them, ARP, the
 * node and the callbacks up to it. A NIC model (GigeNetDevice, IP over GM's
 * GmEthernetNetDevice) adds its channel, MTU, link state and transmit path.
 */
class EthernetDeviceBase : public NetDevice
{
  public:
    static constexpr uint32_t HEADER = 14; //!< Ethernet header: dst, src, EtherType [bytes]

    static TypeId GetTypeId();

    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsPointToPoint() const override;
    bool IsBridge() const override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoDispose() override;

    /**
     * Hand a received frame to the node: the promiscuous callback sees every frame, @p macRx
     * and the receive callback those for this host (its address, broadcast or multicast).
     * @param packet the frame with its Ethernet header removed
     * @param eth that header
     * @param macRx the device's MacRx trace
     */
    void ForwardUp(Ptr<Packet> packet,
                   const EthernetHeader& eth,
                   const TracedCallback<Ptr<const Packet>>& macRx);

    Ptr<Node> m_node;                                  //!< the node the device is on
    Mac48Address m_address;                            //!< the device's address
    uint32_t m_ifIndex{0};                             //!< interface index on the node
    NetDevice::ReceiveCallback m_rxCallback;           //!< frames up to the node
    NetDevice::PromiscReceiveCallback m_promiscCallback; //!< every frame, for promiscuous use
    TracedCallback<> m_linkChangeCallbacks;            //!< told when the link changes
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_ETHERNET_DEVICE_BASE_H
