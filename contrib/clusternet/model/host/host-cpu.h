// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_HOST_CPU_H
#define CLUSTERNET_HOST_CPU_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <array>
#include <deque>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief One host CPU as a single non-preemptive resource on which work items queue.
 *
 * Protocol processing, interrupt handling and user/kernel copies all run on it, so they compete
 * for the same processor, as on the uniprocessor hosts of the seed papers. Items are served in
 * priority order (interrupt, kernel, user, compute) and FIFO within a priority. Interrupt and
 * kernel (bottom-half) work preempts a running user or compute item, and user work (a library
 * thread woken by I/O) preempts application computation; the preempted item resumes afterwards,
 * first in its class, with the time it still needs. Kernel and interrupt items run to
 * completion. With a user-level thread library (ComputeSlice > 0) user work waits for the
 * computing thread's time slice to end at a scheduler tick instead.
 *
 * The cost attributes describe the host and its operating system (a "host profile"); a NIC's
 * driver costs belong to the NIC's profile (GigeNetDevice).
 */
class HostCpu : public Object
{
  public:
    /// Scheduling class of a work item; lower value is served first.
    enum Priority
    {
        INTERRUPT = 0, //!< hard interrupt handler and the driver's receive loop
        KERNEL = 1,    //!< protocol processing (bottom halves, transmit path)
        USER = 2,      //!< system calls and copies on behalf of a process
        COMPUTE = 3,   //!< the application's own computation (any other work preempts it)
    };

    /// Clock of the reference core, a P6 at 450 MHz: the CPU a cost in reference cycles
    /// takes when there is no HostCpu (and the default of Clock) [MHz].
    static constexpr double REFERENCE_CLOCK_MHZ = 450.0;

    /// Signature of the WorkStart trace: the item's CPU time and its Priority.
    typedef void (*WorkStartCallback)(Time cost, uint8_t priority);

    static TypeId GetTypeId();
    HostCpu();
    ~HostCpu() override;

    /**
     * Queue a work item.
     * @param cost CPU time the item takes
     * @param prio scheduling class
     * @param done called when the item completes (may be null)
     */
    void Execute(Time cost, Priority prio, Callback<void> done);

    /// @return time to copy @p bytes between user and kernel space (incl. checksum if enabled):
    /// at CopyBandwidth x CopyEfficiency, plus a separate checksum pass if ChecksumBandwidth
    Time CopyCost(uint32_t bytes) const;
    /// @return cost of one system call (entry, exit, socket layer)
    Time GetSyscallCost() const;
    /// @return cost of taking one interrupt (entry, acknowledge, exit)
    Time GetInterruptCost() const;
    /// @return per-packet TCP/IP protocol cost on transmit
    Time GetTxPacketCost() const;
    /// @return per-packet TCP/IP protocol cost on receive
    Time GetRxPacketCost() const;
    /// @return per-packet UDP/IP protocol cost on transmit (each IP fragment)
    Time GetUdpTxPacketCost() const;
    /// @return per-packet UDP/IP protocol cost on receive (each IP fragment)
    Time GetUdpRxPacketCost() const;
    /**
     * The one rule by which CPU work becomes time: @p cycles reference cycles (the cycles a
     * P6 core, Pentium Pro/II/III, takes for the work) take cycles / (Clock x CoreFactor)
     * microseconds on this CPU.
     * @param cycles CPU work [reference cycles]
     * @return the time the work takes on this CPU
     */
    Time CyclesToTime(double cycles) const;
    /**
     * @param cpu a host CPU, or nullptr
     * @param cycles CPU work [reference cycles]
     * @return cpu->CyclesToTime(cycles), or the time on the reference core when @p cpu is null
     */
    static Time CyclesToTime(Ptr<const HostCpu> cpu, double cycles);
    /// @return total time the CPU has been busy so far
    Time GetBusyTime() const;
    /// @return number of items waiting (not counting the one running)
    uint32_t GetQueueLength() const;

  protected:
    void DoDispose() override;

  private:
    struct WorkItem
    {
        Time cost;
        Callback<void> done;
    };

    void StartNext();
    /// Start the first item of class @p p.
    void StartItem(Priority p);
    /// Put the running user or compute item back at the head of its class.
    void Preempt();
    /// @return the scheduler tick at which the computing thread's slice ends
    Time NextSliceEnd() const;
    /// The computing thread's slice ended: a waiting user item takes the CPU.
    void EndSlice();
    void Complete();

    std::array<std::deque<WorkItem>, 4> m_queues; //!< pending items per priority
    bool m_busy{false};                           //!< an item is running
    EventId m_running;                            //!< completion of the running item
    WorkItem m_current;                           //!< the running item
    Priority m_currentPrio{USER};                 //!< its priority
    Time m_currentStart;                          //!< when it (re)started
    Time m_busyTime;                              //!< accumulated busy time

    /// One entry of the CyclesToTime cache: a cost in cycles and its time at m_cacheMhz.
    struct CachedCycles
    {
        double cycles{-1.0}; //!< the cost [reference cycles]
        Time time;           //!< its time on this CPU
    };

    mutable std::array<CachedCycles, 16> m_cyclesCache; //!< recent conversions
    mutable uint32_t m_cacheNext{0};                     //!< next entry to replace
    mutable double m_cacheMhz{-1.0};                     //!< Clock x CoreFactor of the cache
    double m_clockMhz;       //!< core clock [MHz]
    double m_coreFactor;     //!< work per clock relative to the P6 core
    double m_syscallCycles;  //!< system call work [reference cycles]
    DataRate m_copyRate;     //!< the machine's memory copy bandwidth
    double m_copyEfficiency; //!< the OS's copy routine relative to m_copyRate
    DataRate m_checksumRate; //!< separate checksum pass bandwidth (0 = folded into the copy)
    double m_interruptCycles;   //!< interrupt entry/exit work [reference cycles]
    double m_txPacketCycles;    //!< TCP/IP per-packet transmit work [reference cycles]
    double m_rxPacketCycles;    //!< TCP/IP per-packet receive work [reference cycles]
    double m_udpTxPacketCycles; //!< UDP/IP per-packet transmit work [reference cycles]
    double m_udpRxPacketCycles; //!< UDP/IP per-packet receive work [reference cycles]
    Time m_computeSlice;     //!< user-level thread library's time slice (0: none)
    Time m_schedulerTick;    //!< period of its scheduling signal
    bool m_inSlice{false};   //!< the computing thread holds the CPU for its slice
    Time m_sliceStart;       //!< when the computing thread was last scheduled
    EventId m_sliceEnd;      //!< the scheduling signal that ends the slice

    TracedCallback<Time, uint8_t> m_workStartTrace; //!< item started: cost, priority
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_HOST_CPU_H
