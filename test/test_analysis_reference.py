"""Tests of analysis.reference: loading seeds.csv-style tables and parsing configs."""

import csv
import math
from pathlib import Path

import pytest


from analysis.reference import (format_config, load_reference, parse_config,
                                reference_for)
from analysis.io import reference_dir

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SMALL_REF = FIXTURES / "reference_small.csv"


def _raw_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_parse_config_types():
    cfg = parse_config("nic=sknet;mtu=1500;sockbuf=131072;msg=16384")
    assert cfg == {"nic": "sknet", "mtu": 1500, "sockbuf": 131072, "msg": 16384}
    assert isinstance(cfg["mtu"], int) and isinstance(cfg["nic"], str)
    assert list(cfg) == ["nic", "mtu", "sockbuf", "msg"]
    assert parse_config("pci=32x33;msg=4096..12288") == {"pci": "32x33", "msg": "4096..12288"}
    assert parse_config("") == {}
    assert parse_config(None) == {}
    assert parse_config(" nic = gnic2 ;; mtu=9000;") == {"nic": "gnic2", "mtu": 9000}
    assert format_config({"nic": "gnic2", "mtu": 9000}) == "nic=gnic2;mtu=9000"


def test_load_reference_keeps_text_exactly():
    ref = load_reference(SMALL_REF)
    raw = _raw_rows(SMALL_REF)
    assert len(ref) == len(raw) == 16
    assert list(ref["config"]) == [r["config"] for r in raw]
    assert list(ref["paper"]) == [r["paper"] for r in raw]
    assert ref.loc[0, "paper"] == "000"
    assert ref.loc[13, "config"] == ""
    assert ref["value"].dtype.kind == "f"
    assert ref.loc[5, "value"] == pytest.approx(1.32)
    assert ref.loc[10, "value"] == 131072.0
    assert list(ref["approx"][:3]) == [1, 1, 1]


def test_reference_for_order_and_duplicates():
    ref = load_reference(SMALL_REF)
    rows = reference_for("test-netpipe", ref)
    assert len(rows) == 14
    assert list(rows["where"]) == [r["where"] for r in _raw_rows(SMALL_REF)
                                   if r["scenario"] == "test-netpipe"]
    dup = rows[(rows["metric"] == "peak_mbps")
               & (rows["config"] == "nic=sknet;mtu=1500;sockbuf=131072")]
    assert len(dup) == 2
    assert len(reference_for("other-scenario", ref)) == 2
    assert len(reference_for("no-such-scenario", ref)) == 0


def test_real_seeds_table():
    path = reference_dir() / "seeds.csv"
    ref = load_reference()
    raw = _raw_rows(path)
    assert len(ref) == len(raw)
    assert list(ref["config"]) == [r["config"] for r in raw]
    assert not any(math.isnan(v) for v in ref["value"])
    assert len(reference_for("gige-mtu-sweep", ref)) == 16
    assert len(reference_for("gige-tcp-netpipe", ref)) == 12


def test_seed003_rows_released():
    # Seed 003's 22 rows, released after its two blind rounds: three scenarios, every value a
    # number, the paper's table order kept.
    ref = load_reference()
    rows = ref[ref["paper"] == "003"]
    assert len(rows) == 22
    assert rows["scenario"].value_counts().to_dict() == {
        "raw-ethernet-vs-myrinet": 7, "lampi-latency-bandwidth": 10, "nas-overlap": 5}
    first, last = rows.iloc[0], rows.iloc[-1]
    assert (first["config"], first["metric"], first["value"]) == (
        "net=myrinet-vs-gige;coalesce=on;msg=4", "latency_gap_us", -40.0)
    assert (last["config"], last["metric"], last["value"]) == (
        "stack=mpich-gm-vs-lampi-gm", "mean_diff_pct", 0.25)
    assert set(rows.loc[rows["approx"] == 0, "metric"]) == {
        "myrinet_lower", "drop", "configs_matching_or_beating"}
