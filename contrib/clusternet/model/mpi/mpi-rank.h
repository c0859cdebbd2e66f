// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_MPI_RANK_H
#define CLUSTERNET_MPI_RANK_H

#include "mpi-collectives.h"
#include "mpi-program.h"
#include "mpi-transport.h"

#include "ns3/application.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <deque>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{
namespace clusternet
{

class HostCpu;

/**
 * @ingroup clusternet
 * @brief One MPI process: runs its operation list through the MPI protocol engine of its
 * library's profile, over an MpiTransport.
 *
 * Protocol: a message of at most EagerLimit bytes (less than EagerLimit when EagerInclusive
 * is false) goes eagerly, envelope and data in one packet. A longer one is a rendezvous: an
 * RTS envelope carrying the first LongFirstBytes of data (0 for MPICH's rendezvous; LAM's
 * long protocol sends its first packet with data), a CTS from the receiver once a matching
 * receive is posted, then the rest of the data. The sender of a rendezvous completes when the
 * data is written; no data beyond LongFirstBytes moves before the CTS.
 *
 * Matching: an arriving EAGER or RTS envelope is matched against the posted receives in the
 * order they were posted, on (source or ANY_SOURCE, tag or ANY_TAG, context); unmatched, it
 * joins the unexpected queue, which a newly posted receive searches first, in arrival order.
 * The transport delivers each pair's packets in order, so messages between a pair never
 * overtake each other. Unexpected eager data was read into a library buffer and is copied to
 * the user's buffer when its receive is posted (host CPU CopyBandwidth, if UnexpectedCopy).
 *
 * Progress: with POLLING the library advances only inside MPI calls: packets that arrive
 * while the process computes are handled at its next MPI call. With EVENT_THREAD a progress
 * thread handles every arrival at once, paying ThreadSwitchCycles on the host CPU each time.
 */
class MpiRank : public Application
{
  public:
    /// Progress engine of the library.
    enum Progress
    {
        POLLING,      //!< progress only inside MPI calls
        EVENT_THREAD, //!< a thread woken by each arrival
    };

    /// Where the process's main thread is.
    enum State
    {
        NOT_STARTED, //!< before the application starts
        OUTSIDE,     //!< running its own code: computing, or between two MPI calls
        IN_CALL,     //!< inside an MPI call (a polling library makes progress)
        BLOCKED,     //!< inside a blocking call, waiting for its requests
        DONE,        //!< past the last call of its program
    };

    /// Signature of the State trace: the state before and after a transition.
    typedef void (*StateTracedCallback)(State oldValue, State newValue);

    /// Signature of the OperationDone trace: rank, index of the operation completed.
    typedef void (*OperationTracedCallback)(uint32_t rank, uint32_t index);

    /// Signature of the Received trace: source rank, tag, message length [bytes].
    typedef void (*ReceivedTracedCallback)(uint32_t source, int32_t tag, uint32_t bytes);

    static TypeId GetTypeId();
    MpiRank();
    ~MpiRank() override;

    /// This process is rank @p rank of @p size.
    void SetRank(uint32_t rank, uint32_t size);
    /// @return this process's rank
    uint32_t GetRank() const;
    /// Use @p transport (set up for this rank) for every packet.
    void SetTransport(Ptr<MpiTransport> transport);
    /// @return the transport
    Ptr<MpiTransport> GetTransport() const;
    /// The operations to run, in order.
    void SetProgram(const std::vector<MpiOperation>& program);
    /// Add operations at the end of the program; a rank that had finished goes on with them.
    void Append(const std::vector<MpiOperation>& ops);
    /// The library's collective algorithms (default: MpiCollectives' attribute defaults).
    void SetCollectives(Ptr<MpiCollectives> collectives);
    /// @return the collective algorithms (null until set or first needed)
    Ptr<MpiCollectives> GetCollectives() const;
    /// Called whenever the rank runs out of operations.
    void SetDoneCallback(std::function<void(uint32_t rank)> done);

    /// @return true once every operation has completed
    bool IsDone() const;
    /// @return the index of the operation running (the program's size when done)
    uint32_t GetProgramCounter() const;
    /// @return where the process's main thread is
    State GetState() const;
    /// @return when each completed operation completed, in program order (a collective
    /// completes with the last of its point-to-point calls)
    const std::vector<Time>& GetCompletionTimes() const;
    /// @return "" when done, else what the rank waits for (operation and pending requests)
    std::string DescribePending() const;
    /// @return what a finished rank left undone: requests it started and never waited for,
    /// and messages that reached it and no receive took ("" when nothing)
    std::string DescribeLeftovers() const;
    /// @return messages this rank sent to rank @p peer (every send call, collectives' included)
    uint64_t GetMessagesSentTo(uint32_t peer) const;
    /// @return messages from rank @p peer that a receive of this rank took
    uint64_t GetMessagesReceivedFrom(uint32_t peer) const;
    /// @return messages from rank @p peer that arrived and wait for a receive
    uint64_t GetUnreceivedFrom(uint32_t peer) const;
    /// @return @c true if a message of @p bytes goes eagerly under this profile
    bool IsEager(uint32_t bytes) const;
    /// @return messages that found no posted receive
    uint64_t GetUnexpectedMessages() const;

  protected:
    void DoDispose() override;

  private:
    /// A request: a send or receive in progress.
    struct Request
    {
        bool send{false};
        bool done{false};
        int32_t peer{0};
        int32_t tag{0};
        uint32_t context{0};
        uint32_t bytes{0};
        uint64_t id{0}; //!< send: message id; receive (rendezvous): the sender's id
        uint32_t length{0}; //!< receive: length of the message matched
        bool copied{false}; //!< receive: the library's copy to the user's buffer is done
        uint32_t op{0};     //!< index of the program operation that started it
    };

    /// A message that arrived before its receive was posted.
    struct Unexpected
    {
        MpiEnvelope envelope;
        bool complete{true}; //!< its data is in (false: matched on the envelope, data to come)
    };

    /// A packet matched on its envelope whose data is still arriving.
    struct PendingData
    {
        std::shared_ptr<Request> request; //!< the receive it goes to (null: none posted yet)
        bool unexpected{false};           //!< it found no posted receive (library buffer)
    };

    void StartApplication() override;
    void StopApplication() override;

    /// Turn the program's operations from @p first on into the calls the rank runs (a
    /// collective into its point-to-point calls).
    void Expand(uint32_t first);
    /// The main thread goes to @p state.
    void SetState(State state);
    /// Run the operation at the program counter.
    void Step();
    /// The operation at the program counter completed.
    void Complete();
    /// Re-check the blocking condition of the running operation.
    void CheckBlocked();
    /// A send's data left the user's buffer: re-check (in the event thread if there is one).
    void WrittenCheck();
    /// Run @p work as the event thread (a request it completes wakes the main thread).
    void InEventThread(const std::function<void()>& work);
    /// Who does a piece of CPU work.
    enum class Thread
    {
        MAIN,    //!< the process's own thread inside an MPI call
        CURRENT, //!< whichever thread runs the library code now (event thread or main)
        EVENT,   //!< the event thread (EventThread progress)
        COMPUTE, //!< the application's computation
    };

    /**
     * Run @p cost on the host CPU. Computation is the lowest class; with an event thread the
     * main thread's library work shares it, so the event thread (woken by I/O, in the user
     * class) runs first and the main thread only when the event thread waits.
     */
    void RunCpu(Time cost, std::function<void()> done, Thread who = Thread::CURRENT);

    std::shared_ptr<Request> StartSend(int32_t peer, int32_t tag, uint32_t context, uint32_t bytes);
    std::shared_ptr<Request> PostRecv(int32_t peer, int32_t tag, uint32_t context, uint32_t bytes);
    void SendPacket(MpiEnvelope env, std::function<void()> written);
    /// @return CPU time of a send call for @p bytes before the protocol starts (overhead and
    /// the library's send copy)
    Time SendCallCost(uint32_t bytes) const;
    bool Matches(const Request& r, const MpiEnvelope& e) const;
    /// A matched EAGER or RTS envelope for receive @p r.
    void Accept(std::shared_ptr<Request> r, const MpiEnvelope& e, bool wasUnexpected);
    /// Receive @p r has its data.
    void Received(std::shared_ptr<Request> r);

    /// The transport delivered a packet.
    void Arrived(const MpiEnvelope& e);
    /// Handle a packet (the library is making progress).
    void Handle(const MpiEnvelope& e);
    /// Handle the packets that waited for the process to enter the library.
    void DrainArrivals();
    /// The event thread read the envelope of a packet whose data follows.
    void HeaderArrived(const MpiEnvelope& e);
    /// Match an eager envelope now, before its data (event thread).
    void MatchHeader(const MpiEnvelope& e);
    /// The data of a packet matched on its envelope is in.
    void DataComplete(const MpiEnvelope& e);

    Ptr<MpiTransport> m_transport;
    Ptr<HostCpu> m_cpu;
    uint32_t m_rank{0};
    uint32_t m_size{1};
    std::vector<MpiOperation> m_program; //!< the operations as given
    std::vector<MpiOperation> m_calls;   //!< the calls run: collectives expanded
    std::vector<uint32_t> m_origin;      //!< the operation of m_program each call belongs to
    uint32_t m_pc{0};                    //!< the call running (index into m_calls)
    Ptr<MpiCollectives> m_collectives;
    std::map<uint32_t, int32_t> m_collectiveCalls; //!< collectives expanded, by communicator
    uint32_t m_libraryRequest{MpiProgram::kLibraryRequests}; //!< next request of collectives
    TracedValue<State> m_state{NOT_STARTED}; //!< where the main thread is
    bool m_eventThread{false}; //!< the event thread is running library code
    std::function<void(uint32_t)> m_done;
    std::vector<Time> m_completion;

    std::map<uint32_t, std::shared_ptr<Request>> m_requests; //!< by program request id
    std::shared_ptr<Request> m_current;                       //!< blocking SEND/RECV
    std::list<std::shared_ptr<Request>> m_posted;             //!< posted receives
    std::list<Unexpected> m_unexpected;                       //!< arrival order
    std::map<uint64_t, std::shared_ptr<Request>> m_rendezvousSends;   //!< by message id
    std::map<std::pair<uint32_t, uint64_t>, std::shared_ptr<Request>> m_rendezvousRecvs;
    std::deque<MpiEnvelope> m_arrivals; //!< waiting for the process to enter the library
    std::map<std::pair<uint32_t, uint64_t>, PendingData> m_pendingData; //!< by (source, id)
    uint64_t m_nextId{1};
    uint64_t m_unexpectedCount{0};
    std::map<uint32_t, uint64_t> m_sentTo;       //!< messages sent, by destination rank
    std::map<uint32_t, uint64_t> m_receivedFrom; //!< messages a receive took, by source rank

    uint32_t m_eagerLimit;
    bool m_eagerInclusive;
    uint32_t m_longFirstBytes;
    uint32_t m_envelopeBytes;
    double m_sendCycles; //!< library work per send call [reference cycles]
    double m_recvCycles; //!< library work per receive call [reference cycles]
    bool m_unexpectedCopy;
    bool m_receiveCopy;
    bool m_sendCopy; //!< the library copies the data into its own send buffer first
    Progress m_progress;
    double m_threadSwitchCycles; //!< waking the progress thread [reference cycles]

    TracedCallback<uint32_t, uint32_t> m_opTrace; //!< (rank, operation index) completed
    /// A receive completed: source rank, tag, message length
    TracedCallback<uint32_t, int32_t, uint32_t> m_recvTrace;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_MPI_RANK_H
