// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_FM_HELPER_H
#define CLUSTERNET_FM_HELPER_H

#include "ns3/fm-context.h"
#include "ns3/fm-mcp.h"
#include "ns3/fm-pio-probe.h"
#include "ns3/fm-smt.h"
#include "ns3/host-bridge.h"
#include "ns3/lanai-nic.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/profile-set.h"

#include <string>
#include <vector>

namespace ns3
{
namespace clusternet
{

class MyrinetHelper;

/**
 * @ingroup clusternet
 * @brief Builds an HPVM machine (Illinois Fast Messages): on each host with a CPU and a PCI bus
 * (HostHelper) and a Myrinet port (MyrinetHelper), a host bridge for programmed I/O
 * (HostBridge), a LANai NIC (LanaiNic) running FM's control program (FmMcp), the host's
 * shared-memory region when its processes talk through memory (FmSmt), and N FM processes
 * (FmContext), each on a CPU of its own; every process is a peer of every other.
 *
 * Every object takes its values from one ProfileSet over Targets(): the profiles' values, the
 * run's choices and the user's overrides, applied through ProfileCatalogue's target table.
 */
class FmHelper
{
  public:
    /// What Install() built on one host.
    struct Host
    {
        Ptr<HostBridge> bridge;                //!< the host bridge PIO goes through
        Ptr<LanaiNic> nic;                     //!< the LANai board
        Ptr<FmMcp> mcp;                        //!< FM's control program on the LANai
        Ptr<FmSmt> smt;                        //!< the shared region (null if none)
        std::vector<Ptr<FmContext>> processes; //!< process p at index p
    };

    /// @return an FM machine's targets, rows "kind.target" of ProfileCatalogue::Targets()
    static const std::vector<std::string>& Targets();
    /**
     * @return the values of an FM machine's profiles, in the order they apply (later ones win):
     * the LANai board, the host, its chipset, the FM version. Each must name a profile of its
     * kind (ProfileCatalogue::Find).
     */
    static ProfileSet ProfileValues(const std::string& lanai,
                                    const std::string& host,
                                    const std::string& chipset,
                                    const std::string& fm);

    /// @param values the machine's values, a ProfileSet over Targets()
    explicit FmHelper(const ProfileSet& values);

    /// Run @p n FM processes per host (1..16; the values' smt.MaxProcesses must allow them).
    void SetProcesses(uint32_t n);
    /// Set the link (channel) and port values (profiles and choices) on @p myrinet.
    void ConfigureFabric(MyrinetHelper& myrinet) const;
    /**
     * Build FM on host i = node @p hosts[i] behind its Myrinet port @p ports[i] (FM node id i),
     * and lay the values' bus and cpu values (chipset, overrides) over the host's PciBus and
     * HostCpu, and the overrides of port and link over its port and link.
     * @return the hosts' FM objects, host i at index i
     */
    std::vector<Host> Install(const NodeContainer& hosts, const NetDeviceContainer& ports) const;
    /**
     * Fix the random streams of @p hosts' control programs and processes, host by host.
     * @return the number of streams used
     */
    static int64_t AssignStreams(const std::vector<Host>& hosts, int64_t stream);
    /// Every process of @p hosts starts polling now.
    static void Start(const std::vector<Host>& hosts);
    /// @return a PIO micro-benchmark on @p host's first process's CPU and its bridge
    static Ptr<FmPioProbe> CreatePioProbe(const Host& host);

  private:
    ProfileSet m_values;
    uint32_t m_processes{1};
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_FM_HELPER_H
