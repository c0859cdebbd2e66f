"""How far a calibration carries: a profile calibrated on one paper, used unchanged in another.

The same hardware or software appears in more than one seed paper (the Tigon 2 as the ACEnic of
seed 000 and the GA620 of seed 002, the GNIC-II under Linux and NT, the SysKonnect cards, MPICH's
p4 device and its NT descendants). ``./ns3 transfer`` (:mod:`clusternet.transfer`) runs the other
paper's experiment twice, once with its own profile and once with the calibrated one laid over
it, and evaluates that paper's reference rows on both; the functions here turn those rows into
the table and the figure.

The rows frame holds one line per pair and reference row: ``pair``, ``source`` (the calibrated
profile and its paper), ``slot`` (the profile it replaces and its paper), ``scenario``,
``config``, ``metric``, ``ref_value``, ``native`` (simulated with the slot's own profile) and
``transferred`` (with the source's values laid over it).
"""

import numpy as np
import pandas as pd

TABLE_COLUMNS = ["pair", "source", "slot", "rows", "native_median_err", "transferred_median_err",
                 "transferred_max_err", "worse_rows"]


def relative_errors(rows):
    """``rows`` with ``native_err`` and ``transferred_err``: signed (sim - ref) / ref."""
    out = rows.copy()
    ref = out.ref_value.astype(float)
    out["native_err"] = out.native.astype(float) / ref - 1.0
    out["transferred_err"] = out.transferred.astype(float) / ref - 1.0
    return out


def transfer_table(rows):
    """One line per pair: its rows, the median |error| with the slot's own profile and with
    the transferred one, the largest transferred |error|, and how many rows got worse.

    A row neither run can evaluate is left out of the medians (and counted nowhere).
    """
    errs = relative_errors(rows)
    lines = []
    for (pair, source, slot), g in errs.groupby(["pair", "source", "slot"], sort=False):
        g = g[np.isfinite(g.native_err) & np.isfinite(g.transferred_err)]
        native = g.native_err.abs()
        moved = g.transferred_err.abs()
        lines.append({
            "pair": pair, "source": source, "slot": slot, "rows": len(g),
            "native_median_err": float(native.median()) if len(g) else np.nan,
            "transferred_median_err": float(moved.median()) if len(g) else np.nan,
            "transferred_max_err": float(moved.max()) if len(g) else np.nan,
            "worse_rows": int((moved > native).sum()),
        })
    return pd.DataFrame(lines, columns=TABLE_COLUMNS)


def plot_transfer(table, path):
    """Median |error| per pair, the slot's own profile beside the transferred one (bars)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .io import save_figure_atomic

    labels = [f"{r.pair}\n{r.source} -> {r.slot}" for r in table.itertuples(index=False)]
    y = np.arange(len(table))
    fig, ax = plt.subplots(figsize=(8, 0.6 * len(table) + 1.5))
    ax.barh(y - 0.2, 100 * table.native_median_err, height=0.4, color="tab:gray",
            label="the paper's own profile")
    ax.barh(y + 0.2, 100 * table.transferred_median_err, height=0.4, color="tab:red",
            label="the profile calibrated on the other paper")
    ax.set_yticks(y, labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xscale("symlog", linthresh=1.0)
    ax.set_xlabel("median |error| on the paper's reference rows [%]")
    ax.grid(True, axis="x", which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, frameon=False)
    fig.suptitle("How far a calibration carries across papers", fontsize=10)
    fig.tight_layout()
    save_figure_atomic(fig, path, dpi=110)
    plt.close(fig)
