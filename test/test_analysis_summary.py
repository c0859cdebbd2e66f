"""Tests of analysis.summary: reference rows against synthetic data with known answers."""

import math
import sys
import warnings
from pathlib import Path

import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analysis.io import read_data, shared_dir  # noqa: E402
from analysis.reference import load_reference, reference_for  # noqa: E402
from analysis.summary import (SUMMARY_COLUMNS, build_summary, error_stats,  # noqa: E402
                              evaluate, rel_err, select)

FIXTURES = Path(__file__).resolve().parent / "fixtures"
NAN = math.nan
SK1500 = "nic=sknet;mtu=1500;sockbuf=131072"
INTERP_8192 = 80.0 + (8192 - 1000) * (327.62 - 80.0) / (16381 - 1000)

# (config, metric, sim, ref) for the 14 test-netpipe rows of reference_small.csv, in order.
EXPECTED = [
    (SK1500, "peak_mbps", 400.0, 500.0),
    (SK1500, "latency_us", 50.0, 40.0),
    ("nic=gnic2;mtu=1500;sockbuf=131072", "latency_us", 140.0, 140.0),
    (SK1500 + ";msg=16384", "mbps", 327.68, 320.0),
    (SK1500 + ";msg=8192", "mbps", INTERP_8192, 200.0),
    (SK1500 + ";msg=16384", "ratio_vs_gnic2", 327.68 / 256.0, 1.32),
    (SK1500, "ratio_vs_gnic2", 400.0 / 320.0, 1.3),
    ("nic=sknet;mtu=9000;sockbuf=131072", "ratio_vs_mtu1500", 600.0 / 400.0, 1.42),
    ("nic=acenic;mtu=1500;sockbuf=131072", "peak_mbps", NAN, 301.0),
    ("nic=sknet;mtu=1500;stack=lam", "peak_mbps", NAN, 210.0),
    ("stack=lam", "eager_limit_bytes", NAN, 131072.0),
    (SK1500, "peak_mbps", 400.0, 500.0),
    ("", "pivot_bytes", NAN, 12288.0),
    (SK1500 + ";msg=200000", "mbps", NAN, 300.0),
]


@pytest.fixture(scope="module")
def data():
    return read_data(FIXTURES / "netpipe_small.csv")


@pytest.fixture(scope="module")
def ref():
    return load_reference(FIXTURES / "reference_small.csv")


@pytest.fixture(scope="module")
def seeds():
    path = shared_dir() / "reference" / "seeds.csv"
    if not path.is_file():
        pytest.skip(f"shared reference table not found at {path}")
    return load_reference(path)


def _same(a, b):
    return (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, rel=1e-9)


def test_summary_values(data, ref):
    summary = build_summary("test-netpipe", data, ref)
    assert list(summary.columns) == SUMMARY_COLUMNS
    assert len(summary) == len(EXPECTED)
    for row, (config, metric, sim, ref_value) in zip(summary.to_dict("records"), EXPECTED):
        assert (row["config"], row["metric"]) == (config, metric)
        assert _same(row["sim_value"], sim), (config, metric, row["sim_value"], sim)
        assert row["ref_value"] == ref_value
        assert _same(row["rel_err"], (sim - ref_value) / ref_value), (config, metric)
    assert set(summary["paper"]) == {"000", "001"}
    assert list(summary["experiment"][:2]) == ["tcp-netpipe", "tcp-netpipe"]


def test_rel_err_is_signed_fraction(data, ref):
    summary = build_summary("test-netpipe", data, ref)
    assert summary.loc[0, "rel_err"] == pytest.approx(-0.2)
    assert summary.loc[1, "rel_err"] == pytest.approx(0.25)
    assert summary.loc[2, "rel_err"] == 0.0
    assert summary.loc[5, "rel_err"] == pytest.approx((1.28 - 1.32) / 1.32)
    assert summary.loc[7, "rel_err"] == pytest.approx(0.08 / 1.42)
    assert rel_err(1.0, 0.0) != rel_err(1.0, 0.0)  # NaN, not inf
    assert math.isnan(rel_err(NAN, 3.0))


def test_error_stats(data, ref):
    stats = error_stats(build_summary("test-netpipe", data, ref))
    errs = sorted(abs((s - r) / r) for _, _, s, r in EXPECTED if not math.isnan(s))
    assert stats["n"] == 9 == len(errs)
    assert stats["median_abs"] == pytest.approx(errs[4])
    assert stats["median_abs"] == pytest.approx(0.05 / 1.3)
    assert stats["max_abs"] == pytest.approx(0.25)
    empty = error_stats(pd.DataFrame({"rel_err": [NAN]}))
    assert empty["n"] == 0 and math.isnan(empty["median_abs"]) and math.isnan(empty["max_abs"])


def test_select_compares_numbers_and_text(data):
    assert len(select(data, {"nic": "sknet", "mtu": 1500})) == 8
    assert len(select(data, {"nic": "sknet", "mtu": "1500"})) == 8
    assert len(select(data, {"pci": "32x33", "mtu": 9000})) == 3
    assert len(select(data, {"mtu": "jumbo"})) == 0
    assert select(data, {"stack": "lam"}) is None
    assert len(select(data, {})) == len(data)


def test_ambiguous_selection_is_nan_with_warning(data):
    other = data.assign(pci="64x66")
    both = pd.concat([data, other], ignore_index=True)
    with pytest.warns(UserWarning, match="2 curves"):
        assert math.isnan(evaluate(both, SK1500, "peak_mbps"))
    assert evaluate(both, SK1500 + ";pci=64x66", "peak_mbps") == 400.0


def test_latency_over_several_curves_is_their_mean(data):
    # Two socket buffers with 1-byte latencies 50 and 70 us: a config naming neither gives 60.
    curve = select(data, {"nic": "sknet", "mtu": 1500, "sockbuf": 131072})
    slower = curve.assign(sockbuf=524288)
    small = slower["block_bytes"] == slower["block_bytes"].min()
    slower.loc[small, "oneway_us"] = 70.0
    both = pd.concat([curve, slower], ignore_index=True)
    assert evaluate(both, "nic=sknet;mtu=1500;msg=1", "latency_us") == pytest.approx(60.0)
    assert evaluate(both, "nic=sknet;sockbuf=524288", "latency_us") == pytest.approx(70.0)
    assert math.isnan(evaluate(both, "nic=acenic", "latency_us"))


def test_never_raises_on_unfit_data(ref):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for data in (None, pd.DataFrame(), pd.DataFrame({"nic": ["sknet"], "x": [1.0]})):
            summary = build_summary("test-netpipe", data, ref)
            assert len(summary) == 14
            assert summary["sim_value"].isna().all() and summary["rel_err"].isna().all()


def test_metric_stored_as_data_column():
    data = pd.DataFrame({"stack": ["lam", "mpich"], "eager_limit_bytes": [131072, 128000]})
    assert evaluate(data, "stack=mpich", "eager_limit_bytes") == 128000.0
    assert math.isnan(evaluate(data, "stack=mvich", "eager_limit_bytes"))


def test_real_seeds_tcp_netpipe(data, seeds):
    summary = build_summary("gige-tcp-netpipe", data, seeds)
    rows = reference_for("gige-tcp-netpipe", seeds)
    assert len(summary) == 12
    assert list(summary["config"]) == list(rows["config"])
    assert list(summary["metric"]) == list(rows["metric"])
    assert (summary["paper"] == "000").all()
    ratio = summary[summary["metric"] == "ratio_vs_gnic2"].iloc[0]
    assert ratio["sim_value"] == pytest.approx(1.28)
    assert ratio["rel_err"] == pytest.approx((1.28 - 1.32) / 1.32)
    # No acenic curve in the fixture: its 4 rows and the ratio against it have no value.
    acenic = summary[summary["config"].str.startswith("nic=acenic")
                     | (summary["metric"] == "ratio_vs_acenic")]
    assert len(acenic) == 5 and acenic["sim_value"].isna().all()
    assert summary["sim_value"].notna().sum() == 7


def test_real_seeds_every_scenario_never_raises(data, seeds):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for scenario in seeds["scenario"].unique():
            summary = build_summary(scenario, data, seeds)
            assert len(summary) == (seeds["scenario"] == scenario).sum()
    mpi = build_summary("gige-mpi-netpipe", data, seeds)
    assert len(mpi) == 25 and mpi["sim_value"].isna().all()
