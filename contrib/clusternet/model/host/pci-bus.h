// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_PCI_BUS_H
#define CLUSTERNET_PCI_BUS_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <utility>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief A PCI bus shared by the DMA engines and PIO of the devices of one host.
 *
 * A transfer is split into bursts of at most BurstSize bytes. Each burst costs the
 * per-transaction overhead (arbitration, address phase, turnaround), the target latency of its
 * direction (a DMA read waits for the host bridge to fetch memory; a DMA write is posted), and
 * one clock per data word. Pending transfers from different masters share the bus burst by burst
 * in round-robin order, as the PCI arbiter re-arbitrates when a master's latency timer expires.
 */
class PciBus : public Object
{
  public:
    /// Bus width in bits.
    enum Width
    {
        WIDTH_32 = 32,
        WIDTH_64 = 64,
    };

    /// Bus clock in MHz (33.33 or 66.67 MHz).
    enum Clock
    {
        CLOCK_33 = 33,
        CLOCK_66 = 66,
    };

    /// Direction, seen from the device (bus master).
    enum Direction
    {
        DMA_READ = 0,  //!< device reads host memory (host -> NIC, transmit)
        DMA_WRITE = 1, //!< device writes host memory (NIC -> host, receive)
        PIO_WRITE = 2, //!< CPU writes device memory (programmed I/O)
        PIO_READ = 3,  //!< CPU reads a device register (uncached, non-posted)
    };

    /// Signature of the Burst trace: the burst's bytes and direction.
    typedef void (*BurstCallback)(uint32_t bytes, uint8_t direction);

    static TypeId GetTypeId();
    PciBus();
    ~PciBus() override;

    /**
     * Request a transfer.
     * @param bytes payload bytes
     * @param dir direction
     * @param done called when the last burst completes
     * @param maxBurst the master's own burst limit [bytes] (e.g. a NIC's DMA engine
     *        setting); 0 = the bus's BurstSize
     * @param continuing a PIO write that extends the burst the same master has just ended: if
     *        the bus is handed to it at the instant its previous PIO write ended (no other
     *        master took the bus in between), its first burst costs no transaction overhead
     */
    void Transfer(uint32_t bytes,
                  Direction dir,
                  Callback<void> done,
                  uint32_t maxBurst = 0,
                  bool continuing = false);

    /**
     * Request two transfers of one master back to back, as a DMA engine moves a descriptor and
     * its frame (or a frame and its completion descriptor): the second is requested at the
     * instant the first completes, exactly as if the first's done callback called Transfer.
     * A master alone on the bus runs both as one event.
     * @param first bytes of the first transfer
     * @param second bytes of the second (at least 1)
     * @param dir direction of both
     * @param done called when the last burst of the second completes
     * @param maxBurst the master's own burst limit [bytes]; 0 = the bus's BurstSize
     */
    void TransferPair(uint32_t first,
                      uint32_t second,
                      Direction dir,
                      Callback<void> done,
                      uint32_t maxBurst = 0);
    /// @return time one transfer of @p bytes takes on an otherwise idle bus
    Time GetTransferTime(uint32_t bytes, Direction dir, uint32_t maxBurst = 0) const;
    /// @return one bus clock period
    Time GetCyclePeriod() const;
    /// @return bytes moved per data cycle
    uint32_t GetBytesPerCycle() const;
    /// @return total bytes transferred so far
    uint64_t GetBytesTransferred() const;

  protected:
    void DoDispose() override;

  private:
    /// A master's request: its current transfer and, for a pair, the one requested after it.
    struct Request
    {
        uint32_t remaining; //!< bytes of the current transfer not yet moved
        uint32_t next;      //!< bytes of the transfer requested when this one completes (0: none)
        Direction dir;
        Callback<void> done;
        uint32_t burst;  //!< largest burst of this master [bytes]
        bool continuing; //!< a PIO write that may extend the previous PIO burst
    };

    /// A master's request arrives: it waits its turn, or takes the idle bus.
    void Enqueue(const Request& r);
    uint64_t BurstCycles(uint32_t bytes, Direction dir) const;
    /// @return true if @p r extends the PIO write burst that has just ended
    bool Continues(const Request& r) const;
    uint32_t BurstLimit(Direction dir, uint32_t maxBurst) const;
    /**
     * The bursts of @p r run back to back from @p start: the end of the first that ends after
     * @p t, and the bytes moved by its end (the whole request's when none ends after @p t).
     */
    std::pair<Time, uint32_t> BurstEndAfter(const Request& r, Time start, Time t) const;
    /**
     * A request arrives while a lone pair runs as one batch: @return true if the pair's first
     * transfer ends at this instant and, as two transfers, that end would still be to come
     * among this instant's events (so the newcomer is queued before the second transfer).
     */
    bool FirstOfPairEndsBeforeNow() const;
    void StartBurst();
    void EndBurst();
    void SplitBatch();

    std::deque<Request> m_pending; //!< transfers waiting or in progress, head is on the bus
    bool m_busy{false};
    uint32_t m_burstBytes{0}; //!< bytes of the burst (or batch of bursts) on the bus
    bool m_batch{false};      //!< a lone master's remaining bursts run as one event
    Time m_batchStart;        //!< when the batch started
    EventId m_burstEvent;
    uint64_t m_bytes{0};
    Time m_lastEnd{Seconds(-1)};      //!< when the last burst ended
    Direction m_lastDir{DMA_READ};   //!< its direction
    uint32_t m_pioReadLatencyCycles; //!< target latency of a register read

    Width m_width;
    Clock m_clock;
    uint32_t m_burstSize;
    uint32_t m_overheadCycles;
    uint32_t m_readLatencyCycles;
    uint32_t m_writeLatencyCycles;
    uint32_t m_pioCycles;

    TracedCallback<uint32_t, uint8_t> m_burstTrace; //!< burst starts: bytes, direction
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_PCI_BUS_H
