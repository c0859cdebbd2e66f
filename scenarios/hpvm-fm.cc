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

/// A curve: FM version on a CPU.
struct Curve
{
    std::string version; //!< 2.1, 1.2, 1.9 or an FM profile
    std::string cpu;     //!< pii300, pii450 or a host profile
};

/// --set targets: one process per host, across the Myrinet switch (no shared region).
const std::vector<std::string> kSetTargets =
    {"bridge", "bus", "cpu", "fm", "lcp", "lanai", "link", "port"};
const std::map<std::string, std::string> kVersions = {
    {"2.1", "fm21"}, {"1.2", "hpvm12"}, {"1.9", "hpvm19"}};
const std::map<std::string, std::string> kCpus = {
    {"pii300", "pii300-kayak-nt4"}, {"pii450", "pii450-netserver-nt4"}};

std::vector<std::string>
RunPoint(const FmConfig& c, const Curve& k, uint32_t size, const FmSweepArgs& s)
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
    args.Add("config",
             "curves VERSION:HOST, comma-separated; VERSION 2.1, 1.2, 1.9 or an FM profile (" +
                 ProfileCatalogue::JoinNames("fm") +
                 "), HOST pii300 (HP Kayak, 440LX), pii450 (HP Netserver LPR, 440BX) or a host "
                 "profile (" +
                 ProfileCatalogue::JoinNames("host") + ")",
             "2.1:pii300,1.2:pii450,1.9:pii450");
    FmExperiment::AddSweepArguments(args);
    SweepRunner::AddArguments(args, "hpvm-fm");
    args.Parse();
    std::vector<std::string> items;
    std::stringstream ss(args.Get("config"));
    for (std::string item; std::getline(ss, item, ',');)
    {
        items.push_back(item);
    }
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
    for (const auto& item : items)
    {
        const std::size_t colon = item.find(':');
        if (colon == std::string::npos || item.find(':', colon + 1) != std::string::npos)
        {
            args.Fail("--config: '" + item + "' is not VERSION:HOST (e.g. 1.9:pii450)");
        }
        Curve k{item.substr(0, colon), item.substr(colon + 1)};
        FmConfig c;
        c.setTargets = kSetTargets;
        FmExperiment::ParseArguments(args, c);
        c.version = kVersions.count(k.version) ? kVersions.at(k.version) : k.version;
        c.host = kCpus.count(k.cpu) ? kCpus.at(k.cpu) : k.cpu;
        if (!ProfileCatalogue::Find("fm", c.version))
        {
            args.Fail("--config: unknown FM version '" + k.version + "' in '" + item +
                      "'; allowed: 2.1, 1.2, 1.9 or an FM profile (" +
                      ProfileCatalogue::JoinNames("fm") + ")");
        }
        if (!ProfileCatalogue::Find("host", c.host))
        {
            args.Fail("--config: unknown host '" + k.cpu + "' in '" + item +
                      "'; allowed: pii300, pii450 or a host profile (" +
                      ProfileCatalogue::JoinNames("host") + ")");
        }
        c.notify = FmExperiment::EffectiveNotify(c);
        std::string err = FmExperiment::Validate(c);
        if (!err.empty())
        {
            args.Fail(err);
        }
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
