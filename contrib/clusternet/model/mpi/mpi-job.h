// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_MPI_JOB_H
#define CLUSTERNET_MPI_JOB_H

#include "mpi-rank.h"

#include "ns3/nstime.h"

#include <string>
#include <vector>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief An MPI job's completion: the ranks of one program run until every one is done, or
 * until a time limit shows that some never will (a deadlock, reported rank by rank). The
 * program runs the simulator, as in any ns-3 program:
 *
 * @code
 *   if (MpiJob::StopWhenDone(ranks, limit))
 *   {
 *       Simulator::Run();
 *   }
 *   std::string deadlock = MpiJob::Blocked(ranks);
 * @endcode
 */
class MpiJob
{
  public:
    /**
     * Stop the simulation when the last of @p ranks is done, or at @p limit.
     * @return false if every rank is done already (an empty program): nothing to run
     */
    static bool StopWhenDone(const std::vector<Ptr<MpiRank>>& ranks, Time limit = Seconds(3600));

    /**
     * After the run: the ranks that did not finish.
     * @return "" if every rank finished, else a deadlock report: one line naming each blocked
     * rank, its operation and its pending sends and receives
     */
    static std::string Blocked(const std::vector<Ptr<MpiRank>>& ranks);

    /**
     * What a job that finished (Run returned "") left undone: requests started and never
     * waited for, messages no receive took (waiting at their receiver, or still in flight when
     * the last rank finished).
     * @return "" if nothing, else one line naming each rank and call
     */
    static std::string Leftovers(const std::vector<Ptr<MpiRank>>& ranks);
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_MPI_JOB_H
