// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_LOOPBACK_DRIVER_H
#define CLUSTERNET_LOOPBACK_DRIVER_H

#include "ethernet-driver.h"

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief The driver of a software device: a TCP/IP loopback between two processes of one host
 * (Windows NT's tcpip.sys loopback).
 *
 * There is no NIC: frames never cross a bus (GetBus is null), the transmit routine copies each
 * frame before queueing it (the sender's buffer is released at once) at the host CPU's copy
 * bandwidth, and a queued frame is delivered by a worker (a deferred call), so receiving enters
 * no interrupt handler.
 */
class LoopbackDriver : public EthernetDriver
{
  public:
    static TypeId GetTypeId();
    LoopbackDriver();
    ~LoopbackDriver() override;

    /// @return null: the frames stay in host memory
    Ptr<PciBus> GetBus() const override;
    /// @return the protocol cost, TxCycles and the copy of @p frame
    Time TxCost(Ptr<const Packet> frame) const override;
    /// @return zero: a deferred call, not an interrupt
    Time InterruptEntryCost() const override;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_LOOPBACK_DRIVER_H
