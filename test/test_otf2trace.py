# SPDX-License-Identifier: GPL-2.0-only
"""OTF2 to text MPI trace (:mod:`clusternet.otf2trace`): archives written with its
:class:`TraceWriter` (or, where the writer would hide what is tested, with raw OTF2 events)
and converted; every expected text is written out by hand."""

import os
from pathlib import Path

import otf2
import programs
import pytest
from otf2.enums import CollectiveOp, IoParadigmClass, IoParadigmFlag

from clusternet.otf2trace import UNDEFINED_U32, TraceError, TraceWriter, convert

ROOT = Path(__file__).resolve().parents[1]


def header(w, ranks, extra=""):
    return f"# MPI trace of {ranks} ranks converted from the OTF2 archive {w.anchor}{extra}\n"


def body(text):
    """The lines after the first (the comment naming the archive)."""
    return text.split("\n", 1)[1]


def raw_collective(w, rank, op, sent, received, root=UNDEFINED_U32, comm=None, region=None):
    """An MPI collective call with the sizes given by hand (as Score-P would record them)."""
    comm = comm or w.world

    def emit(ew, t):
        ew.mpi_collective_begin(t)
        ew.mpi_collective_end(t, getattr(CollectiveOp, op), comm, root, sent, received)
    w.call(rank, region or f"MPI_{op.capitalize()}", emit)


# ---------------------------------------------------------------------------------------------
# Conversions


def test_ping_pong(tmp_path):
    with TraceWriter(tmp_path / "a", 2) as w:
        w.send(0, 1, 5, 1024)
        w.compute(0, 3000)
        w.recv(0, 1, 6, 2048)
        w.recv(1, 0, 5, 1024)
        w.compute(1, 1500)
        w.send(1, 0, 6, 2048)
    text, ranks = convert(w.anchor)
    assert ranks == 2
    assert text == header(w, 2) + (
        "0 send 1 5 1024\n"
        "0 compute 3000ns\n"
        "0 recv 1 6 2048\n"
        "1 recv 0 5 1024\n"
        "1 compute 1500ns\n"
        "1 send 0 6 2048\n")


def test_isend_irecv_waitall_with_a_wildcard_receive(tmp_path):
    """Rank 2's receive was posted as MPI_ANY_SOURCE/MPI_ANY_TAG: OTF2 records only the
    request when posted, the actual source, tag and size with the completion (in a waitall,
    after a send's completion). OTF2's request ids (77, reused) become 1, 2, 3, 4."""
    with TraceWriter(tmp_path / "a", 3) as w:
        world = w.world
        w.call(2, "MPI_Irecv", lambda ew, t: ew.mpi_irecv_request(t, 77))
        w.call(2, "MPI_Isend", lambda ew, t: ew.mpi_isend(t, 0, world, 3, 16, 78))
        w.compute(2, 700)

        def waitall(ew, t):
            ew.mpi_isend_complete(t, 78)
            ew.mpi_irecv(t, 1, world, 9, 64, 77)
        w.call(2, "MPI_Waitall", waitall)
        w.call(2, "MPI_Irecv", lambda ew, t: ew.mpi_irecv_request(t, 77))
        w.call(2, "MPI_Wait", lambda ew, t: ew.mpi_irecv(t, 0, world, 4, 8, 77))
        r = w.isend(1, 2, 9, 64)
        w.wait(1, r)
        r = w.irecv(0, 2, 3, 16)
        s = w.isend(0, 2, 4, 8)
        w.waitall(0, [r, s])
    text, _ = convert(w.anchor)
    assert text == header(w, 3) + (
        "0 irecv 2 3 16 1\n"
        "0 isend 2 4 8 2\n"
        "0 wait 1\n"
        "0 wait 2\n"
        "1 isend 2 9 64 1\n"
        "1 wait 1\n"
        "2 irecv 1 9 64 1\n"
        "2 isend 0 3 16 2\n"
        "2 compute 700ns\n"
        "2 wait 2\n"
        "2 wait 1\n"
        "2 irecv 0 4 8 3\n"
        "2 wait 3\n")


def test_nine_collectives_with_scorep_sizes(tmp_path):
    """Score-P's sizeSent/sizeReceived on 3 ranks, root 1, written by hand."""
    with TraceWriter(tmp_path / "a", 3) as w:
        for r in range(3):
            root = r == 1
            raw_collective(w, r, "BARRIER", 0, 0)
            raw_collective(w, r, "BCAST", 300 if root else 0, 100, root=1)  # b = 100
            raw_collective(w, r, "REDUCE", 8, 24 if root else 0, root=1)  # b = 8
            raw_collective(w, r, "ALLREDUCE", 48, 48)  # b = 16
            raw_collective(w, r, "GATHER", 4, 12 if root else 0, root=1)  # b = 4
            raw_collective(w, r, "SCATTER", 15 if root else 0, 5, root=1)  # b = 5
            raw_collective(w, r, "ALLGATHER", 18, 18)  # b = 6
            raw_collective(w, r, "ALLTOALL", 21, 21)  # b = 7 to each rank
            raw_collective(w, r, "ALLTOALLV", 0, 0)
    text, _ = convert(w.anchor)
    expected = "".join(f"{r} barrier\n{r} bcast 1 100\n{r} reduce 1 8\n{r} allreduce 16\n"
                       f"{r} gather 1 4\n{r} scatter 1 5\n{r} allgather 6\n{r} alltoall 7\n"
                       f"{r} alltoallv 0,0,0\n" for r in range(3))
    assert text == header(w, 3) + expected


def test_writer_collectives_round_trip(tmp_path):
    """The writer's sizes follow the same conventions: b comes back for each collective."""
    with TraceWriter(tmp_path / "a", 3) as w:
        for r in range(3):
            w.collective(r, "barrier")
            w.collective(r, "bcast", 100, root=2)
            w.collective(r, "reduce", 8, root=0)
            w.collective(r, "allreduce", 16)
            w.collective(r, "gather", 4, root=1)
            w.collective(r, "scatter", 5, root=2)
            w.collective(r, "allgather", 6)
            w.collective(r, "alltoall", 7)
            w.collective(r, "alltoallv", alltoallv_sent=[0, 10, 20],
                         alltoallv_recv=[0, 10, 20])
    text, _ = convert(w.anchor)
    # alltoallv: every rank sends 30 and receives 30 in all: 30 * 30 / 60 = 15 to each other
    expected = "".join(f"{r} barrier\n{r} bcast 2 100\n{r} reduce 0 8\n{r} allreduce 16\n"
                       f"{r} gather 1 4\n{r} scatter 2 5\n{r} allgather 6\n{r} alltoall 7\n"
                       f"{r} alltoallv {','.join('0' if j == r else '15' for j in range(3))}\n"
                       for r in range(3))
    assert body(text) == expected


def test_alltoallv_spread_rule(tmp_path):
    """Totals sent (13, 30, 0), received (10, 20, 20): bytes(i->j) = sent_i * recv_j / (the
    others' receipts), rounded half up, 0 to itself. Rank 0: 13*20/40 = 6.5 -> 7 twice;
    rank 1: 30*10/30 = 10, 30*20/30 = 20; rank 2 sends nothing."""
    with TraceWriter(tmp_path / "a", 3) as w:
        for r, (sent, received) in enumerate([(13, 10), (30, 20), (0, 20)]):
            raw_collective(w, r, "ALLTOALLV", sent, received)
    text, _ = convert(w.anchor)
    assert body(text) == "0 alltoallv 0,7,7\n1 alltoallv 10,0,20\n2 alltoallv 0,0,0\n"


def test_sub_communicators(tmp_path):
    """Peers and roots are comm ranks in OTF2, world ranks in the text; ids follow the
    definitions' order (an unused communicator gets none)."""
    with TraceWriter(tmp_path / "a", 4) as w:
        pair = w.comm([3, 0])
        w.comm([0, 2])  # never used
        trio = w.comm([2, 0, 3])
        for r in (2, 0, 3):  # bcast on trio, root comm rank 2 = world 3, b = 40
            raw_collective(w, r, "BCAST", 120 if r == 3 else 0, 40, root=2, comm=trio)
        w.send(3, 1, 0, 10, comm=pair)  # to comm rank 1 = world 0
        w.recv(0, 0, 0, 10, comm=pair)  # from comm rank 0 = world 3
        for r in range(4):
            w.collective(r, "barrier")
        for r in (3, 0):
            raw_collective(w, r, "CREATE_HANDLE", 0, 0, comm=pair, region="MPI_Comm_dup")
    text, _ = convert(w.anchor)
    assert text == header(w, 4) + (
        "comm 1 3 0\n"
        "comm 2 2 0 3\n"
        "0 bcast 3 40 comm=2\n"
        "0 recv 3 0 10 comm=1\n"
        "0 barrier\n"
        "1 barrier\n"
        "2 bcast 3 40 comm=2\n"
        "2 barrier\n"
        "3 bcast 3 40 comm=2\n"
        "3 send 0 0 10 comm=1\n"
        "3 barrier\n")


def test_compute_gaps(tmp_path):
    """Computation is the time between MPI calls: not before the first (here 7 us from the
    program start to MPI_Init) nor after the last; a user region between MPI calls counts,
    time inside MPI calls (also communicator creation, which writes no line) does not."""
    with TraceWriter(tmp_path / "a", 2, call_ns=2000, mpi_init=False) as w:
        w.compute(0, 7000)
        w.call(0, "MPI_Init")
        w.compute(0, 3000)
        w.call(0, "solve", ns=500)  # not an MPI call: computation
        w.compute(0, 250)
        w.send(0, 1, 0, 1)
        w.call(0, "MPI_Comm_rank", ns=100_000)  # MPI time, no line
        w.compute(0, 1000)
        raw_collective(w, 0, "CREATE_HANDLE", 0, 0, region="MPI_Comm_split")
        w.compute(0, 40)
        w.call(0, "MPI_Finalize")
        w.compute(0, 9000)
        w.call(1, "MPI_Init")
        w.recv(1, 0, 0, 1)
        w.call(1, "MPI_Finalize")
    text, _ = convert(w.anchor)
    assert body(text) == ("0 compute 3750ns\n"
                          "0 send 1 0 1\n"
                          "0 compute 1000ns\n"
                          "0 compute 40ns\n"
                          "1 recv 0 0 1\n")


def test_compute_scale_and_timer_resolution(tmp_path):
    """Ticks of 1 us first; then 0.5 halves (a half nanosecond rounds up), and a time that
    rounds to 0 ns writes no line."""
    with TraceWriter(tmp_path / "a", 2, timer_resolution=10**6) as w:
        w.compute(0, 3000)
        for r in range(2):
            w.collective(r, "barrier")
        w.compute(0, 1000)
        w.compute(1, 5000)
        for r in range(2):
            w.collective(r, "barrier")
    assert body(convert(w.anchor)[0]) == ("0 compute 3000ns\n0 barrier\n0 compute 1000ns\n"
                                          "0 barrier\n1 barrier\n1 compute 5000ns\n"
                                          "1 barrier\n")
    assert body(convert(w.anchor, compute_scale=0.5)[0]) == (
        "0 compute 1500ns\n0 barrier\n0 compute 500ns\n0 barrier\n1 barrier\n"
        "1 compute 2500ns\n1 barrier\n")
    with TraceWriter(tmp_path / "b", 3) as w:
        w.compute(0, 1001)
        w.compute(1, 1)
        w.compute(2, 3)
        for r in range(3):
            w.collective(r, "barrier")
    text, _ = convert(w.anchor, compute_scale=0.5)
    assert text == header(w, 3, " (computation x 0.5)") + (
        "0 compute 501ns\n0 barrier\n1 compute 1ns\n1 barrier\n2 compute 2ns\n2 barrier\n")
    text, _ = convert(w.anchor, compute_scale=0.2)  # 200.2, 0.2, 0.6
    assert body(text) == "0 compute 200ns\n0 barrier\n1 barrier\n2 compute 1ns\n2 barrier\n"
    text, _ = convert(w.anchor, compute_scale=0)
    assert body(text) == "0 barrier\n1 barrier\n2 barrier\n"
    with pytest.raises(ValueError, match="compute_scale"):
        convert(w.anchor, compute_scale=-1)


def test_sendrecv_becomes_isend_irecv_and_waits(tmp_path):
    with TraceWriter(tmp_path / "a", 2) as w:
        w.sendrecv(0, 1, 1, 100, 1, 2, 200)
        w.sendrecv(1, 0, 2, 200, 0, 1, 100)
    assert body(convert(w.anchor)[0]) == (
        "0 isend 1 1 100 1\n0 irecv 1 2 200 2\n0 wait 1\n0 wait 2\n"
        "1 isend 0 2 200 1\n1 irecv 0 1 100 2\n1 wait 1\n1 wait 2\n")


def test_rank_without_mpi_events_has_no_lines(tmp_path):
    with TraceWriter(tmp_path / "a", 3, mpi_init=False) as w:
        w.call(0, "MPI_Init")
        w.send(0, 2, 0, 4)
        w.recv(2, 0, 0, 4)
        w.compute(1, 5000)
    text, ranks = convert(w.anchor)
    assert ranks == 3 and body(text) == "0 send 2 0 4\n2 recv 0 0 4\n"


# ---------------------------------------------------------------------------------------------
# Bad traces: TraceError, one line naming the archive, the rank and event, what is wrong


def refused(anchor, *names):
    with pytest.raises(TraceError) as info:
        convert(anchor)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"{anchor}: ")
    for name in names:
        assert name in message, message
    return message


def test_missing_file(tmp_path):
    refused(str(tmp_path / "nothing" / "traces.otf2"), "no such file")
    refused(str(tmp_path), "folder", "traces.otf2")


def test_not_an_otf2_archive(tmp_path, capfd):
    anchor = tmp_path / "traces.otf2"
    anchor.write_text("hello\n")
    refused(str(anchor), "not a readable OTF2 archive")
    assert capfd.readouterr().err == "", "the OTF2 library's messages must not show"


def test_truncated_event_file(tmp_path, capfd):
    with TraceWriter(tmp_path / "a", 2) as w:
        for i in range(50):
            w.send(0, 1, i, 10)
            w.recv(1, 0, i, 10)
    evt = tmp_path / "a" / "traces" / "1.evt"  # the location of rank 1
    evt.write_bytes(evt.read_bytes()[:-40])
    refused(w.anchor, "rank 1, event ", "cut or damaged")
    assert capfd.readouterr().err == ""


def test_zero_mpi_locations(tmp_path):
    """A serial program's trace: one location, no MPI group."""
    with otf2.writer.open(str(tmp_path / "a"), timer_resolution=10**9) as w:
        d = w.definitions
        loc = d.location("Master thread", group=d.location_group(
            "Process", system_tree_parent=d.system_tree_node("machine")))
        ew = w.event_writer_from_location(loc)
        ew.enter(0, d.region("main"))
        ew.leave(10, d.region("main"))
    refused(str(tmp_path / "a" / "traces.otf2"), "no MPI locations")


def test_rma_event(tmp_path):
    with TraceWriter(tmp_path / "a", 2) as w:
        win = w.definitions.rma_win("window", comm=w.world)
        w.call(0, "exchange", lambda ew, t: ew.rma_put(t, win, 1, 64, 0))
    refused(w.anchor, "rank 0, event 5 (RmaPut)", "RMA", "not supported")


def test_io_event(tmp_path):
    with TraceWriter(tmp_path / "a", 2) as w:
        d = w.definitions
        posix = d.io_paradigm("POSIX", "POSIX I/O", IoParadigmClass.SERIAL,
                              IoParadigmFlag.NONE)
        data = d.io_regular_file("data.bin", scope=d.system_tree_node("machine",
                                                                       class_name="machine"))
        w.compute(1, 10)
        w.call(1, "write_output", lambda ew, t: ew.io_delete_file(t, posix, data))
    refused(w.anchor, "rank 1, event 5 (IoDeleteFile)", "I/O")


def test_cancelled_request(tmp_path):
    with TraceWriter(tmp_path / "a", 2) as w:
        r = w.irecv(0, 1, 0, 8)
        w.call(0, "MPI_Cancel", lambda ew, t: ew.mpi_request_cancelled(t, r))
    refused(w.anchor, "rank 0, event 8 (MpiRequestCancelled)", "cancelled request")


def test_unknown_collective(tmp_path):
    with TraceWriter(tmp_path / "a", 2) as w:
        for r in range(2):
            w.collective(r, "scan", 8)
    refused(w.anchor, "rank 0, event 6 (MpiCollectiveEnd)", "SCAN", "allowed", "ALLTOALLV")


def test_wait_of_unknown_request(tmp_path):
    with TraceWriter(tmp_path / "a", 2) as w:
        w.wait(1, 4242)
    refused(w.anchor, "rank 1, event 5 (MpiIsendComplete)", "request 4242", "never started")


def test_request_never_completed(tmp_path):
    with TraceWriter(tmp_path / "a", 2) as w:
        w.isend(1, 0, 0, 8)
        w.irecv(0, 1, 0, 8)
        w.wait(0, 1000)
    refused(w.anchor, "rank 1, after its last event (9)",
            "request 1000 started at event 5 is never completed")


def test_request_still_outstanding(tmp_path):
    with TraceWriter(tmp_path / "a", 2) as w:
        for _ in range(2):
            w.call(1, "MPI_Isend", lambda ew, t: ew.mpi_isend(t, 0, w.world, 0, 8, 5))
    refused(w.anchor, "rank 1, event 8 (MpiIsend)", "request 5 is still outstanding")


def test_comm_self(tmp_path):
    with TraceWriter(tmp_path / "a", 2) as w:
        w.send(1, 0, 0, 8, comm=w.comm_self)
    refused(w.anchor, "rank 1, event 5 (MpiSend)", "'MPI_COMM_SELF' is a self communicator",
            "one rank", "not supported")


def test_disagreeing_collectives(tmp_path):
    with TraceWriter(tmp_path / "a", 3) as w:
        for r in range(3):
            w.collective(r, "barrier")
            w.collective(r, "allreduce" if r != 2 else "barrier", 8)
    refused(w.anchor, "rank 2, event 10 (MpiCollectiveEnd)", "collective #2",
            "BARRIER", "ALLREDUCE on rank 0")
    with TraceWriter(tmp_path / "b", 3) as w:
        for r in range(3):
            w.collective(r, "bcast", 8, root=r % 2)
    refused(w.anchor, "rank 1, event 6 (MpiCollectiveEnd)", "root 1", "root 0 on rank 0")
    with TraceWriter(tmp_path / "c", 3) as w:
        for r in range(3):
            w.collective(r, "allgather", 8 if r else 16)
    refused(w.anchor, "rank 1, event 6", "8 bytes per rank, but 16 on rank 0")
    with TraceWriter(tmp_path / "d", 3) as w:
        for r in range(2):
            w.collective(r, "barrier")
    refused(w.anchor, "rank 2: has no collective #1", "rank 0 makes at event 6")


def test_bad_sizes_and_peers(tmp_path):
    with TraceWriter(tmp_path / "a", 3) as w:
        raw_collective(w, 0, "ALLREDUCE", 10, 10)  # not 3 * b
    refused(w.anchor, "rank 0, event 6 (MpiCollectiveEnd)", "not a multiple")
    with TraceWriter(tmp_path / "b", 3) as w:
        w.send(2, 3, 0, 8)
    refused(w.anchor, "rank 2, event 5 (MpiSend)", "receiver 3 is no rank of",
            "MPI_COMM_WORLD")
    with TraceWriter(tmp_path / "c", 2) as w:
        w.send(0, 1, 2**31, 8)
    refused(w.anchor, "rank 0, event 5 (MpiSend)", "tag 2147483648")


def test_unmatched_enter_and_leave(tmp_path):
    with TraceWriter(tmp_path / "a", 2) as w:
        stray = w.definitions.region("solve")
        w.call(0, "MPI_Barrier", lambda ew, t: ew.leave(t, stray))
    refused(w.anchor, "rank 0, event 5 (Leave)", "'solve'", "'MPI_Barrier'")
    with TraceWriter(tmp_path / "b", 2) as w:
        w.call(1, "MPI_Barrier", lambda ew, t: ew.enter(t, w.definitions.region("solve")))
    refused(w.anchor, "rank 1, event 6 (Leave)", "leave of region 'MPI_Barrier'",
            "'solve' (entered at event 5) is open")


@pytest.mark.parametrize("call, why", [("MPI_Iprobe", "probes"),
                                       ("MPI_Put", "one-sided communication (RMA)"),
                                       ("MPI_Iallreduce", "non-blocking collectives"),
                                       ("MPI_File_write_all", "MPI I/O")])
def test_unsupported_calls(tmp_path, call, why):
    """Calls the model cannot replay, also when Score-P recorded no event inside them."""
    with TraceWriter(tmp_path / "a", 2) as w:
        w.call(1, call)
    refused(w.anchor, "rank 1, event 4 (Enter)", f"{call}: {why}", "not supported")


def test_mpi_event_outside_an_mpi_call(tmp_path):
    with TraceWriter(tmp_path / "a", 2) as w:
        w.call(0, "solve", lambda ew, t: ew.mpi_send(t, 1, w.world, 0, 8))
    refused(w.anchor, "rank 0, event 5 (MpiSend)", "outside an MPI call")


# ---------------------------------------------------------------------------------------------
# Command line


def run_cli(*args):
    return programs.run_python("-m", "clusternet.otf2trace", *args, status=None, timeout=120)


def test_cli_writes_the_trace(tmp_path):
    with TraceWriter(tmp_path / "a", 2) as w:
        w.send(0, 1, 0, 8)
        w.compute(1, 4000)
        w.recv(1, 0, 0, 8)
    out = tmp_path / "trace.txt"
    proc = run_cli(w.anchor, f"--out={out}", "--compute-scale=2")
    assert proc.returncode == 0, proc.stderr
    assert out.read_text() == header(w, 2, " (computation x 2)") + (
        "0 send 1 0 8\n1 compute 8000ns\n1 recv 0 0 8\n")
    assert sorted(os.listdir(tmp_path)) == ["a", "trace.txt"], "no temporary file left"
    proc = run_cli(w.anchor)
    assert proc.returncode == 0 and proc.stdout == convert(w.anchor)[0]


@pytest.mark.parametrize("case", ["damaged", "bad-option"])
def test_cli_refuses_in_one_line(tmp_path, case):
    with TraceWriter(tmp_path / "a", 2) as w:
        w.isend(0, 1, 0, 8)  # never completed
    out = tmp_path / "trace.txt"
    args = [w.anchor, f"--out={out}"]
    if case == "bad-option":
        args.append("--compute-scale=-1")
    proc = run_cli(*args)
    assert proc.returncode == 2
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("otf2trace: "), proc.stderr
    assert ("never completed" if case == "damaged" else "--compute-scale") in lines[0]
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    assert sorted(os.listdir(tmp_path)) == ["a"], "a failed conversion writes no file"


def test_cli_help_names_units():
    proc = run_cli("--help")
    assert proc.returncode == 0
    for word in ("--out", "--compute-scale", "[path]", "[factor"):
        assert word in proc.stdout
