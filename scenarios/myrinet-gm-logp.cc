// SPDX-License-Identifier: GPL-2.0-only
//
// Seed 001 (Baker & Ong, 2002), sec. 4.3, Figures 3 and 4: GM's logp_test on two Pentium 200 /
// 430VX hosts with LANai9 NICs back to back. The round-trip test gives RTT; in the burst test
// the sender issues a burst of messages, one every delta at most, handling the receiver's
// acknowledgements as they arrive, and the mean time per send over the burst is recorded. From
// these curves the analysis reads Os (small bursts, delta 0), g (the asymptote), the burst
// where the curve leaves Os, g' for delta > g, Or = g' - delta - Os and L = RTT/2 - Or - Os.
//
//   ./ns3 run scenarios/myrinet-gm-logp
//   ./ns3 run scenarios/myrinet-gm-logp -- --delta=0,32,64 --max-burst=200
//   ./ns3 run scenarios/myrinet-gm-logp -- --help

#include "gm-experiment.h"
#include "scenario-args.h"
#include "sweep-runner.h"

#include <cstdio>
#include <set>

using namespace ns3;
using namespace ns3::clusternet;

namespace
{


/// Burst sizes: every size up to 40 (the transition region), then a geometric tail.
std::vector<uint32_t>
Bursts(uint32_t max)
{
    std::set<uint32_t> s;
    for (uint32_t b = 1; b <= std::min<uint32_t>(40, max); ++b)
    {
        s.insert(b);
    }
    for (uint32_t b : {50u, 60u, 80u, 100u, 150u, 200u, 300u, 500u, 700u, 1000u, 2000u})
    {
        if (b <= max)
        {
            s.insert(b);
        }
    }
    s.insert(max);
    return {s.begin(), s.end()};
}

SweepRunner::Rows
RunSize(const GmConfig& c, uint32_t msg, const std::vector<uint32_t>& deltas,
        const std::vector<uint32_t>& bursts, uint32_t reps)
{
    GmExperiment exp(c);
    Ptr<GmBenchmark> b = exp.GetBenchmark();
    b->PingPong(msg, reps);
    exp.Run();
    double rtt = 2 * b->GetTime().GetSeconds() * 1e6;
    SweepRunner::Rows rows;
    for (uint32_t delta : deltas)
    {
        for (uint32_t burst : bursts)
        {
            b->Burst(msg, burst, MicroSeconds(delta));
            exp.Run();
            rows.push_back({c.lanai,
                            c.host,
                            GmExperiment::EffectivePci(c),
                            std::to_string(c.switches),
                            std::to_string(msg),
                            std::to_string(delta),
                            std::to_string(burst),
                            SweepRunner::Fixed(b->GetTime().GetSeconds() * 1e6, 4),
                            SweepRunner::Fixed(rtt, 4),
                            SweepRunner::Fixed(
                                b->GetHostCpuPerMessage().GetSeconds() * 1e6, 4)});
        }
    }
    return rows;
}

} // namespace

int
main(int argc, char** argv)
{
    ScenarioArgs args(argc, argv, "myrinet-gm-logp",
                      "Seed 001 Figs 3 and 4: GM logp_test (round trip and burst tests with "
                      "inter-send delay) on two P200/430VX hosts with LANai9 NICs; LogP "
                      "parameters Os, Or, g, L.");
    GmExperiment::AddArguments(args);
    args.AddUint("msg", "message size of the delta sweep (Fig. 3)", "bytes", 0, 65536, 8);
    args.AddUintList("delta", "inter-send delays for --msg", "us", 0, 100000, "0,8,16,32,64");
    args.Add("sizes",
             "further message sizes for Fig. 4 (delta 0 only), comma-separated, or none "
             "[bytes, 0..1048576]",
             "16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536");
    args.AddUint("max-burst", "largest burst", "messages", 1, 100000, 1000);
    args.AddUint("reps", "round trips of the RTT test", "count", 1, 100000, 20);
    SweepRunner::AddArguments(args, "myrinet-gm-logp", "summary.csv and the plots");
    args.Parse();
    GmConfig c = GmExperiment::ParseArguments(args);
    uint32_t msg = args.GetUint("msg");
    std::vector<uint32_t> deltas = args.GetUintList("delta");
    std::vector<uint32_t> sizes;
    if (args.Get("sizes") != "none")
    {
        sizes = args.GetUintList("sizes", 0, 1u << 20, "bytes");
    }
    uint32_t maxBurst = args.GetUint("max-burst");
    uint32_t reps = args.GetUint("reps");
    std::vector<uint32_t> bursts = Bursts(maxBurst);

    SweepRunner sweep(args,
                      "myrinet-gm-logp",
                      {"nic",
                       "host",
                       "pci",
                       "switches",
                       "msg_bytes",
                       "delta_us",
                       "burst",
                       "us_per_send",
                       "rtt_us",
                       "host_cpu_us"});
    sweep.AddPoint("lanai=" + c.lanai + " msg=" + std::to_string(msg),
                   [=]() { return RunSize(c, msg, deltas, bursts, reps); });
    std::vector<uint32_t> tail;
    for (uint32_t b : bursts)
    {
        if (b <= 8 || b >= maxBurst / 2)
        {
            tail.push_back(b);
        }
    }
    for (uint32_t m : sizes)
    {
        if (m == msg)
        {
            continue;
        }
        sweep.AddPoint("lanai=" + c.lanai + " msg=" + std::to_string(m),
                       [=]() { return RunSize(c, m, {0}, tail, reps); });
    }
    return sweep.Run();
}
