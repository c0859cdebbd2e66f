// SPDX-License-Identifier: GPL-2.0-only
#include "fm-benchmark.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("FmBenchmark");
NS_OBJECT_ENSURE_REGISTERED(FmBenchmark);

TypeId
FmBenchmark::GetTypeId()
{
    static TypeId tid = TypeId("ns3::clusternet::FmBenchmark")
                            .SetParent<Object>()
                            .SetGroupName("Clusternet")
                            .AddConstructor<FmBenchmark>()
                            .AddAttribute("Warmup",
                                          "Round trips before the timed ones [round trips].",
                                          UintegerValue(2),
                                          MakeUintegerAccessor(&FmBenchmark::m_warmup),
                                          MakeUintegerChecker<uint32_t>(0, 1000000));
    return tid;
}

FmBenchmark::FmBenchmark()
{
    NS_LOG_FUNCTION(this);
}

FmBenchmark::~FmBenchmark()
{
    NS_LOG_FUNCTION(this);
}

void
FmBenchmark::DoDispose()
{
    m_a = nullptr;
    m_b = nullptr;
    m_latencyDone = LatencyCallback();
    m_rateDone = RateCallback();
    Object::DoDispose();
}

void
FmBenchmark::PingPong(Ptr<FmContext> a,
                      Ptr<FmContext> b,
                      uint32_t bytes,
                      uint32_t reps,
                      LatencyCallback done)
{
    NS_ASSERT_MSG(reps > 0, "FmBenchmark: no round trips");
    m_a = a;
    m_b = b;
    m_bytes = bytes;
    m_count = reps;
    m_left = reps + m_warmup;
    m_latencyDone = done;
    b->SetReceiveCallback([this](uint16_t, uint8_t, uint8_t, uint32_t) { PingReceived(); });
    a->SetReceiveCallback([this](uint16_t, uint8_t, uint8_t, uint32_t) { PongReceived(); });
    if (m_warmup == 0)
    {
        m_start = Simulator::Now();
    }
    a->Send(b->GetNodeId(), b->GetContextId(), bytes);
}

void
FmBenchmark::PingReceived()
{
    m_b->Send(m_a->GetNodeId(), m_a->GetContextId(), m_bytes);
}

void
FmBenchmark::PongReceived()
{
    --m_left;
    if (m_left == m_count)
    {
        m_start = Simulator::Now(); // warm-up over
    }
    if (m_left == 0)
    {
        Time oneway = (Simulator::Now() - m_start) / (2 * static_cast<int64_t>(m_count));
        m_latencyDone(oneway);
        return;
    }
    m_a->Send(m_b->GetNodeId(), m_b->GetContextId(), m_bytes);
}

void
FmBenchmark::Stream(Ptr<FmContext> a,
                    Ptr<FmContext> b,
                    uint32_t bytes,
                    uint32_t count,
                    RateCallback done)
{
    NS_ASSERT_MSG(count >= 2, "FmBenchmark: a stream needs two messages");
    m_a = a;
    m_b = b;
    m_bytes = bytes;
    m_count = count;
    m_left = count;
    m_rateDone = done;
    b->SetReceiveCallback([this](uint16_t, uint8_t, uint8_t, uint32_t) {
        --m_left;
        if (m_left == m_count - 1)
        {
            m_start = Simulator::Now();
        }
        if (m_left == 0)
        {
            double s = (Simulator::Now() - m_start).GetSeconds();
            m_rateDone(static_cast<double>(m_bytes) * (m_count - 1) / s / 1e6);
        }
    });
    for (uint32_t i = 0; i < count; ++i)
    {
        a->Send(b->GetNodeId(), b->GetContextId(), bytes);
    }
}

} // namespace clusternet
} // namespace ns3
