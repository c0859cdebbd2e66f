// SPDX-License-Identifier: GPL-2.0-only
#include "gige-channel.h"

#include "gige-net-device.h"
#include "ns3/member-event.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("GigeChannel");
NS_OBJECT_ENSURE_REGISTERED(GigeChannel);

TypeId
GigeChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::GigeChannel")
            .SetParent<Channel>()
            .SetGroupName("Clusternet")
            .AddConstructor<GigeChannel>()
            .AddAttribute("Delay",
                          "Propagation delay of the cable [Time]; 25 ns is about 5 m.",
                          TimeValue(NanoSeconds(25)),
                          MakeTimeAccessor(&GigeChannel::m_delay),
                          MakeTimeChecker(Seconds(0)));
    return tid;
}

GigeChannel::GigeChannel()
{
    NS_LOG_FUNCTION(this);
}

GigeChannel::~GigeChannel()
{
    NS_LOG_FUNCTION(this);
}

void
GigeChannel::DoDispose()
{
    m_dev[0] = nullptr;
    m_dev[1] = nullptr;
    Channel::DoDispose();
}

void
GigeChannel::Attach(Ptr<GigeNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ASSERT_MSG(m_nDevices < 2, "a GigeChannel links exactly two devices");
    m_dev[m_nDevices++] = device;
}

void
GigeChannel::TransmitStart(Ptr<const Packet> p, Ptr<GigeNetDevice> src, Time txTime)
{
    NS_LOG_FUNCTION(this << p << src << txTime);
    NS_ASSERT_MSG(m_nDevices == 2, "GigeChannel needs both ends attached before use");
    Ptr<GigeNetDevice> dst = (src == m_dev[0]) ? m_dev[1] : m_dev[0];
    ScheduleMemberWithContext(dst->GetNode()->GetId(),
                              txTime + m_delay,
                              &GigeNetDevice::Receive,
                              PeekPointer(dst),
                              p->Copy());
}

std::size_t
GigeChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
GigeChannel::GetDevice(std::size_t i) const
{
    NS_ASSERT(i < m_nDevices);
    return m_dev[i];
}

Time
GigeChannel::GetDelay() const
{
    return m_delay;
}

} // namespace clusternet
} // namespace ns3
