// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_SCENARIO_ARGS_H
#define CLUSTERNET_SCENARIO_ARGS_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief Command line of a scenario program, on top of ns-3's CommandLine (so --help and
 * --PrintHelp list every knob with its unit and default), with strict checking: an unknown
 * option or a bad value prints one line naming the parameter and what is allowed, and exits
 * with status 2 before anything is written.
 *
 * Every program takes --profile-file=PATH[,PATH...]: profile files (or folders of them) read
 * besides the catalogue, before the options are registered, so that --help and the choices of
 * profile options include the user's profiles. A bad file is refused here with one line naming
 * file and line, exit status 2.
 */
class ScenarioArgs
{
  public:
    /// Keep @p argc / @p argv for Parse() and read the --profile-file files they name.
    ScenarioArgs(int argc, char** argv, std::string program, std::string description);

    /// Register option --name with help text (give the unit) and default value.
    void Add(const std::string& name, const std::string& help, const std::string& value);
    /// Parse the command line; exits 0 after --help, 2 on bad input.
    void Parse();

    /// @return the command line as given, without the program name
    std::vector<std::string> Arguments() const;
    /// @return true if option @p name is registered
    bool Has(const std::string& name) const;
    /// @return the raw string value of option @p name
    std::string Get(const std::string& name) const;
    /// @return a comma-separated list of integers within [min, max]
    std::vector<uint32_t> GetUintList(const std::string& name,
                                      uint64_t min,
                                      uint64_t max,
                                      const std::string& unit) const;
    /// @return one integer within [min, max]
    uint32_t GetUint(const std::string& name, uint64_t min, uint64_t max, const std::string& unit)
        const;
    /// @return a comma-separated list of words, each one of @p allowed
    std::vector<std::string> GetChoiceList(const std::string& name,
                                           const std::vector<std::string>& allowed) const;
    /// @return one word, one of @p allowed
    std::string GetChoice(const std::string& name, const std::vector<std::string>& allowed) const;
    /// @return a boolean (0/1/true/false)
    bool GetBool(const std::string& name) const;

    /// Print "<program>: <message>" on stderr and exit with status 2.
    [[noreturn]] void Fail(const std::string& message) const;

  private:
    int m_argc;
    char** m_argv;
    std::string m_program;
    std::string m_description;
    std::vector<std::string> m_order;
    std::map<std::string, std::string> m_help;
    std::map<std::string, std::string> m_values;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_SCENARIO_ARGS_H
