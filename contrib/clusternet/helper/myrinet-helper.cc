// SPDX-License-Identifier: GPL-2.0-only
#include "myrinet-helper.h"

#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/myrinet-channel.h"
#include "ns3/myrinet-net-device.h"
#include "ns3/myrinet-switch.h"
#include "ns3/node.h"

#include <sstream>

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("MyrinetHelper");

MyrinetHelper::MyrinetHelper()
{
    m_deviceFactory.SetTypeId(MyrinetNetDevice::GetTypeId());
    m_channelFactory.SetTypeId(MyrinetChannel::GetTypeId());
    m_switchFactory.SetTypeId(MyrinetSwitch::GetTypeId());
}

void
MyrinetHelper::SetDeviceAttribute(std::string name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
MyrinetHelper::SetChannelAttribute(std::string name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

void
MyrinetHelper::SetSwitchAttribute(std::string name, const AttributeValue& value)
{
    m_switchFactory.Set(name, value);
}

std::string
MyrinetHelper::CheckFlowControl() const
{
    Ptr<MyrinetNetDevice> dev = m_deviceFactory.Create<MyrinetNetDevice>();
    Ptr<MyrinetChannel> ch = m_channelFactory.Create<MyrinetChannel>();
    double rate = ch->GetDataRate().GetBitRate() / 8.0;
    if (rate <= 0)
    {
        return "DataRate: the link rate must be above 0 bit/s";
    }
    uint32_t slack = dev->GetSlackBufferSize();
    uint32_t stop = dev->GetStopThreshold();
    uint32_t go = dev->GetGoThreshold();
    std::ostringstream os;
    if (go >= stop)
    {
        os << "GoThreshold: " << go << " must be below StopThreshold (" << stop << " bytes)";
        return os.str();
    }
    double inFlight = 2 * rate * ch->GetDelay().GetSeconds();
    if (stop + inFlight > slack + 1e-9)
    {
        os << "StopThreshold: " << stop << " bytes + " << inFlight
           << " bytes in flight over two cable delays exceeds SlackBufferSize (" << slack
           << " bytes); allowed StopThreshold <= " << static_cast<int64_t>(slack - inFlight);
        return os.str();
    }
    return "";
}

Ptr<MyrinetNetDevice>
MyrinetHelper::CreateHostPort(Ptr<Node> node)
{
    Ptr<MyrinetNetDevice> dev = m_deviceFactory.Create<MyrinetNetDevice>();
    dev->SetAddress(Mac48Address::Allocate());
    node->AddDevice(dev);
    return dev;
}

Ptr<MyrinetSwitch>
MyrinetHelper::GetOrCreateSwitch(Ptr<Node> node)
{
    Ptr<MyrinetSwitch> sw = node->GetObject<MyrinetSwitch>();
    if (!sw)
    {
        sw = m_switchFactory.Create<MyrinetSwitch>();
        node->AggregateObject(sw);
    }
    return sw;
}

Ptr<MyrinetNetDevice>
MyrinetHelper::CreateSwitchPort(Ptr<Node> node)
{
    Ptr<MyrinetSwitch> sw = GetOrCreateSwitch(node);
    Ptr<MyrinetNetDevice> dev = m_deviceFactory.Create<MyrinetNetDevice>();
    dev->SetAddress(Mac48Address::Allocate());
    node->AddDevice(dev);
    sw->AddPort(dev);
    return dev;
}

Ptr<MyrinetChannel>
MyrinetHelper::Link(Ptr<MyrinetNetDevice> a, Ptr<MyrinetNetDevice> b)
{
    Ptr<MyrinetChannel> ch = m_channelFactory.Create<MyrinetChannel>();
    a->Attach(ch);
    b->Attach(ch);
    return ch;
}

NetDeviceContainer
MyrinetHelper::Install(Ptr<Node> a, Ptr<Node> b)
{
    Ptr<MyrinetNetDevice> da = CreateHostPort(a);
    Ptr<MyrinetNetDevice> db = CreateHostPort(b);
    Link(da, db);
    da->AddRoute(Mac48Address::ConvertFrom(db->GetAddress()), {});
    db->AddRoute(Mac48Address::ConvertFrom(da->GetAddress()), {});
    NetDeviceContainer c;
    c.Add(da);
    c.Add(db);
    return c;
}

NetDeviceContainer
MyrinetHelper::InstallSwitch(Ptr<Node> switchNode, const NodeContainer& hosts)
{
    NetDeviceContainer c;
    for (uint32_t i = 0; i < hosts.GetN(); ++i)
    {
        Ptr<MyrinetNetDevice> h = CreateHostPort(hosts.Get(i));
        Link(h, CreateSwitchPort(switchNode));
        c.Add(h);
    }
    for (uint32_t i = 0; i < c.GetN(); ++i)
    {
        Ptr<MyrinetNetDevice> src = DynamicCast<MyrinetNetDevice>(c.Get(i));
        for (uint32_t j = 0; j < c.GetN(); ++j)
        {
            if (i != j)
            {
                src->AddRoute(Mac48Address::ConvertFrom(c.Get(j)->GetAddress()),
                              {static_cast<uint8_t>(j)});
            }
        }
    }
    return c;
}

} // namespace clusternet
} // namespace ns3
