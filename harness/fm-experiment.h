// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_FM_EXPERIMENT_H
#define CLUSTERNET_FM_EXPERIMENT_H

#include "ns3/fm-benchmark.h"
#include "ns3/fm-context.h"
#include "ns3/fm-helper.h"
#include "ns3/fm-mcp.h"
#include "ns3/fm-pio-probe.h"
#include "ns3/fm-smt.h"
#include "ns3/host-bridge.h"
#include "ns3/node-container.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ns3
{
namespace clusternet
{

class ScenarioArgs;

/**
 * @ingroup clusternet
 * @brief One point of an FM micro-benchmark: ping-pong latency, streaming rate, poll cost.
 */
struct FmMeasurement
{
    Time oneway;           //!< one-way latency (half the mean round trip)
    double mbytesPerS{0};  //!< streaming rate [MB/s, 10^6 bytes]; 0 for empty messages
    double pollNs{0};      //!< mean time of one poll by an idle receiver [ns]
    uint32_t pacing{0};    //!< the PIO pacing chunk in use (the probe's choice) [bytes]
};

/**
 * @ingroup clusternet
 * @brief The message sizes and repetitions of an FM latency/bandwidth sweep.
 */
struct FmSweepArgs
{
    std::vector<uint32_t> sizes; //!< message sizes [bytes]
    uint32_t reps{50};           //!< round trips per latency point
    uint32_t streamBytes{0};     //!< bytes streamed per bandwidth point
};

/// A curve of the HPVM scenarios: an FM version on a host, as --config names it.
struct FmCurve
{
    std::string version; //!< as given: 2.1, 1.2, 1.9 (seed 004's) or an FM profile
    std::string cpu;     //!< as given: pii300, pii450 (seed 004's machines) or a host profile
};

/// A process: host index and process index on that host.
using FmEndpoint = std::pair<uint32_t, uint32_t>;

/**
 * @ingroup clusternet
 * @brief The configuration of an HPVM / Fast Messages machine (seed 004).
 */
struct FmConfig
{
    std::string host{"pii450-netserver-nt4"}; //!< host profile (CPU, PCI, default chipset)
    std::string chipset;                      //!< chipset profile; empty = the host's
    std::string version{"hpvm19"};            //!< FM software profile
    std::string lanai{"lanai4"};              //!< LANai board profile
    std::string notify;    //!< "pci-poll" or "memory"; empty = the version's
    std::string intranode; //!< "smt" or "loopback"; empty = the version's
    std::string pacing;    //!< "off", "probe" or a chunk in bytes; empty = the version's
    std::optional<int64_t> credits; //!< credits per peer; none = the version's
    int64_t queues{1};     //!< SMT receive queues per process (M)
    uint32_t hosts{2};     //!< hosts on the Myrinet switch (at least 2)
    uint32_t switches{1};  //!< XBar16 switches: 0 back to back (2 hosts), 1, or a line (2 hosts)
    uint32_t processes{1}; //!< FM processes per host (N; each on its own CPU)
    std::string overrides; //!< "target.Attribute=value;..."
    /// the targets --set may name: the objects the program's runs exercise (empty: all)
    std::vector<std::string> setTargets;
    bool start{true};      //!< start the FM processes (false: the bare machine, e.g. for PIO)
};

/**
 * @ingroup clusternet
 * @brief Seed 004's experiment on an HPVM machine: the options that describe the machine, the
 * machine itself (HostHelper, MyrinetHelper and FmHelper from the run's values), the boot-time
 * PIO probe when pacing is "probe", and the measurements of a latency/bandwidth point.
 */
class FmExperiment
{
  public:
    /// @return "" if @p config is valid, else one line naming the bad parameter
    static std::string Validate(const FmConfig& config);
    /**
     * Register --host, --chipset, --fm-version, --lanai, --switches, --notify, --intranode,
     * --pacing, --credits, --processes, --queues and --set on @p args, except the options in @p perCurve, which
     * the scenario sets for each of its curves. --set names @p setTargets (the program's
     * FmConfig::setTargets; empty: every target of the machine).
     */
    static void AddArguments(ScenarioArgs& args,
                             const std::set<std::string>& perCurve = {},
                             const std::vector<std::string>& setTargets = {});
    /// Register --config: curves VERSION:HOST, comma-separated, @p curves by default.
    static void AddCurveArgument(ScenarioArgs& args, const std::string& curves);
    /// @return the curves of --config, each naming a known version and host (exits 2 if not)
    static std::vector<FmCurve> ParseCurves(const ScenarioArgs& args);
    /// Set @p config's FM version and host profile to @p curve's.
    static void ApplyCurve(const FmCurve& curve, FmConfig& config);
    /**
     * The machine of @p curve: the options of AddArguments (ParseArguments), then the curve's
     * version and host, the version's notification made explicit; checked (exits 2 if bad).
     * @param setTargets the targets --set may name (FmConfig::setTargets)
     */
    static FmConfig CurveConfig(const ScenarioArgs& args,
                                const FmCurve& curve,
                                const std::vector<std::string>& setTargets);
    /// Register --sizes, --reps and --stream-bytes (an FM latency/bandwidth sweep) on @p args.
    static void AddSweepArguments(ScenarioArgs& args);
    /// @return the values of AddSweepArguments' options (exits 2 on bad input)
    static FmSweepArgs ParseSweepArguments(const ScenarioArgs& args);
    /// Fill @p config from the registered arguments of AddArguments (exits 2 on bad input).
    static void ParseArguments(const ScenarioArgs& args, FmConfig& config);
    /// @return the chipset @p config uses
    static std::string EffectiveChipset(const FmConfig& config);
    /// @return the arrival detection @p config uses ("memory" or "pci-poll"): --notify, else
    /// the run's values' fm.Notify (the FM profile's, a --set, else FmContext's default). The
    /// config must be valid (Validate()).
    static std::string EffectiveNotify(const FmConfig& config);
    /// @return the host profile of the paper's machine with @p chipset ("" if none)
    static std::string MachineOf(const std::string& chipset);
    /**
     * Measure @p bytes messages from @p a to @p b on fresh machines built from @p config:
     * the poll cost of @p b waiting 100 us for nothing, the ping-pong latency over @p reps
     * round trips, and the streaming rate of @p streamBytes (16..4000 messages).
     */
    static FmMeasurement Measure(const FmConfig& config,
                                 FmEndpoint a,
                                 FmEndpoint b,
                                 uint32_t bytes,
                                 uint32_t reps,
                                 uint32_t streamBytes);

    /// Build the machine; @p config must be valid.
    explicit FmExperiment(const FmConfig& config);
    ~FmExperiment();
    FmExperiment(const FmExperiment&) = delete;
    FmExperiment& operator=(const FmExperiment&) = delete;

    /// @return process @p p of host @p h
    Ptr<FmContext> GetContext(uint32_t h, uint32_t p) const;
    /// @return the control program of host @p h
    Ptr<FmMcp> GetMcp(uint32_t h) const;
    /// @return the host bridge of host @p h
    Ptr<HostBridge> GetBridge(uint32_t h) const;
    /// @return the shared region of host @p h (null if it has none)
    Ptr<FmSmt> GetSmt(uint32_t h) const;
    /// @return a PIO micro-benchmark on host @p h's first CPU and bridge
    Ptr<FmPioProbe> CreatePioBenchmark(uint32_t h) const;
    /// @return the pacing chunk in use (0 = none)
    uint32_t GetPacing() const;
    /// @return true if the pacing came from the boot-time probe
    bool IsProbed() const;
    /// Run the simulation until a benchmark stops it.
    void Run();

  private:
    NodeContainer m_nodes;
    NodeContainer m_switches; //!< the Myrinet switches (none back to back)
    std::vector<FmHelper::Host> m_hosts; //!< what FmHelper built, host by host
    FmConfig m_config;
    uint32_t m_pacing{0};
    bool m_probed{false};
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_FM_EXPERIMENT_H
