"""NetPIPE curves: throughput and one-way time against block size.

A NetPIPE ``data.csv`` has the columns ``nic,host,pci,mtu,sockbuf,block_bytes,oneway_us,mbps,
reps``: configuration columns, then one row per block size. A *curve* is the set of rows
sharing one configuration. The functions here take either one curve or a whole data frame.

Throughput is ``block_bytes * 8 / oneway_us`` in Mbit/s (10^6 bit/s); latency is the one-way
time of the smallest block. Blocks measured more than once in a curve are averaged.
"""

import math

import numpy as np
import pandas as pd

NETPIPE_COLUMNS = ["nic", "host", "pci", "mtu", "sockbuf", "block_bytes", "oneway_us", "mbps",
                   "reps"]
BLOCK_COLUMNS = ("block_bytes", "msg_bytes")
MEASURE_COLUMNS = frozenset(BLOCK_COLUMNS + ("oneway_us", "latency_us", "mbps", "mbytes_per_s",
                                             "reps"))
_UNIT_SUFFIXES = ("_us", "_ns", "_ms", "_s", "_bytes", "_mbps", "_per_s")


def block_column(df):
    """Return the name of the block-size column (``block_bytes`` or ``msg_bytes``) or None."""
    return next((c for c in BLOCK_COLUMNS if c in df.columns), None)


def is_measure_column(name):
    """True for measurement columns: known NetPIPE ones or names ending in a unit."""
    return name in MEASURE_COLUMNS or name.endswith(_UNIT_SUFFIXES)


def curve_keys(df):
    """Return the configuration columns of ``df`` (all but the measurement columns), in order."""
    return [c for c in df.columns if not is_measure_column(str(c))]


def is_netpipe(df):
    """True when ``df`` has a block-size column and a throughput or one-way time column."""
    cols = set(df.columns)
    return block_column(df) is not None and bool(cols & {"mbps", "mbytes_per_s", "oneway_us"})


def curves(df, keys=None):
    """Group ``df`` into curves: a ``groupby`` over its configuration columns.

    ``keys`` defaults to :func:`curve_keys`. Group keys are tuples of the key values. With no
    configuration column at all the whole frame is one group keyed ``0``.
    """
    keys = curve_keys(df) if keys is None else list(keys)
    if not keys:
        return df.groupby(np.zeros(len(df), dtype=int), sort=False)
    return df.groupby(keys, sort=True, dropna=False)


def iter_curves(df, keys=None):
    """Return a list of ``(config_dict, curve_frame)`` pairs, one per curve, sorted by config."""
    keys = curve_keys(df) if keys is None else list(keys)
    if not keys:
        return [({}, df)] if len(df) else []
    out = []
    for values, curve in curves(df, keys):
        values = values if isinstance(values, tuple) else (values,)
        out.append((dict(zip(keys, values)), curve))
    return out


def throughput_mbps(curve):
    """Return the throughput column of ``curve`` in Mbit/s.

    Uses ``mbps``, else ``mbytes_per_s * 8``, else ``block * 8 / oneway_us``.
    """
    if "mbps" in curve.columns:
        return pd.to_numeric(curve["mbps"], errors="coerce")
    if "mbytes_per_s" in curve.columns:
        return pd.to_numeric(curve["mbytes_per_s"], errors="coerce") * 8.0
    block = block_column(curve)
    if block is not None and "oneway_us" in curve.columns:
        return curve[block] * 8.0 / pd.to_numeric(curve["oneway_us"], errors="coerce")
    raise KeyError("no throughput column (mbps, mbytes_per_s or block+oneway_us)")


def oneway_us(curve):
    """Return the one-way time column of ``curve`` in microseconds.

    Uses ``oneway_us``, else ``latency_us``, else ``block * 8 / mbps``.
    """
    for name in ("oneway_us", "latency_us"):
        if name in curve.columns:
            return pd.to_numeric(curve[name], errors="coerce")
    block = block_column(curve)
    if block is not None and "mbps" in curve.columns:
        return curve[block] * 8.0 / pd.to_numeric(curve["mbps"], errors="coerce")
    raise KeyError("no one-way time column (oneway_us, latency_us or block+mbps)")


def by_block(curve, values):
    """Average ``values`` (a Series aligned with ``curve``) per block size; sorted by block."""
    block = block_column(curve)
    if block is None:
        raise KeyError("no block-size column (block_bytes or msg_bytes)")
    sizes = pd.to_numeric(curve[block], errors="coerce").astype(float)
    frame = pd.DataFrame({"block": sizes, "value": values}).dropna()
    return frame.groupby("block", sort=True)["value"].mean()


def _as_number(msg):
    """Return ``msg`` as a float, or NaN when it is not a number (e.g. ``"4096..12288"``)."""
    try:
        value = float(msg)
    except (TypeError, ValueError):
        return math.nan
    return value


def value_at(series, msg):
    """Value of a block-indexed ``series`` at block ``msg``.

    Exact block match first, else linear interpolation in block size between the neighbouring
    blocks; NaN outside the measured range, on an empty series or a non-numeric ``msg``.
    """
    x = _as_number(msg)
    if math.isnan(x) or series.empty:
        return math.nan
    if x in series.index:
        return float(series.loc[x])
    blocks = series.index.to_numpy(dtype=float)
    if x < blocks[0] or x > blocks[-1]:
        return math.nan
    return float(np.interp(x, blocks, series.to_numpy(dtype=float)))


def peak_mbps(curve):
    """Highest throughput (Mbit/s) over the whole curve; NaN for an empty curve."""
    values = throughput_mbps(curve)
    return float(values.max()) if values.notna().any() else math.nan


def latency_us(curve, msg=None):
    """One-way time (µs) of the smallest block, or of block ``msg`` when given."""
    series = by_block(curve, oneway_us(curve))
    if series.empty:
        return math.nan
    if msg is None:
        return float(series.iloc[0])
    return value_at(series, msg)


def mbps_at(curve, msg):
    """Throughput (Mbit/s) at block ``msg``: exact match, else interpolated; NaN outside range."""
    return value_at(by_block(curve, throughput_mbps(curve)), msg)


def curve_table(df, keys=None):
    """One row per curve: its configuration columns, ``peak_mbps``, ``latency_us``, ``points``."""
    rows = []
    for cfg, curve in iter_curves(df, keys):
        row = dict(cfg)
        row["peak_mbps"] = peak_mbps(curve)
        row["latency_us"] = latency_us(curve)
        row["points"] = len(curve)
        rows.append(row)
    return pd.DataFrame(rows)
