// SPDX-License-Identifier: GPL-2.0-only
//
// Seed 001 (Baker & Ong, 2002), sec. 4.3, Figures 5 and 6: GM throughput and latency over
// message size on two Pentium 200 / 430VX hosts with LANai9 NICs back to back. gm_allsize
// streams messages of each size one way (uni) and both ways at once (bi); the LogP curve is
// length / g from logp_test's burst test. Latency is half the ping-pong round trip (uni, logp)
// or the time per simultaneous exchange (bi).
//
//   ./ns3 run scenarios/myrinet-gm-allsize
//   ./ns3 run scenarios/myrinet-gm-allsize -- --mode=uni --max-msg=65536 --lanai=lanai72
//   ./ns3 run scenarios/myrinet-gm-allsize -- --help

#include "gm-experiment.h"
#include "scenario-args.h"
#include "sweep-runner.h"

#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdio>
#include <set>

using namespace ns3;
using namespace ns3::clusternet;

namespace
{


/// Message sizes: @p min, @p max, and each power of two between them with its neighbours 3
/// bytes off (as NetPIPE perturbs), so that steps at packet boundaries show.
std::vector<uint32_t>
Sizes(uint32_t min, uint32_t max)
{
    std::set<uint32_t> s{min, max}; // the ends, even with no power of two between them
    for (uint64_t p = 1; p <= max; p *= 2)
    {
        for (int64_t d : {-3, 0, 3})
        {
            int64_t v = static_cast<int64_t>(p) + d;
            if (v >= static_cast<int64_t>(min) && v <= static_cast<int64_t>(max))
            {
                s.insert(static_cast<uint32_t>(v));
            }
        }
    }
    return {s.begin(), s.end()};
}

SweepRunner::Rows
RunMode(const GmConfig& c, const std::string& mode, const std::vector<uint32_t>& sizes,
        uint32_t streamBytes, uint32_t reps)
{
    GmExperiment exp(c);
    Ptr<GmBenchmark> b = exp.GetBenchmark();
    // The receive buffers must hold the largest message (the benchmark's own size, 1 MB,
    // stays when it does).
    UintegerValue buffer;
    b->GetAttribute("BufferSize", buffer);
    if (!sizes.empty() && sizes.back() > buffer.Get())
    {
        b->SetAttribute("BufferSize", UintegerValue(sizes.back()));
    }
    SweepRunner::Rows rows;
    for (uint32_t size : sizes)
    {
        uint32_t count = std::clamp<uint32_t>(streamBytes / std::max<uint32_t>(size, 1), 32, 2048);
        double mbytes = 0;
        double latency = 0;
        double hostCpu = 0; // host CPU per message of the throughput test [us]
        if (mode == "logp")
        {
            // g: the added time per send between two long bursts (the asymptote of Fig. 3).
            const uint32_t b1 = 64;
            const uint32_t b2 = 128;
            b->Burst(size, b1, Seconds(0));
            exp.Run();
            double t1 = b->GetTime().GetSeconds() * b1;
            b->Burst(size, b2, Seconds(0));
            exp.Run();
            double t2 = b->GetTime().GetSeconds() * b2;
            double g = (t2 - t1) / (b2 - b1);
            mbytes = size / g / 1e6;
            hostCpu = b->GetHostCpuPerMessage().GetSeconds() * 1e6;
            b->PingPong(size, reps);
            exp.Run();
        }
        else
        {
            b->Stream(size, count, mode == "bi");
            exp.Run();
            mbytes = b->GetThroughput() / 1e6;
            hostCpu = b->GetHostCpuPerMessage().GetSeconds() * 1e6;
            if (mode == "bi")
            {
                b->Exchange(size, reps);
            }
            else
            {
                b->PingPong(size, reps);
            }
            exp.Run();
        }
        latency = b->GetTime().GetSeconds() * 1e6;
        rows.push_back({c.lanai,
                        c.host,
                        GmExperiment::EffectivePci(c),
                        std::to_string(c.switches),
                        mode,
                        std::to_string(size),
                        SweepRunner::Fixed(latency),
                        SweepRunner::Rate(mbytes, false).first,
                        SweepRunner::Rate(mbytes, false).second,
                        std::to_string(mode == "logp" ? 0 : count),
                        SweepRunner::Fixed(hostCpu, 3)});
    }
    return rows;
}

} // namespace

int
main(int argc, char** argv)
{
    ScenarioArgs args(argc, argv, "myrinet-gm-allsize",
                      "Seed 001 Figs 5 and 6: GM throughput and latency against message size "
                      "(gm_allsize uni- and bi-directional, logp_test length/g), two P200/430VX "
                      "hosts with LANai9 NICs back to back.");
    GmExperiment::AddArguments(args);
    args.AddChoiceList("mode", "curves", {"uni", "bi", "logp"}, "uni,bi,logp");
    // --min-msg goes up to --max-msg's own limit: a larger one would be above any --max-msg.
    const uint32_t maxMsgLimit = 1u << 24;
    args.AddUint("min-msg", "smallest message, at most --max-msg", "bytes", 1, maxMsgLimit, 1);
    args.AddUint("max-msg", "largest message", "bytes", 1, maxMsgLimit, 1048576);
    args.AddUint("stream-bytes",
                 "bytes streamed per size, within 32..2048 messages",
                 "bytes",
                 1,
                 1u << 30,
                 2097152);
    args.AddUint("reps", "round trips per latency point", "count", 1, 100000, 10);
    SweepRunner::AddArguments(args, "myrinet-gm-allsize", "summary.csv and the plots");
    args.Parse();
    GmConfig c = GmExperiment::ParseArguments(args);
    std::vector<std::string> modes = args.GetChoiceList("mode");
    uint32_t minMsg = args.GetUint("min-msg");
    uint32_t maxMsg = args.GetUint("max-msg");
    if (minMsg > maxMsg)
    {
        args.Fail("--min-msg: " + std::to_string(minMsg) + " is above --max-msg " +
                  std::to_string(maxMsg));
    }
    uint32_t streamBytes = args.GetUint("stream-bytes");
    uint32_t reps = args.GetUint("reps");
    std::vector<uint32_t> sizes = Sizes(minMsg, maxMsg);

    SweepRunner sweep(args,
                      "myrinet-gm-allsize",
                      {"nic",
                       "host",
                       "pci",
                       "switches",
                       "mode",
                       "msg_bytes",
                       "latency_us",
                       "mbps",
                       "mbytes_per_s",
                       "reps",
                       "host_cpu_us"});
    for (const auto& mode : modes)
    {
        sweep.AddPoint("lanai=" + c.lanai + " mode=" + mode, [=]() {
            return RunMode(c, mode, sizes, streamBytes, reps);
        });
    }
    return sweep.Run();
}
