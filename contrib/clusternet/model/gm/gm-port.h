// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_GM_PORT_H
#define CLUSTERNET_GM_PORT_H

#include "gm-mcp.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/host-cpu.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <functional>

namespace ns3
{
namespace clusternet
{

class PciBus;

/**
 * @ingroup clusternet
 * @brief The host side of one GM port: the GM library calls a process makes, with their host
 * CPU costs, the programmed-I/O writes that pass send and receive tokens to the NIC, and the
 * receive queue in host memory that the NIC writes events into and the process polls.
 *
 * Sends are regulated by send tokens (gm_num_send_tokens): a process holds them all at first,
 * passes one with each send and gets it back when the send-completion event is polled. Buffers
 * given with ProvideReceiveBuffer take a receive token each until a message fills them. A
 * process waiting for an event busy-polls gm_receive(): an event written to host memory is seen
 * at the end of the poll iteration in progress (PollCycles), then costs EventCycles to handle.
 * Memory passed to GM is pinned (DMA-able): the NIC reads and writes it directly.
 */
class GmPort : public Object
{
  public:
    /// Called with an event (type NONE when a poll found nothing).
    using EventHandler = std::function<void(const GmEvent&)>;

    static TypeId GetTypeId();
    GmPort();
    ~GmPort() override;

    /**
     * Open the port on a NIC's control program.
     * @param mcp the GM control program of the host's NIC
     * @param id port number (0..255)
     * @param cpu host CPU the library calls run on (null: free)
     * @param bus host PCI bus carrying the token writes (null: free)
     */
    void Open(Ptr<GmMcp> mcp, uint8_t id, Ptr<HostCpu> cpu, Ptr<PciBus> bus);
    /// @return this port's number
    uint8_t GetPortId() const;
    /// @return the node id of this host in the GM network
    uint16_t GetNodeId() const;
    /// @return the host CPU the library calls run on (null: free)
    Ptr<HostCpu> GetCpu() const;

    /// @return send tokens the process holds
    uint32_t GetSendTokens() const;
    /// @return receive tokens the process holds
    uint32_t GetReceiveTokens() const;
    /// @return send tokens of the port (all home when nothing is in flight)
    uint32_t GetMaxSendTokens() const;

    /**
     * gm_send_with_callback(): send @p message (pinned, at host address @p address) to
     * (@p node, @p port). Takes a send token (the process must hold one).
     * @param returned called when the call returns to the process
     */
    void Send(uint16_t node,
              uint8_t port,
              Ptr<Packet> message,
              uint64_t address,
              std::function<void()> returned);
    /**
     * gm_provide_receive_buffer(): a pinned buffer of @p size bytes at @p address for one
     * message. Takes a receive token (the process must hold one).
     */
    void ProvideReceiveBuffer(uint32_t size, uint64_t address, std::function<void()> returned);
    /// gm_receive() until an event arrives (busy polling); @p handler gets it, handled.
    void WaitEvent(EventHandler handler);
    /// One gm_receive() call: @p handler gets the first pending event, or type NONE.
    void PollOnce(EventHandler handler);
    /// @return events written to the receive queue and not yet polled
    uint32_t GetPendingEvents() const;

    /// The NIC has written @p event into the receive queue (called by GmMcp).
    void PostEvent(const GmEvent& event);

    /**
     * Run the library calls at @p priority on the host CPU: USER for a process (the default),
     * INTERRUPT for a kernel client such as the Ethernet-emulation driver.
     */
    void SetCpuPriority(HostCpu::Priority priority);
    /**
     * Ask for an interrupt: @p notify is called when the NIC writes an event and nobody is
     * blocked in WaitEvent (a kernel client then drains the queue with PollOnce).
     */
    void SetEventNotify(std::function<void()> notify);

  protected:
    void DoDispose() override;

  private:
    void RunCpu(Time cost, std::function<void()> done);
    /// PIO-write a token to the NIC (@p arrived when it is there), then @p returned.
    void WriteToken(std::function<void()> arrived, std::function<void()> returned);
    void Handle(EventHandler handler);
    void WaiterSees();

    Ptr<GmMcp> m_mcp;
    Ptr<HostCpu> m_cpu;
    Ptr<PciBus> m_bus;
    uint8_t m_id{0};
    uint32_t m_sendTokens{0};
    uint32_t m_recvTokens{0};
    bool m_opened{false};

    std::deque<GmEvent> m_events;  //!< written by the NIC, not yet polled
    EventHandler m_waiter;         //!< the process blocked in WaitEvent
    Time m_waitStart;              //!< when it started polling
    EventId m_waitEvent;
    HostCpu::Priority m_priority{HostCpu::USER};
    std::function<void()> m_notify; //!< interrupt of a kernel client

    uint32_t m_numSendTokens;
    uint32_t m_numRecvTokens;
    double m_sendCycles;    //!< gm_send_with_callback() [reference cycles]
    double m_provideCycles; //!< gm_provide_receive_buffer() [reference cycles]
    double m_eventCycles;   //!< one event taken and handled [reference cycles]
    double m_pollCycles;    //!< one empty gm_receive() [reference cycles]
    uint32_t m_tokenBytes;

    TracedCallback<Ptr<const Packet>> m_sendTrace;  //!< a message is handed to GM
    TracedCallback<Ptr<const Packet>> m_recvTrace;  //!< a message is polled by the process
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_GM_PORT_H
