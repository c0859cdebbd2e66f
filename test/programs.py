# SPDX-License-Identifier: GPL-2.0-only
"""Running the built programs, in one place: a scenario program by name (or any program by its
path), its exit status checked, and the CSV it wrote read back. conftest.py's ``run_program``
and ``run_csv`` fixtures are these functions; module-level helpers of the tests call them."""

import os
import pathlib
import subprocess
import sys

import pandas as pd
import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "build" / "scenarios"


def program(prog):
    """The path of scenario program ``prog`` (a name), or ``prog`` itself (a path); the test is
    skipped if it has not been built."""
    path = pathlib.Path(prog) if os.sep in str(prog) else SCENARIOS / prog
    if not path.exists():
        pytest.skip(f"{path} not built (run ./ns3 build)")
    return path


def _completed(cmd, status, timeout, env, cwd):
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True,
                          env=dict(os.environ) if env is None else env, timeout=timeout, cwd=cwd)
    if status is not None:
        assert proc.returncode == status, proc.stdout + proc.stderr
    return proc


def run(prog, *args, status=0, timeout=300, env=None, cwd=None):
    """Run ``prog`` (:func:`program`) with ``args``; require exit status ``status`` (None: any;
    a failure shows the program's output); return the completed process."""
    return _completed([program(prog), *args], status, timeout, env, cwd)


def run_python(*args, status=0, timeout=300, env=None, cwd=ROOT):
    """Run this Python with ``args`` (``"-m", module, ...``, a script, ``"-c", code``) in the
    repository (or ``cwd``), as :func:`run` does a program."""
    return _completed([sys.executable, *args], status, timeout, env, cwd)


def run_csv(prog, out, *args, csv="data.csv", **kw):
    """Run ``prog`` with ``--out=out`` (:func:`run`'s keywords) and return the CSV ``csv`` it
    wrote there."""
    run(prog, f"--out={out}", *args, **kw)
    return pd.read_csv(pathlib.Path(out) / csv)
