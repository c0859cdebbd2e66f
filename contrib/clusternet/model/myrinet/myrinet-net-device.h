// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_MYRINET_NET_DEVICE_H
#define CLUSTERNET_MYRINET_NET_DEVICE_H

#include "myrinet-port.h"

#include "ns3/data-rate.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <functional>
#include <map>
#include <vector>

namespace ns3
{
namespace clusternet
{

class MyrinetChannel;
class MyrinetSwitch;
class MyrinetWorm;

/**
 * @ingroup clusternet
 * @brief A Myrinet port (MyrinetPort): the packet interface of a host adapter, or one port of a crossbar
 * switch (then owned by a MyrinetSwitch).
 *
 * The receiving side of every port has a slack buffer. When its occupancy rises to
 * StopThreshold the port sends STOP on the opposite channel; when it falls to GoThreshold it
 * sends GO. Either symbol takes the cable's delay to reach the transmitter, which stops or
 * resumes then, so the buffer must hold StopThreshold plus the bytes of two cable delays at the
 * link rate (MyrinetChannel). Packets travel as worms (MyrinetWorm): byte counts per hop that
 * change rate only at STOP/GO, head and tail events.
 *
 * A host port sends packets to routes (one output port per switch) and delivers each packet
 * whole, after its CRC-8 is checked, to the receive callback. Its receive side can be held
 * (SetReceiveEnabled) or drain slower than the link (ReceiveRate): the fabric then
 * back-pressures instead of dropping.
 */
class MyrinetNetDevice : public MyrinetPort
{
  public:
    /// Called when a packet handed to SendRoute has left this port completely.
    using SendDoneCallback = Callback<void, Ptr<const Packet>>;
    /// Computes the route to a destination: false if there is none.
    using RouteCallback = std::function<bool(Mac48Address, std::vector<uint8_t>&)>;

    /// Signature of the Stop and Go traces: slack-buffer occupancy [bytes].
    typedef void (*OccupancyTracedCallback)(double occupancy);

    static TypeId GetTypeId();
    MyrinetNetDevice();
    ~MyrinetNetDevice() override;

    /// Attach to a link. @return false if the link already joins two ports
    bool Attach(Ptr<MyrinetChannel> channel);
    /// @return the port at the other end of the link (null if none)
    Ptr<MyrinetPort> GetPeer() const override;
    /// @return the link (null if not attached)
    Ptr<MyrinetChannel> GetMyrinetChannel() const override;
    /// Make this a port of @p sw with index @p port (done by MyrinetSwitch::AddPort).
    void SetSwitch(Ptr<MyrinetSwitch> sw, uint32_t port) override;
    /// @return the switch owning this port, or null for a host port
    Ptr<MyrinetSwitch> GetSwitch() const override;
    /// @return this port's index on its switch
    uint32_t GetSwitchPort() const override;

    /**
     * Send @p payload along a route.
     * @param payload the packet body (a GM or IP packet)
     * @param ports the output port at each switch, first switch first (empty: back to back)
     * @param type the Myrinet packet type (< 0x8000)
     * @return false if the transmit queue is full (the packet is dropped and counted)
     */
    bool SendRoute(Ptr<Packet> payload, const std::vector<uint8_t>& ports, uint16_t type);
    /// Set the route used by Send() for @p dest.
    void AddRoute(Mac48Address dest, const std::vector<uint8_t>& ports);
    /// Compute routes with @p cb for destinations without an explicit route (large fabrics).
    void SetRouteCallback(RouteCallback cb);
    /// @return true and the route to @p dest in @p ports, if there is one
    bool GetRoute(Mac48Address dest, std::vector<uint8_t>& ports) const;
    /// Be told when a packet has left this port (the send DMA engine is free again).
    void SetSendDoneCallback(SendDoneCallback cb);

    /// Accept (true) or hold (false) arriving packet bytes. Held bytes back-pressure the fabric.
    void SetReceiveEnabled(bool enabled);
    /// @return whether arriving bytes are accepted
    bool IsReceiveEnabled() const override;
    /// @return the rate at which this host port drains arriving bytes [bytes/s]
    double GetReceiveRateBytes() const override;

    /**
     * Check that flow control can be lossless: GO below STOP, and STOP plus the bytes of two
     * cable delays at the link rate within the slack buffer.
     * @param slack SlackBufferSize [bytes]
     * @param stop StopThreshold [bytes]
     * @param go GoThreshold [bytes]
     * @param rate the link's DataRate
     * @param delay the link's Delay
     * @return "" or one line naming the attribute and what is allowed
     */
    static std::string CheckFlowControl(uint32_t slack,
                                        uint32_t stop,
                                        uint32_t go,
                                        DataRate rate,
                                        Time delay);

    /// @return slack buffer size [bytes]
    uint32_t GetSlackBufferSize() const;
    /// @return occupancy at which STOP is sent [bytes]
    uint32_t GetStopThreshold() const override;
    /// @return occupancy at which GO is sent [bytes]
    uint32_t GetGoThreshold() const override;
    /// @return STOP symbols this port's receiver has sent
    uint64_t GetStopCount() const override;
    /// @return GO symbols this port's receiver has sent
    uint64_t GetGoCount() const override;
    /// @return bytes this port has transmitted (whole packets, route, type and CRC included)
    uint64_t GetTxBytes() const override;
    /// @return packets this port has transmitted
    uint64_t GetTxPackets() const override;
    /// @return bytes this host port has received in packets delivered intact
    uint64_t GetRxBytes() const;
    /// @return packets this host port has delivered
    uint64_t GetRxPackets() const;
    /// @return packets dropped here (queue full, CRC error)
    uint64_t GetDropCount() const override;
    /// @return times the slack buffer overflowed (never, with consistent thresholds)
    uint64_t GetOverflowCount() const override;
    /// @return the largest slack-buffer occupancy seen [bytes] (beyond the switch pipeline)
    double GetMaxOccupancy() const override;

    // MyrinetPort: used by MyrinetWorm.
    /// @return true while a STOP from the peer is in effect on this port's transmitter
    bool IsStopped() const override;
    /// @return true while this port's receiver has STOP asserted
    bool IsStopAsserted() const override;
    /// The receiver's slack buffer reached StopThreshold: send STOP.
    void AssertStop(double occupancy) override;
    /// The receiver's slack buffer fell to GoThreshold: send GO.
    void AssertGo(double occupancy) override;
    /// A STOP (true) or GO (false) from the peer has arrived.
    void ReceiveFlowControl(bool stop) override;
    /// Record a slack-buffer occupancy [bytes]; counts an overflow beyond the buffer.
    void RecordOccupancy(double occupancy) override;
    /// The worm now using this port's transmitter (null when free).
    void SetTxWorm(Ptr<MyrinetWorm> worm) override;
    /// The worm now filling this port's receive buffer (null when empty).
    void SetRxWorm(Ptr<MyrinetWorm> worm) override;
    /// A worm's tail has left the link this port transmits on.
    void NotifyTxReleased(uint32_t bytes) override;
    /// A worm's tail has left this (host) port's transmitter.
    void NotifySendDone(Ptr<const Packet> wire) override;
    /// A whole packet has arrived at this host port.
    void Deliver(Ptr<Packet> wire) override;

    // NetDevice
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsPointToPoint() const override;
    bool IsBridge() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoDispose() override;

  private:
    void StartNext();

    // What the worms read on every event comes first, next to the object's header: a port
    // whose state is one or two cache lines away costs a miss per hop and event in a large
    // fabric.
    bool m_stopped{false};       //!< transmitter stopped by the peer's STOP
    bool m_stopAsserted{false};  //!< receiver has sent STOP, not yet GO
    bool m_receiveEnabled{true}; //!< host receiver accepts bytes
    uint32_t m_stopThreshold;
    uint32_t m_goThreshold;
    uint32_t m_slack;
    double m_maxOccupancy{0};

    Ptr<Node> m_node;
    Ptr<MyrinetChannel> m_channel;
    Ptr<MyrinetSwitch> m_switch;
    uint32_t m_switchPort{0};
    Mac48Address m_address;
    uint32_t m_ifIndex{0};
    uint16_t m_mtu;
    DataRate m_receiveRate;
    uint32_t m_maxQueue;

    Ptr<MyrinetWorm> m_txWorm;
    Ptr<MyrinetWorm> m_rxWorm;
    std::deque<Ptr<Packet>> m_queue; //!< host: wire packets waiting for the port
    std::map<Mac48Address, std::vector<uint8_t>> m_routes;
    RouteCallback m_routeCallback;

    uint64_t m_stops{0};
    uint64_t m_gos{0};
    uint64_t m_txBytes{0};
    uint64_t m_txPackets{0};
    uint64_t m_rxBytes{0};
    uint64_t m_rxPackets{0};
    uint64_t m_drops{0};
    uint64_t m_overflows{0};

    NetDevice::ReceiveCallback m_rxCallback;
    NetDevice::PromiscReceiveCallback m_promiscCallback;
    SendDoneCallback m_sendDone;

    TracedCallback<double> m_stopTrace;          //!< STOP sent: occupancy [bytes]
    TracedCallback<double> m_goTrace;            //!< GO sent: occupancy [bytes]
    TracedCallback<Ptr<const Packet>> m_txBeginTrace; //!< a packet starts on the wire
    TracedCallback<Ptr<const Packet>> m_txEndTrace;   //!< its tail has left this port
    TracedCallback<Ptr<const Packet>> m_rxTrace;      //!< a whole packet arrived (host)
    TracedCallback<Ptr<const Packet>> m_dropTrace;    //!< dropped (queue full, CRC)
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_MYRINET_NET_DEVICE_H
