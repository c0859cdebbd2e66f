// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_MPI_SHM_TRANSPORT_H
#define CLUSTERNET_MPI_SHM_TRANSPORT_H

#include "mpi-transport.h"

#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <functional>
#include <map>
#include <vector>

namespace ns3
{
namespace clusternet
{

class HostCpu;

/**
 * @ingroup clusternet
 * @brief An MPI library's shared-memory device between processes on one SMP host (MPI/Pro,
 * WMPI and PaTENT on NT, seed 002): every ordered pair of ranks has a ring of Slots buffers
 * of SlotBytes in a shared section.
 *
 * The sender copies a packet (envelope, then data) into free slots, one slot at a time, on its
 * own CPU (HostCpu CopyBandwidth); the first slot of a packet also pays SendCycles (lock the
 * ring, write the header, signal the peer). The receiver copies each filled slot out on its
 * own CPU and frees it; the first slot of a packet pays RecvCycles (dequeue, read the header).
 * A receiver that was idle when a slot filled pays WakeCycles before it starts (the library's
 * wait on a Win32 event, or its polling loop); so does a sender that found the ring full and
 * waited for a slot. Copy-in and copy-out of successive slots overlap on the two CPUs, so a
 * long message moves at about the copy rate of one CPU.
 *
 * The two ranks are two processes on the two processors of one host: each rank's node holds
 * the HostCpu of its processor.
 */
class MpiShmTransport : public MpiTransport
{
  public:
    /// Signature of the SlotCopied trace: sending rank, receiving rank, bytes in the slot.
    typedef void (*SlotTracedCallback)(uint32_t src, uint32_t dst, uint32_t bytes);

    static TypeId GetTypeId();
    MpiShmTransport();
    ~MpiShmTransport() override;

    /// Set up rank @p rank whose process runs on @p cpu (may be null: no CPU time).
    void Setup(Ptr<HostCpu> cpu, uint32_t rank);
    /// The transports of every rank, rank i at index i (all on one host).
    void SetPeers(const std::vector<Ptr<MpiTransport>>& peers) override;
    void Send(const MpiEnvelope& envelope,
              uint32_t envelopeBytes,
              std::function<void()> written) override;
    /// @return slots rank @p dst holds filled by this rank and not yet copied out
    uint32_t GetSlotsInUse(uint32_t dst) const;
    /// @return slots this rank has copied out so far
    uint64_t GetSlotsReceived() const;

  protected:
    void DoDispose() override;
    void Resume() override;

  private:
    /// A packet waiting to be copied in.
    struct Outbound
    {
        MpiEnvelope envelope;
        uint32_t remaining; //!< bytes still to copy into slots
        bool started{false}; //!< its first slot is written (SendCycles paid)
        std::function<void()> written;
    };

    /// A filled slot waiting to be copied out.
    struct Slot
    {
        MpiEnvelope envelope;
        uint32_t bytes;
        bool first; //!< first slot of its packet
        bool last;  //!< last slot of its packet
    };

    /// Sending state towards one peer.
    struct Ring
    {
        std::deque<Outbound> queue; //!< packets to copy in, oldest first
        uint32_t inUse{0};          //!< slots filled and not yet freed by the peer
        bool copying{false};        //!< a copy-in is on the CPU
        bool waited{false};         //!< the ring was full: the sender sleeps until a slot frees
    };

    /// Copy the next slot towards @p dst if a slot is free.
    void CopyIn(uint32_t dst);
    /// The peer @p src filled a slot for this rank.
    void SlotFilled(uint32_t src, const Slot& slot);
    /// The peer @p dst freed one of this rank's slots.
    void SlotFreed(uint32_t dst);
    /// Copy out the oldest filled slot, if not busy.
    void CopyOut();
    void RunCpu(Time cost, std::function<void()> done);

    Ptr<HostCpu> m_cpu;
    uint32_t m_rank{0};
    std::vector<Ptr<MpiShmTransport>> m_peers;
    std::map<uint32_t, Ring> m_rings;                  //!< by destination rank
    std::deque<std::pair<uint32_t, Slot>> m_filled;    //!< slots for this rank, in fill order
    bool m_reading{false};                             //!< a copy-out is on the CPU
    bool m_idle{true};                                 //!< the receiver waits for a slot
    uint64_t m_slotsReceived{0};
    uint32_t m_slotBytes;
    uint32_t m_slots;
    double m_sendCycles; //!< [reference cycles]
    double m_recvCycles; //!< [reference cycles]
    double m_wakeCycles; //!< [reference cycles]
    TracedCallback<uint32_t, uint32_t, uint32_t> m_slotTrace;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_MPI_SHM_TRANSPORT_H
