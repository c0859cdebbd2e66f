// SPDX-License-Identifier: GPL-2.0-only
#include "myrinet-topology.h"

namespace ns3
{
namespace clusternet
{

NS_OBJECT_ENSURE_REGISTERED(MyrinetTopology);

TypeId
MyrinetTopology::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::MyrinetTopology").SetParent<Object>().SetGroupName("Clusternet");
    return tid;
}

MyrinetTopology::~MyrinetTopology() = default;

} // namespace clusternet
} // namespace ns3
