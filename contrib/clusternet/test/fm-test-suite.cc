// SPDX-License-Identifier: GPL-2.0-only
//
// HPVM / Fast Messages TestSuite (seed 004). Expectations come from PCI and FSB cycle
// arithmetic computed here and from invariants: credits bound what is in flight, the receive
// region is never overrun, shared-memory frames are delivered exactly once, and the pacing
// probe picks the chunk that fits the bridge's queue.

#include "ns3/clusternet-module.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/test.h"

#include <algorithm>
#include <map>
#include <set>

using namespace ns3;
using namespace ns3::clusternet;

namespace
{

/**
 * A paced 160-byte write on an idle 32-bit/33 MHz bus: the first line reaches the bridge after
 * one line time (FsbCyclesPerLine at FsbClock), then the five lines go out as one PIO burst of
 * TransactionOverhead + 40 data cycles. A 192-byte write into a 5-line queue with Retry
 * overflows, and every line after the overflow pays the transaction overhead.
 */
class HostBridgeTestCase : public TestCase
{
  public:
    HostBridgeTestCase()
        : TestCase("Host bridge: one PCI burst for a queue-sized write; overflow breaks bursts")
    {
    }

  private:
    Time WriteTime(uint32_t bytes, HostBridge::FullQueuePolicy policy, uint64_t& transactions)
    {
        Ptr<PciBus> bus = CreateObject<PciBus>(); // 32-bit, 33 MHz, overhead 4
        Ptr<HostBridge> bridge = CreateObject<HostBridge>();
        bridge->SetAttribute("QueueLines", UintegerValue(5));
        bridge->SetAttribute("FsbClock", UintegerValue(100));
        bridge->SetAttribute("FsbCyclesPerLine", UintegerValue(6));
        bridge->SetAttribute("FullQueue", EnumValue(policy));
        bridge->SetBus(bus);
        Time end;
        bridge->Write(bytes, 0, Callback<void>(), [&end]() { end = Simulator::Now(); });
        Simulator::Run();
        transactions = bridge->GetTransactions();
        NS_TEST_EXPECT_MSG_LT_OR_EQ(bridge->GetMaxQueuedLines(), 5u, "queue depth exceeded");
        Simulator::Destroy();
        return end;
    }

    void DoRun() override
    {
        uint64_t tr = 0;
        // 60 ns to the bridge, then (4 + 160 / 4) cycles of 30 ns.
        Time t = WriteTime(160, HostBridge::RETRY, tr);
        NS_TEST_ASSERT_MSG_EQ(t, NanoSeconds(60 + (4 + 40) * 30), "160 B in one burst");
        NS_TEST_ASSERT_MSG_EQ(tr, 1u, "one PCI transaction");
        // Stall: 192 B (6 lines) still one burst, 8 more data cycles.
        t = WriteTime(192, HostBridge::STALL, tr);
        NS_TEST_ASSERT_MSG_EQ(t, NanoSeconds(60 + (4 + 48) * 30), "192 B in one burst (Stall)");
        NS_TEST_ASSERT_MSG_EQ(tr, 1u, "one PCI transaction (Stall)");
        // Retry: the 6th line finds the queue full (5 lines arrive in 300 ns, none has left
        // the bus by then), so it and the lines still queued go out one transaction each.
        WriteTime(192, HostBridge::RETRY, tr);
        NS_TEST_ASSERT_MSG_GT(tr, 1u, "the overflow breaks the burst (Retry)");
    }
};

/**
 * Coherence misses of the SMT steps, counted by hand from the protocol: a read misses when
 * the reader holds no copy of the line, a write when anyone else holds one (or nobody does).
 * One sender to one receiver, steady state: the sender misses on the frame's header (the
 * receiver cleared its in-use flag) and on the slot line (the receiver cleared the slot); the
 * receiver on the frame header (read), the slot (clear) and the in-use flag (clear). Two
 * senders sharing one queue (M = 1) also miss on the free-list head and the receive-queue
 * tail, which bounce between them; with M = 2 they do not.
 */
class FmSmtCoherenceTestCase : public TestCase
{
  public:
    FmSmtCoherenceTestCase()
        : TestCase("FM SMT: coherence misses per step (one sender; two senders, M = 1 vs 2)")
    {
    }

  private:
    struct Counts
    {
        uint32_t acquire; //!< sender: AcquireFrame
        uint32_t post;    //!< sender: MissesToPost
        uint32_t receive; //!< receiver: Take and Release
    };

    static Counts Message(Ptr<FmSmt> smt, uint32_t sender)
    {
        Counts c{};
        int32_t frame = smt->AcquireFrame(0, sender);
        c.acquire = smt->CollectMisses(sender);
        c.post = smt->MissesToPost(0, sender);
        smt->Post(0, sender, frame, Create<Packet>(8));
        uint32_t queue = smt->QueueOf(sender);
        int32_t taken = -1;
        smt->Take(0, queue, taken);
        smt->Release(0, queue, taken);
        c.receive = smt->CollectMisses(0);
        return c;
    }

    static Ptr<FmSmt> Region(uint32_t processes, uint32_t queues)
    {
        Ptr<FmSmt> smt = CreateObject<FmSmt>();
        smt->SetAttribute("FreeListFrames", UintegerValue(4));
        smt->SetAttribute("MaxProcesses", UintegerValue(processes));
        smt->SetAttribute("Queues", UintegerValue(queues));
        for (uint32_t p = 0; p < processes; ++p)
        {
            smt->Attach(FmSmt::PostedCallback());
        }
        return smt;
    }

    void DoRun() override
    {
        Ptr<FmSmt> smt = Region(2, 1);
        Counts first = Message(smt, 1);
        NS_TEST_ASSERT_MSG_EQ(first.acquire, 2u, "cold: free-list head and frame header");
        NS_TEST_ASSERT_MSG_EQ(first.post, 2u, "cold: tail and slot line");
        NS_TEST_ASSERT_MSG_EQ(first.receive,
                              4u,
                              "cold head; frame read, slot clear, flag clear");
        uint64_t total = smt->GetMisses();
        NS_TEST_ASSERT_MSG_EQ(total, 2u + 2u + 3u + 1u, "every miss counted once");
        // 12 more: slots cross into a second line, frames wrap the 4-frame ring
        for (int i = 0; i < 12; ++i)
        {
            Counts c = Message(smt, 1);
            NS_TEST_ASSERT_MSG_EQ(c.acquire, 1u, "steady: the frame header only");
            NS_TEST_ASSERT_MSG_EQ(c.post, 1u, "steady: the slot line only");
            NS_TEST_ASSERT_MSG_EQ(c.receive, 3u, "steady: frame read, slot and flag clears");
        }

        for (uint32_t m : {1u, 2u})
        {
            Ptr<FmSmt> two = Region(3, m);
            Message(two, 1);
            Message(two, 2);
            Counts c1 = Message(two, 1);
            Counts c2 = Message(two, 2);
            uint32_t expected = m == 1 ? 2 : 1; // + head, + tail when the lines bounce
            NS_TEST_ASSERT_MSG_EQ(c1.acquire, expected, "sender 1 acquire, M=" << m);
            NS_TEST_ASSERT_MSG_EQ(c2.acquire, expected, "sender 2 acquire, M=" << m);
            NS_TEST_ASSERT_MSG_EQ(c1.post, expected, "sender 1 post, M=" << m);
            NS_TEST_ASSERT_MSG_EQ(c2.post, expected, "sender 2 post, M=" << m);
        }
    }
};

/**
 * An HPVM machine from the module alone (HostHelper, MyrinetHelper, FmHelper): two hosts on one
 * XBar16 switch, two processes each, talking through shared memory within a host. Every process
 * is every other's peer with the credits the run chose (7); a 4096-byte message between the
 * processes of one host goes through the shared region (the NIC sends nothing), one to the other
 * host crosses the NICs as two packets of 2048 data bytes (FM's MTU).
 */
class FmHelperTestCase : public TestCase
{
  public:
    FmHelperTestCase()
        : TestCase("FmHelper: 2 hosts x 2 processes; peers, credits, shared memory vs the NIC")
    {
    }

  private:
    void DoRun() override
    {
        const std::string host = "pii450-netserver-nt4";
        ProfileSet values = FmHelper::ProfileValues("lanai4", host, "440bx", "hpvm19");
        values.Set("fm", "Intranode", "Smt");
        values.Set("fm", "Credits", "7");
        values.Set("smt", "MaxProcesses", "2");
        NodeContainer nodes;
        nodes.Create(2);
        HostHelper hosts;
        NS_TEST_ASSERT_MSG_EQ(hosts.SetHostProfile(host), true, "host profile " << host);
        hosts.Install(nodes);
        FmHelper fm(values);
        fm.SetProcesses(2);
        MyrinetHelper myrinet;
        fm.ConfigureFabric(myrinet);
        NodeContainer switches;
        NetDeviceContainer ports = myrinet.InstallLine(nodes, 1, switches);
        std::vector<FmHelper::Host> built = fm.Install(nodes, ports);
        NS_TEST_ASSERT_MSG_EQ(built.size(), 2, "one entry per host");
        NS_TEST_ASSERT_MSG_EQ(FmHelper::AssignStreams(built, 1),
                              6,
                              "one stream per control program and per process");
        for (uint16_t h = 0; h < 2; ++h)
        {
            NS_TEST_ASSERT_MSG_EQ(built[h].mcp->GetNodeId(), h, "FM node id of host " << h);
            NS_TEST_ASSERT_MSG_NE(built[h].smt, nullptr, "shared region on host " << h);
            NS_TEST_ASSERT_MSG_EQ(nodes.Get(h)->GetObject<FmMcp>(), built[h].mcp, "aggregated");
            NS_TEST_ASSERT_MSG_EQ(built[h].processes.size(), 2, "processes on host " << h);
            for (uint8_t p = 0; p < 2; ++p)
            {
                for (uint16_t h2 = 0; h2 < 2; ++h2)
                {
                    for (uint8_t p2 = 0; p2 < 2; ++p2)
                    {
                        if (h != h2 || p != p2)
                        {
                            NS_TEST_ASSERT_MSG_EQ(built[h].processes[p]->GetCredits(h2, p2),
                                                  7,
                                                  "credits of (" << h << "," << +p << ") to ("
                                                                 << h2 << "," << +p2 << ")");
                        }
                    }
                }
            }
        }
        if (IsStatusFailure())
        {
            return; // a missing peer would stop the run below
        }
        // HPVM 1.9 notices arrivals in memory: a waiting process polls a flag, never a pass
        // across PCI; the sender works, then waits again.
        std::vector<FmContext::State> states;
        built[0].processes[0]->TraceConnectWithoutContext(
            "State",
            Callback<void, FmContext::State, FmContext::State>(
                [&states](FmContext::State, FmContext::State to) { states.push_back(to); }));
        FmHelper::Start(built);
        built[0].processes[0]->Send(0, 1, 4096);
        built[0].processes[0]->Send(1, 1, 4096);
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(built[0].processes[1]->GetBytesReceived(), 4096, "within host 0");
        NS_TEST_ASSERT_MSG_EQ(built[1].processes[1]->GetBytesReceived(), 4096, "host 0 to 1");
        NS_TEST_ASSERT_MSG_EQ(built[0].mcp->GetPacketsSent(), 2, "host 0's NIC: 4096 / 2048");
        NS_TEST_ASSERT_MSG_EQ(built[1].mcp->GetPacketsDelivered(), 2, "host 1's NIC delivers");
        const bool worked =
            std::find(states.begin(), states.end(), FmContext::WORKING) != states.end();
        NS_TEST_ASSERT_MSG_EQ(worked, true, "the sender worked");
        NS_TEST_ASSERT_MSG_EQ(std::count(states.begin(), states.end(), FmContext::POLL_PASS),
                              0,
                              "no PCI poll pass with memory notification");
        NS_TEST_ASSERT_MSG_EQ(built[0].processes[0]->GetState(),
                              FmContext::POLLING,
                              "the sender waits in its poll loop at the end");
        Simulator::Destroy();
    }
};

/**
 * The FM TestSuite.
 */
class FmTestSuite : public TestSuite
{
  public:
    FmTestSuite()
        : TestSuite("clusternet-fm", Type::UNIT)
    {
        AddTestCase(new HostBridgeTestCase, TestCase::Duration::QUICK);
        AddTestCase(new FmSmtCoherenceTestCase, TestCase::Duration::QUICK);
        AddTestCase(new FmHelperTestCase, TestCase::Duration::QUICK);
    }
};

/// Static instance registering the suite.
static FmTestSuite g_fmTestSuite;

} // namespace
