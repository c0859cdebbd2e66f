"""NetPIPE curves: throughput and one-way time against block size.

A NetPIPE ``data.csv`` has the columns ``nic,host,pci,mtu,sockbuf,block_bytes,oneway_us,mbps,
reps``: configuration columns, then one row per block size. A *curve* is the set of rows
sharing one configuration. The functions here take either one curve or a whole data frame.

Throughput is ``block_bytes * 8 / oneway_us`` in Mbit/s (10^6 bit/s); latency is the one-way
time of the smallest block. Blocks measured more than once in a curve are averaged.

A block size may also be given as an inclusive range ``"A..B"`` (:func:`block_range`): the
point functions (:func:`value_at`, :func:`mbps_at`, :func:`latency_us`) give NaN for it, and
:func:`mean_mbps` averages over the blocks inside it. :func:`pivot_bytes` locates where a curve
changes regime (a short/long message protocol switch).
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


def block_range(msg):
    """``(lo, hi)`` of an inclusive block-size range ``"A..B"``, as floats; None otherwise.

    A plain number (``4096``), None, or text that is not two numbers around ``..`` is not a
    range. The bounds are kept as written, so ``"8..4"`` gives ``(8.0, 4.0)``, which contains
    no block.
    """
    if not isinstance(msg, str) or ".." not in msg:
        return None
    lo, _, hi = msg.partition("..")
    lo, hi = _as_number(lo), _as_number(hi)
    if math.isnan(lo) or math.isnan(hi):
        return None
    return lo, hi


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


def mean_mbps(curve, lo, hi):
    """Mean throughput (Mbit/s) over the curve's block sizes in ``[lo, hi]`` (inclusive).

    Each block counts once (its repeats averaged first), whatever the spacing of the sizes;
    nothing is interpolated. NaN when no block lies in the range.
    """
    series = by_block(curve, throughput_mbps(curve))
    inside = series[(series.index >= lo) & (series.index <= hi)]
    return float(inside.mean()) if len(inside) else math.nan


def pivot_bytes(curve, min_bytes=1024):
    """Block size (bytes) where the throughput curve changes regime; NaN if not computable.

    Definition. Take the curve's distinct block sizes ``b_i >= min_bytes`` (repeats averaged,
    sizes without a positive throughput ``T`` dropped) and, for each consecutive pair
    ``b_i < b_{i+1}``, the growth of the throughput per doubling of the size::

        g_i = log2(T(b_{i+1}) / T(b_i)) / log2(b_{i+1} / b_i)

    i.e. the local slope of the curve on log-log axes. With ``k`` the index of the largest
    ``g_i`` (the first one on a tie), the pivot is ``b_k``: the last size before the steepest
    climb. On a curve that levels off and then rises steeply, that is the end of the plateau.

    Reasoning. A short/long message protocol switch shows as a plateau followed by a steep
    rise (seed 001 sec. 4.5, MPICH-GM: "the throughput performance is clearly being separated
    into two regions due to the short-long message protocol. The pivot point is roughly 12
    Kbytes. The throughput reaches a steady state of approximately 19 Mbytes/s between 4 Kbytes
    to 12Kbytes. Then, the throughput curve grows steeply"). Since ``T = b / t`` (``t`` the
    one-way time), ``g = 1 - dlog t / dlog b``: ``g = 1`` while the time stays constant (the
    latency-dominated start, which ``min_bytes`` leaves out), ``g = 0`` on a plateau (time
    proportional to size), and ``g > 1`` only where the time *falls* as the size grows, which
    is what a faster protocol taking over does. The growth is per doubling so that it does not
    depend on how densely the sizes are sampled (NetPIPE's ``b-3, b, b+3`` triplets against its
    ~1.5x main steps). The definition reads the curve alone, not the simulator's switch-over
    setting, so it checks the shape of the curve rather than echoing a parameter.

    NetPIPE measures each size as a triplet ``b-3, b, b+3``; sizes within 1 % of each other
    are taken as one point (mean throughput, middle size), so the 3-byte steps, where a little
    timing noise is a large slope per doubling, do not count: the pivot is the middle size of
    the triplet that ends the plateau (12288 for the MPICH-GM curve). On a curve that never
    rises faster than its size (``g <= 1`` everywhere) the maximum is at whichever step kept
    the time most nearly constant. NaN when fewer than two usable points are at or above
    ``min_bytes``.
    """
    series = by_block(curve, throughput_mbps(curve))
    series = series[(series.index >= min_bytes) & (series > 0) & np.isfinite(series)]
    points = []  # [(sizes, throughputs)] of each group of nearby sizes
    for block, value in series.items():
        if points and block <= points[-1][0][0] * 1.01:
            points[-1][0].append(block)
            points[-1][1].append(value)
        else:
            points.append(([block], [value]))
    if len(points) < 2:
        return math.nan
    blocks = np.array([float(sizes[(len(sizes) - 1) // 2]) for sizes, _ in points])
    values = np.array([float(np.mean(vals)) for _, vals in points])
    growth = np.log2(values[1:] / values[:-1]) / np.log2(blocks[1:] / blocks[:-1])
    return float(blocks[int(np.argmax(growth))])


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


def n_half_bytes(curve):
    """Message size (bytes) at which the throughput first reaches half of the curve's peak.

    Linear interpolation between the last block below half the peak and the first at or above
    it; the first block's size if it already reaches half; NaN for a curve without throughput.
    """
    series = by_block(curve, throughput_mbps(curve))
    series = series[series > 0]
    if series.empty:
        return math.nan
    half = float(series.max()) / 2.0
    blocks = series.index.to_numpy(dtype=float)
    values = series.to_numpy(dtype=float)
    for i, value in enumerate(values):
        if value >= half:
            if i == 0:
                return float(blocks[0])
            x0, x1, y0, y1 = blocks[i - 1], blocks[i], values[i - 1], values[i]
            return float(x0 + (half - y0) * (x1 - x0) / (y1 - y0))
    return math.nan


def falls_from_bytes(curve, drop=0.05):
    """Block size (bytes) of the curve's peak when the throughput falls after it.

    The curve "falls" when some larger block has a throughput at least ``drop`` (relative)
    below the peak; a curve that only levels off gives NaN.
    """
    series = by_block(curve, throughput_mbps(curve)).dropna()
    if series.empty:
        return math.nan
    peak_block = float(series.idxmax())
    after = series[series.index > peak_block]
    if after.empty or float(after.min()) > float(series.max()) * (1.0 - drop):
        return math.nan
    return peak_block
