// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_SWEEP_RUNNER_H
#define CLUSTERNET_SWEEP_RUNNER_H

#include <functional>
#include <string>
#include <vector>

namespace ns3
{
namespace clusternet
{

class ScenarioArgs;

/**
 * @ingroup clusternet
 * @brief The points of a scenario's sweep, and the scenario program's side of the sweep
 * driver's protocol: C++ simulates, Python orchestrates.
 *
 * A scenario registers its points (a label and a function simulating that point) and calls
 * Run(), which does one of three things:
 * - with --list-points=1: prints the sweep as one JSON object on stdout (columns of data.csv,
 *   the points' labels and file names, the sweep options) and returns;
 * - with --run-point=FILE --point-out=PATH: simulates the point of that file name in this
 *   process and writes its data.csv rows to PATH and the profiles the simulation looked up
 *   with their bases and parts (ProfileCatalogue::Used() after ForgetUsed() at the point's
 *   start, one "kind:name" a line) to PATH.parts (each atomically);
 * - otherwise: replaces this process with the Python sweep driver (python -m clusternet.sweep),
 *   which lists the points, runs them on dask.distributed (a LocalCluster, or the scheduler of
 *   --scheduler), writes data.csv, the points' provenance and the report.
 */
class SweepRunner
{
  public:
    using Rows = std::vector<std::vector<std::string>>;

    /**
     * Register the options every sweep takes: --jobs, --out, --resume, --report, --scheduler,
     * and the driver's --list-points, --run-point and --point-out.
     * @param args the program's command line
     * @param scenario scenario name (the default output folder is results/<scenario>)
     * @param report what the report writes, for --report's help (e.g. "summary.csv and the
     * plot"); empty for a program without a report (no --report option)
     */
    static void AddArguments(ScenarioArgs& args,
                             const std::string& scenario,
                             const std::string& report = "summary.csv and the plot");

    /**
     * Check the sweep options of @p args (after ScenarioArgs::Parse; a bad value exits 2).
     * @param args the parsed command line
     * @param scenario scenario name (for messages and the report)
     * @param columns data.csv header
     */
    SweepRunner(const ScenarioArgs& args, std::string scenario, std::vector<std::string> columns);

    /// Add a point: @p label names it (unique), @p run simulates it and returns its rows.
    void AddPoint(const std::string& label, std::function<Rows()> run);
    /// Say whether a finished point may be reused (not when it writes files of its own, such as
    /// a capture, that a rerun is asked for). Default: true.
    void SetReusable(bool reusable);
    /// Name a file the points read (a trace): its content is part of each point's identity.
    void AddInputFile(const std::string& path);
    /**
     * List the points, run one, or hand the sweep to the Python driver (see the class).
     * @return the program's exit status (0, or 1 when a point or the report failed)
     */
    int Run();

    /// Write @p text to @p path atomically (temporary file in the same directory, then rename).
    static void WriteFileAtomic(const std::string& path, const std::string& text);
    /// @return @p value with @p digits decimals, as data.csv cells are written
    static std::string Fixed(double value, int digits = 3);
    /**
     * One throughput as data.csv states it, in both decimal units (reference/README.md): the
     * measured @p value in Mbit/s (@p inMbps) or MB/s with @p digits decimals, and the other
     * unit converted exactly from that cell (MB/s = Mbit/s / 8 with 3 more decimals, Mbit/s =
     * MB/s x 8 with as many), so either column gives the same number.
     * @return {the Mbit/s cell, the MB/s cell}
     */
    static std::pair<std::string, std::string> Rate(double value, bool inMbps, int digits = 3);
    /**
     * @param path an output directory (--out)
     * @return "" if @p path is a directory, or can be made one, that files can be written in;
     * else what is wrong with it (nothing is left behind either way)
     */
    static std::string CheckOutputDirectory(const std::string& path);
    /// @return the file name (without extension) of the point labelled @p label
    static std::string PointFileName(const std::string& label);

  private:
    struct Point
    {
        std::string label;
        std::function<Rows()> run;
    };

    void ListPoints() const;
    int RunPoint(const std::string& file, const std::string& path) const;
    [[noreturn]] void ExecDriver() const;

    const ScenarioArgs& m_args;
    std::string m_scenario;
    std::vector<std::string> m_columns;
    std::vector<Point> m_points;
    bool m_reusable{true};
    std::vector<std::string> m_inputs;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_SWEEP_RUNNER_H
