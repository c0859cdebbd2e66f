// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_GIGE_SWITCH_NET_DEVICE_H
#define CLUSTERNET_GIGE_SWITCH_NET_DEVICE_H

#include "ns3/bridge-channel.h"
#include "ns3/mac48-address.h"
#include "ethernet-switch-port.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <map>
#include <vector>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief A store-and-forward Gigabit Ethernet switch, built as a NetDevice bridge over
 * EthernetSwitchPort ports (GigeNetDevice is one) in the manner of ns-3's BridgeNetDevice (learning, flooding of unknown
 * and group destinations), registered with Node::RegisterProtocolHandler, so Node is not
 * edited.
 *
 * Buffering is per ingress port: each port's RX FIFO (attribute RxFifoSize of the port) is the
 * buffer of the frames that arrived on it. A frame stays charged to its ingress port until
 * every egress port it was forwarded to has sent it, so the port's PAUSE water marks reflect
 * the frames waiting for an output, and a congested output pushes PAUSE back to the senders
 * (802.3x). Ports honour received PAUSE like any GigeNetDevice.
 *
 * Forwarding starts when the last bit of a frame has arrived (store and forward), after
 * ForwardingLatency.
 */
class GigeSwitchNetDevice : public EthernetDeviceBase
{
  public:
    static TypeId GetTypeId();
    GigeSwitchNetDevice();
    ~GigeSwitchNetDevice() override;

    GigeSwitchNetDevice(const GigeSwitchNetDevice&) = delete;
    GigeSwitchNetDevice& operator=(const GigeSwitchNetDevice&) = delete;

    /**
     * Add a port. The port must already be added to this switch's node; it is put in
     * switch-port mode (received frames stay charged to its receive buffer until sent on).
     */
    void AddSwitchPort(Ptr<EthernetSwitchPort> port);
    /// @return the number of ports
    uint32_t GetNSwitchPorts() const;
    /// @return port @p n
    Ptr<EthernetSwitchPort> GetSwitchPort(uint32_t n) const;
    /// @return frames dropped because an output queue refused them
    uint64_t GetOutputDrops() const;
    /// @return frames forwarded (one count per egress copy)
    uint64_t GetForwarded() const;

    // NetDevice
    Ptr<Channel> GetChannel() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    bool IsBridge() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;

  protected:
    void DoDispose() override;

  private:
    /// A received frame still charged to its ingress port.
    struct Held
    {
        Ptr<EthernetSwitchPort> ingress; //!< port whose buffer holds the frame
        uint32_t bytes;             //!< bytes charged (Ethernet header + payload)
        uint32_t copies;            //!< egress copies not yet sent
    };

    void ReceiveFromPort(Ptr<NetDevice> device,
                         Ptr<const Packet> packet,
                         uint16_t protocol,
                         const Address& source,
                         const Address& destination,
                         PacketType packetType);
    void Forward(Ptr<EthernetSwitchPort> ingress,
                 Ptr<Packet> packet,
                 uint16_t protocol,
                 Mac48Address src,
                 Mac48Address dst);
    void EgressDone(Ptr<const Packet> frame);
    void Release(uint64_t id);
    void Learn(Mac48Address source, Ptr<EthernetSwitchPort> port);
    Ptr<EthernetSwitchPort> Lookup(Mac48Address dst);

    Ptr<BridgeChannel> m_channel;
    std::vector<Ptr<EthernetSwitchPort>> m_ports;
    uint16_t m_mtu{9000};

    // attributes
    Time m_latency;
    Time m_expirationTime;

    struct Learned
    {
        Ptr<EthernetSwitchPort> port;
        Time expires;
    };

    std::map<Mac48Address, Learned> m_learned;
    std::map<uint64_t, Held> m_held;
    uint64_t m_nextId{1};
    uint64_t m_outputDrops{0};
    uint64_t m_forwarded{0};

    TracedCallback<Ptr<const Packet>> m_forwardTrace;
    TracedCallback<Ptr<const Packet>> m_dropTrace;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_GIGE_SWITCH_NET_DEVICE_H
