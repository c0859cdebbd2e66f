// SPDX-License-Identifier: GPL-2.0-only
#include "gige-switch-net-device.h"

#include "ethernet-switch-port.h"

#include "ns3/attribute-range.h"
#include "switch-frame-tag.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("GigeSwitchNetDevice");
NS_OBJECT_ENSURE_REGISTERED(GigeSwitchNetDevice);

TypeId
GigeSwitchNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::GigeSwitchNetDevice")
            .SetParent<EthernetDeviceBase>()
            .SetGroupName("Clusternet")
            .AddConstructor<GigeSwitchNetDevice>()
            .AddAttribute("Mtu",
                          "Largest payload the switch forwards [bytes] (jumbo frames: 9000).",
                          UintegerValue(9000),
                          MakeUintegerAccessor(&GigeSwitchNetDevice::SetMtu,
                                               &GigeSwitchNetDevice::GetMtu),
                          MakeUintegerChecker<uint16_t>(1500, 9000))
            .AddAttribute("ForwardingLatency",
                          "Time from the last bit of a frame in to its forwarding decision "
                          "(address lookup and fabric transfer) [Time]. No seed paper measures "
                          "it; 2 us is the order of store-and-forward Gigabit switches of "
                          "2000 beyond the frame's own reception time.",
                          TimeValue(MicroSeconds(2)),
                          MakeTimeAccessor(&GigeSwitchNetDevice::m_latency),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("ExpirationTime",
                          "Time a learned address stays valid [Time].",
                          TimeValue(Seconds(300)),
                          MakeTimeAccessor(&GigeSwitchNetDevice::m_expirationTime),
                          MakeTimeChecker(Seconds(0)))
            .AddTraceSource("Forward",
                            "A frame (without its Ethernet header) was queued on an egress port.",
                            MakeTraceSourceAccessor(&GigeSwitchNetDevice::m_forwardTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("OutputDrop",
                            "An egress port's queue refused a frame.",
                            MakeTraceSourceAccessor(&GigeSwitchNetDevice::m_dropTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

GigeSwitchNetDevice::GigeSwitchNetDevice()
{
    NS_LOG_FUNCTION(this);
    m_channel = CreateObject<BridgeChannel>();
}

GigeSwitchNetDevice::~GigeSwitchNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
GigeSwitchNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_ports.clear();
    m_learned.clear();
    m_held.clear();
    m_channel = nullptr;
    EthernetDeviceBase::DoDispose(); // the node and the callbacks
}

void
GigeSwitchNetDevice::AddSwitchPort(Ptr<EthernetSwitchPort> port)
{
    NS_LOG_FUNCTION(this << port);
    NS_ASSERT_MSG(m_node, "add the switch to its node before adding ports");
    NS_ASSERT_MSG(port->GetNode() == m_node,
                  "a switch port must be on the switch's node");
    if (m_address == Mac48Address())
    {
        m_address = Mac48Address::ConvertFrom(port->GetAddress());
    }
    port->SetHoldRxBuffer(true);
    port->SetTxCompleteCallback(MakeCallback(&GigeSwitchNetDevice::EgressDone, this));
    m_node->RegisterProtocolHandler(MakeCallback(&GigeSwitchNetDevice::ReceiveFromPort, this),
                                    0,
                                    port,
                                    true);
    m_ports.push_back(port);
    m_channel->AddChannel(port->GetChannel());
}

uint32_t
GigeSwitchNetDevice::GetNSwitchPorts() const
{
    return m_ports.size();
}

Ptr<EthernetSwitchPort>
GigeSwitchNetDevice::GetSwitchPort(uint32_t n) const
{
    NS_ASSERT_MSG(n < m_ports.size(), "no switch port " << n);
    return m_ports[n];
}

uint64_t
GigeSwitchNetDevice::GetOutputDrops() const
{
    return m_outputDrops;
}

uint64_t
GigeSwitchNetDevice::GetForwarded() const
{
    return m_forwarded;
}

void
GigeSwitchNetDevice::ReceiveFromPort(Ptr<NetDevice> device,
                                     Ptr<const Packet> packet,
                                     uint16_t protocol,
                                     const Address& source,
                                     const Address& destination,
                                     PacketType packetType)
{
    NS_LOG_FUNCTION(this << device << packet << protocol << source << destination << packetType);
    Ptr<EthernetSwitchPort> ingress = DynamicCast<EthernetSwitchPort>(device);
    NS_ASSERT_MSG(ingress, "frame from a port that is not an EthernetSwitchPort");
    Mac48Address src = Mac48Address::ConvertFrom(source);
    Mac48Address dst = Mac48Address::ConvertFrom(destination);
    if (!m_promiscCallback.IsNull())
    {
        m_promiscCallback(this, packet, protocol, src, dst, packetType);
    }
    Ptr<Packet> frame = packet->Copy();
    if (m_latency.IsZero())
    {
        Forward(ingress, frame, protocol, src, dst);
    }
    else
    {
        Simulator::Schedule(m_latency,
                            &GigeSwitchNetDevice::Forward,
                            this,
                            ingress,
                            frame,
                            protocol,
                            src,
                            dst);
    }
}

void
GigeSwitchNetDevice::Forward(Ptr<EthernetSwitchPort> ingress,
                             Ptr<Packet> packet,
                             uint16_t protocol,
                             Mac48Address src,
                             Mac48Address dst)
{
    NS_LOG_FUNCTION(this << ingress << packet << protocol << src << dst);
    Learn(src, ingress);
    std::vector<Ptr<EthernetSwitchPort>> egress;
    Ptr<EthernetSwitchPort> known = dst.IsGroup() ? nullptr : Lookup(dst);
    if (known)
    {
        if (known != ingress)
        {
            egress.push_back(known);
        }
    }
    else
    {
        for (const auto& port : m_ports)
        {
            if (port != ingress)
            {
                egress.push_back(port);
            }
        }
    }
    uint64_t id = m_nextId++;
    m_held[id] = Held{ingress, packet->GetSize() + EthernetSwitchPort::HEADER,
                      static_cast<uint32_t>(egress.size())};
    SwitchFrameTag tag(id);
    for (const auto& port : egress)
    {
        Ptr<Packet> copy = packet->Copy();
        SwitchFrameTag old;
        copy->RemovePacketTag(old); // from a switch upstream
        copy->AddPacketTag(tag);
        if (port->SendFrom(copy, src, dst, protocol))
        {
            ++m_forwarded;
            m_forwardTrace(copy);
        }
        else
        {
            ++m_outputDrops;
            m_dropTrace(copy);
            Release(id);
        }
    }
    if (egress.empty())
    {
        m_held[id].copies = 1;
        Release(id); // filtered: nothing to send
    }
}

void
GigeSwitchNetDevice::EgressDone(Ptr<const Packet> frame)
{
    SwitchFrameTag tag;
    if (frame->PeekPacketTag(tag))
    {
        Release(tag.GetId());
    }
}

void
GigeSwitchNetDevice::Release(uint64_t id)
{
    auto it = m_held.find(id);
    if (it == m_held.end())
    {
        return; // sent by the switch itself, not held by a port
    }
    NS_ASSERT_MSG(it->second.copies > 0, "switch frame released too often");
    if (--it->second.copies == 0)
    {
        it->second.ingress->ReleaseRxBuffer(it->second.bytes);
        m_held.erase(it);
    }
}

void
GigeSwitchNetDevice::Learn(Mac48Address source, Ptr<EthernetSwitchPort> port)
{
    m_learned[source] = Learned{port, Simulator::Now() + m_expirationTime};
}

Ptr<EthernetSwitchPort>
GigeSwitchNetDevice::Lookup(Mac48Address dst)
{
    auto it = m_learned.find(dst);
    if (it == m_learned.end())
    {
        return nullptr;
    }
    if (it->second.expires < Simulator::Now())
    {
        m_learned.erase(it);
        return nullptr;
    }
    return it->second.port;
}

// ---------------------------------------------------------------- NetDevice

Ptr<Channel>
GigeSwitchNetDevice::GetChannel() const
{
    return m_channel;
}

bool
GigeSwitchNetDevice::SetMtu(const uint16_t mtu)
{
    // The NetDevice API takes any MTU: refuse what the Mtu attribute's checker refuses.
    static const UintegerRange allowed = UintegerRange::Of(GetTypeId().GetName(), "Mtu");
    if (!allowed.Contains(mtu))
    {
        return false;
    }
    m_mtu = mtu;
    return true;
}

uint16_t
GigeSwitchNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
GigeSwitchNetDevice::IsLinkUp() const
{
    return true;
}

bool
GigeSwitchNetDevice::IsBridge() const
{
    return true;
}

bool
GigeSwitchNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    return SendFrom(packet, m_address, dest, protocolNumber);
}

bool
GigeSwitchNetDevice::SendFrom(Ptr<Packet> packet,
                              const Address& source,
                              const Address& dest,
                              uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << source << dest << protocolNumber);
    // Frames of the switch itself (management) take no ingress buffer.
    Mac48Address dst = Mac48Address::ConvertFrom(dest);
    Ptr<EthernetSwitchPort> known = dst.IsGroup() ? nullptr : Lookup(dst);
    if (known)
    {
        return known->SendFrom(packet, source, dest, protocolNumber);
    }
    bool any = false;
    for (const auto& port : m_ports)
    {
        any |= port->SendFrom(packet->Copy(), source, dest, protocolNumber);
    }
    return any;
}

} // namespace clusternet
} // namespace ns3
