// SPDX-License-Identifier: GPL-2.0-only
#include "netpipe-scenario.h"

#include "netpipe-experiment.h"

#include "ns3/mpi-tcp-transport.h"
#include "ns3/mpi-rank.h"
#include "ns3/uinteger.h"
#include "scenario-args.h"
#include "sweep-runner.h"

#include "ns3/host-helper.h"
#include "ns3/myrinet-helper.h"
#include "ns3/profile-catalogue.h"

#include <cstdio>
#include <sstream>

namespace ns3
{
namespace clusternet
{

std::vector<std::string>
NetpipeColumns(bool mpi)
{
    if (mpi)
    {
        return {"nic",
                "host",
                "pci",
                "switches",
                "mtu",
                "stack",
                "eager_limit_bytes",
                "sockbuf_bytes",
                "block_bytes",
                "oneway_us",
                "mbps",
                "mbytes_per_s",
                "reps"};
    }
    return {"nic",
            "host",
            "pci",
            "switches",
            "mtu",
            "sockbuf",
            "block_bytes",
            "oneway_us",
            "mbps",
            "mbytes_per_s",
            "reps"};
}

std::vector<std::vector<std::string>>
NetpipeRows(const NetpipeConfig& c)
{
    std::vector<std::string> config = {c.nic,
                                       c.host,
                                       TcpNetpipeExperiment::EffectivePci(c),
                                       std::to_string(c.switches),
                                       std::to_string(c.mtu)};
    if (c.mpi.empty())
    {
        config.push_back(std::to_string(c.sockbuf));
    }
    else
    {
        // The library's settings, as its profile (and overrides) make them.
        bool tcp = TcpNetpipeExperiment::MakeMpiHelper(c).GetTransportType() ==
                   MpiTcpTransport::GetTypeId();
        config.push_back(c.mpi);
        config.push_back(
            std::to_string(TcpNetpipeExperiment::GetSetting(c, "mpi", "EagerLimit")));
        config.push_back(
            std::to_string(tcp ? TcpNetpipeExperiment::GetSetting(c, "transport", "SocketBuffer")
                               : 0));
    }
    SweepRunner::Rows rows;
    for (const auto& s : TcpNetpipeExperiment::Run(c))
    {
        double us = s.oneWay.GetNanoSeconds() / 1e3;
        double mbps = s.bytes * 8.0 / us;
        std::vector<std::string> row = config;
        row.insert(row.end(),
                   {std::to_string(s.bytes),
                    SweepRunner::Fixed(us, 3),
                    SweepRunner::Rate(mbps, true).first,
                    SweepRunner::Rate(mbps, true).second,
                    std::to_string(s.repeats)});
        rows.push_back(row);
    }
    return rows;
}

std::pair<std::string, std::string>
ProfileMtu(const std::string& nic, const std::string& host)
{
    const bool lanai = ProfileCatalogue::Find("lanai", nic) != nullptr;
    const std::string name = lanai ? host : nic;
    const Profile* p = ProfileCatalogue::Find(lanai ? "host" : "nic", name);
    return {name, p ? p->Get("device", "Mtu") : ""};
}

int
RunNetpipeScenario(const NetpipeScenarioSpec& spec, int argc, char** argv)
{
    ScenarioArgs args(argc, argv, spec.name, spec.description);
    // GigE NICs, then the LANai NICs (IP over GM).
    std::vector<std::string> nics = ProfileCatalogue::Names("nic");
    for (const auto& n : ProfileCatalogue::Names("lanai"))
    {
        nics.push_back(n);
    }
    args.AddChoiceList("nic", "NIC profiles (GigE; then IP over GM: LANai)", nics, spec.nics);
    const UintegerRange mtuRange = TcpNetpipeExperiment::MtuRange();
    const UintegerRange sockbufRange = TcpNetpipeExperiment::SockbufRange();
    const UintegerRange maxBlockRange = TcpNetpipeExperiment::MaxBlockRange();
    args.AddUintList("mtu", "IP MTUs", "bytes", mtuRange.min, mtuRange.max, spec.mtus);
    if (!spec.stacks.empty())
    {
        args.AddChoiceList("stack",
                           "MPI libraries; their socket buffers are the profile's; a library "
                           "without a driver for a NIC (M-VIA: GNIC-II only) skips that NIC",
                           ProfileCatalogue::Names("mpi"),
                           spec.stacks);
    }
    else
    {
        args.AddUintList("sockbuf",
                         "socket buffer sizes",
                         "bytes",
                         sockbufRange.min,
                         sockbufRange.max,
                         spec.sockbufs);
    }
    if (!spec.cases.empty())
    {
        args.Add("cases",
                 "NIC@MTU pairs, comma-separated; replaces --nic x --mtu when given "
                 "[profile@bytes]",
                 spec.cases);
    }
    args.AddChoice("host", "host profile", ProfileCatalogue::Names("host"), spec.host);
    args.AddPartOptions({"os", "gm", "driver", "mcp"});
    args.AddChoice("pci",
                   "PCI slot WIDTHxCLOCK [bits x MHz]; empty = the host profile's",
                   HostHelper::PciSlots(),
                   "",
                   true);
    args.AddUint("switches",
                 "switches between the two hosts: 0 back to back, 1 one switch (Gigabit "
                 "Ethernet: store-and-forward; Myrinet: XBar16), N a line of N XBar16 switches "
                 "(IP over GM only)",
                 "switches",
                 0,
                 MyrinetHelper::MAX_LINE_SWITCHES,
                 spec.switches);
    args.MarkSetup("switches");
    {
        const bool mpi = !spec.stacks.empty();
        std::vector<std::string> targets = TcpNetpipeExperiment::Targets(false, mpi);
        for (const auto& t : TcpNetpipeExperiment::Targets(true, mpi))
        {
            targets.push_back(t);
        }
        args.AddOverrides(targets,
                          "cpu.CopyBandwidth=1200Mbps",
                          "lanai, mcp, gm, link and port with IP over GM only");
    }
    args.AddUint("max-block",
                 "largest NetPIPE block",
                 "bytes",
                 maxBlockRange.min,
                 maxBlockRange.max,
                 spec.maxBlock);
    SweepRunner::AddArguments(args, spec.name);
    args.Parse();

    std::vector<std::pair<std::string, uint32_t>> nicMtu;
    std::string casesGiven = spec.cases.empty() ? "" : args.Get("cases");
    bool axesChanged = args.Selected("nic") != spec.nics || args.Get("mtu") != spec.mtus;
    if (!casesGiven.empty() && !(axesChanged && casesGiven == spec.cases))
    {
        std::string item;
        std::stringstream ss(casesGiven);
        while (std::getline(ss, item, ','))
        {
            std::size_t at = item.find('@');
            if (at == std::string::npos)
            {
                args.Fail("--cases: '" + item + "' is not NIC@MTU (e.g. sknet@9000)");
            }
            std::string mtu = item.substr(at + 1);
            if (mtu.empty() || mtu.find_first_not_of("0123456789") != std::string::npos ||
                mtu.size() > 6)
            {
                args.Fail("--cases: '" + item + "': MTU must be a whole number " +
                          mtuRange.ToString() + " bytes");
            }
            const std::string name = item.substr(0, at);
            // --driver / --mcp: a GigE NIC or a LANai board (IP over GM) with its part swapped.
            const std::string nic =
                args.WithParts(ProfileCatalogue::Find("lanai", name) ? "lanai" : "nic", name);
            const auto [profile, own] = ProfileMtu(nic, args.Get("host"));
            if (!own.empty() && own != mtu)
            {
                args.Note("--cases: " + item + " replaces " + profile + "'s device.Mtu of " +
                          own + " (the run uses " + mtu + ")");
            }
            nicMtu.emplace_back(nic, std::stoul(mtu));
        }
    }
    else
    {
        for (const auto& n : args.GetChoiceList("nic"))
        {
            const auto [profile, own] = ProfileMtu(n, args.Get("host"));
            for (uint32_t m : args.GetUintList("mtu"))
            {
                std::string mtu =
                    args.OverProfile("mtu", std::to_string(m), profile, "device.Mtu", own);
                nicMtu.emplace_back(n, std::stoul(mtu));
                if (!args.Given("mtu") && !own.empty())
                {
                    break; // the profile's one MTU, not the scenario's list
                }
            }
        }
    }
    std::vector<uint32_t> sockbufs = {131072};
    std::vector<std::string> stacks = {""};
    if (spec.stacks.empty())
    {
        sockbufs = args.GetUintList("sockbuf");
    }
    else
    {
        stacks = args.GetChoiceList("stack");
    }
    uint32_t maxBlock = args.GetUint("max-block");

    std::vector<NetpipeConfig> configs;
    std::string skipped;
    for (const auto& [nic, mtu] : nicMtu)
    {
        for (uint32_t sb : sockbufs)
        for (const std::string& stack : stacks)
        {
            NetpipeConfig c;
            c.mpi = stack;
            c.nic = nic;
            c.host = args.Get("host");
            c.pci = args.Get("pci");
            c.switches = args.GetUint("switches");
            c.mtu = static_cast<uint16_t>(std::min<uint32_t>(mtu, 65535));
            c.sockbuf = sb;
            c.maxBlock = maxBlock;
            c.overrides = args.Get("set");
            if (!mtuRange.Contains(mtu))
            {
                args.Fail("--mtu: " + std::to_string(mtu) + " out of range; allowed " +
                          mtuRange.ToString() + " bytes");
            }
            std::string err = TcpNetpipeExperiment::Validate(c);
            if (err.find("has drivers for") != std::string::npos)
            {
                skipped = err; // a library for other NICs (M-VIA): not this combination
                continue;
            }
            if (!err.empty())
            {
                args.Fail(err);
            }
            configs.push_back(c);
        }
    }

    if (configs.empty() && !skipped.empty())
    {
        args.Fail(skipped);
    }
    SweepRunner sweep(args, spec.name, NetpipeColumns(!spec.stacks.empty()));
    for (const auto& c : configs)
    {
        std::string label = "nic=" + c.nic + " mtu=" + std::to_string(c.mtu) +
                            (c.mpi.empty() ? " sockbuf=" + std::to_string(c.sockbuf)
                                           : " stack=" + c.mpi);
        if (!c.pci.empty())
        {
            label += " pci=" + c.pci;
        }
        sweep.AddPoint(label, [c]() { return NetpipeRows(c); });
    }
    return sweep.Run();
}

} // namespace clusternet
} // namespace ns3
