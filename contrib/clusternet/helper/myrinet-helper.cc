// SPDX-License-Identifier: GPL-2.0-only
#include "myrinet-helper.h"

#include "myrinet-topology.h"

#include "ns3/abort.h"
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
    return CheckFlowControl(m_deviceFactory.Create<MyrinetNetDevice>(),
                            m_channelFactory.Create<MyrinetChannel>());
}

std::string
MyrinetHelper::CheckFlowControl(Ptr<MyrinetNetDevice> dev, Ptr<MyrinetChannel> ch)
{
    return MyrinetNetDevice::CheckFlowControl(dev->GetSlackBufferSize(),
                                              dev->GetStopThreshold(),
                                              dev->GetGoThreshold(),
                                              ch->GetDataRate(),
                                              ch->GetDelay());
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

uint32_t
MyrinetHelper::LineSwitchOf(uint32_t i, uint32_t hosts, uint32_t count)
{
    return hosts < 2 ? 0 : (i * (count - 1) + (hosts - 1) / 2) / (hosts - 1);
}

NetDeviceContainer
MyrinetHelper::InstallLine(const NodeContainer& hosts, uint32_t count, NodeContainer& switches)
{
    NS_ABORT_MSG_IF(count == 0 || count > MAX_LINE_SWITCHES,
                    "InstallLine: a line of " << count << " switches; allowed: 1.."
                                              << MAX_LINE_SWITCHES);
    const uint32_t n = hosts.GetN();
    std::vector<Ptr<Node>> line;
    for (uint32_t s = 0; s < count; ++s)
    {
        line.push_back(CreateObject<Node>());
        switches.Add(line.back());
    }
    auto lastPort = [this](Ptr<Node> node) {
        return static_cast<uint8_t>(GetOrCreateSwitch(node)->GetNPorts() - 1);
    };
    NetDeviceContainer c;
    std::vector<uint32_t> at(n);
    std::vector<uint8_t> port(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        at[i] = LineSwitchOf(i, n, count);
        Ptr<MyrinetNetDevice> h = CreateHostPort(hosts.Get(i));
        Link(h, CreateSwitchPort(line[at[i]]));
        port[i] = lastPort(line[at[i]]);
        c.Add(h);
    }
    std::vector<uint8_t> right(count);
    std::vector<uint8_t> left(count);
    for (uint32_t s = 0; s + 1 < count; ++s)
    {
        Ptr<MyrinetNetDevice> r = CreateSwitchPort(line[s]);
        right[s] = lastPort(line[s]);
        Ptr<MyrinetNetDevice> l = CreateSwitchPort(line[s + 1]);
        left[s + 1] = lastPort(line[s + 1]);
        Link(r, l);
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t j = 0; j < n; ++j)
        {
            if (i == j)
            {
                continue;
            }
            std::vector<uint8_t> route;
            for (uint32_t s = at[i]; s != at[j]; s = s < at[j] ? s + 1 : s - 1)
            {
                route.push_back(s < at[j] ? right[s] : left[s]);
            }
            route.push_back(port[j]);
            DynamicCast<MyrinetNetDevice>(c.Get(i))
                ->AddRoute(Mac48Address::ConvertFrom(c.Get(j)->GetAddress()), route);
        }
    }
    NS_LOG_LOGIC("line of " << count << " switches, " << n << " hosts");
    return c;
}

NetDeviceContainer
MyrinetHelper::InstallTopology(const std::string& type,
                               const NodeContainer& hosts,
                               NodeContainer& switches)
{
    ObjectFactory factory(type);
    NS_ABORT_MSG_UNLESS(factory.GetTypeId().IsChildOf(MyrinetTopology::GetTypeId()),
                        "MyrinetHelper: " << type << " is not a MyrinetTopology");
    Ptr<MyrinetTopology> topology = factory.Create<MyrinetTopology>();
    if (!topology->Fits(hosts.GetN()))
    {
        return NetDeviceContainer();
    }
    NS_LOG_LOGIC(type << ": " << hosts.GetN() << " hosts");
    return topology->Install(*this, hosts, switches);
}

} // namespace clusternet
} // namespace ns3
