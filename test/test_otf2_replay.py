# SPDX-License-Identifier: GPL-2.0-only
"""mpi-replay of OTF2 archives (issue 49): archives written with the ``otf2`` writer replay
with the times their text-format twins give; times checked against hand computations from
the model's documented costs; bad traces refused in one line; 1024 ranks on the Myrinet Clos
at GM level."""

import subprocess

import pandas as pd
import pytest
from otf2.enums import IoParadigmClass, IoParadigmFlag

from clusternet.otf2trace import TraceWriter
from clusternet.synthetic import stencil

ATHLON = ["--host=athlonxp2800-fbsd47", "--nic=pro1000mt", "--lanai=lanai72"]


def replay(scenario_bin, scenario_env, trace, out, *args, status=0):
    proc = subprocess.run([scenario_bin("mpi-replay"), f"--trace={trace}", f"--out={out}",
                           "--resume=0", *args], capture_output=True, text=True,
                          env=scenario_env, timeout=600)
    assert proc.returncode == status, proc.stdout + proc.stderr
    return pd.read_csv(out / "data.csv") if status == 0 else proc


def times(data):
    return data.set_index(["rank", "index"])["completed_us"].sort_index()


# ---------------------------------------------------------------------------------------------
# The three patterns, each as an OTF2 archive and as the text the same program is.

def ping_pong(path, compute_ns=10_000):
    """10 round trips of 1024 bytes; rank 1 computes 10 us before each answer."""
    with TraceWriter(path, 2) as w:
        for _ in range(10):
            w.send(0, 1, 5, 1024)
            w.recv(1, 0, 5, 1024)
            w.compute(1, compute_ns)
            w.send(1, 0, 6, 1024)
            w.recv(0, 1, 6, 1024)
    text = ["0 send 1 5 1024\n0 recv 1 6 1024\n" * 10,
            "1 recv 0 5 1024\n1 compute 10us\n1 send 0 6 1024\n" * 10]
    return w.anchor, "".join(text)


def allreduce_loop(path, ranks=8, steps=5, compute_ns=100_000):
    """Each step: computation, then an allreduce of 8 bytes."""
    with TraceWriter(path, ranks) as w:
        for _ in range(steps):
            for r in range(ranks):
                w.compute(r, compute_ns)
                w.collective(r, "allreduce", 8)
    text = "".join(f"{r} compute {compute_ns}ns\n{r} allreduce 8\n" * steps
                   for r in range(ranks))
    return w.anchor, text


def nas_like(path):
    """4 ranks, 2 steps: computation, a ring exchange both ways (irecv, irecv, isend, isend,
    waitall), then an alltoallv of keys (rank i sends 1000 (i + j + 1) bytes to j) and a
    bcast on a sub-communicator of the even ranks."""
    n = 4
    with TraceWriter(path, n) as w:
        evens = w.comm([0, 2])
        for _ in range(2):
            for r in range(n):
                w.compute(r, 50_000)
                left, right = (r - 1) % n, (r + 1) % n
                reqs = [w.irecv(r, left, 1, 30000), w.irecv(r, right, 2, 30000),
                        w.isend(r, right, 1, 30000), w.isend(r, left, 2, 30000)]
                w.waitall(r, reqs)
            for r in range(n):
                sent = sum(1000 * (r + j + 1) for j in range(n) if j != r)
                got = sum(1000 * (i + r + 1) for i in range(n) if i != r)
                w.collective(r, "alltoallv", alltoallv_sent=sent, alltoallv_recv=got)
            for r in (0, 2):
                w.collective(r, "bcast", 4096, root=0, comm=evens)
    # The spread rule: bytes(i -> j) = sent_i * recv_j / sum of recv (rounded), not the
    # program's own matrix; the text below is what the archive says, worked out by hand:
    # sent = recv = [9000, 11000, 13000, 15000]; rank 0 spreads 9000 over 11000 + 13000 +
    # 15000 = 39000: 2538.5 -> 2538, 3000, 3461.5 -> 3462; and so on.
    rows = {0: "0,2538,3000,3462", 1: "2676,0,3865,4459", 2: "3343,4086,0,5571",
            3: "4091,5000,5909,0"}
    lines = ["comm 1 0 2\n"]
    for r in range(n):
        left, right = (r - 1) % n, (r + 1) % n
        k = 0
        for _ in range(2):
            lines.append(f"{r} compute 50us\n")
            lines.append(f"{r} irecv {left} 1 30000 {k + 1}\n{r} irecv {right} 2 30000 {k + 2}\n"
                         f"{r} isend {right} 1 30000 {k + 3}\n{r} isend {left} 2 30000 {k + 4}\n")
            lines.append("".join(f"{r} wait {k + i}\n" for i in range(1, 5)))
            k += 4
            lines.append(f"{r} alltoallv {rows[r]}\n")
            if r in (0, 2):
                lines.append(f"{r} bcast 0 4096 comm=1\n")
    return w.anchor, "".join(lines)


@pytest.mark.parametrize("pattern", [ping_pong, allreduce_loop, nas_like])
@pytest.mark.parametrize("stack", ["mpich-gm", "lampi-tcp"])
def test_otf2_and_text_give_the_same_times(scenario_bin, scenario_env, tmp_path, pattern, stack):
    anchor, text = pattern(tmp_path / "archive")
    (tmp_path / "trace.txt").write_text(text)
    ranks = {"ping_pong": 2, "allreduce_loop": 8, "nas_like": 4}[pattern.__name__]
    a = replay(scenario_bin, scenario_env, anchor, tmp_path / "otf2", f"--stack={stack}",
               *ATHLON)
    b = replay(scenario_bin, scenario_env, tmp_path / "trace.txt", tmp_path / "text",
               f"--stack={stack}", f"--ranks={ranks}", *ATHLON)
    assert len(a) == len(b) > 0
    pd.testing.assert_series_equal(times(a), times(b))
    assert set(a.ranks) == {ranks}


def test_nas_like_text_is_the_converted_archive(tmp_path):
    """The hand-written twin above is exactly what the converter makes (so the same-times
    test compares the same program), apart from the header comment."""
    from clusternet.otf2trace import convert

    anchor, text = nas_like(tmp_path / "a")
    converted, ranks = convert(anchor)
    body = [line for line in converted.splitlines() if not line.startswith("#")]
    expect = [line.replace("compute 50us", "compute 50000ns") for line in text.splitlines()]
    assert ranks == 4 and body == expect


def test_ping_pong_time_by_hand(scenario_bin, scenario_env, tmp_path):
    """Rank 1 computes before each answer while rank 0 waits for it: once the computation
    outlasts what rank 0 still does after its send (the send's completion), every further
    microsecond of it delays each of the 10 replies by one microsecond. So 30 us instead of
    10 us end the ping-pong 10 x 20 us later (to within the phase of the LANai's dispatch loop,
    tens of ns); every steady-state round trip is the same."""
    args = ["--stack=mpich-gm", *ATHLON]
    ends = []
    for us in (10, 30):
        anchor, _ = ping_pong(tmp_path / f"a{us}", compute_ns=us * 1000)
        d = replay(scenario_bin, scenario_env, anchor, tmp_path / f"o{us}", *args)
        ends.append(d.completed_us.max())
        t0 = d[d["rank"] == 0].set_index("index")["completed_us"]
        trips = [t0[2 * k + 1] - t0[2 * k - 1] for k in range(5, 10)]
        assert max(trips) - min(trips) < 0.1, trips
    assert ends[1] - ends[0] == pytest.approx(200.0, abs=0.1)


def test_allreduce_loop_time_by_hand(scenario_bin, scenario_env, tmp_path):
    """MPICH-1's allreduce is a binomial reduce to rank 0, then a binomial bcast from it
    (intra_fns.c): on 8 ranks each is a chain of log2 8 = 3 messages, 6 one-way latencies L
    per call after the last rank enters. Each step is then 100 us of computation plus 6 L,
    L being half the round trip of an 8-byte ping-pong on the same machine."""
    pp = tmp_path / "pp.txt"
    pp.write_text("0 send 1 1 8\n0 recv 1 2 8\n" * 20 + "1 recv 0 1 8\n1 send 0 2 8\n" * 20)
    d = replay(scenario_bin, scenario_env, pp, tmp_path / "pp", "--stack=mpich-gm", *ATHLON)
    t0 = d[d["rank"] == 0].set_index("index")["completed_us"]
    latency = (t0[39] - t0[19]) / 10 / 2  # steady state: the last 10 round trips
    steps = 5
    anchor, _ = allreduce_loop(tmp_path / "loop", ranks=8, steps=steps)
    d = replay(scenario_bin, scenario_env, anchor, tmp_path / "loop-out", "--stack=mpich-gm",
               *ATHLON)
    end = d["completed_us"].max()
    expect = steps * (100.0 + 6 * latency)
    assert end == pytest.approx(expect, rel=0.15), (end, expect, latency)


def test_compute_scale_and_recorded_on(scenario_bin, scenario_env, tmp_path):
    """Computation on another CPU: --compute-scale multiplies every computation; --recorded-on
    takes the factor from the two hosts' CPUs: the Athlon XP 2800+ does 2070 reference cycles
    per us (profiles: 4140 cycles = 2 us), the PIII-450 450 (1526 cycles = 3.391 us), so 40 us
    recorded on the Athlon take 40 x 2070 / 450 = 184 us on the PIII."""
    with TraceWriter(tmp_path / "a", 2) as w:
        w.send(0, 1, 0, 8)
        w.recv(1, 0, 0, 8)
        w.compute(1, 40_000)
        w.send(1, 0, 0, 8)
        w.recv(0, 1, 0, 8)
    base = ["--stack=lam", "--host=piii450-linux22"]

    def compute_time(*args):
        d = replay(scenario_bin, scenario_env, w.anchor, tmp_path / "o", *base, *args)
        r1 = d[d["rank"] == 1].set_index("index")["completed_us"]
        assert d[d["rank"] == 1].op.tolist()[1].startswith("compute")
        return r1[1] - r1[0]

    assert compute_time() == pytest.approx(40.0, abs=0.001)
    assert compute_time("--compute-scale=2.5") == pytest.approx(100.0, abs=0.001)
    assert compute_time("--recorded-on=athlonxp2800-fbsd47") == pytest.approx(184.0, abs=0.01)


# ---------------------------------------------------------------------------------------------
# Bad traces: one line naming the location and event, exit 2 (or the deadlock report, exit 3),
# nothing written.

def bad_not_otf2(path):
    path.mkdir()
    (path / "traces.otf2").write_text("hello\n")
    return path / "traces.otf2", ["not a readable OTF2 archive"]


def bad_truncated(path):
    with TraceWriter(path, 2) as w:
        for i in range(50):
            w.send(0, 1, i, 10)
            w.recv(1, 0, i, 10)
    evt = path / "traces" / "1.evt"
    evt.write_bytes(evt.read_bytes()[:-40])
    return w.anchor, ["rank 1, event ", "cut or damaged"]


def bad_rma(path):
    with TraceWriter(path, 2) as w:
        win = w.definitions.rma_win("window", comm=w.world)
        w.call(0, "exchange", lambda ew, t: ew.rma_put(t, win, 1, 64, 0))
    return w.anchor, ["rank 0, event 5 (RmaPut)", "RMA"]


def bad_io(path):
    with TraceWriter(path, 2) as w:
        d = w.definitions
        posix = d.io_paradigm("POSIX", "POSIX I/O", IoParadigmClass.SERIAL, IoParadigmFlag.NONE)
        data = d.io_regular_file("out.bin", scope=d.system_tree_node("node", class_name="node"))
        w.call(1, "write_output", lambda ew, t: ew.io_delete_file(t, posix, data))
    return w.anchor, ["rank 1, event 5 (IoDeleteFile)", "I/O"]


def bad_mpi_io_call(path):
    with TraceWriter(path, 2) as w:
        w.call(0, "MPI_File_write_all")
    return w.anchor, ["rank 0", "MPI_File_write_all", "MPI I/O"]


def bad_cancel(path):
    with TraceWriter(path, 2) as w:
        r = w.irecv(0, 1, 0, 8)
        w.call(0, "MPI_Cancel", lambda ew, t: ew.mpi_request_cancelled(t, r))
    return w.anchor, ["rank 0, event 8 (MpiRequestCancelled)", "cancelled"]


def bad_scan(path):
    with TraceWriter(path, 2) as w:
        for r in range(2):
            w.collective(r, "scan", 8)
    return w.anchor, ["rank 0, event 6 (MpiCollectiveEnd)", "SCAN"]


def bad_collectives_disagree(path):
    with TraceWriter(path, 3) as w:
        for r in range(3):
            w.collective(r, "bcast", 8, root=r % 2)
    return w.anchor, ["rank 1, event 6 (MpiCollectiveEnd)", "root"]


def bad_unknown_request(path):
    with TraceWriter(path, 2) as w:
        w.wait(1, 4242)
    return w.anchor, ["rank 1, event 5", "request 4242"]


def bad_comm_self(path):
    with TraceWriter(path, 2) as w:
        w.send(1, 0, 0, 8, comm=w.comm_self)
    return w.anchor, ["rank 1, event 5 (MpiSend)", "MPI_COMM_SELF"]


def bad_missing(path):
    return path / "nothing" / "traces.otf2", ["no such file"]


def bad_too_many_ranks(path):
    with TraceWriter(path, 1025) as w:
        w.send(0, 1, 0, 8)
        w.recv(1, 0, 0, 8)
    return w.anchor, ["has 1025 ranks", "allowed 2..1024"]


@pytest.mark.parametrize("make", [bad_not_otf2, bad_truncated, bad_rma, bad_io, bad_mpi_io_call,
                                  bad_cancel, bad_scan, bad_collectives_disagree,
                                  bad_unknown_request, bad_comm_self, bad_missing,
                                  bad_too_many_ranks])
def test_bad_trace_refused_in_one_line(scenario_bin, scenario_env, tmp_path, make):
    anchor, says = make(tmp_path / "archive")
    out = tmp_path / "out"
    proc = replay(scenario_bin, scenario_env, anchor, out, status=2)
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("mpi-replay: --trace:") or "--trace" in lines[0], lines[0]
    for s in says:
        assert s in lines[0], (s, lines[0])
    assert "Traceback" not in proc.stderr and not out.exists()


def test_more_ranks_than_asked_refused(scenario_bin, scenario_env, tmp_path):
    anchor, _ = ping_pong(tmp_path / "a")
    proc = replay(scenario_bin, scenario_env, anchor, tmp_path / "out", "--ranks=4", status=2)
    assert "--ranks: 4, but the trace" in proc.stderr and "has 2 ranks" in proc.stderr


@pytest.mark.parametrize("case,says", [
    ("unmatched", "left unmatched"),  # a send no receive takes
    ("deadlock", "deadlock"),  # both ranks receive first
])
def test_unmatched_or_deadlocked_trace_is_reported_exit_3(scenario_bin, scenario_env, tmp_path,
                                                          case, says):
    with TraceWriter(tmp_path / "a", 2) as w:
        if case == "unmatched":
            w.send(0, 1, 0, 8)
        else:
            w.recv(0, 1, 0, 8)
            w.recv(1, 0, 0, 8)
    proc = replay(scenario_bin, scenario_env, w.anchor, tmp_path / "out", "--limit=10s",
                  status=3)
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and says in lines[0], proc.stderr
    assert not (tmp_path / "out").exists()


# ---------------------------------------------------------------------------------------------
# Scale

def test_1024_ranks_replay_on_the_myrinet_clos_at_gm_level(scenario_bin, scenario_env, tmp_path):
    """A 32 x 32 stencil (halo exchange and an allreduce per step), 2 steps, over MPICH-GM on
    the 1024-host Clos of XBar16 switches: every rank finishes every call; each step takes
    at least its 200 us of computation, and the allreduce (a 10-level binomial reduce and
    bcast) ends after the last halo wait of every rank."""
    anchor = stencil(tmp_path / "s", side=32, steps=2)
    d = replay(scenario_bin, scenario_env, anchor, tmp_path / "out", "--stack=mpich-gm",
               "--host=athlonxp2800-fbsd47", "--lanai=lanai72")
    assert sorted(d["rank"].unique()) == list(range(1024))
    assert (d.groupby("rank").size() == 2 * (1 + 8 + 8 + 1)).all()
    assert set(d.network) == {"myrinet"} and set(d.ranks) == {1024}
    end = d["completed_us"].max()
    assert end > 400.0
    last = d[d.op.str.startswith("allreduce")].groupby("rank")["completed_us"].max()
    waits = d[d.op.str.startswith("wait")].groupby("rank")["completed_us"].max()
    assert last.min() > waits.max()
