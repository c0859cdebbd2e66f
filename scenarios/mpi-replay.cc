// SPDX-License-Identifier: GPL-2.0-only
//
// Replay an MPI application's communication pattern: a trace file with one MPI operation per
// line (see MpiProgram: "<rank> send <dest> <tag> <bytes>", "recv", "isend", "irecv", "wait",
// "waitall", "barrier", "compute <time>") runs on --ranks hosts with the chosen MPI library,
// NIC and host profiles: two hosts back to back, more on one Gigabit Ethernet switch. Writes
// when every operation of every rank completed (results/mpi-replay/data.csv; a one-point sweep
// of the sweep driver, so clusternet.run takes it too); a job that
// can never finish (a receive nothing matches) is reported with each blocked rank's operation
// and pending requests, exit status 3, nothing written.
//
//   ./ns3 run scenarios/mpi-replay -- --trace=pattern.txt --ranks=4 --stack=mpich

#include "netpipe-scenario.h"
#include "run-checks.h"
#include "scenario-args.h"
#include "stall-watchdog-scheduler.h"
#include "sweep-runner.h"
#include "ns3/clusternet-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>

using namespace ns3;
using namespace ns3::clusternet;

namespace
{

/// One replay: the job and the machine it runs on.
struct Replay
{
    uint32_t n;
    std::string stack;
    std::string nic;
    std::string host;
    uint32_t mtu;
    Time limit;
    std::vector<std::vector<MpiOperation>> programs;
};

/// Run @p replay; return each operation's completion time as data.csv rows. A deadlock is
/// reported on stderr and ends the process with status 3.
SweepRunner::Rows
RunReplay(const Replay& replay)
{
    const uint32_t n = replay.n;
    const std::string& stack = replay.stack;
    const std::string& nic = replay.nic;
    const std::string& host = replay.host;
    const uint32_t mtu = replay.mtu;
    const Time limit = replay.limit;
    const auto& programs = replay.programs;
    MpiHelper mpi;
    mpi.SetMpiProfile(stack);
    NodeContainer nodes;
    nodes.Create(n);
    HostHelper hosts;
    hosts.SetHostProfile(host);
    hosts.Install(nodes);
    GigeHelper gige;
    gige.SetNicProfile(nic);
    gige.SetDeviceAttribute("Mtu", UintegerValue(mtu));
    NetDeviceContainer devs;
    if (n == 2)
    {
        devs = gige.Install(nodes.Get(0), nodes.Get(1));
    }
    else
    {
        Ptr<Node> sw = CreateObject<Node>();
        GigeSwitchHelper switches;
        devs = switches.Install(sw, nodes, gige);
    }
    InternetStackHelper internet;
    internet.Install(nodes);
    internet.AssignStreams(nodes, 0);
    for (uint32_t i = 0; i < n; ++i)
    {
        // A Linux host sends its ARP request at once (ns-3 defaults to up to 10 ms of jitter).
        nodes.Get(i)->GetObject<ArpL3Protocol>()->SetAttribute(
            "RequestJitter",
            StringValue("ns3::ConstantRandomVariable[Constant=0.0]"));
    }
    Ipv4AddressHelper addr("10.0.0.0", "255.255.255.0");
    Ipv4InterfaceContainer ifs = addr.Assign(devs);
    if (mpi.GetTransportKind() == "via")
    {
        mpi.ConfigureDevices(devs); // the VIA library's own driver settings
    }
    std::vector<Ptr<MpiRank>> ranks = mpi.GetTransportKind() == "via"
                                          ? mpi.InstallVia(devs, programs)
                                          : mpi.InstallTcp(nodes, ifs, programs);
    std::string deadlock = MpiJob::Run(ranks, limit);
    if (!deadlock.empty())
    {
        std::string line = deadlock;
        for (auto& ch : line)
        {
            ch = ch == '\n' ? ';' : ch;
        }
        Time last;
        for (const auto& r : ranks)
        {
            const auto& t = r->GetCompletionTimes();
            last = t.empty() ? last : std::max(last, t.back());
        }
        std::cerr << "mpi-replay: deadlock: no operation completes after "
                  << SweepRunner::Fixed(last.GetNanoSeconds() / 1e3, 3) << " us: " << line
                  << std::endl;
        Simulator::Destroy();
        std::exit(3); // the sweep driver passes the status on: nothing is written
    }
    std::string leftovers = MpiJob::Leftovers(ranks);
    if (!leftovers.empty())
    {
        std::cerr << "mpi-replay: the job finished with calls left unmatched: " << leftovers
                  << std::endl;
        Simulator::Destroy();
        std::exit(3); // as a deadlock: the trace is not a complete MPI program
    }
    SweepRunner::Rows rows;
    Time end;
    for (const auto& r : ranks)
    {
        const auto& times = r->GetCompletionTimes();
        for (uint32_t i = 0; i < times.size(); ++i)
        {
            end = std::max(end, times[i]);
            rows.push_back({stack,
                            nic,
                            std::to_string(mtu),
                            std::to_string(n),
                            std::to_string(r->GetRank()),
                            std::to_string(i),
                            programs[r->GetRank()][i].ToString(),
                            SweepRunner::Fixed(times[i].GetNanoSeconds() / 1e3, 3)});
        }
    }
    Simulator::Destroy();
    std::cout << "mpi-replay: " << n << " ranks finished at "
              << SweepRunner::Fixed(end.GetNanoSeconds() / 1e3, 3) << " us" << std::endl;
    return rows;
}

} // namespace

int
main(int argc, char** argv)
{
    ScenarioArgs args(argc, argv, "mpi-replay",
                      "Replay a trace file of MPI operations (one per line: rank, call, "
                      "arguments) on Gigabit Ethernet hosts with an MPI library profile; "
                      "writes each operation's completion time, or reports a deadlock (exit 3).");
    args.Add("trace", "trace file of MPI operations [path]", "none");
    args.AddUint("ranks", "ranks in the job, one per host", "ranks", 2, 64, 2);
    args.AddChoice("stack", "MPI library", ProfileCatalogue::Names("mpi"), "lam");
    args.AddChoice("nic", "NIC profile", ProfileCatalogue::Names("nic"), "sknet");
    args.AddChoice("host", "host profile", ProfileCatalogue::Names("host"), "piii450-linux22");
    args.AddPartOptions({"os", "driver"});
    const UintegerRange mtuRange = UintegerRange::Of("ns3::clusternet::GigeNetDevice", "Mtu");
    args.AddUint("mtu", "IP MTU", "bytes", mtuRange.min, mtuRange.max, 1500);
    // The stall watchdog ends any run that passes its horizon: a limit must stop before it.
    TypeId::AttributeInformation horizonInfo;
    StallWatchdogScheduler::GetTypeId().LookupAttributeByName("Horizon", &horizonInfo);
    const Time horizon = DynamicCast<const TimeValue>(horizonInfo.initialValue)->Get();
    const std::string horizonText = SweepRunner::Fixed(horizon.GetSeconds(), 0) + "s";
    args.Add("limit", "simulated time after which an unfinished job counts as deadlocked, "
             "below " + horizonText + " [Time, e.g. 100s]", "3600s");
    SweepRunner::AddArguments(args, "mpi-replay", "");
    args.Parse();
    uint32_t n = args.GetUint("ranks");
    std::string stack = args.GetChoice("stack");
    std::string nic = args.GetChoice("nic");
    std::string host = args.GetChoice("host");
    const auto [mtuProfile, ownMtu] = ProfileMtu(nic, host);
    uint32_t mtu = std::stoul(args.OverProfile("mtu",
                                               std::to_string(args.GetUint("mtu")),
                                               mtuProfile,
                                               "device.Mtu",
                                               ownMtu));
    Time limit;
    std::string why = MpiProgram::CheckTime(args.Get("limit"));
    if (!why.empty())
    {
        args.Fail("--limit: '" + args.Get("limit") + "' is not " + why);
    }
    if (!MpiProgram::ParseTime(args.Get("limit"), limit) || !limit.IsStrictlyPositive())
    {
        args.Fail("--limit: '" + args.Get("limit") + "' is not a positive time (e.g. 100s)");
    }
    if (limit >= horizon)
    {
        args.Fail("--limit: '" + args.Get("limit") + "' is not below " + horizonText +
                  " (the simulated time beyond which any run counts as endless)");
    }
    if (args.Get("trace") == "none")
    {
        args.Fail("--trace: give the trace file to replay (--help shows its format)");
    }
    std::vector<std::vector<MpiOperation>> programs;
    std::string err = MpiProgram::ParseFile(args.Get("trace"), n, programs);
    if (!err.empty())
    {
        args.Fail("--trace: " + err);
    }

    MpiHelper mpi;
    mpi.SetMpiProfile(stack);
    std::vector<std::string> drivers = mpi.GetSupportedNics();
    if (mpi.GetTransportKind() == "gm")
    {
        args.Fail("--stack: " + stack + " runs over GM; mpi-replay runs on Gigabit Ethernet");
    }
    if (!drivers.empty() && std::find(drivers.begin(), drivers.end(), nic) == drivers.end())
    {
        args.Fail("--stack: " + stack + " has drivers for " + drivers.front() + " only, not '" +
                  nic + "'");
    }
    if (uint32_t max = mpi.GetMaxMessage())
    {
        UintegerValue envelope;
        mpi.CreateRank()->GetAttribute("EnvelopeBytes", envelope);
        for (uint32_t r = 0; r < n; ++r)
        {
            for (uint32_t i = 0; i < programs[r].size(); ++i)
            {
                const MpiOperation& op = programs[r][i];
                bool send = op.kind == MpiOperation::SEND || op.kind == MpiOperation::ISEND;
                if (send && uint64_t(op.bytes) + envelope.Get() > max)
                {
                    args.Fail("--trace: rank " + std::to_string(r) + " operation " +
                              std::to_string(i) + " '" + op.ToString() + "': " +
                              std::to_string(op.bytes) + " bytes plus the " +
                              std::to_string(envelope.Get()) + "-byte envelope exceed " + stack +
                              "'s " + std::to_string(max) + "-byte maximum transfer");
                }
            }
        }
    }
    // The NIC and host as profiles give them (a user's --profile-file included): the relations
    // the devices assert and, over TCP, a frame's way within TCP's timers.
    ProfileSet values({"nic.device", "nic.driver", "host.cpu"});
    values.AddProfile(*ProfileCatalogue::Find("nic", nic));
    values.AddProfile(*ProfileCatalogue::Find("host", host));
    err = RunChecks::GigePause(values);
    if (err.empty() && mpi.GetTransportKind() != "via")
    {
        err = RunChecks::TcpFrameTime(values, mtu);
    }
    if (!err.empty())
    {
        args.Fail("--nic: " + nic + " with --host " + host + ": " + err);
    }
    Replay replay{n, stack, nic, host, mtu, limit, programs};
    SweepRunner sweep(args,
                      "mpi-replay",
                      {"stack", "nic", "mtu", "ranks", "rank", "index", "op", "completed_us"});
    sweep.AddInputFile(args.Get("trace"));
    sweep.AddPoint("stack=" + stack + " nic=" + nic + " ranks=" + std::to_string(n),
                   [replay]() { return RunReplay(replay); });
    return sweep.Run();
}
