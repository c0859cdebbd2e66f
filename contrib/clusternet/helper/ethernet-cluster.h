// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_ETHERNET_CLUSTER_H
#define CLUSTERNET_ETHERNET_CLUSTER_H

#include "ns3/ipv4-interface-container.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"

#include <string>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief A cluster of hosts on Gigabit Ethernet with IPv4: every host gets the host profile,
 * one NIC of the NIC profile, a port on one store-and-forward switch (or, with two hosts and
 * no switch, a back-to-back cable), an address in 10.0.0.0/24 in host order, and ARP requests
 * sent at once (as Linux and FreeBSD do; ns-3 adds up to 10 ms of jitter by default).
 */
class EthernetCluster
{
  public:
    /**
     * Build the cluster.
     * @param hosts number of hosts (at least 2)
     * @param hostProfile host profile name (must exist)
     * @param nicProfile NIC profile name (must exist)
     * @param useSwitch connect the hosts through a switch (required above two hosts)
     * @param mtu IP MTU of every NIC [bytes]; 0 = the NIC profile's (its device.Mtu, else the
     * device's default)
     * @param pciSlot PCI slot WIDTHxCLOCK of every host (HostHelper::PciSlots()); "" = the host
     * profile's
     */
    EthernetCluster(uint32_t hosts,
                    const std::string& hostProfile,
                    const std::string& nicProfile,
                    bool useSwitch = true,
                    uint32_t mtu = 0,
                    const std::string& pciSlot = "");

    /// @return the hosts, in rank order
    const NodeContainer& GetHosts() const;
    /// @return the hosts' NICs, host i at index i
    const NetDeviceContainer& GetDevices() const;
    /// @return the hosts' IPv4 interfaces, host i at index i
    const Ipv4InterfaceContainer& GetInterfaces() const;

  private:
    NodeContainer m_hosts;
    NetDeviceContainer m_devices;
    Ipv4InterfaceContainer m_interfaces;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_ETHERNET_CLUSTER_H
