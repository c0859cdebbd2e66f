// SPDX-License-Identifier: GPL-2.0-only
#include "gm-benchmark.h"

#include "ns3/host-cpu.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("GmBenchmark");
NS_OBJECT_ENSURE_REGISTERED(GmBenchmark);

namespace
{
constexpr uint64_t kSendBase = uint64_t{1} << 28;    //!< each process's message buffer
constexpr uint64_t kReceiveBase = uint64_t{1} << 32; //!< its receive buffers
} // namespace

TypeId
GmBenchmark::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::GmBenchmark")
            .SetParent<Object>()
            .SetGroupName("Clusternet")
            .AddConstructor<GmBenchmark>()
            .AddAttribute("ReceiveBuffers",
                          "Receive buffers each process keeps provided; each is provided again "
                          "as soon as its message is handled [buffers].",
                          UintegerValue(4),
                          MakeUintegerAccessor(&GmBenchmark::m_buffers),
                          MakeUintegerChecker<uint32_t>(1, 1024))
            .AddAttribute("BufferSize",
                          "Size of each receive buffer: the largest message of the run "
                          "[bytes].",
                          UintegerValue(1u << 20),
                          MakeUintegerAccessor(&GmBenchmark::m_bufferSize),
                          MakeUintegerChecker<uint32_t>(1, 1u << 30))
            .AddAttribute("AckEcho",
                          "logp_test's receiver answers each message with one of the same "
                          "length, as in its round-trip test (false: AckBytes).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&GmBenchmark::m_ackEcho),
                          MakeBooleanChecker())
            .AddAttribute("AckBytes",
                          "Length of logp_test's acknowledgement when AckEcho is false [bytes].",
                          UintegerValue(8),
                          MakeUintegerAccessor(&GmBenchmark::m_ackBytes),
                          MakeUintegerChecker<uint32_t>(0, 65536));
    return tid;
}

GmBenchmark::GmBenchmark()
{
    NS_LOG_FUNCTION(this);
}

GmBenchmark::~GmBenchmark()
{
    NS_LOG_FUNCTION(this);
}

void
GmBenchmark::DoDispose()
{
    m_a.port = nullptr;
    m_b.port = nullptr;
    Object::DoDispose();
}

void
GmBenchmark::SetPorts(Ptr<GmPort> a, Ptr<GmPort> b)
{
    m_a = Side();
    m_b = Side();
    m_a.port = a;
    m_b.port = b;
    m_a.peerNode = b->GetNodeId();
    m_a.peerPort = b->GetPortId();
    m_b.peerNode = a->GetNodeId();
    m_b.peerPort = a->GetPortId();
    m_a.sendAddress = kSendBase;
    m_b.sendAddress = kSendBase;
    m_buffersProvided = false;
}

double
GmBenchmark::GetThroughput() const
{
    return m_throughput;
}

Time
GmBenchmark::GetTime() const
{
    return m_result;
}

Time
GmBenchmark::GetHostCpuPerMessage() const
{
    return m_hostCpu;
}

// ------------------------------------------------------------------------------ plumbing

void
GmBenchmark::ProvideBuffers(Side& s, uint32_t n, Step then)
{
    if (n == 0)
    {
        then();
        return;
    }
    uint64_t stride = (uint64_t{m_bufferSize} + 4095) / 4096 * 4096;
    uint64_t address = kReceiveBase + (n - 1) * stride;
    s.port->ProvideReceiveBuffer(m_bufferSize, address, [this, &s, n, then]() {
        ProvideBuffers(s, n - 1, then);
    });
}

void
GmBenchmark::Reprovide(Side& s, const GmEvent& ev, Step then)
{
    s.port->ProvideReceiveBuffer(m_bufferSize, ev.address, then);
}

void
GmBenchmark::Send(Side& s, uint32_t size, Step then)
{
    NS_ASSERT_MSG(size <= m_bufferSize, "GmBenchmark: message larger than BufferSize");
    ++s.sent;
    s.port->Send(s.peerNode, s.peerPort, Create<Packet>(size), s.sendAddress, then);
}

void
GmBenchmark::Start(Step body)
{
    for (Side* s : {&m_a, &m_b})
    {
        s->toSend = s->sent = s->toReceive = s->received = 0;
        s->done = false;
    }
    m_acks = 0;
    m_toAck.clear();
    m_result = Seconds(0);
    m_end = Seconds(0);
    if (m_buffersProvided)
    {
        MarkStart();
        body();
        return;
    }
    // The programs provide their receive buffers once, before the first test.
    m_buffersProvided = true;
    uint32_t n = std::min(m_buffers, m_a.port->GetReceiveTokens());
    ProvideBuffers(m_a, n, [this, n, body]() {
        ProvideBuffers(m_b, std::min(n, m_b.port->GetReceiveTokens()), [this, body]() {
            MarkStart();
            body();
        });
    });
}

void
GmBenchmark::Quiesce(Side& s, Step then)
{
    auto handle = [this, &s, then](const GmEvent& ev) {
        if (ev.type == GmEvent::RECEIVED)
        {
            Reprovide(s, ev, [this, &s, then]() { Quiesce(s, then); });
            return;
        }
        Quiesce(s, then);
    };
    if (s.port->GetPendingEvents() > 0)
    {
        s.port->PollOnce(handle);
    }
    else if (s.port->GetSendTokens() < s.port->GetMaxSendTokens())
    {
        s.port->WaitEvent(handle);
    }
    else
    {
        then();
    }
}

void
GmBenchmark::SideDone(Side& s)
{
    Quiesce(s, [this, &s]() {
        s.done = true;
        if (m_a.done && m_b.done)
        {
            Finish();
        }
    });
}

Time
GmBenchmark::HostBusy() const
{
    Time busy;
    for (const Side* s : {&m_a, &m_b})
    {
        Ptr<HostCpu> cpu = s->port ? s->port->GetCpu() : nullptr;
        busy += cpu ? cpu->GetBusyTime() : Seconds(0);
    }
    return busy;
}

void
GmBenchmark::MarkStart()
{
    m_start = Simulator::Now();
    m_busyAtStart = HostBusy();
    m_sentAtStart = m_a.sent + m_b.sent;
}

void
GmBenchmark::Finish()
{
    const uint32_t messages = m_a.sent + m_b.sent - m_sentAtStart;
    m_hostCpu = messages ? (HostBusy() - m_busyAtStart) / messages : Seconds(0);
    NS_LOG_LOGIC("test done: host CPU " << m_hostCpu.As(Time::US) << " per message over "
                                        << messages << " messages");
    Simulator::Stop();
}

// ------------------------------------------------------------------------------ gm_allsize

void
GmBenchmark::Stream(uint32_t size, uint32_t count, bool bidirectional)
{
    NS_LOG_FUNCTION(this << size << count << bidirectional);
    m_size = size;
    m_count = count;
    Start([this, count, bidirectional]() {
        m_a.toSend = count;
        m_b.toReceive = count;
        if (bidirectional)
        {
            m_b.toSend = count;
            m_a.toReceive = count;
        }
        StreamStep(m_a);
        StreamStep(m_b);
    });
}

void
GmBenchmark::StreamStep(Side& s)
{
    if (s.sent < s.toSend && s.port->GetSendTokens() > 0)
    {
        Send(s, m_size, [this, &s]() { StreamStep(s); });
        return;
    }
    if (s.received < s.toReceive || s.sent < s.toSend)
    {
        s.port->WaitEvent([this, &s](const GmEvent& ev) {
            if (ev.type != GmEvent::RECEIVED)
            {
                StreamStep(s);
                return;
            }
            if (++s.received == s.toReceive)
            {
                m_end = std::max(m_end, Simulator::Now());
                Time t = m_end - m_start;
                m_throughput = t.IsStrictlyPositive()
                                   ? double(m_count) * m_size / t.GetSeconds()
                                   : 0.0;
            }
            Reprovide(s, ev, [this, &s]() { StreamStep(s); });
        });
        return;
    }
    SideDone(s);
}

void
GmBenchmark::PingPong(uint32_t size, uint32_t iterations)
{
    NS_LOG_FUNCTION(this << size << iterations);
    m_size = size;
    m_iterations = iterations;
    Start([this]() {
        PingReceiver();
        Send(m_a, m_size, [this]() { PingSender(); });
    });
}

void
GmBenchmark::PingSender()
{
    m_a.port->WaitEvent([this](const GmEvent& ev) {
        if (ev.type != GmEvent::RECEIVED)
        {
            PingSender();
            return;
        }
        if (++m_a.received == m_buffers)
        {
            MarkStart(); // one round trip per receive buffer warms caches, untimed
        }
        if (m_a.received == m_iterations + m_buffers)
        {
            m_result = (Simulator::Now() - m_start) / (2 * m_iterations);
            Reprovide(m_a, ev, [this]() { SideDone(m_a); });
            return;
        }
        GmEvent received = ev;
        Send(m_a, m_size, [this, received]() {
            Reprovide(m_a, received, [this]() { PingSender(); });
        });
    });
}

void
GmBenchmark::PingReceiver()
{
    m_b.port->WaitEvent([this](const GmEvent& ev) {
        if (ev.type != GmEvent::RECEIVED)
        {
            PingReceiver();
            return;
        }
        ++m_b.received;
        GmEvent received = ev;
        Send(m_b, m_size, [this, received]() {
            Reprovide(m_b, received, [this]() {
                if (m_b.received == m_iterations + m_buffers)
                {
                    SideDone(m_b);
                }
                else
                {
                    PingReceiver();
                }
            });
        });
    });
}

void
GmBenchmark::Exchange(uint32_t size, uint32_t iterations)
{
    NS_LOG_FUNCTION(this << size << iterations);
    m_size = size;
    m_iterations = iterations;
    Start([this]() {
        ExchangeStep(m_a);
        ExchangeStep(m_b);
    });
}

void
GmBenchmark::ExchangeStep(Side& s)
{
    if (&s == &m_a && s.received == m_buffers)
    {
        MarkStart(); // one exchange per receive buffer warms caches, untimed
    }
    if (s.received == m_iterations + m_buffers)
    {
        if (&s == &m_a)
        {
            m_result = (Simulator::Now() - m_start) / m_iterations;
        }
        SideDone(s);
        return;
    }
    Send(s, m_size, [this, &s]() { ExchangeWait(s); });
}

void
GmBenchmark::ExchangeWait(Side& s)
{
    s.port->WaitEvent([this, &s](const GmEvent& ev) {
        if (ev.type != GmEvent::RECEIVED)
        {
            ExchangeWait(s);
            return;
        }
        ++s.received;
        Reprovide(s, ev, [this, &s]() { ExchangeStep(s); });
    });
}

// ------------------------------------------------------------------------------ logp_test

void
GmBenchmark::Burst(uint32_t size, uint32_t burst, Time delta)
{
    NS_LOG_FUNCTION(this << size << burst << delta);
    m_size = size;
    m_count = burst;
    m_delta = delta;
    Start([this, burst]() {
        m_a.toSend = burst;
        m_b.toReceive = burst;
        BurstReceiverStep();
        BurstSenderStep();
    });
}

void
GmBenchmark::BurstHandle(const GmEvent& ev, Step then)
{
    if (ev.type == GmEvent::RECEIVED)
    {
        ++m_acks;
        Reprovide(m_a, ev, then);
        return;
    }
    then();
}

void
GmBenchmark::BurstSenderStep()
{
    // Send the next message of the burst (waiting for a send token if none is home).
    if (m_a.port->GetSendTokens() == 0)
    {
        m_a.port->WaitEvent([this](const GmEvent& ev) {
            BurstHandle(ev, [this]() { BurstSenderStep(); });
        });
        return;
    }
    m_sendStart = Simulator::Now();
    Send(m_a, m_size, [this]() { BurstAfterSend(); });
}

void
GmBenchmark::BurstAfterSend()
{
    // Handle what has arrived (gm_receive until it finds nothing), then wait out the delay:
    // a send starts delta after the previous one started.
    m_a.port->PollOnce([this](const GmEvent& ev) {
        if (ev.type != GmEvent::NONE)
        {
            BurstHandle(ev, [this]() { BurstAfterSend(); });
            return;
        }
        if (m_a.sent == m_count)
        {
            if (m_result.IsZero())
            {
                m_result = (Simulator::Now() - m_start) / m_count;
            }
            BurstDrain();
            return;
        }
        Time wait = m_sendStart + m_delta - Simulator::Now();
        if (wait.IsStrictlyPositive())
        {
            Simulator::Schedule(wait, &GmBenchmark::BurstSenderStep, this);
            return;
        }
        BurstSenderStep();
    });
}

void
GmBenchmark::BurstDrain()
{
    // The burst is issued; collect the remaining acknowledgements.
    if (m_acks < m_count)
    {
        m_a.port->WaitEvent([this](const GmEvent& ev) {
            BurstHandle(ev, [this]() { BurstDrain(); });
        });
        return;
    }
    SideDone(m_a);
}

void
GmBenchmark::BurstReceiverStep()
{
    // Acknowledge each message as soon as a send token permits. Its buffer went back to GM
    // when it arrived, so the NIC is never left without one while this process waits for a
    // token (the acknowledgement is sent from the process's own send buffer).
    if (!m_toAck.empty() && m_b.port->GetSendTokens() > 0)
    {
        GmEvent received = m_toAck.front();
        m_toAck.pop_front();
        Send(m_b, m_ackEcho ? received.length : m_ackBytes, [this]() { BurstReceiverStep(); });
        return;
    }
    if (m_b.received == m_count && m_toAck.empty())
    {
        SideDone(m_b);
        return;
    }
    m_b.port->WaitEvent([this](const GmEvent& ev) {
        if (ev.type != GmEvent::RECEIVED)
        {
            BurstReceiverStep();
            return;
        }
        ++m_b.received;
        m_toAck.push_back(ev);
        Reprovide(m_b, ev, [this]() { BurstReceiverStep(); });
    });
}

} // namespace clusternet
} // namespace ns3
