// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_HOST_BRIDGE_H
#define CLUSTERNET_HOST_BRIDGE_H

#include "pci-bus.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <deque>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief The CPU-to-PCI path of a host bridge (Intel 440LX/440BX class): programmed I/O writes
 * through the processor's write-combining buffers into the bridge's posted-write queue, and
 * uncached register reads.
 *
 * The CPU writes a run of bytes as write-combined lines (LineBytes each); each line takes
 * FsbCyclesPerLine front-side-bus cycles to reach the bridge, which holds at most QueueLines
 * lines. The bridge drains the queue onto PCI as PIO write bursts: a line that is queued when
 * the previous one leaves the bus extends the same burst (no arbitration or address phase)
 * up to MaxBurstLines lines. When the CPU finds the queue full:
 *
 * - FullQueue=Stall: the CPU waits for room; the burst goes on (graceful, the 440LX);
 * - FullQueue=Retry: the bridge retries the host-bus write and falls back to one PCI
 *   transaction per line, each after SaturatedLineGap, until the queue has emptied (the
 *   440BX under sustained PIO, seed 004 sec. 6).
 *
 * Pacing splits a run into chunks: after each chunk the CPU waits until the queue has drained
 * before it writes on (HPVM 1.9's PIO pacing). A read waits for the posted writes ahead of it
 * (PCI ordering), then takes one PCI read transaction and ReadOverhead on the host side.
 *
 * Runs are served in the order they were posted (one CPU writes at a time). On an SMP host
 * other CPUs may read meanwhile: the writing CPU's next line and the reads take the host bus in
 * the order they asked for it, so reads issued after the writer stalled do not overtake it
 * (idle processes polling the NIC in turn would otherwise starve it for ever).
 */
class HostBridge : public Object
{
  public:
    /// What the bridge does when the CPU writes into a full posted-write queue.
    enum FullQueuePolicy
    {
        STALL = 0, //!< hold the CPU until a line drains; bursts continue
        RETRY = 1, //!< retry the CPU's write; bursts break into single-line transactions
    };

    /// Signature of the Saturated trace: true when the queue overflows, false when it empties.
    typedef void (*SaturatedTracedCallback)(bool saturated);

    static TypeId GetTypeId();
    HostBridge();
    ~HostBridge() override;

    /// Attach the PCI bus the bridge drives.
    void SetBus(Ptr<PciBus> bus);
    /// @return the PCI bus
    Ptr<PciBus> GetBus() const;

    /**
     * The CPU writes @p bytes to device memory.
     * @param bytes bytes to write (at least 1)
     * @param pacing chunk size [bytes]: after each chunk the CPU waits until the queue has
     *        drained; 0 = no pacing
     * @param cpuDone called when the CPU has issued the last line (it is free again)
     * @param drained called when the last byte has crossed PCI (it is in device memory)
     */
    void Write(uint32_t bytes, uint32_t pacing, Callback<void> cpuDone, Callback<void> drained);
    /**
     * The CPU reads a device register.
     * @param sampled called when the device returns the value on PCI (the instant it is read)
     * @param done called when the value is in the CPU
     */
    void Read(Callback<void> sampled, Callback<void> done);

    /// @return the time a device read takes on an idle bus, from the CPU and back
    Time GetReadTime() const;
    /// @return the time the CPU takes to hand one line to the bridge
    Time GetLineTime() const;
    /// @return write-combining line size [bytes]
    uint32_t GetLineBytes() const;
    /// @return posted-write queue depth [lines]
    uint32_t GetQueueLines() const;
    /// @return lines queued or on the bus now
    uint32_t GetQueuedLines() const;
    /// @return the most lines ever held at once (never above QueueLines)
    uint32_t GetMaxQueuedLines() const;
    /// @return bytes written to PCI so far
    uint64_t GetBytesWritten() const;
    /// @return PCI write transactions started (a continued burst counts once)
    uint64_t GetTransactions() const;
    /// @return times the queue overflowed (RETRY only)
    uint64_t GetSaturations() const;
    /// @return true while no write is queued, on the FSB or on PCI
    bool IsIdle() const;

  protected:
    void DoDispose() override;

  private:
    struct Run
    {
        uint32_t remaining;   //!< bytes the CPU has still to write
        uint32_t pacing;      //!< chunk size (0 = none)
        uint32_t chunkLeft;   //!< bytes left in the current chunk
        Callback<void> cpuDone;
        Callback<void> drained;
    };
    struct Line
    {
        uint32_t bytes;
        Callback<void> drained; //!< the run's, on its last line
    };
    struct PendingRead
    {
        Callback<void> sampled;
        Callback<void> done;
        Time asked; //!< when the CPU issued it
    };

    void Issue();
    void LineArrived(Line line);
    void Drain();
    void LineDone(Line line);
    void StartRead();
    /// @return true if the writing CPU asked for the bus before the oldest pending read
    bool WriterFirst() const;

    Ptr<PciBus> m_bus;
    std::deque<Run> m_runs;       //!< head: the run the CPU is writing
    std::deque<Line> m_queue;     //!< lines posted, head first (the head may be on the bus)
    std::deque<PendingRead> m_reads;
    bool m_fsbBusy{false};        //!< a line is on its way over the FSB
    bool m_pciBusy{false};        //!< the head line is on PCI
    bool m_readBusy{false};       //!< a read is on PCI
    bool m_waitRoom{false};       //!< the CPU waits for room in the queue
    bool m_waitDrain{false};      //!< the CPU waits for the queue to drain (pacing)
    bool m_saturated{false};      //!< RETRY: the queue overflowed and has not emptied since
    bool m_writerWaits{false};    //!< the writing CPU waits behind reads for its next line
    Time m_writerAsked;           //!< since when it waits
    uint32_t m_burstLines{0};     //!< lines of the current PCI burst so far
    uint32_t m_maxQueued{0};
    uint64_t m_bytesWritten{0};
    uint64_t m_transactions{0};
    uint64_t m_saturations{0};
    EventId m_issueEvent;

    uint32_t m_lineBytes;
    uint32_t m_queueLines;
    uint32_t m_maxBurstLines;
    uint32_t m_fsbClockMhz;
    uint32_t m_fsbCyclesPerLine;
    FullQueuePolicy m_policy;
    Time m_saturatedGap;
    Time m_readOverhead;

    TracedCallback<bool> m_saturatedTrace;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_HOST_BRIDGE_H
