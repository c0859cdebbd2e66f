# SPDX-License-Identifier: GPL-2.0-only
"""The joint calibration's plan (clusternet.joint, ./ns3 calibrate --plan): which reference
rows read which points, and which fitted values reach which rows through the points' parts."""
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import programs
import pytest

from clusternet import joint
from clusternet.calibrate import Parameter

ROOT = Path(__file__).resolve().parent.parent
TABLE1 = ["--nic=acenic,sknet", "--mtu=1500,9000", "--sockbuf=65536,131072", "--max-block=64"]


@pytest.fixture(scope="module")
def table1(tmp_path_factory):
    """gige-mtu-sweep's Table 1 grid at 1500 and 9000 bytes, tiny blocks: 8 points."""
    out = tmp_path_factory.mktemp("joint") / "gige-mtu-sweep"
    programs.run("gige-mtu-sweep", *TABLE1, "--jobs=2", "--report=0", f"--out={out}")
    return out


def test_each_table1_row_reads_the_point_of_its_own_configuration(table1):
    """A peak row of seed 000 Table 1 is one configuration's curve: it reads that point alone
    (the point's file name is the configuration's, as --list-points names it), and a row of a
    configuration the run did not simulate (MTU 4500, 8500) reads none."""
    from analysis.io import read_data
    from analysis.summary import build_summary

    points = joint.point_rows(table1)
    assert len(points) == 8 and all(len(rows) > 0 for _, _, rows in points)
    data = read_data(table1 / "data.csv")
    assert sum(len(rows) for _, _, rows in points) == len(data)
    summary = build_summary("gige-mtu-sweep", data)
    deps = joint.row_points("gige-mtu-sweep", data, points)
    checked = 0
    for row, dep in zip(summary.to_dict("records"), deps):
        cfg = dict(kv.split("=") for kv in row["config"].split(";"))
        if cfg["mtu"] in ("1500", "9000"):
            assert dep == {f"nic_{cfg['nic']}_mtu_{cfg['mtu']}_sockbuf_{cfg['sockbuf']}"}, row
            checked += 1
        else:
            assert dep == set(), row
    assert checked == 8


def test_a_point_is_composed_of_its_nic_and_host(table1):
    points = {file: parts for file, parts, _ in joint.point_rows(table1)}
    acenic = points["nic_acenic_mtu_1500_sockbuf_65536"]
    assert {"nic:acenic", "chip:tigon2", "host:piii450-linux22"} <= acenic
    assert "nic:sknet" not in acenic and "chip:tigon2" not in points[
        "nic_sknet_mtu_1500_sockbuf_65536"]


def _recipe(name, *keys):
    params = []
    for key in keys:
        place, *also = key.split("+")
        profile, attr = place.split(" ")
        target, attribute = attr.split(".")
        params.append(Parameter(profile, target, attribute, 1.0, 2.0, 1.5, "", False,
                                tuple((a, "cpu", "X") for a in also)))
    return SimpleNamespace(path=Path(f"recipes/{name}.toml"), parameters=params)


def test_plan_counts_rows_through_parts_and_also():
    """Rows by hand: a value of chip 'c1' reaches the two rows reading a point with c1 (papers
    000 and 002), one of 'os' with also 'c2' the rows of c2 too; a value nobody's point has
    reaches none and is flagged; the count is values against all rows."""
    rows = pd.DataFrame([
        {"paper": "000", "scenario": "a", "config": "x=1", "metric": "m", "parts": {"chip:c1"}},
        {"paper": "002", "scenario": "b", "config": "x=2", "metric": "m",
         "parts": {"chip:c1", "os:o"}},
        {"paper": "004", "scenario": "c", "config": "x=3", "metric": "m", "parts": {"chip:c2"}},
        {"paper": "004", "scenario": "c", "config": "x=4", "metric": "m", "parts": set()},
    ])
    recipes = [_recipe("r1", "c1 device.A", "o cpu.B+c2"), _recipe("r2", "c1 device.A"),
               _recipe("r3", "nobody cpu.C")]
    table = joint.plan(recipes, rows).set_index("value")
    assert table.loc["c1 device.A", "rows"] == 2
    assert table.loc["c1 device.A", "papers"] == "000,002"
    assert table.loc["c1 device.A", "recipes"] == "r1,r2"
    assert table.loc["o cpu.B", "rows"] == 2 and table.loc["o cpu.B", "papers"] == "002,004"
    assert table.loc["nobody cpu.C", "rows"] == 0
    text = joint.report(joint.plan(recipes, rows), rows)
    assert "3 fitted values over 4 reference rows: one per 1.3 rows" in text
    assert "1 determined by fewer than 2 rows: nobody cpu.C" in text
    assert text.count("<- fewer than") == 1
    # held out: 000 takes no value with it (c1 is in 002 too) and no part (c1 is read by 002's
    # row); 004 takes chip:c2 (only its rows read it) but not o's value (002 has a row of o)
    held = joint.only_in_one_paper(joint.plan(recipes, rows), rows)
    assert held == {"000": ([], []), "002": ([], ["os:o"]), "004": ([], ["chip:c2"])}
    solo = joint.plan([_recipe("r4", "c2 device.D")], rows)
    assert joint.only_in_one_paper(solo, rows)["004"] == (["c2 device.D"], ["chip:c2"])
    assert ("paper 004 held out: 1 fitted values lose every row (c2 device.D); parts only this "
            "paper's rows read: chip:c2") in joint.report(solo, rows)


def test_plan_without_results_is_refused_in_one_line(tmp_path):
    proc = programs.run_python("-m", "clusternet.calibrate", "--plan", f"--results={tmp_path}",
                               status=2, timeout=120)
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "no results of" in lines[0] and "./ns3 reproduce" in lines[0]


def test_results_of_a_run_without_parts_are_refused(tmp_path):
    folder = tmp_path / "s"
    (folder / ".points").mkdir(parents=True)
    (folder / "data.csv").write_text("a,b\n1,2.0\n")
    (folder / "provenance.csv").write_text("point,file\np,p\n")
    with pytest.raises(joint.PlanError, match="without parts"):
        joint.point_rows(folder)
