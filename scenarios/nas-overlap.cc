// SPDX-License-Identifier: GPL-2.0-only
//
// Seed 003 (Majumder & Rixner, LACSI 2004), sec. 4, Figure 5,
// predicted blind twice, then released: execution time
// of the NAS Parallel Benchmarks BT, SP, LU, IS and MG (classes B and C, 4, 8 or 9 ranks)
// with LA-MPI-TCP and LA-MPI-TCP-ED over Intel PRO/1000 MT through a Gigabit switch, and
// LA-MPI-GM (and MPICH-GM) over LANai 7.2 through a Myrinet switch, on Athlon XP 2800+ /
// FreeBSD 4.7 nodes; the report normalizes each time to LA-MPI-GM's.
//
// Each benchmark runs as a skeleton (NasSkeleton): its real communication pattern and its
// computation at a sustained per-process rate of the host profile. A few time steps are
// simulated after the benchmark's untimed warm-up step and its barrier, and the benchmark's
// time is extrapolated to all its steps (--steps).
//
//   ./ns3 run scenarios/nas-overlap
//   ./ns3 run scenarios/nas-overlap -- --config=is.C.8,lu.B.4 --stack=lampi-tcp-ed,lampi-gm
//   ./ns3 run scenarios/nas-overlap -- --help

#include "cluster-args.h"
#include "gm-experiment.h"
#include "scenario-args.h"
#include "sweep-runner.h"
#include "ns3/clusternet-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <map>
#include <sstream>

using namespace ns3;
using namespace ns3::clusternet;

namespace
{

/// Seed 003's parts: Athlon XP 2800+ / FreeBSD 4.7 nodes, PRO/1000 MT Server NICs (the em
/// driver's default coalescing), LANai 7.2 boards, one switch per network.
const ClusterParts kPaper{"athlonxp2800-fbsd47", "pro1000mt", "lanai72", 1};
/// The 15 configurations of seed 003 Fig. 5, in its order.
const std::string kAllConfigs =
    "bt.B.4,bt.B.9,bt.C.9,sp.B.4,sp.B.9,sp.C.9,lu.B.4,lu.B.8,lu.C.8,is.B.4,is.B.8,is.C.8,"
    "mg.B.4,mg.B.8,mg.C.8";

/// One benchmark configuration: benchmark, class, ranks.
struct NasConfig
{
    std::string bench;
    char cls;
    uint32_t ranks;

    std::string Name() const
    {
        return bench + "." + std::string(1, cls) + "." + std::to_string(ranks);
    }
};

/// Parse "bench.CLASS.ranks"; @return "" or what is wrong
std::string
ParseConfig(const std::string& text, NasConfig& c)
{
    std::vector<std::string> parts;
    std::stringstream ss(text);
    for (std::string part; std::getline(ss, part, '.');)
    {
        parts.push_back(part);
    }
    if (parts.size() != 3 || parts[1].size() != 1 || parts[2].empty() ||
        parts[2].find_first_not_of("0123456789") != std::string::npos || parts[2].size() > 3)
    {
        return "'" + text + "' is not BENCH.CLASS.RANKS (e.g. bt.B.4)";
    }
    c = {parts[0], parts[1][0], static_cast<uint32_t>(std::stoul(parts[2]))};
    return NasSkeleton::Check(c.bench, c.cls, c.ranks);
}

/// --set targets: the skeleton's compute rates, from the host profile.
const std::vector<std::string> kTargets = {"host.npb"};
std::string g_overrides; //!< --set: "npb.Attribute=value;..."
ClusterParts g_parts = kPaper; //!< --host, --nic, --lanai

/// @return the skeleton's values: the host profile's, then --set (checked: the error or "" in
/// @p err)
ProfileSet
Values(std::string& err)
{
    ProfileSet values(kTargets);
    values.AddProfile(*ProfileCatalogue::Find("host", g_parts.host));
    err = values.SetOverrides(g_overrides);
    return values;
}

Ptr<NasSkeleton>
Skeleton()
{
    Ptr<NasSkeleton> s = CreateObject<NasSkeleton>();
    std::string err;
    Values(err).Apply("npb", s);
    return s;
}

/// Run the ranks; @return the row of the finished job
std::vector<std::string>
Finish(const NasConfig& c,
       const std::string& stack,
       const std::string& net,
       const NasJob& job,
       const std::vector<Ptr<MpiRank>>& ranks)
{
    if (MpiJob::StopWhenDone(ranks, Seconds(36000)))
    {
        Simulator::Run();
    }
    std::string pending = MpiJob::Blocked(ranks);
    NS_ABORT_MSG_UNLESS(pending.empty(), "nas-overlap: " << c.Name() << " " << stack << ": "
                                                        << pending);
    std::vector<std::vector<Time>> done;
    for (const auto& r : ranks)
    {
        done.push_back(r->GetCompletionTimes());
    }
    double time = job.EstimateTime(done).GetSeconds();
    double compute =
        Skeleton()->ComputePerStep(c.bench, c.cls, c.ranks).GetSeconds() * job.benchmarkSteps;
    return {c.Name(),
            c.bench,
            std::string(1, c.cls),
            std::to_string(c.ranks),
            stack,
            net,
            net == "gige" ? g_parts.nic : g_parts.lanai,
            g_parts.host,
            net == "gige" ? ClusterArgs::EthernetPci(g_parts)
                          : GmExperiment::EffectivePci(ClusterArgs::Myrinet(g_parts, c.ranks)),
            SweepRunner::Fixed(time, 6),
            SweepRunner::Fixed(compute, 6),
            std::to_string(job.simulatedSteps),
            std::to_string(job.benchmarkSteps)};
}

std::vector<std::string>
RunTcp(const NasConfig& c, const std::string& stack, uint32_t steps)
{
    NasJob job = Skeleton()->Build(c.bench, c.cls, c.ranks, steps);
    EthernetCluster cluster(c.ranks, g_parts.host, g_parts.nic, true, 0, g_parts.pci); // one switch
    MpiHelper mpi;
    mpi.SetMpiProfile(stack);
    std::vector<Ptr<MpiRank>> ranks =
        mpi.InstallTcp(cluster.GetHosts(), cluster.GetInterfaces(), job.programs);
    std::vector<std::string> row = Finish(c, stack, "gige", job, ranks);
    Simulator::Destroy();
    return row;
}

std::vector<std::string>
RunGm(const NasConfig& c, const std::string& stack, uint32_t steps)
{
    NasJob job = Skeleton()->Build(c.bench, c.cls, c.ranks, steps);
    GmConfig g = ClusterArgs::Myrinet(g_parts, c.ranks); // on the 16-port switch
    GmExperiment exp(g);
    MpiHelper mpi;
    mpi.SetMpiProfile(stack);
    mpi.SetGmTransportAttribute("PortId", UintegerValue(4)); // port 2 is the GM test's
    GmHelper gm;
    gm.SetHostProfile(g.host);
    std::vector<Ptr<GmMcp>> mcps;
    for (uint32_t i = 0; i < c.ranks; ++i)
    {
        mcps.push_back(exp.GetMcp(i));
    }
    std::vector<Ptr<MpiRank>> ranks = mpi.InstallGm(mcps, gm, job.programs);
    return Finish(c, stack, "myrinet", job, ranks);
}

} // namespace

int
main(int argc, char** argv)
{
    ScenarioArgs args(argc, argv, "nas-overlap",
                      "Seed 003 Fig. 5 (released after two blind predictions): NAS benchmark "
                      "skeletons (BT, SP, LU, "
                      "IS, MG; classes B, C; 4, 8 or 9 ranks) with LA-MPI-TCP, LA-MPI-TCP-ED "
                      "(PRO/1000 MT, Gigabit switch), LA-MPI-GM and MPICH-GM (LANai 7.2, "
                      "Myrinet switch) on Athlon XP 2800+ / FreeBSD 4.7 nodes; execution times "
                      "normalized to LA-MPI-GM.");
    args.Add("config",
             "benchmark configurations BENCH.CLASS.RANKS, comma-separated: bench bt or sp "
             "(ranks 4, 9), lu, is or mg (ranks 4, 8); class B or C",
             kAllConfigs);
    args.AddChoiceList("stack",
                       "MPI libraries (over TCP: on the Gigabit Ethernet switch; over GM: on "
                       "the Myrinet switch)",
                       ProfileCatalogue::Names("mpi"),
                       "lampi-tcp,lampi-tcp-ed,lampi-gm,mpich-gm");
    ClusterArgs::Add(args, kPaper, false); // 4 to 9 ranks: one switch per network
    args.AddUint("steps",
                 "timed time steps simulated per run, the rest extrapolated; 0 = all of the "
                 "benchmark's (BT 200, SP 400, LU 250, MG 20, IS 10)",
                 "steps",
                 0,
                 400,
                 3);
    args.AddOverrides(kTargets,
                      "npb.BtRate=400",
                      "the host's sustained compute rates BtRate, SpRate, LuRate, MgRate "
                      "[Mflop/s per process] and IsRate [Mkeys/s]");
    SweepRunner::AddArguments(args, "nas-overlap", "summary.csv and the plot");
    args.Parse();
    std::vector<NasConfig> configs;
    {
        std::stringstream ss(args.Get("config"));
        for (std::string item; std::getline(ss, item, ',');)
        {
            NasConfig c;
            std::string err = ParseConfig(item, c);
            if (!err.empty())
            {
                args.Fail("--config: " + err);
            }
            configs.push_back(c);
        }
    }
    std::vector<std::string> stacks =
        args.GetChoiceList("stack");
    std::map<std::string, bool> overGm; // the stack's library runs over GM (else TCP)
    std::string problem = GmExperiment::CheckStacks(stacks, overGm);
    if (!problem.empty())
    {
        args.Fail(problem);
    }
    uint32_t steps = args.GetUint("steps");
    g_overrides = args.Get("set");
    g_parts = ClusterArgs::Parse(args, false);
    bool anyGm = false;
    for (const auto& [stack, gm] : overGm)
    {
        anyGm = anyGm || gm;
    }
    for (const auto& c : configs)
    {
        if (anyGm)
        {
            ClusterArgs::CheckMyrinet(args, g_parts, c.ranks);
        }
    }
    std::string err;
    Values(err);
    if (!err.empty())
    {
        args.Fail("--set: " + err);
    }

    SweepRunner sweep(args,
                      "nas-overlap",
                      {"config",
                       "bench",
                       "class",
                       "ranks",
                       "stack",
                       "net",
                       "nic",
                       "host",
                       "pci",
                       "time_s",
                       "compute_s",
                       "steps_simulated",
                       "steps"});
    for (const auto& c : configs)
    {
        for (const auto& stack : stacks)
        {
            bool gm = overGm.at(stack);
            sweep.AddPoint("config=" + c.Name() + " stack=" + stack, [=]() {
                return SweepRunner::Rows{gm ? RunGm(c, stack, steps) : RunTcp(c, stack, steps)};
            });
        }
    }
    return sweep.Run();
}
