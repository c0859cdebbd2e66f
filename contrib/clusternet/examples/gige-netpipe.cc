// SPDX-License-Identifier: GPL-2.0-only
//
// NetPIPE TCP between two hosts linked back to back over Gigabit Ethernet, built with the
// module's helpers alone: a host profile on each node (CPU, PCI slot, TCP/IP stack), a NIC
// profile on each NetDevice, ns-3's Internet stack, and the NetpipeApplication pair. Prints
// NetPIPE's columns: block size, one-way time and throughput.
//
//   ./build/examples/gige-netpipe --nic=sknet --mtu=9000 --sockbuf=131072 --maxBlock=65536
//
// The profiles are the module's profiles/*.toml (the catalogue `./ns3 profiles` lists).

#include "ns3/clusternet-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"

#include <cstdio>
#include <cstdlib>
#include <iostream>

using namespace ns3;
using namespace ns3::clusternet;

namespace
{

/// Refuse a bad value: one line naming the option and what is allowed, exit status 2.
[[noreturn]] void
Refuse(const std::string& message)
{
    std::cerr << "gige-netpipe: " << message << std::endl;
    std::exit(2);
}

/// Refuse --@p name unless @p value is within the range of the attribute it sets.
void
CheckRange(const std::string& name,
           uint32_t value,
           const std::string& typeId,
           const std::string& attribute)
{
    UintegerRange range = UintegerRange::Of(typeId, attribute);
    if (!range.Contains(value))
    {
        Refuse("--" + name + ": " + std::to_string(value) + " out of range; allowed " +
               range.ToString() + " bytes");
    }
}

} // namespace

int
main(int argc, char** argv)
{
    std::string nic = "sknet";
    std::string host = "piii450-linux22";
    uint32_t mtu = 1500;
    uint32_t sockbuf = 131072;
    uint32_t maxBlock = 65536;
    CommandLine cmd(__FILE__);
    cmd.AddValue("nic", "NIC profile (./ns3 profiles -- --kind=nic)", nic);
    cmd.AddValue("host", "host profile (./ns3 profiles -- --kind=host)", host);
    cmd.AddValue("mtu", "IP MTU [bytes]", mtu);
    cmd.AddValue("sockbuf", "socket buffer, SO_SNDBUF and SO_RCVBUF [bytes]", sockbuf);
    cmd.AddValue("maxBlock", "largest NetPIPE block [bytes]", maxBlock);
    cmd.Parse(argc, argv);
    // The limits are the attributes' own (their checkers), read from there.
    CheckRange("mtu", mtu, "ns3::clusternet::GigeNetDevice", "Mtu");
    CheckRange("sockbuf", sockbuf, "ns3::clusternet::NetpipeApplication", "SocketBuffer");
    CheckRange("maxBlock", maxBlock, "ns3::clusternet::NetpipeApplication", "MaxBlock");

    NodeContainer nodes;
    nodes.Create(2);
    HostHelper hosts;
    if (!hosts.SetHostProfile(host))
    {
        Refuse("--host: no host profile '" + host + "' (./ns3 profiles -- --kind=host)");
    }
    hosts.Install(nodes);
    GigeHelper gige;
    if (!gige.SetNicProfile(nic))
    {
        Refuse("--nic: no NIC profile '" + nic + "' (./ns3 profiles -- --kind=nic)");
    }
    gige.SetDeviceAttribute("Mtu", UintegerValue(mtu));
    NetDeviceContainer devices = gige.Install(nodes);

    InternetStackHelper internet;
    internet.Install(nodes);
    Ipv4AddressHelper addresses("10.0.0.0", "255.255.255.0");
    Ipv4InterfaceContainer interfaces = addresses.Assign(devices);

    Ptr<NetpipeApplication> receiver = CreateObject<NetpipeApplication>();
    receiver->SetAttribute("Role", StringValue("Receiver"));
    receiver->SetAttribute("SocketBuffer", UintegerValue(sockbuf));
    nodes.Get(1)->AddApplication(receiver);
    Ptr<NetpipeApplication> transmitter = CreateObject<NetpipeApplication>();
    transmitter->SetAttribute("Role", StringValue("Transmitter"));
    transmitter->SetAttribute("SocketBuffer", UintegerValue(sockbuf));
    transmitter->SetAttribute("MaxBlock", UintegerValue(maxBlock));
    transmitter->SetAttribute("Remote",
                              AddressValue(InetSocketAddress(interfaces.GetAddress(1), 5002)));
    transmitter->SetPeerApplication(receiver);
    transmitter->SetDoneCallback(Callback<void>([]() { Simulator::Stop(); }));
    nodes.Get(0)->AddApplication(transmitter);
    receiver->SetStartTime(Seconds(0));
    transmitter->SetStartTime(MilliSeconds(1));

    Simulator::Stop(Seconds(600));
    Simulator::Run();
    std::printf("%10s %12s %10s\n", "bytes", "oneway_us", "Mbps");
    for (const auto& s : transmitter->GetSamples())
    {
        double us = s.oneWay.GetSeconds() * 1e6;
        std::printf("%10u %12.3f %10.3f\n", s.bytes, us, s.bytes * 8.0 / us);
    }
    Simulator::Destroy();
    return 0;
}
