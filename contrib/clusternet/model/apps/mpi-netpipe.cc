// SPDX-License-Identifier: GPL-2.0-only
#include "mpi-netpipe.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("MpiNetpipe");
NS_OBJECT_ENSURE_REGISTERED(MpiNetpipe);

namespace
{
constexpr int32_t kTag = 1; //!< NetPIPE's message tag
} // namespace

TypeId
MpiNetpipe::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::MpiNetpipe")
            .SetParent<Object>()
            .SetGroupName("Clusternet")
            .AddConstructor<MpiNetpipe>()
            .AddAttribute("MaxBlock",
                          "Largest block size [bytes].",
                          UintegerValue(1 << 21),
                          MakeUintegerAccessor(&MpiNetpipe::m_maxBlock),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("RunTime",
                          "Target duration of one timing, from which the repeat count follows "
                          "[Time].",
                          TimeValue(MilliSeconds(2)),
                          MakeTimeAccessor(&MpiNetpipe::m_runTime),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("StopAfter",
                          "Stop after a block whose round trip exceeds this [Time].",
                          TimeValue(Seconds(1)),
                          MakeTimeAccessor(&MpiNetpipe::m_stopAfter),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("Trials",
                          "Timings per block size; the fastest is kept [count].",
                          UintegerValue(2),
                          MakeUintegerAccessor(&MpiNetpipe::m_trials),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("MaxRepeats",
                          "Upper bound on round trips per timing [count].",
                          UintegerValue(20),
                          MakeUintegerAccessor(&MpiNetpipe::m_maxRepeats),
                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

MpiNetpipe::MpiNetpipe()
{
}

MpiNetpipe::~MpiNetpipe()
{
}

void
MpiNetpipe::DoDispose()
{
    m_a = nullptr;
    m_b = nullptr;
    m_done = nullptr;
    Object::DoDispose();
}

const std::vector<NetpipeApplication::Sample>&
MpiNetpipe::GetSamples() const
{
    return m_samples;
}

void
MpiNetpipe::Start(Ptr<MpiRank> a, Ptr<MpiRank> b, std::function<void()> done)
{
    m_a = a;
    m_b = b;
    m_done = done;
    m_sizes = NetpipeApplication::BlockSizes(m_maxBlock);
    m_index = 0;
    a->SetDoneCallback([this](uint32_t) { RankDone(); });
    b->SetDoneCallback([this](uint32_t) { RankDone(); });
    StartSize();
}

void
MpiNetpipe::StartSize()
{
    if (m_index >= m_sizes.size())
    {
        if (m_done)
        {
            m_done();
        }
        return;
    }
    m_warmup = true;
    m_best = Time::Max();
    Exchange(1);
}

void
MpiNetpipe::Exchange(uint32_t n)
{
    uint32_t bytes = m_sizes[m_index];
    auto [ping, pong] = MpiProgram::PingPong(m_a->GetRank(), m_b->GetRank(), kTag, bytes, n);
    m_start = Simulator::Now();
    m_pendingRanks = 2;
    m_b->Append(pong);
    m_a->Append(ping);
}

void
MpiNetpipe::RankDone()
{
    if (m_pendingRanks > 0 && --m_pendingRanks == 0)
    {
        StepDone();
    }
}

void
MpiNetpipe::StepDone()
{
    // The timer stops when the transmitter's last receive returns.
    Time end = m_a->GetCompletionTimes().back();
    Time elapsed = end - m_start;
    if (m_warmup)
    {
        m_warmup = false;
        m_repeats = static_cast<uint32_t>(std::clamp<int64_t>(
            m_runTime.GetNanoSeconds() / std::max<int64_t>(elapsed.GetNanoSeconds(), 1),
            1,
            m_maxRepeats));
        m_trialsLeft = m_trials;
        Exchange(m_repeats);
        return;
    }
    m_best = std::min(m_best, elapsed / static_cast<int64_t>(2 * m_repeats));
    if (--m_trialsLeft > 0)
    {
        Exchange(m_repeats);
        return;
    }
    m_samples.push_back({m_sizes[m_index], m_best, m_repeats});
    NS_LOG_INFO("MPI NetPIPE " << m_sizes[m_index] << " bytes: " << m_best.As(Time::US));
    ++m_index;
    if (m_best * 2 > m_stopAfter)
    {
        m_index = m_sizes.size();
    }
    StartSize();
}

} // namespace clusternet
} // namespace ns3
