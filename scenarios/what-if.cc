// SPDX-License-Identifier: GPL-2.0-only
//
// What-if: one NetPIPE TCP configuration (any NIC, host, MTU, socket buffer, PCI slot and
// attribute overrides) against a baseline, simulated side by side, written to
// results/what-if/data.csv (column "case": what-if or baseline) and plotted together.
//
// Every --baseline-* option defaults to the what-if's own value, except the PCI slot and the
// overrides, whose baseline defaults are the host profile's slot and no overrides. So the
// default run asks: what would a 64-bit/66 MHz PCI slot have given the SK-NET at MTU 9000?
//
//   ./ns3 run scenarios/what-if
//   ./ns3 run scenarios/what-if -- --nic=acenic --mtu=9000 --set="cpu.CopyBandwidth=1600Mbps"
//   ./ns3 run scenarios/what-if -- --nic=sknet --sockbuf=524288 --baseline-sockbuf=65536

#include "netpipe-experiment.h"
#include "netpipe-scenario.h"
#include "ns3/host-helper.h"
#include "ns3/myrinet-helper.h"
#include "ns3/profile-catalogue.h"
#include "scenario-args.h"
#include "sweep-runner.h"

#include <algorithm>

using namespace ns3::clusternet;

namespace
{

/// Insert the case name in front and the overrides after the PCI column of NetPIPE rows.
SweepRunner::Rows
CaseRows(const std::string& name, const NetpipeConfig& c)
{
    SweepRunner::Rows rows = NetpipeRows(c);
    for (auto& row : rows)
    {
        row.insert(row.begin() + 3, c.overrides.empty() ? "none" : c.overrides);
        row.insert(row.begin(), name);
    }
    return rows;
}

} // namespace

int
main(int argc, char** argv)
{
    ScenarioArgs args(argc, argv, "what-if",
                      "One NetPIPE TCP configuration against a baseline, back to back (or "
                      "through --switches) over Gigabit Ethernet or IP over GM: throughput "
                      "against block size and latency, plotted together. Each --baseline-* "
                      "option defaults to the what-if's value (PCI slot: the host profile's; "
                      "overrides: none). A machine of your own is profile files given with "
                      "--profile-file (contrib/clusternet/profiles/README.md); its hosts, NICs "
                      "and LANai boards are then offered below, and the module manual's "
                      "walkthrough 'a machine of your own, end to end' runs one through the "
                      "scenarios.");
    std::vector<std::string> nics = ProfileCatalogue::Names("nic");
    for (const auto& n : ProfileCatalogue::Names("lanai"))
    {
        nics.push_back(n);
    }
    args.AddChoice("nic", "NIC profile (Gigabit Ethernet; or a LANai board: IP over GM)", nics,
                   "sknet");
    args.AddChoice("host", "host profile", ProfileCatalogue::Names("host"), "piii450-linux22");
    args.AddPartOptions({"os", "gm", "driver", "mcp"});
    const UintegerRange mtuRange = TcpNetpipeExperiment::MtuRange();
    const UintegerRange sockbufRange = TcpNetpipeExperiment::SockbufRange();
    const UintegerRange maxBlockRange = TcpNetpipeExperiment::MaxBlockRange();
    args.AddUint("mtu", "IP MTU", "bytes", mtuRange.min, mtuRange.max, 9000);
    args.AddUint("sockbuf", "socket buffer", "bytes", sockbufRange.min, sockbufRange.max, 131072);
    args.AddChoice("pci",
                   "PCI slot WIDTHxCLOCK [bits x MHz] of the what-if (its default is the "
                   "question the default run asks; the baseline keeps the host's slot); empty = "
                   "the host profile's",
                   HostHelper::PciSlots(),
                   "64x66",
                   true);
    args.AddUint("switches",
                 "switches between the two hosts, in both cases: 0 back to back, 1 one switch "
                 "(Gigabit Ethernet: store-and-forward; Myrinet: XBar16), N a line of N XBar16 "
                 "switches (IP over GM only)",
                 "switches",
                 0,
                 MyrinetHelper::MAX_LINE_SWITCHES,
                 0);
    args.MarkSetup("switches");
    std::vector<std::string> targets = TcpNetpipeExperiment::Targets(false, false);
    for (const auto& t : TcpNetpipeExperiment::Targets(true, false))
    {
        targets.push_back(t);
    }
    const std::string gmOnly = "lanai, mcp, gm, link and port with IP over GM only";
    args.AddOverrides(targets, "cpu.CopyBandwidth=1600Mbps", gmOnly);
    args.Add("baseline-nic", "baseline NIC profile (as --nic); empty = --nic", "");
    args.Add("baseline-host", "baseline host profile; empty = --host", "");
    args.Add("baseline-mtu", "baseline IP MTU [bytes]; empty = --mtu", "");
    args.Add("baseline-sockbuf", "baseline socket buffer [bytes]; empty = --sockbuf", "");
    args.Add("baseline-pci", "baseline PCI slot WIDTHxCLOCK; empty = the host profile's", "");
    args.AddOverrides(targets,
                      "cpu.CopyBandwidth=1200Mbps",
                      "the baseline run's, empty: none; " + gmOnly,
                      "baseline-set");
    args.AddUint("max-block",
                 "largest NetPIPE block",
                 "bytes",
                 maxBlockRange.min,
                 maxBlockRange.max,
                 1u << 21);
    SweepRunner::AddArguments(args, "what-if", "the plot and the comparison");
    args.Parse();

    // The option that gives a baseline value: --baseline-X when set, else the what-if's --X.
    auto source = [&args](const std::string& name) {
        return args.Get("baseline-" + name).empty() ? name : "baseline-" + name;
    };
    uint32_t maxBlock = args.GetUint("max-block");
    // The what-if's NIC and host carry the part options (--os, --driver, ...); the baseline's
    // are the profiles as selected, or --baseline-nic / --baseline-host.
    const std::string whatIfNic = args.GetChoice("nic");
    const std::string whatIfHost = args.GetChoice("host");
    const std::string baselineNic = args.Get("baseline-nic").empty()
                                        ? args.Selected("nic")
                                        : args.GetChoice("baseline-nic", nics);
    const std::string baselineHost =
        args.Get("baseline-host").empty()
            ? args.Selected("host")
            : args.GetChoice("baseline-host", ProfileCatalogue::Names("host"));
    auto config = [&args, maxBlock, mtuRange, sockbufRange](const std::string& nic,
                                    const std::string& host,
                                    const std::string& mtu,
                                    const std::string& sockbuf,
                                    const std::string& pci,
                                    const std::string& set) {
        NetpipeConfig c;
        c.nic = nic;
        c.host = host;
        const auto [profile, own] = ProfileMtu(c.nic, c.host);
        const std::string given =
            std::to_string(args.GetUint(mtu, mtuRange.min, mtuRange.max, "bytes"));
        c.mtu = static_cast<uint16_t>(
            std::stoul(args.OverProfile(mtu, given, profile, "device.Mtu", own)));
        c.sockbuf = args.GetUint(sockbuf, sockbufRange.min, sockbufRange.max, "bytes");
        c.pci = args.Get(pci);
        c.switches = args.GetUint("switches");
        c.overrides = args.Get(set);
        c.maxBlock = maxBlock;
        std::string err = TcpNetpipeExperiment::Validate(c);
        if (!err.empty())
        {
            // Validate names --pci / --set; say which of the two runs they belong to.
            if (pci != "pci" && err.rfind("--", 0) == 0)
            {
                err = "--baseline-" + err.substr(2);
            }
            args.Fail(err);
        }
        return c;
    };
    NetpipeConfig whatIf = config(whatIfNic, whatIfHost, "mtu", "sockbuf", "pci", "set");
    NetpipeConfig baseline = config(baselineNic,
                                    baselineHost,
                                    source("mtu"),
                                    source("sockbuf"),
                                    "baseline-pci",
                                    "baseline-set");

    std::vector<std::string> columns = NetpipeColumns();
    columns.insert(columns.begin() + 3, "set");
    columns.insert(columns.begin(), "case");
    SweepRunner sweep(args, "what-if", columns);
    // Said once the whole command line is known to be good.
    const std::string hostSlot = HostHelper::ProfileSlot(whatIf.host);
    if (!args.Given("pci") && !whatIf.pci.empty() && whatIf.pci != hostSlot)
    {
        args.Note("the what-if runs in a " + whatIf.pci + " PCI slot (--pci's default); host " +
                  whatIf.host + "'s own slot is " + hostSlot + " (the baseline's unless " +
                  "--baseline-pci)");
    }
    sweep.AddPoint("what-if", [whatIf]() { return CaseRows("what-if", whatIf); });
    sweep.AddPoint("baseline", [baseline]() { return CaseRows("baseline", baseline); });
    return sweep.Run();
}
