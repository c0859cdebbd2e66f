// SPDX-License-Identifier: GPL-2.0-only
#include "loopback-driver.h"

#include "ns3/host-cpu.h"
#include "ns3/pci-bus.h"

#include "ns3/log.h"

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("LoopbackDriver");
NS_OBJECT_ENSURE_REGISTERED(LoopbackDriver);

TypeId
LoopbackDriver::GetTypeId()
{
    static TypeId tid = TypeId("ns3::clusternet::LoopbackDriver")
                            .SetParent<EthernetDriver>()
                            .SetGroupName("Clusternet")
                            .AddConstructor<LoopbackDriver>();
    return tid;
}

LoopbackDriver::LoopbackDriver()
{
    NS_LOG_FUNCTION(this);
}

LoopbackDriver::~LoopbackDriver()
{
    NS_LOG_FUNCTION(this);
}

Ptr<PciBus>
LoopbackDriver::GetBus() const
{
    return nullptr;
}

Time
LoopbackDriver::TxCost(Ptr<const Packet> frame) const
{
    return EthernetDriver::TxCost(frame) + GetCpu()->CopyCost(frame->GetSize());
}

Time
LoopbackDriver::InterruptEntryCost() const
{
    return Seconds(0);
}

} // namespace clusternet
} // namespace ns3
