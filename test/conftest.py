# SPDX-License-Identifier: GPL-2.0-only
"""Shared fixtures: paths to the built scenario programs (./ns3 test builds them first), and
their default runs, made once a session for every test module that reads them."""
import os
import pathlib
import subprocess
import sys

import pandas as pd
import programs
import pytest

from analysis.statements import STDOUT_PROGRAMS

ROOT = pathlib.Path(__file__).resolve().parent.parent
BUILD = ROOT / "build"


@pytest.fixture(scope="session")
def scenario_bin():
    """Return a function giving the path of a built scenario program, skipping if not built."""

    def get(name):
        path = BUILD / "scenarios" / name
        if not path.exists():
            pytest.skip(f"{path} not built (run ./ns3 build)")
        return path

    return get


@pytest.fixture
def scenario_env():
    env = dict(os.environ)
    return env


@pytest.fixture
def assert_refused(scenario_bin, scenario_env, tmp_path):
    """Return a check that a scenario refuses ``args``: exit status 2, one stderr line naming
    ``name``, no abort or traceback, and no output directory."""

    def check(prog, args, name):
        out = tmp_path / "out"
        proc = subprocess.run([scenario_bin(prog), *args, f"--out={out}"],
                              capture_output=True, text=True, env=scenario_env, timeout=60)
        assert proc.returncode == 2, proc.stderr
        lines = [line for line in proc.stderr.splitlines() if line.strip()]
        assert len(lines) == 1, proc.stderr
        assert name in lines[0]
        assert "terminate" not in proc.stderr and "Traceback" not in proc.stderr
        assert not out.exists(), "bad input must not create results"

    return check


@pytest.fixture
def run_program():
    """:func:`programs.run`: ``run_program(prog, *args, status=0, timeout=300, env=None)`` runs
    a built scenario program (or a program by path), requires exit status ``status`` and
    returns the completed process."""
    return programs.run


@pytest.fixture
def run_csv():
    """:func:`programs.run_csv`: ``run_csv(prog, out, *args, csv="data.csv", **kw)`` runs
    ``prog`` with ``--out=out`` and returns the CSV it wrote there."""
    return programs.run_csv


@pytest.fixture
def run_scenario(scenario_bin, scenario_env):
    """Return a runner: ``run_scenario(prog, out, *args)`` runs a scenario with ``--out=out``
    and two jobs, requires exit status 0 and returns ``out``."""

    def run(prog, out, *args):
        proc = subprocess.run([scenario_bin(prog), f"--out={out}", "--jobs=2", *args],
                              capture_output=True, text=True, env=scenario_env, timeout=600)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        return out

    return run


class Reproduction:
    """``./ns3 reproduce`` into one folder of the session, a scenario at a time as the tests
    ask for them: :meth:`ensure` runs those not yet there (all at once, on two workers)."""

    def __init__(self, folder, scenario_bin):
        self.folder = folder
        self.scenario_bin = scenario_bin
        self.done = set()

    def ensure(self, names=None):
        """Run the scenarios of ``names`` (default: every scenario of the reproduction) that
        are not in the folder yet; return the folder."""
        from clusternet.reproduce import scenario_names

        names = scenario_names() if names is None else names
        todo = [n for n in names if n not in self.done]
        if todo:
            for name in todo:
                self.scenario_bin(name)   # skips the test when a program is not built
            proc = subprocess.run([sys.executable, "-m", "clusternet.reproduce",
                                   f"--out={self.folder}", "--jobs=2", f"--only={','.join(todo)}"],
                                  cwd=ROOT, capture_output=True, text=True, timeout=3600)
            assert proc.returncode == 0, proc.stdout + proc.stderr[-3000:]
            self.done |= set(todo)
        return self.folder


@pytest.fixture
def no_figures(monkeypatch, request):
    """Skip the (slow) PNG output of the report of the test module's ``SCENARIO``, in report
    tests that do not look at the figures."""
    from analysis import report

    monkeypatch.setitem(report.FIGURES, request.module.SCENARIO, [])


@pytest.fixture
def results_folder(tmp_path):
    """Return a function writing ``data`` (a DataFrame, or the file's text) as the data.csv of
    a new results folder under tmp_path, and giving the folder."""

    def write(data):
        results = tmp_path / "results"
        results.mkdir()
        if isinstance(data, str):
            (results / "data.csv").write_text(data)
        else:
            data.to_csv(results / "data.csv", index=False)
        return results

    return write


@pytest.fixture
def run_report():
    """Return a function running ``python -m analysis.report ARGS`` from the repository; it
    gives the CompletedProcess (text output captured)."""

    def run(*args):
        return subprocess.run([sys.executable, "-m", "analysis.report", *args], cwd=ROOT,
                              env=dict(os.environ), capture_output=True, text=True, timeout=60)

    return run


@pytest.fixture(scope="session")
def reproduction(tmp_path_factory, scenario_bin):
    """The session's :class:`Reproduction` (the scenarios' default runs, with their reports)."""
    return Reproduction(tmp_path_factory.mktemp("reproduction"), scenario_bin)


@pytest.fixture(scope="session")
def scenario_data(tmp_path_factory, scenario_bin, reproduction):
    """Return a function giving a scenario's data (data.csv, or what a program of
    STDOUT_PROGRAMS prints) for some extra arguments; each run is made once a session (the
    default runs are the session's reproduction's)."""
    cache = {}

    def get(name, args=()):
        key = (name, tuple(args))
        if key not in cache:
            if not args and name not in STDOUT_PROGRAMS:
                folder = reproduction.ensure([name])
                cache[key] = pd.read_csv(folder / name / "data.csv")
            elif name in STDOUT_PROGRAMS:
                proc = subprocess.run([scenario_bin(name), *args], capture_output=True,
                                      text=True, timeout=1200)
                assert proc.returncode == 0, proc.stdout + proc.stderr
                cache[key] = proc.stdout
            else:
                out = tmp_path_factory.mktemp(name)
                usage = subprocess.run([scenario_bin(name), "--help"], capture_output=True,
                                       text=True, timeout=60).stdout
                # Not every scenario sweeps in parallel or writes a report.
                extra = [flag for flag in ("--jobs=2", "--report=0")
                         if flag.split("=")[0] + ":" in usage]
                proc = subprocess.run([scenario_bin(name), f"--out={out}", *extra, *args],
                                      capture_output=True, text=True, timeout=1200)
                assert proc.returncode == 0, proc.stdout + proc.stderr
                cache[key] = pd.read_csv(out / "data.csv")
        return cache[key]

    return get
