// SPDX-License-Identifier: GPL-2.0-only
#include "fm-experiment.h"

#include "ns3/fm-helper.h"
#include "ns3/host-helper.h"
#include "ns3/myrinet-helper.h"
#include "scenario-args.h"

#include "ns3/profile-catalogue.h"
#include "ns3/profile-set.h"
#include "run-checks.h"
#include "ns3/enum.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <sstream>

namespace ns3
{
namespace clusternet
{

namespace
{

/// The paper's machines (seed 004 sec. 6): chipset -> host profile.
const std::vector<std::pair<std::string, std::string>> kMachines = {
    {"440lx", "pii300-kayak-nt4"},
    {"440bx", "pii450-netserver-nt4"},
};
constexpr uint32_t kPacketBytes = 2080; //!< 2048 bytes of data and the 32-byte header

/// The value a profile gives @p target.@p attribute, or "".
std::string
ProfileValueOf(const std::string& kind,
               const std::string& name,
               const std::string& target,
               const std::string& attribute)
{
    const Profile* p = ProfileCatalogue::Find(kind, name);
    return p ? p->Get(target, attribute) : "";
}

/// The pacing setting of @p c: "off", "probe" or a number.
std::string
EffectivePacing(const FmConfig& c)
{
    if (!c.pacing.empty())
    {
        return c.pacing;
    }
    std::string v = ProfileValueOf("fm", c.version, "properties", "Pacing");
    return v.empty() ? "off" : v;
}

/// @return the run's values: its profiles (later ones win), its choices (--notify,
/// --intranode, --credits, the receive queues and processes), then the overrides (checked: the
/// error or "" in @p err). The profile names of @p c must exist and its choices be valid.
ProfileSet
Values(const FmConfig& c, std::string& err)
{
    ProfileSet values =
        FmHelper::ProfileValues(c.lanai, c.host, FmExperiment::EffectiveChipset(c), c.version);
    if (!c.notify.empty())
    {
        values.Set("fm", "Notify", c.notify == "memory" ? "Memory" : "PciPoll");
    }
    if (!c.intranode.empty())
    {
        values.Set("fm", "Intranode", c.intranode == "smt" ? "Smt" : "Loopback");
    }
    if (c.credits)
    {
        values.Set("fm", "Credits", std::to_string(*c.credits));
    }
    values.Set("smt", "Queues", std::to_string(c.queues));
    values.Set("smt", "MaxProcesses", std::to_string(c.processes));
    err = values.SetOverrides(c.overrides, c.setTargets);
    return values;
}

} // namespace

std::string
FmExperiment::MachineOf(const std::string& chipset)
{
    for (const auto& [k, host] : kMachines)
    {
        if (k == chipset)
        {
            return host;
        }
    }
    return "";
}

std::string
FmExperiment::EffectiveNotify(const FmConfig& c)
{
    if (!c.notify.empty())
    {
        return c.notify;
    }
    // What the run's values give: the FM profile's, a --set fm.Notify, else FmContext's default
    // (a profile that leaves it is not given "pci-poll" behind its back).
    std::string err;
    return Values(c, err).Get("fm", "Notify") == "Memory" ? "memory" : "pci-poll";
}

std::string
FmExperiment::EffectiveChipset(const FmConfig& c)
{
    return c.chipset.empty() ? ProfileValueOf("host", c.host, "properties", "Chipset") : c.chipset;
}

std::string
FmExperiment::Validate(const FmConfig& c)
{
    if (!ProfileCatalogue::Find("host", c.host))
    {
        return "--host: unknown host '" + c.host + "'; allowed: " +
               ProfileCatalogue::JoinNames("host");
    }
    std::string chipset = EffectiveChipset(c);
    if (!ProfileCatalogue::Find("chipset", chipset))
    {
        return "--chipset: unknown chipset '" + chipset +
               "'; allowed: " + ProfileCatalogue::JoinNames("chipset");
    }
    if (!ProfileCatalogue::Find("fm", c.version))
    {
        return "--fm-version: unknown FM version '" + c.version +
               "'; allowed: " + ProfileCatalogue::JoinNames("fm");
    }
    if (!ProfileCatalogue::Find("lanai", c.lanai))
    {
        return "--lanai: unknown LANai profile '" + c.lanai +
               "'; allowed: " + ProfileCatalogue::JoinNames("lanai");
    }
    if (!c.notify.empty() && c.notify != "pci-poll" && c.notify != "memory")
    {
        return "--notify: '" + c.notify + "' is not a notification mode; allowed: pci-poll, "
               "memory";
    }
    if (!c.intranode.empty() && c.intranode != "smt" && c.intranode != "loopback")
    {
        return "--intranode: '" + c.intranode + "'; allowed: smt, loopback";
    }
    std::string pacing = EffectivePacing(c);
    if (pacing != "off" && pacing != "probe")
    {
        char* end = nullptr;
        long long n = std::strtoll(pacing.c_str(), &end, 10);
        if (pacing.empty() || *end != '\0' || n < 1 || n > kPacketBytes)
        {
            return "--pacing: '" + pacing + "' is not a pacing chunk; allowed: off, probe, or "
                   "1.." + std::to_string(kPacketBytes) + " bytes (a packet)";
        }
    }
    if (c.credits && (*c.credits < 1 || *c.credits > 65535))
    {
        return "--credits: " + std::to_string(*c.credits) +
               " credits; allowed: 1..65535 packets per peer";
    }
    if (c.hosts < 2 || c.hosts > 16)
    {
        return "hosts: " + std::to_string(c.hosts) + "; allowed: 2..16 on one switch";
    }
    if (c.switches > MyrinetHelper::MAX_LINE_SWITCHES || (c.hosts > 2 && c.switches != 1))
    {
        return "--switches: " + std::to_string(c.switches) + " for " + std::to_string(c.hosts) +
               " hosts; allowed: 1 (one switch), or for 2 hosts 0 (back to back) .. " +
               std::to_string(MyrinetHelper::MAX_LINE_SWITCHES);
    }
    if (c.processes < 1 || c.processes > 16)
    {
        return "--processes: " + std::to_string(c.processes) + "; allowed: 1..16 per host";
    }
    if (c.queues < 1 || c.queues > c.processes)
    {
        return "--queues: M=" + std::to_string(c.queues) + " receive queues; allowed: 1.." +
               std::to_string(c.processes) + " (1 <= M <= N processes per host)";
    }
    std::string err;
    ProfileSet values = Values(c, err);
    err = err.empty() ? RunChecks::LanaiSram(values) : err;
    if (!err.empty())
    {
        return "--set: " + err;
    }
    err = RunChecks::FmSmtLayout(values, c.processes);
    if (!err.empty())
    {
        return "--set: " + err;
    }
    uint64_t frames = values.GetValue<UintegerValue>("smt", "FreeListFrames").Get();
    uint64_t queues = values.GetValue<UintegerValue>("smt", "Queues").Get();
    UintegerValue credits = values.GetValue<UintegerValue>("fm", "Credits");
    // Each sender has a credit window into one queue of the receiver.
    uint64_t senders = (c.processes - 1 + queues - 1) / queues;
    if (values.Get("fm", "Intranode") == "Smt" && senders * credits.Get() > frames)
    {
        return "--credits: " + std::to_string(credits.Get()) + " credits for " +
               std::to_string(senders) + " senders per queue exceed the " +
               std::to_string(frames) + " frames of a shared-memory free list";
    }
    return "";
}

void
FmExperiment::AddArguments(ScenarioArgs& args,
                           const std::set<std::string>& perCurve,
                           const std::vector<std::string>& setTargets)
{
    auto add = [&](const std::string& name, const std::string& help, const std::string& value) {
        if (!perCurve.count(name))
        {
            args.Add(name, help, value);
        }
    };
    auto addChoice = [&](const std::string& name,
                         const std::string& help,
                         const std::vector<std::string>& allowed,
                         const std::string& value) {
        if (!perCurve.count(name))
        {
            args.AddChoice(name, help, allowed, value, value.empty());
        }
    };
    addChoice("host", "host profile", ProfileCatalogue::Names("host"), "pii450-netserver-nt4");
    args.AddPartOptions({"os"});
    addChoice("chipset",
              "host bridge profile; empty = the host's",
              ProfileCatalogue::Names("chipset"),
              "");
    addChoice("fm-version", "FM software profile", ProfileCatalogue::Names("fm"), "hpvm19");
    addChoice("lanai",
              "LANai board profile (its clock, SRAM and link; FM lays out the SRAM)",
              ProfileCatalogue::Names("lanai"),
              "lanai4");
    if (!perCurve.count("switches"))
    {
        args.AddUint("switches",
                     "Myrinet XBar16 switches between two hosts: 0 back to back, 1 one switch "
                     "(the paper's), N a line of N switches",
                     "switches",
                     0,
                     MyrinetHelper::MAX_LINE_SWITCHES,
                     1);
        args.MarkSetup("switches");
    }
    addChoice("notify",
              "arrival detection; empty = the version's",
              {"pci-poll", "memory"},
              "");
    addChoice("intranode",
              "transport between processes on one host: smt (shared memory) or loopback "
              "(through the Myrinet NIC); empty = the version's",
              {"smt", "loopback"},
              "");
    add("pacing",
        "PIO pacing: off, probe (the boot-time probe picks) or a chunk of 1..2080 bytes; "
        "empty = the version's",
        "");
    add("credits",
        "credits per peer [packets, 1..65535; over shared memory at most smt.FreeListFrames "
        "(2048) per sender into a receive queue]; empty = the version's",
        "");
    if (!perCurve.count("processes"))
    {
        args.AddUint("processes", "FM processes per host, N", "processes", 1, 16, 1);
    }
    if (!perCurve.count("queues"))
    {
        args.AddUint("queues",
                     "shared-memory receive queues per process, M, at most N",
                     "queues",
                     1,
                     16,
                     1);
    }
    if (!perCurve.count("set"))
    {
        std::vector<std::string> targets; // the ones the program's runs exercise
        for (const auto& kt : FmHelper::Targets())
        {
            const std::string t = kt.substr(kt.find('.') + 1);
            if (setTargets.empty() ||
                std::find(setTargets.begin(), setTargets.end(), t) != setTargets.end())
            {
                targets.push_back(kt);
            }
        }
        args.AddOverrides(targets, "bridge.QueueLines=8");
    }
}

void
FmExperiment::AddSweepArguments(ScenarioArgs& args)
{
    args.AddUintList("sizes",
                     "message sizes",
                     "bytes",
                     0,
                     1048576,
                     "0,8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536");
    args.AddUint("reps", "round trips per latency point", "count", 1, 100000, 50);
    args.AddUint("stream-bytes",
                 "bytes streamed per bandwidth point, within 16..4000 messages",
                 "bytes",
                 1,
                 1u << 30,
                 1048576);
}

namespace
{
/// Seed 004's names for its FM versions and its machines.
const std::map<std::string, std::string> kVersions = {
    {"2.1", "fm21"}, {"1.2", "hpvm12"}, {"1.9", "hpvm19"}};
const std::map<std::string, std::string> kCpus = {
    {"pii300", "pii300-kayak-nt4"}, {"pii450", "pii450-netserver-nt4"}};
} // namespace

void
FmExperiment::AddCurveArgument(ScenarioArgs& args, const std::string& curves)
{
    args.Add("config",
             "curves VERSION:HOST, comma-separated; VERSION 2.1, 1.2, 1.9 or an FM profile (" +
                 ProfileCatalogue::JoinNames("fm") +
                 "), HOST pii300 (HP Kayak, 440LX), pii450 (HP Netserver LPR, 440BX) or a host "
                 "profile (" +
                 ProfileCatalogue::JoinNames("host") + ")",
             curves);
}

std::vector<FmCurve>
FmExperiment::ParseCurves(const ScenarioArgs& args)
{
    std::vector<FmCurve> curves;
    std::stringstream ss(args.Get("config"));
    for (std::string item; std::getline(ss, item, ',');)
    {
        const std::size_t colon = item.find(':');
        if (colon == std::string::npos || item.find(':', colon + 1) != std::string::npos)
        {
            args.Fail("--config: '" + item + "' is not VERSION:HOST (e.g. 1.9:pii450)");
        }
        FmCurve k{item.substr(0, colon), item.substr(colon + 1)};
        FmConfig c;
        ApplyCurve(k, c);
        if (!ProfileCatalogue::Find("fm", c.version))
        {
            args.Fail("--config: unknown FM version '" + k.version + "' in '" + item +
                      "'; allowed: 2.1, 1.2, 1.9 or an FM profile (" +
                      ProfileCatalogue::JoinNames("fm") + ")");
        }
        if (!ProfileCatalogue::Find("host", c.host))
        {
            args.Fail("--config: unknown host '" + k.cpu + "' in '" + item +
                      "'; allowed: pii300, pii450 or a host profile (" +
                      ProfileCatalogue::JoinNames("host") + ")");
        }
        curves.push_back(k);
    }
    return curves;
}

void
FmExperiment::ApplyCurve(const FmCurve& k, FmConfig& c)
{
    c.version = kVersions.count(k.version) ? kVersions.at(k.version) : k.version;
    c.host = kCpus.count(k.cpu) ? kCpus.at(k.cpu) : k.cpu;
}

FmConfig
FmExperiment::CurveConfig(const ScenarioArgs& args,
                          const FmCurve& curve,
                          const std::vector<std::string>& setTargets)
{
    FmConfig c;
    c.setTargets = setTargets;
    ParseArguments(args, c);
    ApplyCurve(curve, c);
    if (ProfileCatalogue::Find("host", c.host))
    {
        c.host = args.WithParts("host", c.host); // --os
    }
    std::string err = Validate(c);
    if (!err.empty())
    {
        args.Fail(err);
    }
    c.notify = EffectiveNotify(c);
    return c;
}

FmSweepArgs
FmExperiment::ParseSweepArguments(const ScenarioArgs& args)
{
    FmSweepArgs s;
    s.sizes = args.GetUintList("sizes");
    s.reps = args.GetUint("reps");
    s.streamBytes = args.GetUint("stream-bytes");
    return s;
}

void
FmExperiment::ParseArguments(const ScenarioArgs& args, FmConfig& c)
{
    auto get = [&args](const std::string& name, std::string& field) {
        if (args.Has(name))
        {
            field = args.Get(name);
        }
    };
    if (args.Has("host") && !args.Get("host").empty()) // a scenario's "" = its own choice
    {
        c.host = args.Get("host");
    }
    get("chipset", c.chipset);
    get("fm-version", c.version);
    get("lanai", c.lanai);
    if (args.Has("switches"))
    {
        c.switches = args.GetUint("switches");
    }
    get("notify", c.notify);
    get("intranode", c.intranode);
    get("pacing", c.pacing);
    get("set", c.overrides);
    for (const char* name : {"processes", "queues"})
    {
        if (!args.Has(name))
        {
            continue;
        }
        // Declared by AddArguments, or by a scenario with a narrower range of its own.
        if (std::string(name) == "processes")
        {
            c.processes = args.GetUint(name, 1, 16, "processes per host");
        }
        else
        {
            c.queues = args.GetUint(name, 1, 16, "queues");
        }
    }
    std::string credits = args.Has("credits") ? args.Get("credits") : "";
    if (!credits.empty())
    {
        char* end = nullptr;
        long long n = std::strtoll(credits.c_str(), &end, 10);
        if (*end != '\0' || credits.size() > 12)
        {
            args.Fail("--credits: '" + credits + "' is not a whole number; allowed: 1..65535 "
                      "packets per peer");
        }
        c.credits = n;
    }
    std::string err = Validate(c);
    if (!err.empty())
    {
        args.Fail(err);
    }
}

FmExperiment::FmExperiment(const FmConfig& c)
    : m_config(c)
{
    NS_ABORT_MSG_UNLESS(Validate(c).empty(), "FmExperiment: " << Validate(c));
    m_nodes.Create(c.hosts);
    HostHelper hosts;
    hosts.SetHostProfile(c.host);
    hosts.Install(m_nodes);

    std::string err;
    FmHelper fm(Values(c, err));
    fm.SetProcesses(c.processes);
    MyrinetHelper myrinet;
    fm.ConfigureFabric(myrinet);
    NetDeviceContainer ports = c.switches > 0
                                   ? myrinet.InstallLine(m_nodes, c.switches, m_switches)
                                   : myrinet.Install(m_nodes.Get(0), m_nodes.Get(1));
    m_hosts = fm.Install(m_nodes, ports);
    FmHelper::AssignStreams(m_hosts, 1000);

    std::string pacing = EffectivePacing(c);
    if (pacing == "probe")
    {
        // Boot time: every host runs the PIO probe on its own bridge.
        m_probed = true;
        uint32_t left = c.hosts;
        std::vector<uint32_t> chosen(c.hosts, 0);
        for (uint32_t h = 0; h < c.hosts; ++h)
        {
            Ptr<FmPioProbe> probe = CreatePioBenchmark(h);
            probe->Probe([&, h, probe](uint32_t chunk) {
                chosen[h] = chunk;
                if (--left == 0)
                {
                    Simulator::Stop();
                }
            });
        }
        Simulator::Run();
        for (uint32_t h = 0; h < c.hosts; ++h)
        {
            for (auto& ctx : m_hosts[h].processes)
            {
                ctx->SetPacing(chosen[h]);
            }
        }
        m_pacing = chosen[0];
    }
    else
    {
        m_pacing = pacing == "off" ? 0 : std::stoul(pacing);
        for (auto& host : m_hosts)
        {
            for (auto& ctx : host.processes)
            {
                ctx->SetPacing(m_pacing);
            }
        }
    }
    if (c.start)
    {
        FmHelper::Start(m_hosts);
    }
}

FmMeasurement
FmExperiment::Measure(const FmConfig& c,
                      FmEndpoint a,
                      FmEndpoint b,
                      uint32_t bytes,
                      uint32_t reps,
                      uint32_t streamBytes)
{
    FmMeasurement m;
    {
        // The poll cost: a process waiting 100 us for nothing, polls over time.
        FmExperiment exp(c);
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();
        m.pacing = exp.GetPacing();
        Ptr<FmContext> idle = exp.GetContext(b.first, b.second);
        m.pollNs =
            idle->GetPolls() ? idle->GetPollTime().GetNanoSeconds() / double(idle->GetPolls()) : 0;
    }
    {
        FmExperiment exp(c);
        Ptr<FmBenchmark> bench = CreateObject<FmBenchmark>();
        bench->PingPong(exp.GetContext(a.first, a.second),
                        exp.GetContext(b.first, b.second),
                        bytes,
                        reps,
                        [&m](Time t) {
                            m.oneway = t;
                            Simulator::Stop();
                        });
        exp.Run();
    }
    if (bytes > 0)
    {
        uint32_t count = std::clamp<uint32_t>(streamBytes / bytes, 16, 4000);
        FmExperiment exp(c);
        Ptr<FmBenchmark> bench = CreateObject<FmBenchmark>();
        bench->Stream(exp.GetContext(a.first, a.second),
                      exp.GetContext(b.first, b.second),
                      bytes,
                      count,
                      [&m](double r) {
                          m.mbytesPerS = r;
                          Simulator::Stop();
                      });
        exp.Run();
    }
    return m;
}

FmExperiment::~FmExperiment()
{
    m_hosts.clear();
    Simulator::Destroy();
}

Ptr<FmContext>
FmExperiment::GetContext(uint32_t h, uint32_t p) const
{
    return m_hosts.at(h).processes.at(p);
}

Ptr<FmMcp>
FmExperiment::GetMcp(uint32_t h) const
{
    return m_hosts.at(h).mcp;
}

Ptr<HostBridge>
FmExperiment::GetBridge(uint32_t h) const
{
    return m_hosts.at(h).bridge;
}

Ptr<FmSmt>
FmExperiment::GetSmt(uint32_t h) const
{
    return m_hosts.at(h).smt;
}

Ptr<FmPioProbe>
FmExperiment::CreatePioBenchmark(uint32_t h) const
{
    return FmHelper::CreatePioProbe(m_hosts.at(h));
}

uint32_t
FmExperiment::GetPacing() const
{
    return m_pacing;
}

bool
FmExperiment::IsProbed() const
{
    return m_probed;
}

void
FmExperiment::Run()
{
    Simulator::Stop(Seconds(3600));
    Simulator::Run();
}

} // namespace clusternet
} // namespace ns3
