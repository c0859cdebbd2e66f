# SPDX-License-Identifier: GPL-2.0-only
"""The doc's reference-row tables, generated from the scenarios' data.

A table of the Validation section that lists reference rows by their config (``mode=uni``,
``version=1.9``) sits between two RST comments in the doc::

    .. generated: seed001-gm

    (the table and its one-line summary)

    .. end generated

:data:`BLOCKS` names each block's scenarios; :func:`block_text` builds a block from a results
folder (``OUT/<scenario>/data.csv``, as ``utils/run-defaults.py`` writes), :func:`doc_blocks`
reads the blocks a doc holds and :func:`replace_blocks` writes new ones in. ``utils/doc-tables.py``
rewrites the doc; ``test/test_doc_tables.py`` runs the scenarios and fails when the doc's
figures are not today's.

One more block, :data:`OUTLIER_BLOCK`, lists every reference row of every paper that the model
misses by more than ``analysis.outliers.LIMIT``, with why (:func:`outlier_block_text`, over
every scenario of ``reference/seeds.csv``; ``test/test_outliers.py`` checks it).
"""

import math
import re

import pandas as pd

from analysis import outliers
from analysis.io import read_data
from analysis.reference import load_reference
from analysis.summary import build_summary, error_stats

#: Block name -> the scenarios whose reference rows it lists, in this order.
BLOCKS = {
    "seed001-gm": ["myrinet-pci-dma", "myrinet-gm-logp", "myrinet-gm-allsize"],
    "seed001-tcp-over-gm": ["myrinet-tcp-over-gm"],
    "seed004": ["hpvm-fm", "hpvm-smt", "hpvm-pio-pacing"],
}

#: The block of the rows beyond analysis.outliers.LIMIT, over every reference scenario.
OUTLIER_BLOCK = "rows-beyond-limit"

#: Metric -> its column label (unit in brackets where it has one).
LABELS = {
    "read_mbytes_per_s": "read MB/s",
    "write_mbytes_per_s": "write MB/s",
    "os_us": "Os (µs)",
    "g_us": "g (µs)",
    "L_us": "L (µs)",
    "burst_transition": "burst transition",
    "g_prime_us": "g' (µs)",
    "peak_mbytes_per_s": "peak MB/s",
    "dropout_at_bytes": "dropout (bytes)",
    "latency_us": "latency (µs)",
    "n_half_bytes": "N½ (bytes)",
    "poll_ns": "poll (ns)",
    "falls_from_bytes": "falls from (bytes)",
    "pacing_bytes": "pacing (bytes)",
}

#: Short names a config gets when two scenarios of a block list the same config.
SCENARIO_TAGS = {"hpvm-smt": "SMT", "hpvm-pio-pacing": "PIO", "hpvm-fm": "FM"}

_COLUMNS = ("Row", "Metric", "Sim", "Paper", "Error")
_WIDTHS = (40, 18, 8, 8, 8)


def _sim_text(value):
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    if float(value).is_integer() and abs(value) >= 10:
        return f"{int(value)}"
    return f"{value:.4g}"


def _error_text(rel_err):
    if rel_err is None or math.isnan(rel_err):
        return "n/a"
    pct = round(100 * rel_err, 1)
    return "0.0 %" if pct == 0 else f"{pct:+.1f} %".replace("-", "−")


def rows_table(summaries):
    """RST simple table of the reference rows in ``summaries`` (a list of ``(scenario,
    frame)``, each frame :func:`analysis.summary.build_summary`'s), then one line with the
    rows' median and largest |error|. A config listed by two of the scenarios is tagged with
    its scenario (:data:`SCENARIO_TAGS`)."""
    seen = {}
    for scenario, frame in summaries:
        for config in frame["config"]:
            seen.setdefault(config, set()).add(scenario)
    rule = "  ".join("=" * w for w in _WIDTHS)

    def line(cells):
        return "  ".join(str(c).ljust(w) for c, w in zip(cells, _WIDTHS)).rstrip()

    lines = [rule, line(_COLUMNS), rule]
    errors = []
    for scenario, frame in summaries:
        for row in frame.to_dict("records"):
            config = row["config"] or "(all)"
            if len(seen.get(row["config"], ())) > 1:
                config += f" ({SCENARIO_TAGS.get(scenario, scenario)})"
            if row["metric"] not in LABELS:
                raise ValueError(f"analysis.doctables: no label for metric {row['metric']!r} "
                                 f"({scenario}); add it to LABELS")
            paper = row["ref_value"]
            lines.append(line([config, LABELS[row["metric"]], _sim_text(row["sim_value"]),
                               _sim_text(paper), _error_text(row["rel_err"])]))
            errors.append(row["rel_err"])
    lines.append(rule)
    stats = error_stats(pd.DataFrame({"rel_err": errors}))
    return ("\n".join(lines) + "\n\n"
            + f"{stats['n']} rows: median \\|error\\| {100 * stats['median_abs']:.1f} %, "
            + f"maximum {100 * stats['max_abs']:.1f} %.\n")


def block_text(name, results, ref=None):
    """Block ``name`` of :data:`BLOCKS` from the data in folder ``results``."""
    if name not in BLOCKS:
        raise ValueError(f"analysis.doctables: unknown block {name!r}; one of "
                         f"{', '.join(BLOCKS)}")
    ref = load_reference() if ref is None else ref
    summaries = []
    for scenario in BLOCKS[name]:
        data = read_data(f"{results}/{scenario}/data.csv")
        summaries.append((scenario, build_summary(scenario, data, ref)))
    return rows_table(summaries)


def outlier_block_text(results, ref=None):
    """Block :data:`OUTLIER_BLOCK` from the data in folder ``results`` (every scenario of the
    reference table)."""
    ref = load_reference() if ref is None else ref
    data = {s: read_data(f"{results}/{s}/data.csv") for s in sorted(set(ref["scenario"]))}
    return outliers.rst_table(outliers.summaries(data, ref))


_BLOCK = re.compile(r"^\.\. generated: (\S+)\n\n(.*?)\n\.\. end generated$", re.M | re.S)


def doc_blocks(text):
    """The generated blocks a doc holds: block name -> its text."""
    return {m.group(1): m.group(2) for m in _BLOCK.finditer(text)}


def replace_blocks(text, blocks):
    """``text`` with each generated block named in ``blocks`` replaced by its new text; a
    name the doc does not hold raises ValueError."""
    missing = set(blocks) - set(doc_blocks(text))
    if missing:
        raise ValueError(f"analysis.doctables: the doc has no block {', '.join(sorted(missing))}")

    def sub(m):
        new = blocks.get(m.group(1))
        if new is None:
            return m.group(0)
        return f".. generated: {m.group(1)}\n\n{new}\n.. end generated"

    return _BLOCK.sub(sub, text)
