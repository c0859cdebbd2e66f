"""Seed 003's derived quantities: gaps, ratios, counts and yes/no facts of whole curves.

Seed 003 (Majumder & Rixner) states its results as comparisons of setups: a latency gap, a
saturation bandwidth, how many NAS configurations one stack wins. Its figures were predicted
blind twice (hence the module's name) before its 22 reference rows were released; now
:func:`analysis.summary.build_summary` takes the simulated value of each of those rows from
here (:data:`SCENARIO_PREDICTIONS`) and the scenarios write ``summary.csv`` like the others.

The frames have the columns :data:`PREDICTION_COLUMNS` (``experiment,config,metric,sim_value,
scale``), one row per quantity. ``config`` is a ``key=value;...`` string exactly as in the
reference table; ``a-vs-b`` in a value names a difference ``a - b`` (a gap), and for a gap
``scale`` is the larger magnitude of the two simulated quantities compared (what
:func:`analysis.summary.score_error` divides the gap's error by); it is NaN for other rows.

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

Seed 003 sec. 3.2, scenario ``lampi-latency-bandwidth`` (Figs. 3 and 4): its ``data.csv`` has
the columns ``stack,net,nic,host,msg_bytes,latency_us,mbps,reps,stream_msgs,unexpected_pct``,
one row per (stack, message size); a curve is one MPI stack of :data:`LAMPI_STACKS`
(``lampi-tcp``, ``lampi-tcp-ed``, ``lampi-gm``, ``mpich-gm``). ``latency_us`` is the one-way MPI
ping-pong latency, ``mbps`` the unidirectional MPI bandwidth in Mbit/s; sizes are powers of two
from 4 bytes to 2 MB. Only ``stack,msg_bytes,latency_us,mbps`` are required
(:data:`LAMPI_COLUMNS`). A size measured more than once in a stack is averaged.

Seed 003 sec. 4, scenario ``nas-overlap`` (Fig. 5): its ``data.csv`` has the columns
``config,bench,class,ranks,stack,net,time_s,compute_s,steps_simulated,steps``, one row per
(config, stack). ``config`` names a NAS benchmark run as ``bench.CLASS.ranks`` (``bt.B.4``,
``is.C.8``; the 15 of Fig. 5 are :data:`NAS_CONFIGS`), ``stack`` one MPI stack of
:data:`NAS_STACKS` (``net`` ``gige`` or ``myrinet``). ``time_s`` is the benchmark's (estimated)
execution time in seconds; ``compute_s`` (its computation alone, s), ``steps_simulated`` and
``steps`` are informational. Only ``config,stack,time_s`` are required (:data:`NAS_COLUMNS`);
``time_s`` must be a positive number (a blank counts as not measured). A (config, stack)
measured more than once is averaged. The figure shows each time over the LA-MPI-GM time of the
same config (:func:`nas_normalized`).
"""

import math

import pandas as pd

from analysis.catalogue import profile_value

PREDICTION_COLUMNS = ["experiment", "config", "metric", "sim_value", "scale"]
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

LAMPI_COLUMNS = ("stack", "msg_bytes", "latency_us", "mbps")
LAMPI_NUMERIC = ("msg_bytes", "latency_us", "mbps")
# The curves of seed 003 Figs. 3 and 4, in legend order.
LAMPI_STACKS = ("lampi-tcp", "lampi-tcp-ed", "lampi-gm", "mpich-gm")
# "stack=all" in a config: the LA-MPI stacks (MPICH-GM is drawn for comparison only).
LAMPI_ALL = ("lampi-tcp", "lampi-tcp-ed", "lampi-gm")
LAMPI_SMALL_MSG = 4              # bytes: TCP-vs-GM latency gap of the smallest message
LAMPI_MEDIUM_MSG = 65536         # bytes: the same gap at the right end of Fig. 3
LAMPI_LARGE_MSG = 2097152        # bytes: the right end of Fig. 4

NAS_COLUMNS = ("config", "stack", "time_s")


def lampi_eager_limit():
    """Bytes: the largest message LA-MPI sends eagerly (the eager range), as its profile
    (``lampi-tcp`` ``mpi.EagerLimit``) sets it; read when asked, not at import."""
    return int(profile_value("mpi", "lampi-tcp", "mpi", "EagerLimit"))


def lampi_rendezvous_msg():
    """Bytes: the next size of Figs. 3-4 after the eager limit (powers of two)."""
    return 2 * lampi_eager_limit()
NAS_NUMERIC = ("time_s",)
# The 15 configurations (bench.CLASS.ranks) of seed 003 Fig. 5, in its order.
NAS_CONFIGS = ("bt.B.4", "bt.B.9", "bt.C.9", "sp.B.4", "sp.B.9", "sp.C.9", "lu.B.4", "lu.B.8",
               "lu.C.8", "is.B.4", "is.B.8", "is.C.8", "mg.B.4", "mg.B.8", "mg.C.8")
# The MPI stacks of Fig. 5, in legend order (the same as Figs. 3 and 4).
NAS_STACKS = LAMPI_STACKS
NAS_BASELINE = "lampi-gm"   # Fig. 5 divides every time by this stack's time
NAS_IS_CONFIG = "is.C.8"    # the config of the TCP-ED-vs-GM speedup row


class InputError(ValueError):
    """The data cannot give predictions (a required column missing, a non-numeric value)."""


def require_input_columns(data, columns, numeric):
    """Raise :class:`InputError` unless ``data`` has every column of ``columns`` and numbers (or
    blanks) in the columns of ``numeric``."""
    missing = [c for c in columns if c not in data.columns]
    if missing:
        raise InputError(f"missing column(s) {', '.join(missing)} "
                         f"(needs {', '.join(columns)})")
    for column in numeric:
        values = pd.to_numeric(data[column], errors="coerce")
        bad = values.isna() & data[column].notna()
        if bad.any():
            raise InputError(f"column {column} is not numeric "
                             f"(e.g. {data[column][bad].iloc[0]!r})")


def require_raw_columns(data):
    """Raise :class:`InputError` unless ``data`` has every column of :data:`RAW_COLUMNS` and
    numbers (or blanks) in :data:`RAW_NUMERIC`."""
    require_input_columns(data, RAW_COLUMNS, RAW_NUMERIC)


def require_lampi_columns(data):
    """Raise :class:`InputError` unless ``data`` has every column of :data:`LAMPI_COLUMNS` and
    numbers (or blanks) in :data:`LAMPI_NUMERIC`."""
    require_input_columns(data, LAMPI_COLUMNS, LAMPI_NUMERIC)


def _text(series):
    return series.astype(str).str.strip().str.lower()


def _by_size(rows, columns):
    """``columns`` of ``rows`` as numbers indexed by ``msg_bytes`` (ascending, duplicates
    averaged, rows without a size dropped)."""
    rows = rows[list(columns)].apply(pd.to_numeric, errors="coerce")
    rows = rows.dropna(subset=["msg_bytes"])
    return rows.groupby("msg_bytes").mean().sort_index()


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
    return _by_size(data.loc[keep], RAW_NUMERIC)


def raw_curves(data):
    """``{name: curve}`` of :data:`RAW_CURVES` (see :func:`raw_curve`); every name present."""
    return {name: raw_curve(data, net, co) for name, (net, co) in RAW_CURVES.items()}


def value_at(curve, column, msg):
    """``curve[column]`` at message size ``msg``; None when not measured there."""
    if msg not in curve.index:
        return None
    value = float(curve.at[msg, column])
    return None if math.isnan(value) else value


def saturation_mbps(curve, limit=None):
    """The highest ``mbps`` of ``curve`` over all its sizes (only sizes ``<= limit`` unless
    ``limit`` is None); None without any."""
    values = curve["mbps"].dropna() if "mbps" in curve.columns else pd.Series(dtype=float)
    if limit is not None:
        values = values[values.index <= limit]
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


def larger(a, b):
    """``max(|a|, |b|)``, the scale of the gap ``a - b``; None when either is None."""
    return None if a is None or b is None else max(abs(a), abs(b))


def gap_item(config, metric, a, b):
    """``(config, metric, a - b, max(|a|, |b|))``: a gap row with its scale (see
    :func:`prediction_rows`)."""
    return (config, metric, difference(a, b), larger(a, b))


def mean_difference(a, b, column, limit):
    """Mean of ``a[column] - b[column]`` over the sizes ``<= limit`` where both have a value;
    None when they share no such size."""
    means = shared_means(a, b, column, limit)
    return None if means is None else means[0] - means[1]


def shared_means(a, b, column, limit):
    """``(mean of a[column], mean of b[column])`` over the sizes ``<= limit`` where both have a
    value; None when they share no such size."""
    x = a[column].dropna()
    y = b[column].dropna()
    sizes = [s for s in x.index.intersection(y.index) if s <= limit]
    if not sizes:
        return None
    return (float(sum(x[s] for s in sizes) / len(sizes)),
            float(sum(y[s] for s in sizes) / len(sizes)))


def max_ratio(curves, column, num, den):
    """The largest ``curve[column]`` at ``num`` over the same at ``den``, over the ``curves``
    that have both values (a zero denominator does not count); None when none has."""
    ratios = []
    for curve in curves:
        top, bottom = value_at(curve, column, num), value_at(curve, column, den)
        if top is not None and bottom:
            ratios.append(top / bottom)
    return max(ratios) if ratios else None


def drops(curves, column, before, after):
    """1 when every curve of ``curves`` that has ``column`` at both sizes is lower at ``after``
    than at ``before``, else 0; None when no curve has both values."""
    pairs = [(value_at(c, column, before), value_at(c, column, after)) for c in curves]
    pairs = [(b, a) for b, a in pairs if b is not None and a is not None]
    if not pairs:
        return None
    return int(all(a < b for b, a in pairs))


def _missing(value):
    return value is None or (isinstance(value, float) and math.isnan(value))


def prediction_rows(experiment, items):
    """DataFrame of :data:`PREDICTION_COLUMNS` from ``[(config, metric, value)]`` or
    ``[(config, metric, value, scale)]`` (a gap's scale, :func:`gap_item`); the items whose
    value is None or NaN are left out, a missing scale is NaN."""
    rows = []
    for config, metric, value, *scale in items:
        if _missing(value):
            continue
        scale = scale[0] if scale and not _missing(scale[0]) else math.nan
        rows.append({"experiment": experiment, "config": config, "metric": metric,
                     "sim_value": value, "scale": float(scale)})
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
        gap_item(f"net=myrinet-vs-gige;coalesce=on;msg={m}", "latency_gap_us",
                 lat["myrinet"][m], lat["gige-on"][m]),
        gap_item(f"net=myrinet-vs-gige;coalesce=off;msg={m}", "latency_gap_us",
                 lat["myrinet"][m], lat["gige-off"][m]),
        gap_item(f"net=gige;coalesce=on-vs-off;msg={n}", "latency_gap_us",
                 lat["gige-on"][n], lat["gige-off"][n]),
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
        gap_item("net=gige;coalesce=on-vs-off", "saturation_gap_mbps", peak["gige-on"],
                 peak["gige-off"]),
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


def lampi_curve(data, stack):
    """One stack of lampi-latency-bandwidth data: ``latency_us`` and ``mbps`` indexed by
    ``msg_bytes`` (ascending, duplicates averaged).

    Selects the rows whose ``stack`` is ``stack`` (case-insensitive). Empty (no rows) when the
    stack was not run.
    """
    require_lampi_columns(data)
    return _by_size(data.loc[_text(data["stack"]) == stack.lower()], LAMPI_NUMERIC)


def lampi_curves(data):
    """``{stack: curve}`` of :data:`LAMPI_STACKS` (see :func:`lampi_curve`); every stack
    present, in legend order."""
    return {stack: lampi_curve(data, stack) for stack in LAMPI_STACKS}


def mpi_latency_predictions(data):
    """Seed 003 Fig. 3 (``mpi-latency``): one-way MPI latency.

    - ``stack=lampi-tcp-vs-gm;msg=4`` and ``...;msg=65536`` ``latency_gap_us``: LA-MPI-TCP minus
      LA-MPI-GM at 4 and at 65536 bytes;
    - ``stack=lampi-tcp-ed-vs-tcp`` ``latency_gap_us``: LA-MPI-TCP-ED minus LA-MPI-TCP, the mean
      over the sizes up to 16384 bytes (the eager range) measured in both (its scale the larger
      of the two stacks' mean latencies over those sizes);
    - ``stack=all;msg=32768-vs-16384`` ``latency_ratio``: the largest latency(32768) /
      latency(16384) of the LA-MPI stacks (:data:`LAMPI_ALL`) that have both sizes.
    """
    c = lampi_curves(data)
    limit, rendezvous = lampi_eager_limit(), lampi_rendezvous_msg()
    eager = shared_means(c["lampi-tcp-ed"], c["lampi-tcp"], "latency_us", limit)
    lat = {stack: {msg: value_at(curve, "latency_us", msg)
                   for msg in (LAMPI_SMALL_MSG, LAMPI_MEDIUM_MSG)} for stack, curve in c.items()}
    s, m = LAMPI_SMALL_MSG, LAMPI_MEDIUM_MSG
    return prediction_rows("mpi-latency", [
        gap_item(f"stack=lampi-tcp-vs-gm;msg={s}", "latency_gap_us", lat["lampi-tcp"][s],
                 lat["lampi-gm"][s]),
        gap_item(f"stack=lampi-tcp-vs-gm;msg={m}", "latency_gap_us", lat["lampi-tcp"][m],
                 lat["lampi-gm"][m]),
        gap_item("stack=lampi-tcp-ed-vs-tcp", "latency_gap_us", *(eager or (None, None))),
        (f"stack=all;msg={rendezvous}-vs-{limit}", "latency_ratio",
         max_ratio([c[k] for k in LAMPI_ALL], "latency_us", rendezvous, limit)),
    ])


def mpi_bw_predictions(data):
    """Seed 003 Fig. 4 (``mpi-bw``): unidirectional MPI bandwidth in Mbit/s.

    - ``stack=lampi-tcp;msg<=16384`` and ``stack=lampi-gm;msg<=16384`` ``saturation_mbps``: the
      highest bandwidth of the stack over the eager range (sizes up to 16384 bytes);
    - ``stack=all;msg=16384-to-32768`` ``drop``: 1 when every LA-MPI stack (:data:`LAMPI_ALL`)
      that has both sizes is slower at 32768 bytes than at 16384, else 0;
    - ``stack=lampi-gm;msg=2097152`` and ``stack=lampi-tcp;msg=2097152`` ``mbps``: the bandwidth
      at 2 MB;
    - ``stack=lampi-tcp-ed-vs-tcp;msg=2097152`` ``gap_mbps``: LA-MPI-TCP-ED minus LA-MPI-TCP at
      2 MB.
    """
    c = lampi_curves(data)
    eager, big = lampi_eager_limit(), LAMPI_LARGE_MSG
    at_big = {stack: value_at(curve, "mbps", big) for stack, curve in c.items()}
    return prediction_rows("mpi-bw", [
        (f"stack=lampi-tcp;msg<={eager}", "saturation_mbps",
         saturation_mbps(c["lampi-tcp"], eager)),
        (f"stack=lampi-gm;msg<={eager}", "saturation_mbps",
         saturation_mbps(c["lampi-gm"], eager)),
        (f"stack=all;msg={eager}-to-{lampi_rendezvous_msg()}", "drop",
         drops([c[k] for k in LAMPI_ALL], "mbps", eager, lampi_rendezvous_msg())),
        (f"stack=lampi-gm;msg={big}", "mbps", at_big["lampi-gm"]),
        (f"stack=lampi-tcp;msg={big}", "mbps", at_big["lampi-tcp"]),
        gap_item(f"stack=lampi-tcp-ed-vs-tcp;msg={big}", "gap_mbps", at_big["lampi-tcp-ed"],
                 at_big["lampi-tcp"]),
    ])


def lampi_predictions(data):
    """Every prediction of scenario ``lampi-latency-bandwidth`` (seed 003 Figs. 3 and 4).

    Raises :class:`InputError` when ``data`` lacks a column of :data:`LAMPI_COLUMNS` or has a
    non-numeric value in one of :data:`LAMPI_NUMERIC`.
    """
    require_lampi_columns(data)
    return combine(mpi_latency_predictions(data), mpi_bw_predictions(data))


def require_nas_columns(data):
    """Raise :class:`InputError` unless ``data`` has every column of :data:`NAS_COLUMNS`, numbers
    (or blanks) in :data:`NAS_NUMERIC` and only positive, finite times."""
    require_input_columns(data, NAS_COLUMNS, NAS_NUMERIC)
    times = pd.to_numeric(data["time_s"], errors="coerce")
    bad = times.notna() & ~((times > 0) & (times < math.inf))
    if bad.any():
        raise InputError(f"column time_s must be a positive time in seconds "
                         f"(e.g. {data['time_s'][bad].iloc[0]!r})")


def _nas_config(series):
    """Config names stripped, those of :data:`NAS_CONFIGS` in their spelling whatever the
    case (``IS.c.8`` -> ``is.C.8``)."""
    names = series.astype(str).str.strip()
    known = {c.lower(): c for c in NAS_CONFIGS}
    return names.map(lambda name: known.get(name.lower(), name))


def nas_times(data):
    """Execution times of nas-overlap data: ``time_s`` indexed by config (rows) and stack
    (columns), duplicates averaged, NaN where a (config, stack) was not run.

    Configs are in :data:`NAS_CONFIGS` order, then any others in order of appearance; stacks
    in :data:`NAS_STACKS` order, then any others (stack names lower case). Raises
    :class:`InputError` on bad input (see :func:`require_nas_columns`).
    """
    require_nas_columns(data)
    rows = pd.DataFrame({"config": _nas_config(data["config"]), "stack": _text(data["stack"]),
                         "time_s": pd.to_numeric(data["time_s"], errors="coerce")})
    rows = rows[data["config"].notna().to_numpy() & data["stack"].notna().to_numpy()]
    rows = rows.dropna(subset=["time_s"])
    configs = [c for c in NAS_CONFIGS if c in set(rows["config"])]
    configs += [c for c in dict.fromkeys(rows["config"]) if c not in NAS_CONFIGS]
    stacks = [s for s in NAS_STACKS if s in set(rows["stack"])]
    stacks += [s for s in dict.fromkeys(rows["stack"]) if s not in NAS_STACKS]
    mean = rows.groupby(["config", "stack"])["time_s"].mean()
    return mean.unstack("stack").reindex(index=configs, columns=stacks).astype(float)


def nas_normalized(data):
    """Each execution time over the LA-MPI-GM time of the same config (seed 003 Fig. 5).

    DataFrame with the columns ``config,stack,ratio``: configs in :data:`NAS_CONFIGS` order then
    any others, stacks in :data:`NAS_STACKS` order (LA-MPI-GM itself at 1.0). A config without
    an LA-MPI-GM time, and a (config, stack) not run, give no row.
    """
    times = nas_times(data)
    rows = []
    if NAS_BASELINE in times.columns:
        for config, row in times.iterrows():
            base = row[NAS_BASELINE]
            if math.isnan(base):
                continue
            rows += [{"config": config, "stack": stack, "ratio": float(row[stack] / base)}
                     for stack in times.columns if not math.isnan(row[stack])]
    return pd.DataFrame(rows, columns=["config", "stack", "ratio"])


def nas_suite(times, stack):
    """The times of ``stack`` at the 15 configs of :data:`NAS_CONFIGS` (a Series in that order);
    None unless every one of them was run (a partial sweep gives no suite value)."""
    if stack not in times.columns:
        return None
    suite = times[stack].reindex(list(NAS_CONFIGS))
    return None if suite.isna().any() else suite


def _suite_ratio(times, stack, base=NAS_BASELINE):
    """``stack`` over ``base`` at the 15 configs; None unless both have all of them."""
    top, bottom = nas_suite(times, stack), nas_suite(times, base)
    return None if top is None or bottom is None else top / bottom


def _not_slower(times, stack, base=NAS_BASELINE):
    """How many of the 15 configs ``stack`` runs in at most ``base``'s time (ties count); None
    unless both have all of them."""
    top, bottom = nas_suite(times, stack), nas_suite(times, base)
    return None if top is None or bottom is None else int((top <= bottom).sum())


def _mean_pct(ratio, absolute=False):
    """Mean of ``(ratio - 1) * 100`` (of its absolute value when ``absolute``); None when
    ``ratio`` is None."""
    if ratio is None:
        return None
    pct = (ratio - 1.0) * 100.0
    return float((pct.abs() if absolute else pct).mean())


def nas_time(times, config, stack):
    """The time of ``stack`` at ``config``; None when not run."""
    if config not in times.index or stack not in times.columns:
        return None
    value = float(times.at[config, stack])
    return None if math.isnan(value) else value


def nas_predictions(data):
    """Every prediction of scenario ``nas-overlap`` (seed 003 Fig. 5, experiment ``nas``).

    - ``stack=lampi-tcp-vs-gm;suite=15configs`` and ``stack=lampi-tcp-ed-vs-gm;suite=15configs``
      ``mean_slowdown_pct``: the mean over the 15 configs of (time / LA-MPI-GM time - 1) * 100;
    - ``stack=lampi-tcp-ed-vs-gm;suite=15configs`` ``configs_matching_or_beating``: how many of
      the 15 configs run no slower on LA-MPI-TCP-ED than on LA-MPI-GM (time <= GM time);
    - ``stack=lampi-tcp-ed-vs-gm;bench=is.C.8`` ``speedup_pct``: (LA-MPI-GM time /
      LA-MPI-TCP-ED time - 1) * 100 of is.C.8;
    - ``stack=mpich-gm-vs-lampi-gm`` ``mean_diff_pct``: the mean over the 15 configs of
      |MPICH-GM time / LA-MPI-GM time - 1| * 100.

    A suite row needs both stacks it compares at all 15 configs of :data:`NAS_CONFIGS` (others
    are ignored); the is.C.8 row needs both stacks there. Raises :class:`InputError` on bad
    input (see :func:`require_nas_columns`).
    """
    times = nas_times(data)
    tcp = _suite_ratio(times, "lampi-tcp")
    ed = _suite_ratio(times, "lampi-tcp-ed")
    mpich = _suite_ratio(times, "mpich-gm")
    gm_is = nas_time(times, NAS_IS_CONFIG, NAS_BASELINE)
    ed_is = nas_time(times, NAS_IS_CONFIG, "lampi-tcp-ed")
    suite = f"suite={len(NAS_CONFIGS)}configs"
    return prediction_rows("nas", [
        (f"stack=lampi-tcp-vs-gm;{suite}", "mean_slowdown_pct", _mean_pct(tcp)),
        (f"stack=lampi-tcp-ed-vs-gm;{suite}", "mean_slowdown_pct", _mean_pct(ed)),
        (f"stack=lampi-tcp-ed-vs-gm;{suite}", "configs_matching_or_beating",
         _not_slower(times, "lampi-tcp-ed")),
        (f"stack=lampi-tcp-ed-vs-gm;bench={NAS_IS_CONFIG}", "speedup_pct",
         None if gm_is is None or ed_is is None else (gm_is / ed_is - 1.0) * 100.0),
        ("stack=mpich-gm-vs-lampi-gm", "mean_diff_pct", _mean_pct(mpich, absolute=True)),
    ])


# Scenario -> its predictor (data -> DataFrame of PREDICTION_COLUMNS).
SCENARIO_PREDICTIONS = {
    "raw-ethernet-vs-myrinet": raw_predictions,
    "lampi-latency-bandwidth": lampi_predictions,
    "nas-overlap": nas_predictions,
}


def predictions_for(scenario, data):
    """The derived quantities of ``scenario`` on ``data`` (a frame of
    :data:`PREDICTION_COLUMNS`); None when the scenario has none. Raises :class:`InputError`
    on bad input."""
    predict = SCENARIO_PREDICTIONS.get(scenario)
    return None if predict is None else predict(data)
