// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_MYRINET_HELPER_H
#define CLUSTERNET_MYRINET_HELPER_H

#include "ns3/myrinet-channel.h"
#include "ns3/myrinet-net-device.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <string>
#include <vector>

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
    /// The same check for a port configured as @p dev on a link configured as @p channel.
    static std::string CheckFlowControl(Ptr<MyrinetNetDevice> dev, Ptr<MyrinetChannel> channel);

    /// Two hosts back to back. @return their host ports (routes installed)
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b);
    /// Hosts on one switch, host i on port i. @return the host ports (routes installed)
    NetDeviceContainer InstallSwitch(Ptr<Node> switchNode, const NodeContainer& hosts);
    /// The longest line of switches InstallLine builds (a route of up to 9 bytes).
    static constexpr uint32_t MAX_LINE_SWITCHES = 8;

    /**
     * A line of @p count switches (1..MAX_LINE_SWITCHES), each linked to the next, with the
     * hosts spread evenly along it: host i on switch round(i (count - 1) / (hosts - 1)), so two hosts sit at the two ends
     * and a message between them crosses every switch. One switch is InstallSwitch(). Switch
     * nodes are created and added to @p switches.
     * @return the host ports, host i first (routes installed)
     */
    NetDeviceContainer InstallLine(const NodeContainer& hosts,
                                   uint32_t count,
                                   NodeContainer& switches);
    /// @return the switch of host @p i of @p hosts on a line of @p count switches (InstallLine)
    static uint32_t LineSwitchOf(uint32_t i, uint32_t hosts, uint32_t count);

    /**
     * Build the network of @p hosts the topology of TypeId @p type gives (a MyrinetTopology,
     * e.g. "ns3::clusternet::MyrinetClosTopology"), with this helper's ports, switches and
     * links; switch nodes are created and added to @p switches.
     * @return the host ports, host i first (routes installed); empty if the topology does not
     * fit that many hosts
     */
    NetDeviceContainer InstallTopology(const std::string& type,
                                       const NodeContainer& hosts,
                                       NodeContainer& switches);

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
