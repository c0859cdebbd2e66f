// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_MPI_PROGRAM_H
#define CLUSTERNET_MPI_PROGRAM_H

#include "ns3/nstime.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief A communicator other than MPI_COMM_WORLD: its members, as world ranks, in the order
 * of their ranks in it.
 */
struct MpiCommunicator
{
    uint32_t id{0};                //!< its number in the trace (1..kMaxId; 0 is MPI_COMM_WORLD)
    std::vector<uint32_t> members; //!< world rank of communicator rank 0, 1, ...

    static constexpr uint32_t kMaxId = 65535; //!< highest communicator number of a trace
};

/**
 * @ingroup clusternet
 * @brief A collective call: what every member of its communicator calls, with this rank's
 * sizes. The library's algorithm (MpiCollectives) turns it into point-to-point messages.
 */
struct MpiCollective
{
    /// The collective.
    enum Op
    {
        BARRIER,   //!< MPI_Barrier
        BCAST,     //!< MPI_Bcast of @c bytes from @c root
        REDUCE,    //!< MPI_Reduce of @c bytes to @c root
        ALLREDUCE, //!< MPI_Allreduce of @c bytes
        GATHER,    //!< MPI_Gather: @c bytes from each member to @c root
        SCATTER,   //!< MPI_Scatter: @c bytes from @c root to each member
        ALLGATHER, //!< MPI_Allgather: each member's @c bytes to every member
        ALLTOALL,  //!< MPI_Alltoall: @c bytes from each member to each member
        ALLTOALLV, //!< MPI_Alltoallv: @c sendBytes[j] to member j, @c recvBytes[j] from it
    };

    Op op{BARRIER};
    uint32_t root{0};                //!< world rank of the root (BCAST, REDUCE, GATHER, SCATTER)
    uint32_t bytes{0};               //!< size as above [bytes]
    std::vector<uint32_t> sendBytes; //!< ALLTOALLV: to each member, by communicator rank [bytes]
    std::vector<uint32_t> recvBytes; //!< ALLTOALLV: from each member (filled by the parser)
    /// The members (world ranks by communicator rank); empty: MPI_COMM_WORLD
    std::shared_ptr<const MpiCommunicator> communicator;

    /// @return the collective's name as the trace format writes it ("allreduce")
    static std::string Name(Op op);
};

/**
 * @ingroup clusternet
 * @brief One MPI call of a rank's program.
 */
struct MpiOperation
{
    /// The call.
    enum Kind
    {
        SEND,    //!< MPI_Send (blocking)
        RECV,    //!< MPI_Recv (blocking)
        ISEND,   //!< MPI_Isend: starts a send, completes request @c request
        IRECV,   //!< MPI_Irecv: posts a receive, completes request @c request
        WAIT,    //!< MPI_Wait on request @c request
        WAITALL, //!< MPI_Waitall on every request still outstanding
        COMPUTE,    //!< computation for @c duration (no MPI progress in polling libraries)
        COLLECTIVE, //!< a collective call (@c collective)
    };

    static constexpr int32_t ANY_SOURCE = -1; //!< MPI_ANY_SOURCE
    static constexpr int32_t ANY_TAG = -1;    //!< MPI_ANY_TAG

    Kind kind{COMPUTE};
    int32_t peer{0};      //!< destination (sends) or source (receives, or ANY_SOURCE)
    int32_t tag{0};       //!< tag (receives: or ANY_TAG)
    uint32_t context{0};  //!< matching context: 2 x communicator (collectives' messages: + 1)
    uint32_t comm{0};     //!< communicator number of the trace (0: MPI_COMM_WORLD)
    uint32_t bytes{0};    //!< message length [bytes]
    uint32_t request{0};  //!< request id (ISEND, IRECV, WAIT)
    Time duration;        //!< COMPUTE
    std::shared_ptr<const MpiCollective> collective; //!< COLLECTIVE

    static MpiOperation Send(int32_t peer, int32_t tag, uint32_t bytes);
    static MpiOperation Recv(int32_t peer, int32_t tag, uint32_t bytes);
    static MpiOperation Isend(int32_t peer, int32_t tag, uint32_t bytes, uint32_t request);
    static MpiOperation Irecv(int32_t peer, int32_t tag, uint32_t bytes, uint32_t request);
    static MpiOperation Wait(uint32_t request);
    static MpiOperation Waitall();
    /// MPI_Barrier on MPI_COMM_WORLD
    static MpiOperation Barrier();
    /// A collective call @p c (its communicator's number is the operation's @c comm)
    static MpiOperation Collective(std::shared_ptr<const MpiCollective> c);
    static MpiOperation Compute(Time duration);

    /// @return the call as a trace-file line (without the rank)
    std::string ToString() const;
};

/**
 * @ingroup clusternet
 * @brief The programs of all ranks of an MPI job, read from a plain-text trace.
 *
 * One operation per line: the rank, the call and its arguments, blank-separated; '#' starts a
 * comment. Sizes are bytes, times carry an ns-3 unit (10us, 2ms).
 *
 *     comm 1 0 2 4        # communicator 1: world ranks 0, 2, 4 (its ranks 0, 1, 2)
 *     # rank call       arguments
 *     0      send       <dest> <tag> <bytes>
 *     1      recv       <source|any> <tag|any> <bytes>
 *     0      isend      <dest> <tag> <bytes> <request>
 *     1      irecv      <source|any> <tag|any> <bytes> <request>
 *     0      wait       <request>
 *     0      waitall
 *     0      compute    <time>
 *     0      barrier
 *     0      bcast      <root> <bytes>
 *     0      reduce     <root> <bytes>
 *     0      allreduce  <bytes>
 *     0      gather     <root> <bytes>      (bytes each member sends the root)
 *     0      scatter    <root> <bytes>      (bytes the root sends each member)
 *     0      allgather  <bytes>             (each member's contribution)
 *     0      alltoall   <bytes>             (bytes to each member)
 *     0      alltoallv  <b0,b1,...>         (bytes to each member, by communicator rank)
 *
 * Every rank number (rank, peer, root) is a world rank. A call on a communicator other than
 * MPI_COMM_WORLD ends in comm=<id> (defined by an earlier "comm" line; the rank, its peer or
 * root must be members). Requests are numbers below 2^31. Every member calls the same
 * collectives on a communicator in the same order, with the same root and sizes (an
 * alltoallv's receive sizes are the other members' send sizes); a trace where they differ is
 * refused (MPI leaves it erroneous).
 *
 * Each rank runs its lines in file order. A trace is text with at least one operation. A send
 * longer than the receive it matches is an error in MPI (MPI_ERR_TRUNCATE, fatal under the
 * default error handler MPI_ERRORS_ARE_FATAL), so it is refused here, before anything runs,
 * wherever MPI's ordering rules fix the match: a rank's receives from a source with a tag
 * match that source's sends with that tag in order. A rank with a receive from any source or
 * of any tag is not checked (which send it matches depends on timing).
 */
class MpiProgram
{
  public:
    /// Request numbers from here up are the library's own (a collective's messages).
    static constexpr uint32_t kLibraryRequests = 0x80000000;

    /**
     * Parse @p text for a job of @p ranks ranks.
     * @param[out] programs one operation list per rank
     * @param name the file's name for the messages ("name:3: ..."); empty: "line 3: ..."
     * @return "" or one line naming the line number and what is wrong
     */
    static std::string Parse(const std::string& text,
                             uint32_t ranks,
                             std::vector<std::vector<MpiOperation>>& programs,
                             const std::string& name = "");
    /**
     * Check a time written as a number and a unit (s, ms, us, ns; e.g. 10us, 2.5ms) that
     * ns-3's Time holds (ValueText::CheckTime).
     * @return "" if @p text is one, else what is allowed
     */
    static std::string CheckTime(const std::string& text);
    /**
     * Parse a time written as a number and a unit (s, ms, us, ns; e.g. 10us, 2.5ms).
     * @return false (and @p t untouched) if @p text is not one (CheckTime)
     */
    static bool ParseTime(const std::string& text, Time& t);
    /// Parse the file at @p path (see Parse); a missing file, a folder, a file that is not
    /// text are error lines too.
    static std::string ParseFile(const std::string& path,
                                 uint32_t ranks,
                                 std::vector<std::vector<MpiOperation>>& programs);
    /**
     * A blocking ping-pong: @p rounds times, rank @p a sends @p bytes to @p b and receives
     * them back; @p b receives and sends back.
     * @return the operations of @p a (first) and of @p b (second)
     */
    static std::pair<std::vector<MpiOperation>, std::vector<MpiOperation>> PingPong(
        int32_t a,
        int32_t b,
        int32_t tag,
        uint32_t bytes,
        uint32_t rounds);
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_MPI_PROGRAM_H
