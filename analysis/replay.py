"""MPI trace replay (``mpi-replay``): where each rank's time went, from data.csv.

Each data row is one operation of one rank: ``rank``, ``index`` (its place in the rank's
program), ``op`` (the operation's text, e.g. ``compute 300us``, ``isend 3 1 2048 5``,
``allreduce 8``) and ``completed_us`` (when it completed, simulated microseconds from 0), with
the configuration in ``stack``, ``network``, ``host`` and ``nic``. A rank's operations run in
order: operation ``i`` starts when operation ``i - 1`` completed, the first at 0. So an
operation's duration is its completion minus the previous one's.

A ``compute`` operation can last longer than the time it asks for: the model's host CPU lets
interrupt, kernel and library work preempt the application's computation (a NIC's interrupts
and the TCP stack while a message arrives, for instance). :func:`time_per_rank` therefore gives
both the computation's elapsed time (``compute_us``) and the time the trace asks of the host
(``compute_nominal_us``, the ``compute`` operations' own times, already scaled by the program's
``--recorded-on`` or ``--compute-scale``).
"""

import re
from collections.abc import Sequence

import pandas as pd

#: The configuration columns of mpi-replay's data.csv a per-rank result is grouped by (those
#: present).
GROUP_COLUMNS = ("stack", "network", "host", "nic")
#: The columns :func:`time_per_rank` needs.
REQUIRED_COLUMNS = ("rank", "index", "op", "completed_us")

_COMPUTE = re.compile(r"^\s*compute\s+([0-9]+(?:\.[0-9]*)?)\s*(ns|us|ms|s)\s*$")
_UNIT_US = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}


def is_compute(op: pd.Series) -> pd.Series:
    """Boolean mask of the ``compute`` operations of ``op`` (operation texts)."""
    return op.astype(str).str.match(r"^\s*compute(\s|$)")


def compute_time_us(op: str) -> float:
    """The time a ``compute`` operation's text asks for, in microseconds (``compute 300us``:
    300.0, ``compute 4810225ns``: 4810.225). ValueError for any other text."""
    m = _COMPUTE.match(str(op))
    if not m:
        raise ValueError(f"not a compute operation with a time: '{op}'")
    return float(m.group(1)) * _UNIT_US[m.group(2)]


def _check_columns(data: pd.DataFrame, what: str) -> None:
    for column in REQUIRED_COLUMNS:
        if column not in data.columns:
            raise ValueError(f"{what}: the data has no column '{column}' "
                             f"(mpi-replay's data.csv has {', '.join(REQUIRED_COLUMNS)})")


def time_per_rank(data: pd.DataFrame) -> pd.DataFrame:
    """Each rank's time split into computation and communication.

    One row per configuration (the columns of :data:`GROUP_COLUMNS` present in ``data``) and
    ``rank``, sorted by them, with:

    * ``compute_us``: the summed durations of the rank's ``compute`` operations (each its
      completion minus the previous operation's completion, or minus 0 for the first);
    * ``communication_us``: the rest of the rank's time, ``total_us - compute_us``;
    * ``total_us``: the rank's last completion;
    * ``compute_nominal_us``: the summed times the ``compute`` operations ask for (their text);
      ``compute_us`` exceeds it by the time other work on the CPU took from the computation.

    Raises ValueError naming the first missing column of :data:`REQUIRED_COLUMNS`.
    """
    _check_columns(data, "time_per_rank")
    groups = [c for c in GROUP_COLUMNS if c in data.columns]
    keys = [*groups, "rank"]
    ops = data.sort_values([*keys, "index"], kind="stable").reset_index(drop=True)
    previous = ops.groupby(keys, sort=False, dropna=False)["completed_us"].shift(fill_value=0.0)
    duration = ops["completed_us"].astype(float) - previous.astype(float)
    compute = is_compute(ops["op"])
    ops = ops.assign(
        _compute=duration.where(compute, 0.0),
        _nominal=ops["op"].where(compute).map(compute_time_us, na_action="ignore").fillna(0.0),
    )
    per_rank = ops.groupby(keys, sort=True, dropna=False).agg(
        compute_us=("_compute", "sum"),
        total_us=("completed_us", "max"),
        compute_nominal_us=("_nominal", "sum"),
    ).reset_index()
    per_rank["communication_us"] = per_rank["total_us"] - per_rank["compute_us"]
    return per_rank[[*keys, "compute_us", "communication_us", "total_us",
                     "compute_nominal_us"]]


def run_summary(per_rank: pd.DataFrame, by: Sequence[str] | None = None) -> pd.DataFrame:
    """Per configuration, from :func:`time_per_rank`'s result: ``ranks``, the application's
    run time ``run_us`` (the latest rank's total) and the means over ranks of ``compute_us``,
    ``communication_us`` and ``compute_nominal_us``. A configuration is a value of the columns
    ``by`` (default: those of :data:`GROUP_COLUMNS` present), in their first appearance's order.
    """
    needed = ["rank", "compute_us", "communication_us", "total_us", "compute_nominal_us"]
    for column in [*needed, *(by or [])]:
        if column not in per_rank.columns:
            raise ValueError(f"run_summary: the data has no column '{column}' "
                             "(give it time_per_rank's result)")
    groups = list(by) if by is not None else [c for c in GROUP_COLUMNS if c in per_rank.columns]
    if not groups:
        per_rank = per_rank.assign(_all="all")
        groups = ["_all"]
    summary = per_rank.groupby(groups, sort=False, dropna=False).agg(
        ranks=("rank", "nunique"),
        run_us=("total_us", "max"),
        compute_us=("compute_us", "mean"),
        communication_us=("communication_us", "mean"),
        compute_nominal_us=("compute_nominal_us", "mean"),
    ).reset_index()
    return summary.drop(columns=["_all"], errors="ignore")
