// SPDX-License-Identifier: GPL-2.0-only
#include "scenario-args.h"

#include "ns3/abort.h"
#include "ns3/command-line.h"
#include "ns3/profile-catalogue.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <set>
#include <sstream>

namespace ns3
{
namespace clusternet
{

namespace
{

/// @return @p s split at commas, empty items kept (so that a caller can refuse them)
std::vector<std::string>
SplitItems(const std::string& s)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    while (true)
    {
        std::size_t comma = s.find(',', start);
        out.push_back(s.substr(start, comma == std::string::npos ? comma : comma - start));
        if (comma == std::string::npos)
        {
            return out;
        }
        start = comma + 1;
    }
}

/// @return the non-empty comma-separated items of @p s (for --profile-file)
std::vector<std::string>
SplitList(const std::string& s)
{
    std::vector<std::string> out;
    for (const auto& item : SplitItems(s))
    {
        if (!item.empty())
        {
            out.push_back(item);
        }
    }
    return out;
}

std::string
Join(const std::vector<std::string>& words)
{
    std::string all;
    for (const auto& w : words)
    {
        all += (all.empty() ? "" : ", ") + w;
    }
    return all;
}

/// ns-3's general arguments (CommandLine's own), and whether each takes a value.
const std::map<std::string, bool>&
Ns3Builtins()
{
    static const std::map<std::string, bool> builtins = {
        {"help", false},
        {"PrintHelp", false},
        {"PrintGlobals", false},
        {"PrintGroups", false},
        {"PrintTypeIds", false},
        {"PrintVersion", false},
        {"version", false},
        {"PrintGroup", true},
        {"PrintAttributes", true},
        {"RngRun", true},
        {"RngSeed", true},
    };
    return builtins;
}

/// @return true if @p text is a whole number (decimal digits) within [min, max]
bool
ParseWhole(const std::string& text, uint64_t min, uint64_t max, uint64_t& value)
{
    if (text.empty() || text.size() > 20 ||
        text.find_first_not_of("0123456789") != std::string::npos)
    {
        return false;
    }
    try
    {
        value = std::stoull(text);
    }
    catch (...)
    {
        return false; // more than 2^64 - 1
    }
    return value >= min && value <= max;
}

} // namespace

std::string
JsonString(const std::string& s)
{
    std::string out = "\"";
    for (unsigned char ch : s)
    {
        if (ch == '"' || ch == '\\')
        {
            out += '\\';
            out += static_cast<char>(ch);
        }
        else if (ch < 0x20)
        {
            char buf[8];
            std::snprintf(buf, sizeof(buf), "\\u%04x", ch);
            out += buf;
        }
        else
        {
            out += static_cast<char>(ch);
        }
    }
    return out + "\"";
}

ScenarioArgs::ScenarioArgs(int argc, char** argv, std::string program, std::string description)
    : m_argc(argc),
      m_argv(argv),
      m_program(std::move(program)),
      m_description(std::move(description))
{
    const std::string flag = "--profile-file=";
    std::vector<std::string> paths;
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        if (arg.rfind(flag, 0) == 0)
        {
            for (const auto& p : SplitList(arg.substr(flag.size())))
            {
                paths.push_back(p);
            }
        }
    }
    std::string err = ProfileCatalogue::Load(paths);
    if (!err.empty())
    {
        Fail("--profile-file: " + err);
    }
}

void
ScenarioArgs::Declare(const std::string& name, Option option)
{
    NS_ABORT_MSG_IF(m_options.count(name) || Ns3Builtins().count(name),
                    "option --" << name << " registered twice");
    m_order.push_back(name);
    option.initial = option.value;
    m_options[name] = std::move(option);
}

void
ScenarioArgs::MarkSetup(const std::string& name)
{
    NS_ABORT_MSG_UNLESS(m_options.count(name), "MarkSetup: no option --" << name);
    m_options[name].setup = true;
}

std::vector<std::string>
ScenarioArgs::SetupChanges() const
{
    std::vector<std::string> out;
    for (const auto& name : m_order)
    {
        const Option& o = m_options.at(name);
        if (o.setup && o.value != o.initial)
        {
            out.push_back(name + "=" + o.value);
        }
    }
    return out;
}

void
ScenarioArgs::Add(const std::string& name, const std::string& help, const std::string& value)
{
    Add(name, help, value, value.empty());
}

void
ScenarioArgs::Add(const std::string& name,
                  const std::string& help,
                  const std::string& value,
                  bool emptyAllowed)
{
    Option o;
    o.help = help;
    o.value = value;
    o.emptyAllowed = emptyAllowed;
    Declare(name, o);
}

void
ScenarioArgs::AddUint(const std::string& name,
                      const std::string& help,
                      const std::string& unit,
                      uint64_t min,
                      uint64_t max,
                      uint64_t value)
{
    Option o;
    o.kind = Kind::UINT;
    o.help = help + " [" + unit + ", " + std::to_string(min) + ".." + std::to_string(max) + "]";
    o.value = std::to_string(value);
    o.unit = unit;
    o.min = min;
    o.max = max;
    Declare(name, o);
}

void
ScenarioArgs::AddUintList(const std::string& name,
                          const std::string& help,
                          const std::string& unit,
                          uint64_t min,
                          uint64_t max,
                          const std::string& value)
{
    Option o;
    o.kind = Kind::UINT_LIST;
    o.help = help + ", comma-separated [" + unit + ", " + std::to_string(min) + ".." +
             std::to_string(max) + "]";
    o.value = value;
    o.unit = unit;
    o.min = min;
    o.max = max;
    Declare(name, o);
}

void
ScenarioArgs::AddChoice(const std::string& name,
                        const std::string& help,
                        const std::vector<std::string>& allowed,
                        const std::string& value,
                        bool emptyAllowed)
{
    Option o;
    o.kind = Kind::CHOICE;
    o.help = help + " (" + Join(allowed) + ")";
    o.value = value;
    o.allowed = allowed;
    o.emptyAllowed = emptyAllowed;
    Declare(name, o);
}

void
ScenarioArgs::AddChoiceList(const std::string& name,
                            const std::string& help,
                            const std::vector<std::string>& allowed,
                            const std::string& value)
{
    Option o;
    o.kind = Kind::CHOICE_LIST;
    o.help = help + ", comma-separated (" + Join(allowed) + ")";
    o.value = value;
    o.allowed = allowed;
    Declare(name, o);
}

void
ScenarioArgs::AddBool(const std::string& name, const std::string& help, bool value)
{
    Option o;
    o.kind = Kind::BOOL;
    o.help = help + " [0/1]";
    o.value = value ? "1" : "0";
    Declare(name, o);
}

void
ScenarioArgs::Fail(const std::string& message) const
{
    // One line, whatever the user typed: control characters in a quoted value are escaped.
    std::string line;
    for (unsigned char c : message)
    {
        if (c == '\n')
        {
            line += "\\n";
        }
        else if (c == '\r')
        {
            line += "\\r";
        }
        else if (c == '\t')
        {
            line += "\\t";
        }
        else if (c < 0x20 || c == 0x7f)
        {
            char hex[5];
            std::snprintf(hex, sizeof(hex), "\\x%02x", c);
            line += hex;
        }
        else
        {
            line += static_cast<char>(c);
        }
    }
    std::cerr << m_program << ": " << line << std::endl;
    std::exit(2);
}

const ScenarioArgs::Option&
ScenarioArgs::Find(const std::string& name) const
{
    auto it = m_options.find(name);
    NS_ABORT_MSG_IF(it == m_options.end(), "no option --" << name << " registered");
    return it->second;
}

void
ScenarioArgs::CheckBuiltin(const std::string& key, const std::string& value, bool hasValue) const
{
    const bool wantsValue = Ns3Builtins().at(key);
    if (!wantsValue)
    {
        if (hasValue)
        {
            Fail("--" + key + " takes no value");
        }
        return;
    }
    if (!hasValue || value.empty())
    {
        Fail("--" + key + " needs a value: --" + key + "=...");
    }
    uint64_t number = 0;
    if (key == "RngRun" && !ParseWhole(value, 0, UINT64_MAX, number))
    {
        Fail("--RngRun: '" + value + "' is not a run number; allowed: a whole number 0.." +
             std::to_string(UINT64_MAX));
    }
    if (key == "RngSeed" && !ParseWhole(value, 1, UINT32_MAX, number))
    {
        Fail("--RngSeed: '" + value + "' is not a seed; allowed: a whole number 1.." +
             std::to_string(UINT32_MAX));
    }
    if (key == "PrintAttributes")
    {
        TypeId tid;
        if (!TypeId::LookupByNameFailSafe(value, &tid))
        {
            Fail("--PrintAttributes: no TypeId '" + value +
                 "' (--PrintTypeIds lists them, e.g. ns3::clusternet::GigeNetDevice)");
        }
    }
    if (key == "PrintGroup")
    {
        for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
        {
            if (TypeId::GetRegistered(i).GetGroupName() == value)
            {
                return;
            }
        }
        Fail("--PrintGroup: no TypeId group '" + value + "' (--PrintGroups lists them)");
    }
}

void
ScenarioArgs::CheckValue(const std::string& name) const
{
    const Option& o = Find(name);
    if (o.value.empty())
    {
        if (!o.emptyAllowed)
        {
            Fail("--" + name + ": empty value; allowed: " + o.help);
        }
        return;
    }
    switch (o.kind)
    {
    case Kind::TEXT:
        return;
    case Kind::UINT:
        GetUint(name, o.min, o.max, o.unit);
        return;
    case Kind::UINT_LIST:
        GetUintList(name, o.min, o.max, o.unit);
        return;
    case Kind::CHOICE:
        GetChoice(name, o.allowed);
        return;
    case Kind::CHOICE_LIST:
        GetChoiceList(name, o.allowed);
        return;
    case Kind::BOOL:
        GetBool(name);
        return;
    }
}

void
ScenarioArgs::ListOptions() const
{
    static const std::map<Kind, std::string> kinds = {{Kind::TEXT, "text"},
                                                      {Kind::UINT, "uint"},
                                                      {Kind::UINT_LIST, "uint_list"},
                                                      {Kind::CHOICE, "choice"},
                                                      {Kind::CHOICE_LIST, "choice_list"},
                                                      {Kind::BOOL, "bool"}};
    std::string json = "{\"program\": " + JsonString(m_program) + ",\n \"options\": [";
    for (std::size_t i = 0; i < m_order.size(); ++i)
    {
        const Option& o = Find(m_order[i]);
        json += std::string(i ? ",\n  " : "\n  ") + "{\"name\": " + JsonString(m_order[i]) +
                ", \"kind\": " + JsonString(kinds.at(o.kind)) +
                ", \"default\": " + JsonString(o.value) +
                ", \"empty_allowed\": " + (o.emptyAllowed ? "true" : "false");
        if (o.kind == Kind::UINT || o.kind == Kind::UINT_LIST)
        {
            json += ", \"unit\": " + JsonString(o.unit) + ", \"min\": " + std::to_string(o.min) +
                    ", \"max\": " + std::to_string(o.max);
        }
        if (o.kind == Kind::CHOICE || o.kind == Kind::CHOICE_LIST)
        {
            json += ", \"allowed\": [";
            for (std::size_t k = 0; k < o.allowed.size(); ++k)
            {
                json += (k ? ", " : "") + JsonString(o.allowed[k]);
            }
            json += "]";
        }
        json += ", \"help\": " + JsonString(o.help) + "}";
    }
    std::cout << json << "]}\n" << std::flush;
}

namespace
{

/// The part options: which profile kind each replaces a part of, and what the part is.
struct PartOption
{
    std::string name;  //!< option name
    std::string kind;  //!< kind of the profiles it changes
    std::string help;  //!< help text
};

const std::vector<PartOption>&
PartOptions()
{
    static const std::vector<PartOption> options = {
        {"os",
         "host",
         "operating system of every host: replaces the host profile's os part (a what-if; the "
         "run is then on no paper's setup); empty = the host's own"},
        {"gm",
         "host",
         "GM host software of every Myrinet host: replaces the host's gm part that sets the same "
         "targets (the GM library, or IP over GM's driver), or is added to a host without one; "
         "empty = the host's own"},
        {"driver",
         "nic",
         "driver of every Gigabit Ethernet NIC: replaces the NIC profile's driver part; empty = "
         "the NIC's own"},
        {"mcp",
         "lanai",
         "GM control program (LANai firmware) of every LANai board: replaces the abstract lanai "
         "profile the board derives from; empty = the board's own"},
    };
    return options;
}

/// @return the names of the GM control programs: the abstract lanai profiles
std::vector<std::string>
ControlPrograms()
{
    std::vector<std::string> names;
    for (const auto& p : ProfileCatalogue::All())
    {
        if (p.kind == "lanai" && p.abstract && p.name.find('+') == std::string::npos)
        {
            names.push_back(p.name);
        }
    }
    return names;
}

/// @return the kind of profile @p name (host, nic, lanai), without recording it as used
std::string
KindOf(const std::string& name)
{
    for (const auto& p : ProfileCatalogue::All())
    {
        if (p.name == name && !p.abstract)
        {
            return p.kind;
        }
    }
    return "";
}

} // namespace

std::string
ScenarioArgs::Selected(const std::string& name) const
{
    const Option& o = Find(name);
    return o.selected.empty() ? o.value : o.selected;
}

void
ScenarioArgs::AddOverrides(const std::vector<std::string>& targets,
                           const std::string& example,
                           const std::string& note,
                           const std::string& name)
{
    // Each target name once, with the classes it configures in this program, in the order given.
    std::vector<std::pair<std::string, std::vector<std::string>>> named;
    for (const auto& row : targets)
    {
        const std::size_t dot = row.find('.');
        const std::string kind = row.substr(0, dot);
        const std::string target = dot == std::string::npos ? "" : row.substr(dot + 1);
        auto t = std::find_if(ProfileCatalogue::Targets().begin(),
                              ProfileCatalogue::Targets().end(),
                              [&](const ProfileTarget& r) {
                                  return r.kind == kind && r.target == target;
                              });
        NS_ABORT_MSG_IF(t == ProfileCatalogue::Targets().end(),
                        "AddOverrides: '" << row << "' is not a row of the target table");
        const std::string cls = t->typeId.substr(t->typeId.rfind(':') + 1);
        auto same = std::find_if(named.begin(), named.end(), [&](const auto& n) {
            return n.first == target;
        });
        if (same == named.end())
        {
            named.push_back({target, {cls}});
        }
        else if (std::find(same->second.begin(), same->second.end(), cls) == same->second.end())
        {
            same->second.push_back(cls);
        }
    }
    std::string list;
    for (std::size_t i = 0; i < named.size(); ++i)
    {
        list += i == 0 ? "" : i + 1 == named.size() ? " or " : ", ";
        list += named[i].first + " (";
        for (std::size_t c = 0; c < named[i].second.size(); ++c)
        {
            list += (c ? ", " : "") + named[i].second[c];
        }
        list += ")";
    }
    Add(name,
        "attribute overrides 'target.Attribute=value;...' over the profiles, with target " + list +
            (note.empty() ? "" : "; " + note) + " (e.g. " + example +
            ") [ns-3 values; --PrintAttributes=ns3::clusternet::CLASS lists a class's]",
        "");
}

void
ScenarioArgs::AddPartOptions(const std::vector<std::string>& parts)
{
    for (const auto& part : parts)
    {
        auto it = std::find_if(PartOptions().begin(),
                               PartOptions().end(),
                               [&part](const PartOption& o) { return o.name == part; });
        NS_ABORT_MSG_IF(it == PartOptions().end(), "AddPartOptions: no part option --" << part);
        AddChoice(part,
                  it->help,
                  part == "mcp" ? ControlPrograms() : ProfileCatalogue::Names(part),
                  "",
                  true);
    }
}

std::string
ScenarioArgs::WithParts(const std::string& kind, const std::string& name) const
{
    std::string composed = name;
    for (const auto& o : PartOptions())
    {
        if (o.kind != kind || !Has(o.name) || Get(o.name).empty())
        {
            continue;
        }
        const std::string part = Get(o.name);
        std::string next;
        std::string replaced;
        std::string err = ProfileCatalogue::Swap(kind, composed, part, next, replaced);
        if (!err.empty())
        {
            Fail("--" + o.name + "=" + part + ": " + kind + " " + name + ": " + err);
        }
        ++m_partUses[o.name];
        if (next != composed)
        {
            std::string note = "--" + o.name + "=" + part + ": " + kind + " " + composed +
                               " runs with " + part +
                               (replaced.empty() ? " added" : " in place of " + replaced) +
                               " (" + next + "; no paper has this setup)";
            if (m_noted.insert(note).second)
            {
                Note(note);
            }
        }
        composed = next;
    }
    return composed;
}

void
ScenarioArgs::Parse()
{
    // Read by the constructor; registered last so that --help lists it after the program's own.
    Add("profile-file",
        "more profile files or folders of them, comma-separated (format: "
        "contrib/clusternet/profiles/README.md; $CLUSTERNET_PROFILE_PATH replaces that "
        "folder) [paths]",
        "");
    AddBool("list-options",
            "print the program's options with their types and ranges as JSON and exit (what "
            "the test battery derives bad values from)",
            false);

    // ns-3's usage text, from the defaults (before the command line replaces them).
    CommandLine cmd(m_program);
    cmd.Usage(m_description);
    std::map<std::string, std::string> defaults;
    for (const auto& name : m_order)
    {
        defaults[name] = m_options[name].value;
    }
    for (const auto& name : m_order)
    {
        cmd.AddValue(name, m_options[name].help, defaults[name]);
    }

    std::set<std::string> seen;
    std::vector<std::string> builtins;
    bool print = false;
    for (int i = 1; i < m_argc; ++i)
    {
        std::string arg = m_argv[i];
        if (arg.rfind("--", 0) != 0 || arg.size() == 2)
        {
            Fail("unexpected argument '" + arg + "'; options look like --name=value (see --help)");
        }
        std::size_t eq = arg.find('=');
        const bool hasValue = eq != std::string::npos;
        std::string key = arg.substr(2, hasValue ? eq - 2 : std::string::npos);
        std::string value = hasValue ? arg.substr(eq + 1) : "";
        if (!seen.insert(key).second)
        {
            Fail("--" + key + " is given twice; give each option once");
        }
        if (Ns3Builtins().count(key))
        {
            CheckBuiltin(key, value, hasValue);
            print = print || (key != "RngRun" && key != "RngSeed");
            builtins.push_back(arg);
            continue;
        }
        auto it = m_options.find(key);
        if (it == m_options.end())
        {
            Fail("unknown option --" + key + " (see --help for the options)");
        }
        if (!hasValue)
        {
            Fail("--" + key + " needs a value: --" + key + "=...");
        }
        it->second.value = value;
        it->second.given = true;
    }
    if (print)
    {
        // --help, --PrintHelp, --Print*: ns-3 prints and exits 0.
        std::vector<char*> argv = {m_argv[0]};
        for (auto& b : builtins)
        {
            argv.push_back(b.data());
        }
        cmd.Parse(static_cast<int>(argv.size()), argv.data());
        std::exit(0);
    }
    for (const auto& name : m_order)
    {
        CheckValue(name);
    }
    if (GetBool("list-options"))
    {
        ListOptions();
        std::exit(0);
    }
    // The part options: the selected profiles become the composed ones.
    for (const std::string name : {"host", "nic", "lanai"})
    {
        if (!Has(name))
        {
            continue;
        }
        Option& o = m_options.at(name);
        o.selected = o.value;
        std::vector<std::string> items = SplitItems(o.value);
        for (auto& item : items)
        {
            const std::string kind = name == "nic" ? KindOf(item) : name;
            const std::string composed =
                item.empty() || kind.empty() ? item : WithParts(kind, item);
            if (composed != item)
            {
                o.allowed.push_back(composed);
                item = composed;
            }
        }
        o.value.clear();
        for (size_t i = 0; i < items.size(); ++i)
        {
            o.value += (i ? "," : "") + items[i];
        }
    }
    for (const auto& part : PartOptions())
    {
        const bool selects =
            Has(part.kind) || (part.kind == "lanai" && Has("nic")); // IP over GM's boards
        if (selects && Has(part.name) && !Get(part.name).empty() && !m_partUses[part.name])
        {
            Fail("--" + part.name + "=" + Get(part.name) + ": no " +
                 (part.kind == "host" ? "host" : part.kind == "nic" ? "Gigabit Ethernet NIC"
                                                                    : "LANai board") +
                 " of this run has that part (the run has none)");
        }
    }
    // --RngRun and --RngSeed, checked above: ns-3 binds its global values.
    std::vector<char*> argv = {m_argv[0]};
    for (auto& b : builtins)
    {
        argv.push_back(b.data());
    }
    cmd.Parse(static_cast<int>(argv.size()), argv.data());
}

std::vector<std::string>
ScenarioArgs::Arguments() const
{
    return {m_argv + 1, m_argv + m_argc};
}

bool
ScenarioArgs::Has(const std::string& name) const
{
    return m_options.count(name) > 0;
}

void
ScenarioArgs::Note(const std::string& message) const
{
    for (const char* sub : {"run-point", "list-points"})
    {
        if (Has(sub) && Given(sub))
        {
            return;
        }
    }
    std::cerr << m_program << ": " << message << std::endl;
}

std::string
ScenarioArgs::OverProfile(const std::string& name,
                          const std::string& optionValue,
                          const std::string& profile,
                          const std::string& what,
                          const std::string& profileValue) const
{
    if (!Given(name))
    {
        return profileValue.empty() ? optionValue : profileValue;
    }
    if (!profileValue.empty() && profileValue != optionValue)
    {
        Note("--" + name + "=" + optionValue + " replaces " + profile + "'s " + what + " of " +
             profileValue + " (the run uses " + optionValue + ")");
    }
    return optionValue;
}

bool
ScenarioArgs::Given(const std::string& name) const
{
    return Find(name).given;
}

std::string
ScenarioArgs::Get(const std::string& name) const
{
    return Find(name).value;
}

uint32_t
ScenarioArgs::GetUint(const std::string& name) const
{
    const Option& o = Find(name);
    NS_ABORT_MSG_UNLESS(o.kind == Kind::UINT, "--" << name << " is not declared with AddUint");
    return GetUint(name, o.min, o.max, o.unit);
}

std::vector<uint32_t>
ScenarioArgs::GetUintList(const std::string& name) const
{
    const Option& o = Find(name);
    NS_ABORT_MSG_UNLESS(o.kind == Kind::UINT_LIST,
                        "--" << name << " is not declared with AddUintList");
    return GetUintList(name, o.min, o.max, o.unit);
}

std::string
ScenarioArgs::GetChoice(const std::string& name) const
{
    const Option& o = Find(name);
    NS_ABORT_MSG_UNLESS(o.kind == Kind::CHOICE, "--" << name << " is not declared with AddChoice");
    return GetChoice(name, o.allowed);
}

std::vector<std::string>
ScenarioArgs::GetChoiceList(const std::string& name) const
{
    const Option& o = Find(name);
    NS_ABORT_MSG_UNLESS(o.kind == Kind::CHOICE_LIST,
                        "--" << name << " is not declared with AddChoiceList");
    return GetChoiceList(name, o.allowed);
}

std::vector<uint32_t>
ScenarioArgs::GetUintList(const std::string& name,
                          uint64_t min,
                          uint64_t max,
                          const std::string& unit) const
{
    NS_ABORT_MSG_IF(max > UINT32_MAX, "--" << name << ": a range beyond 32 bits");
    const std::string allowed = "allowed " + std::to_string(min) + ".." + std::to_string(max) +
                                " " + unit;
    const std::string text = Get(name);
    if (text.empty())
    {
        Fail("--" + name + ": empty value; " + allowed);
    }
    std::vector<uint32_t> out;
    std::set<uint64_t> seen;
    for (const auto& item : SplitItems(text))
    {
        uint64_t v = 0;
        if (item.empty())
        {
            Fail("--" + name + ": empty item in '" + text + "'; " + allowed +
                 ", comma-separated");
        }
        if (!ParseWhole(item, 0, UINT64_MAX, v))
        {
            Fail("--" + name + ": '" + item + "' is not a whole number; " + allowed);
        }
        if (v < min || v > max)
        {
            Fail("--" + name + ": " + item + " out of range; " + allowed);
        }
        if (!seen.insert(v).second)
        {
            Fail("--" + name + ": " + item + " is listed twice; give each value once");
        }
        out.push_back(static_cast<uint32_t>(v));
    }
    return out;
}

uint32_t
ScenarioArgs::GetUint(const std::string& name,
                      uint64_t min,
                      uint64_t max,
                      const std::string& unit) const
{
    if (Get(name).find(',') != std::string::npos)
    {
        Fail("--" + name + ": one value expected, got '" + Get(name) + "'; allowed " +
             std::to_string(min) + ".." + std::to_string(max) + " " + unit);
    }
    return GetUintList(name, min, max, unit)[0];
}

std::string
ScenarioArgs::GetChoice(const std::string& name, const std::vector<std::string>& allowed) const
{
    if (Get(name).find(',') != std::string::npos)
    {
        Fail("--" + name + ": one value expected, got '" + Get(name) + "'; allowed: " +
             Join(allowed));
    }
    return GetChoiceList(name, allowed)[0];
}

std::vector<std::string>
ScenarioArgs::GetChoiceList(const std::string& name, const std::vector<std::string>& allowed) const
{
    const std::string all = Join(allowed);
    const std::string text = Get(name);
    if (text.empty())
    {
        Fail("--" + name + ": empty value; allowed: " + all);
    }
    std::vector<std::string> items;
    for (const auto& item : SplitItems(text))
    {
        if (item.empty())
        {
            Fail("--" + name + ": empty item in '" + text + "'; allowed: " + all +
                 ", comma-separated");
        }
        bool found = false;
        for (const auto& a : allowed)
        {
            found = found || a == item;
        }
        if (!found)
        {
            Fail("--" + name + ": unknown value '" + item + "'; allowed: " + all);
        }
        for (const auto& earlier : items)
        {
            if (earlier == item)
            {
                Fail("--" + name + ": '" + item + "' is listed twice; give each value once");
            }
        }
        items.push_back(item);
    }
    return items;
}

bool
ScenarioArgs::GetBool(const std::string& name) const
{
    std::string v = Get(name);
    if (v == "1" || v == "true")
    {
        return true;
    }
    if (v == "0" || v == "false")
    {
        return false;
    }
    Fail("--" + name + ": '" + v + "' is not a boolean; allowed: 0, 1, true, false");
}

} // namespace clusternet
} // namespace ns3
