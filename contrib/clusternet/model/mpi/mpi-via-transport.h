// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_MPI_VIA_TRANSPORT_H
#define CLUSTERNET_MPI_VIA_TRANSPORT_H

#include "mpi-transport.h"

#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"

#include <deque>
#include <map>
#include <vector>

namespace ns3
{
namespace clusternet
{

class HostCpu;

/**
 * @ingroup clusternet
 * @brief VIA over Ethernet as M-VIA does it (MVICH, or raw VIA as vnettest uses it): no
 * TCP/IP; a send posts a descriptor and rings the doorbell (M-VIA emulates it with a fast
 * trap into its kernel agent: PostCycles on the host CPU), the kernel agent cuts the message
 * into Ethernet frames of its own EtherType, each with a FrameHeader, that the NIC's driver
 * sends from the registered user buffer; the receiving agent copies each frame's data out of
 * the driver's buffer into the registered receive buffer (host CPU CopyBandwidth), and the
 * process finds the completion when it polls (CompletionCycles). Messages are at most
 * MaxTransfer bytes (M-VIA 0.01: 32 KB).
 */
class MpiViaTransport : public MpiTransport
{
  public:
    static TypeId GetTypeId();
    MpiViaTransport();
    ~MpiViaTransport() override;

    /// EtherType of M-VIA frames
    static constexpr uint16_t ETHERTYPE = 0x6008;

    /**
     * Rank @p rank sends and receives through @p device (an Ethernet NetDevice on its node).
     * @param addresses MAC address of every rank's device, rank i at index i
     */
    void Setup(Ptr<NetDevice> device, uint32_t rank, const std::vector<Mac48Address>& addresses);
    /// The transports of every rank, rank i at index i.
    void SetPeers(const std::vector<Ptr<MpiTransport>>& peers) override;

    void Send(const MpiEnvelope& envelope,
              uint32_t envelopeBytes,
              std::function<void()> written) override;
    uint32_t GetMaxMessage() const override;

  protected:
    void DoDispose() override;

  private:
    struct Inbound
    {
        MpiEnvelope envelope;
        uint32_t remaining; //!< bytes of the message still to arrive
    };

    void Announce(uint32_t src, const MpiEnvelope& envelope, uint32_t bytes);
    void Receive(Ptr<NetDevice> device,
                 Ptr<const Packet> packet,
                 uint16_t protocol,
                 const Address& from,
                 const Address& to,
                 NetDevice::PacketType type);
    void RunCpu(Time cost, std::function<void()> done);

    Ptr<NetDevice> m_device;
    Ptr<HostCpu> m_cpu;
    uint32_t m_rank{0};
    std::vector<Mac48Address> m_addresses;
    std::vector<Ptr<MpiViaTransport>> m_peers;
    std::map<uint32_t, std::deque<Inbound>> m_inbound; //!< per sending rank, in order

    uint32_t m_maxTransfer;
    uint32_t m_frameHeader;
    double m_postCycles; //!< [reference cycles]
    double m_completionCycles; //!< [reference cycles]
    bool m_receiveCopy;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_MPI_VIA_TRANSPORT_H
