// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_FM_SMT_H
#define CLUSTERNET_FM_SMT_H

#include "ns3/callback.h"
#include "ns3/object.h"
#include "ns3/packet.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief HPVM 1.9's shared-memory transport (seed 004 sec. 5): the shared region of one SMP
 * host, holding for every attached process M message queues, each a free list (a ring of
 * FreeListFrames frames with in-use flags) and a receive queue (a ring of frame indices).
 *
 * The operations are the paper's steps; each is atomic at one simulated instant, and the
 * caller charges their costs (fetch-and-increment, test-and-set, copies) on its CPU between
 * them, so concurrent senders interleave as the paper describes.
 *
 * Send: AcquireFrame (fetch-and-increment the free-list head, test-and-set the frame's in-use
 * flag; a frame still in use means: acquire again), copy in, Post (fetch-and-increment the
 * receive-queue tail and store the frame index there). Receive: Peek at the receive-queue head,
 * Take (fetch-and-increment the head), copy out, Release (clear the in-use flag). Sender I uses
 * the receiver's queue I mod M; the receiver polls all M. The ring length is a power of two so
 * indices wrap by masking.
 */
class FmSmt : public Object
{
  public:
    /// Called when a frame is posted to one of a process's queues.
    using PostedCallback = Callback<void>;

    static TypeId GetTypeId();
    FmSmt();
    ~FmSmt() override;

    /**
     * A process attaches to the region (fetch-and-increment of the shared id counter).
     * @param posted called whenever a frame is posted to one of its queues
     * @return its SMT id
     */
    uint32_t Attach(PostedCallback posted);

    /**
     * @brief Check a region's layout before anything is built: FreeListFrames a power of two,
     * 1 <= Queues <= MaxProcesses (what Attach asserts).
     * @param frames FreeListFrames [frames]
     * @param queues Queues per process [queues]
     * @param maxProcesses MaxProcesses [processes]
     * @return "" or one line naming the attribute and what is allowed
     */
    static std::string CheckLayout(uint32_t frames, uint32_t queues, uint32_t maxProcesses);
    /// @return processes attached so far (N)
    uint32_t GetProcesses() const;
    /// @return receive queues per process (M)
    uint32_t GetQueues() const;
    /// @return frames in each free list
    uint32_t GetFrames() const;
    /// @return the queue of @p receiver that sender @p sender uses (sender mod M)
    uint32_t QueueOf(uint32_t sender) const;

    /**
     * Steps 2 and 3 of a send: take the next frame of the free list and test-and-set its
     * in-use flag.
     * @return the frame index, or -1 if the frame was still in use (take the next one)
     */
    int32_t AcquireFrame(uint32_t receiver, uint32_t sender);
    /**
     * Steps 5 and 6: append @p frame, now holding @p packet, to the receive queue. Its
     * coherence misses (see MissesToPost) are not added to the sender's count: the writes
     * must complete before the receiver can see the frame, so the caller charges them first.
     */
    void Post(uint32_t receiver, uint32_t sender, int32_t frame, Ptr<Packet> packet);
    /// @return the coherence misses Post(@p receiver, @p sender, ...) would take now
    uint32_t MissesToPost(uint32_t receiver, uint32_t sender) const;
    /// @return true if the head of queue @p queue of @p receiver names a frame
    bool Peek(uint32_t receiver, uint32_t queue) const;
    /**
     * Step 2 of a receive: fetch-and-increment the head; the frame stays in use.
     * @param frame set to the frame index
     * @return the packet in the frame
     */
    Ptr<Packet> Take(uint32_t receiver, uint32_t queue, int32_t& frame);
    /// Step 4: clear the frame's in-use flag.
    void Release(uint32_t receiver, uint32_t queue, int32_t frame);
    /**
     * @return the coherence misses process @p process took in AcquireFrame, Take and Release
     * since the last call, and reset its count
     */
    uint32_t CollectMisses(uint32_t process);

    /// @return frames posted so far
    uint64_t GetPosted() const;
    /// @return frames taken so far
    uint64_t GetTaken() const;
    /// @return acquisitions that found the frame in use
    uint64_t GetCollisions() const;
    /// @return frames in use now in queue @p queue of @p receiver
    uint32_t GetInUse(uint32_t receiver, uint32_t queue) const;
    /// @return coherence misses of all processes so far (Post's included)
    uint64_t GetMisses() const;

  protected:
    void DoDispose() override;

  private:
    struct Queue
    {
        std::vector<bool> inUse;
        std::vector<Ptr<Packet>> frames;
        std::vector<int32_t> ring; //!< receive queue: frame indices, -1 = empty
        uint64_t freeHead{0};
        uint64_t recvHead{0};
        uint64_t recvTail{0};
        uint32_t used{0};
    };
    struct Process
    {
        std::vector<Queue> queues;
        PostedCallback posted;
    };

    /// The control lines of a queue.
    enum LineKind : uint8_t
    {
        FREE_HEAD,
        RECV_TAIL,
        RECV_HEAD,
        SLOT,
        FRAME
    };

    Queue& At(uint32_t receiver, uint32_t queue);
    /// @return the key of line @p index of @p kind in queue @p queue of @p receiver
    uint64_t Line(uint32_t receiver, uint32_t queue, LineKind kind, uint32_t index) const;
    /// @return 1 if @p process misses on this access of @p line, else 0
    uint32_t WouldMiss(uint64_t line, uint32_t process, bool write) const;
    /// @p process reads or writes @p line; @return 1 on a miss (counted), else 0
    uint32_t Access(uint64_t line, uint32_t process, bool write);
    const Queue& At(uint32_t receiver, uint32_t queue) const;

    std::vector<Process> m_procs;
    std::map<uint64_t, uint64_t> m_sharers; //!< line -> processes holding it (bit mask)
    std::vector<uint32_t> m_pendingMisses;  //!< per process, since CollectMisses
    uint64_t m_misses{0};
    uint32_t m_slotsPerLine;
    uint32_t m_frames;
    uint32_t m_queues;
    uint32_t m_maxProcesses;
    uint64_t m_posted{0};
    uint64_t m_taken{0};
    uint64_t m_collisions{0};
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_FM_SMT_H
