// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_MYRINET_TOPOLOGY_H
#define CLUSTERNET_MYRINET_TOPOLOGY_H

#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object.h"

#include <cstdint>

namespace ns3
{
namespace clusternet
{

class MyrinetHelper;

/**
 * @ingroup clusternet
 * @brief The shape of a Myrinet network: which switches there are, how they are linked, and
 * the source route between every pair of hosts. A topology is chosen by its TypeId name
 * (MyrinetHelper::InstallTopology); a new one is a subclass of its own, not an edit of the
 * helper.
 */
class MyrinetTopology : public Object
{
  public:
    static TypeId GetTypeId();
    ~MyrinetTopology() override;

    /// @return true if the topology connects @p hosts hosts
    virtual bool Fits(uint32_t hosts) const = 0;
    /**
     * Build the fabric of @p hosts with @p helper's ports, switches and links (they carry its
     * attributes); switch nodes are created and added to @p switches.
     * @return the host ports, host i first, each able to route to every other host
     */
    virtual NetDeviceContainer Install(MyrinetHelper& helper,
                                       const NodeContainer& hosts,
                                       NodeContainer& switches) const = 0;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_MYRINET_TOPOLOGY_H
