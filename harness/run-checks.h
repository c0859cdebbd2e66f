// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_RUN_CHECKS_H
#define CLUSTERNET_RUN_CHECKS_H

#include "ns3/profile-set.h"
#include "ns3/type-id.h"

#include <string>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief Checks across attributes that a run's values must pass, made once on the resolved
 * values (ProfileSet) before anything is built. Each returns "" or one line naming the
 * attribute and what is allowed; the experiments prefix "--set: ".
 */
class RunChecks
{
  public:
    /// The LANai's firmware and packet buffers fit its SRAM (target "lanai").
    static std::string LanaiSram(const ProfileSet& values);
    /// Myrinet flow control can be lossless (targets "port" and "link").
    static std::string MyrinetFlowControl(const ProfileSet& values);
    /// IP over GM posts no more buffers than GM has tokens (targets "device" and "gm").
    static std::string GmEthernetTokens(const ProfileSet& values);
    /// A GigE device's PAUSE water marks fit its receive FIFO (target "device").
    static std::string GigePause(const ProfileSet& values);
    /**
     * One frame's way from one host's TCP to the other's (targets "cpu", "driver" and
     * "device": the host's per-packet cycles at its clock, the copies, the NIC's costs and the
     * wire) fits TCP's timers: within ns-3's TcpSocketBase::MinRto and half its
     * TcpSocket::ConnTimeout (as configured), past which a connection cannot be opened or kept.
     * @param mtu the IP MTU [bytes]
     */
    static std::string TcpFrameTime(const ProfileSet& values, uint32_t mtu);
    /// An FM shared-memory region's layout holds its processes (target "smt").
    static std::string FmSmtLayout(const ProfileSet& values, uint32_t processes);
    /**
     * MPI profile @p stack runs over @p transport (its properties.Transport) and its own
     * settings fit (MpiHelper::CheckProfile). @return "" or one line naming --stack and the MPI
     * profiles that do run over @p transport
     */
    static std::string MpiLibrary(const std::string& stack, TypeId transport);
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_RUN_CHECKS_H
