// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_HOST_STACK_H
#define CLUSTERNET_HOST_STACK_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/socket.h"

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief The host operating system's TCP/IP settings, applied to ns-3's own TCP sockets.
 *
 * This is not a TCP: it maps an OS's socket-buffer semantics and TCP options onto the attributes
 * of ns-3's TcpSocketBase (SndBufSize, RcvBufSize, SegmentSize, Timestamp, WindowScaling,
 * DelAckCount, DelAckTimeout, TcpNoDelay, InitialCwnd).
 */
class HostStack : public Object
{
  public:
    static TypeId GetTypeId();
    HostStack();
    ~HostStack() override;

    /**
     * Configure a TCP socket as this OS would after setsockopt(SO_SNDBUF/SO_RCVBUF, sockbuf).
     * Call before Connect()/Listen().
     * @param socket an ns-3 TCP socket
     * @param sockbuf the requested socket buffer size [bytes]
     * @param mtu the interface MTU [bytes]
     * @param rxBufferBytes the driver's receive buffer per frame [bytes]; 0 = MTU + 20
     */
    void ConfigureSocket(Ptr<Socket> socket,
                         uint32_t sockbuf,
                         uint16_t mtu,
                         uint32_t rxBufferBytes = 0) const;
    /// @return the TCP segment size (MSS) used on an interface of @p mtu bytes
    uint32_t SegmentSize(uint16_t mtu) const;
    /// @return memory charged per received segment held in a receive buffer of
    /// @p rxBufferBytes (aligned to 16 bytes, plus SkbOverhead) [bytes]
    uint32_t SegmentTruesize(uint32_t rxBufferBytes) const;
    /// @return the largest window advertised for @p sockbuf on an interface of @p mtu [bytes]
    uint32_t MaxReceiveWindow(uint32_t sockbuf, uint16_t mtu) const;
    /// @return the socket buffer a socket has when the application never sets one, as the
    /// equivalent setsockopt request [bytes]
    uint32_t GetDefaultSocketBuffer() const;

  private:
    double m_rcvBufMultiplier;
    uint32_t m_windowDivisor;
    uint32_t m_skbOverhead;
    bool m_quantizeWindow;
    double m_sndBufFraction;
    bool m_timestamps;
    bool m_windowScaling;
    uint32_t m_delAckCount;
    Time m_delAckTimeout;
    bool m_noDelay;
    uint32_t m_initialCwnd;
    uint32_t m_defaultSockBuf;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_HOST_STACK_H
