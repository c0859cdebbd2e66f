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
        NS_TEST_ASSERT_MSG_EQ(MpiJob::Run(ranks, Seconds(10)), "", "no deadlock");
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
 * clusternet-harness-gm: tests of the harness's experiments.
 */
class GmExperimentTestSuite : public TestSuite
{
  public:
    GmExperimentTestSuite()
        : TestSuite("clusternet-harness-gm", Type::UNIT)
    {
        AddTestCase(new MpiGmTestCase, TestCase::Duration::QUICK);
    }
};

/// Static instance registering the suite.
static GmExperimentTestSuite g_gmExperimentTestSuite;

} // namespace
