"""Figures of simulation against paper (matplotlib, Agg canvas, never a display).

Figures are built on ``matplotlib.figure.Figure`` with an Agg canvas, so nothing here touches
pyplot's global state or needs a display. Every figure is written with
:func:`analysis.io.save_figure_atomic`.
"""

import math
import re
import textwrap

import numpy as np
from matplotlib import colormaps
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import FuncFormatter, NullFormatter

from . import gm, netpipe
from .io import save_figure_atomic
from .labels import bytes_label, config_label, nic_label, number, plain
from .predictions import (NAS_BASELINE, RAW_SMALL_MSG_LIMIT, lampi_curves, lampi_eager_limit,
                          nas_normalized, raw_curves)
from .reference import parse_config
from .summary import split_config

THROUGHPUT_LABEL = "Throughput (Mbit/s)"
BLOCK_LABEL = "Block size (bytes)"
LATENCY_LABEL = "One-way latency (µs)"
PEAK_LABEL = "Peak TCP throughput (Mbit/s)"
MTU_LABEL = "MTU (bytes)"
DMA_LABEL = "DMA rate (MB/s)"
MBYTES_LABEL = "Throughput (MB/s)"
MSG_LABEL = "Message size (bytes)"
BURST_LABEL = "Burst size (messages)"
SEND_LABEL = "Average time per send (µs)"
TIME_LABEL = "Time (µs)"
DMA_COLUMNS = (("read_mbytes_per_s", "read (host→NIC, send)"),
               ("write_mbytes_per_s", "write (NIC→host, receive)"))


def new_figure(width=12.0, height=5.0):
    """A figure with an Agg canvas and constrained layout (no pyplot, no display)."""
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def palette(n):
    """``n`` distinct colours: tab10 up to 10 curves, tab20 beyond (cycling after 20)."""
    if n <= 10:
        return [f"C{i}" for i in range(n)]
    cmap = colormaps["tab20"]
    return [cmap(i % 20) for i in range(n)]


def same_value(a, b):
    """Config value equality across types: ``1500 == 1500.0 == "1500"``, ``"sknet" == "sknet"``."""
    try:
        return float(a) == float(b)
    except (TypeError, ValueError):
        return str(a).strip() == str(b).strip()


def config_matches(ref_cfg, curve_cfg):
    """True when every key of ``ref_cfg`` is a key of ``curve_cfg`` with the same value."""
    return all(k in curve_cfg and same_value(v, curve_cfg[k]) for k, v in ref_cfg.items())


def reference_points(summary, curve_cfg, metric):
    """``[(msg, ref_value), ...]`` of the summary rows of ``metric`` matching ``curve_cfg``."""
    if summary is None or len(summary) == 0:
        return []
    out = []
    for row in summary[summary["metric"] == metric].to_dict("records"):
        cfg, msg = split_config(row["config"])
        if config_matches(cfg, curve_cfg) and not math.isnan(float(row["ref_value"])):
            out.append((msg, float(row["ref_value"])))
    return out


def varying_keys(df, keys):
    """The configuration columns that take more than one value in ``df``."""
    return [k for k in keys if df[k].nunique(dropna=False) > 1]


def _throughput_panel(ax, found, labels, colors, summary):
    drawn = {"peak": False, "point": False}
    for (cfg, curve), label, color in zip(found, labels, colors):
        series = netpipe.by_block(curve, netpipe.throughput_mbps(curve))
        ax.plot(series.index, series.to_numpy(), color=color, lw=1.4, marker=".", ms=3,
                label=label)
        peaks = reference_points(summary, cfg, "peak_mbps") + [
            (msg, value * 8.0) for msg, value in reference_points(summary, cfg,
                                                                  "peak_mbytes_per_s")]
        for _, value in peaks:
            ax.axhline(value, color=color, ls="--", lw=1.0, alpha=0.8)
            ax.plot([series.index.max()], [value], marker="<", color=color, ms=7)
            drawn["peak"] = True
        for msg, value in reference_points(summary, cfg, "mbps"):
            if isinstance(msg, (int, float)):
                ax.plot([msg], [value], marker="o", mfc="none", mec=color, ms=8, mew=1.5)
                drawn["point"] = True
    ax.set_xscale("log")
    ax.set_xlabel(BLOCK_LABEL)
    ax.set_ylabel(THROUGHPUT_LABEL)
    ax.set_title("NetPIPE throughput")
    ax.grid(True, which="both", alpha=0.3)
    _throughput_legend(ax, drawn)


def _throughput_legend(ax, drawn):
    """Curve entries plus proxy entries for the paper markers that were drawn."""
    handles, _ = ax.get_legend_handles_labels()
    if drawn["peak"]:
        handles.append(Line2D([], [], color="gray", ls="--", marker="<",
                              label="paper peak (same colour)"))
    if drawn["point"]:
        handles.append(Line2D([], [], color="gray", ls="none", marker="o", mfc="none",
                              label="paper point (same colour)"))
    if handles:
        ax.legend(handles=handles, fontsize="small", loc="upper center",
                  bbox_to_anchor=(0.5, -0.14), ncol=2 if len(handles) > 6 else 1)


def _latency_panel(ax, found, labels, colors, summary):
    height = 0.4
    any_ref = False
    for i, ((cfg, curve), color) in enumerate(zip(found, colors)):
        ax.barh(i - height / 2, netpipe.latency_us(curve), height, color=color)
        smallest = netpipe.by_block(curve, netpipe.oneway_us(curve)).index.min()
        refs = [v for msg, v in reference_points(summary, cfg, "latency_us")
                if msg is None or same_value(msg, smallest)]
        if refs:
            any_ref = True
            ax.barh(i + height / 2, refs[0], height, facecolor="white", edgecolor=color,
                    hatch="//")
    ax.set_yticks(range(len(found)))
    ax.set_yticklabels(labels, fontsize="small")
    ax.invert_yaxis()
    ax.set_xlabel(LATENCY_LABEL)
    ax.set_title("Latency (smallest block)")
    ax.grid(True, axis="x", alpha=0.3)
    if any_ref:
        ax.legend(handles=[Patch(color="gray", label="simulated"),
                           Patch(facecolor="white", edgecolor="gray", hatch="//",
                                 label="paper")],
                  fontsize="small", loc="lower right")


def netpipe_figure(data, summary, title):
    """Build the NetPIPE figure (see :func:`plot_netpipe`) and return it unsaved."""
    keys = netpipe.curve_keys(data)
    found = netpipe.iter_curves(data, keys)
    shown = varying_keys(data, keys) or [k for k in keys if k == "nic"] or keys
    labels = [config_label(cfg, shown) or "simulated" for cfg, _ in found]
    colors = palette(len(found))
    fig = new_figure(13.0, 6.0 + 0.12 * max(0, len(found) - 4))
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [3, 2]})
    _throughput_panel(left, found, labels, colors, summary)
    _latency_panel(right, found, labels, colors, summary)
    fig.suptitle(title)
    return fig


def plot_netpipe(data, summary, path, title):
    """NetPIPE figure: throughput vs block size and latency bars, simulation against paper.

    Left: one line per curve of ``data`` (labelled by the configuration keys that vary), the
    paper's ``peak_mbps`` for matching configs as dashed lines in the same colour and its
    ``mbps`` points as open circles. Right: one-way latency of the smallest block, simulated
    (solid) next to the paper (hatched). ``summary`` may be None. Writes ``path`` atomically
    and returns it.
    """
    return save_figure_atomic(netpipe_figure(data, summary, title), path)


def table1_cells(summary):
    """``{(nic, sockbuf, mtu): (sim, ref)}`` from the ``peak_mbps`` rows of a summary."""
    cells = {}
    for row in summary[summary["metric"] == "peak_mbps"].to_dict("records"):
        cfg, _ = split_config(row["config"])
        if all(k in cfg for k in ("nic", "mtu", "sockbuf")):
            key = (str(cfg["nic"]), cfg["sockbuf"], cfg["mtu"])
            cells[key] = (float(row["sim_value"]), float(row["ref_value"]))
    return cells


def mtu_sweep_figure(summary, title=None):
    """Build the Table 1 figure (see :func:`plot_mtu_sweep`) and return it unsaved."""
    cells = table1_cells(summary)
    mtus = sorted({k[2] for k in cells})
    groups = sorted({(k[0], k[1]) for k in cells})
    width = 0.8 / max(1, len(groups))
    colors = palette(len(groups))
    fig = new_figure(10.0, 5.5)
    ax = fig.subplots()
    x = np.arange(len(mtus), dtype=float)
    for gi, (nic, sockbuf) in enumerate(groups):
        xs = x + (gi - (len(groups) - 1) / 2) * width
        sim = [cells.get((nic, sockbuf, m), (math.nan, math.nan))[0] for m in mtus]
        ref = [cells.get((nic, sockbuf, m), (math.nan, math.nan))[1] for m in mtus]
        ax.bar(xs, np.nan_to_num(sim), width * 0.95, color=colors[gi],
               label=f"{nic_label(nic)} sockbuf {bytes_label(sockbuf)} (sim)")
        ax.scatter(xs, ref, marker="_", s=(width * 140) ** 2, linewidths=2.5, color="black",
                   zorder=3, label="paper (Table 1)" if gi == 0 else None)
    ax.set_xticks(x)
    ax.set_xticklabels([plain(m) for m in mtus])
    ax.set_xlabel(MTU_LABEL)
    ax.set_ylabel(PEAK_LABEL)
    ax.set_title(title or "Peak TCP throughput by NIC, MTU and socket buffer: "
                 "simulated (bars) vs paper (black)")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize="small", loc="upper left")
    return fig


def plot_mtu_sweep(summary, path, title=None):
    """Table 1 as grouped bars: x = MTU, one bar group per (NIC, socket buffer).

    Simulated peaks are solid bars, the paper's values black bar-wide markers; cells without
    a simulated value have no bar. Writes ``path`` atomically and returns it.
    """
    return save_figure_atomic(mtu_sweep_figure(summary, title), path)


# --- Myrinet (seed 001): PCI DMA, gm_allsize, logp_test ------------------------------------


def require_columns(data, columns):
    """Raise ``KeyError`` naming the columns of ``columns`` that ``data`` lacks."""
    missing = [c for c in columns if c not in data.columns]
    if missing:
        raise KeyError(f"data lacks column(s) {', '.join(missing)}")


def paper_rows(summary, metric):
    """``[(config_dict, ref_value), ...]`` of the summary rows of ``metric`` with a paper value.

    ``config_dict`` is the whole parsed config, ``msg`` included.
    """
    if summary is None or len(summary) == 0:
        return []
    out = []
    for row in summary[summary["metric"] == metric].to_dict("records"):
        value = float(row["ref_value"])
        if not math.isnan(value):
            out.append((parse_config(row["config"]), value))
    return out


def _ordinal(value):
    """Sort key of ``"1st"``, ``"2nd"``, ...: the leading number, then the text."""
    match = re.match(r"\s*(\d+)", str(value))
    return (int(match.group(1)) if match else math.inf, str(value))


def _bytes_axis(ax):
    """Log-2 message-size axis with ``1K``/``64K`` tick labels."""
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: bytes_label(round(x))
                                               if x >= 1 else plain(x)))
    ax.set_xlabel(MSG_LABEL)


# Legend entries longer than this wrap onto further lines (so the legend fits the figure).
LEGEND_WIDTH = 60


def _legend_below(ax, ncol=2):
    handles, labels = ax.get_legend_handles_labels()
    labels = [textwrap.fill(label, LEGEND_WIDTH) for label in labels]
    if handles:
        ax.legend(handles, labels, fontsize="small", loc="upper center",
                  bbox_to_anchor=(0.5, -0.12), ncol=ncol)


def _paper_dma(summary, metric, test, sim_cfgs):
    """The paper's ``metric`` for gm_debug ``test`` (NaN when the reference has none)."""
    for cfg, value in paper_rows(summary, metric):
        if not same_value(cfg.get("test", ""), test):
            continue
        rest = {k: v for k, v in cfg.items() if k not in ("test", "msg")}
        if not sim_cfgs or any(config_matches(rest, sim) for sim in sim_cfgs):
            return value
    return math.nan


def pci_dma_figure(data, summary, title=None):
    """Build the PCI DMA figure (see :func:`plot_pci_dma`) and return it unsaved."""
    require_columns(data, ["test"])
    directions = [(c, d) for c, d in DMA_COLUMNS if c in data.columns]
    if not directions:
        raise KeyError("data lacks read_mbytes_per_s and write_mbytes_per_s")
    tests = sorted(data["test"].dropna().astype(str).str.strip().unique(), key=_ordinal)
    keys = [k for k in netpipe.curve_keys(data) if k != "test"]
    found = netpipe.iter_curves(data, keys)
    shown = varying_keys(data, keys)
    bars = []
    colors = palette(len(directions) * max(1, len(found)))
    for j, (column, desc) in enumerate(directions):
        shades = colors[j * len(found):(j + 1) * len(found)]
        color = shades[0] if shades else colors[j]
        for (cfg, rows), shade in zip(found, shades):
            heights = []
            for test in tests:
                cell = rows[rows["test"].astype(str).str.strip() == test]
                values = cell[column].astype(float).dropna()
                heights.append(float(values.mean()) if len(values) else math.nan)
            suffix = f" {config_label(cfg, shown)}" if shown else ""
            bars.append((f"{desc}, simulated{suffix}", heights, {"color": shade}))
        paper = [_paper_dma(summary, column, t, [c for c, _ in found]) for t in tests]
        if any(not math.isnan(v) for v in paper):
            bars.append((f"{desc}, paper (Table 1)", paper,
                         {"facecolor": "white", "edgecolor": color, "hatch": "//"}))
    fig = new_figure(10.0, 5.5)
    ax = fig.subplots()
    x = np.arange(len(tests), dtype=float)
    width = 0.8 / max(1, len(bars))
    for i, (label, heights, style) in enumerate(bars):
        xs = x + (i - (len(bars) - 1) / 2) * width
        values = np.asarray(heights, dtype=float)
        known = np.isfinite(values)
        bar = ax.bar(xs[known], values[known], width * 0.95, label=label, **style)
        ax.bar_label(bar, labels=[number(v) for v in values[known]], fontsize="x-small",
                     padding=1)
    ax.set_xticks(x)
    ax.set_xticklabels(tests)
    sizes = (data["transfer_bytes"].dropna().unique() if "transfer_bytes" in data.columns
             else [])
    xlabel = "gm_debug DMA test"
    if len(sizes) == 1:
        xlabel += f" ({plain(sizes[0])}-byte transfers)"
    ax.set_xlabel(xlabel)
    ax.set_ylabel(DMA_LABEL)
    ax.margins(y=0.12)
    ax.set_title(title or "PCI DMA rate by gm_debug test: simulated vs paper")
    ax.grid(True, axis="y", alpha=0.3)
    _legend_below(ax)
    return fig


def plot_pci_dma(data, summary, path, title=None):
    """PCI DMA rates (seed 001 Table 1) as grouped bars, one group per gm_debug test.

    Per test: bus read and bus write, simulated (solid) next to the paper (hatched, only where
    the reference has a value), each bar labelled with its value; a missing value has no bar.
    ``summary`` may be None.
    Writes ``path`` atomically and returns it.
    """
    return save_figure_atomic(pci_dma_figure(data, summary, title), path)


def _mode_curves(data):
    """``[(cfg, curve, label, colour)]`` of message-size data, labelled by ``mode`` when the
    data has one (gm_allsize) and by the configuration columns that vary otherwise."""
    keys = netpipe.curve_keys(data)
    found = netpipe.iter_curves(data, keys)
    shown = [k for k in varying_keys(data, keys) if k != "mode"]
    out = []
    for (cfg, curve), color in zip(found, palette(len(found))):
        rest = config_label(cfg, shown)
        name = str(cfg["mode"]) if "mode" in cfg else ("" if rest else "simulated")
        out.append((cfg, curve, f"{name} {rest}".strip(), color))
    return out


def _positive_sizes(series):
    """``series`` without the empty message (a log axis has no 0)."""
    return series[series.index > 0]


# Paper sizes drawn as dotted vertical lines on a throughput figure: metric -> what it is.
SIZE_MARKERS = {"dropout_at_bytes": "dropout", "falls_from_bytes": "falls from"}


def size_bandwidth_figure(data, summary, title=None):
    """Build the throughput-by-message-size figure (see :func:`plot_size_bandwidth`)."""
    require_columns(data, ["msg_bytes"])
    fig = new_figure(10.0, 6.0)
    ax = fig.subplots()
    for cfg, curve, label, color in _mode_curves(data):
        series = _positive_sizes(netpipe.by_block(curve, netpipe.throughput_mbps(curve) / 8.0))
        ax.plot(series.index, series.to_numpy(), color=color, lw=1.4, marker=".", ms=4,
                label=f"{label} (simulated)")
        for _, value in reference_points(summary, cfg, "peak_mbytes_per_s"):
            ax.axhline(value, color=color, ls="--", lw=1.0, alpha=0.8,
                       label=f"paper {label} peak {number(value)}")
            if not series.empty:
                ax.plot([series.index.max()], [value], marker="<", color=color, ms=7,
                        ls="none")
        for metric, what in SIZE_MARKERS.items():
            for _, value in reference_points(summary, cfg, metric):
                ax.axvline(value, color=color, ls=":", lw=1.2,
                           label=f"paper {label} {what} {plain(value)} B")
    _bytes_axis(ax)
    ax.set_ylabel(MBYTES_LABEL)
    ax.set_title(title or "Throughput by message size: simulated vs paper")
    ax.grid(True, which="both", alpha=0.3)
    _legend_below(ax)
    return fig


def plot_size_bandwidth(data, summary, path, title=None):
    """Throughput against message size, one line per curve (seed 001 Fig. 5, seed 004 Figs 2,
    4 and 5).

    x: message size (log 2; the empty message is left out), y: MB/s (10^6 byte/s). The paper's
    ``peak_mbytes_per_s`` of a curve is a dashed line in its colour labelled ``paper uni peak
    107``, its ``dropout_at_bytes`` or ``falls_from_bytes`` a dotted vertical line. Writes
    ``path`` atomically and returns it.
    """
    return save_figure_atomic(size_bandwidth_figure(data, summary, title), path)


def size_latency_figure(data, summary, title=None):
    """Build the latency-by-message-size figure (see :func:`plot_size_latency`), unsaved."""
    require_columns(data, ["msg_bytes"])
    fig = new_figure(10.0, 6.0)
    ax = fig.subplots()
    for cfg, curve, label, color in _mode_curves(data):
        whole = netpipe.by_block(curve, netpipe.oneway_us(curve))
        series = _positive_sizes(whole)
        empty = f", 0 B: {number(whole.loc[0])} µs" if 0 in whole.index else ""
        ax.plot(series.index, series.to_numpy(), color=color, lw=1.4, marker=".", ms=4,
                label=f"{label} (simulated{empty})")
        for msg, value in reference_points(summary, cfg, "latency_us"):
            if not isinstance(msg, (int, float)) or msg <= 0:
                # The smallest message (or the empty one, which a log axis cannot show): at
                # the left end of the curve.
                if series.empty:
                    continue
                size = "0 B" if isinstance(msg, (int, float)) else "smallest"
                msg = series.index.min()
            else:
                size = f"{plain(msg)} B"
            ax.plot([msg], [value], marker="*", ms=12, color=color, mec="black", ls="none",
                    label=f"paper {label} {size}: {number(value)} µs")
    _bytes_axis(ax)
    ax.set_yscale("log")
    ax.set_ylabel(LATENCY_LABEL)
    ax.set_title(title or "One-way latency by message size: simulated vs paper")
    ax.grid(True, which="both", alpha=0.3)
    _legend_below(ax)
    return fig


def plot_size_latency(data, summary, path, title=None):
    """One-way latency against message size, one line per curve (seed 001 Fig. 6, seed 004
    Fig. 3).

    Log-log axes; the paper's ``latency_us`` values are star markers in the curve's colour
    (an empty-message value sits at the curve's left end, its label saying ``0 B``). Writes
    ``path`` atomically and returns it.
    """
    return save_figure_atomic(size_latency_figure(data, summary, title), path)


# The GM names of the two figures (seed 001's gm_allsize).
gm_allsize_figure = size_bandwidth_figure
plot_gm_allsize = plot_size_bandwidth
gm_latency_figure = size_latency_figure
plot_gm_latency = plot_size_latency


def logp_figure_msg(data, msg=8):
    """The message size Fig. 3 shows: ``msg`` when measured, else the one with most delays."""
    sizes = gm.message_sizes(data)
    if not sizes:
        raise KeyError("no msg_bytes values")
    if msg is not None and any(same_value(msg, s) for s in sizes):
        return float(msg)
    return max(sizes, key=lambda s: (len(gm.deltas(data, s)), -s))


def _paper_at(summary, metric, msg):
    """``[(config, value)]`` of ``metric`` whose config's ``msg`` is ``msg`` (or absent)."""
    return [(cfg, v) for cfg, v in paper_rows(summary, metric)
            if "msg" not in cfg or same_value(cfg["msg"], msg)]


def logp_figure(data, summary, title=None, msg=8):
    """Build the LogP burst figure (see :func:`plot_logp`) and return it unsaved."""
    require_columns(data, gm.CURVE_COLUMNS)
    msg = logp_figure_msg(data, msg)
    keys = gm.config_keys(data)
    found = netpipe.iter_curves(data, keys)
    shown = varying_keys(data, keys)
    lines = [(cfg, rows, d) for cfg, rows in found for d in gm.deltas(rows, msg)]
    colors = palette(len(lines))
    delta_color = {}
    fig = new_figure(10.0, 6.0)
    ax = fig.subplots()
    for (cfg, rows, delta), color in zip(lines, colors):
        curve = gm.logp_curve(rows, msg, delta)
        suffix = f" {config_label(cfg, shown)}" if shown else ""
        ax.plot(curve.index, curve.to_numpy(), color=color, lw=1.3, marker=".", ms=3,
                label=f"δ = {plain(delta)} µs{suffix} (simulated)")
        delta_color.setdefault(delta, color)
    zero = delta_color.get(0.0, "black")
    for cfg, value in _paper_at(summary, "os_us", msg):
        ax.axhline(value, color=zero, ls=":", lw=1.3, label=f"paper Os {number(value)} µs")
    for cfg, value in _paper_at(summary, "g_us", msg):
        ax.axhline(value, color=zero, ls="--", lw=1.3, label=f"paper g {number(value)} µs")
    for cfg, value in _paper_at(summary, "g_prime_us", msg):
        delta = cfg.get("delta", cfg.get("delta_us"))
        color = next((c for d, c in delta_color.items() if same_value(d, delta)), "gray")
        where = f" (δ = {plain(delta)} µs)" if delta is not None else ""
        ax.axhline(value, color=color, ls="--", lw=1.3,
                   label=f"paper g′{where} {number(value)} µs")
    for cfg, value in _paper_at(summary, "burst_transition", msg):
        ax.axvline(value, color="black", ls="-.", lw=1.2,
                   label=f"paper transition {number(value)}")
    ax.set_xscale("log")
    ax.set_xlabel(BURST_LABEL)
    ax.set_ylabel(SEND_LABEL)
    ax.set_title(title or f"GM LogP, {plain(msg)}-byte messages: time per send against "
                 "burst size")
    ax.grid(True, which="both", alpha=0.3)
    _legend_below(ax)
    return fig


def plot_logp(data, summary, path, title=None, msg=8):
    """LogP curves of logp_test (seed 001 Fig. 3): time per send against burst size.

    One line per inter-send delay for message size ``msg`` (8 bytes; else the size with most
    delays), log x. The paper's Os and g (dotted/dashed, in the δ = 0 colour), g' (dashed, in
    its delay's colour) and transition burst (vertical) from the summary. Writes ``path``
    atomically and returns it.
    """
    return save_figure_atomic(logp_figure(data, summary, title, msg), path)


def latency_label(assumed):
    """Legend text of L: says where Or was taken as 0 (``assumed``: bool per size)."""
    assumed = list(assumed)
    if assumed and all(assumed):
        return "L = RTT/2 − Os (Or taken as 0: no δ > g data)"
    if any(assumed):
        return "L = RTT/2 − Or − Os (Or taken as 0 where no δ > g data: open markers)"
    return "L = RTT/2 − Or − Os"


def logp_size_figure(data, summary, title=None):
    """Build the LogP-against-size figure (see :func:`plot_logp_size`), unsaved."""
    require_columns(data, gm.CURVE_COLUMNS + ("rtt_us",))
    keys = gm.config_keys(data)
    found = netpipe.iter_curves(data, keys)
    shown = varying_keys(data, keys)
    styles = ["-", "--", ":", "-."]
    colors = {"rtt": "C0", "L": "C1", "g": "C2"}
    fig = new_figure(10.0, 6.0)
    ax = fig.subplots()
    for i, (cfg, rows) in enumerate(found):
        table = gm.logp_table(rows)
        prefix = f"{config_label(cfg, shown)}: " if shown else ""
        ls = styles[i % len(styles)]
        x = table["msg_bytes"].to_numpy(dtype=float)
        ax.plot(x, table["rtt_us"], color=colors["rtt"], ls=ls, marker="o", ms=4,
                label=f"{prefix}RTT")
        assumed = table["or_assumed_zero"].to_numpy(dtype=bool)
        ax.plot(x, table["L_or0_us"], color=colors["L"], ls=ls, marker="s", ms=4,
                label=prefix + latency_label(assumed))
        if assumed.any() and not assumed.all():
            ax.plot(x[assumed], table["L_or0_us"].to_numpy()[assumed], ls="none", marker="s",
                    ms=7, mfc="white", mec=colors["L"])
        ax.plot(x, table["g_us"], color=colors["g"], ls=ls, marker="^", ms=4,
                label=f"{prefix}gap g")
    for metric, key, name in (("L_us", "L", "L"), ("g_us", "g", "g")):
        for cfg, value in paper_rows(summary, metric):
            msg = cfg.get("msg")
            if isinstance(msg, (int, float)):
                ax.plot([msg], [value], marker="*", ms=12, color=colors[key], mec="black",
                        ls="none", label=f"paper {name} {number(value)} µs ({plain(msg)} B)")
    _bytes_axis(ax)
    ax.set_yscale("log", nonpositive="mask")
    ax.set_ylabel(TIME_LABEL)
    ax.set_title(title or "GM LogP: RTT, latency and gap against message size")
    ax.grid(True, which="both", alpha=0.3)
    _legend_below(ax)
    return fig


def plot_logp_size(data, summary, path, title=None):
    """RTT, latency L and gap g against message size (seed 001 Fig. 4), log-log.

    L is ``RTT/2 - Or - Os``; at sizes without a delay above g (no Or) it is drawn with Or
    taken as 0, and the legend says so. The paper's L and g (8-byte messages) are star
    markers. Writes ``path`` atomically and returns it.
    """
    return save_figure_atomic(logp_size_figure(data, summary, title), path)


def incast_figure(data, summary=None, title=None):
    """Build the incast figure (see :func:`plot_incast`), unsaved."""
    from . import incast

    require_columns(data, ["drain_mbps", "link", "stops", "payload_sent_bytes",
                           "payload_received_bytes", "receiver_mbps"])
    fig = new_figure(13.0, 5.5)
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [2.2, 1]})
    drains = sorted(data["drain_mbps"].unique())
    links = list(dict.fromkeys(data["link"]))
    width = 0.8 / max(1, len(drains))
    for k, (drain, color) in enumerate(zip(drains, palette(len(drains)))):
        rows = data[data["drain_mbps"] == drain].set_index("link").reindex(links)
        x = np.arange(len(links)) + (k - (len(drains) - 1) / 2) * width
        left.bar(x, rows["stops"].fillna(0).to_numpy() + 1, width, color=color,
                 label=f"drain {plain(drain)} Mbit/s")
    left.set_yscale("log")
    left.set_xticks(np.arange(len(links)))
    left.set_xticklabels(links, rotation=60, ha="right", fontsize="small")
    left.set_ylabel("STOP symbols sent + 1 (log)")
    left.set_xlabel("Link direction (STOPs sent by its receiving port)")
    left.set_title("Flow control per link")
    left.grid(True, axis="y", which="both", alpha=0.3)
    left.legend(fontsize="small")

    table = incast.conservation(data).merge(incast.stop_table(data), on="drain_mbps")
    right.plot(table["drain_mbps"], table["receiver_mbps"], marker="o", color="C0",
               label="receiver throughput (simulated)")
    right.plot(table["drain_mbps"], table["drain_mbps"], ls="--", color="gray",
               label="drain rate")
    for row in table.to_dict("records"):
        mark = "conserved" if row["conserved"] else "LOST BYTES"
        right.annotate(f"{mark}, drops {row['drops']}", (row["drain_mbps"],
                                                         row["receiver_mbps"]),
                       textcoords="offset points", xytext=(4, -12), fontsize="x-small")
    right.set_xscale("log")
    right.set_yscale("log")
    for axis in (right.xaxis, right.yaxis):
        axis.set_major_formatter(FuncFormatter(lambda v, _: plain(v)))
        axis.set_minor_formatter(NullFormatter())
    right.set_xticks(table["drain_mbps"].to_numpy())
    right.set_yticks(table["drain_mbps"].to_numpy())
    right.set_xlabel("Receiver drain rate (Mbit/s)")
    right.set_ylabel(THROUGHPUT_LABEL)
    right.set_title("Receiver throughput and bytes conserved")
    right.grid(True, which="both", alpha=0.3)
    right.legend(fontsize="small", loc="upper left")
    fig.suptitle(title or "myrinet-incast: STOP/GO back-pressure, simulated")
    return fig


def plot_incast(data, summary, path, title=None):
    """Incast through one XBar16: STOPs per link direction and drain rate (bars, log), and
    the receiver's throughput against its drain rate with bytes-conserved/drops annotations.
    Writes ``path`` atomically and returns it."""
    return save_figure_atomic(incast_figure(data, summary, title), path)


# --- Seed 003: the paper's numbers on its figures ------------------------------------------

def seed003_rows(summary, experiment):
    """The summary rows of ``experiment`` that have a paper value, as records (``[]`` without a
    summary)."""
    if summary is None or len(summary) == 0:
        return []
    rows = summary[summary["experiment"] == experiment].to_dict("records")
    return [r for r in rows if not math.isnan(float(r["ref_value"]))]


def _paper_box(ax, rows):
    """A box in the upper left corner listing each row of ``rows`` as ``config metric: paper
    P, simulated S`` (the gaps, ratios and facts a curve cannot show); nothing when empty."""
    if not rows:
        return None
    lines = [f"{r['config']} {r['metric']}: paper {number(r['ref_value'])}, "
             f"simulated {number(r['sim_value'], missing='n/a')}" for r in rows]
    return ax.text(0.01, 0.99, "\n".join(lines), transform=ax.transAxes, va="top", ha="left",
                   fontsize="x-small", family="monospace",
                   bbox={"facecolor": "white", "edgecolor": "gray", "alpha": 0.85})


def _paper_level(ax, value, color, label, xmin=None, xmax=None, ls="--"):
    """The paper's ``value`` as a horizontal line in ``color`` (from ``xmin`` to ``xmax`` when
    given, else across the axes) with a ``<`` marker at its right end, labelled ``label``."""
    if xmin is None or xmax is None:
        ax.axhline(value, color=color, ls=ls, lw=1.0, alpha=0.8, label=label)
        return
    ax.plot([xmin, xmax], [value, value], color=color, ls=ls, lw=1.0, alpha=0.8, label=label)
    ax.plot([xmax], [value], marker="<", color=color, ms=7, ls="none")


# --- Seed 003, raw-ethernet-vs-myrinet: Figs. 1 and 2 ----------------------------------------

BANDWIDTH_LABEL = "Unidirectional bandwidth (Mbit/s)"
# Curve name of analysis.predictions.RAW_CURVES -> (legend label, colour, marker).
RAW_CURVE_STYLES = {
    "gige-on": ("GigE, coalescing on", "C0", "o"),
    "gige-off": ("GigE, coalescing off", "C1", "s"),
    "myrinet": ("Myrinet (GM)", "C2", "^"),
}
GIGE_LINE_MBPS = 1000.0
# Config of a raw-bw saturation_mbps row -> the curve of RAW_CURVE_STYLES it belongs to.
RAW_SATURATION_CURVES = {"net=gige;coalesce=off": "gige-off", "net=myrinet": "myrinet"}


SOLID_LINE = {"lw": 1.4, "ms": 4}


def _size_curves(ax, curves, styles, column, what, max_msg=None, line=None, suffix=""):
    """Draw ``column`` of each curve in ``curves`` (name -> DataFrame indexed by message size)
    against message size, styled by ``styles[name]`` = (label, colour, marker) and the plot
    keywords ``line`` (default :data:`SOLID_LINE`), each label followed by ``suffix``; only
    sizes ``<= max_msg`` unless it is None. Returns the names drawn; raises ``ValueError`` when
    none has a value in range (``what`` names the curves in the message)."""
    line = SOLID_LINE if line is None else line
    drawn = []
    for name, curve in curves.items():
        series = curve[column].dropna()
        if max_msg is not None:
            series = series[series.index <= max_msg]
        if series.empty:
            continue
        label, color, marker = styles[name]
        ax.plot(series.index.to_numpy(dtype=float), series.to_numpy(), color=color,
                marker=marker, label=label + suffix, **line)
        drawn.append(name)
    if not drawn:
        limit = "" if max_msg is None else f" up to {bytes_label(max_msg)} bytes"
        raise ValueError(f"no {column} values{limit} for {what}")
    _bytes_axis(ax)
    ax.grid(True, which="both", alpha=0.3)
    return drawn


def _raw_lines(ax, data, column):
    """Draw ``column`` of every raw-ethernet-vs-myrinet curve present against message size.

    Raises ``ValueError`` (:class:`analysis.predictions.InputError`) when ``data`` lacks a
    column, and when no curve has a ``column`` value."""
    return _size_curves(ax, raw_curves(data), RAW_CURVE_STYLES, column, "GigE or Myrinet")


def _log_latency_axis(ax):
    """Log y axis in µs with plain labels (1, 10, 100 and 2, 5, 20, 50 ... between)."""
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: plain(v)))
    ax.yaxis.set_minor_formatter(FuncFormatter(_two_five))
    ax.set_ylabel(LATENCY_LABEL)


def _two_five(value, _pos=None):
    """Minor log-axis tick label: ``20``, ``50``, ``200`` ... labelled, others blank."""
    if value <= 0:
        return ""
    lead = value / 10 ** math.floor(math.log10(value) + 1e-9)
    return plain(round(value, 6)) if round(lead, 6) in (2.0, 5.0) else ""


def raw_latency_figure(data, summary=None, title=None):
    """Build the raw latency figure (see :func:`plot_raw_latency`), unsaved."""
    fig = new_figure(10.0, 6.0)
    ax = fig.subplots()
    _raw_lines(ax, data, "latency_us")
    _log_latency_axis(ax)
    _paper_box(ax, seed003_rows(summary, "raw-latency"))
    ax.set_title(title or "Raw one-way latency against message size, seed 003 Fig. 1")
    _legend_below(ax, ncol=3)
    return fig


def plot_raw_latency(data, summary, path, title=None):
    """Raw one-way latency (half the ping-pong time) against message size, seed 003 Fig. 1.

    One line per curve of raw-ethernet-vs-myrinet data (GigE with coalescing on and off,
    Myrinet (GM)); log-2 x in bytes, log y in µs. The paper's latency gaps (``summary``'s
    ``raw-latency`` rows, when given) are listed in a box beside the simulated ones. Writes
    ``path`` atomically and returns it.
    """
    return save_figure_atomic(raw_latency_figure(data, summary, title), path)


def raw_bw_figure(data, summary=None, title=None):
    """Build the raw bandwidth figure (see :func:`plot_raw_bw`), unsaved."""
    fig = new_figure(10.0, 6.0)
    ax = fig.subplots()
    _raw_lines(ax, data, "mbps")
    if (data["net"].astype(str).str.strip().str.lower() == "gige").any():
        ax.axhline(GIGE_LINE_MBPS, color="gray", ls="--", lw=1.0,
                   label=f"Gigabit Ethernet line rate ({plain(GIGE_LINE_MBPS)} Mbit/s)")
    ax.axvline(RAW_SMALL_MSG_LIMIT, color="gray", ls=":", lw=1.0,
               label=f"{RAW_SMALL_MSG_LIMIT} B (Ethernet MTU payload)")
    rows = seed003_rows(summary, "raw-bw")
    for row in rows:
        curve = RAW_SATURATION_CURVES.get(row["config"])
        if row["metric"] == "saturation_mbps" and curve is not None:
            label, color, _ = RAW_CURVE_STYLES[curve]
            _paper_level(ax, row["ref_value"], color,
                         f"paper: {label} saturates at {number(row['ref_value'])}")
    _paper_box(ax, [r for r in rows if r["metric"] != "saturation_mbps"])
    ax.set_ylim(bottom=0)
    ax.set_ylabel(BANDWIDTH_LABEL)
    ax.set_title(title or "Raw unidirectional bandwidth against message size, seed 003 "
                 "Fig. 2")
    _legend_below(ax, ncol=3)
    return fig


def plot_raw_bw(data, summary, path, title=None):
    """Raw unidirectional bandwidth against message size, seed 003 Fig. 2.

    One line per curve (GigE with coalescing on and off, Myrinet (GM)); log-2 x in bytes,
    linear y in Mbit/s (10^6 bit/s), with the GigE line rate (dashed, when GigE was run) and
    1500 bytes (dotted) marked. From ``summary`` (when given) the paper's saturation
    bandwidths are dashed lines in their curve's colour and its other ``raw-bw`` rows are
    listed in a box. Writes ``path`` atomically and returns it.
    """
    return save_figure_atomic(raw_bw_figure(data, summary, title), path)


# --- Seed 003, lampi-latency-bandwidth: Figs. 3 and 4 ---------------------------------------

# Stack of analysis.predictions.LAMPI_STACKS -> (legend label, colour, marker).
LAMPI_STACK_STYLES = {
    "lampi-tcp": ("LA-MPI-TCP", "C0", "o"),
    "lampi-tcp-ed": ("LA-MPI-TCP-ED", "C1", "s"),
    "lampi-gm": ("LA-MPI-GM", "C2", "^"),
    "mpich-gm": ("MPICH-GM", "C3", "v"),
}
LAMPI_LATENCY_MAX_MSG = 65536   # bytes: right end of seed 003 Fig. 3


def _lampi_lines(ax, data, column, max_msg=None):
    """Draw ``column`` of every lampi-latency-bandwidth stack present against message size
    (only sizes ``<= max_msg`` unless it is None).

    Raises ``ValueError`` (:class:`analysis.predictions.InputError`) when ``data`` lacks a
    column, and when no stack has a ``column`` value in range."""
    return _size_curves(ax, lampi_curves(data), LAMPI_STACK_STYLES, column, "any MPI stack",
                        max_msg)


def _eager_line(ax):
    limit = lampi_eager_limit()
    ax.axvline(limit, color="gray", ls=":", lw=1.0,
               label=f"{bytes_label(limit)} (largest eager message)")


def lampi_latency_figure(data, summary=None, title=None):
    """Build the MPI latency figure (see :func:`plot_lampi_latency`), unsaved."""
    fig = new_figure(10.0, 6.0)
    ax = fig.subplots()
    _lampi_lines(ax, data, "latency_us", LAMPI_LATENCY_MAX_MSG)
    _eager_line(ax)
    _log_latency_axis(ax)
    _paper_box(ax, seed003_rows(summary, "mpi-latency"))
    ax.set_title(title or "MPI one-way latency against message size, seed 003 Fig. 3")
    _legend_below(ax, ncol=3)
    return fig


def plot_lampi_latency(data, summary, path, title=None):
    """MPI one-way latency (half the ping-pong time) against message size, seed 003 Fig. 3.

    One line per stack of lampi-latency-bandwidth data (LA-MPI-TCP, LA-MPI-TCP-ED, LA-MPI-GM,
    MPICH-GM), sizes up to 64 KB; log-2 x in bytes, log y in µs, the largest eager message
    (16 KB) dotted. The paper's latency gaps and ratio (``summary``'s ``mpi-latency`` rows,
    when given) are listed in a box. Writes ``path`` atomically and returns it.
    """
    return save_figure_atomic(lampi_latency_figure(data, summary, title), path)


def lampi_bw_figure(data, summary=None, title=None):
    """Build the MPI bandwidth figure (see :func:`plot_lampi_bw`), unsaved."""
    fig = new_figure(10.0, 6.0)
    ax = fig.subplots()
    drawn = _lampi_lines(ax, data, "mbps")
    if any(stack.startswith("lampi-tcp") for stack in drawn):
        ax.axhline(GIGE_LINE_MBPS, color="gray", ls="--", lw=1.0,
                   label=f"Gigabit Ethernet line rate ({plain(GIGE_LINE_MBPS)} Mbit/s)")
    _eager_line(ax)
    rows = seed003_rows(summary, "mpi-bw")
    boxed = []
    for row in rows:
        cfg, msg = split_config(row["config"])
        stack = cfg.get("stack")
        if stack not in LAMPI_STACK_STYLES or row["metric"] not in ("saturation_mbps", "mbps"):
            boxed.append(row)
            continue
        label, color, _ = LAMPI_STACK_STYLES[stack]
        if row["metric"] == "saturation_mbps":
            low = float(min(lampi_curves(data)[stack].index, default=1))
            _paper_level(ax, row["ref_value"], color, f"paper: {label} saturates at "
                         f"{number(row['ref_value'])} up to {bytes_label(lampi_eager_limit())}",
                         low, float(lampi_eager_limit()))
        else:
            ax.plot([float(msg)], [row["ref_value"]], marker="o", mfc="none", mec=color, ms=9,
                    mew=1.5, ls="none", label=f"paper: {label} {number(row['ref_value'])} at "
                                              f"{bytes_label(msg)}")
    _paper_box(ax, boxed)
    ax.set_ylim(0, ax.get_ylim()[1] * 1.05)  # room above the line rate
    ax.set_ylabel(BANDWIDTH_LABEL)
    ax.set_title(title or "MPI unidirectional bandwidth against message size, seed 003 "
                 "Fig. 4")
    _legend_below(ax, ncol=3)
    return fig


def plot_lampi_bw(data, summary, path, title=None):
    """MPI unidirectional bandwidth against message size, seed 003 Fig. 4.

    One line per stack (LA-MPI-TCP, LA-MPI-TCP-ED, LA-MPI-GM, MPICH-GM) over the whole sweep;
    log-2 x in bytes, linear y in Mbit/s (10^6 bit/s), with the GigE line rate (dashed, when a
    TCP stack was run) and the largest eager message (16 KB, dotted) marked. From ``summary``
    (when given) the paper's eager-range saturation is a dashed line over that range and its
    2 MB bandwidth an open circle, in the stack's colour; its other ``mpi-bw`` rows are listed
    in a box. Writes ``path`` atomically and returns it.
    """
    return save_figure_atomic(lampi_bw_figure(data, summary, title), path)


# --- Seed 003, nas-overlap: Fig. 5 ----------------------------------------------------------

NAS_RATIO_LABEL = "execution time / LA-MPI-GM time [ratio]"
NAS_CONFIG_LABEL = "NAS benchmark.class.ranks"
# Config of a nas mean_slowdown_pct row -> the stack whose mean ratio it gives.
NAS_SLOWDOWN_STACKS = {"stack=lampi-tcp-vs-gm;suite=15configs": "lampi-tcp",
                       "stack=lampi-tcp-ed-vs-gm;suite=15configs": "lampi-tcp-ed"}


def nas_figure(data, summary=None, title=None):
    """Build the NAS figure (see :func:`plot_nas`), unsaved."""
    table = nas_normalized(data)
    if table.empty:
        raise ValueError("no config has an LA-MPI-GM time to normalize to")
    configs = list(dict.fromkeys(table["config"]))
    stacks = list(dict.fromkeys(table["stack"]))
    fig = new_figure(13.0, 6.0)
    ax = fig.subplots()
    x = np.arange(len(configs), dtype=float)
    width = 0.8 / len(stacks)
    others = iter(palette(len(LAMPI_STACK_STYLES) + len(stacks))[len(LAMPI_STACK_STYLES):])
    handles = []
    for i, stack in enumerate(stacks):
        rows = table[table["stack"] == stack].set_index("config")["ratio"].reindex(configs)
        values = rows.to_numpy(dtype=float)
        known = np.isfinite(values)
        label, color, _ = LAMPI_STACK_STYLES.get(stack, (stack, next(others), None))
        xs = x + (i - (len(stacks) - 1) / 2) * width
        handles.append(ax.bar(xs[known], values[known], width * 0.95, color=color,
                              label=label))
    handles.append(ax.axhline(1.0, color="gray", ls="--", lw=1.0,
                              label=f"{LAMPI_STACK_STYLES[NAS_BASELINE][0]} time (ratio 1)"))
    rows = seed003_rows(summary, "nas")
    for row in rows:
        stack = NAS_SLOWDOWN_STACKS.get(row["config"])
        if row["metric"] == "mean_slowdown_pct" and stack is not None:
            level = 1.0 + row["ref_value"] / 100.0
            handles.append(ax.axhline(level, color=LAMPI_STACK_STYLES[stack][1], ls=":", lw=1.5,
                                      label=f"paper: mean {LAMPI_STACK_STYLES[stack][0]} "
                                            f"{number(level)}"))
    if _paper_box(ax, [r for r in rows if r["metric"] != "mean_slowdown_pct"]) is not None:
        ax.set_ylim(top=ax.get_ylim()[1] * 1.2)  # room for the box above the bars
    ax.set_xticks(x)
    ax.set_xticklabels(configs)
    ax.set_xlabel(NAS_CONFIG_LABEL)
    ax.set_ylabel(NAS_RATIO_LABEL)
    ax.set_title(title or "NAS benchmarks normalized to LA-MPI-GM, seed 003 Fig. 5")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(handles=handles, fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.12),
              ncol=len(handles))
    return fig


def plot_nas(data, summary, path, title=None):
    """NAS benchmark execution times normalized to LA-MPI-GM, seed 003 Fig. 5.

    Grouped bars, one group per config of nas-overlap data (``bt.B.4`` ...; the 15 of Fig. 5
    in its order, then any others), one bar per stack (LA-MPI-TCP, LA-MPI-TCP-ED, LA-MPI-GM at
    1, MPICH-GM) = its time over the LA-MPI-GM time of the config, with ratio 1 dashed. A
    config without an LA-MPI-GM time, and a stack not run there, have no bar; raises
    ``ValueError`` when no config has one. From ``summary`` (when given) the paper's mean
    slowdowns of LA-MPI-TCP and LA-MPI-TCP-ED are dotted lines at 1 + slowdown / 100 in their
    colours, and its other ``nas`` rows are listed in a box. Writes ``path`` atomically and
    returns it.
    """
    return save_figure_atomic(nas_figure(data, summary, title), path)
