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
#include <set>

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

/**
 * Every argument is --name=value with a known name, a value without white space and no repeat
 * (or --help, or one of ns-3's --Print* flags that take no value): ns-3's CommandLine would
 * otherwise print its whole usage, abort on its own options, or read a value only up to its
 * first space.
 */
void
CheckArguments(int argc, char** argv, const std::set<std::string>& names)
{
    std::set<std::string> seen;
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        for (const char* flag : {"--help",
                                 "--PrintHelp",
                                 "--PrintGlobals",
                                 "--PrintGroups",
                                 "--PrintTypeIds",
                                 "--PrintVersion"})
        {
            if (arg == flag)
            {
                return; // ns-3 prints and exits
            }
        }
        const std::size_t eq = arg.find('=');
        const std::string name = arg.substr(0, eq).substr(arg.rfind("--", 0) == 0 ? 2 : 0);
        if (arg.rfind("--", 0) != 0 || !names.count(name))
        {
            Refuse("unknown option '" + arg + "' (--help lists the options)");
        }
        if (eq == std::string::npos || eq + 1 == arg.size())
        {
            Refuse("--" + name + " needs a value: --" + name + "=...");
        }
        if (arg.find_first_of(" \t\n", eq) != std::string::npos)
        {
            Refuse("--" + name + ": '" + arg.substr(eq + 1) + "' has white space in it");
        }
        if (!seen.insert(name).second)
        {
            Refuse("--" + name + " is given twice; give each option once");
        }
    }
}

/// @return --@p name's @p text as a whole number within the range of the attribute it sets
uint32_t
Bytes(const std::string& name,
      const std::string& text,
      const std::string& typeId,
      const std::string& attribute)
{
    UintegerRange range = UintegerRange::Of(typeId, attribute);
    const bool whole = !text.empty() && text.size() <= 10 &&
                       text.find_first_not_of("0123456789") == std::string::npos;
    if (!whole || !range.Contains(std::stoull(text)))
    {
        Refuse("--" + name + ": '" + text + "' is not a whole number in " + range.ToString() +
               " bytes");
    }
    return static_cast<uint32_t>(std::stoull(text));
}

} // namespace

int
main(int argc, char** argv)
{
    std::string nic = "sknet";
    std::string host = "piii450-linux22";
    std::string mtuText = "1500";
    std::string sockbufText = "131072";
    std::string maxBlockText = "65536";
    CommandLine cmd(__FILE__);
    cmd.AddValue("nic", "NIC profile (./ns3 profiles -- --kind=nic)", nic);
    cmd.AddValue("host", "host profile (./ns3 profiles -- --kind=host)", host);
    cmd.AddValue("mtu", "IP MTU [bytes]", mtuText);
    cmd.AddValue("sockbuf", "socket buffer, SO_SNDBUF and SO_RCVBUF [bytes]", sockbufText);
    cmd.AddValue("maxBlock", "largest NetPIPE block [bytes]", maxBlockText);
    CheckArguments(argc, argv, {"nic", "host", "mtu", "sockbuf", "maxBlock"});
    cmd.Parse(argc, argv);
    // The limits are the attributes' own (their checkers), read from there.
    uint32_t mtu = Bytes("mtu", mtuText, "ns3::clusternet::GigeNetDevice", "Mtu");
    uint32_t sockbuf =
        Bytes("sockbuf", sockbufText, "ns3::clusternet::NetpipeApplication", "SocketBuffer");
    uint32_t maxBlock =
        Bytes("maxBlock", maxBlockText, "ns3::clusternet::NetpipeApplication", "MaxBlock");

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

    NetpipeHelper netpipe;
    netpipe.SetAttribute("SocketBuffer", UintegerValue(sockbuf));
    netpipe.SetAttribute("MaxBlock", UintegerValue(maxBlock));
    Ptr<NetpipeApplication> transmitter =
        netpipe.Install(nodes.Get(0), nodes.Get(1), interfaces.GetAddress(1));
    transmitter->SetDoneCallback(Callback<void>([]() { Simulator::Stop(); }));

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
