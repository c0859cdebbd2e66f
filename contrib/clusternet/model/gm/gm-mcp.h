// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_GM_MCP_H
#define CLUSTERNET_GM_MCP_H

#include "gm-header.h"

#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <map>
#include <memory>
#include <vector>

namespace ns3
{
namespace clusternet
{

class LanaiNic;

/**
 * @ingroup clusternet
 * @brief An event a GM port's receive queue holds for the host process.
 */
struct GmEvent
{
    /// What happened.
    enum Type
    {
        NONE,     //!< no event (a poll found nothing)
        RECEIVED, //!< a message arrived into a buffer the process provided
        SENT,     //!< a send completed (all its packets acknowledged); its token is back
    };

    Type type{NONE};
    Ptr<Packet> message;  //!< RECEIVED: the message; SENT: the message sent
    uint16_t node{0};     //!< RECEIVED: sender's node id; SENT: destination node id
    uint8_t port{0};      //!< RECEIVED: sender's port; SENT: destination port
    uint32_t length{0};   //!< message length [bytes]
    uint64_t address{0};  //!< host address of the buffer (receive buffer or sent message)
};


/**
 * @ingroup clusternet
 * @brief The GM Myrinet Control Program: the firmware GM runs on a LANai NIC.
 *
 * Send path: the host writes a send token by PIO (GmPort::Send); the control program takes
 * it (DoorbellCycles), then for each fragment of at most MaxPayload bytes, as soon as a send
 * buffer is free, programs the host DMA engine (SdmaCycles) to read the fragment from the
 * pinned message into SRAM, and when it is there starts the packet on the wire (SendCycles).
 * Each packet carries a GmHeader with a sequence number of its (source, destination) connection.
 *
 * Receive path: a packet arrives into a receive buffer. An ACK (AckCycles) retires the packet it
 * acknowledges; when all packets of a message are acknowledged the send-completion event is
 * written into the host's receive queue (EventCycles and a host DMA write), which returns the
 * send token. A data packet (RecvCycles) is checked to be the next of its connection
 * (reliable, ordered delivery), matched on its first fragment to a
 * receive buffer the process provided (smallest that fits), and written to host memory by
 * the host DMA engine; after the last fragment the receive event is written. Each data packet
 * is acknowledged once its data is in host memory (after the receive event, if it ends a
 * message). A message with no
 * buffer to go to is dropped and NACKed (the NACK names the sequence number the receiver
 * expects); the receiver then drops every later packet of that connection until the expected
 * one arrives (go-back-N). The sender, RetransmitDelay after a NACK, reads every packet of that
 * connection not yet acknowledged from host memory again and resends it with its sequence
 * number, ahead of new fragments; a fragment whose read was under way when the connection went
 * back joins the resends instead of going on the wire (the receiver would drop it). Packets are
 * never reordered on a path (the fabric is lossless and FIFO), so every packet the receiver
 * drops is resent without a timeout.
 *
 * All work runs on the LANai processor (LanaiNic), in cycles, so the same firmware is slower on
 * a slower LANai.
 */
class GmMcp : public Object
{
  public:
    static TypeId GetTypeId();
    GmMcp();
    ~GmMcp() override;

    /// Run on @p nic (whose port is the packet interface).
    void SetNic(Ptr<LanaiNic> nic);
    /// @return the NIC
    Ptr<LanaiNic> GetNic() const;
    /// Set this host's GM node id.
    void SetNodeId(uint16_t id);
    /// @return this host's GM node id
    uint16_t GetNodeId() const;
    /// Map GM node @p id to the Myrinet address of its NIC (routes come from the port).
    void AddPeer(uint16_t id, Mac48Address address);
    /**
     * A host process opened port @p id: the control program writes the port's events into its
     * receive queue in host memory and reports each one through @p postEvent (the firmware
     * knows nothing of the host library above it).
     */
    void RegisterPort(uint8_t id, Callback<void, const GmEvent&> postEvent);
    /// @return true if port @p id is open
    bool IsPortOpen(uint8_t id) const;

    /// A send token written by the host has reached the NIC.
    void PostSend(uint8_t port, uint16_t node, uint8_t dstPort, Ptr<Packet> message,
                  uint64_t address);
    /// A receive token written by the host has reached the NIC.
    void PostReceiveBuffer(uint8_t port, uint32_t size, uint64_t address);

    /// @return the largest payload of one packet [bytes]
    uint32_t GetMaxPayload() const;
    /// @return data packets sent
    uint64_t GetDataPacketsSent() const;
    /// @return data packets received
    uint64_t GetDataPacketsReceived() const;
    /// @return messages delivered to host buffers
    uint64_t GetMessagesDelivered() const;
    /// @return message bytes delivered to host buffers
    uint64_t GetBytesDelivered() const;
    /// @return messages whose sends completed (all packets acknowledged)
    uint64_t GetMessagesCompleted() const;
    /// @return first fragments dropped because no provided buffer could take their message
    uint64_t GetNoBufferDrops() const;
    /// @return data packets dropped because they arrived out of order (after a dropped one,
    /// or duplicates of a resent packet)
    uint64_t GetOutOfOrderDrops() const;
    /// @return NACKs sent
    uint64_t GetNacksSent() const;
    /// @return data packets sent again after a NACK
    uint64_t GetRetransmissions() const;
    /// @return packets sent and not yet acknowledged
    uint32_t GetUnacknowledged() const;

  protected:
    void DoDispose() override;

  private:
    struct SendRecord
    {
        uint8_t port;
        uint16_t node;
        uint8_t dstPort;
        Ptr<Packet> message;
        uint64_t address;
        uint32_t length;
        uint32_t next{0};      //!< offset of the next fragment to read from the host
        uint32_t fragments{0}; //!< fragments read so far
        uint32_t acked{0};     //!< fragments acknowledged
        bool allRead{false};
    };

    /// A data packet on the wire and not yet acknowledged.
    struct InFlight
    {
        std::shared_ptr<SendRecord> rec;
        uint32_t offset;
        uint32_t bytes;
        bool resendQueued{false}; //!< waiting in the resend queue
    };

    /// A packet to read from the host again and resend with its sequence number.
    struct Resend
    {
        uint16_t node;
        uint32_t seq;
    };

    struct Assembly
    {
        uint64_t address;
        Ptr<Packet> data;
        uint32_t length;
        uint32_t received{0};
    };

    struct ReceiveBuffer
    {
        uint32_t size;
        uint64_t address;
    };

    bool Receive(Ptr<NetDevice> dev, Ptr<const Packet> p, uint16_t type, const Address& from);
    void SendDone(Ptr<const Packet> wire);
    void TrySdma();
    void FragmentRead(std::shared_ptr<SendRecord> rec, uint32_t offset, uint32_t bytes);
    void Transmit(Ptr<Packet> packet, uint16_t node, bool data);
    void HandleAck(GmHeader header);
    void HandleNack(GmHeader header);
    /// Queue every unacknowledged packet to @p node from sequence @p from for resending.
    void GoBack(uint16_t node, uint32_t from);
    void ResendRead(Resend resend);
    void Drop(const GmHeader& header, bool noBuffer);
    void SendNack(const GmHeader& data, uint32_t expected);
    /// The NACK Drop held back for @p expected: sent at the window's end, for the sequence
    /// expected then, while a packet dropped since is still missing.
    void OwedNack(GmHeader data, uint32_t expected);
    /// Send an ACK or NACK with sequence number @p seq back to the sender of @p data.
    void SendControl(GmHeader::Kind kind, const GmHeader& data, uint32_t seq);
    void HandleData(Ptr<Packet> packet);
    void ProcessReceived();
    void SendAck(const GmHeader& data);
    void FragmentWritten(uint64_t key, Ptr<Packet> fragment, GmHeader header);
    void PostEventToHost(uint8_t port, const GmEvent& event);
    static uint64_t AssemblyKey(const GmHeader& h);

    Ptr<LanaiNic> m_nic;
    uint16_t m_nodeId{0};
    std::map<uint16_t, Mac48Address> m_peers;
    std::map<uint8_t, Callback<void, const GmEvent&>> m_ports; //!< open ports' event sinks

    /// Messages with fragments still to read, one queue per destination node (GM's
    /// connections with outstanding sends); the send DMA serves them round-robin.
    std::map<uint16_t, std::deque<std::shared_ptr<SendRecord>>> m_sendQueues;
    uint16_t m_lastServed{0}; //!< destination node whose packet was read last
    bool m_sdmaActive{false};
    std::map<uint16_t, uint32_t> m_nextSeq;     //!< per destination node
    std::map<uint16_t, uint32_t> m_expectedSeq; //!< per source node
    std::map<std::pair<uint16_t, uint32_t>, InFlight> m_unacked; //!< (node, seq)
    std::deque<Resend> m_resendQueue;         //!< served before new fragments
    /// Per destination node: packets marked for resend and not yet sent again. While there are
    /// any, a new packet of that connection would reach a receiver that expects the resends
    /// first (go-back-N), so it joins them instead of going on the wire.
    std::map<uint16_t, uint32_t> m_resendsPending;
    std::map<uint16_t, EventId> m_goBackTimer; //!< per destination node with a NACK pending
    std::map<uint16_t, std::pair<uint32_t, Time>> m_lastNack; //!< per source: sequence, time
    std::map<uint16_t, EventId> m_owedNack; //!< per source: a held-back NACK, due at window end
    std::map<uint16_t, uint32_t> m_highestDropped; //!< per source: highest sequence dropped
    /// The packet interface's one send DMA.
    enum SendState
    {
        SEND_IDLE,  //!< nothing on the wire, nothing being set up
        SEND_SETUP, //!< the control program sets up a data packet's send (SendCycles)
        SEND_DATA,  //!< a data packet is on the wire
        SEND_ACK,   //!< an ACK is on the wire
    };

    SendState m_sendState{SEND_IDLE}; //!< the send DMA's state
    /// A packet waiting for the send DMA: it waits in the MCP, in order.
    struct Pending
    {
        Ptr<Packet> packet;
        std::vector<uint8_t> route;
        bool data;
    };

    std::deque<Pending> m_backlog; //!< packets waiting for the send DMA, in order
    /// Set up the next backlogged packet's send if the send DMA is idle.
    void DrainBacklog();
    /// Put a packet on the wire through the port.
    void StartSend(const Pending& next);

    std::deque<Ptr<Packet>> m_received; //!< accepted data packets waiting for the host DMA
    std::map<uint8_t, std::vector<ReceiveBuffer>> m_buffers; //!< provided, per port
    std::map<uint64_t, std::deque<Assembly>> m_assemblies; //!< messages being written, oldest first

    uint64_t m_dataSent{0};
    uint64_t m_dataReceived{0};
    uint64_t m_delivered{0};
    uint64_t m_deliveredBytes{0};
    uint64_t m_completed{0};
    uint64_t m_noBufferDrops{0};
    uint64_t m_outOfOrderDrops{0};
    uint64_t m_nacksSent{0};
    uint64_t m_retransmissions{0};
    Time m_retransmitDelay;

    uint32_t m_maxPayload;
    uint32_t m_eventBytes;
    uint32_t m_doorbellCycles;
    uint32_t m_sdmaCycles;
    uint32_t m_sendCycles;
    uint32_t m_recvCycles;
    uint32_t m_ackCycles;
    uint32_t m_eventCycles;
    uint32_t m_provideCycles;

    TracedCallback<Ptr<const Packet>> m_txTrace; //!< a GM packet goes to the wire
    TracedCallback<Ptr<const Packet>> m_rxTrace; //!< a GM packet arrives
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_GM_MCP_H
