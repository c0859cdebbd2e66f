// SPDX-License-Identifier: GPL-2.0-only
//
// MPI over GM on the machine the harness's GmExperiment builds (seed 001).

#include "gm-experiment.h"

#include "ns3/clusternet-module.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/test.h"

#include <map>
#include <set>

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


using Op = MpiOperation;

/**
 * Over GM between two P200/LANai9 hosts: short messages are one GM message each, long ones
 * three (RTS, CTS, the data); every message arrives, in order.
 */
class MpiGmTestCase : public TestCase
{
  public:
    MpiGmTestCase()
        : TestCase("MPI over GM: one GM message per eager send, three per rendezvous, in order")
    {
    }

  private:
    void DoRun() override
    {
        GmConfig config;
        GmExperiment exp(config);
        MpiHelper mpi;
        mpi.SetMpiProfile("mpich-gm");
        mpi.SetGmTransportAttribute("PortId", UintegerValue(4));
        GmHelper gm;
        gm.SetHostProfile(config.host);
        std::vector<uint32_t> sizes = {1, 4096, 16000, 16001, 100000};
        std::vector<std::vector<Op>> p(2);
        uint32_t eager = 0;
        uint32_t rendezvous = 0;
        for (uint32_t s : sizes)
        {
            p[0].push_back(Op::Send(1, 1, s));
            p[1].push_back(Op::Recv(0, Op::ANY_TAG, s));
            (s <= 16000 ? eager : rendezvous) += 1;
        }
        std::vector<Ptr<MpiRank>> ranks =
            mpi.InstallGm({exp.GetMcp(0), exp.GetMcp(1)}, gm, p);
        std::vector<uint32_t> got;
        ranks[1]->TraceConnectWithoutContext(
            "Received",
            Callback<void, uint32_t, int32_t, uint32_t>(
                [&](uint32_t, int32_t, uint32_t bytes) { got.push_back(bytes); }));
        NS_TEST_ASSERT_MSG_EQ(RunJob(ranks, Seconds(10)), "", "no deadlock");
        NS_TEST_ASSERT_MSG_EQ((got == sizes), true, "every message, in order");
        // Rank 1 receives the eager messages, the RTSs and the data; rank 0 the CTSs.
        NS_TEST_ASSERT_MSG_EQ(exp.GetMcp(1)->GetMessagesDelivered(),
                              uint64_t(eager + 2 * rendezvous),
                              "GM messages to the receiver");
        NS_TEST_ASSERT_MSG_EQ(exp.GetMcp(0)->GetMessagesDelivered(),
                              uint64_t(rendezvous),
                              "one CTS per rendezvous");
    }
};

/**
 * LA-MPI's GM path on the seed-003 machine (Athlon XP, LANai 7.2): a long message's data goes
 * as GM messages of BounceSize bytes (header and data), the last one shorter. With one
 * fragment allowed in flight, a fragment's first packet leaves only after the previous
 * fragment's last packet was acknowledged (its send callback needs the ACK); with no limit
 * GM streams the next fragment before that ACK is back.
 */
class MpiGmFragmentTestCase : public TestCase
{
  public:
    MpiGmFragmentTestCase()
        : TestCase("LA-MPI over GM: long data in bounce-buffer fragments, a limit in flight")
    {
    }

  private:
    /// A GM message the sender transmitted: its length, when its first packet left and when
    /// the ACK of its last packet came back.
    struct Sent
    {
        uint32_t length{0};
        Time first;
        Time acked;
    };

    std::vector<Sent> Run(uint32_t bytes, uint32_t maxOutstanding)
    {
        GmConfig config;
        config.host = "athlonxp2800-fbsd47";
        config.lanai = "lanai72";
        GmExperiment exp(config);
        MpiHelper mpi;
        mpi.SetMpiProfile("lampi-gm");
        mpi.SetGmTransportAttribute("PortId", UintegerValue(4));
        mpi.SetGmTransportAttribute("MaxOutstandingFragments", UintegerValue(maxOutstanding));
        GmHelper gm;
        gm.SetHostProfile(config.host);
        std::vector<std::vector<Op>> p(2);
        p[0] = {Op::Send(1, 1, bytes)};
        p[1] = {Op::Recv(0, 1, bytes)};
        std::vector<Ptr<MpiRank>> ranks =
            mpi.InstallGm({exp.GetMcp(0), exp.GetMcp(1)}, gm, p);
        std::vector<Sent> sent;
        std::map<uint32_t, size_t> lastPacket; // sequence number -> message it ends
        exp.GetMcp(0)->TraceConnectWithoutContext(
            "Tx",
            Callback<void, Ptr<const Packet>>([&](Ptr<const Packet> packet) {
                GmHeader h;
                packet->PeekHeader(h);
                if (h.GetKind() != GmHeader::DATA)
                {
                    return;
                }
                if (h.GetOffset() == 0)
                {
                    sent.push_back({h.GetMessageLength(), Simulator::Now(), Time()});
                }
                uint32_t data = packet->GetSize() - h.GetSerializedSize();
                if (h.GetOffset() + data == h.GetMessageLength())
                {
                    lastPacket[h.GetSequence()] = sent.size() - 1;
                }
            }));
        exp.GetMcp(0)->TraceConnectWithoutContext(
            "Rx",
            Callback<void, Ptr<const Packet>>([&](Ptr<const Packet> packet) {
                GmHeader h;
                packet->PeekHeader(h);
                auto it = lastPacket.find(h.GetSequence());
                if (h.GetKind() == GmHeader::ACK && it != lastPacket.end())
                {
                    sent[it->second].acked = Simulator::Now();
                }
            }));
        NS_TEST_EXPECT_MSG_EQ(RunJob(ranks, Seconds(10)), "", "no deadlock");
        return sent;
    }

    void DoRun() override
    {
        const uint32_t bounce = 65528; // lanl/lampi GMFRAG_DEFAULT_FRAGMENT_SIZE
        const uint32_t header = 72;    // lanl/lampi HEADER_SIZE, 18 x 4 bytes
        const uint32_t bytes = 300000;
        const uint32_t full = bytes / (bounce - header);
        const uint32_t rest = bytes - full * (bounce - header);

        std::vector<Sent> limited = Run(bytes, 1);
        NS_TEST_ASSERT_MSG_EQ(limited.size(), full + 2, "the RTS and the fragments");
        NS_TEST_ASSERT_MSG_EQ(limited.front().length, header, "the RTS: a header");
        for (uint32_t i = 1; i <= full; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(limited[i].length, bounce, "a full fragment");
        }
        NS_TEST_ASSERT_MSG_EQ(limited.back().length, rest + header, "the last fragment");
        for (uint32_t i = 2; i < limited.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_GT(limited[i - 1].acked, limited[i - 1].first, "its ACK came back");
            NS_TEST_ASSERT_MSG_GT(limited[i].first,
                                  limited[i - 1].acked,
                                  "one fragment in flight: the next leaves after its ACK");
        }
        std::vector<Sent> free = Run(bytes, 0);
        NS_TEST_ASSERT_MSG_EQ(free.size(), full + 2, "the same fragments");
        NS_TEST_ASSERT_MSG_LT(free[2].first,
                              free[1].acked,
                              "no limit: the second fragment leaves before the first's ACK");
    }
};

/**
 * clusternet-harness-gm: tests of the harness's experiments.
 */
class GmExperimentTestSuite : public TestSuite
{
  public:
    GmExperimentTestSuite()
        : TestSuite("clusternet-harness-gm", Type::UNIT)
    {
        AddTestCase(new MpiGmTestCase, TestCase::Duration::QUICK);
        AddTestCase(new MpiGmFragmentTestCase, TestCase::Duration::QUICK);
    }
};

/// Static instance registering the suite.
static GmExperimentTestSuite g_gmExperimentTestSuite;

} // namespace
