// SPDX-License-Identifier: GPL-2.0-only
#include "netpipe-experiment.h"

#include "gige-helper.h"
#include "host-helper.h"

#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-interface-container.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "ns3/node-container.h"
#include "ns3/gige-net-device.h"
#include "ns3/host-cpu.h"
#include "ns3/host-stack.h"
#include "ns3/interrupt-coalescer.h"
#include "ns3/pci-bus.h"
#include "ns3/profile-registry.h"

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
    std::string err = ProfileRegistry::CheckTargets(overrides, names);
    if (!err.empty())
    {
        return err;
    }
    for (auto& [name, obj] : targets)
    {
        err = ProfileRegistry::ApplyOverrides(overrides, name, obj);
        if (!err.empty())
        {
            return err;
        }
    }
    return "";
}

} // namespace

std::string
TcpNetpipeExperiment::Validate(const NetpipeConfig& c)
{
    auto names = [](const std::string& kind) {
        std::string out;
        for (const auto& n : ProfileRegistry::Names(kind))
        {
            out += (out.empty() ? "" : ", ") + n;
        }
        return out;
    };
    if (!ProfileRegistry::Find("nic", c.nic))
    {
        return "--nic: unknown NIC '" + c.nic + "'; allowed: " + names("nic");
    }
    if (!ProfileRegistry::Find("host", c.host))
    {
        return "--host: unknown host '" + c.host + "'; allowed: " + names("host");
    }
    std::string w;
    std::string k;
    if (!c.pci.empty() && !HostHelper::ParsePciSlot(c.pci, w, k))
    {
        return "--pci: '" + c.pci + "' is not a PCI slot; allowed: 32x33, 32x66, 64x33, 64x66";
    }
    if (c.mtu < 1500 || c.mtu > 9000)
    {
        return "--mtu: " + std::to_string(c.mtu) + " out of range; allowed 1500..9000 bytes";
    }
    if (c.sockbuf < 4096 || c.sockbuf > (64u << 20))
    {
        return "--sockbuf: " + std::to_string(c.sockbuf) +
               " out of range; allowed 4096..67108864 bytes";
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
TcpNetpipeExperiment::Run(const NetpipeConfig& c)
{
    std::string err = Validate(c);
    NS_ABORT_MSG_UNLESS(err.empty(), "TcpNetpipeExperiment: " << err);
    NodeContainer nodes;
    nodes.Create(2);

    HostHelper hosts;
    hosts.SetHostProfile(c.host);
    hosts.SetPciSlot(c.pci);
    hosts.Install(nodes);

    GigeHelper gige;
    gige.SetNicProfile(c.nic);
    gige.SetDeviceAttribute("Mtu", UintegerValue(c.mtu));
    NetDeviceContainer devs = gige.Install(nodes);
    for (uint32_t i = 0; i < 2; ++i)
    {
        Ptr<Node> n = nodes.Get(i);
        ApplyHostOverrides(c.overrides,
                           DynamicCast<GigeNetDevice>(devs.Get(i)),
                           n->GetObject<HostCpu>(),
                           n->GetObject<PciBus>(),
                           n->GetObject<HostStack>());
    }

    InternetStackHelper internet;
    internet.Install(nodes);
    internet.AssignStreams(nodes, 0);
    Ipv4AddressHelper addr("10.0.0.0", "255.255.255.0");
    Ipv4InterfaceContainer ifs = addr.Assign(devs);

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

    if (!c.pcapPrefix.empty())
    {
        gige.EnablePcap(c.pcapPrefix, devs, false);
    }

    Simulator::Stop(Seconds(600)); // a bound, far beyond any NetPIPE run
    Simulator::Run();
    std::vector<NetpipeApplication::Sample> samples = tx->GetSamples();
    Simulator::Destroy();
    return samples;
}

} // namespace clusternet
} // namespace ns3
