// SPDX-License-Identifier: GPL-2.0-only
//
// Host layer TestSuite: the PCI bus, the host CPU and the host stack. Every expectation is
// computed here from first principles (PCI cycles, CPU priorities, window accounting),
// independently of the code under test.

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
 * PCI DMA time: width x clock x efficiency, with efficiency = data cycles / (data cycles +
 * per-burst overhead + target latency).
 */
class PciDmaTestCase : public TestCase
{
  public:
    PciDmaTestCase()
        : TestCase("PCI DMA time matches width x clock x efficiency")
    {
    }

  private:
    void DoRun() override
    {
        struct Case
        {
            const char* width;
            const char* clock;
            double bytesPerCycle;
            double cycleNs;
        };
        const Case cases[] = {{"32", "33", 4, 30}, {"64", "66", 8, 15}};
        for (const auto& c : cases)
        {
            Ptr<PciBus> bus = CreateObject<PciBus>();
            bus->SetAttribute("Width", StringValue(c.width));
            bus->SetAttribute("Clock", StringValue(c.clock));
            bus->SetAttribute("BurstSize", UintegerValue(256));
            bus->SetAttribute("TransactionOverhead", UintegerValue(4));
            bus->SetAttribute("ReadLatency", UintegerValue(10));
            bus->SetAttribute("WriteLatency", UintegerValue(1));
            const double bytes = 4096;
            double dataCycles = 256 / c.bytesPerCycle;
            double readEff = dataCycles / (dataCycles + 4 + 10);
            double writeEff = dataCycles / (dataCycles + 4 + 1);
            double rateBytesPerNs = c.bytesPerCycle / c.cycleNs; // width x clock
            Time expectRead = NanoSeconds(bytes / (rateBytesPerNs * readEff));
            Time expectWrite = NanoSeconds(bytes / (rateBytesPerNs * writeEff));
            NS_TEST_ASSERT_MSG_EQ(bus->GetTransferTime(4096, PciBus::DMA_READ), expectRead, "read");
            NS_TEST_ASSERT_MSG_EQ(bus->GetTransferTime(4096, PciBus::DMA_WRITE), expectWrite, "write");

            // Two masters sharing the bus finish together after the sum of their times.
            Time done1;
            Time done2;
            bus->Transfer(4096, PciBus::DMA_READ, [&done1]() { done1 = Simulator::Now(); });
            bus->Transfer(4096, PciBus::DMA_WRITE, [&done2]() { done2 = Simulator::Now(); });
            Simulator::Run();
            Simulator::Destroy();
            NS_TEST_ASSERT_MSG_EQ(std::max(done1, done2), expectRead + expectWrite, "shared bus");
            NS_TEST_ASSERT_MSG_GT(std::min(done1, done2), expectRead, "bursts not interleaved");
        }
    }
};

/**
 * A lone master's bursts follow each other; a second master gets the bus when the burst in
 * progress ends, and the first resumes after it (64-bit/66 MHz: 15 ns cycles, 8 B per cycle).
 */
class PciArbitrationTestCase : public TestCase
{
  public:
    PciArbitrationTestCase()
        : TestCase("PCI: a second master is served at the next burst boundary")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<PciBus> bus = CreateObject<PciBus>();
        bus->SetAttribute("Width", StringValue("64"));
        bus->SetAttribute("Clock", StringValue("66"));
        bus->SetAttribute("BurstSize", UintegerValue(256));
        bus->SetAttribute("TransactionOverhead", UintegerValue(4));
        bus->SetAttribute("ReadLatency", UintegerValue(10));
        bus->SetAttribute("WriteLatency", UintegerValue(1));
        const Time readBurst = NanoSeconds((256 / 8 + 4 + 10) * 15);  // 690 ns
        const Time writeBurst = NanoSeconds((256 / 8 + 4 + 1) * 15); // 555 ns

        // A master's own burst limit: 4096 B in 128 B bursts = 32 x (16 + 4 + 10) cycles.
        NS_TEST_ASSERT_MSG_EQ(bus->GetTransferTime(4096, PciBus::DMA_READ, 128),
                              NanoSeconds(32 * 30 * 15),
                              "128 B bursts");

        Time readDone;
        Time writeDone;
        bus->Transfer(4096, PciBus::DMA_READ, [&readDone]() { readDone = Simulator::Now(); });
        Simulator::Schedule(readBurst + readBurst / 2, [&]() {
            bus->Transfer(256, PciBus::DMA_WRITE, [&writeDone]() {
                writeDone = Simulator::Now();
            });
        });
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(writeDone, readBurst * 2 + writeBurst, "write after 2nd burst");
        NS_TEST_ASSERT_MSG_EQ(readDone, readBurst * 16 + writeBurst, "read resumes after write");
        NS_TEST_ASSERT_MSG_EQ(bus->GetBytesTransferred(), 4096u + 256u, "bytes conserved");
    }
};

/**
 * A DMA engine's pair of transfers (descriptor and frame) on the PCI bus: alone it takes the sum
 * of its bursts; among other masters it is served exactly as two transfers of which the first's
 * completion requests the second (the bus runs a lone pair as one event, so this checks the
 * shortcut against the plain protocol over random traffic).
 */
class PciPairTestCase : public TestCase
{
  public:
    PciPairTestCase()
        : TestCase("PCI: a transfer pair is served as two back-to-back transfers")
    {
    }

  private:
    /// Completion times of the three masters' requests over one random workload.
    struct Log
    {
        std::vector<Time> tx;  //!< pairs read by the transmit engine
        std::vector<Time> rx;  //!< pairs written by the receive engine
        std::vector<Time> pio; //!< CPU register writes and reads
    };

    /// Run the workload drawn from @p seed on a fresh bus; pairs as TransferPair or chained.
    static Log Run(uint32_t seed, bool pairs)
    {
        Ptr<PciBus> bus = CreateObject<PciBus>();
        Log log;
        std::mt19937 rng(seed);
        // Gaps in picoseconds: never a whole number of 30 ns cycles, so no request arrives at
        // the very instant a burst ends (where either order is right).
        auto gap = [&rng]() { return PicoSeconds(rng() % 4000000 + 1 + 2 * (rng() % 7)); };
        auto issue = [bus, pairs](uint32_t a, uint32_t b, PciBus::Direction dir,
                                  Callback<void> done) {
            if (pairs)
            {
                bus->TransferPair(a, b, dir, done, 128);
                return;
            }
            bus->Transfer(a, dir, Callback<void>([bus, b, dir, done]() {
                              bus->Transfer(b, dir, done, 128);
                          }),
                          128);
        };
        std::function<void()> tx;
        std::function<void()> rx;
        std::function<void()> pio;
        tx = [&]() {
            if (log.tx.size() < 300)
            {
                issue(16, 60 + rng() % 9000, PciBus::DMA_READ, Callback<void>([&]() {
                          log.tx.push_back(Simulator::Now());
                          Simulator::Schedule(gap() / 4, tx);
                      }));
            }
        };
        rx = [&]() {
            if (log.rx.size() < 300)
            {
                issue(60 + rng() % 9000, 16, PciBus::DMA_WRITE, Callback<void>([&]() {
                          log.rx.push_back(Simulator::Now());
                          Simulator::Schedule(gap(), rx);
                      }));
            }
        };
        pio = [&]() {
            if (log.pio.size() < 300)
            {
                bool read = rng() % 2;
                bus->Transfer(4,
                              read ? PciBus::PIO_READ : PciBus::PIO_WRITE,
                              Callback<void>([&]() {
                                  log.pio.push_back(Simulator::Now());
                                  Simulator::Schedule(gap(), pio);
                              }));
            }
        };
        Simulator::Schedule(gap(), tx);
        Simulator::Schedule(gap(), rx);
        Simulator::Schedule(gap(), pio);
        Simulator::Run();
        Simulator::Destroy();
        return log;
    }

    void DoRun() override
    {
        // Alone: a 16 B descriptor then a 1500 B frame read on 32 bits at 33 MHz (BurstSize
        // 256, TransactionOverhead 4, ReadLatency 8 cycles): 4 + 8 + 4 cycles, then five
        // bursts of 4 + 8 + 64 and one of 4 + 8 + 55 -> 463 cycles of 30 ns.
        Ptr<PciBus> bus = CreateObject<PciBus>();
        Time done;
        bus->TransferPair(16, 1500, PciBus::DMA_READ, [&done]() { done = Simulator::Now(); });
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(done, NanoSeconds(463 * 30), "a lone pair: the sum of its bursts");
        NS_TEST_ASSERT_MSG_EQ(bus->GetBytesTransferred(), 1516u, "both transfers' bytes");

        // A write request at the very instant the descriptor's read ends (480 ns): from an
        // event scheduled before the pair started it is served first, as ns-3 would run it
        // before the descriptor's own end; from one scheduled after, the frame's first burst
        // (76 cycles) goes first. The 256 B write takes 4 + 1 + 64 cycles; the 1000 B frame
        // 3 x 76 + (4 + 8 + 58) cycles either way.
        for (bool earlier : {true, false})
        {
            for (bool pairs : {true, false})
            {
                Time writeDone;
                Time pairDone;
                Ptr<PciBus> tie = CreateObject<PciBus>();
                auto write = [&]() {
                    tie->Transfer(256, PciBus::DMA_WRITE, [&]() { writeDone = Simulator::Now(); });
                };
                Simulator::Schedule(Seconds(0), [&]() {
                    if (earlier)
                    {
                        Simulator::Schedule(NanoSeconds(480), write);
                    }
                    Callback<void> done([&]() { pairDone = Simulator::Now(); });
                    if (pairs)
                    {
                        tie->TransferPair(16, 1000, PciBus::DMA_READ, done);
                    }
                    else
                    {
                        tie->Transfer(16, PciBus::DMA_READ, Callback<void>([&, done]() {
                                          tie->Transfer(1000, PciBus::DMA_READ, done);
                                      }));
                    }
                    if (!earlier)
                    {
                        Simulator::Schedule(NanoSeconds(480), write);
                    }
                });
                Simulator::Run();
                Simulator::Destroy();
                Time expectWrite = earlier ? NanoSeconds((16 + 69) * 30)
                                           : NanoSeconds((16 + 76 + 69) * 30);
                NS_TEST_ASSERT_MSG_EQ(writeDone,
                                      expectWrite,
                                      "tie at the descriptor's end: pairs " << pairs << ", earlier "
                                                                            << earlier);
                NS_TEST_ASSERT_MSG_EQ(pairDone,
                                      NanoSeconds((16 + 69 + 3 * 76 + 70) * 30),
                                      "pair's end: pairs " << pairs << ", earlier " << earlier);
            }
        }

        for (uint32_t seed = 1; seed <= 20; ++seed)
        {
            Log chained = Run(seed, false);
            Log paired = Run(seed, true);
            NS_TEST_ASSERT_MSG_EQ(paired.tx.size(), 300u, "every transmit pair done");
            NS_TEST_ASSERT_MSG_EQ((paired.tx == chained.tx), true, "transmit pairs, seed " << seed);
            NS_TEST_ASSERT_MSG_EQ((paired.rx == chained.rx), true, "receive pairs, seed " << seed);
            NS_TEST_ASSERT_MSG_EQ((paired.pio == chained.pio), true, "PIO, seed " << seed);
        }
    }
};

/**
 * The receive window a host stack advertises: Linux-style accounting grants mult x SO_RCVBUF
 * of memory and advertises free memory / divisor in whole segments.
 */
class ReceiveWindowTestCase : public TestCase
{
  public:
    ReceiveWindowTestCase()
        : TestCase("Receive window: buffer multiplier, divisor and segment quantization")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<HostStack> plain = CreateObject<HostStack>();
        plain->SetAttribute("Timestamps", BooleanValue(true));
        Ptr<HostTcpSocket> s1 = CreateObject<HostTcpSocket>();
        plain->ConfigureSocket(s1, 65536, 9000);
        NS_TEST_ASSERT_MSG_EQ(s1->GetReceiveWindow(), 65536u, "ns-3 window = SO_RCVBUF");
        NS_TEST_ASSERT_MSG_EQ(plain->MaxReceiveWindow(65536, 9000), 65536u, "plain max");

        Ptr<HostStack> kernel = CreateObject<HostStack>();
        kernel->SetAttribute("Timestamps", BooleanValue(true));
        kernel->SetAttribute("RcvBufMultiplier", DoubleValue(2.0));
        kernel->SetAttribute("WindowDivisor", UintegerValue(2));
        kernel->SetAttribute("QuantizeWindow", BooleanValue(true));
        // 2 x 65536 / 2 = 65536, in whole 8948-byte segments (9000 - 52): 7 x 8948.
        NS_TEST_ASSERT_MSG_EQ(kernel->SegmentSize(9000), 8948u, "MSS with timestamps");
        NS_TEST_ASSERT_MSG_EQ(kernel->MaxReceiveWindow(65536, 9000), 62636u, "max window");
        Ptr<HostTcpSocket> s2 = CreateObject<HostTcpSocket>();
        kernel->ConfigureSocket(s2, 65536, 9000, 9020);
        NS_TEST_ASSERT_MSG_EQ(s2->GetReceiveWindow(), 62636u, "socket window");
        // truesize: 9020 rounded up to 16 B, plus SkbOverhead (0).
        NS_TEST_ASSERT_MSG_EQ(kernel->SegmentTruesize(9020), 9024u, "truesize");
    }
};

/**
 * The host CPU serves interrupts before user work, user work before computation, and resumes
 * preempted work for what it still needs.
 */
class HostCpuTestCase : public TestCase
{
  public:
    HostCpuTestCase()
        : TestCase("Host CPU: priorities and preemption of user work and computation")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<HostCpu> cpu = CreateObject<HostCpu>();
        Time user;
        Time irq;
        cpu->Execute(MicroSeconds(10), HostCpu::USER, [&user]() { user = Simulator::Now(); });
        Simulator::Schedule(MicroSeconds(3), [&]() {
            cpu->Execute(MicroSeconds(2), HostCpu::INTERRUPT, [&irq]() { irq = Simulator::Now(); });
        });
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(irq, MicroSeconds(5), "interrupt not served at once");
        NS_TEST_ASSERT_MSG_EQ(user, MicroSeconds(12), "user work not resumed for its remainder");
        NS_TEST_ASSERT_MSG_EQ(cpu->GetBusyTime(), MicroSeconds(12), "busy time");
        NS_TEST_ASSERT_MSG_EQ(cpu->CopyCost(1000), NanoSeconds(10000), "copy at 800 Mb/s");

        // Computation yields to library (user) work, which yields to interrupts; user work
        // does not preempt user work. Compute 0-20 us; user A arrives at 2 us (4 us), an
        // interrupt at 3 us (1 us), user B at 4 us (2 us): A runs 2-3, irq 3-4, A 4-7, B 7-9,
        // compute resumes 9-27 with the 18 us it still needs.
        cpu = CreateObject<HostCpu>();
        Time compute;
        Time userA;
        Time userB;
        cpu->Execute(MicroSeconds(20), HostCpu::COMPUTE, [&]() { compute = Simulator::Now(); });
        Simulator::Schedule(MicroSeconds(2), [&]() {
            cpu->Execute(MicroSeconds(4), HostCpu::USER, [&]() { userA = Simulator::Now(); });
        });
        Simulator::Schedule(MicroSeconds(3), [&]() {
            cpu->Execute(MicroSeconds(1), HostCpu::INTERRUPT, []() {});
        });
        Simulator::Schedule(MicroSeconds(4), [&]() {
            cpu->Execute(MicroSeconds(2), HostCpu::USER, [&]() { userB = Simulator::Now(); });
        });
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(userA, MicroSeconds(7), "user work preempts computation");
        NS_TEST_ASSERT_MSG_EQ(userB, MicroSeconds(9), "user work waits for user work");
        NS_TEST_ASSERT_MSG_EQ(compute, MicroSeconds(27), "computation resumed for its remainder");
        NS_TEST_ASSERT_MSG_EQ(cpu->GetBusyTime(), MicroSeconds(27), "busy time conserved");

        // A user-level thread library (libc_r: 20 ms slice, 10 ms scheduling signal): the
        // computing thread, scheduled at 0 for 100 ms, keeps the CPU when user work arrives at
        // 5 ms until the first tick after its slice, 20 ms; an interrupt at 12 ms (1 ms) still
        // runs at once and returns to the computation. The user item (2 ms) runs 20-22 ms; the
        // computation ends at 100 + 1 + 2 = 103 ms. Without a slice the user item ends at 7 ms.
        for (Time slice : {MilliSeconds(20), Seconds(0)})
        {
            cpu = CreateObject<HostCpu>();
            cpu->SetAttribute("ComputeSlice", TimeValue(slice));
            Time irqEnd;
            cpu->Execute(MilliSeconds(100), HostCpu::COMPUTE, [&]() { compute = Simulator::Now(); });
            Simulator::Schedule(MilliSeconds(5), [&]() {
                cpu->Execute(MilliSeconds(2), HostCpu::USER, [&]() { userA = Simulator::Now(); });
            });
            Simulator::Schedule(MilliSeconds(12), [&]() {
                cpu->Execute(MilliSeconds(1), HostCpu::INTERRUPT, [&]() { irqEnd = Simulator::Now(); });
            });
            Simulator::Run();
            Simulator::Destroy();
            bool sliced = slice.IsStrictlyPositive();
            NS_TEST_ASSERT_MSG_EQ(userA, MilliSeconds(sliced ? 22 : 7), "user work waits for the slice");
            NS_TEST_ASSERT_MSG_EQ(irqEnd, MilliSeconds(13), "interrupts are not held");
            NS_TEST_ASSERT_MSG_EQ(compute, MilliSeconds(103), "computation resumed");
        }
        // The slice counts from when the computing thread was scheduled: computation from 0,
        // user work at 45 ms (the slice expired at 20 ms) runs at the next tick, 50 ms.
        cpu = CreateObject<HostCpu>();
        cpu->SetAttribute("ComputeSlice", TimeValue(MilliSeconds(20)));
        cpu->Execute(MilliSeconds(100), HostCpu::COMPUTE, [&]() { compute = Simulator::Now(); });
        Simulator::Schedule(MilliSeconds(45), [&]() {
            cpu->Execute(MilliSeconds(2), HostCpu::USER, [&]() { userA = Simulator::Now(); });
        });
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(userA, MilliSeconds(52), "switch at the next tick");
    }
};

/**
 * The host TestSuite.
 */
class HostTestSuite : public TestSuite
{
  public:
    HostTestSuite()
        : TestSuite("clusternet-host", Type::UNIT)
    {
        AddTestCase(new PciDmaTestCase, TestCase::Duration::QUICK);
        AddTestCase(new PciArbitrationTestCase, TestCase::Duration::QUICK);
        AddTestCase(new PciPairTestCase, TestCase::Duration::QUICK);
        AddTestCase(new ReceiveWindowTestCase, TestCase::Duration::QUICK);
        AddTestCase(new HostCpuTestCase, TestCase::Duration::QUICK);
    }
};

static HostTestSuite g_hostTestSuite; //!< Static variable for test initialization
