// SPDX-License-Identifier: GPL-2.0-only
#include "mpi-program.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

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
    MpiOperation op;
    op.kind = BARRIER;
    return op;
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
    case BARRIER:
        os << "barrier";
        break;
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

} // namespace

std::string
MpiProgram::Parse(const std::string& text,
                  uint32_t ranks,
                  std::vector<std::vector<MpiOperation>>& programs)
{
    programs.assign(ranks, {});
    std::vector<std::set<uint32_t>> open(ranks); // requests started and not waited for
    std::istringstream in(text);
    std::string line;
    uint32_t number = 0;
    while (std::getline(in, line))
    {
        ++number;
        std::string where = "line " + std::to_string(number) + ": ";
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
        const std::string& call = w[1];
        auto rankArg = [&](const std::string& s, bool any, int32_t& out) -> std::string {
            uint64_t v = 0;
            if (any && s == "any")
            {
                out = MpiOperation::ANY_SOURCE;
                return "";
            }
            if (!ParseUint(s, UINT32_MAX, v) || v >= ranks || v == rank)
            {
                return where + call + ": peer '" + s + "' is not another rank; allowed 0.." +
                       std::to_string(ranks - 1) + " except " + std::to_string(rank) +
                       (any ? ", or any" : "");
            }
            out = static_cast<int32_t>(v);
            return "";
        };
        auto tagArg = [&](const std::string& s, bool any, int32_t& out) -> std::string {
            uint64_t v = 0;
            if (any && s == "any")
            {
                out = MpiOperation::ANY_TAG;
                return "";
            }
            if (!ParseUint(s, INT32_MAX, v))
            {
                return where + call + ": tag '" + s + "' is not a tag; allowed 0..2147483647" +
                       (any ? " or any" : "");
            }
            out = static_cast<int32_t>(v);
            return "";
        };
        auto count = [&](std::size_t n) -> std::string {
            return w.size() == n + 2 ? ""
                                     : where + call + " takes " + std::to_string(n) +
                                           " argument(s), got " + std::to_string(w.size() - 2);
        };
        MpiOperation op;
        std::string err;
        uint64_t v = 0;
        if (call == "send" || call == "isend" || call == "recv" || call == "irecv")
        {
            bool immediate = call[0] == 'i';
            bool recv = call.find("recv") != std::string::npos;
            err = count(immediate ? 4 : 3);
            err = err.empty() ? rankArg(w[2], recv, op.peer) : err;
            err = err.empty() ? tagArg(w[3], recv, op.tag) : err;
            if (err.empty() && !ParseUint(w[4], UINT32_MAX, v))
            {
                err = where + call + ": size '" + w[4] +
                      "' is not a message length; allowed 0..4294967295 bytes";
            }
            op.bytes = static_cast<uint32_t>(v);
            op.kind = recv ? (immediate ? MpiOperation::IRECV : MpiOperation::RECV)
                           : (immediate ? MpiOperation::ISEND : MpiOperation::SEND);
            if (err.empty() && immediate)
            {
                if (!ParseUint(w[5], UINT32_MAX, v))
                {
                    err = where + call + ": request '" + w[5] + "' is not a request number";
                }
                else if (!open[rank].insert(static_cast<uint32_t>(v)).second)
                {
                    err = where + call + ": request " + w[5] + " is still outstanding";
                }
                op.request = static_cast<uint32_t>(v);
            }
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
        else if (call == "waitall" || call == "barrier")
        {
            err = count(0);
            op.kind = call == "barrier" ? MpiOperation::BARRIER : MpiOperation::WAITALL;
            if (call == "waitall")
            {
                open[rank].clear();
            }
        }
        else if (call == "compute")
        {
            err = count(1);
            if (err.empty() && !ParseTime(w[2], op.duration))
            {
                err = where + "compute: '" + w[2] +
                      "' is not a time; give a number with a unit, e.g. 10us or 2ms";
            }
            op.kind = MpiOperation::COMPUTE;
        }
        else
        {
            err = where + "unknown call '" + call +
                  "'; allowed send, recv, isend, irecv, wait, waitall, barrier, compute";
        }
        if (!err.empty())
        {
            return err;
        }
        programs[rank].push_back(op);
    }
    return "";
}

bool
MpiProgram::ParseTime(const std::string& text, Time& t)
{
    std::size_t unit = text.find_first_not_of("0123456789.");
    if (unit == 0 || unit == std::string::npos || text.size() > 24)
    {
        return false;
    }
    std::string number = text.substr(0, unit);
    std::string suffix = text.substr(unit);
    if (std::count(number.begin(), number.end(), '.') > 1 || number == ".")
    {
        return false;
    }
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
    std::ifstream f(path);
    if (!f)
    {
        return "cannot read trace file '" + path + "'";
    }
    std::stringstream text;
    text << f.rdbuf();
    return MpiProgram::Parse(text.str(), ranks, programs);
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
