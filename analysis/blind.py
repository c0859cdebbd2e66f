"""Seed 003's blind record: its two blind rounds and the current model against the paper.

Seed 003's 22 reference rows were withheld while its setup was predicted blind, twice; the two
rounds are ``reference/seed003-blind.csv`` (:data:`BLIND_COLUMNS`: the reference row's
``experiment,scenario,config,metric`` and the values predicted, ``first`` and ``second``). This
module scores them, and the current model's summary rows, with the rule of
:mod:`analysis.summary` (:func:`~analysis.summary.within_tolerance`,
:func:`~analysis.summary.score_error`); ``./ns3 report`` shows the record on seed 003's page
(:mod:`analysis.htmlreport`).
"""

import numpy as np
import pandas as pd

from .io import reference_dir
from .reference import load_reference
from .summary import build_summary, within_tolerance

BLIND_COLUMNS = ["experiment", "scenario", "config", "metric", "first", "second"]
ROUNDS = ("first", "second")
PAPER = "003"
# Seed 003's scenarios, in the reference table's order.
SCENARIOS = ("raw-ethernet-vs-myrinet", "lampi-latency-bandwidth", "nas-overlap")
KEYS = ["experiment", "scenario", "config", "metric"]


def default_blind_path():
    """``reference/seed003-blind.csv`` of the repository."""
    return reference_dir() / "seed003-blind.csv"


def load_blind(path=None):
    """The blind rounds as a DataFrame of :data:`BLIND_COLUMNS` (``first``/``second`` floats,
    the rest text exactly as written)."""
    blind = pd.read_csv(default_blind_path() if path is None else path, dtype=str,
                        keep_default_na=False)
    missing = [c for c in BLIND_COLUMNS if c not in blind.columns]
    if missing:
        raise ValueError(f"blind table lacks column(s) {', '.join(missing)}")
    for column in ROUNDS:
        blind[column] = pd.to_numeric(blind[column], errors="coerce").astype(float)
    return blind[BLIND_COLUMNS]


def paper_rows(ref=None):
    """Seed 003's reference rows (``paper`` 003), in file order, index from 0."""
    ref = load_reference() if ref is None else ref
    return ref[ref["paper"] == PAPER].reset_index(drop=True)


def blind_record(blind, ref=None):
    """Each seed 003 reference row with the paper's value (``ref_value``, ``approx``) and each
    round's value and whether it was within tolerance (``first``, ``first_within``,
    ``second``, ``second_within``), in the reference table's order. Raises ``ValueError``
    unless ``blind`` has exactly one row per reference row."""
    rows = paper_rows(ref)
    merged = rows[KEYS + ["value", "approx"]].merge(blind, on=KEYS, how="left",
                                                     validate="1:1")
    if len(blind) != len(rows) or merged[list(ROUNDS)].isna().all(axis=1).any():
        raise ValueError("the blind table must have one row per seed 003 reference row")
    merged = merged.rename(columns={"value": "ref_value"})
    for r in ROUNDS:
        merged[f"{r}_within"] = [within_tolerance(s, v, m, a) for s, v, m, a in zip(
            merged[r], merged["ref_value"], merged["metric"], merged["approx"])]
    return merged


def current_record(data, ref=None):
    """The current model's summary rows of seed 003 with ``within`` (tolerance) beside them.

    ``data``: ``{scenario: data frame or path of its data.csv}`` for :data:`SCENARIOS`.
    Columns: ``experiment,scenario,config,metric,ref_value,approx,sim_value,rel_err,within``,
    in the reference table's order.
    """
    ref = load_reference() if ref is None else ref
    parts = []
    for scenario in SCENARIOS:
        summary = build_summary(scenario, data[scenario], ref)
        summary.insert(1, "scenario", scenario)
        parts.append(summary)
    summary = pd.concat(parts, ignore_index=True)
    rows = paper_rows(ref)
    out = rows[KEYS + ["approx"]].merge(summary.drop(columns=["paper"]), on=KEYS, how="left",
                                        validate="1:1")
    out["within"] = [within_tolerance(s, v, m, a) for s, v, m, a in zip(
        out["sim_value"], out["ref_value"], out["metric"], out["approx"])]
    return out[KEYS + ["ref_value", "approx", "sim_value", "rel_err", "within"]]


def counts(blind, current):
    """``{"first": k, "second": k, "now": k}``: rows within tolerance in each round and now."""
    out = {r: int(np.sum(blind[f"{r}_within"])) for r in ROUNDS}
    out["now"] = int(np.sum(current["within"]))
    return out
