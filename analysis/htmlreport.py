# SPDX-License-Identifier: GPL-2.0-only
"""The reproduction as a static web site a reader opens in a browser (``./ns3 report``).

:func:`write_report` reads a results folder as ``./ns3 reproduce`` leaves it
(``RESULTS/<scenario>/`` with ``data.csv``, ``summary.csv``, ``provenance.csv`` and the figures;
``RESULTS/transfer/`` of ``./ns3 transfer``, ``RESULTS/calibrate/`` of ``./ns3 calibrate --all``
and ``--hold-out-table``, ``RESULTS/bench/`` of ``./ns3 bench``, each when present) and writes
``OUT/index.html`` (the summary), ``OUT/paper-<id>.html`` (one page per paper),
``OUT/profiles.html`` (every part of every paper's setup, each value with its source), the
figures and ``style.css``. The pages are plain HTML and one style sheet: they open from
``file://`` with no network.

Every number on the pages is read from the run's CSV files when the report is written (the
reference rows from ``reference/seeds.csv``; each paper's sentences checked over the run's
``data.csv``, :mod:`analysis.statements`); nothing is typed in. The pages are rendered with
Jinja2 templates (``analysis/templates/``).
"""

import math
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from . import outliers
from .blind import SCENARIOS as BLIND_SCENARIOS
from .blind import blind_record, current_record, load_blind
from .catalogue import load_profiles
from .io import read_data
from .labels import number
from .reference import load_reference
from .setup import load_compositions, setup_profiles
from .statements import STATEMENTS, STDOUT_PROGRAMS, CannotCheck, evaluate
from .summary import error_stats, within_tolerance

TEMPLATES = Path(__file__).resolve().parent / "templates"
#: The leave-one-paper-out table kept beside the module's manual (``--hold-out-table``'s
#: output of the project's last hold-out runs): shown when the results folder has none.
STORED_HOLDOUT = Path(__file__).resolve().parents[1] / "contrib" / "clusternet" / "doc" / \
    "figures" / "hold-out.csv"
#: Figure captions: scenario -> {file name suffix: caption}; other figures are named by file.
CAPTIONS = {
    "gige-mtu-sweep": {"": "Peak TCP throughput against MTU (seed 000 Table 1)",
                       "-netpipe": "NetPIPE curves of Table 1's configurations"},
    "gige-tcp-netpipe": {"": "TCP NetPIPE curves (seed 000 sec. 4.1)"},
    "gige-mpi-netpipe": {"": "MPI NetPIPE curves: LAM, MPICH, MVICH (seed 000 sec. 4.2)"},
    "gige-via-netpipe": {"": "M-VIA and MVICH NetPIPE curves (seed 000 sec. 4.3)"},
    "myrinet-tcp-over-gm": {"": "TCP over GM NetPIPE curve (seed 001 sec. 4.4)"},
    "myrinet-mpich-gm": {"": "MPICH-GM NetPIPE curve (seed 001 sec. 4.5)"},
}


class ReportInputError(ValueError):
    """A results folder the report cannot read; the message names the file."""


@dataclass
class Paper:
    """One paper's page: its reference rows compared, its statements, its figures."""

    id: str
    title: str
    setup: list = field(default_factory=list)       # [(kind, [profile, ...]), ...]
    rows: list = field(default_factory=list)        # dicts: the error table
    statements: list = field(default_factory=list)  # dicts: the statements table
    figures: list = field(default_factory=list)     # dicts: src, caption, scenario
    missing: list = field(default_factory=list)     # scenarios with rows but no summary.csv
    blind: list = field(default_factory=list)       # seed 003's blind record
    blind_counts: dict = field(default_factory=dict)

    @property
    def stats(self):
        errs = [r["rel_err"] for r in self.rows if _finite(r["rel_err"])]
        s = error_stats(pd.DataFrame({"rel_err": errs})) if errs else \
            {"n": 0, "median_abs": math.nan, "max_abs": math.nan}
        return {**s, "within": sum(1 for r in self.rows if r["within"]),
                "simulated": sum(1 for r in self.rows if _finite(r["sim_value"])),
                "held": sum(1 for s in self.statements if s["holds"] is True),
                "checked": sum(1 for s in self.statements if s["holds"] is not None)}


def _finite(x):
    try:
        return math.isfinite(float(x))
    except (TypeError, ValueError):
        return False


def pct(fraction, signed=True):
    """A fraction as a percentage with one decimal (``"+7.5 %"``), "n/a" when not a number."""
    if not _finite(fraction):
        return "n/a"
    return f"{100 * float(fraction):{'+' if signed else ''}.1f} %"


def scenario_data(results):
    """``{scenario: data}`` of a results folder: each ``data.csv`` as a frame; for a program
    that prints its result (:data:`analysis.statements.STDOUT_PROGRAMS`) the text its points
    printed (``.points/<file>.stdout`` in ``provenance.csv``'s order, or ``stdout.txt``)."""
    results = Path(results)
    out = {}
    for folder in sorted(p for p in results.iterdir() if p.is_dir()):
        name = folder.name
        if name in STDOUT_PROGRAMS:
            text = _printed(folder)
            if text is not None:
                out[name] = text
        elif (folder / "data.csv").is_file():
            try:
                out[name] = read_data(folder / "data.csv")
            except (OSError, ValueError, pd.errors.ParserError) as exc:
                raise ReportInputError(f"{folder / 'data.csv'}: {exc}") from exc
    return out


def _printed(folder):
    if (folder / "stdout.txt").is_file():
        return (folder / "stdout.txt").read_text(encoding="utf-8")
    prov = folder / "provenance.csv"
    if not prov.is_file():
        return None
    files = pd.read_csv(prov, dtype=str, keep_default_na=False)["file"]
    texts = [folder / ".points" / f"{f}.stdout" for f in files]
    if not all(t.is_file() for t in texts):
        return None
    return "".join(t.read_text(encoding="utf-8") for t in texts)


def summaries(results, ref):
    """Every reference row with the run's value beside it: ``reference/seeds.csv``'s rows
    (paper, experiment, scenario, config, metric, value, approx, where) joined with
    ``RESULTS/<scenario>/summary.csv``'s ``sim_value`` and ``rel_err``, and ``within``
    (:func:`analysis.summary.within_tolerance`). A scenario without ``summary.csv`` leaves its
    rows' values NaN."""
    parts = []
    for scenario in sorted(set(ref["scenario"])):
        path = Path(results) / scenario / "summary.csv"
        if not path.is_file():
            continue
        try:
            s = pd.read_csv(path, dtype={"paper": str, "config": str}, keep_default_na=False,
                            na_values=[""])
        except (OSError, ValueError, pd.errors.ParserError) as exc:
            raise ReportInputError(f"{path}: {exc}") from exc
        need = {"paper", "experiment", "config", "metric", "sim_value", "rel_err"}
        if not need <= set(s.columns):
            raise ReportInputError(f"{path}: needs the columns {', '.join(sorted(need))}")
        s["config"] = s["config"].fillna("")
        parts.append(s.assign(scenario=scenario)[["scenario", *sorted(need)]])
    keys = ["paper", "experiment", "scenario", "config", "metric"]
    table = ref.assign(config=ref["config"].fillna(""))
    if parts:
        table = table.merge(pd.concat(parts, ignore_index=True), on=keys, how="left")
    else:
        table = table.assign(sim_value=math.nan, rel_err=math.nan)
    table["within"] = [within_tolerance(s, v, m, a) for s, v, m, a in zip(
        table["sim_value"], table["value"], table["metric"], table["approx"])]
    return table


def statement_rows(data, papers):
    """Each statement of ``papers`` checked over ``data`` (:func:`scenario_data`): id, paper,
    section, quote, check, scenarios, recorded (what the project records), holds (now: True,
    False, or None when its scenarios were not run or it cannot be checked), detail, reason."""
    out = []
    for s in STATEMENTS:
        if s.seed not in papers:
            continue
        holds, detail = None, "not run: " + ", ".join(n for n in s.scenarios if n not in data)
        if all(n in data for n in s.scenarios):
            d = data[s.scenario] if isinstance(s.scenario, str) else \
                {n: data[n] for n in s.scenarios}
            try:
                holds, detail = evaluate(s, d)
            except CannotCheck as exc:
                detail = str(exc)
        out.append({"id": s.id, "paper": s.seed, "section": s.section, "quote": s.quote,
                    "check": s.check, "scenarios": list(s.scenarios), "recorded": s.holds,
                    "holds": holds, "detail": str(detail), "reason": s.reason})
    return out


def figures_of(results, scenario):
    """``[(path, caption)]``: the figures ``RESULTS/<scenario>/`` holds, in name order."""
    from .report import FIGURES

    folder = Path(results) / scenario
    known = {suffix: caption for suffix, _, caption in FIGURES.get(scenario, [])}
    known.update(CAPTIONS.get(scenario, {}))
    out = []
    for png in sorted(folder.glob(f"{scenario}*.png")):
        suffix = png.stem[len(scenario):]
        out.append((png, known.get(suffix, png.name)))
    return out


def provenance_rows(results, names):
    """Per scenario run: points, commit(s), dirty, ns-3 version, the last point's finish time
    (UTC) and the points' wall time summed, from ``provenance.csv``."""
    out = []
    for name in names:
        path = Path(results) / name / "provenance.csv"
        if not path.is_file():
            continue
        p = pd.read_csv(path, dtype=str, keep_default_na=False)
        walls = pd.to_numeric(p.get("wall_s", pd.Series(dtype=str)), errors="coerce")
        out.append({"scenario": name, "points": len(p),
                    "commit": ", ".join(sorted({c[:10] for c in p.get("git_commit", []) if c}))
                    or "n/a",
                    "dirty": "yes" if (p.get("git_dirty", pd.Series(dtype=str)) == "1").any()
                    else "no",
                    "ns3": ", ".join(sorted(set(p.get("ns3_version", [])))) or "n/a",
                    "when": max(p.get("finished_utc", [""]), default="") or "n/a",
                    "wall_s": float(walls.sum()) if walls.notna().any() else math.nan})
    return out


def _why(scenario, config, metric, rel_err):
    """The explanation of a row the model misses by more than :data:`analysis.outliers.LIMIT`
    (:data:`analysis.outliers.EXPLAINED`), "" for a row within it or not simulated."""
    if not _finite(rel_err) or abs(float(rel_err)) <= outliers.LIMIT:
        return ""
    return outliers.EXPLAINED.get((scenario, config, metric), "not explained")


def _table_csv(path):
    return pd.read_csv(path, dtype={"paper": str}, keep_default_na=False) if path.is_file() \
        else None


def build_pages(results, reference=None):
    """Everything the pages show, read from ``results`` (see the module doc): a dict for the
    templates. Raises :class:`ReportInputError` on a file it cannot read."""
    results = Path(results)
    if not results.is_dir():
        raise ReportInputError(f"{results}: no such results folder (run ./ns3 reproduce)")
    ref = load_reference(reference)
    ref["paper"] = ref["paper"].astype(str).str.zfill(3)
    compositions = load_compositions()
    profiles = load_profiles()
    data = scenario_data(results)
    table = summaries(results, ref)
    papers = sorted(set(ref["paper"]) | set(compositions))
    statements = statement_rows(data, papers)
    used = set()
    pages = []
    for pid in papers:
        comp = compositions.get(pid, {})
        page = Paper(pid, comp.get("paper", f"seed {pid}"))
        page.setup = [(kind, list(names)) for kind, names in comp.items() if kind != "paper"]
        used |= setup_profiles(profiles, comp)
        mine = table[table["paper"] == pid]
        for scenario in dict.fromkeys(mine["scenario"]):
            if not (results / scenario / "summary.csv").is_file():
                page.missing.append(scenario)
        page.rows = [{"scenario": r.scenario, "config": r.config, "metric": r.metric,
                      "where": r.where, "paper": number(r.value), "simulated":
                      number(r.sim_value), "sim_value": r.sim_value, "error": pct(r.rel_err),
                      "rel_err": r.rel_err, "within": bool(r.within),
                      "why": _why(r.scenario, r.config, r.metric, r.rel_err)}
                     for r in mine.itertuples(index=False)]
        page.statements = [s for s in statements if s["paper"] == pid]
        shown = list(dict.fromkeys([*mine["scenario"],
                                    *[n for s in page.statements for n in s["scenarios"]]]))
        for scenario in shown:
            for png, caption in figures_of(results, scenario):
                page.figures.append({"path": png, "src": f"figures/{scenario}/{png.name}",
                                     "caption": caption, "scenario": scenario})
        if pid == "003" and all(n in data for n in BLIND_SCENARIOS):
            blind = blind_record(load_blind(), ref)
            current = current_record({n: data[n] for n in BLIND_SCENARIOS}, ref)
            for b, c in zip(blind.to_dict("records"), current.to_dict("records")):
                page.blind.append({"config": b["config"], "metric": b["metric"],
                                   "paper": number(b["ref_value"]), "first": number(b["first"]),
                                   "first_within": bool(b["first_within"]),
                                   "second": number(b["second"]),
                                   "second_within": bool(b["second_within"]),
                                   "now": number(c["sim_value"]), "now_within": bool(c["within"])})
            page.blind_counts = {k: sum(1 for b in page.blind if b[f"{k}_within"])
                                 for k in ("first", "second", "now")}
        pages.append(page)
    parts = []
    for name in sorted(used):
        p = profiles[name]
        parts.append({"name": name, "kind": p.kind, "description": p.description,
                      "base": p.base, "parts": list(p.parts), "file": Path(p.file).name,
                      "papers": [pg.id for pg in pages if name in
                                 setup_profiles(profiles, compositions.get(pg.id, {}))],
                      "settings": [{"target": t, "attribute": a, "value": v, "source": s}
                                 for (t, a), (v, s) in sorted(p.values.items())]})
    holdout = _table_csv(results / "calibrate" / "hold-out.csv")
    holdout_source = "this results folder"
    if holdout is None and STORED_HOLDOUT.is_file():
        holdout, holdout_source = _table_csv(STORED_HOLDOUT), \
            "the table kept beside the module's manual (doc/figures/hold-out.csv)"
    transfer = _table_csv(results / "transfer" / "transfer.csv")
    bench = _table_csv(results / "bench" / "figures.csv")
    extra_figures = {key: (f, f"figures/{f.parent.name}/{f.name}") for key, f in
                     (("holdout", results / "calibrate" / "hold-out.png"),
                      ("transfer", results / "transfer" / "transfer.png")) if f.is_file()}
    if "holdout" not in extra_figures and holdout is not None and \
            STORED_HOLDOUT.with_suffix(".png").is_file():
        png = STORED_HOLDOUT.with_suffix(".png")
        extra_figures["holdout"] = (png, f"figures/calibrate/{png.name}")
    names = sorted(p.name for p in results.iterdir() if (p / "provenance.csv").is_file())
    return {"papers": pages, "profiles": parts, "provenance": provenance_rows(results, names),
            "holdout": holdout, "holdout_source": holdout_source, "transfer": transfer,
            "bench": bench,
            "extra_figures": extra_figures, "results": str(results.resolve())}


def _environment():
    import jinja2

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                             autoescape=jinja2.select_autoescape(["html"]),
                             undefined=jinja2.StrictUndefined, trim_blocks=True,
                             lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["pct"] = pct
    env.filters["num"] = number
    env.filters["anchor"] = lambda name: "p-" + "".join(c if c.isalnum() else "-" for c in name)
    env.globals["yes"] = lambda flag: "yes" if flag else ("no" if flag is False else "n/a")
    env.globals["limit"] = f"{100 * outliers.LIMIT:.0f} %"
    return env


def write_report(results, out, reference=None):
    """Write the site into ``out`` (replaced whole: the files are written into a fresh folder
    beside it, which then takes its place); return the pages written."""
    ctx = build_pages(results, reference)
    out = Path(out)
    env = _environment()
    tmp = out.parent / f".{out.name}.new"
    if tmp.exists():
        shutil.rmtree(tmp)
    (tmp / "figures").mkdir(parents=True)
    try:
        for page in ctx["papers"]:
            for fig in page.figures:
                dest = tmp / fig["src"]
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(fig["path"], dest)
        for src, rel in ctx["extra_figures"].values():
            dest = tmp / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dest)
        shutil.copyfile(TEMPLATES / "style.css", tmp / "style.css")
        written = []
        pages = [("index.html", "index.html", {}), ("profiles.html", "profiles.html", {})]
        pages += [(f"paper-{p.id}.html", "paper.html", {"paper": p}) for p in ctx["papers"]]
        for name, template, extra in pages:
            text = env.get_template(template).render(**ctx, **extra, page=name)
            (tmp / name).write_text(text, encoding="utf-8")
            written.append(out / name)
        if out.exists():
            old = out.parent / f".{out.name}.old"
            if old.exists():
                shutil.rmtree(old)
            out.rename(old)
            tmp.rename(out)
            shutil.rmtree(old)
        else:
            tmp.rename(out)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)
    return written


__all__ = ["ReportInputError", "build_pages", "pct", "scenario_data", "statement_rows",
           "summaries", "write_report"]
