"""Tests of the derived values and figures of lampi-latency-bandwidth (seed 003 Figs. 3, 4).

The expected values are worked out by hand from the small synthetic stacks below.
"""

import os
import shutil
from pathlib import Path

import pandas as pd
import pytest

from analysis.plots import lampi_bw_figure, lampi_latency_figure
from analysis.predictions import (LAMPI_COLUMNS, PREDICTION_COLUMNS, InputError,
                                  lampi_predictions, mpi_bw_predictions,
                                  mpi_latency_predictions, predictions_for)
from analysis.summary import SUMMARY_COLUMNS
from analysis.report import main

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SCENARIO = "lampi-latency-bandwidth"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
COLUMNS = ["stack", "net", "nic", "host", "msg_bytes", "latency_us", "mbps", "reps",
           "stream_msgs", "unexpected_pct"]
SIZES = (4, 1024, 16384, 32768, 65536, 2097152)
# stack -> (net, nic, latency_us at SIZES, mbps at SIZES)
STACKS = {
    "lampi-tcp": ("gige", "pro1000mt", (20.0, 40.0, 200.0, 360.0, 640.0, 18000.0),
                  (2.0, 500.0, 900.0, 750.0, 830.0, 940.0)),
    "lampi-tcp-ed": ("gige", "pro1000mt", (27.0, 45.0, 212.0, 424.0, 660.0, 18010.0),
                     (1.0, 400.0, 910.0, 720.0, 820.0, 935.5)),
    "lampi-gm": ("myrinet", "lanai72", (35.0, 50.0, 250.0, 375.0, 650.0, 18300.0),
                 (2.5, 480.0, 740.0, 820.0, 790.0, 915.0)),
    "mpich-gm": ("myrinet", "lanai72", (34.0, 49.0, 251.0, 600.0, 649.0, 18299.0),
                 (2.5, 490.0, 600.0, 820.0, 800.0, 916.0)),
}
KEYS = [
    ("mpi-latency", "stack=lampi-tcp-vs-gm;msg=4", "latency_gap_us"),
    ("mpi-latency", "stack=lampi-tcp-vs-gm;msg=65536", "latency_gap_us"),
    ("mpi-latency", "stack=lampi-tcp-ed-vs-tcp", "latency_gap_us"),
    ("mpi-latency", "stack=all;msg=32768-vs-16384", "latency_ratio"),
    ("mpi-bw", "stack=lampi-tcp;msg<=16384", "saturation_mbps"),
    ("mpi-bw", "stack=lampi-gm;msg<=16384", "saturation_mbps"),
    ("mpi-bw", "stack=all;msg=16384-to-32768", "drop"),
    ("mpi-bw", "stack=lampi-gm;msg=2097152", "mbps"),
    ("mpi-bw", "stack=lampi-tcp;msg=2097152", "mbps"),
    ("mpi-bw", "stack=lampi-tcp-ed-vs-tcp;msg=2097152", "gap_mbps"),
]
# By hand:
#  20 - 35; 640 - 650;
#  mean of ED - TCP at 4, 1024, 16384 (<= 16384): (7 + 5 + 12) / 3 = 8;
#  max of 360/200 = 1.8 (TCP), 424/212 = 2.0 (TCP-ED), 375/250 = 1.5 (GM) = 2.0 (MPICH-GM's
#  600/251 = 2.39 does not count);
#  max TCP mbps up to 16384 = 900 (940 at 2 MB is outside); max GM up to 16384 = 740 (820 at
#  32768 is outside);
#  drop: TCP 900 -> 750 and ED 910 -> 720 drop, GM 740 -> 820 rises: 0;
#  915; 940; 935.5 - 940.
EXPECTED = [-15.0, -10.0, 8.0, 2.0, 900.0, 740.0, 0, 915.0, 940.0, -4.5]


def synthetic(stacks=None, columns=COLUMNS):
    rows = []
    for stack, (net, nic, lat, mbps) in (stacks or STACKS).items():
        for size, l_us, m in zip(SIZES, lat, mbps):
            rows.append([stack, net, nic, "athlonxp2800-fbsd47", size, l_us, m, 20, 8, 0.0])
    return pd.DataFrame(rows, columns=COLUMNS)[list(columns)]


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
    return {(r["experiment"], r["config"], r["metric"]): r["sim_value"]
            for r in summary.to_dict("records") if r["sim_value"] == r["sim_value"]}


def with_value(data, stack, msg, column, value):
    """``data`` with ``column`` of ``stack`` at ``msg`` set to ``value``."""
    out = data.copy()
    out.loc[(out["stack"] == stack) & (out["msg_bytes"] == msg), column] = value
    return out


def without(data, stacks=(), msgs=()):
    """``data`` without the rows of ``stacks`` at ``msgs`` (every size when ``msgs`` is
    empty)."""
    drop = data["stack"].isin(stacks)
    if msgs:
        drop &= data["msg_bytes"].isin(msgs)
    return data[~drop]


def test_lampi_predictions_by_hand():
    pred = lampi_predictions(synthetic())
    assert [tuple(r) for r in pred[["experiment", "config", "metric"]].to_numpy()] == KEYS
    for got, want in zip(pred["sim_value"], EXPECTED):
        assert got == pytest.approx(want, abs=1e-12)
    assert not pred["sim_value"].isna().any()


def test_experiments_split_latency_and_bw():
    data = synthetic()
    assert list(mpi_latency_predictions(data)["experiment"]) == ["mpi-latency"] * 4
    assert list(mpi_bw_predictions(data)["experiment"]) == ["mpi-bw"] * 6
    assert as_dict(predictions_for(SCENARIO, data)) == as_dict(lampi_predictions(data))


def test_only_required_columns_are_needed():
    pred = as_dict(lampi_predictions(synthetic(columns=LAMPI_COLUMNS)))
    assert [pred[k] for k in KEYS] == pytest.approx(EXPECTED)


def test_eager_gap_uses_sizes_in_both_curves_up_to_16384():
    data = without(synthetic(), ["lampi-tcp-ed"], [1024])
    assert as_dict(lampi_predictions(data))[KEYS[2]] == pytest.approx((7 + 12) / 2)
    # A blank latency counts as not measured.
    data = with_value(synthetic(), "lampi-tcp", 4, "latency_us", None)
    pred = as_dict(lampi_predictions(data))
    assert pred[KEYS[2]] == pytest.approx((5 + 12) / 2)
    assert KEYS[0] not in pred
    # Only sizes above the eager range shared: no row.
    data = without(synthetic(), ["lampi-tcp-ed"], [4, 1024, 16384])
    assert KEYS[2] not in as_dict(lampi_predictions(data))


def test_latency_ratio_is_the_largest_over_la_mpi_stacks():
    # TCP's ratio 500/200 = 2.5 becomes the largest.
    data = with_value(synthetic(), "lampi-tcp", 32768, "latency_us", 500.0)
    assert as_dict(lampi_predictions(data))[KEYS[3]] == pytest.approx(2.5)
    # Without TCP-ED (2.0): max(1.8, 1.5); MPICH-GM (2.39) never counts.
    data = without(synthetic(), ["lampi-tcp-ed"])
    assert as_dict(lampi_predictions(data))[KEYS[3]] == pytest.approx(1.8)
    # Only stacks with both sizes count: TCP-ED lacks 16384, GM lacks 32768.
    data = without(without(synthetic(), ["lampi-tcp-ed"], [16384]), ["lampi-gm"], [32768])
    assert as_dict(lampi_predictions(data))[KEYS[3]] == pytest.approx(1.8)


def test_drop_is_one_when_every_la_mpi_stack_drops():
    # GM 740 -> 700 now drops too; MPICH-GM still rises (600 -> 820) and does not count.
    data = with_value(synthetic(), "lampi-gm", 32768, "mbps", 700.0)
    assert as_dict(lampi_predictions(data))[KEYS[6]] == 1


def test_drop_is_zero_when_equal():
    data = with_value(synthetic(), "lampi-gm", 32768, "mbps", 700.0)
    data = with_value(data, "lampi-tcp", 32768, "mbps", 900.0)  # 900 -> 900: no drop
    assert as_dict(lampi_predictions(data))[KEYS[6]] == 0


def test_drop_only_looks_at_stacks_with_both_sizes():
    data = without(synthetic(), ["lampi-gm"], [32768])  # the rising stack lacks 32768
    assert as_dict(lampi_predictions(data))[KEYS[6]] == 1
    data = without(synthetic(), ["lampi-tcp", "lampi-tcp-ed", "lampi-gm"], [16384])
    pred = as_dict(lampi_predictions(data))
    assert KEYS[6] not in pred and KEYS[3] not in pred and KEYS[2] in pred


def test_missing_stacks_leave_rows_out():
    data = synthetic()
    no_gm = as_dict(lampi_predictions(without(data, ["lampi-gm"])))
    assert list(no_gm) == [KEYS[2], KEYS[3], KEYS[4], KEYS[6], KEYS[8], KEYS[9]]
    assert [no_gm[k] for k in no_gm] == pytest.approx([8.0, 2.0, 900.0, 1, 940.0, -4.5])
    only_gm = as_dict(lampi_predictions(data[data["stack"] == "lampi-gm"]))
    assert only_gm == pytest.approx({KEYS[3]: 1.5, KEYS[5]: 740.0, KEYS[6]: 0, KEYS[7]: 915.0})
    only_mpich = lampi_predictions(data[data["stack"] == "mpich-gm"])
    assert only_mpich.empty and list(only_mpich.columns) == PREDICTION_COLUMNS
    empty = lampi_predictions(data.iloc[:0])
    assert empty.empty and list(empty.columns) == PREDICTION_COLUMNS


def test_missing_message_sizes_leave_rows_out():
    pred = as_dict(lampi_predictions(without(synthetic(), ["lampi-tcp"], [65536, 2097152])))
    assert set(KEYS) - set(pred) == {KEYS[1], KEYS[8], KEYS[9]}
    # A sweep stopped at 64 KB: no 2 MB rows.
    pred = as_dict(lampi_predictions(without(synthetic(), list(STACKS), [2097152])))
    assert list(pred) == KEYS[:7]
    # Sizes above the eager range only: no saturation row.
    pred = as_dict(lampi_predictions(without(synthetic(), ["lampi-gm"], [4, 1024, 16384])))
    assert KEYS[5] not in pred and KEYS[0] not in pred
    assert not pd.DataFrame(list(pred.values())).isna().any().any()


def test_duplicate_sizes_are_averaged_and_stack_text_is_normalised():
    data = synthetic()
    extra = data[(data["stack"] == "lampi-tcp") & (data["msg_bytes"] == 4)].copy()
    extra["latency_us"] = 22.0  # mean of 20 and 22 is 21
    data = pd.concat([data, extra], ignore_index=True)
    data["stack"] = " " + data["stack"].str.upper()
    pred = as_dict(lampi_predictions(data))
    assert pred[KEYS[0]] == pytest.approx(21.0 - 35.0)
    assert pred[KEYS[2]] == pytest.approx((6 + 5 + 12) / 3)


@pytest.mark.parametrize("column", LAMPI_COLUMNS)
def test_missing_column_raises_input_error(column):
    with pytest.raises(InputError, match=column):
        lampi_predictions(synthetic().drop(columns=[column]))


def test_non_numeric_value_raises_input_error():
    bad = synthetic().astype({"mbps": object})
    bad.loc[3, "mbps"] = "fast"
    with pytest.raises(InputError, match="mbps"):
        lampi_predictions(bad)


def test_gap_scales():
    scale = list(lampi_predictions(synthetic())["scale"])
    # By hand: max(20, 35); max(640, 650); the larger mean over 4, 1024, 16384 B: ED
    # (27 + 45 + 212) / 3 against TCP (20 + 40 + 200) / 3; max(935.5, 940) at 2 MB.
    assert [scale[i] for i in (0, 1, 2, 9)] == pytest.approx([35.0, 650.0, 284 / 3, 940.0])
    assert all(scale[i] != scale[i] for i in range(3, 9))  # NaN: not gaps


def _labels(ax):
    return [line.get_label() for line in ax.get_lines() if not line.get_label().startswith("_")]


def test_lampi_latency_figure():
    ax = lampi_latency_figure(synthetic()).axes[0]
    assert _labels(ax)[:4] == ["LA-MPI-TCP", "LA-MPI-TCP-ED", "LA-MPI-GM", "MPICH-GM"]
    assert ax.get_xscale() == "log" and ax.xaxis.get_transform().base == 2
    assert ax.get_xlabel() == "Message size (bytes)"
    assert ax.get_ylabel() == "One-way latency (µs)"
    assert "seed 003 Fig. 3" in ax.get_title()
    tcp = ax.get_lines()[0]
    assert list(tcp.get_xdata()) == [4, 1024, 16384, 32768, 65536]  # up to 64 KB
    assert list(tcp.get_ydata()) == [20.0, 40.0, 200.0, 360.0, 640.0]
    with pytest.raises(ValueError, match="latency_us"):
        lampi_latency_figure(synthetic()[lambda d: d["msg_bytes"] > 65536])


def test_lampi_bw_figure():
    ax = lampi_bw_figure(synthetic()).axes[0]
    assert _labels(ax)[:4] == ["LA-MPI-TCP", "LA-MPI-TCP-ED", "LA-MPI-GM", "MPICH-GM"]
    assert ax.get_ylabel() == "Unidirectional bandwidth (Mbit/s)"
    assert "Fig. 4" in ax.get_title()
    assert ax.get_xscale() == "log" and ax.xaxis.get_transform().base == 2
    gm = ax.get_lines()[2]
    assert list(gm.get_xdata()) == list(SIZES)  # the whole range
    assert list(gm.get_ydata()) == [2.5, 480.0, 740.0, 820.0, 790.0, 915.0]
    assert any("line rate" in label for label in _labels(ax))
    ax = lampi_bw_figure(synthetic()[lambda d: d["stack"].str.endswith("gm")]).axes[0]
    assert _labels(ax)[:2] == ["LA-MPI-GM", "MPICH-GM"]
    assert not any("line rate" in label for label in _labels(ax))


def test_cli_end_to_end(tmp_path, results_folder, run_report):
    results = results_folder(synthetic())
    proc = run_report(SCENARIO, "--results", str(results))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert sorted(os.listdir(results)) == ["data.csv", f"{SCENARIO}-bw.png", f"{SCENARIO}.png",
                                           "summary.csv"]
    for name in (f"{SCENARIO}.png", f"{SCENARIO}-bw.png"):
        assert (results / name).read_bytes()[:8] == PNG_MAGIC
    sim = summary_dict(results)
    assert [sim[k] for k in KEYS] == pytest.approx(EXPECTED)
    out = proc.stdout
    assert "no reference rows" not in out and "n=10 median |err|" in out
    line = next(s for s in out.splitlines() if "stack=lampi-tcp-ed-vs-tcp;msg=2097152" in s)
    # paper -20 Mbit/s: (-4.5 + 20) / 940
    assert line.split() == ["stack=lampi-tcp-ed-vs-tcp;msg=2097152", "gap_mbps", "-4.5", "-20",
                            "+1.6%"]


def test_sample_fixture_in_process(tmp_path, capsys, no_figures):
    results = tmp_path / "results"
    results.mkdir()
    shutil.copy(FIXTURES / "lampi_latency_bandwidth.csv", results / "data.csv")
    assert main([SCENARIO, "--results", str(results)]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and "n=10 median |err|" in captured.out
    assert sorted(os.listdir(results)) == ["data.csv", "summary.csv"]
    pred = summary_dict(results)
    # From the sample: 24.245 - 36.554, 641.860 - 652.192, ED - TCP summed over the 13 sizes
    # 4..16384 is 91.04, max(360.056/185.077, 374.146/192.077, 377.640/250.329) (TCP-ED),
    # 928.442 (16384), 900.143 (2048), GM rises 743.621 -> 820.284 so no drop, 916.103,
    # 937.213, 936.480 - 937.213.
    assert [pred[k] for k in KEYS] == pytest.approx(
        [-12.309, -10.332, 91.04 / 13, 374.146 / 192.077, 928.442, 900.143, 0, 916.103,
         937.213, -0.733], abs=1e-6)


def test_partial_run_writes_fewer_rows(tmp_path, capsys, no_figures, results_folder):
    results = results_folder(without(synthetic(), ["lampi-gm"]))
    assert main([SCENARIO, "--results", str(results)]) == 0
    summary = pd.read_csv(results / "summary.csv")
    assert len(summary) == 10 and summary["sim_value"].notna().sum() == 6


def test_cli_missing_columns_exit_2_with_one_line(tmp_path, results_folder, run_report):
    results = results_folder(synthetic().drop(columns=["stack", "mbps"]))
    proc = run_report(SCENARIO, "--results", str(results))
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "stack" in lines[0] and "mbps" in lines[0] and "data.csv" in lines[0]
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    assert os.listdir(results) == ["data.csv"]


def test_non_numeric_value_exits_2(tmp_path, capsys, results_folder):
    text = (",".join(COLUMNS) + "\n"
            "lampi-tcp,gige,pro1000mt,h,4,24.2,2.3,20,1000,0.0\n"
            "lampi-tcp,gige,pro1000mt,h,eight,24.3,4.6,20,1000,0.0\n")
    results = results_folder(text)
    assert main([SCENARIO, "--results", str(results)]) == 2
    captured = capsys.readouterr()
    assert len(captured.err.strip().splitlines()) == 1 and "msg_bytes" in captured.err
    assert captured.out == ""
    assert os.listdir(results) == ["data.csv"]
