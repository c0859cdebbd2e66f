// SPDX-License-Identifier: GPL-2.0-only
#include "nas-skeleton.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("NasSkeleton");
NS_OBJECT_ENSURE_REGISTERED(NasSkeleton);

namespace
{

constexpr uint32_t kDouble = 8; //!< MPI_DOUBLE_PRECISION [bytes]
constexpr uint32_t kInt = 4;    //!< MPI_INT [bytes]

/// Grid edge of BT, SP and LU (setparams.c).
uint32_t
GridEdge(char cls)
{
    return cls == 'B' ? 102 : 162;
}

/// Integer square root of a perfect square, or 0.
uint32_t
SquareRoot(uint32_t n)
{
    auto r = static_cast<uint32_t>(std::lround(std::sqrt(static_cast<double>(n))));
    return r * r == n ? r : 0;
}

/// BT/SP multipartition (make_set.f): rank r = i + p j owns cells c = 0..p-1 at
/// ((i + c) mod p, (j - c) mod p, c).
struct Multipartition
{
    uint32_t p;
    uint32_t rank;

    uint32_t Id(int32_t i, int32_t j) const
    {
        auto m = [this](int32_t v) { return static_cast<uint32_t>(((v % int32_t(p)) + p) % p); };
        return m(i) + p * m(j);
    }

    int32_t I() const
    {
        return rank % p;
    }

    int32_t J() const
    {
        return rank / p;
    }

    /// Predecessor in direction @p d (0 x, 1 y, 2 z).
    uint32_t Pred(uint32_t d) const
    {
        const int32_t di[] = {-1, 0, 1};
        const int32_t dj[] = {0, -1, -1};
        return Id(I() + di[d], J() + dj[d]);
    }

    /// Successor in direction @p d.
    uint32_t Succ(uint32_t d) const
    {
        const int32_t di[] = {1, 0, -1};
        const int32_t dj[] = {0, 1, 1};
        return Id(I() + di[d], J() + dj[d]);
    }

    /// Coordinates of the cell this rank works on at stage @p t (0-based) of direction @p d.
    std::array<uint32_t, 3> Cell(uint32_t d, uint32_t t) const
    {
        for (uint32_t c = 0; c < p; ++c)
        {
            std::array<uint32_t, 3> xyz = {(I() + c) % p, (J() + p * p - c) % p, c};
            if (xyz[d] == t)
            {
                return xyz;
            }
        }
        NS_ABORT_MSG("Multipartition: no cell at stage " << t);
        return {};
    }
};

} // namespace

Time
NasJob::EstimateTime(const std::vector<std::vector<Time>>& completions) const
{
    NS_ABORT_MSG_UNLESS(completions.size() == programs.size(), "NasJob: one list per rank");
    double scale = simulatedSteps ? double(benchmarkSteps) / simulatedSteps : 1.0;
    Time worst;
    for (std::size_t r = 0; r < programs.size(); ++r)
    {
        const auto& c = completions[r];
        NS_ABORT_MSG_UNLESS(c.size() == programs[r].size(), "NasJob: rank " << r
                                                                            << " did not finish");
        // The time operation i starts: when operation i - 1 completed.
        auto at = [&c](uint32_t i) { return i == 0 ? Time() : c.at(i - 1); };
        Time before = at(loopStart[r]) - at(timerStart[r]);
        Time loop = at(loopEnd[r]) - at(loopStart[r]);
        Time after = c.back() - at(loopEnd[r]);
        worst = std::max(worst, before + Seconds(loop.GetSeconds() * scale) + after);
    }
    return worst;
}

TypeId
NasSkeleton::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::NasSkeleton")
            .SetParent<Object>()
            .SetGroupName("Clusternet")
            .AddConstructor<NasSkeleton>()
            .AddAttribute("BtRate",
                          "Sustained BT rate of one process, as NPB counts operations "
                          "[Mflop/s].",
                          DoubleValue(300),
                          MakeDoubleAccessor(&NasSkeleton::m_btRate),
                          MakeDoubleChecker<double>(1, 1e6))
            .AddAttribute("SpRate",
                          "Sustained SP rate of one process [Mflop/s].",
                          DoubleValue(200),
                          MakeDoubleAccessor(&NasSkeleton::m_spRate),
                          MakeDoubleChecker<double>(1, 1e6))
            .AddAttribute("LuRate",
                          "Sustained LU rate of one process [Mflop/s].",
                          DoubleValue(340),
                          MakeDoubleAccessor(&NasSkeleton::m_luRate),
                          MakeDoubleChecker<double>(1, 1e6))
            .AddAttribute("MgRate",
                          "Sustained MG rate of one process [Mflop/s].",
                          DoubleValue(260),
                          MakeDoubleAccessor(&NasSkeleton::m_mgRate),
                          MakeDoubleChecker<double>(1, 1e6))
            .AddAttribute("IsRate",
                          "IS keys ranked per second by one process, counting its "
                          "computation only [Mkeys/s].",
                          DoubleValue(25),
                          MakeDoubleAccessor(&NasSkeleton::m_isRate),
                          MakeDoubleChecker<double>(0.01, 1e6));
    return tid;
}

NasSkeleton::NasSkeleton()
{
    NS_LOG_FUNCTION(this);
}

NasSkeleton::~NasSkeleton()
{
    NS_LOG_FUNCTION(this);
}

std::vector<std::string>
NasSkeleton::Benchmarks()
{
    return {"bt", "sp", "lu", "mg", "is"};
}

std::string
NasSkeleton::Check(const std::string& bench, char cls, uint32_t ranks)
{
    auto all = Benchmarks();
    if (std::find(all.begin(), all.end(), bench) == all.end())
    {
        return "benchmark '" + bench + "' is not one of bt, sp, lu, mg, is";
    }
    if (cls != 'B' && cls != 'C')
    {
        return "class '" + std::string(1, cls) + "' of " + bench + " is not modelled; allowed: B, C";
    }
    if (bench == "bt" || bench == "sp")
    {
        if (ranks != 4 && ranks != 9)
        {
            return bench + " needs a square number of ranks; allowed: 4, 9 (not " +
                   std::to_string(ranks) + ")";
        }
    }
    else if (ranks != 4 && ranks != 8)
    {
        return bench + " needs a power of two of ranks; allowed: 4, 8 (not " +
               std::to_string(ranks) + ")";
    }
    return "";
}

uint32_t
NasSkeleton::Steps(const std::string& bench, char /* cls */)
{
    if (bench == "bt")
    {
        return 200; // niter (setparams.c, classes B and C)
    }
    if (bench == "sp")
    {
        return 400;
    }
    if (bench == "lu")
    {
        return 250; // itmax
    }
    if (bench == "mg")
    {
        return 20; // nit
    }
    return 10; // IS MAX_ITERATIONS
}

double
NasSkeleton::OpsPerStep(const std::string& bench, char cls)
{
    const double n = bench == "mg" ? (cls == 'B' ? 256 : 512) : GridEdge(cls);
    // The Mop/s numerators printed by each benchmark, divided by its steps.
    if (bench == "bt")
    {
        return 3478.8 * n * n * n - 17655.7 * n * n + 28023.7 * n;
    }
    if (bench == "sp")
    {
        return 881.174 * n * n * n - 4683.91 * n * n + 11484.5 * n - 19272.4;
    }
    if (bench == "lu")
    {
        return 1984.77 * n * n * n - 10923.3 * n * n + 27770.9 * n - 144010;
    }
    if (bench == "mg")
    {
        return 58.0 * n * n * n;
    }
    return cls == 'B' ? double(1u << 25) : double(1u << 27); // IS: keys ranked per step
}

double
NasSkeleton::Rate(const std::string& bench) const
{
    if (bench == "bt")
    {
        return m_btRate * 1e6;
    }
    if (bench == "sp")
    {
        return m_spRate * 1e6;
    }
    if (bench == "lu")
    {
        return m_luRate * 1e6;
    }
    if (bench == "mg")
    {
        return m_mgRate * 1e6;
    }
    return m_isRate * 1e6;
}

Time
NasSkeleton::Work(const std::string& bench, double ops) const
{
    return NanoSeconds(static_cast<int64_t>(std::llround(ops / Rate(bench) * 1e9)));
}

Time
NasSkeleton::ComputePerStep(const std::string& bench, char cls, uint32_t ranks) const
{
    return Work(bench, OpsPerStep(bench, cls) / ranks);
}

NasJob
NasSkeleton::Build(const std::string& bench, char cls, uint32_t ranks, uint32_t steps) const
{
    NS_ABORT_MSG_UNLESS(Check(bench, cls, ranks).empty(), "NasSkeleton: " << Check(bench, cls, ranks));
    NasJob job;
    job.benchmarkSteps = Steps(bench, cls);
    job.simulatedSteps = steps == 0 ? job.benchmarkSteps : std::min(steps, job.benchmarkSteps);
    MpiJobBuilder b(ranks);
    auto mark = [&b](std::vector<uint32_t>& at) {
        at.clear();
        for (const auto& p : b.GetPrograms())
        {
            at.push_back(p.size());
        }
    };
    auto step = [&]() {
        if (bench == "bt" || bench == "sp")
        {
            BuildBtSp(b, bench == "sp", cls, true);
        }
        else if (bench == "lu")
        {
            BuildLu(b, cls);
        }
        else if (bench == "mg")
        {
            BuildMg(b, cls);
        }
        else
        {
            BuildIs(b, cls);
        }
    };
    // The untimed warm-up step every benchmark runs, then what precedes its timer.
    step();
    if (bench == "lu")
    {
        b.Allreduce(kDouble); // the warm-up ssor's closing MAX of its time
        BuildLuRhs(b, cls);   // ssor: rhs and l2norm before the timer
        b.Allreduce(5 * kDouble);
    }
    if (bench != "is") // IS starts its timer without a barrier
    {
        b.Barrier();
    }
    mark(job.timerStart);
    if (bench == "mg")
    {
        // Timed, before the loop: resid on the finest grid and norm2u3's two reductions.
        uint32_t lt = cls == 'B' ? 8 : 9;
        double resid = 15.0 * std::pow(8.0, lt) / ranks;
        for (uint32_t r = 0; r < ranks; ++r)
        {
            b.Compute(r, Work("mg", resid));
        }
        BuildMgComm3(b, lt);
        b.Allreduce(kDouble);
        b.Allreduce(kDouble);
    }
    mark(job.loopStart);
    for (uint32_t i = 0; i < job.simulatedSteps; ++i)
    {
        step();
    }
    mark(job.loopEnd);
    if (bench == "mg")
    {
        b.Allreduce(kDouble); // norm2u3 after the loop
        b.Allreduce(kDouble);
    }
    job.programs = b.GetPrograms();
    return job;
}

// ---------------------------------------------------------------- BT and SP

void
NasSkeleton::BuildBtSp(MpiJobBuilder& b, bool sp, char cls, bool /* timed */) const
{
    const uint32_t ranks = b.GetSize();
    const uint32_t p = SquareRoot(ranks);
    const uint32_t n = GridEdge(cls);
    const uint32_t s = n / p; // cell edge
    const std::string bench = sp ? "sp" : "bt";
    const double step = OpsPerStep(bench, cls) / ranks;
    // Split of a step's operations (hand counts of the loop bodies, /work notes sec. 3.3, 4.3):
    // BT: compute_rhs + add 11 %, each solve 29.67 % of which 95 % forward elimination;
    // SP: compute_rhs + txinvr 50 %, each solve 16.67 % as lhs 55, forward 60, backward 20,
    // ninvr/pinvr/tzetar 20 parts of 155.
    const double rhs = step * (sp ? 0.50 : 0.11);
    const double solve = step * (sp ? 0.50 : 0.89) / 3;
    const uint32_t faceBytes = (p - 1) * s * s * 10 * kDouble;
    const uint32_t maxCell = n / p + 1; // header.h MAX_CELL_DIM
    for (uint32_t r = 0; r < ranks; ++r)
    {
        Multipartition m{p, r};
        // copy_faces: six receives, six sends (two ghost layers of 5 variables per face).
        for (uint32_t d = 0; d < 3; ++d)
        {
            b.Irecv(r, m.Succ(d), int32_t(2 * d + 2), faceBytes);
            b.Irecv(r, m.Pred(d), int32_t(2 * d + 1), faceBytes);
        }
        for (uint32_t d = 0; d < 3; ++d)
        {
            b.Isend(r, m.Succ(d), int32_t(2 * d + 1), faceBytes);
            b.Isend(r, m.Pred(d), int32_t(2 * d + 2), faceBytes);
        }
        b.Add(r, MpiOperation::Waitall());
        b.Compute(r, Work(bench, rhs));
        for (uint32_t d = 0; d < 3; ++d)
        {
            const int32_t fwdTag = int32_t(10 + d);
            const int32_t bwdTag = int32_t(20 + d);
            // Message sizes at stage t: BT's fixed by the compiled maximum cell; SP's by the
            // cell's interior lines across the direction (boundary cells lose one each way).
            auto lines = [&](uint32_t t) {
                std::array<uint32_t, 3> c = m.Cell(d, t);
                uint32_t prod = 1;
                for (uint32_t a = 0; a < 3; ++a)
                {
                    if (a != d)
                    {
                        prod *= s - (c[a] == 0) - (c[a] == p - 1);
                    }
                }
                return prod;
            };
            auto fwdBytes = [&](uint32_t t) {
                return sp ? 22 * lines(t) * kDouble : maxCell * maxCell * 30 * kDouble;
            };
            auto bwdBytes = [&](uint32_t t) {
                return sp ? 10 * lines(t) * kDouble : maxCell * maxCell * 5 * kDouble;
            };
            // BT as NPB 2.x (the version seed 003 ran, NPB 2.2) has it: forming a cell's
            // lhs (fjac, njac, lhsa/b/c: ~350 of the ~1150 flops per point of forward
            // elimination) runs between the stage's receive and its waits (x_solve.f of NPB
            // 2.x: "overlap computations and communications ... call lhsx(c)"); NPB 3.x
            // moved it into x_solve_cell, after the waits.
            const double lhs = (sp ? solve * 55 / 155 : solve * 0.95 * 350 / 1150) / p;
            const double fwd = (sp ? solve * 60 / 155 : solve * 0.95 * 800 / 1150) / p;
            const double bwd = (sp ? solve * 20 / 155 : solve * 0.05) / p;
            const double inv = sp ? solve * 20 / 155 / p : 0;
            // Forward elimination, stage by stage along the direction.
            uint32_t send = 0;
            for (uint32_t t = 0; t < p; ++t)
            {
                if (t == 0)
                {
                    b.Compute(r, Work(bench, lhs + fwd));
                }
                else
                {
                    uint32_t recv = b.Irecv(r, m.Pred(d), fwdTag, fwdBytes(t));
                    b.Compute(r, Work(bench, lhs)); // lhsx overlaps the receive
                    if (sp)
                    {
                        b.Add(r, MpiOperation::Waitall());
                    }
                    else
                    {
                        b.Add(r, MpiOperation::Wait(send));
                        b.Add(r, MpiOperation::Wait(recv));
                    }
                    b.Compute(r, Work(bench, fwd));
                }
                if (t + 1 < p)
                {
                    send = b.Isend(r, m.Succ(d), fwdTag, fwdBytes(t));
                }
            }
            // Back substitution, in the opposite order.
            for (uint32_t k = 0; k < p; ++k)
            {
                uint32_t t = p - 1 - k;
                if (k == 0)
                {
                    b.Compute(r, Work(bench, bwd));
                }
                else
                {
                    uint32_t recv = b.Irecv(r, m.Succ(d), bwdTag, bwdBytes(t));
                    if (sp)
                    {
                        b.Compute(r, Work(bench, inv)); // the previous cell's ninvr
                        b.Add(r, MpiOperation::Waitall());
                    }
                    else
                    {
                        b.Add(r, MpiOperation::Wait(send));
                        b.Add(r, MpiOperation::Wait(recv));
                    }
                    b.Compute(r, Work(bench, bwd));
                }
                if (t > 0)
                {
                    send = b.Isend(r, m.Pred(d), bwdTag, bwdBytes(t));
                }
            }
            b.Compute(r, Work(bench, inv)); // SP: ninvr of the last cell
        }
    }
}

// ---------------------------------------------------------------- LU

namespace
{

/// LU's 2-D grid of ranks (proc_grid.f, neighbors.f, subdomain.f).
struct LuGrid
{
    uint32_t xdim;
    uint32_t ydim;
    uint32_t n;
    uint32_t rank;

    uint32_t Row() const
    {
        return rank % xdim;
    }

    uint32_t Col() const
    {
        return rank / xdim;
    }

    int32_t North() const
    {
        return Row() > 0 ? int32_t(rank - 1) : -1;
    }

    int32_t South() const
    {
        return Row() + 1 < xdim ? int32_t(rank + 1) : -1;
    }

    int32_t West() const
    {
        return Col() > 0 ? int32_t(rank - xdim) : -1;
    }

    int32_t East() const
    {
        return Col() + 1 < ydim ? int32_t(rank + xdim) : -1;
    }

    uint32_t Nx() const
    {
        return n / xdim + (Row() < n % xdim ? 1 : 0);
    }

    uint32_t Ny() const
    {
        return n / ydim + (Col() < n % ydim ? 1 : 0);
    }

    /// Interior points of an i-line (ist..iend) and of a j-line (jst..jend).
    uint32_t ILine() const
    {
        return Nx() - (North() < 0) - (South() < 0);
    }

    uint32_t JLine() const
    {
        return Ny() - (West() < 0) - (East() < 0);
    }
};

LuGrid
MakeLuGrid(uint32_t ranks, char cls, uint32_t r)
{
    return {ranks == 4 ? 2u : 4u, 2u, GridEdge(cls), r};
}

} // namespace

void
NasSkeleton::BuildLuRhs(MpiJobBuilder& b, char cls) const
{
    const uint32_t ranks = b.GetSize();
    double area = 0;
    for (uint32_t r = 0; r < ranks; ++r)
    {
        LuGrid g = MakeLuGrid(ranks, cls, r);
        area += double(g.ILine()) * g.JLine() / ranks;
    }
    const double step = OpsPerStep("lu", cls) / ranks;
    for (uint32_t r = 0; r < ranks; ++r)
    {
        LuGrid g = MakeLuGrid(ranks, cls, r);
        // rhs: 27 % of a step (hand count), in four parts around the two exchanges.
        Time part = Work("lu", step * 0.27 / 4 * g.ILine() * g.JLine() / area);
        // exchange_3: two planes of 5 variables along each face, north/south then west/east.
        const uint32_t nsBytes = 10 * g.Ny() * g.n * kDouble;
        const uint32_t weBytes = 10 * g.Nx() * g.n * kDouble;
        b.Compute(r, part);
        const std::pair<int32_t, int32_t> pairs[] = {{g.North(), g.South()},
                                                     {g.West(), g.East()}};
        for (uint32_t iex = 0; iex < 2; ++iex)
        {
            auto [lo, hi] = pairs[iex];
            uint32_t bytes = iex == 0 ? nsBytes : weBytes;
            int32_t down = int32_t(30 + 2 * iex);
            int32_t up = down + 1;
            uint32_t q = 0;
            if (lo >= 0)
            {
                q = b.Irecv(r, lo, down, bytes);
            }
            if (hi >= 0)
            {
                b.Add(r, MpiOperation::Send(hi, down, bytes));
            }
            if (lo >= 0)
            {
                b.Add(r, MpiOperation::Wait(q));
            }
            if (hi >= 0)
            {
                q = b.Irecv(r, hi, up, bytes);
            }
            if (lo >= 0)
            {
                b.Add(r, MpiOperation::Send(lo, up, bytes));
            }
            if (hi >= 0)
            {
                b.Add(r, MpiOperation::Wait(q));
            }
            b.Compute(r, part);
        }
        b.Compute(r, part); // zeta fluxes
    }
}

void
NasSkeleton::BuildLu(MpiJobBuilder& b, char cls) const
{
    const uint32_t ranks = b.GetSize();
    const uint32_t planes = GridEdge(cls) - 2;
    double area = 0;
    for (uint32_t r = 0; r < ranks; ++r)
    {
        LuGrid g = MakeLuGrid(ranks, cls, r);
        area += double(g.ILine()) * g.JLine() / ranks;
    }
    const double step = OpsPerStep("lu", cls) / ranks;
    for (uint32_t r = 0; r < ranks; ++r)
    {
        LuGrid g = MakeLuGrid(ranks, cls, r);
        const double share = g.ILine() * g.JLine() / area;
        // Split (hand count): jacld, blts, jacu, buts 17.5 % each, rhs 27 %, scaling and
        // update 3 %.
        Time half = Work("lu", step * 0.175 * share / planes);
        Time other = Work("lu", step * 0.015 * share);
        const uint32_t jBytes = 5 * g.JLine() * kDouble; // a j-line, to/from north and south
        const uint32_t iBytes = 5 * g.ILine() * kDouble; // an i-line, to/from west and east
        b.Compute(r, other);
        // One sweep: plane by plane, the Jacobian (jacld/jacu), then wait for the two
        // upstream neighbours' plane, solve (blts/buts) and pass the plane downstream.
        auto sweep = [&](int32_t upI, int32_t upJ, int32_t downI, int32_t downJ, int32_t tag) {
            for (uint32_t k = 0; k < planes; ++k)
            {
                b.Compute(r, half);
                if (upI >= 0)
                {
                    b.Add(r, MpiOperation::Recv(upI, tag, jBytes));
                }
                if (upJ >= 0)
                {
                    b.Add(r, MpiOperation::Recv(upJ, tag + 1, iBytes));
                }
                b.Compute(r, half);
                if (downI >= 0)
                {
                    b.Add(r, MpiOperation::Send(downI, tag, jBytes));
                }
                if (downJ >= 0)
                {
                    b.Add(r, MpiOperation::Send(downJ, tag + 1, iBytes));
                }
            }
        };
        sweep(g.North(), g.West(), g.South(), g.East(), 10); // lower: from rank (1, 1)
        sweep(g.South(), g.East(), g.North(), g.West(), 12); // upper: the reverse wavefront
        b.Compute(r, other);
    }
    BuildLuRhs(b, cls);
}

// ---------------------------------------------------------------- MG

namespace
{

/// MG's 3-D grid of ranks (mg.f setup): 1x2x2 for 4 ranks, 2x2x2 for 8.
std::array<uint32_t, 3>
MgDims(uint32_t ranks)
{
    return ranks == 4 ? std::array<uint32_t, 3>{1, 2, 2} : std::array<uint32_t, 3>{2, 2, 2};
}

} // namespace

void
NasSkeleton::BuildMgComm3(MpiJobBuilder& b, uint32_t level) const
{
    const uint32_t ranks = b.GetSize();
    const auto pi = MgDims(ranks);
    const uint32_t ng = 1u << level;
    const uint32_t a[3] = {ng / pi[0], ng / pi[1], ng / pi[2]};
    // give3's buffer lengths: faces including the ghost points filled along earlier axes.
    const uint32_t bytes[3] = {a[1] * a[2] * kDouble,
                               (a[0] + 2) * a[2] * kDouble,
                               (a[0] + 2) * (a[1] + 2) * kDouble};
    for (uint32_t r = 0; r < ranks; ++r)
    {
        const uint32_t c[3] = {r % pi[0], (r / pi[0]) % pi[1], r / (pi[0] * pi[1])};
        auto nbr = [&](uint32_t axis, int32_t dir) {
            uint32_t cc[3] = {c[0], c[1], c[2]};
            cc[axis] = (cc[axis] + pi[axis] + dir) % pi[axis];
            return cc[0] + pi[0] * (cc[1] + pi[1] * cc[2]);
        };
        for (uint32_t axis = 0; axis < 3; ++axis)
        {
            if (pi[axis] == 1)
            {
                continue; // the neighbour is the rank itself: a local copy
            }
            const int32_t up = int32_t(1000 + 10 * level + 2 * axis);
            const int32_t down = up + 1;
            uint32_t fromUp = b.Irecv(r, nbr(axis, +1), down, bytes[axis]);
            uint32_t fromDown = b.Irecv(r, nbr(axis, -1), up, bytes[axis]);
            b.Add(r, MpiOperation::Send(nbr(axis, +1), up, bytes[axis]));
            b.Add(r, MpiOperation::Send(nbr(axis, -1), down, bytes[axis]));
            b.Add(r, MpiOperation::Wait(fromUp));
            b.Add(r, MpiOperation::Wait(fromDown));
        }
    }
}

void
NasSkeleton::BuildMg(MpiJobBuilder& b, char cls) const
{
    const uint32_t ranks = b.GetSize();
    const uint32_t lt = cls == 'B' ? 8 : 9;
    // Operations per point (mg.f comments): resid 15, psinv 16 per point of the level,
    // rprj3 24 and interp 20 per coarse point; scaled so a step counts 58 per finest point.
    auto points = [ranks](uint32_t k) { return std::pow(8.0, k) / ranks; };
    double raw = 0;
    for (uint32_t k = lt; k >= 2; --k)
    {
        raw += 24 * points(k - 1);
    }
    raw += 16 * points(1);
    for (uint32_t k = 2; k <= lt; ++k)
    {
        raw += 20 * points(k - 1) + 15 * points(k) + 16 * points(k);
    }
    raw += 15 * points(lt);
    const double norm = OpsPerStep("mg", cls) / ranks / raw;
    auto compute = [&](double ops) {
        for (uint32_t r = 0; r < ranks; ++r)
        {
            b.Compute(r, Work("mg", ops * norm));
        }
    };
    // mg3P: down the V (restrict, exchange), solve on the coarsest level, back up.
    for (uint32_t k = lt; k >= 2; --k)
    {
        compute(24 * points(k - 1)); // rprj3
        BuildMgComm3(b, k - 1);
    }
    compute(16 * points(1)); // psinv on the coarsest grid
    BuildMgComm3(b, 1);
    for (uint32_t k = 2; k <= lt; ++k)
    {
        compute(20 * points(k - 1) + 15 * points(k)); // interp, resid
        BuildMgComm3(b, k);
        compute(16 * points(k)); // psinv
        BuildMgComm3(b, k);
    }
    compute(15 * points(lt)); // resid of the main loop
    BuildMgComm3(b, lt);
}

// ---------------------------------------------------------------- IS

void
NasSkeleton::BuildIs(MpiJobBuilder& b, char cls) const
{
    const uint32_t ranks = b.GetSize();
    const double keys = OpsPerStep("is", cls) / ranks; // NUM_KEYS per rank
    // Share of all keys in each rank's buckets: the Irwin-Hall(4) key distribution integrated
    // over the 1024 equal buckets the ranks split as evenly as whole buckets allow.
    const std::vector<double> four = {0.2502, 0.2498, 0.2519, 0.2481};
    const std::vector<double> eight =
        {0.1263, 0.1239, 0.1268, 0.1230, 0.1254, 0.1265, 0.1233, 0.1249};
    const std::vector<double>& share = ranks == 4 ? four : eight;
    // Counting and scattering the keys into buckets (2 of the 3 passes over the keys).
    for (uint32_t r = 0; r < ranks; ++r)
    {
        b.Compute(r, Work("is", keys * 2 / 3));
    }
    b.Allreduce(1029 * kInt); // bucket sizes
    b.Alltoall(kInt);         // send counts
    std::vector<std::vector<uint32_t>> bytes(ranks, std::vector<uint32_t>(ranks));
    for (uint32_t i = 0; i < ranks; ++i)
    {
        for (uint32_t j = 0; j < ranks; ++j)
        {
            bytes[i][j] = static_cast<uint32_t>(std::llround(keys * share[j])) * kInt;
        }
    }
    b.Alltoallv(bytes);
    // Ranking the received keys (the third pass).
    for (uint32_t r = 0; r < ranks; ++r)
    {
        b.Compute(r, Work("is", keys / 3));
    }
}

} // namespace clusternet
} // namespace ns3
