// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_GM_EXPERIMENT_H
#define CLUSTERNET_GM_EXPERIMENT_H

#include "ns3/gm-benchmark.h"
#include "ns3/gm-mcp.h"
#include "ns3/lanai-nic.h"
#include "ns3/node-container.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{
namespace clusternet
{

class ScenarioArgs;
class GmHelper;

/**
 * @ingroup clusternet
 * @brief The machine of a GM experiment: two hosts with LANai NICs linked back to back, as in
 * seed 001 sec. 3, or up to 16 hosts on one Myrinet switch or a line of switches.
 */
struct GmConfig
{
    std::string lanai{"lanai9"};            //!< LANai profile
    std::string host{"p200-430vx-linux24"}; //!< host profile
    std::string pci;                        //!< "WIDTHxCLOCK"; empty = the host profile's
    std::string overrides;                  //!< "target.Attribute=value;..." (lanai, mcp, gm,
                                            //!< bus, cpu, link, port)
    uint32_t switches{0}; //!< XBar16 switches: 0 back to back, else a line of them (InstallLine)
    uint32_t hosts{2};    //!< hosts (more than 2 need a switch; 2..16 on one, 128 or 1024 on
                          //!< a Clos of XBar16 switches, whatever @c switches says)
};

/**
 * @ingroup clusternet
 * @brief Builds the GM machine and runs benchmark steps on it (hosts 0 and 1). One object per
 * process: its destructor ends the simulation (Simulator::Destroy).
 */
class GmExperiment
{
  public:
    /// @return "" if @p config is valid, else one line naming the bad parameter
    static std::string Validate(const GmConfig& config);
    /**
     * Register --lanai, --host, --pci and --set on @p args, and --switches with default
     * @p switches (the paper's fabric) unless @p fabric is false (a program whose test does
     * not cross the network).
     */
    static void AddArguments(ScenarioArgs& args, bool fabric = true, uint32_t switches = 0);
    /// Read and validate the arguments of AddArguments (exits 2 on bad input).
    static GmConfig ParseArguments(const ScenarioArgs& args);
    /// @return the PCI slot of @p config as "WIDTHxCLOCK"
    static std::string EffectivePci(const GmConfig& config);
    /// Give the GM ports @p gm opens the run's --set gm.* values (a library's ranks open their
    /// own ports, after the experiment's; a valid @p config).
    static void ConfigurePorts(const GmConfig& config, GmHelper& gm);
    /**
     * Check the MPI libraries a program runs over GM or TCP (MpiHelper::CheckProfile).
     * @param stacks the libraries' profile names
     * @param overGm filled: true for a library whose transport is GM, false for TCP
     * @return "" or one line "--stack: NAME: ..." naming what is wrong
     */
    static std::string CheckStacks(const std::vector<std::string>& stacks,
                                   std::map<std::string, bool>& overGm);

    /// Build the machine; @p config must be valid.
    explicit GmExperiment(const GmConfig& config);
    ~GmExperiment();
    GmExperiment(const GmExperiment&) = delete;
    GmExperiment& operator=(const GmExperiment&) = delete;

    /// @return the benchmark processes (host 0 is the sender of one-way tests)
    Ptr<GmBenchmark> GetBenchmark() const;
    /// @return the NIC of host @p i
    Ptr<LanaiNic> GetNic(uint32_t i) const;
    /// @return the GM control program of host @p i
    Ptr<GmMcp> GetMcp(uint32_t i) const;
    /// Run the simulation until the step scheduled last stops it.
    void Run();

  private:
    NodeContainer m_nodes;
    NodeContainer m_switches;
    std::vector<Ptr<GmMcp>> m_mcps;
    Ptr<GmBenchmark> m_bench;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_GM_EXPERIMENT_H
