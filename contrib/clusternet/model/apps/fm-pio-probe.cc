// SPDX-License-Identifier: GPL-2.0-only
#include "fm-pio-probe.h"

#include "ns3/host-bridge.h"
#include "ns3/host-cpu.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("FmPioProbe");
NS_OBJECT_ENSURE_REGISTERED(FmPioProbe);

TypeId
FmPioProbe::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::FmPioProbe")
            .SetParent<Object>()
            .SetGroupName("Clusternet")
            .AddConstructor<FmPioProbe>()
            .AddAttribute("PacketCycles",
                          "CPU work per packet of FM's send path around the PIO [reference "
                          "cycles; see HostCpu::CoreFactor] (the FmContext's PacketSendCycles).",
                          DoubleValue(450),
                          MakeDoubleAccessor(&FmPioProbe::m_packetCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddAttribute("ProbeBytes",
                          "Bytes per packet the probe writes: a full FM packet [bytes].",
                          UintegerValue(2080),
                          MakeUintegerAccessor(&FmPioProbe::m_probeBytes),
                          MakeUintegerChecker<uint32_t>(1, 65535))
            .AddAttribute("Repetitions",
                          "Packets per measurement [packets].",
                          UintegerValue(8),
                          MakeUintegerAccessor(&FmPioProbe::m_repetitions),
                          MakeUintegerChecker<uint32_t>(1, 100000))
            .AddAttribute("Margin",
                          "Relative gain a chunk needs over the best so far to be chosen "
                          "[ratio].",
                          DoubleValue(0.005),
                          MakeDoubleAccessor(&FmPioProbe::m_margin),
                          MakeDoubleChecker<double>(0.0, 1.0));
    return tid;
}

FmPioProbe::FmPioProbe()
{
    NS_LOG_FUNCTION(this);
}

FmPioProbe::~FmPioProbe()
{
    NS_LOG_FUNCTION(this);
}

void
FmPioProbe::DoDispose()
{
    m_cpu = nullptr;
    m_bridge = nullptr;
    Object::DoDispose();
}

void
FmPioProbe::Setup(Ptr<HostCpu> cpu, Ptr<HostBridge> bridge)
{
    m_cpu = cpu;
    m_bridge = bridge;
}

const std::vector<FmPioProbe::Result>&
FmPioProbe::GetResults() const
{
    return m_results;
}

double
FmPioProbe::GetPacketCycles() const
{
    return m_packetCycles;
}

void
FmPioProbe::Measure(uint32_t bytes, uint32_t pacing, RateCallback done)
{
    NS_ASSERT_MSG(m_cpu && m_bridge, "FmPioProbe: not set up");
    Next(m_repetitions, bytes, pacing, Simulator::Now(), done);
}

void
FmPioProbe::Next(uint32_t left, uint32_t bytes, uint32_t pacing, Time start, RateCallback done)
{
    Time cost = m_cpu->CyclesToTime(m_packetCycles);
    m_cpu->Execute(cost, HostCpu::USER, [=, this]() {
        bool last = left == 1;
        Callback<void> drained;
        if (last)
        {
            uint64_t total = static_cast<uint64_t>(bytes) * m_repetitions;
            drained = [=]() {
                double s = (Simulator::Now() - start).GetSeconds();
                done(total / s / 1e6);
            };
        }
        Callback<void> cpuDone;
        if (!last)
        {
            cpuDone = [=, this]() { Next(left - 1, bytes, pacing, start, done); };
        }
        m_bridge->Write(bytes, pacing, cpuDone, drained);
    });
}

void
FmPioProbe::Probe(ChoiceCallback done)
{
    m_results.clear();
    std::vector<uint32_t> candidates{0};
    uint32_t line = m_bridge->GetLineBytes();
    for (uint32_t c = line; c < m_probeBytes; c += line)
    {
        candidates.push_back(c);
    }
    ProbeNext(0, candidates, done);
}

void
FmPioProbe::ProbeNext(size_t i, std::vector<uint32_t> candidates, ChoiceCallback done)
{
    if (i == candidates.size())
    {
        Result best = m_results.front();
        for (const auto& r : m_results)
        {
            if (r.mbytesPerS > best.mbytesPerS * (1.0 + m_margin))
            {
                best = r;
            }
        }
        NS_LOG_INFO("PIO probe: pacing " << best.pacing << " at " << best.mbytesPerS << " MB/s");
        done(best.pacing);
        return;
    }
    uint32_t pacing = candidates[i];
    Measure(m_probeBytes, pacing, [=, this](double rate) {
        m_results.push_back({pacing, rate});
        ProbeNext(i + 1, candidates, done);
    });
}

} // namespace clusternet
} // namespace ns3
