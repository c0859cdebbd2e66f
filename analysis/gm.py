"""Myrinet GM benchmarks (seed 001 §4.3): the ``gm_allsize`` dropout and ``logp_test``'s LogP.

``gm_allsize`` data (scenario ``myrinet-gm-allsize``) is NetPIPE-like: columns
``nic,host,pci,mode,msg_bytes,latency_us,mbytes_per_s,reps,host_cpu_us``, one curve per
``mode`` (``uni``, ``bi``, ``logp``); :func:`dropout_at_bytes` finds where its throughput first
falls.

``logp_test`` data (scenario ``myrinet-gm-logp``) has the columns
``nic,host,pci,msg_bytes,delta_us,burst,us_per_send,rtt_us,host_cpu_us``: for each message
size, inter-send delay ``delta_us`` and burst size ``burst``, the average time per send over
the burst (µs), and the ping-pong round trip ``rtt_us`` of that message size. A *LogP curve*
is ``us_per_send`` against ``burst`` for one (message size, delay); rows measured more than
once are averaged.

The LogP parameters are read off the curves as the paper does:

- ``Os`` (:func:`os_us`): time per send at the smallest burst with delay 0, where the sender
  sends the whole burst before any acknowledgement comes back.
- gap (:func:`gap_us`): the asymptotic time per send at one delay, i.e. the slope of the total
  burst time ``burst * us_per_send`` against ``burst`` between the two largest bursts. ``g`` is
  the gap at delay 0 (:func:`g_us`), ``g'`` the gap at a delay longer than ``g``
  (:func:`g_prime_us`).
- transition (:func:`burst_transition`): the end of the initial plateau of the delay-0 curve,
  the largest burst up to which every burst's time per send is within 2 % of ``Os``. The paper
  reads it as about ``RTT / Os``.
- ``Or`` (:func:`or_us`): ``g' - delta - Os`` for the largest measured delay ``delta > g``,
  as logp_test's users read it. A negative estimate (seed 001's own is -1.84 µs, "the receive
  overhead is negligible") means the receive overhead is below what the burst test resolves:
  :func:`or_us` returns it with a warning, and :func:`logp_table` flags it (``or_negative``).
- host CPU per message: the ``host_cpu_us`` column, both hosts' CPU time on GM calls per
  message sent (send and receive together), GM's figure of merit; the report prints it.
- ``L`` (:func:`L_us`): ``RTT / 2 - Or - Os``.

Every metric function returns a float, or NaN with a ``UserWarning`` naming the reason when the
data cannot give it (missing column, no rows, too few bursts, no drop, no delay above ``g``).
The functions take rows of one configuration (one NIC/host/PCI); the caller selects them.
"""

import math
import warnings

import numpy as np
import pandas as pd

from . import netpipe

LOGP_COLUMNS = ["nic", "host", "pci", "msg_bytes", "delta_us", "burst", "us_per_send", "rtt_us",
                "host_cpu_us"]
LOGP_MEASURES = frozenset({"msg_bytes", "delta_us", "burst", "us_per_send", "rtt_us"})
CURVE_COLUMNS = ("msg_bytes", "delta_us", "burst", "us_per_send")
DROP_FRACTION = 0.05
PLATEAU_TOLERANCE = 0.02


class Uncomputable(ValueError):
    """A metric the data cannot give; the message says why."""


def config_keys(df):
    """Configuration columns of logp_test data: all but the measurements (``nic,host,pci``)."""
    return [c for c in df.columns
            if c not in LOGP_MEASURES and not netpipe.is_measure_column(str(c))]


def is_logp(df):
    """True when ``df`` has the columns of a LogP curve (message size, delay, burst, time)."""
    return all(c in df.columns for c in CURVE_COLUMNS)


def _need(data, columns):
    missing = [c for c in columns if c not in data.columns]
    if missing:
        raise Uncomputable(f"no column {', '.join(missing)} in the data")


def _number(value, what):
    try:
        x = float(value)
    except (TypeError, ValueError):
        x = math.nan
    if math.isnan(x):
        raise Uncomputable(f"{what} {value!r} is not a number")
    return x


def _equals(column, value):
    """Mask of the numeric ``column`` equal to ``value`` (to 1e-9 relative)."""
    col = pd.to_numeric(column, errors="coerce").astype(float)
    return (col - value).abs() <= 1e-9 * max(1.0, abs(value))


def _numeric_values(column):
    """Sorted distinct finite numbers of ``column``."""
    values = pd.to_numeric(column, errors="coerce").dropna().astype(float).unique()
    return sorted(float(v) for v in values)


def message_sizes(data):
    """Sorted distinct message sizes (``msg_bytes``) of ``data``; [] without the column."""
    return _numeric_values(data["msg_bytes"]) if "msg_bytes" in data.columns else []


def _msg(data, msg):
    """``msg`` as a float; when None, the only message size of ``data``."""
    if msg is not None:
        return _number(msg, "message size")
    sizes = message_sizes(data)
    if len(sizes) != 1:
        raise Uncomputable(f"no message size given and the data hold {len(sizes)}")
    return sizes[0]


def deltas(data, msg):
    """Sorted distinct inter-send delays (µs) measured for message size ``msg``."""
    _need(data, ("msg_bytes", "delta_us"))
    rows = data[_equals(data["msg_bytes"], _msg(data, msg))]
    return _numeric_values(rows["delta_us"])


def logp_curve(data, msg=None, delta=0.0):
    """Average time per send (µs) against burst size for one message size and delay.

    A Series indexed by burst (float, ascending); bursts measured more than once are averaged;
    empty when there are no such rows. ``msg`` None: the only message size of ``data``.
    Raises :class:`Uncomputable` (a ``ValueError``) when a column is missing.
    """
    _need(data, CURVE_COLUMNS)
    msg = _msg(data, msg)
    delta = _number(0.0 if delta is None else delta, "delay")
    rows = data[_equals(data["msg_bytes"], msg) & _equals(data["delta_us"], delta)]
    frame = pd.DataFrame({"burst": pd.to_numeric(rows["burst"], errors="coerce"),
                          "t": pd.to_numeric(rows["us_per_send"], errors="coerce")}).dropna()
    frame["burst"] = frame["burst"].astype(float)
    return frame.groupby("burst", sort=True)["t"].mean()


def _curve(data, msg, delta, points=1):
    curve = logp_curve(data, msg, delta)
    if len(curve) < points:
        what = "no rows" if curve.empty else f"only {len(curve)} burst size"
        raise Uncomputable(f"{what} for msg {_fmt(_msg(data, msg))} at delta_us "
                           f"{_fmt(delta)} (need {points})")
    return curve


def _fmt(x):
    return f"{float(x):g}"


def _os(data, msg):
    return float(_curve(data, msg, 0.0).iloc[0])


def _gap(data, msg, delta):
    curve = _curve(data, msg, delta, points=2)
    (b1, b2), (t1, t2) = curve.index[-2:], curve.to_numpy()[-2:]
    return float((b2 * t2 - b1 * t1) / (b2 - b1))


def _transition(data, msg, tolerance):
    curve = _curve(data, msg, 0.0)
    os_value = float(curve.iloc[0])
    within = np.abs(curve.to_numpy() - os_value) <= tolerance * abs(os_value)
    if within.all():
        raise Uncomputable(f"the delta 0 curve of msg {_fmt(_msg(data, msg))} stays within "
                           f"{tolerance:.0%} of Os up to the largest burst "
                           f"({_fmt(curve.index[-1])}); no transition measured")
    first_out = int(np.argmin(within))
    return float(curve.index[first_out - 1])


def _or_delta(data, msg):
    """The largest delay above ``g`` measured for ``msg``, and ``g``."""
    g = _gap(data, msg, 0.0)
    above = [d for d in deltas(data, msg) if d > g]
    if not above:
        raise Uncomputable(f"no delta_us > g ({g:.4g} us) measured for msg "
                           f"{_fmt(_msg(data, msg))}; Or needs one")
    return max(above), g


def _or(data, msg):
    delta, _ = _or_delta(data, msg)
    return _gap(data, msg, delta) - delta - _os(data, msg)


def _mean_of(data, msg, column):
    """The mean of ``column`` over the rows of message size ``msg``."""
    _need(data, ("msg_bytes", column))
    msg = _msg(data, msg)
    values = pd.to_numeric(data.loc[_equals(data["msg_bytes"], msg), column],
                           errors="coerce").dropna()
    if values.empty:
        raise Uncomputable(f"no {column} for msg {_fmt(msg)}")
    return float(values.mean())


def _rtt(data, msg):
    return _mean_of(data, msg, "rtt_us")


def _latency(data, msg):
    return _rtt(data, msg) / 2.0 - _or(data, msg) - _os(data, msg)


def _or_nan(name, fn, *args):
    """``fn(*args)``, or NaN with a warning when it raises :class:`Uncomputable`."""
    try:
        return fn(*args)
    except Uncomputable as exc:
        warnings.warn(f"{name}: {exc}", stacklevel=3)
        return math.nan


def os_us(data, msg=None):
    """Send overhead Os (µs): time per send at the smallest burst with ``delta_us`` 0."""
    return _or_nan("os_us", _os, data, msg)


def gap_us(data, msg=None, delta=0.0):
    """Gap (µs) at delay ``delta``: slope of ``burst * us_per_send`` over the 2 largest bursts."""
    return _or_nan("gap_us", _gap, data, msg, delta)


def g_us(data, msg=None):
    """Gap g (µs): :func:`gap_us` at delay 0."""
    return _or_nan("g_us", _gap, data, msg, 0.0)


def g_prime_us(data, msg=None, delta=None):
    """Gap g' (µs) at delay ``delta``; None: at the largest measured delay above ``g``."""
    def value():
        d = _or_delta(data, msg)[0] if delta is None else delta
        return _gap(data, msg, d)
    return _or_nan("g_prime_us", value)


def burst_transition(data, msg=None, tolerance=PLATEAU_TOLERANCE):
    """End of the initial plateau of the delay-0 curve (a burst size).

    The largest burst ``b`` such that every burst up to ``b`` has a time per send within
    ``tolerance`` (2 %) of Os. NaN when the curve never leaves the plateau in the data.
    """
    return _or_nan("burst_transition", _transition, data, msg, tolerance)


def or_us(data, msg=None):
    """Receive overhead Or (µs): ``g' - delta - Os`` at the largest measured delay above g.

    A negative estimate is returned as it is (``L`` uses it, as seed 001 does) with a warning
    that it is below what the burst test resolves."""
    value = _or_nan("or_us", _or, data, msg)
    if value < 0:
        warnings.warn(f"or_us: Or = g' - delta - Os = {value:.3g} us is negative: the receive "
                      "overhead is below what the burst test resolves (seed 001 reads its "
                      "-1.84 us as negligible)", stacklevel=2)
    return value


def rtt_us(data, msg=None):
    """Round-trip time (µs) of message size ``msg`` (mean of its ``rtt_us`` values)."""
    return _or_nan("rtt_us", _rtt, data, msg)


def L_us(data, msg=None):  # noqa: N802 - named after the LogP parameter and the metric
    """Latency L (µs): ``RTT / 2 - Or - Os``; NaN when Or cannot be computed."""
    return _or_nan("L_us", _latency, data, msg)


def _quiet(fn, *args):
    try:
        return fn(*args)
    except Uncomputable:
        return math.nan


def logp_table(data):
    """One row per message size: the LogP parameters, without warnings (NaN where missing).

    Columns ``msg_bytes, rtt_us, os_us, g_us, or_us, L_us, L_or0_us, or_assumed_zero,
    or_negative``: ``L_or0_us`` is ``RTT / 2 - Os - Or`` with Or taken as 0 where it cannot be
    computed (no delay above g), which ``or_assumed_zero`` flags; ``or_negative`` flags an Or
    estimate below zero (below what the burst test resolves). Figure 4 of seed 001 plots RTT,
    L and g.
    """
    rows = []
    for msg in message_sizes(data):
        row = {"msg_bytes": msg, "rtt_us": _quiet(_rtt, data, msg),
               "os_us": _quiet(_os, data, msg), "g_us": _quiet(_gap, data, msg, 0.0),
               "or_us": _quiet(_or, data, msg)}
        row["L_us"] = row["rtt_us"] / 2.0 - row["or_us"] - row["os_us"]
        row["or_assumed_zero"] = math.isnan(row["or_us"])
        or_value = 0.0 if row["or_assumed_zero"] else row["or_us"]
        row["L_or0_us"] = row["rtt_us"] / 2.0 - or_value - row["os_us"]
        row["or_negative"] = bool(row["or_us"] < 0)
        rows.append(row)
    columns = ["msg_bytes", "rtt_us", "os_us", "g_us", "or_us", "L_us", "L_or0_us",
               "or_assumed_zero", "or_negative"]
    return pd.DataFrame(rows, columns=columns)


def _throughput(curve):
    """Throughput of a curve in Mbit/s: a throughput column, else size / one-way time."""
    try:
        return netpipe.throughput_mbps(curve)
    except KeyError:
        pass
    block = netpipe.block_column(curve)
    try:
        oneway = netpipe.oneway_us(curve)
    except KeyError:
        oneway = None
    if block is None or oneway is None:
        raise Uncomputable("no throughput column (mbps, mbytes_per_s) and no message size "
                           "with a one-way time (oneway_us, latency_us)")
    return pd.to_numeric(curve[block], errors="coerce") * 8.0 / oneway


def _dropout(curve, drop):
    try:
        series = netpipe.by_block(curve, _throughput(curve))
    except KeyError as exc:
        raise Uncomputable(exc.args[0] if exc.args else str(exc)) from exc
    sizes, thr = series.index.to_numpy(dtype=float), series.to_numpy(dtype=float)
    for i in range(len(thr) - 1):
        if thr[i + 1] < (1.0 - drop) * thr[i]:
            return float(sizes[i])
    raise Uncomputable(f"throughput never falls by more than {drop:.0%} from one message size "
                       "to the next")


def dropout_at_bytes(curve, drop=DROP_FRACTION):
    """Message size after which a throughput curve first falls by more than ``drop`` (5 %).

    Over the curve sorted by message size (duplicates averaged), the first size ``s_i`` with
    ``thr[i+1] < (1 - drop) * thr[i]``; returns ``s_i``. NaN (with a warning) when there is no
    such drop or no throughput column. Throughput from ``mbps``, ``mbytes_per_s`` or
    size / one-way time (``oneway_us`` or ``latency_us``); the unit does not matter for a
    relative drop.
    """
    return _or_nan("dropout_at_bytes", _dropout, curve, drop)
