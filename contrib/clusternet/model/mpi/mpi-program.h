// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_MPI_PROGRAM_H
#define CLUSTERNET_MPI_PROGRAM_H

#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace clusternet
{

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
        BARRIER, //!< MPI_Barrier on MPI_COMM_WORLD
        COMPUTE, //!< computation for @c duration (no MPI progress in polling libraries)
    };

    static constexpr int32_t ANY_SOURCE = -1; //!< MPI_ANY_SOURCE
    static constexpr int32_t ANY_TAG = -1;    //!< MPI_ANY_TAG

    Kind kind{COMPUTE};
    int32_t peer{0};      //!< destination (sends) or source (receives, or ANY_SOURCE)
    int32_t tag{0};       //!< tag (receives: or ANY_TAG)
    uint32_t context{0};  //!< communicator context id (0: MPI_COMM_WORLD)
    uint32_t bytes{0};    //!< message length [bytes]
    uint32_t request{0};  //!< request id (ISEND, IRECV, WAIT)
    Time duration;        //!< COMPUTE

    static MpiOperation Send(int32_t peer, int32_t tag, uint32_t bytes);
    static MpiOperation Recv(int32_t peer, int32_t tag, uint32_t bytes);
    static MpiOperation Isend(int32_t peer, int32_t tag, uint32_t bytes, uint32_t request);
    static MpiOperation Irecv(int32_t peer, int32_t tag, uint32_t bytes, uint32_t request);
    static MpiOperation Wait(uint32_t request);
    static MpiOperation Waitall();
    static MpiOperation Barrier();
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
 *     # rank call       arguments
 *     0      send       <dest> <tag> <bytes>
 *     1      recv       <source|any> <tag|any> <bytes>
 *     0      isend      <dest> <tag> <bytes> <request>
 *     1      irecv      <source|any> <tag|any> <bytes> <request>
 *     0      wait       <request>
 *     0      waitall
 *     0      barrier
 *     0      compute    <time>
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
