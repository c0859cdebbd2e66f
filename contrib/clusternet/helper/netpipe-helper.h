// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_NETPIPE_HELPER_H
#define CLUSTERNET_NETPIPE_HELPER_H

#include "ns3/ipv4-address.h"
#include "ns3/netpipe-application.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"

#include <string>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief Installs NetPIPE's pair of applications (NetpipeApplication) on two nodes with an
 * IPv4 stack and HostStack: the receiver listening from 0 s, the transmitter connecting to it
 * at 1 ms and then measuring every block size.
 */
class NetpipeHelper
{
  public:
    NetpipeHelper();

    /// Set an attribute of both applications (e.g. SocketBuffer; MaxBlock is the
    /// transmitter's: the receiver is told each block's size)
    void SetAttribute(std::string name, const AttributeValue& value);

    /**
     * Install the receiver on @p receiver and the transmitter on @p transmitter, which connects
     * to @p address (the receiver's) at the receiver's port.
     * @return the transmitter: its samples, and SetDoneCallback for the end of the run
     */
    Ptr<NetpipeApplication> Install(Ptr<Node> transmitter,
                                    Ptr<Node> receiver,
                                    Ipv4Address address) const;

  private:
    ObjectFactory m_factory; //!< both applications' attributes
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_NETPIPE_HELPER_H
