// SPDX-License-Identifier: GPL-2.0-only
//
// Applications TestSuite: the kernel UDP benchmark and NetPIPE. Expectations are computed
// here (block schedules, wire and host times), independently of the code under test.

#include "ns3/applications-module.h"
#include "ns3/clusternet-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/test.h"

#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <vector>

using namespace ns3;
using namespace ns3::clusternet;

/**
 * The kernel-level UDP benchmark (seed 003 sec. 3.1) between two Athlon XP / FreeBSD 4.7 hosts
 * with PRO/1000 MT NICs back to back. IP fragmentation: a fragment carries (MTU - 20) rounded
 * down to 8 bytes of the UDP datagram (its 8-byte header included). Interrupt coalescing of
 * the em driver only delays interrupts, so turning it off never raises the latency. A stream
 * on the lossless link delivers every datagram, and its payload rate stays under the wire's:
 * a 1472-byte datagram is a 1538-byte slot (preamble 8, Ethernet 14 + 4, IP 20, UDP 8, gap 12).
 */
class KernelUdpBenchmarkTestCase : public TestCase
{
  public:
    KernelUdpBenchmarkTestCase()
        : TestCase("Kernel UDP benchmark: fragmentation, coalescing and conservation")
    {
    }

  private:
    struct Result
    {
        std::vector<Time> latency;
        double bps{0};
        uint32_t received{0};

        void Count(uint32_t)
        {
            ++received;
        }
    };

    Result Run(const std::string& nic, const std::vector<uint32_t>& sizes, uint32_t count)
    {
        NodeContainer nodes;
        nodes.Create(2);
        HostHelper hosts;
        hosts.SetHostProfile("athlonxp2800-fbsd47");
        hosts.Install(nodes);
        GigeHelper gige;
        gige.SetNicProfile(nic);
        NetDeviceContainer devs = gige.Install(nodes.Get(0), nodes.Get(1));
        InternetStackHelper internet;
        internet.Install(nodes);
        Ipv4AddressHelper addr("10.5.0.0", "255.255.255.0");
        Ipv4InterfaceContainer ifs = addr.Assign(devs);
        Ptr<KernelUdpBenchmark> a = CreateObject<KernelUdpBenchmark>();
        Ptr<KernelUdpBenchmark> b = CreateObject<KernelUdpBenchmark>();
        nodes.Get(0)->AddApplication(a);
        nodes.Get(1)->AddApplication(b);
        a->SetPeer(ifs.GetAddress(1), b);
        b->SetPeer(ifs.GetAddress(0), a);
        Result r;
        b->TraceConnectWithoutContext("Rx", MakeCallback(&Result::Count, &r));
        auto step = [&](std::function<void()> f) {
            Simulator::ScheduleWithContext(nodes.Get(0)->GetId(), Seconds(0), f);
            Simulator::Run();
        };
        Simulator::Run();
        step([&]() { a->PingPong(1, 1, [](Time) {}); }); // ARP
        for (uint32_t size : sizes)
        {
            step([&]() { a->PingPong(size, 5, [&](Time t) { r.latency.push_back(t); }); });
        }
        r.received = 0;
        step([&]() { a->Stream(1472, count, [&](double bps) { r.bps = bps; }); });
        Simulator::Destroy();
        return r;
    }

    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(KernelUdpBenchmark::FramesPerDatagram(1, 1500), 1u, "1 byte");
        NS_TEST_ASSERT_MSG_EQ(KernelUdpBenchmark::FramesPerDatagram(1472, 1500), 1u, "fits");
        NS_TEST_ASSERT_MSG_EQ(KernelUdpBenchmark::FramesPerDatagram(1473, 1500), 2u, "one over");
        // 65000 + 8 bytes in fragments of 1480: 43 full ones and a 1368-byte tail.
        NS_TEST_ASSERT_MSG_EQ(KernelUdpBenchmark::FramesPerDatagram(65000, 1500), 44u, "64 KB");
        NS_TEST_ASSERT_MSG_EQ(KernelUdpBenchmark::FramesPerDatagram(8000, 9000), 1u, "jumbo");

        const std::vector<uint32_t> sizes = {1, 1472, 4096};
        const uint32_t count = 200;
        Result on = Run("pro1000mt", sizes, count);
        Result off = Run("pro1000mt-nocoal", sizes, count);
        for (std::size_t i = 0; i < sizes.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_LT_OR_EQ(off.latency.at(i),
                                        on.latency.at(i),
                                        "coalescing off raised the latency at " << sizes[i]);
        }
        const double wire = 1e9 * 1472.0 / 1538.0;
        for (const Result* r : {&on, &off})
        {
            NS_TEST_ASSERT_MSG_EQ(r->received, count, "every datagram arrives");
            NS_TEST_ASSERT_MSG_GT(r->bps, 0.0, "a stream rate");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(r->bps, wire * 1.0001, "above the wire's payload rate");
        }
    }
};

/**
 * NetPIPE's block schedule: 1, 2, 3, 4, then n-3, n, n+3 around 6, 8, 12, 16, 24, ...
 */
class NetpipeScheduleTestCase : public TestCase
{
  public:
    NetpipeScheduleTestCase()
        : TestCase("NetPIPE block sizes with +-3 perturbations")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<uint32_t> s = NetpipeApplication::BlockSizes(20000);
        std::vector<uint32_t> head(s.begin(), s.begin() + 10);
        std::vector<uint32_t> expect = {1, 2, 3, 4, 3, 6, 9, 5, 8, 11};
        NS_TEST_ASSERT_MSG_EQ((head == expect), true, "first block sizes");
        auto has = [&s](uint32_t v) { return std::find(s.begin(), s.end(), v) != s.end(); };
        NS_TEST_ASSERT_MSG_EQ(has(16381) && has(16384) && has(16387), true, "16 KB triple");
        NS_TEST_ASSERT_MSG_EQ(has(12288), true, "1.5 x power of two");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(*std::max_element(s.begin(), s.end()), 20000u, "max block");
    }
};

/**
 * NetpipeHelper builds NetPIPE's pair on nodes that have only HostHelper::InstallStack's TCP
 * settings (no CPU, no bus) over ns-3's SimpleNetDevice: the receiver on the second node, the
 * transmitter aimed at its address and port, both with the helper's attributes; the run then
 * measures every block size of the schedule.
 */
class NetpipeHelperTestCase : public TestCase
{
  public:
    NetpipeHelperTestCase()
        : TestCase("NetpipeHelper on nodes with HostHelper::InstallStack")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(2);
        HostHelper hosts;
        hosts.SetHostProfile("piii450-linux22");
        hosts.InstallStack(nodes);
        NS_TEST_ASSERT_MSG_EQ((nodes.Get(0)->GetObject<HostStack>() != nullptr), true, "stack");
        NS_TEST_ASSERT_MSG_EQ((nodes.Get(0)->GetObject<HostCpu>() == nullptr &&
                               nodes.Get(0)->GetObject<PciBus>() == nullptr),
                              true,
                              "InstallStack installs no CPU and no bus");
        SimpleNetDeviceHelper link;
        link.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        NetDeviceContainer devs = link.Install(nodes);
        InternetStackHelper internet;
        internet.Install(nodes);
        Ipv4AddressHelper addr("10.0.0.0", "255.255.255.0");
        Ipv4InterfaceContainer ifs = addr.Assign(devs);

        NetpipeHelper netpipe;
        netpipe.SetAttribute("SocketBuffer", UintegerValue(32768));
        netpipe.SetAttribute("MaxBlock", UintegerValue(100));
        netpipe.SetAttribute("Port", UintegerValue(6001));
        Ptr<NetpipeApplication> tx = netpipe.Install(nodes.Get(0), nodes.Get(1), ifs.GetAddress(1));
        NS_TEST_ASSERT_MSG_EQ(nodes.Get(0)->GetNApplications(), 1u, "transmitter's node");
        NS_TEST_ASSERT_MSG_EQ(nodes.Get(1)->GetNApplications(), 1u, "receiver's node");
        NS_TEST_ASSERT_MSG_EQ((nodes.Get(0)->GetApplication(0) == tx), true, "transmitter");
        StringValue role;
        nodes.Get(1)->GetApplication(0)->GetAttribute("Role", role);
        NS_TEST_ASSERT_MSG_EQ(role.Get(), "Receiver", "the second node receives");
        tx->GetAttribute("Role", role);
        NS_TEST_ASSERT_MSG_EQ(role.Get(), "Transmitter", "the first node transmits");
        AddressValue remote;
        tx->GetAttribute("Remote", remote);
        NS_TEST_ASSERT_MSG_EQ((remote.Get() == Address(InetSocketAddress(ifs.GetAddress(1), 6001))),
                              true,
                              "the transmitter connects to the receiver's address and port");
        UintegerValue sockbuf;
        nodes.Get(1)->GetApplication(0)->GetAttribute("SocketBuffer", sockbuf);
        NS_TEST_ASSERT_MSG_EQ(sockbuf.Get(), 32768u, "the receiver has the helper's attributes");

        tx->SetDoneCallback(Callback<void>([]() { Simulator::Stop(); }));
        Simulator::Stop(Seconds(10));
        Simulator::Run();
        // 1, 2, 3, 4, then n-3, n, n+3 around 6, 8, 12, ..., 96 (the +3 of 96 is 99): 4 + 3 x 9
        NS_TEST_ASSERT_MSG_EQ(tx->GetSamples().size(), 31u, "every block size measured");
        NS_TEST_ASSERT_MSG_EQ(tx->GetSamples().back().bytes, 99u, "the largest block");
        Simulator::Destroy();
    }
};

/**
 * The apps TestSuite.
 */
class AppsTestSuite : public TestSuite
{
  public:
    AppsTestSuite()
        : TestSuite("clusternet-apps", Type::UNIT)
    {
        AddTestCase(new NetpipeHelperTestCase, TestCase::Duration::QUICK);
        AddTestCase(new NetpipeScheduleTestCase, TestCase::Duration::QUICK);
        AddTestCase(new KernelUdpBenchmarkTestCase, TestCase::Duration::QUICK);
    }
};

static AppsTestSuite g_appsTestSuite; //!< Static variable for test initialization
