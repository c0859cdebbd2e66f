// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_MPI_NETPIPE_H
#define CLUSTERNET_MPI_NETPIPE_H

#include "ns3/mpi-rank.h"
#include "netpipe-application.h"

#include "ns3/object.h"

#include <functional>
#include <vector>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief NetPIPE 2.3 in MPI mode: a blocking MPI_Send/MPI_Recv ping-pong between two ranks
 * over block sizes with NetPIPE's +-3-byte perturbations, each timed as in the TCP mode
 * (NetpipeApplication): a warm-up round trip sets the repeat count for RunTime, the fastest of
 * Trials timings gives the one-way time (half a round trip).
 *
 * It drives two MpiRank objects by appending each step's operations to their programs.
 */
class MpiNetpipe : public Object
{
  public:
    static TypeId GetTypeId();
    MpiNetpipe();
    ~MpiNetpipe() override;

    /// Start the ping-pong: @p a times it, @p b echoes; @p done is called at the end.
    void Start(Ptr<MpiRank> a, Ptr<MpiRank> b, std::function<void()> done);
    /// @return one sample per block size measured
    const std::vector<NetpipeApplication::Sample>& GetSamples() const;

  protected:
    void DoDispose() override;

  private:
    void StartSize();
    /// Append @p n round trips of the current block to both programs.
    void Exchange(uint32_t n);
    void RankDone();
    void StepDone();

    Ptr<MpiRank> m_a;
    Ptr<MpiRank> m_b;
    std::function<void()> m_done;
    std::vector<uint32_t> m_sizes;
    std::vector<NetpipeApplication::Sample> m_samples;
    uint32_t m_index{0};
    uint32_t m_pendingRanks{0};
    bool m_warmup{true};
    uint32_t m_repeats{1};
    uint32_t m_trialsLeft{0};
    Time m_start;
    Time m_best;

    uint32_t m_maxBlock;
    Time m_runTime;
    Time m_stopAfter;
    uint32_t m_trials;
    uint32_t m_maxRepeats;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_MPI_NETPIPE_H
