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

Ptr<HostCpu>
HostHelper::CreateCpu() const
{
    return m_cpuFactory.Create<HostCpu>();
}

void
HostHelper::InstallStack(NodeContainer nodes) const
{
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        (*it)->AggregateObject(m_stackFactory.Create<HostStack>());
    }
}

void
HostHelper::ChoosePciSlot(ProfileSet& values, const std::string& slot)
{
    std::string width;
    std::string clock;
    if (ParsePciSlot(slot, width, clock))
    {
        values.Set("bus", "Width", width);
        values.Set("bus", "Clock", clock);
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

namespace
{
/// @return the names an enum attribute of PciBus allows ("32|64" split)
std::vector<std::string>
EnumNames(const std::string& attribute)
{
    TypeId::AttributeInformation info;
    NS_ABORT_UNLESS(PciBus::GetTypeId().LookupAttributeByName(attribute, &info));
    std::string names = info.checker->GetUnderlyingTypeInformation();
    std::vector<std::string> out;
    for (std::size_t at = 0; at <= names.size();)
    {
        std::size_t bar = std::min(names.find('|', at), names.size());
        out.push_back(names.substr(at, bar - at));
        at = bar + 1;
    }
    return out;
}
} // namespace

std::vector<std::string>
HostHelper::PciSlots()
{
    std::vector<std::string> slots;
    for (const auto& width : EnumNames("Width"))
    {
        for (const auto& clock : EnumNames("Clock"))
        {
            slots.push_back(width + "x" + clock);
        }
    }
    return slots;
}

std::string
HostHelper::JoinPciSlots()
{
    std::string out;
    for (const auto& slot : PciSlots())
    {
        out += (out.empty() ? "" : ", ") + slot;
    }
    return out;
}

std::string
HostHelper::ProfileSlot(const std::string& name)
{
    HostHelper h;
    if (!h.SetHostProfile(name))
    {
        return "";
    }
    Ptr<PciBus> bus = h.m_busFactory.Create<PciBus>();
    StringValue width;
    StringValue clock;
    bus->GetAttribute("Width", width);
    bus->GetAttribute("Clock", clock);
    return width.Get() + "x" + clock.Get();
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
