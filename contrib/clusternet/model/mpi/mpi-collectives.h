// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_MPI_COLLECTIVES_H
#define CLUSTERNET_MPI_COLLECTIVES_H

#include "mpi-program.h"

#include "ns3/object.h"

#include <cstdint>
#include <vector>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief An MPI library's collective algorithms: turns a collective call into the
 * point-to-point calls (send, recv, isend, irecv, wait) that the library makes for one member,
 * so every transport carries them and every per-call cost applies.
 *
 * The algorithms (attributes, one per collective) are those of the libraries' sources of the
 * era; the profile of each library names its choice and source (profiles/mpi.toml, target
 * `coll`). All of a call's messages carry the call's tag in the communicator's collective
 * context, so they never match the application's receives. A reduction's arithmetic is not
 * charged (a few cycles per element against the per-message costs).
 */
class MpiCollectives : public Object
{
  public:
    /// MPI_Barrier.
    enum BarrierAlgorithm
    {
        BARRIER_LINEAR,   //!< rank 0 receives from any member n-1 times, then sends to each
        BARRIER_PAIRWISE, //!< ranks beyond the largest power of two fold in; hypercube exchanges
        BARRIER_HIGH_BIT, //!< a tree whose parent clears the highest bit: fan in, then fan out
    };

    /// MPI_Bcast and MPI_Reduce.
    enum TreeAlgorithm
    {
        TREE_LINEAR,   //!< the root sends to (receives from) every member
        TREE_BINOMIAL, //!< binomial tree: the parent clears the lowest set bit (MPICH)
        TREE_HIGH_BIT, //!< binomial tree: the parent clears the highest set bit (LA-MPI)
    };

    /// MPI_Allreduce.
    enum AllreduceAlgorithm
    {
        ALLREDUCE_REDUCE_BCAST,       //!< Reduce to rank 0, then Bcast from it
        ALLREDUCE_RECURSIVE_DOUBLING, //!< pairwise exchanges (extra ranks fold in first)
    };

    /// MPI_Gather and MPI_Scatter.
    enum RootedAlgorithm
    {
        ROOTED_LINEAR,    //!< the root receives from (sends to) every member in rank order
        ROOTED_TRINOMIAL, //!< LA-MPI's order-3 tree: each node gains two children per round
    };

    /// MPI_Allgather.
    enum AllgatherAlgorithm
    {
        ALLGATHER_RING,               //!< n-1 steps: send to the right, receive from the left
        ALLGATHER_GATHER_BCAST,       //!< Gather to rank 0, then Bcast of the whole
        ALLGATHER_RECURSIVE_DOUBLING, //!< extra ranks fold in; exchanges of all held so far
    };

    /// MPI_Alltoall and MPI_Alltoallv.
    enum AlltoallAlgorithm
    {
        ALLTOALL_INTERLEAVED,        //!< for each member in rank order: irecv, isend; wait all
        ALLTOALL_POST_ALL,           //!< irecv from all, then isend to all (rank order); wait
        ALLTOALL_POST_ALL_ROTATED,   //!< as POST_ALL, both loops starting at rank+1
        ALLTOALL_SEND_ALL_RECV_EACH, //!< isend to all, receive from each in turn, wait sends
        ALLTOALL_WINDOWED,           //!< isends and irecvs in windows of AlltoallvWindow
    };

    static TypeId GetTypeId();
    MpiCollectives();

    /**
     * The point-to-point calls of one member in one collective call.
     * @param call the collective (its communicator; none is MPI_COMM_WORLD of @p worldSize)
     * @param worldSize ranks of MPI_COMM_WORLD
     * @param me this member's world rank
     * @param tag the call's tag (the same on every member)
     * @param nextRequest the next free request number of this rank (advanced)
     * @return the calls in program order
     */
    std::vector<MpiOperation> Expand(const MpiCollective& call,
                                     uint32_t worldSize,
                                     uint32_t me,
                                     int32_t tag,
                                     uint32_t& nextRequest) const;

  private:
    class Member;

    void Barrier(Member& m) const;
    void Bcast(Member& m, uint32_t root, uint64_t bytes) const;
    void Reduce(Member& m, uint32_t root, uint64_t bytes) const;
    void Allreduce(Member& m, uint32_t bytes) const;
    void Gather(Member& m, uint32_t root, uint32_t bytes) const;
    void Scatter(Member& m, uint32_t root, uint32_t bytes) const;
    void Allgather(Member& m, uint32_t bytes) const;
    void Alltoallv(Member& m,
                   AlltoallAlgorithm algorithm,
                   const std::vector<uint32_t>& sendBytes,
                   const std::vector<uint32_t>& recvBytes) const;

    /// One broadcast of @p bytes from @p root by @p algorithm.
    static void BcastTree(Member& m, TreeAlgorithm algorithm, uint32_t root, uint32_t bytes);
    /// One reduction of @p bytes to @p root by @p algorithm.
    static void ReduceTree(Member& m, TreeAlgorithm algorithm, uint32_t root, uint32_t bytes);
    /// LA-MPI's order-3 tree: gather (@p up) or scatter of @p bytes per member at @p root.
    static void Trinomial(Member& m, bool up, uint32_t root, uint32_t bytes);

    BarrierAlgorithm m_barrier;
    TreeAlgorithm m_bcast;
    TreeAlgorithm m_reduce;
    AllreduceAlgorithm m_allreduce;
    RootedAlgorithm m_gather;
    RootedAlgorithm m_scatter;
    AllgatherAlgorithm m_allgather;
    AlltoallAlgorithm m_alltoall;
    AlltoallAlgorithm m_alltoallv;
    uint32_t m_linearUpTo;       //!< at most this many members: Barrier, Bcast, Reduce linear
    uint32_t m_barrierBytes;     //!< size of a barrier's messages [bytes]
    uint32_t m_bcastBlock;       //!< a Bcast goes in blocks of this size (0: whole) [bytes]
    uint32_t m_reduceBlock;      //!< a Reduce goes in blocks of this size (0: whole) [bytes]
    uint32_t m_alltoallvWindow;  //!< Windowed: requests outstanding each way
    uint32_t m_alltoallGroupsAbove; //!< SendAllRecvEach: two groups above this many members
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_MPI_COLLECTIVES_H
