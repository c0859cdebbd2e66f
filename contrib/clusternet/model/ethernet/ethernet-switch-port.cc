// SPDX-License-Identifier: GPL-2.0-only
#include "ethernet-switch-port.h"

namespace ns3
{
namespace clusternet
{

NS_OBJECT_ENSURE_REGISTERED(EthernetSwitchPort);

TypeId
EthernetSwitchPort::GetTypeId()
{
    static TypeId tid = TypeId("ns3::clusternet::EthernetSwitchPort")
                            .SetParent<EthernetDeviceBase>()
                            .SetGroupName("Clusternet");
    return tid;
}

EthernetSwitchPort::~EthernetSwitchPort() = default;

} // namespace clusternet
} // namespace ns3
