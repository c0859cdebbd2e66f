// SPDX-License-Identifier: GPL-2.0-only
//
// ./ns3 profiles [-- --kind=nic] [-- --show=NAME] [-- --profile-file=my.toml]
//
// Lists every profile of the catalogue (contrib/clusternet/profiles/*.toml and the user's --profile-file) with its
// description, or one profile's resolved values with their sources. Reading the files checks
// them: a bad file is refused with one line naming file and line, exit status 2.

#include "ns3/profile-catalogue.h"
#include "scenario-args.h"

#include <iostream>
#include <set>

using namespace ns3::clusternet;

int
main(int argc, char** argv)
{
    ScenarioArgs args(argc,
                      argv,
                      "profiles",
                      "List the hardware and software profiles (contrib/clusternet/profiles/*.toml and "
                      "--profile-file), or show one profile's values with their sources.");
    args.Add("kind", "only profiles of this kind (host, nic, lanai, chipset, fm, mpi); empty = all",
             "");
    args.Add("show", "print this profile's resolved values with their sources [name]", "");
    args.Parse();

    std::string show = args.Get("show");
    if (!show.empty())
    {
        for (const auto& p : ProfileCatalogue::All())
        {
            if (p.name != show)
            {
                continue;
            }
            std::cout << "[" << p.name << "] " << p.kind << (p.abstract ? " (base only)" : "")
                      << ": " << p.description << "\n";
            std::string parts;
            for (const auto& part : p.parts)
            {
                parts += (parts.empty() ? ", parts " : ", ") + part;
            }
            std::cout << "# " << p.file << ":" << p.line
                      << (p.base.empty() ? "" : ", base " + p.base) << parts << "\n";
            for (const auto& v : p.values)
            {
                std::cout << v.target << "." << v.attribute << " = " << v.value << "\n    # "
                          << v.source << " (" << v.file << ":" << v.line << ")\n";
            }
            return 0;
        }
        args.Fail("--show: no profile '" + show + "' (./ns3 profiles lists them)");
    }

    std::string kind = args.Get("kind");
    std::set<std::string> kinds;
    for (const auto& p : ProfileCatalogue::All())
    {
        kinds.insert(p.kind);
    }
    if (!kind.empty() && !kinds.count(kind))
    {
        std::string all;
        for (const auto& k : ProfileCatalogue::Kinds())
        {
            all += (all.empty() ? "" : ", ") + k;
        }
        args.Fail("--kind: '" + kind + "' is not a profile kind (" + all + ")");
    }
    for (const std::string& k : ProfileCatalogue::Kinds())
    {
        if (!kind.empty() && k != kind)
        {
            continue;
        }
        std::cout << k << ":\n";
        for (const auto& p : ProfileCatalogue::All())
        {
            if (p.kind != k)
            {
                continue;
            }
            std::string name = p.name + (p.abstract ? " (base only)" : "");
            std::cout << "  " << name << std::string(name.size() < 30 ? 30 - name.size() : 1, ' ')
                      << p.description << (p.base.empty() ? "" : " [base: " + p.base + "]");
            std::string parts;
            for (const auto& part : p.parts)
            {
                parts += (parts.empty() ? "" : ", ") + part;
            }
            std::cout << (parts.empty() ? "" : " [parts: " + parts + "]") << "\n";
        }
    }
    return 0;
}
