# SPDX-License-Identifier: GPL-2.0-only
"""The joint calibration's plan: every fitted value with the reference rows it affects.

``./ns3 calibrate --plan`` (after ``./ns3 reproduce``). A fitted value belongs to one profile
(a physical part, or a profile composed of parts). A point of a scenario is composed of the
profiles its provenance names (``parts``: the profiles the program looked up, with every base
and part their values come from). A reference row reads some points of its scenario: those
whose rows it is computed from. So a value affects, in any paper, every reference row that reads
a point composed of its profile, and the joint fit must weigh all of them, not only the rows of
the recipe that fits it.

Which points a row reads is found from the rows themselves, whatever its metric does (a peak, a
ratio to another configuration, a LogP fit, a count): the row depends on a point when its
simulated value changes as that point's rows are taken away, or as that point's measured values
(the float columns of its rows) are scaled by 1 % or doubled (a count or a yes/no fact moves only
with a large change).
"""

import io
import math
import warnings
from pathlib import Path

import pandas as pd

from analysis.io import read_data
from analysis.reference import load_reference
from analysis.summary import build_summary

#: Factors a point's measured values are scaled by in the dependency probe.
PROBE_SCALES = (1.01, 2.0)
#: A value is determined by too few rows below this many.
MIN_ROWS = 2


class PlanError(ValueError):
    """The results a plan is made from are missing or unusable; one line says which."""


def point_rows(folder):
    """``[(file, parts, rows)]`` of a scenario's results folder, in ``data.csv``'s order:
    each finished point's file name, the set of its parts (``kind:name``) and the index range
    of its rows in ``data.csv`` (a point that looked up no profile has no parts). Raise
    :class:`PlanError` when the folder records no parts (results of a run before they were
    recorded: run ``./ns3 reproduce`` again)."""
    folder = Path(folder)
    try:
        prov = pd.read_csv(folder / "provenance.csv", dtype=str, keep_default_na=False)
        header = (folder / "data.csv").read_text(encoding="utf-8").splitlines()[0]
    except (OSError, IndexError, pd.errors.EmptyDataError) as exc:
        raise PlanError(f"{folder}: no readable data.csv and provenance.csv ({exc})") from None
    if "parts" not in prov.columns:
        raise PlanError(f"{folder}/provenance.csv: points without parts (a run before parts "
                        "were recorded); run ./ns3 reproduce --resume=0")
    out, start = [], 0
    for rec in prov.to_dict("records"):
        text = (folder / ".points" / f"{rec['file']}.csv").read_text(encoding="utf-8")
        n = len(pd.read_csv(io.StringIO(header + "\n" + text))) if text.strip() else 0
        parts = set(rec["parts"].split(";")) if rec["parts"] else set()
        out.append((rec["file"], parts, range(start, start + n)))
        start += n
    return out


def _same(a, b):
    return (math.isnan(a) and math.isnan(b)) or a == b


def row_points(scenario, data, points):
    """For each reference row of ``scenario`` (in :func:`build_summary`'s order), the set of
    the point files it reads (see the module's doc)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        base = build_summary(scenario, data)["sim_value"].tolist()
        deps = [set() for _ in base]
        floats = [c for c in data.columns if pd.api.types.is_float_dtype(data[c])]
        for file, _, rows in points:
            index = data.index[list(rows)]
            probes = [build_summary(scenario, data.drop(index))["sim_value"].tolist()]
            for factor in PROBE_SCALES:
                scaled = data.copy()
                scaled.loc[index, floats] = scaled.loc[index, floats] * factor
                probes.append(build_summary(scenario, scaled)["sim_value"].tolist())
            for i, b in enumerate(base):
                if any(not _same(b, probe[i]) for probe in probes):
                    deps[i].add(file)
    return deps


def affected_rows(results):
    """A frame of every reference row of the scenarios under ``results`` with the profiles
    (``kind:name``) of the points it reads: paper, scenario, config, metric, parts (a set)."""
    results = Path(results)
    ref = load_reference()
    records = []
    for scenario in sorted(set(ref.scenario)):
        folder = results / scenario
        if not (folder / "provenance.csv").exists():
            raise PlanError(f"{folder}: no results of {scenario} (run ./ns3 reproduce first, or "
                            "give --results)")
        points = point_rows(folder)
        data = read_data(folder / "data.csv")
        parts_of = {file: parts for file, parts, _ in points}
        summary = build_summary(scenario, data)
        for row, deps in zip(summary.to_dict("records"), row_points(scenario, data, points)):
            records.append({"paper": row["paper"], "scenario": scenario,
                            "config": row["config"], "metric": row["metric"],
                            "parts": set().union(*(parts_of[f] for f in deps)) if deps else set()})
    return pd.DataFrame(records, columns=["paper", "scenario", "config", "metric", "parts"])


def plan(recipes, rows):
    """The joint problem: one line per fitted value of ``recipes`` (loaded recipes), with the
    recipes fitting it and the reference rows (of ``rows``, :func:`affected_rows`) reading a
    point composed of its profile or of a profile its ``also`` names. Columns: value, recipes,
    rows, papers, row_list."""
    values = {}
    for recipe in recipes:
        for p in recipe.parameters:
            entry = values.setdefault(p.key, {"profiles": set(), "recipes": []})
            entry["profiles"] |= {place[0] for place in p.places}
            entry["recipes"].append(recipe.path.stem)
    lines = []
    for key in sorted(values):
        entry = values[key]
        hit = rows[[any(part.split(":", 1)[1] in entry["profiles"] for part in parts)
                    for parts in rows.parts]]
        lines.append({"value": key, "recipes": ",".join(sorted(set(entry["recipes"]))),
                      "rows": len(hit), "papers": ",".join(sorted(set(hit.paper))),
                      "row_list": ";".join(f"{r.paper}/{r.scenario}/{r.config}/{r.metric}"
                                           for r in hit.itertuples())})
    return pd.DataFrame(lines, columns=["value", "recipes", "rows", "papers", "row_list"])


def only_in_one_paper(table, rows):
    """``{paper: (values, parts)}``: the fitted values of ``table`` (:func:`plan`) whose rows
    are all that paper's, and the parts (``kind:name``) that only that paper's rows read. With
    the paper held out, such a value has no row left to be fitted on and such a part no row to
    be judged on: they keep the values of their sources."""
    papers = sorted(set(rows.paper))
    out = {}
    for paper in papers:
        values = [r.value for r in table.itertuples() if r.papers == paper]
        mine = set().union(*rows[rows.paper == paper].parts) if (rows.paper == paper).any() \
            else set()
        others = set().union(*rows[rows.paper != paper].parts) if (rows.paper != paper).any() \
            else set()
        out[paper] = (values, sorted(mine - others))
    return out


def report(table, rows):
    """The plan as text: one line per value, per paper what holding it out leaves unfitted,
    then the count against the rows."""
    out = [f"{'fitted value':52s} {'rows':>5s}  papers    recipes"]
    for r in table.itertuples():
        flag = "  <- fewer than {} rows".format(MIN_ROWS) if r.rows < MIN_ROWS else ""
        out.append(f"{r.value:52s} {r.rows:5d}  {r.papers:8s}  {r.recipes}{flag}")
    for paper, (values, parts) in only_in_one_paper(table, rows).items():
        out.append(f"paper {paper} held out: {len(values)} fitted values lose every row"
                   + (f" ({', '.join(values)})" if values else "")
                   + f"; parts only this paper's rows read: {', '.join(parts) or 'none'}")
    n_rows = len(rows)
    few = table[table.rows < MIN_ROWS]
    out.append(f"{len(table)} fitted values over {n_rows} reference rows: one per "
               f"{n_rows / max(len(table), 1):.1f} rows (issue 46 asks for one per 4 or more); "
               f"{len(few)} determined by fewer than {MIN_ROWS} rows"
               + (f": {', '.join(few.value)}" if len(few) else ""))
    return "\n".join(out)
