// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_ETHERNET_SWITCH_PORT_H
#define CLUSTERNET_ETHERNET_SWITCH_PORT_H

#include "ethernet-device-base.h"

#include "ns3/callback.h"
#include "ns3/packet.h"

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief What a store-and-forward switch (GigeSwitchNetDevice) needs of a port beyond
 * NetDevice: to keep a received frame charged to the port's receive buffer until the frame has
 * been sent on (so the port's own flow control, 802.3x PAUSE for GigeNetDevice, sees the
 * switch's backlog), and to hear when a frame has left the port.
 *
 * The switch reaches its ports only through this interface, as ns-3's BridgeNetDevice reaches
 * its ports through NetDevice.
 */
class EthernetSwitchPort : public EthernetDeviceBase
{
  public:
    static TypeId GetTypeId();
    ~EthernetSwitchPort() override;

    /// Switch-port mode: keep received frames charged to the receive buffer until released.
    virtual void SetHoldRxBuffer(bool hold) = 0;
    /// In switch-port mode: @p bytes of a held frame have left the switch; free them.
    virtual void ReleaseRxBuffer(uint32_t bytes) = 0;
    /// Be told of every frame this port has finished transmitting.
    virtual void SetTxCompleteCallback(Callback<void, Ptr<const Packet>> cb) = 0;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_ETHERNET_SWITCH_PORT_H
