// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_CLUSTER_ARGS_H
#define CLUSTERNET_CLUSTER_ARGS_H

#include "gm-experiment.h"

#include <cstdint>
#include <string>

namespace ns3
{
namespace clusternet
{

class ScenarioArgs;

/**
 * @ingroup clusternet
 * @brief The parts of a cluster whose hosts have a Gigabit Ethernet NIC and a LANai board (as
 * seed 003's): what a program's --host, --nic, --lanai and --switches select.
 */
struct ClusterParts
{
    std::string host;      //!< host profile (with a GM host library for Myrinet)
    std::string nic;       //!< Gigabit Ethernet NIC profile
    std::string lanai;     //!< LANai profile
    uint32_t switches{1};  //!< switches between two hosts: 0 back to back, 1 one switch, N a line
    std::string pci;       //!< PCI slot WIDTHxCLOCK of every host; "" = the host profile's
};

/**
 * @ingroup clusternet
 * @brief The options of ClusterParts, with a paper's parts as defaults.
 */
class ClusterArgs
{
  public:
    /**
     * Register --host, --nic and --lanai (choices from the profile files) with @p paper's parts
     * as defaults, their part options (--os, --gm, --driver, --mcp), --pci, and --switches (marked as the paper's setup) unless @p fabric is false (a
     * program of more than two hosts, which always has one switch).
     */
    static void Add(ScenarioArgs& args, const ClusterParts& paper, bool fabric = true);
    /**
     * Read the options of Add(). A line of more than one switch is Myrinet's alone: with
     * @p ethernet (the run has an Ethernet network) it is refused (exit 2).
     */
    static ClusterParts Parse(const ScenarioArgs& args, bool ethernet);
    /// @return the Myrinet machine of @p parts with @p hosts hosts (one switch above two)
    static GmConfig Myrinet(const ClusterParts& parts, uint32_t hosts = 2);
    /// @return the PCI slot the Ethernet hosts of @p parts run in: --pci, else the host's
    static std::string EthernetPci(const ClusterParts& parts);
    /// Refuse (exit 2, the GmExperiment::Validate line) @p parts' Myrinet machine of @p hosts
    /// hosts when it cannot be built.
    static void CheckMyrinet(const ScenarioArgs& args, const ClusterParts& parts, uint32_t hosts);
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_CLUSTER_ARGS_H
