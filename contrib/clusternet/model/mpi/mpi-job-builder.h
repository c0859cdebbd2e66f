// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_MPI_JOB_BUILDER_H
#define CLUSTERNET_MPI_JOB_BUILDER_H

#include "mpi-program.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief Builds the operation lists of a job rank by rank: point-to-point calls, computation
 * and collectives on MPI_COMM_WORLD, which each rank runs by its library's algorithms
 * (MpiCollectives, the profile's `coll` table). Request numbers are allocated per rank.
 */
class MpiJobBuilder
{
  public:
    explicit MpiJobBuilder(uint32_t ranks);

    /// @return the number of ranks
    uint32_t GetSize() const;
    /// @return the programs built so far, one per rank
    const std::vector<std::vector<MpiOperation>>& GetPrograms() const;

    /// Append @p op to rank @p rank's program.
    void Add(uint32_t rank, const MpiOperation& op);
    /// Rank @p rank computes for @p duration.
    void Compute(uint32_t rank, Time duration);
    /// Start a non-blocking send; @return its request number
    uint32_t Isend(uint32_t rank, uint32_t peer, int32_t tag, uint32_t bytes);
    /// Post a non-blocking receive; @return its request number
    uint32_t Irecv(uint32_t rank, uint32_t peer, int32_t tag, uint32_t bytes);

    /// MPI_Allreduce of @p bytes on every rank.
    void Allreduce(uint32_t bytes);
    /// MPI_Bcast of @p bytes from @p root.
    void Bcast(uint32_t root, uint32_t bytes);
    /// MPI_Reduce of @p bytes to @p root.
    void Reduce(uint32_t root, uint32_t bytes);
    /// MPI_Alltoall of @p bytes per pair.
    void Alltoall(uint32_t bytes);
    /// MPI_Alltoallv: rank i sends bytes[i][j] to rank j (the diagonal stays local).
    void Alltoallv(const std::vector<std::vector<uint32_t>>& bytes);
    /// MPI_Barrier on every rank.
    void Barrier();

  private:
    /// Every rank calls the collective @p fill describes for it.
    void Collective(const std::function<void(uint32_t rank, MpiCollective& c)>& fill);

    std::vector<std::vector<MpiOperation>> m_programs;
    std::vector<uint32_t> m_nextRequest;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_MPI_JOB_BUILDER_H
