// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_MPI_GM_TRANSPORT_H
#define CLUSTERNET_MPI_GM_TRANSPORT_H

#include "ns3/gm-port.h"
#include "mpi-transport.h"

#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{
namespace clusternet
{

class HostCpu;

/**
 * @ingroup clusternet
 * @brief MPI over a GM port (MPICH-GM, LA-MPI GM): short protocol packets are copied by the
 * host CPU into registered (pinned) bounce buffers and sent as GM messages, and copied out of
 * the provided GM receive buffer on arrival. The data of a long message (rendezvous DATA)
 * either goes straight from the user's registered memory into the receiver's, zero-copy, the
 * receiver providing a buffer of the message's size when it sends the CTS (MPICH-GM), or, with
 * LongDataCopied, through the bounce buffers too: fragments of a bounce buffer's size less the
 * envelope, each copied in by the sender and out by the receiver, at most
 * MaxOutstandingFragments of a message in flight (LA-MPI's GM path).
 *
 * The process polls the port inside the library; a send waits for a GM send token when all
 * are in flight. A packet is delivered to the library once it is in host memory (and, for
 * short packets, copied out). GM delivers a connection's messages in order, so the envelopes
 * travel beside the data in order too.
 */
class MpiGmTransport : public MpiTransport
{
  public:
    static TypeId GetTypeId();
    MpiGmTransport();
    ~MpiGmTransport() override;

    /**
     * Use @p port (open on this rank's host) as rank @p rank.
     * @param nodes GM node id of every rank, rank i at index i
     */
    void Setup(Ptr<GmPort> port, Ptr<HostCpu> cpu, uint32_t rank, const std::vector<uint16_t>& nodes);
    /// The transports of every rank, rank i at index i.
    void SetPeers(const std::vector<Ptr<MpiTransport>>& peers) override;

    void Send(const MpiEnvelope& envelope,
              uint32_t envelopeBytes,
              std::function<void()> written) override;

    /**
     * @brief Check, before anything is built, that a long message's fragments fit the bounce
     * buffers: room is left after the envelope (what Send asserts when LongDataCopied).
     * @param bounceSize BounceSize [bytes]
     * @param envelopeBytes the library's EnvelopeBytes [bytes]
     * @return "" or one line naming the attributes and what is allowed
     */
    static std::string CheckBounce(uint32_t bounceSize, uint32_t envelopeBytes);

  protected:
    void DoDispose() override;
    void Resume() override;

  private:
    /// A GM send waiting for a token.
    struct PendingSend
    {
        MpiEnvelope envelope;
        uint32_t bytes;
        bool zeroCopy;
        std::function<void()> written;
        uint32_t copyBytes{0}; //!< data the sender copies in when it sends (a long fragment)
        bool fragment{false};  //!< one fragment of a long message's copied data
        bool last{true};       //!< the message's last GM message
    };

    /// What a receiver knows of a GM message on its way (announced in send order).
    struct Inbound
    {
        MpiEnvelope envelope;
        bool fragment{false}; //!< a fragment of copied long data
        uint32_t bytes{0};    //!< the fragment's data bytes
        bool last{true};      //!< the message's last fragment
    };

    void Announce(uint32_t src, const Inbound& inbound);
    void Kick();
    /// Post @p s (a GM send token is held) from the send bounce buffer or the user's memory.
    void Post(const PendingSend& s);
    void Poll();
    /// Handle one GM event (the library is making progress).
    void Handle(const GmEvent& ev);
    void Provide(uint32_t size, uint64_t address);
    void RunCpu(Time cost, std::function<void()> done);

    Ptr<GmPort> m_port;
    Ptr<HostCpu> m_cpu;
    uint32_t m_rank{0};
    std::vector<uint16_t> m_nodes;
    std::vector<Ptr<MpiGmTransport>> m_peers;
    std::deque<PendingSend> m_pending;
    bool m_sending{false};
    std::map<uint64_t, std::function<void()>> m_inFlight; //!< send buffer address -> written
    std::optional<GmEvent> m_held; //!< an event that waits for the library to progress
    std::map<uint16_t, std::deque<Inbound>> m_inbound; //!< per source node, in order
    std::map<uint64_t, uint32_t> m_outstanding; //!< message id -> its fragments in flight
    std::map<uint64_t, uint64_t> m_fragmentOf;  //!< GM message uid -> long message id
    uint64_t m_sendSlots{0};                //!< send bounce buffers allocated so far
    std::vector<uint64_t> m_freeSendSlots;  //!< free send bounce buffers (a stack)
    uint64_t m_nextLongAddress{0};

    uint32_t m_bounceSize;
    uint32_t m_receiveBuffers;
    bool m_longDataCopied;
    uint32_t m_maxOutstanding;
    uint8_t m_portId;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_MPI_GM_TRANSPORT_H
