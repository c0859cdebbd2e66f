// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_GM_ETHERNET_NET_DEVICE_H
#define CLUSTERNET_GM_ETHERNET_NET_DEVICE_H

#include "ns3/data-rate.h"
#include "ns3/mac48-address.h"
#include "ns3/ethernet-device-base.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/queue.h"
#include "ns3/traced-callback.h"

#include <functional>
#include <map>
#include <vector>

namespace ns3
{
namespace clusternet
{

class EthernetDriver;
struct GmEvent;
class GmPort;

/**
 * @ingroup clusternet
 * @brief GM's Ethernet emulation ("IP over GM"): a NetDevice that carries Ethernet frames as GM
 * messages, so ns-3's IPv4 and TCP run over Myrinet.
 *
 * The driver owns a kernel GM port. Transmit: the frame (Ethernet header + IP packet, up to
 * Mtu + 14 bytes) is copied by the host CPU into one of SendBuffers pinned (DMA-able) buffers
 * and handed to GM with gm_send (the port's SendCycles and token PIO); the LANai then reads it over
 * PCI in 4 KB fragments and sends it. The buffer is reused when GM reports the send complete.
 * Receive: ReceiveBuffers pinned buffers of Mtu + 14 bytes are provided to GM; a message
 * arriving in one raises an interrupt (the host CPU's InterruptCycles); the handler polls the
 * port's events, copies each frame into a socket buffer (an skb), provides the buffer again
 * and passes the packet up. Every host cost is charged through the interface's EthernetDriver
 * (Driver) on the node's HostCpu: the driver's own per-frame work (EthernetDriver TxCycles,
 * RxCycles), the protocol cost of each frame (the host's TCP/IP or UDP per-packet cost of an IP
 * frame), the interrupt entry and the copies (HostCpu CopyBandwidth).
 *
 * MAC addresses map to GM node ids through a table the helper fills (GM's mapper gives every
 * interface its 48-bit id); a broadcast frame (ARP) is sent to every known node in turn.
 */
class GmEthernetNetDevice : public EthernetDeviceBase
{
  public:
    static TypeId GetTypeId();
    GmEthernetNetDevice();
    ~GmEthernetNetDevice() override;

    /**
     * Use @p port (opened on this host's GM control program) as the driver's kernel port and
     * provide the receive buffers. Call once, after SetNode().
     */
    void Attach(Ptr<GmPort> port);
    /// @return the driver's GM port
    Ptr<GmPort> GetPort() const;
    /// @return the host-side driver
    Ptr<EthernetDriver> GetDriver() const;
    /// Frames for @p address go to GM node @p node on the driver port of that node.
    void AddNeighbor(Mac48Address address, uint16_t node);

    /// @return frames handed to GM
    uint64_t GetFramesSent() const;
    /// @return frames received and passed up
    uint64_t GetFramesReceived() const;
    /// @return frames dropped at Send() (queue full, too big, unknown destination)
    uint64_t GetTxDrops() const;

    // NetDevice
    Ptr<Channel> GetChannel() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    /// @return bytes of one receive buffer provided to GM (a whole frame)
    uint32_t GetRxBufferBytes() const;
    bool IsLinkUp() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;

  protected:
    void DoDispose() override;

  private:
    /// Driver transmit: copy the next queued frame into a free send buffer, if any.
    void TxKick();
    /// The frame is in send buffer @p buffer: hand it to GM for every destination.
    void TxCopied(Ptr<Packet> frame, uint32_t buffer, std::vector<uint16_t> nodes);
    /// GM wrote an event into the port's receive queue.
    void Notify();
    /// The interrupt handler's loop: handle events until the queue is empty.
    void RxLoop();
    /// Handle one polled event.
    void HandleEvent(const GmEvent& event);
    /// Strip the Ethernet header and pass the packet to the protocol stack.
    void DeliverUp(Ptr<Packet> frame);
    /// @return GM nodes a frame for @p dest goes to (empty: unknown)
    std::vector<uint16_t> Destinations(Mac48Address dest) const;
    /// Run @p cost on the host CPU at interrupt/kernel priority, then @p done.
    void RunCpu(Time cost, bool interrupt, std::function<void()> done);
    /// @return host address of send buffer @p i
    uint64_t SendBufferAddress(uint32_t i) const;
    /// @return host address of receive buffer @p i
    uint64_t ReceiveBufferAddress(uint32_t i) const;

    Ptr<GmPort> m_port;
    Ptr<EthernetDriver> m_driver; //!< the host-side driver's per-frame work
    Ptr<Queue<Packet>> m_queue;
    uint16_t m_mtu{9000};
    uint8_t m_portId{3};
    uint32_t m_sendBuffers{16};
    uint32_t m_receiveBuffers{16};
    bool m_copyOnSend{true};
    bool m_copyOnReceive{true};
    uint64_t m_bufferBase{0};

    std::map<Mac48Address, uint16_t> m_neighbors; //!< MAC address -> GM node id
    std::vector<uint32_t> m_freeSendBuffers;      //!< send buffers not in use
    std::map<uint64_t, uint32_t> m_sendsPending;  //!< send buffer address -> sends in flight
    bool m_txBusy{false};      //!< the CPU is copying a frame for the driver
    bool m_inInterrupt{false}; //!< the receive interrupt handler is running or pending

    uint64_t m_framesSent{0};
    uint64_t m_framesReceived{0};
    uint64_t m_txDrops{0};


    TracedCallback<Ptr<const Packet>> m_macTxTrace;
    TracedCallback<Ptr<const Packet>> m_macTxDropTrace;
    TracedCallback<Ptr<const Packet>> m_macRxTrace;
    TracedCallback<Ptr<const Packet>> m_snifferTrace;
    TracedCallback<Ptr<const Packet>> m_promiscSnifferTrace;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_GM_ETHERNET_NET_DEVICE_H
