// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_GM_BENCHMARK_H
#define CLUSTERNET_GM_BENCHMARK_H

#include "ns3/gm-port.h"

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <deque>
#include <functional>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief The GM test programs of seed 001, as two host processes on two GM ports: the
 * streaming and latency tests of gm_allsize, the round-trip and burst tests of logp_test
 * (Culler et al.), run one after another in one simulation as the real programs run them.
 *
 * Each test starts from quiet ports (no messages in flight, all tokens home), calls Simulator
 * Stop when it ends, and leaves its result in the object. Buffers live at fixed, page-aligned
 * host addresses and are reused, as the programs reuse theirs.
 */
class GmBenchmark : public Object
{
  public:
    static TypeId GetTypeId();
    GmBenchmark();
    ~GmBenchmark() override;

    /// The two processes: @p a sends first (the "sender" of one-way tests).
    void SetPorts(Ptr<GmPort> a, Ptr<GmPort> b);

    /**
     * gm_allsize throughput: @p count messages of @p size bytes from a to b (and from b to a at
     * the same time if @p bidirectional), as fast as tokens allow.
     * @return (via GetThroughput) message bytes per second of one direction
     */
    void Stream(uint32_t size, uint32_t count, bool bidirectional);
    /// Ping-pong of @p iterations round trips of @p size bytes after one untimed warm-up round
    /// trip; result: one-way time.
    void PingPong(uint32_t size, uint32_t iterations);
    /// Both send @p size bytes at once and wait for the other's, @p iterations times; result:
    /// time per exchange (gm_allsize's bidirectional latency), after one untimed exchange.
    void Exchange(uint32_t size, uint32_t iterations);
    /**
     * logp_test burst: a sends @p burst messages of @p size bytes, one every @p delta at most
     * (a send starts delta after the previous one started, or as soon as the sender is free),
     * handling b's acknowledgements after each send; result: mean time per send, from the
     * first send to the end of the last send's gm_receive loop.
     */
    void Burst(uint32_t size, uint32_t burst, Time delta);

    /// @return bytes per second of one direction of the last Stream
    double GetThroughput() const;
    /// @return the last PingPong's one-way time, Exchange's time per exchange, or Burst's mean
    /// time per send
    Time GetTime() const;
    /**
     * Host CPU time per message of the last test, send and receive together: the time both
     * hosts' CPUs spent on GM library calls (sends, event handling, buffer provision, polls
     * that found nothing) over its timed part, divided by the messages both sides sent in it
     * (logp_test's acknowledgements count as messages). A process waiting in gm_receive spins,
     * but that wait is not work and is not counted (GM's figure of merit, host CPU per message).
     * @return the time per message, or zero when the test sent none
     */
    Time GetHostCpuPerMessage() const;

  protected:
    void DoDispose() override;

  private:
    /// One process: its port, peer and progress in the current test.
    struct Side
    {
        Ptr<GmPort> port;
        uint16_t peerNode{0};
        uint8_t peerPort{0};
        uint64_t sendAddress{0};
        uint32_t toSend{0};
        uint32_t sent{0};
        uint32_t toReceive{0};
        uint32_t received{0};
        bool done{false};
    };

    using Step = std::function<void()>;

    void Start(Step body);
    void ProvideBuffers(Side& s, uint32_t n, Step then);
    void Reprovide(Side& s, const GmEvent& ev, Step then);
    void Send(Side& s, uint32_t size, Step then);
    void StreamStep(Side& s);
    void SideDone(Side& s);
    void PingSender();
    void PingReceiver();
    void ExchangeStep(Side& s);
    void ExchangeWait(Side& s);
    void BurstSenderStep();
    void BurstAfterSend();
    void BurstDrain();
    void BurstHandle(const GmEvent& ev, Step then);
    void BurstReceiverStep();
    void Quiesce(Side& s, Step then);
    /// The timed part of a test starts: note the time, the hosts' busy time and messages sent.
    void MarkStart();
    /// @return both hosts' CPU busy time so far
    Time HostBusy() const;
    void Finish();

    Side m_a;
    Side m_b;
    bool m_buffersProvided{false};
    uint32_t m_size{0};
    uint32_t m_iterations{0};
    uint32_t m_count{0};
    uint32_t m_acks{0};
    std::deque<GmEvent> m_toAck; //!< logp receiver: messages still to acknowledge
    Time m_start;
    Time m_end;
    Time m_delta;
    Time m_sendStart; //!< logp sender: when the last send started
    Time m_result;
    Time m_busyAtStart;       //!< both hosts' CPU busy time when the timed part started
    uint32_t m_sentAtStart{0}; //!< messages both sides had sent by then
    Time m_hostCpu;           //!< the last test's host CPU time per message
    double m_throughput{0};

    uint32_t m_buffers;
    uint32_t m_bufferSize;
    uint32_t m_ackBytes;
    bool m_ackEcho;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_GM_BENCHMARK_H
