// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_GM_HELPER_H
#define CLUSTERNET_GM_HELPER_H

#include "ns3/gm-ethernet-net-device.h"
#include "ns3/gm-mcp.h"
#include "ns3/gm-port.h"
#include "ns3/lanai-nic.h"
#include "ns3/net-device-container.h"
#include "ns3/object-factory.h"

#include <functional>
#include <string>
#include <vector>

namespace ns3
{
namespace clusternet
{

class MyrinetHelper;

/**
 * @ingroup clusternet
 * @brief Puts a LANai NIC running GM behind each Myrinet host port: the NIC hardware
 * (LanaiNic, from a LANai profile such as "lanai9"), the GM control program on it (GmMcp), and
 * GM ports for host processes (GmPort, costs from the host profile's "gm" values). GM node ids
 * are the ports' order in the container; every NIC learns every other's address.
 */
class GmHelper
{
  public:
    GmHelper();

    /// Apply a LANai profile (targets lanai, mcp; link and port via ConfigureFabric).
    /// @return false if there is no such profile
    bool SetLanaiProfile(const std::string& name);
    /// Apply the "gm" values of a host profile to the ports opened, and its "device" values to
    /// the Ethernet-emulation devices. @return false if unknown
    bool SetHostProfile(const std::string& name);
    /// Set the link (channel) and port attributes of the LANai profile on @p myrinet.
    void ConfigureFabric(MyrinetHelper& myrinet) const;
    void SetNicAttribute(std::string name, const AttributeValue& value);
    void SetMcpAttribute(std::string name, const AttributeValue& value);
    void SetPortAttribute(std::string name, const AttributeValue& value);
    /// Set an attribute of the Ethernet-emulation devices (GmEthernetNetDevice).
    void SetEthernetAttribute(std::string name, const AttributeValue& value);
    /// Set an attribute of the Ethernet-emulation devices' drivers (EthernetDriver).
    void SetEthernetDriverAttribute(std::string name, const AttributeValue& value);
    /// Called with each device and its kernel port before the port is used.
    using EthernetConfigurator = std::function<void(Ptr<GmEthernetNetDevice>, Ptr<GmPort>)>;
    /**
     * Install GM's Ethernet emulation ("IP over GM") on the host of each control program: a
     * GmEthernetNetDevice on a kernel GM port (the device's PortId), with a fresh MAC address;
     * every device learns every other's address and GM node id.
     * @param mcps GM control programs from Install()
     * @param configure optional: adjust each device and port before the port is opened
     * @return the devices, in the order of @p mcps
     */
    NetDeviceContainer InstallEthernet(const std::vector<Ptr<GmMcp>>& mcps,
                                       EthernetConfigurator configure = nullptr) const;

    /**
     * Install a LANai NIC and GM on the node of each host port (the node's PciBus, if any,
     * carries its host DMA).
     * @return the GM control programs, GM node id i at index i
     */
    std::vector<Ptr<GmMcp>> Install(const NetDeviceContainer& hostPorts) const;
    /// @return a GM port configured from the host profile and port attributes, not yet open
    Ptr<GmPort> CreatePort() const;
    /// Open @p port as GM port @p id on @p mcp's host (its CPU and PCI bus).
    static void Open(Ptr<GmPort> port, Ptr<GmMcp> mcp, uint8_t id);
    /// Open GM port @p id on @p mcp's host for a process. @return the port
    Ptr<GmPort> OpenPort(Ptr<GmMcp> mcp, uint8_t id) const;

  private:
    ObjectFactory m_nicFactory;
    ObjectFactory m_mcpFactory;
    ObjectFactory m_portFactory;
    ObjectFactory m_ethernetFactory;
    ObjectFactory m_driverFactory; //!< the Ethernet-emulation devices' drivers
    std::string m_lanaiProfile;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_GM_HELPER_H
