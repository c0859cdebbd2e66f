"""Blind predictions: the simulated values of figures whose paper numbers are withheld.

A scenario that predicts a paper's figures blind has no reference rows to compare with; its
report writes ``predictions.csv`` instead of ``summary.csv``, with the columns
:data:`PREDICTION_COLUMNS` (``experiment,config,metric,sim_value``), one row per predicted
quantity. ``config`` is a ``key=value;...`` string like the reference table's; ``a-vs-b`` in a
value names a difference ``a - b``.

Each experiment is a plain function ``data -> DataFrame`` of rows in those four columns
(:func:`raw_latency_predictions`, :func:`raw_bw_predictions`); a scenario's predictor
(:data:`SCENARIO_PREDICTIONS`) concatenates its experiments. A quantity whose inputs are not in
the data (a curve that was not run, a message size outside the sweep) gives no row, never NaN.
Bad input (a required column missing, a non-numeric measurement) raises :class:`InputError`.

Seed 003 (Majumder & Rixner, LACSI 2004) sec. 3.1, scenario ``raw-ethernet-vs-myrinet``: its
``data.csv`` has the columns ``net,coalesce,nic,host,msg_bytes,latency_us,mbps,stream_msgs``,
one row per (curve, message size); a curve is GigE with interrupt coalescing ``on`` or ``off``,
or Myrinet (GM, ``coalesce=none``). ``latency_us`` is the one-way latency (half the ping-pong
time), ``mbps`` the unidirectional bandwidth in Mbit/s (10^6 bit/s). A size measured more than
once in a curve is averaged.
"""

import math

import pandas as pd

from .io import write_csv_atomic
from .labels import plain

PREDICTION_COLUMNS = ["experiment", "config", "metric", "sim_value"]
RAW_COLUMNS = ("net", "coalesce", "msg_bytes", "latency_us", "mbps")
RAW_NUMERIC = ("msg_bytes", "latency_us", "mbps")
# The three curves of seed 003 Figs. 1 and 2: name -> (net, coalesce); None: any coalesce value.
RAW_CURVES = {
    "gige-on": ("gige", "on"),
    "gige-off": ("gige", "off"),
    "myrinet": ("myrinet", None),
}
RAW_LATENCY_MSG = 4          # bytes: the Myrinet-vs-GigE latency gap
RAW_COALESCE_MSG = 1         # bytes: the coalescing on-vs-off latency gap
RAW_SMALL_MSG_LIMIT = 1500   # bytes: myrinet_lower looks at sizes up to this one
SIM_VALUE_DIGITS = 6         # decimals of sim_value in predictions.csv


class InputError(ValueError):
    """The data cannot give predictions (a required column missing, a non-numeric value)."""


def require_raw_columns(data):
    """Raise :class:`InputError` unless ``data`` has every column of :data:`RAW_COLUMNS` and
    numbers (or blanks) in :data:`RAW_NUMERIC`."""
    missing = [c for c in RAW_COLUMNS if c not in data.columns]
    if missing:
        raise InputError(f"missing column(s) {', '.join(missing)} "
                         f"(needs {', '.join(RAW_COLUMNS)})")
    for column in RAW_NUMERIC:
        values = pd.to_numeric(data[column], errors="coerce")
        bad = values.isna() & data[column].notna()
        if bad.any():
            raise InputError(f"column {column} is not numeric "
                             f"(e.g. {data[column][bad].iloc[0]!r})")


def _text(series):
    return series.astype(str).str.strip().str.lower()


def raw_curve(data, net, coalesce=None):
    """One curve of raw-ethernet-vs-myrinet data: ``latency_us`` and ``mbps`` indexed by
    ``msg_bytes`` (ascending, duplicates averaged).

    Selects the rows with ``net`` and, unless ``coalesce`` is None, ``coalesce``
    (case-insensitive). Empty (no rows) when the curve was not run.
    """
    require_raw_columns(data)
    keep = _text(data["net"]) == net.lower()
    if coalesce is not None:
        keep &= _text(data["coalesce"]) == coalesce.lower()
    rows = data.loc[keep, list(RAW_NUMERIC)].apply(pd.to_numeric, errors="coerce")
    rows = rows.dropna(subset=["msg_bytes"])
    return rows.groupby("msg_bytes").mean().sort_index()


def raw_curves(data):
    """``{name: curve}`` of :data:`RAW_CURVES` (see :func:`raw_curve`); every name present."""
    return {name: raw_curve(data, net, co) for name, (net, co) in RAW_CURVES.items()}


def value_at(curve, column, msg):
    """``curve[column]`` at message size ``msg``; None when not measured there."""
    if msg not in curve.index:
        return None
    value = float(curve.at[msg, column])
    return None if math.isnan(value) else value


def saturation_mbps(curve):
    """The highest ``mbps`` of ``curve`` over all its sizes; None without any."""
    values = curve["mbps"].dropna() if "mbps" in curve.columns else []
    return float(values.max()) if len(values) else None


def lower_at_small_sizes(low, high, limit=RAW_SMALL_MSG_LIMIT):
    """1 when ``low``'s mbps is below ``high``'s at every size ``<= limit`` both measured,
    else 0; None when they share no such size."""
    a = low["mbps"].dropna()
    b = high["mbps"].dropna()
    sizes = [s for s in a.index.intersection(b.index) if s <= limit]
    if not sizes:
        return None
    return int(all(a[s] < b[s] for s in sizes))


def difference(a, b):
    """``a - b``; None when either is None."""
    return None if a is None or b is None else a - b


def prediction_rows(experiment, items):
    """DataFrame of :data:`PREDICTION_COLUMNS` from ``[(config, metric, value)]``; the items
    whose value is None or NaN are left out."""
    rows = [{"experiment": experiment, "config": config, "metric": metric, "sim_value": value}
            for config, metric, value in items
            if value is not None and not (isinstance(value, float) and math.isnan(value))]
    return pd.DataFrame(rows, columns=PREDICTION_COLUMNS)


def raw_latency_predictions(data):
    """Seed 003 Fig. 1 (``raw-latency``): one-way latency gaps in µs.

    - ``net=myrinet-vs-gige;coalesce=on;msg=4``: Myrinet minus GigE coalescing on, 4 bytes;
    - ``net=myrinet-vs-gige;coalesce=off;msg=4``: Myrinet minus GigE coalescing off, 4 bytes;
    - ``net=gige;coalesce=on-vs-off;msg=1``: GigE coalescing on minus off, 1 byte.
    """
    c = raw_curves(data)
    lat = {name: {msg: value_at(curve, "latency_us", msg)
                  for msg in (RAW_LATENCY_MSG, RAW_COALESCE_MSG)} for name, curve in c.items()}
    m, n = RAW_LATENCY_MSG, RAW_COALESCE_MSG
    return prediction_rows("raw-latency", [
        (f"net=myrinet-vs-gige;coalesce=on;msg={m}", "latency_gap_us",
         difference(lat["myrinet"][m], lat["gige-on"][m])),
        (f"net=myrinet-vs-gige;coalesce=off;msg={m}", "latency_gap_us",
         difference(lat["myrinet"][m], lat["gige-off"][m])),
        (f"net=gige;coalesce=on-vs-off;msg={n}", "latency_gap_us",
         difference(lat["gige-on"][n], lat["gige-off"][n])),
    ])


def raw_bw_predictions(data):
    """Seed 003 Fig. 2 (``raw-bw``): unidirectional bandwidth in Mbit/s.

    - ``net=gige;coalesce=off`` ``saturation_mbps``: highest bandwidth of GigE coalescing off;
    - ``net=gige;coalesce=on-vs-off`` ``saturation_gap_mbps``: highest of coalescing on minus
      highest of off;
    - ``net=myrinet`` ``saturation_mbps``: highest bandwidth of Myrinet;
    - ``net=myrinet-vs-gige;msg<=1500`` ``myrinet_lower``: 1 when Myrinet is below GigE
      coalescing on at every size up to 1500 bytes measured in both, else 0.
    """
    c = raw_curves(data)
    peak = {name: saturation_mbps(curve) for name, curve in c.items()}
    return prediction_rows("raw-bw", [
        ("net=gige;coalesce=off", "saturation_mbps", peak["gige-off"]),
        ("net=gige;coalesce=on-vs-off", "saturation_gap_mbps",
         difference(peak["gige-on"], peak["gige-off"])),
        ("net=myrinet", "saturation_mbps", peak["myrinet"]),
        (f"net=myrinet-vs-gige;msg<={RAW_SMALL_MSG_LIMIT}", "myrinet_lower",
         lower_at_small_sizes(c["myrinet"], c["gige-on"])),
    ])


def combine(*frames):
    """Concatenate prediction frames (empty ones included) into one with a fresh index."""
    frames = [f for f in frames if len(f)]
    if not frames:
        return pd.DataFrame(columns=PREDICTION_COLUMNS)
    return pd.concat(frames, ignore_index=True)[PREDICTION_COLUMNS]


def raw_predictions(data):
    """Every prediction of scenario ``raw-ethernet-vs-myrinet`` (seed 003 Figs. 1 and 2).

    Raises :class:`InputError` when ``data`` lacks a column of :data:`RAW_COLUMNS`.
    """
    require_raw_columns(data)
    return combine(raw_latency_predictions(data), raw_bw_predictions(data))


# Scenario -> its predictor (data -> DataFrame of PREDICTION_COLUMNS). Later experiments
# (mpi-latency, mpi-bw, nas) add functions like raw_latency_predictions and a scenario here.
SCENARIO_PREDICTIONS = {
    "raw-ethernet-vs-myrinet": raw_predictions,
}


def predictions_for(scenario, data):
    """The predictions of ``scenario`` on ``data``; None when it predicts nothing."""
    predict = SCENARIO_PREDICTIONS.get(scenario)
    return None if predict is None else predict(data)


def format_value(value):
    """``sim_value`` as written: rounded to :data:`SIM_VALUE_DIGITS` decimals, no ``.0``."""
    return plain(round(float(value), SIM_VALUE_DIGITS) + 0.0)


def write_predictions(df, path):
    """Write ``df`` (exactly :data:`PREDICTION_COLUMNS`) as CSV to ``path`` atomically.

    ``sim_value`` is written by :func:`format_value` (``1``, ``7.568``). Raises ``ValueError``
    when the columns differ. Returns the path.
    """
    if list(df.columns) != PREDICTION_COLUMNS:
        raise ValueError(f"predictions need the columns {','.join(PREDICTION_COLUMNS)}, "
                         f"got {','.join(map(str, df.columns))}")
    out = df.copy()
    out["sim_value"] = [format_value(v) for v in out["sim_value"]]
    return write_csv_atomic(out, path)
