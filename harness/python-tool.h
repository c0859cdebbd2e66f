// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_PYTHON_TOOL_H
#define CLUSTERNET_PYTHON_TOOL_H

#include <string>
#include <vector>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief Runs a module of the project's Python package (`python -m clusternet.X ARGS`) as a
 * child process: the interpreter is CLUSTERNET_PYTHON (set by ./ns3), else the one the build
 * was configured with.
 */
class PythonTool
{
  public:
    /**
     * Run `python -m @p module @p args` and wait for it.
     * @param[out] error what it wrote to stderr, its last line (a tool's one-line error)
     * @return its exit status (127: the interpreter could not be started, said in @p error)
     */
    static int Run(const std::string& module,
                   const std::vector<std::string>& args,
                   std::string& error);
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_PYTHON_TOOL_H
