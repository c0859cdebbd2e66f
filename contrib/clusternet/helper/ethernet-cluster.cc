// SPDX-License-Identifier: GPL-2.0-only
#include "ethernet-cluster.h"

#include "gige-helper.h"
#include "gige-switch-helper.h"
#include "host-helper.h"

#include "ns3/arp-l3-protocol.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("EthernetCluster");

EthernetCluster::EthernetCluster(uint32_t hosts,
                                 const std::string& hostProfile,
                                 const std::string& nicProfile,
                                 bool useSwitch,
                                 uint32_t mtu,
                                 const std::string& pciSlot)
{
    NS_ABORT_MSG_IF(hosts < 2, "EthernetCluster: need at least two hosts");
    NS_ABORT_MSG_IF(!useSwitch && hosts > 2, "EthernetCluster: more than two hosts need a switch");
    m_hosts.Create(hosts);
    HostHelper hostHelper;
    NS_ABORT_MSG_UNLESS(hostHelper.SetHostProfile(hostProfile),
                        "EthernetCluster: unknown host profile " << hostProfile);
    NS_ABORT_MSG_UNLESS(hostHelper.SetPciSlot(pciSlot),
                        "EthernetCluster: " << pciSlot << " is not a PCI slot ("
                                            << HostHelper::JoinPciSlots() << ")");
    hostHelper.Install(m_hosts);
    GigeHelper gige;
    NS_ABORT_MSG_UNLESS(gige.SetNicProfile(nicProfile),
                        "EthernetCluster: unknown NIC profile " << nicProfile);
    if (mtu > 0)
    {
        gige.SetDeviceAttribute("Mtu", UintegerValue(mtu));
    }
    if (useSwitch)
    {
        Ptr<Node> sw = CreateObject<Node>();
        GigeSwitchHelper switches;
        m_devices = switches.Install(sw, m_hosts, gige);
    }
    else
    {
        m_devices = gige.Install(m_hosts.Get(0), m_hosts.Get(1));
    }
    InternetStackHelper internet;
    internet.Install(m_hosts);
    internet.AssignStreams(m_hosts, 0);
    for (uint32_t i = 0; i < hosts; ++i)
    {
        m_hosts.Get(i)->GetObject<ArpL3Protocol>()->SetAttribute(
            "RequestJitter",
            StringValue("ns3::ConstantRandomVariable[Constant=0.0]"));
    }
    Ipv4AddressHelper addr("10.0.0.0", "255.255.255.0");
    m_interfaces = addr.Assign(m_devices);
}

const NodeContainer&
EthernetCluster::GetHosts() const
{
    return m_hosts;
}

const NetDeviceContainer&
EthernetCluster::GetDevices() const
{
    return m_devices;
}

const Ipv4InterfaceContainer&
EthernetCluster::GetInterfaces() const
{
    return m_interfaces;
}

} // namespace clusternet
} // namespace ns3
