// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_PROFILE_REGISTRY_H
#define CLUSTERNET_PROFILE_REGISTRY_H

#include "ns3/object.h"

#include <string>
#include <vector>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief One attribute value of a profile, with where it comes from.
 */
struct ProfileValue
{
    std::string target;    //!< object it applies to: device, coalescer, cpu, bus, stack
    std::string attribute; //!< ns-3 attribute name on that object
    std::string value;     //!< value as an ns-3 attribute string ("5us", "800Mbps", "32")
    std::string source;    //!< paper and section, datasheet, driver default, or reasoning
};

/**
 * @ingroup clusternet
 * @brief A named set of attribute values: a NIC (with its driver) or a host (CPU, OS, bus).
 */
struct Profile
{
    std::string kind;        //!< "nic" or "host"
    std::string name;        //!< e.g. "sknet", "piii450-linux22"
    std::string description; //!< one line for --help
    std::vector<ProfileValue> values;
};

/**
 * @ingroup clusternet
 * @brief The catalogue of hardware and software profiles. Profiles are data: adding a NIC or a
 * host is adding an entry, with a source for every value.
 */
class ProfileRegistry
{
  public:
    /// @return the profile, or nullptr if there is none of that kind and name
    static const Profile* Find(const std::string& kind, const std::string& name);
    /// @return the names of all profiles of @p kind, in catalogue order
    static std::vector<std::string> Names(const std::string& kind);
    /// @return the names of the profiles of @p kind as "a, b, c" (for help texts)
    static std::string JoinNames(const std::string& kind);
    /// @return all profiles
    static const std::vector<Profile>& All();
    /**
     * Set the profile's values for @p target on @p object.
     * @return the number of values applied
     */
    static uint32_t Apply(const Profile& profile, const std::string& target, Ptr<Object> object);
    /**
     * Check that every item of "target.Attribute=value;..." names one of @p targets.
     * @return an error message naming the bad item, or "" on success
     */
    static std::string CheckTargets(const std::string& overrides,
                                    const std::vector<std::string>& targets);
    /**
     * Apply "target.Attribute=value;..." overrides to @p object for @p target.
     * @return an error message naming the bad item, or "" on success
     */
    static std::string ApplyOverrides(const std::string& overrides,
                                      const std::string& target,
                                      Ptr<Object> object);
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_PROFILE_REGISTRY_H
