"""Command-line report of one scenario's results against the paper.

    python -m analysis.report <scenario> [--results DIR] [--reference SEEDS_CSV]

Reads ``DIR/data.csv`` (``DIR`` defaults to ``<repo>/results/<scenario>``), writes
``DIR/summary.csv`` when the scenario has reference rows, writes the figure(s)
``DIR/<scenario>.png`` (``gige-mtu-sweep`` also ``DIR/<scenario>-netpipe.png``,
``myrinet-gm-allsize`` also ``DIR/<scenario>-latency.png``, ``myrinet-gm-logp`` also
``DIR/<scenario>-size.png``), and prints a comparison table followed by the error statistics.
NetPIPE-style data (``block_bytes`` and ``oneway_us``) also goes out as NetPIPE output files,
one per curve, in ``DIR/np/`` (:func:`write_np_outs`).

Seed 003's scenarios (:data:`analysis.predictions.SCENARIO_PREDICTIONS`:
``raw-ethernet-vs-myrinet`` and ``lampi-latency-bandwidth``, figures ``DIR/<scenario>.png``
(latency) and ``DIR/<scenario>-bw.png`` (bandwidth); ``nas-overlap``, figure
``DIR/<scenario>.png`` (NAS times normalized to LA-MPI-GM)) write ``summary.csv`` like the
others, their simulated values derived from whole curves (gaps, ratios, counts, yes/no facts;
scored by :func:`analysis.summary.score_error`); ``nas-overlap`` also prints the normalized
times. Against a reference table without their rows they print the derived values instead.
All files are written atomically.

Exit status: 0 on success, 2 when ``data.csv`` or the reference table is missing or unreadable,
or ``data.csv`` lacks a column seed 003's derived values need (one line on stderr, nothing
written).
"""

import argparse
import math
import re
import sys
import warnings
from pathlib import Path

import pandas as pd

from . import netpipe
from .io import read_data, repo_root, write_csv_atomic
from .labels import bytes_label, config_label, nic_label, number, percent, plain
from .measurements import write_np_out
from . import gm, incast, ntpingpong
from .plots import (LAMPI_STACK_STYLES, plot_gm_allsize, plot_gm_latency, plot_incast,
                    plot_lampi_bw, plot_lampi_latency, plot_logp, plot_logp_size, plot_mtu_sweep,
                    plot_nas, plot_netpipe, plot_pci_dma, plot_raw_bw, plot_raw_latency,
                    plot_size_bandwidth, plot_size_latency, table1_cells)
from .predictions import SCENARIO_PREDICTIONS, InputError, nas_normalized, predictions_for
from .reference import default_reference_path, load_reference, reference_for
from .setup import rows_on_setup
from .summary import build_summary, error_stats

PROG = "python -m analysis.report"
TABLE1_SCENARIO = "gige-mtu-sweep"
# Myrinet scenarios (seed 001): figure file suffix -> (plot function, what it shows).
MYRINET_FIGURES = {
    "myrinet-pci-dma": [("", plot_pci_dma, "PCI DMA rate by gm_debug test (Table 1)")],
    "myrinet-gm-allsize": [("", plot_gm_allsize, "GM throughput (Fig. 5)"),
                           ("-latency", plot_gm_latency, "GM one-way latency (Fig. 6)")],
    "myrinet-gm-logp": [("", plot_logp, "GM LogP time per send against burst (Fig. 3)"),
                        ("-size", plot_logp_size, "GM LogP RTT, L and g against size "
                                                  "(Fig. 4)")],
    "myrinet-incast": [("", plot_incast, "incast through one XBar16")],
}
# HPVM / Fast Messages scenarios (seed 004).
FM_FIGURES = {
    "hpvm-fm": [("", plot_size_bandwidth, "FM bandwidth between two hosts (secs. 2, 4.1)"),
                ("-latency", plot_size_latency, "FM one-way latency (secs. 2, 4.1)")],
    "hpvm-smt": [("", plot_size_bandwidth, "intranode FM bandwidth (Fig. 2)"),
                 ("-latency", plot_size_latency, "intranode FM latency (Fig. 3)")],
    "hpvm-pio-pacing": [("", plot_size_bandwidth, "FM PIO micro-benchmark (Figs 4 and 5)")],
}
# Seed 002 (GigaBit Performance under NT).
NT_SCENARIO = "nt-pingpong"
NT_FIGURES = {
    NT_SCENARIO: [("", ntpingpong.plot_shared_memory, "PingPong in shared memory (Fig. 2)"),
                  ("-mpipro", ntpingpong.plot_mpipro, "MPI/Pro between hosts (Fig. 3)"),
                  ("-winsock", ntpingpong.plot_winsock, "WinSock between hosts (Fig. 4)")],
}
INCAST_SCENARIO = "myrinet-incast"
# Seed 003: figure file suffix -> (plot function, what it shows).
PREDICTION_FIGURES = {
    "raw-ethernet-vs-myrinet": [
        ("", plot_raw_latency, "raw one-way latency, seed 003 Fig. 1"),
        ("-bw", plot_raw_bw, "raw unidirectional bandwidth, seed 003 Fig. 2"),
    ],
    "lampi-latency-bandwidth": [
        ("", plot_lampi_latency, "MPI one-way latency, seed 003 Fig. 3"),
        ("-bw", plot_lampi_bw, "MPI unidirectional bandwidth, seed 003 Fig. 4"),
    ],
    "nas-overlap": [
        ("", plot_nas, "NAS execution time normalized to LA-MPI-GM, seed 003 Fig. 5"),
    ],
}
NAS_SCENARIO = "nas-overlap"
FIGURES = {**MYRINET_FIGURES, **FM_FIGURES, **PREDICTION_FIGURES, **NT_FIGURES}


class ReportError(Exception):
    """An input problem reported as one line on stderr with exit status 2."""


def parse_args(argv):
    """Parse the command line (``argv`` without the program name; None: ``sys.argv``)."""
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("scenario", help="scenario name, e.g. gige-mtu-sweep")
    parser.add_argument("--results", type=Path, default=None,
                        help="results directory holding data.csv (default: results/<scenario>)")
    parser.add_argument("--reference", type=Path, default=None,
                        help="reference table (default: <repo>/reference/seeds.csv)")
    return parser.parse_args(argv)


def load_data(results):
    """Read ``results/data.csv`` or raise :class:`ReportError` with a one-line message."""
    path = results / "data.csv"
    if not path.is_file():
        raise ReportError(f"no data file {path}")
    try:
        return read_data(path)
    except (OSError, UnicodeDecodeError, pd.errors.EmptyDataError,
            pd.errors.ParserError) as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ReportError(f"cannot read {path}: {reason}") from exc


def load_ref(path):
    """The reference table: ``path``, or the repository's ``reference/seeds.csv``."""
    path = default_reference_path() if path is None else path
    if not path.is_file():
        raise ReportError(f"no reference file {path}")
    try:
        return load_reference(path)
    except (OSError, ValueError, pd.errors.EmptyDataError, pd.errors.ParserError) as exc:
        raise ReportError(f"cannot read reference {path}: {exc}") from exc


def _abs_percent(fraction):
    return "n/a" if math.isnan(fraction) else f"{100.0 * fraction:.1f}%"


def stats_line(summary):
    """``n=16 median |err|=1.2% max |err|=3.4%`` (``n/a`` when nothing is comparable)."""
    st = error_stats(summary)
    return (f"n={st['n']} median |err|={_abs_percent(st['median_abs'])} "
            f"max |err|={_abs_percent(st['max_abs'])}")


def _fixed(value):
    return "n/a" if math.isnan(value) else f"{value:.1f}"


def table1_text(summary):
    """Table 1 layout: MTU rows, (NIC, socket buffer) columns, cells ``sim / paper``."""
    cells = table1_cells(summary)
    mtus = sorted({k[2] for k in cells})
    groups = sorted({(k[0], k[1]) for k in cells})
    heads = [f"{nic_label(nic)} {bytes_label(sb)}" for nic, sb in groups]
    width = max([17] + [len(h) + 2 for h in heads])
    lines = ["Peak TCP throughput (Mbit/s), simulated / paper",
             "MTU".ljust(6) + "".join(h.ljust(width) for h in heads).rstrip()]
    for mtu in mtus:
        row = plain(mtu).ljust(6)
        for nic, sb in groups:
            sim, ref = cells.get((nic, sb, mtu), (float("nan"), float("nan")))
            row += f"{_fixed(sim)} / {_fixed(ref)}".ljust(width)
        lines.append(row.rstrip())
    return "\n".join(lines)


def summary_text(summary):
    """Generic listing: config, metric, sim, paper, err% (one line per summary row)."""
    wide = max([6] + [len(c) for c in summary["config"]]) + 2
    mwide = max([6] + [len(m) for m in summary["metric"]]) + 2
    lines = ["config".ljust(wide) + "metric".ljust(mwide)
             + f"{'sim':>10} {'paper':>10} {'err%':>8}"]
    for row in summary.to_dict("records"):
        lines.append(row["config"].ljust(wide) + row["metric"].ljust(mwide)
                     + f"{number(row['sim_value']):>10} {number(row['ref_value']):>10} "
                     + f"{percent(row['rel_err']):>8}")
    return "\n".join(lines)


def curves_text(data):
    """Per-curve peak throughput and latency of NetPIPE data (no reference to compare)."""
    table = netpipe.curve_table(data)
    if table.empty:
        return "no data points"
    keys = netpipe.curve_keys(data)
    labels = [config_label(cfg, keys) for cfg in table[keys].to_dict("records")]
    wide = max(len(s) for s in labels) + 2
    lines = ["curve".ljust(wide) + f"{'peak Mbit/s':>12} {'latency us':>11}"]
    for label, row in zip(labels, table.to_dict("records")):
        lines.append(label.ljust(wide) + f"{number(row['peak_mbps']):>12} "
                     f"{number(row['latency_us']):>11}")
    return "\n".join(lines)


def incast_text(data):
    """Per drain rate: STOPs on the receiver's link and the senders' links, throughput,
    bytes sent and received, losses."""
    table = incast.conservation(data).merge(incast.stop_table(data), on="drain_mbps")
    lines = [f"{'drain Mbit/s':>12} {'rx STOPs':>10} {'uplink STOPs':>13} {'rx Mbit/s':>10} "
             f"{'sent B':>12} {'received B':>12} {'drops':>6}  conserved"]
    for r in table.to_dict("records"):
        lines.append(f"{plain(r['drain_mbps']):>12} {r['receiver_stops']:>10} "
                     f"{r['uplink_stops']:>13} {number(r['receiver_mbps']):>10} "
                     f"{r['payload_sent_bytes']:>12} {r['payload_received_bytes']:>12} "
                     f"{r['drops'] + r['overflows']:>6}  {'yes' if r['conserved'] else 'NO'}")
    return "\n".join(lines)


def baseline_text(data):
    """What-if against baseline: each case's configuration, peak and latency, and the change.

    Applies to NetPIPE data with a ``case`` column holding ``baseline`` and one other case
    (``what-if``); returns None otherwise.
    """
    if "case" not in data.columns or not netpipe.is_netpipe(data):
        return None
    cases = list(dict.fromkeys(data["case"].astype(str)))
    if "baseline" not in cases or len(cases) != 2:
        return None
    other = next(c for c in cases if c != "baseline")
    keys = [k for k in netpipe.curve_keys(data) if k != "case"]
    rows = {}
    for case in ("baseline", other):
        part = data[data["case"].astype(str) == case]
        cfg = {k: part[k].iloc[0] for k in keys}
        rows[case] = (config_label(cfg, keys), netpipe.peak_mbps(part), netpipe.latency_us(part))
    wide = max(len(c) for c in rows) + 2
    lines = [f"{other} against baseline"]
    for case, (label, _, _) in rows.items():
        lines.append(f"  {case.ljust(wide)}{label}")
    lines.append(" " * (wide + 2) + f"{'peak Mbit/s':>12} {'latency us':>11}")
    for case, (_, peak, lat) in rows.items():
        lines.append(f"  {case.ljust(wide)}{number(peak):>12} {number(lat):>11}")
    (_, p0, l0), (_, p1, l1) = rows["baseline"], rows[other]
    change = [percent((p1 - p0) / p0) if p0 else "n/a",
              percent((l1 - l0) / l0) if l0 else "n/a"]
    lines.append(f"  {'change'.ljust(wide)}{change[0]:>12} {change[1]:>11}")
    return "\n".join(lines)


def predictions_text(predictions):
    """Listing of seed 003's derived values: experiment, config, metric, simulated value."""
    if predictions.empty:
        return "no derived values: data.csv lacks the curves or message sizes they need"
    rows = predictions.to_dict("records")
    ewide = max([10] + [len(str(r["experiment"])) for r in rows]) + 2
    cwide = max([6] + [len(str(r["config"])) for r in rows]) + 2
    mwide = max([6] + [len(str(r["metric"])) for r in rows]) + 2
    lines = ["experiment".ljust(ewide) + "config".ljust(cwide) + "metric".ljust(mwide)
             + f"{'sim':>10}"]
    for r in rows:
        lines.append(str(r["experiment"]).ljust(ewide) + str(r["config"]).ljust(cwide)
                     + str(r["metric"]).ljust(mwide) + f"{number(r['sim_value']):>10}")
    return "\n".join(lines)


def nas_text(data):
    """NAS execution times over the LA-MPI-GM time: one line per config, one column per stack
    (``-`` where the stack was not run)."""
    table = nas_normalized(data)
    if table.empty:
        return "no normalized NAS times: no config has an LA-MPI-GM time"
    configs = list(dict.fromkeys(table["config"]))
    stacks = list(dict.fromkeys(table["stack"]))
    heads = [LAMPI_STACK_STYLES.get(s, (s,))[0] for s in stacks]
    cwide = max([6] + [len(c) for c in configs]) + 2
    widths = [max(10, len(h) + 2) for h in heads]
    ratio = table.set_index(["config", "stack"])["ratio"]
    lines = ["Execution time / LA-MPI-GM time",
             "config".ljust(cwide) + "".join(h.rjust(w) for h, w in zip(heads, widths))]
    for config in configs:
        cells = [number(ratio.get((config, s)), missing="-").rjust(w)
                 for s, w in zip(stacks, widths)]
        lines.append(config.ljust(cwide) + "".join(cells))
    return "\n".join(lines)


def _nic_text(data):
    """``"LANai9 "`` when ``data`` holds one NIC, else ``""``."""
    if "nic" not in data.columns:
        return ""
    nics = data["nic"].dropna().unique()
    return f"{nic_label(nics[0])} " if len(nics) == 1 else ""


def table4_text(table):
    """Seed 002 Table 4 from the simulation, with the paper's ranking beside it."""
    lines = ["Table 4 (MPI/Pro, NT 4; price over simulated peak and minimum latency):",
             f"{'net':<8} {'nic':<9} {'price $':>8} {'peak MB/s':>9} {'lat us':>7} "
             f"{'$/(MB/s)':>9} {'$/us':>6} {'rank':>4} {'paper':>5}"]
    for _, r in table.iterrows():
        paper = (ntpingpong.PAPER_TABLE4_ORDER.index(r["net"]) + 1
                 if r["net"] in ntpingpong.PAPER_TABLE4_ORDER else "-")
        lines.append(f"{r['net']:<8} {r['nic']:<9} {r['price_usd']:>8.2f} "
                     f"{r['peak_mbytes_per_s']:>9.2f} {r['min_latency_us']:>7.1f} "
                     f"{r['usd_per_mbytes_per_s']:>9.2f} {r['usd_per_us']:>6.2f} "
                     f"{r['rank']:>4} {paper:>5}")
    return "\n".join(lines)


def write_myrinet_plots(scenario, data, summary, results):
    """Write the figures of a :data:`FIGURES` scenario (:data:`MYRINET_FIGURES`,
    :data:`FM_FIGURES`, :data:`PREDICTION_FIGURES`); return the paths written.

    A figure the data cannot give (a missing column) is skipped with a warning.
    """
    against = "simulated vs paper" if summary is not None else "simulated"
    written = []
    for suffix, plot, what in FIGURES[scenario]:
        title = f"{scenario}: {what}, {_nic_text(data)}{against}"
        try:
            written.append(plot(data, summary, results / f"{scenario}{suffix}.png", title))
        except (KeyError, ValueError) as exc:
            reason = exc.args[0] if exc.args else type(exc).__name__
            warnings.warn(f"{scenario}{suffix}.png not written: {reason}", stacklevel=2)
    return written


def write_plots(scenario, data, summary, results):
    """Write the scenario's figure(s); return the list of paths written."""
    written = []
    if scenario in FIGURES:
        written += write_myrinet_plots(scenario, data, summary, results)
    elif scenario == TABLE1_SCENARIO and summary is not None:
        written.append(plot_mtu_sweep(summary, results / f"{scenario}.png"))
        if netpipe.is_netpipe(data):
            written.append(plot_netpipe(data, summary, results / f"{scenario}-netpipe.png",
                                        f"{scenario}: NetPIPE curves, simulated vs paper"))
    elif netpipe.is_netpipe(data):
        if summary is not None:
            title = f"{scenario}: simulated vs paper"
        elif baseline_text(data) is not None:
            title = f"{scenario}: simulated, against the baseline"
        else:
            title = f"{scenario}: simulated (no paper reference)"
        written.append(plot_netpipe(data, summary, results / f"{scenario}.png", title))
    return written


NP_OUT_DIR = "np"   # results/<scenario>/np/: one NetPIPE output file per curve


def write_np_outs(data, results):
    """Write a NetPIPE-style scenario's curves as NetPIPE output files; return the paths.

    NetPIPE-style data has ``block_bytes`` and ``oneway_us`` columns. A curve is one combination
    of every column but the NetPIPE measurements (:data:`analysis.netpipe.MEASURE_COLUMNS`;
    ``sockbuf_bytes`` and the like are settings here); its file is
    ``results/np/<values joined by '-'>.out`` (:func:`analysis.measurements.write_np_out`; a
    name two curves would share gets ``.2``, ``.3`` ...), and ``results/np/index.csv`` maps
    each file to its column values. Other data writes nothing.
    """
    if not {"block_bytes", "oneway_us"} <= set(data.columns):
        return []
    keys = [c for c in data.columns if c not in netpipe.MEASURE_COLUMNS]
    written, index, names = [], [], set()
    groups = data.groupby(keys, sort=False, dropna=False) if keys else [((), data)]
    for values, curve in groups:
        values = values if isinstance(values, tuple) else (values,)
        base = "-".join(re.sub(r"[^A-Za-z0-9.+_]+", "_", str(v)) for v in values) or "curve"
        name, copy = base, 1
        while name in names:
            copy += 1
            name = f"{base}.{copy}"
        names.add(name)
        curve = curve.sort_values("block_bytes", kind="stable")
        path = results / NP_OUT_DIR / f"{name}.out"
        written.append(write_np_out(curve["block_bytes"], curve["oneway_us"], path))
        index.append({"file": f"{name}.out", **dict(zip(keys, values))})
    written.append(write_csv_atomic(pd.DataFrame(index), results / NP_OUT_DIR / "index.csv"))
    return written


GM_SCENARIOS = ("myrinet-gm-allsize", "myrinet-gm-logp")


def _us_range(values):
    """``"2.88 us"``, or ``"2.88 to 3.1 us"`` when the values differ."""
    values = pd.to_numeric(values, errors="coerce")
    low, high = values.min(), values.max()
    return f"{low:.3g} us" if f"{low:.3g}" == f"{high:.3g}" else f"{low:.3g} to {high:.3g} us"


def gm_text(scenario, data):
    """What a GM run says besides the paper's rows: the host CPU time per message (send and
    receive together) and, for logp_test, its LogP parameters with a negative Or flagged."""
    lines = []
    if scenario == "myrinet-gm-allsize":
        for mode, rows in data.groupby("mode", sort=False):
            lines.append(f"{mode}: host CPU per message (send + receive) "
                         f"{_us_range(rows['host_cpu_us'])}")
        lines.append("throughput (mbytes_per_s) is per direction: bi's is each way's, "
                     "half the pair's sum")
        return "\n".join(lines)
    for msg in gm.message_sizes(data):
        rows = data[data["msg_bytes"] == msg]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            values = {"Os": gm.os_us(rows), "g": gm.g_us(rows), "Or": gm.or_us(rows),
                      "L": gm.L_us(rows)}
        if math.isnan(values["Or"]):
            continue   # one delay only: no Or, no L
        text = ", ".join(f"{k} {v:.3g} us" for k, v in values.items())
        if values["Or"] < 0:
            text += (" (Or negative: the receive overhead is below what the burst test "
                     "resolves; seed 001 reads its -1.84 us as negligible)")
        lines.append(f"LogP at {int(msg)} bytes: {text}")
    lines.append("host CPU per message (send + receive; acknowledgements count as messages): "
                 + _us_range(data["host_cpu_us"]))
    return "\n".join(lines)


def compare_on_setup(scenario, data, ref, results):
    """The summary of the rows of ``data`` that are on their paper's setup
    (:func:`analysis.setup.rows_on_setup`), or None when none is; and the lines that say which
    rows were left out and why ("no paper for this setup" when all were)."""
    papers = sorted(set(reference_for(scenario, ref)["paper"].astype(str)))
    masks, why = rows_on_setup(results, papers)
    if all(len(m) == len(data) and m.all() for m in masks.values()):
        return build_summary(scenario, data, ref), []
    lines, parts = [], []
    for paper in papers:
        on = masks[paper].to_numpy() if len(masks[paper]) == len(data) else None
        if on is None or not on.any():
            lines.append(f"no paper for this setup: {why[paper] or 'its rows are not its points'}"
                         f" (seed {paper}'s setup is reference/compositions.toml [{paper}]); "
                         "not compared")
            continue
        if not on.all():
            lines.append(f"{int((~on).sum())} of {len(on)} rows not compared with seed {paper}: "
                         f"{why[paper]}")
        parts.append(build_summary(scenario, data[on].reset_index(drop=True),
                                   ref[ref["paper"].astype(str) == paper]))
    summary = pd.concat(parts, ignore_index=True) if parts else None
    return summary, lines


def report(scenario, results, reference=None):
    """Run the whole report; return the text to print. Raises :class:`ReportError`."""
    data = load_data(results)
    predictions = None
    if scenario in SCENARIO_PREDICTIONS:
        try:
            predictions = predictions_for(scenario, data)
        except InputError as exc:
            raise ReportError(f"{results / 'data.csv'}: {exc}") from exc
    ref = load_ref(reference)
    summary, written, setup_lines = None, [], []
    if len(reference_for(scenario, ref)):
        summary, setup_lines = compare_on_setup(scenario, data, ref, results)
    if summary is not None:
        written.append(write_csv_atomic(summary, results / "summary.csv"))
    table4 = None
    if scenario == NT_SCENARIO:
        table4 = ntpingpong.table4(data)
        written.append(write_csv_atomic(table4, results / "table4.csv"))
    written += write_plots(scenario, data, summary, results)
    np_outs = write_np_outs(data, results)
    parts = [f"{scenario}: {len(data)} data points from {results / 'data.csv'}", *setup_lines]
    if table4 is not None:
        parts.append(table4_text(table4))
    parts += [f"wrote {p}" for p in written]
    if scenario in GM_SCENARIOS and "host_cpu_us" in data:
        parts.append(gm_text(scenario, data))
    if np_outs:
        parts.append(f"wrote {len(np_outs) - 1} NetPIPE output files (np.out format) and their "
                     f"index in {results / NP_OUT_DIR}")
    if predictions is not None:
        if summary is None and not setup_lines:
            parts.append(f"no reference rows for scenario {scenario}; summary.csv not written")
            parts.append(f"Simulated values ({len(predictions)})")
            parts.append(predictions_text(predictions))
        if scenario == NAS_SCENARIO:
            parts.append(nas_text(data))
        if summary is None:
            return "\n".join(parts)
    if summary is None:
        if not setup_lines:
            parts.append(f"no reference rows for scenario {scenario}; nothing to compare")
        if netpipe.is_netpipe(data):
            parts.append(baseline_text(data) or curves_text(data))
        if scenario == INCAST_SCENARIO:
            parts.append(incast_text(data))
        return "\n".join(parts)
    parts.append(table1_text(summary) if scenario == TABLE1_SCENARIO else summary_text(summary))
    parts.append(stats_line(summary))
    return "\n".join(parts)


def _warning_line(message, category, filename, lineno, line=None):
    return f"{PROG}: warning: {message}\n"


def main(argv=None):
    """CLI entry point; returns the exit status."""
    args = parse_args(argv)
    results = args.results or repo_root() / "results" / args.scenario
    saved, warnings.formatwarning = warnings.formatwarning, _warning_line
    try:
        text = report(args.scenario, Path(results), args.reference)
    except ReportError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    finally:
        warnings.formatwarning = saved
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
