// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_MYRINET_SWITCH_H
#define CLUSTERNET_MYRINET_SWITCH_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{
namespace clusternet
{

class MyrinetPort;
class MyrinetWorm;

/**
 * @ingroup clusternet
 * @brief A Myrinet crossbar switch (XBar16): source-routed, cut-through, wormhole.
 *
 * The head of a packet arriving on an input port is routed by its first route byte after
 * Latency; the output port is then granted at once if free, or when it frees, in round-robin
 * order of the input ports waiting for it. A granted connection lasts until the packet's tail
 * has left the output link. A route byte naming a port the switch lacks (or one not linked)
 * makes the switch consume the packet and count it.
 */
class MyrinetSwitch : public Object
{
  public:
    /// Signature of the Grant trace: input, output, time the head waited.
    typedef void (*GrantTracedCallback)(uint32_t in, uint32_t out, Time waited);
    /// Signature of the BadRoute trace: the packet, its input port.
    typedef void (*BadRouteTracedCallback)(Ptr<const Packet> p, uint32_t in);

    static TypeId GetTypeId();
    MyrinetSwitch();
    ~MyrinetSwitch() override;

    /// Add a port (a MyrinetPort on this switch's node). @return its index
    uint32_t AddPort(Ptr<MyrinetPort> port);
    /// @return port @p i
    Ptr<MyrinetPort> GetPort(uint32_t i) const;
    /// @return the number of ports added
    uint32_t GetNPorts() const;
    /// @return the number of ports this switch has (its Ports attribute)
    uint32_t GetMaxPorts() const;
    /// @return true if port @p i exists and is linked
    bool HasPort(uint32_t i) const;
    /// @return the head's routing latency
    Time GetLatency() const;

    /// A head at input @p in (end of the worm's hop @p hop) asks for output @p out.
    void Request(Ptr<MyrinetWorm> worm, uint32_t hop, uint32_t in, uint32_t out);
    /// The tail has left output @p out's link: grant it to the next waiting input.
    void Release(uint32_t out);
    /// A packet arrived at input @p in with a route naming no linked port.
    void NotifyBadRoute(Ptr<const Packet> p, uint32_t in);

    /// @return packets consumed for a bad route
    uint64_t GetBadRoutes() const;
    /// @return heads that had to wait for a busy output
    uint64_t GetBlockedHeads() const;

  protected:
    void DoDispose() override;

  private:
    struct Waiting
    {
        Ptr<MyrinetWorm> worm;
        uint32_t hop;
        uint32_t in;
        Time since;
    };

    struct Output
    {
        bool busy{false};
        uint32_t lastIn{0};
        std::vector<Waiting> waiting;
    };

    void GrantTo(uint32_t out, const Waiting& w);

    Time m_latency;
    uint32_t m_maxPorts;
    std::vector<Ptr<MyrinetPort>> m_ports;
    std::vector<Output> m_outputs;
    uint64_t m_badRoutes{0};
    uint64_t m_blocked{0};

    TracedCallback<uint32_t, uint32_t, Time> m_grantTrace; //!< in, out, time waited
    TracedCallback<Ptr<const Packet>, uint32_t> m_badRouteTrace; //!< packet, input port
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_MYRINET_SWITCH_H
