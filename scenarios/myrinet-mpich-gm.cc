// SPDX-License-Identifier: GPL-2.0-only
//
// Seed 001 (Myrinet/GM on a Pentium 200 cluster), section 4.5, Figures 9 and 10: NetPIPE in MPI
// mode over MPICH-GM (1.2.1.7b) between two P200/430VX hosts with LANai9 NICs back to back:
// a plateau of short (eager) messages copied through bounce buffers, then the zero-copy
// rendezvous climbing to the GM peak.
//
//   ./ns3 run scenarios/myrinet-mpich-gm

#include "gm-experiment.h"
#include "run-checks.h"
#include "scenario-args.h"
#include "sweep-runner.h"
#include "ns3/mpi-gm-transport.h"
#include "ns3/clusternet-module.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"

using namespace ns3;
using namespace ns3::clusternet;

namespace
{

SweepRunner::Rows
RunNetpipe(const GmConfig& c, const std::string& stack, uint32_t maxBlock)
{
    GmExperiment exp(c);
    MpiHelper mpi;
    mpi.SetMpiProfile(stack);
    mpi.SetGmTransportAttribute("PortId", UintegerValue(4)); // port 2 is the GM test's
    GmHelper gm;
    gm.SetHostProfile(c.host);
    GmExperiment::ConfigurePorts(c, gm); // --set gm.* on the ranks' ports too
    std::vector<Ptr<MpiRank>> ranks =
        mpi.InstallGm({exp.GetMcp(0), exp.GetMcp(1)}, gm, {{}, {}});
    Ptr<MpiNetpipe> netpipe = CreateObject<MpiNetpipe>();
    netpipe->SetAttribute("MaxBlock", UintegerValue(maxBlock));
    netpipe->Start(ranks[0], ranks[1], []() { Simulator::Stop(); });
    exp.Run();
    UintegerValue eager;
    ranks[0]->GetAttribute("EagerLimit", eager);
    SweepRunner::Rows rows;
    for (const auto& s : netpipe->GetSamples())
    {
        double us = s.oneWay.GetNanoSeconds() / 1e3;
        rows.push_back({c.lanai,
                        c.host,
                        GmExperiment::EffectivePci(c),
                        std::to_string(c.switches),
                        stack,
                        std::to_string(eager.Get()),
                        std::to_string(s.bytes),
                        SweepRunner::Fixed(us, 3),
                        SweepRunner::Rate(s.bytes * 8.0 / us, true).first,
                        SweepRunner::Rate(s.bytes * 8.0 / us, true).second,
                        std::to_string(s.repeats)});
    }
    netpipe->Dispose();
    return rows;
}

} // namespace

int
main(int argc, char** argv)
{
    ScenarioArgs args(argc, argv, "myrinet-mpich-gm",
                      "Seed 001 Figures 9 and 10: NetPIPE MPI throughput and latency over "
                      "MPICH-GM, P200/430VX hosts with LANai9 NICs back to back.");
    GmExperiment::AddArguments(args);
    args.AddChoice("stack", "MPI library over GM", ProfileCatalogue::Names("mpi"), "mpich-gm");
    args.AddUint("max-block", "largest NetPIPE block", "bytes", 1, 1u << 26, 16777216);
    SweepRunner::AddArguments(args, "myrinet-mpich-gm");
    args.Parse();
    GmConfig c = GmExperiment::ParseArguments(args);
    std::string stack = args.GetChoice("stack");
    uint32_t maxBlock = args.GetUint("max-block");
    std::string problem = RunChecks::MpiLibrary(stack, MpiGmTransport::GetTypeId());
    if (!problem.empty())
    {
        args.Fail(problem);
    }

    SweepRunner sweep(args,
                      "myrinet-mpich-gm",
                      {"nic",
                       "host",
                       "pci",
                       "switches",
                       "stack",
                       "eager_limit_bytes",
                       "block_bytes",
                       "oneway_us",
                       "mbps",
                       "mbytes_per_s",
                       "reps"});
    sweep.AddPoint("lanai=" + c.lanai + " stack=" + stack,
                   [c, stack, maxBlock]() { return RunNetpipe(c, stack, maxBlock); });
    return sweep.Run();
}
