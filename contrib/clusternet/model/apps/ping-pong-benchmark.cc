// SPDX-License-Identifier: GPL-2.0-only
#include "ping-pong-benchmark.h"

#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("PingPongBenchmark");
NS_OBJECT_ENSURE_REGISTERED(PingPongBenchmark);

TypeId
PingPongBenchmark::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::PingPongBenchmark")
            .SetParent<Object>()
            .SetGroupName("Clusternet")
            .AddConstructor<PingPongBenchmark>()
            .AddAttribute("Repeats",
                          "Timed round trips per message length [count].",
                          UintegerValue(10),
                          MakeUintegerAccessor(&PingPongBenchmark::m_repeats),
                          MakeUintegerChecker<uint32_t>(1, 100000))
            .AddAttribute("Warmup",
                          "Untimed round trips before the timed ones, per length [count].",
                          UintegerValue(1),
                          MakeUintegerAccessor(&PingPongBenchmark::m_warmup),
                          MakeUintegerChecker<uint32_t>(0, 1000))
            .AddAttribute("Tag",
                          "Message tag of the ping and the echo.",
                          IntegerValue(10),
                          MakeIntegerAccessor(&PingPongBenchmark::m_tag),
                          MakeIntegerChecker<int32_t>(0));
    return tid;
}

PingPongBenchmark::PingPongBenchmark()
{
    NS_LOG_FUNCTION(this);
}

PingPongBenchmark::~PingPongBenchmark()
{
    NS_LOG_FUNCTION(this);
}

void
PingPongBenchmark::DoDispose()
{
    m_a = nullptr;
    m_b = nullptr;
    m_done = nullptr;
    Object::DoDispose();
}

std::vector<uint32_t>
PingPongBenchmark::PowersOfTwo(uint32_t max)
{
    std::vector<uint32_t> out;
    for (uint64_t n = 1; n <= max; n *= 2)
    {
        out.push_back(static_cast<uint32_t>(n));
    }
    return out;
}

const std::vector<PingPongBenchmark::Sample>&
PingPongBenchmark::GetSamples() const
{
    return m_samples;
}

void
PingPongBenchmark::Start(Ptr<MpiRank> a,
                         Ptr<MpiRank> b,
                         const std::vector<uint32_t>& lengths,
                         std::function<void()> done)
{
    NS_LOG_FUNCTION(this << a << b << lengths.size());
    m_a = a;
    m_b = b;
    m_done = std::move(done);
    m_lengths = lengths;
    m_index = 0;
    m_samples.clear();
    a->SetDoneCallback([this](uint32_t) { RankDone(); });
    b->SetDoneCallback([this](uint32_t) { RankDone(); });
    StartLength();
}

void
PingPongBenchmark::StartLength()
{
    if (m_index >= m_lengths.size())
    {
        if (m_done)
        {
            m_done();
        }
        return;
    }
    m_warmingUp = m_warmup > 0;
    Exchange(m_warmingUp ? m_warmup : m_repeats);
}

void
PingPongBenchmark::Exchange(uint32_t n)
{
    uint32_t bytes = m_lengths[m_index];
    auto [ping, pong] = MpiProgram::PingPong(m_a->GetRank(), m_b->GetRank(), m_tag, bytes, n);
    m_start = Simulator::Now();
    m_pendingRanks = 2;
    m_b->Append(pong);
    m_a->Append(ping);
}

void
PingPongBenchmark::RankDone()
{
    if (m_pendingRanks == 0 || --m_pendingRanks > 0)
    {
        return;
    }
    if (m_warmingUp)
    {
        m_warmingUp = false;
        Exchange(m_repeats);
        return;
    }
    // The timer stops when the master's last receive returns.
    Time elapsed = m_a->GetCompletionTimes().back() - m_start;
    Time oneway = elapsed / static_cast<int64_t>(2 * m_repeats);
    m_samples.push_back({m_lengths[m_index], oneway});
    NS_LOG_INFO("PingPong " << m_lengths[m_index] << " bytes: " << oneway.As(Time::US));
    ++m_index;
    StartLength();
}

} // namespace clusternet
} // namespace ns3
