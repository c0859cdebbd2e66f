// SPDX-License-Identifier: GPL-2.0-only
#include "ping-pong-experiment.h"

#include "run-checks.h"

#include "ns3/gige-helper.h"
#include "ns3/gige-switch-helper.h"
#include "ns3/host-helper.h"
#include "ns3/mpi-helper.h"

#include "ns3/ethernet-driver.h"
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
#include "ns3/profile-set.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <algorithm>
#include <utility>

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("PingPongExperiment");

const std::string PingPongExperiment::LOOPBACK = "loopback-nt";

namespace
{



/// @return the run's values: its profiles, then the overrides (checked: the error or "" in
/// @p err). The host and stack of @p c must exist.
ProfileSet
Values(const PingPongConfig& c, std::string& err)
{
    ProfileSet values(PingPongExperiment::Targets());
    if (const Profile* nic = ProfileCatalogue::Find("nic", c.nic))
    {
        values.AddProfile(*nic);
    }
    values.AddProfile(*ProfileCatalogue::Find("host", c.host));
    values.AddProfile(*ProfileCatalogue::Find("mpi", c.stack));
    HostHelper::ChoosePciSlot(values, c.pci);
    err = values.SetOverrides(c.overrides);
    return values;
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

const std::vector<std::string>&
PingPongExperiment::Targets()
{
    // The NIC's, the host's and the MPI library's (its timing and echoing ranks, TCP or
    // shared-memory transport); not IP over GM, NAS kernels, VIA, GM or collectives.
    static const std::vector<std::string> targets =
        ProfileCatalogue::TargetsOf({"nic", "host", "mpi"},
                                    {"nic.loopback",
                                     "nic.txcoalescer",
                                     "host.gm",
                                     "host.device",
                                     "host.driver",
                                     "host.npb",
                                     "mpi.via",
                                     "mpi.gmtransport",
                                     "mpi.coll"});
    return targets;
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
    if (mpi.GetTransportType() != MpiTcpTransport::GetTypeId())
    {
        return "--stack: " + c.stack + " runs over " +
               MpiHelper::TransportProperty(mpi.GetTransportType()) +
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
    if (!HostHelper().SetPciSlot(c.pci))
    {
        return "--pci: '" + c.pci + "' is not a PCI slot; allowed: " + HostHelper::JoinPciSlots();
    }
    // Without a library header (WinSock's bare send()/recv()), a zero-byte message puts
    // nothing on the TCP stream: there is nothing to receive and the ping-pong never ends.
    if (std::find(c.lengths.begin(), c.lengths.end(), 0u) != c.lengths.end() &&
        lib->Get("mpi", "EnvelopeBytes") == "0")
    {
        return "--lengths: 0 bytes with " + c.stack +
               ", which sends no header: a zero-byte message is nothing on a TCP stream; "
               "allowed 1 byte and more with it";
    }
    std::string err;
    ProfileSet values = Values(c, err);
    if (err.empty() && TransportOf(c) == "tcp")
    {
        err = RunChecks::GigePause(values);
        uint32_t mtu = static_cast<uint32_t>(values.GetValue<UintegerValue>("device", "Mtu").Get());
        err = err.empty() ? RunChecks::TcpFrameTime(values, mtu) : err;
    }
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
    hosts.SetPciSlot(c.pci);
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
        if (c.useSwitch && transport != "loopback")
        {
            GigeSwitchHelper switches;
            devs = switches.Install(CreateObject<Node>(), nodes, gige);
        }
        else
        {
            devs = gige.Install(nodes);
        }
        InternetStackHelper internet;
        internet.Install(nodes);
        internet.AssignStreams(nodes, 0);
        Ipv4AddressHelper addr("10.0.0.0", "255.255.255.0");
        Ipv4InterfaceContainer ifs = addr.Assign(devs);
        ranks = mpi.InstallTcp(nodes, ifs, {{}, {}});
    }
    ProfileSet values = Values(c, err);
    values.Apply(nodes);
    // The echoing process's own settings (PVM's slave sends back without packing).
    values.ApplyProfiles("echo", ranks[1]);
    values.ApplyOverrides(nodes); // a --set of mpi reaches the echoing rank too
    values.ApplyOverrides("echo", ranks[1]);
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
