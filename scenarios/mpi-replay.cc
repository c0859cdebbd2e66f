// SPDX-License-Identifier: GPL-2.0-only
//
// Replay an MPI application: a trace of its MPI calls runs on a modelled cluster, one rank per
// host, with the chosen MPI library. The trace is either the project's text format (see
// MpiProgram: "<rank> send <dest> <tag> <bytes>", "recv", "isend", "irecv", "wait",
// "waitall", "compute <time>", the collectives "barrier", "bcast", "reduce", "allreduce",
// "gather", "scatter", "allgather", "alltoall", "alltoallv", and "comm" lines for
// communicators) or an OTF2 archive as Score-P records it (its traces.otf2; converted by
// clusternet.otf2trace). A library over TCP or VIA runs on Gigabit Ethernet hosts (two back
// to back, more on one switch), one over GM on Myrinet (two back to back, up to 16 on one
// XBar16 switch, 128 or 1024 hosts on a Clos of them). Writes when every operation of every
// rank completed (results/mpi-replay/data.csv; a one-point sweep of the sweep driver); a job
// that can never finish (a receive nothing matches) is reported with each blocked rank's
// operation and pending requests, exit status 3, nothing written.
//
//   ./ns3 run scenarios/mpi-replay -- --trace=pattern.txt --ranks=4 --stack=mpich
//   ./ns3 run scenarios/mpi-replay -- --trace=scorep-run/traces.otf2 --stack=mpich-gm \
//       --host=athlonxp2800-fbsd47 --lanai=lanai72 --recorded-on=piii450-linux22

#include "cluster-args.h"
#include "gm-experiment.h"
#include "netpipe-scenario.h"
#include "python-tool.h"
#include "run-checks.h"
#include "scenario-args.h"
#include "stall-watchdog-scheduler.h"
#include "sweep-runner.h"
#include "ns3/mpi-via-transport.h"
#include "ns3/mpi-gm-transport.h"
#include "ns3/clusternet-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <regex>
#include <sstream>
#include <sys/resource.h>
#include <unistd.h>

using namespace ns3;
using namespace ns3::clusternet;

namespace
{

constexpr uint32_t kMinRanks = 2;    //!< a job's fewest ranks
constexpr uint32_t kMaxRanks = 1024; //!< a job's most ranks: the largest Clos built

/// Hosts of a Myrinet job of @p ranks ranks: 2 back to back, up to 16 on one switch, else the
/// smallest Clos of XBar16 switches that holds them (0: none does).
uint32_t
MyrinetHosts(uint32_t ranks)
{
    if (ranks <= 16)
    {
        return ranks;
    }
    for (uint32_t hosts : {128u, 1024u})
    {
        if (ranks <= hosts)
        {
            return hosts;
        }
    }
    return 0;
}

/// One replay: the job and the machine it runs on.
struct Replay
{
    uint32_t n;            //!< ranks
    std::string stack;     //!< MPI library profile
    bool gm;               //!< over GM on Myrinet (else TCP or VIA on Gigabit Ethernet)
    ClusterParts parts;    //!< host, NIC, LANai, PCI slot
    uint32_t mtu;          //!< Gigabit Ethernet MTU [bytes]
    Time limit;            //!< simulated time after which the job counts as deadlocked
    std::vector<std::vector<MpiOperation>> programs;
};

/// Install the ranks of @p replay over TCP or VIA on Gigabit Ethernet hosts.
std::vector<Ptr<MpiRank>>
InstallEthernet(const Replay& replay, MpiHelper& mpi)
{
    const uint32_t n = replay.n;
    NodeContainer nodes;
    nodes.Create(n);
    HostHelper hosts;
    hosts.SetHostProfile(replay.parts.host);
    hosts.SetPciSlot(replay.parts.pci);
    hosts.Install(nodes);
    GigeHelper gige;
    gige.SetNicProfile(replay.parts.nic);
    gige.SetDeviceAttribute("Mtu", UintegerValue(replay.mtu));
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
    Ipv4AddressHelper addr("10.0.0.0", "255.255.248.0");
    Ipv4InterfaceContainer ifs = addr.Assign(devs);
    if (mpi.GetTransportType() == MpiViaTransport::GetTypeId())
    {
        mpi.ConfigureDevices(devs); // the VIA library's own driver settings
        return mpi.InstallVia(devs, replay.programs);
    }
    return mpi.InstallTcp(nodes, ifs, replay.programs);
}

/// Run @p replay; return each operation's completion time as data.csv rows. A deadlock is
/// reported on stderr and ends the process with status 3.
SweepRunner::Rows
RunReplay(const Replay& replay)
{
    const uint32_t n = replay.n;
    MpiHelper mpi;
    mpi.SetMpiProfile(replay.stack);
    std::unique_ptr<GmExperiment> myrinet;
    std::vector<Ptr<MpiRank>> ranks;
    if (replay.gm)
    {
        GmConfig g = ClusterArgs::Myrinet(replay.parts, MyrinetHosts(n));
        g.switches = g.hosts == 2 ? 0 : 1; // two back to back, as on Ethernet
        myrinet = std::make_unique<GmExperiment>(g);
        mpi.SetGmTransportAttribute("PortId", UintegerValue(4)); // port 2 is the GM test's
        GmHelper gm;
        gm.SetHostProfile(g.host);
        std::vector<Ptr<GmMcp>> mcps;
        for (uint32_t i = 0; i < n; ++i)
        {
            mcps.push_back(myrinet->GetMcp(i));
        }
        ranks = mpi.InstallGm(mcps, gm, replay.programs);
    }
    else
    {
        ranks = InstallEthernet(replay, mpi);
    }
    auto wall0 = std::chrono::steady_clock::now();
    if (MpiJob::StopWhenDone(ranks, replay.limit))
    {
        Simulator::Run();
    }
    std::string deadlock = MpiJob::Blocked(ranks);
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    const uint64_t events = Simulator::GetEventCount();
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
    const std::string network = replay.gm ? "myrinet" : "gige";
    const std::string nic = replay.gm ? replay.parts.lanai : replay.parts.nic;
    const std::string mtu = replay.gm ? "" : std::to_string(replay.mtu);
    for (const auto& r : ranks)
    {
        const auto& times = r->GetCompletionTimes();
        for (uint32_t i = 0; i < times.size(); ++i)
        {
            end = std::max(end, times[i]);
            rows.push_back({replay.stack,
                            network,
                            replay.parts.host,
                            nic,
                            mtu,
                            std::to_string(n),
                            std::to_string(r->GetRank()),
                            std::to_string(i),
                            replay.programs[r->GetRank()][i].ToString(),
                            SweepRunner::Fixed(times[i].GetNanoSeconds() / 1e3, 3)});
        }
    }
    ranks.clear();
    myrinet.reset(); // (ends the simulation)
    Simulator::Destroy();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    std::cout << "mpi-replay: " << n << " ranks finished at "
              << SweepRunner::Fixed(end.GetNanoSeconds() / 1e3, 3) << " us; events=" << events
              << " wall_run_s=" << SweepRunner::Fixed(wall, 2)
              << " peak_rss_MB=" << SweepRunner::Fixed(ru.ru_maxrss / 1024.0, 1) << std::endl;
    return rows;
}

/// @return true if @p path names an OTF2 archive (its anchor file, *.otf2)
bool
IsOtf2(const std::string& path)
{
    return path.size() > 5 && path.compare(path.size() - 5, 5, ".otf2") == 0;
}

/**
 * Convert the OTF2 archive @p anchor to the text format (clusternet.otf2trace).
 * @param[out] text the trace
 * @param[out] ranks its ranks
 * @return "" or the converter's one line
 */
std::string
ConvertOtf2(const std::string& anchor, std::string& text, uint32_t& ranks)
{
    char tmpl[] = "/tmp/mpi-replay-otf2-XXXXXX";
    int fd = mkstemp(tmpl);
    if (fd < 0)
    {
        return "cannot create a temporary file for the converted trace";
    }
    close(fd);
    const std::string out = tmpl;
    std::string error;
    int status = PythonTool::Run("clusternet.otf2trace", {anchor, "--out=" + out}, error);
    if (status == 0)
    {
        std::ifstream f(out);
        std::stringstream ss;
        ss << f.rdbuf();
        text = ss.str();
    }
    std::filesystem::remove(out);
    if (status != 0)
    {
        const std::string prefix = "otf2trace: ";
        return error.rfind(prefix, 0) == 0 ? error.substr(prefix.size())
                                           : "the OTF2 converter failed (" + error + ")";
    }
    std::smatch m;
    static const std::regex header("# MPI trace of ([0-9]+) ranks");
    if (!std::regex_search(text, m, header))
    {
        return "the OTF2 converter wrote no rank count";
    }
    ranks = std::stoul(m[1]);
    return "";
}

/// The files of the OTF2 archive @p anchor: the anchor, its global definitions and every file
/// of its folder of local definitions and events.
std::vector<std::string>
ArchiveFiles(const std::string& anchor)
{
    namespace fs = std::filesystem;
    std::vector<std::string> files = {anchor};
    fs::path stem = fs::path(anchor).replace_extension();
    std::error_code ec;
    if (fs::is_regular_file(stem.string() + ".def", ec))
    {
        files.push_back(stem.string() + ".def");
    }
    if (fs::is_directory(stem, ec))
    {
        std::vector<std::string> inner;
        for (const auto& e : fs::recursive_directory_iterator(stem, ec))
        {
            if (e.is_regular_file())
            {
                inner.push_back(e.path().string());
            }
        }
        std::sort(inner.begin(), inner.end());
        files.insert(files.end(), inner.begin(), inner.end());
    }
    return files;
}

} // namespace

int
main(int argc, char** argv)
{
    ScenarioArgs args(argc, argv, "mpi-replay",
                      "Replay an MPI application's trace (the text format below, or an OTF2 "
                      "archive as Score-P writes it) on a modelled cluster, one rank per host: "
                      "over TCP or VIA on Gigabit Ethernet, over GM on Myrinet (up to 16 hosts "
                      "on one switch, 128 or 1024 on a Clos), with an MPI library profile and "
                      "its collective algorithms; writes each operation's completion time, or "
                      "reports a deadlock (exit 3). Text format, one call per line: '<rank> "
                      "send|recv|isend|irecv <peer|any> <tag|any> <bytes> [request]', "
                      "'<rank> wait <request>', '<rank> waitall', '<rank> compute <time>', "
                      "'<rank> barrier', '<rank> bcast|reduce|gather|scatter <root> <bytes>', "
                      "'<rank> allreduce|allgather|alltoall <bytes>', '<rank> alltoallv "
                      "<b0,b1,...>', a call on a communicator ending in comm=<id> after a line "
                      "'comm <id> <world ranks>'; all ranks are world ranks.");
    args.Add("trace",
             "the trace: a text file (format above) or an OTF2 archive's anchor file "
             "(.../traces.otf2) [path]",
             "none");
    args.AddUint("ranks",
                 "ranks in the job, one per host (an OTF2 trace: its own, which this must "
                 "equal if given)",
                 "ranks",
                 kMinRanks,
                 kMaxRanks,
                 2);
    args.AddChoice("stack",
                   "MPI library (over TCP or VIA: Gigabit Ethernet; over GM: Myrinet)",
                   ProfileCatalogue::Names("mpi"),
                   "lam");
    ClusterArgs::Add(args, {"piii450-linux22", "sknet", "lanai72", 1, ""}, false);
    const UintegerRange mtuRange = UintegerRange::Of("ns3::clusternet::GigeNetDevice", "Mtu");
    args.AddUint("mtu", "IP MTU (Gigabit Ethernet)", "bytes", mtuRange.min, mtuRange.max, 1500);
    args.Add("compute-scale",
             "factor on every computation time of the trace: the modelled host's time for "
             "the recording host's (default 1: as recorded) [ratio, > 0]",
             "1");
    args.Add("recorded-on",
             "host profile the trace was recorded on: computation is scaled by the time a "
             "reference cycle takes on --host over the time it took there (the hosts' "
             "CPU clock and speed; instead of --compute-scale) [host profile; empty: none]",
             "");
    // The stall watchdog ends any run that passes its horizon: a limit must stop before it.
    TypeId::AttributeInformation horizonInfo;
    StallWatchdogScheduler::GetTypeId().LookupAttributeByName("Horizon", &horizonInfo);
    const Time horizon = DynamicCast<const TimeValue>(horizonInfo.initialValue)->Get();
    const std::string horizonText = SweepRunner::Fixed(horizon.GetSeconds(), 0) + "s";
    args.Add("limit", "simulated time after which an unfinished job counts as deadlocked, "
             "below " + horizonText + " [Time, e.g. 100s]", "3600s");
    SweepRunner::AddArguments(args, "mpi-replay", "");
    args.Parse();
    std::string stack = args.GetChoice("stack");
    MpiHelper mpi;
    mpi.SetMpiProfile(stack);
    const bool gm = mpi.GetTransportType() == MpiGmTransport::GetTypeId();
    ClusterParts parts = ClusterArgs::Parse(args, !gm);
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
    // Computation on another CPU: a stated factor, or the two hosts' cycle times.
    double scale = 1;
    {
        const std::string text = args.Get("compute-scale");
        std::size_t used = 0;
        try
        {
            scale = std::stod(text, &used);
        }
        catch (const std::exception&)
        {
            used = 0;
        }
        if (used != text.size() || text.empty() || !(scale > 0) || scale > 1e6)
        {
            args.Fail("--compute-scale: '" + text + "' is not a factor; allowed a number above 0 "
                      "and at most 1000000, e.g. 0.5");
        }
    }
    const std::string recordedOn = args.Get("recorded-on");
    if (!recordedOn.empty())
    {
        if (args.Given("compute-scale"))
        {
            args.Fail("--recorded-on: give it or --compute-scale, not both (it sets the factor)");
        }
        if (!ProfileCatalogue::Find("host", recordedOn))
        {
            args.Fail("--recorded-on: unknown host '" + recordedOn +
                      "'; allowed: " + ProfileCatalogue::JoinNames("host"));
        }
        HostHelper recorded;
        recorded.SetHostProfile(recordedOn);
        HostHelper modelled;
        modelled.SetHostProfile(parts.host);
        scale = HostCpu::CyclesToTime(modelled.CreateCpu(), 1e9).GetSeconds() /
                HostCpu::CyclesToTime(recorded.CreateCpu(), 1e9).GetSeconds();
    }

    const std::string tracePath = args.Get("trace");
    if (tracePath == "none")
    {
        args.Fail("--trace: give the trace file to replay (--help shows its format)");
    }
    uint32_t n = args.GetUint("ranks");
    std::vector<std::vector<MpiOperation>> programs;
    std::vector<std::string> inputs = {tracePath};
    if (IsOtf2(tracePath))
    {
        std::string text;
        uint32_t traced = 0;
        std::string err = ConvertOtf2(tracePath, text, traced);
        if (!err.empty())
        {
            args.Fail("--trace: " + err);
        }
        if (args.Given("ranks") && traced != n)
        {
            args.Fail("--ranks: " + std::to_string(n) + ", but the trace " + tracePath + " has " +
                      std::to_string(traced) + " ranks (leave --ranks out to take the trace's)");
        }
        if (traced < kMinRanks || traced > kMaxRanks)
        {
            args.Fail("--trace: " + tracePath + " has " + std::to_string(traced) +
                      " ranks; allowed " + std::to_string(kMinRanks) + ".." +
                      std::to_string(kMaxRanks) + " (one per host)");
        }
        n = traced;
        err = MpiProgram::Parse(text, n, programs, tracePath + " (converted)");
        if (!err.empty())
        {
            args.Fail("--trace: " + err);
        }
        inputs = ArchiveFiles(tracePath);
    }
    else
    {
        std::string err = MpiProgram::ParseFile(tracePath, n, programs);
        if (!err.empty())
        {
            args.Fail("--trace: " + err);
        }
    }
    for (auto& program : programs)
    {
        for (auto& op : program)
        {
            if (op.kind == MpiOperation::COMPUTE && scale != 1)
            {
                op.duration = Time::FromDouble(op.duration.GetSeconds() * scale, Time::S);
            }
        }
    }

    std::vector<std::string> drivers = mpi.GetSupportedNics();
    if (gm)
    {
        if (MyrinetHosts(n) == 0)
        {
            args.Fail("--ranks: " + std::to_string(n) + " ranks; Myrinet runs 2..1024 (one "
                      "switch up to 16 hosts, a Clos of 128 or 1024 above)");
        }
        ClusterArgs::CheckMyrinet(args, parts, MyrinetHosts(n));
        std::string err = mpi.CheckProfile();
        if (!err.empty())
        {
            args.Fail("--stack: " + stack + ": " + err);
        }
    }
    else if (!drivers.empty() &&
             std::find(drivers.begin(), drivers.end(), parts.nic) == drivers.end())
    {
        args.Fail("--stack: " + stack + " has drivers for " + drivers.front() + " only, not '" +
                  parts.nic + "'");
    }
    const auto [mtuProfile, ownMtu] = ProfileMtu(parts.nic, parts.host);
    uint32_t mtu = gm ? 0
                      : std::stoul(args.OverProfile("mtu",
                                                    std::to_string(args.GetUint("mtu")),
                                                    mtuProfile,
                                                    "device.Mtu",
                                                    ownMtu));
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
    if (!gm)
    {
        // The NIC and host as profiles give them (a user's --profile-file included): the
        // relations the devices assert and, over TCP, a frame's way within TCP's timers.
        ProfileSet values({"nic.device", "nic.driver", "host.cpu"});
        values.AddProfile(*ProfileCatalogue::Find("nic", parts.nic));
        values.AddProfile(*ProfileCatalogue::Find("host", parts.host));
        std::string err = RunChecks::GigePause(values);
        if (err.empty() && mpi.GetTransportType() != MpiViaTransport::GetTypeId())
        {
            err = RunChecks::TcpFrameTime(values, mtu);
        }
        if (!err.empty())
        {
            args.Fail("--nic: " + parts.nic + " with --host " + parts.host + ": " + err);
        }
    }
    Replay replay{n, stack, gm, parts, mtu, limit, programs};
    SweepRunner sweep(args,
                      "mpi-replay",
                      {"stack",
                       "network",
                       "host",
                       "nic",
                       "mtu",
                       "ranks",
                       "rank",
                       "index",
                       "op",
                       "completed_us"});
    for (const auto& f : inputs)
    {
        sweep.AddInputFile(f);
    }
    sweep.AddPoint("stack=" + stack + " nic=" + (gm ? parts.lanai : parts.nic) +
                       " ranks=" + std::to_string(n),
                   [replay]() { return RunReplay(replay); });
    return sweep.Run();
}
