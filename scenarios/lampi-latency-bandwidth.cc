// SPDX-License-Identifier: GPL-2.0-only
//
// Seed 003 (Majumder & Rixner, LACSI 2004), sec. 3.2, Figures 3 and 4,
// predicted blind twice, then released: MPI
// message latency (half a blocking send/recv ping-pong) and unidirectional bandwidth (one rank
// sends messages of a fixed size with blocking sends as fast as it can, the other receives
// them) for LA-MPI 1.4.5 over TCP (polling, LA-MPI-TCP, and event-driven, LA-MPI-TCP-ED) on
// Intel PRO/1000 MT through a Gigabit switch, and over GM (LA-MPI-GM; MPICH-GM for comparison)
// on LANai 7.2, between two Athlon XP 2800+ / FreeBSD 4.7 nodes.
//
//   ./ns3 run scenarios/lampi-latency-bandwidth
//   ./ns3 run scenarios/lampi-latency-bandwidth -- --stack=lampi-tcp,lampi-gm --max-msg=65536
//   ./ns3 run scenarios/lampi-latency-bandwidth -- --help

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

using namespace ns3;
using namespace ns3::clusternet;

namespace
{

/// Seed 003's parts: Athlon XP 2800+ / FreeBSD 4.7 nodes, PRO/1000 MT Server NICs (the em
/// driver's default coalescing), LANai 7.2 boards, one switch per network.
const ClusterParts kPaper{"athlonxp2800-fbsd47", "pro1000mt", "lanai72", 1};

using Op = MpiOperation;

/// Round trips and streamed messages for a message of @p size bytes.
struct Counts
{
    uint32_t reps;
    uint32_t stream;
};

Counts
CountsFor(uint32_t size, uint32_t reps, uint32_t streamBytes)
{
    return {std::clamp<uint32_t>(4 * 1048576 / std::max<uint32_t>(size, 1), 2, reps),
            std::clamp<uint32_t>(streamBytes / std::max<uint32_t>(size, 1), 100, 1000)};
}

/**
 * The two ranks' programs: one warm-up round trip (connections, ARP), @p reps round trips of
 * @p size bytes, then rank 0 sends @p stream messages of @p size bytes with blocking sends and
 * rank 1 receives them with blocking receives.
 */
std::vector<std::vector<Op>>
Programs(uint32_t size, const Counts& n)
{
    std::vector<std::vector<Op>> p(2);
    for (uint32_t i = 0; i <= n.reps; ++i)
    {
        uint32_t bytes = i == 0 ? 4 : size;
        p[0].push_back(Op::Send(1, 1, bytes));
        p[0].push_back(Op::Recv(1, 1, bytes));
        p[1].push_back(Op::Recv(0, 1, bytes));
        p[1].push_back(Op::Send(0, 1, bytes));
    }
    for (uint32_t i = 0; i < n.stream; ++i)
    {
        p[0].push_back(Op::Send(1, 2, size));
        p[1].push_back(Op::Recv(0, 2, size));
    }
    return p;
}

/// One row from the finished ranks.
std::vector<std::string>
Measure(const ClusterParts& parts,
        const std::string& stack,
        const std::string& net,
        uint32_t size,
        const Counts& n,
        const std::vector<Ptr<MpiRank>>& ranks,
        uint64_t unexpectedBefore)
{
    const auto& t0 = ranks[0]->GetCompletionTimes();
    const auto& t1 = ranks[1]->GetCompletionTimes();
    Time warm = t0.at(1);
    Time pingEnd = t0.at(2 * n.reps + 1);
    double latencyUs = (pingEnd - warm).GetSeconds() * 1e6 / (2.0 * n.reps);
    // The stream starts when rank 0 leaves its last ping-pong receive.
    Time streamEnd = t1.back();
    double seconds = (streamEnd - pingEnd).GetSeconds();
    double mbps = seconds > 0 ? n.stream * static_cast<double>(size) * 8 / seconds / 1e6 : 0;
    uint64_t unexpected = ranks[1]->GetUnexpectedMessages() - unexpectedBefore;
    return {stack,
            net,
            net == "gige" ? parts.nic : parts.lanai,
            parts.host,
            net == "gige" ? ClusterArgs::EthernetPci(parts)
                          : GmExperiment::EffectivePci(ClusterArgs::Myrinet(parts)),
            std::to_string(parts.switches),
            std::to_string(size),
            SweepRunner::Fixed(latencyUs, 3),
            SweepRunner::Rate(mbps, true).first,
            SweepRunner::Rate(mbps, true).second,
            std::to_string(n.reps),
            std::to_string(n.stream),
            SweepRunner::Fixed(100.0 * std::min<uint64_t>(unexpected, n.stream) / n.stream, 1)};
}

std::vector<std::string>
RunTcp(const ClusterParts& parts, const std::string& stack, uint32_t size, const Counts& n)
{
    EthernetCluster cluster(2, parts.host, parts.nic, parts.switches > 0, 0, parts.pci);
    MpiHelper mpi;
    mpi.SetMpiProfile(stack);
    std::vector<Ptr<MpiRank>> ranks = mpi.InstallTcp(cluster.GetHosts(), cluster.GetInterfaces(), Programs(size, n));
    if (MpiJob::StopWhenDone(ranks))
    {
        Simulator::Run();
    }
    std::string pending = MpiJob::Blocked(ranks);
    NS_ABORT_MSG_UNLESS(pending.empty(), "lampi-latency-bandwidth: " << pending);
    std::vector<std::string> row = Measure(parts, stack, "gige", size, n, ranks, 0);
    Simulator::Destroy();
    return row;
}

std::vector<std::string>
RunGm(const ClusterParts& parts, const std::string& stack, uint32_t size, const Counts& n)
{
    GmConfig c = ClusterArgs::Myrinet(parts);
    GmExperiment exp(c);
    MpiHelper mpi;
    mpi.SetMpiProfile(stack);
    mpi.SetGmTransportAttribute("PortId", UintegerValue(4)); // port 2 is the GM test's
    GmHelper gm;
    gm.SetHostProfile(c.host);
    std::vector<Ptr<MpiRank>> ranks =
        mpi.InstallGm({exp.GetMcp(0), exp.GetMcp(1)}, gm, Programs(size, n));
    if (MpiJob::StopWhenDone(ranks))
    {
        Simulator::Run();
    }
    std::string pending = MpiJob::Blocked(ranks);
    NS_ABORT_MSG_UNLESS(pending.empty(), "lampi-latency-bandwidth: " << pending);
    return Measure(parts, stack, "myrinet", size, n, ranks, 0);
}

} // namespace

int
main(int argc, char** argv)
{
    ScenarioArgs args(argc, argv, "lampi-latency-bandwidth",
                      "Seed 003 Figs 3 and 4 (released after two blind predictions): MPI "
                      "ping-pong latency and "
                      "unidirectional bandwidth against message size for LA-MPI-TCP, "
                      "LA-MPI-TCP-ED (PRO/1000 MT, Gigabit switch), LA-MPI-GM and MPICH-GM "
                      "(LANai 7.2), Athlon XP 2800+ / FreeBSD 4.7 nodes.");
    args.AddChoiceList("stack",
                       "MPI libraries (over TCP: on the Gigabit Ethernet network; over GM: on "
                       "Myrinet)",
                       ProfileCatalogue::Names("mpi"),
                       "lampi-tcp,lampi-tcp-ed,lampi-gm,mpich-gm");
    ClusterArgs::Add(args, kPaper);
    args.AddUint("min-msg", "smallest message, then powers of two", "bytes", 1, 2097152, 4);
    args.AddUint("max-msg", "largest message", "bytes", 1, 8388608, 2097152);
    args.AddUint("reps",
                 "round trips per latency point, fewer above 256 KB",
                 "count",
                 2,
                 10000,
                 20);
    args.AddUint("stream-bytes",
                 "bytes streamed per bandwidth point, within 100..1000 messages",
                 "bytes",
                 1,
                 1u << 30,
                 4194304);
    SweepRunner::AddArguments(args, "lampi-latency-bandwidth", "summary.csv and the plots");
    args.Parse();
    std::vector<std::string> stacks =
        args.GetChoiceList("stack");
    uint32_t minMsg = args.GetUint("min-msg");
    uint32_t maxMsg = args.GetUint("max-msg");
    if (minMsg > maxMsg)
    {
        args.Fail("--min-msg: " + std::to_string(minMsg) + " is above --max-msg " +
                  std::to_string(maxMsg));
    }
    std::map<std::string, bool> overGm; // the stack's library runs over GM (else TCP)
    std::string problem = GmExperiment::CheckStacks(stacks, overGm);
    if (!problem.empty())
    {
        args.Fail(problem);
    }
    uint32_t reps = args.GetUint("reps");
    uint32_t streamBytes = args.GetUint("stream-bytes");
    bool anyTcp = false;
    bool anyGm = false;
    for (const auto& [stack, gm] : overGm)
    {
        (gm ? anyGm : anyTcp) = true;
    }
    const ClusterParts parts = ClusterArgs::Parse(args, anyTcp);
    if (anyGm)
    {
        ClusterArgs::CheckMyrinet(args, parts, 2);
    }

    SweepRunner sweep(args,
                      "lampi-latency-bandwidth",
                      {"stack",
                       "net",
                       "nic",
                       "host",
                       "pci",
                       "switches",
                       "msg_bytes",
                       "latency_us",
                       "mbps",
                       "mbytes_per_s",
                       "reps",
                       "stream_msgs",
                       "unexpected_pct"});
    for (const auto& stack : stacks)
    {
        bool gm = overGm.at(stack);
        for (uint64_t size = minMsg; size <= maxMsg; size *= 2)
        {
            uint32_t s = static_cast<uint32_t>(size);
            Counts n = CountsFor(s, reps, streamBytes);
            sweep.AddPoint("stack=" + stack + " msg=" + std::to_string(s), [=]() {
                return SweepRunner::Rows{gm ? RunGm(parts, stack, s, n)
                                            : RunTcp(parts, stack, s, n)};
            });
        }
    }
    return sweep.Run();
}
