// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_MYRINET_HELPER_H
#define CLUSTERNET_MYRINET_HELPER_H

#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <string>

namespace ns3
{
namespace clusternet
{

class MyrinetChannel;
class MyrinetNetDevice;
class MyrinetSwitch;

/**
 * @ingroup clusternet
 * @brief Builds Myrinet fabrics: host ports, XBar16 switches and links, with each host's
 * routes installed (one output port per switch crossed).
 */
class MyrinetHelper
{
  public:
    MyrinetHelper();

    /// Set an attribute on every port (host and switch) created.
    void SetDeviceAttribute(std::string name, const AttributeValue& value);
    /// Set an attribute on every link created.
    void SetChannelAttribute(std::string name, const AttributeValue& value);
    /// Set an attribute on every switch created.
    void SetSwitchAttribute(std::string name, const AttributeValue& value);

    /**
     * Check that the flow-control settings can be lossless: GO below STOP, and STOP plus the
     * bytes of two cable delays at the link rate within the slack buffer.
     * @return "" or one line naming the attribute and what is allowed
     */
    std::string CheckFlowControl() const;

    /// Two hosts back to back. @return their host ports (routes installed)
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b);
    /// Hosts on one switch, host i on port i. @return the host ports (routes installed)
    NetDeviceContainer InstallSwitch(Ptr<Node> switchNode, const NodeContainer& hosts);

    /// @return a new host port on @p node
    Ptr<MyrinetNetDevice> CreateHostPort(Ptr<Node> node);
    /// @return the switch of @p node, created and aggregated on first use
    Ptr<MyrinetSwitch> GetOrCreateSwitch(Ptr<Node> node);
    /// @return a new port on the switch of @p node
    Ptr<MyrinetNetDevice> CreateSwitchPort(Ptr<Node> node);
    /// Link two ports with a new channel. @return the channel
    Ptr<MyrinetChannel> Link(Ptr<MyrinetNetDevice> a, Ptr<MyrinetNetDevice> b);

  private:
    ObjectFactory m_deviceFactory;
    ObjectFactory m_channelFactory;
    ObjectFactory m_switchFactory;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_MYRINET_HELPER_H
