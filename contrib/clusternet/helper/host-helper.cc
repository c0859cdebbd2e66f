// SPDX-License-Identifier: GPL-2.0-only
#include "host-helper.h"

#include "ns3/host-cpu.h"
#include "ns3/host-stack.h"
#include "ns3/node.h"
#include "ns3/pci-bus.h"
#include "ns3/profile-catalogue.h"
#include "ns3/string.h"

#include <algorithm>

namespace ns3
{
namespace clusternet
{

HostHelper::HostHelper()
{
    m_cpuFactory.SetTypeId(HostCpu::GetTypeId());
    m_busFactory.SetTypeId(PciBus::GetTypeId());
    m_stackFactory.SetTypeId(HostStack::GetTypeId());
}

bool
HostHelper::SetHostProfile(const std::string& name)
{
    const Profile* p = ProfileCatalogue::Find("host", name);
    if (!p)
    {
        return false;
    }
    for (const auto& v : p->values)
    {
        // Other targets (e.g. "gm", the host's GM library) belong to other helpers.
        ObjectFactory* f = v.target == "cpu"     ? &m_cpuFactory
                           : v.target == "bus"   ? &m_busFactory
                           : v.target == "stack" ? &m_stackFactory
                                                 : nullptr;
        if (f)
        {
            f->Set(v.attribute, StringValue(v.value));
        }
    }
    return true;
}

void
HostHelper::SetCpuAttribute(std::string name, const AttributeValue& value)
{
    m_cpuFactory.Set(name, value);
}

void
HostHelper::SetBusAttribute(std::string name, const AttributeValue& value)
{
    m_busFactory.Set(name, value);
}

void
HostHelper::SetStackAttribute(std::string name, const AttributeValue& value)
{
    m_stackFactory.Set(name, value);
}

void
HostHelper::Install(Ptr<Node> node) const
{
    node->AggregateObject(m_cpuFactory.Create<HostCpu>());
    node->AggregateObject(m_busFactory.Create<PciBus>());
    node->AggregateObject(m_stackFactory.Create<HostStack>());
}

void
HostHelper::InstallStack(NodeContainer nodes) const
{
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        (*it)->AggregateObject(m_stackFactory.Create<HostStack>());
    }
}

bool
HostHelper::SetPciSlot(const std::string& slot)
{
    std::string width;
    std::string clock;
    if (!ParsePciSlot(slot, width, clock))
    {
        return slot.empty();
    }
    m_busFactory.Set("Width", StringValue(width));
    m_busFactory.Set("Clock", StringValue(clock));
    return true;
}

std::vector<std::string>
HostHelper::PciSlots()
{
    return {"32x33", "32x66", "64x33", "64x66"};
}

bool
HostHelper::ParsePciSlot(const std::string& s, std::string& width, std::string& clock)
{
    const std::vector<std::string> slots = PciSlots();
    if (std::find(slots.begin(), slots.end(), s) == slots.end())
    {
        return false;
    }
    width = s.substr(0, s.find('x'));
    clock = s.substr(s.find('x') + 1);
    return true;
}

void
HostHelper::Install(NodeContainer nodes) const
{
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Install(*it);
    }
}

} // namespace clusternet
} // namespace ns3
