// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_ATTRIBUTE_RANGE_H
#define CLUSTERNET_ATTRIBUTE_RANGE_H

#include <cstdint>
#include <string>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief The values an integer attribute's checker accepts, read from the checker itself, so
 * that a command line or the Python API checks the same limit the model does (each limit is
 * written once, in the attribute's checker).
 */
struct UintegerRange
{
    uint64_t min{0}; //!< smallest accepted value
    uint64_t max{0}; //!< largest accepted value

    /**
     * The range of a UintegerValue attribute.
     * @param typeId the TypeId's name, e.g. "ns3::clusternet::GigeNetDevice"
     * @param attribute the attribute's name, e.g. "Mtu"
     * @return the checker's range (an unknown TypeId or attribute, or one that is not a
     * UintegerValue, is a program error and aborts)
     */
    static UintegerRange Of(const std::string& typeId, const std::string& attribute);

    /// @return true if @p v is in the range
    bool Contains(uint64_t v) const;
    /// @return the range as text, "1500..9000"
    std::string ToString() const;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_ATTRIBUTE_RANGE_H
