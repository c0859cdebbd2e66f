// SPDX-License-Identifier: GPL-2.0-only
#include "netpipe-experiment.h"

#include "ns3/gige-helper.h"
#include "ns3/gm-helper.h"
#include "ns3/host-helper.h"
#include "ns3/myrinet-helper.h"

#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-interface-container.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "ns3/node-container.h"
#include "ns3/gige-net-device.h"
#include "ns3/gm-ethernet-net-device.h"
#include "ns3/lanai-nic.h"
#include "ns3/mpi-netpipe.h"
#include "ns3/mpi-tcp-transport.h"
#include "ns3/mpi-via-transport.h"
#include "ns3/myrinet-channel.h"
#include "ns3/myrinet-net-device.h"
#include "ns3/host-cpu.h"
#include "ns3/host-stack.h"
#include "ns3/interrupt-coalescer.h"
#include "ns3/pci-bus.h"
#include "ns3/profile-catalogue.h"

#include <sstream>

#include <algorithm>

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("TcpNetpipeExperiment");

namespace
{


/// Apply overrides for every target of one host's objects; @return error or ""
std::string
ApplyHostOverrides(const std::string& overrides,
                   Ptr<GigeNetDevice> dev,
                   Ptr<HostCpu> cpu,
                   Ptr<PciBus> bus,
                   Ptr<HostStack> stack)
{
    std::pair<std::string, Ptr<Object>> targets[] = {
        {"device", dev},
        {"coalescer", dev->GetRxCoalescer()},
        {"cpu", cpu},
        {"bus", bus},
        {"stack", stack},
    };
    std::vector<std::string> names;
    for (const auto& t : targets)
    {
        names.push_back(t.first);
    }
    std::string err = ProfileCatalogue::CheckTargets(overrides, names);
    if (!err.empty())
    {
        return err;
    }
    for (auto& [name, obj] : targets)
    {
        err = ProfileCatalogue::ApplyOverrides(overrides, name, obj);
        if (!err.empty())
        {
            return err;
        }
    }
    return "";
}

const std::vector<std::string> kMpiTargets = {"mpi", "transport", "via"};

/// Split "target.Attribute=value;..." into the items for @p targets and the rest.
std::pair<std::string, std::string>
SplitOverrides(const std::string& overrides, const std::vector<std::string>& targets)
{
    std::string mine;
    std::string rest;
    std::stringstream ss(overrides);
    std::string item;
    while (std::getline(ss, item, ';'))
    {
        if (item.empty())
        {
            continue;
        }
        std::string target = item.substr(0, item.find('.'));
        bool ours = std::find(targets.begin(), targets.end(), target) != targets.end();
        std::string& out = ours ? mine : rest;
        out += (out.empty() ? "" : ";") + item;
    }
    return {mine, rest};
}

/// @return true if @p nic names a LANai profile: IP over GM on Myrinet
bool
IsLanai(const std::string& nic)
{
    return ProfileCatalogue::Find("lanai", nic) != nullptr;
}

/// Override targets of IP over GM, with the objects they configure on one host.
struct GmTargets
{
    Ptr<GmEthernetNetDevice> device;
    Ptr<LanaiNic> lanai;
    Ptr<Object> mcp;
    Ptr<Object> gm;
    Ptr<HostCpu> cpu;
    Ptr<PciBus> bus;
    Ptr<HostStack> stack;
    Ptr<MyrinetChannel> link;
    Ptr<MyrinetNetDevice> port;

    std::vector<std::pair<std::string, Ptr<Object>>> List() const
    {
        return {{"device", device},
                {"lanai", lanai},
                {"mcp", mcp},
                {"gm", gm},
                {"cpu", cpu},
                {"bus", bus},
                {"stack", stack},
                {"link", link},
                {"port", port}};
    }
};

/// Apply the overrides of every IP-over-GM target; @return error or ""
std::string
ApplyGmOverrides(const std::string& overrides, const GmTargets& t)
{
    std::vector<std::string> names;
    for (const auto& [name, obj] : t.List())
    {
        names.push_back(name);
    }
    std::string err = ProfileCatalogue::CheckTargets(overrides, names);
    for (const auto& [name, obj] : t.List())
    {
        if (!err.empty())
        {
            return err;
        }
        if (obj)
        {
            err = ProfileCatalogue::ApplyOverrides(overrides, name, obj);
        }
    }
    return err;
}

/// Check the IP-over-GM configuration on throw-away objects configured as a run would be.
std::string
ValidateGm(const NetpipeConfig& c)
{
    GmTargets t{CreateObject<GmEthernetNetDevice>(),
                CreateObject<LanaiNic>(),
                CreateObject<GmMcp>(),
                CreateObject<GmPort>(),
                CreateObject<HostCpu>(),
                CreateObject<PciBus>(),
                CreateObject<HostStack>(),
                CreateObject<MyrinetChannel>(),
                CreateObject<MyrinetNetDevice>()};
    for (const auto& kind : {std::string("lanai"), std::string("host")})
    {
        const Profile* p = ProfileCatalogue::Find(kind, kind == "lanai" ? c.nic : c.host);
        for (const auto& [name, obj] : t.List())
        {
            ProfileCatalogue::Apply(*p, name, obj);
        }
    }
    std::string err = ApplyGmOverrides(c.overrides, t);
    if (err.empty())
    {
        err = t.lanai->CheckConfiguration();
    }
    if (err.empty())
    {
        err = MyrinetHelper::CheckFlowControl(t.port, t.link);
    }
    if (err.empty())
    {
        UintegerValue sendBuffers;
        UintegerValue receiveBuffers;
        UintegerValue sendTokens;
        UintegerValue receiveTokens;
        t.device->GetAttribute("SendBuffers", sendBuffers);
        t.device->GetAttribute("ReceiveBuffers", receiveBuffers);
        t.gm->GetAttribute("SendTokens", sendTokens);
        t.gm->GetAttribute("ReceiveTokens", receiveTokens);
        if (sendBuffers.Get() > sendTokens.Get() || receiveBuffers.Get() > receiveTokens.Get())
        {
            err = "device.SendBuffers/ReceiveBuffers must not exceed gm.SendTokens/ReceiveTokens";
        }
    }
    return err.empty() ? "" : "--set: " + err;
}

} // namespace

MpiHelper
TcpNetpipeExperiment::MakeMpiHelper(const NetpipeConfig& c)
{
    MpiHelper mpi;
    mpi.SetMpiProfile(c.mpi);
    std::stringstream ss(SplitOverrides(c.overrides, kMpiTargets).first);
    std::string item;
    while (std::getline(ss, item, ';'))
    {
        std::size_t dot = item.find('.');
        std::size_t eq = item.find('=');
        std::string target = item.substr(0, dot);
        std::string attribute = item.substr(dot + 1, eq - dot - 1);
        StringValue value(item.substr(eq + 1));
        if (target == "mpi")
        {
            mpi.SetRankAttribute(attribute, value);
        }
        else if (target == "via")
        {
            mpi.SetViaTransportAttribute(attribute, value);
        }
        else
        {
            mpi.SetTransportAttribute(attribute, value);
        }
    }
    return mpi;
}

std::string
TcpNetpipeExperiment::Validate(const NetpipeConfig& c)
{
    if (!c.mpi.empty())
    {
        if (!ProfileCatalogue::Find("mpi", c.mpi))
        {
            return "--stack: unknown MPI profile '" + c.mpi +
                   "'; allowed: " + ProfileCatalogue::JoinNames("mpi");
        }
        auto [mine, rest] = SplitOverrides(c.overrides, kMpiTargets);
        std::string err = ProfileCatalogue::ApplyOverrides(mine, "mpi", CreateObject<MpiRank>());
        if (err.empty())
        {
            err = ProfileCatalogue::ApplyOverrides(mine,
                                                  "transport",
                                                  CreateObject<MpiTcpTransport>());
        }
        if (err.empty())
        {
            err = ProfileCatalogue::ApplyOverrides(mine, "via", CreateObject<MpiViaTransport>());
        }
        if (!err.empty())
        {
            return "--set: " + err;
        }
        MpiHelper helper;
        helper.SetMpiProfile(c.mpi);
        std::vector<std::string> nics = helper.GetSupportedNics();
        if (!nics.empty() && std::find(nics.begin(), nics.end(), c.nic) == nics.end())
        {
            std::string list;
            for (const auto& n : nics)
            {
                list += (list.empty() ? "" : ", ") + n;
            }
            return "--stack: " + c.mpi + " has drivers for " + list + " only, not '" + c.nic + "'";
        }
        if (helper.GetTransportKind() == "gm")
        {
            return "--stack: " + c.mpi + " runs over GM (scenario myrinet-mpich-gm)";
        }
        NetpipeConfig plain = c;
        plain.mpi.clear();
        plain.overrides = rest;
        return Validate(plain);
    }
    auto names = [](const std::string& kind) {
        std::string out;
        for (const auto& n : ProfileCatalogue::Names(kind))
        {
            out += (out.empty() ? "" : ", ") + n;
        }
        return out;
    };
    if (!ProfileCatalogue::Find("nic", c.nic) && !IsLanai(c.nic))
    {
        return "--nic: unknown NIC '" + c.nic + "'; allowed: " + names("nic") + ", " +
               names("lanai") + " (IP over GM)";
    }
    if (!ProfileCatalogue::Find("host", c.host))
    {
        return "--host: unknown host '" + c.host + "'; allowed: " + names("host");
    }
    std::string w;
    std::string k;
    if (!c.pci.empty() && !HostHelper::ParsePciSlot(c.pci, w, k))
    {
        return "--pci: '" + c.pci + "' is not a PCI slot; allowed: 32x33, 32x66, 64x33, 64x66";
    }
    if (!MtuRange().Contains(c.mtu))
    {
        return "--mtu: " + std::to_string(c.mtu) + " out of range; allowed " +
               MtuRange().ToString() + " bytes";
    }
    if (!SockbufRange().Contains(c.sockbuf))
    {
        return "--sockbuf: " + std::to_string(c.sockbuf) + " out of range; allowed " +
               SockbufRange().ToString() + " bytes";
    }
    if (!MaxBlockRange().Contains(c.maxBlock))
    {
        return "--max-block: " + std::to_string(c.maxBlock) + " out of range; allowed " +
               MaxBlockRange().ToString() + " bytes";
    }
    if (IsLanai(c.nic))
    {
        return ValidateGm(c);
    }
    // Overrides: check them against throw-away objects (not on nodes).
    if (!c.overrides.empty())
    {
        std::string err = ApplyHostOverrides(c.overrides,
                                             CreateObject<GigeNetDevice>(),
                                             CreateObject<HostCpu>(),
                                             CreateObject<PciBus>(),
                                             CreateObject<HostStack>());
        if (!err.empty())
        {
            return "--set: " + err;
        }
    }
    return "";
}

std::vector<NetpipeApplication::Sample>
TcpNetpipeExperiment::Run(const NetpipeConfig& config)
{
    std::string err = Validate(config);
    NS_ABORT_MSG_UNLESS(err.empty(), "TcpNetpipeExperiment: " << err);
    NetpipeConfig c = config;
    c.overrides = SplitOverrides(config.overrides, kMpiTargets).second;
    NodeContainer nodes;
    nodes.Create(2);

    HostHelper hosts;
    hosts.SetHostProfile(c.host);
    hosts.SetPciSlot(c.pci);
    hosts.Install(nodes);

    GigeHelper gige;
    NetDeviceContainer devs;
    if (IsLanai(c.nic))
    {
        // IP over GM: LANai NICs running GM, linked back to back (seed 001 sec. 3).
        GmHelper gm;
        gm.SetLanaiProfile(c.nic);
        gm.SetHostProfile(c.host);
        gm.SetEthernetAttribute("Mtu", UintegerValue(c.mtu));
        MyrinetHelper myrinet;
        gm.ConfigureFabric(myrinet);
        NetDeviceContainer ports = myrinet.Install(nodes.Get(0), nodes.Get(1));
        std::vector<Ptr<GmMcp>> mcps = gm.Install(ports);
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<Node> n = nodes.Get(i);
            Ptr<MyrinetNetDevice> port = DynamicCast<MyrinetNetDevice>(ports.Get(i));
            GmTargets t{nullptr,
                        mcps[i]->GetNic(),
                        mcps[i],
                        nullptr,
                        n->GetObject<HostCpu>(),
                        n->GetObject<PciBus>(),
                        n->GetObject<HostStack>(),
                        port->GetMyrinetChannel(),
                        port};
            ApplyGmOverrides(c.overrides, t);
        }
        std::string overrides = c.overrides;
        devs = gm.InstallEthernet(mcps, [overrides](Ptr<GmEthernetNetDevice> d, Ptr<GmPort> p) {
            ProfileCatalogue::ApplyOverrides(overrides, "device", d);
            ProfileCatalogue::ApplyOverrides(overrides, "gm", p);
        });
    }
    else
    {
        gige.SetNicProfile(c.nic);
        gige.SetDeviceAttribute("Mtu", UintegerValue(c.mtu));
        devs = gige.Install(nodes);
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<Node> n = nodes.Get(i);
            ApplyHostOverrides(c.overrides,
                               DynamicCast<GigeNetDevice>(devs.Get(i)),
                               n->GetObject<HostCpu>(),
                               n->GetObject<PciBus>(),
                               n->GetObject<HostStack>());
        }
    }

    InternetStackHelper internet;
    internet.Install(nodes);
    internet.AssignStreams(nodes, 0);
    Ipv4AddressHelper addr("10.0.0.0", "255.255.255.0");
    Ipv4InterfaceContainer ifs = addr.Assign(devs);

    if (!c.mpi.empty())
    {
        // NetPIPE's MPI mode: two ranks of the MPI library over TCP.
        MpiHelper mpi = MakeMpiHelper(config);
        std::vector<Ptr<MpiRank>> ranks;
        uint32_t maxBlock = c.maxBlock;
        if (mpi.GetTransportKind() == "via")
        {
            mpi.ConfigureDevices(devs); // the VIA library's own driver settings
            ranks = mpi.InstallVia(devs, {{}, {}});
            UintegerValue envelope;
            ranks[0]->GetAttribute("EnvelopeBytes", envelope);
            uint32_t largest = ranks[0]->GetTransport()->GetMaxMessage() - envelope.Get();
            maxBlock = std::min(maxBlock, largest);
        }
        else
        {
            ranks = mpi.InstallTcp(nodes, ifs, {{}, {}});
        }
        Ptr<MpiNetpipe> netpipe = CreateObject<MpiNetpipe>();
        netpipe->SetAttribute("MaxBlock", UintegerValue(maxBlock));
        netpipe->Start(ranks[0], ranks[1], []() { Simulator::Stop(); });
        Simulator::Stop(Seconds(600));
        Simulator::Run();
        std::vector<NetpipeApplication::Sample> samples = netpipe->GetSamples();
        netpipe->Dispose();
        Simulator::Destroy();
        return samples;
    }
    Ptr<NetpipeApplication> rx = CreateObject<NetpipeApplication>();
    rx->SetAttribute("Role", StringValue("Receiver"));
    rx->SetAttribute("SocketBuffer", UintegerValue(c.sockbuf));
    nodes.Get(1)->AddApplication(rx);
    Ptr<NetpipeApplication> tx = CreateObject<NetpipeApplication>();
    tx->SetAttribute("Role", StringValue("Transmitter"));
    tx->SetAttribute("SocketBuffer", UintegerValue(c.sockbuf));
    tx->SetAttribute("MaxBlock", UintegerValue(c.maxBlock));
    tx->SetAttribute("Remote", AddressValue(InetSocketAddress(ifs.GetAddress(1), 5002)));
    tx->SetPeerApplication(rx);
    tx->SetDoneCallback(Callback<void>([]() { Simulator::Stop(); }));
    nodes.Get(0)->AddApplication(tx);
    rx->SetStartTime(Seconds(0));
    tx->SetStartTime(MilliSeconds(1));

    if (!c.pcapPrefix.empty() && !IsLanai(c.nic))
    {
        gige.EnablePcap(c.pcapPrefix, devs, false);
    }

    Simulator::Stop(Seconds(600)); // a bound, far beyond any NetPIPE run
    Simulator::Run();
    std::vector<NetpipeApplication::Sample> samples = tx->GetSamples();
    Simulator::Destroy();
    return samples;
}

UintegerRange
TcpNetpipeExperiment::MtuRange()
{
    return UintegerRange::Of("ns3::clusternet::GigeNetDevice", "Mtu");
}

UintegerRange
TcpNetpipeExperiment::SockbufRange()
{
    return UintegerRange::Of("ns3::clusternet::NetpipeApplication", "SocketBuffer");
}

UintegerRange
TcpNetpipeExperiment::MaxBlockRange()
{
    return UintegerRange::Of("ns3::clusternet::NetpipeApplication", "MaxBlock");
}

} // namespace clusternet
} // namespace ns3
