// SPDX-License-Identifier: GPL-2.0-only
#include "mpi-helper.h"

#include "gm-helper.h"

#include "ns3/host-cpu.h"
#include "ns3/lanai-nic.h"
#include "ns3/mpi-gm-transport.h"
#include "ns3/mpi-tcp-transport.h"
#include "ns3/myrinet-net-device.h"
#include "ns3/profile-registry.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <memory>

namespace ns3
{
namespace clusternet
{

MpiHelper::MpiHelper()
{
    m_rankFactory.SetTypeId(MpiRank::GetTypeId());
    m_transportFactory.SetTypeId(MpiTcpTransport::GetTypeId());
    m_gmTransportFactory.SetTypeId(MpiGmTransport::GetTypeId());
}

bool
MpiHelper::SetMpiProfile(const std::string& name)
{
    const Profile* p = ProfileRegistry::Find("mpi", name);
    if (!p)
    {
        return false;
    }
    for (const auto& v : p->values)
    {
        if (v.target == "mpi")
        {
            m_rankFactory.Set(v.attribute, StringValue(v.value));
        }
        else if (v.target == "transport")
        {
            m_transportFactory.Set(v.attribute, StringValue(v.value));
        }
        else if (v.target == "gmtransport")
        {
            m_gmTransportFactory.Set(v.attribute, StringValue(v.value));
        }
    }
    return true;
}

void
MpiHelper::SetRankAttribute(std::string name, const AttributeValue& value)
{
    m_rankFactory.Set(name, value);
}

void
MpiHelper::SetGmTransportAttribute(std::string name, const AttributeValue& value)
{
    m_gmTransportFactory.Set(name, value);
}

std::vector<Ptr<MpiRank>>
MpiHelper::InstallGm(const std::vector<Ptr<GmMcp>>& mcps,
                     const GmHelper& gm,
                     const std::vector<std::vector<MpiOperation>>& programs)
{
    uint32_t n = mcps.size();
    NS_ABORT_MSG_UNLESS(programs.size() == n, "MpiHelper: one program per rank");
    std::vector<uint16_t> gmNodes;
    for (const auto& mcp : mcps)
    {
        gmNodes.push_back(mcp->GetNodeId());
    }
    std::vector<Ptr<MpiGmTransport>> transports;
    std::vector<Ptr<MpiRank>> ranks;
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<Node> node = mcps[i]->GetNic()->GetPort()->GetNode();
        Ptr<MpiGmTransport> t = m_gmTransportFactory.Create<MpiGmTransport>();
        UintegerValue portId;
        t->GetAttribute("PortId", portId);
        Ptr<GmPort> port = gm.OpenPort(mcps[i], static_cast<uint8_t>(portId.Get()));
        t->Setup(port, node->GetObject<HostCpu>(), i, gmNodes);
        transports.push_back(t);
        Ptr<MpiRank> r = CreateRank();
        r->SetRank(i, n);
        r->SetTransport(t);
        r->SetProgram(programs[i]);
        node->AddApplication(r);
        r->SetStartTime(Seconds(0));
        ranks.push_back(r);
    }
    for (auto& t : transports)
    {
        t->SetPeers(transports);
    }
    return ranks;
}

void
MpiHelper::SetTransportAttribute(std::string name, const AttributeValue& value)
{
    m_transportFactory.Set(name, value);
}

uint32_t
MpiHelper::GetSocketBuffer() const
{
    Ptr<MpiTcpTransport> t = m_transportFactory.Create<MpiTcpTransport>();
    UintegerValue v;
    t->GetAttribute("SocketBuffer", v);
    return v.Get();
}

Ptr<MpiRank>
MpiHelper::CreateRank() const
{
    return m_rankFactory.Create<MpiRank>();
}

std::vector<Ptr<MpiRank>>
MpiHelper::InstallTcp(const NodeContainer& nodes,
                      const Ipv4InterfaceContainer& interfaces,
                      const std::vector<std::vector<MpiOperation>>& programs)
{
    uint32_t n = nodes.GetN();
    NS_ABORT_MSG_UNLESS(programs.size() == n && interfaces.GetN() == n,
                        "MpiHelper: one node, interface and program per rank");
    std::vector<Ipv4Address> addresses;
    for (uint32_t i = 0; i < n; ++i)
    {
        addresses.push_back(interfaces.GetAddress(i));
    }
    std::vector<Ptr<MpiTcpTransport>> transports;
    std::vector<Ptr<MpiRank>> ranks;
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<MpiTcpTransport> t = m_transportFactory.Create<MpiTcpTransport>();
        t->Setup(nodes.Get(i), i, addresses);
        transports.push_back(t);
        Ptr<MpiRank> r = CreateRank();
        r->SetRank(i, n);
        r->SetTransport(t);
        r->SetProgram(programs[i]);
        nodes.Get(i)->AddApplication(r);
        r->SetStartTime(Seconds(0));
        ranks.push_back(r);
    }
    for (auto& t : transports)
    {
        t->SetPeers(transports);
    }
    return ranks;
}

std::string
MpiHelper::Run(const std::vector<Ptr<MpiRank>>& ranks, Time limit)
{
    auto left = std::make_shared<uint32_t>(0);
    for (const auto& r : ranks)
    {
        *left += r->IsDone() ? 0 : 1;
        r->SetDoneCallback([left](uint32_t) {
            if (--*left == 0)
            {
                Simulator::Stop();
            }
        });
    }
    if (*left == 0)
    {
        return "";
    }
    Simulator::Stop(limit);
    Simulator::Run();
    std::string report;
    for (const auto& r : ranks)
    {
        std::string pending = r->DescribePending();
        if (!pending.empty())
        {
            report += (report.empty() ? "" : "\n") + pending;
        }
    }
    return report;
}

} // namespace clusternet
} // namespace ns3
