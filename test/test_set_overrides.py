# SPDX-License-Identifier: GPL-2.0-only
"""No value a run is given is silently replaced (issue 47, item 2): a --set that a library's
own settings or a scenario's choice used to overwrite now reaches the object, and a value a
profile leaves is not filled in behind its back. Each expectation is computed from the
profile's documented values, not from the code under test."""

import re

import pytest

from analysis.catalogue import load_profiles


def _seconds_us(text):
    number, unit = re.fullmatch(r"([0-9.]+)(us|ms|ns|s)", text).groups()
    return float(number) * {"s": 1e6, "ms": 1e3, "us": 1.0, "ns": 1e-3}[unit]


def test_a_set_of_the_coalescer_reaches_a_via_librarys_nic(tmp_path, run_csv):
    """MVICH runs the GNIC-II with coalescing off (its own driver). --set coalescer.Enabled=true
    turns hamachi 0.07's receive coalescing back on: each one-way message then waits its
    Timeout (it was lost under the library's settings)."""
    common = ["--stack=mvich", "--nic=gnic2", "--max-block=8"]
    off = run_csv("gige-via-netpipe", tmp_path / "off", "--jobs=1", *common)
    on = run_csv("gige-via-netpipe", tmp_path / "on", "--jobs=1", *common,
                 "--set=coalescer.Enabled=true")
    timeout = _seconds_us(load_profiles()["hamachi-007"].values[("coalescer", "Timeout")][0])
    added = on["oneway_us"].iloc[0] - off["oneway_us"].iloc[0]
    assert added == pytest.approx(timeout, rel=0.01), (added, timeout)


def test_a_set_of_the_gm_library_reaches_an_mpi_librarys_ports(tmp_path, run_csv):
    """MPICH-GM's ranks open GM ports of their own. --set gm.SendCycles adds its cycles to every
    send of the one-way trip, at the P5-200's rate (it reached only the GM test's ports)."""
    common = ["--max-block=4"]
    base = run_csv("myrinet-mpich-gm", tmp_path / "base", "--jobs=1", *common)
    more = run_csv("myrinet-mpich-gm", tmp_path / "more", "--jobs=1", *common,
                   "--set=gm.SendCycles=1000")
    profiles = load_profiles()
    own = float(profiles["gm15-linux24"].values[("gm", "SendCycles")][0])
    clock = float(profiles["p200-430vx"].values[("cpu", "Clock")][0])
    factor = float(profiles["p200-430vx"].values.get(("cpu", "CoreFactor"), ("1",))[0])
    expected = (1000 - own) / (clock * factor)
    added = more["oneway_us"].iloc[0] - base["oneway_us"].iloc[0]
    assert added == pytest.approx(expected, rel=0.02), (added, expected)


MY_FM = """\
[myfm]
kind = "fm"
base = "fm-common"
description = "an FM version whose profile leaves the arrival detection (test)"
"""


def _initial(run_program, type_id, attribute):
    """An attribute's initial value as ns-3 prints it (--PrintAttributes)."""
    proc = run_program("hpvm-fm", f"--PrintAttributes={type_id}", timeout=60)
    match = re.search(rf"::{attribute}=\[([^\]]*)\]", proc.stdout + proc.stderr)
    assert match, proc.stdout
    return match.group(1)


def test_an_fm_profile_without_notify_runs_fmcontexts_default(tmp_path, run_csv, run_program):
    path = tmp_path / "fm.toml"
    path.write_text(MY_FM)
    data = run_csv("hpvm-fm", tmp_path / "out", "--jobs=1", f"--profile-file={path}",
                   "--config=myfm:pii450", "--sizes=16", "--reps=2")
    default = _initial(run_program, "ns3::clusternet::FmContext", "Notify")
    assert set(data["notify"]) == {"memory" if default == "Memory" else "pci-poll"}


def test_a_set_of_fm_notify_is_what_data_csv_records(tmp_path, run_csv):
    """FM 2.1 polls across PCI; --set fm.Notify=Memory runs memory polling and says so."""
    data = run_csv("hpvm-fm", tmp_path / "out", "--jobs=1", "--config=2.1:pii450", "--sizes=16",
                   "--reps=2", "--set=fm.Notify=Memory")
    assert set(data["notify"]) == {"memory"}
