// SPDX-License-Identifier: GPL-2.0-only
#include "mpi-rank.h"

#include "ns3/host-cpu.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("MpiRank");
NS_OBJECT_ENSURE_REGISTERED(MpiRank);

TypeId
MpiRank::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::MpiRank")
            .SetParent<Application>()
            .SetGroupName("Clusternet")
            .AddConstructor<MpiRank>()
            .AddAttribute("EagerLimit",
                          "Switch-over point between the short (eager) and long (rendezvous) "
                          "protocols [bytes].",
                          UintegerValue(131072),
                          MakeUintegerAccessor(&MpiRank::m_eagerLimit),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("EagerInclusive",
                          "true: a message of exactly EagerLimit bytes is still short "
                          "(length <= limit); false: it is already long (length < limit is "
                          "short).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MpiRank::m_eagerInclusive),
                          MakeBooleanChecker())
            .AddAttribute("LongFirstBytes",
                          "Data bytes a long message's first packet (RTS) carries before the "
                          "receiver's go-ahead [bytes]: 0 for a pure rendezvous (MPICH), the "
                          "first packet's data for LAM's long protocol.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MpiRank::m_longFirstBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("EnvelopeBytes",
                          "Size of the library's envelope (header) on every packet [bytes].",
                          UintegerValue(32),
                          MakeUintegerAccessor(&MpiRank::m_envelopeBytes),
                          MakeUintegerChecker<uint32_t>(0, 65536))
            .AddAttribute("SendCycles",
                          "Host CPU work of the library per send call, beyond the transport "
                          "[reference cycles; see HostCpu::CoreFactor].",
                          DoubleValue(900),
                          MakeDoubleAccessor(&MpiRank::m_sendCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddAttribute("RecvCycles",
                          "Host CPU work of the library per receive call, beyond the transport "
                          "[reference cycles].",
                          DoubleValue(900),
                          MakeDoubleAccessor(&MpiRank::m_recvCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddAttribute("UnexpectedCopy",
                          "Unexpected eager data waits in a library buffer and is copied to "
                          "the user's buffer when the receive is posted (host CPU "
                          "CopyBandwidth).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MpiRank::m_unexpectedCopy),
                          MakeBooleanChecker())
            .AddAttribute("ReceiveCopy",
                          "The library reads every message's data into a buffer of its own "
                          "and copies it to the user's buffer once the message is complete "
                          "(host CPU CopyBandwidth), expected or not.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&MpiRank::m_receiveCopy),
                          MakeBooleanChecker())
            .AddAttribute("SendCopy",
                          "The library copies every message's data into a send buffer of its "
                          "own before sending (PVM's pvm_pkbyte; host CPU CopyBandwidth).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&MpiRank::m_sendCopy),
                          MakeBooleanChecker())
            .AddAttribute("Progress",
                          "Progress engine: Polling (the transport reads, writes and answers "
                          "only inside MPI calls; while the process computes, data waits in "
                          "the kernel's buffers) or EventThread (a thread woken by each "
                          "arrival, which preempts the computation and moves data meanwhile).",
                          EnumValue(MpiRank::POLLING),
                          MakeEnumAccessor<Progress>(&MpiRank::m_progress),
                          MakeEnumChecker(MpiRank::POLLING,
                                          "Polling",
                                          MpiRank::EVENT_THREAD,
                                          "EventThread"))
            .AddAttribute("ThreadSwitchCycles",
                          "Host CPU work to wake the progress thread for an arrival "
                          "(EventThread) [reference cycles].",
                          DoubleValue(4500),
                          MakeDoubleAccessor(&MpiRank::m_threadSwitchCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddAttribute("Transport",
                          "The transport the rank sends and receives through (set by "
                          "SetTransport; read-only here, so a Config path reaches it).",
                          TypeId::ATTR_GET,
                          PointerValue(),
                          MakePointerAccessor(&MpiRank::GetTransport),
                          MakePointerChecker<MpiTransport>())
            .AddAttribute("Collectives",
                          "The library's collective algorithms (set by SetCollectives; "
                          "read-only here, so a Config path reaches them).",
                          TypeId::ATTR_GET,
                          PointerValue(),
                          MakePointerAccessor(&MpiRank::GetCollectives),
                          MakePointerChecker<MpiCollectives>())
            .AddTraceSource("OperationDone",
                            "An operation of the program completed: rank, operation index.",
                            MakeTraceSourceAccessor(&MpiRank::m_opTrace),
                            "ns3::clusternet::MpiRank::OperationTracedCallback")
            .AddTraceSource("Received",
                            "A receive completed: source rank, tag, message length.",
                            MakeTraceSourceAccessor(&MpiRank::m_recvTrace),
                            "ns3::clusternet::MpiRank::ReceivedTracedCallback")
            .AddTraceSource("State",
                            "Where the process's main thread is: not started, outside the "
                            "library, in a call, blocked in a call, done.",
                            MakeTraceSourceAccessor(&MpiRank::m_state),
                            "ns3::clusternet::MpiRank::StateTracedCallback");
    return tid;
}

MpiRank::MpiRank()
{
    NS_LOG_FUNCTION(this);
}

MpiRank::~MpiRank()
{
    NS_LOG_FUNCTION(this);
}

void
MpiRank::DoDispose()
{
    if (m_transport)
    {
        m_transport->SetDeliverCallback(nullptr);
    }
    m_transport = nullptr;
    m_cpu = nullptr;
    m_requests.clear();
    m_current = nullptr;
    m_collectives = nullptr;
    m_posted.clear();
    m_unexpected.clear();
    m_pendingData.clear();
    m_rendezvousSends.clear();
    m_rendezvousRecvs.clear();
    m_arrivals.clear();
    m_done = nullptr;
    Application::DoDispose();
}

void
MpiRank::SetRank(uint32_t rank, uint32_t size)
{
    m_rank = rank;
    m_size = size;
    Expand(0);
}

uint32_t
MpiRank::GetRank() const
{
    return m_rank;
}

void
MpiRank::SetTransport(Ptr<MpiTransport> transport)
{
    m_transport = transport;
    m_transport->SetDeliverCallback([this](const MpiEnvelope& e) { Arrived(e); });
}

Ptr<MpiTransport>
MpiRank::GetTransport() const
{
    return m_transport;
}

void
MpiRank::SetProgram(const std::vector<MpiOperation>& program)
{
    NS_ABORT_MSG_IF(m_state != NOT_STARTED, "MpiRank " << m_rank << ": SetProgram after the start (Append)");
    m_program = program;
    Expand(0);
}

Ptr<MpiCollectives>
MpiRank::GetCollectives() const
{
    return m_collectives;
}

void
MpiRank::SetCollectives(Ptr<MpiCollectives> collectives)
{
    NS_ABORT_MSG_IF(m_state != NOT_STARTED,
                    "MpiRank " << m_rank << ": SetCollectives after the start");
    m_collectives = collectives;
    Expand(0);
}

void
MpiRank::Expand(uint32_t first)
{
    if (first == 0)
    {
        m_calls.clear();
        m_origin.clear();
        m_collectiveCalls.clear();
        m_libraryRequest = MpiProgram::kLibraryRequests;
    }
    for (uint32_t i = first; i < m_program.size(); ++i)
    {
        const MpiOperation& op = m_program[i];
        std::vector<MpiOperation> calls;
        if (op.kind == MpiOperation::COLLECTIVE)
        {
            if (!m_collectives)
            {
                m_collectives = CreateObject<MpiCollectives>();
            }
            int32_t tag = m_collectiveCalls[op.comm]++;
            calls = m_collectives->Expand(*op.collective, m_size, m_rank, tag, m_libraryRequest);
        }
        if (calls.empty())
        {
            calls.push_back(op); // (a collective of one member: nothing to send)
        }
        m_calls.insert(m_calls.end(), calls.begin(), calls.end());
        m_origin.insert(m_origin.end(), calls.size(), i);
    }
}

void
MpiRank::Append(const std::vector<MpiOperation>& ops)
{
    bool resume = m_state != NOT_STARTED && IsDone();
    uint32_t first = m_program.size();
    m_program.insert(m_program.end(), ops.begin(), ops.end());
    Expand(first);
    if (resume && !ops.empty())
    {
        Simulator::ScheduleNow(&MpiRank::Step, this);
    }
}

void
MpiRank::SetDoneCallback(std::function<void(uint32_t)> done)
{
    m_done = done;
}

bool
MpiRank::IsDone() const
{
    return m_pc >= m_calls.size();
}

MpiRank::State
MpiRank::GetState() const
{
    return m_state;
}

void
MpiRank::SetState(State state)
{
    if (state != m_state)
    {
        NS_LOG_LOGIC("rank " << m_rank << ": state " << m_state.Get() << " -> " << state);
    }
    m_state = state;
}

uint32_t
MpiRank::GetProgramCounter() const
{
    return IsDone() ? m_program.size() : m_origin[m_pc];
}

const std::vector<Time>&
MpiRank::GetCompletionTimes() const
{
    return m_completion;
}

uint64_t
MpiRank::GetUnexpectedMessages() const
{
    return m_unexpectedCount;
}

bool
MpiRank::IsEager(uint32_t bytes) const
{
    return m_eagerInclusive ? bytes <= m_eagerLimit : bytes < m_eagerLimit;
}

std::string
MpiRank::DescribePending() const
{
    if (IsDone())
    {
        return "";
    }
    auto who = [](int32_t v) { return v < 0 ? std::string("any") : std::to_string(v); };
    std::ostringstream os;
    const MpiOperation& op = m_program[m_origin[m_pc]];
    os << "rank " << m_rank << " blocked in operation " << m_origin[m_pc] << " '" << op.ToString()
       << "'";
    if (op.kind == MpiOperation::COLLECTIVE)
    {
        os << " at its call '" << m_calls[m_pc].ToString() << "'";
    }
    std::vector<std::string> pending;
    for (const auto& r : m_posted)
    {
        pending.push_back("recv from " + who(r->peer) + " tag " + who(r->tag) +
                          (r->context % 2 == 1 ? " (collective)" : ""));
    }
    for (const auto& [id, r] : m_rendezvousSends)
    {
        pending.push_back("send to " + std::to_string(r->peer) + " tag " + who(r->tag) +
                          " awaiting CTS");
    }
    if (!pending.empty())
    {
        os << ", pending:";
        for (std::size_t i = 0; i < pending.size(); ++i)
        {
            os << (i ? "; " : " ") << pending[i];
        }
    }
    return os.str();
}

std::string
MpiRank::DescribeLeftovers() const
{
    if (!IsDone())
    {
        return "";
    }
    std::vector<std::string> left;
    for (const auto& [id, r] : m_requests)
    {
        left.push_back("request " + std::to_string(id) + " of operation " +
                       std::to_string(m_origin[r->op]) + " '" +
                       m_program[m_origin[r->op]].ToString() +
                       "' never waited for");
    }
    for (const auto& u : m_unexpected)
    {
        left.push_back("message from rank " + std::to_string(u.envelope.src) + " tag " +
                       std::to_string(u.envelope.tag) + " (" +
                       std::to_string(u.envelope.length) + " bytes) never received");
    }
    std::string text;
    for (std::size_t i = 0; i < left.size(); ++i)
    {
        text += (i ? "; " : "rank " + std::to_string(m_rank) + ": ") + left[i];
    }
    return text;
}

uint64_t
MpiRank::GetMessagesSentTo(uint32_t peer) const
{
    auto it = m_sentTo.find(peer);
    return it == m_sentTo.end() ? 0 : it->second;
}

uint64_t
MpiRank::GetMessagesReceivedFrom(uint32_t peer) const
{
    auto it = m_receivedFrom.find(peer);
    return it == m_receivedFrom.end() ? 0 : it->second;
}

uint64_t
MpiRank::GetUnreceivedFrom(uint32_t peer) const
{
    uint64_t n = 0;
    for (const auto& u : m_unexpected)
    {
        n += u.envelope.src == peer ? 1 : 0;
    }
    return n;
}

void
MpiRank::RunCpu(Time cost, std::function<void()> done, Thread who)
{
    if (who == Thread::CURRENT)
    {
        who = m_eventThread ? Thread::EVENT : Thread::MAIN;
    }
    HostCpu::Priority prio = HostCpu::USER;
    if (who == Thread::COMPUTE || (who == Thread::MAIN && m_progress == EVENT_THREAD))
    {
        prio = HostCpu::COMPUTE;
    }
    if (m_cpu)
    {
        m_cpu->Execute(cost, prio, Callback<void>(done));
    }
    else
    {
        Simulator::Schedule(cost, done);
    }
}

// ---------------------------------------------------------------- program

void
MpiRank::StartApplication()
{
    NS_LOG_FUNCTION(this << m_rank);
    NS_ABORT_MSG_UNLESS(m_transport, "MpiRank: no transport");
    m_cpu = GetNode()->GetObject<HostCpu>();
    if (m_progress == EVENT_THREAD)
    {
        // The event thread reads each envelope first and matches it at once, so a message
        // whose receive is not yet posted is unexpected even if the post comes before its data.
        m_transport->SetHeaderCallback([this](const MpiEnvelope& e) { HeaderArrived(e); });
    }
    SetState(OUTSIDE);
    Step();
}

void
MpiRank::StopApplication()
{
}

void
MpiRank::Step()
{
    if (IsDone())
    {
        SetState(DONE);
        m_transport->SetProgressing(true); // finished: nothing competes with the library
        if (m_done)
        {
            m_done(m_rank);
        }
        return;
    }
    const MpiOperation op = m_calls[m_pc];
    NS_LOG_FUNCTION(this << m_rank << m_pc << op.ToString());
    const bool inLibrary = op.kind != MpiOperation::COMPUTE;
    SetState(inLibrary ? IN_CALL : OUTSIDE);
    // A polling library's transport moves data only inside MPI calls; an event thread always.
    m_transport->SetProgressing(inLibrary || m_progress == EVENT_THREAD);
    if (inLibrary)
    {
        DrainArrivals();
    }
    switch (op.kind)
    {
    case MpiOperation::SEND:
        RunCpu(SendCallCost(op.bytes), [this, op]() {
            m_current = StartSend(op.peer, op.tag, op.context, op.bytes);
            SetState(BLOCKED);
            CheckBlocked();
        });
        break;
    case MpiOperation::ISEND:
        RunCpu(SendCallCost(op.bytes), [this, op]() {
            m_requests[op.request] = StartSend(op.peer, op.tag, op.context, op.bytes);
            m_requests[op.request]->op = m_pc;
            Complete();
        });
        break;
    case MpiOperation::RECV:
        RunCpu(HostCpu::CyclesToTime(m_cpu, m_recvCycles), [this, op]() {
            m_current = PostRecv(op.peer, op.tag, op.context, op.bytes);
            SetState(BLOCKED);
            CheckBlocked();
        });
        break;
    case MpiOperation::IRECV:
        RunCpu(HostCpu::CyclesToTime(m_cpu, m_recvCycles), [this, op]() {
            m_requests[op.request] = PostRecv(op.peer, op.tag, op.context, op.bytes);
            m_requests[op.request]->op = m_pc;
            Complete();
        });
        break;
    case MpiOperation::WAIT:
    case MpiOperation::WAITALL:
        SetState(BLOCKED);
        CheckBlocked();
        break;
    case MpiOperation::COLLECTIVE:
        Complete(); // a collective of one member: no call to make
        break;
    case MpiOperation::COMPUTE:
        RunCpu(op.duration, [this]() { Complete(); }, Thread::COMPUTE);
        break;
    }
}

Time
MpiRank::SendCallCost(uint32_t bytes) const
{
    Time cost = HostCpu::CyclesToTime(m_cpu, m_sendCycles);
    if (m_sendCopy && m_cpu && bytes > 0)
    {
        cost += m_cpu->CopyCost(bytes);
    }
    return cost;
}

void
MpiRank::CheckBlocked()
{
    if (m_state != BLOCKED)
    {
        return;
    }
    const MpiOperation& op = m_calls[m_pc];
    bool done = false;
    switch (op.kind)
    {
    case MpiOperation::SEND:
    case MpiOperation::RECV:
        done = m_current && m_current->done;
        if (done)
        {
            m_current = nullptr;
        }
        break;
    case MpiOperation::WAIT: {
        auto it = m_requests.find(op.request);
        NS_ABORT_MSG_IF(it == m_requests.end(),
                        "MpiRank " << m_rank << ": wait on request " << op.request
                                   << " that was never started");
        done = it->second->done;
        if (done)
        {
            m_requests.erase(it);
        }
        break;
    }
    case MpiOperation::WAITALL:
        done = true;
        for (const auto& [id, r] : m_requests)
        {
            done = done && r->done;
        }
        if (done)
        {
            m_requests.clear();
        }
        break;
    default:
        break;
    }
    if (done)
    {
        SetState(IN_CALL);
        if (m_progress == EVENT_THREAD && m_eventThread)
        {
            // The event thread finished the request and signals the blocked main thread,
            // which runs again after a thread switch; the event thread goes on meanwhile.
            RunCpu(
                HostCpu::CyclesToTime(m_cpu, m_threadSwitchCycles),
                [this]() { Complete(); },
                Thread::MAIN);
            return;
        }
        Complete();
    }
}

void
MpiRank::WrittenCheck()
{
    // With an event thread, the socket writes (and their completion) are the thread's.
    if (m_progress == EVENT_THREAD)
    {
        InEventThread([this]() { CheckBlocked(); });
        return;
    }
    CheckBlocked();
}

void
MpiRank::InEventThread(const std::function<void()>& work)
{
    bool was = m_eventThread;
    m_eventThread = true;
    work();
    m_eventThread = was;
}

void
MpiRank::Complete()
{
    NS_LOG_FUNCTION(this << m_rank << m_pc);
    const uint32_t op = m_origin[m_pc];
    ++m_pc;
    if (m_pc == m_calls.size() || m_origin[m_pc] != op)
    {
        m_completion.push_back(Simulator::Now());
        m_opTrace(m_rank, op);
    }
    SetState(OUTSIDE);
    Simulator::ScheduleNow(&MpiRank::Step, this);
}

// ---------------------------------------------------------------- protocol

void
MpiRank::SendPacket(MpiEnvelope env, std::function<void()> written)
{
    env.src = m_rank;
    m_transport->Send(env, m_envelopeBytes, written);
}

std::shared_ptr<MpiRank::Request>
MpiRank::StartSend(int32_t peer, int32_t tag, uint32_t context, uint32_t bytes)
{
    NS_ASSERT_MSG(peer >= 0 && static_cast<uint32_t>(peer) < m_size && peer != int32_t(m_rank),
                  "MpiRank " << m_rank << ": send to rank " << peer);
    auto r = std::make_shared<Request>();
    r->send = true;
    r->peer = peer;
    r->tag = tag;
    r->context = context;
    r->bytes = bytes;
    r->id = m_nextId++;
    ++m_sentTo[peer];
    MpiEnvelope env;
    env.dst = peer;
    env.tag = tag;
    env.context = context;
    env.length = bytes;
    env.id = r->id;
    if (IsEager(bytes))
    {
        env.kind = MpiEnvelope::EAGER;
        env.payload = bytes;
        SendPacket(env, [this, r]() {
            r->done = true;
            WrittenCheck();
        });
    }
    else
    {
        env.kind = MpiEnvelope::RTS;
        env.payload = std::min(bytes, m_longFirstBytes);
        if (env.payload == bytes)
        {
            // The first packet carries it all: nothing waits for the go-ahead.
            SendPacket(env, [this, r]() {
                r->done = true;
                WrittenCheck();
            });
            return r;
        }
        m_rendezvousSends[r->id] = r;
        SendPacket(env, nullptr);
    }
    return r;
}

std::shared_ptr<MpiRank::Request>
MpiRank::PostRecv(int32_t peer, int32_t tag, uint32_t context, uint32_t bytes)
{
    auto r = std::make_shared<Request>();
    r->peer = peer;
    r->tag = tag;
    r->context = context;
    r->bytes = bytes;
    for (auto it = m_unexpected.begin(); it != m_unexpected.end(); ++it)
    {
        if (Matches(*r, it->envelope))
        {
            MpiEnvelope e = it->envelope;
            bool complete = it->complete;
            m_unexpected.erase(it);
            if (!complete)
            {
                // Matched on its envelope; the data still arrives into library memory.
                m_pendingData[{e.src, e.id}] = {r, true};
                return r;
            }
            Accept(r, e, true);
            return r;
        }
    }
    m_posted.push_back(r);
    return r;
}

bool
MpiRank::Matches(const Request& r, const MpiEnvelope& e) const
{
    return (r.peer == MpiOperation::ANY_SOURCE || r.peer == static_cast<int32_t>(e.src)) &&
           (r.tag == MpiOperation::ANY_TAG || r.tag == e.tag) && r.context == e.context;
}

void
MpiRank::Accept(std::shared_ptr<Request> r, const MpiEnvelope& e, bool wasUnexpected)
{
    NS_LOG_FUNCTION(this << m_rank << e << wasUnexpected);
    ++m_receivedFrom[e.src];
    r->peer = e.src; // the status's source
    r->tag = e.tag;
    r->length = e.length;
    if (e.kind == MpiEnvelope::EAGER || e.payload >= e.length)
    {
        if (wasUnexpected && m_unexpectedCopy && !m_receiveCopy && m_cpu && e.payload > 0)
        {
            // The data waited in a library buffer: copy it to the user's.
            RunCpu(m_cpu->CopyCost(e.payload), [this, r]() { Received(r); });
            return;
        }
        Received(r);
        return;
    }
    // Rendezvous: tell the sender to go ahead.
    r->id = e.id;
    m_rendezvousRecvs[{e.src, e.id}] = r;
    MpiEnvelope cts;
    cts.kind = MpiEnvelope::CTS;
    cts.dst = e.src;
    cts.tag = e.tag;
    cts.context = e.context;
    cts.length = e.length;
    cts.payload = 0;
    cts.id = e.id;
    SendPacket(cts, nullptr);
}

void
MpiRank::Received(std::shared_ptr<Request> r)
{
    if (m_receiveCopy && m_cpu && r->length > 0 && !r->copied)
    {
        r->copied = true;
        RunCpu(m_cpu->CopyCost(r->length), [this, r]() { Received(r); });
        return;
    }
    r->done = true;
    m_recvTrace(r->peer, r->tag, r->length);
    CheckBlocked();
}

void
MpiRank::Arrived(const MpiEnvelope& e)
{
    NS_LOG_FUNCTION(this << m_rank << e);
    if (m_progress == EVENT_THREAD)
    {
        if (e.kind == MpiEnvelope::EAGER && m_pendingData.count({e.src, e.id}))
        {
            // The thread woke for the envelope and read the data in the same wake-up.
            InEventThread([this, e]() { DataComplete(e); });
            return;
        }
        RunCpu(
            HostCpu::CyclesToTime(m_cpu, m_threadSwitchCycles),
            [this, e]() { InEventThread([this, e]() { Handle(e); }); },
            Thread::EVENT);
    }
    else if (m_state == IN_CALL || m_state == BLOCKED || m_state == NOT_STARTED)
    {
        if (m_state != NOT_STARTED)
        {
            Handle(e);
        }
        else
        {
            m_arrivals.push_back(e);
        }
    }
    else
    {
        m_arrivals.push_back(e); // computing: handled at the next MPI call
    }
}

void
MpiRank::HeaderArrived(const MpiEnvelope& e)
{
    NS_LOG_FUNCTION(this << m_rank << e);
    if (e.kind != MpiEnvelope::EAGER)
    {
        return; // rendezvous data is matched already; an RTS carries no data here
    }
    m_pendingData[{e.src, e.id}] = {nullptr, false}; // its data will complete it
    RunCpu(
        HostCpu::CyclesToTime(m_cpu, m_threadSwitchCycles),
        [this, e]() { InEventThread([this, e]() { MatchHeader(e); }); },
        Thread::EVENT);
}

void
MpiRank::MatchHeader(const MpiEnvelope& e)
{
    auto key = std::make_pair(e.src, e.id);
    for (auto it = m_posted.begin(); it != m_posted.end(); ++it)
    {
        if (Matches(**it, e))
        {
            std::shared_ptr<Request> r = *it;
            m_posted.erase(it);
            m_pendingData[key] = {r, false};
            return;
        }
    }
    ++m_unexpectedCount;
    m_pendingData[key] = {nullptr, true};
    m_unexpected.push_back({e, false});
}

void
MpiRank::DataComplete(const MpiEnvelope& e)
{
    auto key = std::make_pair(e.src, e.id);
    auto it = m_pendingData.find(key);
    NS_ASSERT_MSG(it != m_pendingData.end(), "MpiRank: data for no envelope " << e);
    PendingData p = it->second;
    if (!p.request && !p.unexpected)
    {
        // The envelope's own wake-up has not run yet: match after it, in order.
        RunCpu(
            Seconds(0),
            [this, e]() { InEventThread([this, e]() { DataComplete(e); }); },
            Thread::EVENT);
        return;
    }
    m_pendingData.erase(it);
    if (p.request)
    {
        Accept(p.request, e, p.unexpected);
        return;
    }
    for (auto& u : m_unexpected)
    {
        if (u.envelope.src == e.src && u.envelope.id == e.id)
        {
            u.complete = true; // waits in library memory for its receive
            return;
        }
    }
    NS_ASSERT_MSG(false, "MpiRank: unexpected data with no envelope " << e);
}

void
MpiRank::DrainArrivals()
{
    while (!m_arrivals.empty())
    {
        MpiEnvelope e = m_arrivals.front();
        m_arrivals.pop_front();
        Handle(e);
    }
}

void
MpiRank::Handle(const MpiEnvelope& e)
{
    switch (e.kind)
    {
    case MpiEnvelope::EAGER:
    case MpiEnvelope::RTS:
        for (auto it = m_posted.begin(); it != m_posted.end(); ++it)
        {
            if (Matches(**it, e))
            {
                std::shared_ptr<Request> r = *it;
                m_posted.erase(it);
                Accept(r, e, false);
                return;
            }
        }
        ++m_unexpectedCount;
        m_unexpected.push_back({e});
        return;
    case MpiEnvelope::CTS: {
        auto it = m_rendezvousSends.find(e.id);
        NS_ASSERT_MSG(it != m_rendezvousSends.end(), "MpiRank: CTS for no pending send " << e);
        std::shared_ptr<Request> r = it->second;
        m_rendezvousSends.erase(it);
        MpiEnvelope data;
        data.kind = MpiEnvelope::DATA;
        data.dst = e.src;
        data.tag = r->tag;
        data.context = r->context;
        data.length = r->bytes;
        data.payload = r->bytes - std::min(r->bytes, m_longFirstBytes);
        data.id = r->id;
        SendPacket(data, [this, r]() {
            r->done = true;
            CheckBlocked();
        });
        return;
    }
    case MpiEnvelope::DATA: {
        auto it = m_rendezvousRecvs.find({e.src, e.id});
        NS_ASSERT_MSG(it != m_rendezvousRecvs.end(), "MpiRank: DATA before its CTS " << e);
        std::shared_ptr<Request> r = it->second;
        m_rendezvousRecvs.erase(it);
        Received(r);
        return;
    }
    }
}

} // namespace clusternet
} // namespace ns3
