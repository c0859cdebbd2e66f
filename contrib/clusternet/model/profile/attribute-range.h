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

/**
 * @ingroup clusternet
 * @brief Checks of the text of number-like attribute values, made before ns-3 reads it: ns-3
 * aborts on a double or a time it cannot read ("nan", "inf", "5xs"), asserts on a time beyond
 * its int64 steps (Time::Max() at the resolution in use: about 292 years in nanoseconds), and
 * casts a rate beyond 2^64 bit/s or a fraction of a bit/s silently. Each rule is written here
 * once; ProfileCatalogue::CheckAttribute applies them to every attribute value (--set and the
 * profile files) and MpiProgram to the times of its trace files.
 */
struct ValueText
{
    /**
     * @param text the text of a DoubleValue
     * @return "" when ns-3 reads @p text as a finite number, else what is allowed
     */
    static std::string CheckDouble(const std::string& text);
    /**
     * @param text the text of a TimeValue: a number and an ns-3 unit (s, ms, us, ns, ps, fs,
     * min, h, d, y), or a number of seconds
     * @return "" when ns-3 reads @p text as a time within Time::Min()..Time::Max(), else what
     * is allowed
     */
    static std::string CheckTime(const std::string& text);
    /**
     * @param text the text of a DataRateValue: a number and an ns-3 unit (bps, kbps, Mbps,
     * Gbps, Bps, KiBps, ...), or a number of bit/s
     * @param zeroAllowed true if 0 is one of the attribute's settings (documented as such:
     * "0 = the link rate"); a rate of 0 otherwise divides by zero or never ends a transfer
     * @return "" when ns-3 reads @p text as a rate of 1..2^64-1 bit/s (or 0 when allowed),
     * else what is allowed
     */
    static std::string CheckDataRate(const std::string& text, bool zeroAllowed);
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_ATTRIBUTE_RANGE_H
