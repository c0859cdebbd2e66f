// SPDX-License-Identifier: GPL-2.0-only
#include "fm-smt.h"

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
                          MakeUintegerChecker<uint32_t>(1, 1024))
            .AddAttribute("MaxProcesses",
                          "Processes the region is sized for (N) [processes].",
                          UintegerValue(2),
                          MakeUintegerAccessor(&FmSmt::m_maxProcesses),
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
    Object::DoDispose();
}

uint32_t
FmSmt::Attach(PostedCallback posted)
{
    NS_ASSERT_MSG((m_frames & (m_frames - 1)) == 0,
                  "FmSmt: FreeListFrames must be a power of two, not " << m_frames);
    NS_ASSERT_MSG(m_queues >= 1 && m_queues <= m_maxProcesses,
                  "FmSmt: Queues must be within 1.." << m_maxProcesses);
    NS_ASSERT_MSG(m_procs.size() < m_maxProcesses, "FmSmt: more than MaxProcesses attach");
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

int32_t
FmSmt::AcquireFrame(uint32_t receiver, uint32_t sender)
{
    Queue& q = At(receiver, QueueOf(sender));
    uint32_t frame = static_cast<uint32_t>(q.freeHead++ & (m_frames - 1)); // fetch-and-increment
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
    Queue& q = At(receiver, QueueOf(sender));
    NS_ASSERT_MSG(frame >= 0 && q.inUse[frame], "FmSmt: posting a frame not acquired");
    q.frames[frame] = packet;
    uint32_t slot = static_cast<uint32_t>(q.recvTail++ & (m_frames - 1)); // fetch-and-increment
    NS_ASSERT_MSG(q.ring[slot] < 0, "FmSmt: receive queue overrun");
    q.ring[slot] = frame;
    ++m_posted;
    if (!m_procs[receiver].posted.IsNull())
    {
        m_procs[receiver].posted();
    }
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
