// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_FM_CONTEXT_H
#define CLUSTERNET_FM_CONTEXT_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <deque>
#include <functional>
#include <map>
#include <vector>

namespace ns3
{
namespace clusternet
{

class FmMcp;
class FmSmt;
class HostBridge;
class HostCpu;

/**
 * @ingroup clusternet
 * @brief One process's Fast Messages library (FM 2.x as in HPVM 1.x, seed 004 secs. 3-5): a
 * communication context with credit-based flow control, PIO sends, handler-based extract and
 * one or two transports (Myrinet through the LANai; shared memory to processes on the same
 * host, or HPVM 1.2's loopback through the NIC).
 *
 * The process is single-threaded: it sends the messages it was given in order, packet by
 * packet (PacketPayload bytes of data behind a 32-byte header), and extracts arrivals when it
 * has nothing to send or is out of credit for the next packet. A packet costs one credit of
 * its destination; the receiver returns credits on its own packets to the sender, or in a
 * CREDIT packet once half of them are owed.
 *
 * Myrinet send: PacketSendCycles (and MessageSendCycles for a message's first packet) on the CPU,
 * then the header and data are PIO'd through the host bridge (paced in PacingBytes chunks when
 * set) into an SRAM send buffer, followed by the ready flag. Receive: packets land in the
 * pinned region, one slot each (Credits + 2 slots per remote peer; the control program
 * writes the next slot, wrapping). Arrival detection: Memory polls the flag at the end of the
 * next slot, in cache until the DMA invalidates it (a poll costs ExtractCycles + MemoryProbeCycles;
 * the first poll after the DMA also CacheMissCost); PciPoll reads the LANai's delivered count
 * across PCI each time round the loop. A waiting process notices an arrival at a uniformly
 * distributed point of its poll loop.
 *
 * Shared memory (FmSmt): per packet PacketSendCycles, fetch-and-increment and test-and-set
 * (AtomicCycles each, again while frames are found in use), the copy in, a fetch-and-increment
 * on the receive queue; the receiver pays a fetch-and-increment, the handler and the copy out.
 *
 * CPU work is in reference cycles (HostCpu::CyclesToTime makes it time on this host).
 */
class FmContext : public Object
{
  public:
    /// How the process detects Myrinet arrivals.
    enum Notify
    {
        PCI_POLL = 0, //!< read the LANai's delivered count across PCI (HPVM 1.2)
        MEMORY = 1,   //!< poll the flag at the end of the next region slot (HPVM 1.9)
    };

    /// How messages to processes on the same host travel.
    enum Intranode
    {
        SMT = 0,      //!< the shared-memory transport (HPVM 1.9)
        LOOPBACK = 1, //!< down to the Myrinet NIC and back (HPVM 1.2)
    };

    /**
     * Called when a whole message has been extracted and its handler has run.
     * Arguments: source node, source context, handler id, message bytes.
     */
    using ReceiveCallback = Callback<void, uint16_t, uint8_t, uint8_t, uint32_t>;

    /// What the process is doing: its work and its poll loop.
    enum State
    {
        IDLE,      //!< between two pieces of work (the next is being chosen)
        WORKING,   //!< sending, extracting, reading the send queue: its CPU or bus work runs
        POLLING,   //!< waiting in the poll loop for an arrival, a credit or a send slot
        POLL_PASS, //!< in the poll loop, a pass under way (the PCI read of the LANai's count)
    };

    /// Signature of the State trace: the state before and after a transition.
    typedef void (*StateTracedCallback)(State oldValue, State newValue);

    /// Signature of the CreditStall trace.
    typedef void (*CreditStallTracedCallback)(bool stalled);

    static TypeId GetTypeId();
    FmContext();
    ~FmContext() override;

    /**
     * Bind the context to its process's CPU and its host's devices.
     * @param node FM node id of the host
     * @param id context id (unique per host)
     * @param cpu the CPU the process runs on
     * @param bridge the host bridge PIO goes through (may be null without Myrinet)
     * @param mcp the NIC's control program (null: no Myrinet transport)
     * @param smt the host's shared region (null: no shared-memory transport)
     */
    void Setup(uint16_t node,
               uint8_t id,
               Ptr<HostCpu> cpu,
               Ptr<HostBridge> bridge,
               Ptr<FmMcp> mcp,
               Ptr<FmSmt> smt);
    /// Grant credits to and from the context @p ctx on node @p node.
    void AddPeer(uint16_t node, uint8_t ctx);

    /// @return the context id
    uint8_t GetContextId() const;
    /// @return the node id
    uint16_t GetNodeId() const;
    /// @return the notification mode
    Notify GetNotify() const;
    /// @return what the process is doing
    State GetState() const;
    /// @return true if arrivals are noticed by polling memory (Notify MEMORY)
    bool PollsMemory() const;
    /// @return the CPU of the process
    Ptr<HostCpu> GetCpu() const;

    /// The process starts: it polls for arrivals until it is given something to send.
    void Start();
    /**
     * Queue a message of @p bytes to context @p ctx of node @p node, for handler @p handler.
     * @param sent called when FM_end_message would return: the message's last packet has been
     * written to the NIC (or posted into the shared region); may be empty
     */
    void Send(uint16_t node,
              uint8_t ctx,
              uint32_t bytes,
              uint8_t handler = 0,
              std::function<void()> sent = {});
    /// Set the callback for extracted messages.
    void SetReceiveCallback(ReceiveCallback cb);
    /// Set the PIO pacing chunk [bytes] (0: none).
    void SetPacing(uint32_t bytes);
    /// @return the PIO pacing chunk [bytes]
    uint32_t GetPacing() const;

    /// MCP: the control program is about to DMA a packet into the region. @return its slot
    uint32_t ClaimRegionSlot();
    /// MCP: @p packet is in region slot @p slot and the host can see it.
    void PacketVisible(Ptr<Packet> packet, uint32_t slot);
    /// MCP: a send buffer became free.
    void SendSlotFreed();

    /// @return one pass of the idle poll loop over the transports (not for PciPoll)
    Time GetPollPeriod() const;
    /// @return polls made while waiting (so far, including a wait in progress)
    uint64_t GetPolls() const;
    /// @return time spent waiting in the poll loop
    Time GetPollTime() const;
    /// @return the credits this context holds for @p node / @p ctx
    uint32_t GetCredits(uint16_t node, uint8_t ctx) const;
    /// @return times a packet waited for credit
    uint64_t GetCreditStalls() const;
    /// @return packets written into a region slot that was still in use (must stay 0)
    uint64_t GetRegionOverruns() const;
    /// @return slots of the receive region
    uint32_t GetRegionSlots() const;
    /// @return the most region slots in use at once
    uint32_t GetMaxRegionUsed() const;
    /// @return messages extracted
    uint64_t GetMessagesReceived() const;
    /// @return message bytes extracted
    uint64_t GetBytesReceived() const;
    /// @return packets sent (data and credit)
    uint64_t GetPacketsSent() const;
    /// @return reads of the LANai's send-queue state (to learn free send slots)
    uint64_t GetSendQueueReads() const;
    /// @return true when nothing is queued to send
    bool IsSendQueueEmpty() const;

    /**
     * Assign a fixed random variable stream number to the random variables used by this
     * model. @return the number of streams assigned
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

  private:
    struct Peer
    {
        bool local{false};     //!< same host
        bool smt{false};       //!< reached through the shared region
        uint32_t smtId{0};     //!< its SMT id
        uint32_t credits{0};   //!< credits this context holds for it
        uint32_t owed{0};      //!< credits owed to it
        bool refillQueued{false};
    };
    struct OutMessage
    {
        uint32_t peer;
        uint32_t bytes;
        uint8_t handler;
        uint32_t id;
        std::function<void()> sent; //!< called once the last packet is written
        uint32_t next{0};
        bool started{false};
    };
    struct Visible
    {
        Ptr<Packet> packet;
        uint32_t slot;
    };

    static uint32_t Key(uint16_t node, uint8_t ctx);
    Time Cost(double cycles) const;
    void Kick();
    /// @return true if the next packet to go out needs a LANai send slot
    bool WantsSlot() const;
    /// Read the LANai's send-queue state: how many slots are free.
    void ReadSendQueue();
    bool CanSend(uint32_t peer, bool control) const;
    void SendPacket(uint32_t peer, bool credit);
    /// PIO @p packet to the NIC; then @p sent (may be empty)
    void SendMyrinet(Ptr<Packet> packet, uint32_t payload, std::function<void()> sent);
    void SendSmt(Peer& peer, Ptr<Packet> packet, uint32_t payload);
    /// Post @p packet into a frame of @p receiver's queue; then @p sent (may be empty)
    void AcquireSmtFrame(uint32_t receiver,
                         Ptr<Packet> packet,
                         uint32_t payload,
                         std::function<void()> sent);
    bool HasArrivals() const;
    uint32_t CountArrivals() const;
    void StartPolling();
    void StopPolling();
    void ArrivalNoticed();
    void PciPoll();
    void Extract();
    void ProcessNext();
    void Handle(Ptr<Packet> packet);
    /// Work done (@p busy false: choose the next, Kick) or started.
    void SetBusy(bool busy);
    /// @return true if the process's CPU or bus work runs (WORKING, POLL_PASS)
    bool IsBusy() const;
    /// @return true if the process is in its poll loop (POLLING, POLL_PASS)
    bool IsPolling() const;
    /// Go to the state of @p busy work and @p polling.
    void SetState(bool busy, bool polling);
    void SmtPosted();

    uint16_t m_node{0};
    uint8_t m_id{0};
    Ptr<HostCpu> m_cpu;
    Ptr<HostBridge> m_bridge;
    Ptr<FmMcp> m_mcp;
    Ptr<FmSmt> m_smt;
    uint32_t m_smtId{0};
    uint32_t m_smtNext{0}; //!< next SMT queue to look at
    Ptr<UniformRandomVariable> m_phase;

    std::map<uint32_t, Peer> m_peers;
    std::deque<OutMessage> m_sendQueue;
    std::deque<uint32_t> m_creditQueue;
    std::deque<Visible> m_visible;
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> m_partial; //!< (peer, msg id) -> bytes
    uint32_t m_nextMsgId{0};
    ReceiveCallback m_receive;

    std::vector<bool> m_region;
    uint32_t m_regionNext{0};
    uint32_t m_regionUsed{0};
    uint32_t m_maxRegionUsed{0};
    uint64_t m_overruns{0};

    TracedValue<State> m_state{IDLE}; //!< what the process is doing
    bool m_stalled{false};
    uint32_t m_detected{0}; //!< arrivals found by the last poll, not yet handled
    uint64_t m_slotReads{0}; //!< reads of the LANai's send-queue state
    Time m_pollStart;
    Time m_pollTime;
    uint64_t m_polls{0};
    EventId m_notice;         //!< an arrival noticed by the memory poll loop
    EventId m_pollStartEvent; //!< the PCI poll loop's first pass (it holds the process)
    uint64_t m_creditStalls{0};
    uint64_t m_msgsReceived{0};
    uint64_t m_bytesReceived{0};
    uint64_t m_packetsSent{0};

    Notify m_notify;
    Intranode m_intranode;
    uint32_t m_creditsPerPeer;
    uint32_t m_payload;
    uint32_t m_pacing;
    bool m_receiveCopy;
    double m_messageSendCycles; //!< [reference cycles]
    double m_packetSendCycles; //!< [reference cycles]
    double m_extractCycles; //!< [reference cycles]
    double m_memoryProbeCycles; //!< [reference cycles]
    double m_smtProbeCycles; //!< [reference cycles]
    double m_handlerCycles; //!< [reference cycles]
    double m_atomicCycles; //!< [reference cycles]
    Time m_cacheMissCost;

    TracedCallback<bool> m_stallTrace;
    TracedCallback<Ptr<const Packet>> m_txTrace;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_FM_CONTEXT_H
