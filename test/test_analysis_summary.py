"""Tests of analysis.summary: reference rows against synthetic data with known answers."""

import math
import warnings
from pathlib import Path

import pandas as pd
import pytest


from analysis import netpipe
from analysis.io import read_data, reference_dir
from analysis.reference import load_reference, reference_for
from analysis.summary import (SUMMARY_COLUMNS, build_summary, error_stats,
                              evaluate, rel_err, select)

FIXTURES = Path(__file__).resolve().parent / "fixtures"
NAN = math.nan
SK1500 = "nic=sknet;mtu=1500;sockbuf=131072"
# The fixture's pivot_bytes row selects all three curves: NaN, with a warning.
AMBIGUOUS_PIVOT = "ignore:.*pivot_bytes. selection spans 3 curves:UserWarning"
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
    ("", "pivot_bytes", NAN, 12288.0),  # "" selects all 3 curves: ambiguous
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
    return load_reference(reference_dir() / "seeds.csv")


def _same(a, b):
    return (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, rel=1e-9)


def test_summary_values(data, ref):
    with pytest.warns(UserWarning, match="pivot_bytes: selection spans 3 curves"):
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


@pytest.mark.filterwarnings(AMBIGUOUS_PIVOT)
def test_rel_err_is_signed_fraction(data, ref):
    summary = build_summary("test-netpipe", data, ref)
    assert summary.loc[0, "rel_err"] == pytest.approx(-0.2)
    assert summary.loc[1, "rel_err"] == pytest.approx(0.25)
    assert summary.loc[2, "rel_err"] == 0.0
    assert summary.loc[5, "rel_err"] == pytest.approx((1.28 - 1.32) / 1.32)
    assert summary.loc[7, "rel_err"] == pytest.approx(0.08 / 1.42)
    assert rel_err(1.0, 0.0) != rel_err(1.0, 0.0)  # NaN, not inf
    assert math.isnan(rel_err(NAN, 3.0))


@pytest.mark.filterwarnings(AMBIGUOUS_PIVOT)
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


# --- MPICH-GM metrics (seed 001 sec. 4.5): plateau_mbytes_per_s, pivot_bytes ---------------

MPICH_GM_REF = """paper,experiment,scenario,config,metric,value,approx,where
001,mpich-gm,myrinet-mpich-gm,msg=4096..12288,plateau_mbytes_per_s,19,1,sec4.5
001,mpich-gm,myrinet-mpich-gm,,pivot_bytes,12288,1,sec4.5
001,mpich-gm,myrinet-mpich-gm,msg=16777216,peak_mbytes_per_s,106,1,sec4.5
001,mpich-gm,myrinet-mpich-gm,msg=1,latency_us,18,1,sec4.5
"""

# (block bytes, MB/s) of a NetPIPE-like MPICH-GM curve: a latency-dominated start (17.1 us for
# blocks 1-3), a flat 19 MB/s plateau from 4093 to 12291 bytes, a steep climb after it, the
# 106 MB/s peak at 16 MB and the drop beyond it.
MPICH_GM_POINTS = (
    [(b, b / 17.1) for b in (1, 2, 3)]
    + [(64, 3.2)]
    + [(b, 16.0) for b in (1021, 1024, 1027)]
    + [(b, 18.0) for b in (2045, 2048, 2051)]
    + [(b, 19.0) for b in (4093, 4096, 4099, 6141, 6144, 6147, 8189, 8192, 8195, 12285, 12288,
                          12291)]
    + [(b, 40.0) for b in (16381, 16384, 16387)]
    + [(b, 60.0) for b in (24573, 24576, 24579)]
    + [(b, 75.0) for b in (32765, 32768, 32771)]
    + [(b, 90.0) for b in (65533, 65536, 65539)]
    + [(b, 100.0) for b in (131069, 131072, 131075)]
    + [(b, 104.0) for b in (1048573, 1048576, 1048579)]
    + [(b, 106.0) for b in (16777213, 16777216, 16777219)]
    + [(33554432, 60.0)]
)


def _mpich_gm_curve(points=MPICH_GM_POINTS):
    """A myrinet-mpich-gm data frame (one curve) with the given (block, MB/s) points."""
    blocks = [b for b, _ in points]
    mbytes = [m for _, m in points]
    return pd.DataFrame({
        "nic": "m2m-pci64a", "host": "piii450-linux22", "pci": "32x33", "stack": "mpich-gm",
        "eager_limit_bytes": 16384, "block_bytes": blocks,
        "oneway_us": [b / m if m else math.inf  # bytes / (MB/s) = us
                      for b, m in zip(blocks, mbytes)],
        "mbps": [8.0 * m for m in mbytes], "reps": 100,
    })


@pytest.fixture()
def mpich_gm():
    return _mpich_gm_curve()


def test_plateau_mean_over_range(mpich_gm):
    # Blocks in [4096, 12288]: 4096 4099 6141 6144 6147 8189 8192 8195 12285 12288, all at
    # 19 MB/s: the mean is 19 (4093 and 12291, also at 19, lie outside).
    assert evaluate(mpich_gm, "msg=4096..12288", "plateau_mbytes_per_s") == pytest.approx(19.0)
    # Blocks in [12285, 16384]: 12285 12288 12291 at 19, 16381 16384 at 40 -> 137 / 5 = 27.4.
    assert evaluate(mpich_gm, "msg=12285..16384", "plateau_mbytes_per_s") == pytest.approx(27.4)
    # A single size: the throughput there (16384 -> 40 MB/s); a range without any block: NaN.
    assert evaluate(mpich_gm, "msg=16384", "plateau_mbytes_per_s") == pytest.approx(40.0)
    assert math.isnan(evaluate(mpich_gm, "msg=13000..16000", "plateau_mbytes_per_s"))
    assert math.isnan(evaluate(mpich_gm, "msg=12288..4096", "plateau_mbytes_per_s"))
    assert math.isnan(evaluate(mpich_gm, "", "plateau_mbytes_per_s"))


def test_plateau_bounds_inclusive_and_repeats_averaged():
    # 4096 measured twice (18 and 20 -> 19), 6144 at 21, 8192 at 17, 16384 at 50 MB/s.
    curve = _mpich_gm_curve([(4096, 18.0), (4096, 20.0), (6144, 21.0), (8192, 17.0),
                             (16384, 50.0)])
    # [4096, 8192] holds 4096, 6144, 8192 (each once): (19 + 21 + 17) / 3 = 19.
    assert evaluate(curve, "msg=4096..8192", "plateau_mbytes_per_s") == pytest.approx(19.0)
    # [4097, 8191]: 6144 alone -> 21; 7168 sits halfway between 6144 and 8192 -> (21 + 17) / 2.
    assert evaluate(curve, "msg=4097..8191", "plateau_mbytes_per_s") == pytest.approx(21.0)
    assert evaluate(curve, "msg=7168", "plateau_mbytes_per_s") == pytest.approx(19.0)
    assert math.isnan(evaluate(curve, "msg=5000..6000", "plateau_mbytes_per_s"))


def test_pivot_ends_plateau_before_steepest_climb(mpich_gm):
    # Growth per doubling g = log2(T ratio) / log2(size ratio) between consecutive sizes
    # >= 1024 (T in MB/s):
    #   flat triplets and the plateau 4093..12291: g = 0
    #   1027 -> 2045:      log2(18/16)  / log2(2045/1027)   = 0.1699 / 0.9937 = 0.171
    #   2051 -> 4093:      log2(19/18)  / log2(4093/2051)   = 0.0780 / 0.9968 = 0.078
    #   12291 -> 16381:    log2(40/19)  / log2(16381/12291) = 1.0740 / 0.4144 = 2.592  <- max
    #   16387 -> 24573:    log2(60/40)  / log2(24573/16387) = 0.5850 / 0.5845 = 1.001
    #   24579 -> 32765:    log2(75/60)  / log2(32765/24579) = 0.3219 / 0.4147 = 0.776
    #   32771 -> 65533:    log2(90/75)  / log2(65533/32771) = 0.2630 / 0.9998 = 0.263
    #   65539 -> 131069:   log2(100/90) / 0.9999                               = 0.152
    #   131075 -> 1048573: log2(104/100) / 3.0000                              = 0.019
    #   1048579 -> 16777213: log2(106/104) / 4.0000                            = 0.007
    #   16777219 -> 33554432: negative
    # The steepest climb starts after the 12285/12288/12291 triplet, taken as one point at
    # its middle size (sizes within 1 % are one NetPIPE point): the pivot is 12288.
    assert evaluate(mpich_gm, "", "pivot_bytes") == 12288.0
    assert netpipe.pivot_bytes(mpich_gm) == 12288.0
    # The latency-dominated start (g <= 1: 1->2->3 g = 1, 3->64 g = 0.97, 64->1021 g = 0.58)
    # does not change it when included.
    assert netpipe.pivot_bytes(mpich_gm, min_bytes=0) == 12288.0
    # From 16384 on: the point {16384, 16387} (middle 16384) to 24573 is the steepest (1.0).
    assert netpipe.pivot_bytes(mpich_gm, min_bytes=16384) == 16384.0


def test_pivot_at_a_switch_between_close_sizes():
    # The long protocol takes over between 12288 and 12291 (25 MB/s at 12291): the triplet is
    # one point (mean 21 MB/s, middle 12288), and the climb to the 16381/16384 point (40 MB/s)
    # is still the steepest: log2(40/21) / log2(16384/12288) = 0.929 / 0.415 = 2.24.
    points = [(b, 25.0 if b == 12291 else m) for b, m in MPICH_GM_POINTS]
    curve = _mpich_gm_curve(points)
    assert netpipe.pivot_bytes(curve) == 12288.0
    # The plateau range stops at 12288: 12291 (25 MB/s) is not averaged in.
    assert evaluate(curve, "msg=4096..12288", "plateau_mbytes_per_s") == pytest.approx(19.0)


def test_pivot_on_smooth_or_short_curves():
    # T proportional to sqrt(size) on doublings: g = 0.5 everywhere, no regime change; the
    # pivot is one of the sizes (which one depends on rounding) and nothing raises.
    sizes = [1024 * 2 ** i for i in range(10)]
    smooth = _mpich_gm_curve([(b, 0.5 * math.sqrt(b)) for b in sizes])
    assert evaluate(smooth, "", "pivot_bytes") in sizes[:-1]
    # Fewer than two sizes >= 1024, or no throughput: NaN.
    assert math.isnan(netpipe.pivot_bytes(_mpich_gm_curve([(1, 0.05), (512, 10.0),
                                                           (4096, 19.0)])))
    assert math.isnan(netpipe.pivot_bytes(_mpich_gm_curve([(4096, 0.0), (8192, 0.0)])))
    with pytest.warns(UserWarning, match="no throughput column"):
        assert math.isnan(evaluate(pd.DataFrame({"nic": ["x"], "block_bytes": [4096]}), "",
                                   "pivot_bytes"))


def test_range_msg_is_nan_for_point_metrics(mpich_gm):
    assert netpipe.block_range("4096..12288") == (4096.0, 12288.0)
    assert netpipe.block_range(" 4096 .. 12288 ") == (4096.0, 12288.0)
    for not_range in (4096, "4096", None, "a..b", "4096..", "32x33"):
        assert netpipe.block_range(not_range) is None
    series = netpipe.by_block(mpich_gm, netpipe.throughput_mbps(mpich_gm))
    assert math.isnan(netpipe.value_at(series, "4096..12288"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # NaN by design, not by a caught exception
        for metric in ("mbps", "mbytes_per_s", "latency_us", "ratio_vs_pci64",
                       "eager_limit_bytes"):
            assert math.isnan(evaluate(mpich_gm, "msg=4096..12288", metric)), metric
        # The peak ignores msg, range or not: 106 MB/s.
        assert evaluate(mpich_gm, "msg=4096..12288", "peak_mbytes_per_s") == pytest.approx(106.0)


def _check_mpich_gm_summary(summary):
    # plateau 19 (see test_plateau_mean_over_range), pivot 12288 (test_pivot_ends_plateau_...),
    # peak 106 MB/s at 16 MB (msg ignored), latency of block 1: 17.1 us.
    expected = [("msg=4096..12288", "plateau_mbytes_per_s", 19.0, 19.0),
                ("", "pivot_bytes", 12288.0, 12288.0),
                ("msg=16777216", "peak_mbytes_per_s", 106.0, 106.0),
                ("msg=1", "latency_us", 17.1, 18.0)]
    assert len(summary) == len(expected)
    for row, (config, metric, sim, ref_value) in zip(summary.to_dict("records"), expected):
        assert (row["paper"], row["config"], row["metric"]) == ("001", config, metric)
        assert row["sim_value"] == pytest.approx(sim), metric
        assert row["ref_value"] == ref_value
        assert row["rel_err"] == pytest.approx((sim - ref_value) / ref_value, abs=1e-12), metric
    assert summary.loc[1, "rel_err"] == 0.0
    assert summary.loc[3, "rel_err"] == pytest.approx(-0.05)


def test_mpich_gm_summary(mpich_gm, tmp_path):
    ref_path = tmp_path / "seeds.csv"
    ref_path.write_text(MPICH_GM_REF)
    _check_mpich_gm_summary(build_summary("myrinet-mpich-gm", mpich_gm, ref_path))


def test_real_seeds_mpich_gm(mpich_gm, seeds):
    _check_mpich_gm_summary(build_summary("myrinet-mpich-gm", mpich_gm, seeds))
