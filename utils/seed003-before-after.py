#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Seed 003's Figs. 1-5 as simulated by two runs of the model, drawn together.

    utils/seed003-before-after.py BEFORE AFTER OUTDIR [--before-label TEXT] [--after-label TEXT]

BEFORE and AFTER are folders written by ``utils/run-defaults.py`` (each holding
``raw-ethernet-vs-myrinet/``, ``lampi-latency-bandwidth/`` and ``nas-overlap/`` with their
``data.csv``). Writes ``OUTDIR/seed003-fig1.png`` ... ``seed003-fig5.png``: Figs. 1-4 draw the
AFTER curves solid and the BEFORE ones dashed and faded in the same colours; Fig. 5 puts the
two runs' normalized NAS times in two panels on one ratio axis. Used for the closing figures of
a model change that moves the blind predictions (issue 22); the scenarios' own reports draw one
run.
"""

import argparse
import os
import sys

import pandas as pd


from analysis import plots
from analysis.io import save_figure_atomic
from analysis.predictions import lampi_curves, raw_curves

RAW = "raw-ethernet-vs-myrinet"
LAMPI = "lampi-latency-bandwidth"
NAS = "nas-overlap"
PROG = "seed003-before-after"


# The earlier run's lines: dashed, thinner, faded, hollow markers.
BEFORE_LINE = {"lw": 1.0, "ls": "--", "ms": 3, "mfc": "none", "alpha": 0.55}


def _overlay(fig, curves, styles, column, label, max_msg=None):
    """Add ``curves`` to the figure's axes dashed and faded, labelled ``label``."""
    ax = fig.axes[0]
    plots._size_curves(ax, curves, styles, column, "the earlier run", max_msg, BEFORE_LINE,
                       f", {label}")
    ax.legend(fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=3)


def _retitle(fig, suffix):
    ax = fig.axes[0]
    ax.set_title(f"{ax.get_title()}\n{suffix}", fontsize="medium")


def build_figures(before, after, before_label="before", after_label="after"):
    """The figures from two run-defaults folders: file name -> matplotlib Figure.

    Raises ``FileNotFoundError`` naming the first ``data.csv`` that is missing."""

    def load(base, scenario):
        path = os.path.join(base, scenario, "data.csv")
        if not os.path.isfile(path):
            raise FileNotFoundError(path)
        return pd.read_csv(path)

    suffix = f"solid: {after_label}; dashed: {before_label}"
    figures = {}
    old_raw, new_raw = load(before, RAW), load(after, RAW)
    for number, build, column in ((1, plots.raw_latency_figure, "latency_us"),
                                  (2, plots.raw_bw_figure, "mbps")):
        fig = build(new_raw)
        _overlay(fig, raw_curves(old_raw), plots.RAW_CURVE_STYLES, column, before_label)
        _retitle(fig, suffix)
        figures[f"seed003-fig{number}.png"] = fig
    old_mpi, new_mpi = load(before, LAMPI), load(after, LAMPI)
    for number, build, column, max_msg in (
            (3, plots.lampi_latency_figure, "latency_us", plots.LAMPI_LATENCY_MAX_MSG),
            (4, plots.lampi_bw_figure, "mbps", None)):
        fig = build(new_mpi)
        _overlay(fig, lampi_curves(old_mpi), plots.LAMPI_STACK_STYLES, column, before_label,
                 max_msg)
        _retitle(fig, suffix)
        figures[f"seed003-fig{number}.png"] = fig
    nas = {name: plots.nas_figure(load(base, NAS), title=f"seed 003 Fig. 5, {label}")
           for name, base, label in (("before", before, before_label),
                                     ("after", after, after_label))}
    top = max(fig.axes[0].get_ylim()[1] for fig in nas.values())
    for name, fig in nas.items():
        fig.axes[0].set_ylim(0, top)
        figures[f"seed003-fig5-{name}.png"] = fig
    return figures


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", help="run-defaults folder of the earlier run")
    parser.add_argument("after", help="run-defaults folder of the later run")
    parser.add_argument("outdir", help="folder for the PNG files (created if missing)")
    parser.add_argument("--before-label", default="before", help="legend text of BEFORE")
    parser.add_argument("--after-label", default="after", help="legend text of AFTER")
    args = parser.parse_args(argv)
    try:
        figures = build_figures(args.before, args.after, args.before_label, args.after_label)
    except FileNotFoundError as exc:
        print(f"{PROG}: no data file {exc} (make the folder with utils/run-defaults.py)",
              file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    os.makedirs(args.outdir, exist_ok=True)
    for name, fig in figures.items():
        save_figure_atomic(fig, os.path.join(args.outdir, name))
    print(f"wrote {len(figures)} figures to {args.outdir}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
