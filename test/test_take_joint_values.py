# SPDX-License-Identifier: GPL-2.0-only
"""utils/take-joint-values.py: the joint fit's values written into the profile files, on a copy
of the tool and the profiles (the repository's own files are not touched)."""
import shutil
from pathlib import Path

import pandas as pd
import programs

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "utils" / "take-joint-values.py"
PROFILES = ROOT / "contrib" / "clusternet" / "profiles"


def copy_tree(tmp):
    (tmp / "utils").mkdir()
    shutil.copy(TOOL, tmp / "utils")
    shutil.copytree(PROFILES, tmp / "contrib" / "clusternet" / "profiles")
    return tmp / "contrib" / "clusternet" / "profiles"


def run(tmp, out):
    return programs.run_python(tmp / "utils" / TOOL.name, out, status=None, cwd=None)


def values(tmp, rows):
    out = tmp / "fit"
    out.mkdir()
    pd.DataFrame(rows, columns=["value", "places", "fitted", "how"]).to_csv(
        out / "values.csv", index=False)
    return out


def entry(text, section, attribute):
    """The line of ``[section]``'s ``attribute`` in a profile file's text."""
    inside = False
    for line in text.splitlines():
        if line.startswith("["):
            inside = line.strip() == f"[{section}]"
        elif inside and line.startswith(f"{attribute} = "):
            return line
    raise AssertionError(f"no [{section}] {attribute}")


def test_a_fitted_value_goes_to_every_place_and_its_derived_time_follows(tmp_path):
    profiles = copy_tree(tmp_path)
    before = (profiles / "mpi.toml").read_text()
    held = entry(before, "lam.mpi", "SendCycles")     # SendCycles = ["N", """T us on the ...
    cycles = float(held.split('"')[1])
    us = float(held.split('"""')[1].split(" us on the")[0])
    out = values(tmp_path, [
        ("lam mpi.SendCycles", "lam:mpi.SendCycles lam:mpi.RecvCycles", "2000", "fitted"),
        ("x y.Z", "mpipro:mpi.ThreadSwitchCycles", "1", "kept at its source: a rule")])
    proc = run(tmp_path, out)
    assert proc.returncode == 0, proc.stderr
    after = (profiles / "mpi.toml").read_text()
    for attribute in ("SendCycles", "RecvCycles"):
        line = entry(after, "lam.mpi", attribute)
        assert line.startswith(f'{attribute} = ["2000", """')
    time = float(entry(after, "lam.mpi", "SendCycles").split('"""')[1].split(" us")[0])
    assert time == round(us * 2000 / cycles, 3)
    # A value kept at its source (a hold-out run) is not written.
    assert entry(after, "mpipro.mpi", "ThreadSwitchCycles") == \
        entry(before, "mpipro.mpi", "ThreadSwitchCycles")
    # Nothing else changed.
    assert len(after.splitlines()) == len(before.splitlines())
    assert sum(a != b for a, b in zip(after.splitlines(), before.splitlines())) == 2


def test_a_place_not_in_the_files_is_refused_and_nothing_is_written(tmp_path):
    profiles = copy_tree(tmp_path)
    before = {f.name: f.read_text() for f in profiles.glob("*.toml")}
    out = values(tmp_path, [
        ("lam mpi.SendCycles", "lam:mpi.SendCycles", "2000", "fitted"),
        ("lam mpi.Nothing", "lam:mpi.NoSuchCycles", "5", "fitted")])
    proc = run(tmp_path, out)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "lam:mpi.NoSuchCycles" in proc.stderr
    assert {f.name: f.read_text() for f in profiles.glob("*.toml")} == before


def test_a_file_that_is_not_a_values_table_is_refused_in_one_line(tmp_path):
    copy_tree(tmp_path)
    (tmp_path / "fit").mkdir()
    (tmp_path / "fit" / "values.csv").write_text("a,b\n1,2\n")
    proc = run(tmp_path, tmp_path / "fit")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "values.csv" in proc.stderr and "how" in proc.stderr
