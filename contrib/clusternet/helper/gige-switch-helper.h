// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_GIGE_SWITCH_HELPER_H
#define CLUSTERNET_GIGE_SWITCH_HELPER_H

#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <string>

namespace ns3
{
namespace clusternet
{

class GigeHelper;
class GigeSwitchNetDevice;

/**
 * @ingroup clusternet
 * @brief Builds a star of hosts around a store-and-forward GigeSwitchNetDevice, in the manner
 * of BridgeHelper: one GigeNetDevice port per host on the switch node, linked to a host NIC
 * made by the caller's GigeHelper (so the hosts keep their NIC profile).
 *
 * Port defaults: no NIC processing time (the switch's cost is its ForwardingLatency), MTU 9000,
 * and an output queue deep enough never to drop (the ingress buffers bound what it holds).
 */
class GigeSwitchHelper
{
  public:
    GigeSwitchHelper();

    /// Set an attribute of the switch (GigeSwitchNetDevice).
    void SetSwitchAttribute(std::string name, const AttributeValue& value);
    /// Set an attribute of every switch port (GigeNetDevice), e.g. RxFifoSize, PauseEnabled.
    void SetPortAttribute(std::string name, const AttributeValue& value);
    /// Set an attribute of every host-to-switch cable (GigeChannel), e.g. Delay.
    void SetChannelAttribute(std::string name, const AttributeValue& value);

    /**
     * Make @p switchNode a switch with one port per node of @p hosts.
     * @param switchNode the node that becomes the switch
     * @param hosts the hosts, each given a NIC by @p hostNic
     * @param hostNic builds the host side of each link
     * @return the host NICs, in the order of @p hosts
     */
    NetDeviceContainer Install(Ptr<Node> switchNode, NodeContainer hosts, GigeHelper& hostNic);

    /// @return the switch device installed on @p switchNode, or nullptr
    static Ptr<GigeSwitchNetDevice> GetSwitch(Ptr<Node> switchNode);

  private:
    ObjectFactory m_switchFactory;
    ObjectFactory m_portFactory;
    ObjectFactory m_queueFactory;
    ObjectFactory m_channelFactory;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_GIGE_SWITCH_HELPER_H
