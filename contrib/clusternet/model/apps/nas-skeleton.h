// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_NAS_SKELETON_H
#define CLUSTERNET_NAS_SKELETON_H

#include "ns3/mpi-job-builder.h"
#include "ns3/mpi-program.h"

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief The operation lists of a NAS benchmark skeleton and where its timed region lies.
 *
 * Only a few of the benchmark's identical time steps are simulated; the benchmark's time is
 * extrapolated from them (EstimateTime).
 */
struct NasJob
{
    std::vector<std::vector<MpiOperation>> programs; //!< one operation list per rank
    std::vector<uint32_t> timerStart; //!< per rank: first operation after the timer starts
    std::vector<uint32_t> loopStart;  //!< per rank: first operation of the simulated steps
    std::vector<uint32_t> loopEnd;    //!< per rank: first operation after them
    uint32_t simulatedSteps{0};       //!< time steps simulated
    uint32_t benchmarkSteps{0};       //!< time steps the benchmark runs

    /**
     * The benchmark's reported time: the largest over ranks of the timed region, with the
     * simulated steps scaled to the benchmark's number of steps.
     * @param completions per rank, the completion time of each operation in program order
     */
    Time EstimateTime(const std::vector<std::vector<Time>>& completions) const;
};

/**
 * @ingroup clusternet
 * @brief Skeletons of the NAS Parallel Benchmarks BT, SP, LU, MG and IS (MPI versions) as
 * per-rank operation lists: each time step's computation, as the benchmark's operation count
 * over a sustained per-process rate split between its phases, and its real communication
 * pattern (partners, message sizes, blocking or not; collectives as calls that each rank's
 * MPI library runs by its own algorithms, MpiCollectives).
 *
 * Patterns follow the NPB MPI sources as of NPB 2.x (the NPB 3.3 structure but for BT's
 * solve, where NPB 2.x forms each cell's lhs between the stage's receive and its waits): BT
 * and SP multipartition on a square number of ranks (copy_faces, then the pipelined x/y/z
 * solves; BT's solve messages sized to the compiled maximum cell), LU's
 * pipelined SSOR sweeps on a 2-D grid of ranks with blocking plane messages, MG's V-cycle
 * halo exchanges per level (comm3), IS's Allreduce, Alltoall and Alltoallv of the keys.
 * A job is the benchmark's untimed warm-up step, its pre-timer synchronisation, and a few
 * timed steps.
 *
 * The per-process rates are host properties (host profile target "npb").
 */
class NasSkeleton : public Object
{
  public:
    static TypeId GetTypeId();
    NasSkeleton();
    ~NasSkeleton() override;

    /// @return the benchmarks: bt, sp, lu, mg, is
    static std::vector<std::string> Benchmarks();
    /**
     * @return "" if @p bench class @p cls runs on @p ranks ranks, else one line naming the
     * bad parameter and what is allowed
     */
    static std::string Check(const std::string& bench, char cls, uint32_t ranks);
    /// @return the time steps (iterations) the benchmark runs for class @p cls
    static uint32_t Steps(const std::string& bench, char cls);
    /// @return the benchmark's operation count per time step, whole job (flops; IS: keys)
    static double OpsPerStep(const std::string& bench, char cls);
    /// @return one rank's computation per time step at the configured rate (balanced)
    Time ComputePerStep(const std::string& bench, char cls, uint32_t ranks) const;

    /**
     * Build the job; Check() must pass.
     * @param steps timed steps to simulate (at most the benchmark's; 0 = all of them)
     */
    NasJob Build(const std::string& bench, char cls, uint32_t ranks, uint32_t steps) const;

  private:
    /// @return the sustained rate of @p bench [operations per second]
    double Rate(const std::string& bench) const;
    /// @return the time @p ops operations of @p bench take on one process
    Time Work(const std::string& bench, double ops) const;

    void BuildBtSp(MpiJobBuilder& b, bool sp, char cls, bool timed) const;
    void BuildLu(MpiJobBuilder& b, char cls) const;
    void BuildLuRhs(MpiJobBuilder& b, char cls) const;
    void BuildMg(MpiJobBuilder& b, char cls) const;
    void BuildMgComm3(MpiJobBuilder& b, uint32_t level) const;
    void BuildIs(MpiJobBuilder& b, char cls) const;

    double m_btRate; //!< BT [Mflop/s per process]
    double m_spRate; //!< SP [Mflop/s per process]
    double m_luRate; //!< LU [Mflop/s per process]
    double m_mgRate; //!< MG [Mflop/s per process]
    double m_isRate; //!< IS [Mkeys/s per process]
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_NAS_SKELETON_H
