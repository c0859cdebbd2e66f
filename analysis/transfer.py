# SPDX-License-Identifier: GPL-2.0-only
"""How far a calibration carries: each physical part in two or more papers, its values fitted on
some papers' rows, judged on the rows of every paper that has it.

``./ns3 transfer`` (:mod:`clusternet.transfer`) gathers every scenario's default results and
turns each reference row into one line of the rows frame (:func:`reference_rows`): ``paper``,
``scenario``, ``config``, ``metric``, ``ref_value``, ``sim_value``, ``abs_err`` and ``parts``
(the part profiles the row takes part in, :func:`analysis.parts.row_profiles`).
:func:`analysis.parts.transfer_by_part` makes the table; :func:`plot_transfer` its figure.

A row's error counts for every part the row takes part in: a host's CPU and operating system
take part in every row of their paper, a NIC's chip and driver in the rows of that card.
"""

import math

import numpy as np
import pandas as pd

from .parts import row_profiles
from .reference import parse_config
from .summary import build_summary, select

ROW_COLUMNS = ["paper", "scenario", "config", "metric", "ref_value", "sim_value", "abs_err",
               "parts"]

#: How a part's values came to a paper, in the table and the figure.
CARRIED = ("transfer", "calibrated here", "estimates")


def rows_of_selection(data, config):
    """The simulated rows a reference row's ``config`` selects: each key the data has, in
    turn; a key that is not a column or selects nothing (a derived row's pair of stacks, as
    ``stack=lampi-tcp-vs-gm``) is left out."""
    out = data
    for key, value in parse_config(config).items():
        picked = select(out, {key: value})
        if picked is not None and len(picked):
            out = picked
    return out


def reference_rows(profiles, compositions, data_by_scenario, ref):
    """The rows frame (:data:`ROW_COLUMNS`) of every reference row of the scenarios given.

    ``data_by_scenario``: ``{scenario: data frame}``; ``ref``: the reference table. A row's
    parts are the part profiles of its paper's setup it takes part in."""
    records = []
    for scenario, data in data_by_scenario.items():
        summary = build_summary(scenario, data, ref)
        for r in summary.itertuples(index=False):
            sub = rows_of_selection(data, r.config)
            err = float(r.rel_err)
            records.append({
                "paper": r.paper, "scenario": scenario, "config": r.config,
                "metric": r.metric, "ref_value": r.ref_value, "sim_value": r.sim_value,
                "abs_err": abs(err) if math.isfinite(err) else np.nan,
                "parts": frozenset(row_profiles(profiles, compositions[r.paper], sub)),
            })
    return pd.DataFrame(records, columns=ROW_COLUMNS)


def plot_transfer(table, path):
    """Median |error| per part and paper, coloured by how the part's values came there."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .io import save_figure_atomic

    colours = {"transfer": "tab:red", "calibrated here": "tab:gray", "estimates": "tab:blue"}
    labels = [f"{r.part} in {r.paper}" + (f" (fitted on {r.fitted_on})" if r.fitted_on else "")
              for r in table.itertuples(index=False)]
    y = np.arange(len(table))
    fig, ax = plt.subplots(figsize=(8, 0.35 * len(table) + 1.6))
    for carried in CARRIED:
        mask = (table.carried == carried).to_numpy()
        ax.barh(y[mask], 100 * table.median_abs_err.to_numpy()[mask], color=colours[carried],
                label=carried)
    ax.axvline(20, color="black", lw=0.8, ls="--")
    ax.set_yticks(y, labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("median |error| over the paper's reference rows the part takes part in [%]")
    ax.grid(True, axis="x", alpha=0.3)
    ax.legend(fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=3, frameon=False)
    fig.suptitle("How far a calibration carries: parts in two or more papers", fontsize=10)
    fig.tight_layout()
    save_figure_atomic(fig, path, dpi=110)
    plt.close(fig)
