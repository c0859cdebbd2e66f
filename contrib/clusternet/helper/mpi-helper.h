// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_MPI_HELPER_H
#define CLUSTERNET_MPI_HELPER_H

#include "ns3/gm-mcp.h"
#include "ns3/ipv4-interface-container.h"
#include "ns3/mpi-collectives.h"
#include "ns3/mpi-program.h"
#include "ns3/mpi-rank.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <functional>
#include <string>
#include <vector>

namespace ns3
{
namespace clusternet
{

class FmContext;
class GmHelper;

/**
 * @ingroup clusternet
 * @brief Starts an MPI job: one MpiRank per node (rank i on node i) configured from an MPI
 * library profile ("lam", "mpich", ...), over TCP sockets between the nodes' IPv4
 * addresses; runs it and reports a deadlock when the simulation runs dry with ranks still
 * blocked.
 */
class MpiHelper
{
  public:
    MpiHelper();
    /// Apply an MPI profile (targets mpi, transport). @return false if there is no such profile
    bool SetMpiProfile(const std::string& name);
    /// Set an attribute of every rank (MpiRank).
    void SetRankAttribute(std::string name, const AttributeValue& value);
    /**
     * @return the transport class the profile's library is written to: the one its Transport
     * property names (TransportTypeOf), MpiTcpTransport without one
     */
    TypeId GetTransportType() const;
    /**
     * @return the transport class a library profile's Transport property names: tcp
     * (MpiTcpTransport), gm (MpiGmTransport), via (MpiViaTransport) or fm (MpiFmTransport)
     */
    static TypeId TransportTypeOf(const std::string& property);
    /// @return the Transport property that names @p type (for a message)
    static std::string TransportProperty(TypeId type);
    /// @return the largest message (envelope included) the library's transport carries
    /// [bytes]; 0 = no limit
    uint32_t GetMaxMessage() const;
    /**
     * Check the library's values across its attributes before anything is built (a GM
     * library's bounce buffers against its envelope: MpiGmTransport::CheckBounce).
     * @return "" or one line naming the attribute and what is allowed
     */
    std::string CheckProfile() const;
    /// @return NICs the library has drivers for (empty: any)
    std::vector<std::string> GetSupportedNics() const;
    /**
     * Install the ranks over VIA on Ethernet (M-VIA): rank i uses @p devices[i].
     * @return the ranks, started at time 0
     */
    std::vector<Ptr<MpiRank>> InstallVia(const NetDeviceContainer& devices,
                                         const std::vector<std::vector<MpiOperation>>& programs);
    /// Set an attribute of every VIA transport (MpiViaTransport).
    void SetViaTransportAttribute(std::string name, const AttributeValue& value);
    /// Set an attribute of every GM transport (MpiGmTransport).
    void SetGmTransportAttribute(std::string name, const AttributeValue& value);
    /// @return true if the library has a shared-memory device (profile target "shm") for ranks
    /// on one host; without one they talk TCP over the host's loopback
    bool HasSharedMemory() const;
    /// Set an attribute of every shared-memory transport (MpiShmTransport).
    void SetShmTransportAttribute(std::string name, const AttributeValue& value);
    /**
     * Install the ranks over the library's shared-memory device: all ranks are processes of one
     * SMP host, rank i on processor @p nodes[i] (its HostCpu).
     * @return the ranks, started at time 0
     */
    std::vector<Ptr<MpiRank>> InstallShm(const NodeContainer& nodes,
                                         const std::vector<std::vector<MpiOperation>>& programs);
    /// Set an attribute of every transport (MpiTcpTransport).
    void SetTransportAttribute(std::string name, const AttributeValue& value);
    /// @return the socket buffer the transports request [bytes]
    uint32_t GetSocketBuffer() const;
    /// Apply the library's own driver settings (profile target coalescer: M-VIA's modified
    /// driver) to the receive interrupt coalescer of each of @p devices that has one (its
    /// RxCoalescer attribute).
    void ConfigureDevices(const NetDeviceContainer& devices) const;
    /// @return a rank configured from the profile and rank attributes (no transport yet)
    Ptr<MpiRank> CreateRank() const;
    /// @return the library's collective algorithms, as its profile's `coll` table sets them
    Ptr<MpiCollectives> CreateCollectives() const;
    /**
     * Install the ranks over TCP.
     * @param nodes rank i runs on node i (each with an IPv4 stack, HostStack, HostCpu)
     * @param interfaces the IPv4 interface of each node, node i at index i
     * @param programs one operation list per rank
     * @return the ranks, started at time 0
     */
    std::vector<Ptr<MpiRank>> InstallTcp(const NodeContainer& nodes,
                                         const Ipv4InterfaceContainer& interfaces,
                                         const std::vector<std::vector<MpiOperation>>& programs);
    /**
     * Install the ranks over Fast Messages: rank i runs on @p nodes[i] as the process of FM
     * context @p contexts[i] and talks through MpiFmTransport.
     * @return the ranks, started at time 0
     */
    std::vector<Ptr<MpiRank>> InstallFm(const std::vector<Ptr<Node>>& nodes,
                                        const std::vector<Ptr<FmContext>>& contexts,
                                        const std::vector<std::vector<MpiOperation>>& programs);
    /**
     * Install the ranks over GM: rank i opens a GM port on @p mcps[i]'s host (port settings
     * from @p gm, e.g. its host profile) and talks through MpiGmTransport.
     * @return the ranks, started at time 0
     */
    std::vector<Ptr<MpiRank>> InstallGm(const std::vector<Ptr<GmMcp>>& mcps,
                                        const GmHelper& gm,
                                        const std::vector<std::vector<MpiOperation>>& programs);

  private:
    /// Makes rank @p rank's transport over its network (created and set up) and sets @p node
    /// to the node the rank runs on.
    using TransportMaker = std::function<Ptr<MpiTransport>(uint32_t rank, Ptr<Node>& node)>;
    /**
     * Start the job's ranks, one per program: rank i over the transport @p make gives it,
     * each rank made right after its transport; then tell every transport its peers
     * (MpiTransport::SetPeers).
     * @return the ranks, started at time 0
     */
    std::vector<Ptr<MpiRank>> Start(const TransportMaker& make,
                                    const std::vector<std::vector<MpiOperation>>& programs) const;

    std::string m_profile;
    ObjectFactory m_rankFactory;
    ObjectFactory m_transportFactory;
    ObjectFactory m_gmTransportFactory;
    ObjectFactory m_viaTransportFactory;
    ObjectFactory m_shmTransportFactory;
    ObjectFactory m_fmTransportFactory;
    ObjectFactory m_collectivesFactory;
    bool m_shm{false}; //!< the profile has a shared-memory device
    TypeId m_transportType; //!< the class the library's transport is written to
    std::vector<std::string> m_nics;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_MPI_HELPER_H
