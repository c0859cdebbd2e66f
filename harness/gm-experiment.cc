// SPDX-License-Identifier: GPL-2.0-only
#include "gm-experiment.h"

#include "ns3/gm-helper.h"
#include "ns3/host-helper.h"
#include "ns3/myrinet-helper.h"
#include "scenario-args.h"

#include "ns3/host-cpu.h"
#include "ns3/myrinet-channel.h"
#include "ns3/myrinet-net-device.h"
#include "ns3/pci-bus.h"
#include "ns3/profile-catalogue.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

namespace ns3
{
namespace clusternet
{

namespace
{

const std::vector<std::string> kTargets = {"lanai", "mcp", "gm", "bus", "cpu", "link", "port"};


/// Apply a profile's values and the overrides for @p target; @return error or ""
std::string
Configure(const GmConfig& c, const std::string& target, Ptr<Object> obj)
{
    for (const auto& kind : {std::string("lanai"), std::string("host")})
    {
        const Profile* p = ProfileCatalogue::Find(kind, kind == "lanai" ? c.lanai : c.host);
        if (p)
        {
            ProfileCatalogue::Apply(*p, target, obj);
        }
    }
    return ProfileCatalogue::ApplyOverrides(c.overrides, target, obj);
}

} // namespace

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
    std::string w;
    std::string k;
    if (!c.pci.empty() && !HostHelper::ParsePciSlot(c.pci, w, k))
    {
        return "--pci: '" + c.pci + "' is not a PCI slot; allowed: 32x33, 32x66, 64x33, 64x66";
    }
    if (c.hosts < 2 || c.hosts > 16 || (c.hosts > 2 && !c.useSwitch))
    {
        return "hosts: " + std::to_string(c.hosts) +
               " GM hosts; allowed: 2 back to back, or 2..16 on the 16-port switch";
    }
    std::string err = ProfileCatalogue::CheckTargets(c.overrides, kTargets);
    if (!err.empty())
    {
        return "--set: " + err;
    }
    // Check everything on throw-away objects configured as the run will configure them.
    Ptr<LanaiNic> nic = CreateObject<LanaiNic>();
    Ptr<MyrinetNetDevice> port = CreateObject<MyrinetNetDevice>();
    Ptr<MyrinetChannel> link = CreateObject<MyrinetChannel>();
    std::pair<std::string, Ptr<Object>> objs[] = {
        {"lanai", nic},
        {"mcp", CreateObject<GmMcp>()},
        {"gm", CreateObject<GmPort>()},
        {"bus", CreateObject<PciBus>()},
        {"cpu", CreateObject<HostCpu>()},
        {"link", link},
        {"port", port},
    };
    for (auto& [target, obj] : objs)
    {
        err = Configure(c, target, obj);
        if (!err.empty())
        {
            return "--set: " + err;
        }
    }
    err = nic->CheckConfiguration();
    if (!err.empty())
    {
        return "--set: " + err;
    }
    err = MyrinetHelper::CheckFlowControl(port, link);
    if (!err.empty())
    {
        return "--set: " + err;
    }
    return "";
}

void
GmExperiment::AddArguments(ScenarioArgs& args)
{
    args.Add("lanai", "LANai NIC profile (" + ProfileCatalogue::JoinNames("lanai") + ")", "lanai9");
    args.Add("host", "host profile (" + ProfileCatalogue::JoinNames("host") + ")",
             "p200-430vx-linux24");
    args.Add("pci",
             "PCI slot WIDTHxCLOCK [bits x MHz: 32x33, 32x66, 64x33, 64x66]; empty = the host "
             "profile's",
             "");
    args.Add("set",
             "attribute overrides 'target.Attribute=value;...' with target lanai (NIC), mcp (GM "
             "firmware, cycles), gm (host GM library), bus, cpu, link or port (Myrinet) "
             "(e.g. lanai.Clock=200) [ns-3 values]",
             "");
}

GmConfig
GmExperiment::ParseArguments(const ScenarioArgs& args)
{
    GmConfig c;
    c.lanai = args.Get("lanai");
    c.host = args.Get("host");
    c.pci = args.Get("pci");
    c.overrides = args.Get("set");
    std::string err = Validate(c);
    if (!err.empty())
    {
        args.Fail(err);
    }
    return c;
}

/// A board that only runs at 33 MHz holds the bus there (a bus runs at its slowest device's
/// clock): the LANai profile's PciClock property, applied unless a slot is given.
static void
LimitToBoardClock(const GmConfig& c, Ptr<PciBus> bus)
{
    const Profile* p = ProfileCatalogue::Find("lanai", c.lanai);
    if (!p || !c.pci.empty())
    {
        return;
    }
    if (p->Get("properties", "PciClock") == "33")
    {
        bus->SetAttribute("Clock", StringValue("33"));
    }
}

std::string
GmExperiment::EffectivePci(const GmConfig& c)
{
    if (!c.pci.empty())
    {
        return c.pci;
    }
    Ptr<PciBus> bus = CreateObject<PciBus>();
    Configure(c, "bus", bus);
    LimitToBoardClock(c, bus);
    return std::to_string(bus->GetBytesPerCycle() * 8) + "x" +
           (bus->GetCyclePeriod() == NanoSeconds(15) ? "66" : "33");
}

GmExperiment::GmExperiment(const GmConfig& c)
{
    NS_ABORT_MSG_UNLESS(Validate(c).empty(), "GmExperiment: " << Validate(c));
    m_nodes.Create(c.hosts);
    HostHelper hosts;
    hosts.SetHostProfile(c.host);
    hosts.SetPciSlot(c.pci);
    hosts.Install(m_nodes);
    for (uint32_t i = 0; i < c.hosts; ++i)
    {
        LimitToBoardClock(c, m_nodes.Get(i)->GetObject<PciBus>());
    }

    GmHelper gm;
    gm.SetLanaiProfile(c.lanai);
    gm.SetHostProfile(c.host);
    MyrinetHelper myrinet;
    gm.ConfigureFabric(myrinet);
    NetDeviceContainer ports = c.useSwitch
                                   ? myrinet.InstallSwitch(CreateObject<Node>(), m_nodes)
                                   : myrinet.Install(m_nodes.Get(0), m_nodes.Get(1));
    for (uint32_t i = 0; i < c.hosts; ++i)
    {
        Ptr<Node> n = m_nodes.Get(i);
        ProfileCatalogue::ApplyOverrides(c.overrides, "bus", n->GetObject<PciBus>());
        ProfileCatalogue::ApplyOverrides(c.overrides, "cpu", n->GetObject<HostCpu>());
        Ptr<MyrinetNetDevice> port = DynamicCast<MyrinetNetDevice>(ports.Get(i));
        ProfileCatalogue::ApplyOverrides(c.overrides, "port", port);
        ProfileCatalogue::ApplyOverrides(c.overrides, "link", port->GetChannel());
    }
    m_mcps = gm.Install(ports);
    std::vector<Ptr<GmPort>> gmPorts;
    for (auto& mcp : m_mcps)
    {
        ProfileCatalogue::ApplyOverrides(c.overrides, "lanai", mcp->GetNic());
        ProfileCatalogue::ApplyOverrides(c.overrides, "mcp", mcp);
        Ptr<GmPort> port = gm.CreatePort();
        ProfileCatalogue::ApplyOverrides(c.overrides, "gm", port);
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
    Simulator::Stop(Seconds(3600)); // a bound far beyond any test; the test stops earlier
    Simulator::Run();
}

} // namespace clusternet
} // namespace ns3
