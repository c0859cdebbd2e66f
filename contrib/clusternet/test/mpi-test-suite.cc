// SPDX-License-Identifier: GPL-2.0-only
//
// MPI protocol engine TestSuite. Most cases run the engine over a test transport that
// delivers every packet a fixed time after it is sent, in order per pair, and logs it, so the
// expected orderings and times follow from the protocol rules alone; one case runs over ns-3
// TCP between two Gigabit Ethernet hosts.

#include "ns3/clusternet-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/test.h"

using namespace ns3;
using namespace ns3::clusternet;

namespace
{

/// Run the simulator until every rank of @p ranks is done (or @p limit), as a program does.
/// @return "" or the deadlock report (MpiJob::Blocked)
std::string
RunJob(const std::vector<Ptr<MpiRank>>& ranks, Time limit = Seconds(3600))
{
    if (MpiJob::StopWhenDone(ranks, limit))
    {
        Simulator::Run();
    }
    return MpiJob::Blocked(ranks);
}


/// One packet a TestTransport carried.
struct LoggedPacket
{
    MpiEnvelope envelope;
    Time sent;
};

/**
 * A transport for engine tests: a packet arrives @c delay after it is sent (after the
 * previous one of the same pair), and the sender goes on at once.
 */
class TestTransport : public MpiTransport
{
  public:
    std::vector<Ptr<TestTransport>>* peers{nullptr};
    std::vector<LoggedPacket>* log{nullptr};
    Time delay{MicroSeconds(10)};

    /// The job gives its peers (TestJob), not MpiHelper.
    void SetPeers(const std::vector<Ptr<MpiTransport>>&) override
    {
    }

    void Send(const MpiEnvelope& e, uint32_t, std::function<void()> written) override
    {
        log->push_back({e, Simulator::Now()});
        Ptr<TestTransport> peer = (*peers)[e.dst];
        Simulator::Schedule(delay, [peer, e]() { peer->Arrive(e); });
        if (written)
        {
            Simulator::ScheduleNow(written);
        }
    }

    void Arrive(const MpiEnvelope& e)
    {
        Deliver(e);
    }
};

/// A job of ranks on nodes without host costs, over TestTransports.
struct TestJob
{
    NodeContainer nodes;
    std::vector<Ptr<TestTransport>> transports;
    std::vector<Ptr<MpiRank>> ranks;
    std::vector<LoggedPacket> log;
    /// (receiving rank, source, tag, bytes) of each completed receive, in completion order
    std::vector<std::tuple<uint32_t, uint32_t, int32_t, uint32_t>> received;

    TestJob(const std::vector<std::vector<MpiOperation>>& programs, MpiHelper& profile)
    {
        uint32_t n = programs.size();
        nodes.Create(n);
        for (uint32_t i = 0; i < n; ++i)
        {
            Ptr<TestTransport> t = CreateObject<TestTransport>();
            t->peers = &transports;
            t->log = &log;
            transports.push_back(t);
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            Ptr<MpiRank> r = profile.CreateRank();
            r->SetRank(i, n);
            r->SetTransport(transports[i]);
            r->SetCollectives(profile.CreateCollectives());
            r->SetProgram(programs[i]);
            nodes.Get(i)->AddApplication(r);
            r->SetStartTime(Seconds(0));
            r->TraceConnectWithoutContext(
                "Received",
                Callback<void, uint32_t, int32_t, uint32_t>(
                    [this, i](uint32_t src, int32_t tag, uint32_t bytes) {
                        received.emplace_back(i, src, tag, bytes);
                    }));
            ranks.push_back(r);
        }
    }

    ~TestJob()
    {
        ranks.clear();
        transports.clear();
        Simulator::Destroy();
    }

    std::string Run()
    {
        return RunJob(ranks);
    }
};

using Op = MpiOperation;

/// MPICH with no host cost for a send or a receive call.
MpiHelper
ZeroCostMpich()
{
    MpiHelper zero;
    zero.SetMpiProfile("mpich");
    zero.SetRankAttribute("SendCycles", DoubleValue(0));
    zero.SetRankAttribute("RecvCycles", DoubleValue(0));
    return zero;
}

/// Rank 0 computes 50 us, then sends 8 bytes (tag 7) to rank 1, whose receive is posted first.
std::vector<std::vector<MpiOperation>>
PostedFirst()
{
    return {{Op::Compute(MicroSeconds(50)), Op::Send(1, 7, 8)}, {Op::Recv(0, 7, 8)}};
}

/// Two PIII-450 hosts with @p nic NICs back to back (created into @p nodes). @return the NICs
NetDeviceContainer
GigePair(const std::string& nic, NodeContainer& nodes)
{
    nodes.Create(2);
    HostHelper hosts;
    hosts.SetHostProfile("piii450-linux22");
    hosts.Install(nodes);
    GigeHelper gige;
    gige.SetNicProfile(nic);
    return gige.Install(nodes.Get(0), nodes.Get(1));
}

/**
 * Matching: wildcards take the first match in arrival order; messages from one sender are
 * matched in the order sent (non-overtaking), whatever the tags; a receive posted before the
 * message arrives is matched on arrival, one posted after finds it in the unexpected queue.
 */
class MpiMatchingTestCase : public TestCase
{
  public:
    MpiMatchingTestCase()
        : TestCase("MPI matching: wildcards, non-overtaking order, unexpected queue")
    {
    }

  private:
    void DoRun() override
    {
        MpiHelper profile;
        profile.SetMpiProfile("mpich");
        std::vector<std::vector<Op>> p(3);
        // Rank 0: tag 1 (10 B), tag 2 (20 B), tag 1 (30 B); rank 1, later: tag 1 (40 B).
        p[0] = {Op::Send(2, 1, 10), Op::Send(2, 2, 20), Op::Send(2, 1, 30)};
        p[1] = {Op::Compute(MicroSeconds(100)), Op::Send(2, 1, 40)};
        // Rank 2 waits until everything is there, then receives with wildcards.
        p[2] = {Op::Compute(MilliSeconds(1)),
                Op::Recv(Op::ANY_SOURCE, 2, 100),      // rank 0's tag 2 (20 B)
                Op::Recv(0, Op::ANY_TAG, 100),         // rank 0's first: tag 1, 10 B
                Op::Recv(Op::ANY_SOURCE, 1, 100),      // first tag-1 arrival left: rank 0's 30 B
                Op::Recv(Op::ANY_SOURCE, Op::ANY_TAG, 100)}; // rank 1's 40 B
        {
        TestJob job(p, profile);
        NS_TEST_ASSERT_MSG_EQ(job.Run(), "", "no deadlock");
        using R = std::tuple<uint32_t, uint32_t, int32_t, uint32_t>;
        std::vector<R> expect = {R{2, 0, 2, 20}, R{2, 0, 1, 10}, R{2, 0, 1, 30}, R{2, 1, 1, 40}};
        NS_TEST_ASSERT_MSG_EQ(job.received.size(), expect.size(), "four receives");
        for (std::size_t i = 0; i < expect.size() && i < job.received.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ((job.received[i] == expect[i]), true, "receive " << i);
        }
        NS_TEST_ASSERT_MSG_EQ(job.ranks[2]->GetUnexpectedMessages(), 4u, "all were unexpected");
        }

        // Posted first: the receive completes when the message arrives (10 us later).
        MpiHelper zero = ZeroCostMpich();
        TestJob posted(PostedFirst(), zero);
        NS_TEST_ASSERT_MSG_EQ(posted.Run(), "", "no deadlock");
        NS_TEST_ASSERT_MSG_EQ(posted.ranks[1]->GetUnexpectedMessages(), 0u, "expected message");
        NS_TEST_ASSERT_MSG_EQ(posted.ranks[1]->GetCompletionTimes().at(0),
                              MicroSeconds(60),
                              "completed on arrival: 50 us + 10 us transit");
    }
};

/**
 * The main thread's state machine, traced: rank 0 computes 50 us, then sends 8 bytes eagerly
 * (the test transport lets the sender go on at once); rank 1 receives them, blocked until they
 * arrive 10 us later. A TracedValue reports changes only: computing is OUTSIDE, as is the
 * start, so the compute adds no transition.
 */
class MpiStateTestCase : public TestCase
{
  public:
    MpiStateTestCase()
        : TestCase("MpiRank State trace: NOT_STARTED, OUTSIDE, IN_CALL, BLOCKED, DONE")
    {
    }

  private:
    void DoRun() override
    {
        using S = MpiRank::State;
        using T = std::tuple<S, S, int64_t>; // old, new, time [us]
        MpiHelper zero = ZeroCostMpich();
        TestJob job(PostedFirst(), zero);
        std::vector<std::vector<T>> seen(2);
        for (uint32_t i = 0; i < 2; ++i)
        {
            job.ranks[i]->TraceConnectWithoutContext(
                "State",
                Callback<void, S, S>([&seen, i](S from, S to) {
                    seen[i].emplace_back(from, to, Simulator::Now().GetMicroSeconds());
                }));
        }
        NS_TEST_ASSERT_MSG_EQ(job.Run(), "", "no deadlock");
        const std::vector<std::vector<T>> expect = {
            {T{S::NOT_STARTED, S::OUTSIDE, 0},
             T{S::OUTSIDE, S::IN_CALL, 50},
             T{S::IN_CALL, S::BLOCKED, 50},
             T{S::BLOCKED, S::IN_CALL, 50},
             T{S::IN_CALL, S::OUTSIDE, 50},
             T{S::OUTSIDE, S::DONE, 50}},
            {T{S::NOT_STARTED, S::OUTSIDE, 0},
             T{S::OUTSIDE, S::IN_CALL, 0},
             T{S::IN_CALL, S::BLOCKED, 0},
             T{S::BLOCKED, S::IN_CALL, 60},
             T{S::IN_CALL, S::OUTSIDE, 60},
             T{S::OUTSIDE, S::DONE, 60}}};
        for (uint32_t i = 0; i < 2; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(seen[i].size(), expect[i].size(), "transitions of rank " << i);
            for (std::size_t k = 0; k < expect[i].size() && k < seen[i].size(); ++k)
            {
                NS_TEST_ASSERT_MSG_EQ((seen[i][k] == expect[i][k]),
                                      true,
                                      "rank " << i << " transition " << k << ": "
                                              << std::get<0>(seen[i][k]) << " -> "
                                              << std::get<1>(seen[i][k]) << " at "
                                              << std::get<2>(seen[i][k]) << " us");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(job.ranks[1]->GetState(), S::DONE, "rank 1 done");
    }
};

/**
 * Eager or rendezvous at exactly the switch-over size: inclusive profiles send a message of
 * EagerLimit bytes eagerly, exclusive ones (LAM: "128KB or longer" is long) by rendezvous.
 */
class MpiSwitchOverTestCase : public TestCase
{
  public:
    MpiSwitchOverTestCase()
        : TestCase("MPI eager or rendezvous at exactly the switch-over size")
    {
    }

  private:
    MpiEnvelope::Kind FirstKind(const std::string& profileName, uint32_t bytes)
    {
        MpiHelper profile;
        profile.SetMpiProfile(profileName);
        std::vector<std::vector<Op>> p(2);
        p[0] = {Op::Send(1, 0, bytes)};
        p[1] = {Op::Recv(0, 0, bytes)};
        TestJob job(p, profile);
        job.Run();
        return job.log.at(0).envelope.kind;
    }

    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(FirstKind("mpich", 128000), MpiEnvelope::EAGER, "MPICH: <=");
        NS_TEST_ASSERT_MSG_EQ(FirstKind("mpich", 128001), MpiEnvelope::RTS, "MPICH: >");
        NS_TEST_ASSERT_MSG_EQ(FirstKind("lam", 131071), MpiEnvelope::EAGER, "LAM: <");
        NS_TEST_ASSERT_MSG_EQ(FirstKind("lam", 131072), MpiEnvelope::RTS, "LAM: 128 KB is long");
    }
};

/**
 * CPU work is counted in reference cycles and becomes time through the host: a send call of
 * 4500 reference cycles takes 4500 / (900 MHz x 1) = 5 us on a 900 MHz P6-class core (the isend
 * completes then), 4500 / (450 MHz x 0.5) = 20 us on a 450 MHz core doing half the work per
 * clock, and 4500 / 450 MHz = 10 us on a rank without a HostCpu (the reference core).
 */
class MpiCostScalingTestCase : public TestCase
{
  public:
    MpiCostScalingTestCase()
        : TestCase("MPI per-call work in reference cycles becomes time through the host CPU")
    {
    }

  private:
    Time IsendDone(double clockMhz, double coreFactor, bool withCpu = true)
    {
        MpiHelper profile;
        profile.SetRankAttribute("SendCycles", DoubleValue(4500));
        std::vector<std::vector<Op>> p(2);
        p[0] = {Op::Isend(1, 0, 8, 1), Op::Wait(1)};
        p[1] = {Op::Recv(0, 0, 8)};
        TestJob job(p, profile);
        if (withCpu)
        {
            Ptr<HostCpu> cpu = CreateObject<HostCpu>();
            cpu->SetAttribute("Clock", DoubleValue(clockMhz));
            cpu->SetAttribute("CoreFactor", DoubleValue(coreFactor));
            job.nodes.Get(0)->AggregateObject(cpu);
        }
        job.Run();
        return job.ranks[0]->GetCompletionTimes().at(0);
    }

    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(IsendDone(900, 1.0), MicroSeconds(5), "twice the clock: half");
        NS_TEST_ASSERT_MSG_EQ(IsendDone(450, 0.5), MicroSeconds(20), "half the work per clock");
        NS_TEST_ASSERT_MSG_EQ(IsendDone(0, 0, false), MicroSeconds(10), "the reference core");
    }
};

/**
 * Collectives of an MpiJobBuilder job run through the transport by LAM's algorithms, counted
 * independently: an allreduce is a reduce and a broadcast, 2(n-1) messages; all-to-all
 * n(n-1); a broadcast or reduce n - 1, every non-root rank receiving (broadcast) or sending
 * (reduce) exactly once. Every rank finishes, and the bytes sent are the bytes received.
 */
class MpiCollectivesTestCase : public TestCase
{
  public:
    MpiCollectivesTestCase()
        : TestCase("MPI collectives: message counts, completion and conservation")
    {
    }

  private:
    struct Count
    {
        uint32_t messages{0};
        uint64_t bytes{0};
        std::vector<uint32_t> sentBy;
        std::vector<uint32_t> receivedBy;
    };

    Count Run(uint32_t n, const std::function<void(MpiJobBuilder&)>& build)
    {
        MpiJobBuilder job(n);
        build(job);
        MpiHelper profile;
        profile.SetMpiProfile("lam"); // eager to 128 KB: one packet per message
        TestJob run(job.GetPrograms(), profile);
        NS_TEST_EXPECT_MSG_EQ(run.Run(), "", "every rank finishes");
        Count c;
        c.sentBy.assign(n, 0);
        c.receivedBy.assign(n, 0);
        for (const auto& p : run.log)
        {
            if (p.envelope.context % 2 == 1) // a collective's message
            {
                ++c.messages;
                c.bytes += p.envelope.length;
                ++c.sentBy[p.envelope.src];
                ++c.receivedBy[p.envelope.dst];
            }
        }
        uint64_t received = 0;
        for (const auto& [rank, src, tag, bytes] : run.received)
        {
            received += bytes;
        }
        NS_TEST_EXPECT_MSG_EQ(received, c.bytes, "bytes received = bytes sent");
        return c;
    }

    void DoRun() override
    {
        for (uint32_t n : {4u, 8u, 9u})
        {
            Count a = Run(n, [](MpiJobBuilder& j) { j.Allreduce(40); });
            NS_TEST_ASSERT_MSG_EQ(a.messages, 2 * (n - 1), "allreduce messages");
            Count t = Run(n, [](MpiJobBuilder& j) { j.Alltoall(1000); });
            NS_TEST_ASSERT_MSG_EQ(t.messages, n * (n - 1), "alltoall messages");
            NS_TEST_ASSERT_MSG_EQ(t.bytes, uint64_t(n) * (n - 1) * 1000, "alltoall bytes");
            for (uint32_t root : {0u, n - 1})
            {
                Count b = Run(n, [root](MpiJobBuilder& j) { j.Bcast(root, 64); });
                Count r = Run(n, [root](MpiJobBuilder& j) { j.Reduce(root, 64); });
                NS_TEST_ASSERT_MSG_EQ(b.messages, n - 1, "bcast messages");
                NS_TEST_ASSERT_MSG_EQ(r.messages, n - 1, "reduce messages");
                for (uint32_t k = 0; k < n; ++k)
                {
                    uint32_t once = (k == root) ? 0u : 1u;
                    NS_TEST_ASSERT_MSG_EQ(b.receivedBy[k], once, "bcast: once");
                    NS_TEST_ASSERT_MSG_EQ(r.sentBy[k], once, "reduce: once");
                }
            }
        }
    }
};

/**
 * Rendezvous: RTS, then CTS only once the receive is posted, then the data; no data moves
 * before the CTS has arrived. LAM's variant: the first packet carries LongFirstBytes of data,
 * the rest follows the receiver's ack.
 */
class MpiRendezvousTestCase : public TestCase
{
  public:
    MpiRendezvousTestCase()
        : TestCase("MPI rendezvous: no data before CTS; LAM long message waits for the ack")
    {
    }

  private:
    void Check(uint32_t firstBytes)
    {
        const uint32_t bytes = 1000000;
        const Time post = MilliSeconds(2);
        MpiHelper profile;
        profile.SetMpiProfile("mpich");
        profile.SetRankAttribute("LongFirstBytes", UintegerValue(firstBytes));
        profile.SetRankAttribute("SendCycles", DoubleValue(0));
        profile.SetRankAttribute("RecvCycles", DoubleValue(0));
        std::vector<std::vector<Op>> p(2);
        p[0] = {Op::Send(1, 3, bytes)};
        p[1] = {Op::Compute(post), Op::Recv(0, 3, bytes)};
        TestJob job(p, profile);
        NS_TEST_ASSERT_MSG_EQ(job.Run(), "", "no deadlock");
        NS_TEST_ASSERT_MSG_EQ(job.log.size(), 3u, "RTS, CTS, DATA");
        const auto& rts = job.log[0];
        const auto& cts = job.log[1];
        const auto& data = job.log[2];
        NS_TEST_ASSERT_MSG_EQ(rts.envelope.kind, MpiEnvelope::RTS, "first the RTS");
        NS_TEST_ASSERT_MSG_EQ(rts.envelope.payload, firstBytes, "RTS data");
        NS_TEST_ASSERT_MSG_EQ(cts.envelope.kind, MpiEnvelope::CTS, "then the CTS");
        NS_TEST_ASSERT_MSG_EQ(cts.sent, post, "CTS when the receive is posted");
        NS_TEST_ASSERT_MSG_EQ(data.envelope.kind, MpiEnvelope::DATA, "then the data");
        NS_TEST_ASSERT_MSG_EQ(data.envelope.payload, bytes - firstBytes, "the rest");
        NS_TEST_ASSERT_MSG_EQ(data.sent, post + MicroSeconds(10), "data once the CTS arrived");
        // The sender is blocked until its data is written; the receiver until it arrives.
        NS_TEST_ASSERT_MSG_EQ(job.ranks[0]->GetCompletionTimes().at(0), data.sent, "send done");
        NS_TEST_ASSERT_MSG_EQ(job.ranks[1]->GetCompletionTimes().at(1),
                              data.sent + MicroSeconds(10),
                              "receive done on the data's arrival");
    }

    void DoRun() override
    {
        Check(0);    // MPICH rendezvous
        Check(8192); // LAM-style: first packet with data, the rest after the ack
    }
};

/**
 * A receive that can never be matched: the job stops with both ranks reported, their
 * operations and their pending receives, instead of hanging.
 */
class MpiDeadlockTestCase : public TestCase
{
  public:
    MpiDeadlockTestCase()
        : TestCase("MPI deadlock: blocked ranks and pending operations reported")
    {
    }

  private:
    void DoRun() override
    {
        MpiHelper profile;
        profile.SetMpiProfile("lam");
        std::vector<std::vector<Op>> p(3);
        p[0] = {Op::Recv(1, 5, 10), Op::Send(1, 5, 10)};
        p[1] = {Op::Recv(0, 5, 10), Op::Send(0, 5, 10)};
        p[2] = {Op::Compute(MicroSeconds(1))};
        TestJob job(p, profile);
        std::string report = job.Run();
        NS_TEST_ASSERT_MSG_NE(report.find("rank 0 blocked in operation 0 'recv 1 5 10'"),
                              std::string::npos,
                              report);
        NS_TEST_ASSERT_MSG_NE(report.find("rank 1 blocked in operation 0 'recv 0 5 10'"),
                              std::string::npos,
                              report);
        NS_TEST_ASSERT_MSG_NE(report.find("recv from 1 tag 5"), std::string::npos, report);
        NS_TEST_ASSERT_MSG_EQ(report.find("rank 2"), std::string::npos, "rank 2 finished");
        NS_TEST_ASSERT_MSG_EQ(job.ranks[2]->IsDone(), true, "rank 2 finished");
    }
};

/**
 * Non-blocking calls, waits and barriers: a ring exchange with isend/irecv/waitall then a
 * barrier, on 4 ranks; the barrier makes every rank leave after the last one entered.
 */
class MpiNonBlockingBarrierTestCase : public TestCase
{
  public:
    MpiNonBlockingBarrierTestCase()
        : TestCase("MPI isend, irecv, wait, waitall and barrier")
    {
    }

  private:
    void DoRun() override
    {
        MpiHelper profile;
        profile.SetMpiProfile("mpich");
        const uint32_t n = 4;
        std::vector<std::vector<Op>> p(n);
        for (uint32_t i = 0; i < n; ++i)
        {
            int32_t right = (i + 1) % n;
            int32_t left = (i + n - 1) % n;
            p[i] = {Op::Irecv(left, 9, 200000, 1),
                    Op::Isend(right, 9, 200000, 2),
                    Op::Wait(2),
                    Op::Waitall(),
                    Op::Compute(MicroSeconds(100 * (i + 1))),
                    Op::Barrier()};
        }
        TestJob job(p, profile);
        NS_TEST_ASSERT_MSG_EQ(job.Run(), "", "no deadlock");
        uint32_t ring = 0; // (the barrier's zero-byte messages are received too)
        for (const auto& [rank, src, tag, bytes] : job.received)
        {
            ring += tag == 9 && bytes == 200000 ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_EQ(ring, n, "one ring receive each");
        Time lastEnter = Seconds(0);
        Time firstLeave = Seconds(1000);
        for (const auto& r : job.ranks)
        {
            const auto& t = r->GetCompletionTimes();
            NS_TEST_ASSERT_MSG_EQ(t.size(), 6u, "all six operations");
            lastEnter = std::max(lastEnter, t.at(4)); // compute done: entering the barrier
            firstLeave = std::min(firstLeave, t.at(5));
        }
        NS_TEST_ASSERT_MSG_GT(firstLeave, lastEnter, "nobody leaves the barrier early");
    }
};

/**
 * Over ns-3 TCP between two Gigabit Ethernet hosts: short and long messages both ways
 * arrive whole, in order, on one connection per pair.
 */
class MpiTcpTestCase : public TestCase
{
  public:
    MpiTcpTestCase()
        : TestCase("MPI over TCP: eager and rendezvous ping-pong, one connection per pair")
    {
    }

  private:
    void DoRun() override
    {
        EthernetCluster cluster(2, "piii450-linux22", "sknet", false);
        const NodeContainer& nodes = cluster.GetHosts();
        Ipv4InterfaceContainer ifs = cluster.GetInterfaces();
        std::vector<uint32_t> sizes = {1, 4096, 131071, 131072, 400000};
        std::vector<std::vector<Op>> p(2);
        for (uint32_t s : sizes)
        {
            p[0].push_back(Op::Send(1, 1, s));
            p[0].push_back(Op::Recv(1, 1, s));
            p[1].push_back(Op::Recv(0, 1, s));
            p[1].push_back(Op::Send(0, 1, s));
        }
        MpiHelper mpi;
        mpi.SetMpiProfile("lam");
        std::vector<Ptr<MpiRank>> ranks = mpi.InstallTcp(nodes, ifs, p);
        std::vector<uint32_t> got;
        ranks[1]->TraceConnectWithoutContext(
            "Received",
            Callback<void, uint32_t, int32_t, uint32_t>(
                [&](uint32_t, int32_t, uint32_t bytes) { got.push_back(bytes); }));
        NS_TEST_ASSERT_MSG_EQ(RunJob(ranks, Seconds(10)), "", "no deadlock");
        NS_TEST_ASSERT_MSG_EQ((got == sizes), true, "every message, in order");
        const auto& t = ranks[0]->GetCompletionTimes();
        NS_TEST_ASSERT_MSG_EQ(t.size(), 2 * sizes.size(), "all operations done");
        // A 400000-byte round trip moves 800000 bytes; at most 1 Gb/s each way it takes
        // at least 6.4 ms.
        NS_TEST_ASSERT_MSG_GT(t.back() - t.at(t.size() - 3), MicroSeconds(6400), "wire bound");
        for (const auto& r : ranks)
        {
            Ptr<MpiTcpTransport> tcp = DynamicCast<MpiTcpTransport>(r->GetTransport());
            NS_TEST_ASSERT_MSG_EQ(tcp->GetConnections(), 1u, "one connection per pair");
        }
        Simulator::Destroy();
    }
};

/**
 * A long stream of small blocking sends over TCP (1000 x 512 B, twice what the socket buffers
 * hold): the receiver's many small reads reopen the window a little at a time, and it must
 * tell the sender (a window update once the window has doubled, as Linux's cleanup_rbuf), or
 * the sender, whose window fell below a segment, waits forever. Every byte arrives.
 */
class MpiTcpStreamTestCase : public TestCase
{
  public:
    MpiTcpStreamTestCase()
        : TestCase("MPI over TCP: a stream of small blocking sends never stalls; an event "
                   "thread finds its messages unexpected")
    {
    }

  private:
    void DoRun() override
    {
        EthernetCluster cluster(2, "piii450-linux22", "sknet", false);
        const NodeContainer& nodes = cluster.GetHosts();
        Ipv4InterfaceContainer ifs = cluster.GetInterfaces();
        const uint32_t count = 1000;
        const uint32_t bytes = 512;
        std::vector<std::vector<Op>> p(2);
        for (uint32_t i = 0; i < count; ++i)
        {
            p[0].push_back(Op::Send(1, 2, bytes));
            p[1].push_back(Op::Recv(0, 2, bytes));
        }
        MpiHelper mpi;
        mpi.SetMpiProfile("lampi-tcp");
        std::vector<Ptr<MpiRank>> ranks = mpi.InstallTcp(nodes, ifs, p);
        uint64_t got = 0;
        ranks[1]->TraceConnectWithoutContext(
            "Received",
            Callback<void, uint32_t, int32_t, uint32_t>(
                [&](uint32_t, int32_t, uint32_t b) { got += b; }));
        NS_TEST_ASSERT_MSG_EQ(RunJob(ranks, Seconds(100)), "", "no stall");
        NS_TEST_ASSERT_MSG_EQ(got, uint64_t(count) * bytes, "every byte arrives");
        uint64_t polling = ranks[1]->GetUnexpectedMessages();
        Simulator::Destroy();

        // The same stream under an event thread: it reads and matches each next envelope
        // while the main thread, woken by a thread switch, has yet to post its receive, so
        // (almost) every message is unexpected (seed 003 sec. 3.2).
        EthernetCluster cluster2(2, "piii450-linux22", "sknet", false);
        const NodeContainer& nodes2 = cluster2.GetHosts();
        Ipv4InterfaceContainer ifs2 = cluster2.GetInterfaces();
        MpiHelper ed;
        ed.SetMpiProfile("lampi-tcp-ed");
        std::vector<Ptr<MpiRank>> edRanks = ed.InstallTcp(nodes2, ifs2, p);
        NS_TEST_ASSERT_MSG_EQ(RunJob(edRanks, Seconds(100)), "", "no stall (ED)");
        uint64_t event = edRanks[1]->GetUnexpectedMessages();
        NS_TEST_ASSERT_MSG_GT_OR_EQ(event, uint64_t(count) * 9 / 10, "ED: nearly all unexpected");
        NS_TEST_ASSERT_MSG_LT(polling, event, "polling: fewer unexpected than ED");
        Simulator::Destroy();
    }
};

/**
 * Socket buffers: LAM applies its SocketBuffer with setsockopt; MPICH's p4 never does, so its
 * sockets keep the host's default. Either way the receive buffer is the host's multiplier times
 * the buffer in force, on both ends of the connection.
 */
class MpiSocketBufferTestCase : public TestCase
{
  public:
    MpiSocketBufferTestCase()
        : TestCase("MPI over TCP: the library's socket buffer, or the kernel default")
    {
    }

  private:
    uint32_t ReceiveBuffer(const std::string& profile, uint32_t rank)
    {
        NodeContainer nodes;
        NetDeviceContainer devs = GigePair("sknet", nodes);
        InternetStackHelper internet;
        internet.Install(nodes);
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<HostStack> stack = nodes.Get(i)->GetObject<HostStack>();
            stack->SetAttribute("RcvBufMultiplier", DoubleValue(1.0));
            stack->SetAttribute("DefaultSocketBuffer", UintegerValue(20000));
        }
        Ipv4AddressHelper addr("10.3.0.0", "255.255.255.0");
        Ipv4InterfaceContainer ifs = addr.Assign(devs);
        std::vector<std::vector<Op>> p(2);
        p[0].push_back(Op::Send(1, 1, 10));
        p[1].push_back(Op::Recv(0, 1, 10));
        MpiHelper mpi;
        mpi.SetMpiProfile(profile);
        std::vector<Ptr<MpiRank>> ranks = mpi.InstallTcp(nodes, ifs, p);
        RunJob(ranks, Seconds(1));
        Ptr<MpiTcpTransport> tcp = DynamicCast<MpiTcpTransport>(ranks[rank]->GetTransport());
        Ptr<Socket> s = tcp->GetSocket(1 - rank);
        UintegerValue v(0);
        if (s)
        {
            s->GetAttribute("RcvBufSize", v);
        }
        Simulator::Destroy();
        return v.Get();
    }

    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(ReceiveBuffer("lam", 0), 131104u, "LAM: switch-over + envelope");
        NS_TEST_ASSERT_MSG_EQ(ReceiveBuffer("lam", 1), 131104u, "LAM, accepting end");
        NS_TEST_ASSERT_MSG_EQ(ReceiveBuffer("mpich", 0), 20000u, "MPICH: the host default");
        NS_TEST_ASSERT_MSG_EQ(ReceiveBuffer("mpich", 1), 20000u, "MPICH, accepting end");
    }
};

/**
 * Progress engines over TCP, while rank 1 computes 50 ms. Rendezvous: rank 1 posts a receive
 * for 1 MB, computes, then waits; rank 0 sends it with a blocking send. Eager stream: rank 0
 * isends 32 eager 16 KB messages (512 KB, more than both socket buffers hold) and waits for
 * all; rank 1 computes, then receives them.
 *
 * A polling library handles the RTS, reads its sockets and finishes its writes only inside MPI
 * calls, so while rank 1 computes no more than the kernel buffers moves: rank 0 cannot
 * complete before 50 ms, the rendezvous data (1 MB at the 1 Gb/s wire rate: 8.39 ms) arrives
 * after the computation, and the library's copies do not delay the computation. An event
 * thread answers and reads while rank 1 computes: rank 0 completes before the computation would
 * have ended, and the thread's copies of the data (at the host's copy bandwidth) preempt the
 * computation, which ends at least that much later.
 */
class MpiProgressOverlapTestCase : public TestCase
{
  public:
    MpiProgressOverlapTestCase()
        : TestCase("MPI progress: an event thread overlaps transfers with computation")
    {
    }

  private:
    struct Times
    {
        Time send;       //!< rank 0's last operation completed
        Time computeEnd; //!< rank 1's computation completed
        Time recv;       //!< rank 1's last operation completed
        Time copy;       //!< copying the data at rank 1's host copy bandwidth
    };

    Times Run(const std::string& profile, bool rendezvous)
    {
        EthernetCluster cluster(2, "piii450-linux22", "sknet", false);
        const NodeContainer& nodes = cluster.GetHosts();
        Ipv4InterfaceContainer ifs = cluster.GetInterfaces();
        const uint32_t bytes = 1 << 20;
        const uint32_t eager = 16384;
        const uint32_t count = 32;
        std::vector<std::vector<Op>> p(2);
        if (rendezvous)
        {
            p[0].push_back(Op::Send(1, 5, bytes));
            p[1].push_back(Op::Irecv(0, 5, bytes, 1));
            p[1].push_back(Op::Compute(MilliSeconds(50)));
            p[1].push_back(Op::Wait(1));
        }
        else
        {
            for (uint32_t i = 0; i < count; ++i)
            {
                p[0].push_back(Op::Isend(1, 5, eager, i + 1));
            }
            p[0].push_back(Op::Waitall());
            p[1].push_back(Op::Compute(MilliSeconds(50)));
            for (uint32_t i = 0; i < count; ++i)
            {
                p[1].push_back(Op::Recv(0, 5, eager));
            }
        }
        MpiHelper mpi;
        mpi.SetMpiProfile(profile);
        std::vector<Ptr<MpiRank>> ranks = mpi.InstallTcp(nodes, ifs, p);
        std::string pending = RunJob(ranks, Seconds(10));
        NS_TEST_EXPECT_MSG_EQ(pending, "", "no deadlock");
        NS_TEST_EXPECT_MSG_EQ(ranks[1]->IsEager(bytes), false, "1 MB goes by rendezvous");
        NS_TEST_EXPECT_MSG_EQ(ranks[1]->IsEager(eager), true, "16 KB goes eagerly");
        DataRateValue rate;
        nodes.Get(1)->GetObject<HostCpu>()->GetAttribute("CopyBandwidth", rate);
        uint32_t moved = rendezvous ? bytes : eager * count;
        const auto& t1 = ranks[1]->GetCompletionTimes();
        Times t{ranks[0]->GetCompletionTimes().back(),
                rendezvous ? t1.at(1) : t1.at(0),
                t1.back(),
                Seconds(moved * 8.0 / rate.Get().GetBitRate())};
        Simulator::Destroy();
        return t;
    }

    void DoRun() override
    {
        const Time compute = MilliSeconds(50);
        const Time wire = NanoSeconds(8388608); // 1 MB at 1 Gb/s
        for (bool rendezvous : {true, false})
        {
            std::string what = rendezvous ? "rendezvous: " : "eager stream: ";
            Times poll = Run("lampi-tcp", rendezvous);
            NS_TEST_ASSERT_MSG_GT(poll.send, compute, what + "polling moves nothing meanwhile");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(poll.computeEnd, compute, "computation never shortened");
            NS_TEST_ASSERT_MSG_LT(poll.computeEnd,
                                  compute + poll.copy,
                                  what + "polling: no library copies during computation");
            if (rendezvous)
            {
                NS_TEST_ASSERT_MSG_GT_OR_EQ(poll.recv, compute + wire, "data after computation");
            }
            Times ed = Run("lampi-tcp-ed", rendezvous);
            NS_TEST_ASSERT_MSG_LT(ed.send, compute, what + "event thread moves data meanwhile");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(ed.computeEnd,
                                        compute + ed.copy,
                                        what + "the thread's copies preempt the computation");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(ed.recv, ed.computeEnd, "receives end after computation");
        }
    }
};

/**
 * Seed 003's qualitative checks that the mechanism alone decides, on two Athlon XP / PRO/1000
 * MT hosts: a message one byte above LA-MPI's 16 KB eager limit pays at least one extra round
 * trip (RTS, then CTS, before the data; at least the round trip of a 64-byte kernel UDP
 * ping-pong on the same network) over one at the limit; and the
 * event-driven path adds at least its thread switch (3.5 us on this host) to the latency.
 */
class LampiQualitativeTestCase : public TestCase
{
  public:
    LampiQualitativeTestCase()
        : TestCase("LA-MPI: rendezvous above 16 KB costs a round trip; TCP-ED a thread switch")
    {
    }

  private:
    /// One-way latency of a ping-pong of @p bytes (after a warm-up round trip).
    Time Latency(const std::string& stack, uint32_t bytes)
    {
        EthernetCluster cluster(2, "athlonxp2800-fbsd47", "pro1000mt", false);
        const uint32_t reps = 5;
        std::vector<std::vector<Op>> p(2);
        for (uint32_t i = 0; i <= reps; ++i)
        {
            uint32_t b = i == 0 ? 4 : bytes;
            p[0].push_back(Op::Send(1, 1, b));
            p[0].push_back(Op::Recv(1, 1, b));
            p[1].push_back(Op::Recv(0, 1, b));
            p[1].push_back(Op::Send(0, 1, b));
        }
        MpiHelper mpi;
        mpi.SetMpiProfile(stack);
        std::vector<Ptr<MpiRank>> ranks =
            mpi.InstallTcp(cluster.GetHosts(), cluster.GetInterfaces(), p);
        NS_TEST_EXPECT_MSG_EQ(RunJob(ranks, Seconds(10)), "", "no deadlock");
        const auto& t = ranks[0]->GetCompletionTimes();
        Time oneWay = (t.back() - t.at(1)) / (2 * reps);
        Simulator::Destroy();
        return oneWay;
    }

    /// One-way latency of the network itself: kernel UDP ping-pong of @p bytes.
    Time NetworkLatency(uint32_t bytes)
    {
        EthernetCluster cluster(2, "athlonxp2800-fbsd47", "pro1000mt", false);
        const NodeContainer& nodes = cluster.GetHosts();
        Ptr<KernelUdpBenchmark> a = CreateObject<KernelUdpBenchmark>();
        Ptr<KernelUdpBenchmark> b = CreateObject<KernelUdpBenchmark>();
        nodes.Get(0)->AddApplication(a);
        nodes.Get(1)->AddApplication(b);
        a->SetPeer(cluster.GetInterfaces().GetAddress(1), b);
        b->SetPeer(cluster.GetInterfaces().GetAddress(0), a);
        Time t;
        Simulator::Run();
        for (uint32_t reps : {1u, 5u}) // the first resolves ARP
        {
            Simulator::ScheduleWithContext(nodes.Get(0)->GetId(), Seconds(0), [&, reps]() {
                a->PingPong(bytes, reps, [&](Time x) { t = x; });
            });
            Simulator::Run();
        }
        Simulator::Destroy();
        return t;
    }

    void DoRun() override
    {
        // RTS and CTS are envelopes of 64 bytes: their round trip is at least the network's.
        Time network = NetworkLatency(64);
        Time small = Latency("lampi-tcp", 4);
        Time atLimit = Latency("lampi-tcp", 16384);
        Time above = Latency("lampi-tcp", 16385);
        NS_TEST_ASSERT_MSG_GT_OR_EQ(above - atLimit,
                                    network * 2,
                                    "rendezvous: at least a network round trip more");
        Time ed = Latency("lampi-tcp-ed", 4);
        NS_TEST_ASSERT_MSG_GT_OR_EQ(ed - small, MicroSeconds(3.5), "TCP-ED: its thread switch");
    }
};

/**
 * Over M-VIA between two GNIC-II hosts (no IP stack): a message of b bytes (plus the MVICH
 * envelope) is ceil((b + envelope) / (MTU - VIA header)) Ethernet frames; all arrive in order.
 */
class MpiViaTestCase : public TestCase
{
  public:
    MpiViaTestCase()
        : TestCase("MPI over M-VIA: frames per message from the MTU, in order, no IP")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        NetDeviceContainer devs = GigePair("gnic2", nodes);
        uint64_t frames = 0;
        for (uint32_t i = 0; i < 2; ++i)
        {
            devs.Get(i)->TraceConnectWithoutContext(
                "MacTx",
                Callback<void, Ptr<const Packet>>([&](Ptr<const Packet>) { ++frames; }));
        }
        std::vector<uint32_t> sizes = {1, 1452, 1453, 32736};
        std::vector<std::vector<Op>> p(2);
        uint64_t expectFrames = 0;
        for (uint32_t s : sizes)
        {
            p[0].push_back(Op::Send(1, 1, s));
            p[1].push_back(Op::Recv(0, 1, s));
            expectFrames += (s + 32 + (1500 - 16) - 1) / (1500 - 16); // 32-byte envelope
        }
        MpiHelper mpi;
        mpi.SetMpiProfile("mvich");
        std::vector<Ptr<MpiRank>> ranks = mpi.InstallVia(devs, p);
        std::vector<uint32_t> got;
        ranks[1]->TraceConnectWithoutContext(
            "Received",
            Callback<void, uint32_t, int32_t, uint32_t>(
                [&](uint32_t, int32_t, uint32_t bytes) { got.push_back(bytes); }));
        NS_TEST_ASSERT_MSG_EQ(RunJob(ranks, Seconds(10)), "", "no deadlock");
        NS_TEST_ASSERT_MSG_EQ((got == sizes), true, "every message, in order");
        NS_TEST_ASSERT_MSG_EQ(frames, expectFrames, "VIA frames on the wire");
        NS_TEST_ASSERT_MSG_EQ(ranks[0]->GetTransport()->GetMaxMessage(), 32768u, "32 KB limit");
        Simulator::Destroy();
    }
};

/**
 * Trace files: each call's arguments checked, with the line number in the error.
 */
class MpiProgramTestCase : public TestCase
{
  public:
    MpiProgramTestCase()
        : TestCase("MPI trace files: parsed per rank, bad lines named")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<std::vector<MpiOperation>> p;
        std::string text = "# ping-pong\n0 send 1 7 100\n1 recv any any 100\n"
                           "1 irecv 0 3 5 9\n1 wait 9\n0 compute 25us\n0 barrier\n1 barrier\n";
        NS_TEST_ASSERT_MSG_EQ(MpiProgram::Parse(text, 2, p), "", "valid");
        NS_TEST_ASSERT_MSG_EQ(p[0].size(), 3u, "rank 0 lines");
        NS_TEST_ASSERT_MSG_EQ(p[1].size(), 4u, "rank 1 lines");
        NS_TEST_ASSERT_MSG_EQ(p[1][0].peer, MpiOperation::ANY_SOURCE, "any source");
        NS_TEST_ASSERT_MSG_EQ(p[1][0].tag, MpiOperation::ANY_TAG, "any tag");
        NS_TEST_ASSERT_MSG_EQ(p[0][1].duration, MicroSeconds(25), "compute time");
        NS_TEST_ASSERT_MSG_EQ(p[1][1].ToString(), "irecv 0 3 5 9", "round trip");
        NS_TEST_ASSERT_MSG_EQ(p[0][1].ToString(), "compute 25us", "round trip");
        Time t;
        NS_TEST_ASSERT_MSG_EQ((MpiProgram::ParseTime("2.5ms", t) && t == MicroSeconds(2500)),
                              true,
                              "2.5ms");
        NS_TEST_ASSERT_MSG_EQ(MpiProgram::ParseTime("fast", t), false, "not a time");
        NS_TEST_ASSERT_MSG_EQ(MpiProgram::ParseTime("1.2.3s", t), false, "not a number");
        NS_TEST_ASSERT_MSG_EQ(MpiProgram::ParseTime("9223372037s", t), false, "beyond Time");
        // Matches fixed by MPI's order are checked; a wildcard receive's match is timing's.
        NS_TEST_ASSERT_MSG_EQ(MpiProgram::Parse("0 send 1 1 10\n0 send 1 2 1000\n"
                                                "1 recv 0 2 1000\n1 recv 0 1 10\n",
                                                2,
                                                p),
                              "",
                              "per tag, in order");
        NS_TEST_ASSERT_MSG_EQ(MpiProgram::Parse("0 send 1 1 1000\n1 recv any 1 10\n", 2, p),
                              "",
                              "not checked: any source");
        NS_TEST_ASSERT_MSG_EQ(MpiProgram::Parse("0 send 1 1 5\n", 2, p, "t.txt"),
                              "",
                              "an unmatched send is a deadlock, found when it runs");
        NS_TEST_ASSERT_MSG_EQ(MpiProgram::Parse("0 frob\n", 2, p, "t.txt").rfind("t.txt:1: ", 0),
                              0,
                              "file:line");
        struct Bad
        {
            const char* text;
            const char* says;
        };
        for (const Bad& b : {Bad{"2 send 0 1 1\n", "line 1: rank '2' does not exist"},
                             Bad{"0 send 3 1 1\n", "peer '3' is not another rank"},
                             Bad{"0 send 0 1 1\n", "peer '0' is not another rank"},
                             Bad{"0 send 1 1 -5\n", "size '-5'"},
                             Bad{"0 frob\n", "unknown call 'frob'"},
                             Bad{"\n0 wait 4\n", "line 2: wait: request '4' was not started"},
                             Bad{"0 compute 10\n", "is not a time"},
                             Bad{"0 compute soon\n", "is not a time"},
                             Bad{"0 send 1 1\n", "send takes 3 argument(s), got 2"},
                             Bad{"0 compute 99999999999999999999s\n",
                                 "line 1: compute: '99999999999999999999s' is not a time within"},
                             Bad{"", "no MPI operations (the trace is empty or only comments)"},
                             Bad{"# a\n\n  # b\n", "no MPI operations"},
                             Bad{"0 barrier\n\x7f" "ELF\n", "line 2: not text (byte 0x7f)"},
                             Bad{"0 send 1 1 1000\n1 recv 0 1 10\n",
                                 "line 2: recv 0 1 10: the send it matches (line 1, 'send 1 1 "
                                 "1000') carries 1000 bytes, more than 10; MPI_ERR_TRUNCATE"},
                             Bad{"0 send 1 1 5\n0 send 1 1 50\n1 recv 0 1 5\n1 recv 0 1 20\n",
                                 "line 4: recv 0 1 20: the send it matches (line 2"}})
        {
            std::string err = MpiProgram::Parse(b.text, 2, p);
            NS_TEST_ASSERT_MSG_NE(err.find(b.says), std::string::npos, "\"" << err << "\" lacks \"" << b.says << "\"");
        }
    }
};

/**
 * NAS skeletons: the bytes each rank sends per time step follow from the benchmarks' own
 * decompositions (NPB MPI sources), computed here from the published formulas, not from the
 * builder; a step's computation adds up to the benchmark's operation count over the rate; and
 * every configuration of seed 003 Fig. 5 runs to completion with every byte received.
 */
class NasSkeletonTestCase : public TestCase
{
  public:
    NasSkeletonTestCase()
        : TestCase("NAS skeletons: bytes per step, computation, completion")
    {
    }

  private:
    /// Bytes rank @p r sends in the application's context during the simulated steps.
    static uint64_t StepBytes(const NasJob& job, uint32_t r)
    {
        uint64_t bytes = 0;
        for (uint32_t i = job.loopStart[r]; i < job.loopEnd[r]; ++i)
        {
            const MpiOperation& op = job.programs[r][i];
            bool send = op.kind == MpiOperation::SEND || op.kind == MpiOperation::ISEND;
            bytes += send ? op.bytes : 0;
        }
        return bytes / job.simulatedSteps;
    }

    /// Computation of rank @p r per simulated step.
    static Time StepCompute(const NasJob& job, uint32_t r)
    {
        Time t;
        for (uint32_t i = job.loopStart[r]; i < job.loopEnd[r]; ++i)
        {
            const MpiOperation& op = job.programs[r][i];
            t += op.kind == MpiOperation::COMPUTE ? op.duration : Time();
        }
        return t / job.simulatedSteps;
    }

    void DoRun() override
    {
        Ptr<NasSkeleton> nas = CreateObject<NasSkeleton>();
        NS_TEST_ASSERT_MSG_NE(NasSkeleton::Check("bt", 'B', 8), "", "BT needs a square");
        NS_TEST_ASSERT_MSG_NE(NasSkeleton::Check("lu", 'B', 9), "", "LU needs a power of two");
        NS_TEST_ASSERT_MSG_NE(NasSkeleton::Check("ft", 'B', 4), "", "no FT skeleton");
        NS_TEST_ASSERT_MSG_NE(NasSkeleton::Check("mg", 'A', 4), "", "class A not modelled");

        // BT, class B, 4 ranks (p = 2, cells of 51): copy_faces 6 x (p-1) 51^2 x 10 doubles;
        // each direction's solve (p - 1) forward (52^2 x 30 doubles, MAX_CELL_DIM = 52) and
        // backward (52^2 x 5) messages. 9 ranks: cells of 34, MAX_CELL_DIM 35.
        NasJob bt4 = nas->Build("bt", 'B', 4, 2);
        NS_TEST_ASSERT_MSG_EQ(StepBytes(bt4, 0),
                              6ull * 51 * 51 * 80 + 3ull * 52 * 52 * 35 * 8,
                              "BT.B.4 bytes per step");
        // NPB 2.x BT (x_solve.f: "overlap computations and communications"): after each
        // forward-elimination receive is posted, the cell's lhs is formed (~350 of ~1150
        // flops per point of the direction's forward work, 95 % of its 29.67 % of a step)
        // before the waits.
        const double lhsSeconds = 3.5112e9 / 4 * 0.89 / 3 * 0.95 * 350 / 1150 / 2 / 300e6;
        uint32_t overlapped = 0;
        const auto& ops = bt4.programs[0];
        for (uint32_t i = bt4.loopStart[0]; i + 1 < bt4.loopEnd[0]; ++i)
        {
            if (ops[i].kind == MpiOperation::IRECV && ops[i].bytes == 52u * 52 * 30 * 8)
            {
                NS_TEST_ASSERT_MSG_EQ(ops[i + 1].kind, MpiOperation::COMPUTE, "lhs after irecv");
                NS_TEST_ASSERT_MSG_EQ_TOL(ops[i + 1].duration.GetSeconds(),
                                          lhsSeconds,
                                          1e-4,
                                          "BT.B.4 lhs of a cell");
                ++overlapped;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(overlapped, 3u * 2, "one forward receive per direction and step");
        NasJob bt9 = nas->Build("bt", 'B', 9, 1);
        NS_TEST_ASSERT_MSG_EQ(StepBytes(bt9, 4),
                              6ull * 2 * 34 * 34 * 80 + 3ull * 2 * 35 * 35 * 35 * 8,
                              "BT.B.9 bytes per step");
        // SP, class B, 4 ranks: every cell touches the boundary across every direction, so a
        // solve message covers 50 x 50 lines: forward 22, backward 10 doubles per line.
        NasJob sp4 = nas->Build("sp", 'B', 4, 1);
        NS_TEST_ASSERT_MSG_EQ(StepBytes(sp4, 3),
                              6ull * 51 * 51 * 80 + 3ull * 50 * 50 * 32 * 8,
                              "SP.B.4 bytes per step");
        // LU, class B, 2 x 2 ranks: 100 planes of one 50-point line (5 doubles a point) to
        // each downstream neighbour, and exchange_3's two planes of 51 x 102 points per face.
        NasJob lu4 = nas->Build("lu", 'B', 4, 1);
        for (uint32_t r : {0u, 3u})
        {
            NS_TEST_ASSERT_MSG_EQ(StepBytes(lu4, r),
                                  100ull * 2 * 50 * 40 + 2ull * 10 * 51 * 102 * 8,
                                  "LU.B.4 bytes per step");
        }
        // MG, class B, 8 ranks (2 x 2 x 2): per level k, a = 2^(k-1) points per axis; comm3
        // sends a^2, (a+2) a and (a+2)^2 doubles twice each; 3 comm3 per level from 2 to 8,
        // 2 on level 1. The NPB notes give 3.22 MB per rank per step.
        uint64_t mg = 0;
        for (uint64_t k = 1; k <= 8; ++k)
        {
            uint64_t a = (1ull << k) / 2;
            mg += (k == 1 ? 2 : 3) * 2 * 8 * (a * a + (a + 2) * a + (a + 2) * (a + 2));
        }
        NasJob mg8 = nas->Build("mg", 'B', 8, 1);
        NS_TEST_ASSERT_MSG_EQ(StepBytes(mg8, 5), mg, "MG.B.8 bytes per step");
        NS_TEST_ASSERT_MSG_EQ_TOL(double(mg) / 1e6, 3.22, 0.01, "MG.B.8 against the notes");
        // IS, class B, 4 ranks: rank 0 sends each other rank the keys of its buckets (shares
        // 0.2498, 0.2519, 0.2481 of 2^23 keys, 4 bytes each), 2 rounds of the 1029-int
        // Allreduce and 3 send counts.
        // Under LA-MPI's algorithms rank 0 sends the Allreduce's result to ranks 1 and 2 (its
        // high-bit broadcast on 4 ranks), nothing in the reduce (it is the root).
        NasJob is4 = nas->Build("is", 'B', 4, 1);
        uint64_t keys = 4 * (std::llround(8388608 * 0.2498) + std::llround(8388608 * 0.2519) +
                             std::llround(8388608 * 0.2481));
        MpiHelper lampi;
        lampi.SetMpiProfile("lampi-gm");
        Ptr<MpiCollectives> lampiColl = lampi.CreateCollectives();
        auto sentBytes = [&lampiColl](const MpiOperation& op, uint32_t rank, uint32_t n) {
            uint64_t bytes = 0;
            uint32_t request = MpiProgram::kLibraryRequests;
            std::vector<MpiOperation> calls = {op};
            if (op.kind == MpiOperation::COLLECTIVE)
            {
                calls = lampiColl->Expand(*op.collective, n, rank, 0, request);
            }
            for (const auto& c : calls)
            {
                bool send = c.kind == MpiOperation::SEND || c.kind == MpiOperation::ISEND;
                bytes += send ? c.bytes : 0;
            }
            return bytes;
        };
        uint64_t isBytes = 0;
        for (uint32_t i = is4.loopStart[0]; i < is4.loopEnd[0]; ++i)
        {
            isBytes += sentBytes(is4.programs[0][i], 0, 4);
        }
        NS_TEST_ASSERT_MSG_EQ(isBytes, keys + 2 * 4116 + 3 * 4, "IS.B.4 bytes per step");

        // A step's computation is the benchmark's operation count over the rate: BT.B 3.511e9
        // flops per step at 300 Mflop/s on 4 ranks; LU's ranks differ by their plane areas
        // only (the mean is the balanced share).
        NS_TEST_ASSERT_MSG_EQ_TOL(StepCompute(bt4, 2).GetSeconds(),
                                  3.5112e9 / 4 / 300e6,
                                  0.001,
                                  "BT.B.4 computation per step");
        NasJob lu8 = nas->Build("lu", 'B', 8, 1);
        double mean = 0;
        for (uint32_t r = 0; r < 8; ++r)
        {
            mean += StepCompute(lu8, r).GetSeconds() / 8;
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(mean, 1.9953e9 / 8 / 340e6, 0.0005, "LU.B.8 computation");
        NS_TEST_ASSERT_MSG_GT(StepCompute(lu8, 1), StepCompute(lu8, 3), "26- vs 24-line row");

        // Every configuration of Fig. 5 completes (no receive left unmatched).
        MpiHelper profile;
        profile.SetMpiProfile("lampi-gm");
        for (const auto& [bench, cls, ranks] :
             std::vector<std::tuple<std::string, char, uint32_t>>{
                 {"bt", 'B', 4}, {"bt", 'B', 9}, {"bt", 'C', 9}, {"sp", 'B', 4}, {"sp", 'B', 9},
                 {"sp", 'C', 9}, {"lu", 'B', 4}, {"lu", 'B', 8}, {"lu", 'C', 8}, {"is", 'B', 4},
                 {"is", 'B', 8}, {"is", 'C', 8}, {"mg", 'B', 4}, {"mg", 'B', 8}, {"mg", 'C', 8}})
        {
            NasJob job = nas->Build(bench, cls, ranks, 1);
            TestJob run(job.programs, profile);
            std::string what = bench + "." + std::string(1, cls) + "." + std::to_string(ranks);
            NS_TEST_ASSERT_MSG_EQ(run.Run(), "", what + " completes");
            uint64_t sent = 0;
            for (uint32_t r = 0; r < ranks; ++r)
            {
                for (const auto& op : job.programs[r])
                {
                    sent += sentBytes(op, r, ranks);
                }
            }
            uint64_t received = 0;
            for (const auto& [rank, src, tag, bytes] : run.received)
            {
                received += bytes;
            }
            NS_TEST_ASSERT_MSG_EQ(received, sent, what + ": bytes received = bytes sent");
        }
    }
};

/**
 * NasJob::EstimateTime: the timed region of each rank with the simulated steps scaled to the
 * benchmark's, the largest over ranks.
 */
class NasEstimateTestCase : public TestCase
{
  public:
    NasEstimateTestCase()
        : TestCase("NAS skeletons: the benchmark time extrapolated from simulated steps")
    {
    }

  private:
    void DoRun() override
    {
        NasJob job;
        job.programs.assign(2, std::vector<MpiOperation>(5, MpiOperation::Compute(Seconds(1))));
        job.timerStart = {1, 1};
        job.loopStart = {2, 2};
        job.loopEnd = {4, 4};
        job.simulatedSteps = 2;
        job.benchmarkSteps = 10;
        // Rank 0: timer at 1 s, loop 2-4 s (two steps of 1 s), done at 5 s: 1 + 5 x 2 + 1.
        // Rank 1: timer at 2 s, loop 3-7 s, done at 8 s: 1 + 5 x 4 + 1 = 22 s.
        std::vector<std::vector<Time>> done = {
            {Seconds(1), Seconds(2), Seconds(3), Seconds(4), Seconds(5)},
            {Seconds(2), Seconds(3), Seconds(5), Seconds(7), Seconds(8)}};
        NS_TEST_ASSERT_MSG_EQ(job.EstimateTime(done), Seconds(22), "slowest rank, scaled");
    }
};

/**
 * The MPI TestSuite.
 */
class MpiTestSuite : public TestSuite
{
  public:
    MpiTestSuite()
        : TestSuite("clusternet-mpi", Type::UNIT)
    {
        AddTestCase(new MpiProgramTestCase, TestCase::Duration::QUICK);
        AddTestCase(new MpiMatchingTestCase, TestCase::Duration::QUICK);
        AddTestCase(new MpiStateTestCase, TestCase::Duration::QUICK);
        AddTestCase(new MpiSwitchOverTestCase, TestCase::Duration::QUICK);
        AddTestCase(new MpiCostScalingTestCase, TestCase::Duration::QUICK);
        AddTestCase(new MpiCollectivesTestCase, TestCase::Duration::QUICK);
        AddTestCase(new NasSkeletonTestCase, TestCase::Duration::QUICK);
        AddTestCase(new NasEstimateTestCase, TestCase::Duration::QUICK);
        AddTestCase(new MpiRendezvousTestCase, TestCase::Duration::QUICK);
        AddTestCase(new MpiDeadlockTestCase, TestCase::Duration::QUICK);
        AddTestCase(new MpiNonBlockingBarrierTestCase, TestCase::Duration::QUICK);
        AddTestCase(new MpiTcpTestCase, TestCase::Duration::QUICK);
        AddTestCase(new MpiSocketBufferTestCase, TestCase::Duration::QUICK);
        AddTestCase(new MpiTcpStreamTestCase, TestCase::Duration::QUICK);
        AddTestCase(new MpiProgressOverlapTestCase, TestCase::Duration::QUICK);
        AddTestCase(new LampiQualitativeTestCase, TestCase::Duration::QUICK);
        AddTestCase(new MpiViaTestCase, TestCase::Duration::QUICK);
    }
};

/// Static instance registering the suite.
static MpiTestSuite g_mpiTestSuite;

} // namespace
