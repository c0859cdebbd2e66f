// SPDX-License-Identifier: GPL-2.0-only
#include "gm-port.h"

#include "gm-mcp.h"
#include "ns3/host-cpu.h"
#include "ns3/pci-bus.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("GmPort");
NS_OBJECT_ENSURE_REGISTERED(GmPort);

TypeId
GmPort::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::GmPort")
            .SetParent<Object>()
            .SetGroupName("Clusternet")
            .AddConstructor<GmPort>()
            .AddAttribute("SendTokens",
                          "Send tokens of the port (gm_num_send_tokens) [tokens].",
                          UintegerValue(32),
                          MakeUintegerAccessor(&GmPort::m_numSendTokens),
                          MakeUintegerChecker<uint32_t>(1, 4096))
            .AddAttribute("ReceiveTokens",
                          "Receive tokens of the port (gm_num_receive_tokens) [tokens].",
                          UintegerValue(32),
                          MakeUintegerAccessor(&GmPort::m_numRecvTokens),
                          MakeUintegerChecker<uint32_t>(1, 4096))
            .AddAttribute("SendCycles",
                          "Host CPU work of gm_send_with_callback(), including its PIO write "
                          "of the send token to the NIC [reference cycles; see "
                          "HostCpu::CoreFactor].",
                          DoubleValue(450),
                          MakeDoubleAccessor(&GmPort::m_sendCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddAttribute("ProvideCycles",
                          "Host CPU work of gm_provide_receive_buffer() [reference cycles].",
                          DoubleValue(225),
                          MakeDoubleAccessor(&GmPort::m_provideCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddAttribute("EventCycles",
                          "Host CPU work to take one event off the receive queue and handle "
                          "it (gm_receive, callback or dispatch) [reference cycles].",
                          DoubleValue(225),
                          MakeDoubleAccessor(&GmPort::m_eventCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddAttribute("PollCycles",
                          "Host CPU work of one gm_receive() call that finds no event; a waiting "
                          "process sees a new event at the end of the iteration in progress "
                          "[reference cycles].",
                          DoubleValue(90),
                          MakeDoubleAccessor(&GmPort::m_pollCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddAttribute("TokenBytes",
                          "Bytes the host writes to the NIC by programmed I/O per send or "
                          "receive token [bytes].",
                          UintegerValue(32),
                          MakeUintegerAccessor(&GmPort::m_tokenBytes),
                          MakeUintegerChecker<uint32_t>(4, 4096))
            .AddTraceSource("Send",
                            "The process hands a message to GM.",
                            MakeTraceSourceAccessor(&GmPort::m_sendTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Receive",
                            "The process polls a received message.",
                            MakeTraceSourceAccessor(&GmPort::m_recvTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

GmPort::GmPort()
{
    NS_LOG_FUNCTION(this);
}

GmPort::~GmPort()
{
    NS_LOG_FUNCTION(this);
}

void
GmPort::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_waitEvent.Cancel();
    m_mcp = nullptr;
    m_cpu = nullptr;
    m_bus = nullptr;
    m_events.clear();
    m_waiter = nullptr;
    m_notify = nullptr;
    Object::DoDispose();
}

void
GmPort::Open(Ptr<GmMcp> mcp, uint8_t id, Ptr<HostCpu> cpu, Ptr<PciBus> bus)
{
    NS_LOG_FUNCTION(this << +id);
    m_mcp = mcp;
    m_id = id;
    m_cpu = cpu;
    m_bus = bus;
    m_sendTokens = m_numSendTokens;
    m_recvTokens = m_numRecvTokens;
    m_opened = true;
    mcp->RegisterPort(id, MakeCallback(&GmPort::PostEvent, Ptr<GmPort>(this)));
}

uint8_t
GmPort::GetPortId() const
{
    return m_id;
}

uint16_t
GmPort::GetNodeId() const
{
    return m_mcp ? m_mcp->GetNodeId() : 0;
}

Ptr<HostCpu>
GmPort::GetCpu() const
{
    return m_cpu;
}

uint32_t
GmPort::GetSendTokens() const
{
    return m_sendTokens;
}

uint32_t
GmPort::GetReceiveTokens() const
{
    return m_recvTokens;
}

uint32_t
GmPort::GetMaxSendTokens() const
{
    return m_numSendTokens;
}

uint32_t
GmPort::GetPendingEvents() const
{
    return m_events.size();
}

void
GmPort::RunCpu(Time cost, std::function<void()> done)
{
    if (m_cpu)
    {
        m_cpu->Execute(cost, m_priority, Callback<void>(done));
    }
    else
    {
        Simulator::Schedule(cost, done);
    }
}

void
GmPort::WriteToken(std::function<void()> arrived, std::function<void()> returned)
{
    // The token is written to the NIC by PIO; the writes are posted, so the process goes on.
    if (m_bus)
    {
        m_bus->Transfer(m_tokenBytes, PciBus::PIO_WRITE, Callback<void>(arrived));
    }
    else
    {
        arrived();
    }
    if (returned)
    {
        returned();
    }
}

void
GmPort::Send(uint16_t node,
             uint8_t port,
             Ptr<Packet> message,
             uint64_t address,
             std::function<void()> returned)
{
    NS_LOG_FUNCTION(this << node << +port << message->GetSize() << address);
    NS_ASSERT_MSG(m_opened, "GmPort::Send on a port that is not open");
    NS_ASSERT_MSG(m_sendTokens > 0, "GmPort::Send without a send token");
    --m_sendTokens;
    m_sendTrace(message);
    Ptr<GmMcp> mcp = m_mcp;
    uint8_t id = m_id;
    RunCpu(HostCpu::CyclesToTime(m_cpu, m_sendCycles), [=, this]() {
        WriteToken([=]() { mcp->PostSend(id, node, port, message, address); }, returned);
    });
}

void
GmPort::ProvideReceiveBuffer(uint32_t size, uint64_t address, std::function<void()> returned)
{
    NS_LOG_FUNCTION(this << size << address);
    NS_ASSERT_MSG(m_opened, "GmPort::ProvideReceiveBuffer on a port that is not open");
    NS_ASSERT_MSG(m_recvTokens > 0, "GmPort::ProvideReceiveBuffer without a receive token");
    --m_recvTokens;
    Ptr<GmMcp> mcp = m_mcp;
    uint8_t id = m_id;
    RunCpu(HostCpu::CyclesToTime(m_cpu, m_provideCycles), [=, this]() {
        WriteToken([=]() { mcp->PostReceiveBuffer(id, size, address); }, returned);
    });
}

void
GmPort::PostEvent(const GmEvent& event)
{
    NS_LOG_FUNCTION(this << event.type << event.length);
    m_events.push_back(event);
    if (m_waiter && !m_waitEvent.IsPending())
    {
        // The waiting process sees it at the end of the poll iteration in progress.
        Time delay = Seconds(0);
        Time poll = HostCpu::CyclesToTime(m_cpu, m_pollCycles);
        if (poll.IsStrictlyPositive())
        {
            int64_t p = poll.GetTimeStep();
            int64_t since = (Simulator::Now() - m_waitStart).GetTimeStep();
            int64_t iterations = (since + p - 1) / p;
            delay = TimeStep(iterations * p - since);
            if (delay.IsZero() && since == 0)
            {
                delay = poll;
            }
        }
        m_waitEvent = Simulator::Schedule(delay, &GmPort::WaiterSees, this);
    }
    else if (!m_waiter && m_notify)
    {
        m_notify();
    }
}

void
GmPort::SetCpuPriority(HostCpu::Priority priority)
{
    m_priority = priority;
}

void
GmPort::SetEventNotify(std::function<void()> notify)
{
    m_notify = notify;
}

void
GmPort::WaiterSees()
{
    EventHandler handler = m_waiter;
    m_waiter = nullptr;
    Handle(handler);
}

void
GmPort::Handle(EventHandler handler)
{
    NS_ASSERT_MSG(!m_events.empty(), "no event to handle");
    GmEvent ev = m_events.front();
    m_events.pop_front();
    RunCpu(HostCpu::CyclesToTime(m_cpu, m_eventCycles), [this, ev, handler]() {
        if (ev.type == GmEvent::SENT)
        {
            ++m_sendTokens;
        }
        else if (ev.type == GmEvent::RECEIVED)
        {
            ++m_recvTokens;
            m_recvTrace(ev.message);
        }
        handler(ev);
    });
}

void
GmPort::WaitEvent(EventHandler handler)
{
    NS_ASSERT_MSG(!m_waiter, "GmPort::WaitEvent while already waiting");
    if (!m_events.empty())
    {
        Handle(handler);
        return;
    }
    m_waiter = handler;
    m_waitStart = Simulator::Now();
}

void
GmPort::PollOnce(EventHandler handler)
{
    NS_ASSERT_MSG(!m_waiter, "GmPort::PollOnce while waiting");
    if (!m_events.empty())
    {
        Handle(handler);
        return;
    }
    RunCpu(HostCpu::CyclesToTime(m_cpu, m_pollCycles), [handler]() { handler(GmEvent()); });
}

} // namespace clusternet
} // namespace ns3
