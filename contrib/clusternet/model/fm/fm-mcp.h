// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_FM_MCP_H
#define CLUSTERNET_FM_MCP_H

#include "ns3/callback.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <map>
#include <vector>

namespace ns3
{
namespace clusternet
{

class LanaiNic;

/**
 * @ingroup clusternet
 * @brief What the FM control program reports to one host context, and through what: the
 * firmware's whole view of the host library above it, filled by the library when a context
 * attaches (FmContext::Setup). The firmware never names the library's classes.
 */
struct FmHostContext
{
    /// The control program is about to DMA a packet into the context's receive region:
    /// @return the packet's slot there
    Callback<uint32_t> claimRegionSlot;
    /// The packet is in that slot and the host can see it.
    Callback<void, Ptr<Packet>, uint32_t> packetVisible;
    /// A LANai send buffer became free.
    Callback<void> sendSlotFreed;
    /// @return true if the host polls memory (a packet is visible when its DMA ends), false if
    /// it polls the LANai (a packet is visible after a pass of the control program's loop)
    Callback<bool> pollsMemory;
};

/**
 * @ingroup clusternet
 * @brief The Fast Messages control program on a LANai 4.x (seed 004 sec. 3): a packet
 * forwarder that knows nothing of credits.
 *
 * Send: the host has PIO'd a packet (FmHeader + data) and its ready flag into an SRAM send
 * buffer (PacketPosted); the control program notices it on its next pass of the main loop
 * (a random phase of LoopCycles), spends SendCycles and hands the packet to the wire. A packet
 * for the NIC's own node is delivered back without the wire (HPVM 1.2's intranode path).
 *
 * Receive: an arrived packet costs RecvCycles; its data and the appended length word
 * (LengthBytes) are DMA'd into the next slot of the destination context's pinned region in
 * one transfer. With memory-based notification the host sees the packet when that DMA ends;
 * with PCI polling the control program first waits for the DMA to finish and then updates the
 * delivered count the host polls (NotifyCycles).
 */
class FmMcp : public Object
{
  public:
    static TypeId GetTypeId();
    FmMcp();
    ~FmMcp() override;

    /// Attach the NIC; the MCP takes over its packet interface.
    void SetNic(Ptr<LanaiNic> nic);
    /// @return the NIC
    Ptr<LanaiNic> GetNic() const;
    /**
     * The host library's shadow of the send queue, shared by the host's contexts: the slots
     * the last read of the LANai's send-queue state found free, less those used since.
     * @return slots known free
     */
    uint32_t GetKnownFreeSlots() const;
    /// A read of the send-queue state returned @p free slots (never more than are free now).
    void SetKnownFreeSlots(uint32_t free);
    /// A context takes one of the slots known free (and the LANai send buffer behind it).
    void UseKnownFreeSlot();
    /// Set this node's FM node id.
    void SetNodeId(uint16_t id);
    /// @return this node's FM node id
    uint16_t GetNodeId() const;
    /// Make node @p id reachable at @p address (a route must exist on the port).
    void AddPeer(uint16_t id, Mac48Address address);
    /// Register communication context @p id of this node: where packets for it are reported.
    void RegisterContext(uint8_t id, const FmHostContext& context);

    /**
     * The host has written @p packet (FmHeader first) and its ready flag into a send buffer
     * it took with LanaiNic::TakeSendBuffer.
     */
    void PacketPosted(Ptr<Packet> packet);

    /// @return packets sent on the wire
    uint64_t GetPacketsSent() const;
    /// @return packets delivered into host memory
    uint64_t GetPacketsDelivered() const;

    /**
     * Assign a fixed random variable stream number to the random variables used by this
     * model. @return the number of streams assigned
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

  private:
    void Forward(Ptr<Packet> packet);
    void SendDone(Ptr<const Packet> wire);
    bool Receive(Ptr<NetDevice> dev, Ptr<const Packet> p, uint16_t type, const Address& from);
    void Deliver(Ptr<Packet> packet, bool local);
    void SlotFreed();
    uint64_t LoopPhase();

    Ptr<LanaiNic> m_nic;
    uint32_t m_knownFree{0}; //!< the host's shadow: send slots known free
    uint16_t m_nodeId{0};
    std::map<uint16_t, Mac48Address> m_peers;
    std::map<uint8_t, FmHostContext> m_contexts;
    Ptr<UniformRandomVariable> m_phase;
    uint64_t m_sent{0};
    uint64_t m_delivered{0};

    uint32_t m_loopCycles;
    uint32_t m_sendCycles;
    uint32_t m_recvCycles;
    uint32_t m_notifyCycles;
    uint32_t m_lengthBytes;

    TracedCallback<Ptr<const Packet>> m_txTrace;
    TracedCallback<Ptr<const Packet>> m_rxTrace;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_FM_MCP_H
