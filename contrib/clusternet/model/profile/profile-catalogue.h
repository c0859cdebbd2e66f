// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_PROFILE_CATALOGUE_H
#define CLUSTERNET_PROFILE_CATALOGUE_H

#include "ns3/object.h"

#include <string>
#include <vector>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief One value of a profile, with where it comes from.
 *
 * An attribute value names an object of the profile's kind (the target, e.g. "device") and one
 * of its ns-3 attributes; a property (target "properties") is a documented value that is not an
 * attribute, such as a NIC's price or the chipset a machine has.
 */
struct ProfileValue
{
    std::string target;    //!< object it applies to (device, cpu, bus, ...) or "properties"
    std::string attribute; //!< ns-3 attribute name on that object, or the property's name
    std::string value;     //!< value as an ns-3 attribute string ("5us", "800Mbps", "32")
    std::string source;    //!< paper and section, datasheet, driver default, or reasoning
    std::string file;      //!< the profile file that sets it
    uint32_t line{0};      //!< its line in that file
};

/**
 * @ingroup clusternet
 * @brief A named set of values: a NIC with its driver, a host, a LANai board, a chipset, an FM
 * version or a message-passing library, or one physical part of a host or NIC (cpu, os, gm;
 * chip, driver). Its values are resolved: a profile with a base holds the base's values with
 * its own laid over them, and a host or NIC composed of parts holds every part's values (no two
 * parts may set the same attribute) with its own laid over them.
 */
struct Profile
{
    std::string kind;        //!< host, nic, cpu, os, gm, chip, driver, lanai, chipset, fm, mpi
    std::string name;        //!< e.g. "sknet", "piii450-linux22"
    std::string description; //!< one line for --help and `./ns3 profiles`
    std::string base;        //!< the profile it derives from, or ""
    std::vector<std::string> parts; //!< the part profiles it is composed of (host, nic)
    bool abstract{false};    //!< only a base for others: not selectable
    std::string file;        //!< where it is defined
    uint32_t line{0};        //!< its line in that file
    std::vector<ProfileValue> values; //!< resolved values, base first

    /// @return the value of @p target.@p attribute, or "" when the profile does not set it
    std::string Get(const std::string& target, const std::string& attribute) const;
};

/**
 * @ingroup clusternet
 * @brief Where a profile value of one kind and target goes: the TypeId whose attribute it sets.
 */
struct ProfileTarget
{
    std::string kind;   //!< profile kind
    std::string target; //!< target name in the profile files and in --set
    std::string typeId; //!< ns-3 TypeId name of the object
    std::string where;  //!< Config path of the objects below a node ("": none reachable)
};

/**
 * @ingroup clusternet
 * @brief The catalogue of hardware and software profiles, read from TOML files (format in
 * contrib/clusternet/profiles/README.md). Every value is checked when its file is read: the target exists for the
 * profile's kind, the attribute exists on the target's TypeId and its checker accepts the value,
 * and the value names a source. A profile may derive from another (`base`) and override a few
 * values; bases must exist, be of the same kind and not form a cycle; names are unique.
 *
 * The catalogue is read on first use from the folders and files in $CLUSTERNET_PROFILE_PATH
 * (colon-separated), or from the module's profiles/ folder when that is unset. A program
 * adds its users' files with Load() before anything is simulated.
 */
class ProfileCatalogue
{
  public:
    /// @return the concrete profile, or nullptr if there is none of that kind and name; a
    /// profile found is recorded as used (Used())
    static const Profile* Find(const std::string& kind, const std::string& name);
    /**
     * The profiles this process has found, with every profile their values come from (bases
     * and parts, recursively): what a run of it is composed of.
     * @return "kind:name" of each, sorted
     */
    static std::vector<std::string> Used();
    /// Forget the profiles found so far: Used() then names only those found after this call
    /// (what one simulation is composed of, without the lookups that checked the command line).
    static void ForgetUsed();
    /// @return the names of the concrete profiles of @p kind, in file order
    static std::vector<std::string> Names(const std::string& kind);
    /// @return the names of the profiles of @p kind as "a, b, c" (for help texts)
    static std::string JoinNames(const std::string& kind);
    /// @return the profile kinds, in the order they are listed
    static const std::vector<std::string>& Kinds();
    /// @return all profiles, abstract ones included
    static const std::vector<Profile>& All();
    /// @return the table of (kind, target) -> TypeId that profile values and overrides use
    static const std::vector<ProfileTarget>& Targets();
    /**
     * The targets of a run whose profiles are of @p kinds: every row of those kinds, kind by
     * kind in the order given and row by row in the table's order, but the rows in @p except
     * (objects the run does not build). A target name two kinds give is taken from the first
     * (a Gigabit Ethernet run's "device" is its NIC's, not IP over GM's); both rows must then
     * configure the same TypeId or the later one be in @p except.
     * @return "kind.target" of each, for ProfileSet
     */
    static std::vector<std::string> TargetsOf(const std::vector<std::string>& kinds,
                                              const std::vector<std::string>& except = {});
    /// @return the folders and files the catalogue was first read from
    static std::vector<std::string> DefaultPaths();
    /**
     * Read more profile files (a folder means every *.toml in it, in name order) and check the
     * whole catalogue again.
     * @return "" on success, else one line "file:line: what is wrong" (nothing is added)
     */
    static std::string Load(const std::vector<std::string>& paths);
    /**
     * Set the profile's values for @p target on @p object.
     * @return the number of values applied
     */
    static uint32_t Apply(const Profile& profile, const std::string& target, Ptr<Object> object);
    /**
     * Compose a profile of kind host, nic or lanai in which one part is replaced: what a
     * scenario's --os, --gm, --driver and --mcp options do (a what-if about one part).
     *
     * - host, nic: @p part (an os or gm profile; a driver profile) replaces the parts of its
     *   kind that set any target it sets, or is added when none does (a host without GM gets
     *   one); the profile's own values stay laid over its parts.
     * - lanai: @p part, a control program (an abstract lanai profile such as gm15-lanai),
     *   replaces the first abstract profile of the board's base chain; the board's own values
     *   stay laid over it.
     *
     * A profile derived from another (base) has the part swapped in that base. The result,
     * named NAME+PART, is checked as a profile file's would be (no two parts set one value) and
     * added to the catalogue; composing it again returns the same profile.
     * @param kind host, nic or lanai
     * @param name the profile whose part is replaced
     * @param part the part put in its place
     * @param[out] composed the composed profile's name; @p name itself when @p part is one of
     *             its parts already
     * @param[out] replaced the parts it replaces ("" when it is added)
     * @return "" on success, else what is wrong in one line (nothing is added)
     */
    static std::string Swap(const std::string& kind,
                            const std::string& name,
                            const std::string& part,
                            std::string& composed,
                            std::string& replaced);
    /**
     * Check that @p value is text that attribute @p attribute of @p tid accepts, without
     * creating an object (number and enum checkers abort on text they cannot read, so those are
     * checked here first). Numbers, times and rates follow ValueText: finite, within the 64
     * bits ns-3 holds them in, and a DataRate above 0 unless 0 is its initial value (a
     * documented setting such as "0 = the link rate"). Every --set item and every profile
     * file value goes through here.
     * @return "" when accepted, else what is wrong (without the attribute's name)
     */
    static std::string CheckAttribute(TypeId tid,
                                      const std::string& attribute,
                                      const std::string& value);
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_PROFILE_CATALOGUE_H
