# SPDX-License-Identifier: GPL-2.0-only
"""The scoring rule of summary rows (``rel_err``) and the tolerance of the blind record, one
kind of metric at a time; every expected value is worked out by hand in the comment beside it.
"""

import math
from pathlib import Path

import pytest


from analysis.summary import metric_kind, score_error, tolerance, within_tolerance

SUITE = "stack=lampi-tcp-ed-vs-gm;suite=15configs"


@pytest.mark.parametrize("metric,kind", [
    ("latency_us", "value"), ("peak_mbps", "value"), ("saturation_mbps", "value"),
    ("latency_ratio", "value"), ("ratio_vs_acenic", "value"), ("g_us", "value"),
    ("g_prime_us", "value"), ("latency_gap_us", "gap"), ("saturation_gap_mbps", "gap"),
    ("gap_mbps", "gap"), ("mean_slowdown_pct", "pct"), ("speedup_pct", "pct"),
    ("mean_diff_pct", "pct"), ("configs_matching_or_beating", "count"),
    ("myrinet_lower", "yes_no"), ("drop", "yes_no"),
])
def test_metric_kind(metric, kind):
    assert metric_kind(metric) == kind


def test_score_plain_values_and_ratios():
    assert score_error(110.0, 100.0, "latency_us") == pytest.approx(0.10)       # 10 / 100
    assert score_error(880.0, 1100.0, "saturation_mbps") == pytest.approx(-0.2)  # -220 / 1100
    assert score_error(2.5, 2.0, "latency_ratio") == pytest.approx(0.25)        # 0.5 / 2
    assert math.isnan(score_error(1.0, 0.0, "latency_us"))                      # ref 0
    assert math.isnan(score_error(math.nan, 2.0, "latency_us"))


def test_score_gaps_over_the_larger_quantity_compared():
    # paper -40 us, simulated -25 us between latencies of 25 and 50 us: (-25 + 40) / 50
    assert score_error(-25.0, -40.0, "latency_gap_us", scale=50.0) == pytest.approx(0.3)
    # paper -30 Mbit/s, simulated -3 between peaks of 900 and 897: (-3 + 30) / 900
    assert score_error(-3.0, -30.0, "saturation_gap_mbps", scale=900.0) == pytest.approx(0.03)
    # a sign wrong by 20 on 100: (10 + 10) / 100
    assert score_error(10.0, -10.0, "latency_gap_us", scale=100.0) == pytest.approx(0.2)
    # no scale (the compared quantities unknown): not scored
    assert math.isnan(score_error(-25.0, -40.0, "latency_gap_us"))
    assert math.isnan(score_error(-25.0, -40.0, "latency_gap_us", scale=0.0))


def test_score_percentages_counts_and_facts():
    assert score_error(3.2, 5.2, "mean_slowdown_pct") == pytest.approx(-0.02)   # -2 points
    assert score_error(21.0, 7.0, "speedup_pct") == pytest.approx(0.14)         # 14 points
    assert score_error(1, 6, "configs_matching_or_beating", SUITE) == pytest.approx(-1 / 3)
    assert score_error(9, 6, "configs_matching_or_beating", SUITE) == pytest.approx(0.2)
    assert math.isnan(score_error(9, 6, "configs_matching_or_beating", "stack=a"))  # no N
    assert score_error(1, 1, "drop") == 0.0
    assert score_error(0.0, 1.0, "myrinet_lower") == 1.0
    assert score_error(1.0, 0.0, "myrinet_lower") == 1.0
    assert math.isnan(score_error(math.nan, 1.0, "drop"))


def test_tolerance_in_the_metrics_unit():
    assert tolerance(960.0, "saturation_mbps", approx=1) == pytest.approx(192.0)  # 20 %
    assert tolerance(960.0, "saturation_mbps", approx=0) == pytest.approx(96.0)   # 10 %
    assert tolerance(-40.0, "latency_gap_us") == pytest.approx(10.0)    # 25 % of 40
    assert tolerance(-10.0, "latency_gap_us") == pytest.approx(5.0)     # floor 5 us
    assert tolerance(420.0, "latency_gap_us") == pytest.approx(105.0)
    assert tolerance(-20.0, "gap_mbps") == pytest.approx(10.0)          # floor 10 Mbit/s
    assert tolerance(-30.0, "saturation_gap_mbps") == pytest.approx(10.0)
    assert tolerance(5.2, "mean_slowdown_pct") == pytest.approx(1.3)    # 25 % of 5.2
    assert tolerance(0.25, "mean_diff_pct") == pytest.approx(1.0)       # 1 point
    assert tolerance(6, "configs_matching_or_beating") == 1
    assert tolerance(1, "drop") == 0


@pytest.mark.parametrize("sim,ref,metric,approx,inside", [
    (1245.8, 1100.0, "saturation_mbps", 1, True),    # 145.8 <= 220
    (1320.1, 1100.0, "saturation_mbps", 1, False),   # 220.1 > 220
    (1100.0, 1000.0, "mbps", 0, True),               # 100 <= 100 (edge counts)
    (1101.0, 1000.0, "mbps", 0, False),
    (2.034, 2.0, "latency_ratio", 1, True),
    (-24.1, -40.0, "latency_gap_us", 1, False),      # 15.9 > 10
    (-31.0, -40.0, "latency_gap_us", 1, True),       # 9 <= 10
    (4.834, -10.0, "latency_gap_us", 1, False),      # 14.834 > 5
    (403.5, 420.0, "latency_gap_us", 1, True),       # 16.5 <= 105
    (-0.18, -20.0, "gap_mbps", 1, False),            # 19.82 > 10
    (5.457, 5.2, "mean_slowdown_pct", 1, True),      # 0.257 <= 1.3
    (1.062, 0.25, "mean_diff_pct", 1, True),         # 0.812 <= 1
    (1.762, 7.0, "speedup_pct", 1, False),           # 5.238 > 1.75
    (5, 6, "configs_matching_or_beating", 0, True),
    (9, 6, "configs_matching_or_beating", 0, False),
    (1, 1, "drop", 0, True),
    (0, 1, "myrinet_lower", 0, False),
    (math.nan, 1100.0, "saturation_mbps", 1, False),  # not simulated: not within
])
def test_within_tolerance(sim, ref, metric, approx, inside):
    assert within_tolerance(sim, ref, metric, approx) is inside
