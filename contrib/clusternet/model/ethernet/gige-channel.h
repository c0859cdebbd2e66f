// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_GIGE_CHANNEL_H
#define CLUSTERNET_GIGE_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

namespace ns3
{
namespace clusternet
{

class GigeNetDevice;

/**
 * @ingroup clusternet
 * @brief A full-duplex Gigabit Ethernet link between exactly two GigeNetDevices.
 *
 * Each direction is independent (no collisions). A frame is delivered to the peer, in the peer
 * node's context, when its last bit arrives: transmit time plus propagation Delay.
 */
class GigeChannel : public Channel
{
  public:
    static TypeId GetTypeId();
    GigeChannel();
    ~GigeChannel() override;

    /// Attach a device; at most two.
    void Attach(Ptr<GigeNetDevice> device);

    /**
     * Carry a frame to the other end.
     * @param p the frame (Ethernet header, payload, padding)
     * @param src the sending device
     * @param txTime time from the first bit (preamble) to the last bit (FCS) on the wire
     */
    void TransmitStart(Ptr<const Packet> p, Ptr<GigeNetDevice> src, Time txTime);

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;
    /// @return the propagation delay
    Time GetDelay() const;

  protected:
    void DoDispose() override;

  private:
    Time m_delay;
    Ptr<GigeNetDevice> m_dev[2];
    std::size_t m_nDevices{0};
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_GIGE_CHANNEL_H
