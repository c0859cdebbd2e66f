// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_SCENARIO_ARGS_H
#define CLUSTERNET_SCENARIO_ARGS_H

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ns3
{
namespace clusternet
{

/// @return @p s as a JSON string literal (quotes, backslashes and control characters escaped)
std::string JsonString(const std::string& s);

/**
 * @ingroup clusternet
 * @brief Command line of a scenario program, on top of ns-3's CommandLine (so --help and
 * --PrintHelp list every knob with its unit and default), with strict checking made before
 * anything runs: an unknown or repeated option, a missing or empty value (where empty has no
 * documented meaning), a value outside an option's declared type and range, a bad --RngRun,
 * --RngSeed or --Print* of ns-3's own, each prints one line naming the option and what is
 * allowed, and exits with status 2 before anything is written.
 *
 * An option declared with a type (AddUint, AddUintList, AddChoice, AddChoiceList, AddBool)
 * states its rule once: the help text's range is written from it, Parse() checks the value
 * whether or not the program reads it, and the getters return the checked value. An option
 * added with Add() is free text, checked by the program that reads it.
 *
 * Every program takes --profile-file=PATH[,PATH...]: profile files (or folders of them) read
 * besides the catalogue, before the options are registered, so that --help and the choices of
 * profile options include the user's profiles. A bad file is refused here with one line naming
 * file and line, exit status 2. And every program takes --list-options=1, which prints its
 * options with their types and ranges as JSON (what the test battery derives bad values from).
 */
class ScenarioArgs
{
  public:
    /// What an option's value is.
    enum class Kind
    {
        TEXT,        //!< free text, checked by its reader
        UINT,        //!< one whole number within [min, max]
        UINT_LIST,   //!< comma-separated whole numbers, each within [min, max]
        CHOICE,      //!< one of the allowed words
        CHOICE_LIST, //!< comma-separated words, each one of the allowed
        BOOL,        //!< 0, 1, true or false
    };

    /// Keep @p argc / @p argv for Parse() and read the --profile-file files they name.
    ScenarioArgs(int argc, char** argv, std::string program, std::string description);

    /**
     * Register free-text option --name with help text (give the unit) and default value. An
     * empty value is allowed when the default is empty (it then means "not given"), refused
     * otherwise.
     */
    void Add(const std::string& name, const std::string& help, const std::string& value);
    /// As Add(), saying whether an empty value is allowed (it then has a documented meaning).
    void Add(const std::string& name,
             const std::string& help,
             const std::string& value,
             bool emptyAllowed);
    /// Register --name, one whole number of @p unit within [min, max]; the help gets the range.
    void AddUint(const std::string& name,
                 const std::string& help,
                 const std::string& unit,
                 uint64_t min,
                 uint64_t max,
                 uint64_t value);
    /// Register --name, comma-separated whole numbers of @p unit, each within [min, max].
    void AddUintList(const std::string& name,
                     const std::string& help,
                     const std::string& unit,
                     uint64_t min,
                     uint64_t max,
                     const std::string& value);
    /// Register --name, one word of @p allowed (or empty, if @p emptyAllowed: the help then
    /// says what empty means); the help lists them.
    void AddChoice(const std::string& name,
                   const std::string& help,
                   const std::vector<std::string>& allowed,
                   const std::string& value,
                   bool emptyAllowed = false);
    /// Register --name, comma-separated words, each one of @p allowed.
    void AddChoiceList(const std::string& name,
                       const std::string& help,
                       const std::vector<std::string>& allowed,
                       const std::string& value);
    /// Register --name, a boolean (0, 1, true, false); the help says [0/1].
    void AddBool(const std::string& name, const std::string& help, bool value);

    /**
     * Register --set (or --@p name, e.g. a second run's): attribute overrides
     * "target.Attribute=value;..." laid over the run's profiles (ProfileSet::SetOverrides
     * checks them when the program builds its values). The help names each of @p targets, rows
     * "kind.target" of ProfileCatalogue::Targets(), with the class that table says it
     * configures, then @p note (e.g. which runs use which targets) and @p example.
     */
    void AddOverrides(const std::vector<std::string>& targets,
                      const std::string& example,
                      const std::string& note = "",
                      const std::string& name = "set");

    /**
     * Register the part options @p parts, each a part of a profile the program selects that a
     * run may replace (ProfileCatalogue::Swap), empty by default (the profile's own):
     * --os and --gm (of every host), --driver (of every Gigabit Ethernet NIC), --mcp (GM's
     * control program on every LANai board). Parse() then applies them to the values of the
     * program's --host, --nic and --lanai options, which become the composed profiles' names;
     * a program that names hosts or NICs in another option applies them with WithParts().
     */
    void AddPartOptions(const std::vector<std::string>& parts);
    /**
     * @return profile @p name of @p kind (host, nic or lanai) with the parts given by the part
     * options replaced (the composed profile's name; @p name when none applies). Each
     * replacement is said once with Note(); a part that cannot replace one is refused with
     * Fail().
     */
    std::string WithParts(const std::string& kind, const std::string& name) const;
    /// @return the value of --@p name (host, nic or lanai) as given, before the part options
    std::string Selected(const std::string& name) const;

    /// Parse and check the command line; exits 0 after --help or --Print*, 2 on bad input.
    void Parse();

    /// @return the command line as given, without the program name
    std::vector<std::string> Arguments() const;
    /// @return true if option @p name is registered
    bool Has(const std::string& name) const;
    /// @return true if option @p name was given on the command line
    bool Given(const std::string& name) const;
    /// @return the raw string value of option @p name
    std::string Get(const std::string& name) const;

    /// @return the value of a declared UINT option
    uint32_t GetUint(const std::string& name) const;
    /// @return the values of a declared UINT_LIST option
    std::vector<uint32_t> GetUintList(const std::string& name) const;
    /// @return the value of a declared CHOICE option
    std::string GetChoice(const std::string& name) const;
    /// @return the values of a declared CHOICE_LIST option
    std::vector<std::string> GetChoiceList(const std::string& name) const;
    /// @return the value of a BOOL option (or of a free-text one holding 0/1/true/false)
    bool GetBool(const std::string& name) const;

    /// @return a comma-separated list of integers within [min, max] (a free-text option)
    std::vector<uint32_t> GetUintList(const std::string& name,
                                      uint64_t min,
                                      uint64_t max,
                                      const std::string& unit) const;
    /// @return one integer within [min, max] (a free-text option)
    uint32_t GetUint(const std::string& name, uint64_t min, uint64_t max, const std::string& unit)
        const;
    /// @return a comma-separated list of words, each one of @p allowed (a free-text option)
    std::vector<std::string> GetChoiceList(const std::string& name,
                                           const std::vector<std::string>& allowed) const;
    /// @return one word, one of @p allowed (a free-text option)
    std::string GetChoice(const std::string& name, const std::vector<std::string>& allowed) const;

    /// Print "<program>: <message>" on stderr and exit with status 2.
    [[noreturn]] void Fail(const std::string& message) const;

    /**
     * Print "<program>: <message>" on stderr, once per run: not in the processes that the
     * sweep driver starts to list or simulate the points (--list-points, --run-point).
     */
    void Note(const std::string& message) const;

    /**
     * The value a run uses for option --@p name, which the run's profile @p profile may also
     * set (as @p what, e.g. "device.Mtu"; @p profileValue, "" when the profile leaves it): the
     * option's @p optionValue when the option is given, with a Note() when the profile's
     * differs; else the profile's when it sets one; else @p optionValue (the option's default).
     * A flag that is not given never replaces a profile's value.
     */
    std::string OverProfile(const std::string& name,
                            const std::string& optionValue,
                            const std::string& profile,
                            const std::string& what,
                            const std::string& profileValue) const;

    /**
     * Mark option --@p name as one of the paper's setup that no profile holds (e.g. the
     * fabric): a run that gives it a value other than its default is not on the paper's setup.
     */
    void MarkSetup(const std::string& name);
    /// @return "name=value" of every MarkSetup() option whose value is not its default
    std::vector<std::string> SetupChanges() const;

  private:
    /// One registered option.
    struct Option
    {
        std::string help;                 //!< help text, with the declared range
        std::string value;                //!< current value (default until given)
        Kind kind{Kind::TEXT};            //!< what the value is
        std::string unit;                 //!< unit of a number
        uint64_t min{0};                  //!< smallest number allowed
        uint64_t max{0};                  //!< largest number allowed
        std::vector<std::string> allowed; //!< words of a choice
        bool emptyAllowed{false};         //!< an empty value has a meaning
        bool given{false};                //!< given on the command line
        std::string initial;              //!< the default value
        bool setup{false};                //!< part of the paper's setup (MarkSetup())
        std::string selected;             //!< value before the part options (host, nic, lanai)
    };

    /// Register @p option as --name.
    void Declare(const std::string& name, Option option);
    /// @return the option --name (asserts it is registered)
    const Option& Find(const std::string& name) const;
    /// Check the ns-3 option --key=value of the general arguments (exits 2 if bad).
    void CheckBuiltin(const std::string& key, const std::string& value, bool hasValue) const;
    /// Check option @p name's value against its declared kind (exits 2 if bad).
    void CheckValue(const std::string& name) const;
    /// Print the options as JSON on stdout (--list-options=1).
    void ListOptions() const;

    int m_argc;
    char** m_argv;
    std::string m_program;
    std::string m_description;
    std::vector<std::string> m_order;
    std::map<std::string, Option> m_options;
    mutable std::map<std::string, uint32_t> m_partUses; //!< profiles each part option changed
    mutable std::set<std::string> m_noted;              //!< Note()s of WithParts said so far
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_SCENARIO_ARGS_H
