// SPDX-License-Identifier: GPL-2.0-only
#include "ethernet-driver.h"

#include "ethernet-frame.h"
#include "ns3/host-cpu.h"
#include "ns3/interrupt-coalescer.h"
#include "ns3/pci-bus.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/node.h"

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("EthernetDriver");
NS_OBJECT_ENSURE_REGISTERED(EthernetDriver);

TypeId
EthernetDriver::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::EthernetDriver")
            .SetParent<Object>()
            .SetGroupName("Clusternet")
            .AddConstructor<EthernetDriver>()
            .AddAttribute("TxCycles",
                          "Host CPU work of the driver per transmitted frame, apart from the "
                          "protocol stack's [reference cycles; see HostCpu::CoreFactor].",
                          DoubleValue(900),
                          MakeDoubleAccessor(&EthernetDriver::m_txCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddAttribute("RxCycles",
                          "Host CPU work of the driver per received frame, apart from the "
                          "protocol stack's and the interrupt entry [reference cycles].",
                          DoubleValue(900),
                          MakeDoubleAccessor(&EthernetDriver::m_rxCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddAttribute("TxCleanCycles",
                          "Host CPU work of the driver per sent frame whose descriptor it "
                          "reclaims in an interrupt [reference cycles].",
                          DoubleValue(0),
                          MakeDoubleAccessor(&EthernetDriver::m_txCleanCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddTraceSource("RxState",
                            "The receive side changed state (interrupt entry, a frame of the "
                            "receive loop, idle).",
                            MakeTraceSourceAccessor(&EthernetDriver::m_rxStateTrace),
                            "ns3::clusternet::EthernetDriver::RxStateCallback");
    return tid;
}

EthernetDriver::EthernetDriver()
{
    NS_LOG_FUNCTION(this);
    // One callback per hand-over, built once (a callback with a bound packet would allocate on
    // every frame).
    m_txPostedCb = MakeCallback(&EthernetDriver::TxPosted, this);
    m_rxLoopCb = MakeCallback(&EthernetDriver::RxLoop, this);
    m_rxFrameDoneCb = MakeCallback(&EthernetDriver::RxFrameDone, this);
    m_txInterruptDoneCb = MakeCallback(&EthernetDriver::TxInterruptDone, this);
}

EthernetDriver::~EthernetDriver()
{
    NS_LOG_FUNCTION(this);
}

void
EthernetDriver::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_node = nullptr;
    m_cpu = nullptr;
    m_rxCoalescer = nullptr;
    m_txCoalescer = nullptr;
    m_next = MakeNullCallback<Ptr<Packet>>();
    m_posted = MakeNullCallback<void, Ptr<Packet>>();
    m_deliver = MakeNullCallback<void, Ptr<Packet>>();
    m_txFrame = nullptr;
    m_rxFrame = nullptr;
    m_rxDone.clear();
    m_txPostedCb = MakeNullCallback<void>();
    m_rxLoopCb = MakeNullCallback<void>();
    m_rxFrameDoneCb = MakeNullCallback<void>();
    m_txInterruptDoneCb = MakeNullCallback<void>();
    Object::DoDispose();
}

void
EthernetDriver::SetNode(Ptr<Node> node)
{
    NS_LOG_FUNCTION(this << node);
    m_node = node;
    m_cpu = node->GetObject<HostCpu>();
    NS_ABORT_MSG_IF(!m_cpu,
                    "EthernetDriver: node " << node->GetId()
                                            << " has no HostCpu: install the host (HostHelper) "
                                               "before its interfaces");
}

Ptr<HostCpu>
EthernetDriver::GetCpu() const
{
    return m_cpu;
}

Ptr<PciBus>
EthernetDriver::GetBus() const
{
    return m_node->GetObject<PciBus>();
}

void
EthernetDriver::AttachRings(Ptr<InterruptCoalescer> rx,
                            Ptr<InterruptCoalescer> tx,
                            NextFrameCallback next,
                            FrameCallback posted,
                            FrameCallback deliver)
{
    NS_LOG_FUNCTION(this << rx << tx);
    m_rxCoalescer = rx;
    m_txCoalescer = tx;
    m_next = next;
    m_posted = posted;
    m_deliver = deliver;
    m_rxCoalescer->SetHandler(MakeCallback(&EthernetDriver::RxInterrupt, this));
    if (m_txCoalescer)
    {
        m_txCoalescer->SetHandler(MakeCallback(&EthernetDriver::TxInterrupt, this));
    }
}

Time
EthernetDriver::ProtocolCost(Ptr<const Packet> frame, bool transmit) const
{
    if (!IsIpFrame(frame))
    {
        return Seconds(0);
    }
    if (IsUdpFrame(frame))
    {
        return transmit ? m_cpu->GetUdpTxPacketCost() : m_cpu->GetUdpRxPacketCost();
    }
    return transmit ? m_cpu->GetTxPacketCost() : m_cpu->GetRxPacketCost();
}

Time
EthernetDriver::TxCost(Ptr<const Packet> frame) const
{
    return ProtocolCost(frame, true) + m_cpu->CyclesToTime(m_txCycles);
}

Time
EthernetDriver::RxCost(Ptr<const Packet> frame) const
{
    return m_cpu->CyclesToTime(m_rxCycles) + ProtocolCost(frame, false);
}

Time
EthernetDriver::InterruptEntryCost() const
{
    return m_cpu->GetInterruptCost();
}

void
EthernetDriver::Execute(Time cost, bool interrupt, Callback<void> done) const
{
    m_cpu->Execute(cost, interrupt ? HostCpu::INTERRUPT : HostCpu::KERNEL, done);
}

EthernetDriver::RxState
EthernetDriver::GetRxState() const
{
    return m_rxState;
}

void
EthernetDriver::SetRxState(RxState state)
{
    NS_LOG_LOGIC(this << " receive side " << m_rxState << " -> " << state);
    m_rxState = state;
    m_rxStateTrace(state);
}

// ---------------------------------------------------------------- transmit

void
EthernetDriver::TxKick()
{
    if (m_txState == TX_POSTING)
    {
        return;
    }
    Ptr<Packet> frame = m_next();
    if (!frame)
    {
        return;
    }
    NS_LOG_LOGIC(this << " posting " << frame);
    m_txState = TX_POSTING;
    m_txFrame = frame;
    m_cpu->Execute(TxCost(frame), HostCpu::KERNEL, m_txPostedCb);
}

void
EthernetDriver::TxPosted()
{
    Ptr<Packet> frame = m_txFrame;
    m_txFrame = nullptr;
    m_txState = TX_IDLE;
    m_posted(frame);
    TxKick();
}

void
EthernetDriver::FrameSent()
{
    ++m_txReclaim;
}

void
EthernetDriver::TxInterrupt()
{
    NS_LOG_FUNCTION(this << m_txReclaim);
    // The handler reclaims every sent descriptor (as em_clean_transmit_interrupts).
    uint32_t n = m_txReclaim;
    m_txReclaim = 0;
    m_cpu->Execute(InterruptEntryCost() + m_cpu->CyclesToTime(m_txCleanCycles) * n,
                   HostCpu::INTERRUPT,
                   m_txInterruptDoneCb);
}

void
EthernetDriver::TxInterruptDone()
{
    m_txCoalescer->Consume();
    m_txCoalescer->Unmask();
    if (m_txReclaim > 0)
    {
        m_txCoalescer->Notify(); // frames sent while the handler ran
    }
}

// ---------------------------------------------------------------- receive

void
EthernetDriver::FrameWritten(Ptr<Packet> frame)
{
    m_rxDone.push_back(frame);
}

void
EthernetDriver::RxInterrupt()
{
    NS_LOG_FUNCTION(this);
    SetRxState(RX_ENTRY);
    Time cost = InterruptEntryCost();
    if (m_txCoalescer && m_txReclaim > 0)
    {
        // One handler serves both causes: it reclaims the sent descriptors too.
        cost += m_cpu->CyclesToTime(m_txCleanCycles) * m_txReclaim;
        m_txReclaim = 0;
        m_txCoalescer->Consume();
    }
    m_cpu->Execute(cost, HostCpu::INTERRUPT, m_rxLoopCb);
}

void
EthernetDriver::RxLoop()
{
    // The receive loop: hand every completed frame up, then re-enable the interrupt.
    if (m_rxDone.empty())
    {
        SetRxState(RX_IDLE);
        m_rxCoalescer->Consume();
        m_rxCoalescer->Unmask();
        return;
    }
    SetRxState(RX_FRAME);
    m_rxFrame = m_rxDone.front();
    m_rxDone.pop_front();
    m_cpu->Execute(RxCost(m_rxFrame), HostCpu::INTERRUPT, m_rxFrameDoneCb);
}

void
EthernetDriver::RxFrameDone()
{
    Ptr<Packet> frame = m_rxFrame;
    m_rxFrame = nullptr;
    m_deliver(frame);
    RxLoop();
}

} // namespace clusternet
} // namespace ns3
