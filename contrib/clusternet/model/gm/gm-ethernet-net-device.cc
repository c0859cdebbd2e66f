// SPDX-License-Identifier: GPL-2.0-only
#include "gm-ethernet-net-device.h"

#include "gm-port.h"
#include "ns3/ethernet-driver.h"
#include "ns3/host-cpu.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/channel.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/ethernet-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("GmEthernetNetDevice");
NS_OBJECT_ENSURE_REGISTERED(GmEthernetNetDevice);

namespace
{
/// Host memory the driver's pinned buffers start at (apart from user processes' buffers).
constexpr uint64_t kDriverMemory = 0x10000000ULL;
/// Room for one buffer: the largest frame rounded up to whole 4 KB pages [bytes].
constexpr uint64_t kBufferStride = 12288;
} // namespace

TypeId
GmEthernetNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::GmEthernetNetDevice")
            .SetParent<EthernetDeviceBase>()
            .SetGroupName("Clusternet")
            .AddConstructor<GmEthernetNetDevice>()
            .AddAttribute("Mtu",
                          "IP MTU [bytes]: GM's Ethernet emulation supports frames up to 9000 "
                          "bytes of payload (\"jumbo\" frames).",
                          UintegerValue(9000),
                          MakeUintegerAccessor(&GmEthernetNetDevice::SetMtu,
                                               &GmEthernetNetDevice::GetMtu),
                          MakeUintegerChecker<uint16_t>(576, 9000))
            .AddAttribute("RxBufferBytes",
                          "Bytes of one receive buffer the driver provides to GM: a whole frame, "
                          "Mtu + 14 (read only).",
                          TypeId::ATTR_GET,
                          UintegerValue(0),
                          MakeUintegerAccessor(&GmEthernetNetDevice::GetRxBufferBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Address",
                          "The MAC address of this interface.",
                          Mac48AddressValue(Mac48Address("ff:ff:ff:ff:ff:ff")),
                          MakeMac48AddressAccessor(&GmEthernetNetDevice::m_address),
                          MakeMac48AddressChecker())
            .AddAttribute("TxQueue",
                          "The interface's transmit queue (txqueuelen) above the send buffers.",
                          PointerValue(),
                          MakePointerAccessor(&GmEthernetNetDevice::m_queue),
                          MakePointerChecker<Queue<Packet>>())
            .AddAttribute("PortId",
                          "GM port the driver opens (0..255) [port number].",
                          UintegerValue(3),
                          MakeUintegerAccessor(&GmEthernetNetDevice::m_portId),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("SendBuffers",
                          "Pinned send buffers of the driver, each holding one frame in flight "
                          "[buffers]; at most the port's send tokens.",
                          UintegerValue(16),
                          MakeUintegerAccessor(&GmEthernetNetDevice::m_sendBuffers),
                          MakeUintegerChecker<uint32_t>(1, 1024))
            .AddAttribute("ReceiveBuffers",
                          "Pinned receive buffers the driver provides to GM [buffers]; at most "
                          "the port's receive tokens.",
                          UintegerValue(16),
                          MakeUintegerAccessor(&GmEthernetNetDevice::m_receiveBuffers),
                          MakeUintegerChecker<uint32_t>(1, 1024))
            .AddAttribute("Driver",
                          "The host-side driver: its per-frame work and the protocol cost of "
                          "each frame, apart from the copies and gm_send (needed before "
                          "Attach).",
                          PointerValue(),
                          MakePointerAccessor(&GmEthernetNetDevice::m_driver),
                          MakePointerChecker<EthernetDriver>())
            .AddAttribute("CopyOnSend",
                          "The driver copies every frame into a pinned send buffer (at the host "
                          "CPU's CopyBandwidth).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&GmEthernetNetDevice::m_copyOnSend),
                          MakeBooleanChecker())
            .AddAttribute("CopyOnReceive",
                          "The driver copies every frame out of its pinned receive buffer into "
                          "a socket buffer (at the host CPU's CopyBandwidth).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&GmEthernetNetDevice::m_copyOnReceive),
                          MakeBooleanChecker())
            .AddTraceSource("MacTx",
                            "A packet was accepted by Send() for transmission.",
                            MakeTraceSourceAccessor(&GmEthernetNetDevice::m_macTxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacTxDrop",
                            "A packet was dropped at Send() (queue full, too big or unknown "
                            "destination).",
                            MakeTraceSourceAccessor(&GmEthernetNetDevice::m_macTxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacRx",
                            "A packet was passed up to the upper layer.",
                            MakeTraceSourceAccessor(&GmEthernetNetDevice::m_macRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Sniffer",
                            "Every frame handed to GM or received, with its Ethernet header.",
                            MakeTraceSourceAccessor(&GmEthernetNetDevice::m_snifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PromiscSniffer",
                            "Every frame handed to GM or received, with its Ethernet header.",
                            MakeTraceSourceAccessor(&GmEthernetNetDevice::m_promiscSnifferTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

GmEthernetNetDevice::GmEthernetNetDevice()
{
    NS_LOG_FUNCTION(this);
    m_queue = CreateObject<DropTailQueue<Packet>>();
}

GmEthernetNetDevice::~GmEthernetNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
GmEthernetNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    if (m_port)
    {
        m_port->SetEventNotify(nullptr);
    }
    m_port = nullptr;
    if (m_driver)
    {
        m_driver->Dispose();
    }
    m_driver = nullptr;
    m_queue = nullptr;
    m_neighbors.clear();
    m_sendsPending.clear();
    EthernetDeviceBase::DoDispose();
}

uint64_t
GmEthernetNetDevice::SendBufferAddress(uint32_t i) const
{
    return m_bufferBase + i * kBufferStride;
}

uint64_t
GmEthernetNetDevice::ReceiveBufferAddress(uint32_t i) const
{
    return m_bufferBase + (m_sendBuffers + i) * kBufferStride;
}

void
GmEthernetNetDevice::Attach(Ptr<GmPort> port)
{
    NS_LOG_FUNCTION(this << port);
    NS_ASSERT_MSG(m_node, "GmEthernetNetDevice::Attach before SetNode");
    NS_ABORT_MSG_IF(m_sendBuffers > port->GetMaxSendTokens(),
                    "GmEthernetNetDevice: SendBuffers (" << m_sendBuffers
                                                         << ") exceeds the port's send tokens ("
                                                         << port->GetMaxSendTokens() << ")");
    NS_ABORT_MSG_IF(m_receiveBuffers > port->GetReceiveTokens(),
                    "GmEthernetNetDevice: ReceiveBuffers ("
                        << m_receiveBuffers << ") exceeds the port's receive tokens ("
                        << port->GetReceiveTokens() << ")");
    NS_ABORT_MSG_IF(!m_driver, "GmEthernetNetDevice: Attach needs the Driver attribute set");
    m_port = port;
    m_driver->SetNode(m_node);
    m_port->SetCpuPriority(HostCpu::INTERRUPT);
    m_port->SetEventNotify([this]() { Notify(); });
    m_bufferBase = kDriverMemory + uint64_t(m_ifIndex) * 0x01000000ULL;
    m_freeSendBuffers.clear();
    for (uint32_t i = m_sendBuffers; i > 0; --i)
    {
        m_freeSendBuffers.push_back(i - 1); // taken from the back: buffer 0 first
    }
    for (uint32_t i = 0; i < m_receiveBuffers; ++i)
    {
        m_port->ProvideReceiveBuffer(m_mtu + HEADER, ReceiveBufferAddress(i), nullptr);
    }
    m_linkChangeCallbacks();
}

Ptr<GmPort>
GmEthernetNetDevice::GetPort() const
{
    return m_port;
}

Ptr<EthernetDriver>
GmEthernetNetDevice::GetDriver() const
{
    return m_driver;
}

void
GmEthernetNetDevice::AddNeighbor(Mac48Address address, uint16_t node)
{
    m_neighbors[address] = node;
}

std::vector<uint16_t>
GmEthernetNetDevice::Destinations(Mac48Address dest) const
{
    std::vector<uint16_t> nodes;
    if (dest.IsBroadcast() || dest.IsGroup())
    {
        for (const auto& [mac, node] : m_neighbors)
        {
            if (mac != m_address)
            {
                nodes.push_back(node);
            }
        }
        return nodes;
    }
    auto it = m_neighbors.find(dest);
    if (it != m_neighbors.end())
    {
        nodes.push_back(it->second);
    }
    return nodes;
}

void
GmEthernetNetDevice::RunCpu(Time cost, bool interrupt, std::function<void()> done)
{
    m_driver->Execute(cost, interrupt, Callback<void>(done));
}

// ---------------------------------------------------------------- transmit

bool
GmEthernetNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    return SendFrom(packet, m_address, dest, protocolNumber);
}

bool
GmEthernetNetDevice::SendFrom(Ptr<Packet> packet,
                              const Address& source,
                              const Address& dest,
                              uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << source << dest << protocolNumber);
    Mac48Address to = Mac48Address::ConvertFrom(dest);
    if (!m_port || packet->GetSize() > m_mtu || Destinations(to).empty())
    {
        ++m_txDrops;
        m_macTxDropTrace(packet);
        return false;
    }
    m_macTxTrace(packet);
    EthernetHeader eth(false);
    eth.SetSource(Mac48Address::ConvertFrom(source));
    eth.SetDestination(to);
    eth.SetLengthType(protocolNumber);
    packet->AddHeader(eth);
    if (!m_queue->Enqueue(packet))
    {
        ++m_txDrops;
        m_macTxDropTrace(packet);
        return false;
    }
    TxKick();
    return true;
}

void
GmEthernetNetDevice::TxKick()
{
    if (m_txBusy || m_freeSendBuffers.empty() || m_queue->IsEmpty())
    {
        return;
    }
    Ptr<const Packet> head = m_queue->Peek();
    EthernetHeader eth(false);
    head->PeekHeader(eth);
    std::vector<uint16_t> nodes = Destinations(eth.GetDestination());
    if (m_port->GetSendTokens() < nodes.size())
    {
        return; // wait for send tokens to come back with the completion events
    }
    Ptr<Packet> frame = m_queue->Dequeue();
    uint32_t buffer = m_freeSendBuffers.back();
    m_freeSendBuffers.pop_back();
    m_txBusy = true;
    Time cost = m_driver->TxCost(frame);
    if (m_copyOnSend)
    {
        cost += m_driver->GetCpu()->CopyCost(frame->GetSize());
    }
    RunCpu(cost, false, [this, frame, buffer, nodes]() { TxCopied(frame, buffer, nodes); });
}

void
GmEthernetNetDevice::TxCopied(Ptr<Packet> frame, uint32_t buffer, std::vector<uint16_t> nodes)
{
    NS_LOG_FUNCTION(this << frame << buffer << nodes.size());
    m_snifferTrace(frame);
    m_promiscSnifferTrace(frame);
    ++m_framesSent;
    uint64_t address = SendBufferAddress(buffer);
    m_sendsPending[address] = nodes.size();
    for (std::size_t i = 0; i < nodes.size(); ++i)
    {
        bool last = i + 1 == nodes.size();
        m_port->Send(nodes[i], m_portId, frame, address, [this, last]() {
            if (last)
            {
                m_txBusy = false;
                TxKick();
            }
        });
    }
}

// ---------------------------------------------------------------- receive

void
GmEthernetNetDevice::Notify()
{
    if (m_inInterrupt)
    {
        return; // the handler running polls until the queue is empty
    }
    m_inInterrupt = true;
    RunCpu(m_driver->InterruptEntryCost(), true, [this]() { RxLoop(); });
}

void
GmEthernetNetDevice::RxLoop()
{
    if (m_port->GetPendingEvents() == 0)
    {
        m_inInterrupt = false;
        return;
    }
    m_port->PollOnce([this](const GmEvent& ev) { HandleEvent(ev); });
}

void
GmEthernetNetDevice::HandleEvent(const GmEvent& ev)
{
    NS_LOG_FUNCTION(this << ev.type << ev.length);
    if (ev.type == GmEvent::SENT)
    {
        auto it = m_sendsPending.find(ev.address);
        NS_ASSERT_MSG(it != m_sendsPending.end() && it->second > 0,
                      "send completion for a buffer with no send in flight");
        if (--it->second == 0)
        {
            uint32_t buffer = (ev.address - m_bufferBase) / kBufferStride;
            m_sendsPending.erase(it);
            m_freeSendBuffers.push_back(buffer);
        }
        TxKick();
        RxLoop();
        return;
    }
    NS_ASSERT_MSG(ev.type == GmEvent::RECEIVED, "unexpected GM event");
    Ptr<Packet> frame = ev.message->Copy();
    Time cost = m_driver->RxCost(frame);
    if (m_copyOnReceive)
    {
        cost += m_driver->GetCpu()->CopyCost(ev.length);
    }
    uint32_t size = m_mtu + HEADER;
    uint64_t address = ev.address;
    RunCpu(cost, true, [this, frame, size, address]() {
        // The frame is now in an skb: the pinned buffer goes back to GM.
        m_port->ProvideReceiveBuffer(size, address, [this, frame]() {
            DeliverUp(frame);
            RxLoop();
        });
    });
}

void
GmEthernetNetDevice::DeliverUp(Ptr<Packet> frame)
{
    NS_LOG_FUNCTION(this << frame);
    ++m_framesReceived;
    m_snifferTrace(frame);
    m_promiscSnifferTrace(frame);
    EthernetHeader eth(false);
    frame->RemoveHeader(eth);
    ForwardUp(frame, eth, m_macRxTrace);
}

// ---------------------------------------------------------------- accessors

uint64_t
GmEthernetNetDevice::GetFramesSent() const
{
    return m_framesSent;
}

uint64_t
GmEthernetNetDevice::GetFramesReceived() const
{
    return m_framesReceived;
}

uint64_t
GmEthernetNetDevice::GetTxDrops() const
{
    return m_txDrops;
}

Ptr<Channel>
GmEthernetNetDevice::GetChannel() const
{
    return nullptr; // the Myrinet link belongs to the LANai's port, below GM
}

bool
GmEthernetNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
GmEthernetNetDevice::GetMtu() const
{
    return m_mtu;
}

uint32_t
GmEthernetNetDevice::GetRxBufferBytes() const
{
    return m_mtu + HEADER;
}

bool
GmEthernetNetDevice::IsLinkUp() const
{
    return m_port != nullptr;
}

} // namespace clusternet
} // namespace ns3
