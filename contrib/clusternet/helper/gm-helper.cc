// SPDX-License-Identifier: GPL-2.0-only
#include "gm-helper.h"

#include "ns3/ethernet-driver.h"

#include "myrinet-helper.h"

#include "ns3/host-cpu.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/pointer.h"
#include "ns3/pci-bus.h"
#include "ns3/profile-catalogue.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace clusternet
{

GmHelper::GmHelper()
{
    m_nicFactory.SetTypeId(LanaiNic::GetTypeId());
    m_mcpFactory.SetTypeId(GmMcp::GetTypeId());
    m_portFactory.SetTypeId(GmPort::GetTypeId());
    m_ethernetFactory.SetTypeId(GmEthernetNetDevice::GetTypeId());
    m_driverFactory.SetTypeId(EthernetDriver::GetTypeId());
}

bool
GmHelper::SetLanaiProfile(const std::string& name)
{
    const Profile* p = ProfileCatalogue::Find("lanai", name);
    if (!p)
    {
        return false;
    }
    m_lanaiProfile = name;
    for (const auto& v : p->values)
    {
        if (v.target == "lanai")
        {
            m_nicFactory.Set(v.attribute, StringValue(v.value));
        }
        else if (v.target == "mcp")
        {
            m_mcpFactory.Set(v.attribute, StringValue(v.value));
        }
    }
    return true;
}

bool
GmHelper::SetHostProfile(const std::string& name)
{
    const Profile* p = ProfileCatalogue::Find("host", name);
    if (!p)
    {
        return false;
    }
    for (const auto& v : p->values)
    {
        if (v.target == "gm")
        {
            m_portFactory.Set(v.attribute, StringValue(v.value));
        }
        else if (v.target == "device")
        {
            m_ethernetFactory.Set(v.attribute, StringValue(v.value));
        }
        else if (v.target == "driver")
        {
            m_driverFactory.Set(v.attribute, StringValue(v.value));
        }
    }
    return true;
}

void
GmHelper::ConfigureFabric(MyrinetHelper& myrinet) const
{
    const Profile* p = ProfileCatalogue::Find("lanai", m_lanaiProfile);
    if (!p)
    {
        return;
    }
    for (const auto& v : p->values)
    {
        if (v.target == "link")
        {
            myrinet.SetChannelAttribute(v.attribute, StringValue(v.value));
        }
        else if (v.target == "port")
        {
            myrinet.SetDeviceAttribute(v.attribute, StringValue(v.value));
        }
    }
}

void
GmHelper::SetNicAttribute(std::string name, const AttributeValue& value)
{
    m_nicFactory.Set(name, value);
}

void
GmHelper::SetMcpAttribute(std::string name, const AttributeValue& value)
{
    m_mcpFactory.Set(name, value);
}

void
GmHelper::SetPortAttribute(std::string name, const AttributeValue& value)
{
    m_portFactory.Set(name, value);
}

std::vector<Ptr<GmMcp>>
GmHelper::Install(const NetDeviceContainer& hostPorts) const
{
    std::vector<Ptr<GmMcp>> mcps;
    for (uint32_t i = 0; i < hostPorts.GetN(); ++i)
    {
        Ptr<NetDevice> port = hostPorts.Get(i); // a Myrinet host port (LanaiNic::SetPort checks)
        Ptr<Node> node = port->GetNode();
        Ptr<LanaiNic> nic = m_nicFactory.Create<LanaiNic>();
        nic->SetPort(port);
        nic->SetBus(node->GetObject<PciBus>());
        node->AggregateObject(nic);
        Ptr<GmMcp> mcp = m_mcpFactory.Create<GmMcp>();
        mcp->SetNic(nic);
        mcp->SetNodeId(static_cast<uint16_t>(i));
        node->AggregateObject(mcp);
        mcps.push_back(mcp);
    }
    for (uint32_t i = 0; i < hostPorts.GetN(); ++i)
    {
        for (uint32_t j = 0; j < hostPorts.GetN(); ++j)
        {
            if (i != j)
            {
                mcps[i]->AddPeer(static_cast<uint16_t>(j),
                                 Mac48Address::ConvertFrom(hostPorts.Get(j)->GetAddress()));
            }
        }
    }
    return mcps;
}

void
GmHelper::SetEthernetAttribute(std::string name, const AttributeValue& value)
{
    m_ethernetFactory.Set(name, value);
}

void
GmHelper::SetEthernetDriverAttribute(std::string name, const AttributeValue& value)
{
    m_driverFactory.Set(name, value);
}

NetDeviceContainer
GmHelper::InstallEthernet(const std::vector<Ptr<GmMcp>>& mcps,
                          EthernetConfigurator configure) const
{
    NetDeviceContainer devs;
    std::vector<std::pair<Mac48Address, uint16_t>> table;
    for (const auto& mcp : mcps)
    {
        Ptr<Node> node = mcp->GetNic()->GetPort()->GetNode();
        Ptr<GmEthernetNetDevice> dev = m_ethernetFactory.Create<GmEthernetNetDevice>();
        dev->SetAddress(Mac48Address::Allocate());
        dev->SetAttribute("Driver", PointerValue(m_driverFactory.Create<EthernetDriver>()));
        node->AddDevice(dev);
        // Flow control towards the traffic-control layer, as PointToPointHelper does.
        PointerValue queue;
        dev->GetAttribute("TxQueue", queue);
        Ptr<NetDeviceQueueInterface> ndqi = CreateObject<NetDeviceQueueInterface>();
        ndqi->GetTxQueue(0)->ConnectQueueTraces(queue.Get<Queue<Packet>>());
        dev->AggregateObject(ndqi);
        Ptr<GmPort> port = CreatePort();
        if (configure)
        {
            configure(dev, port);
        }
        UintegerValue id;
        dev->GetAttribute("PortId", id);
        Open(port, mcp, static_cast<uint8_t>(id.Get()));
        dev->Attach(port);
        table.emplace_back(Mac48Address::ConvertFrom(dev->GetAddress()), mcp->GetNodeId());
        devs.Add(dev);
    }
    for (uint32_t i = 0; i < devs.GetN(); ++i)
    {
        Ptr<GmEthernetNetDevice> dev = DynamicCast<GmEthernetNetDevice>(devs.Get(i));
        for (const auto& [mac, node] : table)
        {
            dev->AddNeighbor(mac, node);
        }
    }
    return devs;
}

Ptr<GmPort>
GmHelper::CreatePort() const
{
    return m_portFactory.Create<GmPort>();
}

void
GmHelper::Open(Ptr<GmPort> port, Ptr<GmMcp> mcp, uint8_t id)
{
    Ptr<Node> node = mcp->GetNic()->GetPort()->GetNode();
    port->Open(mcp, id, node->GetObject<HostCpu>(), node->GetObject<PciBus>());
}

Ptr<GmPort>
GmHelper::OpenPort(Ptr<GmMcp> mcp, uint8_t id) const
{
    Ptr<GmPort> port = CreatePort();
    Open(port, mcp, id);
    return port;
}

} // namespace clusternet
} // namespace ns3
