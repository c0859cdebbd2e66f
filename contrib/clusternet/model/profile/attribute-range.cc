// SPDX-License-Identifier: GPL-2.0-only
#include "attribute-range.h"

#include "ns3/abort.h"
#include "ns3/type-id.h"

#include <sstream>

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

} // namespace clusternet
} // namespace ns3
