// SPDX-License-Identifier: GPL-2.0-only
#include "mpi-helper.h"

#include "gm-helper.h"

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
#include "ns3/pointer.h"
#include "ns3/profile-catalogue.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <memory>

namespace ns3
{
namespace clusternet
{

namespace
{

/// The words of a library profile's Transport property and the classes they name.
const std::vector<std::pair<std::string, TypeId>>&
Transports()
{
    static const std::vector<std::pair<std::string, TypeId>> transports = {
        {"tcp", MpiTcpTransport::GetTypeId()},
        {"gm", MpiGmTransport::GetTypeId()},
        {"via", MpiViaTransport::GetTypeId()},
        {"fm", MpiFmTransport::GetTypeId()},
    };
    return transports;
}

} // namespace

TypeId
MpiHelper::TransportTypeOf(const std::string& property)
{
    for (const auto& [word, type] : Transports())
    {
        if (word == property)
        {
            return type;
        }
    }
    NS_ABORT_MSG("MpiHelper: no transport '" << property << "' (tcp, gm, via or fm)");
    return TypeId();
}

std::string
MpiHelper::TransportProperty(TypeId type)
{
    for (const auto& [word, t] : Transports())
    {
        if (t == type)
        {
            return word;
        }
    }
    return type.GetName();
}

MpiHelper::MpiHelper()
    : m_transportType(MpiTcpTransport::GetTypeId())
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
            m_transportType = TransportTypeOf(v.value);
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

TypeId
MpiHelper::GetTransportType() const
{
    return m_transportType;
}

uint32_t
MpiHelper::GetMaxMessage() const
{
    if (m_transportType == MpiViaTransport::GetTypeId())
    {
        return m_viaTransportFactory.Create<MpiViaTransport>()->GetMaxMessage();
    }
    return 0;
}

std::string
MpiHelper::CheckProfile() const
{
    if (m_transportType != MpiGmTransport::GetTypeId())
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
    return Start(
        [&](uint32_t i, Ptr<Node>& node) {
            Ptr<MpiViaTransport> t = m_viaTransportFactory.Create<MpiViaTransport>();
            t->Setup(devices.Get(i), i, macs);
            node = devices.Get(i)->GetNode();
            return t;
        },
        programs);
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
    return Start(
        [&](uint32_t i, Ptr<Node>& node) {
            Ptr<MpiFmTransport> t = m_fmTransportFactory.Create<MpiFmTransport>();
            t->Setup(contexts[i], i, endpoints);
            node = nodes[i];
            return t;
        },
        programs);
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
    return Start(
        [&](uint32_t i, Ptr<Node>& node) {
            node = mcps[i]->GetObject<Node>(); // the host the control program is on
            Ptr<MpiGmTransport> t = m_gmTransportFactory.Create<MpiGmTransport>();
            UintegerValue portId;
            t->GetAttribute("PortId", portId);
            Ptr<GmPort> port = gm.OpenPort(mcps[i], static_cast<uint8_t>(portId.Get()));
            t->Setup(port, node->GetObject<HostCpu>(), i, gmNodes);
            return t;
        },
        programs);
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
    return Start(
        [&](uint32_t i, Ptr<Node>& node) {
            Ptr<MpiShmTransport> t = m_shmTransportFactory.Create<MpiShmTransport>();
            t->Setup(nodes.Get(i)->GetObject<HostCpu>(), i);
            node = nodes.Get(i);
            return t;
        },
        programs);
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

std::vector<Ptr<MpiRank>>
MpiHelper::Start(const TransportMaker& make,
                 const std::vector<std::vector<MpiOperation>>& programs) const
{
    const uint32_t n = programs.size();
    std::vector<Ptr<MpiTransport>> transports;
    std::vector<Ptr<MpiRank>> ranks;
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<Node> node;
        Ptr<MpiTransport> t = make(i, node);
        NS_ABORT_MSG_UNLESS(t && node, "MpiHelper: no transport or node for rank " << i);
        transports.push_back(t);
        Ptr<MpiRank> r = CreateRank();
        r->SetRank(i, n);
        r->SetTransport(t);
        r->SetCollectives(CreateCollectives());
        r->SetProgram(programs[i]);
        node->AddApplication(r);
        r->SetStartTime(Seconds(0));
        ranks.push_back(r);
    }
    for (const auto& t : transports)
    {
        t->SetPeers(transports);
    }
    return ranks;
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
        PointerValue coalescer;
        if (devices.Get(i)->GetAttributeFailSafe("RxCoalescer", coalescer) &&
            coalescer.Get<InterruptCoalescer>())
        {
            ProfileCatalogue::Apply(*p, "coalescer", coalescer.Get<InterruptCoalescer>());
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
    return Start(
        [&](uint32_t i, Ptr<Node>& node) {
            Ptr<MpiTcpTransport> t = m_transportFactory.Create<MpiTcpTransport>();
            t->Setup(nodes.Get(i), i, addresses);
            node = nodes.Get(i);
            return t;
        },
        programs);
}

} // namespace clusternet
} // namespace ns3
