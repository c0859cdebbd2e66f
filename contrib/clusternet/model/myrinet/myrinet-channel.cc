// SPDX-License-Identifier: GPL-2.0-only
#include "myrinet-channel.h"

#include "myrinet-port.h"

#include "ns3/log.h"

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("MyrinetChannel");
NS_OBJECT_ENSURE_REGISTERED(MyrinetChannel);

TypeId
MyrinetChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::MyrinetChannel")
            .SetParent<Channel>()
            .SetGroupName("Clusternet")
            .AddConstructor<MyrinetChannel>()
            .AddAttribute("Delay",
                          "Propagation delay of the cable, each direction [Time] (about 5 ns per "
                          "metre; the 3 m M3S-CB-3M cable of seed 001 takes ~15 ns).",
                          TimeValue(NanoSeconds(15)),
                          MakeTimeAccessor(&MyrinetChannel::m_delay),
                          MakeTimeChecker(Seconds(0), MicroSeconds(100)))
            .AddAttribute("DataRate",
                          "Rate of each direction [bit/s]: 1.28 Gb/s (Myrinet, LANai 4/7) or "
                          "2 Gb/s (Myrinet-2000, LANai 9).",
                          DataRateValue(DataRate("2Gbps")),
                          MakeDataRateAccessor(&MyrinetChannel::m_rate),
                          MakeDataRateChecker());
    return tid;
}

MyrinetChannel::MyrinetChannel()
{
    NS_LOG_FUNCTION(this);
}

MyrinetChannel::~MyrinetChannel()
{
    NS_LOG_FUNCTION(this);
}

void
MyrinetChannel::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_dev[0] = nullptr;
    m_dev[1] = nullptr;
    m_nDevices = 0;
    Channel::DoDispose();
}

void
MyrinetChannel::Attach(Ptr<MyrinetPort> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ASSERT_MSG(m_nDevices < 2, "a Myrinet link joins exactly two ports");
    m_dev[m_nDevices++] = device;
}

Ptr<MyrinetPort>
MyrinetChannel::GetPeer(Ptr<const MyrinetPort> device) const
{
    if (m_nDevices < 2)
    {
        return nullptr;
    }
    return m_dev[0] == device ? m_dev[1] : m_dev[0];
}

std::size_t
MyrinetChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
MyrinetChannel::GetDevice(std::size_t i) const
{
    NS_ASSERT(i < m_nDevices);
    return m_dev[i];
}

Time
MyrinetChannel::GetDelay() const
{
    return m_delay;
}

DataRate
MyrinetChannel::GetDataRate() const
{
    return m_rate;
}

} // namespace clusternet
} // namespace ns3
