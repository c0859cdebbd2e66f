// SPDX-License-Identifier: GPL-2.0-only
#include "gm-experiment.h"

#include "ns3/mpi-tcp-transport.h"
#include "ns3/mpi-gm-transport.h"
#include "ns3/gm-helper.h"
#include "ns3/host-helper.h"
#include "ns3/mpi-helper.h"
#include "ns3/myrinet-clos-topology.h"
#include "ns3/myrinet-helper.h"
#include "scenario-args.h"

#include "ns3/host-cpu.h"
#include "ns3/myrinet-channel.h"
#include "ns3/myrinet-net-device.h"
#include "ns3/pci-bus.h"
#include "ns3/profile-catalogue.h"
#include "ns3/profile-set.h"
#include "run-checks.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>

namespace ns3
{
namespace clusternet
{

namespace
{

/// @return the --set targets: the LANai profile's (board, firmware, link, port; a line of
/// switches is built by --switches alone) and the host's GM library, bus and CPU
const std::vector<std::string>&
Targets()
{
    static const std::vector<std::string> targets = ProfileCatalogue::TargetsOf(
        {"lanai", "host"},
        {"lanai.switch", "host.stack", "host.device", "host.driver", "host.npb"});
    return targets;
}

/// @return true if the board holds the bus at 33 MHz: a bus runs at its slowest device's clock,
/// and the LANai profile's PciClock property says the board only runs at 33 MHz. A given slot
/// (--pci) is taken as it is.
bool
BoardHoldsBusAt33(const GmConfig& c)
{
    const Profile* p = ProfileCatalogue::Find("lanai", c.lanai);
    return p && c.pci.empty() && p->Get("properties", "PciClock") == "33";
}

/// @return the run's values: its profiles, the PCI slot, then the overrides (checked: the
/// error or "" in @p err). The profile names of @p c must exist.
ProfileSet
Values(const GmConfig& c, std::string& err)
{
    ProfileSet values(Targets());
    values.AddProfile(*ProfileCatalogue::Find("lanai", c.lanai));
    values.AddProfile(*ProfileCatalogue::Find("host", c.host));
    HostHelper::ChoosePciSlot(values, c.pci);
    if (BoardHoldsBusAt33(c))
    {
        values.Set("bus", "Clock", "33");
    }
    err = values.SetOverrides(c.overrides);
    return values;
}

} // namespace

void
GmExperiment::ConfigurePorts(const GmConfig& c, GmHelper& gm)
{
    std::string err;
    for (const auto& [attribute, value] : Values(c, err).GetOverrides("gm"))
    {
        gm.SetPortAttribute(attribute, StringValue(value));
    }
}

std::string
GmExperiment::Validate(const GmConfig& c)
{
    if (!ProfileCatalogue::Find("lanai", c.lanai))
    {
        return "--lanai: unknown LANai profile '" + c.lanai +
               "'; allowed: " + ProfileCatalogue::JoinNames("lanai");
    }
    if (!ProfileCatalogue::Find("host", c.host))
    {
        return "--host: unknown host '" + c.host +
               "'; allowed: " + ProfileCatalogue::JoinNames("host");
    }
    const Profile* host = ProfileCatalogue::Find("host", c.host);
    if (std::none_of(host->values.begin(), host->values.end(), [](const ProfileValue& v) {
            return v.target == "gm";
        }))
    {
        std::string with;
        for (const auto& name : ProfileCatalogue::Names("host"))
        {
            const Profile* h = ProfileCatalogue::Find("host", name);
            if (std::any_of(h->values.begin(), h->values.end(), [](const ProfileValue& v) {
                    return v.target == "gm";
                }))
            {
                with += (with.empty() ? "" : ", ") + name;
            }
        }
        return "--host: " + c.host +
               " has no GM host library among its parts (a gm profile such as gm15-linux24); "
               "allowed for Myrinet: " +
               with;
    }
    std::string w;
    std::string k;
    if (!c.pci.empty() && !HostHelper::ParsePciSlot(c.pci, w, k))
    {
        return "--pci: '" + c.pci + "' is not a PCI slot; allowed: " + HostHelper::JoinPciSlots();
    }
    const bool clos = c.hosts > 16 && MyrinetClosTopology::Levels(c.hosts) > 0;
    if (c.hosts < 2 || (c.hosts > 16 && !clos) || (c.hosts > 2 && c.switches == 0))
    {
        return "hosts: " + std::to_string(c.hosts) +
               " GM hosts; allowed: 2 back to back, 2..16 on the 16-port switch, or a Clos of "
               "XBar16 switches of 128 or 1024 hosts";
    }
    if (c.switches > MyrinetHelper::MAX_LINE_SWITCHES)
    {
        return "--switches: " + std::to_string(c.switches) + "; allowed: 0 (back to back) .. " +
               std::to_string(MyrinetHelper::MAX_LINE_SWITCHES);
    }
    if (c.switches > 1 && c.hosts > 2)
    {
        return "--switches: a line of " + std::to_string(c.switches) +
               " switches carries 2 hosts; allowed for " + std::to_string(c.hosts) +
               " hosts: 0 or 1";
    }
    std::string err;
    ProfileSet values = Values(c, err);
    err = err.empty() ? RunChecks::LanaiSram(values) : err;
    err = err.empty() ? RunChecks::MyrinetFlowControl(values) : err;
    return err.empty() ? "" : "--set: " + err;
}

void
GmExperiment::AddArguments(ScenarioArgs& args, bool fabric, uint32_t switches)
{
    args.AddChoice("lanai", "LANai NIC profile", ProfileCatalogue::Names("lanai"), "lanai9");
    args.AddChoice("host", "host profile", ProfileCatalogue::Names("host"), "p200-430vx-linux24");
    args.AddPartOptions({"os", "gm", "mcp"});
    args.AddChoice("pci",
                   "PCI slot WIDTHxCLOCK [bits x MHz]; empty = the host profile's",
                   HostHelper::PciSlots(),
                   "",
                   true);
    args.AddOverrides(Targets(), "lanai.Clock=200");
    if (fabric)
    {
        args.AddUint("switches",
                     "Myrinet XBar16 switches the two hosts' messages cross: 0 back to back, 1 one "
                     "switch, N a line of N switches",
                     "switches",
                     0,
                     MyrinetHelper::MAX_LINE_SWITCHES,
                     switches);
        args.MarkSetup("switches");
    }
}

GmConfig
GmExperiment::ParseArguments(const ScenarioArgs& args)
{
    GmConfig c;
    c.lanai = args.Get("lanai");
    c.host = args.Get("host");
    c.pci = args.Get("pci");
    c.overrides = args.Get("set");
    c.switches = args.Has("switches") ? args.GetUint("switches") : 0;
    std::string err = Validate(c);
    if (!err.empty())
    {
        args.Fail(err);
    }
    // A board's PciClock that the run's bus does not follow is said, not silently dropped.
    const Profile* board = ProfileCatalogue::Find("lanai", c.lanai);
    const std::string boardClock = board->Get("properties", "PciClock");
    const std::string slot = EffectivePci(c);
    const std::string bus = slot.substr(slot.find('x') + 1);
    if (!boardClock.empty() && boardClock != bus)
    {
        std::string why = "host " + c.host + "'s slot, " + slot;
        if (!c.pci.empty())
        {
            why = "the --pci slot's clock, taken as given";
        }
        else if (c.overrides.find("bus.Clock") != std::string::npos)
        {
            why = "--set bus.Clock";
        }
        args.Note("LANai board " + c.lanai + " runs at up to " + boardClock +
                  " MHz (its PciClock); the bus runs at " + bus + " MHz: " + why);
    }
    return c;
}

std::string
GmExperiment::CheckStacks(const std::vector<std::string>& stacks,
                          std::map<std::string, bool>& overGm)
{
    for (const auto& stack : stacks)
    {
        MpiHelper library;
        library.SetMpiProfile(stack);
        const TypeId kind = library.GetTransportType();
        overGm[stack] = kind == MpiGmTransport::GetTypeId();
        if (kind != MpiGmTransport::GetTypeId() && kind != MpiTcpTransport::GetTypeId())
        {
            return "--stack: " + stack + " runs over " + MpiHelper::TransportProperty(kind) +
                   "; allowed here: libraries over tcp (Gigabit Ethernet) or gm (Myrinet)";
        }
        std::string problem = library.CheckProfile();
        if (!problem.empty())
        {
            return "--stack: " + stack + ": " + problem;
        }
    }
    return "";
}

std::string
GmExperiment::EffectivePci(const GmConfig& c)
{
    std::string err;
    ProfileSet values = Values(c, err);
    return values.Get("bus", "Width") + "x" + values.Get("bus", "Clock");
}

GmExperiment::GmExperiment(const GmConfig& c)
{
    NS_ABORT_MSG_UNLESS(Validate(c).empty(), "GmExperiment: " << Validate(c));
    m_nodes.Create(c.hosts);
    HostHelper hosts;
    hosts.SetHostProfile(c.host);
    hosts.SetPciSlot(c.pci);
    hosts.Install(m_nodes);
    std::string err;
    ProfileSet values = Values(c, err);
    for (uint32_t i = 0; i < c.hosts && BoardHoldsBusAt33(c); ++i)
    {
        m_nodes.Get(i)->GetObject<PciBus>()->SetAttribute("Clock", StringValue("33"));
    }

    GmHelper gm;
    gm.SetLanaiProfile(c.lanai);
    gm.SetHostProfile(c.host);
    MyrinetHelper myrinet;
    gm.ConfigureFabric(myrinet);
    NetDeviceContainer ports = c.hosts > 16     ? myrinet.InstallTopology("ns3::clusternet::MyrinetClosTopology", m_nodes, m_switches)
                               : c.switches > 0 ? myrinet.InstallLine(m_nodes, c.switches, m_switches)
                                                : myrinet.Install(m_nodes.Get(0), m_nodes.Get(1));
    values.Apply(m_nodes); // the buses, CPUs, ports and links, before the LANais
    m_mcps = gm.Install(ports);
    values.Apply(m_nodes); // and the LANais and their control programs
    std::vector<Ptr<GmPort>> gmPorts;
    for (auto& mcp : m_mcps)
    {
        Ptr<GmPort> port = gm.CreatePort();
        values.ApplyOverrides("gm", port); // a process's port is on no node's path
        GmHelper::Open(port, mcp, 2);
        gmPorts.push_back(port);
    }
    m_bench = CreateObject<GmBenchmark>();
    m_bench->SetPorts(gmPorts[0], gmPorts[1]);
}

GmExperiment::~GmExperiment()
{
    m_bench = nullptr;
    m_mcps.clear();
    Simulator::Destroy();
}

Ptr<GmBenchmark>
GmExperiment::GetBenchmark() const
{
    return m_bench;
}

Ptr<LanaiNic>
GmExperiment::GetNic(uint32_t i) const
{
    return m_mcps.at(i)->GetNic();
}

Ptr<GmMcp>
GmExperiment::GetMcp(uint32_t i) const
{
    return m_mcps.at(i);
}

void
GmExperiment::Run()
{
    // A bound far beyond any test; the test stops earlier. Reaching it means the protocol
    // stalled (a model bug): one line and exit status 3, never a row from a test that did
    // not finish.
    const Time bound = Seconds(3600);
    const Time start = Simulator::Now();
    EventId stop = Simulator::Stop(bound);
    Simulator::Run();
    if (!stop.IsPending())
    {
        std::cerr << "GM test stalled: it did not finish within " << bound.GetSeconds()
                  << " s of simulated time after it started at " << start.GetMicroSeconds()
                  << " us (a model bug; please report it with this command)" << std::endl;
        Simulator::Destroy();
        std::exit(3);
    }
    stop.Cancel(); // the next test sets its own bound
}

} // namespace clusternet
} // namespace ns3
