"""Figures of simulation against paper (matplotlib, Agg canvas, never a display).

Figures are built on ``matplotlib.figure.Figure`` with an Agg canvas, so nothing here touches
pyplot's global state or needs a display. Every figure is written with
:func:`analysis.io.save_figure_atomic`.
"""

import math

import numpy as np
from matplotlib import colormaps
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from . import netpipe
from .io import save_figure_atomic
from .labels import bytes_label, config_label, nic_label, plain
from .summary import split_config

THROUGHPUT_LABEL = "Throughput (Mbit/s)"
BLOCK_LABEL = "Block size (bytes)"
LATENCY_LABEL = "One-way latency (µs)"
PEAK_LABEL = "Peak TCP throughput (Mbit/s)"
MTU_LABEL = "MTU (bytes)"


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
        for _, value in reference_points(summary, cfg, "peak_mbps"):
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
        refs = [v for msg, v in reference_points(summary, cfg, "latency_us") if msg is None]
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
