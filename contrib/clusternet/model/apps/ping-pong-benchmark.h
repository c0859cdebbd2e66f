// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_PING_PONG_BENCHMARK_H
#define CLUSTERNET_PING_PONG_BENCHMARK_H

#include "ns3/mpi-rank.h"

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <functional>
#include <vector>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief The PingPong of seed 002 (sec. 5.2): messages of increasing length sent back and
 * forth with blocking send and receive, every length repeated.
 *
 * For each length the master (rank @p a) does Warmup untimed round trips, then Repeats timed
 * ones: send, then receive the echo. The one-way time is the timed span over 2 x Repeats,
 * and the bandwidth the length over the one-way time. The echoing process (rank @p b)
 * receives and sends back. Works with any library profile over any transport (MPI, the
 * WinSock calls as a library without a library, PVM).
 */
class PingPongBenchmark : public Object
{
  public:
    /// One measured length.
    struct Sample
    {
        uint32_t bytes; //!< message length [bytes]
        Time oneway;    //!< mean one-way time (half the mean round trip)
    };

    static TypeId GetTypeId();
    PingPongBenchmark();
    ~PingPongBenchmark() override;

    /// Start: @p a times every length of @p lengths in order, @p b echoes; @p done at the end.
    void Start(Ptr<MpiRank> a,
               Ptr<MpiRank> b,
               const std::vector<uint32_t>& lengths,
               std::function<void()> done);
    /// @return one sample per length done so far, in order
    const std::vector<Sample>& GetSamples() const;
    /// @return the lengths of seed 002's figures: powers of two from 1 byte to @p max
    static std::vector<uint32_t> PowersOfTwo(uint32_t max);

  protected:
    void DoDispose() override;

  private:
    /// Append @p n round trips of the current length to both programs.
    void Exchange(uint32_t n);
    void RankDone();
    void StartLength();

    Ptr<MpiRank> m_a;
    Ptr<MpiRank> m_b;
    std::function<void()> m_done;
    std::vector<uint32_t> m_lengths;
    std::vector<Sample> m_samples;
    uint32_t m_index{0};
    uint32_t m_pendingRanks{0};
    bool m_warmingUp{false};
    Time m_start;
    uint32_t m_repeats;
    uint32_t m_warmup;
    int32_t m_tag;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_PING_PONG_BENCHMARK_H
