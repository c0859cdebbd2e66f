// SPDX-License-Identifier: GPL-2.0-only
#include "attribute-range.h"

#include "ns3/abort.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

namespace ns3
{
namespace clusternet
{

UintegerRange
UintegerRange::Of(const std::string& typeId, const std::string& attribute)
{
    TypeId tid;
    NS_ABORT_MSG_UNLESS(TypeId::LookupByNameFailSafe(typeId, &tid), "no TypeId " << typeId);
    TypeId::AttributeInformation info;
    NS_ABORT_MSG_UNLESS(tid.LookupAttributeByName(attribute, &info),
                        typeId << " has no attribute " << attribute);
    NS_ABORT_MSG_UNLESS(info.checker->GetValueTypeName() == "ns3::UintegerValue",
                        typeId << "::" << attribute << " is not a UintegerValue");
    // A UintegerChecker describes itself as "<type> <min>:<max>", e.g. "uint16_t 1500:9000".
    std::istringstream text(info.checker->GetUnderlyingTypeInformation());
    std::string type;
    char colon = 0;
    UintegerRange r;
    text >> type >> r.min >> colon >> r.max;
    NS_ABORT_MSG_UNLESS(text && colon == ':',
                        "cannot read the range of " << typeId << "::" << attribute << " from '"
                                                    << info.checker->GetUnderlyingTypeInformation()
                                                    << "'");
    return r;
}

bool
UintegerRange::Contains(uint64_t v) const
{
    return v >= min && v <= max;
}

std::string
UintegerRange::ToString() const
{
    return std::to_string(min) + ".." + std::to_string(max);
}

namespace
{

/// 2^63 and 2^64 as doubles: the first magnitude an int64 (a uint64) cannot hold.
const double kTwo63 = std::ldexp(1.0, 63);
const double kTwo64 = std::ldexp(1.0, 64);

/// @return true if @p text has a blank: ns-3 reads one word and aborts on the rest
bool
HasBlank(const std::string& text)
{
    return text.find_first_of(" \t\n\r\f\v") != std::string::npos;
}

/// Read all of @p text as a double the way ns-3 does (an istream); false if it is not one.
bool
ReadDouble(const std::string& text, double& v)
{
    std::istringstream iss(text);
    iss >> v;
    return !text.empty() && !HasBlank(text) && !iss.fail() && iss.eof();
}

} // namespace

std::string
ValueText::CheckDouble(const std::string& text)
{
    double v = 0;
    return ReadDouble(text, v) && std::isfinite(v) ? "" : "a finite number, e.g. 1.5";
}

std::string
ValueText::CheckTime(const std::string& text)
{
    // ns-3's Time(std::string): the number is what precedes the first other character.
    static const std::vector<std::pair<std::string, double>> units = {
        {"", 1},       {"s", 1},      {"ms", 1e-3},   {"us", 1e-6},  {"ns", 1e-9},
        {"ps", 1e-12}, {"fs", 1e-15}, {"min", 60},    {"h", 3600},   {"d", 86400},
        {"y", 365 * 86400.0}};
    const double stepsPerSecond = Time::FromInteger(1, Time::S).GetTimeStep();
    const std::string max = std::to_string(static_cast<int64_t>(kTwo63 / stepsPerSecond)) + "s";
    std::size_t n = text.find_first_not_of("+-0123456789.eE");
    std::string number = text.substr(0, n);
    std::string unit = n == std::string::npos ? "" : text.substr(n);
    auto u = std::find_if(units.begin(), units.end(), [&](const auto& e) {
        return e.first == unit;
    });
    double v = 0;
    if (u == units.end() || !ReadDouble(number, v) || std::isnan(v))
    {
        return "a time: a number and a unit s, ms, us, ns, ps, fs, min, h, d or y, e.g. 10us";
    }
    // Time::FromDouble holds the number, then its steps, in 64 bits, and asserts beyond.
    if (!(std::abs(v) < kTwo63) || !(std::abs(v) * u->second * stepsPerSecond < kTwo63))
    {
        return "a time within -" + max + ".." + max +
               ": ns-3 counts time in 64-bit steps of its resolution";
    }
    return "";
}

std::string
ValueText::CheckDataRate(const std::string& text, bool zeroAllowed)
{
    // ns-3's DataRate: the number is what precedes the first other character, the unit the
    // rest; the rate is the number times the unit in bit/s, cut to a whole number (uint64).
    std::size_t n = text.find_first_not_of("0123456789.");
    std::string number = text.substr(0, n);
    std::string unit = n == std::string::npos ? "" : text.substr(n);
    const std::string allowed = zeroAllowed ? "a rate of 0 bit/s or more, e.g. 1Gbps"
                                            : "a rate above 0 bit/s, e.g. 1Gbps";
    double v = 0;
    DataRate perUnit(1);
    if (!ReadDouble(number, v) || HasBlank(unit) ||
        (!unit.empty() && !(std::istringstream("1" + unit) >> perUnit)))
    {
        return allowed;
    }
    double bps = std::floor(v * static_cast<double>(perUnit.GetBitRate()));
    if (!(bps < kTwo64))
    {
        return "a rate below 2^64 bit/s, e.g. 1Gbps";
    }
    if (bps < 1 && !zeroAllowed)
    {
        return allowed;
    }
    return "";
}

} // namespace clusternet
} // namespace ns3
