// SPDX-License-Identifier: GPL-2.0-only
//
// The collective algorithms TestSuite: each algorithm's calls, per rank, for 2, 3, 8 and 9
// ranks, against call orders written out by hand from the libraries' sources (MPICH 1.1.2
// intra_fns.c, LAM's lam_basic, LA-MPI 1.4 src/collective); and a symbolic run of all ranks'
// calls that counts the messages (formulas worked out by hand) and checks that every receive
// gets a message of its size and nothing is left over.

#include "ns3/clusternet-module.h"
#include "ns3/core-module.h"
#include "ns3/test.h"

#include <deque>
#include <map>
#include <sstream>

using namespace ns3;
using namespace ns3::clusternet;

namespace
{

using Op = MpiOperation;

/// The calls as a compact string: s/r blocking send/receive, S/R isend/irecv, w wait; the
/// peer; with @p bytes ":size" after each message call. A receive from any source is "r*".
std::string
Show(const std::vector<Op>& ops, bool bytes)
{
    std::ostringstream os;
    for (const Op& op : ops)
    {
        os << (os.tellp() > 0 ? " " : "");
        switch (op.kind)
        {
        case Op::SEND:
            os << "s";
            break;
        case Op::RECV:
            os << "r";
            break;
        case Op::ISEND:
            os << "S";
            break;
        case Op::IRECV:
            os << "R";
            break;
        case Op::WAIT:
            os << "w";
            continue;
        default:
            os << "?";
            continue;
        }
        os << (op.peer < 0 ? std::string("*") : std::to_string(op.peer));
        if (bytes)
        {
            os << ":" << op.bytes;
        }
    }
    return os.str();
}

/// A collectives object with @p attributes ("Name=Value" pairs) set.
Ptr<MpiCollectives>
Make(const std::map<std::string, std::string>& attributes)
{
    Ptr<MpiCollectives> c = CreateObject<MpiCollectives>();
    for (const auto& [name, value] : attributes)
    {
        c->SetAttribute(name, StringValue(value));
    }
    return c;
}

/// A collective call on MPI_COMM_WORLD.
MpiCollective
Call(MpiCollective::Op op, uint32_t bytes = 0, uint32_t root = 0)
{
    MpiCollective c;
    c.op = op;
    c.bytes = bytes;
    c.root = root;
    return c;
}

/// Rank @p rank's calls of @p call in a world of @p n.
std::string
Calls(Ptr<MpiCollectives> algorithms, MpiCollective call, uint32_t n, uint32_t rank,
      bool bytes = false)
{
    if (call.op == MpiCollective::ALLTOALLV && call.sendBytes.empty())
    {
        call.sendBytes.assign(n, call.bytes);
        call.recvBytes.assign(n, call.bytes);
    }
    uint32_t request = MpiProgram::kLibraryRequests;
    return Show(algorithms->Expand(call, n, rank, 7, request), bytes);
}

/**
 * Run every rank's calls of @p call symbolically: sends are buffered (never block), a receive
 * takes the oldest message from its source (any source: the lowest rank with one waiting),
 * an irecv is matched at its wait. @return "" or what went wrong; @p messages: messages sent
 */
std::string
Symbolic(Ptr<MpiCollectives> algorithms, MpiCollective call, uint32_t n, uint32_t& messages)
{
    std::vector<std::vector<Op>> ops(n);
    for (uint32_t r = 0; r < n; ++r)
    {
        MpiCollective c = call;
        if (c.op == MpiCollective::ALLTOALLV)
        {
            // rank r sends (r + j + 1) * 10 bytes to j; so j receives (i + j + 1) * 10 from i
            for (uint32_t j = 0; j < n; ++j)
            {
                c.sendBytes.push_back((r + j + 1) * 10);
                c.recvBytes.push_back((r + j + 1) * 10);
            }
        }
        uint32_t request = MpiProgram::kLibraryRequests;
        ops[r] = algorithms->Expand(c, n, r, 7, request);
    }
    std::map<std::pair<uint32_t, uint32_t>, std::deque<uint32_t>> channel; // (src, dst)
    std::vector<std::size_t> pc(n, 0);
    std::vector<std::map<uint32_t, const Op*>> irecvs(n);
    messages = 0;
    auto take = [&](uint32_t r, int32_t from, uint32_t bytes, std::string& err) {
        for (uint32_t s = 0; s < n; ++s)
        {
            if ((from >= 0 && s != uint32_t(from)) || channel[{s, r}].empty())
            {
                continue;
            }
            if (channel[{s, r}].front() != bytes)
            {
                err = "rank " + std::to_string(r) + " receives " + std::to_string(bytes) +
                      " bytes from " + std::to_string(s) + ", which sent " +
                      std::to_string(channel[{s, r}].front());
            }
            channel[{s, r}].pop_front();
            return true;
        }
        return false;
    };
    for (bool progress = true; progress;)
    {
        progress = false;
        for (uint32_t r = 0; r < n; ++r)
        {
            while (pc[r] < ops[r].size())
            {
                const Op& op = ops[r][pc[r]];
                std::string err;
                bool done = true;
                if (op.kind == Op::SEND || op.kind == Op::ISEND)
                {
                    channel[{r, uint32_t(op.peer)}].push_back(op.bytes);
                    ++messages;
                }
                else if (op.kind == Op::RECV)
                {
                    done = take(r, op.peer, op.bytes, err);
                }
                else if (op.kind == Op::IRECV)
                {
                    irecvs[r][op.request] = &op;
                }
                else if (op.kind == Op::WAIT && irecvs[r].count(op.request))
                {
                    const Op* recv = irecvs[r][op.request];
                    done = take(r, recv->peer, recv->bytes, err);
                    if (done)
                    {
                        irecvs[r].erase(op.request);
                    }
                }
                if (!err.empty())
                {
                    return err;
                }
                if (!done)
                {
                    break;
                }
                ++pc[r];
                progress = true;
            }
        }
    }
    for (uint32_t r = 0; r < n; ++r)
    {
        if (pc[r] < ops[r].size())
        {
            return "rank " + std::to_string(r) + " blocks at call " + std::to_string(pc[r]);
        }
    }
    for (const auto& [key, q] : channel)
    {
        if (!q.empty())
        {
            return "a message from " + std::to_string(key.first) + " to " +
                   std::to_string(key.second) + " is never received";
        }
    }
    return "";
}

/**
 * Each algorithm's calls, rank by rank, for 2, 3, 8 and 9 ranks; its message count in a
 * symbolic run of all ranks.
 */
class MpiCollectiveAlgorithmsTestCase : public TestCase
{
  public:
    MpiCollectiveAlgorithmsTestCase()
        : TestCase("MPI collective algorithms: each rank's calls and the messages, 2, 3, 8, 9 ranks")
    {
    }

  private:
    /// Check the symbolic run of @p call under @p c for each n against @p count(n).
    void Count(Ptr<MpiCollectives> c,
               MpiCollective call,
               const std::function<uint32_t(uint32_t)>& count,
               const std::string& what)
    {
        for (uint32_t n : {2u, 3u, 8u, 9u})
        {
            uint32_t messages = 0;
            NS_TEST_EXPECT_MSG_EQ(Symbolic(c, call, n, messages), "", what << " n=" << n);
            NS_TEST_EXPECT_MSG_EQ(messages, count(n), what << " messages, n=" << n);
        }
    }

    void DoRun() override
    {
        using C = MpiCollective;
        auto pairwise = [](uint32_t n) {
            uint32_t p = n >= 8 ? 8 : n >= 2 ? 2 : 1;
            uint32_t logp = p == 8 ? 3 : p == 2 ? 1 : 0;
            return p * logp + 2 * (n - p);
        };
        auto twice = [](uint32_t n) { return 2 * (n - 1); };
        auto once = [](uint32_t n) { return n - 1; };
        auto all = [](uint32_t n) { return n * (n - 1); };

        // MPICH 1.1.2-1.2.4 (the attribute defaults).
        Ptr<MpiCollectives> mpich = Make({});
        NS_TEST_EXPECT_MSG_EQ(Calls(mpich, Call(C::BARRIER), 9, 0),
                              "r8 R1 S1 w w R2 S2 w w R4 S4 w w s8", "mpich barrier 9/0");
        NS_TEST_EXPECT_MSG_EQ(Calls(mpich, Call(C::BARRIER), 9, 8), "R0 S0 w w", "9/8");
        NS_TEST_EXPECT_MSG_EQ(Calls(mpich, Call(C::BARRIER), 9, 5),
                              "R4 S4 w w R7 S7 w w R1 S1 w w", "9/5");
        NS_TEST_EXPECT_MSG_EQ(Calls(mpich, Call(C::BARRIER), 8, 3),
                              "R2 S2 w w R1 S1 w w R7 S7 w w", "8/3");
        NS_TEST_EXPECT_MSG_EQ(Calls(mpich, Call(C::BARRIER), 3, 0), "r2 R1 S1 w w s2", "3/0");
        NS_TEST_EXPECT_MSG_EQ(Calls(mpich, Call(C::BARRIER), 3, 2), "R0 S0 w w", "3/2");
        NS_TEST_EXPECT_MSG_EQ(Calls(mpich, Call(C::BARRIER), 2, 1), "R0 S0 w w", "2/1");
        Count(mpich, Call(C::BARRIER), pairwise, "mpich barrier");

        NS_TEST_EXPECT_MSG_EQ(Calls(mpich, Call(C::BCAST, 64), 9, 0), "s8 s4 s2 s1", "bcast");
        NS_TEST_EXPECT_MSG_EQ(Calls(mpich, Call(C::BCAST, 64), 9, 5), "r4", "bcast 9/5");
        NS_TEST_EXPECT_MSG_EQ(Calls(mpich, Call(C::BCAST, 64), 9, 4), "r0 s6 s5", "bcast 9/4");
        NS_TEST_EXPECT_MSG_EQ(Calls(mpich, Call(C::BCAST, 64, 3), 9, 3), "s2 s7 s5 s4", "root 3");
        NS_TEST_EXPECT_MSG_EQ(Calls(mpich, Call(C::BCAST, 64, 3), 9, 2), "r3", "root 3, 2");
        NS_TEST_EXPECT_MSG_EQ(Calls(mpich, Call(C::BCAST, 64), 3, 0), "s2 s1", "bcast 3/0");
        NS_TEST_EXPECT_MSG_EQ(Calls(mpich, Call(C::BCAST, 64), 8, 6), "r4 s7", "bcast 8/6");
        NS_TEST_EXPECT_MSG_EQ(Calls(mpich, Call(C::BCAST, 0), 8, 0), "", "0 bytes: nothing");
        Count(mpich, Call(C::BCAST, 64, 1), once, "mpich bcast");

        NS_TEST_EXPECT_MSG_EQ(Calls(mpich, Call(C::REDUCE, 8), 9, 0), "r1 r2 r4 r8", "reduce");
        NS_TEST_EXPECT_MSG_EQ(Calls(mpich, Call(C::REDUCE, 8), 9, 6), "r7 s4", "reduce 9/6");
        NS_TEST_EXPECT_MSG_EQ(Calls(mpich, Call(C::REDUCE, 8), 9, 8), "s0", "reduce 9/8");
        NS_TEST_EXPECT_MSG_EQ(Calls(mpich, Call(C::REDUCE, 8), 2, 1), "s0", "reduce 2/1");
        Count(mpich, Call(C::REDUCE, 8, 1), once, "mpich reduce");

        NS_TEST_EXPECT_MSG_EQ(Calls(mpich, Call(C::ALLREDUCE, 8), 3, 0), "r1 r2 s2 s1", "3/0");
        NS_TEST_EXPECT_MSG_EQ(Calls(mpich, Call(C::ALLREDUCE, 8), 3, 1), "s0 r0", "3/1");
        NS_TEST_EXPECT_MSG_EQ(Calls(mpich, Call(C::ALLREDUCE, 8), 3, 2), "s0 r0", "3/2");
        Count(mpich, Call(C::ALLREDUCE, 8), twice, "mpich allreduce");

        NS_TEST_EXPECT_MSG_EQ(Calls(mpich, Call(C::GATHER, 8, 2), 3, 2), "r0 r1", "gather");
        NS_TEST_EXPECT_MSG_EQ(Calls(mpich, Call(C::GATHER, 8, 2), 3, 0), "s2", "gather 3/0");
        NS_TEST_EXPECT_MSG_EQ(Calls(mpich, Call(C::SCATTER, 8), 3, 0), "s1 s2", "scatter");
        Count(mpich, Call(C::GATHER, 8, 1), once, "mpich gather");
        Count(mpich, Call(C::SCATTER, 8, 1), once, "mpich scatter");

        NS_TEST_EXPECT_MSG_EQ(Calls(mpich, Call(C::ALLGATHER, 8), 3, 0),
                              "R2 S1 w w R2 S1 w w", "allgather ring");
        Count(mpich, Call(C::ALLGATHER, 8), all, "mpich allgather");
        NS_TEST_EXPECT_MSG_EQ(Calls(mpich, Call(C::ALLTOALL, 8), 3, 1),
                              "R0 S0 R2 S2 w w w w", "alltoall interleaved");
        Count(mpich, Call(C::ALLTOALL, 8), all, "mpich alltoall");
        Count(mpich, Call(C::ALLTOALLV), all, "mpich alltoallv");

        // LAM 6.5 (lam_basic): linear up to 4 ranks, trees beyond.
        Ptr<MpiCollectives> lam = Make({{"Barrier", "HighBitTree"},
                                        {"LinearUpTo", "4"},
                                        {"Allgather", "GatherBcast"},
                                        {"Alltoall", "PostAllRotated"},
                                        {"Alltoallv", "PostAll"}});
        NS_TEST_EXPECT_MSG_EQ(Calls(lam, Call(C::BARRIER), 3, 0), "r* r* s1 s2", "lam lin 3/0");
        NS_TEST_EXPECT_MSG_EQ(Calls(lam, Call(C::BARRIER), 3, 1), "s0 r0", "lam lin 3/1");
        NS_TEST_EXPECT_MSG_EQ(Calls(lam, Call(C::BARRIER), 9, 0),
                              "r8 r4 r2 r1 s1 s2 s4 s8", "lam log 9/0");
        NS_TEST_EXPECT_MSG_EQ(Calls(lam, Call(C::BARRIER), 9, 1), "r5 r3 s0 r0 s3 s5", "9/1");
        NS_TEST_EXPECT_MSG_EQ(Calls(lam, Call(C::BARRIER), 9, 2), "r6 s0 r0 s6", "9/2");
        NS_TEST_EXPECT_MSG_EQ(Calls(lam, Call(C::BARRIER), 9, 6), "s2 r2", "9/6");
        NS_TEST_EXPECT_MSG_EQ(Calls(lam, Call(C::BARRIER), 9, 8), "s0 r0", "9/8");
        NS_TEST_EXPECT_MSG_EQ(Calls(lam, Call(C::BARRIER), 8, 0), "r4 r2 r1 s1 s2 s4", "8/0");
        NS_TEST_EXPECT_MSG_EQ(Calls(lam, Call(C::BARRIER), 8, 3), "r7 s1 r1 s7", "8/3");
        Count(lam, Call(C::BARRIER), twice, "lam barrier");
        NS_TEST_EXPECT_MSG_EQ(Calls(lam, Call(C::BCAST, 64), 3, 0), "S1 S2 w w", "lam bcast lin");
        NS_TEST_EXPECT_MSG_EQ(Calls(lam, Call(C::BCAST, 64), 3, 2), "r0", "lam bcast lin 3/2");
        NS_TEST_EXPECT_MSG_EQ(Calls(lam, Call(C::BCAST, 64), 9, 0), "s8 s4 s2 s1", "lam log");
        Count(lam, Call(C::BCAST, 64, 1), once, "lam bcast");
        NS_TEST_EXPECT_MSG_EQ(Calls(lam, Call(C::REDUCE, 8), 3, 0), "r2 r1", "lam reduce lin");
        NS_TEST_EXPECT_MSG_EQ(Calls(lam, Call(C::REDUCE, 8, 1), 3, 1), "r2 r0", "root 1");
        NS_TEST_EXPECT_MSG_EQ(Calls(lam, Call(C::REDUCE, 8), 9, 0), "r1 r2 r4 r8", "lam log");
        Count(lam, Call(C::REDUCE, 8, 1), once, "lam reduce");
        NS_TEST_EXPECT_MSG_EQ(Calls(lam, Call(C::ALLGATHER, 8), 3, 0, true),
                              "r1:8 r2:8 S1:24 S2:24 w w", "lam allgather 3/0");
        NS_TEST_EXPECT_MSG_EQ(Calls(lam, Call(C::ALLGATHER, 8), 3, 1, true), "s0:8 r0:24", "3/1");
        NS_TEST_EXPECT_MSG_EQ(Calls(lam, Call(C::ALLGATHER, 8), 9, 0, true),
                              "r1:8 r2:8 r3:8 r4:8 r5:8 r6:8 r7:8 r8:8 s8:72 s4:72 s2:72 s1:72",
                              "lam allgather 9/0");
        Count(lam, Call(C::ALLGATHER, 8), twice, "lam allgather");
        NS_TEST_EXPECT_MSG_EQ(Calls(lam, Call(C::ALLTOALL, 8), 3, 1),
                              "R2 R0 S2 S0 w w w w", "lam alltoall rotated");
        NS_TEST_EXPECT_MSG_EQ(Calls(lam, Call(C::ALLTOALLV, 8), 3, 1),
                              "R0 R2 S0 S2 w w w w", "lam alltoallv plain");
        Count(lam, Call(C::ALLTOALL, 8), all, "lam alltoall");
        Count(lam, Call(C::ALLTOALLV), all, "lam alltoallv");

        // LA-MPI 1.4, one process per host.
        Ptr<MpiCollectives> lampi = Make({{"BarrierBytes", "4"},
                                          {"Bcast", "HighBitTree"},
                                          {"BcastBlock", "131072"},
                                          {"ReduceBlock", "1048576"},
                                          {"Gather", "Trinomial"},
                                          {"Scatter", "Trinomial"},
                                          {"Allgather", "RecursiveDoubling"},
                                          {"Alltoall", "SendAllRecvEach"},
                                          {"AlltoallGroupsAbove", "100"},
                                          {"Alltoallv", "Windowed"}});
        NS_TEST_EXPECT_MSG_EQ(Calls(lampi, Call(C::BARRIER), 3, 0, true),
                              "r2:4 R1:4 S1:4 w w s2:4", "lampi barrier");
        Count(lampi, Call(C::BARRIER), pairwise, "lampi barrier");
        NS_TEST_EXPECT_MSG_EQ(Calls(lampi, Call(C::BCAST, 64), 9, 0), "s1 s2 s4 s8", "high bit");
        NS_TEST_EXPECT_MSG_EQ(Calls(lampi, Call(C::BCAST, 64), 9, 1), "r0 s3 s5", "9/1");
        NS_TEST_EXPECT_MSG_EQ(Calls(lampi, Call(C::BCAST, 64), 9, 3), "r1 s7", "9/3");
        NS_TEST_EXPECT_MSG_EQ(Calls(lampi, Call(C::BCAST, 64), 9, 8), "r0", "9/8");
        NS_TEST_EXPECT_MSG_EQ(Calls(lampi, Call(C::BCAST, 64), 3, 1), "r0", "3/1");
        NS_TEST_EXPECT_MSG_EQ(Calls(lampi, Call(C::BCAST, 64, 2), 3, 2), "s0 s1", "root 2");
        NS_TEST_EXPECT_MSG_EQ(Calls(lampi, Call(C::BCAST, 300000), 2, 0, true),
                              "s1:131072 s1:131072 s1:37856", "128 KB blocks");
        Count(lampi, Call(C::BCAST, 64, 1), once, "lampi bcast");
        NS_TEST_EXPECT_MSG_EQ(Calls(lampi, Call(C::REDUCE, 3145729), 2, 0, true),
                              "r1:1048576 r1:1048576 r1:1048576 r1:1", "1 MB blocks");
        Count(lampi, Call(C::ALLREDUCE, 8), twice, "lampi allreduce");
        NS_TEST_EXPECT_MSG_EQ(Calls(lampi, Call(C::GATHER, 8), 9, 0, true),
                              "R3:8 R4:8 w w R1:24 R2:24 w w", "trinomial gather 9/0");
        NS_TEST_EXPECT_MSG_EQ(Calls(lampi, Call(C::GATHER, 8), 9, 1, true),
                              "R5:8 R6:8 w w s0:24", "trinomial gather 9/1");
        NS_TEST_EXPECT_MSG_EQ(Calls(lampi, Call(C::GATHER, 8), 9, 5, true), "s1:8", "9/5");
        NS_TEST_EXPECT_MSG_EQ(Calls(lampi, Call(C::GATHER, 8, 4), 9, 4, true),
                              "R7:8 R8:8 w w R5:24 R6:24 w w", "trinomial gather at root 4");
        NS_TEST_EXPECT_MSG_EQ(Calls(lampi, Call(C::GATHER, 8), 8, 2, true), "R7:8 w s0:16", "8/2");
        NS_TEST_EXPECT_MSG_EQ(Calls(lampi, Call(C::GATHER, 8), 3, 0, true), "R1:8 R2:8 w w", "3");
        NS_TEST_EXPECT_MSG_EQ(Calls(lampi, Call(C::GATHER, 8), 2, 1, true), "s0:8", "2/1");
        Count(lampi, Call(C::GATHER, 8, 1), once, "lampi gather");
        NS_TEST_EXPECT_MSG_EQ(Calls(lampi, Call(C::SCATTER, 8), 9, 0, true),
                              "S1:24 S2:24 w w S3:8 S4:8 w w", "trinomial scatter 9/0");
        NS_TEST_EXPECT_MSG_EQ(Calls(lampi, Call(C::SCATTER, 8), 9, 1, true),
                              "r0:24 S5:8 S6:8 w w", "trinomial scatter 9/1");
        Count(lampi, Call(C::SCATTER, 8, 1), once, "lampi scatter");
        NS_TEST_EXPECT_MSG_EQ(Calls(lampi, Call(C::ALLGATHER, 8), 9, 0, true),
                              "R8:8 w S1:16 R1:8 w w S2:24 R2:16 w w S4:40 R4:32 w w S8:72 w",
                              "recursive doubling allgather 9/0");
        NS_TEST_EXPECT_MSG_EQ(Calls(lampi, Call(C::ALLGATHER, 8), 9, 8, true),
                              "S0:8 w R0:72 w", "9/8");
        NS_TEST_EXPECT_MSG_EQ(Calls(lampi, Call(C::ALLGATHER, 8), 9, 5, true),
                              "S4:8 R4:8 w w S7:16 R7:16 w w S1:32 R1:40 w w", "9/5");
        NS_TEST_EXPECT_MSG_EQ(Calls(lampi, Call(C::ALLGATHER, 8), 3, 0, true),
                              "R2:8 w S1:16 R1:8 w w S2:24 w", "3/0");
        NS_TEST_EXPECT_MSG_EQ(Calls(lampi, Call(C::ALLGATHER, 8), 3, 1, true),
                              "S0:8 R0:16 w w", "3/1");
        Count(lampi, Call(C::ALLGATHER, 8), pairwise, "lampi allgather");
        NS_TEST_EXPECT_MSG_EQ(Calls(lampi, Call(C::ALLTOALL, 8), 3, 1),
                              "S0 S2 R0 w R2 w w w", "send all, receive each");
        Count(lampi, Call(C::ALLTOALL, 8), all, "lampi alltoall");
        Ptr<MpiCollectives> grouped = Make({{"Alltoall", "SendAllRecvEach"},
                                            {"AlltoallGroupsAbove", "2"}});
        NS_TEST_EXPECT_MSG_EQ(Calls(grouped, Call(C::ALLTOALL, 8), 3, 0),
                              "S2 R2 w w S1 R1 w w", "two groups");
        Count(grouped, Call(C::ALLTOALL, 8), all, "grouped alltoall");
        NS_TEST_EXPECT_MSG_EQ(Calls(lampi, Call(C::ALLTOALLV, 8), 3, 1),
                              "S0 S2 R0 R2 w w w w", "one window");
        Ptr<MpiCollectives> narrow = Make({{"Alltoallv", "Windowed"}, {"AlltoallvWindow", "1"}});
        // Windows of one: rank 1 sends to 2, then 0; rank 0 sends to 1 first, rank 2 to 0 first
        // then 1, so rank 1 receives from 0, then 2.
        NS_TEST_EXPECT_MSG_EQ(Calls(narrow, Call(C::ALLTOALLV, 8), 3, 1),
                              "S2 R0 w w S0 R2 w w", "windows of one from rank 1");
        Ptr<MpiCollectives> two = Make({{"Alltoallv", "Windowed"}, {"AlltoallvWindow", "2"}});
        // n = 9, windows of two: rank 4 sends to 5, 6, 7, 8, 0, 1, 2, 3. Where it stands in
        // each sender's list: 5 (from 4): 0; 2, 3 (from 2): 1; 0, 1 (from 0): 3; 8 (from 8,
        // 0 1 2 3 4): 4; 6, 7 (from 6): 6. Receives in that order, ties by rank.
        NS_TEST_EXPECT_MSG_EQ(Calls(two, Call(C::ALLTOALLV, 8), 9, 4),
                              "S5 S6 R5 R2 w w S7 R3 w w S8 R0 w w S0 R1 w w S1 R8 w w S2 R6 w w "
                              "S3 R7 w w w w",
                              "sliding windows of two");
        Count(two, Call(C::ALLTOALLV), all, "windows of two");
        Count(lampi, Call(C::ALLTOALLV), all, "lampi alltoallv");
        Count(narrow, Call(C::ALLTOALLV), all, "narrow alltoallv");

        // Recursive-doubling allreduce (MPICH2's; no profile of the era uses it).
        Ptr<MpiCollectives> rd = Make({{"Allreduce", "RecursiveDoubling"}});
        NS_TEST_EXPECT_MSG_EQ(Calls(rd, Call(C::ALLREDUCE, 8), 3, 0), "r1 R2 S2 w w s1", "3/0");
        NS_TEST_EXPECT_MSG_EQ(Calls(rd, Call(C::ALLREDUCE, 8), 3, 1), "s0 r0", "3/1");
        Count(rd, Call(C::ALLREDUCE, 8), pairwise, "recursive doubling allreduce");

        // A sub-communicator: world ranks 4, 1, 6 as its ranks 0, 1, 2.
        auto comm = std::make_shared<MpiCommunicator>();
        comm->id = 3;
        comm->members = {4, 1, 6};
        MpiCollective sub = Call(C::BCAST, 64, 4);
        sub.communicator = comm;
        NS_TEST_EXPECT_MSG_EQ(Calls(mpich, sub, 8, 4), "s6 s1", "sub-communicator root");
        NS_TEST_EXPECT_MSG_EQ(Calls(mpich, sub, 8, 6), "r4", "sub-communicator leaf");
        uint32_t request = MpiProgram::kLibraryRequests;
        std::vector<Op> ops = mpich->Expand(sub, 8, 4, 7, request);
        NS_TEST_EXPECT_MSG_EQ(ops.at(0).context, 2 * 3 + 1, "the communicator's collective context");
        NS_TEST_EXPECT_MSG_EQ(ops.at(0).tag, 7, "the call's tag");
    }
};

/// The collective algorithms TestSuite.
class MpiCollectivesTestSuite : public TestSuite
{
  public:
    MpiCollectivesTestSuite()
        : TestSuite("clusternet-mpi-collectives", Type::UNIT)
    {
        AddTestCase(new MpiCollectiveAlgorithmsTestCase, TestCase::Duration::QUICK);
    }
};

/// The suite's instance.
static MpiCollectivesTestSuite g_mpiCollectivesTestSuite;

} // namespace
