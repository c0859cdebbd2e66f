// SPDX-License-Identifier: GPL-2.0-only
#include "python-tool.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

namespace ns3
{
namespace clusternet
{

int
PythonTool::Run(const std::string& module, const std::vector<std::string>& args, std::string& error)
{
    const char* py = std::getenv("CLUSTERNET_PYTHON");
    const std::string python = py && *py ? py : CLUSTERNET_PYTHON_DEFAULT;
    std::vector<std::string> argv = {python, "-m", module};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> cargv;
    for (auto& a : argv)
    {
        cargv.push_back(a.data());
    }
    cargv.push_back(nullptr);
    int pipeFds[2];
    if (pipe(pipeFds) != 0)
    {
        error = std::string("cannot create a pipe: ") + std::strerror(errno);
        return 127;
    }
    pid_t pid = fork();
    if (pid < 0)
    {
        error = std::string("cannot fork: ") + std::strerror(errno);
        close(pipeFds[0]);
        close(pipeFds[1]);
        return 127;
    }
    if (pid == 0)
    {
        dup2(pipeFds[1], STDERR_FILENO);
        close(pipeFds[0]);
        close(pipeFds[1]);
        execv(python.c_str(), cargv.data());
        std::string why = "cannot start " + python + ": " + std::strerror(errno) +
                          " (set CLUSTERNET_PYTHON to the project's Python, or run ./ns3 "
                          "configure)\n";
        ssize_t ignored = write(STDERR_FILENO, why.data(), why.size());
        (void)ignored;
        _exit(127);
    }
    close(pipeFds[1]);
    std::string text;
    char buf[4096];
    for (ssize_t got; (got = read(pipeFds[0], buf, sizeof(buf))) != 0;)
    {
        if (got < 0 && errno == EINTR)
        {
            continue;
        }
        if (got < 0)
        {
            break;
        }
        text.append(buf, got);
    }
    close(pipeFds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    {
    }
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
    {
        text.pop_back();
    }
    std::size_t last = text.rfind('\n');
    error = last == std::string::npos ? text : text.substr(last + 1);
    if (WIFEXITED(status))
    {
        return WEXITSTATUS(status);
    }
    error = error.empty() ? "killed by signal " + std::to_string(WTERMSIG(status)) : error;
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

} // namespace clusternet
} // namespace ns3
