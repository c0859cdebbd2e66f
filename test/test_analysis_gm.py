"""Tests of the Myrinet analysis (seed 001): PCI DMA, gm_allsize and logp_test.

Three small data sets are built here; every expected value is worked out by hand below from
their numbers, independently of the code under test.

PCI DMA (``myrinet-pci-dma``): one row per gm_debug test; the metrics are data columns.

gm_allsize (``myrinet-gm-allsize``), MB/s per message size and mode:

- ``uni`` rises to 64 at 1024, dips 4 % to 61.44 at 2048 (61.44 >= 0.95 * 64 = 60.8: not a
  dropout), reaches 80 at 4096 (two runs, 78 and 82, averaged), falls to 64 at 8192 (two runs,
  60 and 68; 64 < 0.95 * 80 = 76: the dropout, after 4096), then peaks at 102.4 at 64K. One-way
  latency of 1 byte: 10.0 us.
- ``bi`` rises monotonically to its peak 50.0 (no dropout); 1-byte latency 12.5 us.
- ``logp`` rises monotonically to 68.0.

logp_test (``myrinet-gm-logp``), time per send (us) per burst:

- msg 8, RTT 30 us. delta 0: 1.5 at bursts 1, 2, 8, 10 and 1.52 at 4 (within 2 % = 0.03 of
  1.5), then 1.54 at 12 (out), rising to 11.0 at 512 and 11.5 at 1024 (two runs, 11.25 and
  11.75). So Os = 1.5, transition = 10, g = (1024 * 11.5 - 512 * 11.0) / 512 = 6144 / 512 = 12.
  delta 8 (< g): 11.75 at 512, 11.875 at 1024: gap (12160 - 6016) / 512 = 12.
  delta 32: 33.0 at 512, 33.5 at 1024: g' = (34304 - 16896) / 512 = 34.
  delta 64: 64.0 at 512, 64.5 at 1024: g' = (66048 - 32768) / 512 = 65.
  The largest delta above g is 64: Or = 65 - 64 - 1.5 = -0.5, L = 30 / 2 + 0.5 - 1.5 = 14.
- msg 1024, RTT 60 us, delta 0 only: 3.0 at bursts 1 and 2, 20.0 at 512, 21.0 at 1024. Os = 3,
  transition = 2, g = (21504 - 10240) / 512 = 22; no delta > g, so Or and L are NaN, and the
  figure's L with Or taken as 0 is 60 / 2 - 3 = 27.
"""

import math
import os
import sys
import warnings
from pathlib import Path

import pandas as pd
import pytest


from analysis import gm
from analysis.io import read_data, reference_dir, write_csv_atomic
from analysis.labels import nic_label
from analysis.plots import (gm_allsize_figure, gm_latency_figure, logp_figure,
                            logp_size_figure, pci_dma_figure)
from analysis.reference import load_reference, reference_for
from analysis.report import main
from analysis.summary import SUMMARY_COLUMNS, build_summary, evaluate, select

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SEEDS = reference_dir() / "seeds.csv"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
HOST = {"nic": "lanai9", "host": "p200-430vx-linux24", "pci": "32x33"}
NAN = math.nan

PCI_SCENARIO = "myrinet-pci-dma"
ALLSIZE_SCENARIO = "myrinet-gm-allsize"
LOGP_SCENARIO = "myrinet-gm-logp"

# gm_debug tests: (test, read MB/s, write MB/s).
DMA = [("1st", 104.2, 112.9), ("2nd", 123.1, 127.5), ("3rd", 123.9, 128.2),
       ("4th", 124.4, 127.9)]

# gm_allsize: (msg_bytes, latency_us, mbytes_per_s) per mode; repeated sizes are two runs.
ALLSIZE = {
    "uni": [(1, 10.0, 0.1), (4, 10.0, 0.4), (16, 10.0, 1.6), (64, 12.8, 5.0),
            (256, 12.8, 20.0), (1024, 16.0, 64.0), (2048, 33.3, 61.44), (4096, 52.5, 78.0),
            (4096, 50.0, 82.0), (8192, 136.5, 60.0), (8192, 120.5, 68.0),
            (16384, 170.7, 96.0), (65536, 640.0, 102.4)],
    "bi": [(1, 12.5, 0.08), (4, 12.5, 0.32), (16, 12.5, 1.28), (64, 16.0, 4.0),
           (256, 21.3, 12.0), (1024, 41.0, 25.0), (4096, 113.8, 36.0), (16384, 341.3, 48.0),
           (65536, 1310.7, 50.0)],
    "logp": [(1, 11.0, 0.09), (16, 11.5, 1.4), (256, 16.0, 16.0), (1024, 25.6, 40.0),
             (4096, 68.3, 60.0), (16384, 245.8, 66.7), (65536, 963.8, 68.0)],
}

# logp_test: (msg_bytes, rtt_us, delta_us, [(burst, us_per_send), ...]); repeats are runs.
LOGP = [
    (8, 30.0, 0, [(1, 1.5), (2, 1.5), (4, 1.52), (8, 1.5), (10, 1.5), (12, 1.54), (16, 2.0),
                  (32, 6.0), (64, 9.0), (128, 10.5), (256, 10.75), (512, 11.0),
                  (1024, 11.25), (1024, 11.75)]),
    (8, 30.0, 8, [(1, 8.0), (512, 11.75), (1024, 11.875)]),
    (8, 30.0, 32, [(1, 33.0), (512, 33.0), (1024, 33.5)]),
    (8, 30.0, 64, [(1, 65.0), (512, 64.0), (1024, 64.5)]),
    (1024, 60.0, 0, [(1, 3.0), (2, 3.0), (512, 20.0), (1024, 21.0)]),
]

# Expected (config, metric, sim) of the seeds.csv rows of each scenario, in file order.
EXPECTED = {
    PCI_SCENARIO: [("pci=32x33;test=1st", "read_mbytes_per_s", 104.2),
                   ("pci=32x33;test=1st", "write_mbytes_per_s", 112.9),
                   ("pci=32x33;test=2nd", "read_mbytes_per_s", 123.1),
                   ("pci=32x33;test=2nd", "write_mbytes_per_s", 127.5)],
    ALLSIZE_SCENARIO: [("mode=logp", "peak_mbytes_per_s", 68.0),
                       ("mode=uni", "peak_mbytes_per_s", 102.4),
                       ("mode=bi", "peak_mbytes_per_s", 50.0),
                       ("mode=uni", "dropout_at_bytes", 4096.0),
                       ("mode=bi;msg=1", "latency_us", 12.5),
                       ("mode=uni;msg=1", "latency_us", 10.0)],
    LOGP_SCENARIO: [("msg=8", "os_us", 1.5), ("msg=8", "g_us", 12.0), ("msg=8", "L_us", 14.0),
                    ("msg=8", "burst_transition", 10.0),
                    ("msg=8;delta=64", "g_prime_us", 65.0)],
}


def pci_dma_data():
    return pd.DataFrame([dict(HOST, test=t, transfer_bytes=4096, read_mbytes_per_s=r,
                              write_mbytes_per_s=w) for t, r, w in DMA])


def allsize_data():
    return pd.DataFrame([dict(HOST, mode=mode, msg_bytes=m, latency_us=lat, mbytes_per_s=thr,
                              reps=100)
                         for mode, points in ALLSIZE.items() for m, lat, thr in points])


def logp_data():
    return pd.DataFrame([dict(HOST, msg_bytes=m, delta_us=d, burst=b, us_per_send=t, rtt_us=rtt)
                         for m, rtt, d, points in LOGP for b, t in points])


DATA = {PCI_SCENARIO: pci_dma_data, ALLSIZE_SCENARIO: allsize_data, LOGP_SCENARIO: logp_data}
FIGURES = {PCI_SCENARIO: [f"{PCI_SCENARIO}.png"],
           ALLSIZE_SCENARIO: [f"{ALLSIZE_SCENARIO}.png", f"{ALLSIZE_SCENARIO}-latency.png"],
           LOGP_SCENARIO: [f"{LOGP_SCENARIO}.png", f"{LOGP_SCENARIO}-size.png"]}


def roundtrip(df, tmp_path, name="data.csv"):
    """``df`` written as CSV and read back the way the report reads data.csv."""
    return read_data(write_csv_atomic(df, tmp_path / name))


@pytest.fixture(scope="module")
def seeds():
    return load_reference(SEEDS)


def _summary(scenario, seeds):
    return build_summary(scenario, DATA[scenario](), seeds)


def _uni(data=None):
    data = allsize_data() if data is None else data
    return data[data["mode"] == "uni"]


# --- LogP parameters ------------------------------------------------------------------------


def test_logp_parameters_by_hand():
    data = logp_data()
    assert gm.os_us(data, 8) == 1.5
    assert gm.g_us(data, 8) == 12.0
    assert gm.gap_us(data, 8, 0) == 12.0
    assert gm.gap_us(data, 8, 8) == 12.0
    assert gm.g_prime_us(data, 8, 32) == 34.0
    assert gm.g_prime_us(data, 8, 64) == 65.0
    assert gm.g_prime_us(data, 8) == 65.0          # default: the largest delta above g
    assert gm.burst_transition(data, 8) == 10.0
    with pytest.warns(UserWarning, match="negative: the receive overhead is below"):
        assert gm.or_us(data, 8) == -0.5
    assert gm.rtt_us(data, 8) == 30.0
    assert gm.L_us(data, 8) == 14.0
    assert gm.os_us(data, 1024) == 3.0
    assert gm.g_us(data, 1024) == 22.0
    assert gm.burst_transition(data, 1024) == 2.0
    assert gm.deltas(data, 8) == [0.0, 8.0, 32.0, 64.0]
    assert gm.message_sizes(data) == [8.0, 1024.0]


def test_logp_curve_averages_repeated_bursts():
    curve = gm.logp_curve(logp_data(), 8, 0)
    assert list(curve.index) == [1, 2, 4, 8, 10, 12, 16, 32, 64, 128, 256, 512, 1024]
    assert curve.loc[1024.0] == 11.5
    assert gm.logp_curve(logp_data(), 8, 16).empty


def test_logp_table_for_figure_4():
    table = gm.logp_table(logp_data()).set_index("msg_bytes")
    row8, row1k = table.loc[8.0], table.loc[1024.0]
    assert (row8["rtt_us"], row8["os_us"], row8["g_us"], row8["or_us"]) == (30, 1.5, 12, -0.5)
    assert row8["L_us"] == row8["L_or0_us"] == 14.0 and not row8["or_assumed_zero"]
    assert row8["or_negative"] and not row1k["or_negative"]
    assert (row1k["rtt_us"], row1k["os_us"], row1k["g_us"]) == (60.0, 3.0, 22.0)
    assert math.isnan(row1k["or_us"]) and math.isnan(row1k["L_us"])
    assert row1k["L_or0_us"] == 27.0 and row1k["or_assumed_zero"]


def test_no_delta_above_g_gives_nan_or_and_latency():
    data = logp_data()
    with pytest.warns(UserWarning, match="no delta_us > g"):
        assert math.isnan(gm.or_us(data, 1024))
    with pytest.warns(UserWarning, match="no delta_us > g"):
        assert math.isnan(gm.L_us(data, 1024))
    # Only delays below g left for msg 8 (delta 8 < g = 12): no Or, no L, no default g'.
    low = data[data["delta_us"] <= 8]
    with pytest.warns(UserWarning):
        assert math.isnan(gm.or_us(low, 8))
    with pytest.warns(UserWarning):
        assert math.isnan(gm.L_us(low, 8))
    with pytest.warns(UserWarning):
        assert math.isnan(gm.g_prime_us(low, 8))
    assert gm.os_us(low, 8) == 1.5 and gm.g_us(low, 8) == 12.0


def test_logp_edge_cases_are_nan():
    data = logp_data()
    # A flat curve never leaves the plateau: no transition measured.
    flat = pd.DataFrame(dict(HOST, msg_bytes=8, delta_us=0, burst=[1, 2, 4], us_per_send=2.0,
                             rtt_us=20.0))
    with pytest.warns(UserWarning, match="no transition"):
        assert math.isnan(gm.burst_transition(flat))
    assert gm.os_us(flat) == 2.0            # one message size: msg may be omitted
    # One burst only at a delay: no gap.
    one = data[~((data["msg_bytes"] == 8) & (data["delta_us"] == 0) & (data["burst"] > 1))]
    with pytest.warns(UserWarning, match="only 1 burst"):
        assert math.isnan(gm.g_us(one, 8))
    with pytest.warns(UserWarning, match="no rows"):
        assert math.isnan(gm.os_us(data, 16))
    with pytest.warns(UserWarning, match="several|2"):
        assert math.isnan(gm.os_us(data))    # two message sizes and no msg given


@pytest.mark.parametrize("column", ["msg_bytes", "delta_us", "burst", "us_per_send"])
def test_logp_missing_column_is_nan_without_exception(column):
    data = logp_data().drop(columns=[column])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for fn in (gm.os_us, gm.g_us, gm.g_prime_us, gm.burst_transition, gm.or_us, gm.L_us):
            assert math.isnan(fn(data, 8)), fn.__name__
    assert any(column in str(w.message) for w in caught)
    assert gm.logp_table(data).empty or gm.logp_table(data)["g_us"].isna().all()


def test_logp_missing_rtt_gives_nan_latency_only():
    data = logp_data().drop(columns=["rtt_us"])
    with pytest.warns(UserWarning, match="rtt_us"):
        assert math.isnan(gm.L_us(data, 8))
    with pytest.warns(UserWarning, match="negative"):
        assert gm.or_us(data, 8) == -0.5


# --- gm_allsize dropout ------------------------------------------------------------------


def test_dropout_after_4096():
    assert gm.dropout_at_bytes(_uni()) == 4096.0


def test_dropout_averages_duplicates():
    # Raw rows 80 -> 70 would be a drop after 4096, but the two 8192 runs average 77
    # (>= 0.95 * 80 = 76); the drop comes after 8192 (60 < 0.95 * 77 = 73.15).
    curve = pd.DataFrame({"msg_bytes": [4096, 8192, 8192, 16384],
                          "mbytes_per_s": [80.0, 70.0, 84.0, 60.0]})
    assert gm.dropout_at_bytes(curve) == 8192.0
    # Unsorted input is sorted by size first.
    assert gm.dropout_at_bytes(curve.iloc[::-1]) == 8192.0


def test_no_drop_is_nan():
    bi = allsize_data().query("mode == 'bi'")
    with pytest.warns(UserWarning, match="never falls"):
        assert math.isnan(gm.dropout_at_bytes(bi))
    # A 4 % dip is not a dropout.
    dip = pd.DataFrame({"msg_bytes": [1024, 2048], "mbytes_per_s": [64.0, 61.44]})
    with pytest.warns(UserWarning):
        assert math.isnan(gm.dropout_at_bytes(dip))


def test_dropout_missing_columns_is_nan():
    curve = _uni().drop(columns=["mbytes_per_s", "latency_us"])
    with pytest.warns(UserWarning, match="throughput"):
        assert math.isnan(gm.dropout_at_bytes(curve))
    # Without mbytes_per_s the throughput comes from size / one-way latency.
    by_latency = pd.DataFrame({"msg_bytes": [1024, 2048, 4096],
                               "latency_us": [16.0, 25.6, 64.0]})   # 64, 80, 64 MB/s
    assert gm.dropout_at_bytes(by_latency) == 2048.0


# --- summary: evaluate and build_summary ----------------------------------------------------


def test_evaluate_logp_metrics_with_delta():
    data = logp_data()
    assert evaluate(data, "msg=8", "os_us") == 1.5
    assert evaluate(data, "msg=8;delta=64", "g_prime_us") == 65.0
    assert evaluate(data, "msg=8;delta=32", "g_prime_us") == 34.0
    assert evaluate(data, "msg=8;delta_us=32", "g_prime_us") == 34.0
    with pytest.warns(UserWarning, match="negative"):
        assert evaluate(data, "msg=8", "or_us") == -0.5
    assert evaluate(data, "msg=1024", "g_us") == 22.0
    assert evaluate(data, "nic=lanai9;msg=8", "L_us") == 14.0
    assert math.isnan(evaluate(data, "nic=lanai72;msg=8", "L_us"))
    with pytest.warns(UserWarning):
        assert math.isnan(evaluate(data, "msg=8;delta=16", "g_prime_us"))
    with pytest.warns(UserWarning):
        assert math.isnan(evaluate(data, "msg=1024", "L_us"))
    # rtt_us is a data column: the ordinary column lookup at msg applies.
    assert evaluate(data, "msg=1024", "rtt_us") == 60.0


def test_delta_config_key_selects_delta_us():
    data = logp_data()
    assert len(select(data, {"delta": 64})) == 3
    assert len(select(data, {"delta_us": 64, "msg_bytes": 8})) == 3
    assert select(data, {"stack": "gm"}) is None
    assert select(allsize_data(), {"delta": 0}) is None


def test_logp_selection_spanning_two_nics_is_ambiguous():
    data = logp_data()
    both = pd.concat([data, data.assign(nic="lanai72")], ignore_index=True)
    with pytest.warns(UserWarning, match="2 curves"):
        assert math.isnan(evaluate(both, "msg=8", "os_us"))
    assert evaluate(both, "nic=lanai72;msg=8", "os_us") == 1.5


def test_evaluate_dropout_and_gm_curves():
    data = allsize_data()
    assert evaluate(data, "mode=uni", "dropout_at_bytes") == 4096.0
    with pytest.warns(UserWarning):
        assert math.isnan(evaluate(data, "mode=bi", "dropout_at_bytes"))
    with pytest.warns(UserWarning, match="3 curves"):
        assert math.isnan(evaluate(data, "", "dropout_at_bytes"))
    assert evaluate(data, "mode=uni", "peak_mbytes_per_s") == 102.4
    assert evaluate(data, "mode=bi;msg=1", "latency_us") == 12.5


def test_pci_dma_metrics_are_data_columns(tmp_path):
    data = roundtrip(pci_dma_data(), tmp_path)
    assert data["pci"].tolist() == ["32x33"] * 4
    assert evaluate(data, "pci=32x33;test=3rd", "read_mbytes_per_s") == 123.9
    assert evaluate(data, "pci=32x33;test=4th", "write_mbytes_per_s") == 127.9
    assert math.isnan(evaluate(data, "pci=64x66;test=1st", "read_mbytes_per_s"))
    # Two NICs and no nic key: two different values, no single answer.
    both = pd.concat([data, data.assign(nic="lanai72", read_mbytes_per_s=90.0)])
    assert math.isnan(evaluate(both, "pci=32x33;test=1st", "read_mbytes_per_s"))
    assert evaluate(both, "nic=lanai72;pci=32x33;test=1st", "read_mbytes_per_s") == 90.0


@pytest.mark.parametrize("scenario", [PCI_SCENARIO, ALLSIZE_SCENARIO, LOGP_SCENARIO])
def test_build_summary_one_row_per_reference_row(scenario, seeds, tmp_path):
    data = roundtrip(DATA[scenario](), tmp_path)
    summary = build_summary(scenario, data, seeds)
    rows = reference_for(scenario, seeds)
    assert list(summary.columns) == SUMMARY_COLUMNS
    assert len(summary) == len(rows) == len(EXPECTED[scenario])
    assert list(summary["config"]) == list(rows["config"])
    assert list(summary["metric"]) == list(rows["metric"])
    assert (summary["paper"] == "001").all()
    for row, (config, metric, sim) in zip(summary.to_dict("records"), EXPECTED[scenario]):
        assert (row["config"], row["metric"]) == (config, metric)
        assert math.isfinite(row["sim_value"]) and row["sim_value"] == pytest.approx(sim,
                                                                                     rel=1e-12)
        assert row["rel_err"] == pytest.approx((sim - row["ref_value"]) / row["ref_value"])


def test_logp_reference_values_and_errors(seeds):
    summary = _summary(LOGP_SCENARIO, seeds).set_index("metric")
    assert summary.loc["os_us", "ref_value"] == 1.28
    assert summary.loc["g_prime_us", "ref_value"] == 63.40
    assert summary.loc["burst_transition", "rel_err"] == pytest.approx((10 - 19) / 19)
    assert summary.loc["L_us", "rel_err"] == pytest.approx((14.0 - 12.8) / 12.8)


@pytest.mark.parametrize("scenario", [PCI_SCENARIO, ALLSIZE_SCENARIO, LOGP_SCENARIO])
def test_build_summary_on_unfit_data_is_nan(scenario, seeds):
    unfit = [None, pd.DataFrame(), pd.DataFrame({"nic": ["lanai9"], "x": [1.0]}),
             DATA[scenario]().iloc[:, :4]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for data in unfit:
            summary = build_summary(scenario, data, seeds)
            assert len(summary) == len(EXPECTED[scenario])
            assert summary["sim_value"].isna().all() and summary["rel_err"].isna().all()


def test_logp_summary_without_delta_above_g(seeds):
    data = logp_data()
    low = data[data["delta_us"] <= 8]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        summary = build_summary(LOGP_SCENARIO, low, seeds).set_index("metric")
    assert summary.loc["os_us", "sim_value"] == 1.5
    assert summary.loc["g_us", "sim_value"] == 12.0
    assert math.isnan(summary.loc["L_us", "sim_value"])
    assert math.isnan(summary.loc["g_prime_us", "sim_value"])


# --- labels, figures, report ---------------------------------------------------------------


def test_myrinet_nic_labels():
    assert nic_label("lanai9") == "LANai9"
    assert nic_label("lanai72") == "LANai 7.2"
    assert nic_label("lanai4") == "LANai 4"


def _labels(ax):
    return [line.get_label() for line in ax.get_lines() if not line.get_label().startswith("_")]


def test_pci_dma_figure_content(seeds):
    fig = pci_dma_figure(pci_dma_data(), _summary(PCI_SCENARIO, seeds), "t")
    ax = fig.axes[0]
    assert ax.get_ylabel() == "DMA rate (MB/s)"
    assert ax.get_xlabel() == "gm_debug DMA test (4096-byte transfers)"
    assert ax.get_title() == "t"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1st", "2nd", "3rd", "4th"]
    heights = sorted(p.get_height() for p in ax.patches)   # no paper bar for 3rd and 4th
    sim = [v for _, r, w in DMA for v in (r, w)]
    assert heights == sorted(sim + [105.0, 113.0, 124.0, 128.0])
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["read (host→NIC, send), simulated",
                      "read (host→NIC, send), paper (Table 1)",
                      "write (NIC→host, receive), simulated",
                      "write (NIC→host, receive), paper (Table 1)"]


def test_gm_allsize_figures_content(seeds):
    summary = _summary(ALLSIZE_SCENARIO, seeds)
    ax = gm_allsize_figure(allsize_data(), summary, "t").axes[0]
    assert ax.get_xscale() == "log" and ax.get_ylabel() == "Throughput (MB/s)"
    assert ax.get_xlabel() == "Message size (bytes)"
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert {"uni (simulated)", "bi (simulated)", "logp (simulated)"} <= set(lines)
    assert max(lines["uni (simulated)"].get_ydata()) == 102.4
    assert list(lines["uni (simulated)"].get_ydata())[7:9] == [80.0, 64.0]   # runs averaged
    for mode, peak in (("uni", 107.0), ("bi", 52.0), ("logp", 70.0)):
        line = lines[f"paper {mode} peak {peak:g}"]
        assert line.get_linestyle() == "--" and tuple(line.get_ydata()) == (peak, peak)
        assert line.get_color() == lines[f"{mode} (simulated)"].get_color()
    assert tuple(lines["paper uni dropout 4096 B"].get_xdata()) == (4096.0, 4096.0)

    ax = gm_latency_figure(allsize_data(), summary, "t").axes[0]
    assert (ax.get_xscale(), ax.get_yscale()) == ("log", "log")
    assert ax.get_ylabel() == "One-way latency (µs)"
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert list(lines["uni (simulated)"].get_ydata())[0] == 10.0
    assert (list(lines["paper uni 1 B: 11 µs"].get_xdata()),
            list(lines["paper uni 1 B: 11 µs"].get_ydata())) == ([1], [11.0])
    assert "paper bi 1 B: 12 µs" in lines


def test_logp_figures_content(seeds):
    summary = _summary(LOGP_SCENARIO, seeds)
    ax = logp_figure(logp_data(), summary, "t").axes[0]
    assert ax.get_xscale() == "log"
    assert ax.get_xlabel() == "Burst size (messages)"
    assert ax.get_ylabel() == "Average time per send (µs)"
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert [f"δ = {d} µs (simulated)" for d in (0, 8, 32, 64)] == _labels(ax)[:4]
    assert list(lines["δ = 0 µs (simulated)"].get_xdata())[-1] == 1024.0
    assert lines["δ = 0 µs (simulated)"].get_ydata()[-1] == 11.5
    for label, value in (("paper Os 1.28 µs", 1.28), ("paper g 13.2 µs", 13.2),
                         ("paper g′ (δ = 64 µs) 63.4 µs", 63.40)):
        assert tuple(lines[label].get_ydata()) == (value, value), label
    assert lines["paper g′ (δ = 64 µs) 63.4 µs"].get_color() == \
        lines["δ = 64 µs (simulated)"].get_color()
    assert tuple(lines["paper transition 19"].get_xdata()) == (19.0, 19.0)

    ax = logp_size_figure(logp_data(), summary, "t").axes[0]
    assert (ax.get_xscale(), ax.get_yscale()) == ("log", "log")
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert list(lines["RTT"].get_ydata()) == [30.0, 60.0]
    assert list(lines["gap g"].get_ydata()) == [12.0, 22.0]
    mixed = "L = RTT/2 − Or − Os (Or taken as 0 where no δ > g data: open markers)"
    assert list(lines[mixed].get_ydata()) == [14.0, 27.0]
    assert list(lines["paper L 12.8 µs (8 B)"].get_ydata()) == [12.8]
    assert list(lines["paper g 13.2 µs (8 B)"].get_ydata()) == [13.2]
    # Without delays above g anywhere, L is RTT/2 - Os everywhere and the legend says so.
    low = logp_data().query("delta_us <= 8")
    ax = logp_size_figure(low, None).axes[0]
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert list(lines["L = RTT/2 − Os (Or taken as 0: no δ > g data)"].get_ydata()) == \
        [13.5, 27.0]


@pytest.mark.parametrize("scenario", [PCI_SCENARIO, ALLSIZE_SCENARIO, LOGP_SCENARIO])
def test_report_writes_summary_and_figures(scenario, tmp_path, capsys):
    results = tmp_path / "results"
    write_csv_atomic(DATA[scenario](), results / "data.csv")
    assert main([scenario, "--results", str(results)]) == 0
    assert sorted(os.listdir(results)) == sorted(["data.csv", "summary.csv"]
                                                 + FIGURES[scenario])
    for name in FIGURES[scenario]:
        assert (results / name).read_bytes()[:8] == PNG_MAGIC
    summary = pd.read_csv(results / "summary.csv", dtype={"paper": str})
    assert len(summary) == len(EXPECTED[scenario]) and summary["sim_value"].notna().all()
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1].startswith(f"n={len(EXPECTED[scenario])} median |err|=")
    metric = EXPECTED[scenario][0][1]
    assert any(line.split()[1:2] == [metric] for line in out)


@pytest.mark.parametrize("scenario", [PCI_SCENARIO, ALLSIZE_SCENARIO, LOGP_SCENARIO])
def test_report_figures_without_reference_rows(scenario, tmp_path, capsys):
    results = tmp_path / "results"
    write_csv_atomic(DATA[scenario](), results / "data.csv")
    ref = str(FIXTURES / "reference_small.csv")
    assert main([scenario, "--results", str(results), "--reference", ref]) == 0
    assert sorted(os.listdir(results)) == sorted(["data.csv"] + FIGURES[scenario])
    assert f"no reference rows for scenario {scenario}" in capsys.readouterr().out


def test_report_skips_figure_without_columns(tmp_path, capsys):
    results = tmp_path / "results"
    write_csv_atomic(logp_data().drop(columns=["burst"]), results / "data.csv")
    ref = str(FIXTURES / "reference_small.csv")
    with pytest.warns(UserWarning, match="burst"):
        assert main([LOGP_SCENARIO, "--results", str(results), "--reference", ref]) == 0
    assert os.listdir(results) == ["data.csv"]
