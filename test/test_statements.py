# SPDX-License-Identifier: GPL-2.0-only
"""The papers' sentences as checks over the scenarios' own output (analysis/statements.py).

Each scenario a statement reads is run once, at its defaults (the runs the predictions and
summaries come from), and every statement's outcome must be the one recorded in its
``holds`` field and listed in the doc's Validation section: a statement that stops holding is
a regression, one that starts to hold must be recorded as holding.
"""
import subprocess

import pandas as pd
import pytest

from analysis.statements import (STATEMENTS, STDOUT_PROGRAMS, evaluate, margin_of,
                                 rst_table)
from conftest import ROOT


@pytest.fixture(scope="session")
def scenario_data(tmp_path_factory, scenario_bin):
    """Return a function giving a scenario's data (data.csv, or what a program of
    STDOUT_PROGRAMS prints) for some extra arguments; each run is made once a session."""
    cache = {}

    def get(name, args=()):
        key = (name, tuple(args))
        if key not in cache:
            if name in STDOUT_PROGRAMS:
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


@pytest.mark.parametrize("statement", STATEMENTS, ids=[s.id for s in STATEMENTS])
def test_statement(statement, scenario_data):
    if isinstance(statement.scenario, tuple):
        data = {n: scenario_data(n, statement.args) for n in statement.scenarios}
    else:
        data = scenario_data(statement.scenario, statement.args)
    holds, detail = evaluate(statement, data)
    said = "holds" if statement.holds else "does not hold"
    assert holds == statement.holds, (f"{statement.id} (seed {statement.seed} sec. "
                                      f"{statement.section}) is recorded as {said}, but: {detail}")
    if statement.margin is not None:
        margin = margin_of(statement, data)
        assert (margin >= 0) == holds, f"{statement.id}: margin {margin:.4f}, but {detail}"


def _nt_shm(nt4, nt5):
    rows = [(stack, system, "shm", 1, t) for system, lat in (("nt4", nt4), ("nt5", nt5))
            for stack, t in zip(("mpipro", "winsock", "patent"), lat)]
    return pd.DataFrame(rows, columns=["stack", "os", "net", "msg_bytes", "oneway_us"])


@pytest.mark.parametrize("nt5,margin", [((95, 70, 30), 1 - 195 / 200),        # 2.5 % lower
                                        ((100, 71, 30), 1 - 201 / 200),       # above NT 4
                                        ((80, 60, 30), 170 / (0.9 * 200) - 1)])  # 15 % lower
def test_a_margin_says_how_far_inside_the_check(nt5, margin):
    """s002-16 (NT5's mean shared-memory latency at most 10 % below NT 4's): the margin is the
    smaller distance to either end, as a fraction, and its sign is the check's outcome."""
    s = next(st for st in STATEMENTS if st.id == "s002-16")
    data = _nt_shm((100, 70, 30), nt5)
    assert margin_of(s, data) == pytest.approx(margin)
    assert (margin >= 0) == evaluate(s, data)[0]


def test_statements_are_well_formed():
    ids = [s.id for s in STATEMENTS]
    assert len(ids) == len(set(ids))
    scenarios = {p.stem for p in (ROOT / "scenarios").glob("*.cc")}
    for s in STATEMENTS:
        assert set(s.scenarios) <= scenarios, s.id
        assert s.quote and s.check
        assert s.holds or s.reason, f"{s.id}: a statement that does not hold says why"


def test_doc_lists_every_statement():
    doc = (ROOT / "contrib" / "clusternet" / "doc" / "clusternet.rst").read_text()
    assert rst_table() in doc, "regenerate the table: .venv/bin/python -m analysis.statements"
