// SPDX-License-Identifier: GPL-2.0-only
#include "myrinet-net-device.h"

#include "myrinet-channel.h"
#include "myrinet-header.h"
#include "myrinet-switch.h"
#include "myrinet-trailer.h"
#include "myrinet-worm.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("MyrinetNetDevice");
NS_OBJECT_ENSURE_REGISTERED(MyrinetNetDevice);

TypeId
MyrinetNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::MyrinetNetDevice")
            .SetParent<MyrinetPort>()
            .SetGroupName("Clusternet")
            .AddConstructor<MyrinetNetDevice>()
            .AddAttribute("Mtu",
                          "Largest payload handed to Send [bytes] (Myrinet packets have no "
                          "length limit; GM uses at most 4 KB, IP over GM 9000).",
                          UintegerValue(9000),
                          MakeUintegerAccessor(&MyrinetNetDevice::m_mtu),
                          MakeUintegerChecker<uint16_t>(1, 65535))
            .AddAttribute("SlackBufferSize",
                          "Receive slack buffer of the port [bytes] (Boden et al., IEEE Micro "
                          "1995: 80 bytes).",
                          UintegerValue(80),
                          MakeUintegerAccessor(&MyrinetNetDevice::m_slack),
                          MakeUintegerChecker<uint32_t>(8, 1 << 20))
            .AddAttribute("StopThreshold",
                          "Occupancy at which the port sends STOP [bytes] (Boden et al.: 56 of "
                          "80). Must leave room for two cable delays at the link rate.",
                          UintegerValue(56),
                          MakeUintegerAccessor(&MyrinetNetDevice::m_stopThreshold),
                          MakeUintegerChecker<uint32_t>(1, 1 << 20))
            .AddAttribute("GoThreshold",
                          "Occupancy at which the port sends GO [bytes], below StopThreshold "
                          "(Boden et al.: 40).",
                          UintegerValue(40),
                          MakeUintegerAccessor(&MyrinetNetDevice::m_goThreshold),
                          MakeUintegerChecker<uint32_t>(0, 1 << 20))
            .AddAttribute("ReceiveRate",
                          "Rate at which a host port drains arriving bytes [bit/s]; 0 = the "
                          "link rate.",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&MyrinetNetDevice::m_receiveRate),
                          MakeDataRateChecker())
            .AddAttribute("MaxQueue",
                          "Packets a host port queues for its link [packets].",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&MyrinetNetDevice::m_maxQueue),
                          MakeUintegerChecker<uint32_t>(1, 1 << 20))
            .AddAttribute("Channel",
                          "The link this port is attached to (read-only: set by Attach, so "
                          "a Config path reaches the link's attributes).",
                          TypeId::ATTR_GET,
                          PointerValue(),
                          MakePointerAccessor(&MyrinetNetDevice::GetMyrinetChannel),
                          MakePointerChecker<MyrinetChannel>())
            .AddTraceSource("Stop",
                            "The receiver sent STOP: slack-buffer occupancy [bytes].",
                            MakeTraceSourceAccessor(&MyrinetNetDevice::m_stopTrace),
                            "ns3::clusternet::MyrinetNetDevice::OccupancyTracedCallback")
            .AddTraceSource("Go",
                            "The receiver sent GO: slack-buffer occupancy [bytes].",
                            MakeTraceSourceAccessor(&MyrinetNetDevice::m_goTrace),
                            "ns3::clusternet::MyrinetNetDevice::OccupancyTracedCallback")
            .AddTraceSource("PhyTxBegin",
                            "A packet's first byte goes out on this host port.",
                            MakeTraceSourceAccessor(&MyrinetNetDevice::m_txBeginTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxEnd",
                            "A packet's last byte has left this host port.",
                            MakeTraceSourceAccessor(&MyrinetNetDevice::m_txEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacRx",
                            "A whole packet arrived at this host port (wire format).",
                            MakeTraceSourceAccessor(&MyrinetNetDevice::m_rxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Drop",
                            "A packet was dropped here (queue full or CRC error).",
                            MakeTraceSourceAccessor(&MyrinetNetDevice::m_dropTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

MyrinetNetDevice::MyrinetNetDevice()
{
    NS_LOG_FUNCTION(this);
}

MyrinetNetDevice::~MyrinetNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
MyrinetNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_node = nullptr;
    m_channel = nullptr;
    m_switch = nullptr;
    m_txWorm = nullptr;
    m_rxWorm = nullptr;
    m_queue.clear();
    m_rxCallback = MakeNullCallback<bool, Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&>();
    m_promiscCallback = NetDevice::PromiscReceiveCallback();
    m_sendDone = SendDoneCallback();
    m_routeCallback = nullptr;
    MyrinetPort::DoDispose();
}

bool
MyrinetNetDevice::Attach(Ptr<MyrinetChannel> channel)
{
    NS_LOG_FUNCTION(this << channel);
    if (channel->GetNDevices() >= 2)
    {
        return false;
    }
    m_channel = channel;
    channel->Attach(this);
    return true;
}

Ptr<MyrinetPort>
MyrinetNetDevice::GetPeer() const
{
    return m_channel ? m_channel->GetPeer(this) : nullptr;
}

Ptr<MyrinetChannel>
MyrinetNetDevice::GetMyrinetChannel() const
{
    return m_channel;
}

void
MyrinetNetDevice::SetSwitch(Ptr<MyrinetSwitch> sw, uint32_t port)
{
    m_switch = sw;
    m_switchPort = port;
}

Ptr<MyrinetSwitch>
MyrinetNetDevice::GetSwitch() const
{
    return m_switch;
}

uint32_t
MyrinetNetDevice::GetSwitchPort() const
{
    return m_switchPort;
}

bool
MyrinetNetDevice::SendRoute(Ptr<Packet> payload, const std::vector<uint8_t>& ports, uint16_t type)
{
    NS_LOG_FUNCTION(this << payload << ports.size() << type);
    NS_ASSERT_MSG(!m_switch, "switch ports do not originate packets");
    Ptr<Packet> wire = payload->Copy();
    wire->AddHeader(MyrinetHeader(ports, type));
    MyrinetTrailer trailer;
    trailer.Compute(wire);
    wire->AddTrailer(trailer);
    if (m_queue.size() >= m_maxQueue)
    {
        ++m_drops;
        m_dropTrace(wire);
        return false;
    }
    m_queue.push_back(wire);
    if (!m_txWorm)
    {
        StartNext();
    }
    return true;
}

void
MyrinetNetDevice::StartNext()
{
    if (m_queue.empty() || m_txWorm || !GetPeer())
    {
        return;
    }
    Ptr<Packet> wire = m_queue.front();
    m_queue.pop_front();
    m_txBeginTrace(wire);
    Ptr<MyrinetWorm> worm = Create<MyrinetWorm>(wire, this);
    worm->Start();
}

void
MyrinetNetDevice::AddRoute(Mac48Address dest, const std::vector<uint8_t>& ports)
{
    m_routes[dest] = ports;
}

bool
MyrinetNetDevice::GetRoute(Mac48Address dest, std::vector<uint8_t>& ports) const
{
    auto it = m_routes.find(dest);
    if (it != m_routes.end())
    {
        ports = it->second;
        return true;
    }
    return m_routeCallback && m_routeCallback(dest, ports);
}

void
MyrinetNetDevice::SetRouteCallback(RouteCallback cb)
{
    m_routeCallback = std::move(cb);
}

void
MyrinetNetDevice::SetSendDoneCallback(SendDoneCallback cb)
{
    m_sendDone = cb;
}

void
MyrinetNetDevice::SetReceiveEnabled(bool enabled)
{
    NS_LOG_FUNCTION(this << enabled);
    m_receiveEnabled = enabled;
    if (m_rxWorm)
    {
        m_rxWorm->Touch();
    }
}

bool
MyrinetNetDevice::IsReceiveEnabled() const
{
    return m_receiveEnabled;
}

double
MyrinetNetDevice::GetReceiveRateBytes() const
{
    if (m_receiveRate.GetBitRate() > 0)
    {
        return m_receiveRate.GetBitRate() / 8.0;
    }
    return m_channel ? m_channel->GetDataRate().GetBitRate() / 8.0 : 0.0;
}

std::string
MyrinetNetDevice::CheckFlowControl(uint32_t slack,
                                   uint32_t stop,
                                   uint32_t go,
                                   DataRate rate,
                                   Time delay)
{
    double bytesPerSecond = rate.GetBitRate() / 8.0;
    if (bytesPerSecond <= 0)
    {
        return "DataRate: the link rate must be above 0 bit/s";
    }
    std::ostringstream os;
    if (go >= stop)
    {
        os << "GoThreshold: " << go << " must be below StopThreshold (" << stop << " bytes)";
        return os.str();
    }
    double inFlight = 2 * bytesPerSecond * delay.GetSeconds();
    if (stop + inFlight > slack + 1e-9)
    {
        os << "StopThreshold: " << stop << " bytes + " << inFlight
           << " bytes in flight over two cable delays exceeds SlackBufferSize (" << slack
           << " bytes); allowed StopThreshold <= " << static_cast<int64_t>(slack - inFlight);
        return os.str();
    }
    return "";
}

uint32_t
MyrinetNetDevice::GetSlackBufferSize() const
{
    return m_slack;
}

uint32_t
MyrinetNetDevice::GetStopThreshold() const
{
    return m_stopThreshold;
}

uint32_t
MyrinetNetDevice::GetGoThreshold() const
{
    return m_goThreshold;
}

uint64_t
MyrinetNetDevice::GetStopCount() const
{
    return m_stops;
}

uint64_t
MyrinetNetDevice::GetGoCount() const
{
    return m_gos;
}

uint64_t
MyrinetNetDevice::GetTxBytes() const
{
    return m_txBytes;
}

uint64_t
MyrinetNetDevice::GetTxPackets() const
{
    return m_txPackets;
}

uint64_t
MyrinetNetDevice::GetRxBytes() const
{
    return m_rxBytes;
}

uint64_t
MyrinetNetDevice::GetRxPackets() const
{
    return m_rxPackets;
}

uint64_t
MyrinetNetDevice::GetDropCount() const
{
    return m_drops;
}

uint64_t
MyrinetNetDevice::GetOverflowCount() const
{
    return m_overflows;
}

double
MyrinetNetDevice::GetMaxOccupancy() const
{
    return m_maxOccupancy;
}

bool
MyrinetNetDevice::IsStopped() const
{
    return m_stopped;
}

bool
MyrinetNetDevice::IsStopAsserted() const
{
    return m_stopAsserted;
}

void
MyrinetNetDevice::AssertStop(double occupancy)
{
    NS_LOG_FUNCTION(this << occupancy);
    NS_LOG_LOGIC("slack buffer at " << occupancy << " bytes: STOP sent");
    m_stopAsserted = true;
    ++m_stops;
    m_stopTrace(occupancy);
    Simulator::Schedule(m_channel->GetDelay(), &MyrinetPort::ReceiveFlowControl, GetPeer(), true);
}

void
MyrinetNetDevice::AssertGo(double occupancy)
{
    NS_LOG_FUNCTION(this << occupancy);
    NS_LOG_LOGIC("slack buffer at " << occupancy << " bytes: GO sent");
    m_stopAsserted = false;
    ++m_gos;
    m_goTrace(occupancy);
    Simulator::Schedule(m_channel->GetDelay(), &MyrinetPort::ReceiveFlowControl, GetPeer(), false);
}

void
MyrinetNetDevice::RecordOccupancy(double occupancy)
{
    if (occupancy > m_maxOccupancy)
    {
        m_maxOccupancy = occupancy;
        if (occupancy > m_slack + 1e-6)
        {
            ++m_overflows;
            NS_LOG_WARN("slack buffer overflow: " << occupancy << " > " << m_slack << " bytes");
        }
    }
}

void
MyrinetNetDevice::ReceiveFlowControl(bool stop)
{
    NS_LOG_FUNCTION(this << stop);
    NS_LOG_LOGIC((stop ? "STOP received: the sender holds" : "GO received: the sender resumes"));
    m_stopped = stop;
    if (m_txWorm)
    {
        m_txWorm->Touch();
    }
}

void
MyrinetNetDevice::SetTxWorm(Ptr<MyrinetWorm> worm)
{
    m_txWorm = worm;
}

void
MyrinetNetDevice::SetRxWorm(Ptr<MyrinetWorm> worm)
{
    m_rxWorm = worm;
}

void
MyrinetNetDevice::NotifyTxReleased(uint32_t bytes)
{
    NS_LOG_FUNCTION(this << bytes);
    m_txWorm = nullptr;
    m_txBytes += bytes;
    ++m_txPackets;
    if (m_switch)
    {
        m_switch->Release(m_switchPort);
    }
    else
    {
        StartNext();
    }
}

void
MyrinetNetDevice::NotifySendDone(Ptr<const Packet> wire)
{
    NS_LOG_FUNCTION(this << wire);
    m_txEndTrace(wire);
    if (!m_sendDone.IsNull())
    {
        m_sendDone(wire);
    }
}

void
MyrinetNetDevice::Deliver(Ptr<Packet> wire)
{
    NS_LOG_FUNCTION(this << wire);
    if (m_node && Simulator::GetContext() != m_node->GetId())
    {
        // Worm events run in the sender's context; hand the packet over in ours (a lambda
        // this small is one allocation, a bound member function two).
        Simulator::ScheduleWithContext(m_node->GetId(), Seconds(0), [this, wire]() {
            Deliver(wire);
        });
        return;
    }
    Ptr<Packet> p = wire->Copy();
    MyrinetTrailer trailer;
    p->RemoveTrailer(trailer);
    if (!trailer.Check(p))
    {
        ++m_drops;
        m_dropTrace(wire);
        return;
    }
    MyrinetHeader header;
    p->RemoveHeader(header);
    NS_ASSERT_MSG(header.GetRoute().empty(), "packet reached a host with route bytes left");
    m_rxBytes += wire->GetSize();
    ++m_rxPackets;
    m_rxTrace(wire);
    if (!m_promiscCallback.IsNull())
    {
        m_promiscCallback(this, p, header.GetType(), Address(), m_address, PACKET_HOST);
    }
    if (!m_rxCallback.IsNull())
    {
        m_rxCallback(this, p, header.GetType(), Address());
    }
}

void
MyrinetNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
MyrinetNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
MyrinetNetDevice::GetChannel() const
{
    return m_channel;
}

void
MyrinetNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
MyrinetNetDevice::GetAddress() const
{
    return m_address;
}

bool
MyrinetNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
MyrinetNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
MyrinetNetDevice::IsLinkUp() const
{
    return GetPeer() != nullptr;
}

void
MyrinetNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
}

bool
MyrinetNetDevice::IsBroadcast() const
{
    return false;
}

Address
MyrinetNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
MyrinetNetDevice::IsMulticast() const
{
    return false;
}

Address
MyrinetNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
MyrinetNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
MyrinetNetDevice::IsPointToPoint() const
{
    return false;
}

bool
MyrinetNetDevice::IsBridge() const
{
    return false;
}

bool
MyrinetNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << dest << protocolNumber);
    std::vector<uint8_t> ports;
    if (packet->GetSize() > m_mtu || protocolNumber >= 0x8000 ||
        !GetRoute(Mac48Address::ConvertFrom(dest), ports))
    {
        ++m_drops;
        m_dropTrace(packet);
        return false;
    }
    return SendRoute(packet, ports, protocolNumber);
}

bool
MyrinetNetDevice::SendFrom(Ptr<Packet> packet,
                           const Address& source,
                           const Address& dest,
                           uint16_t protocolNumber)
{
    return false;
}

Ptr<Node>
MyrinetNetDevice::GetNode() const
{
    return m_node;
}

void
MyrinetNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
MyrinetNetDevice::NeedsArp() const
{
    return false;
}

void
MyrinetNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
MyrinetNetDevice::SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb)
{
    m_promiscCallback = cb;
}

bool
MyrinetNetDevice::SupportsSendFrom() const
{
    return false;
}

} // namespace clusternet
} // namespace ns3
