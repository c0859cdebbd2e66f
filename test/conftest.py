# SPDX-License-Identifier: GPL-2.0-only
"""Shared fixtures: paths to the built scenario programs (./ns3 test builds them first)."""
import os
import pathlib
import subprocess

import pytest

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
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
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
def run_scenario(scenario_bin, scenario_env):
    """Return a runner: ``run_scenario(prog, out, *args)`` runs a scenario with ``--out=out``
    and two jobs, requires exit status 0 and returns ``out``."""

    def run(prog, out, *args):
        proc = subprocess.run([scenario_bin(prog), f"--out={out}", "--jobs=2", *args],
                              capture_output=True, text=True, env=scenario_env, timeout=600)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        return out

    return run
