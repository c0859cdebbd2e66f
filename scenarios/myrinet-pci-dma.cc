// SPDX-License-Identifier: GPL-2.0-only
//
// Seed 001 (Baker & Ong, 2002), sec. 4.2 and Table 1: the PCI DMA benchmark GM runs when its
// driver loads (gm_debug). A LANai9 (PCI64B) in the 32-bit/33 MHz slot of a Pentium 200 /
// 430VX host moves 4096-byte blocks between host memory and its SRAM with its host DMA engine,
// in four patterns: 1st, 8 pages read in turn then 8 pages written; 2nd, one page read and one
// written, 8 times; 3rd and 4th, reads and writes alternating between two pages. The rate of
// each direction is its bytes over the time its transfers took.
//
//   ./ns3 run scenarios/myrinet-pci-dma
//   ./ns3 run scenarios/myrinet-pci-dma -- --pci=64x66 --lanai=lanai72
//   ./ns3 run scenarios/myrinet-pci-dma -- --help

#include "gm-experiment.h"
#include "scenario-args.h"
#include "ns3/simulator.h"
#include "sweep-runner.h"

#include <cstdio>
#include <functional>
#include <memory>

using namespace ns3;
using namespace ns3::clusternet;

namespace
{

constexpr uint32_t kBytes = 4096; //!< gm_debug's transfer size
constexpr uint32_t kRounds = 8;

/// One DMA of a pattern: direction and host page.
struct Step
{
    PciBus::Direction dir;
    uint64_t page;
};

/// The transfers of pattern @p test, in order (pages 100.. are the bogus send pages, 200.. the
/// bogus receive pages GM allocates; pattern 1 walks them first, so later patterns find them
/// translated).
std::vector<Step>
Pattern(const std::string& test)
{
    std::vector<Step> s;
    for (uint32_t i = 0; i < kRounds; ++i)
    {
        if (test == "1st")
        {
            s.push_back({PciBus::DMA_READ, 100 + i});
        }
        else if (test == "2nd")
        {
            s.push_back({PciBus::DMA_READ, 100});
            s.push_back({PciBus::DMA_WRITE, 200});
        }
        else
        {
            s.push_back({PciBus::DMA_READ, 100 + i % 2});
            s.push_back({PciBus::DMA_WRITE, 200 + (i + 1) % 2});
        }
    }
    if (test == "1st")
    {
        for (uint32_t i = 0; i < kRounds; ++i)
        {
            s.push_back({PciBus::DMA_WRITE, 200 + i});
        }
    }
    return s;
}


SweepRunner::Rows
RunPatterns(const GmConfig& c)
{
    GmExperiment exp(c);
    Ptr<LanaiNic> nic = exp.GetNic(0);
    SweepRunner::Rows rows;
    for (std::string test : {"1st", "2nd", "3rd", "4th"})
    {
        std::vector<Step> steps = Pattern(test);
        Time spent[2];
        uint64_t bytes[2] = {0, 0};
        auto i = std::make_shared<size_t>(0);
        auto next = std::make_shared<std::function<void()>>();
        *next = [&, i, next]() {
            if (*i == steps.size())
            {
                Simulator::Stop();
                return;
            }
            Step s = steps[(*i)++];
            Time t0 = Simulator::Now();
            nic->HostDma(kBytes, s.dir, s.page, [&, s, t0, next]() {
                spent[s.dir] += Simulator::Now() - t0;
                bytes[s.dir] += kBytes;
                (*next)();
            });
        };
        Simulator::ScheduleNow([next]() { (*next)(); });
        exp.Run();
        *next = nullptr; // break the cycle
        const auto read = SweepRunner::Rate(bytes[0] / spent[0].GetSeconds() / 1e6, false);
        const auto write = SweepRunner::Rate(bytes[1] / spent[1].GetSeconds() / 1e6, false);
        rows.push_back({c.lanai,
                        c.host,
                        GmExperiment::EffectivePci(c),
                        test,
                        std::to_string(kBytes),
                        read.second,
                        write.second,
                        read.first,
                        write.first});
    }
    return rows;
}

} // namespace

int
main(int argc, char** argv)
{
    ScenarioArgs args(argc, argv, "myrinet-pci-dma",
                      "Seed 001 Table 1: gm_debug's PCI DMA test, 4096-byte transfers between "
                      "host memory and LANai SRAM in four patterns; read (send) and write "
                      "(receive) rates.");
    GmExperiment::AddArguments(args, false);
    SweepRunner::AddArguments(args, "myrinet-pci-dma");
    args.Parse();
    GmConfig c = GmExperiment::ParseArguments(args);

    SweepRunner sweep(args,
                      "myrinet-pci-dma",
                      {"nic",
                       "host",
                       "pci",
                       "test",
                       "transfer_bytes",
                       "read_mbytes_per_s",
                       "write_mbytes_per_s",
                       "read_mbps",
                       "write_mbps"});
    sweep.AddPoint("lanai=" + c.lanai + " pci=" + GmExperiment::EffectivePci(c),
                   [c]() { return RunPatterns(c); });
    return sweep.Run();
}
