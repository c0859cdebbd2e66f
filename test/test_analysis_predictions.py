"""Tests of analysis.predictions and the report of raw-ethernet-vs-myrinet (seed 003 Figs. 1, 2).

The expected values are worked out by hand from the small synthetic curves below.
"""

import os
import shutil
from pathlib import Path

import pandas as pd
import pytest

from analysis.plots import raw_bw_figure, raw_latency_figure
from analysis.predictions import (PREDICTION_COLUMNS, InputError, raw_bw_predictions,
                                  raw_latency_predictions, raw_predictions)
from analysis.summary import SUMMARY_COLUMNS
from analysis.report import main

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SCENARIO = "raw-ethernet-vs-myrinet"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
COLUMNS = ["net", "coalesce", "nic", "host", "msg_bytes", "latency_us", "mbps", "stream_msgs"]
SIZES = (1, 4, 1500, 2048)
# curve -> (latency_us, mbps) at SIZES
CURVES = {
    ("gige", "on", "pro1000mt"): ((10.0, 10.5, 40.0, 50.0), (2.0, 8.0, 900.0, 950.0)),
    ("gige", "off", "pro1000mt-nocoal"): ((9.25, 9.75, 39.0, 49.0), (1.0, 4.0, 800.0, 960.0)),
    ("myrinet", "none", "lanai72"): ((18.0, 18.5, 30.0, 35.0), (0.5, 2.0, 700.0, 1200.0)),
}
KEYS = [
    ("raw-latency", "net=myrinet-vs-gige;coalesce=on;msg=4", "latency_gap_us"),
    ("raw-latency", "net=myrinet-vs-gige;coalesce=off;msg=4", "latency_gap_us"),
    ("raw-latency", "net=gige;coalesce=on-vs-off;msg=1", "latency_gap_us"),
    ("raw-bw", "net=gige;coalesce=off", "saturation_mbps"),
    ("raw-bw", "net=gige;coalesce=on-vs-off", "saturation_gap_mbps"),
    ("raw-bw", "net=myrinet", "saturation_mbps"),
    ("raw-bw", "net=myrinet-vs-gige;msg<=1500", "myrinet_lower"),
]
# By hand: 18.5 - 10.5, 18.5 - 9.75, 10.0 - 9.25, max(off) = 960, max(on) - max(off) =
# 950 - 960, max(myrinet) = 1200; myrinet below GigE-on at 1, 4, 1500 (0.5<2, 2<8, 700<900;
# 2048 is above 1500 and does not count although 1200 > 950).
EXPECTED = [8.0, 8.75, 0.75, 960.0, -10.0, 1200.0, 1]


def synthetic(curves=None):
    rows = []
    for (net, coalesce, nic), (lat, mbps) in (curves or CURVES).items():
        for size, l_us, m in zip(SIZES, lat, mbps):
            rows.append([net, coalesce, nic, "athlonxp2800-fbsd47", size, l_us, m, 64])
    return pd.DataFrame(rows, columns=COLUMNS)


def as_dict(pred):
    assert list(pred.columns) == PREDICTION_COLUMNS
    return {(r["experiment"], r["config"], r["metric"]): r["sim_value"]
            for r in pred.to_dict("records")}


def summary_dict(results):
    """``{(experiment, config, metric): sim_value}`` of ``results/summary.csv``'s simulated
    rows (the seed 003 rows of this scenario, in the reference table's order)."""
    summary = pd.read_csv(results / "summary.csv", dtype={"paper": str})
    assert list(summary.columns) == SUMMARY_COLUMNS and len(summary) == len(KEYS)
    assert [tuple(r) for r in summary[["experiment", "config", "metric"]].to_numpy()] == KEYS
    assert set(summary["paper"]) == {"003"}
    return {(r["experiment"], r["config"], r["metric"]): r["sim_value"]
            for r in summary.to_dict("records") if r["sim_value"] == r["sim_value"]}


def with_mbps(net, values):
    """CURVES with the mbps of ``net``'s curve replaced by ``values``."""
    out = dict(CURVES)
    key = next(k for k in out if k[0] == net)
    out[key] = (out[key][0], values)
    return out


def test_raw_predictions_by_hand():
    pred = raw_predictions(synthetic())
    assert [tuple(r) for r in pred[["experiment", "config", "metric"]].to_numpy()] == KEYS
    for got, want in zip(pred["sim_value"], EXPECTED):
        assert got == pytest.approx(want, abs=1e-12)
    assert pred["sim_value"].iloc[-1] == 1


def test_experiments_split_latency_and_bw():
    data = synthetic()
    assert list(raw_latency_predictions(data)["experiment"]) == ["raw-latency"] * 3
    assert list(raw_bw_predictions(data)["experiment"]) == ["raw-bw"] * 4


def test_myrinet_lower_zero_when_above_at_one_small_size():
    # Myrinet 950 > GigE-on 900 at 1500 bytes.
    pred = as_dict(raw_predictions(synthetic(with_mbps("myrinet", (0.5, 2.0, 950.0, 1200.0)))))
    assert pred[KEYS[6]] == 0


def test_myrinet_lower_zero_when_equal():
    pred = as_dict(raw_predictions(synthetic(with_mbps("myrinet", (2.0, 2.0, 700.0, 1.0)))))
    assert pred[KEYS[6]] == 0  # equal at 1 byte: not lower


def test_myrinet_lower_only_compares_shared_sizes():
    data = synthetic(with_mbps("myrinet", (0.5, 2.0, 950.0, 1200.0)))
    # Drop GigE-on at 1500: the only size where Myrinet was above is no longer shared.
    data = data[~((data["coalesce"] == "on") & (data["msg_bytes"] == 1500))]
    assert as_dict(raw_predictions(data))[KEYS[6]] == 1


def test_missing_curves_leave_rows_out():
    data = synthetic()
    no_myrinet = as_dict(raw_predictions(data[data["net"] == "gige"]))
    assert list(no_myrinet) == [KEYS[2], KEYS[3], KEYS[4]]
    assert [no_myrinet[k] for k in list(no_myrinet)] == pytest.approx([0.75, 960.0, -10.0])
    only_on = raw_predictions(data[data["coalesce"] != "off"])
    assert list(as_dict(only_on)) == [KEYS[0], KEYS[5], KEYS[6]]
    only_myrinet = as_dict(raw_predictions(data[data["net"] == "myrinet"]))
    assert only_myrinet == {KEYS[5]: 1200.0}
    empty = raw_predictions(data.iloc[:0])
    assert empty.empty and list(empty.columns) == PREDICTION_COLUMNS
    assert not raw_predictions(data)["sim_value"].isna().any()


def test_missing_message_size_leaves_row_out():
    data = synthetic()
    data = data[~((data["coalesce"] == "on") & (data["msg_bytes"] == 4))]
    pred = as_dict(raw_predictions(data))
    assert KEYS[0] not in pred and len(pred) == 6
    assert pred[KEYS[1]] == pytest.approx(8.75)


def test_duplicate_sizes_are_averaged_and_text_is_normalised():
    data = synthetic()
    extra = data[(data["net"] == "myrinet") & (data["msg_bytes"] == 4)].copy()
    extra["latency_us"] = 20.5  # mean of 18.5 and 20.5 is 19.5
    data = pd.concat([data, extra], ignore_index=True)
    data["net"] = data["net"].str.upper().str.pad(9)
    pred = as_dict(raw_predictions(data))
    assert pred[KEYS[0]] == pytest.approx(19.5 - 10.5)


def test_missing_columns_raise_input_error():
    with pytest.raises(InputError, match="mbps"):
        raw_predictions(synthetic().drop(columns=["mbps"]))
    bad = synthetic().astype({"latency_us": object})
    bad.loc[0, "latency_us"] = "fast"
    with pytest.raises(InputError, match="latency_us"):
        raw_predictions(bad)


def test_gap_scale_is_the_larger_quantity_compared():
    pred = raw_predictions(synthetic())
    # By hand: Myrinet 18.5 vs GigE-on 10.5 and GigE-off 9.75 at 4 B; GigE on 10.0 vs off 9.25
    # at 1 B; peaks on 950 vs off 960; the other rows are not gaps.
    scale = list(pred["scale"])
    assert scale[:3] == [18.5, 18.5, 10.0] and scale[4] == 960.0
    assert all(v != v for v in scale[3:4] + scale[5:])  # NaN


def _labels(ax):
    return [line.get_label() for line in ax.get_lines() if not line.get_label().startswith("_")]


def test_raw_figures():
    data = synthetic()
    ax = raw_latency_figure(data).axes[0]
    assert _labels(ax) == ["GigE, coalescing on", "GigE, coalescing off", "Myrinet (GM)"]
    assert ax.get_xscale() == "log" and ax.xaxis.get_transform().base == 2
    assert ax.get_xlabel() == "Message size (bytes)"
    assert ax.get_ylabel() == "One-way latency (µs)"
    assert "seed 003 Fig. 1" in ax.get_title() and ax.get_legend() is not None
    on = ax.get_lines()[0]
    assert list(on.get_xdata()) == list(SIZES)
    assert list(on.get_ydata()) == [10.0, 10.5, 40.0, 50.0]

    ax = raw_bw_figure(data[data["net"] == "gige"]).axes[0]
    assert _labels(ax)[:2] == ["GigE, coalescing on", "GigE, coalescing off"]
    assert "Myrinet (GM)" not in _labels(ax)
    assert ax.get_ylabel() == "Unidirectional bandwidth (Mbit/s)"
    assert "Fig. 2" in ax.get_title() and "blind" not in ax.get_title()
    assert list(ax.get_lines()[1].get_ydata()) == [1.0, 4.0, 800.0, 960.0]


def test_cli_end_to_end(tmp_path, results_folder, run_report):
    results = results_folder(synthetic())
    proc = run_report(SCENARIO, "--results", str(results))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert sorted(os.listdir(results)) == ["data.csv", f"{SCENARIO}-bw.png",
                                           f"{SCENARIO}.png", "summary.csv"]
    for name in (f"{SCENARIO}.png", f"{SCENARIO}-bw.png"):
        assert (results / name).read_bytes()[:8] == PNG_MAGIC
    sim = summary_dict(results)
    assert [sim[k] for k in KEYS] == pytest.approx(EXPECTED)
    summary = pd.read_csv(results / "summary.csv")
    # By hand: (8 + 40) / 18.5; (960 - 960) / 960; myrinet_lower agrees: 0
    assert summary["rel_err"].iloc[0] == pytest.approx(48 / 18.5)
    assert summary["rel_err"].iloc[3] == pytest.approx(0.0)
    assert summary["rel_err"].iloc[6] == 0.0
    out = proc.stdout
    assert "no reference rows" not in out and "n=7 median |err|" in out
    line = next(s for s in out.splitlines() if "coalesce=on-vs-off;msg=1" in s)
    # (0.75 - 30) / 10
    assert line.split() == ["net=gige;coalesce=on-vs-off;msg=1", "latency_gap_us", "0.75",
                            "30", "-292.5%"]


def test_sample_fixture_in_process(tmp_path, capsys, no_figures):
    results = tmp_path / "results"
    results.mkdir()
    shutil.copy(FIXTURES / "raw_ethernet_vs_myrinet.csv", results / "data.csv")
    assert main([SCENARIO, "--results", str(results)]) == 0
    pred = summary_dict(results)
    # From the sample: 18.972 - 11.404, 18.972 - 11.112, 11.404 - 11.112, 961.334,
    # 961.334 - 961.334, 1233.292, and Myrinet lower at every size up to 1500.
    assert [pred[k] for k in KEYS] == pytest.approx([7.568, 7.86, 0.292, 961.334, 0.0,
                                                     1233.292, 1])
    assert "n=7 median |err|" in capsys.readouterr().out


def test_summary_written_without_warning(tmp_path, capsys, no_figures, results_folder):
    results = results_folder(synthetic())
    assert main([SCENARIO, "--results", str(results)]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert sorted(os.listdir(results)) == ["data.csv", "summary.csv"]  # no predictions.csv


def test_other_reference_prints_the_simulated_values(tmp_path, capsys, no_figures, results_folder):
    results = results_folder(synthetic())
    assert main([SCENARIO, "--results", str(results), "--reference",
                 str(FIXTURES / "reference_small.csv")]) == 0
    out = capsys.readouterr().out
    assert sorted(os.listdir(results)) == ["data.csv"]
    assert "summary.csv not written" in out and "Simulated values (7)" in out


def test_missing_reference_file_is_refused(tmp_path, capsys, no_figures, results_folder):
    results = results_folder(synthetic())
    missing = tmp_path / "nowhere.csv"
    assert main([SCENARIO, "--results", str(results), "--reference", str(missing)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"python -m analysis.report: no reference file {missing}"]
    assert sorted(os.listdir(results)) == ["data.csv"]


def test_partial_run_writes_fewer_rows(tmp_path, capsys, no_figures, results_folder):
    data = synthetic()
    results = results_folder(data[data["net"] == "gige"])
    assert main([SCENARIO, "--results", str(results)]) == 0
    summary = pd.read_csv(results / "summary.csv")
    assert len(summary) == 7 and summary["sim_value"].notna().sum() == 3


def test_cli_missing_column_exits_2_with_one_line(tmp_path, results_folder, run_report):
    results = results_folder(synthetic().drop(columns=["mbps", "coalesce"]))
    proc = run_report(SCENARIO, "--results", str(results))
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "coalesce" in lines[0] and "mbps" in lines[0] and "data.csv" in lines[0]
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    assert os.listdir(results) == ["data.csv"]


def test_non_numeric_value_exits_2(tmp_path, capsys, results_folder):
    text = ",".join(COLUMNS) + "\ngige,on,pro1000mt,h,4,fast,8.0,64\n"
    results = results_folder(text)
    assert main([SCENARIO, "--results", str(results)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "latency_us" in err
    assert os.listdir(results) == ["data.csv"]
