// SPDX-License-Identifier: GPL-2.0-only
#include "gige-net-device.h"

#include "ethernet-driver.h"
#include "ethernet-frame.h"
#include "gige-channel.h"
#include "ns3/attribute-range.h"
#include "ns3/interrupt-coalescer.h"
#include "ns3/member-event.h"
#include "pause-header.h"
#include "ns3/pci-bus.h"

#include "ns3/boolean.h"
#include "ns3/ethernet-header.h"
#include "ns3/llc-snap-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("GigeNetDevice");
NS_OBJECT_ENSURE_REGISTERED(GigeNetDevice);

TypeId
GigeNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::GigeNetDevice")
            .SetParent<EthernetSwitchPort>()
            .SetGroupName("Clusternet")
            .AddConstructor<GigeNetDevice>()
            .AddAttribute("Mtu",
                          "IP MTU [bytes]: 1500 (standard) to 9000 (jumbo frames).",
                          UintegerValue(1500),
                          MakeUintegerAccessor(&GigeNetDevice::SetMtu, &GigeNetDevice::GetMtu),
                          MakeUintegerChecker<uint16_t>(1500, 9000))
            .AddAttribute("RxBufferBytes",
                          "Bytes of the host receive buffer the driver posts for one frame at "
                          "this MTU (read only; JumboBufferSize when set and the MTU exceeds 1500).",
                          TypeId::ATTR_GET,
                          UintegerValue(0),
                          MakeUintegerAccessor(&GigeNetDevice::GetRxBufferBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Address",
                          "The MAC address of this device.",
                          Mac48AddressValue(Mac48Address("ff:ff:ff:ff:ff:ff")),
                          MakeMac48AddressAccessor(&GigeNetDevice::m_address),
                          MakeMac48AddressChecker())
            .AddAttribute("DataRate",
                          "Line rate [bit/s].",
                          DataRateValue(DataRate("1Gbps")),
                          MakeDataRateAccessor(&GigeNetDevice::m_bps),
                          MakeDataRateChecker())
            .AddAttribute("TxQueue",
                          "The driver's transmit queue (above the descriptor ring).",
                          PointerValue(),
                          MakePointerAccessor(&GigeNetDevice::m_queue),
                          MakePointerChecker<Queue<Packet>>())
            .AddAttribute("RxCoalescer",
                          "The receive interrupt coalescer.",
                          PointerValue(),
                          MakePointerAccessor(&GigeNetDevice::m_rxCoalescer),
                          MakePointerChecker<InterruptCoalescer>())
            .AddAttribute("Driver",
                          "The host-side driver; null (the default) means a device with no "
                          "host, such as a switch port: frames move between the queue, the "
                          "rings and the upper layer in no time.",
                          PointerValue(),
                          MakePointerAccessor(&GigeNetDevice::m_driver),
                          MakePointerChecker<EthernetDriver>())
            .AddAttribute("Channel",
                          "The cable this device is attached to (read-only: set by Attach, so "
                          "a Config path reaches the cable's attributes).",
                          TypeId::ATTR_GET,
                          PointerValue(),
                          MakePointerAccessor(&GigeNetDevice::GetChannel),
                          MakePointerChecker<GigeChannel>())
            .AddAttribute("TxCoalescer",
                          "Transmit-completion interrupt coalescer; null (the default) means "
                          "the driver reclaims sent descriptors without interrupts of their own.",
                          PointerValue(),
                          MakePointerAccessor(&GigeNetDevice::m_txCoalescer),
                          MakePointerChecker<InterruptCoalescer>())
            .AddAttribute("TxFifoSize",
                          "NIC transmit FIFO [bytes].",
                          UintegerValue(32768),
                          MakeUintegerAccessor(&GigeNetDevice::m_txFifoSize),
                          MakeUintegerChecker<uint32_t>(9018, 16 << 20))
            .AddAttribute("RxFifoSize",
                          "NIC receive FIFO (or switch ingress buffer) [bytes].",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&GigeNetDevice::m_rxFifoSize),
                          MakeUintegerChecker<uint32_t>(9018, 16 << 20))
            .AddAttribute("PauseEnabled",
                          "IEEE 802.3x flow control: send PAUSE at the high-water mark and "
                          "honour received PAUSE. When off, a full RX FIFO drops.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&GigeNetDevice::m_pauseEnabled),
                          MakeBooleanChecker())
            .AddAttribute("PauseHighWater",
                          "RX FIFO occupancy that sends PAUSE [bytes]. Leave room for two "
                          "maximum frames in flight.",
                          UintegerValue(40960),
                          MakeUintegerAccessor(&GigeNetDevice::m_pauseHigh),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("PauseLowWater",
                          "RX FIFO occupancy that sends the zero-quanta resume [bytes].",
                          UintegerValue(16384),
                          MakeUintegerAccessor(&GigeNetDevice::m_pauseLow),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("PauseQuanta",
                          "Pause time requested at the high-water mark [quanta of 512 bit "
                          "times].",
                          UintegerValue(0xffff),
                          MakeUintegerAccessor(&GigeNetDevice::m_pauseQuanta),
                          MakeUintegerChecker<uint16_t>(1, 0xffff))
            .AddAttribute("TxRingSize",
                          "Transmit descriptors the driver may post to the NIC [frames].",
                          UintegerValue(256),
                          MakeUintegerAccessor(&GigeNetDevice::m_txRingSize),
                          MakeUintegerChecker<uint32_t>(1, 65536))
            .AddAttribute("RxRingSize",
                          "Receive buffers posted to the NIC [frames].",
                          UintegerValue(256),
                          MakeUintegerAccessor(&GigeNetDevice::m_rxRingSize),
                          MakeUintegerChecker<uint32_t>(1, 65536))
            .AddAttribute("DescriptorSize",
                          "Bytes the NIC moves over PCI per descriptor [bytes].",
                          UintegerValue(16),
                          MakeUintegerAccessor(&GigeNetDevice::m_descriptorBytes),
                          MakeUintegerChecker<uint32_t>(0, 4096))
            .AddAttribute("DmaReadBurst",
                          "Largest PCI burst of the NIC's DMA reads (host to NIC) [bytes]; "
                          "0 = no limit of its own (the bus's BurstSize).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&GigeNetDevice::m_dmaReadBurst),
                          MakeUintegerChecker<uint32_t>(0, 65536))
            .AddAttribute("DmaWriteBurst",
                          "Largest PCI burst of the NIC's DMA writes (NIC to host) [bytes]; "
                          "0 = no limit of its own (the bus's BurstSize).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&GigeNetDevice::m_dmaWriteBurst),
                          MakeUintegerChecker<uint32_t>(0, 65536))
            .AddAttribute("JumboBufferSize",
                          "Host receive buffer the driver posts for every frame longer than "
                          "a standard one when the MTU exceeds 1500 [bytes]; 0 = buffers "
                          "sized to the MTU (header + MTU + FCS + 2 alignment bytes).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&GigeNetDevice::m_jumboBufferBytes),
                          MakeUintegerChecker<uint32_t>(0, 65536))
            .AddAttribute("NicTxCost",
                          "NIC firmware/controller time per transmitted frame, serial with "
                          "its DMA [Time].",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&GigeNetDevice::m_nicTxCost),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("NicRxCost",
                          "NIC firmware/controller time per received frame, serial with its "
                          "DMA [Time].",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&GigeNetDevice::m_nicRxCost),
                          MakeTimeChecker(Seconds(0)))
            .AddTraceSource("MacTx",
                            "A packet was accepted by Send() for transmission.",
                            MakeTraceSourceAccessor(&GigeNetDevice::m_macTxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacTxDrop",
                            "A packet was dropped at Send() (queue full or too big).",
                            MakeTraceSourceAccessor(&GigeNetDevice::m_macTxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacRx",
                            "A packet was passed up to the upper layer.",
                            MakeTraceSourceAccessor(&GigeNetDevice::m_macRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacRxDrop",
                            "A received frame was dropped because the RX FIFO was full.",
                            MakeTraceSourceAccessor(&GigeNetDevice::m_macRxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxBegin",
                            "A frame starts on the wire.",
                            MakeTraceSourceAccessor(&GigeNetDevice::m_phyTxBeginTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxEnd",
                            "A frame and its interframe gap have left the wire.",
                            MakeTraceSourceAccessor(&GigeNetDevice::m_phyTxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxEnd",
                            "The last bit of a frame arrived.",
                            MakeTraceSourceAccessor(&GigeNetDevice::m_phyRxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Sniffer",
                            "Every frame sent or received, with its Ethernet header.",
                            MakeTraceSourceAccessor(&GigeNetDevice::m_snifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PromiscSniffer",
                            "Every frame sent or received, with its Ethernet header.",
                            MakeTraceSourceAccessor(&GigeNetDevice::m_promiscSnifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PauseTx",
                            "A PAUSE frame was sent: its quanta (0 = resume).",
                            MakeTraceSourceAccessor(&GigeNetDevice::m_pauseTxTrace),
                            "ns3::clusternet::GigeNetDevice::PauseCallback")
            .AddTraceSource("PauseRx",
                            "A PAUSE frame was received: its quanta (0 = resume).",
                            MakeTraceSourceAccessor(&GigeNetDevice::m_pauseRxTrace),
                            "ns3::clusternet::GigeNetDevice::PauseCallback");
    return tid;
}

GigeNetDevice::GigeNetDevice()
    : m_mtu(1500)
{
    NS_LOG_FUNCTION(this);
    m_rxCoalescer = CreateObject<InterruptCoalescer>();
    // The pipeline's stages hand over through members: one callback each, built once (a
    // callback with a bound packet would allocate on every frame).
    m_txDmaDoneCb = MakeCallback(&GigeNetDevice::TxDmaDone, this);
    m_rxDmaDoneCb = MakeCallback(&GigeNetDevice::RxDmaDone, this);
}

std::string
GigeNetDevice::CheckPauseWaterMarks(uint32_t low, uint32_t high, uint32_t fifo)
{
    if (low < high && high <= fifo)
    {
        return "";
    }
    return "device.PauseLowWater " + std::to_string(low) + ", PauseHighWater " +
           std::to_string(high) + ", RxFifoSize " + std::to_string(fifo) +
           ": need PauseLowWater < PauseHighWater <= RxFifoSize";
}

GigeNetDevice::~GigeNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
GigeNetDevice::DoInitialize()
{
    NS_LOG_FUNCTION(this);
    std::string pause = CheckPauseWaterMarks(m_pauseLow, m_pauseHigh, m_rxFifoSize);
    NS_ABORT_MSG_UNLESS(pause.empty(), "GigeNetDevice: " << pause);
    m_rxRingFree = m_rxRingSize;
    if (m_driver)
    {
        m_driver->SetNode(m_node);
        m_bus = m_driver->GetBus();
        m_driver->AttachRings(m_rxCoalescer,
                              m_txCoalescer,
                              MakeCallback(&GigeNetDevice::NextTxFrame, this),
                              MakeCallback(&GigeNetDevice::TxPosted, this),
                              MakeCallback(&GigeNetDevice::DeliverUp, this));
    }
    m_rxCoalescer->SetJumbo(m_mtu > 1500);
    m_rxCoalescer->Initialize();
    if (m_txCoalescer)
    {
        m_txCoalescer->Initialize();
    }
    EthernetSwitchPort::DoInitialize();
}

void
GigeNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_resumeEvent.Cancel();
    m_refreshEvent.Cancel();
    m_channel = nullptr;
    if (m_driver)
    {
        m_driver->Dispose();
    }
    m_driver = nullptr;
    m_bus = nullptr;
    if (m_rxCoalescer)
    {
        m_rxCoalescer->Dispose();
    }
    m_rxCoalescer = nullptr;
    if (m_txCoalescer)
    {
        m_txCoalescer->Dispose();
    }
    m_txCoalescer = nullptr;
    m_queue = nullptr;
    m_pendingPause = nullptr;
    m_txRing.clear();
    m_txFifo.clear();
    m_rxFifo.clear();
    m_txDmaFrame = nullptr;
    m_rxDmaFrame = nullptr;
    m_txDmaDoneCb = MakeNullCallback<void>();
    m_rxDmaDoneCb = MakeNullCallback<void>();
    m_txCompleteCallback = MakeNullCallback<void, Ptr<const Packet>>();
    EthernetSwitchPort::DoDispose();
}

uint32_t
GigeNetDevice::WireBytes(uint32_t frameBytes)
{
    return PREAMBLE_SFD + std::max(frameBytes + FCS, MIN_FRAME) + IFG;
}

bool
GigeNetDevice::Attach(Ptr<GigeChannel> ch)
{
    NS_LOG_FUNCTION(this << ch);
    m_channel = ch;
    m_channel->Attach(this);
    m_linkUp = true;
    m_linkChangeCallbacks();
    return true;
}

void
GigeNetDevice::SetQueue(Ptr<Queue<Packet>> queue)
{
    m_queue = queue;
}

Ptr<Queue<Packet>>
GigeNetDevice::GetQueue() const
{
    return m_queue;
}

Ptr<InterruptCoalescer>
GigeNetDevice::GetRxCoalescer() const
{
    return m_rxCoalescer;
}

Ptr<EthernetDriver>
GigeNetDevice::GetDriver() const
{
    return m_driver;
}

void
GigeNetDevice::SetHoldRxBuffer(bool hold)
{
    m_holdRx = hold;
}

void
GigeNetDevice::SetTxCompleteCallback(Callback<void, Ptr<const Packet>> cb)
{
    m_txCompleteCallback = cb;
}

// ---------------------------------------------------------------- transmit

bool
GigeNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    return SendFrom(packet, m_address, dest, protocolNumber);
}

bool
GigeNetDevice::SendFrom(Ptr<Packet> packet,
                        const Address& source,
                        const Address& dest,
                        uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << source << dest << protocolNumber);
    if (packet->GetSize() > m_mtu || !m_linkUp)
    {
        m_macTxDropTrace(packet);
        return false;
    }
    m_macTxTrace(packet);
    uint32_t minPayload = MIN_FRAME - HEADER - FCS;
    if (packet->GetSize() < minPayload)
    {
        packet->AddPaddingAtEnd(minPayload - packet->GetSize());
    }
    EthernetHeader eth(false);
    eth.SetSource(Mac48Address::ConvertFrom(source));
    eth.SetDestination(Mac48Address::ConvertFrom(dest));
    eth.SetLengthType(protocolNumber);
    packet->AddHeader(eth);
    if (!m_queue->Enqueue(packet))
    {
        m_macTxDropTrace(packet);
        return false;
    }
    HostTxKick();
    return true;
}

void
GigeNetDevice::HostTxKick()
{
    if (m_driver)
    {
        m_driver->TxKick();
        return;
    }
    // No host: every queued frame goes to the ring at once.
    while (Ptr<Packet> frame = NextTxFrame())
    {
        TxPosted(frame);
    }
}

Ptr<Packet>
GigeNetDevice::NextTxFrame()
{
    if (m_txRing.size() >= m_txRingSize || m_queue->IsEmpty())
    {
        return nullptr;
    }
    return m_queue->Dequeue();
}

void
GigeNetDevice::TxPosted(Ptr<Packet> frame)
{
    m_txRing.push_back(frame);
    TxDmaKick();
}

void
GigeNetDevice::TxDmaKick()
{
    if (m_txDmaFrame || m_txRing.empty())
    {
        return;
    }
    Ptr<Packet> frame = m_txRing.front();
    if (m_txFifoBytes + frame->GetSize() > m_txFifoSize)
    {
        return; // wait for the MAC to drain the FIFO
    }
    m_txRing.pop_front();
    m_txFifoBytes += frame->GetSize();
    m_txDmaFrame = frame;
    if (!m_driver && !m_bus && m_nicTxCost.IsZero())
    {
        TxDmaDone();
        return;
    }
    ScheduleMember(m_nicTxCost, &GigeNetDevice::TxDmaDescriptorDone, this);
}

void
GigeNetDevice::TxDmaDescriptorDone()
{
    if (!m_bus)
    {
        TxDmaDone();
        return;
    }
    // Fetch the descriptor, then the frame, from host memory.
    m_bus->TransferPair(m_descriptorBytes,
                        m_txDmaFrame->GetSize(),
                        PciBus::DMA_READ,
                        m_txDmaDoneCb,
                        m_dmaReadBurst);
}

void
GigeNetDevice::TxDmaDone()
{
    NS_LOG_FUNCTION(this << m_txDmaFrame);
    m_txFifo.push_back(m_txDmaFrame);
    m_txDmaFrame = nullptr;
    MacTxKick();
    TxDmaKick();
    HostTxKick();
}

Time
GigeNetDevice::QuantaToTime(uint16_t quanta) const
{
    return m_bps.CalculateBytesTxTime(quanta * PauseHeader::QUANTUM_BITS / 8);
}

void
GigeNetDevice::MacTxKick()
{
    if (m_txState == BUSY)
    {
        return;
    }
    Ptr<Packet> frame;
    bool isData = false;
    if (m_pendingPause)
    {
        // MAC Control frames are not inhibited by a received PAUSE (802.3 Annex 31B).
        frame = m_pendingPause;
        m_pendingPause = nullptr;
    }
    else if (!m_txFifo.empty())
    {
        if (Simulator::Now() < m_pausedUntil)
        {
            NS_LOG_LOGIC(m_address << ": READY -> PAUSED until " << m_pausedUntil.As(Time::US));
            m_txState = PAUSED;
            if (!m_resumeEvent.IsPending())
            {
                m_resumeEvent = Simulator::Schedule(m_pausedUntil - Simulator::Now(),
                                                    &GigeNetDevice::MacTxKick,
                                                    this);
            }
            return;
        }
        frame = m_txFifo.front();
        isData = true;
    }
    else
    {
        m_txState = READY;
        return;
    }
    m_txState = BUSY;
    m_phyTxBeginTrace(frame);
    m_snifferTrace(frame);
    m_promiscSnifferTrace(frame);
    uint32_t onWire = WireBytes(frame->GetSize());
    Time frameTime = m_bps.CalculateBytesTxTime(onWire - IFG);
    Time slotTime = m_bps.CalculateBytesTxTime(onWire);
    m_channel->TransmitStart(frame, this, frameTime);
    ScheduleMember(slotTime, &GigeNetDevice::MacTxComplete, this, frame, isData);
}

void
GigeNetDevice::MacTxComplete(Ptr<Packet> frame, bool isData)
{
    NS_LOG_FUNCTION(this << frame << isData);
    m_txState = READY;
    m_phyTxEndTrace(frame);
    if (isData)
    {
        NS_ASSERT_MSG(!m_txFifo.empty() && m_txFifo.front() == frame, "TX FIFO out of order");
        m_txFifo.pop_front();
        m_txFifoBytes -= frame->GetSize();
        if (!m_txCompleteCallback.IsNull())
        {
            m_txCompleteCallback(frame);
        }
        if (m_driver && m_txCoalescer)
        {
            m_driver->FrameSent();
            m_txCoalescer->Notify();
        }
    }
    MacTxKick();
    TxDmaKick();
}

// ---------------------------------------------------------------- flow control

void
GigeNetDevice::HandlePause(uint16_t quanta)
{
    NS_LOG_FUNCTION(this << quanta);
    ++m_pauseReceived;
    m_pauseRxTrace(quanta);
    if (!m_pauseEnabled)
    {
        return;
    }
    m_pausedUntil = Simulator::Now() + QuantaToTime(quanta);
    NS_LOG_LOGIC(m_address << ": PAUSE of " << quanta << " quanta received, transmitter held until "
                           << m_pausedUntil.As(Time::US));
    m_resumeEvent.Cancel();
    if (m_txState == PAUSED)
    {
        NS_LOG_LOGIC(m_address << ": PAUSED -> READY (the PAUSE was replaced)");
        m_txState = READY;
    }
    MacTxKick();
}

void
GigeNetDevice::SendPause(uint16_t quanta)
{
    NS_LOG_FUNCTION(this << quanta);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(PauseHeader(quanta));
    EthernetHeader eth(false);
    eth.SetSource(m_address);
    eth.SetDestination(PauseHeader::GetPauseAddress());
    eth.SetLengthType(PauseHeader::ETHERTYPE);
    p->AddHeader(eth);
    m_pendingPause = p; // a newer PAUSE replaces one not yet sent
    ++m_pauseSent;
    m_pauseTxTrace(quanta);
    MacTxKick();
}

void
GigeNetDevice::CheckRxWaterMarks()
{
    if (!m_pauseEnabled)
    {
        return;
    }
    if (!m_pauseAsserted && m_rxFifoBytes >= m_pauseHigh)
    {
        NS_LOG_LOGIC(m_address << ": RX FIFO at " << m_rxFifoBytes << " bytes >= high water "
                               << m_pauseHigh << ": PAUSE asserted");
        m_pauseAsserted = true;
        SendPause(m_pauseQuanta);
        // Renew before the peer's timer runs out if the FIFO is still above the low mark.
        m_refreshEvent = Simulator::Schedule(QuantaToTime(m_pauseQuanta) / 2,
                                             &GigeNetDevice::RefreshPause,
                                             this);
    }
    else if (m_pauseAsserted && m_rxFifoBytes <= m_pauseLow)
    {
        NS_LOG_LOGIC(m_address << ": RX FIFO at " << m_rxFifoBytes << " bytes <= low water "
                               << m_pauseLow << ": PAUSE released");
        m_pauseAsserted = false;
        m_refreshEvent.Cancel();
        SendPause(0);
    }
}

void
GigeNetDevice::RefreshPause()
{
    if (m_pauseAsserted)
    {
        SendPause(m_pauseQuanta);
        m_refreshEvent = Simulator::Schedule(QuantaToTime(m_pauseQuanta) / 2,
                                             &GigeNetDevice::RefreshPause,
                                             this);
    }
}

// ---------------------------------------------------------------- receive

void
GigeNetDevice::Receive(Ptr<Packet> frame)
{
    NS_LOG_FUNCTION(this << frame);
    m_phyRxEndTrace(frame);
    m_snifferTrace(frame);
    m_promiscSnifferTrace(frame);
    if (GetEtherType(frame) == PauseHeader::ETHERTYPE)
    {
        Ptr<Packet> body = frame->Copy();
        EthernetHeader eth(false);
        body->RemoveHeader(eth);
        PauseHeader pause;
        body->RemoveHeader(pause);
        if (pause.GetOpcode() == PauseHeader::OPCODE_PAUSE)
        {
            HandlePause(pause.GetQuanta());
        }
        return; // MAC Control frames are consumed by the MAC
    }
    if (m_rxFifoBytes + frame->GetSize() > m_rxFifoSize)
    {
        NS_LOG_LOGIC("RX FIFO full, drop");
        ++m_rxDrops;
        m_macRxDropTrace(frame);
        return;
    }
    m_rxFifoBytes += frame->GetSize();
    m_rxFifoPeak = std::max(m_rxFifoPeak, m_rxFifoBytes);
    CheckRxWaterMarks();
    if (m_holdRx)
    {
        // Switch port: forward now (store-and-forward done), keep the bytes charged.
        DeliverUp(frame);
        return;
    }
    m_rxFifo.push_back(frame);
    RxDmaKick();
}

void
GigeNetDevice::ReleaseRxBuffer(uint32_t bytes)
{
    NS_ASSERT_MSG(bytes <= m_rxFifoBytes, "releasing more than the RX FIFO holds");
    m_rxFifoBytes -= bytes;
    CheckRxWaterMarks();
}

void
GigeNetDevice::RxDmaKick()
{
    if (m_rxDmaFrame || m_rxFifo.empty() || m_rxRingFree == 0)
    {
        return;
    }
    m_rxDmaFrame = m_rxFifo.front();
    --m_rxRingFree;
    // Firmware work, then the frame and its completion descriptor are written to host memory.
    ScheduleMember(m_nicRxCost,
                   m_bus ? &GigeNetDevice::RxDmaStart : &GigeNetDevice::RxDmaDone,
                   this);
}

void
GigeNetDevice::RxDmaStart()
{
    // The frame, then its completion descriptor, to host memory.
    m_bus->TransferPair(m_rxDmaFrame->GetSize(),
                        m_descriptorBytes,
                        PciBus::DMA_WRITE,
                        m_rxDmaDoneCb,
                        m_dmaWriteBurst);
}

void
GigeNetDevice::RxDmaDone()
{
    NS_LOG_FUNCTION(this << m_rxDmaFrame);
    NS_ASSERT_MSG(!m_rxFifo.empty() && m_rxFifo.front() == m_rxDmaFrame, "RX FIFO out of order");
    Ptr<Packet> frame = m_rxDmaFrame;
    m_rxDmaFrame = nullptr;
    m_rxFifo.pop_front();
    m_rxFifoBytes -= frame->GetSize();
    CheckRxWaterMarks();
    if (m_driver)
    {
        m_driver->FrameWritten(frame);
        m_rxCoalescer->Notify();
    }
    else
    {
        DeliverUp(frame); // no host: straight up
    }
    RxDmaKick();
}

void
GigeNetDevice::DeliverUp(Ptr<Packet> frame)
{
    NS_LOG_FUNCTION(this << frame);
    if (!m_holdRx)
    {
        ++m_rxRingFree; // the buffer goes up the stack; the driver posts a fresh one
        RxDmaKick();
    }
    // A switch port forwards the frame it still charges to its FIFO: the stack gets a copy.
    Ptr<Packet> p = m_holdRx ? frame->Copy() : frame;
    EthernetHeader eth(false);
    p->RemoveHeader(eth);
    ForwardUp(p, eth, m_macRxTrace);
}

// ---------------------------------------------------------------- accessors

uint64_t
GigeNetDevice::GetRxFifoDrops() const
{
    return m_rxDrops;
}

uint64_t
GigeNetDevice::GetPauseFramesSent() const
{
    return m_pauseSent;
}

uint64_t
GigeNetDevice::GetPauseFramesReceived() const
{
    return m_pauseReceived;
}

uint32_t
GigeNetDevice::GetRxFifoBytes() const
{
    return m_rxFifoBytes;
}

uint32_t
GigeNetDevice::GetRxFifoPeak() const
{
    return m_rxFifoPeak;
}

GigeNetDevice::TxMacState
GigeNetDevice::GetTxState() const
{
    return m_txState;
}

DataRate
GigeNetDevice::GetDataRate() const
{
    return m_bps;
}

uint32_t
GigeNetDevice::GetRxBufferBytes() const
{
    if (m_mtu > 1500 && m_jumboBufferBytes > 0)
    {
        return m_jumboBufferBytes;
    }
    return HEADER + m_mtu + FCS + 2;
}

Ptr<Channel>
GigeNetDevice::GetChannel() const
{
    return m_channel;
}

bool
GigeNetDevice::SetMtu(const uint16_t mtu)
{
    // The NetDevice API takes any MTU: refuse what the Mtu attribute's checker refuses.
    static const UintegerRange allowed = UintegerRange::Of(GetTypeId().GetName(), "Mtu");
    if (!allowed.Contains(mtu))
    {
        return false;
    }
    m_mtu = mtu;
    if (m_rxCoalescer)
    {
        m_rxCoalescer->SetJumbo(m_mtu > 1500);
    }
    return true;
}

uint16_t
GigeNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
GigeNetDevice::IsLinkUp() const
{
    return m_linkUp;
}

} // namespace clusternet
} // namespace ns3
