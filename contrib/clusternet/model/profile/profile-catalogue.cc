// SPDX-License-Identifier: GPL-2.0-only
#include "profile-catalogue.h"

#include "attribute-range.h"

#include "ns3/data-rate.h"
#include "ns3/log.h"
#include "ns3/string.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <toml++/toml.h>

#ifndef CLUSTERNET_PROFILE_DIR
#define CLUSTERNET_PROFILE_DIR "profiles" //!< the module's catalogue (set by its CMakeLists.txt)
#endif

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("ProfileCatalogue");

namespace
{

/// The profile kinds, in the order `./ns3 profiles` lists them: the machines and cards a
/// scenario selects (host, nic), the physical parts they are composed of (cpu, os, gm; chip,
/// driver), and the parts used whole (lanai, chipset, fm, mpi).
const std::vector<std::string> kKinds =
    {"host", "nic", "cpu", "os", "gm", "chip", "driver", "lanai", "chipset", "fm", "mpi"};

/// The kinds "one of ..." names in error messages.
std::string
KindList()
{
    std::string out;
    for (const auto& k : kKinds)
    {
        out += (out.empty() ? "" : ", ") + k;
    }
    return out;
}

/// Which part kinds a profile of a composed kind may name in `parts`.
const std::map<std::string, std::vector<std::string>>&
PartKinds()
{
    static const std::map<std::string, std::vector<std::string>> parts = {
        {"host", {"cpu", "os", "gm"}},
        {"nic", {"chip", "driver"}},
    };
    return parts;
}

/// The table name of values that are not attributes.
const std::string kProperties = "properties";

/// A property: a value that is not an attribute, with the rule its value must follow.
struct PropertyRule
{
    std::string kind;    //!< profile kind that may set it
    std::string key;     //!< its name
    std::string allowed; //!< what is allowed, for the error message
    /// @return true if @p value is allowed (profile names are checked later, against all files)
    std::function<bool(const std::string&)> check;
    std::string namesKind; //!< non-empty: every comma-separated item names a profile of this kind
};

bool
IsNumber(const std::string& s)
{
    if (s.empty())
    {
        return false;
    }
    double d = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
    return ec == std::errc() && end == s.data() + s.size() && std::isfinite(d) && d >= 0;
}

bool
IsWholeNumber(const std::string& s)
{
    return !s.empty() && s.size() < 10 && s.find_first_not_of("0123456789") == std::string::npos;
}

bool
IsOneName(const std::string& s)
{
    return s.find(',') == std::string::npos;
}

const std::vector<PropertyRule>&
PropertyRules()
{
    static const std::vector<PropertyRule> rules = {
        {"host", "Chipset", "the name of one chipset profile", IsOneName, "chipset"},
        {"cpu", "Chipset", "the name of one chipset profile", IsOneName, "chipset"},
        {"nic", "PriceUsd", "a price in US dollars (a number >= 0)", IsNumber, ""},
        {"lanai",
         "PciClock",
         "33 or 66 (MHz: the fastest PCI clock the board runs at)",
         [](const std::string& v) { return v == "33" || v == "66"; },
         ""},
        {"fm",
         "Pacing",
         "off, probe, or a PIO chunk in bytes",
         [](const std::string& v) { return v == "off" || v == "probe" || IsWholeNumber(v); },
         ""},
        {"mpi",
         "Transport",
         "tcp, gm, via or fm",
         [](const std::string& v) { return v == "tcp" || v == "gm" || v == "via" || v == "fm"; },
         ""},
        {"mpi", "Nics", "NIC profile names, comma-separated", nullptr, "nic"},
    };
    return rules;
}

std::vector<std::string>
SplitComma(const std::string& s)
{
    // Every item, the empty ones too ("", "a,", "a,,b"): each must name a profile.
    std::vector<std::string> out;
    std::size_t from = 0;
    for (std::size_t comma; (comma = s.find(',', from)) != std::string::npos; from = comma + 1)
    {
        out.push_back(s.substr(from, comma - from));
    }
    out.push_back(s.substr(from));
    return out;
}

/// The loaded catalogue: profiles in load order, and whether the defaults were read.
struct Catalogue
{
    std::vector<Profile> profiles;
    bool loaded{false};
    std::set<std::string> used; //!< names of the profiles found, their bases and parts
};

Catalogue&
TheCatalogue()
{
    static Catalogue c;
    return c;
}

/// A profile as written in its file, before its base is laid under it.
struct RawProfile
{
    Profile profile; //!< values: its own only
    uint32_t baseLine{0};
    uint32_t partsLine{0}; //!< line of its parts list
};

std::string
Where(const std::string& file, uint32_t line)
{
    return file + ":" + std::to_string(line);
}

/// A TOML scalar as the attribute text it stands for.
bool
ScalarText(const toml::node& node, std::string& out)
{
    if (auto s = node.as_string())
    {
        out = s->get();
        return true;
    }
    if (auto i = node.as_integer())
    {
        out = std::to_string(i->get());
        return true;
    }
    if (auto b = node.as_boolean())
    {
        out = b->get() ? "true" : "false";
        return true;
    }
    if (auto f = node.as_floating_point())
    {
        char buf[64];
        auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), f->get());
        out.assign(buf, ec == std::errc() ? end : buf);
        return true;
    }
    return false;
}

const ProfileTarget*
FindTarget(const std::string& kind, const std::string& target)
{
    for (const auto& t : ProfileCatalogue::Targets())
    {
        if (t.kind == kind && t.target == target)
        {
            return &t;
        }
    }
    return nullptr;
}

std::string
TargetsOf(const std::string& kind)
{
    std::string out;
    for (const auto& t : ProfileCatalogue::Targets())
    {
        if (t.kind == kind)
        {
            out += t.target + ", ";
        }
    }
    return out + kProperties;
}

/// Read one file's profiles into @p out; @return "" or "file:line: error".
std::string
ReadFile(const std::string& file, std::vector<RawProfile>& out)
{
    toml::table doc;
    try
    {
        doc = toml::parse_file(file);
    }
    catch (const toml::parse_error& e)
    {
        return Where(file, e.source().begin.line) + ": malformed TOML: " +
               std::string(e.description());
    }
    std::vector<RawProfile> read;
    for (auto&& [key, node] : doc)
    {
        std::string name(key.str());
        uint32_t line = key.source().begin.line;
        auto* table = node.as_table();
        if (!table)
        {
            return Where(file, line) + ": '" + name +
                   "' is not a profile table ([" + name + "] with kind, description and values)";
        }
        RawProfile raw;
        Profile& p = raw.profile;
        p.name = name;
        p.file = file;
        p.line = line;
        std::vector<std::pair<uint32_t, ProfileValue>> values;
        std::vector<std::pair<uint32_t, std::string>> targets; // empty target tables, lines
        for (auto&& [fieldKey, field] : *table)
        {
            std::string f(fieldKey.str());
            uint32_t fline = fieldKey.source().begin.line;
            std::string at = Where(file, fline) + ": " + name + "." + f;
            if (f == "kind" || f == "description" || f == "base")
            {
                auto s = field.as_string();
                if (!s || s->get().empty())
                {
                    return at + ": needs a non-empty string";
                }
                (f == "kind" ? p.kind : f == "description" ? p.description : p.base) = s->get();
                if (f == "base")
                {
                    raw.baseLine = fline;
                }
                continue;
            }
            if (f == "parts")
            {
                auto* list = field.as_array();
                bool ok = list && !list->empty();
                for (size_t i = 0; ok && i < list->size(); ++i)
                {
                    auto item = list->get(i)->as_string();
                    ok = item && !item->get().empty();
                    if (ok)
                    {
                        p.parts.push_back(item->get());
                    }
                }
                if (!ok)
                {
                    return at + ": needs a list of part profile names, e.g. [\"piii450\", "
                                "\"linux-2.2.12\"]";
                }
                raw.partsLine = fline;
                continue;
            }
            if (f == "abstract")
            {
                auto b = field.as_boolean();
                if (!b)
                {
                    return at + ": needs true or false";
                }
                p.abstract = b->get();
                continue;
            }
            auto* targetTable = field.as_table();
            if (!targetTable)
            {
                return at + ": unknown key (a profile has kind, description, base, parts, "
                            "abstract and one table per target)";
            }
            if (targetTable->empty())
            {
                targets.emplace_back(fline, f); // checked below (the others through values)
            }
            for (auto&& [attrKey, item] : *targetTable)
            {
                std::string attr(attrKey.str());
                uint32_t vline = attrKey.source().begin.line;
                std::string vat = Where(file, vline) + ": " + name + "." + f + "." + attr;
                auto* pair = item.as_array();
                ProfileValue v{f, attr, "", "", file, vline};
                if (!pair || pair->size() != 2 || !ScalarText(*pair->get(0), v.value))
                {
                    return vat + ": needs [value, source], e.g. [\"5us\", \"datasheet p. 3\"]";
                }
                auto source = pair->get(1)->as_string();
                if (!source || source->get().find_first_not_of(" \t") == std::string::npos)
                {
                    return vat + ": the value has no source (say where it comes from: paper "
                                 "and section, datasheet, driver default or reasoning)";
                }
                v.source = source->get();
                values.emplace_back(vline, v);
            }
        }
        if (p.kind.empty())
        {
            return Where(file, line) + ": " + name + ": needs kind (one of " + KindList() + ")";
        }
        if (std::find(kKinds.begin(), kKinds.end(), p.kind) == kKinds.end())
        {
            return Where(file, line) + ": " + name + ": unknown kind '" + p.kind + "' (one of " +
                   KindList() + ")";
        }
        if (p.description.empty())
        {
            return Where(file, line) + ": " + name + ": needs a description";
        }
        // An empty target table names a target of the kind too.
        std::sort(targets.begin(), targets.end());
        for (const auto& [l, t] : targets)
        {
            if (t != kProperties && !FindTarget(p.kind, t))
            {
                return Where(file, l) + ": " + name + "." + t + ": a " + p.kind +
                       " profile has no target '" + t + "' (allowed: " + TargetsOf(p.kind) + ")";
            }
        }
        std::sort(values.begin(), values.end(), [](const auto& a, const auto& b) {
            return a.first < b.first;
        });
        for (auto& [l, v] : values)
        {
            std::string vat =
                Where(file, l) + ": " + name + "." + v.target + "." + v.attribute + " = '" +
                v.value + "'";
            if (v.target == kProperties)
            {
                const PropertyRule* rule = nullptr;
                for (const auto& r : PropertyRules())
                {
                    if (r.kind == p.kind && r.key == v.attribute)
                    {
                        rule = &r;
                    }
                }
                if (!rule)
                {
                    std::string keys;
                    for (const auto& r : PropertyRules())
                    {
                        keys += r.kind == p.kind ? (keys.empty() ? "" : ", ") + r.key : "";
                    }
                    return vat + ": no such property of a " + p.kind + " profile (" +
                           (keys.empty() ? "it has none" : "allowed: " + keys) + ")";
                }
                if (rule->check && !rule->check(v.value))
                {
                    return vat + ": not allowed (" + rule->allowed + ")";
                }
                p.values.push_back(v);
                continue;
            }
            const ProfileTarget* target = FindTarget(p.kind, v.target);
            if (!target)
            {
                return Where(file, l) + ": " + name + "." + v.target + ": a " + p.kind +
                       " profile has no target '" + v.target + "' (allowed: " +
                       TargetsOf(p.kind) + ")";
            }
            TypeId tid = TypeId::LookupByName(target->typeId);
            std::string err = ProfileCatalogue::CheckAttribute(tid, v.attribute, v.value);
            if (!err.empty())
            {
                return vat + ": " + err;
            }
            p.values.push_back(v);
        }
        read.push_back(std::move(raw));
    }
    if (read.empty())
    {
        return Where(file, 1) + ": holds no profile (a profile is a table [name] with kind, "
                                "description and values)";
    }
    std::sort(read.begin(), read.end(), [](const RawProfile& a, const RawProfile& b) {
        return a.profile.line < b.profile.line;
    });
    out.insert(out.end(), read.begin(), read.end());
    return "";
}

/// The files a path stands for: the file, or a folder's *.toml in name order.
std::string
ExpandPath(const std::string& path, std::vector<std::string>& files)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::is_directory(path, ec))
    {
        std::vector<std::string> found;
        for (const auto& e : fs::directory_iterator(path, ec))
        {
            if (e.path().extension() != ".toml" || fs::is_directory(e.path(), ec))
            {
                continue;
            }
            if (!fs::is_regular_file(e.path(), ec))
            {
                // A FIFO would block the reader for ever; a dangling link reads nothing.
                return Where(e.path().string(), 1) +
                       ": not a regular file (a profile file is a TOML text file)";
            }
            found.push_back(e.path().string());
        }
        if (found.empty())
        {
            return path + ": holds no profile file (*.toml)";
        }
        std::sort(found.begin(), found.end());
        files.insert(files.end(), found.begin(), found.end());
        return "";
    }
    if (fs::exists(path, ec) && !fs::is_regular_file(path, ec))
    {
        return Where(path, 1) + ": not a regular file (a profile file is a TOML text file)";
    }
    if (!fs::is_regular_file(path, ec))
    {
        return path + ": no such profile file or folder";
    }
    files.push_back(path);
    return "";
}

/// Resolve bases and check names across @p raws; @return "" or "file:line: error".
std::string
Resolve(const std::vector<RawProfile>& raws, std::vector<Profile>& out)
{
    std::map<std::string, const RawProfile*> byName;
    for (const auto& r : raws)
    {
        auto [it, fresh] = byName.emplace(r.profile.name, &r);
        if (!fresh)
        {
            return Where(r.profile.file, r.profile.line) + ": profile '" + r.profile.name +
                   "' is already defined at " +
                   Where(it->second->profile.file, it->second->profile.line) +
                   " (derive a new name from it with base = \"" + r.profile.name + "\")";
        }
    }
    std::map<std::string, Profile> done;
    std::function<std::string(const RawProfile&, std::vector<std::string>&)> resolve =
        [&](const RawProfile& r, std::vector<std::string>& chain) -> std::string {
        const Profile& p = r.profile;
        if (done.count(p.name))
        {
            return "";
        }
        Profile result = p;
        result.values.clear();
        if (!p.parts.empty())
        {
            std::string at = Where(p.file, r.partsLine) + ": " + p.name;
            auto allowed = PartKinds().find(p.kind);
            if (allowed == PartKinds().end())
            {
                return at + ": a " + p.kind + " profile has no parts (host and nic profiles "
                            "are composed of parts)";
            }
            if (!p.base.empty())
            {
                return at + ": has both base and parts (derive from a part, or compose "
                            "parts)";
            }
            std::map<std::pair<std::string, std::string>, std::string> setBy;
            for (const auto& part : p.parts)
            {
                auto it = byName.find(part);
                std::string kinds;
                for (const auto& k : allowed->second)
                {
                    kinds += (kinds.empty() ? "" : ", ") + k;
                }
                if (it == byName.end() ||
                    std::find(allowed->second.begin(),
                              allowed->second.end(),
                              it->second->profile.kind) == allowed->second.end())
                {
                    return at + ": part '" + part + "' is not a profile of a part kind of a " +
                           p.kind + " (" + kinds + ")";
                }
                chain.push_back(part);
                std::string err = resolve(*it->second, chain);
                chain.pop_back();
                if (!err.empty())
                {
                    return err;
                }
                for (const auto& v : done.at(part).values)
                {
                    auto [other, fresh] = setBy.emplace(std::make_pair(v.target, v.attribute),
                                                        part);
                    if (!fresh)
                    {
                        return at + ": parts '" + other->second + "' and '" + part +
                               "' both set " + v.target + "." + v.attribute +
                               " (a value belongs to one part)";
                    }
                    result.values.push_back(v);
                }
            }
        }
        if (!p.base.empty())
        {
            std::string at = Where(p.file, r.baseLine) + ": " + p.name;
            auto base = byName.find(p.base);
            if (base == byName.end())
            {
                return at + ": unknown base profile '" + p.base + "'";
            }
            if (std::find(chain.begin(), chain.end(), p.base) != chain.end())
            {
                std::string cycle;
                for (const auto& n : chain)
                {
                    cycle += n + " -> ";
                }
                return at + ": its bases form a cycle (" + cycle + p.base + ")";
            }
            if (base->second->profile.kind != p.kind)
            {
                return at + ": base '" + p.base + "' is a " + base->second->profile.kind +
                       " profile, not a " + p.kind + " profile";
            }
            chain.push_back(p.base);
            std::string err = resolve(*base->second, chain);
            chain.pop_back();
            if (!err.empty())
            {
                return err;
            }
            result.values = done.at(p.base).values;
        }
        for (const auto& v : p.values)
        {
            auto same = std::find_if(result.values.begin(),
                                     result.values.end(),
                                     [&v](const ProfileValue& o) {
                                         return o.target == v.target && o.attribute == v.attribute;
                                     });
            if (same != result.values.end())
            {
                *same = v;
            }
            else
            {
                result.values.push_back(v);
            }
        }
        done.emplace(p.name, result);
        return "";
    };
    for (const auto& r : raws)
    {
        std::vector<std::string> chain{r.profile.name};
        std::string err = resolve(r, chain);
        if (!err.empty())
        {
            return err;
        }
    }
    // Properties that name other profiles.
    for (const auto& r : raws)
    {
        for (const auto& v : r.profile.values)
        {
            for (const auto& rule : PropertyRules())
            {
                if (v.target != kProperties || rule.kind != r.profile.kind ||
                    rule.key != v.attribute || rule.namesKind.empty())
                {
                    continue;
                }
                for (const auto& item : SplitComma(v.value))
                {
                    auto it = byName.find(item);
                    if (it == byName.end() || it->second->profile.kind != rule.namesKind ||
                        it->second->profile.abstract)
                    {
                        return Where(v.file, v.line) + ": " + r.profile.name + "." +
                               kProperties + "." + v.attribute + " = '" + v.value + "': '" +
                               item + "' is not a " + rule.namesKind + " profile (" +
                               rule.allowed + ")";
                    }
                }
            }
        }
    }
    for (const auto& r : raws)
    {
        out.push_back(done.at(r.profile.name));
    }
    return "";
}

/// The raw profiles of every file read so far (Load() re-checks the union).
std::vector<RawProfile>&
RawProfiles()
{
    static std::vector<RawProfile> raws;
    return raws;
}

std::string
LoadInto(const std::vector<std::string>& paths)
{
    std::vector<std::string> files;
    for (const auto& path : paths)
    {
        std::string err = ExpandPath(path, files);
        if (!err.empty())
        {
            return err;
        }
    }
    // A file read before (a program asked twice for the same --profile-file) is not read again.
    static std::set<std::string> read;
    std::set<std::string> reading = read;
    std::vector<RawProfile> raws = RawProfiles();
    for (const auto& f : files)
    {
        std::error_code ec;
        std::string canonical = std::filesystem::weakly_canonical(f, ec).string();
        if (!reading.insert(ec ? f : canonical).second)
        {
            continue;
        }
        std::string err = ReadFile(f, raws);
        if (!err.empty())
        {
            return err;
        }
    }
    std::vector<Profile> resolved;
    std::string err = Resolve(raws, resolved);
    if (!err.empty())
    {
        return err;
    }
    read = std::move(reading);
    RawProfiles() = std::move(raws);
    TheCatalogue().profiles = std::move(resolved);
    return "";
}

} // namespace

std::string
Profile::Get(const std::string& target, const std::string& attribute) const
{
    for (const auto& v : values)
    {
        if (v.target == target && v.attribute == attribute)
        {
            return v.value;
        }
    }
    return "";
}

const std::vector<std::string>&
ProfileCatalogue::Kinds()
{
    return kKinds;
}

const std::vector<ProfileTarget>&
ProfileCatalogue::Targets()
{
    static const std::vector<ProfileTarget> targets = {
#define CLUSTERNET_PROFILE_TARGET(kind, target, type, where) {kind, target, type, where},
#include "profile-targets.def"
#undef CLUSTERNET_PROFILE_TARGET
    };
    return targets;
}

std::vector<std::string>
ProfileCatalogue::TargetsOf(const std::vector<std::string>& kinds,
                            const std::vector<std::string>& except)
{
    std::vector<std::string> out;
    std::vector<const ProfileTarget*> taken;
    for (const auto& kind : kinds)
    {
        NS_ASSERT_MSG(std::count(Kinds().begin(), Kinds().end(), kind) == 1,
                      "TargetsOf: no profile kind " << kind);
        for (const auto& row : Targets())
        {
            std::string name = row.kind + "." + row.target;
            if (row.kind != kind || std::count(except.begin(), except.end(), name))
            {
                continue;
            }
            auto same = std::find_if(taken.begin(), taken.end(), [&](const ProfileTarget* t) {
                return t->target == row.target;
            });
            if (same == taken.end())
            {
                taken.push_back(&row);
                out.push_back(name);
            }
            else
            {
                NS_ASSERT_MSG((*same)->typeId == row.typeId,
                              "TargetsOf: " << name << " and " << (*same)->kind << "."
                                            << row.target
                                            << " configure different classes; except one");
            }
        }
    }
    for (const auto& name : except)
    {
        NS_ASSERT_MSG(std::any_of(Targets().begin(),
                                  Targets().end(),
                                  [&](const ProfileTarget& t) {
                                      return t.kind + "." + t.target == name;
                                  }),
                      "TargetsOf: no target " << name << " to except");
    }
    return out;
}

std::vector<std::string>
ProfileCatalogue::DefaultPaths()
{
    const char* env = std::getenv("CLUSTERNET_PROFILE_PATH");
    std::vector<std::string> paths;
    if (env && *env)
    {
        std::stringstream ss(env);
        for (std::string p; std::getline(ss, p, ':');)
        {
            if (!p.empty())
            {
                paths.push_back(p);
            }
        }
        return paths;
    }
    return {CLUSTERNET_PROFILE_DIR};
}

const std::vector<Profile>&
ProfileCatalogue::All()
{
    Catalogue& c = TheCatalogue();
    if (!c.loaded)
    {
        c.loaded = true;
        std::string err = LoadInto(DefaultPaths());
        if (!err.empty())
        {
            // Bad input, not a program error: one line and status 2, before any simulation.
            std::cerr << "clusternet: " << err << std::endl;
            std::exit(2);
        }
    }
    return c.profiles;
}

std::string
ProfileCatalogue::Load(const std::vector<std::string>& paths)
{
    All();
    return LoadInto(paths);
}

const Profile*
ProfileCatalogue::Find(const std::string& kind, const std::string& name)
{
    for (const auto& p : All())
    {
        if (p.kind == kind && p.name == name && !p.abstract)
        {
            // The profile and every one its values come from (names are unique across kinds).
            std::vector<std::string> pending = {p.name};
            std::set<std::string>& used = TheCatalogue().used;
            while (!pending.empty())
            {
                std::string n = pending.back();
                pending.pop_back();
                if (!used.insert(n).second)
                {
                    continue;
                }
                for (const auto& q : All())
                {
                    if (q.name == n)
                    {
                        if (!q.base.empty())
                        {
                            pending.push_back(q.base);
                        }
                        pending.insert(pending.end(), q.parts.begin(), q.parts.end());
                    }
                }
            }
            return &p;
        }
    }
    return nullptr;
}

void
ProfileCatalogue::ForgetUsed()
{
    TheCatalogue().used.clear();
}

std::vector<std::string>
ProfileCatalogue::Used()
{
    std::vector<std::string> out;
    for (const auto& n : TheCatalogue().used)
    {
        for (const auto& q : All())
        {
            if (q.name == n)
            {
                out.push_back(q.kind + ":" + q.name);
            }
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::string>
ProfileCatalogue::Names(const std::string& kind)
{
    std::vector<std::string> names;
    for (const auto& p : All())
    {
        if (p.kind == kind && !p.abstract)
        {
            names.push_back(p.name);
        }
    }
    return names;
}

std::string
ProfileCatalogue::JoinNames(const std::string& kind)
{
    std::string out;
    for (const auto& n : Names(kind))
    {
        out += (out.empty() ? "" : ", ") + n;
    }
    return out;
}

std::string
ProfileCatalogue::Swap(const std::string& kind,
                       const std::string& name,
                       const std::string& part,
                       std::string& composed,
                       std::string& replaced)
{
    All();
    std::vector<RawProfile> raws = RawProfiles();
    auto indexOf = [&raws](const std::string& n) -> int {
        for (size_t i = 0; i < raws.size(); ++i)
        {
            if (raws[i].profile.name == n)
            {
                return static_cast<int>(i);
            }
        }
        return -1;
    };
    auto resolved = [](const std::string& n) -> const Profile* {
        for (const auto& q : All())
        {
            if (q.name == n)
            {
                return &q;
            }
        }
        return nullptr;
    };
    const int top = indexOf(name);
    if (top < 0 || raws[top].profile.kind != kind || raws[top].profile.abstract)
    {
        return "no " + kind + " profile '" + name + "'";
    }
    const Profile* swapIn = resolved(part);
    if (kind == "lanai")
    {
        if (!swapIn || swapIn->kind != "lanai" || !swapIn->abstract)
        {
            std::string programs;
            for (const auto& q : All())
            {
                if (q.kind == "lanai" && q.abstract)
                {
                    programs += (programs.empty() ? "" : ", ") + q.name;
                }
            }
            return "'" + part + "' is not a GM control program (an abstract lanai profile: " +
                   programs + ")";
        }
    }
    else
    {
        auto kinds = PartKinds().find(kind);
        if (kinds == PartKinds().end() || !swapIn || swapIn->abstract ||
            std::find(kinds->second.begin(), kinds->second.end(), swapIn->kind) ==
                kinds->second.end())
        {
            return "'" + part + "' is not a part of a " + kind + " profile";
        }
    }
    std::set<std::string> targets;
    for (const auto& v : swapIn->values)
    {
        targets.insert(v.target);
    }
    auto overlaps = [&](const Profile& q) {
        return std::any_of(q.values.begin(), q.values.end(), [&](const ProfileValue& v) {
            return targets.count(v.target) > 0;
        });
    };
    std::vector<std::string> out;
    std::function<std::string(const std::string&, std::string&)> swap =
        [&](const std::string& n, std::string& result) -> std::string {
        RawProfile r = raws[indexOf(n)];
        Profile& p = r.profile;
        if (kind != "lanai" && !p.parts.empty())
        {
            if (std::find(p.parts.begin(), p.parts.end(), part) != p.parts.end())
            {
                result = n; // one of its parts already
                return "";
            }
            std::vector<std::string> parts;
            bool placed = false;
            for (const auto& q : p.parts)
            {
                const Profile* qp = resolved(q);
                if (qp && qp->kind == swapIn->kind && overlaps(*qp))
                {
                    out.push_back(q);
                    if (!placed)
                    {
                        parts.push_back(part);
                        placed = true;
                    }
                    continue;
                }
                parts.push_back(q);
            }
            if (!placed)
            {
                parts.push_back(part);
            }
            p.parts = parts;
        }
        else if (!p.base.empty())
        {
            const int base = indexOf(p.base);
            if (kind == "lanai" && raws[base].profile.abstract)
            {
                if (p.base == part)
                {
                    result = n;
                    return "";
                }
                out.push_back(p.base);
                p.base = part;
            }
            else
            {
                std::string newBase;
                std::string err = swap(p.base, newBase);
                if (!err.empty() || newBase == p.base)
                {
                    result = n;
                    return err;
                }
                p.base = newBase;
            }
        }
        else
        {
            return kind == "lanai"
                       ? "LANai '" + name +
                             "' derives from no GM control program (an abstract lanai profile "
                             "such as gm15-lanai)"
                       : "'" + name + "' is not composed of parts (a " + kind +
                             " profile with parts = [...], or a base that has them)";
        }
        p.name = n + "+" + part;
        p.abstract = false;
        result = p.name;
        if (indexOf(p.name) < 0)
        {
            raws.push_back(r);
        }
        return "";
    };
    std::string err = swap(name, composed);
    if (!err.empty())
    {
        return err;
    }
    std::vector<Profile> profiles;
    err = Resolve(raws, profiles);
    if (!err.empty())
    {
        return err;
    }
    RawProfiles() = std::move(raws);
    TheCatalogue().profiles = std::move(profiles);
    replaced.clear();
    for (const auto& q : out)
    {
        replaced += (replaced.empty() ? "" : ", ") + q;
    }
    return "";
}

uint32_t
ProfileCatalogue::Apply(const Profile& profile, const std::string& target, Ptr<Object> object)
{
    uint32_t n = 0;
    for (const auto& v : profile.values)
    {
        if (v.target == target)
        {
            object->SetAttribute(v.attribute, StringValue(v.value));
            ++n;
        }
    }
    return n;
}

std::string
ProfileCatalogue::CheckAttribute(TypeId tid, const std::string& attribute, const std::string& value)
{
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(attribute, &info))
    {
        return tid.GetName() + " has no attribute " + attribute;
    }
    // A read-only attribute (a value the object reports) passes its checker, then aborts
    // when set.
    if (!(info.flags & TypeId::ATTR_SET) || !info.accessor->HasSetter())
    {
        return attribute + " is read-only (a value the model reports); it cannot be set";
    }
    std::string type = info.checker->GetValueTypeName();
    // An object (a queue, a coalescer, a driver) is built by the helper: its own attributes
    // are set through its target; an address is each device's own, given by the helper.
    if (type.rfind("ns3::PointerValue", 0) == 0)
    {
        return attribute + " is an object the helper builds; it cannot be set from text (set " +
               "its attributes through its own target, as --set lists them)";
    }
    if (type == "ns3::Mac48AddressValue" || type == "ns3::AddressValue")
    {
        return attribute + " is each device's own address, given by the helper; it cannot be " +
               "set for every device";
    }
    // An enum checker asserts on an unknown name instead of refusing it.
    if (type.rfind("ns3::EnumValue", 0) == 0)
    {
        std::string names = info.checker->GetUnderlyingTypeInformation();
        std::string padded = "|" + names + "|";
        if (value.empty() || value.find('|') != std::string::npos ||
            padded.find("|" + value + "|") == std::string::npos)
        {
            return "value not allowed (one of " + names + ")";
        }
    }
    // Number checkers assert on text that is not a number.
    auto digits = [](const std::string& s, std::size_t from) {
        return s.size() > from && s.size() < from + 20 &&
               s.find_first_not_of("0123456789", from) == std::string::npos;
    };
    bool signedText = !value.empty() && (value[0] == '-' || value[0] == '+');
    if ((type == "ns3::UintegerValue" && !digits(value, 0)) ||
        (type == "ns3::IntegerValue" && !digits(value, signedText ? 1 : 0)))
    {
        return "value not allowed (a whole number; " +
               info.checker->GetUnderlyingTypeInformation() + ")";
    }
    // Double and time checkers abort on text they cannot read, times and rates overflow.
    std::string text;
    if (type == "ns3::DoubleValue")
    {
        text = ValueText::CheckDouble(value);
    }
    else if (type == "ns3::TimeValue")
    {
        text = ValueText::CheckTime(value);
    }
    else if (type == "ns3::DataRateValue")
    {
        // 0 is a setting of a rate whose initial value it is ("0 = the link rate").
        auto initial = DynamicCast<const DataRateValue>(info.initialValue);
        text = ValueText::CheckDataRate(value, initial && initial->Get().GetBitRate() == 0);
    }
    if (!text.empty())
    {
        return "value not allowed (" + text + ")";
    }
    if (!info.checker->CreateValidValue(StringValue(value)))
    {
        return "value not allowed (" + info.checker->GetUnderlyingTypeInformation() + ")";
    }
    return "";
}

} // namespace clusternet
} // namespace ns3
