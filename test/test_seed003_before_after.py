# SPDX-License-Identifier: GPL-2.0-only
"""utils/seed003-before-after.py: seed 003's Figs. 1-5 of two runs drawn together.

The two runs are the repository's fixtures (the "before" run) and the same data with every
latency doubled and every NAS time of LA-MPI-TCP x 1.5 (the "after" run), so which line is
which can be told from the values alone.
"""

import importlib.util
import shutil
from pathlib import Path

import pandas as pd
import programs
import pytest

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "utils" / "seed003-before-after.py"
FIXTURES = REPO / "test" / "fixtures"


def _load_script():
    spec = importlib.util.spec_from_file_location("seed003_before_after", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _write_run(base, latency_factor, tcp_nas_factor):
    for scenario, fixture in (("raw-ethernet-vs-myrinet", "raw_ethernet_vs_myrinet.csv"),
                              ("lampi-latency-bandwidth", "lampi_latency_bandwidth.csv")):
        data = pd.read_csv(FIXTURES / fixture)
        data["latency_us"] *= latency_factor
        (base / scenario).mkdir(parents=True)
        data.to_csv(base / scenario / "data.csv", index=False)
    rows = [{"config": config, "stack": stack,
             "time_s": 8.0 * (tcp_nas_factor if stack == "lampi-tcp" else 1.0)}
            for config in ("bt.B.4", "is.B.8") for stack in ("lampi-gm", "lampi-tcp")]
    (base / "nas-overlap").mkdir(parents=True)
    pd.DataFrame(rows).to_csv(base / "nas-overlap" / "data.csv", index=False)


@pytest.fixture
def runs(tmp_path):
    before, after = tmp_path / "before", tmp_path / "after"
    _write_run(before, 1.0, 1.0)
    _write_run(after, 2.0, 1.5)
    return before, after


def test_latency_figure_draws_both_runs(runs):
    before, after = runs
    figures = _load_script().build_figures(str(before), str(after), "B", "A")
    assert sorted(figures) == [f"seed003-fig{n}.png" for n in (1, 2, 3, 4)] + [
        "seed003-fig5-after.png", "seed003-fig5-before.png"]
    raw = pd.read_csv(FIXTURES / "raw_ethernet_vs_myrinet.csv")
    gm_4b = raw[(raw["net"] == "myrinet") & (raw["msg_bytes"] == 4)]["latency_us"].mean()
    lines = {line.get_label(): line for line in figures["seed003-fig1.png"].axes[0].lines}
    solid, dashed = lines["Myrinet (GM)"], lines["Myrinet (GM), B"]
    assert dashed.get_linestyle() == "--" and solid.get_linestyle() == "-"
    for line, expected in ((solid, 2.0 * gm_4b), (dashed, gm_4b)):
        xs, ys = line.get_xdata(), line.get_ydata()
        assert ys[list(xs).index(4.0)] == pytest.approx(expected)


def test_nas_panels_share_one_axis(runs):
    before, after = runs
    figures = _load_script().build_figures(str(before), str(after))
    heights = {}
    for name in ("seed003-fig5-before.png", "seed003-fig5-after.png"):
        ax = figures[name].axes[0]
        heights[name] = sorted(round(p.get_height(), 6) for p in ax.patches)
        assert ax.get_ylim()[1] >= 1.0
    assert heights["seed003-fig5-before.png"] == [1.0, 1.0, 1.0, 1.0]
    assert heights["seed003-fig5-after.png"] == [1.0, 1.0, 1.5, 1.5]
    ylims = {figures[n].axes[0].get_ylim() for n in heights}
    assert len(ylims) == 1


def test_cli_writes_six_pngs_and_refuses_a_missing_run(runs, tmp_path):
    before, after = runs
    out = tmp_path / "out"
    programs.run_python(SCRIPT, before, after, out, cwd=None)
    assert sorted(p.name for p in out.iterdir()) == sorted(
        [f"seed003-fig{n}.png" for n in (1, 2, 3, 4)]
        + ["seed003-fig5-before.png", "seed003-fig5-after.png"])
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in out.iterdir())
    shutil.rmtree(before / "nas-overlap")
    missing = tmp_path / "missing"
    proc = programs.run_python(SCRIPT, before, after, missing, status=2, cwd=None)
    assert proc.stderr.count("\n") == 1 and "nas-overlap/data.csv" in proc.stderr
    assert not missing.exists()
