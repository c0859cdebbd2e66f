// SPDX-License-Identifier: GPL-2.0-only
#include "myrinet-port.h"

namespace ns3
{
namespace clusternet
{

NS_OBJECT_ENSURE_REGISTERED(MyrinetPort);

TypeId
MyrinetPort::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::MyrinetPort").SetParent<NetDevice>().SetGroupName("Clusternet");
    return tid;
}

MyrinetPort::~MyrinetPort() = default;

} // namespace clusternet
} // namespace ns3
