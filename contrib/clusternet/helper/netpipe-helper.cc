// SPDX-License-Identifier: GPL-2.0-only
#include "netpipe-helper.h"

#include "ns3/inet-socket-address.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace clusternet
{

NetpipeHelper::NetpipeHelper()
{
    m_factory.SetTypeId(NetpipeApplication::GetTypeId());
}

void
NetpipeHelper::SetAttribute(std::string name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

Ptr<NetpipeApplication>
NetpipeHelper::Install(Ptr<Node> transmitter, Ptr<Node> receiver, Ipv4Address address) const
{
    Ptr<NetpipeApplication> rx = m_factory.Create<NetpipeApplication>();
    rx->SetAttribute("Role", StringValue("Receiver"));
    receiver->AddApplication(rx);
    UintegerValue port;
    rx->GetAttribute("Port", port);
    Ptr<NetpipeApplication> tx = m_factory.Create<NetpipeApplication>();
    tx->SetAttribute("Role", StringValue("Transmitter"));
    tx->SetAttribute("Remote",
                     AddressValue(InetSocketAddress(address, static_cast<uint16_t>(port.Get()))));
    tx->SetPeerApplication(rx);
    transmitter->AddApplication(tx);
    rx->SetStartTime(Seconds(0));
    tx->SetStartTime(MilliSeconds(1));
    return tx;
}

} // namespace clusternet
} // namespace ns3
