// SPDX-License-Identifier: GPL-2.0-only
#include "ping-pong-experiment.h"

#include "ns3/gige-helper.h"
#include "ns3/host-helper.h"
#include "ns3/mpi-helper.h"

#include "ns3/gige-net-device.h"
#include "ns3/host-cpu.h"
#include "ns3/host-stack.h"
#include "ns3/interrupt-coalescer.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/log.h"
#include "ns3/mpi-shm-transport.h"
#include "ns3/mpi-tcp-transport.h"
#include "ns3/pci-bus.h"
#include "ns3/profile-catalogue.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <utility>

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("PingPongExperiment");

const std::string PingPongExperiment::LOOPBACK = "loopback-nt";

namespace
{

/// Override targets, with the objects of one process they configure.
using Targets = std::vector<std::pair<std::string, Ptr<Object>>>;

std::string
ApplyAll(const std::string& overrides, const Targets& targets)
{
    std::vector<std::string> names;
    for (const auto& t : targets)
    {
        names.push_back(t.first);
    }
    std::string err = ProfileCatalogue::CheckTargets(overrides, names);
    for (const auto& [name, obj] : targets)
    {
        if (!err.empty())
        {
            break;
        }
        if (obj)
        {
            err = ProfileCatalogue::ApplyOverrides(overrides, name, obj);
        }
    }
    return err;
}

std::string
Names(const std::string& kind)
{
    return ProfileCatalogue::JoinNames(kind);
}

} // namespace

std::string
PingPongExperiment::TransportOf(const PingPongConfig& c)
{
    if (!c.intranode)
    {
        return "tcp";
    }
    MpiHelper mpi;
    mpi.SetMpiProfile(c.stack);
    return mpi.HasSharedMemory() ? "shm" : "loopback";
}

double
PingPongExperiment::PriceUsd(const std::string& nic)
{
    const Profile* p = ProfileCatalogue::Find("nic", nic);
    std::string price = p ? p->Get("properties", "PriceUsd") : "";
    return price.empty() ? -1.0 : std::stod(price);
}

std::string
PingPongExperiment::Validate(const PingPongConfig& c)
{
    if (!ProfileCatalogue::Find("host", c.host))
    {
        return "--host: unknown host '" + c.host + "'; allowed: " + Names("host");
    }
    const Profile* lib = ProfileCatalogue::Find("mpi", c.stack);
    if (!lib)
    {
        return "--stack: unknown stack '" + c.stack + "'; allowed: " + Names("mpi");
    }
    MpiHelper mpi;
    mpi.SetMpiProfile(c.stack);
    if (mpi.GetTransportKind() != "tcp")
    {
        return "--stack: " + c.stack + " runs over " + mpi.GetTransportKind() +
               ", not WinSock/TCP or shared memory";
    }
    if (!c.intranode && !ProfileCatalogue::Find("nic", c.nic))
    {
        return "--nic: unknown NIC '" + c.nic + "'; allowed: " + Names("nic");
    }
    if (c.lengths.empty())
    {
        return "--lengths: need at least one message length";
    }
    Targets t = {{"device", CreateObject<GigeNetDevice>()},
                 {"coalescer", CreateObject<InterruptCoalescer>()},
                 {"cpu", CreateObject<HostCpu>()},
                 {"bus", CreateObject<PciBus>()},
                 {"stack", CreateObject<HostStack>()},
                 {"mpi", CreateObject<MpiRank>()},
                 {"transport", CreateObject<MpiTcpTransport>()},
                 {"shm", CreateObject<MpiShmTransport>()}};
    std::string err = ApplyAll(c.overrides, t);
    return err.empty() ? "" : "--set: " + err;
}

std::vector<PingPongBenchmark::Sample>
PingPongExperiment::Run(const PingPongConfig& c)
{
    std::string err = Validate(c);
    NS_ABORT_MSG_UNLESS(err.empty(), "PingPongExperiment: " << err);
    NodeContainer nodes;
    nodes.Create(2);
    HostHelper hosts;
    hosts.SetHostProfile(c.host);
    hosts.Install(nodes);

    MpiHelper mpi;
    mpi.SetMpiProfile(c.stack);
    std::string transport = TransportOf(c);
    std::vector<Ptr<MpiRank>> ranks;
    NetDeviceContainer devs;
    if (transport == "shm")
    {
        ranks = mpi.InstallShm(nodes, {{}, {}});
    }
    else
    {
        GigeHelper gige;
        gige.SetNicProfile(transport == "loopback" ? LOOPBACK : c.nic);
        devs = gige.Install(nodes);
        InternetStackHelper internet;
        internet.Install(nodes);
        internet.AssignStreams(nodes, 0);
        Ipv4AddressHelper addr("10.0.0.0", "255.255.255.0");
        Ipv4InterfaceContainer ifs = addr.Assign(devs);
        ranks = mpi.InstallTcp(nodes, ifs, {{}, {}});
    }
    // The echoing process's own settings (PVM's slave sends back without packing).
    for (const auto& v : ProfileCatalogue::Find("mpi", c.stack)->values)
    {
        if (v.target == "echo")
        {
            ranks[1]->SetAttribute(v.attribute, StringValue(v.value));
        }
    }
    for (uint32_t i = 0; i < 2; ++i)
    {
        Ptr<Node> n = nodes.Get(i);
        Ptr<GigeNetDevice> dev =
            devs.GetN() > i ? DynamicCast<GigeNetDevice>(devs.Get(i)) : nullptr;
        Targets t = {{"device", dev},
                     {"coalescer", dev ? Ptr<Object>(dev->GetRxCoalescer()) : nullptr},
                     {"cpu", n->GetObject<HostCpu>()},
                     {"bus", n->GetObject<PciBus>()},
                     {"stack", n->GetObject<HostStack>()},
                     {"mpi", ranks[i]},
                     {"transport", DynamicCast<MpiTcpTransport>(ranks[i]->GetTransport())},
                     {"shm", DynamicCast<MpiShmTransport>(ranks[i]->GetTransport())}};
        ApplyAll(c.overrides, t);
    }
    Ptr<PingPongBenchmark> bench = CreateObject<PingPongBenchmark>();
    bench->SetAttribute("Repeats", UintegerValue(c.repeats));
    bench->Start(ranks[0], ranks[1], c.lengths, []() { Simulator::Stop(); });
    Simulator::Stop(Seconds(3600));
    Simulator::Run();
    std::vector<PingPongBenchmark::Sample> samples = bench->GetSamples();
    bench->Dispose();
    Simulator::Destroy();
    return samples;
}

} // namespace clusternet
} // namespace ns3
