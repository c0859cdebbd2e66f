// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_FM_BENCHMARK_H
#define CLUSTERNET_FM_BENCHMARK_H

#include "ns3/fm-context.h"

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief FM's latency and bandwidth micro-benchmarks between two contexts.
 *
 * Ping-pong: A sends a message, B's handler answers with one of the same size, A's handler
 * sends the next; one-way latency is the round trips' time over twice their number, after
 * Warmup round trips. Stream: A sends Count messages back to back; the rate is the data of
 * all but the first over the time between the first and the last arriving in full (so
 * start-up latency does not count) [MB/s = 10^6 bytes per second].
 */
class FmBenchmark : public Object
{
  public:
    /// Called with the one-way latency.
    using LatencyCallback = Callback<void, Time>;
    /// Called with the rate [MB/s].
    using RateCallback = Callback<void, double>;

    static TypeId GetTypeId();
    FmBenchmark();
    ~FmBenchmark() override;

    /// Ping-pong @p reps round trips of @p bytes between @p a and @p b.
    void PingPong(Ptr<FmContext> a,
                  Ptr<FmContext> b,
                  uint32_t bytes,
                  uint32_t reps,
                  LatencyCallback done);
    /// Stream @p count messages of @p bytes from @p a to @p b (count >= 2).
    void Stream(Ptr<FmContext> a,
                Ptr<FmContext> b,
                uint32_t bytes,
                uint32_t count,
                RateCallback done);

  protected:
    void DoDispose() override;

  private:
    void PingReceived();
    void PongReceived();

    Ptr<FmContext> m_a;
    Ptr<FmContext> m_b;
    uint32_t m_bytes{0};
    uint32_t m_left{0};
    uint32_t m_count{0};
    uint32_t m_warmup;
    Time m_start;
    LatencyCallback m_latencyDone;
    RateCallback m_rateDone;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_FM_BENCHMARK_H
