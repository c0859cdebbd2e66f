// SPDX-License-Identifier: GPL-2.0-only
#include "mpi-via-transport.h"

#include "ns3/host-cpu.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("MpiViaTransport");
NS_OBJECT_ENSURE_REGISTERED(MpiViaTransport);

TypeId
MpiViaTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::MpiViaTransport")
            .SetParent<MpiTransport>()
            .SetGroupName("Clusternet")
            .AddConstructor<MpiViaTransport>()
            .AddAttribute("MaxTransfer",
                          "Largest message a descriptor can carry [bytes] (M-VIA 0.01: 32 KB).",
                          UintegerValue(32768),
                          MakeUintegerAccessor(&MpiViaTransport::m_maxTransfer),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("FrameHeader",
                          "M-VIA header in every Ethernet frame [bytes].",
                          UintegerValue(16),
                          MakeUintegerAccessor(&MpiViaTransport::m_frameHeader),
                          MakeUintegerChecker<uint32_t>(0, 1024))
            .AddAttribute("PostCycles",
                          "Host CPU work to post a send descriptor and ring the doorbell (a "
                          "fast trap into the kernel agent) [reference cycles; see "
                          "HostCpu::CoreFactor].",
                          DoubleValue(1350),
                          MakeDoubleAccessor(&MpiViaTransport::m_postCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddAttribute("CompletionCycles",
                          "Host CPU work to reap a receive completion [reference cycles; see "
                          "HostCpu::CoreFactor].",
                          DoubleValue(450),
                          MakeDoubleAccessor(&MpiViaTransport::m_completionCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddAttribute("ReceiveCopy",
                          "The kernel agent copies each frame's data from the driver's buffer "
                          "into the registered receive buffer (host CPU CopyBandwidth).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MpiViaTransport::m_receiveCopy),
                          MakeBooleanChecker());
    return tid;
}

MpiViaTransport::MpiViaTransport()
{
}

MpiViaTransport::~MpiViaTransport()
{
}

void
MpiViaTransport::DoDispose()
{
    m_device = nullptr;
    m_cpu = nullptr;
    m_peers.clear();
    m_inbound.clear();
    MpiTransport::DoDispose();
}

uint32_t
MpiViaTransport::GetMaxMessage() const
{
    return m_maxTransfer;
}

void
MpiViaTransport::Setup(Ptr<NetDevice> device,
                       uint32_t rank,
                       const std::vector<Mac48Address>& addresses)
{
    m_device = device;
    m_rank = rank;
    m_addresses = addresses;
    Ptr<Node> node = device->GetNode();
    m_cpu = node->GetObject<HostCpu>();
    node->RegisterProtocolHandler(MakeCallback(&MpiViaTransport::Receive, this),
                                  ETHERTYPE,
                                  device);
}

void
MpiViaTransport::SetPeers(const std::vector<Ptr<MpiTransport>>& peers)
{
    m_peers = PeersAs<MpiViaTransport>(peers);
}

void
MpiViaTransport::RunCpu(Time cost, std::function<void()> done)
{
    if (m_cpu)
    {
        m_cpu->Execute(cost, HostCpu::USER, Callback<void>(done));
    }
    else
    {
        Simulator::ScheduleNow(done);
    }
}

void
MpiViaTransport::Announce(uint32_t src, const MpiEnvelope& envelope, uint32_t bytes)
{
    m_inbound[src].push_back({envelope, bytes});
}

void
MpiViaTransport::Send(const MpiEnvelope& env, uint32_t envelopeBytes, std::function<void()> written)
{
    NS_LOG_FUNCTION(this << env);
    uint32_t bytes = envelopeBytes + env.payload;
    NS_ABORT_MSG_IF(bytes > m_maxTransfer,
                    "MpiViaTransport: a " << bytes << "-byte message exceeds VIA's "
                                          << m_maxTransfer << "-byte maximum transfer");
    RunCpu(HostCpu::CyclesToTime(m_cpu, m_postCycles), [this, env, bytes, written]() {
        m_peers.at(env.dst)->Announce(m_rank, env, bytes);
        uint32_t perFrame = m_device->GetMtu() - m_frameHeader;
        uint32_t left = bytes;
        do
        {
            uint32_t chunk = std::min(left, perFrame);
            bool queued = m_device->Send(Create<Packet>(chunk + m_frameHeader),
                                         m_addresses.at(env.dst),
                                         ETHERTYPE);
            NS_ABORT_MSG_UNLESS(queued, "MpiViaTransport: the driver refused a frame");
            left -= chunk;
        } while (left > 0);
        if (written)
        {
            written();
        }
    });
}

void
MpiViaTransport::Receive(Ptr<NetDevice>,
                         Ptr<const Packet> packet,
                         uint16_t,
                         const Address& from,
                         const Address&,
                         NetDevice::PacketType)
{
    Mac48Address mac = Mac48Address::ConvertFrom(from);
    uint32_t src = 0;
    while (src < m_addresses.size() && m_addresses[src] != mac)
    {
        ++src;
    }
    NS_ASSERT_MSG(src < m_addresses.size(), "MpiViaTransport: a frame from a non-rank");
    std::deque<Inbound>& in = m_inbound[src];
    NS_ASSERT_MSG(!in.empty(), "MpiViaTransport: a frame nobody announced");
    uint32_t data = packet->GetSize() - std::min(packet->GetSize(), m_frameHeader);
    // Minimum-size frames are padded: count at most what the message still has.
    data = std::min(data, in.front().remaining);
    in.front().remaining -= data;
    Time cost = m_receiveCopy && m_cpu ? m_cpu->CopyCost(data) : Seconds(0);
    if (in.front().remaining == 0)
    {
        MpiEnvelope env = in.front().envelope;
        in.pop_front();
        RunCpu(cost + HostCpu::CyclesToTime(m_cpu, m_completionCycles),
               [this, env]() { Deliver(env); });
        return;
    }
    if (cost.IsStrictlyPositive())
    {
        RunCpu(cost, []() {});
    }
}

} // namespace clusternet
} // namespace ns3
