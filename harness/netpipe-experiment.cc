// SPDX-License-Identifier: GPL-2.0-only
#include "netpipe-experiment.h"

#include "ns3/mpi-fm-transport.h"
#include "ns3/mpi-gm-transport.h"
#include "ns3/gige-helper.h"
#include "ns3/gige-switch-helper.h"
#include "ns3/gm-helper.h"
#include "ns3/host-helper.h"
#include "ns3/myrinet-helper.h"
#include "ns3/netpipe-helper.h"

#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-interface-container.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "ns3/node-container.h"
#include "ns3/ethernet-driver.h"
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
#include "ns3/profile-set.h"
#include "run-checks.h"

#include <sstream>

#include <algorithm>

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("TcpNetpipeExperiment");

namespace
{

/// @return true if @p nic names a LANai profile: IP over GM on Myrinet
bool
IsLanai(const std::string& nic)
{
    return ProfileCatalogue::Find("lanai", nic) != nullptr;
}

/// @return the run's values: its profiles, then the overrides (checked: the error or "" in
/// @p err). The profile names of @p c must exist.
ProfileSet
Values(const NetpipeConfig& c, std::string& err)
{
    bool gm = IsLanai(c.nic);
    ProfileSet values(TcpNetpipeExperiment::Targets(gm, !c.mpi.empty()));
    values.AddProfile(*ProfileCatalogue::Find(gm ? "lanai" : "nic", c.nic));
    values.AddProfile(*ProfileCatalogue::Find("host", c.host));
    if (!c.mpi.empty())
    {
        values.AddProfile(*ProfileCatalogue::Find("mpi", c.mpi));
    }
    HostHelper::ChoosePciSlot(values, c.pci);
    values.Set("device", "Mtu", std::to_string(c.mtu)); // --mtu, on either network
    err = values.SetOverrides(c.overrides);
    return values;
}

} // namespace

std::vector<std::string>
TcpNetpipeExperiment::Targets(bool gm, bool mpi)
{
    // Gigabit Ethernet: the NIC profile's and the host's, not the host's IP over GM or NAS
    // kernels; IP over GM: the host's (its driver and GM library) and the LANai profile's, a
    // line of switches built by --switches alone; MPI: the library's ranks, TCP or VIA
    // transport.
    std::vector<std::string> kinds = gm ? std::vector<std::string>{"host", "lanai"}
                                        : std::vector<std::string>{"nic", "host"};
    std::vector<std::string> except = {"host.npb"};
    if (gm)
    {
        except.insert(except.end(), {"lanai.switch"});
    }
    else
    {
        except.insert(except.end(),
                      {"nic.loopback", "nic.txcoalescer", "host.gm", "host.device", "host.driver"});
    }
    if (mpi)
    {
        kinds.emplace_back("mpi");
        except.insert(except.end(),
                      {"mpi.echo", "mpi.shm", "mpi.gmtransport", "mpi.coalescer", "mpi.coll"});
    }
    return ProfileCatalogue::TargetsOf(kinds, except);
}

MpiHelper
TcpNetpipeExperiment::MakeMpiHelper(const NetpipeConfig& c)
{
    MpiHelper mpi;
    mpi.SetMpiProfile(c.mpi);
    return mpi;
}

uint32_t
TcpNetpipeExperiment::GetSetting(const NetpipeConfig& c,
                                 const std::string& target,
                                 const std::string& attribute)
{
    std::string err;
    ProfileSet values = Values(c, err);
    NS_ABORT_MSG_UNLESS(err.empty(), "TcpNetpipeExperiment: --set: " << err);
    return values.GetValue<UintegerValue>(target, attribute).Get();
}

std::string
TcpNetpipeExperiment::EffectivePci(const NetpipeConfig& c)
{
    std::string err;
    ProfileSet values = Values(c, err);
    return values.Get("bus", "Width") + "x" + values.Get("bus", "Clock");
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
        if (helper.GetTransportType() == MpiGmTransport::GetTypeId())
        {
            return "--stack: " + c.mpi + " runs over GM (scenario myrinet-mpich-gm)";
        }
        if (helper.GetTransportType() == MpiFmTransport::GetTypeId())
        {
            return "--stack: " + c.mpi + " runs over Fast Messages (scenario hpvm-mpi)";
        }
    }
    if (!ProfileCatalogue::Find("nic", c.nic) && !IsLanai(c.nic))
    {
        return "--nic: unknown NIC '" + c.nic + "'; allowed: " + ProfileCatalogue::JoinNames("nic") +
               ", " + ProfileCatalogue::JoinNames("lanai") + " (IP over GM)";
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
        return "--pci: '" + c.pci + "' is not a PCI slot; allowed: " + HostHelper::JoinPciSlots();
    }
    const uint32_t maxSwitches = IsLanai(c.nic) ? MyrinetHelper::MAX_LINE_SWITCHES : 1;
    if (c.switches > maxSwitches)
    {
        return "--switches: " + std::to_string(c.switches) + " for " + c.nic + "; allowed: 0 " +
               "(back to back) .. " + std::to_string(maxSwitches) +
               (IsLanai(c.nic) ? " (a line of Myrinet switches)"
                               : " (a Gigabit Ethernet network has one switch)");
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
    std::string err;
    ProfileSet values = Values(c, err);
    if (err.empty() && IsLanai(c.nic))
    {
        err = RunChecks::LanaiSram(values);
        err = err.empty() ? RunChecks::MyrinetFlowControl(values) : err;
        err = err.empty() ? RunChecks::GmEthernetTokens(values) : err;
    }
    else if (err.empty())
    {
        err = RunChecks::GigePause(values);
        bool tcp = c.mpi.empty() || MakeMpiHelper(c).GetTransportType() != MpiViaTransport::GetTypeId();
        err = err.empty() && tcp ? RunChecks::TcpFrameTime(values, c.mtu) : err;
    }
    return err.empty() ? "" : "--set: " + err;
}

std::vector<NetpipeApplication::Sample>
TcpNetpipeExperiment::Run(const NetpipeConfig& config)
{
    std::string err = Validate(config);
    NS_ABORT_MSG_UNLESS(err.empty(), "TcpNetpipeExperiment: " << err);
    const NetpipeConfig& c = config;
    ProfileSet values = Values(c, err);
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
        NodeContainer switches;
        NetDeviceContainer ports = c.switches > 0
                                       ? myrinet.InstallLine(nodes, c.switches, switches)
                                       : myrinet.Install(nodes.Get(0), nodes.Get(1));
        std::vector<Ptr<GmMcp>> mcps = gm.Install(ports);
        values.Apply(nodes);
        // The driver's device and its settings take the run's values before its kernel port
        // opens; the port is on no node's path, so it takes its overrides by name.
        devs = gm.InstallEthernet(mcps, [values](Ptr<GmEthernetNetDevice> d, Ptr<GmPort> p) {
            values.Apply(NodeContainer(d->GetNode()));
            values.ApplyOverrides("gm", p);
        });
    }
    else
    {
        gige.SetNicProfile(c.nic);
        gige.SetDeviceAttribute("Mtu", UintegerValue(c.mtu));
        if (c.switches > 0)
        {
            GigeSwitchHelper switches;
            devs = switches.Install(CreateObject<Node>(), nodes, gige);
        }
        else
        {
            devs = gige.Install(nodes);
        }
        values.Apply(nodes);
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
        if (mpi.GetTransportType() == MpiViaTransport::GetTypeId())
        {
            mpi.ConfigureDevices(devs); // the VIA library's own driver settings
            ranks = mpi.InstallVia(devs, {{}, {}});
            // A --set of the device or its coalescer wins over the library's settings.
            values.Apply(nodes);
            UintegerValue envelope;
            ranks[0]->GetAttribute("EnvelopeBytes", envelope);
            uint32_t largest = ranks[0]->GetTransport()->GetMaxMessage() - envelope.Get();
            maxBlock = std::min(maxBlock, largest);
        }
        else
        {
            ranks = mpi.InstallTcp(nodes, ifs, {{}, {}});
            values.Apply(nodes); // the ranks' and their transports'
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
    NetpipeHelper netpipeHelper;
    netpipeHelper.SetAttribute("SocketBuffer", UintegerValue(c.sockbuf));
    netpipeHelper.SetAttribute("MaxBlock", UintegerValue(c.maxBlock));
    Ptr<NetpipeApplication> tx =
        netpipeHelper.Install(nodes.Get(0), nodes.Get(1), ifs.GetAddress(1));
    tx->SetDoneCallback(Callback<void>([]() { Simulator::Stop(); }));

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
