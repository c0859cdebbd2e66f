# SPDX-License-Identifier: GPL-2.0-only
"""Reference rows the model misses by more than :data:`LIMIT`, each with why.

A paper is reproduced when its median |error| is small and no row is far off unless the miss
is explained: what the paper shows that the model lacks, and the evidence for it. :data:`EXPLAINED`
holds those explanations, keyed by the row's ``(scenario, config, metric)`` as
``reference/seeds.csv`` names it. Like a statement's reason (``analysis.statements``), an
explanation quotes no figure: the figures are the data's, put beside it on the paper's page
of the report (:mod:`analysis.htmlreport`) each time it is written, so neither can go stale.

:func:`audit` compares the rows beyond the limit in a set of summaries with the explained ones:
``test/test_outliers.py`` fails when a row goes beyond the limit unexplained, and when an
explained row comes back within it (its explanation is then stale and must go).
"""

import math

import pandas as pd

from analysis.summary import build_summary

#: The largest |error| a row may have without an explanation (a signed fraction's size).
LIMIT = 0.25

_MPICH_JUMBO = (
    "MPICH's peak falls with jumbo frames in the paper and rises in the model (s000-14). p4 of "
    "MPICH 1.1 never applies its SOCK_BUFF_SIZE on Linux (the setsockopt calls are under #ifdef "
    "SGI or commented out), so its sockets keep Linux 2.2's default buffers and the window over "
    "the round trip grows with the MTU; with the small buffers the paper names, every MPICH "
    "peak would fall far below the measured MTU 1500 peaks. No cost in p4 or the kernel has "
    "been found that lowers only the jumbo peaks")

_ACENIC_JUMBO = (
    "The ACEnic's latency falls at MTU 9000 because acenic switches to its shorter jumbo "
    "receive-coalescing defaults (DEF_JUMBO_RX_COAL, as shipped, not fitted), and the model's "
    "fall is larger than the paper's (s000-08). The rest of the v0.45 driver's jumbo path is "
    "unknown: the paper blames that driver for this card's dropouts (s000-03), and its "
    "source is not in the references reachable here (the v0.32 source is, with no jumbo "
    "coalescing)")

_GIGE_FAST = (
    "The Ethernet path (82545EM, em 1.3 under FreeBSD 4.7, kernel UDP) is faster at small "
    "sizes than the paper's by about the same time in each of the gap rows, while the part the "
    "coalescing adds (the on-off gap row) is within tolerance: the missing time is per message "
    "on the uncoalesced path (s003-01, s003-03). Its per-packet costs are the PIII-450's over "
    "the clock ratio and the NIC's own are estimates; no published measurement of the "
    "82545EM's or FreeBSD 4.7's per-packet latency has been found to source a larger value")

#: (scenario, config, metric) -> why the model misses the row by more than LIMIT.
EXPLAINED = {
    ("gige-mpi-netpipe", "nic=sknet;mtu=9000;stack=mpich", "ratio_vs_mtu1500"): _MPICH_JUMBO,
    ("gige-mpi-netpipe", "nic=acenic;mtu=9000;stack=mpich", "ratio_vs_mtu1500"): _MPICH_JUMBO,
    ("gige-tcp-netpipe", "nic=acenic;mtu=9000;sockbuf=131072", "latency_us"): _ACENIC_JUMBO,
    ("gige-mpi-netpipe", "nic=acenic;mtu=9000;stack=mpich", "latency_us"): (
        "The paper's MPICH latency on the ACEnic at MTU 9000 is many times every other latency "
        "it measured, on any card or MTU (s000-15). Neither p4's small socket buffers nor Linux "
        "2.2's delayed ACK gives it in the model without breaking the SK-NET's unchanged MPICH "
        "latency at the same MTU; the paper blames the ACEnic v0.45 driver, whose source is "
        "not reachable here"),
    ("gige-tcp-netpipe", "nic=sknet;mtu=1500;sockbuf=131072;msg=16384", "ratio_vs_acenic"): (
        "The paper's ACEnic curve dips at mid-size blocks, its 'many severe dropouts' (s000-03), "
        "and the SK-NET's lead there is the depth of a dip. The ACEnic model never loses or "
        "stalls a frame, so its curve is smooth there (s000-06)"),
    ("nt-pingpong", "stack=mpipro;os=nt4;net=fe100", "peak_mbytes_per_s"): (
        "Every stack in the model reaches the Fast Ethernet wire rate on the FA310TX, while the "
        "paper's peaks are below it, MPI/Pro's further than WinSock's, although on each "
        "Gigabit card MPI/Pro's peak is within a few percent of WinSock's or above it. The "
        "FA310TX's per-frame costs are estimates (no datasheet or NDIS miniport source "
        "reachable here), and no MPI/Pro cost has been found that would apply on this card "
        "alone"),
    ("raw-ethernet-vs-myrinet", "net=myrinet-vs-gige;coalesce=on;msg=4", "latency_gap_us"):
        _GIGE_FAST,
    ("raw-ethernet-vs-myrinet", "net=myrinet-vs-gige;coalesce=off;msg=4", "latency_gap_us"):
        _GIGE_FAST,
    ("lampi-latency-bandwidth", "stack=lampi-tcp-vs-gm;msg=4", "latency_gap_us"): _GIGE_FAST,
    ("raw-ethernet-vs-myrinet", "net=myrinet-vs-gige;msg<=1500", "myrinet_lower"): (
        "GM's bandwidth comes close to the Ethernet's just below the frame size (s003-06): the "
        "LANai 7.2 stream is bound by one GM cost per message up to a kilobyte and reaches the "
        "link sooner than the paper's, as GM's large-message bandwidth is high in seed 001 too "
        "(s001-06); the per-fragment cost that would slow it also lengthens the LogP gap that "
        "seed 001 measured"),
    ("nas-overlap", "stack=lampi-tcp-ed-vs-gm;suite=15configs", "configs_matching_or_beating"): (
        "TCP-ED comes near GM only on IS (s003-25): the overlap the paper credits, "
        "non-blocking long messages progressed by the event thread during computation, does not "
        "happen under libc_r's time slices in the model"),
}


def summaries(data_by_scenario, ref):
    """One frame of every reference row of the scenarios in ``data_by_scenario`` (scenario ->
    its data frame), :func:`analysis.summary.build_summary`'s columns plus ``scenario``."""
    frames = []
    for scenario in sorted(data_by_scenario):
        frame = build_summary(scenario, data_by_scenario[scenario], ref)
        frames.append(frame.assign(scenario=scenario))
    if not frames:
        raise ValueError("analysis.outliers: no scenario data given")
    return pd.concat(frames, ignore_index=True)


def beyond(summary, limit=LIMIT):
    """The rows of ``summary`` whose |rel_err| exceeds ``limit``, by paper and then by
    |error|, largest first; a row whose error cannot be computed is not among them."""
    if not (isinstance(limit, (int, float)) and math.isfinite(limit) and limit > 0):
        raise ValueError(f"analysis.outliers: limit must be a positive fraction, not {limit!r}")
    err = pd.to_numeric(summary["rel_err"], errors="coerce")
    rows = summary[err.abs() > limit].assign(abs_err=err.abs())
    return rows.sort_values(["paper", "abs_err"], ascending=[True, False]).drop(
        columns="abs_err").reset_index(drop=True)


def _key(row):
    return (row["scenario"], row["config"], row["metric"])


def audit(summary, explained=None, limit=LIMIT):
    """``(unexplained, stale)``: keys of rows beyond ``limit`` with no explanation, and keys of
    explanations whose row is within it (or missing from ``summary``)."""
    explained = EXPLAINED if explained is None else explained
    over = {_key(r) for r in beyond(summary, limit).to_dict("records")}
    return sorted(over - set(explained)), sorted(set(explained) - over)
