// SPDX-License-Identifier: GPL-2.0-only
#include "sweep-runner.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <sys/wait.h>
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
        line += (i ? "," : "") + cells[i];
    }
    return line + "\n";
}

std::string
Sanitize(const std::string& label)
{
    std::string s;
    for (char ch : label)
    {
        s += std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '.' ? ch : '_';
    }
    return s;
}

double
Seconds(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

} // namespace

SweepRunner::SweepRunner(std::string scenario, std::string outDir, std::vector<std::string> columns)
    : m_scenario(std::move(scenario)),
      m_outDir(std::move(outDir)),
      m_columns(std::move(columns))
{
}

void
SweepRunner::AddPoint(const std::string& label, std::function<Rows()> run)
{
    m_points.push_back({label, std::move(run)});
}

std::string
SweepRunner::PointFile(const Point& p) const
{
    return m_outDir + "/.points/" + Sanitize(p.label) + ".csv";
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

void
SweepRunner::WriteData() const
{
    std::string text = CsvLine(m_columns);
    for (const auto& p : m_points)
    {
        if (!p.done)
        {
            continue;
        }
        std::ifstream f(PointFile(p));
        std::stringstream ss;
        ss << f.rdbuf();
        text += ss.str();
    }
    WriteFileAtomic(m_outDir + "/data.csv", text);
}

int
SweepRunner::Run(unsigned jobs, bool resume)
{
    fs::create_directories(m_outDir + "/.points");
    jobs = std::max(1u, jobs);
    const auto t0 = std::chrono::steady_clock::now();
    std::map<pid_t, std::pair<std::size_t, std::chrono::steady_clock::time_point>> running;
    std::size_t next = 0;
    std::size_t finished = 0;
    int failed = 0;
    const std::size_t total = m_points.size();
    const int width = std::to_string(total).size();
    auto progress = [&](std::size_t i, const std::string& what) {
        double el = Seconds(t0, std::chrono::steady_clock::now());
        std::cerr << "[" << std::setw(width) << finished << "/" << total << "] " << std::left
                  << std::setw(44) << m_points[i].label << std::right << " " << what
                  << "  (elapsed " << std::fixed << std::setprecision(0) << el << " s";
        if (finished > 0 && finished < total)
        {
            std::cerr << ", ~" << el / finished * (total - finished) << " s left";
        }
        std::cerr << ")" << std::endl;
    };

    if (!resume)
    {
        for (const auto& p : m_points)
        {
            fs::remove(PointFile(p));
        }
    }
    while (next < total || !running.empty())
    {
        while (next < total && running.size() < jobs)
        {
            Point& p = m_points[next];
            if (resume && fs::exists(PointFile(p)))
            {
                p.done = true;
                ++finished;
                progress(next, "reused from an earlier run");
                ++next;
                WriteData();
                continue;
            }
            std::cout.flush();
            std::cerr.flush();
            pid_t pid = fork();
            if (pid < 0)
            {
                std::cerr << m_scenario << ": fork failed" << std::endl;
                return static_cast<int>(total);
            }
            if (pid == 0)
            {
                Rows rows = p.run();
                std::string text;
                for (const auto& r : rows)
                {
                    text += CsvLine(r);
                }
                WriteFileAtomic(PointFile(p), text);
                std::cout.flush();
                _exit(0);
            }
            running[pid] = {next, std::chrono::steady_clock::now()};
            ++next;
        }
        int status = 0;
        pid_t pid = wait(&status);
        if (pid < 0)
        {
            break;
        }
        auto it = running.find(pid);
        if (it == running.end())
        {
            continue;
        }
        auto [index, start] = it->second;
        running.erase(it);
        ++finished;
        std::ostringstream what;
        what << std::fixed << std::setprecision(1)
             << Seconds(start, std::chrono::steady_clock::now()) << " s";
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && fs::exists(PointFile(m_points[index])))
        {
            m_points[index].done = true;
            WriteData();
            progress(index, "done in " + what.str());
        }
        else
        {
            ++failed;
            progress(index, "FAILED (status " + std::to_string(status) + ")");
        }
    }
    std::cerr << m_scenario << ": " << (total - failed) << " of " << total << " points in "
              << std::fixed << std::setprecision(0) << Seconds(t0, std::chrono::steady_clock::now())
              << " s -> " << m_outDir << "/data.csv" << std::endl;
    return failed;
}

std::string
SweepRunner::Fixed(double value, int digits)
{
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.*f", digits, value);
    return buf;
}

int
SweepRunner::Report() const
{
    const char* py = std::getenv("CLUSTERNET_PYTHON");
    const char* root = std::getenv("CLUSTERNET_ROOT");
    std::string python = py ? py : CLUSTERNET_PYTHON_DEFAULT;
    std::string dir = root ? root : CLUSTERNET_SOURCE_DIR;
    std::string cmd = "cd '" + dir + "' && PYTHONPATH='" + dir + "' '" + python +
                      "' -m analysis.report " + m_scenario + " --results '" +
                      fs::absolute(m_outDir).string() + "'";
    std::cout.flush();
    int rc = std::system(cmd.c_str());
    if (rc != 0)
    {
        std::cerr << m_scenario << ": the report step failed; data.csv is complete. Run: "
                  << cmd << std::endl;
    }
    return rc;
}

} // namespace clusternet
} // namespace ns3
