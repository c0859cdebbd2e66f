// SPDX-License-Identifier: GPL-2.0-only
#include "mpi-helper.h"

#include "gm-helper.h"

#include "ns3/gige-net-device.h"
#include "ns3/host-cpu.h"
#include "ns3/interrupt-coalescer.h"
#include "ns3/lanai-nic.h"
#include "ns3/fm-context.h"
#include "ns3/mpi-fm-transport.h"
#include "ns3/mpi-gm-transport.h"
#include "ns3/mpi-shm-transport.h"
#include "ns3/mpi-tcp-transport.h"
#include "ns3/mpi-via-transport.h"
#include "ns3/boolean.h"

#include <sstream>
#include "ns3/myrinet-net-device.h"
#include "ns3/profile-catalogue.h"
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
    m_viaTransportFactory.SetTypeId(MpiViaTransport::GetTypeId());
    m_shmTransportFactory.SetTypeId(MpiShmTransport::GetTypeId());
    m_fmTransportFactory.SetTypeId(MpiFmTransport::GetTypeId());
    m_collectivesFactory.SetTypeId(MpiCollectives::GetTypeId());
}

bool
MpiHelper::SetMpiProfile(const std::string& name)
{
    const Profile* p = ProfileCatalogue::Find("mpi", name);
    if (!p)
    {
        return false;
    }
    m_profile = name;
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
        else if (v.target == "coll")
        {
            m_collectivesFactory.Set(v.attribute, StringValue(v.value));
        }
        else if (v.target == "gmtransport")
        {
            m_gmTransportFactory.Set(v.attribute, StringValue(v.value));
        }
        else if (v.target == "via")
        {
            m_viaTransportFactory.Set(v.attribute, StringValue(v.value));
        }
        else if (v.target == "shm")
        {
            m_shmTransportFactory.Set(v.attribute, StringValue(v.value));
            m_shm = true;
        }
        else if (v.target == "properties" && v.attribute == "Transport")
        {
            m_transportKind = v.value;
        }
        else if (v.target == "properties" && v.attribute == "Nics")
        {
            std::stringstream ss(v.value);
            for (std::string nic; std::getline(ss, nic, ',');)
            {
                m_nics.push_back(nic);
            }
        }
    }
    return true;
}

void
MpiHelper::SetRankAttribute(std::string name, const AttributeValue& value)
{
    m_rankFactory.Set(name, value);
}

std::string
MpiHelper::GetTransportKind() const
{
    return m_transportKind;
}

uint32_t
MpiHelper::GetMaxMessage() const
{
    if (m_transportKind == "via")
    {
        return m_viaTransportFactory.Create<MpiViaTransport>()->GetMaxMessage();
    }
    return 0;
}

std::string
MpiHelper::CheckProfile() const
{
    if (m_transportKind != "gm")
    {
        return "";
    }
    Ptr<MpiGmTransport> transport = m_gmTransportFactory.Create<MpiGmTransport>();
    BooleanValue copied;
    UintegerValue bounce;
    UintegerValue envelope;
    transport->GetAttribute("LongDataCopied", copied);
    transport->GetAttribute("BounceSize", bounce);
    m_rankFactory.Create<MpiRank>()->GetAttribute("EnvelopeBytes", envelope);
    if (!copied.Get())
    {
        return "";
    }
    return MpiGmTransport::CheckBounce(static_cast<uint32_t>(bounce.Get()),
                                       static_cast<uint32_t>(envelope.Get()));
}

std::vector<std::string>
MpiHelper::GetSupportedNics() const
{
    return m_nics;
}

void
MpiHelper::SetViaTransportAttribute(std::string name, const AttributeValue& value)
{
    m_viaTransportFactory.Set(name, value);
}

std::vector<Ptr<MpiRank>>
MpiHelper::InstallVia(const NetDeviceContainer& devices,
                      const std::vector<std::vector<MpiOperation>>& programs)
{
    uint32_t n = devices.GetN();
    NS_ABORT_MSG_UNLESS(programs.size() == n, "MpiHelper: one program per rank");
    std::vector<Mac48Address> macs;
    for (uint32_t i = 0; i < n; ++i)
    {
        macs.push_back(Mac48Address::ConvertFrom(devices.Get(i)->GetAddress()));
    }
    std::vector<Ptr<MpiViaTransport>> transports;
    std::vector<Ptr<MpiRank>> ranks;
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<MpiViaTransport> t = m_viaTransportFactory.Create<MpiViaTransport>();
        t->Setup(devices.Get(i), i, macs);
        transports.push_back(t);
        ranks.push_back(StartRank(devices.Get(i)->GetNode(), i, n, t, programs[i]));
    }
    for (auto& t : transports)
    {
        t->SetPeers(transports);
    }
    return ranks;
}

void
MpiHelper::SetGmTransportAttribute(std::string name, const AttributeValue& value)
{
    m_gmTransportFactory.Set(name, value);
}

std::vector<Ptr<MpiRank>>
MpiHelper::InstallFm(const std::vector<Ptr<Node>>& nodes,
                     const std::vector<Ptr<FmContext>>& contexts,
                     const std::vector<std::vector<MpiOperation>>& programs)
{
    uint32_t n = contexts.size();
    NS_ABORT_MSG_UNLESS(programs.size() == n && nodes.size() == n,
                        "MpiHelper: one node and one program per rank");
    std::vector<MpiFmTransport::Endpoint> endpoints;
    for (const auto& ctx : contexts)
    {
        endpoints.emplace_back(ctx->GetNodeId(), ctx->GetContextId());
    }
    std::vector<Ptr<MpiFmTransport>> transports;
    std::vector<Ptr<MpiRank>> ranks;
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<MpiFmTransport> t = m_fmTransportFactory.Create<MpiFmTransport>();
        t->Setup(contexts[i], i, endpoints);
        transports.push_back(t);
        ranks.push_back(StartRank(nodes[i], i, n, t, programs[i]));
    }
    for (auto& t : transports)
    {
        t->SetPeers(transports);
    }
    return ranks;
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
        ranks.push_back(StartRank(node, i, n, t, programs[i]));
    }
    for (auto& t : transports)
    {
        t->SetPeers(transports);
    }
    return ranks;
}

bool
MpiHelper::HasSharedMemory() const
{
    return m_shm;
}

void
MpiHelper::SetShmTransportAttribute(std::string name, const AttributeValue& value)
{
    m_shmTransportFactory.Set(name, value);
}

std::vector<Ptr<MpiRank>>
MpiHelper::InstallShm(const NodeContainer& nodes,
                      const std::vector<std::vector<MpiOperation>>& programs)
{
    uint32_t n = nodes.GetN();
    NS_ABORT_MSG_UNLESS(programs.size() == n, "MpiHelper: one program per rank");
    std::vector<Ptr<MpiShmTransport>> transports;
    std::vector<Ptr<MpiRank>> ranks;
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<MpiShmTransport> t = m_shmTransportFactory.Create<MpiShmTransport>();
        t->Setup(nodes.Get(i)->GetObject<HostCpu>(), i);
        transports.push_back(t);
        ranks.push_back(StartRank(nodes.Get(i), i, n, t, programs[i]));
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
MpiHelper::StartRank(Ptr<Node> node,
                     uint32_t rank,
                     uint32_t size,
                     Ptr<MpiTransport> transport,
                     const std::vector<MpiOperation>& program) const
{
    Ptr<MpiRank> r = CreateRank();
    r->SetRank(rank, size);
    r->SetTransport(transport);
    r->SetCollectives(CreateCollectives());
    r->SetProgram(program);
    node->AddApplication(r);
    r->SetStartTime(Seconds(0));
    return r;
}

void
MpiHelper::ConfigureDevices(const NetDeviceContainer& devices) const
{
    const Profile* p = ProfileCatalogue::Find("mpi", m_profile);
    if (!p)
    {
        return;
    }
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        Ptr<GigeNetDevice> d = DynamicCast<GigeNetDevice>(devices.Get(i));
        if (d)
        {
            ProfileCatalogue::Apply(*p, "device", d);
            ProfileCatalogue::Apply(*p, "coalescer", d->GetRxCoalescer());
        }
    }
}

Ptr<MpiCollectives>
MpiHelper::CreateCollectives() const
{
    return m_collectivesFactory.Create<MpiCollectives>();
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
        ranks.push_back(StartRank(nodes.Get(i), i, n, t, programs[i]));
    }
    for (auto& t : transports)
    {
        t->SetPeers(transports);
    }
    return ranks;
}

} // namespace clusternet
} // namespace ns3
