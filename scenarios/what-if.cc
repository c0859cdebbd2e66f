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
                      "One NetPIPE TCP configuration against a baseline, back to back over "
                      "Gigabit Ethernet: throughput against block size and latency, plotted "
                      "together. Each --baseline-* option defaults to the what-if's value "
                      "(PCI slot: the host profile's; overrides: none).");
    args.AddChoice("nic", "NIC profile", ProfileCatalogue::Names("nic"), "sknet");
    args.AddChoice("host", "host profile", ProfileCatalogue::Names("host"), "piii450-linux22");
    const UintegerRange mtuRange = TcpNetpipeExperiment::MtuRange();
    const UintegerRange sockbufRange = TcpNetpipeExperiment::SockbufRange();
    const UintegerRange maxBlockRange = TcpNetpipeExperiment::MaxBlockRange();
    args.AddUint("mtu", "IP MTU", "bytes", mtuRange.min, mtuRange.max, 9000);
    args.AddUint("sockbuf", "socket buffer", "bytes", sockbufRange.min, sockbufRange.max, 131072);
    args.AddChoice("pci",
                   "PCI slot WIDTHxCLOCK [bits x MHz]; empty = the host profile's",
                   HostHelper::PciSlots(),
                   "64x66",
                   true);
    args.Add("set",
             "attribute overrides 'target.Attribute=value;...', target device, driver, "
             "coalescer, cpu, bus or stack (e.g. cpu.CopyBandwidth=1600Mbps) [ns-3 values]",
             "");
    args.Add("baseline-nic", "baseline NIC profile; empty = --nic", "");
    args.Add("baseline-host", "baseline host profile; empty = --host", "");
    args.Add("baseline-mtu", "baseline IP MTU [bytes]; empty = --mtu", "");
    args.Add("baseline-sockbuf", "baseline socket buffer [bytes]; empty = --sockbuf", "");
    args.Add("baseline-pci", "baseline PCI slot WIDTHxCLOCK; empty = the host profile's", "");
    args.Add("baseline-set", "baseline attribute overrides; empty = none", "");
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
    auto config = [&args, maxBlock, mtuRange, sockbufRange](const std::string& nic,
                                    const std::string& host,
                                    const std::string& mtu,
                                    const std::string& sockbuf,
                                    const std::string& pci,
                                    const std::string& set) {
        NetpipeConfig c;
        c.nic = args.GetChoice(nic, ProfileCatalogue::Names("nic"));
        c.host = args.GetChoice(host, ProfileCatalogue::Names("host"));
        const auto [profile, own] = ProfileMtu(c.nic, c.host);
        const std::string given =
            std::to_string(args.GetUint(mtu, mtuRange.min, mtuRange.max, "bytes"));
        c.mtu = static_cast<uint16_t>(
            std::stoul(args.OverProfile(mtu, given, profile, "device.Mtu", own)));
        c.sockbuf = args.GetUint(sockbuf, sockbufRange.min, sockbufRange.max, "bytes");
        c.pci = args.Get(pci);
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
    NetpipeConfig whatIf = config("nic", "host", "mtu", "sockbuf", "pci", "set");
    NetpipeConfig baseline = config(source("nic"),
                                    source("host"),
                                    source("mtu"),
                                    source("sockbuf"),
                                    "baseline-pci",
                                    "baseline-set");

    std::vector<std::string> columns = NetpipeColumns();
    columns.insert(columns.begin() + 3, "set");
    columns.insert(columns.begin(), "case");
    SweepRunner sweep(args, "what-if", columns);
    sweep.AddPoint("what-if", [whatIf]() { return CaseRows("what-if", whatIf); });
    sweep.AddPoint("baseline", [baseline]() { return CaseRows("baseline", baseline); });
    return sweep.Run();
}
