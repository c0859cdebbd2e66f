# SPDX-License-Identifier: GPL-2.0-only
"""The sweep driver (clusternet.sweep): points on Dask, atomic results, resume, provenance.

The driver's own behaviour is checked against a stand-in scenario program (a small Python
script speaking the --list-points / --run-point protocol, counting its simulations); the real
programs are checked for the protocol and for the same data.csv bytes through a real
``dask scheduler`` with two ``dask worker`` processes, and after a ``kill -9``.
"""
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
    e["PYTHONPATH"] = str(ROOT) + os.pathsep + e.get("PYTHONPATH", "")
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


# --- the real programs --------------------------------------------------------------------

SMALL = ["--nic=acenic,sknet", "--mtu=1500,9000", "--sockbuf=65536", "--max-block=8192",
         "--report=0"]


def run_real(scenario_bin, scenario_env, out, *args, timeout=600):
    proc = subprocess.run([scenario_bin("gige-mtu-sweep"), *SMALL, f"--out={out}", *args],
                          capture_output=True, text=True, env=scenario_env, timeout=timeout)
    assert proc.returncode == 0, proc.stderr
    return proc


def test_program_lists_its_points_and_runs_one(scenario_bin, scenario_env, tmp_path):
    prog = scenario_bin("gige-mtu-sweep")
    listed = subprocess.run([prog, *SMALL, "--list-points=1"], capture_output=True, text=True,
                            env=scenario_env, timeout=60)
    assert listed.returncode == 0, listed.stderr
    plan = json.loads(listed.stdout)
    assert plan["scenario"] == "gige-mtu-sweep"
    assert plan["columns"][:4] == ["nic", "host", "pci", "mtu"]
    assert [p["label"] for p in plan["points"]] == [
        "nic=acenic mtu=1500 sockbuf=65536", "nic=acenic mtu=9000 sockbuf=65536",
        "nic=sknet mtu=1500 sockbuf=65536", "nic=sknet mtu=9000 sockbuf=65536"]
    assert plan["points"][0]["file"] == "nic_acenic_mtu_1500_sockbuf_65536"
    assert plan["options"]["report"] == "0"
    rows = tmp_path / "rows.csv"
    one = subprocess.run([prog, *SMALL, "--run-point=nic_sknet_mtu_9000_sockbuf_65536",
                          f"--point-out={rows}"], capture_output=True, text=True,
                         env=scenario_env, timeout=120)
    assert one.returncode == 0, one.stderr
    lines = rows.read_text().splitlines()
    assert lines and all(line.startswith("sknet,") and ",9000,65536," in line for line in lines)
    bad = subprocess.run([prog, *SMALL, "--run-point=nosuch", f"--point-out={rows}"],
                         capture_output=True, text=True, env=scenario_env, timeout=60)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    assert "--run-point" in bad.stderr


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_scheduler_with_two_workers_gives_the_local_bytes(scenario_bin, scenario_env, tmp_path):
    local = run_real(scenario_bin, scenario_env, tmp_path / "local", "--jobs=2")
    assert "4 of 4 points" in local.stderr
    dask = Path(PY).with_name("dask")
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    procs = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                               "--no-dashboard"], env=scenario_env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, cwd=tmp_path)]
    try:
        time.sleep(2)
        for _ in range(2):
            procs.append(subprocess.Popen([dask, "worker", address, "--nthreads", "1",
                                           "--no-dashboard"], env=scenario_env,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                          cwd=tmp_path))
        proc = run_real(scenario_bin, scenario_env, tmp_path / "remote", f"--scheduler={address}")
        assert "4 of 4 points" in proc.stderr
        assert ((tmp_path / "remote" / "data.csv").read_bytes()
                == (tmp_path / "local" / "data.csv").read_bytes())
        hosts = pd.read_csv(tmp_path / "remote" / "provenance.csv").host
        assert hosts.notna().all()
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()


def test_unreachable_scheduler_is_refused_in_one_line(scenario_bin, scenario_env, tmp_path):
    proc = subprocess.run([scenario_bin("gige-mtu-sweep"), *SMALL, f"--out={tmp_path / 'o'}",
                           f"--scheduler=tcp://127.0.0.1:{free_port()}"],
                          capture_output=True, text=True, env=scenario_env, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert "--scheduler" in proc.stderr.strip().splitlines()[-1]
    bad = subprocess.run([scenario_bin("gige-mtu-sweep"), "--scheduler=localhost"],
                         capture_output=True, text=True, env=scenario_env, timeout=60)
    assert bad.returncode == 2 and "--scheduler" in bad.stderr
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
    env = dict(os.environ, CLUSTERNET_EXAMPLE_OUT=str(tmp_path),
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
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
