// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_HOST_TCP_SOCKET_H
#define CLUSTERNET_HOST_TCP_SOCKET_H

#include "ns3/tcp-socket-base.h"

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief ns-3's TcpSocketBase plus the receiver's window update after a read.
 *
 * ns-3's TCP advertises a window only on segments it sends anyway. A BSD or Linux receiver also
 * sends a pure ACK when the application's read() opens the window "significantly" (Linux 2.2
 * cleanup_rbuf: when the new window is at least twice what the sender may still send), which
 * keeps a window-limited transfer going when the process reads late.
 *
 * And the sender's effective MSS is bounded by half the largest window the peer has advertised
 * (Linux tcp_current_mss / tcp_bound_to_half_wnd: max_window/2 when that exceeds 536 bytes,
 * else max_window): with a receive buffer smaller than a segment (4 KB socket buffers on a
 * 9000-byte MTU) Linux sends window-sized segments, where ns-3's sender-side silly-window
 * avoidance would wait for a full segment forever. Everything else is ns-3's own TCP,
 * unchanged.
 */
class HostTcpSocket : public TcpSocketBase
{
  public:
    static TypeId GetTypeId();
    HostTcpSocket();
    HostTcpSocket(const HostTcpSocket& sock);
    ~HostTcpSocket() override;

    /**
     * Create a socket on @p node wired to its TcpL4Protocol, as TcpL4Protocol::CreateSocket
     * does, with NewReno congestion control and classic recovery.
     */
    static Ptr<HostTcpSocket> CreateOn(Ptr<Node> node);

    Ptr<Packet> Recv(uint32_t maxSize, uint32_t flags) override;
    int Send(Ptr<Packet> p, uint32_t flags) override;
    /// @return the segment size in use now [bytes] (the MSS, or less if bounded by the window)
    uint32_t GetEffectiveSegmentSize() const;

    /**
     * Account the receive buffer as a BSD-derived kernel does: the buffer holds
     * @p rcvbuf bytes of memory, each received segment of @p mss payload bytes is charged
     * @p truesize bytes (its receive buffer and bookkeeping), and the advertised window is
     * (rcvbuf - charged) / @p divisor, rounded down to whole segments if @p quantize.
     * Without this call the window is ns-3's (free payload space).
     */
    void SetBufferAccounting(uint32_t rcvbuf, uint32_t truesize, uint32_t divisor, bool quantize);
    /// @return the receive window this socket advertises now [bytes]
    uint32_t GetReceiveWindow() const;

  protected:
    Ptr<TcpSocketBase> Fork() override;
    uint16_t AdvertisedWindowSize(bool scale = true) const override;
    void ReceivedAck(Ptr<Packet> packet, const TcpHeader& tcpHeader) override;

  private:
    /// Bound the segment size to half the largest window seen (@p window: a new one).
    void BoundSegmentSize(uint32_t window);

    bool m_windowUpdate;
    bool m_boundMss;
    uint32_t m_maxWindow{0};  //!< largest window the peer advertised [bytes]
    uint32_t m_mssConfigured{0}; //!< the MSS before any bound (0: not yet read)
    uint32_t m_memRcvBuf{0};  //!< receive buffer memory [bytes]; 0 = ns-3's accounting
    uint32_t m_truesize{0};   //!< memory charged per full segment [bytes]
    uint32_t m_divisor{1};    //!< window = free memory / divisor
    bool m_quantize{false};   //!< round the window down to whole segments
    SequenceNumber32 m_advEdge; //!< right edge of the window last advertised
    bool m_advEdgeValid{false}; //!< a window has been advertised
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_HOST_TCP_SOCKET_H
