// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_PROFILE_SET_H
#define CLUSTERNET_PROFILE_SET_H

#include "profile-catalogue.h"

#include "ns3/abort.h"
#include "ns3/attribute.h"
#include "ns3/node-container.h"
#include "ns3/object.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief The attribute values of one run, resolved before anything is built: the selected
 * profiles' values (later profiles win), then the run's own choices, then the user's overrides
 * ("target.Attribute=value;...", the --set of every scenario).
 *
 * A run names its targets as rows of ProfileCatalogue::Targets() ("nic.device",
 * "lanai.port"), the one table from a target to the TypeId of the object it configures. Every
 * value is checked against that TypeId and its checker when it is added, without creating an
 * object, and Get() answers what an attribute will be, so checks across attributes (a buffer
 * that must fit a memory, STOP that must leave room for the bytes in flight) are made on the
 * values before anything is built. Building then applies the values to the real objects.
 */
class ProfileSet
{
  public:
    /**
     * @param targets this run's targets, each "kind.target", a row of ProfileCatalogue::Targets()
     */
    explicit ProfileSet(const std::vector<std::string>& targets);

    /// Lay @p profile's values for this run's targets over the values so far.
    void AddProfile(const Profile& profile);
    /// Lay a choice of the run itself (a scenario option) over the profiles. It must be valid.
    void Set(const std::string& target, const std::string& attribute, const std::string& value);
    /**
     * Lay the user's overrides "target.Attribute=value;..." over everything else. Each item is
     * checked: its form (no empty item, target, attribute or value; "" is no override), its
     * target (one of this run's that the program uses), its attribute and value (the target's
     * TypeId and checker, ProfileCatalogue::CheckAttribute). Nothing is added when one is
     * wrong.
     * @param overrides the user's --set
     * @param used the targets the program's runs exercise (names, e.g. "link"); empty: all of
     * this run's. An object the run builds but never exercises (the Myrinet links of runs
     * within one host) is refused: its override would change nothing.
     * @return "" or "'item': what is wrong" (an unknown target lists the allowed ones)
     */
    std::string SetOverrides(const std::string& overrides,
                             const std::vector<std::string>& used = {});

    /// @return this run's target names, in the order given
    std::vector<std::string> GetTargets() const;
    /// @return the TypeId that @p target configures
    TypeId GetTypeId(const std::string& target) const;
    /// @return the value @p target.@p attribute will have, as text: the last one laid, else the
    /// attribute's initial value
    std::string Get(const std::string& target, const std::string& attribute) const;

    /**
     * @tparam V the attribute's value class (UintegerValue, DataRateValue, TimeValue, ...)
     * @return the value @p target.@p attribute will have
     */
    template <typename V>
    V GetValue(const std::string& target, const std::string& attribute) const
    {
        V value;
        bool ok = value.DeserializeFromString(Get(target, attribute), Checker(target, attribute));
        NS_ABORT_MSG_UNLESS(ok, target << "." << attribute << ": " << Get(target, attribute));
        return value;
    }

    /// Set on @p object (of @p target's TypeId) the profiles' values and the run's choices.
    void ApplyProfiles(const std::string& target, Ptr<Object> object) const;
    /// Set on @p object (of @p target's TypeId) the user's overrides.
    void ApplyOverrides(const std::string& target, Ptr<Object> object) const;
    /**
     * Set the user's overrides on every object of @p nodes that a target of this run reaches
     * (its row's Config path below a node, ProfileTarget::where) and that is of the target's
     * TypeId. Targets no node reaches are left to their helper. Setting them twice is harmless.
     * @return for each target, the number of objects it was applied to
     */
    std::vector<std::pair<std::string, uint32_t>> ApplyOverrides(const NodeContainer& nodes) const;
    /**
     * Set every value (profiles, choices, overrides, in that order) on every object of @p nodes
     * that a target of this run reaches, as ApplyOverrides(nodes) does: a target's values reach
     * its objects through the table alone, whether or not a helper set them when it built them.
     * @return for each target, the number of objects it was applied to
     */
    std::vector<std::pair<std::string, uint32_t>> Apply(const NodeContainer& nodes) const;
    /// Set on @p object (of @p target's TypeId) every value: profiles, choices, overrides.
    void Apply(const std::string& target, Ptr<Object> object) const;
    /// @return the profiles' values and the run's choices for @p target, as (attribute, value),
    /// in the order laid (for a helper that sets them on the objects it creates)
    std::vector<std::pair<std::string, std::string>> GetProfileValues(
        const std::string& target) const;
    /// @return the user's overrides of @p target, as (attribute, value), in the order given
    std::vector<std::pair<std::string, std::string>> GetOverrides(const std::string& target) const;

  private:
    /// Where a value comes from; values are applied in this order.
    enum class Layer
    {
        PROFILE, //!< a profile of the catalogue
        CHOICE,  //!< the run's own choice
        USER,    //!< the user's --set
    };

    /// One value laid over the ones before it.
    struct Entry
    {
        Layer layer;
        std::string target;
        std::string attribute;
        std::string value;
    };

    /// @return the index of @p target in m_targets (asserts it is one)
    std::size_t Find(const std::string& target) const;
    /// @return the checker of @p target.@p attribute (asserts it exists)
    Ptr<const AttributeChecker> Checker(const std::string& target,
                                        const std::string& attribute) const;
    /// @return the values of @p layers for @p target, layer by layer, in the order laid
    std::vector<std::pair<std::string, std::string>> Values(
        const std::string& target,
        std::initializer_list<Layer> layers) const;
    /// Apply the entries of @p layers to every object of @p nodes the targets' paths reach.
    std::vector<std::pair<std::string, uint32_t>> ApplyBelow(
        const NodeContainer& nodes,
        std::initializer_list<Layer> layers) const;
    /// Apply the entries of @p layers for @p target to @p object.
    void ApplyLayers(const std::string& target,
                     Ptr<Object> object,
                     std::initializer_list<Layer> layers) const;

    std::vector<std::pair<std::string, TypeId>> m_targets; //!< name -> TypeId
    std::vector<std::string> m_where; //!< each target's Config path below a node ("": none)
    std::vector<Entry> m_entries;                          //!< in the order laid
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_PROFILE_SET_H
