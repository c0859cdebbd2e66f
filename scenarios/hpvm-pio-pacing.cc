// SPDX-License-Identifier: GPL-2.0-only
//
// Seed 004 (Bruno et al., HPVM 1.9), sec. 6 and Figs 4 and 5: FM's PIO micro-benchmark on the
// HP Kayak (2x PII-300, 440LX) and the HP Netserver LPR (2x PII-450, 440BX), without pacing
// and with the pacing chunk the boot-time probe picks. Per message size, the CPU runs FM's
// packet send path and PIOs the message into the LANai 4.x through the chipset's
// write-combining posted-write queue; the rate is the bytes over the time until the last one
// is in NIC memory.
//
//   ./ns3 run scenarios/hpvm-pio-pacing
//   ./ns3 run scenarios/hpvm-pio-pacing -- --chipset=440bx --set=bridge.QueueLines=8
//   ./ns3 run scenarios/hpvm-pio-pacing -- --help

#include "fm-experiment.h"
#include "ns3/profile-catalogue.h"
#include "scenario-args.h"
#include "ns3/simulator.h"
#include "sweep-runner.h"
#include "ns3/uinteger.h"


using namespace ns3;
using namespace ns3::clusternet;

namespace
{

/// The sizes of Figs 4 and 5: fine steps around the 160-byte queue, then doubling.
const std::vector<uint32_t> kSizes = {16,  32,  48,  64,  96,  128, 160, 192,  224,  256,
                                      320, 384, 512, 640, 768, 1024, 1536, 2048};

/// --set targets: the micro-benchmark writes from a CPU through the host bridge onto the PCI
/// bus, at FM's per-packet cost; no FM traffic.
const std::vector<std::string> kSetTargets = {"bridge", "bus", "cpu", "fm"};

/// The probe's chunk on @p c's machine (0 = no pacing).
uint32_t
ProbeChoice(FmConfig c)
{
    c.pacing = "probe";
    FmExperiment exp(c);
    return exp.GetPacing();
}

SweepRunner::Rows
RunCurve(FmConfig c, const std::string& pacing, uint32_t probed, uint32_t reps)
{
    c.pacing = pacing == "off" ? "off" : std::to_string(probed);
    if (probed == 0)
    {
        c.pacing = "off";
    }
    c.start = false; // the micro-benchmark alone on the machine
    SweepRunner::Rows rows;
    for (uint32_t size : kSizes)
    {
        FmExperiment exp(c);
        Ptr<FmPioProbe> bench = exp.CreatePioBenchmark(0);
        bench->SetAttribute("Repetitions", UintegerValue(reps));
        double rate = 0;
        bench->Measure(size, exp.GetPacing(), [&rate](double r) {
            rate = r;
            Simulator::Stop();
        });
        exp.Run();
        rows.push_back({FmExperiment::EffectiveChipset(c),
                        c.host,
                        c.lanai,
                        c.version,
                        pacing,
                        std::to_string(probed),
                        std::to_string(size),
                        SweepRunner::Fixed(rate),
                        SweepRunner::Fixed(rate * 8.0)});
    }
    return rows;
}

} // namespace

int
main(int argc, char** argv)
{
    ScenarioArgs args(argc, argv, "hpvm-pio-pacing",
                      "Seed 004 Figs 4 and 5: FM's PIO micro-benchmark on the 440LX (HP Kayak, "
                      "PII-300) and 440BX (HP Netserver, PII-450) without pacing and with the "
                      "chunk the boot-time probe picks.");
    // The micro-benchmark alone: the lists choose chipsets and pacing; no FM traffic.
    FmExperiment::AddArguments(args,
                               {"host",
                                "chipset",
                                "pacing",
                                "notify",
                                "intranode",
                                "credits",
                                "processes",
                                "queues",
                                "switches"},
                               kSetTargets);
    args.AddChoice("host",
                   "host profile for every chipset; empty = each chipset on the paper's machine",
                   ProfileCatalogue::Names("host"),
                   "",
                   true);
    args.AddChoiceList("chipset-list",
                       "chipsets, each on the paper's machine (440lx: Kayak PII-300, 440bx: "
                       "Netserver PII-450) unless --host is given (then, when not given, the "
                       "host's own)",
                       ProfileCatalogue::Names("chipset"),
                       "440lx,440bx");
    args.AddChoiceList("pacing-list", "curves", {"off", "probe"}, "off,probe");
    args.AddUint("reps", "messages per point", "count", 1, 100000, 64);
    SweepRunner::AddArguments(args, "hpvm-pio-pacing");
    args.Parse();
    std::vector<std::string> chipsets = args.GetChoiceList("chipset-list");
    std::vector<std::string> pacings = args.GetChoiceList("pacing-list");
    uint32_t reps = args.GetUint("reps");
    std::vector<FmConfig> configs;
    const std::string host = args.Get("host");
    if (!host.empty() && !args.Given("chipset-list"))
    {
        chipsets = {""}; // the given host's own chipset, not the paper's two
    }
    for (const auto& chipset : chipsets)
    {
        FmConfig c;
        c.setTargets = kSetTargets;
        c.chipset = chipset;
        c.host = host.empty() ? FmExperiment::MachineOf(chipset) : host;
        if (c.host.empty())
        {
            args.Fail("--chipset-list: " + chipset +
                      " is in no paper's machine; give the host it sits in (--host)");
        }
        FmExperiment::ParseArguments(args, c);
        std::string err = FmExperiment::Validate(c);
        if (!err.empty())
        {
            args.Fail(err);
        }
        configs.push_back(c);
    }

    SweepRunner sweep(args,
                      "hpvm-pio-pacing",
                      {"chipset", "host", "lanai", "version", "pacing", "pacing_bytes", "msg_bytes",
                       "mbytes_per_s", "mbps"});
    for (const auto& c : configs)
    {
        for (const auto& pacing : pacings)
        {
            sweep.AddPoint("chipset=" + FmExperiment::EffectiveChipset(c) + " pacing=" + pacing,
                           [=]() {
                return RunCurve(c, pacing, ProbeChoice(c), reps);
            });
        }
    }
    return sweep.Run();
}
