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

/**
 * @ingroup clusternet
 * @brief Runs the independent points of a sweep as parallel processes, with progress, and
 * writes results/<scenario>/data.csv atomically after every finished point, so an interrupted
 * sweep keeps the points it finished (and --resume reuses them).
 *
 * Each point runs in a forked child (one ns-3 simulation per process) that writes its rows to
 * <out>/.points/<label>.csv through a temporary file and rename.
 */
class SweepRunner
{
  public:
    using Rows = std::vector<std::vector<std::string>>;

    /**
     * @param scenario scenario name (for messages and the report)
     * @param outDir output directory
     * @param columns data.csv header
     */
    SweepRunner(std::string scenario, std::string outDir, std::vector<std::string> columns);

    /// Add a point: @p label names it (unique), @p run simulates it and returns its rows.
    void AddPoint(const std::string& label, std::function<Rows()> run);
    /**
     * Run all points.
     * @param jobs processes at once
     * @param resume reuse point files left by an earlier, interrupted run
     * @return number of points that failed
     */
    int Run(unsigned jobs, bool resume);
    /// Run the Python report (summary.csv, plot, table) over data.csv. @return its exit status
    int Report() const;
    /// Write @p text to @p path atomically (temporary file in the same directory, then rename).
    static void WriteFileAtomic(const std::string& path, const std::string& text);
    /// @return @p value with @p digits decimals, as data.csv cells are written
    static std::string Fixed(double value, int digits = 3);

  private:
    struct Point
    {
        std::string label;
        std::function<Rows()> run;
        bool done{false};
    };

    std::string PointFile(const Point& p) const;
    void WriteData() const;

    std::string m_scenario;
    std::string m_outDir;
    std::vector<std::string> m_columns;
    std::vector<Point> m_points;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_SWEEP_RUNNER_H
