// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_KERNEL_UDP_BENCHMARK_H
#define CLUSTERNET_KERNEL_UDP_BENCHMARK_H

#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <functional>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief A kernel-level raw network benchmark over UDP, as seed 003 sec. 3.1 describes: UDP
 * datagrams with zero-copy send and receive inside the kernel, so no system calls and no user
 * copies; the hosts pay only the per-packet UDP/IP and driver costs of their network devices.
 *
 * Install one on each of two nodes and pair them with SetPeer(). On the measuring side:
 * - PingPong(): a datagram goes back and forth; latency = half the average round trip.
 * - Stream(): datagrams go one way as fast as the sending device takes them (at most Window
 *   frames between the benchmark and the wire, the transmit ring); bandwidth = bytes
 *   received / time from the first send to the last arrival.
 *
 * Datagrams longer than the path MTU are fragmented by IP, as in the kernel.
 */
class KernelUdpBenchmark : public Application
{
  public:
    static TypeId GetTypeId();
    KernelUdpBenchmark();
    ~KernelUdpBenchmark() override;

    /// The other end: its address and its benchmark object.
    void SetPeer(Ipv4Address address, Ptr<KernelUdpBenchmark> peer);

    /**
     * Start a ping-pong of @p reps round trips of @p bytes each (now, or at application start).
     * @param done called with the one-way latency (half the mean round trip)
     */
    void PingPong(uint32_t bytes, uint32_t reps, std::function<void(Time)> done);
    /**
     * Stream @p count datagrams of @p bytes one way.
     * @param done called with the bandwidth [bit/s] once every datagram arrived, or when the
     *        stream stalls (lost datagrams) with what did arrive
     */
    void Stream(uint32_t bytes, uint32_t count, std::function<void(double)> done);

    /// @return IP frames one datagram of @p bytes occupies on a path of @p mtu bytes
    static uint32_t FramesPerDatagram(uint32_t bytes, uint32_t mtu);

  protected:
    void DoDispose() override;

  private:
    enum Mode
    {
        IDLE,
        PING,
        STREAM,
    };

    void StartApplication() override;
    void StopApplication() override;
    void Receive(Ptr<Socket> socket);
    void SendDatagram(uint32_t bytes);
    /// Stream: send while the window has room.
    void Pump();
    /// A frame of ours left the wire.
    void FrameSent(Ptr<const Packet> frame);
    void StreamStalled();

    Ptr<Socket> m_socket;
    Ipv4Address m_peerAddress;
    Ptr<KernelUdpBenchmark> m_peer;
    uint16_t m_port;
    uint32_t m_window;   //!< frames between the benchmark and the wire (transmit ring)
    Time m_stallTimeout; //!< a stream with no arrival for this long has lost datagrams

    Mode m_mode{IDLE};
    uint32_t m_bytes{0};
    uint32_t m_left{0};      //!< round trips or datagrams still to send
    uint32_t m_reps{0};
    uint32_t m_inFlight{0};  //!< frames sent, not yet on the wire
    uint32_t m_frames{1};    //!< frames per datagram
    Time m_start;
    std::function<void(Time)> m_pingDone;
    std::function<void(double)> m_streamDone;

    // Receiving side of a stream.
    uint64_t m_rxBytes{0};
    uint32_t m_rxCount{0};
    uint32_t m_rxExpected{0};
    Time m_rxLast;
    EventId m_stall;
    std::function<void(uint64_t, Time)> m_rxDone;

    TracedCallback<uint32_t> m_rxTrace; //!< datagram received: its size [bytes]
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_KERNEL_UDP_BENCHMARK_H
