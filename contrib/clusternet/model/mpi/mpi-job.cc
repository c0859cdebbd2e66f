// SPDX-License-Identifier: GPL-2.0-only
#include "mpi-job.h"

#include "ns3/simulator.h"

#include <memory>

namespace ns3
{
namespace clusternet
{

std::string
MpiJob::Run(const std::vector<Ptr<MpiRank>>& ranks, Time limit)
{
    auto left = std::make_shared<uint32_t>(0);
    for (const auto& r : ranks)
    {
        if (r->IsDone())
        {
            continue; // (an empty program is done before it starts; count it once)
        }
        ++*left;
        auto counted = std::make_shared<bool>(true);
        r->SetDoneCallback([left, counted](uint32_t) {
            if (*counted && --*left == 0)
            {
                Simulator::Stop();
            }
            *counted = false;
        });
    }
    if (*left == 0)
    {
        return "";
    }
    Simulator::Stop(limit);
    Simulator::Run();
    std::string report;
    for (const auto& r : ranks)
    {
        std::string pending = r->DescribePending();
        if (!pending.empty())
        {
            report += (report.empty() ? "" : "\n") + pending;
        }
    }
    return report;
}

} // namespace clusternet
} // namespace ns3
