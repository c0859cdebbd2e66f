// SPDX-License-Identifier: GPL-2.0-only
#include "gige-switch-helper.h"

#include "gige-helper.h"

#include "ns3/gige-channel.h"
#include "ns3/gige-net-device.h"
#include "ns3/gige-switch-net-device.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/queue-size.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("GigeSwitchHelper");

GigeSwitchHelper::GigeSwitchHelper()
{
    m_switchFactory.SetTypeId(GigeSwitchNetDevice::GetTypeId());
    m_portFactory.SetTypeId(GigeNetDevice::GetTypeId());
    m_portFactory.Set("NicTxCost", TimeValue(Seconds(0)));
    m_portFactory.Set("NicRxCost", TimeValue(Seconds(0)));
    m_portFactory.Set("Mtu", UintegerValue(9000));
    m_queueFactory.SetTypeId("ns3::DropTailQueue<Packet>");
    m_queueFactory.Set("MaxSize", QueueSizeValue(QueueSize("1000000p")));
    m_channelFactory.SetTypeId(GigeChannel::GetTypeId());
}

void
GigeSwitchHelper::SetSwitchAttribute(std::string name, const AttributeValue& value)
{
    m_switchFactory.Set(name, value);
}

void
GigeSwitchHelper::SetPortAttribute(std::string name, const AttributeValue& value)
{
    m_portFactory.Set(name, value);
}

void
GigeSwitchHelper::SetChannelAttribute(std::string name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

NetDeviceContainer
GigeSwitchHelper::Install(Ptr<Node> switchNode, NodeContainer hosts, GigeHelper& hostNic)
{
    NS_LOG_FUNCTION(this << switchNode);
    Ptr<GigeSwitchNetDevice> sw = m_switchFactory.Create<GigeSwitchNetDevice>();
    switchNode->AddDevice(sw);
    NetDeviceContainer hostDevices;
    for (uint32_t i = 0; i < hosts.GetN(); ++i)
    {
        Ptr<GigeNetDevice> nic = hostNic.CreateDevice(hosts.Get(i));
        Ptr<GigeNetDevice> port = m_portFactory.Create<GigeNetDevice>();
        port->SetAddress(Mac48Address::Allocate());
        port->SetQueue(m_queueFactory.Create<Queue<Packet>>());
        switchNode->AddDevice(port);
        Ptr<GigeChannel> ch = m_channelFactory.Create<GigeChannel>();
        nic->Attach(ch);
        port->Attach(ch);
        sw->AddSwitchPort(port);
        hostDevices.Add(nic);
    }
    return hostDevices;
}

Ptr<GigeSwitchNetDevice>
GigeSwitchHelper::GetSwitch(Ptr<Node> switchNode)
{
    for (uint32_t i = 0; i < switchNode->GetNDevices(); ++i)
    {
        Ptr<GigeSwitchNetDevice> sw = DynamicCast<GigeSwitchNetDevice>(switchNode->GetDevice(i));
        if (sw)
        {
            return sw;
        }
    }
    return nullptr;
}

} // namespace clusternet
} // namespace ns3
