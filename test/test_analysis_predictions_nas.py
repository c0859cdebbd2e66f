"""Tests of the derived values and figure of nas-overlap (seed 003 Fig. 5).

The expected values are worked out by hand from the synthetic times below: every stack's time
is the LA-MPI-GM time of the config times a chosen ratio (powers of two over 4, so the times
and the ratios are exact in floating point).
"""

import os

import pandas as pd
import pytest
from matplotlib.colors import to_rgba

from analysis.plots import nas_figure, plot_nas
from analysis.predictions import (NAS_COLUMNS, NAS_CONFIGS, NAS_STACKS,
                                  PREDICTION_COLUMNS, SCENARIO_PREDICTIONS, InputError,
                                  nas_normalized, nas_predictions, predictions_for)
from analysis.report import PREDICTION_FIGURES, main

SCENARIO = "nas-overlap"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
COLUMNS = ["config", "bench", "class", "ranks", "stack", "net", "time_s", "compute_s",
           "steps_simulated", "steps"]
CONFIGS = ["bt.B.4", "bt.B.9", "bt.C.9", "sp.B.4", "sp.B.9", "sp.C.9", "lu.B.4", "lu.B.8",
           "lu.C.8", "is.B.4", "is.B.8", "is.C.8", "mg.B.4", "mg.B.8", "mg.C.8"]
GM = [4.0 * (i + 1) for i in range(15)]  # LA-MPI-GM time of CONFIGS[i]: 4, 8, ..., 60 s
# Time over the LA-MPI-GM time, per config of CONFIGS.
RATIOS = {
    "lampi-tcp": [1.5, 1.25, 2.0] * 5,
    "lampi-tcp-ed": [0.75, 1.0, 1.25, 1.5, 0.5, 1.0, 1.25, 1.25, 1.5, 1.0, 1.25, 0.75, 1.25,
                     1.5, 1.25],
    "lampi-gm": [1.0] * 15,
    "mpich-gm": [1.25, 0.75, 1.0, 1.5, 0.5, 1.25, 0.75, 1.0, 1.25, 0.75, 1.0, 1.25, 0.75, 1.0,
                 1.5],
}
NETS = {"lampi-tcp": "gige", "lampi-tcp-ed": "gige", "lampi-gm": "myrinet",
        "mpich-gm": "myrinet"}
KEYS = [
    ("nas", "stack=lampi-tcp-vs-gm;suite=15configs", "mean_slowdown_pct"),
    ("nas", "stack=lampi-tcp-ed-vs-gm;suite=15configs", "mean_slowdown_pct"),
    ("nas", "stack=lampi-tcp-ed-vs-gm;suite=15configs", "configs_matching_or_beating"),
    ("nas", "stack=lampi-tcp-ed-vs-gm;bench=is.C.8", "speedup_pct"),
    ("nas", "stack=mpich-gm-vs-lampi-gm", "mean_diff_pct"),
]
# By hand:
#  TCP: (50 + 25 + 100) * 5 = 875 over 15 configs;
#  TCP-ED: -25 + 0 + 25 + 50 - 50 + 0 + 25 + 25 + 50 + 0 + 25 - 25 + 25 + 50 + 25 = 200 over 15;
#  TCP-ED <= GM at ratios 0.75, 1.0, 0.5, 1.0, 1.0, 0.75: 6 configs (3 of them ties);
#  is.C.8: GM 48 s, TCP-ED 36 s: 48 / 36 - 1 = 1/3;
#  MPICH-GM: |pct| 25 25 0 50 50 25 25 0 25 25 0 25 25 0 50 = 350 over 15 (signed: 50).
EXPECTED = [875 / 15, 200 / 15, 6, 100 / 3, 350 / 15]


def synthetic(ratios=None, columns=COLUMNS):
    rows = []
    for i, (config, gm) in enumerate(zip(CONFIGS, GM)):
        bench, cls, ranks = config.split(".")
        for stack, ratio in (ratios or RATIOS).items():
            time = gm * ratio[i]
            rows.append([config, bench, cls, int(ranks), stack, NETS[stack], time, time / 2,
                         10, 200])
    return pd.DataFrame(rows, columns=COLUMNS)[list(columns)]


def as_dict(pred):
    assert list(pred.columns) == PREDICTION_COLUMNS
    return {(r["experiment"], r["config"], r["metric"]): r["sim_value"]
            for r in pred.to_dict("records")}


def with_time(data, config, stack, value):
    """``data`` with the time of ``stack`` at ``config`` set to ``value``."""
    out = data.astype({"time_s": object})
    out.loc[(out["config"] == config) & (out["stack"] == stack), "time_s"] = value
    return out


def without(data, stacks=(), configs=()):
    """``data`` without the rows of ``stacks`` (every stack when empty) at ``configs`` (every
    config when empty)."""
    drop = data["stack"].isin(stacks) if stacks else pd.Series(True, index=data.index)
    if configs:
        drop &= data["config"].isin(configs)
    return data[~drop]


def test_nas_configs_and_stacks():
    assert NAS_CONFIGS == tuple(CONFIGS)
    assert NAS_STACKS == ("lampi-tcp", "lampi-tcp-ed", "lampi-gm", "mpich-gm")


def test_nas_predictions_by_hand():
    pred = nas_predictions(synthetic())
    assert [tuple(r) for r in pred[["experiment", "config", "metric"]].to_numpy()] == KEYS
    for got, want in zip(pred["sim_value"], EXPECTED):
        assert got == pytest.approx(want, abs=1e-12)
    assert not pred["sim_value"].isna().any()


def test_registered_for_the_scenario():
    data = synthetic()
    assert SCENARIO_PREDICTIONS[SCENARIO] is nas_predictions
    assert as_dict(predictions_for(SCENARIO, data)) == as_dict(nas_predictions(data))


def test_only_required_columns_are_needed():
    pred = as_dict(nas_predictions(synthetic(columns=NAS_COLUMNS)))
    assert [pred[k] for k in KEYS] == pytest.approx(EXPECTED)


def test_mean_slowdown_is_per_config_not_of_total_times():
    # One slow small config: TCP 3x GM on bt.B.4 (4 s): (875 - 50 + 200) / 15; the ratio of the
    # summed times would be (480 + 8) / 480 instead.
    data = with_time(synthetic(), "bt.B.4", "lampi-tcp", 12.0)
    assert as_dict(nas_predictions(data))[KEYS[0]] == pytest.approx(1025 / 15)


def test_matching_or_beating_counts_ties():
    ratios = dict(RATIOS, **{"lampi-tcp-ed": [1.0] * 15})  # every config a tie
    assert as_dict(nas_predictions(synthetic(ratios)))[KEYS[2]] == 15
    # Equal times that are not exact binary fractions still tie.
    data = synthetic(ratios)
    data.loc[data["stack"].isin(["lampi-gm", "lampi-tcp-ed"]), "time_s"] = 0.1 * 3
    assert as_dict(nas_predictions(data))[KEYS[2]] == 15
    # A tie (sp.C.9, 24 s) made a little slower no longer counts.
    data = with_time(synthetic(), "sp.C.9", "lampi-tcp-ed", 24.0 * (1 + 1e-12))
    assert as_dict(nas_predictions(data))[KEYS[2]] == 5
    # One slower config made faster counts.
    data = with_time(synthetic(), "mg.C.8", "lampi-tcp-ed", 59.0)
    assert as_dict(nas_predictions(data))[KEYS[2]] == 7


def test_is_speedup_is_gm_over_ed():
    # TCP-ED slower than GM on is.C.8: a negative speedup, 48 / 60 - 1.
    data = with_time(synthetic(), "is.C.8", "lampi-tcp-ed", 60.0)
    assert as_dict(nas_predictions(data))[KEYS[3]] == pytest.approx(-20.0)


def test_mean_diff_is_of_absolute_differences():
    ratios = dict(RATIOS, **{"mpich-gm": [0.5] * 15})
    assert as_dict(nas_predictions(synthetic(ratios)))[KEYS[4]] == pytest.approx(50.0)


def test_suite_rows_need_all_15_configs_of_both_stacks():
    data = synthetic()
    pred = as_dict(nas_predictions(without(data, ["lampi-tcp"], ["mg.C.8"])))
    assert list(pred) == KEYS[1:]
    assert [pred[k] for k in KEYS[1:]] == pytest.approx(EXPECTED[1:])
    # TCP-ED lacks one config: neither of its suite rows; is.C.8 is still there.
    pred = as_dict(nas_predictions(without(data, ["lampi-tcp-ed"], ["bt.B.9"])))
    assert list(pred) == [KEYS[0], KEYS[3], KEYS[4]]
    pred = as_dict(nas_predictions(without(data, ["mpich-gm"], ["lu.B.8"])))
    assert list(pred) == KEYS[:4]
    # LA-MPI-GM lacks one config: no suite row at all.
    pred = as_dict(nas_predictions(without(data, ["lampi-gm"], ["sp.B.4"])))
    assert list(pred) == [KEYS[3]] and pred[KEYS[3]] == pytest.approx(100 / 3)
    # A blank time counts as not run.
    pred = as_dict(nas_predictions(with_time(data, "bt.B.4", "lampi-gm", None)))
    assert list(pred) == [KEYS[3]]
    # A stack that was not run at all.
    pred = as_dict(nas_predictions(without(data, ["mpich-gm"])))
    assert list(pred) == KEYS[:4]


def test_no_is_row_without_is_c_8_of_both_stacks():
    data = synthetic()
    pred = as_dict(nas_predictions(without(data, ["lampi-tcp-ed"], ["is.C.8"])))
    assert list(pred) == [KEYS[0], KEYS[4]]
    pred = as_dict(nas_predictions(without(data, configs=["is.C.8"])))
    assert pred == {}
    only_is = data[data["config"] == "is.C.8"]
    assert as_dict(nas_predictions(only_is)) == pytest.approx({KEYS[3]: 100 / 3})
    pred = nas_predictions(only_is[only_is["stack"] == "lampi-gm"])
    assert pred.empty and list(pred.columns) == PREDICTION_COLUMNS


def test_empty_data_gives_no_rows():
    pred = nas_predictions(synthetic().iloc[:0])
    assert pred.empty and list(pred.columns) == PREDICTION_COLUMNS
    table = nas_normalized(synthetic().iloc[:0])
    assert table.empty and list(table.columns) == ["config", "stack", "ratio"]


def test_configs_outside_fig_5_are_ignored():
    data = synthetic()
    extra = pd.DataFrame([["cg.B.4", "cg", "B", 4, stack, NETS[stack], t, 1.0, 1, 1]
                          for stack, t in (("lampi-tcp", 100.0), ("lampi-tcp-ed", 1.0),
                                           ("lampi-gm", 2.0), ("mpich-gm", 50.0))],
                         columns=COLUMNS)
    pred = as_dict(nas_predictions(pd.concat([extra, data], ignore_index=True)))
    assert [pred[k] for k in KEYS] == pytest.approx(EXPECTED)
    # ... and do not stand in for a missing one.
    partial = pd.concat([extra, without(data, ["lampi-tcp"], ["bt.B.4"])], ignore_index=True)
    assert KEYS[0] not in as_dict(nas_predictions(partial))


def test_duplicates_are_averaged_and_text_is_normalised():
    data = synthetic()
    extra = data[(data["config"] == "bt.B.4") & (data["stack"] == "lampi-tcp")].copy()
    extra["time_s"] = 10.0  # mean of 6 and 10 is 8: ratio 2, +100 % instead of +50 %
    extra_gm = data[(data["config"] == "is.C.8") & (data["stack"] == "lampi-gm")].copy()
    extra_gm["time_s"] = 36.0  # mean of 48 and 36 is 42: is.C.8 TCP-ED (36 s) 42 / 36 - 1
    data = pd.concat([data, extra, extra_gm], ignore_index=True)
    data["stack"] = " " + data["stack"].str.upper()
    data["config"] = data["config"].str.swapcase() + " "
    pred = as_dict(nas_predictions(data))
    # TCP: bt.B.4 +100 % instead of +50 %, and is.C.8 (TCP 96 s) over a GM of 42 s now, not 48.
    assert pred[KEYS[0]] == pytest.approx((875 + 50 + (96 / 42 - 2) * 100) / 15)
    assert pred[KEYS[3]] == pytest.approx((42 / 36 - 1) * 100)
    table = nas_normalized(data)
    assert list(table["config"][:4]) == ["bt.B.4"] * 4
    assert list(table["stack"][:4]) == list(NAS_STACKS)
    assert table["ratio"].iloc[0] == pytest.approx(2.0)


@pytest.mark.parametrize("column", NAS_COLUMNS)
def test_missing_column_raises_input_error(column):
    with pytest.raises(InputError, match=column):
        nas_predictions(synthetic().drop(columns=[column]))


def test_non_numeric_time_raises_input_error():
    with pytest.raises(InputError, match="time_s"):
        nas_predictions(with_time(synthetic(), "lu.B.4", "lampi-gm", "slow"))
    with pytest.raises(InputError, match="time_s"):
        nas_normalized(with_time(synthetic(), "lu.B.4", "lampi-gm", "slow"))


@pytest.mark.parametrize("value", [0.0, -3.0, float("inf")])
def test_non_positive_time_raises_input_error(value):
    with pytest.raises(InputError, match="time_s"):
        nas_predictions(with_time(synthetic(), "lu.B.4", "mpich-gm", value))


def test_nas_normalized():
    table = nas_normalized(synthetic())
    assert list(table.columns) == ["config", "stack", "ratio"]
    assert len(table) == 60
    assert list(table["config"]) == [c for c in CONFIGS for _ in NAS_STACKS]
    assert list(table["stack"]) == list(NAS_STACKS) * 15
    for stack in NAS_STACKS:
        assert list(table.loc[table["stack"] == stack, "ratio"]) == RATIOS[stack]


def test_nas_normalized_order_and_missing_cells():
    data = synthetic()
    extra = pd.DataFrame([["cg.B.4", "cg", "B", 4, "mpich-gm", "myrinet", 6.0, 1, 1, 1],
                          ["cg.B.4", "cg", "B", 4, "lampi-gm", "myrinet", 4.0, 1, 1, 1],
                          ["ft.A.2", "ft", "A", 2, "lampi-tcp", "gige", 4.0, 1, 1, 1],
                          ["ft.A.2", "ft", "A", 2, "lampi-gm", "myrinet", 5.0, 1, 1, 1]],
                         columns=COLUMNS)
    # Rows in reverse order, unknown configs first, GM lacking at mg.C.8.
    data = pd.concat([extra, data.iloc[::-1]], ignore_index=True)
    data = without(data, ["lampi-gm"], ["mg.C.8"])
    data = without(data, ["lampi-tcp-ed"], ["bt.B.9"])
    table = nas_normalized(data)
    configs = list(dict.fromkeys(table["config"]))
    assert configs == CONFIGS[:14] + ["cg.B.4", "ft.A.2"]  # mg.C.8 has no GM time
    assert list(table.loc[table["config"] == "bt.B.9", "stack"]) == [
        "lampi-tcp", "lampi-gm", "mpich-gm"]
    assert list(table.loc[table["config"] == "cg.B.4", "stack"]) == ["lampi-gm", "mpich-gm"]
    assert list(table.loc[table["config"] == "cg.B.4", "ratio"]) == [1.0, 1.5]
    assert list(table.loc[table["config"] == "ft.A.2", "ratio"]) == [0.8, 1.0]
    assert not table["ratio"].isna().any()
    # Configs outside Fig. 5 follow its 15, in order of appearance (not sorted).
    swapped = nas_normalized(pd.concat([extra.iloc[::-1], synthetic()], ignore_index=True))
    assert list(dict.fromkeys(swapped["config"])) == CONFIGS + ["ft.A.2", "cg.B.4"]
    only_tcp = nas_normalized(synthetic()[lambda d: d["stack"] == "lampi-tcp"])
    assert only_tcp.empty


def test_no_gap_rows_no_scale():
    assert nas_predictions(synthetic())["scale"].isna().all()  # percentages and a count


def _bars(ax):
    """``{legend label: [bar heights]}`` of the bar groups of ``ax``."""
    return {c.get_label(): [p.get_height() for p in c.patches] for c in ax.containers}


def test_nas_figure():
    ax = nas_figure(synthetic()).axes[0]
    assert ax.get_xlabel() == "NAS benchmark.class.ranks"
    assert ax.get_ylabel() == "execution time / LA-MPI-GM time [ratio]"
    assert ax.get_title() == "NAS benchmarks normalized to LA-MPI-GM, seed 003 Fig. 5"
    assert [t.get_text() for t in ax.get_xticklabels()] == CONFIGS
    bars = _bars(ax)
    assert list(bars) == ["LA-MPI-TCP", "LA-MPI-TCP-ED", "LA-MPI-GM", "MPICH-GM"]
    assert bars["LA-MPI-TCP"] == pytest.approx(RATIOS["lampi-tcp"])
    assert bars["LA-MPI-TCP-ED"] == pytest.approx(RATIOS["lampi-tcp-ed"])
    assert bars["LA-MPI-GM"] == pytest.approx([1.0] * 15)
    assert bars["MPICH-GM"] == pytest.approx(RATIOS["mpich-gm"])
    # Same colours as in Figs. 3 and 4.
    colors = [c.patches[0].get_facecolor() for c in ax.containers]
    assert colors == [to_rgba(f"C{i}") for i in range(4)]
    dashed = [line for line in ax.get_lines() if line.get_linestyle() == "--"]
    assert len(dashed) == 1 and list(dashed[0].get_ydata()) == [1.0, 1.0]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend[:4] == ["LA-MPI-TCP", "LA-MPI-TCP-ED", "LA-MPI-GM", "MPICH-GM"]
    assert len(legend) == 5 and "LA-MPI-GM" in legend[4]


def test_nas_figure_missing_cells_have_no_bar():
    data = without(synthetic(), ["lampi-tcp-ed"], ["bt.C.9"])
    data = without(data, ["mpich-gm"])
    ax = nas_figure(data, None, "my title").axes[0]
    assert ax.get_title() == "my title"
    bars = _bars(ax)
    assert list(bars) == ["LA-MPI-TCP", "LA-MPI-TCP-ED", "LA-MPI-GM"]
    assert bars["LA-MPI-TCP-ED"] == pytest.approx(RATIOS["lampi-tcp-ed"][:2]
                                                  + RATIOS["lampi-tcp-ed"][3:])
    # Each bar stays over its config (TCP-ED, the middle of three bars, at the group centre):
    # no bar in group 2 (bt.C.9), the third over sp.B.4 (group 3).
    centres = [p.get_x() + p.get_width() / 2 for p in ax.containers[1].patches]
    assert centres == pytest.approx([0, 1] + list(range(3, 15)))
    # Three bars share 0.8 of a group: TCP one bar width left of the centre, GM right.
    centres = [p.get_x() + p.get_width() / 2 for p in ax.containers[0].patches]
    assert centres == pytest.approx([i - 0.8 / 3 for i in range(15)])
    centres = [p.get_x() + p.get_width() / 2 for p in ax.containers[2].patches]
    assert centres == pytest.approx([i + 0.8 / 3 for i in range(15)])


def test_nas_figure_without_gm_raises():
    with pytest.raises(ValueError, match="LA-MPI-GM"):
        nas_figure(without(synthetic(), ["lampi-gm"]))
    with pytest.raises(InputError, match="time_s"):
        nas_figure(synthetic().drop(columns=["time_s"]))


def test_plot_nas_writes_png(tmp_path):
    path = plot_nas(synthetic(), None, tmp_path / "nas.png")
    assert path == tmp_path / "nas.png"
    data = path.read_bytes()
    assert data[:8] == PNG_MAGIC and len(data) > 10000
    assert sorted(os.listdir(tmp_path)) == ["nas.png"]


def test_report_figure_registration():
    assert PREDICTION_FIGURES[SCENARIO] == [
        ("", plot_nas, "NAS execution time normalized to LA-MPI-GM, seed 003 Fig. 5")]


def test_cli_end_to_end(tmp_path, results_folder, run_report):
    results = results_folder(synthetic())
    proc = run_report(SCENARIO, "--results", str(results))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert sorted(os.listdir(results)) == ["data.csv", f"{SCENARIO}.png", "summary.csv"]
    assert (results / f"{SCENARIO}.png").read_bytes()[:8] == PNG_MAGIC
    summary = pd.read_csv(results / "summary.csv")
    assert [tuple(r) for r in summary[["experiment", "config", "metric"]].to_numpy()] == KEYS
    assert list(summary["sim_value"]) == pytest.approx(EXPECTED, abs=1e-6)
    # By hand: (875/15 - 5.2) / 100; (200/15 - 0.3) / 100; (6 - 6) / 15; (100/3 - 7) / 100;
    # (350/15 - 0.25) / 100
    assert list(summary["rel_err"]) == pytest.approx(
        [(875 / 15 - 5.2) / 100, (200 / 15 - 0.3) / 100, 0.0, (100 / 3 - 7) / 100,
         (350 / 15 - 0.25) / 100])
    out = proc.stdout
    assert "no reference rows" not in out and "n=5 median |err|" in out
    line = next(s for s in out.splitlines() if "bench=is.C.8" in s)
    assert line.split() == ["stack=lampi-tcp-ed-vs-gm;bench=is.C.8", "speedup_pct", "33.33",
                            "7", "+26.3%"]
    # The normalized times: one line per config, stacks in legend order.
    head = next(s for s in out.splitlines() if s.startswith("config "))
    assert head.split() == ["config", "LA-MPI-TCP", "LA-MPI-TCP-ED", "LA-MPI-GM", "MPICH-GM"]
    row = next(s for s in out.splitlines() if s.startswith("is.C.8 "))
    assert row.split() == ["is.C.8", "2", "0.75", "1", "1.25"]


def test_partial_run_writes_fewer_rows(tmp_path, capsys, no_figures, results_folder):
    data = without(synthetic(), ["lampi-tcp"], ["sp.C.9"])
    data = without(data, ["mpich-gm"], ["is.C.8"])
    results = results_folder(data)
    assert main([SCENARIO, "--results", str(results)]) == 0
    assert sorted(os.listdir(results)) == ["data.csv", "summary.csv"]
    summary = pd.read_csv(results / "summary.csv")
    assert len(summary) == 5
    assert list(summary["sim_value"].notna()) == [False, True, True, True, False]
    out = capsys.readouterr().out
    row = next(s for s in out.splitlines() if s.startswith("is.C.8 "))
    assert row.split() == ["is.C.8", "2", "0.75", "1", "-"]


def test_no_gm_run_reports_no_rows(tmp_path, capsys, results_folder):
    results = results_folder(without(synthetic(), ["lampi-gm"]))
    with pytest.warns(UserWarning, match="LA-MPI-GM"):
        assert main([SCENARIO, "--results", str(results)]) == 0
    assert sorted(os.listdir(results)) == ["data.csv", "summary.csv"]
    assert pd.read_csv(results / "summary.csv")["sim_value"].isna().all()
    out = capsys.readouterr().out
    assert "n=0 median |err|=n/a" in out and "no normalized NAS times" in out


def test_cli_missing_column_exits_2_with_one_line(tmp_path, results_folder, run_report):
    results = results_folder(synthetic().drop(columns=["time_s"]))
    proc = run_report(SCENARIO, "--results", str(results))
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "time_s" in lines[0] and "data.csv" in lines[0]
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    assert os.listdir(results) == ["data.csv"]


def test_non_numeric_time_exits_2(tmp_path, capsys, results_folder):
    text = (",".join(COLUMNS) + "\n"
            "bt.B.4,bt,B,4,lampi-gm,myrinet,12.5,10.0,10,200\n"
            "bt.B.4,bt,B,4,lampi-tcp,gige,n/a-ish,10.0,10,200\n")
    results = results_folder(text)
    assert main([SCENARIO, "--results", str(results)]) == 2
    captured = capsys.readouterr()
    assert len(captured.err.strip().splitlines()) == 1 and "time_s" in captured.err
    assert captured.out == ""
    assert os.listdir(results) == ["data.csv"]
