// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_PING_PONG_EXPERIMENT_H
#define CLUSTERNET_PING_PONG_EXPERIMENT_H

#include "ns3/ping-pong-benchmark.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief One PingPong configuration of seed 002: two processes, on two hosts linked back to
 * back by a pair of NICs, or on the two processors of one host.
 */
struct PingPongConfig
{
    std::string host{"piii450-nt4"}; //!< host profile (CPU, OS, bus)
    std::string stack{"winsock"};    //!< library profile (kind "mpi"): winsock, mpipro, pvm...
    std::string nic{"fa310tx"};      //!< NIC profile; ignored when intranode
    bool intranode{false};           //!< both processes on one host
    bool useSwitch{false};           //!< hosts through one Ethernet switch, not back to back
    std::string pci;                 //!< PCI slot WIDTHxCLOCK of the hosts; "" = the host's
    std::vector<uint32_t> lengths;   //!< message lengths, in order [bytes]
    uint32_t repeats{10};            //!< timed round trips per length
    std::string overrides;           //!< "target.Attribute=value;..." (cpu, bus, stack,
                                     //!< device, coalescer, mpi, transport, shm)
};

/**
 * @ingroup clusternet
 * @brief Builds and runs one PingPong simulation (PingPongBenchmark over MpiRank).
 *
 * Between hosts the library talks TCP (MpiTcpTransport) through the NICs. On one host it uses
 * its shared-memory device (MpiShmTransport) if its profile has one; otherwise (WinSock, PVM)
 * TCP over the OS's loopback (NIC profile "loopback-nt"). The host's two processors are two
 * nodes with the host profile, one process on each.
 */
class PingPongExperiment
{
  public:
    /// The loopback "NIC" profile used between processes on one host without shared memory.
    static const std::string LOOPBACK;
    /// @return "" if @p config is valid, else one line naming the bad parameter
    static std::string Validate(const PingPongConfig& config);
    /// @return the targets of a run's values (--set), rows "kind.target" of the target table:
    /// the NIC's, the host's and the message-passing library's (echo: the echoing rank)
    static const std::vector<std::string>& Targets();
    /// Run the simulation; @p config must be valid. @return one sample per length
    static std::vector<PingPongBenchmark::Sample> Run(const PingPongConfig& config);
    /// @return the transport the configuration uses: "shm", "loopback" or "tcp"
    static std::string TransportOf(const PingPongConfig& config);
    /// @return the NIC profile's price (seed 002 Table 2) [US$], or a negative number if none
    static double PriceUsd(const std::string& nic);
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_PING_PONG_EXPERIMENT_H
