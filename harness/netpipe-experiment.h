// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_NETPIPE_EXPERIMENT_H
#define CLUSTERNET_NETPIPE_EXPERIMENT_H

#include "ns3/mpi-helper.h"

#include "ns3/attribute-range.h"
#include "ns3/netpipe-application.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief One NetPIPE TCP configuration between two hosts linked back to back by Gigabit
 * Ethernet, as in seed 000 section 3.
 */
struct NetpipeConfig
{
    std::string nic{"sknet"};            //!< NIC profile
    std::string host{"piii450-linux22"}; //!< host profile
    std::string pci;                     //!< "WIDTHxCLOCK" (e.g. "64x66"); empty = host profile
    uint32_t switches{0}; //!< 0 back to back; 1 one switch; N a line (IP over GM only)
    uint16_t mtu{1500};                  //!< IP MTU [bytes]
    uint32_t sockbuf{131072};            //!< socket buffer [bytes]
    uint32_t maxBlock{1 << 21};          //!< largest NetPIPE block [bytes]
    std::string overrides;               //!< "target.Attribute=value;..." (device, coalescer,
                                         //!< cpu, bus, stack)
    std::string pcapPrefix;              //!< write PCAP files with this prefix if not empty
    std::string mpi;                     //!< MPI profile for NetPIPE's MPI mode; empty = TCP
};

/**
 * @ingroup clusternet
 * @brief Builds and runs one NetPIPE TCP simulation.
 */
class TcpNetpipeExperiment
{
  public:
    /// @return "" if @p config is valid, else one line naming the bad parameter
    static std::string Validate(const NetpipeConfig& config);
    /**
     * @return the targets of a run's values (--set), rows "kind.target" of the target table:
     * the Gigabit Ethernet NIC's and the host's, or with @p gm IP over GM's (the host's driver
     * and GM library, the LANai's); with @p mpi also the MPI library's
     */
    static std::vector<std::string> Targets(bool gm, bool mpi);
    /// Run the simulation; @p config must be valid.
    static std::vector<NetpipeApplication::Sample> Run(const NetpipeConfig& config);
    /// @return the MPI library of @p config as its profile makes it (a run's overrides reach
    /// the ranks once they are built); @p config.mpi must name a profile
    static MpiHelper MakeMpiHelper(const NetpipeConfig& config);
    /// @return the value @p target.@p attribute (an unsigned integer attribute) has in a run of
    /// @p config: its profiles', else its default, unless --set changes it; @p config must be valid
    static uint32_t GetSetting(const NetpipeConfig& config,
                               const std::string& target,
                               const std::string& attribute);
    /// @return the PCI slot a run uses, WIDTHxCLOCK: --set, else --pci, else the host profile's;
    /// @p config must be valid
    static std::string EffectivePci(const NetpipeConfig& config);

    /// @return the IP MTUs a run takes [bytes]: GigeNetDevice's Mtu checker
    static UintegerRange MtuRange();
    /// @return the socket buffers a run takes [bytes]: NetpipeApplication's SocketBuffer checker
    static UintegerRange SockbufRange();
    /// @return the largest NetPIPE blocks a run takes [bytes]: NetpipeApplication's MaxBlock
    static UintegerRange MaxBlockRange();
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_NETPIPE_EXPERIMENT_H
