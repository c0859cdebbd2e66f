// SPDX-License-Identifier: GPL-2.0-only
#include "cluster-args.h"

#include "gm-experiment.h"
#include "scenario-args.h"

#include "ns3/host-helper.h"
#include "ns3/myrinet-helper.h"

#include "ns3/profile-catalogue.h"

namespace ns3
{
namespace clusternet
{

void
ClusterArgs::Add(ScenarioArgs& args, const ClusterParts& paper, bool fabric)
{
    args.AddChoice("host",
                   "host profile of every node",
                   ProfileCatalogue::Names("host"),
                   paper.host);
    args.AddChoice("nic", "Gigabit Ethernet NIC profile", ProfileCatalogue::Names("nic"), paper.nic);
    args.AddChoice("lanai",
                   "LANai (Myrinet) NIC profile",
                   ProfileCatalogue::Names("lanai"),
                   paper.lanai);
    args.AddPartOptions({"os", "gm", "driver", "mcp"});
    args.AddChoice("pci",
                   "PCI slot WIDTHxCLOCK of every host [bits x MHz]; empty = the host profile's",
                   HostHelper::PciSlots(),
                   "",
                   true);
    if (fabric)
    {
        args.AddUint("switches",
                     "switches between the two hosts: 0 back to back, 1 one switch (Gigabit "
                     "Ethernet: store-and-forward; Myrinet: XBar16), N a line of N XBar16 "
                     "switches (Myrinet only)",
                     "switches",
                     0,
                     MyrinetHelper::MAX_LINE_SWITCHES,
                     paper.switches);
        args.MarkSetup("switches");
    }
}

ClusterParts
ClusterArgs::Parse(const ScenarioArgs& args, bool ethernet)
{
    ClusterParts p;
    p.host = args.GetChoice("host");
    p.nic = args.GetChoice("nic");
    p.lanai = args.GetChoice("lanai");
    p.pci = args.Get("pci"); // checked by Parse(): empty or a slot
    p.switches = args.Has("switches") ? args.GetUint("switches") : 1;
    if (ethernet && p.switches > 1)
    {
        args.Fail("--switches: " + std::to_string(p.switches) +
                  "; a Gigabit Ethernet network has 0 (back to back) or 1 switch (a line of "
                  "switches is Myrinet's: run that network alone)");
    }
    return p;
}

GmConfig
ClusterArgs::Myrinet(const ClusterParts& parts, uint32_t hosts)
{
    GmConfig c;
    c.host = parts.host;
    c.lanai = parts.lanai;
    c.hosts = hosts;
    c.switches = hosts > 2 ? 1 : parts.switches;
    c.pci = parts.pci;
    return c;
}

std::string
ClusterArgs::EthernetPci(const ClusterParts& parts)
{
    return parts.pci.empty() ? HostHelper::ProfileSlot(parts.host) : parts.pci;
}

void
ClusterArgs::CheckMyrinet(const ScenarioArgs& args, const ClusterParts& parts, uint32_t hosts)
{
    std::string err = GmExperiment::Validate(Myrinet(parts, hosts));
    if (!err.empty())
    {
        args.Fail(err);
    }
}

} // namespace clusternet
} // namespace ns3
