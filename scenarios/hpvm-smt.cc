// SPDX-License-Identifier: GPL-2.0-only
//
// Seed 004 (Bruno et al., HPVM 1.9), sec. 5 and Figs 2 and 3: intranode FM messaging between
// two processes on one SMP host, each on its own processor. HPVM 1.2 sends them down to the
// Myrinet NIC and back (loopback: PIO across the PCI bus into the LANai, DMA back up);
// HPVM 1.9 uses the shared-memory transport (SMT: fetch-and-increment on the receiver's free
// list, copy in, fetch-and-increment on its receive queue, copy out). One-way latency
// (ping-pong), streaming bandwidth, and the cost of one poll of an idle process.
//
//   ./ns3 run scenarios/hpvm-smt
//   ./ns3 run scenarios/hpvm-smt -- --config=1.9:smt --processes=4 --queues=2
//   ./ns3 run scenarios/hpvm-smt -- --help

#include "fm-experiment.h"
#include "scenario-args.h"
#include "sweep-runner.h"


using namespace ns3;
using namespace ns3::clusternet;

namespace
{

/// A curve: FM version and intranode transport.
struct Curve
{
    std::string version;   //!< 1.2 or 1.9
    std::string transport; //!< loopback or smt
};

const std::map<std::string, std::string> kVersions = {{"1.2", "hpvm12"}, {"1.9", "hpvm19"}};

/// --set targets: processes on one host talk through its NIC (loopback) or its shared region;
/// the Myrinet links and ports carry nothing.
const std::vector<std::string> kSetTargets = {"bridge", "bus", "cpu", "fm", "lcp", "lanai", "smt"};

/// What an idle process polls: shared memory (and Myrinet's flag), or the LANai's register.
std::string
PollOf(const FmConfig& c, const Curve& k)
{
    if (k.transport == "smt")
    {
        return "shm";
    }
    return c.notify;
}

SweepRunner::Rows
RunPoint(const FmConfig& c, const Curve& k, uint32_t size, const FmSweepArgs& s)
{
    // Process 0 and process 1 of host 0.
    FmMeasurement m = FmExperiment::Measure(c, {0, 0}, {0, 1}, size, s.reps, s.streamBytes);
    return {{k.version,
             k.transport,
             PollOf(c, k),
             c.host,
             FmExperiment::EffectiveChipset(c),
             c.lanai,
             std::to_string(c.processes),
             std::to_string(c.queues),
             std::to_string(size),
             SweepRunner::Fixed(m.oneway.GetSeconds() * 1e6),
             SweepRunner::Rate(m.mbytesPerS, false).first,
             SweepRunner::Rate(m.mbytesPerS, false).second,
             SweepRunner::Fixed(m.pollNs, 1)}};
}

} // namespace

int
main(int argc, char** argv)
{
    ScenarioArgs args(argc, argv, "hpvm-smt",
                      "Seed 004 Figs 2 and 3: intranode FM latency and bandwidth between two "
                      "processes on one SMP host, HPVM 1.2 (loopback through the Myrinet NIC) "
                      "vs HPVM 1.9 (shared-memory transport), with the poll cost while waiting.");
    // Each curve names its FM version and intranode transport.
    // Two processes on one host: no message crosses a switch.
    FmExperiment::AddArguments(args,
                               {"fm-version", "intranode", "processes", "switches"},
                               kSetTargets);
    args.AddChoiceList("config",
                       "curves VERSION:TRANSPORT; VERSION 1.2 or 1.9, TRANSPORT loopback "
                       "(through the NIC) or smt (shared memory)",
                       {"1.2:loopback", "1.2:smt", "1.9:loopback", "1.9:smt"},
                       "1.2:loopback,1.9:smt");
    args.AddUint("processes",
                 "FM processes on the host, N; processes 0 and 1 measure, the others idle",
                 "processes",
                 2,
                 16,
                 2);
    FmExperiment::AddSweepArguments(args);
    SweepRunner::AddArguments(args, "hpvm-smt");
    args.Parse();
    std::vector<std::string> items = args.GetChoiceList("config");
    uint32_t processes = args.GetUint("processes");
    FmSweepArgs sweepArgs = FmExperiment::ParseSweepArguments(args);

    std::vector<std::pair<Curve, FmConfig>> curves;
    for (const auto& item : items)
    {
        Curve k{item.substr(0, 3), item.substr(4)};
        FmConfig c;
        c.processes = processes;
        c.setTargets = kSetTargets;
        // The curve's version and transport first: the options are checked against them.
        c.version = kVersions.at(k.version);
        c.intranode = k.transport;
        FmExperiment::ParseArguments(args, c);
        std::string err = FmExperiment::Validate(c);
        if (!err.empty())
        {
            args.Fail(err);
        }
        c.notify = FmExperiment::EffectiveNotify(c);
        curves.emplace_back(k, c);
    }

    SweepRunner sweep(args,
                      "hpvm-smt",
                      {"version",
                       "transport",
                       "poll",
                       "host",
                       "chipset",
                       "lanai",
                       "processes",
                       "queues",
                       "msg_bytes",
                       "oneway_us",
                       "mbps",
                       "mbytes_per_s",
                       "poll_ns"});
    for (const auto& [k, c] : curves)
    {
        for (uint32_t size : sweepArgs.sizes)
        {
            sweep.AddPoint("version=" + k.version + " transport=" + k.transport +
                               " msg=" + std::to_string(size),
                           [=]() { return RunPoint(c, k, size, sweepArgs); });
        }
    }
    return sweep.Run();
}
