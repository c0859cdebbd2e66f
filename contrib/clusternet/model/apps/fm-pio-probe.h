// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_FM_PIO_PROBE_H
#define CLUSTERNET_FM_PIO_PROBE_H

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <vector>

namespace ns3
{
namespace clusternet
{

class HostBridge;
class HostCpu;

/**
 * @ingroup clusternet
 * @brief FM's PIO micro-benchmark and the boot-time probe built on it (seed 004 sec. 6).
 *
 * The micro-benchmark is FM's packet send path without the network: per packet the CPU
 * spends PacketCycles (reference cycles, made time by the host CPU) and PIOs the packet
 * into the NIC through the host bridge, paced or not; its rate is the bytes over the time from
 * the first write to the last byte in device memory.
 *
 * The probe measures a full packet (ProbeBytes) without pacing and paced at every multiple
 * of the bridge's line size below it, and picks the fastest; a chunk must beat the best so
 * far by more than Margin to be chosen, so ties keep "no pacing" and the smaller chunk.
 */
class FmPioProbe : public Object
{
  public:
    /// One measurement: pacing chunk (0 = none) and rate [MB/s, 10^6 bytes per second].
    struct Result
    {
        uint32_t pacing;
        double mbytesPerS;
    };
    /// Called with the rate [MB/s] of a measurement.
    using RateCallback = Callback<void, double>;
    /// Called with the chosen chunk (0 = none) when the probe ends.
    using ChoiceCallback = Callback<void, uint32_t>;

    static TypeId GetTypeId();
    FmPioProbe();
    ~FmPioProbe() override;

    /// Bind to the CPU that writes and the bridge it writes through.
    void Setup(Ptr<HostCpu> cpu, Ptr<HostBridge> bridge);
    /**
     * Run the micro-benchmark: Repetitions packets of @p bytes, paced at @p pacing.
     * @param done called with the rate
     */
    void Measure(uint32_t bytes, uint32_t pacing, RateCallback done);
    /**
     * Run the probe.
     * @param done called with the chosen chunk
     */
    void Probe(ChoiceCallback done);
    /// @return the measurements of the last probe, in the order made
    const std::vector<Result>& GetResults() const;
    /// @return the per-packet CPU cost on the reference host
    double GetPacketCycles() const;

  protected:
    void DoDispose() override;

  private:
    void Next(uint32_t left, uint32_t bytes, uint32_t pacing, Time start, RateCallback done);
    void ProbeNext(size_t i, std::vector<uint32_t> candidates, ChoiceCallback done);

    Ptr<HostCpu> m_cpu;
    Ptr<HostBridge> m_bridge;
    std::vector<Result> m_results;
    double m_packetCycles; //!< FM's send path per packet [reference cycles]
    uint32_t m_probeBytes;
    uint32_t m_repetitions;
    double m_margin;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_FM_PIO_PROBE_H
