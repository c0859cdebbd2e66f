# SPDX-License-Identifier: GPL-2.0-only
"""./ns3 reproduce: every scenario's default points on one pool, longest first."""
import json
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from clusternet import reproduce

REPO = Path(__file__).resolve().parents[1]
# Three quick scenarios (one with an argument of its own: mpi-replay's trace).
QUICK = ["gige-via-netpipe", "myrinet-pci-dma", "mpi-replay"]


def fake_sweep(tmp_path, scenario, walls):
    """A sweep whose points' last records hold ``walls`` (None: no record)."""
    folder = tmp_path / scenario
    folder.mkdir()
    points = []
    for i, wall in enumerate(walls):
        p = {"file": f"p{i}", "label": f"p={i}"}
        points.append(p)
        if wall is not None:
            (folder / f"p{i}.json").write_text(json.dumps({"wall_s": f"{wall:.3f}"}))
    return SimpleNamespace(scenario=scenario, todo=points,
                           _json=lambda p, folder=folder: folder / f"{p['file']}.json")


def test_plan_orders_by_last_record_then_shipped_walls_then_longest(tmp_path):
    a = fake_sweep(tmp_path, "a", [1.0, None, 30.0])
    b = fake_sweep(tmp_path, "b", [None, 5.0])
    shipped = {("a", "p1"): 7.0, ("a", "p2"): 99.0}   # a record beats the shipped wall
    order = [(s.scenario, p["file"], w) for w, s, p in reproduce.plan([a, b], shipped)]
    # b/p0 is unknown: it counts as the longest known (30 s) and keeps its place after a/p2.
    assert order == [("a", "p2", 30.0), ("b", "p0", 30.0), ("a", "p1", 7.0),
                     ("b", "p1", 5.0), ("a", "p0", 1.0)]


def test_shipped_walls_name_points_of_the_reproduction():
    walls = reproduce.shipped_walls()
    assert walls, "clusternet/point-walls.csv is missing or unreadable"
    names = set(reproduce.scenario_names())
    assert {s for s, _ in walls} <= names
    assert all(w >= 0 for w in walls.values())


def run_reproduce(env, *args, timeout=600):
    return subprocess.run([sys.executable, "-m", "clusternet.reproduce", *args],
                          capture_output=True, text=True, env=env, cwd=REPO, timeout=timeout)


def test_reproduce_writes_what_each_program_writes(scenario_bin, scenario_env, tmp_path):
    """The pool's data.csv of each scenario is byte for byte the program's own run; a progress
    line per point; the summary; a second run reuses every point."""
    for name in QUICK:
        scenario_bin(name)
    out = tmp_path / "pool"
    proc = run_reproduce(scenario_env, f"--only={','.join(QUICK)}", "--jobs=2", "--report=0",
                         f"--out={out}")
    assert proc.returncode == 0, proc.stderr
    progress = re.findall(r"^\[\s*(\d+)/(\d+)\] (\S+) ", proc.stderr, re.M)
    assert progress and len(progress) == int(progress[0][1]), proc.stderr
    assert {p[2] for p in progress} == set(QUICK)
    assert re.search(r"^reproduce: [\d.]+ s wall, points' CPU [\d.]+ s; CPU / 2 workers",
                     proc.stderr, re.M), proc.stderr
    for name in QUICK:
        alone = tmp_path / "alone" / name
        cmd = [str(scenario_bin(name)), f"--out={alone}", "--jobs=1",
               *reproduce.default_args(name)]
        if name != "mpi-replay":
            cmd.append("--report=0")
        own = subprocess.run(cmd, capture_output=True, text=True, env=scenario_env, cwd=REPO,
                             timeout=300)
        assert own.returncode == 0, own.stderr
        assert (out / name / "data.csv").read_bytes() == (alone / "data.csv").read_bytes(), name
        assert (out / name / "provenance.csv").exists()
    again = run_reproduce(scenario_env, f"--only={','.join(QUICK)}", "--jobs=2", "--report=0",
                          f"--out={out}")
    assert again.returncode == 0, again.stderr
    assert f"reproduce: {len(progress)} points reused" in again.stderr
    assert not re.search(r"^\[", again.stderr, re.M), again.stderr


@pytest.mark.parametrize("args,name", [(["--jobs=0"], "--jobs"), (["--only=nope"], "--only"),
                                       (["--resume=2"], "--resume"), (["--frob"], "--frob"),
                                       (["--scheduler=http://x:1"], "--scheduler")])
def test_reproduce_refuses_bad_options_in_one_line(scenario_bin, scenario_env, tmp_path, args,
                                                   name):
    scenario_bin("gige-via-netpipe")
    proc = run_reproduce(scenario_env, *args, f"--out={tmp_path / 'out'}", timeout=120)
    assert proc.returncode == 2, proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and name in lines[0] and "Traceback" not in proc.stderr, proc.stderr
    assert not (tmp_path / "out").exists()


def test_a_points_cpu_time_is_its_own_process_s():
    """Two points at once in one worker process: each is charged its own process's CPU time
    (a busy loop of about 0.4 s), not what the other used meanwhile."""
    import threading
    import time

    from clusternet import sweep

    busy = [sys.executable, "-c",
            "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.4: pass"]
    used = []

    def one():
        status, _, _, cpu = sweep._run_measured(busy, str(REPO), None)
        assert status == 0
        used.append(cpu)

    threads = [threading.Thread(target=one) for _ in range(2)]
    began = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(used) == 2
    assert all(0.38 <= c <= 0.8 for c in used), used
    assert sum(used) <= 2 * (time.monotonic() - began) + 0.1
