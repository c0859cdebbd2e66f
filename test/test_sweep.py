# SPDX-License-Identifier: GPL-2.0-only
"""The sweep driver (clusternet.sweep): points on Dask, atomic results, resume, provenance.

The driver's own behaviour is checked against a stand-in scenario program (a small Python
script speaking the --list-points / --run-point protocol, counting its simulations); the real
programs are checked for the protocol and for the same data.csv bytes through a real
``dask scheduler`` with two ``dask worker`` processes, and after a ``kill -9``.
"""
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pandas as pd
import pytest

from analysis.io import load_runs
from clusternet.sweep import PROVENANCE_COLUMNS

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable

FAKE = textwrap.dedent('''\
    #!{py}
    # A stand-in scenario program: points a, bad, c; 'bad' fails; with $FAKE_A_WAITS, 'a'
    # waits until 'c' has finished (two workers then finish c first); --x scales the values.
    import json, os, sys, time
    opts = dict(jobs="2", out="results/fake", resume="1", report="0", scheduler="")
    opts.update({{"list-points": "0", "run-point": "", "point-out": "", "x": "1"}})
    for arg in sys.argv[1:]:
        name, _, value = arg[2:].partition("=")
        if name not in opts:
            print(f"fake: unknown option --{{name}}", file=sys.stderr)
            sys.exit(2)
        opts[name] = value
    points = ["a", "bad", "c"]
    if opts["list-points"] == "1":
        print(json.dumps(dict(scenario="fake", columns=["point", "value"],
                              options={{k: opts[k] for k in
                                       ("jobs", "out", "resume", "report", "scheduler")}},
                              points=[dict(label="point " + p, file=p) for p in points])))
        sys.exit(0)
    if opts["run-point"]:
        with open(os.environ["FAKE_COUNT"], "a") as f:
            f.write(opts["run-point"] + "\\n")
        print("simulating " + opts["run-point"])
        marker = os.environ["FAKE_COUNT"] + ".c-done"
        if opts["run-point"] == "a" and os.environ.get("FAKE_A_WAITS"):
            deadline = time.monotonic() + 120
            while not os.path.exists(marker) and time.monotonic() < deadline:
                time.sleep(0.02)
            time.sleep(1.0)   # c's result reaches the driver first
        kill_file = os.environ.get("FAKE_PARENT_PID")
        if opts["run-point"] == "a" and kill_file and not os.path.exists(kill_file + ".done"):
            open(kill_file + ".done", "w").close()   # only the first run of 'a' waits
            with open(kill_file, "w") as f:
                f.write(f"{{os.getpid()}} {{os.getppid()}}")
            time.sleep(30)   # the test kills the worker meanwhile
        if opts["run-point"] == "c" and os.environ.get("FAKE_C_ABORTS"):
            os.abort()
        if opts["run-point"] == "bad":
            print("fake: the bad point fails", file=sys.stderr)
            sys.exit(3)
        with open(opts["point-out"], "w") as f:
            f.write(f"{{opts['run-point']}},{{int(opts['x']) * len(opts['run-point'])}}\\n")
        if opts["run-point"] == "c":
            open(marker, "w").close()
        sys.exit(0)
    sys.exit(9)
''')


@pytest.fixture
def fake(tmp_path):
    path = tmp_path / "bin" / "fake"
    path.parent.mkdir()
    path.write_text(FAKE.format(py=PY))
    path.chmod(0o755)
    return path


def drive(binary, *args, env=None, cwd=None):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([PY, "-m", "clusternet.sweep", f"--binary={binary}", "--", *args],
                          capture_output=True, text=True, env=e, cwd=cwd, timeout=300)


def simulated(count_file):
    return count_file.read_text().split() if count_file.exists() else []


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_failing_point_is_reported_and_the_others_finish(fake, tmp_path, jobs):
    count = tmp_path / "count"
    out = tmp_path / "out"
    env = {"FAKE_COUNT": str(count), **({"FAKE_A_WAITS": "1"} if jobs == "2" else {})}
    proc = drive(fake, f"--out={out}", f"--jobs={jobs}", env=env)
    # exit status: the failing point's own (3), as the only failure
    assert proc.returncode == 3, proc.stderr
    # the failing point is named with what reproduces it, and its own message is passed on
    assert "FAILED (status 3)" in proc.stderr and "--run-point=bad" in proc.stderr
    assert "fake: the bad point fails" in proc.stderr
    assert "simulating c" in proc.stdout
    assert "2 of 3 points" in proc.stderr
    # data.csv: header, then the finished points in the program's order (with two workers, a
    # finished last)
    assert (out / "data.csv").read_text() == "point,value\na,1\nc,1\n"
    done = [line.split("]")[1].split()[1] for line in proc.stderr.splitlines()
            if line.startswith("[")]
    assert done == (["a", "bad", "c"] if jobs == "1" else ["bad", "c", "a"]), proc.stderr
    prov = pd.read_csv(out / "provenance.csv", dtype=str, keep_default_na=False)
    assert list(prov.columns) == PROVENANCE_COLUMNS
    assert list(prov.point) == ["point a", "point c"]
    assert (prov.scenario == "fake").all() and (prov.rng_run == "1").all()
    assert all(len(v) == 64 for v in prov.key) and prov.key.nunique() == 2
    assert not list(out.rglob("*.tmp*"))


def test_rerun_reuses_points_and_a_changed_parameter_recomputes(fake, tmp_path):
    count = tmp_path / "count"
    out = tmp_path / "out"
    env = {"FAKE_COUNT": str(count)}
    drive(fake, f"--out={out}", "--jobs=1", env=env)
    assert simulated(count) == ["a", "bad", "c"]
    first = (out / "data.csv").read_bytes()
    again = drive(fake, f"--out={out}", "--jobs=1", env=env)
    # a and c are reused; only the failed point runs again
    assert simulated(count) == ["a", "bad", "c", "bad"]
    assert again.stderr.count("reused") == 2
    assert (out / "data.csv").read_bytes() == first
    drive(fake, f"--out={out}", "--jobs=1", "--resume=0", env=env)
    assert simulated(count)[4:] == ["a", "bad", "c"]
    # a parameter the rows depend on: every point again, with the new values
    drive(fake, f"--out={out}", "--jobs=1", "--x=3", env=env)
    assert simulated(count)[7:] == ["a", "bad", "c"]
    assert (out / "data.csv").read_text() == "point,value\na,3\nc,3\n"
    # the sweep's own options (workers, report) do not change what a point computes
    drive(fake, f"--out={out}", "--jobs=2", "--x=3", "--report=1", env=env)
    assert simulated(count)[10:] == ["bad"]
    # nor is a point reused when the environment that reaches it changes ns-3's globals
    drive(fake, f"--out={out}", "--jobs=1", "--x=3", env={**env, "NS_GLOBAL_VALUE": "RngRun=2"})
    assert simulated(count)[11:] == ["a", "bad", "c"]
    prov = pd.read_csv(out / "provenance.csv", dtype=str)
    assert (prov.rng_run == "2").all()


def test_bad_driver_use_and_program_refusals_pass_through(fake, tmp_path):
    proc = drive(tmp_path / "nothing")
    assert proc.returncode == 2 and "--binary" in proc.stderr
    proc = drive(fake, "--frobnicate=1", f"--out={tmp_path / 'out'}")
    assert proc.returncode == 2 and proc.stderr.strip() == "fake: unknown option --frobnicate"
    assert not (tmp_path / "out").exists()


def test_load_runs_gives_two_sweeps_in_one_frame(fake, tmp_path):
    env = {"FAKE_COUNT": str(tmp_path / "count")}
    drive(fake, f"--out={tmp_path / 'one'}", "--jobs=1", env=env)
    drive(fake, f"--out={tmp_path / 'two'}", "--jobs=1", "--x=2", env=env)
    df = load_runs(tmp_path / "one", tmp_path / "two")
    assert list(df.value) == [1, 1, 2, 2]
    for column in PROVENANCE_COLUMNS + ["results"]:
        assert column in df.columns and df[column].notna().all(), column
    assert df.groupby("results").key.nunique().tolist() == [2, 2]
    assert df.key.nunique() == 4
    assert df.args.tolist()[2] == json.dumps(["--x=2"])


# --- issue 44, item 1: resume never trusts a damaged point ----------------------------------

def _swap(a, b):
    ta, tb = a.read_bytes(), b.read_bytes()
    a.write_bytes(tb)
    b.write_bytes(ta)


DAMAGES = {
    "csv truncated": lambda pts: (pts / "a.csv").write_text("a,"),
    "csv emptied": lambda pts: (pts / "a.csv").write_text(""),
    "csv garbage": lambda pts: (pts / "a.csv").write_bytes(b"\x00\xff\xfe garbage\n"),
    "csv value edited": lambda pts: (pts / "a.csv").write_text("a,9\n"),
    "csv files swapped": lambda pts: _swap(pts / "a.csv", pts / "c.csv"),
    "csv missing": lambda pts: (pts / "a.csv").unlink(),
    "json missing": lambda pts: (pts / "a.json").unlink(),
    "json a list": lambda pts: (pts / "a.json").write_text("[]"),
    "json null": lambda pts: (pts / "a.json").write_text("null"),
    "json binary": lambda pts: (pts / "a.json").write_bytes(b"\xff\xfe\x00{"),
    "json files swapped": lambda pts: _swap(pts / "a.json", pts / "c.json"),
}


@pytest.mark.parametrize("damage", DAMAGES, ids=list(DAMAGES))
def test_a_damaged_point_is_computed_again_not_reused(fake, tmp_path, damage):
    """A point whose files are missing, damaged or another point's is simulated again, with a
    line saying which and why; data.csv holds only verified rows (issue 44, item 1)."""
    count = tmp_path / "count"
    out = tmp_path / "out"
    env = {"FAKE_COUNT": str(count)}
    drive(fake, f"--out={out}", "--jobs=1", env=env)
    good = (out / "data.csv").read_bytes()
    assert good == b"point,value\na,1\nc,1\n"
    DAMAGES[damage](out / ".points")
    again = drive(fake, f"--out={out}", "--jobs=1", env=env)
    assert again.returncode == 3, again.stderr            # 'bad' fails, as always
    assert "Traceback" not in again.stderr
    rerun = simulated(count)[3:]
    swapped = "swapped" in damage
    assert sorted(rerun) == (["a", "bad", "c"] if swapped else ["a", "bad"]), again.stderr
    said = [line for line in again.stderr.splitlines() if "not reused" in line]
    assert len(said) == (2 if swapped else 1), again.stderr
    assert said[0].startswith("point a: not reused: "), said
    assert (out / "data.csv").read_bytes() == good
    # and the recomputed point is trusted again on the next run
    drive(fake, f"--out={out}", "--jobs=1", env=env)
    assert simulated(count)[3 + len(rerun):] == ["bad"]


ODD = {
    "points folder a file": (lambda out: (out / ".points").write_text("x"), ".points"),
    "point csv a folder": (lambda out: (out / ".points" / "a.csv").mkdir(), "a.csv"),
    "point json a folder": (lambda out: (out / ".points" / "c.json").mkdir(), "c.json"),
    "data.csv a folder": (lambda out: (out / "data.csv").mkdir(), "data.csv"),
    "provenance a folder": (lambda out: (out / "provenance.csv").mkdir(), "provenance.csv"),
}


@pytest.mark.parametrize("odd", ODD, ids=list(ODD))
def test_odd_file_types_under_out_are_refused_before_anything_runs(fake, tmp_path, odd):
    count = tmp_path / "count"
    out = tmp_path / "out"
    env = {"FAKE_COUNT": str(count)}
    make, name = ODD[odd]
    (out / ".points").mkdir(parents=True)
    if "points folder" in odd:
        (out / ".points").rmdir()
    make(out)
    proc = drive(fake, f"--out={out}", "--jobs=1", env=env)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and name in lines[0] and "not a" in lines[0], proc.stderr
    assert simulated(count) == []


# --- issue 44: a lost worker is survived ------------------------------------------------------

def test_a_point_killed_mid_run_is_survived_on_a_local_cluster(fake, tmp_path):
    """A local cluster's workers live in the driver and each point is a process of its own:
    kill -9 of that process (what a lost worker is here) runs the point again, and data.csv is
    byte-identical to an undisturbed run."""
    count = tmp_path / "count"
    calm = drive(fake, f"--out={tmp_path / 'calm'}", "--jobs=2", env={"FAKE_COUNT": str(count)})
    pid_file = tmp_path / "worker.pid"
    env = {"FAKE_COUNT": str(tmp_path / "count2"), "FAKE_PARENT_PID": str(pid_file)}
    e = dict(os.environ)
    e.update(env)
    proc = subprocess.Popen([PY, "-m", "clusternet.sweep", f"--binary={fake}", "--",
                             f"--out={tmp_path / 'hit'}", "--jobs=2"], env=e,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not pid_file.exists() or not pid_file.read_text():
        assert time.monotonic() < deadline and proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    os.kill(int(pid_file.read_text().split()[0]), signal.SIGKILL)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == calm.returncode == 3, err    # 'bad' fails, as always
    assert "point a: its process was killed (signal 9); ran it again" in err, err
    assert (tmp_path / "hit" / "data.csv").read_bytes() == \
        (tmp_path / "calm" / "data.csv").read_bytes()
    assert simulated(tmp_path / "count2").count("a") == 2   # killed once, then run again


def test_a_point_that_aborts_is_reported_not_run_again(fake, tmp_path):
    """Only SIGKILL (a lost worker, the OOM killer) runs a point again: an abort is the
    model's own failure, reported once."""
    count = tmp_path / "count"
    proc = drive(fake, f"--out={tmp_path / 'out'}", "--jobs=1",
                 env={"FAKE_COUNT": str(count), "FAKE_C_ABORTS": "1"})
    assert proc.returncode == 1, proc.stderr          # statuses 3 and -6 disagree
    assert simulated(count) == ["a", "bad", "c"] and "ran it again" not in proc.stderr
    assert "FAILED (status -6)" in proc.stderr


def test_a_worker_killed_mid_point_is_survived_on_a_real_scheduler(fake, tmp_path):
    """A real 'dask scheduler' with two 'dask worker' processes: kill -9 of the worker running a
    point; the scheduler runs the point again on the other worker, every point finishes and
    data.csv is byte-identical to an undisturbed run."""
    calm = drive(fake, f"--out={tmp_path / 'calm'}", "--jobs=1",
                 env={"FAKE_COUNT": str(tmp_path / "count")})
    pid_file = tmp_path / "worker.pid"
    e = dict(os.environ)
    # the fake reads these where it runs: on the workers
    e.update(FAKE_COUNT=str(tmp_path / "count2"), FAKE_PARENT_PID=str(pid_file))
    with dask_cluster(e, tmp_path) as address:
        proc = subprocess.Popen([PY, "-m", "clusternet.sweep", f"--binary={fake}", "--",
                                 f"--out={tmp_path / 'hit'}", f"--scheduler={address}"],
                                env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        while not pid_file.exists() or not pid_file.read_text():
            assert time.monotonic() < deadline and proc.poll() is None, proc.communicate()
            time.sleep(0.05)
        os.kill(int(pid_file.read_text().split()[1]), signal.SIGKILL)   # the worker process
        out, err = proc.communicate(timeout=300)
    assert proc.returncode == calm.returncode == 3, err    # 'bad' fails, as always
    assert "worker error" not in err and "2 of 3 points" in err, err
    assert (tmp_path / "hit" / "data.csv").read_bytes() == \
        (tmp_path / "calm" / "data.csv").read_bytes()
    assert simulated(tmp_path / "count2").count("a") == 2   # lost once, then run again


# --- issue 44, item 4: --scheduler and $CLUSTERNET_SCHEDULER -------------------------------

class _Endpoint:
    """A TCP endpoint that is not a Dask scheduler: it answers one HTTP line, or stays silent."""

    def __init__(self, answer):
        import threading

        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = self.sock.getsockname()[1]
        self.answer = answer
        self.held = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.held.append(conn)
            if self.answer:
                conn.sendall(self.answer)

    def close(self):
        for c in self.held:
            c.close()
        self.sock.close()


@pytest.mark.parametrize("case", ["http line", "silent", "tls", "env garbage", "env tls",
                                  "env list", "env space"])
def test_a_scheduler_that_is_not_one_is_refused_in_one_line(fake, tmp_path, case):
    """One validation for --scheduler and $CLUSTERNET_SCHEDULER; connect, handshake and
    identity bounded in time; whatever answers that is not a Dask scheduler is one line, exit 2,
    nothing simulated (issue 44, item 4)."""
    count = tmp_path / "count"
    env = {"FAKE_COUNT": str(count)}
    args = [f"--out={tmp_path / 'out'}", "--jobs=1"]
    endpoint = None
    if case in ("http line", "silent"):
        endpoint = _Endpoint(b"HTTP/1.1 400 Bad Request\r\n" if case == "http line" else b"")
        args.append(f"--scheduler=tcp://127.0.0.1:{endpoint.port}")
        says = "did not answer" if case == "silent" else "is not a Dask scheduler"
    elif case == "tls":
        args.append("--scheduler=tls://127.0.0.1:1")
        says = "tls:// is not supported"
    else:
        env["CLUSTERNET_SCHEDULER"] = {"env garbage": "garbage", "env tls": "tls://h:1",
                                       "env list": "tcp://127.0.0.1:1,tcp://127.0.0.1:2",
                                       "env space": "tcp://a b:1"}[case]
        says = "$CLUSTERNET_SCHEDULER: '"
    began = time.monotonic()
    try:
        proc = drive(fake, *args, env=env)
    finally:
        if endpoint:
            endpoint.close()
    assert proc.returncode == 2, proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and says in lines[0], proc.stderr
    assert "Traceback" not in proc.stderr and simulated(count) == []
    assert time.monotonic() - began < 90


# --- the real programs --------------------------------------------------------------------

SMALL = ["--nic=acenic,sknet", "--mtu=1500,9000", "--sockbuf=65536", "--max-block=8192",
         "--report=0"]


def test_the_issue_example_a_cut_point_is_simulated_again(run_program, tmp_path):
    """Issue 44's example: a point's .csv cut to 300 bytes was reused (data.csv with two rows
    fused, exit 0); now that point is simulated again and data.csv is the first run's bytes."""
    args = ["--nic=sknet", "--mtu=1500,9000", "--sockbuf=65536", "--max-block=1024",
            "--report=0", "--jobs=1", f"--out={tmp_path / 'out'}"]
    run_program("gige-mtu-sweep", *args, timeout=600)
    data = (tmp_path / "out" / "data.csv").read_bytes()
    point = tmp_path / "out" / ".points" / "nic_sknet_mtu_1500_sockbuf_65536.csv"
    point.write_bytes(point.read_bytes()[:300])
    again = run_program("gige-mtu-sweep", *args, timeout=600)
    assert "nic=sknet mtu=1500 sockbuf=65536: not reused: its rows (.csv) do not match" in \
        again.stderr, again.stderr
    assert (tmp_path / "out" / "data.csv").read_bytes() == data


def test_program_lists_its_points_and_runs_one(run_program, tmp_path):
    listed = run_program("gige-mtu-sweep", *SMALL, "--list-points=1", timeout=60)
    plan = json.loads(listed.stdout)
    assert plan["scenario"] == "gige-mtu-sweep"
    assert plan["columns"][:5] == ["nic", "host", "pci", "switches", "mtu"]
    assert [p["label"] for p in plan["points"]] == [
        "nic=acenic mtu=1500 sockbuf=65536", "nic=acenic mtu=9000 sockbuf=65536",
        "nic=sknet mtu=1500 sockbuf=65536", "nic=sknet mtu=9000 sockbuf=65536"]
    assert plan["points"][0]["file"] == "nic_acenic_mtu_1500_sockbuf_65536"
    assert plan["options"]["report"] == "0"
    rows = tmp_path / "rows.csv"
    run_program("gige-mtu-sweep", *SMALL, "--run-point=nic_sknet_mtu_9000_sockbuf_65536",
                f"--point-out={rows}", timeout=120)
    lines = rows.read_text().splitlines()
    assert lines and all(line.startswith("sknet,") and ",9000,65536," in line for line in lines)
    bad = run_program("gige-mtu-sweep", *SMALL, "--run-point=nosuch", f"--point-out={rows}",
                      status=2, timeout=60)
    assert len(bad.stderr.strip().splitlines()) == 1
    assert "--run-point" in bad.stderr


@contextlib.contextmanager
def dask_cluster(env, cwd, workers=2):
    """A real 'dask scheduler' with ``workers`` 'dask worker' processes; yields its address."""
    dask = Path(PY).with_name("dask")
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    procs = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                               "--no-dashboard"], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, cwd=cwd)]
    try:
        time.sleep(2)
        for _ in range(workers):
            procs.append(subprocess.Popen([dask, "worker", address, "--nthreads", "1",
                                           "--no-dashboard"], env=env,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                          cwd=cwd))
        yield address
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_scheduler_with_two_workers_gives_the_local_bytes(run_program, scenario_env, tmp_path):
    local = run_program("gige-mtu-sweep", *SMALL, f"--out={tmp_path / 'local'}", "--jobs=2",
                        timeout=600)
    assert "4 of 4 points" in local.stderr
    with dask_cluster(scenario_env, tmp_path) as address:
        proc = run_program("gige-mtu-sweep", *SMALL, f"--out={tmp_path / 'remote'}",
                           f"--scheduler={address}", timeout=600)
    assert "4 of 4 points" in proc.stderr
    assert ((tmp_path / "remote" / "data.csv").read_bytes()
            == (tmp_path / "local" / "data.csv").read_bytes())
    hosts = pd.read_csv(tmp_path / "remote" / "provenance.csv").host
    assert hosts.notna().all()


def test_unreachable_scheduler_is_refused_in_one_line(run_program, tmp_path):
    proc = run_program("gige-mtu-sweep", *SMALL, f"--out={tmp_path / 'o'}",
                       f"--scheduler=tcp://127.0.0.1:{free_port()}", status=2, timeout=120)
    assert "--scheduler" in proc.stderr.strip().splitlines()[-1]
    bad = run_program("gige-mtu-sweep", "--scheduler=localhost", status=2, timeout=60)
    assert "--scheduler" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1


def test_kill_9_then_resume_ends_byte_identical(scenario_bin, scenario_env, tmp_path):
    whole = tmp_path / "whole"
    args = ["--nic=acenic,sknet,gnic2", "--mtu=1500,4500,9000", "--sockbuf=65536",
            "--max-block=65536", "--report=0"]
    prog = scenario_bin("gige-mtu-sweep")
    env = dict(scenario_env)
    subprocess.run([prog, *args, f"--out={whole}", "--jobs=2"], check=True, env=env,
                   capture_output=True, timeout=600)
    cut = tmp_path / "cut"
    sweep = subprocess.Popen([prog, *args, f"--out={cut}", "--jobs=2"], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and sweep.poll() is None:
            if len(list((cut / ".points").glob("*.json"))) >= 3:
                break
            time.sleep(0.05)
        assert sweep.poll() is None, "the sweep ended before it could be killed"
        os.kill(sweep.pid, signal.SIGKILL)   # the driver, as a crash would
        sweep.wait()
    finally:
        try:
            os.killpg(sweep.pid, signal.SIGKILL)   # its orphaned workers
        except ProcessLookupError:
            pass
    kept = sorted(p.name for p in (cut / ".points").glob("*.json"))
    assert 3 <= len(kept) < 9
    rest = subprocess.run([prog, *args, f"--out={cut}", "--jobs=2"], env=env,
                          capture_output=True, text=True, timeout=600)
    assert rest.returncode == 0, rest.stderr
    assert rest.stderr.count("reused") >= len(kept)
    assert (cut / "data.csv").read_bytes() == (whole / "data.csv").read_bytes()


def test_notebook_example_runs_and_a_faster_slot_does_not_slow_a_nic(scenario_bin, tmp_path):
    scenario_bin("gige-mtu-sweep")
    env = dict(os.environ, CLUSTERNET_EXAMPLE_OUT=str(tmp_path))
    proc = subprocess.run([PY, str(ROOT / "notebooks" / "what-if-pci.py")], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "what-if-pci.png").stat().st_size > 10000
    runs = load_runs(tmp_path / "32x33", tmp_path / "64x66")
    peaks = runs.groupby(["nic", "mtu", "pci"]).mbps.max().unstack("pci")
    assert len(peaks) == 4
    # a wider, faster bus moves each DMA in less time: no configuration may lose throughput
    assert (peaks["64x66"] >= peaks["32x33"] * 0.995).all(), peaks


def test_python_run_checks_options_as_the_command_line_does(scenario_bin, tmp_path):
    import clusternet

    scenario_bin("gige-mtu-sweep")
    with pytest.raises(ValueError, match=r"--mtu: 'abc' is not a whole number"):
        clusternet.run("gige-mtu-sweep", mtu="abc", out=tmp_path / "bad")
    with pytest.raises(ValueError, match=r"--frobnicate"):
        clusternet.run("gige-mtu-sweep", frobnicate=1, out=tmp_path / "bad")
    with pytest.raises(ValueError, match="unknown scenario 'nosuch'; known: .*gige-mtu-sweep"):
        clusternet.run("nosuch")
    assert not (tmp_path / "bad").exists()
    df = clusternet.run("gige-mtu-sweep", nic="sknet", mtu=[1500, 9000], sockbuf=65536,
                        max_block=4096, jobs=1, out=tmp_path / "ok")
    assert df.equals(pd.read_csv(tmp_path / "ok" / "data.csv"))
    assert sorted(df.mtu.unique()) == [1500, 9000] and set(df.nic) == {"sknet"}


def test_every_program_runs_from_python(scenario_bin, tmp_path):
    """The one-run programs are one-point sweeps: clusternet.run takes them too."""
    import clusternet

    scenario_bin("gige-switch-incast")
    incast = clusternet.run("gige-switch-incast", senders=3, frames=50, out=tmp_path / "incast")
    # PAUSE on: nothing lost; every sender's frames reach the sink
    assert len(incast) == 4 and set(incast.role) == {"sender", "sink"}
    assert (incast.drops == 0).all() and (incast.sent_bytes == 3 * 50 * 1500).all()
    assert (incast.delivered_bytes == incast.sent_bytes).all()
    clos = clusternet.run("myrinet-clos-alltoall", hosts=16, msg=5000, out=tmp_path / "clos")
    # 16 x 15 messages of two packets each (4096 + 904 bytes), all delivered
    assert clos.packets_delivered.tolist() == [16 * 15 * 2] == clos.expected.tolist()
    bench = clusternet.run("bench-gige-vs-p2p", bytes=1000000, out=tmp_path / "bench")
    assert bench.model.tolist() == ["clusternet", "p2p"]
    assert (bench.bytes_rx == 1000000).all()


def test_a_changed_trace_is_replayed_again(scenario_bin, scenario_env, tmp_path):
    import clusternet

    scenario_bin("mpi-replay")
    trace = tmp_path / "t.txt"
    trace.write_text("0 send 1 1 1000\n1 recv 0 1 1000\n")
    first = clusternet.run("mpi-replay", trace=trace, out=tmp_path / "r")
    trace.write_text("0 send 1 1 100000\n1 recv 0 1 100000\n")
    second = clusternet.run("mpi-replay", trace=trace, out=tmp_path / "r")
    assert first.op.tolist() == ["send 1 1 1000", "recv 0 1 1000"]
    assert second.op.tolist() == ["send 1 1 100000", "recv 0 1 100000"]
    # and a deadlock keeps its own exit status and one line through the driver
    trace.write_text("0 recv 1 1 10\n1 recv 0 1 10\n")
    proc = subprocess.run([scenario_bin("mpi-replay"), f"--trace={trace}",
                           f"--out={tmp_path / 'd'}"], capture_output=True, text=True,
                          env=scenario_env, timeout=120)
    assert proc.returncode == 3 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_a_benchmark_is_never_reused(scenario_bin, scenario_env, tmp_path):
    prog = scenario_bin("bench-gige-vs-p2p")
    for _ in range(2):
        proc = subprocess.run([prog, "--bytes=1000000", f"--out={tmp_path}"],
                              capture_output=True, text=True, env=scenario_env, timeout=120)
        assert proc.returncode == 0, proc.stderr
        assert "reused" not in proc.stderr and "ratio=" in proc.stdout


# --- issue 44, item 8: the Python API refuses what it cannot do, with ValueError ------------

@pytest.mark.parametrize("call,says", [
    (lambda cn: cn.profiles("bogus"), "kind 'bogus' is not one of"),
    (lambda cn: cn.profiles(None), "kind None is not one of"),
    (lambda cn: cn.run(None), "scenario must be a scenario's name"),
    (lambda cn: cn.run("gige-mtu-sweep", client="str"), "client must be a distributed.Client"),
    (lambda cn: cn.run("gige-mtu-sweep", list_points=1), "list_points is the sweep driver's"),
    (lambda cn: cn.run("gige-mtu-sweep", run_point="x"), "run_point is the sweep driver's"),
], ids=["profiles kind", "profiles None", "run None", "client str", "list_points", "run_point"])
def test_python_api_bad_calls_raise_value_error(call, says):
    import clusternet

    with pytest.raises(ValueError, match=says):
        call(clusternet)


def test_losing_the_scheduler_ends_the_driver_in_one_line_and_a_rerun_resumes(fake, tmp_path):
    """Issue 44: the scheduler is killed while a point runs; the driver ends with one line
    (no traceback, no line per point) and the points finished before are kept: a rerun on a
    new scheduler simulates only the rest."""
    e = dict(os.environ)
    pid_file = tmp_path / "worker.pid"
    e.update(FAKE_COUNT=str(tmp_path / "count"), FAKE_PARENT_PID=str(pid_file))
    dask = Path(PY).with_name("dask")
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    scheduler = subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                  "--no-dashboard"], env=e, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, cwd=tmp_path)
    workers = []
    try:
        time.sleep(2)
        workers = [subprocess.Popen([dask, "worker", address, "--nthreads", "1",
                                     "--no-dashboard"], env=e, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL, cwd=tmp_path) for _ in range(2)]
        proc = subprocess.Popen([PY, "-m", "clusternet.sweep", f"--binary={fake}", "--",
                                 f"--out={tmp_path / 'out'}", f"--scheduler={address}"],
                                env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        # 'a' waits (30 s) once it has started; 'bad' and 'c' finish on the other worker
        while not pid_file.exists() or not pid_file.read_text() or \
                simulated(tmp_path / "count").count("c") < 1 or \
                not (tmp_path / "out" / ".points" / "c.json").exists():
            assert time.monotonic() < deadline and proc.poll() is None, proc.communicate()
            time.sleep(0.05)
        scheduler.kill()
        out, err = proc.communicate(timeout=240)
    finally:
        for p in [scheduler, *workers]:
            p.kill()
            p.wait()
    # 'bad' may have failed before the scheduler was lost: its own message, passed on as
    # any failing point's is, is not a line of the loss
    lines = [line for line in err.splitlines() if line.strip() and not line.startswith("[")
             and line != "fake: the bad point fails"]
    assert proc.returncode == 1, err
    assert "Traceback" not in err and len(lines) == 1, err
    assert "lost the Dask scheduler" in lines[0] and "rerun" in lines[0], lines
    # the rerun, locally: only 'a' and 'bad' are simulated again, 'c' is reused
    before = len(simulated(tmp_path / "count"))
    e.pop("FAKE_PARENT_PID")
    again = drive(fake, f"--out={tmp_path / 'out'}", "--jobs=1", env={"FAKE_COUNT": e["FAKE_COUNT"]})
    assert again.returncode == 3, again.stderr
    assert sorted(simulated(tmp_path / "count")[before:]) == ["a", "bad"]


# --- issue 46, groundwork: a point's parts ---------------------------------------------------

def _composition(profiles, names):
    """The profiles ``names`` are composed of (themselves, their bases and parts, recursively),
    as ``kind:name``, read from the profile files by the Python catalogue."""
    seen, pending = set(), list(names)
    while pending:
        p = profiles[pending.pop()]
        if p.name in seen:
            continue
        seen.add(p.name)
        pending += [p.base] if p.base else []
        pending += list(p.parts)
    return {f"{profiles[n].kind}:{n}" for n in seen}


@pytest.mark.parametrize("nic,other", [("acenic", "sknet"), ("sknet", "acenic")])
def test_provenance_names_the_parts_of_each_point(scenario_bin, scenario_env, tmp_path, nic,
                                                  other):
    """provenance.csv's ``parts``: the profiles the point looked up (the NIC and the host of
    its configuration) with every base and part their values come from, and not the NIC the
    point does not use."""
    from analysis.catalogue import load_profiles

    out = tmp_path / "out"
    proc = subprocess.run([str(scenario_bin("gige-mtu-sweep")), f"--nic={nic}", "--mtu=9000",
                           "--sockbuf=65536", "--max-block=64", "--jobs=1", "--report=0",
                           f"--out={out}"], capture_output=True, text=True, env=scenario_env,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    prov = pd.read_csv(out / "provenance.csv", dtype=str, keep_default_na=False)
    parts = set(prov.parts.iloc[0].split(";"))
    profiles = load_profiles()
    expected = _composition(profiles, [nic, "piii450-linux22"])
    assert expected <= parts, expected - parts
    assert f"nic:{nic}" in parts and f"nic:{other}" not in parts
    assert all(p.split(":", 1)[1] in profiles and
               profiles[p.split(":", 1)[1]].kind == p.split(":", 1)[0] for p in parts), parts
