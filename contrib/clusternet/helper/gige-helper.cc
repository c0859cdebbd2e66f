// SPDX-License-Identifier: GPL-2.0-only
#include "gige-helper.h"

#include "ns3/ethernet-driver.h"
#include "ns3/gige-channel.h"
#include "ns3/gige-net-device.h"
#include "ns3/host-cpu.h"
#include "ns3/interrupt-coalescer.h"
#include "ns3/loopback-driver.h"
#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/profile-catalogue.h"
#include "ns3/queue-size.h"
#include "ns3/string.h"

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("GigeHelper");

GigeHelper::GigeHelper()
{
    m_deviceFactory.SetTypeId(GigeNetDevice::GetTypeId());
    m_channelFactory.SetTypeId(GigeChannel::GetTypeId());
    m_driverFactory.SetTypeId(EthernetDriver::GetTypeId());
    m_coalescerFactory.SetTypeId(InterruptCoalescer::GetTypeId());
    m_txCoalescerFactory.SetTypeId(InterruptCoalescer::GetTypeId());
    m_queueFactory.SetTypeId("ns3::DropTailQueue<Packet>");
    m_queueFactory.Set("MaxSize", QueueSizeValue(QueueSize("1000p")));
}

void
GigeHelper::SetDeviceAttribute(std::string name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
GigeHelper::SetChannelAttribute(std::string name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

void
GigeHelper::SetDriverAttribute(std::string name, const AttributeValue& value)
{
    m_driverFactory.Set(name, value);
}

void
GigeHelper::SetDriverType(TypeId type)
{
    m_driverFactory.SetTypeId(type);
}

void
GigeHelper::SetCoalescerAttribute(std::string name, const AttributeValue& value)
{
    m_coalescerFactory.Set(name, value);
}

void
GigeHelper::SetTxCoalescerAttribute(std::string name, const AttributeValue& value)
{
    m_txInterrupts = true;
    m_txCoalescerFactory.Set(name, value);
}

void
GigeHelper::SetQueue(std::string type, const std::string& n1, const AttributeValue& v1)
{
    m_queueFactory.SetTypeId(type);
    m_queueFactory.Set(n1, v1);
}

bool
GigeHelper::SetNicProfile(const std::string& name)
{
    const Profile* p = ProfileCatalogue::Find("nic", name);
    if (!p)
    {
        return false;
    }
    for (const auto& v : p->values)
    {
        if (v.target == "device")
        {
            m_deviceFactory.Set(v.attribute, StringValue(v.value));
        }
        else if (v.target == "driver")
        {
            m_driverFactory.Set(v.attribute, StringValue(v.value));
        }
        else if (v.target == "loopback")
        {
            m_driverFactory.SetTypeId(LoopbackDriver::GetTypeId());
            m_driverFactory.Set(v.attribute, StringValue(v.value));
        }
        else if (v.target == "coalescer")
        {
            m_coalescerFactory.Set(v.attribute, StringValue(v.value));
        }
        else if (v.target == "txcoalescer")
        {
            SetTxCoalescerAttribute(v.attribute, StringValue(v.value));
        }
    }
    return true;
}

Ptr<GigeNetDevice>
GigeHelper::CreateDevice(Ptr<Node> node)
{
    Ptr<GigeNetDevice> dev = m_deviceFactory.Create<GigeNetDevice>();
    dev->SetAddress(Mac48Address::Allocate());
    if (node->GetObject<HostCpu>())
    {
        // A host's NIC has a driver; a device on a node without a host CPU has none.
        dev->SetAttribute("Driver", PointerValue(m_driverFactory.Create<EthernetDriver>()));
    }
    dev->SetAttribute("RxCoalescer", PointerValue(m_coalescerFactory.Create<InterruptCoalescer>()));
    if (m_txInterrupts)
    {
        dev->SetAttribute("TxCoalescer",
                          PointerValue(m_txCoalescerFactory.Create<InterruptCoalescer>()));
    }
    Ptr<Queue<Packet>> queue = m_queueFactory.Create<Queue<Packet>>();
    dev->SetQueue(queue);
    node->AddDevice(dev);
    // Flow control towards the traffic-control layer, as PointToPointHelper does.
    Ptr<NetDeviceQueueInterface> ndqi = CreateObject<NetDeviceQueueInterface>();
    ndqi->GetTxQueue(0)->ConnectQueueTraces(queue);
    dev->AggregateObject(ndqi);
    return dev;
}

NetDeviceContainer
GigeHelper::Install(Ptr<Node> a, Ptr<Node> b)
{
    NetDeviceContainer c;
    Ptr<GigeNetDevice> da = CreateDevice(a);
    Ptr<GigeNetDevice> db = CreateDevice(b);
    Ptr<GigeChannel> ch = m_channelFactory.Create<GigeChannel>();
    da->Attach(ch);
    db->Attach(ch);
    c.Add(da);
    c.Add(db);
    return c;
}

NetDeviceContainer
GigeHelper::Install(NodeContainer c)
{
    NS_ASSERT_MSG(c.GetN() == 2, "GigeHelper::Install(NodeContainer) needs exactly two nodes");
    return Install(c.Get(0), c.Get(1));
}

void
GigeHelper::EnablePcapInternal(std::string prefix,
                               Ptr<NetDevice> nd,
                               bool promiscuous,
                               bool explicitFilename)
{
    Ptr<GigeNetDevice> device = nd->GetObject<GigeNetDevice>();
    if (!device)
    {
        NS_LOG_INFO("GigeHelper::EnablePcapInternal(): device " << nd << " is not a GigeNetDevice");
        return;
    }
    PcapHelper pcapHelper;
    std::string filename = explicitFilename ? prefix : pcapHelper.GetFilenameFromDevice(prefix, device);
    Ptr<PcapFileWrapper> file = pcapHelper.CreateFile(filename, std::ios::out, PcapHelper::DLT_EN10MB);
    pcapHelper.HookDefaultSink<GigeNetDevice>(device, promiscuous ? "PromiscSniffer" : "Sniffer", file);
}

} // namespace clusternet
} // namespace ns3
