# SPDX-License-Identifier: GPL-2.0-only
"""The manual's generated table: each paper at the scenarios' defaults.

The Validation section of ``contrib/clusternet/doc/clusternet.rst`` holds one table between two
RST comments::

    .. generated: papers

    (the table)

    .. end generated

:func:`papers_table` computes it from a results folder (``OUT/<scenario>/data.csv`` as
``./ns3 reproduce --out=OUT`` or ``utils/run-defaults.py OUT`` leave them; a program that prints
its result, as :func:`analysis.htmlreport.scenario_data` reads it): per paper its reference
rows, how many were simulated and are within tolerance, the median and largest |error|, and
the statements that hold. :func:`papers_block_text` is its RST; :func:`doc_blocks` reads the
blocks a doc holds and :func:`replace_blocks` writes new ones in. ``utils/doc-tables.py``
rewrites the doc; ``test/test_doc_tables.py`` fails when the doc's figures are not a
reproduction's. Every other table of the study is in the report (``./ns3 report``).
"""

import math
import re

import pandas as pd

from analysis.reference import load_reference
from analysis.summary import build_summary, within_tolerance

#: The block's name in the doc.
BLOCK = "papers"

_HEAD = ("paper", "rows", "simulated", "within tolerance", "median \\|error\\|",
         "max \\|error\\|", "statements holding")


def papers_table(results, ref=None):
    """One row per paper: ``paper, rows, simulated, within, median_pct, max_pct, held,
    statements`` over the scenarios in folder ``results`` (a scenario not there leaves its rows
    unsimulated and its statements unheld)."""
    from analysis.htmlreport import scenario_data, statement_rows

    ref = load_reference() if ref is None else ref
    ref = ref.assign(paper=ref["paper"].astype(str).str.zfill(3))
    data = scenario_data(results)
    frames = [build_summary(s, data[s], ref).assign(scenario=s)
              for s in sorted(set(ref["scenario"])) if s in data]
    keys = ["paper", "scenario", "experiment", "config", "metric"]
    rows = ref.assign(config=ref["config"].fillna(""))
    if frames:
        sim = pd.concat(frames, ignore_index=True)
        sim = sim.assign(paper=sim["paper"].astype(str).str.zfill(3),
                         config=sim["config"].fillna(""))
        rows = rows.merge(sim[keys + ["sim_value", "rel_err"]], on=keys, how="left")
    else:
        rows = rows.assign(sim_value=math.nan, rel_err=math.nan)
    papers = sorted(set(rows["paper"]))
    statements = pd.DataFrame(statement_rows(data, papers))
    out = []
    for paper, g in rows.groupby("paper", sort=True):
        err = pd.to_numeric(g["rel_err"], errors="coerce").abs().dropna()
        mine = statements[statements["paper"] == paper]
        out.append({"paper": paper, "rows": len(g),
                    "simulated": int(pd.to_numeric(g["sim_value"], errors="coerce")
                                     .notna().sum()),
                    "within": sum(within_tolerance(s, v, m, a) for s, v, m, a in zip(
                        g["sim_value"], g["value"], g["metric"], g["approx"])),
                    "median_pct": 100 * err.median() if len(err) else math.nan,
                    "max_pct": 100 * err.max() if len(err) else math.nan,
                    "held": int((mine["holds"] == True).sum()),  # noqa: E712 (None: unchecked)
                    "statements": len(mine)})
    return pd.DataFrame(out)


def papers_block_text(results, ref=None):
    """The doc's block: :func:`papers_table` as an RST table."""
    table = papers_table(results, ref)
    cells = [(r.paper, str(r.rows), str(r.simulated), str(r.within), f"{r.median_pct:.1f} %",
              f"{r.max_pct:.1f} %", f"{r.held} of {r.statements}")
             for r in table.itertuples(index=False)]
    widths = [max(len(h), *(len(c[k]) for c in cells)) for k, h in enumerate(_HEAD)]
    rule = "  ".join("=" * w for w in widths)

    def line(row):
        return "  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip()

    return "\n".join([rule, line(_HEAD), rule, *(line(c) for c in cells), rule]) + "\n"


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
