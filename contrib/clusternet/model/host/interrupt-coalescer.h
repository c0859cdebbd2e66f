// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_INTERRUPT_COALESCER_H
#define CLUSTERNET_INTERRUPT_COALESCER_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief NIC interrupt moderation: raise an interrupt after MaxFrames events, Timeout after
 * the first pending event, or GapTimeout after the latest one (a packet timer that every event
 * restarts), whichever comes first; at once when disabled or when neither timer is set.
 *
 * While the host handles an interrupt the line is masked (Mask()); events keep counting and the
 * handler's Unmask() raises a new interrupt at once if any are pending, as a driver's receive
 * loop re-enables interrupts and finds more work.
 */
class InterruptCoalescer : public Object
{
  public:
    static TypeId GetTypeId();
    InterruptCoalescer();
    ~InterruptCoalescer() override;

    /// Set the handler called when the interrupt is raised.
    void SetHandler(Callback<void> handler);
    /// One more event (frame) is pending.
    void Notify();
    /// The host is handling the interrupt: hold new interrupts.
    void Mask();
    /// The host finished: re-arm, raising at once if events are pending.
    void Unmask();
    /// Events are consumed by the handler.
    void Consume();
    /// @return number of events not yet consumed
    uint32_t GetPending() const;
    /// The interface MTU exceeds 1500 bytes: use the jumbo values if JumboTuning is on.
    void SetJumbo(bool jumbo);
    /// @return the frame count in force [frames]
    uint32_t GetMaxFrames() const;
    /// @return the timeout in force
    Time GetTimeout() const;
    /// @return the packet (gap) timer, restarted by every event; zero when not used
    Time GetGapTimeout() const;

  protected:
    void DoDispose() override;

  private:
    void Fire();

    Callback<void> m_handler;
    bool m_enabled;
    uint32_t m_maxFrames;
    Time m_timeout;
    bool m_jumboTuning;
    uint32_t m_jumboMaxFrames;
    Time m_jumboTimeout;
    Time m_gapTimeout;
    bool m_jumbo{false}; //!< the interface MTU exceeds 1500 bytes
    uint32_t m_pending{0};
    bool m_masked{false};
    EventId m_timer;     //!< absolute timer, from the first pending event
    EventId m_gapTimer;  //!< packet timer, from the latest event
    TracedCallback<uint32_t> m_interruptTrace; //!< interrupt raised: pending events
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_INTERRUPT_COALESCER_H
