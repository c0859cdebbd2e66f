// SPDX-License-Identifier: GPL-2.0-only
#include "mpi-job-builder.h"

#include "ns3/abort.h"

namespace ns3
{
namespace clusternet
{

MpiJobBuilder::MpiJobBuilder(uint32_t ranks)
    : m_programs(ranks),
      m_nextRequest(ranks, 1)
{
    NS_ABORT_MSG_IF(ranks == 0, "MpiJobBuilder: a job needs at least one rank");
}

uint32_t
MpiJobBuilder::GetSize() const
{
    return m_programs.size();
}

const std::vector<std::vector<MpiOperation>>&
MpiJobBuilder::GetPrograms() const
{
    return m_programs;
}

void
MpiJobBuilder::Add(uint32_t rank, const MpiOperation& op)
{
    m_programs.at(rank).push_back(op);
}

void
MpiJobBuilder::Compute(uint32_t rank, Time duration)
{
    if (duration.IsStrictlyPositive())
    {
        Add(rank, MpiOperation::Compute(duration));
    }
}

uint32_t
MpiJobBuilder::Isend(uint32_t rank, uint32_t peer, int32_t tag, uint32_t bytes)
{
    uint32_t r = m_nextRequest.at(rank)++;
    Add(rank, MpiOperation::Isend(peer, tag, bytes, r));
    return r;
}

uint32_t
MpiJobBuilder::Irecv(uint32_t rank, uint32_t peer, int32_t tag, uint32_t bytes)
{
    uint32_t r = m_nextRequest.at(rank)++;
    Add(rank, MpiOperation::Irecv(peer, tag, bytes, r));
    return r;
}

void
MpiJobBuilder::Exchange(uint32_t rank, uint32_t peer, uint32_t sendBytes, uint32_t recvBytes,
                        int32_t tag)
{
    MpiOperation recv = MpiOperation::Irecv(peer, tag, recvBytes, m_nextRequest.at(rank)++);
    MpiOperation send = MpiOperation::Isend(peer, tag, sendBytes, m_nextRequest.at(rank)++);
    recv.context = send.context = kCollectiveContext;
    Add(rank, recv);
    Add(rank, send);
    Add(rank, MpiOperation::Wait(recv.request));
    Add(rank, MpiOperation::Wait(send.request));
}

void
MpiJobBuilder::Allreduce(uint32_t bytes)
{
    const uint32_t n = GetSize();
    const int32_t tag = m_collectiveTag++;
    uint32_t pof2 = 1;
    while (pof2 * 2 <= n)
    {
        pof2 *= 2;
    }
    const uint32_t extra = n - pof2;
    // Ranks 2i+1 (i < extra) fold into 2i; the rest renumber as 0..pof2-1.
    auto send = [&](uint32_t from, uint32_t to) {
        MpiOperation s = MpiOperation::Send(to, tag, bytes);
        s.context = kCollectiveContext;
        Add(from, s);
    };
    auto recv = [&](uint32_t at, uint32_t from) {
        MpiOperation r = MpiOperation::Recv(from, tag, bytes);
        r.context = kCollectiveContext;
        Add(at, r);
    };
    for (uint32_t i = 0; i < extra; ++i)
    {
        send(2 * i + 1, 2 * i);
        recv(2 * i, 2 * i + 1);
    }
    std::vector<uint32_t> real; // the pof2 ranks of the recursive doubling
    for (uint32_t r = 0; r < n; ++r)
    {
        if (r < 2 * extra && r % 2 == 1)
        {
            continue;
        }
        real.push_back(r);
    }
    for (uint32_t mask = 1; mask < pof2; mask *= 2)
    {
        for (uint32_t v = 0; v < pof2; ++v)
        {
            Exchange(real[v], real[v ^ mask], bytes, bytes, tag);
        }
    }
    for (uint32_t i = 0; i < extra; ++i)
    {
        send(2 * i, 2 * i + 1);
        recv(2 * i + 1, 2 * i);
    }
}

void
MpiJobBuilder::Bcast(uint32_t root, uint32_t bytes)
{
    const uint32_t n = GetSize();
    const int32_t tag = m_collectiveTag++;
    // Binomial tree on ranks relative to the root: receive from the parent, then send to the
    // children, largest subtree first.
    for (uint32_t rel = 0; rel < n; ++rel)
    {
        uint32_t rank = (rel + root) % n;
        uint32_t mask = 1;
        while (mask < n)
        {
            if (rel & mask)
            {
                MpiOperation r = MpiOperation::Recv((rel - mask + root) % n, tag, bytes);
                r.context = kCollectiveContext;
                Add(rank, r);
                break;
            }
            mask *= 2;
        }
        for (mask /= 2; mask > 0; mask /= 2)
        {
            if (rel + mask < n)
            {
                MpiOperation s = MpiOperation::Send((rel + mask + root) % n, tag, bytes);
                s.context = kCollectiveContext;
                Add(rank, s);
            }
        }
    }
}

void
MpiJobBuilder::Reduce(uint32_t root, uint32_t bytes)
{
    const uint32_t n = GetSize();
    const int32_t tag = m_collectiveTag++;
    // Binomial tree: receive from the children (smallest subtree first), then send to the
    // parent.
    for (uint32_t rel = 0; rel < n; ++rel)
    {
        uint32_t rank = (rel + root) % n;
        for (uint32_t mask = 1; mask < n; mask *= 2)
        {
            if (rel & mask)
            {
                MpiOperation s = MpiOperation::Send((rel - mask + root) % n, tag, bytes);
                s.context = kCollectiveContext;
                Add(rank, s);
                break;
            }
            if (rel + mask < n)
            {
                MpiOperation r = MpiOperation::Recv((rel + mask + root) % n, tag, bytes);
                r.context = kCollectiveContext;
                Add(rank, r);
            }
        }
    }
}

void
MpiJobBuilder::Alltoall(uint32_t bytes)
{
    const uint32_t n = GetSize();
    Alltoallv(std::vector<std::vector<uint32_t>>(n, std::vector<uint32_t>(n, bytes)));
}

void
MpiJobBuilder::Alltoallv(const std::vector<std::vector<uint32_t>>& bytes)
{
    const uint32_t n = GetSize();
    NS_ABORT_MSG_IF(bytes.size() != n, "MpiJobBuilder: Alltoallv needs a row per rank");
    const int32_t tag = m_collectiveTag++;
    for (uint32_t r = 0; r < n; ++r)
    {
        NS_ABORT_MSG_IF(bytes[r].size() != n, "MpiJobBuilder: Alltoallv needs a column per rank");
        std::vector<uint32_t> requests;
        for (uint32_t i = 1; i < n; ++i)
        {
            uint32_t from = (r + n - i) % n;
            MpiOperation op = MpiOperation::Irecv(from, tag, bytes[from][r], m_nextRequest[r]++);
            op.context = kCollectiveContext;
            Add(r, op);
            requests.push_back(op.request);
        }
        for (uint32_t i = 1; i < n; ++i)
        {
            uint32_t to = (r + i) % n;
            MpiOperation op = MpiOperation::Isend(to, tag, bytes[r][to], m_nextRequest[r]++);
            op.context = kCollectiveContext;
            Add(r, op);
            requests.push_back(op.request);
        }
        for (uint32_t q : requests)
        {
            Add(r, MpiOperation::Wait(q));
        }
    }
}

void
MpiJobBuilder::Barrier()
{
    for (uint32_t r = 0; r < GetSize(); ++r)
    {
        Add(r, MpiOperation::Barrier());
    }
}

} // namespace clusternet
} // namespace ns3
