// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_MPI_FM_TRANSPORT_H
#define CLUSTERNET_MPI_FM_TRANSPORT_H

#include "mpi-transport.h"

#include "ns3/fm-context.h"

#include <deque>
#include <map>
#include <utility>
#include <vector>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief MPI over Fast Messages (HPVM's MPI, MPI-FM: MPICH's ADI on FM 2.x): every protocol
 * packet is one FM message, its envelope and data gathered into the FM stream
 * (FM_begin_message, FM_send_piece, FM_end_message) and sent to the destination rank's FM
 * context for the library's handler. FM packetizes, paces and flow-controls it (its credits)
 * and the handler receives it from the region (FmContext charges the copy out); the packet is
 * delivered to the library when the last piece is extracted.
 *
 * The sending process may go on once FM_end_message returns, i.e. once the message's last
 * packet has been written to the NIC (or into the shared region). FM delivers a pair's messages
 * in order (HPVM 1.9 manual, "Semantics": ordered and reliable), so the envelopes travel beside
 * the data in order.
 *
 * FM extracts whenever its process is not sending (the process polls FM inside the library);
 * the model does not pause extraction while the process computes outside MPI calls.
 */
class MpiFmTransport : public MpiTransport
{
  public:
    /// An FM endpoint: node id and context id.
    using Endpoint = std::pair<uint16_t, uint8_t>;

    static TypeId GetTypeId();
    MpiFmTransport();
    ~MpiFmTransport() override;

    /**
     * Use @p context (its process's FM library) as rank @p rank.
     * @param endpoints the FM endpoint of every rank, rank i at index i
     */
    void Setup(Ptr<FmContext> context, uint32_t rank, const std::vector<Endpoint>& endpoints);
    /// The transports of every rank, rank i at index i.
    void SetPeers(const std::vector<Ptr<MpiTransport>>& peers) override;

    void Send(const MpiEnvelope& envelope,
              uint32_t envelopeBytes,
              std::function<void()> written) override;

  protected:
    void DoDispose() override;

  private:
    /// FM extracted a whole message of @p bytes from @p node / @p ctx for @p handler.
    void Received(uint16_t node, uint8_t ctx, uint8_t handler, uint32_t bytes);

    Ptr<FmContext> m_context;
    uint32_t m_rank{0};
    std::vector<Endpoint> m_endpoints;
    std::map<Endpoint, uint32_t> m_rankOf;
    std::vector<Ptr<MpiFmTransport>> m_peers;
    /// Envelopes on their way from each rank, in the order sent (FM keeps it).
    std::map<uint32_t, std::deque<MpiEnvelope>> m_inbound;
    uint8_t m_handler;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_MPI_FM_TRANSPORT_H
