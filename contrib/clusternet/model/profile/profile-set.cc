// SPDX-License-Identifier: GPL-2.0-only
#include "profile-set.h"

#include "ns3/config.h"
#include "ns3/log.h"
#include "ns3/string.h"

#include <algorithm>

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("ProfileSet");

ProfileSet::ProfileSet(const std::vector<std::string>& targets)
{
    for (const auto& kt : targets)
    {
        std::size_t dot = kt.find('.');
        NS_ASSERT_MSG(dot != std::string::npos, "target '" << kt << "' is not kind.target");
        std::string kind = kt.substr(0, dot);
        std::string name = kt.substr(dot + 1);
        const auto& table = ProfileCatalogue::Targets();
        auto row = std::find_if(table.begin(), table.end(), [&](const ProfileTarget& t) {
            return t.kind == kind && t.target == name;
        });
        NS_ASSERT_MSG(row != table.end(), "no target " << kt << " in ProfileCatalogue::Targets()");
        NS_ASSERT_MSG(std::none_of(m_targets.begin(),
                                   m_targets.end(),
                                   [&](const auto& t) { return t.first == name; }),
                      "target " << name << " given twice");
        m_targets.emplace_back(name, TypeId::LookupByName(row->typeId));
        m_where.push_back(row->where);
    }
}

std::size_t
ProfileSet::Find(const std::string& target) const
{
    for (std::size_t i = 0; i < m_targets.size(); ++i)
    {
        if (m_targets[i].first == target)
        {
            return i;
        }
    }
    NS_ABORT_MSG("this run has no target " << target);
    return 0;
}

void
ProfileSet::AddProfile(const Profile& profile)
{
    const auto& table = ProfileCatalogue::Targets();
    for (const auto& v : profile.values)
    {
        auto row = std::find_if(table.begin(), table.end(), [&](const ProfileTarget& t) {
            return t.kind == profile.kind && t.target == v.target;
        });
        auto mine = std::find_if(m_targets.begin(), m_targets.end(), [&](const auto& t) {
            return t.first == v.target;
        });
        // A value for an object this run has (the same name may mean another object in another
        // kind: "device" is a host's IP-over-GM interface but a NIC profile's GigE device).
        if (row != table.end() && mine != m_targets.end() && row->typeId == mine->second.GetName())
        {
            m_entries.push_back({Layer::PROFILE, v.target, v.attribute, v.value});
        }
    }
}

void
ProfileSet::Set(const std::string& target, const std::string& attribute, const std::string& value)
{
    std::string err = ProfileCatalogue::CheckAttribute(GetTypeId(target), attribute, value);
    NS_ABORT_MSG_UNLESS(err.empty(), target << "." << attribute << "=" << value << ": " << err);
    m_entries.push_back({Layer::CHOICE, target, attribute, value});
}

std::string
ProfileSet::SetOverrides(const std::string& overrides, const std::vector<std::string>& used)
{
    auto isUsed = [&used](const std::string& target) {
        return used.empty() || std::find(used.begin(), used.end(), target) != used.end();
    };
    std::vector<Entry> items;
    std::size_t start = 0;
    while (!overrides.empty() && start <= overrides.size())
    {
        std::size_t end = overrides.find(';', start);
        std::string item = overrides.substr(start, end == std::string::npos ? end : end - start);
        start = end == std::string::npos ? overrides.size() + 1 : end + 1;
        if (item.empty())
        {
            return "'" + overrides + "' has an empty item; give target.Attribute=value items "
                   "separated by ';'";
        }
        std::size_t dot = item.find('.');
        std::size_t eq = item.find('=');
        if (dot == std::string::npos || eq == std::string::npos || eq < dot || dot == 0 ||
            eq == dot + 1)
        {
            return "'" + item + "' is not target.Attribute=value";
        }
        if (eq + 1 == item.size())
        {
            return "'" + item + "': no value (give target.Attribute=value)";
        }
        Entry e{Layer::USER,
                item.substr(0, dot),
                item.substr(dot + 1, eq - dot - 1),
                item.substr(eq + 1)};
        auto mine = std::find_if(m_targets.begin(), m_targets.end(), [&](const auto& t) {
            return t.first == e.target;
        });
        if (mine == m_targets.end() || !isUsed(e.target))
        {
            std::string allowed;
            for (const auto& t : m_targets)
            {
                allowed += isUsed(t.first) ? (allowed.empty() ? "" : ", ") + t.first : "";
            }
            return "'" + item + "': " +
                   (mine == m_targets.end() ? "unknown target '"
                                            : "this program does not use target '") +
                   e.target + "'; allowed: " + allowed;
        }
        std::string err = ProfileCatalogue::CheckAttribute(mine->second, e.attribute, e.value);
        if (!err.empty())
        {
            return "'" + item + "': " + err;
        }
        items.push_back(e);
    }
    m_entries.insert(m_entries.end(), items.begin(), items.end());
    return "";
}

std::vector<std::string>
ProfileSet::GetTargets() const
{
    std::vector<std::string> names;
    for (const auto& t : m_targets)
    {
        names.push_back(t.first);
    }
    return names;
}

TypeId
ProfileSet::GetTypeId(const std::string& target) const
{
    return m_targets[Find(target)].second;
}

Ptr<const AttributeChecker>
ProfileSet::Checker(const std::string& target, const std::string& attribute) const
{
    TypeId::AttributeInformation info;
    bool found = GetTypeId(target).LookupAttributeByName(attribute, &info);
    NS_ABORT_MSG_UNLESS(found, GetTypeId(target).GetName() << " has no attribute " << attribute);
    return info.checker;
}

std::string
ProfileSet::Get(const std::string& target, const std::string& attribute) const
{
    for (auto e = m_entries.rbegin(); e != m_entries.rend(); ++e)
    {
        if (e->target == target && e->attribute == attribute)
        {
            return e->value;
        }
    }
    TypeId::AttributeInformation info;
    bool found = GetTypeId(target).LookupAttributeByName(attribute, &info);
    NS_ABORT_MSG_UNLESS(found, GetTypeId(target).GetName() << " has no attribute " << attribute);
    return info.initialValue->SerializeToString(info.checker);
}

void
ProfileSet::ApplyLayers(const std::string& target,
                        Ptr<Object> object,
                        std::initializer_list<Layer> layers) const
{
    TypeId tid = GetTypeId(target);
    NS_ASSERT_MSG(object->GetInstanceTypeId() == tid || object->GetInstanceTypeId().IsChildOf(tid),
                  "target " << target << " configures a " << tid.GetName() << ", not a "
                            << object->GetInstanceTypeId().GetName());
    for (const auto& [attribute, value] : Values(target, layers))
    {
        object->SetAttribute(attribute, StringValue(value));
    }
}

void
ProfileSet::ApplyProfiles(const std::string& target, Ptr<Object> object) const
{
    ApplyLayers(target, object, {Layer::PROFILE, Layer::CHOICE});
}

void
ProfileSet::ApplyOverrides(const std::string& target, Ptr<Object> object) const
{
    ApplyLayers(target, object, {Layer::USER});
}

std::vector<std::pair<std::string, uint32_t>>
ProfileSet::ApplyOverrides(const NodeContainer& nodes) const
{
    return ApplyBelow(nodes, {Layer::USER});
}

std::vector<std::pair<std::string, uint32_t>>
ProfileSet::Apply(const NodeContainer& nodes) const
{
    return ApplyBelow(nodes, {Layer::PROFILE, Layer::CHOICE, Layer::USER});
}

std::vector<std::pair<std::string, uint32_t>>
ProfileSet::ApplyBelow(const NodeContainer& nodes, std::initializer_list<Layer> layers) const
{
    std::vector<std::pair<std::string, uint32_t>> applied;
    for (std::size_t i = 0; i < m_targets.size(); ++i)
    {
        const auto& [target, tid] = m_targets[i];
        uint32_t n = 0;
        if (!m_where[i].empty() && !Values(target, layers).empty())
        {
            for (auto node = nodes.Begin(); node != nodes.End(); ++node)
            {
                Config::MatchContainer found = Config::LookupMatches(
                    "/NodeList/" + std::to_string((*node)->GetId()) + "/" + m_where[i]);
                for (std::size_t k = 0; k < found.GetN(); ++k)
                {
                    if (found.Get(k)->GetInstanceTypeId().IsChildOf(tid) ||
                        found.Get(k)->GetInstanceTypeId() == tid)
                    {
                        ApplyLayers(target, found.Get(k), layers);
                        ++n;
                    }
                }
            }
            NS_LOG_LOGIC("values of " << target << " applied to " << n << " objects");
        }
        applied.emplace_back(target, n);
    }
    return applied;
}

void
ProfileSet::Apply(const std::string& target, Ptr<Object> object) const
{
    ApplyLayers(target, object, {Layer::PROFILE, Layer::CHOICE, Layer::USER});
}

std::vector<std::pair<std::string, std::string>>
ProfileSet::Values(const std::string& target, std::initializer_list<Layer> layers) const
{
    Find(target);
    std::vector<std::pair<std::string, std::string>> out;
    for (Layer layer : layers)
    {
        for (const auto& e : m_entries)
        {
            if (e.layer == layer && e.target == target)
            {
                out.emplace_back(e.attribute, e.value);
            }
        }
    }
    return out;
}

std::vector<std::pair<std::string, std::string>>
ProfileSet::GetProfileValues(const std::string& target) const
{
    return Values(target, {Layer::PROFILE, Layer::CHOICE});
}

std::vector<std::pair<std::string, std::string>>
ProfileSet::GetOverrides(const std::string& target) const
{
    return Values(target, {Layer::USER});
}

} // namespace clusternet
} // namespace ns3
