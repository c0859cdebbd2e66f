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
 * keeps a window-limited transfer going when the process reads late. Everything else is ns-3's
 * own TCP, unchanged.
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

  protected:
    Ptr<TcpSocketBase> Fork() override;

  private:
    bool m_windowUpdate;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_HOST_TCP_SOCKET_H
