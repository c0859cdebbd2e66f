// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_HOST_HELPER_H
#define CLUSTERNET_HOST_HELPER_H

#include "ns3/host-cpu.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/profile-set.h"

#include <string>
#include <vector>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief Aggregates a host model onto nodes: HostCpu, PciBus and HostStack, configured from a
 * host profile ("piii450-linux22") and optional attribute overrides.
 */
class HostHelper
{
  public:
    HostHelper();

    /// Apply a host profile; @return false if there is no such profile
    bool SetHostProfile(const std::string& name);
    void SetCpuAttribute(std::string name, const AttributeValue& value);
    void SetBusAttribute(std::string name, const AttributeValue& value);
    void SetStackAttribute(std::string name, const AttributeValue& value);
    /// Put the NIC in a PCI slot "WIDTHxCLOCK" (empty: the profile's). @return false if invalid
    bool SetPciSlot(const std::string& slot);
    /// Install on every node of @p nodes (each gets its own CPU, bus and stack settings).
    void Install(NodeContainer nodes) const;
    /// Install on one node.
    void Install(Ptr<Node> node) const;
    /// @return a CPU as the profile makes it, on no node (to convert cycles and times)
    Ptr<HostCpu> CreateCpu() const;
    /**
     * Install only the stack settings (HostStack: the OS's TCP) on every node of @p nodes, no
     * CPU and no bus: for a node whose device is not clusternet's, e.g. the same TCP over ns-3's
     * PointToPointNetDevice as a reference for speed.
     */
    void InstallStack(NodeContainer nodes) const;
    /// @return the PCI slots "WIDTHxCLOCK" a host can have: every width by every clock that
    /// PciBus's Width and Clock attributes allow (32x33, 32x66, 64x33, 64x66)
    static std::vector<std::string> PciSlots();
    /// @return PciSlots() as "32x33, 32x66, ..." for a message
    static std::string JoinPciSlots();
    /// @return the PCI slot "WIDTHxCLOCK" of host profile @p name (its bus values, else the
    /// PciBus defaults); "" if there is no such profile
    static std::string ProfileSlot(const std::string& name);
    /**
     * Split a PCI slot "WIDTHxCLOCK" (one of PciSlots()).
     * @return false if @p slot is not one of them
     */
    static bool ParsePciSlot(const std::string& slot, std::string& width, std::string& clock);
    /**
     * Lay a run's PCI slot over its values as the run's own choice (bus Width and Clock), so
     * that the values applied after building keep the slot SetPciSlot built.
     * @param values the run's values; a slot needs the target "bus"
     * @param slot "WIDTHxCLOCK", or "" (the host profile's own: nothing is laid)
     */
    static void ChoosePciSlot(ProfileSet& values, const std::string& slot);

  private:
    ObjectFactory m_cpuFactory;
    ObjectFactory m_busFactory;
    ObjectFactory m_stackFactory;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_HOST_HELPER_H
