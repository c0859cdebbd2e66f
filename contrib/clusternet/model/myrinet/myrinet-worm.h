// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_MYRINET_WORM_H
#define CLUSTERNET_MYRINET_WORM_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/simple-ref-count.h"

#include <vector>

namespace ns3
{
namespace clusternet
{

class MyrinetPort;

/**
 * @ingroup clusternet
 * @brief One Myrinet packet in flight through the fabric, wormhole-routed.
 *
 * The worm occupies a chain of hops. Hop k is a link: a transmitter (the source port, or a
 * switch output port) and the slack buffer of the port at its far end. Per hop the model keeps
 * byte counts (sent, arrived, forwarded) that grow at piecewise-constant rates, so simulation
 * events happen only when something changes: a head reaches a port, a route decision, a
 * STOP or GO symbol, a buffer running empty, a tail leaving a hop. A long packet costs the same
 * number of events as a short one unless it is throttled.
 *
 * - A transmitter sends at its link's rate while it is granted, not stopped, has bytes left,
 *   and (past the first hop) its input buffer holds bytes; with an empty input buffer it passes
 *   bytes on as fast as they arrive.
 * - Bytes arrive at the far end one cable delay after they were sent.
 * - At a switch the head waits the switch latency for its route decision, then for its output
 *   port (fair arbitration); the bytes that arrive during the latency fill the switch pipeline
 *   and do not count towards STOP. The granted output strips the route byte and the tail
 *   carries the CRC-8 updated for what remains.
 * - A blocked head holds every hop behind it; a hop is given up only when the tail has left its
 *   buffer.
 * - At the destination host port the bytes drain at its receive rate while it accepts them.
 */
class MyrinetWorm : public SimpleRefCount<MyrinetWorm>
{
  public:
    /**
     * @param wire the whole packet as on the first link (route, type, payload, CRC)
     * @param source the host port sending it
     */
    MyrinetWorm(Ptr<Packet> wire, Ptr<MyrinetPort> source);
    ~MyrinetWorm();

    /// The source port's link is free: the first byte goes out now.
    void Start();
    /// A switch grants the output port @p out to the head waiting at the end of hop @p hop.
    void Grant(uint32_t hop, Ptr<MyrinetPort> out);
    /// A port this worm uses changed state (STOP/GO arrived, receive enabled): re-evaluate.
    void Touch();

    /// @return the packet as it is now (route bytes already consumed are gone)
    Ptr<const Packet> GetPacket() const;
    /// @return hops taken so far
    uint32_t GetNHops() const;

  private:
    /// State of one hop.
    struct Hop
    {
        Ptr<MyrinetPort> tx; //!< transmitting port
        Ptr<MyrinetPort> rx; //!< receiving port (far end)
        double length{0};         //!< packet bytes on this hop
        double rate{0};           //!< link rate [bytes/s]
        Time delay;               //!< cable delay
        double pipe{0};           //!< switch pipeline bytes at rx (not flow-controlled)
        double sent{0};
        double arrived{0};
        double out{0};
        double txRate{0};
        double inRate{0};
        double outRate{0};
        bool txDone{false};
        bool headArrived{false};
        bool sink{false};      //!< rx consumes the worm (host port, or a dropping switch)
        bool drop{false};      //!< the switch found no such output port: consume and discard
        bool forwarding{false}; //!< the next hop exists
        bool released{false};
        double recorded{0}; //!< largest slack occupancy this hop has recorded at rx
    };

    /// Schedule @p method(@p args...) on this worm after @p delay, as one allocated event.
    template <typename... Args>
    EventId Schedule(Time delay, void (MyrinetWorm::*method)(Args...), Args... args);

    void Advance();
    void Process();
    void Recompute();
    void Step();
    void ArrivalChange(uint32_t hop, double rate);
    void RouteDecision(uint32_t hop);
    void Release(uint32_t hop);
    void AddHop(Ptr<MyrinetPort> tx);

    Ptr<Packet> m_packet;
    Ptr<MyrinetPort> m_source;
    std::vector<Hop> m_hops; //!< capacity for every hop of the route: references stay valid
    Time m_last;
    EventId m_step;
    bool m_done{false};
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_MYRINET_WORM_H
