# SPDX-License-Identifier: GPL-2.0-only
"""Rows missed by more than the limit are explained, and only those (analysis/outliers.py).

The default runs of every reference scenario (shared with test_statements.py) are summarised;
a row beyond ``LIMIT`` without an explanation fails, and so does an explanation whose row is
back within it. The report puts each explanation beside its row (the "why" column).
"""
import re

import pandas as pd
import pytest

from analysis import outliers
from analysis.reference import load_reference


def _summary(errors):
    """A summary frame with one row per (paper, config, rel_err), scenario 's'."""
    return pd.DataFrame([{"paper": p, "scenario": "s", "config": c, "metric": "m",
                          "sim_value": 1.0 + e, "ref_value": 1.0, "rel_err": e}
                         for p, c, e in errors])


def test_beyond_takes_rows_strictly_over_the_limit_by_paper_then_size():
    frame = _summary([("003", "a", 0.30), ("000", "b", -0.26), ("000", "c", 0.25),
                      ("000", "d", -0.90), ("001", "e", float("nan")), ("002", "f", 0.10)])
    got = outliers.beyond(frame)
    assert list(got["config"]) == ["d", "b", "a"]       # 0.25 itself is within the limit
    assert list(outliers.beyond(frame, 0.5)["config"]) == ["d"]


@pytest.mark.parametrize("limit", [0, -0.1, float("nan"), "0.25"])
def test_a_bad_limit_is_refused(limit):
    with pytest.raises(ValueError, match="limit must be a positive fraction"):
        outliers.beyond(_summary([("000", "a", 0.3)]), limit)


def test_audit_names_unexplained_and_stale_rows():
    frame = _summary([("000", "a", 0.40), ("000", "b", 0.05), ("001", "c", -0.30)])
    explained = {("s", "a", "m"): "why a", ("s", "b", "m"): "why b"}
    unexplained, stale = outliers.audit(frame, explained)
    assert unexplained == [("s", "c", "m")]
    assert stale == [("s", "b", "m")]


def test_the_report_puts_the_explanation_beside_a_row_beyond_the_limit():
    from analysis.htmlreport import _why

    key = next(iter(outliers.EXPLAINED))
    assert _why(*key, -0.40) == outliers.EXPLAINED[key]
    assert _why(*key, 0.25) == ""                       # within the limit: nothing to explain
    assert _why(*key, float("nan")) == ""               # not simulated
    assert _why("s", "x", "m", 0.5) == "not explained"


def test_explanations_quote_no_measured_figure():
    """A figure with a unit would go stale as the model moves; the table puts the data's
    figures beside each explanation instead."""
    unit = re.compile(r"\d[\d.,]*\s*(%|µs|us\b|ms\b|Mbit|MB/s|Mbps|bytes|KB\b)")
    for key, why in outliers.EXPLAINED.items():
        assert not unit.search(why), f"{key}: {unit.search(why).group(0)!r}"
        assert len(why) > 80, f"{key}: an explanation says why, with its evidence"


def test_every_row_beyond_the_limit_is_explained(scenario_data):
    ref = load_reference()
    data = {name: scenario_data(name) for name in sorted(set(ref["scenario"]))}
    summary = outliers.summaries(data, ref)
    unexplained, stale = outliers.audit(summary)
    assert not unexplained, (f"rows beyond {outliers.LIMIT:.0%} with no explanation in "
                             f"analysis/outliers.py EXPLAINED: {unexplained}")
    assert not stale, (f"explained rows now within {outliers.LIMIT:.0%}: remove them from "
                       f"EXPLAINED: {stale}")
