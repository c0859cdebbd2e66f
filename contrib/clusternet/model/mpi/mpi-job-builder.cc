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
MpiJobBuilder::Collective(const std::function<void(uint32_t rank, MpiCollective& c)>& fill)
{
    for (uint32_t r = 0; r < GetSize(); ++r)
    {
        auto c = std::make_shared<MpiCollective>();
        fill(r, *c);
        Add(r, MpiOperation::Collective(c));
    }
}

void
MpiJobBuilder::Allreduce(uint32_t bytes)
{
    Collective([bytes](uint32_t, MpiCollective& c) {
        c.op = MpiCollective::ALLREDUCE;
        c.bytes = bytes;
    });
}

void
MpiJobBuilder::Bcast(uint32_t root, uint32_t bytes)
{
    Collective([root, bytes](uint32_t, MpiCollective& c) {
        c.op = MpiCollective::BCAST;
        c.root = root;
        c.bytes = bytes;
    });
}

void
MpiJobBuilder::Reduce(uint32_t root, uint32_t bytes)
{
    Collective([root, bytes](uint32_t, MpiCollective& c) {
        c.op = MpiCollective::REDUCE;
        c.root = root;
        c.bytes = bytes;
    });
}

void
MpiJobBuilder::Alltoall(uint32_t bytes)
{
    Collective([bytes](uint32_t, MpiCollective& c) {
        c.op = MpiCollective::ALLTOALL;
        c.bytes = bytes;
    });
}

void
MpiJobBuilder::Alltoallv(const std::vector<std::vector<uint32_t>>& bytes)
{
    const uint32_t n = GetSize();
    NS_ABORT_MSG_IF(bytes.size() != n, "MpiJobBuilder: Alltoallv needs a row per rank");
    for (const auto& row : bytes)
    {
        NS_ABORT_MSG_IF(row.size() != n, "MpiJobBuilder: Alltoallv needs a column per rank");
    }
    Collective([&bytes, n](uint32_t r, MpiCollective& c) {
        c.op = MpiCollective::ALLTOALLV;
        c.sendBytes = bytes[r];
        for (uint32_t i = 0; i < n; ++i)
        {
            c.recvBytes.push_back(bytes[i][r]);
        }
    });
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
