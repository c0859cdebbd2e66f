// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_MYRINET_CLOS_TOPOLOGY_H
#define CLUSTERNET_MYRINET_CLOS_TOPOLOGY_H

#include "myrinet-topology.h"

#include <cstdint>
#include <vector>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief A full-bisection Clos network of XBar16 switches (16 ports: 8 to hosts or the level
 * below, 8 up; the top level uses all 16 downwards), for 16 x 8^(L-1) hosts: 128 hosts take
 * 24 switches (seed 001 sec. 2); the same rule gives 1024 and 8192. Routes are up*\/down*,
 * computed on demand (Route).
 */
class MyrinetClosTopology : public MyrinetTopology
{
  public:
    static TypeId GetTypeId();

    /**
     * @return the levels of the Clos the XBar16 rule builds for @p hosts hosts (16 x 8^(L-1):
     * 16, 128, 1024, 8192), or 0 if it builds none
     */
    static uint32_t Levels(uint32_t hosts);
    /**
     * The up*\/down* route from host @p src to host @p dst of a Clos of @p levels levels: up
     * through ports 8..15 (the up port at level l is digit l of @p dst in base 8, spreading
     * destinations over the spine), down through ports 0..7 (the top level through 0..15).
     */
    static std::vector<uint8_t> Route(uint32_t levels, uint32_t src, uint32_t dst);

    bool Fits(uint32_t hosts) const override;
    /// One level is one switch (MyrinetHelper::InstallSwitch); an empty container if the rule
    /// builds no Clos for the hosts.
    NetDeviceContainer Install(MyrinetHelper& helper,
                               const NodeContainer& hosts,
                               NodeContainer& switches) const override;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_MYRINET_CLOS_TOPOLOGY_H
