// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_MPI_TRANSPORT_H
#define CLUSTERNET_MPI_TRANSPORT_H

#include "ns3/abort.h"
#include "ns3/object.h"

#include <cstdint>
#include <functional>
#include <ostream>
#include <vector>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief The envelope of an MPI protocol packet: what the receiving library reads before the
 * data. Its size on the wire is the MPI profile's EnvelopeBytes.
 */
struct MpiEnvelope
{
    /// Protocol packet kinds.
    enum Kind : uint8_t
    {
        EAGER = 1, //!< a short message with all its data
        RTS = 2,   //!< request to send a long message (may carry its first bytes: LAM)
        CTS = 3,   //!< the matching receive is posted: send the rest
        DATA = 4,  //!< the rest of a long message, after CTS
    };

    Kind kind{EAGER};
    uint32_t src{0};     //!< sending rank
    uint32_t dst{0};     //!< receiving rank
    int32_t tag{0};      //!< message tag
    uint32_t context{0}; //!< communicator context id
    uint32_t length{0};  //!< message length [bytes]
    uint32_t payload{0}; //!< data bytes this packet carries
    uint64_t id{0};      //!< sender's message id (CTS and DATA name it)
};

std::ostream& operator<<(std::ostream& os, const MpiEnvelope& e);

/**
 * @ingroup clusternet
 * @brief What an MPI library sends its protocol packets over: TCP sockets, GM ports, VIA.
 *
 * A packet is an envelope plus @c payload data bytes. Packets between a pair of ranks arrive
 * in the order sent. The transport charges the host costs of moving them (system calls, copies,
 * descriptor writes) and calls the deliver callback once the whole packet is in the receiving
 * process's memory.
 */
class MpiTransport : public Object
{
  public:
    /// Called for every packet that arrived whole: the envelope (its src names the sender).
    using DeliverCallback = std::function<void(const MpiEnvelope&)>;

    static TypeId GetTypeId();
    ~MpiTransport() override;

    /// Set the callback packets are delivered to.
    void SetDeliverCallback(DeliverCallback cb);
    /**
     * Set a callback for the envelope of a packet with data, called as soon as the envelope
     * is in the receiving process's memory and before the data is (transports that read the
     * envelope first; the packet is delivered whole later as usual). Null: not called.
     */
    void SetHeaderCallback(DeliverCallback cb);
    /**
     * Send a packet: @p envelope then envelope.payload data bytes.
     * @param envelopeBytes the envelope's size on the wire [bytes]
     * @param written called when the sending process may go on (the data has left its buffer)
     */
    virtual void Send(const MpiEnvelope& envelope,
                      uint32_t envelopeBytes,
                      std::function<void()> written) = 0;
    /**
     * Tell the transport the transports of every rank of its job, rank i at index i (itself
     * included), each of its own class.
     */
    virtual void SetPeers(const std::vector<Ptr<MpiTransport>>& peers) = 0;
    /// @return the largest message the transport carries [bytes]; 0 = no limit
    virtual uint32_t GetMaxMessage() const;
    /**
     * Whether the library is making progress. A polling library moves its packets only inside
     * MPI calls: while the process computes, its host-side work (reading sockets, finishing
     * writes, handling completion events) waits, and resumes in order when it re-enters the
     * library. The NIC and the kernel keep working meanwhile. Default: progressing.
     */
    void SetProgressing(bool on);
    /// @return true if host-side transport work may run now
    bool IsProgressing() const;

  protected:
    void DoDispose() override;
    /// Hand an arrived packet to the MPI library.
    void Deliver(const MpiEnvelope& envelope);
    /// Hand the envelope of a packet whose data is still to come to the MPI library.
    void DeliverHeader(const MpiEnvelope& envelope);
    /// Progress resumed after a pause: pick up the work that waited. Default: nothing.
    virtual void Resume();

    /// @return @p peers as transports of class @p T (SetPeers: every rank's is of one class)
    template <typename T>
    static std::vector<Ptr<T>> PeersAs(const std::vector<Ptr<MpiTransport>>& peers)
    {
        std::vector<Ptr<T>> typed;
        for (const auto& p : peers)
        {
            Ptr<T> t = DynamicCast<T>(p);
            NS_ABORT_MSG_UNLESS(t,
                                "MpiTransport: rank " << typed.size() << "'s transport is not a "
                                                      << T::GetTypeId().GetName());
            typed.push_back(t);
        }
        return typed;
    }

  private:
    DeliverCallback m_deliver;
    DeliverCallback m_header;
    bool m_progressing{true}; //!< host-side work may run
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_MPI_TRANSPORT_H
