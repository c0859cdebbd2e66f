# SPDX-License-Identifier: GPL-2.0-only
"""./ns3 transfer (clusternet.transfer), analysis.parts and analysis.transfer: each physical part
in two or more papers, judged on the rows of every paper that has it."""

import math
from pathlib import Path

import numpy as np
import pandas as pd
import programs
import pytest

REPO = Path(__file__).resolve().parents[1]

from analysis.parts import (FITTED, fitted_on, row_profiles, shared_parts,
                            transfer_by_part)
from analysis.catalogue import load_profiles

# Two papers: a chip in both (fitted on paper 000), a driver in each, a CPU in both with nothing
# fitted, a LANai family whose base is fitted on 001 and a GM host library on the Myrinet host.
CATALOGUE = """\
[chip-a]
kind = "chip"
description = "a chip"
[chip-a.device]
DmaReadBurst = ["64", "fitted by ./ns3 calibrate recipes/seed000-dma.toml on Table 1"]
[drv-linux]
kind = "driver"
description = "Linux driver"
[drv-linux.driver]
RxCycles = ["900", "fitted by ./ns3 calibrate recipes/seed000-tcp.toml"]
[drv-nt]
kind = "driver"
description = "NT driver"
[drv-nt.driver]
RxCycles = ["1350", "estimate"]
[nic-linux]
kind = "nic"
parts = ["chip-a", "drv-linux"]
description = "x"
[nic-nt]
kind = "nic"
parts = ["chip-a", "drv-nt"]
description = "x"
[cpu-p]
kind = "cpu"
description = "a CPU"
[cpu-p.cpu]
Clock = ["450", "datasheet"]
[os-l]
kind = "os"
description = "an OS"
[os-l.cpu]
SyscallCycles = ["2000", "estimate"]
[gm-lib]
kind = "gm"
description = "GM"
[gm-lib.gm]
SendCycles = ["100", "estimate"]
[host-l]
kind = "host"
parts = ["cpu-p", "os-l", "gm-lib"]
description = "x"
[host-n]
kind = "host"
parts = ["cpu-p", "os-l"]
description = "x"
[lanai-base]
kind = "lanai"
abstract = true
description = "the family"
[lanai-base.mcp]
SendCycles = ["134", "fitted by ./ns3 calibrate recipes/seed001-gm.toml"]
[lanai-x]
kind = "lanai"
base = "lanai-base"
description = "one member"
[lanai-x.lanai]
Clock = ["133MHz", "differs: sec. 2"]
[lanai-y]
kind = "lanai"
base = "lanai-base"
description = "another"
[lanai-y.lanai]
Clock = ["66MHz", "differs: sec. 4"]
"""

COMPOSITIONS = {
    "000": {"paper": "a", "host": ["host-l"], "nic": ["nic-linux"]},
    "001": {"paper": "b", "host": ["host-l"], "lanai": ["lanai-x"]},
    "002": {"paper": "c", "host": ["host-n"], "nic": ["nic-nt"], "lanai": ["lanai-y"]},
}


@pytest.fixture()
def profiles(tmp_path):
    (tmp_path / "cat.toml").write_text(CATALOGUE)
    return load_profiles([tmp_path])


def test_fitted_sources_name_their_paper():
    assert FITTED.findall("fitted by ./ns3 calibrate recipes/seed002-latency.toml") == ["002"]
    assert FITTED.findall("""23 us: fitted by ./ns3 calibrate \\
    recipes/seed001-tcp-over-gm.toml (hand fit)""") == ["001"]
    assert FITTED.findall("estimate, as recipes/seed003-x.toml suggests") == []
    assert FITTED.findall("seed 002 Table 3 (fitted by hand)") == []


def test_parts_in_two_papers_and_where_they_were_fitted(profiles):
    shared = shared_parts(profiles, COMPOSITIONS)
    # chip-a: 000 and 002; cpu-p, os-l: all three; gm-lib: 000 and 001 (host-l); the LANai
    # family (root lanai-base): 001 and 002. The drivers are in one paper each.
    assert set(shared) == {"chip-a", "cpu-p", "os-l", "gm-lib", "lanai-base"}
    assert shared["lanai-base"] == {"001": {"lanai-x"}, "002": {"lanai-y"}}
    assert fitted_on(profiles, "chip-a") == {"000"}
    assert fitted_on(profiles, "lanai-y") == {"001"}  # inherited from the family's base
    assert fitted_on(profiles, "cpu-p") == set()


def test_a_row_takes_part_in_what_its_data_names(profiles):
    gige = pd.DataFrame({"host": ["host-n"], "nic": ["nic-nt"], "stack": ["not-a-profile"]})
    assert row_profiles(profiles, COMPOSITIONS["002"], gige) == {"cpu-p", "os-l", "chip-a",
                                                                  "drv-nt"}
    # no nic column: the net column picks the setup's network; the GM part only on Myrinet
    myri = pd.DataFrame({"net": ["myrinet"]})
    assert row_profiles(profiles, COMPOSITIONS["001"], myri) == {"cpu-p", "os-l", "gm-lib",
                                                                 "lanai-x"}
    eth = pd.DataFrame({"net": ["gige"]})
    assert row_profiles(profiles, COMPOSITIONS["000"], eth) == {"cpu-p", "os-l", "chip-a",
                                                                "drv-linux"}


def test_the_table_from_hand_worked_rows(profiles):
    rows = pd.DataFrame({
        "paper": ["000", "000", "002", "002", "002", "001", "002"],
        "abs_err": [0.10, 0.30, 0.05, 0.15, np.nan, 0.02, 0.40],
        "parts": [{"chip-a", "cpu-p"}, {"chip-a"}, {"chip-a", "drv-nt"}, {"chip-a"},
                  {"chip-a"}, {"lanai-x", "cpu-p"}, {"lanai-y", "cpu-p"}]})
    t = transfer_by_part(profiles, COMPOSITIONS, rows).set_index(["part", "paper"])
    # the chip: fitted on 000, so 000 is calibrated there and 002 is a transfer; 002's third
    # row has no error and counts nowhere
    assert t.loc[("chip-a", "000"), "carried"] == "calibrated here"
    assert t.loc[("chip-a", "000"), "rows"] == 2
    assert t.loc[("chip-a", "000"), "median_abs_err"] == pytest.approx(0.20)
    assert t.loc[("chip-a", "002"), "carried"] == "transfer"
    assert t.loc[("chip-a", "002"), "fitted_on"] == "000"
    assert t.loc[("chip-a", "002"), "rows"] == 2
    assert t.loc[("chip-a", "002"), "median_abs_err"] == pytest.approx(0.10)
    assert t.loc[("chip-a", "002"), "max_abs_err"] == pytest.approx(0.15)
    # the LANai family: calibrated on 001, carried to 002's member
    assert t.loc[("lanai-base", "001"), "carried"] == "calibrated here"
    assert t.loc[("lanai-base", "002"), "carried"] == "transfer"
    assert t.loc[("lanai-base", "002"), "median_abs_err"] == pytest.approx(0.40)
    # the CPU: nothing fitted anywhere; 000 has one row of it
    assert t.loc[("cpu-p", "000"), "carried"] == "estimates"
    assert t.loc[("cpu-p", "000"), "rows"] == 1
    # os-l takes part in no row given: no rows, no median
    assert t.loc[("os-l", "000"), "rows"] == 0
    assert math.isnan(t.loc[("os-l", "000"), "median_abs_err"])


def _run(args, env):
    return programs.run_python("-m", "clusternet.transfer", *args, status=None, cwd=REPO,
                               env=env)


@pytest.mark.parametrize("args,says", [
    (["--jobs=0"], "--jobs"),
    (["--jobs=two"], "--jobs"),
    (["--results=/nonexistent/results"], "--results: /nonexistent/results is not a folder"),
    (["--stray"], "unrecognized arguments"),
])
def test_bad_arguments_are_one_line(args, says, scenario_env, tmp_path):
    proc = _run([*args, f"--out={tmp_path / 'out'}"], scenario_env)
    assert proc.returncode == 2
    assert says in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_an_unreadable_result_is_one_line(scenario_env, tmp_path):
    from analysis.reference import load_reference

    results = tmp_path / "results"
    for name in sorted(set(load_reference().scenario)):
        (results / name).mkdir(parents=True)
        (results / name / "data.csv").write_text("")
    proc = _run([f"--results={results}", f"--out={tmp_path / 'out'}"], scenario_env)
    assert proc.returncode == 2
    assert "data.csv: unreadable" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_the_table_of_every_shared_part_from_given_results(scenario_env, tmp_path):
    """With every scenario's results given (here the columns that name the parts, one row
    each, and no values: every error NaN), the table has one line per shared part and paper of
    the repository's compositions and the files are written."""
    from analysis.reference import load_reference
    from clusternet.transfer import load_compositions

    ref = load_reference()
    results = tmp_path / "results"
    for name, rows in ref.groupby("scenario"):
        (results / name).mkdir(parents=True)
        pd.DataFrame({"msg_bytes": [1]}).to_csv(results / name / "data.csv", index=False)
    out = tmp_path / "out"
    proc = _run([f"--results={results}", f"--out={out}"], scenario_env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    table = pd.read_csv(out / "transfer.csv", dtype={"paper": str})
    shared = shared_parts(load_profiles(), load_compositions())
    assert {(r.part, r.paper) for r in table.itertuples()} == {
        (part, paper) for part, by in shared.items() for paper in by}
    # the Tigon 2 (ACEnic 000, GA620 002) and the LANai family (001, 003, 004) are there
    assert {"000", "002"} <= set(table[table.part == "tigon2"].paper)
    assert {"001", "003", "004"} <= set(table[table.part == "gm15-lanai"].paper)
    assert (out / "transfer.png").stat().st_size > 0 and (out / "rows.csv").is_file()
