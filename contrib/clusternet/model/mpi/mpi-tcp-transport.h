// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_MPI_TCP_TRANSPORT_H
#define CLUSTERNET_MPI_TCP_TRANSPORT_H

#include "mpi-transport.h"

#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/socket.h"

#include <deque>
#include <map>
#include <vector>

namespace ns3
{
namespace clusternet
{

class HostCpu;

/**
 * @ingroup clusternet
 * @brief MPI over TCP sockets (LAM C2C, MPICH ch_p4, LA-MPI TCP): one ns-3 TCP connection per
 * pair of ranks, made on the first send between them, with the socket buffers of the MPI
 * profile (SocketBuffer, applied through the host's HostStack) and TCP_NODELAY.
 *
 * Sending a packet is one write(): a system call, then the envelope and data copied into the
 * socket in segment-sized chunks as the send buffer has room (host CPU CopyBandwidth); the
 * sender goes on when the last byte is in the socket. Receiving is read() calls as bytes
 * arrive (a system call plus the copy each), and the packet is delivered when its last byte
 * has been read. With EnvelopeWrite the envelope and the data are two write() calls. With
 * EnvelopeRead the library reads each packet's envelope with a read() of
 * its own before the data. With SelectPolling the sockets are non-blocking and driven by
 * select(): every read, and every write resumed after the send buffer filled, costs a select()
 * system call too. The byte stream carries no framing of its own in the simulation: each
 * transport tells its peer the length of every packet it writes, in order, and TCP's
 * in-order byte stream does the rest.
 */
class MpiTcpTransport : public MpiTransport
{
  public:
    static TypeId GetTypeId();
    MpiTcpTransport();
    ~MpiTcpTransport() override;

    /**
     * Set up rank @p rank on @p node (which has an IPv4 stack, HostStack and usually HostCpu):
     * listen on Port.
     * @param addresses IPv4 address of every rank, rank i at index i
     */
    void Setup(Ptr<Node> node, uint32_t rank, const std::vector<Ipv4Address>& addresses);
    /// The transports of every rank, rank i at index i (to announce packet lengths).
    void SetPeers(const std::vector<Ptr<MpiTransport>>& peers) override;

    void Send(const MpiEnvelope& envelope,
              uint32_t envelopeBytes,
              std::function<void()> written) override;

    /// @return TCP connections this rank opened or accepted
    uint32_t GetConnections() const;
    /// @return the connection to rank @p peer, or nullptr if there is none yet
    Ptr<Socket> GetSocket(uint32_t peer) const;

  protected:
    void DoDispose() override;
    void Resume() override;

  private:
    /// A packet announced by a sender, not yet read whole.
    struct Inbound
    {
        MpiEnvelope envelope;
        uint32_t total;         //!< bytes of the packet
        uint32_t remaining;     //!< bytes still to read
        uint32_t envelopeBytes; //!< of which the envelope
    };

    /// A packet waiting to be written.
    struct Outbound
    {
        uint32_t bytes;
        std::function<void()> written;
    };

    /// Per-connection state.
    struct Connection
    {
        Ptr<Socket> socket;
        uint32_t peer{0};
        std::deque<Outbound> writes; //!< packets to write, oldest first
        uint32_t toWrite{0};         //!< bytes of the front packet not yet in the socket
        bool writeStarted{false};    //!< the front packet's system call is done
        bool copying{false};         //!< a chunk copy is on the CPU
        bool reading{false};         //!< a read is on the CPU
        bool stalled{false};         //!< a write found the send buffer full
    };

    /// The peer's transport announces a packet of @p bytes from rank @p src.
    void Announce(uint32_t src, const MpiEnvelope& envelope, uint32_t bytes, uint32_t envelopeBytes);
    Ptr<Socket> NewSocket();
    void Configure(Ptr<Socket> socket) const;
    Connection& Adopt(Ptr<Socket> socket, uint32_t peer);
    bool AcceptRequest(Ptr<Socket> s, const Address& from);
    void NewConnection(Ptr<Socket> s, const Address& from);
    void WriteMore(Ptr<Socket> s, uint32_t available);
    void ChunkCopied(Ptr<Socket> s, uint32_t chunk);
    void DataArrived(Ptr<Socket> s);
    void ReadDone(Ptr<Socket> s, uint32_t bytes);
    void RunCpu(Time cost, std::function<void()> done);
    /// Progress is paused: remember that @p s has work, to resume it in order.
    void Hold(Ptr<Socket> s);

    Ptr<Node> m_node;
    Ptr<HostCpu> m_cpu;
    Ptr<Socket> m_listener;
    uint32_t m_rank{0};
    std::vector<Ipv4Address> m_addresses;
    std::vector<Ptr<MpiTcpTransport>> m_peers;
    std::map<Ptr<Socket>, Connection> m_connections;
    std::map<uint32_t, Ptr<Socket>> m_sendSocket;        //!< the socket this rank writes to a peer on
    std::map<uint32_t, std::deque<Inbound>> m_inbound;   //!< per sending rank, oldest first
    std::vector<Ptr<Socket>> m_held; //!< sockets with work that waits for progress, in order
    uint32_t m_sockBuf;
    bool m_setSockBuf; //!< setsockopt(SocketBuffer), or the kernel default
    uint16_t m_port;
    bool m_noDelay;
    bool m_afdBuffering; //!< Windows AFD: Nagle only on sends larger than the send buffer
    bool m_envelopeRead;
    bool m_envelopeWrite;
    bool m_select;
    uint32_t m_chunk{1448};
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_MPI_TCP_TRANSPORT_H
