// SPDX-License-Identifier: GPL-2.0-only
//
// Seed 004 (Bruno et al., HPVM 1.9), secs. 2 and 4.1: Fast Messages between two hosts on a
// Myrinet switch (LANai 4.x boards): one-way latency (ping-pong) and streaming bandwidth
// against message size, for FM 2.1 on the PII-300 (LANai register polling), HPVM 1.2 (register
// polling) and HPVM 1.9 (memory-based notification, paced PIO) on the PII-450 / 440BX, and the
// cost of one poll while waiting.
//
//   ./ns3 run scenarios/hpvm-fm
//   ./ns3 run scenarios/hpvm-fm -- --config=1.9:pii300 --credits=8
//   ./ns3 run scenarios/hpvm-fm -- --help

#include "fm-experiment.h"
#include "scenario-args.h"
#include "ns3/profile-catalogue.h"
#include "ns3/simulator.h"
#include "sweep-runner.h"

#include <sstream>

using namespace ns3;
using namespace ns3::clusternet;

namespace
{

/// --set targets: one process per host, across the Myrinet switch (no shared region).
const std::vector<std::string> kSetTargets =
    {"bridge", "bus", "cpu", "fm", "lcp", "lanai", "link", "port"};

std::vector<std::string>
RunPoint(const FmConfig& c, const FmCurve& k, uint32_t size, const FmSweepArgs& s)
{
    FmMeasurement m = FmExperiment::Measure(c, {0, 0}, {1, 0}, size, s.reps, s.streamBytes);
    return {k.version,
            k.cpu,
            c.host,
            FmExperiment::EffectiveChipset(c),
            c.lanai,
            std::to_string(c.switches),
            c.notify,
            c.notify,
            std::to_string(m.pacing),
            std::to_string(size),
            SweepRunner::Fixed(m.oneway.GetSeconds() * 1e6),
            SweepRunner::Rate(m.mbytesPerS, false).first,
            SweepRunner::Rate(m.mbytesPerS, false).second,
            SweepRunner::Fixed(m.pollNs, 1)};
}

} // namespace

int
main(int argc, char** argv)
{
    ScenarioArgs args(argc, argv, "hpvm-fm",
                      "Seed 004 secs. 2 and 4.1: FM one-way latency and streaming bandwidth "
                      "between two hosts on a Myrinet switch, FM 2.1 (PII-300) and HPVM 1.2 / "
                      "1.9 (PII-450, 440BX), with the poll cost while waiting.");
    // Each curve names its FM version and CPU; two hosts with one process each.
    FmExperiment::AddArguments(args,
                               {"host", "fm-version", "intranode", "processes", "queues"},
                               kSetTargets);
    FmExperiment::AddCurveArgument(args, "2.1:pii300,1.2:pii450,1.9:pii450");
    FmExperiment::AddSweepArguments(args);
    SweepRunner::AddArguments(args, "hpvm-fm");
    args.Parse();
    const std::vector<FmCurve> curves = FmExperiment::ParseCurves(args);
    FmSweepArgs sweepArgs = FmExperiment::ParseSweepArguments(args);

    SweepRunner sweep(args,
                      "hpvm-fm",
                      {"version",
                       "cpu",
                       "host",
                       "chipset",
                       "lanai",
                       "switches",
                       "notify",
                       "poll",
                       "pacing_bytes",
                       "msg_bytes",
                       "oneway_us",
                       "mbps",
                       "mbytes_per_s",
                       "poll_ns"});
    for (const auto& k : curves)
    {
        const FmConfig c = FmExperiment::CurveConfig(args, k, kSetTargets);
        for (uint32_t size : sweepArgs.sizes)
        {
            sweep.AddPoint("version=" + k.version + " cpu=" + k.cpu +
                               " msg=" + std::to_string(size),
                           [=]() {
                               return SweepRunner::Rows{RunPoint(c, k, size, sweepArgs)};
                           });
        }
    }
    return sweep.Run();
}
