// SPDX-License-Identifier: GPL-2.0-only
#include "fm-helper.h"

#include "myrinet-helper.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/host-cpu.h"
#include "ns3/log.h"
#include "ns3/pci-bus.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("FmHelper");

const std::vector<std::string>&
FmHelper::Targets()
{
    // The chipset's, the host's CPU, FM's (library, control program, board, SMT region) and
    // the Myrinet generation's ports and links: no TCP stack, GM, IP over GM or NAS kernels.
    static const std::vector<std::string> targets =
        ProfileCatalogue::TargetsOf({"chipset", "host", "fm", "lanai"},
                                    {"host.stack",
                                     "host.gm",
                                     "host.device",
                                     "host.driver",
                                     "host.npb",
                                     "lanai.mcp",
                                     "lanai.switch"});
    return targets;
}

ProfileSet
FmHelper::ProfileValues(const std::string& lanai,
                        const std::string& host,
                        const std::string& chipset,
                        const std::string& fm)
{
    ProfileSet values(Targets());
    for (const auto& [kind, name] : std::vector<std::pair<std::string, std::string>>{
             {"lanai", lanai},
             {"host", host},
             {"chipset", chipset},
             {"fm", fm}})
    {
        const Profile* p = ProfileCatalogue::Find(kind, name);
        NS_ABORT_MSG_UNLESS(p, "FmHelper: no " << kind << " profile '" << name << "'");
        values.AddProfile(*p);
    }
    return values;
}

FmHelper::FmHelper(const ProfileSet& values)
    : m_values(values)
{
}

void
FmHelper::SetProcesses(uint32_t n)
{
    NS_ABORT_MSG_UNLESS(n >= 1 && n <= 16, "FmHelper: " << n << " processes; allowed 1..16");
    m_processes = n;
}

void
FmHelper::ConfigureFabric(MyrinetHelper& myrinet) const
{
    for (const auto& [attribute, value] : m_values.GetProfileValues("link"))
    {
        myrinet.SetChannelAttribute(attribute, StringValue(value));
    }
    for (const auto& [attribute, value] : m_values.GetProfileValues("port"))
    {
        myrinet.SetDeviceAttribute(attribute, StringValue(value));
    }
}

std::vector<FmHelper::Host>
FmHelper::Install(const NodeContainer& hosts, const NetDeviceContainer& ports) const
{
    NS_ABORT_MSG_UNLESS(hosts.GetN() == ports.GetN() && hosts.GetN() >= 1,
                        "FmHelper: " << hosts.GetN() << " hosts for " << ports.GetN()
                                     << " ports");
    const bool shared = m_processes > 1 && m_values.Get("fm", "Intranode") == "Smt";
    std::vector<Host> built;
    for (uint32_t h = 0; h < hosts.GetN(); ++h)
    {
        Ptr<Node> node = hosts.Get(h);
        Ptr<PciBus> bus = node->GetObject<PciBus>();
        NS_ABORT_MSG_UNLESS(bus && node->GetObject<HostCpu>(),
                            "FmHelper: node " << node->GetId()
                                              << " has no host (HostHelper::Install first)");
        m_values.Apply("bus", bus);
        m_values.Apply("cpu", node->GetObject<HostCpu>());
        Ptr<NetDevice> port = ports.Get(h); // a Myrinet host port (LanaiNic::SetPort checks)
        m_values.ApplyOverrides("port", port);
        m_values.ApplyOverrides("link", port->GetChannel());

        Host host;
        host.bridge = CreateObject<HostBridge>();
        m_values.Apply("bridge", host.bridge);
        host.bridge->SetBus(bus);
        node->AggregateObject(host.bridge);

        host.nic = CreateObject<LanaiNic>();
        m_values.Apply("lanai", host.nic);
        host.nic->SetPort(port);
        host.nic->SetBus(bus);
        node->AggregateObject(host.nic);
        host.mcp = CreateObject<FmMcp>();
        m_values.Apply("lcp", host.mcp);
        host.mcp->SetNic(host.nic);
        host.mcp->SetNodeId(static_cast<uint16_t>(h));
        node->AggregateObject(host.mcp);

        if (shared)
        {
            host.smt = CreateObject<FmSmt>();
            m_values.Apply("smt", host.smt);
            node->AggregateObject(host.smt);
        }
        for (uint32_t p = 0; p < m_processes; ++p)
        {
            // Process 0 runs on the node's CPU; each further one on another processor.
            Ptr<HostCpu> cpu = node->GetObject<HostCpu>();
            if (p > 0)
            {
                cpu = CreateObject<HostCpu>();
                m_values.Apply("cpu", cpu);
            }
            Ptr<FmContext> ctx = CreateObject<FmContext>();
            m_values.Apply("fm", ctx);
            ctx->Setup(static_cast<uint16_t>(h),
                       static_cast<uint8_t>(p),
                       cpu,
                       host.bridge,
                       host.mcp,
                       host.smt);
            host.processes.push_back(ctx);
        }
        NS_LOG_LOGIC("host " << h << ": FM node " << h << ", " << m_processes << " processes"
                             << (shared ? " sharing a region" : ""));
        built.push_back(host);
    }
    for (uint32_t i = 0; i < built.size(); ++i)
    {
        for (uint32_t j = 0; j < built.size(); ++j)
        {
            if (i != j)
            {
                built[i].mcp->AddPeer(static_cast<uint16_t>(j),
                                      Mac48Address::ConvertFrom(ports.Get(j)->GetAddress()));
            }
        }
    }
    for (uint32_t h = 0; h < built.size(); ++h)
    {
        for (uint32_t p = 0; p < m_processes; ++p)
        {
            for (uint32_t h2 = 0; h2 < built.size(); ++h2)
            {
                for (uint32_t p2 = 0; p2 < m_processes; ++p2)
                {
                    if (h != h2 || p != p2)
                    {
                        built[h].processes[p]->AddPeer(static_cast<uint16_t>(h2),
                                                       static_cast<uint8_t>(p2));
                    }
                }
            }
        }
    }
    return built;
}

int64_t
FmHelper::AssignStreams(const std::vector<Host>& hosts, int64_t stream)
{
    int64_t used = 0;
    for (const Host& host : hosts)
    {
        used += host.mcp->AssignStreams(stream + used);
        for (const auto& ctx : host.processes)
        {
            used += ctx->AssignStreams(stream + used);
        }
    }
    return used;
}

void
FmHelper::Start(const std::vector<Host>& hosts)
{
    for (const Host& host : hosts)
    {
        for (const auto& ctx : host.processes)
        {
            Simulator::ScheduleNow(&FmContext::Start, ctx);
        }
    }
}

Ptr<FmPioProbe>
FmHelper::CreatePioProbe(const Host& host)
{
    Ptr<FmPioProbe> probe = CreateObject<FmPioProbe>();
    DoubleValue cycles;
    host.processes.at(0)->GetAttribute("PacketSendCycles", cycles);
    probe->SetAttribute("PacketCycles", cycles);
    probe->Setup(host.processes.at(0)->GetCpu(), host.bridge);
    return probe;
}

} // namespace clusternet
} // namespace ns3
