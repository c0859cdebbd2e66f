// SPDX-License-Identifier: GPL-2.0-only
#include "scenario-args.h"

#include "ns3/command-line.h"
#include "ns3/profile-catalogue.h"

#include <cstdlib>
#include <iostream>
#include <sstream>

namespace ns3
{
namespace clusternet
{

namespace
{

std::vector<std::string>
SplitList(const std::string& s)
{
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        if (!item.empty())
        {
            out.push_back(item);
        }
    }
    return out;
}

bool
IsNs3Builtin(const std::string& key)
{
    static const char* builtins[] = {"help",          "PrintHelp",   "PrintGlobals",
                                     "PrintAttributes", "PrintTypeIds", "PrintGroups",
                                     "PrintGroup",    "PrintVersion", "version",
                                     "RngRun",        "RngSeed"};
    for (const char* b : builtins)
    {
        if (key == b)
        {
            return true;
        }
    }
    return false;
}

} // namespace

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
ScenarioArgs::Add(const std::string& name, const std::string& help, const std::string& value)
{
    m_order.push_back(name);
    m_help[name] = help;
    m_values[name] = value;
}

void
ScenarioArgs::Fail(const std::string& message) const
{
    std::cerr << m_program << ": " << message << std::endl;
    std::exit(2);
}

void
ScenarioArgs::Parse()
{
    int argc = m_argc;
    char** argv = m_argv;
    // Read by the constructor; registered last so that --help lists it after the program's own.
    Add("profile-file",
        "more profile files or folders of them, comma-separated (format: "
        "contrib/clusternet/profiles/README.md; $CLUSTERNET_PROFILE_PATH replaces that "
        "folder) [paths]",
        "");
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        if (arg.rfind("--", 0) != 0)
        {
            Fail("unexpected argument '" + arg + "'; options look like --name=value (see --help)");
        }
        std::string key = arg.substr(2, arg.find('=') == std::string::npos ? std::string::npos
                                                                           : arg.find('=') - 2);
        if (m_values.count(key) == 0 && !IsNs3Builtin(key))
        {
            Fail("unknown option --" + key + " (see --help for the options)");
        }
        if (m_values.count(key) && arg.find('=') == std::string::npos)
        {
            Fail("--" + key + " needs a value: --" + key + "=...");
        }
    }
    CommandLine cmd(m_program);
    cmd.Usage(m_description);
    for (const auto& name : m_order)
    {
        cmd.AddValue(name, m_help[name], m_values[name]);
    }
    cmd.Parse(argc, argv);
}

std::vector<std::string>
ScenarioArgs::Arguments() const
{
    return {m_argv + 1, m_argv + m_argc};
}

bool
ScenarioArgs::Has(const std::string& name) const
{
    return m_values.count(name) > 0;
}

std::string
ScenarioArgs::Get(const std::string& name) const
{
    return m_values.at(name);
}

std::vector<uint32_t>
ScenarioArgs::GetUintList(const std::string& name,
                          uint64_t min,
                          uint64_t max,
                          const std::string& unit) const
{
    std::vector<uint32_t> out;
    const std::string allowed = "allowed " + std::to_string(min) + ".." + std::to_string(max) +
                                " " + unit;
    std::vector<std::string> items = SplitList(Get(name));
    if (items.empty())
    {
        Fail("--" + name + ": empty list; " + allowed);
    }
    for (const auto& item : items)
    {
        std::size_t pos = 0;
        unsigned long long v = 0;
        bool ok = !item.empty() && item.find_first_not_of("0123456789") == std::string::npos;
        if (ok)
        {
            try
            {
                v = std::stoull(item, &pos);
            }
            catch (...)
            {
                ok = false;
            }
        }
        if (!ok)
        {
            Fail("--" + name + ": '" + item + "' is not a whole number; " + allowed);
        }
        if (v < min || v > max)
        {
            Fail("--" + name + ": " + item + " out of range; " + allowed);
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
    std::vector<uint32_t> v = GetUintList(name, min, max, unit);
    if (v.size() != 1)
    {
        Fail("--" + name + ": one value expected, got '" + Get(name) + "'");
    }
    return v[0];
}

std::string
ScenarioArgs::GetChoice(const std::string& name, const std::vector<std::string>& allowed) const
{
    std::vector<std::string> v = GetChoiceList(name, allowed);
    if (v.size() != 1)
    {
        Fail("--" + name + ": one value expected, got '" + Get(name) + "'");
    }
    return v[0];
}

std::vector<std::string>
ScenarioArgs::GetChoiceList(const std::string& name, const std::vector<std::string>& allowed) const
{
    std::string all;
    for (const auto& a : allowed)
    {
        all += (all.empty() ? "" : ", ") + a;
    }
    std::vector<std::string> items = SplitList(Get(name));
    if (items.empty())
    {
        Fail("--" + name + ": empty list; allowed: " + all);
    }
    for (const auto& item : items)
    {
        bool found = false;
        for (const auto& a : allowed)
        {
            found = found || a == item;
        }
        if (!found)
        {
            Fail("--" + name + ": unknown value '" + item + "'; allowed: " + all);
        }
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
