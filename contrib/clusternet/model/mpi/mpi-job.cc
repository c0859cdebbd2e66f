// SPDX-License-Identifier: GPL-2.0-only
#include "mpi-job.h"

#include "ns3/simulator.h"

#include <memory>

namespace ns3
{
namespace clusternet
{

bool
MpiJob::StopWhenDone(const std::vector<Ptr<MpiRank>>& ranks, Time limit)
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
        return false;
    }
    Simulator::Stop(limit);
    return true;
}

std::string
MpiJob::Blocked(const std::vector<Ptr<MpiRank>>& ranks)
{
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

std::string
MpiJob::Leftovers(const std::vector<Ptr<MpiRank>>& ranks)
{
    std::string report;
    auto add = [&report](const std::string& line) {
        report += (report.empty() ? "" : "; ") + line;
    };
    for (const auto& r : ranks)
    {
        std::string left = r->DescribeLeftovers();
        if (!left.empty())
        {
            add(left);
        }
    }
    // Messages neither taken by a receive nor waiting at their receiver: still in flight.
    for (const auto& from : ranks)
    {
        for (const auto& to : ranks)
        {
            if (from == to)
            {
                continue;
            }
            uint64_t sent = from->GetMessagesSentTo(to->GetRank());
            uint64_t taken = to->GetMessagesReceivedFrom(from->GetRank());
            uint64_t waiting = to->GetUnreceivedFrom(from->GetRank());
            if (sent > taken + waiting)
            {
                add("rank " + std::to_string(from->GetRank()) + ": " +
                    std::to_string(sent - taken - waiting) + " message(s) to rank " +
                    std::to_string(to->GetRank()) +
                    " still in flight when the job ended, never received");
            }
        }
    }
    return report;
}

} // namespace clusternet
} // namespace ns3
