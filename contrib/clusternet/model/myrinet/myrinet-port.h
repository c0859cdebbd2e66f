// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_MYRINET_PORT_H
#define CLUSTERNET_MYRINET_PORT_H

#include "ns3/net-device.h"
#include "ns3/packet.h"

namespace ns3
{
namespace clusternet
{

class MyrinetChannel;
class MyrinetSwitch;
class MyrinetWorm;

/**
 * @ingroup clusternet
 * @brief What the Myrinet fabric (MyrinetChannel, MyrinetSwitch, MyrinetWorm) needs of a port:
 * its link, its switch, the STOP/GO state of its slack buffer, the worms using it, and where a
 * whole packet ends.
 *
 * The fabric reaches ports only through this interface (as ns-3's BridgeNetDevice reaches its
 * ports through NetDevice); MyrinetNetDevice implements it for host adapters and switch ports.
 * The counters are the link statistics every port keeps, read by switch-level reports.
 */
class MyrinetPort : public NetDevice
{
  public:
    static TypeId GetTypeId();
    ~MyrinetPort() override;

    /// @return the link (null if not attached)
    virtual Ptr<MyrinetChannel> GetMyrinetChannel() const = 0;
    /// @return the port at the other end of the link (null if none)
    virtual Ptr<MyrinetPort> GetPeer() const = 0;
    /// Make this a port of @p sw with index @p port (done by MyrinetSwitch::AddPort).
    virtual void SetSwitch(Ptr<MyrinetSwitch> sw, uint32_t port) = 0;
    /// @return the switch owning this port, or null for a host port
    virtual Ptr<MyrinetSwitch> GetSwitch() const = 0;
    /// @return this port's index on its switch
    virtual uint32_t GetSwitchPort() const = 0;

    /// @return occupancy at which STOP is sent [bytes]
    virtual uint32_t GetStopThreshold() const = 0;
    /// @return occupancy at which GO is sent [bytes]
    virtual uint32_t GetGoThreshold() const = 0;
    /// @return true while a STOP from the peer is in effect on this port's transmitter
    virtual bool IsStopped() const = 0;
    /// @return true while this port's receiver has STOP asserted
    virtual bool IsStopAsserted() const = 0;
    /// The receiver's slack buffer reached StopThreshold: send STOP.
    virtual void AssertStop(double occupancy) = 0;
    /// The receiver's slack buffer fell to GoThreshold: send GO.
    virtual void AssertGo(double occupancy) = 0;
    /// A STOP (true) or GO (false) from the peer has arrived at this port's transmitter.
    virtual void ReceiveFlowControl(bool stop) = 0;
    /// Record a slack-buffer occupancy [bytes]; counts an overflow beyond the buffer.
    virtual void RecordOccupancy(double occupancy) = 0;

    /// The worm now using this port's transmitter (null when free).
    virtual void SetTxWorm(Ptr<MyrinetWorm> worm) = 0;
    /// The worm now filling this port's receive buffer (null when empty).
    virtual void SetRxWorm(Ptr<MyrinetWorm> worm) = 0;
    /// A worm's tail has left the link this port transmits on.
    virtual void NotifyTxReleased(uint32_t bytes) = 0;
    /// A worm's tail has left this (host) port's transmitter.
    virtual void NotifySendDone(Ptr<const Packet> wire) = 0;

    /// @return whether this (host) port accepts arriving bytes
    virtual bool IsReceiveEnabled() const = 0;
    /// @return the rate at which this host port drains arriving bytes [bytes/s]
    virtual double GetReceiveRateBytes() const = 0;
    /// A whole packet has arrived at this host port.
    virtual void Deliver(Ptr<Packet> wire) = 0;

    /// @return STOP symbols this port's receiver has sent
    virtual uint64_t GetStopCount() const = 0;
    /// @return GO symbols this port's receiver has sent
    virtual uint64_t GetGoCount() const = 0;
    /// @return times the slack buffer overflowed (never, with consistent thresholds)
    virtual uint64_t GetOverflowCount() const = 0;
    /// @return the largest slack-buffer occupancy seen [bytes] (beyond the switch pipeline)
    virtual double GetMaxOccupancy() const = 0;
    /// @return bytes this port has transmitted (whole packets, route, type and CRC included)
    virtual uint64_t GetTxBytes() const = 0;
    /// @return packets this port has transmitted
    virtual uint64_t GetTxPackets() const = 0;
    /// @return packets dropped here (queue full, CRC error)
    virtual uint64_t GetDropCount() const = 0;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_MYRINET_PORT_H
