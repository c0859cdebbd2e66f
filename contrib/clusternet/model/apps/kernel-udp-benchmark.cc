// SPDX-License-Identifier: GPL-2.0-only
#include "kernel-udp-benchmark.h"

#include "ns3/ethernet-frame.h"

#include "ns3/inet-socket-address.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("KernelUdpBenchmark");
NS_OBJECT_ENSURE_REGISTERED(KernelUdpBenchmark);

TypeId
KernelUdpBenchmark::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::KernelUdpBenchmark")
            .SetParent<Application>()
            .SetGroupName("Clusternet")
            .AddConstructor<KernelUdpBenchmark>()
            .AddAttribute("Port",
                          "UDP port of both ends [port number].",
                          UintegerValue(7000),
                          MakeUintegerAccessor(&KernelUdpBenchmark::m_port),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("Window",
                          "Stream: frames at most between the benchmark and the wire, as a "
                          "sender that fills the transmit ring and waits for room [frames].",
                          UintegerValue(256),
                          MakeUintegerAccessor(&KernelUdpBenchmark::m_window),
                          MakeUintegerChecker<uint32_t>(1, 65536))
            .AddAttribute("StallTimeout",
                          "Stream: the receiver reports what arrived when nothing more comes "
                          "for this long (datagrams were lost) [Time].",
                          TimeValue(MilliSeconds(50)),
                          MakeTimeAccessor(&KernelUdpBenchmark::m_stallTimeout),
                          MakeTimeChecker(MicroSeconds(1)))
            .AddTraceSource("Rx",
                            "A datagram arrived: its size [bytes].",
                            MakeTraceSourceAccessor(&KernelUdpBenchmark::m_rxTrace),
                            "ns3::TracedValueCallback::Uint32");
    return tid;
}

KernelUdpBenchmark::KernelUdpBenchmark()
{
    NS_LOG_FUNCTION(this);
}

KernelUdpBenchmark::~KernelUdpBenchmark()
{
    NS_LOG_FUNCTION(this);
}

void
KernelUdpBenchmark::DoDispose()
{
    m_stall.Cancel();
    m_socket = nullptr;
    m_peer = nullptr;
    m_pingDone = nullptr;
    m_streamDone = nullptr;
    m_rxDone = nullptr;
    Application::DoDispose();
}

void
KernelUdpBenchmark::SetPeer(Ipv4Address address, Ptr<KernelUdpBenchmark> peer)
{
    m_peerAddress = address;
    m_peer = peer;
}

uint32_t
KernelUdpBenchmark::FramesPerDatagram(uint32_t bytes, uint32_t mtu)
{
    // IP fragments carry multiples of 8 bytes of the UDP datagram (8-byte header + data)
    // after a 20-byte IP header.
    uint32_t perFragment = (mtu - 20) / 8 * 8;
    uint32_t datagram = bytes + 8;
    return std::max<uint32_t>(1, (datagram + perFragment - 1) / perFragment);
}

void
KernelUdpBenchmark::StartApplication()
{
    NS_LOG_FUNCTION(this);
    m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    m_socket->SetAttribute("RcvBufSize", UintegerValue(1 << 30));
    NS_ABORT_MSG_IF(m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) != 0,
                    "KernelUdpBenchmark: cannot bind port " << m_port);
    m_socket->SetRecvCallback(MakeCallback(&KernelUdpBenchmark::Receive, this));
    // Every device that reports frames leaving its PHY (a NIC; not the loopback).
    for (uint32_t i = 0; i < GetNode()->GetNDevices(); ++i)
    {
        GetNode()->GetDevice(i)->TraceConnectWithoutContext(
            "PhyTxEnd",
            MakeCallback(&KernelUdpBenchmark::FrameSent, this));
    }
}

void
KernelUdpBenchmark::StopApplication()
{
    if (m_socket)
    {
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_socket->Close();
    }
}

void
KernelUdpBenchmark::SendDatagram(uint32_t bytes)
{
    int sent = m_socket->SendTo(Create<Packet>(bytes), 0, InetSocketAddress(m_peerAddress, m_port));
    NS_ABORT_MSG_IF(sent < 0, "KernelUdpBenchmark: the stack refused a datagram of " << bytes);
}

void
KernelUdpBenchmark::PingPong(uint32_t bytes, uint32_t reps, std::function<void(Time)> done)
{
    NS_LOG_FUNCTION(this << bytes << reps);
    NS_ASSERT_MSG(m_peer && reps > 0, "KernelUdpBenchmark: no peer or no repetitions");
    m_mode = PING;
    m_peer->m_mode = PING;
    m_bytes = bytes;
    m_reps = reps;
    m_left = reps;
    m_pingDone = done;
    m_start = Simulator::Now();
    SendDatagram(bytes);
}

void
KernelUdpBenchmark::Stream(uint32_t bytes, uint32_t count, std::function<void(double)> done)
{
    NS_LOG_FUNCTION(this << bytes << count);
    NS_ASSERT_MSG(m_peer && count > 0, "KernelUdpBenchmark: no peer or no datagrams");
    m_mode = STREAM;
    m_bytes = bytes;
    m_left = count;
    m_inFlight = 0;
    m_streamDone = done;
    Ptr<Ipv4> ipv4 = GetNode()->GetObject<Ipv4>();
    uint32_t mtu = 1500;
    if (ipv4)
    {
        // The first non-loopback interface: the benchmark's two nodes share one link.
        mtu = ipv4->GetMtu(ipv4->GetNInterfaces() > 1 ? 1 : 0);
    }
    m_frames = FramesPerDatagram(bytes, mtu);
    NS_ABORT_MSG_IF(m_frames > m_window,
                    "KernelUdpBenchmark: a datagram of " << bytes << " bytes needs " << m_frames
                                                         << " frames, more than the window");
    Ptr<KernelUdpBenchmark> peer = m_peer;
    peer->m_mode = STREAM;
    peer->m_rxBytes = 0;
    peer->m_rxCount = 0;
    peer->m_rxExpected = count;
    Time start = Simulator::Now();
    m_start = start;
    peer->m_rxDone = [this, start](uint64_t rxBytes, Time last) {
        double seconds = (last - start).GetSeconds();
        double bps = seconds > 0 ? rxBytes * 8.0 / seconds : 0.0;
        m_mode = IDLE;
        if (m_streamDone)
        {
            m_streamDone(bps);
        }
    };
    // Arm the receiver's stall timer in the receiver's own event context.
    Time timeout = m_stallTimeout;
    Simulator::ScheduleWithContext(peer->GetNode()->GetId(), Seconds(0), [peer, timeout]() {
        if (peer->m_mode == STREAM && peer->m_rxCount == 0)
        {
            peer->m_stall =
                Simulator::Schedule(timeout, &KernelUdpBenchmark::StreamStalled, peer);
        }
    });
    Pump();
}

void
KernelUdpBenchmark::Pump()
{
    while (m_mode == STREAM && m_left > 0 && m_inFlight + m_frames <= m_window)
    {
        --m_left;
        m_inFlight += m_frames;
        SendDatagram(m_bytes);
    }
}

void
KernelUdpBenchmark::FrameSent(Ptr<const Packet> frame)
{
    if (m_mode != STREAM || m_inFlight == 0 || !IsUdpFrame(frame))
    {
        return;
    }
    --m_inFlight;
    Pump();
}

void
KernelUdpBenchmark::StreamStalled()
{
    NS_LOG_FUNCTION(this << m_rxCount << m_rxExpected);
    if (m_mode != STREAM)
    {
        return;
    }
    m_mode = IDLE;
    auto done = m_rxDone;
    m_rxDone = nullptr;
    if (done)
    {
        done(m_rxBytes, m_rxCount ? m_rxLast : Simulator::Now());
    }
}

void
KernelUdpBenchmark::Receive(Ptr<Socket> socket)
{
    Ptr<Packet> p;
    Address from;
    while ((p = socket->RecvFrom(from)))
    {
        uint32_t size = p->GetSize();
        m_rxTrace(size);
        if (m_mode == PING)
        {
            if (m_pingDone)
            {
                // The measuring side: one round trip done.
                if (--m_left == 0)
                {
                    Time oneWay = (Simulator::Now() - m_start) / (2 * m_reps);
                    m_mode = IDLE;
                    m_peer->m_mode = IDLE;
                    auto done = m_pingDone;
                    m_pingDone = nullptr;
                    done(oneWay);
                    continue;
                }
            }
            SendDatagram(size); // the echo, or the next ping
        }
        else if (m_mode == STREAM)
        {
            m_rxBytes += size;
            ++m_rxCount;
            m_rxLast = Simulator::Now();
            m_stall.Cancel();
            if (m_rxCount == m_rxExpected)
            {
                m_mode = IDLE;
                auto done = m_rxDone;
                m_rxDone = nullptr;
                done(m_rxBytes, m_rxLast);
            }
            else
            {
                m_stall =
                    Simulator::Schedule(m_stallTimeout, &KernelUdpBenchmark::StreamStalled, this);
            }
        }
    }
}

} // namespace clusternet
} // namespace ns3
