// SPDX-License-Identifier: GPL-2.0-only
//
// HPVM's MPI over Fast Messages (MPI-FM: MPICH's ADI on FM 2.x) on seed 004's machines: NetPIPE
// in MPI mode between two hosts on a Myrinet switch (LANai 4.x boards), HPVM 1.2 and 1.9 on the
// PII-300 HP Kayak (440LX) and the PII-450 HP Netserver (440BX). Seed 004 measures FM itself;
// the MPI layer's published figures are a check: "13 us minimum latency, 84 MB/s peak bandwidth
// for MPI" on NCSA's HPVM cluster of these machines (A. Chien et al., IJHPCA 13(3), 1999).
//
//   ./ns3 run scenarios/hpvm-mpi
//   ./ns3 run scenarios/hpvm-mpi -- --config=1.9:pii300 --max-block=65536
//   ./ns3 run scenarios/hpvm-mpi -- --help

#include "fm-experiment.h"
#include "run-checks.h"
#include "scenario-args.h"
#include "sweep-runner.h"
#include "ns3/mpi-fm-transport.h"
#include "ns3/clusternet-module.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"

using namespace ns3;
using namespace ns3::clusternet;

namespace
{

/// --set targets: one process per host, across the Myrinet switch.
const std::vector<std::string> kSetTargets =
    {"bridge", "bus", "cpu", "fm", "lcp", "lanai", "link", "port"};

SweepRunner::Rows
RunNetpipe(const FmConfig& c, const FmCurve& k, const std::string& stack, uint32_t maxBlock)
{
    FmExperiment exp(c);
    MpiHelper mpi;
    mpi.SetMpiProfile(stack);
    std::vector<Ptr<FmContext>> contexts = {exp.GetContext(0, 0), exp.GetContext(1, 0)};
    std::vector<Ptr<Node>> nodes;
    for (const auto& ctx : contexts)
    {
        nodes.push_back(ctx->GetCpu()->GetObject<Node>());
    }
    std::vector<Ptr<MpiRank>> ranks = mpi.InstallFm(nodes, contexts, {{}, {}});
    Ptr<MpiNetpipe> netpipe = CreateObject<MpiNetpipe>();
    netpipe->SetAttribute("MaxBlock", UintegerValue(maxBlock));
    netpipe->Start(ranks[0], ranks[1], []() { Simulator::Stop(); });
    exp.Run();
    SweepRunner::Rows rows;
    for (const auto& s : netpipe->GetSamples())
    {
        double us = s.oneWay.GetNanoSeconds() / 1e3;
        const auto [mbps, mbytes] = SweepRunner::Rate(s.bytes * 8.0 / us, true);
        rows.push_back({k.version,
                        k.cpu,
                        c.host,
                        FmExperiment::EffectiveChipset(c),
                        c.lanai,
                        std::to_string(c.switches),
                        stack,
                        std::to_string(s.bytes),
                        SweepRunner::Fixed(us, 3),
                        mbps,
                        mbytes,
                        std::to_string(s.repeats)});
    }
    netpipe->Dispose();
    return rows;
}

} // namespace

int
main(int argc, char** argv)
{
    ScenarioArgs args(argc, argv, "hpvm-mpi",
                      "HPVM's MPI over Fast Messages (MPI-FM) on seed 004's machines: NetPIPE "
                      "MPI latency and throughput against block size between two hosts on a "
                      "Myrinet switch, HPVM 1.2 (PII-300, 440LX) and 1.9 (PII-450, 440BX); "
                      "published: 13 us and 84 MB/s (Chien et al., IJHPCA 1999).");
    // Each curve names its FM version and host; two hosts with one process each.
    FmExperiment::AddArguments(args,
                               {"host", "fm-version", "intranode", "processes", "queues"},
                               kSetTargets);
    FmExperiment::AddCurveArgument(args, "1.2:pii300,1.9:pii450");
    args.AddChoice("stack", "MPI library over FM", ProfileCatalogue::Names("mpi"), "mpi-fm");
    args.AddUint("max-block", "largest NetPIPE block", "bytes", 1, 1u << 26, 8388608);
    SweepRunner::AddArguments(args, "hpvm-mpi");
    args.Parse();
    const std::vector<FmCurve> curves = FmExperiment::ParseCurves(args);
    const std::string stack = args.GetChoice("stack");
    const uint32_t maxBlock = args.GetUint("max-block");
    std::string problem = RunChecks::MpiLibrary(stack, MpiFmTransport::GetTypeId());
    if (!problem.empty())
    {
        args.Fail(problem);
    }

    SweepRunner sweep(args,
                      "hpvm-mpi",
                      {"version",
                       "cpu",
                       "host",
                       "chipset",
                       "lanai",
                       "switches",
                       "stack",
                       "block_bytes",
                       "oneway_us",
                       "mbps",
                       "mbytes_per_s",
                       "reps"});
    for (const auto& k : curves)
    {
        const FmConfig c = FmExperiment::CurveConfig(args, k, kSetTargets);
        sweep.AddPoint("version=" + k.version + " cpu=" + k.cpu + " stack=" + stack,
                       [=]() { return RunNetpipe(c, k, stack, maxBlock); });
    }
    return sweep.Run();
}
