// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_ETHERNET_DRIVER_H
#define CLUSTERNET_ETHERNET_DRIVER_H

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

#include <deque>

namespace ns3
{

class Node;

namespace clusternet
{

class HostCpu;
class InterruptCoalescer;
class PciBus;

/**
 * @ingroup clusternet
 * @brief The host-side driver of an Ethernet interface: the work a driver and the protocol stack
 * above it do per frame on the node's HostCpu, and, for a NIC with descriptor rings, feeding the
 * transmit ring and running the receive loop.
 *
 * Per frame it charges the driver's own work (TxCycles, RxCycles, in reference cycles: see
 * HostCpu::CoreFactor) and the host's protocol cost of the frame by its kind (the TCP/IP or UDP
 * per-packet cost of an IP frame, nothing for any other). An interrupt costs the CPU's
 * interrupt entry. A NIC's frames cross the node's PciBus (GetBus).
 *
 * A NIC with rings (GigeNetDevice) attaches with AttachRings: the driver then owns the
 * interrupt handlers of its coalescers (it acknowledges and re-enables them, as a driver does
 * the NIC's interrupt mask), takes frames from the device's queue while the transmit ring has
 * room (TxKick), and hands received frames up one by one (the receive loop). A device with no
 * driver (a switch port, a bare device in a test) has no host and moves frames in no time.
 * An interface without rings (GmEthernetNetDevice) uses the per-frame costs and Execute only.
 */
class EthernetDriver : public Object
{
  public:
    /// The driver's transmit side.
    enum TxState
    {
        TX_IDLE,    //!< no frame being posted
        TX_POSTING, //!< the CPU runs the transmit path of one frame
    };

    /// The driver's receive side.
    enum RxState
    {
        RX_IDLE,      //!< the receive interrupt is enabled
        RX_ENTRY,     //!< the CPU enters the interrupt handler
        RX_FRAME,     //!< the receive loop processes one frame
    };

    /// The next frame to post, or null when the device's queue is empty or its ring is full.
    typedef Callback<Ptr<Packet>> NextFrameCallback;
    /// A frame handed over: posted to the transmit ring, or received and passed up.
    typedef Callback<void, Ptr<Packet>> FrameCallback;
    /**
     * TracedCallback signature of a state change.
     * @param [in] state the new state
     */
    typedef void (*RxStateCallback)(RxState state);

    static TypeId GetTypeId();
    EthernetDriver();
    ~EthernetDriver() override;

    /// Run on @p node's HostCpu (which the node must have).
    void SetNode(Ptr<Node> node);
    /// @return the host CPU the driver runs on
    Ptr<HostCpu> GetCpu() const;
    /// @return the bus the NIC's DMA crosses: the node's PciBus (null: frames stay in memory)
    virtual Ptr<PciBus> GetBus() const;

    /**
     * Drive a NIC with descriptor rings.
     * @param rx the receive interrupt (its handler becomes the driver's)
     * @param tx the transmit-completion interrupt, or null: sent descriptors are reclaimed
     *        with the next receive interrupt
     * @param next where the driver takes the next frame to post
     * @param posted the frame is in the transmit ring
     * @param deliver a received frame is done: pass it up (its buffer is reposted)
     */
    void AttachRings(Ptr<InterruptCoalescer> rx,
                     Ptr<InterruptCoalescer> tx,
                     NextFrameCallback next,
                     FrameCallback posted,
                     FrameCallback deliver);
    /// Post frames while the device has frames and room: one frame at a time on the CPU.
    void TxKick();
    /// The NIC has written @p frame into a receive buffer (its interrupt is raised separately).
    void FrameWritten(Ptr<Packet> frame);
    /// The NIC has sent a frame whose descriptor awaits reclaiming.
    void FrameSent();

    /// @return host work to send @p frame: protocol cost and the driver's TxCycles
    virtual Time TxCost(Ptr<const Packet> frame) const;
    /// @return host work to receive @p frame: the driver's RxCycles and protocol cost
    Time RxCost(Ptr<const Packet> frame) const;
    /// @return host work to enter the interrupt handler
    virtual Time InterruptEntryCost() const;
    /// @return the host protocol cost of @p frame on transmit or receive
    Time ProtocolCost(Ptr<const Packet> frame, bool transmit) const;
    /// Run @p cost of work on the CPU at @p interrupt (else kernel) priority, then @p done.
    void Execute(Time cost, bool interrupt, Callback<void> done) const;

    /// @return the receive side's state
    RxState GetRxState() const;

  protected:
    void DoDispose() override;

  private:
    void TxPosted();
    void RxInterrupt();
    void RxLoop();
    void RxFrameDone();
    void TxInterrupt();
    void TxInterruptDone();
    void SetRxState(RxState state);

    Ptr<Node> m_node;
    Ptr<HostCpu> m_cpu;
    Ptr<InterruptCoalescer> m_rxCoalescer;
    Ptr<InterruptCoalescer> m_txCoalescer;
    NextFrameCallback m_next;
    FrameCallback m_posted;
    FrameCallback m_deliver;

    double m_txCycles;      //!< driver work per sent frame [reference cycles]
    double m_rxCycles;      //!< driver work per received frame [reference cycles]
    double m_txCleanCycles; //!< driver work per reclaimed descriptor [reference cycles]

    TxState m_txState{TX_IDLE};
    RxState m_rxState{RX_IDLE};
    Ptr<Packet> m_txFrame;              //!< frame being posted
    std::deque<Ptr<Packet>> m_rxDone;   //!< received frames in host memory awaiting the loop
    Ptr<Packet> m_rxFrame;              //!< frame the receive loop is processing
    uint32_t m_txReclaim{0};            //!< sent frames whose descriptors await reclaiming

    // the hand-over callbacks, built once
    Callback<void> m_txPostedCb;
    Callback<void> m_rxLoopCb;
    Callback<void> m_rxFrameDoneCb;
    Callback<void> m_txInterruptDoneCb;

    TracedCallback<RxState> m_rxStateTrace;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_ETHERNET_DRIVER_H
