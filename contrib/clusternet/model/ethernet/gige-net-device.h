// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_GIGE_NET_DEVICE_H
#define CLUSTERNET_GIGE_NET_DEVICE_H

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/mac48-address.h"
#include "ethernet-switch-port.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/queue.h"
#include "ns3/traced-callback.h"

#include <deque>

namespace ns3
{
namespace clusternet
{

class EthernetDriver;
class GigeChannel;
class PciBus;
class InterruptCoalescer;

/**
 * @ingroup clusternet
 * @brief A full-duplex Gigabit Ethernet NIC: MAC with 802.3x PAUSE, TX/RX FIFOs, DMA engines
 * behind a PCI bus and interrupt coalescing, driven by a host-side EthernetDriver.
 *
 * Transmit pipeline: Send() -> TxQueue (driver queue) -> driver (host CPU: TCP/IP + driver
 * per-frame work) -> TX descriptor ring -> NIC firmware -> PCI DMA read (descriptor, frame) ->
 * TX FIFO -> MAC (READY/BUSY/PAUSED) -> wire.
 *
 * Receive pipeline: wire -> RX FIFO (PAUSE at the high-water mark, resume at the low-water mark,
 * or drop when full with PAUSE off) -> NIC firmware -> PCI DMA write into a host RX ring buffer
 * -> coalesced interrupt -> driver (host CPU: interrupt, driver + TCP/IP per frame) -> upper
 * layer.
 *
 * The DMA crosses the bus the driver names (EthernetDriver::GetBus). A device without a driver
 * (a switch port, or a bare device in a test) has no host: frames go from the queue to the ring
 * and from the ring up at once. In switch-port mode (SetHoldRxBuffer) a received frame stays
 * charged to the RX FIFO until the switch releases it after the egress port sent it, so the FIFO
 * is the port's ingress buffer.
 */
class GigeNetDevice : public EthernetSwitchPort
{
  public:
    /// State of the transmit MAC.
    enum TxMacState
    {
        READY,  //!< idle, may start a frame
        BUSY,   //!< a frame (and its interframe gap) is on the wire
        PAUSED, //!< held by a received PAUSE
    };

    static constexpr uint32_t PREAMBLE_SFD = 8; //!< preamble + start frame delimiter [bytes]
    static constexpr uint32_t FCS = 4;          //!< frame check sequence [bytes]
    static constexpr uint32_t IFG = 12;         //!< interframe gap [bytes]
    static constexpr uint32_t MIN_FRAME = 64;   //!< minimum frame, header to FCS [bytes]

    /// Signature of the PauseTx and PauseRx traces: the PAUSE frame's quanta (0 = resume).
    typedef void (*PauseCallback)(uint16_t quanta);

    static TypeId GetTypeId();
    GigeNetDevice();
    ~GigeNetDevice() override;

    /// @return bytes on the wire (preamble to IFG) for a frame of @p frameBytes (header+payload)
    static uint32_t WireBytes(uint32_t frameBytes);

    /**
     * Check that PAUSE flow control can work: the low water mark below the high one, and the
     * high one within the receive FIFO.
     * @param low PauseLowWater [bytes]
     * @param high PauseHighWater [bytes]
     * @param fifo RxFifoSize [bytes]
     * @return "" or one line naming the attributes and what is allowed
     */
    static std::string CheckPauseWaterMarks(uint32_t low, uint32_t high, uint32_t fifo);

    bool Attach(Ptr<GigeChannel> ch);
    void SetQueue(Ptr<Queue<Packet>> queue);
    Ptr<Queue<Packet>> GetQueue() const;
    /// @return the receive interrupt coalescer
    Ptr<InterruptCoalescer> GetRxCoalescer() const;
    /// @return the host-side driver (null: a device with no host)
    Ptr<EthernetDriver> GetDriver() const;

    /// Called by the channel when the last bit of a frame has arrived.
    void Receive(Ptr<Packet> frame);

    /// Switch-port mode: keep received frames charged to the RX FIFO until ReleaseRxBuffer().
    void SetHoldRxBuffer(bool hold) override;
    /// Free @p bytes of the RX FIFO (switch-port mode), possibly ending a PAUSE.
    void ReleaseRxBuffer(uint32_t bytes) override;
    /// Callback invoked when a data frame has left the MAC (switch egress accounting).
    void SetTxCompleteCallback(Callback<void, Ptr<const Packet>> cb) override;

    /// @return frames dropped because the RX FIFO was full
    uint64_t GetRxFifoDrops() const;
    /// @return PAUSE frames sent (including zero-quanta resumes)
    uint64_t GetPauseFramesSent() const;
    /// @return PAUSE frames received
    uint64_t GetPauseFramesReceived() const;
    /// @return bytes now in the RX FIFO
    uint32_t GetRxFifoBytes() const;
    /// @return largest RX FIFO occupancy seen
    uint32_t GetRxFifoPeak() const;
    /// @return current state of the transmit MAC
    TxMacState GetTxState() const;
    /// @return the transmit data rate
    DataRate GetDataRate() const;
    /// @return bytes of the host receive buffer the driver posts for one frame at this MTU
    uint32_t GetRxBufferBytes() const;

    // NetDevice
    Ptr<Channel> GetChannel() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;

  protected:
    void DoDispose() override;
    void DoInitialize() override;

  private:
    // transmit side: each stage takes its frame from the member the previous one set
    /// Hand queued frames to the driver (or, with no driver, straight to the ring).
    void HostTxKick();
    /// @return the next queued frame when the ring has room, else null (the driver's source)
    Ptr<Packet> NextTxFrame();
    /// The driver has posted @p frame to the transmit ring.
    void TxPosted(Ptr<Packet> frame);
    void TxDmaKick();
    void TxDmaDescriptorDone();
    void TxDmaDone();
    void MacTxKick();
    void MacTxComplete(Ptr<Packet> frame, bool isData);
    // receive side
    void RxDmaKick();
    void RxDmaStart();
    void RxDmaDone();
    /// Repost the frame's receive buffer and pass the frame to the upper layer.
    void DeliverUp(Ptr<Packet> frame);
    // flow control
    void HandlePause(uint16_t quanta);
    void SendPause(uint16_t quanta);
    void CheckRxWaterMarks();
    void RefreshPause();
    Time QuantaToTime(uint16_t quanta) const;

    Ptr<GigeChannel> m_channel;
    Ptr<EthernetDriver> m_driver; //!< the host-side driver (null: no host)
    Ptr<PciBus> m_bus;            //!< the bus the DMA crosses (null: none)
    Ptr<InterruptCoalescer> m_rxCoalescer;
    Ptr<InterruptCoalescer> m_txCoalescer; //!< transmit-completion interrupts (null: none)
    Ptr<Queue<Packet>> m_queue;
    uint16_t m_mtu;
    bool m_linkUp{false};
    bool m_holdRx{false};
    Callback<void, Ptr<const Packet>> m_txCompleteCallback;

    // attributes
    DataRate m_bps;
    uint32_t m_txFifoSize;
    uint32_t m_rxFifoSize;
    bool m_pauseEnabled;
    uint32_t m_pauseHigh;
    uint32_t m_pauseLow;
    uint16_t m_pauseQuanta;
    uint32_t m_txRingSize;
    uint32_t m_rxRingSize;
    uint32_t m_descriptorBytes;
    uint32_t m_jumboBufferBytes;
    uint32_t m_dmaReadBurst;
    uint32_t m_dmaWriteBurst;
    Time m_nicTxCost;
    Time m_nicRxCost;

    // state
    std::deque<Ptr<Packet>> m_txRing; //!< frames posted to the NIC, not yet fetched
    Ptr<Packet> m_txDmaFrame; //!< frame the NIC is fetching from host memory (null: none)
    std::deque<Ptr<Packet>> m_txFifo; //!< frames in the NIC TX FIFO
    uint32_t m_txFifoBytes{0};        //!< bytes in or reserved in the TX FIFO
    TxMacState m_txState{READY};
    Ptr<Packet> m_pendingPause;
    Time m_pausedUntil;
    EventId m_resumeEvent;
    EventId m_refreshEvent;
    bool m_pauseAsserted{false};

    std::deque<Ptr<Packet>> m_rxFifo; //!< frames in the RX FIFO awaiting DMA
    uint32_t m_rxFifoBytes{0};
    uint32_t m_rxFifoPeak{0};
    Ptr<Packet> m_rxDmaFrame; //!< frame the NIC is writing to host memory (null: none)
    uint32_t m_rxRingFree{0};

    // the pipeline's hand-over callbacks, built once
    Callback<void> m_txDmaDoneCb; //!< TxDmaDone
    Callback<void> m_rxDmaDoneCb; //!< RxDmaDone

    uint64_t m_rxDrops{0};
    uint64_t m_pauseSent{0};
    uint64_t m_pauseReceived{0};

    // traces, named after the place in the pipeline as in PointToPointNetDevice
    TracedCallback<Ptr<const Packet>> m_macTxTrace;
    TracedCallback<Ptr<const Packet>> m_macTxDropTrace;
    TracedCallback<Ptr<const Packet>> m_macRxTrace;
    TracedCallback<Ptr<const Packet>> m_macRxDropTrace;
    TracedCallback<Ptr<const Packet>> m_phyTxBeginTrace;
    TracedCallback<Ptr<const Packet>> m_phyTxEndTrace;
    TracedCallback<Ptr<const Packet>> m_phyRxEndTrace;
    TracedCallback<Ptr<const Packet>> m_snifferTrace;
    TracedCallback<Ptr<const Packet>> m_promiscSnifferTrace;
    TracedCallback<uint16_t> m_pauseTxTrace;
    TracedCallback<uint16_t> m_pauseRxTrace;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_GIGE_NET_DEVICE_H
