// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_GIGE_HELPER_H
#define CLUSTERNET_GIGE_HELPER_H

#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/trace-helper.h"

#include <string>

namespace ns3
{
namespace clusternet
{

class GigeNetDevice;

/**
 * @ingroup clusternet
 * @brief Builds full-duplex Gigabit Ethernet links of GigeNetDevices, in the manner of
 * PointToPointHelper; PCAP through PcapHelperForDevice (DLT_EN10MB, PAUSE frames included).
 */
class GigeHelper : public PcapHelperForDevice
{
  public:
    GigeHelper();
    ~GigeHelper() override = default;

    /// Set an attribute on every device created.
    void SetDeviceAttribute(std::string name, const AttributeValue& value);
    /// Set an attribute on every channel created.
    void SetChannelAttribute(std::string name, const AttributeValue& value);
    /// Set an attribute on the driver of every device on a host.
    void SetDriverAttribute(std::string name, const AttributeValue& value);
    /// Set the driver type (an EthernetDriver) of every device on a host.
    void SetDriverType(TypeId type);
    /// Set an attribute on every device's receive interrupt coalescer.
    void SetCoalescerAttribute(std::string name, const AttributeValue& value);
    /// Give every device transmit-completion interrupts, with this coalescer attribute.
    void SetTxCoalescerAttribute(std::string name, const AttributeValue& value);
    /// Set the queue type and attributes of every device's transmit queue.
    void SetQueue(std::string type, const std::string& n1, const AttributeValue& v1);
    /**
     * Apply a NIC profile ("sknet", "acenic", "gnic2") to the devices created from now on.
     * @return false if there is no such profile
     */
    bool SetNicProfile(const std::string& name);

    /// Link two nodes back to back.
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b);
    /// Link the two nodes of @p c back to back.
    NetDeviceContainer Install(NodeContainer c);
    /// @return one device on @p node (not attached to a channel)
    Ptr<GigeNetDevice> CreateDevice(Ptr<Node> node);

  private:
    void EnablePcapInternal(std::string prefix,
                            Ptr<NetDevice> nd,
                            bool promiscuous,
                            bool explicitFilename) override;

    ObjectFactory m_deviceFactory;
    ObjectFactory m_channelFactory;
    ObjectFactory m_queueFactory;
    ObjectFactory m_driverFactory;
    ObjectFactory m_coalescerFactory;
    ObjectFactory m_txCoalescerFactory; //!< transmit-completion coalescers
    bool m_txInterrupts{false};         //!< devices take transmit-completion interrupts
    std::string m_overrides;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_GIGE_HELPER_H
