// SPDX-License-Identifier: GPL-2.0-only
#include "fm-smt.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("FmSmt");
NS_OBJECT_ENSURE_REGISTERED(FmSmt);

TypeId
FmSmt::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::FmSmt")
            .SetParent<Object>()
            .SetGroupName("Clusternet")
            .AddConstructor<FmSmt>()
            .AddAttribute("FreeListFrames",
                          "Frames in each free list, a power of two (seed 004 sec. 5: a ring of "
                          "2K message frames) [frames].",
                          UintegerValue(2048),
                          MakeUintegerAccessor(&FmSmt::m_frames),
                          MakeUintegerChecker<uint32_t>(1, 65536))
            .AddAttribute("Queues",
                          "Receive queues per process, M with 1 <= M <= N (sender I uses queue "
                          "I mod M) [queues].",
                          UintegerValue(1),
                          MakeUintegerAccessor(&FmSmt::m_queues),
                          MakeUintegerChecker<uint32_t>(1, 64))
            .AddAttribute("MaxProcesses",
                          "Processes the region is sized for (N) [processes].",
                          UintegerValue(2),
                          MakeUintegerAccessor(&FmSmt::m_maxProcesses),
                          MakeUintegerChecker<uint32_t>(1, 64))
            .AddAttribute("SlotsPerLine",
                          "Receive-queue slots (4-byte frame indices) per cache line: 8 in the "
                          "Pentium II's 32-byte lines [slots].",
                          UintegerValue(8),
                          MakeUintegerAccessor(&FmSmt::m_slotsPerLine),
                          MakeUintegerChecker<uint32_t>(1, 1024));
    return tid;
}

FmSmt::FmSmt()
{
    NS_LOG_FUNCTION(this);
}

FmSmt::~FmSmt()
{
    NS_LOG_FUNCTION(this);
}

void
FmSmt::DoDispose()
{
    m_procs.clear();
    m_sharers.clear();
    Object::DoDispose();
}

std::string
FmSmt::CheckLayout(uint32_t frames, uint32_t queues, uint32_t maxProcesses)
{
    if (frames == 0 || (frames & (frames - 1)) != 0)
    {
        return "smt.FreeListFrames=" + std::to_string(frames) + "; allowed: a power of two";
    }
    if (queues < 1 || queues > maxProcesses)
    {
        return "smt.Queues=" + std::to_string(queues) + "; allowed: 1..smt.MaxProcesses (" +
               std::to_string(maxProcesses) + ")";
    }
    return "";
}

uint32_t
FmSmt::Attach(PostedCallback posted)
{
    std::string layout = CheckLayout(m_frames, m_queues, m_maxProcesses);
    NS_ABORT_MSG_UNLESS(layout.empty(), "FmSmt: " << layout);
    NS_ABORT_MSG_IF(m_procs.size() >= m_maxProcesses,
                    "FmSmt: more than MaxProcesses (" << m_maxProcesses << ") attach");
    Process p;
    p.posted = posted;
    p.queues.resize(m_queues);
    for (auto& q : p.queues)
    {
        q.inUse.assign(m_frames, false);
        q.frames.assign(m_frames, nullptr);
        q.ring.assign(m_frames, -1);
    }
    m_procs.push_back(std::move(p));
    m_pendingMisses.push_back(0);
    return m_procs.size() - 1;
}

uint32_t
FmSmt::GetProcesses() const
{
    return m_procs.size();
}

uint32_t
FmSmt::GetQueues() const
{
    return m_queues;
}

uint32_t
FmSmt::GetFrames() const
{
    return m_frames;
}

uint32_t
FmSmt::QueueOf(uint32_t sender) const
{
    return sender % m_queues;
}

FmSmt::Queue&
FmSmt::At(uint32_t receiver, uint32_t queue)
{
    NS_ASSERT_MSG(receiver < m_procs.size(), "FmSmt: no process " << receiver);
    return m_procs[receiver].queues.at(queue);
}

const FmSmt::Queue&
FmSmt::At(uint32_t receiver, uint32_t queue) const
{
    NS_ASSERT_MSG(receiver < m_procs.size(), "FmSmt: no process " << receiver);
    return m_procs[receiver].queues.at(queue);
}

uint64_t
FmSmt::Line(uint32_t receiver, uint32_t queue, LineKind kind, uint32_t index) const
{
    return (static_cast<uint64_t>(receiver) << 48) | (static_cast<uint64_t>(queue) << 40) |
           (static_cast<uint64_t>(kind) << 32) | index;
}

uint32_t
FmSmt::WouldMiss(uint64_t line, uint32_t process, bool write) const
{
    auto it = m_sharers.find(line);
    uint64_t sharers = it == m_sharers.end() ? 0 : it->second;
    uint64_t me = uint64_t{1} << process;
    // A read needs a copy; a write needs the only copy (else read-for-ownership / invalidate).
    return (write ? sharers != me : (sharers & me) == 0) ? 1 : 0;
}

uint32_t
FmSmt::Access(uint64_t line, uint32_t process, bool write)
{
    NS_ASSERT_MSG(process < 64, "FmSmt: at most 64 processes");
    uint32_t miss = WouldMiss(line, process, write);
    uint64_t me = uint64_t{1} << process;
    m_sharers[line] = write ? me : (m_sharers[line] | me);
    m_misses += miss;
    return miss;
}

uint32_t
FmSmt::CollectMisses(uint32_t process)
{
    uint32_t n = m_pendingMisses.at(process);
    m_pendingMisses[process] = 0;
    return n;
}

uint64_t
FmSmt::GetMisses() const
{
    return m_misses;
}

int32_t
FmSmt::AcquireFrame(uint32_t receiver, uint32_t sender)
{
    uint32_t qi = QueueOf(sender);
    Queue& q = At(receiver, qi);
    uint32_t frame = static_cast<uint32_t>(q.freeHead++ & (m_frames - 1)); // fetch-and-increment
    m_pendingMisses.at(sender) += Access(Line(receiver, qi, FREE_HEAD, 0), sender, true) +
                                  Access(Line(receiver, qi, FRAME, frame), sender, true);
    if (q.inUse[frame])                                                     // test-and-set
    {
        ++m_collisions;
        return -1;
    }
    q.inUse[frame] = true;
    ++q.used;
    return static_cast<int32_t>(frame);
}

void
FmSmt::Post(uint32_t receiver, uint32_t sender, int32_t frame, Ptr<Packet> packet)
{
    uint32_t qi = QueueOf(sender);
    Queue& q = At(receiver, qi);
    NS_ASSERT_MSG(frame >= 0 && q.inUse[frame], "FmSmt: posting a frame not acquired");
    q.frames[frame] = packet;
    uint32_t slot = static_cast<uint32_t>(q.recvTail++ & (m_frames - 1)); // fetch-and-increment
    Access(Line(receiver, qi, RECV_TAIL, 0), sender, true);
    Access(Line(receiver, qi, SLOT, slot / m_slotsPerLine), sender, true);
    NS_ASSERT_MSG(q.ring[slot] < 0, "FmSmt: receive queue overrun");
    q.ring[slot] = frame;
    ++m_posted;
    if (!m_procs[receiver].posted.IsNull())
    {
        m_procs[receiver].posted();
    }
}

uint32_t
FmSmt::MissesToPost(uint32_t receiver, uint32_t sender) const
{
    uint32_t qi = QueueOf(sender);
    const Queue& q = At(receiver, qi);
    uint32_t slot = static_cast<uint32_t>(q.recvTail & (m_frames - 1));
    return WouldMiss(Line(receiver, qi, RECV_TAIL, 0), sender, true) +
           WouldMiss(Line(receiver, qi, SLOT, slot / m_slotsPerLine), sender, true);
}

bool
FmSmt::Peek(uint32_t receiver, uint32_t queue) const
{
    const Queue& q = At(receiver, queue);
    return q.ring[q.recvHead & (m_frames - 1)] >= 0;
}

Ptr<Packet>
FmSmt::Take(uint32_t receiver, uint32_t queue, int32_t& frame)
{
    Queue& q = At(receiver, queue);
    uint32_t slot = static_cast<uint32_t>(q.recvHead & (m_frames - 1));
    NS_ASSERT_MSG(q.ring[slot] >= 0, "FmSmt: take from an empty queue");
    ++q.recvHead; // fetch-and-increment
    frame = q.ring[slot];
    // The poll that found the slot already paid for reading its line (FmContext's
    // CacheMissCost); clearing it, the head and the frame's header are counted here.
    uint64_t slotLine = Line(receiver, queue, SLOT, slot / m_slotsPerLine);
    m_sharers[slotLine] |= uint64_t{1} << receiver;
    m_pendingMisses.at(receiver) += Access(Line(receiver, queue, RECV_HEAD, 0), receiver, true) +
                                    Access(Line(receiver, queue, FRAME, frame), receiver, false) +
                                    Access(slotLine, receiver, true);
    q.ring[slot] = -1;
    Ptr<Packet> p = q.frames[frame];
    q.frames[frame] = nullptr;
    ++m_taken;
    return p;
}

void
FmSmt::Release(uint32_t receiver, uint32_t queue, int32_t frame)
{
    Queue& q = At(receiver, queue);
    NS_ASSERT_MSG(frame >= 0 && q.inUse[frame], "FmSmt: releasing a free frame");
    q.inUse[frame] = false;
    m_pendingMisses.at(receiver) += Access(Line(receiver, queue, FRAME, frame), receiver, true);
    --q.used;
}

uint64_t
FmSmt::GetPosted() const
{
    return m_posted;
}

uint64_t
FmSmt::GetTaken() const
{
    return m_taken;
}

uint64_t
FmSmt::GetCollisions() const
{
    return m_collisions;
}

uint32_t
FmSmt::GetInUse(uint32_t receiver, uint32_t queue) const
{
    return At(receiver, queue).used;
}

} // namespace clusternet
} // namespace ns3
