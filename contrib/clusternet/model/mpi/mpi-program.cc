// SPDX-License-Identifier: GPL-2.0-only
#include "mpi-program.h"

#include "ns3/attribute-range.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

namespace ns3
{
namespace clusternet
{

MpiOperation
MpiOperation::Send(int32_t peer, int32_t tag, uint32_t bytes)
{
    MpiOperation op;
    op.kind = SEND;
    op.peer = peer;
    op.tag = tag;
    op.bytes = bytes;
    return op;
}

MpiOperation
MpiOperation::Recv(int32_t peer, int32_t tag, uint32_t bytes)
{
    MpiOperation op = Send(peer, tag, bytes);
    op.kind = RECV;
    return op;
}

MpiOperation
MpiOperation::Isend(int32_t peer, int32_t tag, uint32_t bytes, uint32_t request)
{
    MpiOperation op = Send(peer, tag, bytes);
    op.kind = ISEND;
    op.request = request;
    return op;
}

MpiOperation
MpiOperation::Irecv(int32_t peer, int32_t tag, uint32_t bytes, uint32_t request)
{
    MpiOperation op = Send(peer, tag, bytes);
    op.kind = IRECV;
    op.request = request;
    return op;
}

MpiOperation
MpiOperation::Wait(uint32_t request)
{
    MpiOperation op;
    op.kind = WAIT;
    op.request = request;
    return op;
}

MpiOperation
MpiOperation::Waitall()
{
    MpiOperation op;
    op.kind = WAITALL;
    return op;
}

MpiOperation
MpiOperation::Barrier()
{
    auto c = std::make_shared<MpiCollective>();
    c->op = MpiCollective::BARRIER;
    return Collective(c);
}

MpiOperation
MpiOperation::Collective(std::shared_ptr<const MpiCollective> c)
{
    MpiOperation op;
    op.kind = COLLECTIVE;
    op.comm = c->communicator ? c->communicator->id : 0;
    op.context = 2 * op.comm + 1;
    op.collective = c;
    return op;
}

std::string
MpiCollective::Name(Op op)
{
    switch (op)
    {
    case BARRIER:
        return "barrier";
    case BCAST:
        return "bcast";
    case REDUCE:
        return "reduce";
    case ALLREDUCE:
        return "allreduce";
    case GATHER:
        return "gather";
    case SCATTER:
        return "scatter";
    case ALLGATHER:
        return "allgather";
    case ALLTOALL:
        return "alltoall";
    case ALLTOALLV:
        return "alltoallv";
    }
    return "?";
}

MpiOperation
MpiOperation::Compute(Time duration)
{
    MpiOperation op;
    op.kind = COMPUTE;
    op.duration = duration;
    return op;
}

std::string
MpiOperation::ToString() const
{
    auto who = [](int32_t v) { return v < 0 ? std::string("any") : std::to_string(v); };
    std::ostringstream os;
    switch (kind)
    {
    case SEND:
        os << "send " << peer << " " << tag << " " << bytes;
        break;
    case RECV:
        os << "recv " << who(peer) << " " << who(tag) << " " << bytes;
        break;
    case ISEND:
        os << "isend " << peer << " " << tag << " " << bytes << " " << request;
        break;
    case IRECV:
        os << "irecv " << who(peer) << " " << who(tag) << " " << bytes << " " << request;
        break;
    case WAIT:
        os << "wait " << request;
        break;
    case WAITALL:
        os << "waitall";
        break;
    case COLLECTIVE: {
        const MpiCollective& c = *collective;
        os << MpiCollective::Name(c.op);
        if (c.op == MpiCollective::BCAST || c.op == MpiCollective::REDUCE ||
            c.op == MpiCollective::GATHER || c.op == MpiCollective::SCATTER)
        {
            os << " " << c.root;
        }
        if (c.op == MpiCollective::ALLTOALLV)
        {
            for (std::size_t i = 0; i < c.sendBytes.size(); ++i)
            {
                os << (i == 0 ? " " : ",") << c.sendBytes[i];
            }
        }
        else if (c.op != MpiCollective::BARRIER)
        {
            os << " " << c.bytes;
        }
        break;
    }
    case COMPUTE:
        if (duration.GetNanoSeconds() % 1000 == 0)
        {
            os << "compute " << duration.GetNanoSeconds() / 1000 << "us";
        }
        else
        {
            os << "compute " << duration.GetNanoSeconds() << "ns";
        }
        break;
    }
    if (comm != 0 && kind != WAIT && kind != WAITALL && kind != COMPUTE)
    {
        os << " comm=" << comm;
    }
    return os.str();
}

namespace
{

/// Parse a whole non-negative number no larger than @p max; false if it is not one.
bool
ParseUint(const std::string& s, uint64_t max, uint64_t& out)
{
    if (s.empty() || s.size() > 12 || s.find_first_not_of("0123456789") != std::string::npos)
    {
        return false;
    }
    out = std::stoull(s);
    return out <= max;
}

/// Where a send or a receive of the trace is.
struct Located
{
    const MpiOperation* op; //!< the operation
    uint32_t line;          //!< its line
};

/**
 * Check that each send fits the receive it matches, where MPI's ordering fixes the match.
 * @param programs the ranks' operations
 * @param lines the line of each operation
 * @param where the prefix naming a line
 * @return "" or the first receive a send overflows
 */
std::string
CheckTruncation(const std::vector<std::vector<MpiOperation>>& programs,
                const std::vector<std::vector<uint32_t>>& lines,
                const std::function<std::string(uint32_t)>& where)
{
    auto isSend = [](const MpiOperation& op) {
        return op.kind == MpiOperation::SEND || op.kind == MpiOperation::ISEND;
    };
    auto isRecv = [](const MpiOperation& op) {
        return op.kind == MpiOperation::RECV || op.kind == MpiOperation::IRECV;
    };
    // (source, destination, tag, context) -> the sends, and the receives, in program order.
    using Key = std::tuple<int32_t, int32_t, int32_t, uint32_t>;
    std::map<Key, std::vector<Located>> sends;
    std::map<Key, std::vector<Located>> recvs;
    std::set<int32_t> wildcard; // ranks whose matches depend on timing
    for (uint32_t r = 0; r < programs.size(); ++r)
    {
        for (uint32_t i = 0; i < programs[r].size(); ++i)
        {
            const MpiOperation& op = programs[r][i];
            int32_t rank = static_cast<int32_t>(r);
            if (isSend(op))
            {
                sends[{rank, op.peer, op.tag, op.context}].push_back({&op, lines[r][i]});
            }
            else if (isRecv(op) &&
                     (op.peer == MpiOperation::ANY_SOURCE || op.tag == MpiOperation::ANY_TAG))
            {
                wildcard.insert(rank);
            }
            else if (isRecv(op))
            {
                recvs[{op.peer, rank, op.tag, op.context}].push_back({&op, lines[r][i]});
            }
        }
    }
    for (const auto& [key, rs] : recvs)
    {
        if (wildcard.count(std::get<1>(key)) || !sends.count(key))
        {
            continue;
        }
        const auto& ss = sends.at(key);
        for (std::size_t k = 0; k < std::min(rs.size(), ss.size()); ++k)
        {
            if (ss[k].op->bytes > rs[k].op->bytes)
            {
                return where(rs[k].line) + rs[k].op->ToString() + ": the send it matches (line " +
                       std::to_string(ss[k].line) + ", '" + ss[k].op->ToString() +
                       "') carries " + std::to_string(ss[k].op->bytes) + " bytes, more than " +
                       std::to_string(rs[k].op->bytes) +
                       "; MPI_ERR_TRUNCATE: a receive must be at least as long as its message";
            }
        }
    }
    return "";
}

/**
 * Check that the members of each communicator call the same collectives in the same order,
 * with the same root and sizes, and fill in each alltoallv's receive sizes.
 * @param programs the ranks' operations
 * @param lines the line of each operation
 * @param where the prefix naming a line
 * @return "" or the first collective that has no counterpart or differs from it
 */
std::string
CheckCollectives(const std::vector<std::vector<MpiOperation>>& programs,
                 const std::vector<std::vector<std::shared_ptr<MpiCollective>>>& collectives,
                 const std::vector<std::vector<uint32_t>>& lines,
                 const std::function<std::string(uint32_t)>& where)
{
    struct Call
    {
        MpiCollective* c;
        const MpiOperation* op;
        uint32_t line;
    };
    // communicator -> member (world rank) -> its collectives in program order
    std::map<uint32_t, std::map<uint32_t, std::vector<Call>>> calls;
    std::map<uint32_t, std::vector<uint32_t>> members;
    const uint32_t n = programs.size();
    for (uint32_t r = 0; r < n; ++r)
    {
        std::size_t next = 0; // the rank's next collective record
        for (uint32_t i = 0; i < programs[r].size(); ++i)
        {
            const MpiOperation& op = programs[r][i];
            if (op.kind != MpiOperation::COLLECTIVE)
            {
                continue;
            }
            MpiCollective* c = collectives[r].at(next++).get();
            calls[op.comm][r].push_back({c, &op, lines[r][i]});
            if (!members.count(op.comm))
            {
                std::vector<uint32_t> m;
                for (uint32_t k = 0; k < n; ++k)
                {
                    m.push_back(k);
                }
                members[op.comm] = c->communicator ? c->communicator->members : m;
            }
        }
    }
    for (auto& [comm, byRank] : calls)
    {
        const std::vector<uint32_t>& m = members.at(comm);
        const std::string commText = comm == 0 ? "" : " on communicator " + std::to_string(comm);
        // The member with the most collectives sets the sequence the others must follow.
        uint32_t lead = m.front();
        for (uint32_t r : m)
        {
            lead = byRank[r].size() > byRank[lead].size() ? r : lead;
        }
        const auto& ref = byRank[lead];
        for (uint32_t r : m)
        {
            const auto& mine = byRank[r];
            for (std::size_t k = 0; k < ref.size(); ++k)
            {
                if (k >= mine.size())
                {
                    return where(ref[k].line) + ref[k].op->ToString() + ": rank " +
                           std::to_string(lead) + "'s collective no. " + std::to_string(k + 1) +
                           commText + " has no counterpart on rank " + std::to_string(r) +
                           ", which calls only " + std::to_string(mine.size()) +
                           "; every member calls each collective";
                }
                const MpiCollective& a = *ref[k].c;
                const MpiCollective& b = *mine[k].c;
                if (a.op != b.op || a.root != b.root || a.bytes != b.bytes ||
                    (a.op == MpiCollective::ALLTOALLV && a.sendBytes.size() != b.sendBytes.size()))
                {
                    return where(mine[k].line) + mine[k].op->ToString() + ": rank " +
                           std::to_string(r) + "'s collective no. " + std::to_string(k + 1) +
                           commText + " differs from rank " + std::to_string(lead) + "'s '" +
                           ref[k].op->ToString() + "' (line " + std::to_string(ref[k].line) +
                           "); members call the same collective with the same root and size";
                }
            }
        }
        // alltoallv: what member j receives from member i is what i sends j.
        for (std::size_t k = 0; k < ref.size(); ++k)
        {
            if (ref[k].c->op != MpiCollective::ALLTOALLV)
            {
                continue;
            }
            for (std::size_t j = 0; j < m.size(); ++j)
            {
                MpiCollective& to = *byRank[m[j]][k].c;
                to.recvBytes.assign(m.size(), 0);
                for (std::size_t i = 0; i < m.size(); ++i)
                {
                    to.recvBytes[i] = byRank[m[i]][k].c->sendBytes[j];
                }
            }
        }
    }
    return "";
}

} // namespace

std::string
MpiProgram::Parse(const std::string& text,
                  uint32_t ranks,
                  std::vector<std::vector<MpiOperation>>& programs,
                  const std::string& name)
{
    auto at = [&name](uint32_t number) {
        return (name.empty() ? "line " : name + ":") + std::to_string(number) + ": ";
    };
    programs.assign(ranks, {});
    std::vector<std::vector<uint32_t>> lines(ranks); // the line of each operation
    std::vector<std::set<uint32_t>> open(ranks); // requests started and not waited for
    std::map<uint32_t, std::shared_ptr<MpiCommunicator>> comms;
    // Each rank's collectives, with the mutable record the operation shares (alltoallv's
    // receive sizes are filled in once every member's line is read).
    std::vector<std::vector<std::shared_ptr<MpiCollective>>> collectives(ranks);
    std::istringstream in(text);
    std::string line;
    uint32_t number = 0;
    while (std::getline(in, line))
    {
        ++number;
        std::string where = at(number);
        auto binary = std::find_if(line.begin(), line.end(), [](char ch) {
            auto c = static_cast<unsigned char>(ch);
            return (c < 0x20 && c != '\t' && c != '\r') || c == 0x7f;
        });
        if (binary != line.end())
        {
            char byte[8];
            std::snprintf(byte, sizeof(byte), "0x%02x", static_cast<unsigned char>(*binary));
            return where + "not text (byte " + byte + "): a trace is a text file of MPI "
                   "operations";
        }
        line = line.substr(0, line.find('#'));
        std::istringstream words(line);
        std::vector<std::string> w;
        for (std::string x; words >> x;)
        {
            w.push_back(x);
        }
        if (w.empty())
        {
            continue;
        }
        uint64_t v = 0;
        if (w[0] == "comm")
        {
            if (w.size() < 3)
            {
                return where + "comm takes a number and the communicator's members (world "
                       "ranks), e.g. 'comm 1 0 2 4'";
            }
            if (!ParseUint(w[1], MpiCommunicator::kMaxId, v) || v == 0)
            {
                return where + "comm: '" + w[1] + "' is not a communicator number; allowed 1.." +
                       std::to_string(MpiCommunicator::kMaxId) + " (0 is MPI_COMM_WORLD)";
            }
            if (comms.count(v))
            {
                return where + "comm " + w[1] + " is defined twice";
            }
            auto c = std::make_shared<MpiCommunicator>();
            c->id = static_cast<uint32_t>(v);
            std::set<uint64_t> seen;
            for (std::size_t i = 2; i < w.size(); ++i)
            {
                uint64_t m = 0;
                if (!ParseUint(w[i], UINT32_MAX, m) || m >= ranks || !seen.insert(m).second)
                {
                    return where + "comm " + w[1] + ": member '" + w[i] +
                           "' is not a rank not yet listed; allowed 0.." +
                           std::to_string(ranks - 1);
                }
                c->members.push_back(static_cast<uint32_t>(m));
            }
            comms[c->id] = c;
            continue;
        }
        uint64_t rank = 0;
        if (!ParseUint(w[0], UINT32_MAX, rank) || rank >= ranks)
        {
            return where + "rank '" + w[0] + "' does not exist; allowed 0.." +
                   std::to_string(ranks - 1);
        }
        if (w.size() < 2)
        {
            return where + "a call is missing after the rank";
        }
        const std::string call = w[1];
        // The communicator: a last word comm=<id>.
        std::shared_ptr<MpiCommunicator> comm;
        if (w.back().rfind("comm=", 0) == 0)
        {
            std::string id = w.back().substr(5);
            if (call == "wait" || call == "waitall" || call == "compute")
            {
                return where + call + " takes no comm=";
            }
            if (!ParseUint(id, UINT32_MAX, v) || (v != 0 && !comms.count(v)))
            {
                return where + call + ": comm=" + id + " is not a communicator defined above "
                       "(a line 'comm " + id + " <ranks>' before its use; 0 is MPI_COMM_WORLD)";
            }
            comm = v == 0 ? nullptr : comms.at(v);
            w.pop_back();
        }
        auto isMember = [&comm](uint64_t r) {
            return !comm || std::find(comm->members.begin(), comm->members.end(), r) !=
                                comm->members.end();
        };
        const std::string commText = comm ? " comm=" + std::to_string(comm->id) : "";
        if (!isMember(rank))
        {
            return where + call + commText + ": rank " + std::to_string(rank) +
                   " is not a member of communicator " + std::to_string(comm->id);
        }
        auto rankArg = [&](const std::string& s, bool any, int32_t& out) -> std::string {
            uint64_t r = 0;
            if (any && s == "any")
            {
                out = MpiOperation::ANY_SOURCE;
                return "";
            }
            if (!ParseUint(s, UINT32_MAX, r) || r >= ranks || r == rank || !isMember(r))
            {
                return where + call + ": peer '" + s + "' is not another rank" +
                       (comm ? " of communicator " + std::to_string(comm->id) : "") +
                       "; allowed 0.." + std::to_string(ranks - 1) + " except " +
                       std::to_string(rank) + (any ? ", or any" : "");
            }
            out = static_cast<int32_t>(r);
            return "";
        };
        auto tagArg = [&](const std::string& s, bool any, int32_t& out) -> std::string {
            uint64_t t = 0;
            if (any && s == "any")
            {
                out = MpiOperation::ANY_TAG;
                return "";
            }
            if (!ParseUint(s, INT32_MAX, t))
            {
                return where + call + ": tag '" + s + "' is not a tag; allowed 0..2147483647" +
                       (any ? " or any" : "");
            }
            out = static_cast<int32_t>(t);
            return "";
        };
        auto sizeArg = [&](const std::string& s, uint32_t& out) -> std::string {
            uint64_t b = 0;
            if (!ParseUint(s, UINT32_MAX, b))
            {
                return where + call + ": size '" + s +
                       "' is not a message length; allowed 0..4294967295 bytes";
            }
            out = static_cast<uint32_t>(b);
            return "";
        };
        auto count = [&](std::size_t n) -> std::string {
            return w.size() == n + 2 ? ""
                                     : where + call + " takes " + std::to_string(n) +
                                           " argument(s), got " + std::to_string(w.size() - 2);
        };
        static const std::map<std::string, MpiCollective::Op> kCollectives = {
            {"barrier", MpiCollective::BARRIER},     {"bcast", MpiCollective::BCAST},
            {"reduce", MpiCollective::REDUCE},       {"allreduce", MpiCollective::ALLREDUCE},
            {"gather", MpiCollective::GATHER},       {"scatter", MpiCollective::SCATTER},
            {"allgather", MpiCollective::ALLGATHER}, {"alltoall", MpiCollective::ALLTOALL},
            {"alltoallv", MpiCollective::ALLTOALLV}};
        MpiOperation op;
        std::string err;
        if (call == "send" || call == "isend" || call == "recv" || call == "irecv")
        {
            bool immediate = call[0] == 'i';
            bool recv = call.find("recv") != std::string::npos;
            err = count(immediate ? 4 : 3);
            err = err.empty() ? rankArg(w[2], recv, op.peer) : err;
            err = err.empty() ? tagArg(w[3], recv, op.tag) : err;
            err = err.empty() ? sizeArg(w[4], op.bytes) : err;
            op.kind = recv ? (immediate ? MpiOperation::IRECV : MpiOperation::RECV)
                           : (immediate ? MpiOperation::ISEND : MpiOperation::SEND);
            op.comm = comm ? comm->id : 0;
            op.context = 2 * op.comm;
            if (err.empty() && immediate)
            {
                if (!ParseUint(w[5], kLibraryRequests - 1, v))
                {
                    err = where + call + ": request '" + w[5] +
                          "' is not a request number; allowed 0.." +
                          std::to_string(kLibraryRequests - 1);
                }
                else if (!open[rank].insert(static_cast<uint32_t>(v)).second)
                {
                    err = where + call + ": request " + w[5] + " is still outstanding";
                }
                op.request = static_cast<uint32_t>(v);
            }
        }
        else if (kCollectives.count(call))
        {
            auto c = std::make_shared<MpiCollective>();
            c->op = kCollectives.at(call);
            c->communicator = comm;
            const std::size_t members = comm ? comm->members.size() : ranks;
            bool rooted = c->op == MpiCollective::BCAST || c->op == MpiCollective::REDUCE ||
                          c->op == MpiCollective::GATHER || c->op == MpiCollective::SCATTER;
            err = count(c->op == MpiCollective::BARRIER ? 0 : rooted ? 2 : 1);
            if (err.empty() && rooted &&
                (!ParseUint(w[2], UINT32_MAX, v) || v >= ranks || !isMember(v)))
            {
                err = where + call + ": root '" + w[2] + "' is not a rank" +
                      (comm ? " of communicator " + std::to_string(comm->id) : "") +
                      "; allowed 0.." + std::to_string(ranks - 1);
            }
            c->root = rooted ? static_cast<uint32_t>(v) : 0;
            if (err.empty() && c->op == MpiCollective::ALLTOALLV)
            {
                std::istringstream list(w[2]);
                for (std::string b; std::getline(list, b, ',');)
                {
                    uint32_t bytes = 0;
                    err = err.empty() ? sizeArg(b, bytes) : err;
                    c->sendBytes.push_back(bytes);
                }
                if (err.empty() && c->sendBytes.size() != members)
                {
                    err = where + "alltoallv: " + std::to_string(c->sendBytes.size()) +
                          " sizes, one per member needed (" + std::to_string(members) +
                          ", comma-separated, by communicator rank)";
                }
            }
            else if (err.empty() && c->op != MpiCollective::BARRIER)
            {
                err = sizeArg(w[rooted ? 3 : 2], c->bytes);
            }
            op = MpiOperation::Collective(c);
            collectives[rank].push_back(c);
        }
        else if (call == "wait")
        {
            err = count(1);
            if (err.empty() && (!ParseUint(w[2], UINT32_MAX, v) || !open[rank].erase(v)))
            {
                err = where + "wait: request '" + w[2] + "' was not started by rank " +
                      std::to_string(rank) + " (or was already waited for)";
            }
            op.kind = MpiOperation::WAIT;
            op.request = static_cast<uint32_t>(v);
        }
        else if (call == "waitall")
        {
            err = count(0);
            op.kind = MpiOperation::WAITALL;
            open[rank].clear();
        }
        else if (call == "compute")
        {
            err = count(1);
            std::string why = err.empty() ? CheckTime(w[2]) : "";
            if (!why.empty())
            {
                err = where + "compute: '" + w[2] + "' is not " + why;
            }
            else if (err.empty())
            {
                ParseTime(w[2], op.duration);
            }
            op.kind = MpiOperation::COMPUTE;
        }
        else
        {
            err = where + "unknown call '" + call +
                  "'; allowed send, recv, isend, irecv, wait, waitall, compute, barrier, bcast, "
                  "reduce, allreduce, gather, scatter, allgather, alltoall, alltoallv (and comm "
                  "lines)";
        }
        if (!err.empty())
        {
            return err;
        }
        programs[rank].push_back(op);
        lines[rank].push_back(number);
    }
    if (std::all_of(programs.begin(), programs.end(), [](const auto& p) { return p.empty(); }))
    {
        return (name.empty() ? "" : name + ": ") +
               "no MPI operations (the trace is empty or only comments)";
    }
    std::string err = CheckCollectives(programs, collectives, lines, at);
    return err.empty() ? CheckTruncation(programs, lines, at) : err;
}

std::string
MpiProgram::CheckTime(const std::string& text)
{
    const std::string allowed = "a time; give a number with a unit, e.g. 10us or 2ms";
    std::size_t unit = text.find_first_not_of("0123456789.");
    if (unit == 0 || unit == std::string::npos)
    {
        return allowed;
    }
    std::string number = text.substr(0, unit);
    std::string suffix = text.substr(unit);
    if (std::count(number.begin(), number.end(), '.') > 1 || number == "." ||
        (suffix != "s" && suffix != "ms" && suffix != "us" && suffix != "ns"))
    {
        return allowed;
    }
    return ValueText::CheckTime(text);
}

bool
MpiProgram::ParseTime(const std::string& text, Time& t)
{
    if (!CheckTime(text).empty())
    {
        return false;
    }
    std::size_t unit = text.find_first_not_of("0123456789.");
    std::string number = text.substr(0, unit);
    std::string suffix = text.substr(unit);
    double v = std::stod(number);
    if (suffix == "s")
    {
        t = Time::FromDouble(v, Time::S);
    }
    else if (suffix == "ms")
    {
        t = Time::FromDouble(v, Time::MS);
    }
    else if (suffix == "us")
    {
        t = Time::FromDouble(v, Time::US);
    }
    else if (suffix == "ns")
    {
        t = Time::FromDouble(v, Time::NS);
    }
    else
    {
        return false;
    }
    return true;
}

std::string
MpiProgram::ParseFile(const std::string& path,
                      uint32_t ranks,
                      std::vector<std::vector<MpiOperation>>& programs)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
    {
        return path + ": a folder, not a trace file";
    }
    std::ifstream f(path);
    if (!f)
    {
        return "cannot read trace file '" + path + "'";
    }
    std::stringstream text;
    text << f.rdbuf();
    return MpiProgram::Parse(text.str(), ranks, programs, path);
}

std::pair<std::vector<MpiOperation>, std::vector<MpiOperation>>
MpiProgram::PingPong(int32_t a, int32_t b, int32_t tag, uint32_t bytes, uint32_t rounds)
{
    std::vector<MpiOperation> ping;
    std::vector<MpiOperation> pong;
    for (uint32_t i = 0; i < rounds; ++i)
    {
        ping.push_back(MpiOperation::Send(b, tag, bytes));
        ping.push_back(MpiOperation::Recv(b, tag, bytes));
        pong.push_back(MpiOperation::Recv(a, tag, bytes));
        pong.push_back(MpiOperation::Send(a, tag, bytes));
    }
    return {ping, pong};
}

} // namespace clusternet
} // namespace ns3
