// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_MYRINET_CHANNEL_H
#define CLUSTERNET_MYRINET_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

namespace ns3
{
namespace clusternet
{

class MyrinetPort;

/**
 * @ingroup clusternet
 * @brief A Myrinet link: a full-duplex pair of channels between exactly two ports (a host
 * interface or a switch port), each direction at DataRate, with the cable's propagation Delay.
 *
 * Packet bytes and the STOP/GO control symbols of the opposite direction both take Delay.
 */
class MyrinetChannel : public Channel
{
  public:
    static TypeId GetTypeId();
    MyrinetChannel();
    ~MyrinetChannel() override;

    /// Attach a port; at most two.
    void Attach(Ptr<MyrinetPort> device);
    /// @return the port at the other end from @p device (null if none)
    Ptr<MyrinetPort> GetPeer(Ptr<const MyrinetPort> device) const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;
    /// @return the propagation delay of the cable
    Time GetDelay() const;
    /// @return the data rate of each direction
    DataRate GetDataRate() const;

  protected:
    void DoDispose() override;

  private:
    Time m_delay;
    DataRate m_rate;
    Ptr<MyrinetPort> m_dev[2];
    std::size_t m_nDevices{0};
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_MYRINET_CHANNEL_H
