// SPDX-License-Identifier: GPL-2.0-only
#include "mpi-collectives.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <functional>

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("MpiCollectives");
NS_OBJECT_ENSURE_REGISTERED(MpiCollectives);

/**
 * One member's view of a collective call: its rank in the communicator and the calls it
 * makes, with peers given as communicator ranks.
 */
class MpiCollectives::Member
{
  public:
    Member(const std::vector<uint32_t>& members,
           uint32_t me,
           int32_t tag,
           uint32_t context,
           uint32_t& nextRequest)
        : m_members(members),
          m_tag(tag),
          m_context(context),
          m_nextRequest(nextRequest)
    {
        auto it = std::find(m_members.begin(), m_members.end(), me);
        NS_ABORT_MSG_IF(it == m_members.end(),
                        "MpiCollectives: rank " << me << " is not a member of the communicator");
        m_rank = it - m_members.begin();
    }

    /// @return this member's rank in the communicator
    uint32_t Rank() const
    {
        return m_rank;
    }

    /// @return the communicator's size
    uint32_t Size() const
    {
        return m_members.size();
    }

    /// MPI_Send to communicator rank @p to.
    void Send(uint32_t to, uint32_t bytes)
    {
        Add(MpiOperation::Send(m_members.at(to), m_tag, bytes));
    }

    /// MPI_Recv from communicator rank @p from.
    void Recv(uint32_t from, uint32_t bytes)
    {
        Add(MpiOperation::Recv(m_members.at(from), m_tag, bytes));
    }

    /// MPI_Recv from any member.
    void RecvAny(uint32_t bytes)
    {
        Add(MpiOperation::Recv(MpiOperation::ANY_SOURCE, m_tag, bytes));
    }

    /// MPI_Isend to communicator rank @p to; @return its request
    uint32_t Isend(uint32_t to, uint32_t bytes)
    {
        Add(MpiOperation::Isend(m_members.at(to), m_tag, bytes, m_nextRequest));
        return m_nextRequest++;
    }

    /// MPI_Irecv from communicator rank @p from; @return its request
    uint32_t Irecv(uint32_t from, uint32_t bytes)
    {
        Add(MpiOperation::Irecv(m_members.at(from), m_tag, bytes, m_nextRequest));
        return m_nextRequest++;
    }

    /// MPI_Wait on each of @p requests, in order (MPI_Waitall completes them all).
    void Wait(const std::vector<uint32_t>& requests)
    {
        for (uint32_t r : requests)
        {
            m_ops.push_back(MpiOperation::Wait(r));
        }
    }

    /// MPI_Sendrecv: send to @p to and receive from @p from at once.
    void Sendrecv(uint32_t to, uint32_t sendBytes, uint32_t from, uint32_t recvBytes)
    {
        uint32_t r = Irecv(from, recvBytes);
        uint32_t s = Isend(to, sendBytes);
        Wait({r, s});
    }

    /// @return the calls made
    std::vector<MpiOperation>& Ops()
    {
        return m_ops;
    }

  private:
    void Add(MpiOperation op)
    {
        op.context = m_context;
        m_ops.push_back(op);
    }

    const std::vector<uint32_t>& m_members;
    uint32_t m_rank{0};
    int32_t m_tag;
    uint32_t m_context;
    uint32_t& m_nextRequest;
    std::vector<MpiOperation> m_ops;
};


namespace
{
/// @return the checker of a Bcast or Reduce algorithm
Ptr<const AttributeChecker>
TreeChecker()
{
    return MakeEnumChecker(MpiCollectives::TREE_LINEAR,
                           "Linear",
                           MpiCollectives::TREE_BINOMIAL,
                           "Binomial",
                           MpiCollectives::TREE_HIGH_BIT,
                           "HighBitTree");
}

/// @return the checker of an Alltoall or Alltoallv algorithm
Ptr<const AttributeChecker>
AlltoallChecker()
{
    return MakeEnumChecker(MpiCollectives::ALLTOALL_INTERLEAVED,
                           "Interleaved",
                           MpiCollectives::ALLTOALL_POST_ALL,
                           "PostAll",
                           MpiCollectives::ALLTOALL_POST_ALL_ROTATED,
                           "PostAllRotated",
                           MpiCollectives::ALLTOALL_SEND_ALL_RECV_EACH,
                           "SendAllRecvEach",
                           MpiCollectives::ALLTOALL_WINDOWED,
                           "Windowed");
}

/// Call @p f with the size of each block of @p bytes, blocks of @p block (0: one block).
void
ForEachBlock(uint64_t bytes, uint32_t block, const std::function<void(uint32_t)>& f)
{
    const uint64_t step = block > 0 ? block : UINT32_MAX;
    for (uint64_t done = 0; done < bytes; done += step)
    {
        f(static_cast<uint32_t>(std::min(step, bytes - done)));
    }
}
} // namespace

TypeId
MpiCollectives::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::MpiCollectives")
            .SetParent<Object>()
            .SetGroupName("Clusternet")
            .AddConstructor<MpiCollectives>()
            .AddAttribute("Barrier",
                          "MPI_Barrier's algorithm: Linear (rank 0 receives from any member "
                          "n-1 times, then sends to each in rank order; the others send to 0 "
                          "and receive from it), Pairwise (ranks from the largest power of two "
                          "p up exchange with rank-p first and last; the rest exchange with "
                          "rank XOR 1, 2, 4 ...), HighBitTree (the parent of r is r with its "
                          "highest bit cleared: receive from the children farthest first, send "
                          "to and receive from the parent, send to the children nearest first). "
                          "Default: MPICH 1.1.2-1.2.4's (src/coll/intra_fns.c intra_Barrier).",
                          EnumValue(BARRIER_PAIRWISE),
                          MakeEnumAccessor<BarrierAlgorithm>(&MpiCollectives::m_barrier),
                          MakeEnumChecker(BARRIER_LINEAR,
                                          "Linear",
                                          BARRIER_PAIRWISE,
                                          "Pairwise",
                                          BARRIER_HIGH_BIT,
                                          "HighBitTree"))
            .AddAttribute("Bcast",
                          "MPI_Bcast's algorithm: Linear (the root starts a send to every "
                          "member in rank order, then waits for all), Binomial (the parent of "
                          "relative rank v clears v's lowest set bit; blocking sends to the "
                          "children farthest first), HighBitTree (the parent clears the highest "
                          "bit; blocking sends to the children nearest first). A broadcast of "
                          "0 bytes sends nothing. Default: MPICH-1's (intra_Bcast).",
                          EnumValue(TREE_BINOMIAL),
                          MakeEnumAccessor<TreeAlgorithm>(&MpiCollectives::m_bcast),
                          TreeChecker())
            .AddAttribute("Reduce",
                          "MPI_Reduce's algorithm: Linear (the root receives from each member, "
                          "rank n-1 first, down to 0), Binomial (receive from the children "
                          "nearest first, then send to the parent; relative to the root), "
                          "HighBitTree (as Binomial on the highest-bit tree). A reduction of 0 "
                          "bytes sends nothing. Default: MPICH-1's (intra_Reduce).",
                          EnumValue(TREE_BINOMIAL),
                          MakeEnumAccessor<TreeAlgorithm>(&MpiCollectives::m_reduce),
                          TreeChecker())
            .AddAttribute("Allreduce",
                          "MPI_Allreduce's algorithm: ReduceBcast (Reduce to rank 0, then Bcast "
                          "from it, by this library's Reduce and Bcast) or RecursiveDoubling "
                          "(ranks 2i+1 below twice the excess over the largest power of two "
                          "fold into 2i; the rest exchange the whole vector with rank XOR 1, "
                          "2, 4 ...; the result goes back to the folded ranks). Default: "
                          "MPICH-1's (intra_Allreduce: Reduce, then Bcast).",
                          EnumValue(ALLREDUCE_REDUCE_BCAST),
                          MakeEnumAccessor<AllreduceAlgorithm>(&MpiCollectives::m_allreduce),
                          MakeEnumChecker(ALLREDUCE_REDUCE_BCAST,
                                          "ReduceBcast",
                                          ALLREDUCE_RECURSIVE_DOUBLING,
                                          "RecursiveDoubling"))
            .AddAttribute("Gather",
                          "MPI_Gather's algorithm: Linear (each member sends to the root, "
                          "which receives in rank order) or Trinomial (LA-MPI's order-3 tree "
                          "relative to the root: each node receives its children's subtrees, "
                          "deepest level first, two at a time, then sends its whole subtree's "
                          "data to its parent). Default: MPICH-1's (intra_Gather).",
                          EnumValue(ROOTED_LINEAR),
                          MakeEnumAccessor<RootedAlgorithm>(&MpiCollectives::m_gather),
                          MakeEnumChecker(ROOTED_LINEAR, "Linear", ROOTED_TRINOMIAL, "Trinomial"))
            .AddAttribute("Scatter",
                          "MPI_Scatter's algorithm: Linear (the root sends to each member in "
                          "rank order) or Trinomial (the mirror of Gather's). Default: "
                          "MPICH-1's (intra_Scatter).",
                          EnumValue(ROOTED_LINEAR),
                          MakeEnumAccessor<RootedAlgorithm>(&MpiCollectives::m_scatter),
                          MakeEnumChecker(ROOTED_LINEAR, "Linear", ROOTED_TRINOMIAL, "Trinomial"))
            .AddAttribute("Allgather",
                          "MPI_Allgather's algorithm: Ring (n-1 steps, each a send of one block "
                          "to rank+1 and a receive from rank-1), GatherBcast (Gather to rank 0, "
                          "then Bcast of all n blocks) or RecursiveDoubling (ranks from the "
                          "largest power of two p up hand their block to rank-p; the rest "
                          "exchange all they hold with rank XOR 1, 2, 4 ...; then rank-p sends "
                          "everything back). Default: MPICH-1's (intra_Allgather: a ring).",
                          EnumValue(ALLGATHER_RING),
                          MakeEnumAccessor<AllgatherAlgorithm>(&MpiCollectives::m_allgather),
                          MakeEnumChecker(ALLGATHER_RING,
                                          "Ring",
                                          ALLGATHER_GATHER_BCAST,
                                          "GatherBcast",
                                          ALLGATHER_RECURSIVE_DOUBLING,
                                          "RecursiveDoubling"))
            .AddAttribute("Alltoall",
                          "MPI_Alltoall's algorithm: Interleaved (for each member in rank "
                          "order an irecv, then an isend; then a wait for all), PostAll (irecvs "
                          "from all, then isends to all, in rank order; wait for all), "
                          "PostAllRotated (as PostAll, both loops from rank+1 round), "
                          "SendAllRecvEach (isends to all in rank order, then a receive from "
                          "each in rank order, then the sends' waits; above "
                          "AlltoallGroupsAbove members, in two phases of even and odd ranks), "
                          "Windowed (isends then irecvs at most AlltoallvWindow at a time, "
                          "waited window by window). Default: MPICH-1's (intra_Alltoall).",
                          EnumValue(ALLTOALL_INTERLEAVED),
                          MakeEnumAccessor<AlltoallAlgorithm>(&MpiCollectives::m_alltoall),
                          AlltoallChecker())
            .AddAttribute("Alltoallv",
                          "MPI_Alltoallv's algorithm: as Alltoall's, with each pair's own size "
                          "(zero-byte messages are sent too). Default: MPICH-1's "
                          "(intra_Alltoallv: Interleaved).",
                          EnumValue(ALLTOALL_INTERLEAVED),
                          MakeEnumAccessor<AlltoallAlgorithm>(&MpiCollectives::m_alltoallv),
                          AlltoallChecker())
            .AddAttribute("LinearUpTo",
                          "Communicators of at most this many members run Barrier, Bcast and "
                          "Reduce linearly, whatever the algorithms above say (0: never) "
                          "[members]. Default: MPICH-1 has no such switch.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MpiCollectives::m_linearUpTo),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("BarrierBytes",
                          "Size of a barrier's messages [bytes]. Default: MPICH-1's 0.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MpiCollectives::m_barrierBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("BcastBlock",
                          "A broadcast longer than this goes as one whole broadcast per block "
                          "(0: in one piece) [bytes]. Default: MPICH-1 does not split.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MpiCollectives::m_bcastBlock),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ReduceBlock",
                          "A reduction longer than this goes as one whole reduction per block "
                          "(0: in one piece) [bytes]. Default: MPICH-1 does not split.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MpiCollectives::m_reduceBlock),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("AlltoallvWindow",
                          "Windowed: sends and receives outstanding at once, each way "
                          "[requests].",
                          UintegerValue(50),
                          MakeUintegerAccessor(&MpiCollectives::m_alltoallvWindow),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("AlltoallGroupsAbove",
                          "SendAllRecvEach: communicators of more members than this exchange "
                          "in two phases, even and odd ranks (0: never) [members].",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MpiCollectives::m_alltoallGroupsAbove),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

MpiCollectives::MpiCollectives()
{
    NS_LOG_FUNCTION(this);
}

std::vector<MpiOperation>
MpiCollectives::Expand(const MpiCollective& call,
                       uint32_t worldSize,
                       uint32_t me,
                       int32_t tag,
                       uint32_t& nextRequest) const
{
    std::vector<uint32_t> world;
    const std::vector<uint32_t>* members = &world;
    uint32_t comm = 0;
    if (call.communicator)
    {
        members = &call.communicator->members;
        comm = call.communicator->id;
    }
    else
    {
        for (uint32_t r = 0; r < worldSize; ++r)
        {
            world.push_back(r);
        }
    }
    Member m(*members, me, tag, 2 * comm + 1, nextRequest);
    auto rel = [&members](uint32_t worldRank) -> uint32_t {
        return std::find(members->begin(), members->end(), worldRank) - members->begin();
    };
    if (m.Size() > 1)
    {
        switch (call.op)
        {
        case MpiCollective::BARRIER:
            Barrier(m);
            break;
        case MpiCollective::BCAST:
            Bcast(m, rel(call.root), call.bytes);
            break;
        case MpiCollective::REDUCE:
            Reduce(m, rel(call.root), call.bytes);
            break;
        case MpiCollective::ALLREDUCE:
            Allreduce(m, call.bytes);
            break;
        case MpiCollective::GATHER:
            Gather(m, rel(call.root), call.bytes);
            break;
        case MpiCollective::SCATTER:
            Scatter(m, rel(call.root), call.bytes);
            break;
        case MpiCollective::ALLGATHER:
            Allgather(m, call.bytes);
            break;
        case MpiCollective::ALLTOALL: {
            std::vector<uint32_t> each(m.Size(), call.bytes);
            Alltoallv(m, m_alltoall, each, each);
            break;
        }
        case MpiCollective::ALLTOALLV:
            NS_ABORT_MSG_IF(call.sendBytes.size() != m.Size() ||
                                call.recvBytes.size() != m.Size(),
                            "MpiCollectives: an alltoallv needs a send and a receive size per "
                            "member");
            Alltoallv(m, m_alltoallv, call.sendBytes, call.recvBytes);
            break;
        }
    }
    NS_LOG_LOGIC("rank " << me << ": " << MpiCollective::Name(call.op) << " tag " << tag
                         << " is " << m.Ops().size() << " calls");
    return m.Ops();
}

namespace
{
/// @return the largest power of two at most @p n (n > 0)
uint32_t
FloorPowerOfTwo(uint32_t n)
{
    uint32_t p = 1;
    while (p <= n / 2)
    {
        p *= 2;
    }
    return p;
}

/// @return the highest set bit of @p v (0 for 0)
uint32_t
HighBit(uint32_t v)
{
    return v == 0 ? 0 : FloorPowerOfTwo(v);
}
} // namespace

void
MpiCollectives::Barrier(Member& m) const
{
    const uint32_t n = m.Size();
    const uint32_t me = m.Rank();
    const uint32_t b = m_barrierBytes;
    if (m_barrier == BARRIER_LINEAR || n <= m_linearUpTo)
    {
        if (me == 0)
        {
            for (uint32_t i = 1; i < n; ++i)
            {
                m.RecvAny(b);
            }
            for (uint32_t i = 1; i < n; ++i)
            {
                m.Send(i, b);
            }
        }
        else
        {
            m.Send(0, b);
            m.Recv(0, b);
        }
        return;
    }
    if (m_barrier == BARRIER_HIGH_BIT)
    {
        const uint32_t h = HighBit(me); // the parent is me - h (rank 0: none)
        const uint32_t top = FloorPowerOfTwo(n - 1) * 2; // above every rank's bit
        for (uint32_t bit = top / 2; bit > h && bit > 0; bit /= 2)
        {
            if ((me | bit) < n && (me & bit) == 0 && bit > me)
            {
                m.Recv(me | bit, b);
            }
        }
        if (me > 0)
        {
            m.Send(me - h, b);
            m.Recv(me - h, b);
        }
        for (uint32_t bit = me == 0 ? 1 : h * 2; bit <= top / 2; bit *= 2)
        {
            if ((me | bit) < n && bit > me)
            {
                m.Send(me | bit, b);
            }
        }
        return;
    }
    const uint32_t p = FloorPowerOfTwo(n);
    if (me >= p)
    {
        m.Sendrecv(me - p, b, me - p, b);
        return;
    }
    if (me + p < n)
    {
        m.Recv(me + p, b);
    }
    for (uint32_t d = 1; d < p; d *= 2)
    {
        m.Sendrecv(me ^ d, b, me ^ d, b);
    }
    if (me + p < n)
    {
        m.Send(me + p, b);
    }
}

void
MpiCollectives::Bcast(Member& m, uint32_t root, uint64_t bytes) const
{
    TreeAlgorithm algorithm = m.Size() <= m_linearUpTo ? TREE_LINEAR : m_bcast;
    ForEachBlock(bytes, m_bcastBlock, [&](uint32_t b) { BcastTree(m, algorithm, root, b); });
}

void
MpiCollectives::BcastTree(Member& m, TreeAlgorithm algorithm, uint32_t root, uint32_t bytes)
{
    const uint32_t n = m.Size();
    const uint32_t rel = (m.Rank() + n - root) % n;
    auto abs = [n, root](uint32_t v) { return (v + root) % n; };
    if (algorithm == TREE_LINEAR)
    {
        if (rel != 0)
        {
            m.Recv(root, bytes);
            return;
        }
        std::vector<uint32_t> sends;
        for (uint32_t i = 0; i < n; ++i)
        {
            if (i != root)
            {
                sends.push_back(m.Isend(i, bytes));
            }
        }
        m.Wait(sends);
        return;
    }
    if (algorithm == TREE_HIGH_BIT)
    {
        const uint32_t h = HighBit(rel);
        if (rel > 0)
        {
            m.Recv(abs(rel - h), bytes);
        }
        for (uint32_t bit = rel == 0 ? 1 : h * 2; rel + bit < n; bit *= 2)
        {
            m.Send(abs(rel + bit), bytes);
        }
        return;
    }
    uint32_t mask = 1;
    while (mask < n)
    {
        if (rel & mask)
        {
            m.Recv(abs(rel - mask), bytes);
            break;
        }
        mask *= 2;
    }
    for (mask /= 2; mask > 0; mask /= 2)
    {
        if (rel + mask < n)
        {
            m.Send(abs(rel + mask), bytes);
        }
    }
}

void
MpiCollectives::Reduce(Member& m, uint32_t root, uint64_t bytes) const
{
    TreeAlgorithm algorithm = m.Size() <= m_linearUpTo ? TREE_LINEAR : m_reduce;
    ForEachBlock(bytes, m_reduceBlock, [&](uint32_t b) { ReduceTree(m, algorithm, root, b); });
}

void
MpiCollectives::ReduceTree(Member& m, TreeAlgorithm algorithm, uint32_t root, uint32_t bytes)
{
    const uint32_t n = m.Size();
    const uint32_t rel = (m.Rank() + n - root) % n;
    auto abs = [n, root](uint32_t v) { return (v + root) % n; };
    if (algorithm == TREE_LINEAR)
    {
        if (rel != 0)
        {
            m.Send(root, bytes);
            return;
        }
        for (uint32_t i = n; i-- > 0;)
        {
            if (i != root)
            {
                m.Recv(i, bytes);
            }
        }
        return;
    }
    if (algorithm == TREE_HIGH_BIT)
    {
        // The mirror of the high-bit broadcast: children farthest first, then the parent.
        const uint32_t h = HighBit(rel);
        std::vector<uint32_t> children;
        for (uint32_t bit = rel == 0 ? 1 : h * 2; rel + bit < n; bit *= 2)
        {
            children.push_back(abs(rel + bit));
        }
        for (auto it = children.rbegin(); it != children.rend(); ++it)
        {
            m.Recv(*it, bytes);
        }
        if (rel > 0)
        {
            m.Send(abs(rel - h), bytes);
        }
        return;
    }
    for (uint32_t mask = 1; mask < n; mask *= 2)
    {
        if (rel & mask)
        {
            m.Send(abs(rel - mask), bytes);
            break;
        }
        if (rel + mask < n)
        {
            m.Recv(abs(rel + mask), bytes);
        }
    }
}

void
MpiCollectives::Allreduce(Member& m, uint32_t bytes) const
{
    if (m_allreduce == ALLREDUCE_REDUCE_BCAST)
    {
        Reduce(m, 0, bytes);
        Bcast(m, 0, bytes);
        return;
    }
    const uint32_t n = m.Size();
    const uint32_t me = m.Rank();
    const uint32_t p = FloorPowerOfTwo(n);
    const uint32_t extra = n - p;
    // Ranks 2i+1 (i < extra) fold into 2i; the rest renumber 0..p-1.
    if (me < 2 * extra && me % 2 == 1)
    {
        m.Send(me - 1, bytes);
        m.Recv(me - 1, bytes);
        return;
    }
    if (me < 2 * extra)
    {
        m.Recv(me + 1, bytes);
    }
    const uint32_t v = me < 2 * extra ? me / 2 : me - extra;
    auto real = [extra](uint32_t x) { return x < extra ? 2 * x : x + extra; };
    for (uint32_t mask = 1; mask < p; mask *= 2)
    {
        uint32_t peer = real(v ^ mask);
        m.Sendrecv(peer, bytes, peer, bytes);
    }
    if (me < 2 * extra)
    {
        m.Send(me + 1, bytes);
    }
}

void
MpiCollectives::Gather(Member& m, uint32_t root, uint32_t bytes) const
{
    if (m_gather == ROOTED_TRINOMIAL)
    {
        Trinomial(m, true, root, bytes);
        return;
    }
    if (m.Rank() != root)
    {
        m.Send(root, bytes);
        return;
    }
    for (uint32_t i = 0; i < m.Size(); ++i)
    {
        if (i != root)
        {
            m.Recv(i, bytes);
        }
    }
}

void
MpiCollectives::Scatter(Member& m, uint32_t root, uint32_t bytes) const
{
    if (m_scatter == ROOTED_TRINOMIAL)
    {
        Trinomial(m, false, root, bytes);
        return;
    }
    if (m.Rank() != root)
    {
        m.Recv(root, bytes);
        return;
    }
    for (uint32_t i = 0; i < m.Size(); ++i)
    {
        if (i != root)
        {
            m.Send(i, bytes);
        }
    }
}

void
MpiCollectives::Trinomial(Member& m, bool up, uint32_t root, uint32_t bytes)
{
    const uint32_t n = m.Size();
    const uint32_t node = (m.Rank() + n - root) % n;
    auto abs = [n, root](uint32_t v) { return (v + root) % n; };
    // Level L >= 1 holds nodes first[L] .. 3 first[L] - 1, first[L] = 3^(L-1); node 0 is
    // level 0. A node of level L has two children on every deeper level c: 2 node +
    // first[c] and the one after it. Its parent: (node - first[L]) / 2.
    std::vector<uint64_t> first = {0, 1};
    while (first.back() < n)
    {
        first.push_back(first.back() * 3);
    }
    auto level = [&first](uint64_t v) {
        uint32_t l = 0;
        while (l + 1 < first.size() && first[l + 1] <= v)
        {
            ++l;
        }
        return l;
    };
    // The members below a node, itself included.
    std::function<uint64_t(uint64_t)> subtree = [&](uint64_t v) -> uint64_t {
        uint64_t count = 1;
        for (uint32_t c = level(v) + 1; c < first.size(); ++c)
        {
            for (uint64_t k = 0; k < 2; ++k)
            {
                uint64_t child = 2 * v + first[c] + k;
                count += child < n ? subtree(child) : 0;
            }
        }
        return count;
    };
    auto size = [bytes](uint64_t members) {
        return static_cast<uint32_t>(std::min<uint64_t>(members * bytes, UINT32_MAX));
    };
    // Children by level, shallow first.
    std::vector<std::vector<uint32_t>> children;
    for (uint32_t c = level(node) + 1; c < first.size(); ++c)
    {
        std::vector<uint32_t> pair;
        for (uint64_t k = 0; k < 2; ++k)
        {
            uint64_t child = 2 * uint64_t(node) + first[c] + k;
            if (child < n)
            {
                pair.push_back(static_cast<uint32_t>(child));
            }
        }
        if (!pair.empty())
        {
            children.push_back(pair);
        }
    }
    const uint32_t l = level(node);
    const uint32_t parent = node == 0 ? 0 : static_cast<uint32_t>((node - first[l]) / 2);
    if (up)
    {
        for (auto it = children.rbegin(); it != children.rend(); ++it) // deepest first
        {
            std::vector<uint32_t> requests;
            for (uint32_t child : *it)
            {
                requests.push_back(m.Irecv(abs(child), size(subtree(child))));
            }
            m.Wait(requests);
        }
        if (node != 0)
        {
            m.Send(abs(parent), size(subtree(node)));
        }
        return;
    }
    if (node != 0)
    {
        m.Recv(abs(parent), size(subtree(node)));
    }
    for (const auto& pair : children) // largest subtrees first
    {
        std::vector<uint32_t> requests;
        for (uint32_t child : pair)
        {
            requests.push_back(m.Isend(abs(child), size(subtree(child))));
        }
        m.Wait(requests);
    }
}

void
MpiCollectives::Allgather(Member& m, uint32_t bytes) const
{
    const uint32_t n = m.Size();
    const uint32_t me = m.Rank();
    const uint64_t all = uint64_t(n) * bytes;
    if (m_allgather == ALLGATHER_GATHER_BCAST)
    {
        Gather(m, 0, bytes);
        Bcast(m, 0, all);
        return;
    }
    if (m_allgather == ALLGATHER_RING)
    {
        for (uint32_t step = 1; step < n; ++step)
        {
            m.Sendrecv((me + 1) % n, bytes, (me + n - 1) % n, bytes);
        }
        return;
    }
    if (bytes == 0)
    {
        return; // (LA-MPI skips every message of length 0)
    }
    const uint32_t p = FloorPowerOfTwo(n);
    const uint32_t extra = n - p;
    auto clamp = [](uint64_t b) { return static_cast<uint32_t>(std::min<uint64_t>(b, UINT32_MAX)); };
    if (me >= p)
    {
        m.Wait({m.Isend(me - p, bytes)});
        m.Wait({m.Irecv(me - p, clamp(all))});
        return;
    }
    if (me < extra)
    {
        m.Wait({m.Irecv(me + p, bytes)});
    }
    // Blocks held by the ranks [s, s + width): one each, two for those with a folded partner.
    auto held = [extra](uint32_t s, uint32_t width) {
        uint32_t folded = s >= extra ? 0 : std::min(extra, s + width) - s;
        return uint64_t(width) + folded;
    };
    for (uint32_t mask = 1; mask < p; mask *= 2)
    {
        uint32_t peer = me ^ mask;
        uint32_t mine = me & ~(mask - 1);
        uint32_t theirs = peer & ~(mask - 1);
        uint32_t s = m.Isend(peer, clamp(held(mine, mask) * bytes));
        uint32_t r = m.Irecv(peer, clamp(held(theirs, mask) * bytes));
        m.Wait({r, s});
    }
    if (me < extra)
    {
        m.Wait({m.Isend(me + p, clamp(all))});
    }
}

void
MpiCollectives::Alltoallv(Member& m,
                          AlltoallAlgorithm algorithm,
                          const std::vector<uint32_t>& sendBytes,
                          const std::vector<uint32_t>& recvBytes) const
{
    const uint32_t n = m.Size();
    const uint32_t me = m.Rank();
    std::vector<uint32_t> requests;
    switch (algorithm)
    {
    case ALLTOALL_INTERLEAVED:
        for (uint32_t i = 0; i < n; ++i)
        {
            if (i != me)
            {
                requests.push_back(m.Irecv(i, recvBytes[i]));
                requests.push_back(m.Isend(i, sendBytes[i]));
            }
        }
        m.Wait(requests);
        return;
    case ALLTOALL_POST_ALL:
    case ALLTOALL_POST_ALL_ROTATED: {
        const uint32_t first = algorithm == ALLTOALL_POST_ALL_ROTATED ? me + 1 : 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            uint32_t from = (first + i) % n;
            if (from != me)
            {
                requests.push_back(m.Irecv(from, recvBytes[from]));
            }
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            uint32_t to = (first + i) % n;
            if (to != me)
            {
                requests.push_back(m.Isend(to, sendBytes[to]));
            }
        }
        m.Wait(requests);
        return;
    }
    case ALLTOALL_SEND_ALL_RECV_EACH: {
        const uint32_t groups = m_alltoallGroupsAbove > 0 && n > m_alltoallGroupsAbove ? 2 : 1;
        uint32_t dest = me % groups;
        uint32_t src = me % groups;
        for (uint32_t phase = 0; phase < groups; ++phase)
        {
            std::vector<uint32_t> sends;
            for (uint32_t i = dest; i < n; i += groups)
            {
                if (i != me)
                {
                    sends.push_back(m.Isend(i, sendBytes[i]));
                }
            }
            for (uint32_t i = src; i < n; i += groups)
            {
                if (i != me)
                {
                    m.Wait({m.Irecv(i, recvBytes[i])});
                }
            }
            m.Wait(sends);
            dest = (dest + 1) % groups;
            src = (src + groups - 1) % groups;
        }
        return;
    }
    case ALLTOALL_WINDOWED: {
        // Sends go to the ranks from the start of this rank's window of W ranks upward and
        // round; at most W sends and W receives are outstanding. The first window's sends are
        // posted, then its receives; then each further pair waits for the oldest pair. LA-MPI
        // refills a slot when its request completes, in whatever order they do, and posts its
        // receives from its window's start upward, then downward; a program in a fixed order
        // takes the receives in the order their senders send to this rank (for one window,
        // rank order, as LA-MPI), which never waits for a send that waits for it.
        const uint32_t w = m_alltoallvWindow;
        auto sendsOf = [n, w](uint32_t rank) {
            std::vector<uint32_t> peers;
            const uint32_t start = rank / w * w;
            for (uint32_t i = 0; i < n; ++i)
            {
                if ((start + i) % n != rank)
                {
                    peers.push_back((start + i) % n);
                }
            }
            return peers;
        };
        const std::vector<uint32_t> sends = sendsOf(me);
        std::vector<std::pair<uint32_t, uint32_t>> order; // (position in its sends, source)
        for (uint32_t x = 0; x < n; ++x)
        {
            if (x != me)
            {
                const uint32_t start = x / w * w;
                uint32_t position = (me + n - start) % n;
                position -= (x + n - start) % n < position ? 1 : 0;
                order.emplace_back(position, x);
            }
        }
        std::sort(order.begin(), order.end());
        const std::size_t total = sends.size();
        std::vector<uint32_t> sendReq(total);
        std::vector<uint32_t> recvReq(total);
        const std::size_t first = std::min<std::size_t>(w, total);
        for (std::size_t k = 0; k < first; ++k)
        {
            sendReq[k] = m.Isend(sends[k], sendBytes[sends[k]]);
        }
        for (std::size_t k = 0; k < first; ++k)
        {
            recvReq[k] = m.Irecv(order[k].second, recvBytes[order[k].second]);
        }
        for (std::size_t k = first; k < total; ++k)
        {
            m.Wait({recvReq[k - w], sendReq[k - w]});
            sendReq[k] = m.Isend(sends[k], sendBytes[sends[k]]);
            recvReq[k] = m.Irecv(order[k].second, recvBytes[order[k].second]);
        }
        for (std::size_t k = total - first; k < total; ++k)
        {
            m.Wait({recvReq[k], sendReq[k]});
        }
        return;
    }
    }
}

} // namespace clusternet
} // namespace ns3
