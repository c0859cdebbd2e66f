"""Comparison of simulated results with the reference numbers of the seed papers.

:func:`build_summary` evaluates, for every reference row of a scenario, the same metric on the
simulated data and reports the signed relative error. Its output is the ``summary.csv`` every
reproducing scenario writes: ``paper,experiment,config,metric,sim_value,ref_value,rel_err``.

Selecting the simulated rows for a reference ``config``: the ``msg`` key is the evaluation
point (a block size, or an inclusive range ``msg=A..B`` of block sizes), not a selector; every
other key must name a data column (or a column aliased in :data:`CONFIG_ALIASES`, ``delta`` ->
``delta_us``) and the rows whose column equals the key's value are kept. A key that is not a
data column (``stack=lam`` on TCP data), an empty selection, a selection spanning several
curves, or a metric that is not supported all give ``sim_value`` NaN and ``rel_err`` NaN;
nothing raises. A range is only meaningful to ``plateau_mbytes_per_s``; the metrics evaluated
at one size (``mbps``, ``latency_us``, ``ratio_vs_*`` ...) give NaN for it.

The curve metrics (:data:`CURVE_METRICS`) and what they make of ``msg``:

- ``peak_mbps``, ``peak_mbytes_per_s``: the highest throughput of the whole curve; ``msg`` is
  ignored (seed 001 sec. 4.5 gives the 106 MB/s peak "for a message size of 16 Mbytes", the
  size where it is reached, not a different point).
- ``mbps``, ``mbytes_per_s``: the throughput at size ``msg`` (interpolated between measured
  sizes); NaN without ``msg``.
- ``latency_us``: the one-way time of the smallest block, or of size ``msg``.
- ``plateau_mbytes_per_s``: with ``msg=A..B``, the mean throughput (MB/s, 10^6 bytes/s) over
  the curve's block sizes in ``[A, B]`` (:func:`netpipe.mean_mbps`), NaN when none lies there;
  with a single size, the throughput at it; NaN without ``msg``.
- ``pivot_bytes``: the size where the curve changes regime: the last size before its steepest
  climb in throughput per doubling of size, sizes below 1 KB left out; on a plateau followed by
  a steep rise, the end of the plateau (:func:`netpipe.pivot_bytes`); ``msg`` is ignored.
- ``dropout_at_bytes``: see :func:`gm.dropout_at_bytes`.

A latency (``latency_us``) whose config leaves several curves selected is the mean over them:
the papers state one small-message latency for a family of curves that differ only in a key
the latency does not depend on (seed 001 sec. 4.4: "between 182 and 187 µs" over every socket
buffer size). Every other metric needs a single curve.

The LogP metrics of GM's logp_test (:data:`LOGP_METRICS`, computed by :mod:`analysis.gm`) take
``msg`` and ``delta`` as their evaluation point (message size, inter-send delay), not as
selectors: ``msg=8;delta=64`` with ``g_prime_us`` is the gap of 8-byte messages at delay 64 µs.
"""

import math
import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from pandas.api.types import is_bool_dtype, is_numeric_dtype

from . import gm, netpipe
from .io import read_data
from .predictions import SCENARIO_PREDICTIONS, InputError
from .reference import load_reference, parse_config, reference_for

SUMMARY_COLUMNS = ["paper", "experiment", "config", "metric", "sim_value", "ref_value",
                   "rel_err"]
MSG_KEY = "msg"
DELTA_KEYS = ("delta", "delta_us")
RATIO_PREFIX = "ratio_vs_"
# Config keys that name a data column under another name.
CONFIG_ALIASES = {"delta": "delta_us"}


def _as_number(value):
    """``value`` as a float, or NaN when it is not numeric."""
    try:
        return float(value)
    except (TypeError, ValueError):
        return math.nan


def column_equals(column, value):
    """Boolean mask of ``column == value``, comparing numbers as numbers and text as text.

    A numeric column compared with a non-numeric value matches nothing; a text column is
    compared with ``str(value)`` after stripping blanks (``"1500"`` matches ``1500``).
    """
    if is_numeric_dtype(column) and not is_bool_dtype(column):
        number = _as_number(value)
        if math.isnan(number):
            return pd.Series(False, index=column.index)
        tol = 1e-9 * max(1.0, abs(number))
        return (column.astype(float) - number).abs() <= tol
    return column.astype(str).str.strip() == str(value).strip()


def data_column(data, key):
    """The data column a config key names: itself, else its alias; None when neither exists."""
    if key in data.columns:
        return key
    alias = CONFIG_ALIASES.get(key)
    return alias if alias is not None and alias in data.columns else None


def select(data, cfg):
    """Rows of ``data`` matching every key of ``cfg``; None when a key is not a data column."""
    mask = pd.Series(True, index=data.index)
    for key, value in cfg.items():
        column = data_column(data, key)
        if column is None:
            return None
        mask &= column_equals(data[column], value)
    return data[mask]


def split_config(config):
    """Parse a config string into ``(selector_dict, msg)``; ``msg`` is None when absent."""
    cfg = parse_config(config)
    msg = cfg.pop(MSG_KEY, None)
    return cfg, msg


def single_curve(data, cfg, label="", keys=None):
    """The one curve of ``data`` selected by ``cfg``, or None (no match or ambiguous).

    A selection that spans several curves (e.g. two ``pci`` values when the config does not
    name ``pci``) is ambiguous: it warns and returns None. ``keys``: the configuration columns
    that tell curves apart (default :func:`netpipe.curve_keys`).
    """
    rows = select(data, cfg)
    if rows is None or rows.empty:
        return None
    keys = netpipe.curve_keys(data) if keys is None else keys
    found = netpipe.iter_curves(rows, keys)
    if len(found) > 1:
        warnings.warn(f"{label or cfg}: selection spans {len(found)} curves; add keys to the "
                      "config or restrict the data", stacklevel=2)
        return None
    return found[0][1]


def _throughput_point(curve, msg):
    """Throughput at ``msg`` when given, else the peak (Mbit/s)."""
    return netpipe.peak_mbps(curve) if msg is None else netpipe.mbps_at(curve, msg)


def _mbps(curve, msg):
    return math.nan if msg is None else netpipe.mbps_at(curve, msg)


def _plateau_mbytes(curve, msg):
    """Mean MB/s over the blocks in ``msg="A..B"``; at a single size, the MB/s there."""
    if msg is None:
        return math.nan
    span = netpipe.block_range(msg)
    if span is None:
        return netpipe.mbps_at(curve, msg) / 8.0
    return netpipe.mean_mbps(curve, *span) / 8.0


CURVE_METRICS = {
    "peak_mbps": lambda curve, msg: netpipe.peak_mbps(curve),
    "peak_mbytes_per_s": lambda curve, msg: netpipe.peak_mbps(curve) / 8.0,
    "latency_us": lambda curve, msg: netpipe.latency_us(curve, msg),
    "mbps": _mbps,
    "mbytes_per_s": lambda curve, msg: _mbps(curve, msg) / 8.0,
    "plateau_mbytes_per_s": _plateau_mbytes,
    "pivot_bytes": lambda curve, msg: netpipe.pivot_bytes(curve),
    "dropout_at_bytes": lambda curve, msg: gm.dropout_at_bytes(curve),
    "n_half_bytes": lambda curve, msg: netpipe.n_half_bytes(curve),
    "falls_from_bytes": lambda curve, msg: netpipe.falls_from_bytes(curve),
}

# Metrics a config may evaluate over several curves at once: the mean over the curves.
SPAN_MEAN_METRICS = {"latency_us"}

# logp_test metrics: f(rows of one configuration, msg, delta); delta None when not in the config.
LOGP_METRICS = {
    "os_us": lambda rows, msg, delta: gm.os_us(rows, msg),
    "g_us": lambda rows, msg, delta: gm.gap_us(rows, msg, 0.0 if delta is None else delta),
    "g_prime_us": lambda rows, msg, delta: gm.g_prime_us(rows, msg, delta),
    "or_us": lambda rows, msg, delta: gm.or_us(rows, msg),
    "L_us": lambda rows, msg, delta: gm.L_us(rows, msg),
    "burst_transition": lambda rows, msg, delta: gm.burst_transition(rows, msg),
}


def ratio_baseline(target, cfg, columns):
    """Config of the baseline of ``ratio_vs_<target>``.

    ``<key><int>`` with ``key`` a config key or data column (``mtu1500``) overrides that key;
    anything else names a NIC (``gnic2``, ``acenic``) and overrides ``nic``.
    """
    base = dict(cfg)
    match = re.fullmatch(r"([A-Za-z_]+?)(\d+)", target)
    if match and match.group(1) != "nic" and (match.group(1) in cfg
                                               or match.group(1) in columns):
        base[match.group(1)] = int(match.group(2))
    else:
        base["nic"] = target
    return base


def _ratio(data, cfg, msg, target, label):
    """``ratio_vs_<target>``: throughput at ``msg`` (or peak) over the baseline's."""
    curve = single_curve(data, cfg, label)
    base = single_curve(data, ratio_baseline(target, cfg, data.columns), label)
    if curve is None or base is None:
        return math.nan
    num, den = _throughput_point(curve, msg), _throughput_point(base, msg)
    return num / den if den and not math.isnan(den) else math.nan


def _column_value(data, cfg, msg, metric):
    """A metric stored as its own data column: its single distinct value in the selection."""
    rows = select(data, cfg)
    if rows is None or rows.empty:
        return math.nan
    block = netpipe.block_column(rows)
    if msg is not None and block is not None:
        rows = rows[column_equals(rows[block], msg)]
    values = pd.to_numeric(rows[metric], errors="coerce").dropna().unique()
    return float(values[0]) if len(values) == 1 else math.nan


def _logp(data, cfg, msg, metric, label):
    """A :data:`LOGP_METRICS` metric: ``delta`` is its evaluation point, other keys select."""
    cfg = dict(cfg)
    delta = None
    for key in DELTA_KEYS:
        if key in cfg:
            delta = cfg.pop(key)
    rows = single_curve(data, cfg, label, gm.config_keys(data))
    return math.nan if rows is None else float(LOGP_METRICS[metric](rows, msg, delta))


def evaluate(data, config, metric):
    """Simulated value of ``metric`` for the reference ``config``; NaN when not computable."""
    if data is None or len(data) == 0:
        return math.nan
    cfg, msg = split_config(config)
    label = f"{config} {metric}"
    try:
        if metric.startswith(RATIO_PREFIX):
            return _ratio(data, cfg, msg, metric[len(RATIO_PREFIX):], label)
        if metric in SPAN_MEAN_METRICS:
            rows = select(data, cfg)
            if rows is None or rows.empty:
                return math.nan
            values = [CURVE_METRICS[metric](curve, msg)
                      for _, curve in netpipe.iter_curves(rows, netpipe.curve_keys(data))]
            return float(np.mean(values))
        if metric in CURVE_METRICS:
            curve = single_curve(data, cfg, label)
            return math.nan if curve is None else float(CURVE_METRICS[metric](curve, msg))
        if metric in LOGP_METRICS:
            return _logp(data, cfg, msg, metric, label)
        if metric in data.columns:
            return _column_value(data, cfg, msg, metric)
    except (KeyError, ValueError, TypeError, ZeroDivisionError) as exc:
        warnings.warn(f"{label}: cannot evaluate ({exc})", stacklevel=2)
    return math.nan


def rel_err(sim, ref):
    """Signed relative error ``(sim - ref) / ref``; NaN if either is NaN or ``ref`` is 0."""
    sim, ref = _as_number(sim), _as_number(ref)
    if math.isnan(sim) or math.isnan(ref) or ref == 0:
        return math.nan
    return (sim - ref) / ref


# --- Scoring: one rule for every kind of reference row -------------------------------------
#
# A summary row's ``rel_err`` is a signed fraction whose size means the same thing for every
# kind of metric, so that the median |rel_err| of a paper mixes its rows fairly; the tolerance
# of a row (the blind record's "within tolerance") is stated in the metric's own unit. Both
# are described in reference/README.md, "Scoring gaps, ratios, counts and yes/no facts".

YES_NO_METRICS = frozenset({"myrinet_lower", "drop"})       # 1 = yes, 0 = no
COUNT_METRICS = frozenset({"configs_matching_or_beating"})  # out of N configurations
PCT_SUFFIX = "_pct"                                          # percentage points
_GAP_RE = re.compile(r"(?:^|_)gap_(us|mbps)$")               # x minus y, in µs or Mbit/s
_COUNT_OF_RE = re.compile(r"^(\d+)configs$")                 # suite=15configs -> N = 15
# Tolerances: plain values and ratios within 20 % of the paper's number when it is approximate
# ("about"), 10 % when not; gaps within 25 % of the paper's gap or the unit's floor, whichever
# is larger; percentages within 25 % or 1 point; counts within 1; yes/no facts exactly.
VALUE_TOL = {1: 0.20, 0: 0.10}
GAP_TOL = 0.25
GAP_FLOOR = {"us": 5.0, "mbps": 10.0}
PCT_TOL, PCT_FLOOR = 0.25, 1.0
COUNT_TOL = 1


def metric_kind(metric):
    """How a metric is scored: ``"yes_no"``, ``"count"``, ``"pct"``, ``"gap"`` or ``"value"``.

    ``yes_no``: :data:`YES_NO_METRICS`; ``count``: :data:`COUNT_METRICS`; ``pct``: a name
    ending in ``_pct``; ``gap``: a name ending in ``gap_us`` or ``gap_mbps`` (a difference x - y
    of two simulated quantities, ``x-vs-y`` in the config); anything else (plain values,
    ``latency_ratio``, ``ratio_vs_*``) is a ``value``.
    """
    metric = str(metric)
    if metric in YES_NO_METRICS:
        return "yes_no"
    if metric in COUNT_METRICS:
        return "count"
    if metric.endswith(PCT_SUFFIX):
        return "pct"
    if _GAP_RE.search(metric):
        return "gap"
    return "value"


def count_of(config):
    """N of a count metric's config: ``suite=15configs`` -> 15; NaN when no key says it."""
    for value in parse_config(config).values():
        match = _COUNT_OF_RE.match(str(value))
        if match:
            return float(match.group(1))
    return math.nan


def score_error(sim, ref, metric, config="", scale=math.nan):
    """Signed error of ``sim`` against the paper's ``ref`` as a fraction (``rel_err``).

    - a plain value or a ratio: ``(sim - ref) / ref`` (:func:`rel_err`);
    - a gap ``x-vs-y`` (``*gap_us``, ``*gap_mbps``): ``(sim - ref) / scale``, ``scale`` the
      larger magnitude of the two simulated quantities compared (the gap's error as a fraction
      of what it is the difference of; NaN without a positive ``scale``);
    - a ``*_pct`` metric: ``(sim - ref) / 100`` (percentage points as a fraction);
    - a count out of N configurations: ``(sim - ref) / N``, N from the config
      (:func:`count_of`);
    - a yes/no fact: 0 when ``sim`` and ``ref`` agree, 1 when not.

    NaN when ``sim`` or ``ref`` is NaN or the denominator is unknown or 0.
    """
    sim, ref = _as_number(sim), _as_number(ref)
    if math.isnan(sim) or math.isnan(ref):
        return math.nan
    kind = metric_kind(metric)
    if kind == "value":
        return rel_err(sim, ref)
    if kind == "yes_no":
        return 0.0 if round(sim) == round(ref) else 1.0
    if kind == "pct":
        return (sim - ref) / 100.0
    den = count_of(config) if kind == "count" else abs(_as_number(scale))
    if math.isnan(den) or den == 0:
        return math.nan
    return (sim - ref) / den


def tolerance(ref, metric, approx=1):
    """The largest ``|sim - ref|`` the blind record counts as within tolerance, in the
    metric's own unit: a value or ratio 20 % of ``|ref|`` (10 % when ``approx`` is 0, the
    paper's number exact); a gap ``max(25 % of |ref|, floor)`` with the floor 5 µs or
    10 Mbit/s; a percentage ``max(25 % of |ref|, 1 point)``; a count 1; a yes/no fact 0."""
    ref = abs(_as_number(ref))
    kind = metric_kind(metric)
    if kind == "yes_no":
        return 0
    if kind == "count":
        return COUNT_TOL
    if kind == "pct":
        return max(PCT_TOL * ref, PCT_FLOOR)
    if kind == "gap":
        return max(GAP_TOL * ref, GAP_FLOOR[_GAP_RE.search(str(metric)).group(1)])
    return VALUE_TOL[1 if int(approx) else 0] * ref


def within_tolerance(sim, ref, metric, approx=1):
    """True when ``|sim - ref| <= tolerance(ref, metric, approx)`` (edges count; a yes/no
    fact must agree exactly); False when ``sim`` or ``ref`` is NaN (not simulated)."""
    sim, ref = _as_number(sim), _as_number(ref)
    if math.isnan(sim) or math.isnan(ref):
        return False
    if metric_kind(metric) == "yes_no":
        return round(sim) == round(ref)
    return bool(abs(sim - ref) <= tolerance(ref, metric, approx) + 1e-9 * max(1.0, abs(ref)))


def paper_id(value):
    """The paper as its 3-digit string (``0`` or ``"0"`` -> ``"000"``)."""
    text = str(value).strip()
    return text.zfill(3) if text.isdigit() else text


def _as_frame(obj, reader):
    if obj is None or isinstance(obj, pd.DataFrame):
        return obj
    if isinstance(obj, (str, Path)):
        return reader(obj)
    raise TypeError(f"expected a DataFrame or a path, got {type(obj).__name__}")


def derived_values(scenario, data):
    """``{(config, metric): (sim_value, scale)}`` of a scenario whose rows are whole-setup
    comparisons (seed 003's, :data:`analysis.predictions.SCENARIO_PREDICTIONS`); None for any
    other scenario. Data that cannot give them (a column missing) warns and gives ``{}``."""
    derive = SCENARIO_PREDICTIONS.get(scenario)
    if derive is None:
        return None
    if data is None or len(data) == 0:
        return {}
    try:
        frame = derive(data)
    except InputError as exc:
        warnings.warn(f"{scenario}: cannot evaluate ({exc})", stacklevel=3)
        return {}
    return {(r["config"], r["metric"]): (float(r["sim_value"]), float(r["scale"]))
            for r in frame.to_dict("records")}


def build_summary(scenario, data, ref=None):
    """Summary table of ``scenario``: one row per reference row naming it, in file order.

    ``data``: the scenario's data frame (or a path to its ``data.csv``); ``ref``: the reference
    frame (or a path; default :func:`load_reference`). Columns: ``paper`` (3-digit string),
    ``experiment``, ``config`` and ``metric`` copied exactly, ``sim_value``, ``ref_value``,
    ``rel_err`` as a signed fraction by :func:`score_error` ((sim - ref) / ref for a plain
    value). The simulated value is :func:`evaluate`'s, or for seed 003's scenarios the derived
    quantity of the same config and metric (:func:`derived_values`); NaN when not computable.
    """
    data = _as_frame(data, read_data)
    ref = load_reference() if ref is None else _as_frame(ref, load_reference)
    rows = reference_for(scenario, ref)
    derived = derived_values(scenario, data) if len(rows) else None
    records = []
    for row in rows.to_dict("records"):
        scale = math.nan
        if derived is None:
            sim = evaluate(data, row["config"], row["metric"])
        else:
            sim, scale = derived.get((row["config"], row["metric"]), (math.nan, math.nan))
        ref_value = _as_number(row["value"])
        records.append({
            "paper": paper_id(row.get("paper", "")),
            "experiment": row.get("experiment", ""),
            "config": row["config"],
            "metric": row["metric"],
            "sim_value": sim,
            "ref_value": ref_value,
            "rel_err": score_error(sim, ref_value, row["metric"], row["config"], scale),
        })
    out = pd.DataFrame(records, columns=SUMMARY_COLUMNS)
    for col in ("sim_value", "ref_value", "rel_err"):
        out[col] = out[col].astype(float)
    return out


def error_stats(summary):
    """``{"n", "median_abs", "max_abs"}`` of ``|rel_err|`` over rows where it is finite."""
    errs = pd.to_numeric(summary["rel_err"], errors="coerce").to_numpy(dtype=float)
    errs = np.abs(errs[np.isfinite(errs)])
    if errs.size == 0:
        return {"n": 0, "median_abs": math.nan, "max_abs": math.nan}
    return {"n": int(errs.size), "median_abs": float(np.median(errs)),
            "max_abs": float(errs.max())}
