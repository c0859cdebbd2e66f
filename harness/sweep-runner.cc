// SPDX-License-Identifier: GPL-2.0-only
#include "sweep-runner.h"

#include "scenario-args.h"
#include "stall-watchdog-scheduler.h"

#include "ns3/abort.h"
#include "ns3/profile-catalogue.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <thread>
#include <unistd.h>

namespace ns3
{
namespace clusternet
{

namespace fs = std::filesystem;

namespace
{

std::string
CsvLine(const std::vector<std::string>& cells)
{
    std::string line;
    for (std::size_t i = 0; i < cells.size(); ++i)
    {
        std::string cell = cells[i];
        if (cell.find_first_of(",\"\n") != std::string::npos)
        {
            // RFC 4180: a cell with a comma, quote or line break is quoted, its quotes doubled
            std::string quoted = "\"";
            for (char c : cell)
            {
                quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
            }
            cell = quoted + "\"";
        }
        line += (i ? "," : "") + cell;
    }
    return line + "\n";
}

/// @return true if @p address is a Dask scheduler address the driver can use (tcp://HOST:PORT;
/// tls:// would need certificates the driver does not take)
bool
IsSchedulerAddress(const std::string& address)
{
    std::string rest;
    const std::string scheme = "tcp://";
    if (address.rfind(scheme, 0) == 0)
    {
        rest = address.substr(scheme.size());
    }
    std::size_t colon = rest.rfind(':');
    if (rest.empty() || colon == std::string::npos || colon == 0)
    {
        return false;
    }
    std::string port = rest.substr(colon + 1);
    if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos)
    {
        return false;
    }
    // A host name or IPv4 address, or an IPv6 address in brackets: one host, no list.
    std::string host = rest.substr(0, colon);
    bool bracketed = host.size() > 2 && host.front() == '[' && host.back() == ']';
    std::string allowed = bracketed ? "0123456789abcdefABCDEF:[]." : "0123456789abcdefghijklmnopq"
                                                                     "rstuvwxyzABCDEFGHIJKLMNOP"
                                                                     "QRSTUVWXYZ.-_";
    if (host.find_first_not_of(allowed) != std::string::npos)
    {
        return false;
    }
    unsigned long p = std::stoul(port);
    return p >= 1 && p <= 65535;
}

} // namespace

std::string
SweepRunner::CheckOutputDirectory(const std::string& path)
{
    const std::string allowed = "; allowed: a directory that exists or can be created";
    if (path.empty())
    {
        return "empty value" + allowed;
    }
    std::error_code ec;
    fs::path p = fs::absolute(path, ec);
    if (ec)
    {
        return "'" + path + "' is not a usable path" + allowed;
    }
    // The nearest part of the path that exists must be a directory we can create files in.
    fs::path existing = p;
    while (!fs::exists(existing, ec) && existing.has_parent_path() &&
           existing != existing.parent_path())
    {
        existing = existing.parent_path();
    }
    if (!fs::is_directory(existing, ec))
    {
        return "'" + existing.string() + "' is not a directory (in '" + path + "')" + allowed;
    }
    // Try it: a directory made and removed at once (root may write where access() says no).
    std::string probe = (existing / ".clusternet-probe-XXXXXX").string();
    if (mkdtemp(probe.data()) == nullptr)
    {
        return "cannot create files in '" + existing.string() + "' (" + std::strerror(errno) +
               ")" + allowed;
    }
    fs::remove(probe, ec);
    return "";
}

void
SweepRunner::AddArguments(ScenarioArgs& args,
                          const std::string& scenario,
                          const std::string& report)
{
    unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    args.AddUint("jobs",
                 "points simulated at once: worker processes of the local Dask cluster",
                 "processes",
                 1,
                 256,
                 cores);
    args.Add("out", "output directory [path]", "results/" + scenario);
    args.AddBool("resume",
                 "reuse the points already in --out that were computed with the same code, "
                 "parameters and profiles (after a crash, a kill or a finished run); 0 "
                 "recomputes every point",
                 true);
    if (!report.empty())
    {
        args.AddBool("report", "write " + report + " after the sweep", true);
    }
    args.Add("scheduler",
             "run the points on an existing Dask cluster: its scheduler's address "
             "tcp://HOST:PORT (empty: $CLUSTERNET_SCHEDULER, else a local cluster of --jobs "
             "workers) [address]",
             "");
    args.AddBool("list-points",
                 "print the sweep's points and options as JSON and exit (the sweep driver's "
                 "protocol)",
                 false);
    args.Add("run-point",
             "simulate only the point with this file name (as --list-points gives it), writing "
             "its rows to --point-out (the sweep driver's protocol) [name]",
             "");
    args.Add("point-out", "file for the rows of --run-point [path]", "");
}

SweepRunner::SweepRunner(const ScenarioArgs& args,
                         std::string scenario,
                         std::vector<std::string> columns)
    : m_args(args),
      m_scenario(std::move(scenario)),
      m_columns(std::move(columns))
{
    const std::string scheduler = args.Get("scheduler");
    if (!scheduler.empty() && !IsSchedulerAddress(scheduler))
    {
        args.Fail("--scheduler: '" + scheduler +
                  "' is not a Dask scheduler address; allowed: tcp://HOST:PORT with PORT "
                  "1..65535 (tls:// is not supported)");
    }
    // The driver's protocol: --run-point with --point-out, --list-points alone.
    const bool runPoint = !args.Get("run-point").empty();
    const bool pointOut = !args.Get("point-out").empty();
    if (pointOut && !runPoint)
    {
        args.Fail("--point-out: only with --run-point (the sweep driver's protocol)");
    }
    if (runPoint && !pointOut)
    {
        args.Fail("--run-point: needs --point-out, the file for its rows (the sweep driver's "
                  "protocol)");
    }
    if (runPoint && args.GetBool("list-points"))
    {
        args.Fail("--list-points: not with --run-point (the sweep driver's protocol)");
    }
    if (args.Get("run-point").empty())
    {
        std::string err = CheckOutputDirectory(args.Get("out"));
        if (!err.empty())
        {
            args.Fail("--out: " + err);
        }
    }
    if (!args.Get("run-point").empty() && args.Get("point-out").empty())
    {
        args.Fail("--run-point: needs --point-out=PATH for the point's rows");
    }
}

void
SweepRunner::AddPoint(const std::string& label, std::function<Rows()> run)
{
    for (const auto& p : m_points)
    {
        NS_ABORT_MSG_IF(p.label == label, "two points of one sweep share the label " << label);
    }
    m_points.push_back({label, std::move(run)});
}

void
SweepRunner::SetReusable(bool reusable)
{
    m_reusable = reusable;
}

void
SweepRunner::AddInputFile(const std::string& path)
{
    m_inputs.push_back(path);
}

std::string
SweepRunner::PointFileName(const std::string& label)
{
    std::string s;
    for (char ch : label)
    {
        s += std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '.' ? ch : '_';
    }
    return s;
}

void
SweepRunner::WriteFileAtomic(const std::string& path, const std::string& text)
{
    std::string tmp = path + ".tmp." + std::to_string(getpid());
    {
        std::ofstream f(tmp, std::ios::trunc);
        f << text;
        f.flush();
        if (!f)
        {
            std::cerr << "cannot write " << tmp << std::endl;
            std::exit(1);
        }
    }
    fs::rename(tmp, path);
}

std::string
SweepRunner::Fixed(double value, int digits)
{
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.*f", digits, value);
    return buf;
}

std::pair<std::string, std::string>
SweepRunner::Rate(double value, bool inMbps, int digits)
{
    const std::string cell = Fixed(value, digits);
    const double printed = std::strtod(cell.c_str(), nullptr);
    return inMbps ? std::make_pair(cell, Fixed(printed / 8, digits + 3))
                  : std::make_pair(Fixed(printed * 8, digits), cell);
}

void
SweepRunner::ListPoints() const
{
    std::set<std::string> files;
    std::string json = "{\"scenario\": " + JsonString(m_scenario) + ",\n \"columns\": [";
    for (std::size_t i = 0; i < m_columns.size(); ++i)
    {
        json += (i ? ", " : "") + JsonString(m_columns[i]);
    }
    json += "],\n \"options\": {";
    const char* options[] = {"jobs", "out", "resume", "report", "scheduler"};
    for (std::size_t i = 0; i < std::size(options); ++i)
    {
        std::string value = m_args.Has(options[i]) ? m_args.Get(options[i]) : "";
        json += (i ? ", " : "") + JsonString(options[i]) + ": " + JsonString(value);
    }
    json += "},\n \"reusable\": " + std::string(m_reusable ? "true" : "false");
    json += ",\n \"inputs\": [";
    for (std::size_t i = 0; i < m_inputs.size(); ++i)
    {
        json += (i ? ", " : "") + JsonString(m_inputs[i]);
    }
    json += "],\n \"points\": [";
    for (std::size_t i = 0; i < m_points.size(); ++i)
    {
        std::string file = PointFileName(m_points[i].label);
        NS_ABORT_MSG_IF(!files.insert(file).second,
                        "two points of one sweep share the file name " << file);
        json += std::string(i ? ",\n  " : "\n  ") + "{\"label\": " + JsonString(m_points[i].label) +
                ", \"file\": " + JsonString(file) + "}";
    }
    json += "]}\n";
    std::cout << json << std::flush;
}

int
SweepRunner::RunPoint(const std::string& file, const std::string& path) const
{
    for (const auto& p : m_points)
    {
        if (PointFileName(p.label) == file)
        {
            StallWatchdogScheduler::Install(m_scenario, "point '" + p.label + "'");
            ProfileCatalogue::ForgetUsed(); // the point's own lookups, not the option checks
            std::string text;
            for (const auto& r : p.run())
            {
                text += CsvLine(r);
            }
            // The parts the point was composed of, beside its rows (written first: rows imply
            // them).
            std::string parts;
            for (const auto& name : ProfileCatalogue::Used())
            {
                parts += name + "\n";
            }
            // and what of the paper's setup no profile holds, where the run changed it
            for (const auto& change : m_args.SetupChanges())
            {
                parts += "setup:" + change + "\n";
            }
            WriteFileAtomic(path + ".parts", parts);
            WriteFileAtomic(path, text);
            return 0;
        }
    }
    m_args.Fail("--run-point: this sweep has no point '" + file +
                "' (--list-points=1 lists the points' files)");
}

void
SweepRunner::ExecDriver() const
{
    const char* py = std::getenv("CLUSTERNET_PYTHON");
    const char* root = std::getenv("CLUSTERNET_ROOT");
    std::string python = py && *py ? py : CLUSTERNET_PYTHON_DEFAULT;
    std::string dir = root && *root ? root : CLUSTERNET_SOURCE_DIR;
    setenv("CLUSTERNET_ROOT", dir.c_str(), 1);
    setenv("CLUSTERNET_PYTHON", python.c_str(), 1);

    std::error_code ec;
    fs::path self = fs::read_symlink("/proc/self/exe", ec);
    std::vector<std::string> argv = {python,
                                     "-m",
                                     "clusternet.sweep",
                                     "--binary=" + (ec ? std::string() : self.string()),
                                     "--"};
    for (const auto& a : m_args.Arguments())
    {
        argv.push_back(a);
    }
    std::vector<char*> cargv;
    for (auto& a : argv)
    {
        cargv.push_back(a.data());
    }
    cargv.push_back(nullptr);
    std::cout.flush();
    std::cerr.flush();
    execv(python.c_str(), cargv.data());
    std::cerr << m_scenario << ": cannot start the sweep driver " << python << ": "
              << std::strerror(errno) << " (set CLUSTERNET_PYTHON to the project's Python, "
              << "or run ./ns3 configure)" << std::endl;
    std::exit(1);
}

int
SweepRunner::Run()
{
    if (m_args.GetBool("list-points"))
    {
        ListPoints();
        return 0;
    }
    if (!m_args.Get("run-point").empty())
    {
        return RunPoint(m_args.Get("run-point"), m_args.Get("point-out"));
    }
    ExecDriver();
}

} // namespace clusternet
} // namespace ns3
