# SPDX-License-Identifier: GPL-2.0-only
"""The joint calibration: ``./ns3 calibrate --all [--hold-out=PAPER]``.

Every fitted value of every recipe under ``recipes/`` is fitted at once, over every reference
row of every paper that reads a point composed of the value's profile (:mod:`clusternet.joint`
finds them), with :func:`scipy.optimize.least_squares` and the simulation as objective. Its
bounds are its recipe's. A value starts where its profile has it (over every paper the fit then
checks that the profiles stand still); with a paper held out, a value that reaches a row of that
paper starts at :func:`own_start` instead.

The points are the reproduction's (every scenario's default run, as ``./ns3 reproduce`` runs
them), each simulated with the candidate values laid over the catalogue. A point's rows depend
only on the values of the profiles it is composed of (its *parts*, which the program records),
so a point is keyed by its provenance key (scenario, point, arguments, code, catalogue files,
ns-3, environment: :func:`clusternet.sweep.point_key`) and the candidate values that fall on its
parts. A candidate that moves one value reruns only the points composed of that value's profile,
and a point already simulated under the same key (earlier in this fit, by an earlier fit or a
hold-out run: the store under ``results/calibrate/.points``; or by the reproduction under
``--results``) is read back, not run. The points that do run go to one Dask pool (``--jobs``
local workers, or ``--scheduler``), longest first.

Residuals: each reference row's signed error as ``summary.csv`` scores it
(:func:`analysis.summary.build_summary`), under the recipes' robust loss, and one per statement
kept (:func:`kept_statements`: a recipe's, or any with a margin, never the held-out paper's; as a
recipe does: 0 while it holds with room to spare, steep as it nears its check).
Rows that read no point composed of a fitted value's profile cannot move; they are reported, not
fitted.

Before fitting, the fit refuses a value that a single row determines (:func:`one_row_alone`: its
slope is non-zero on fewer than two of the fitted rows, or one row carries more than nine tenths of
its information), judged on the slopes at the start, or with a paper held out after the values
started at their own starts are fitted alone. With a paper held out such a value keeps its
source's value instead, as one with no row left does. It writes into ``--out`` (default
``results/calibrate/all``, or ``all-without-PAPER``): ``values.csv`` (each value at the start and
fitted, its standard error, the rows that determine it), ``rows.csv`` (every reference row at the
start and at the fit) and ``papers.csv`` (per paper: rows, median and max error), all the same for
the same inputs; wall time and simulation counts go to the log.
"""

import dataclasses
import hashlib
import io
import json
import math
import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from . import calibrate as cal
from .calibrate import say
from . import sweep as sw
from analysis.catalogue import PROFILE_PATH_ENV, load_tables

#: A value's slope on a row counts when it moves the row's error by more than this per unit of
#: the value's [0, 1] coordinate (a hundredth of a percent over the whole range).
SLOPE_FLOOR = 1e-4
#: A row determines a value when it carries at least this share of the value's information
#: (its squared slope over the sum of the squared slopes of every fitted row).
DETERMINING_SHARE = 0.05
#: Fewest fitted rows a value needs slopes on.
MIN_ROWS = 2
#: One row dominates a value when it carries more than this share of the value's information
#: (the squared slopes of the fitted rows): the other rows together then move it by less than a
#: third of what that row does (sqrt(0.1 / 0.9)). Over every paper the fit refuses such a value,
#: as one with slopes on fewer than MIN_ROWS rows; with a paper held out it keeps its source.
ONE_ROW_SHARE = 0.9
#: Whole values with at most this many steps between their bounds (a DMA burst, a latency in
#: bus cycles) are searched one unit at a time after the fit; wider ones are fitted as numbers
#: and rounded.
NARROW_WHOLE = 20
#: The joint fit stops when a step lowers the cost by less than this fraction, or moves the
#: values by less than this in their [0, 1] coordinates: a recipe's tolerances (1e-8, 1e-6)
#: would take a slope of every value (over a thousand simulations) per step for the last
#: hundredths of a percent.
JOINT_FTOL = 1e-3
JOINT_XTOL = 1e-3
#: scipy's trust region shrinks on rejected steps and can stop the fit well short of the
#: optimum (measured: restarted from where it stopped, a fit moved Linux 2.2's per-segment cost
#: by 15 % and lowered the cost by 2 %). The local fit is restarted from where it stopped, with
#: a fresh trust region, until a restart lowers the cost by less than JOINT_FTOL; at most this
#: many times.
MAX_RESTARTS = 8
#: A progress line at most this often while simulations run [s].
PROGRESS_EVERY = 30.0


class JointError(cal.CalibrationError):
    """The joint fit cannot run or refuses its problem; one line says why."""


# --- the problem ------------------------------------------------------------------------------

@dataclasses.dataclass
class Problem:
    """What :func:`clusternet.calibrate.whole_search` and the objective read of a recipe."""

    parameters: list        # cal.Parameter, each starting at its profile's value
    recipes: list           # the recipe names fitting each parameter (", "-joined)
    statements: tuple       # analysis.statements.Statement every recipe keeps
    loss: str = cal.LOSS
    own_starts: list = None   # each value where a hold-out starts it (:func:`own_start`)


def own_start(p):
    """Where a hold-out starts the value of ``p`` (a recipe's :class:`clusternet.calibrate.
    Parameter`): its source's value, else the recipe's ``start``, else the profile's (which the
    joint fit over every paper wrote, so a hold-out would start where the held-out paper had
    helped put it)."""
    return p.source[0] if p.source is not None else p.start


def joint_parameters(recipes, catalogue):
    """One :class:`clusternet.calibrate.Parameter` per fitted value of ``recipes`` (the first
    recipe's bounds), starting at the value its profile holds, and each one's
    :func:`own_start`. Raise :class:`JointError` when two recipes fit one value over different
    bounds or places, or a profile's value lies outside the bounds."""
    params, fitted_by, starts = {}, {}, {}
    for recipe in recipes:
        for p in recipe.parameters:
            if p.key in params:
                q = params[p.key]
                if (q.lo, q.hi, q.unit, q.choices, q.places) != (p.lo, p.hi, p.unit, p.choices,
                                                                  p.places):
                    raise JointError(f"{recipe.path}: {p.key} is fitted by "
                                     f"{fitted_by[p.key][0]} too, with other bounds or places; "
                                     "give both recipes the same")
                fitted_by[p.key].append(recipe.path.stem)
                continue
            text = catalogue[p.profile].values.get((p.target, p.attribute), (None,))[0]
            if text is None:
                raise JointError(f"{recipe.path}: {p.key}: the profile gives no value to start "
                                 "from")
            if p.choices:
                if str(text) not in p.choices:
                    raise JointError(f"{recipe.path}: {p.key}: the profile's {text} is not one "
                                     "of the choices")
                start = float(p.choices.index(str(text)))
            else:
                x, unit = cal.parse_quantity(str(text), p.key)
                start = cal.convert(x, unit, p.unit, p.key)
                if not p.lo <= start <= p.hi:
                    raise JointError(f"{recipe.path}: {p.key}: the profile's {text} lies "
                                     f"outside the recipe's bounds; widen min/max")
            params[p.key] = dataclasses.replace(p, start=start)
            fitted_by[p.key] = [recipe.path.stem]
            starts[p.key] = own_start(p)
    keys = sorted(params)
    return ([params[k] for k in keys], [", ".join(fitted_by[k]) for k in keys],
            [starts[k] for k in keys])


def load_problem(recipe_paths, catalogue):
    recipes = [cal.load_recipe(p) for p in recipe_paths]
    params, by, starts = joint_parameters(recipes, catalogue)
    statements = {}
    for r in recipes:
        for st in r.statements:
            statements.setdefault(st.id, st)
    return Problem(params, by, tuple(statements[k] for k in sorted(statements)),
                   own_starts=starts)


# --- points -----------------------------------------------------------------------------------

class PointStore:
    """Rows and parts of simulated points, one ``KEY.csv`` (and ``KEY.parts``) each."""

    def __init__(self, folder):
        self.folder = Path(folder)

    def _path(self, key, ext):
        return self.folder / key[:2] / f"{key}{ext}"

    def get(self, key):
        """``(rows, parts)`` of the point stored under ``key``, or None."""
        try:
            rows = self._path(key, ".csv").read_text(encoding="utf-8")
            parts = self._path(key, ".parts").read_text(encoding="utf-8").strip()
        except OSError:
            return None
        return rows, parts

    def get_parts(self, composition):
        """The parts (``kind:name;...``) recorded for a point's composition key, or None."""
        try:
            return self._path(composition, ".composed").read_text(encoding="utf-8").strip()
        except OSError:
            return None

    def put_parts(self, composition, parts):
        self._path(composition, "").parent.mkdir(parents=True, exist_ok=True)
        sw.write_atomic(self._path(composition, ".composed"), parts + "\n")

    def stdout(self, key):
        """What the point stored under ``key`` printed ("" when nothing)."""
        try:
            return self._path(key, ".stdout").read_text(encoding="utf-8")
        except OSError:
            return ""

    def put(self, key, rows, parts, stdout=""):
        self._path(key, "").parent.mkdir(parents=True, exist_ok=True)
        sw.write_atomic(self._path(key, ".parts"), parts + "\n")
        if stdout:
            sw.write_atomic(self._path(key, ".stdout"), stdout)
        sw.write_atomic(self._path(key, ".csv"), rows)   # last: its presence marks the entry


def run_point_with(binary, args, file, env, cwd, catalogue_text):
    """:func:`clusternet.sweep.run_point` on the catalogue ``catalogue_text`` (TOML, written
    where the point runs), or on the profile files when it is None."""
    if catalogue_text is None:
        return sw.run_point(binary, args, file, env, cwd)
    with tempfile.TemporaryDirectory(prefix="clusternet-joint-") as tmp:
        path = os.path.join(tmp, "catalogue.toml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(catalogue_text)
        return sw.run_point(binary, args, file, {**env, PROFILE_PATH_ENV: path}, cwd)


def _values_of(table):
    """A profile's table without what does not reach a simulation: each attribute's value
    without its note, the profile without its description."""
    if table is None:
        return None
    return {k: ({a: v[0] if isinstance(v, list) else v for a, v in t.items()}
                if isinstance(t, dict) else t)
            for k, t in table.items() if k != "description"}


def _parts_names(parts):
    """``kind:name;...`` -> the set of profile names."""
    return {p.split(":", 1)[1] for p in parts.split(";") if ":" in p}


class Points:
    """The reproduction's points, simulated on candidate catalogues through a store and a pool."""

    def __init__(self, scenarios, results, store, client, build):
        from clusternet import reproduce

        self.store = store
        self.client = client
        self.sweeps = []
        for name in scenarios:
            binary = Path(build) / "scenarios" / name
            if not binary.is_file():
                raise JointError(f"{binary} is not built; run ./ns3 build")
            args = [*reproduce.default_args(name), f"--out={Path(results) / name}"]
            try:
                self.sweeps.append(sw.Sweep(binary, args))
            except sw.ProgramRefused as exc:
                raise JointError(f"{name} refuses its default run: {exc}") from None
        self.walls = reproduce.shipped_walls()
        self.parts = {}        # (scenario, file) -> profile names
        self.tables = load_tables()
        self.texts = {}        # overrides -> the catalogue's TOML with them
        self.runs = 0          # simulations run by this object
        self.read = 0          # points read back (the store's or the reproduction's)
        self.made = set()      # keys of the points simulated by this object
        self.counted = set()   # keys of the points read back

    def all(self):
        return [(s, p) for s in self.sweeps for p in s.points]

    def composition(self, sweep, p):
        """The point's identity without the catalogue: its provenance key
        (:func:`clusternet.sweep.point_key`) with no profile files in it."""
        return sw.point_key(sweep.scenario, p["label"], sweep.args, sweep.code_sha, "",
                            sweep.inputs_sha, sweep.env)

    def key(self, sweep, p, overrides):
        """The key of the point's rows: its identity and the values its parts have, as the
        files hold them with the candidate ``overrides`` laid on. A note, a description or a
        profile the point is not composed of leaves the key; so does writing a candidate into
        the files (the point simulated with it is the point the files now describe)."""
        names = sorted(self.parts[(sweep.scenario, p["file"])])
        values = {n: _values_of(self.tables.get(n)) for n in names}
        for profile, target, attribute, text in overrides:
            values[profile].setdefault(target, {})[attribute] = text
        ident = json.dumps([self.composition(sweep, p), values], sort_keys=True)
        return hashlib.sha256(ident.encode()).hexdigest()

    def on_parts(self, sweep, p, overrides):
        """The ``overrides`` ((profile, target, attribute, text), ...) on the point's parts."""
        names = self.parts[(sweep.scenario, p["file"])]
        return tuple(o for o in overrides if o[0] in names)

    def catalogue_text(self, overrides):
        import tomli_w

        if not overrides:
            return None
        if overrides not in self.texts:
            tables = json.loads(json.dumps(self.tables))   # a deep copy
            for profile, target, attribute, text in overrides:
                tables[profile].setdefault(target, {})[attribute] = [text, "calibrate --all"]
            self.texts[overrides] = tomli_w.dumps(tables)
        return self.texts[overrides]

    def compose(self):
        """Learn every point's parts: from the reproduction's record of it under the same
        provenance key, from the store's record of its composition, or by simulating it on the
        catalogue as it is."""
        todo = []
        for s, p in self.all():
            where = (s.scenario, p["file"])
            rec, rows, _ = s.reusable(p)
            if rec is not None and "parts" in rec:
                self.parts[where] = _parts_names(rec["parts"])
                self.store.put_parts(self.composition(s, p), rec["parts"])
                printed = s._stdout(p).read_text(encoding="utf-8") if s._stdout(p).exists() \
                    else ""
                self.store.put(self.key(s, p, ()), rows, rec["parts"], printed)
                continue
            parts = self.store.get_parts(self.composition(s, p))
            if parts is not None:
                self.parts[where] = _parts_names(parts)
                continue
            todo.append((s, p, ()))
        if todo:
            say(f"composing: {len(todo)} of {len(self.all())} points not simulated on this "
                "code yet")
        self.run(todo, "composing")
        # A point whose composition the store knows, but whose parts' tables were edited since.
        self.ensure([()], "the catalogue's values")

    def run(self, todo, stage):
        """Simulate ``[(sweep, point, overrides)]`` (overrides already on the point's parts) on
        the pool and store them, longest first."""
        if not todo:
            return
        import cloudpickle
        from distributed import as_completed

        todo = sorted(todo, key=lambda t: -self.walls.get((t[0].scenario, t[1]["file"]), 1.0))
        cwd = os.getcwd()
        for module in (sw, sys.modules[__name__]):
            cloudpickle.register_pickle_by_value(module)
        try:
            futures = {}
            for n, (s, p, over) in enumerate(todo):
                fut = self.client.submit(run_point_with, s.binary, sw.point_args(s.args),
                                         p["file"], s.env, cwd, self.catalogue_text(over),
                                         key=f"joint-{self.composition(s, p)[:16]}-{n}",
                                         pure=False)
                futures[fut] = (s, p, over)
            started = last = time.monotonic()
            for done, fut in enumerate(as_completed(futures), 1):
                s, p, over = futures[fut]
                result = fut.result()
                if result["status"] != 0 or result["rows"] is None:
                    lines = [ln for ln in (result.get("stderr") or "").splitlines() if ln]
                    values = ", ".join(f"{o[0]} {o[1]}.{o[2]}={o[3]}" for o in over) or \
                        "the catalogue's values"
                    raise JointError(f"{s.scenario} {p['label']} failed with {values}: "
                                     f"{lines[-1] if lines else 'status ' + str(result['status'])}")
                parts = result.get("parts", "")
                where = (s.scenario, p["file"])
                self.store.put_parts(self.composition(s, p), parts)
                if where in self.parts and _parts_names(parts) != self.parts[where]:
                    raise JointError(f"{s.scenario} {p['label']}: now composed of other "
                                     "profiles than the store recorded (a profile's base or "
                                     "parts were edited, or a program looks up profiles by "
                                     "their values); recorded anew: run the command again")
                self.parts[where] = _parts_names(parts)
                self.store.put(self.key(s, p, over), result["rows"], parts,
                               result.get("stdout") or "")
                self.made.add(self.key(s, p, over))
                self.runs += 1
                now = time.monotonic()
                if now - last >= PROGRESS_EVERY or done == len(todo):
                    last = now
                    say(f"{stage}: {done} of {len(todo)} simulations done "
                        f"(elapsed {now - started:.0f} s)")
        finally:
            for module in (sw, sys.modules[__name__]):
                cloudpickle.unregister_pickle_by_value(module)

    def keys(self, overrides):
        """Every point's store key under ``overrides`` (each on its parts)."""
        return {(s.scenario, p["file"]): self.key(s, p, self.on_parts(s, p, overrides))
                for s, p in self.all()}

    def ensure(self, override_sets, stage, scenarios=None):
        """Simulate what the store lacks for every set of ``override_sets``, of the points of
        ``scenarios`` (default: every scenario's)."""
        todo, seen = [], set()
        for over in override_sets:
            for s, p in self.all():
                if scenarios is not None and s.scenario not in scenarios:
                    continue
                mine = self.on_parts(s, p, over)
                key = self.key(s, p, mine)
                if key in seen:
                    continue
                seen.add(key)
                if self.store.get(key) is None:
                    todo.append((s, p, mine))
                elif key not in self.made and key not in self.counted:
                    self.counted.add(key)
                    self.read += 1
        self.run(todo, stage)

    def data(self, sweep, keys):
        """The sweep's data frame from its points' stored rows under ``keys``; for a program
        that prints its result (:data:`analysis.statements.STDOUT_PROGRAMS`), the text its
        points printed."""
        from analysis.io import read_data
        from analysis.statements import STDOUT_PROGRAMS

        if sweep.scenario in STDOUT_PROGRAMS:
            return "".join(self.store.stdout(keys[(sweep.scenario, p["file"])])
                           for p in sweep.points)
        text = ",".join(sweep.columns) + "\n"
        for p in sweep.points:
            text += self.store.get(keys[(sweep.scenario, p["file"])])[0]
        return read_data(io.StringIO(text))


# --- the objective ----------------------------------------------------------------------------

class JointObjective(cal.Objective):
    """Residuals of every fitted reference row and kept statement for a vector of the
    problem's values in ``[0, 1]``, from the points' store. The slopes are a recipe's
    (:meth:`clusternet.calibrate.Objective.jacobian`: forward differences, all simulated at
    once); only free values are asked for."""

    def __init__(self, problem, points, rows, fitted, frozen=None):
        self.recipe = problem            # whole_search reads .parameters and .loss
        self.problem = problem
        self.points = points
        self.rows = rows                 # every reference row: scenario, paper, config, metric
        self.fitted = np.asarray(fitted, dtype=bool)   # rows in the fit
        self.frozen = dict(frozen or {})   # parameter index -> text held (not fitted)
        self.cache = {}                  # texts -> simulated vector (rows' errors, margins)
        self.summaries = {}              # (scenario, keys of its points) -> (summary, data)
        self.evaluations = 0
        self.base = problem.parameters
        # The scenarios the fit reads: those of its fitted rows and kept statements. The others
        # (a held-out paper's, the statements' that no recipe keeps) are simulated at the start
        # and at the fit only (full_vector, full_frames).
        self.active = set(self.rows.scenario[self.fitted]) | {
            n for st in problem.statements for n in st.scenarios}

    def texts(self, z):
        """Each value's text at ``z``; None where it is the profile's own value."""
        out = []
        for i, (p, zi) in enumerate(zip(self.base, z)):
            if i in self.frozen:
                out.append(self.frozen[i])
                continue
            x = p.from_z(zi)
            same = math.isclose(x, p.start, rel_tol=1e-9, abs_tol=0.0)
            out.append(None if same else self.own(i, p.text(x)))
        return tuple(out)

    def own(self, i, text):
        """``text`` for value ``i``, or None when it is the value the profile holds."""
        p = self.base[i]
        if p.choices:
            return None if text == p.choices[int(p.start)] else text
        x, unit = cal.parse_quantity(text, p.key)
        x = cal.convert(x, unit, p.unit, p.key)
        return None if math.isclose(x, p.start, rel_tol=1e-12, abs_tol=0.0) else text

    def overrides(self, texts):
        return tuple((prof, tgt, attr, t) for p, t in zip(self.base, texts) if t is not None
                     for prof, tgt, attr in p.places)

    def simulate_many(self, text_sets, stage="simulating"):
        todo = [t for t in dict.fromkeys(text_sets) if t not in self.cache]
        self.points.ensure([self.overrides(t) for t in todo], stage, self.active)
        for t in todo:
            self.cache[t] = self._vector(t, self.active)
        return [self.cache[t] for t in text_sets]

    def full_frames(self, texts):
        """:meth:`frames` of every scenario at ``texts``, simulating what is missing."""
        self.points.ensure([self.overrides(texts)], "every scenario")
        return self.frames(texts)

    def full_vector(self, texts):
        """Every reference row's error and the kept statements' margins at ``texts``."""
        self.full_frames(texts)
        return self._vector(texts)

    def simulated(self, texts):
        return self.simulate_many([texts])[0]

    def frames(self, texts, scenarios=None):
        """``{scenario: (summary, data)}`` at ``texts`` (simulated already), of ``scenarios``
        (default: all)."""
        from analysis.summary import build_summary

        keys = self.points.keys(self.overrides(texts))
        out = {}
        for s in self.points.sweeps:
            if scenarios is not None and s.scenario not in scenarios:
                continue
            ident = (s.scenario, tuple(keys[(s.scenario, p["file"])] for p in s.points))
            if ident not in self.summaries:
                data = self.points.data(s, keys)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    summary = build_summary(s.scenario, data) if isinstance(
                        data, pd.DataFrame) else None
                    self.summaries[ident] = (summary, data)
            out[s.scenario] = self.summaries[ident]
        return out

    def _vector(self, texts, scenarios=None):
        """The rows' errors (NaN for a row outside ``scenarios``) and the kept statements'
        margins."""
        frames = self.frames(texts, scenarios)
        errs = []
        for scenario in dict.fromkeys(self.rows.scenario):
            if scenario in frames:
                errs.append(frames[scenario][0]["rel_err"].to_numpy(dtype=float))
            else:
                errs.append(np.full(int((self.rows.scenario == scenario).sum()), np.nan))
        errs = np.concatenate(errs)
        margins = cal.statement_margins(self.problem.statements,
                                        {k: v[1] for k, v in frames.items()})
        return np.concatenate([errs, np.asarray(margins, dtype=float)])

    def sims_of(self, texts):
        """Every reference row's simulated value at ``texts``."""
        frames = self.full_frames(texts)
        return np.concatenate([frames[s][0]["sim_value"].to_numpy(dtype=float)
                               for s in dict.fromkeys(self.rows.scenario)])

    def residuals_of(self, vec):
        n = len(self.rows)
        r = np.where(np.isfinite(vec[:n]), vec[:n], cal.MISSING_RESIDUAL)[self.fitted]
        return np.concatenate([r, cal.statement_residuals(vec[n:])])

    def __call__(self, z):
        texts = self.texts(z)
        vec = self.simulated(texts)
        self.evaluations += 1
        r = self.residuals_of(vec)
        say(f"step {self.evaluations}: cost {cal.robust_cost(r, self.problem.loss):.6g}; fitted "
            f"rows {cal._error_text(vec[:len(self.rows)][self.fitted])}; {self.points.runs} "
            "simulations so far")
        return r


# --- the fit ----------------------------------------------------------------------------------

def _row_frame(frames, scenarios):
    """Every reference row of ``scenarios`` (in that order) from their summaries."""
    parts = []
    for s in scenarios:
        summary = frames[s][0]
        parts.append(pd.DataFrame({"paper": summary["paper"].astype(str), "scenario": s,
                                   "config": summary["config"], "metric": summary["metric"],
                                   "ref_value": summary["ref_value"]}))
    return pd.concat(parts, ignore_index=True)


def row_profiles(points, frames, scenarios):
    """For each reference row (in :func:`_row_frame`'s order), the names of the profiles of the
    points it reads (:func:`clusternet.joint.row_points`)."""
    from . import joint

    out = []
    keys = points.keys(())
    for s in points.sweeps:
        if s.scenario not in scenarios:
            continue
        summary, data = frames[s.scenario]
        spans, start = [], 0
        header = ",".join(s.columns) + "\n"
        for p in s.points:
            text = points.store.get(keys[(s.scenario, p["file"])])[0]
            n = len(pd.read_csv(io.StringIO(header + text))) if text.strip() else 0
            spans.append((p["file"], points.parts[(s.scenario, p["file"])],
                          range(start, start + n)))
            start += n
        parts_of = {f: names for f, names, _ in spans}
        for deps in joint.row_points(s.scenario, data, spans):
            out.append(set().union(*(parts_of[f] for f in deps)) if deps else set())
    return out


def affects(param, names):
    return any(place[0] in names for place in param.places)


def overridden(place, names, tables):
    """Whether a profile of ``names`` derives from ``place``'s profile (through ``base``, in
    ``tables``: :func:`analysis.catalogue.load_tables`) and sets its attribute itself, or a
    profile between does: the row reads the derived value, not the place's."""
    profile, target, attribute = place
    for name in names:
        chain, at = [], name
        while at is not None and at != profile:
            chain.append(at)
            at = (tables.get(at) or {}).get("base")
        if at == profile and any(attribute in ((tables.get(c) or {}).get(target) or {})
                                 for c in chain):
            return True
    return False


def reaches(param, names, tables=None):
    """Whether a row composed of ``names`` reads ``param``'s value at one of its places."""
    return any(place[0] in names and not overridden(place, names, tables or {})
               for place in param.places)


def start_values(params, own_starts, names, papers, hold_out="", tables=None):
    """Where each value starts: where its profile has it (over every paper the fit then checks
    that the profiles stand still), but with a paper held out, a value that reaches a row of
    that paper (``names``: each row's profiles; ``papers``: each row's paper; a derived profile
    that sets the attribute itself shadows it, :func:`overridden`) at its own start
    (:func:`own_start`), not where that paper's rows helped put it. The others start where the
    profiles have them, as a prediction of a new machine takes the calibrated parts it shares
    with the papers."""
    held = [n for n, paper in zip(names, papers) if hold_out and paper == hold_out]
    return [own if any(reaches(p, n, tables) for n in held) else p.start
            for p, own in zip(params, own_starts)]


def robust_scatter(errors):
    """The scatter of the fitted rows' errors that the loss sees: 1.4826 times their median
    absolute value (the standard deviation of normal errors, not inflated by the few rows the
    model misses by far and the robust loss counts only linearly)."""
    e = np.asarray(errors, dtype=float)
    e = e[np.isfinite(e)]
    return 1.4826 * float(np.median(np.abs(e))) if e.size else math.nan


def slope_rows(jac, fitted_index, n_rows):
    """Per column of ``jac`` (rows then statements), the fitted row indices with a slope."""
    out = []
    for i in range(jac.shape[1]):
        col = jac[:n_rows, i]
        out.append([fitted_index[j] for j in np.flatnonzero(np.abs(col) > SLOPE_FLOOR)])
    return out


def determining_rows(jac, fitted_index, n_rows, rows):
    """Per column, ``[(row index, share)]`` of the fitted rows carrying at least
    :data:`DETERMINING_SHARE` of the value's information, largest first."""
    out = []
    for i in range(jac.shape[1]):
        sq = np.square(jac[:n_rows, i])
        total = sq.sum()
        if total <= 0:
            out.append([])
            continue
        share = sq / total
        order = sorted(np.flatnonzero(share >= DETERMINING_SHARE), key=lambda j: (-share[j], j))
        out.append([(fitted_index[j], float(share[j])) for j in order])
    return out


def one_row_alone(jac, fitted_index, n_rows, rows):
    """Per column of ``jac``, why one row decides the value (its slopes are on fewer than
    :data:`MIN_ROWS` fitted rows, or one row carries more than :data:`ONE_ROW_SHARE` of its
    information), or None when the rows decide it together."""
    out = []
    shares = determining_rows(jac, fitted_index, n_rows, rows)
    for js, share in zip(slope_rows(jac, fitted_index, n_rows), shares):
        if not js:
            out.append("no fitted row moves with it")
        elif len(js) < MIN_ROWS:
            out.append(f"{row_label(rows, js[0])} is the only row it moves")
        elif share and share[0][1] > ONE_ROW_SHARE:
            out.append(f"{row_label(rows, share[0][0])} carries {100 * share[0][1]:.0f} % of "
                       "its information")
        else:
            out.append(None)
    return out


def row_label(rows, i):
    r = rows.iloc[i]
    return f"{r.paper}/{r.scenario}/{r.config}/{r.metric}"


def narrow_search(obj, z, idx):
    """Move the narrow whole values ``idx`` one unit at a time (each alone, all neighbours
    simulated at once) while that lowers the cost."""
    params = obj.problem.parameters

    def cost(zz):
        return cal.robust_cost(obj.residuals_of(obj.simulated(obj.texts(zz))), obj.problem.loss)

    z = np.array(z, dtype=float)
    for i in idx:
        z[i] = params[i].to_z(round(params[i].from_z(z[i])))
    here = cost(z)
    for _ in range(cal.MAX_WHOLE_MOVES):
        moves = []
        for i in idx:
            x = round(params[i].from_z(z[i]))
            for d in (-1, 1):
                if params[i].lo <= x + d <= params[i].hi:
                    m = z.copy()
                    m[i] = params[i].to_z(x + d)
                    moves.append(m)
        obj.simulate_many([obj.texts(m) for m in moves], "whole-number moves")
        best = min(moves, key=cost, default=None)
        if best is None or cost(best) >= here:
            break
        z, here = best, cost(best)
        say(f"whole-number move: cost {here:.6g}")
    return z


@dataclasses.dataclass
class JointFit:
    problem: Problem
    rows: pd.DataFrame          # every reference row, with start/fitted values and errors
    values: pd.DataFrame        # every value: start, fitted, error, determining rows
    hold_out: str
    refused: list               # values determined by a single row (the fit did not run)
    simulations: int
    read: int
    wall_s: float
    statements: pd.DataFrame = None   # every statement judged: id, paper, recorded, start,
    #                                   fitted (True, False, or None: cannot be checked)


def kept_statements(recipes_keep, judged, hold_out=""):
    """The statements the joint fit keeps: every one a recipe keeps and every judged one with a
    margin (a fit must not step across a paper's sentence it can measure), less the held-out
    paper's (its sentences are predicted, not fitted); in id order."""
    keep = {st.id: st for st in [*recipes_keep, *(st for st in judged if st.margin is not None)]}
    return tuple(keep[k] for k in sorted(keep) if keep[k].seed != hold_out)


def check_paper(paper):
    """Refuse a --hold-out that names no paper of the reference rows."""
    from analysis.reference import load_reference

    papers = sorted(set(load_reference().paper.astype(str)))
    if paper and paper not in papers:
        raise JointError(f"--hold-out: '{paper}' is not a paper of reference/seeds.csv "
                         f"(allowed: {', '.join(papers)})")


def refusal_lines(refused):
    """One line per value :func:`fit_all` refused (``(key, why)``, :func:`one_row_alone`'s)."""
    return [f"{key} is determined by one row alone ({why}): take its [[fit]] out of the recipes "
            "and give the profile a value from a source, or give it rows" for key, why in refused]


def fit_all(recipe_paths, results, build, client, store, hold_out="", max_evals=20,
            scenarios=None):
    """The joint fit (see the module doc); returns a :class:`JointFit`. ``scenarios`` narrows
    the reference rows to those scenarios' (default: every scenario with reference rows)."""
    from analysis.reference import load_reference

    began = time.monotonic()
    catalogue = cal.load_catalogue()
    problem = load_problem(recipe_paths, catalogue)
    params = problem.parameters
    ref = load_reference()
    check_paper(hold_out)
    from analysis.statements import STATEMENTS

    if scenarios is not None:
        ref = ref[ref.scenario.isin(scenarios)]
        judged = [st for st in STATEMENTS if set(st.scenarios) <= set(scenarios)]
    else:
        judged = list(STATEMENTS)
    problem = dataclasses.replace(problem, statements=kept_statements(problem.statements, judged,
                                                                      hold_out))
    scenarios = sorted(set(ref.scenario) | {n for st in [*problem.statements, *judged]
                                             for n in st.scenarios})
    points = Points(scenarios, results, store, client, build)
    say(f"{len(params)} fitted values of {len(recipe_paths)} recipes; {len(points.all())} "
        f"points of {len(scenarios)} scenarios")
    points.compose()
    ref_scenarios = [s for s in scenarios if s in set(ref.scenario)]
    probe = JointObjective(problem, points, pd.DataFrame({"scenario": ref_scenarios}),
                           np.zeros(len(ref_scenarios), dtype=bool))
    start_texts = tuple(None for _ in params)
    frames = probe.frames(start_texts)
    rows = _row_frame(frames, ref_scenarios)
    say("which points every reference row reads")
    names = row_profiles(points, frames, set(ref_scenarios))
    touched = np.array([any(affects(p, n) for p in params) for n in names])
    kept = np.array([hold_out == "" or r != hold_out for r in rows.paper])
    fitted = touched & kept
    # A value none of whose rows is fitted keeps its source's value.
    frozen, missing = {}, []
    for i, p in enumerate(params):
        if not any(affects(p, n) for n, f in zip(names, fitted) if f):
            if p.source is None:
                missing.append(p.key)
            else:
                frozen[i] = p.text(p.source[0])
    if missing:
        raise JointError(f"with paper {hold_out} held out, {', '.join(missing)} lose every row "
                         "and their recipes give no source value: add source = [\"value\", "
                         "\"where it comes from\"] to their [[fit]]")
    obj = JointObjective(problem, points, rows, fitted, frozen)
    free = [i for i in range(len(params)) if i not in frozen]
    fitted_index = np.flatnonzero(fitted)
    n_fit = len(fitted_index)
    starts = start_values(params, problem.own_starts, names, rows.paper, hold_out, points.tables)
    z0 = np.array([p.to_z(x) for p, x in zip(params, starts)])
    for i, text in frozen.items():
        z0[i] = params[i].to_z(params[i].source[0])
    say(f"{len(rows)} reference rows, {n_fit} fitted ({int(touched.sum())} read a point of a "
        f"fitted profile{', less paper ' + hold_out + chr(39) + 's' if hold_out else ''}); "
        f"{len(free)} values fitted, {len(frozen)} kept at their sources")
    start_vec = obj.simulated(obj.texts(z0))
    say(f"start: fitted rows {cal._error_text(start_vec[:len(rows)][fitted])}")

    def cost(zz):
        return cal.robust_cost(obj.residuals_of(obj.simulated(obj.texts(zz))), problem.loss)

    def local_from(zz, which):
        held = cal.HeldObjective(obj, zz, which)
        return held.full(cal.local_fit(held, zz[which], held.jacobian, problem.loss, max_evals,
                                       JOINT_FTOL, JOINT_XTOL).x)

    def is_wide(i):
        return not (params[i].integer and params[i].hi - params[i].lo <= NARROW_WHOLE)

    # A hold-out's values started at their own starts are fitted first, alone, the others held
    # at the profiles (slopes of a few values are cheap, and the others are near where the four
    # papers want them); then all together. The slopes that judge whether one row decides a
    # value are taken after that first fit: at the own starts, a value far from where the
    # rows want it (a copy bandwidth) can make another look decided by one row (a driver's
    # cost the other row's peak no longer feels) when it is not.
    z = z0.copy()
    moved = [i for i in free if is_wide(i) and starts[i] != params[i].start]
    if moved and len(moved) < len([i for i in free if is_wide(i)]):
        say(f"local fit of the {len(moved)} values started at their own starts, the others held: "
            f"{', '.join(params[i].key for i in moved)}")
        z = fit_until_still(cost, lambda zz: local_from(zz, moved), z)
    say(f"slopes {'at the start' if np.array_equal(z, z0) else 'after that fit'}: "
        f"{len(free)} values")
    jac0 = obj.jacobian(z, only=free) if free else np.zeros((n_fit, 0))
    # A value one row decides (:func:`one_row_alone`): with a paper held out it keeps its
    # source's value, as one with no row left does; over every paper the fit refuses it.
    alone = [(free[k], why) for k, why in
             enumerate(one_row_alone(jac0, fitted_index, n_fit, rows)) if why]
    refused = [(params[i].key, why) for i, why in alone
               if not hold_out or params[i].source is None]
    if refused:
        return JointFit(problem, rows, pd.DataFrame(), hold_out, refused, points.runs,
                        points.read, time.monotonic() - began)
    one_row = {}
    for i, why in alone:
        frozen[i] = obj.frozen[i] = params[i].text(params[i].source[0])
        one_row[i] = why
        z0[i] = z[i] = params[i].to_z(params[i].source[0])
    if one_row:
        say(f"kept at their sources, one row left to determine them: "
            f"{', '.join(params[i].key for i in one_row)}")
        free = [i for i in free if i not in one_row]
        start_vec = obj.simulated(obj.texts(z0))
        say(f"start: fitted rows {cal._error_text(start_vec[:len(rows)][fitted])}")
    wide = [i for i in free if is_wide(i)]
    narrow = [i for i in free if i not in wide]
    if wide:
        say(f"local fit of {len(wide)} values ({len(narrow)} narrow whole ones held)")
        z = fit_until_still(cost, lambda zz: local_from(zz, wide), z)
    if narrow:
        say(f"whole-number search of {', '.join(params[i].key for i in narrow)}")
        z_moved = narrow_search(obj, z, narrow)
        if wide and not np.array_equal(z_moved, z):
            say("local fit again, the whole ones held where they moved")
            z_moved = fit_until_still(cost, lambda zz: local_from(zz, wide), z_moved)
        z = z_moved
    # The profiles take the values as simulated (8 significant digits): rounded further, a value
    # can cross an edge of the cost (a statement at its check, a 200 ms stall flipping), and the
    # profiles would not hold the point where the fit stood still.
    fitted_texts = obj.texts(z)
    fit_vec = obj.simulated(fitted_texts)
    say("slopes at the fit, for how well each value is determined")
    jac = obj.jacobian(z, only=free) if free else np.zeros((n_fit, 0))
    sigma, notes = cal.determination([params[i] for i in free], jac,
                                     obj.residuals_of(fit_vec), z[free],
                                     robust_scatter(fit_vec[:len(rows)][fitted]))
    deciding = determining_rows(jac, fitted_index, n_fit, rows)
    dominated = one_row_alone(jac, fitted_index, n_fit, rows)
    with_slope = slope_rows(jac, fitted_index, n_fit)
    n = len(rows)
    out_rows = rows.copy()
    out_rows["fitted"] = fitted
    out_rows["start_sim"] = obj.sims_of(obj.texts(z0))
    out_rows["fitted_sim"] = obj.sims_of(fitted_texts)
    out_rows["start_err"] = obj.full_vector(obj.texts(z0))[:n]
    out_rows["fitted_err"] = obj.full_vector(fitted_texts)[:n]
    records = []
    began_at = obj.texts(z0)
    for i, p in enumerate(params):
        k = free.index(i) if i in free else None
        start_text = catalogue[p.profile].values[(p.target, p.attribute)][0]
        records.append({
            "value": p.key, "places": " ".join(f"{a}:{b}.{c}" for a, b, c in p.places),
            "recipes": problem.recipes[i], "profile_value": start_text,
            "start": began_at[i] if began_at[i] is not None else start_text,
            "fitted": fitted_texts[i] if fitted_texts[i] is not None else start_text,
            "how": "fitted" if k is not None else "kept at its source" + (
                f" ({one_row[i]})" if i in one_row else "") + ": " + p.source[1],
            "rel_sigma": sigma[k] if k is not None else math.nan,
            "note": notes[k] if k is not None else "",
            "rows": len(with_slope[k]) if k is not None else 0,
            "determining": ";".join(f"{row_label(rows, j)} {100 * s:.0f} %"
                                    for j, s in deciding[k]) if k is not None else "",
            "one_row": (dominated[k] or "") if k is not None else ""})
    for st, m0, m in zip(problem.statements, start_vec[n:], fit_vec[n:]):
        say(f"statement {st.id}: {cal._margin_text(m)}; start {cal._margin_text(m0)}")
    statements = pd.DataFrame({
        "id": [st.id for st in judged], "paper": [st.seed for st in judged],
        "recorded": [st.holds for st in judged],
        "start": statement_outcomes(judged, obj.full_frames(obj.texts(z0))),
        "fitted": statement_outcomes(judged, obj.full_frames(fitted_texts))})
    return JointFit(problem, out_rows, pd.DataFrame(records), hold_out, [], points.runs,
                    points.read, time.monotonic() - began, statements)


def fit_until_still(cost, fit_from, z):
    """``fit_from(z)`` (a local fit) restarted from where it stopped until a restart lowers
    ``cost`` by less than :data:`JOINT_FTOL` of it, at most :data:`MAX_RESTARTS` times; a
    restart that ends higher, or lower by less than that, is not taken (so a fit started where
    it stands still returns its start)."""
    c = cost(z)
    for n in range(MAX_RESTARTS):
        if n:
            say(f"restart {n} of the local fit, from cost {c:.6g}")
        z_new = fit_from(z)
        c_new = cost(z_new)
        if c - c_new <= JOINT_FTOL * c:
            break
        z, c = z_new, c_new
    return z


def statement_outcomes(statements, frames):
    """Whether each statement holds over ``frames`` (:meth:`JointObjective.frames`); None for
    one that cannot be checked there."""
    from analysis.statements import CannotCheck, evaluate

    out = []
    for st in statements:
        data = frames[st.scenario][1] if isinstance(st.scenario, str) else \
            {k: frames[k][1] for k in st.scenarios}
        try:
            out.append(evaluate(st, data)[0])
        except CannotCheck:
            out.append(None)
    return out


def paper_table(rows, statements=None):
    """Per paper: rows, fitted rows, median and max |error| at the start and at the fit, and
    with ``statements`` (:attr:`JointFit.statements`) how many of its statements hold."""
    out = []
    for paper, g in rows.groupby("paper", sort=True):
        rec = {"paper": paper, "rows": len(g), "fitted_rows": int(g.fitted.sum())}
        for when in ("start", "fitted"):
            a = g[f"{when}_err"].abs().dropna()
            rec[f"{when}_median_pct"] = round(100 * a.median(), 3) if len(a) else math.nan
            rec[f"{when}_max_pct"] = round(100 * a.max(), 3) if len(a) else math.nan
        if statements is not None:
            mine = statements[statements.paper == paper]
            rec["statements"] = len(mine)
            for when in ("start", "fitted"):
                rec[f"{when}_statements_held"] = int((mine[when] == True).sum())  # noqa: E712
        out.append(rec)
    return pd.DataFrame(out)


def held_and_joint(values_csv, profiles, within=cal.AGREEMENT):
    """Each place of each value a written ``values.csv`` fits, with the value ``profiles``
    (:func:`analysis.catalogue.load_profiles`) holds, the joint fit's and their
    :func:`clusternet.calibrate.agreement` (``within`` standard errors): ``[(profile, target,
    attribute, held, fitted, verdict), ...]``."""
    table = pd.read_csv(values_csv, dtype=str, keep_default_na=False)
    out = []
    for row in table.itertuples(index=False):
        sigma = float(row.rel_sigma) if row.rel_sigma else math.nan
        for place in row.places.split():
            profile, attr = place.split(":")
            target, attribute = attr.split(".")
            held = profiles[profile].values[(target, attribute)][0]
            out.append((profile, target, attribute, held, row.fitted,
                        cal.agreement(held, row.fitted, sigma, within)))
    return out


def write_outputs(result, out):
    from analysis.io import write_csv_atomic

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    write_csv_atomic(result.values, out / "values.csv")
    write_csv_atomic(result.rows, out / "rows.csv")
    write_csv_atomic(paper_table(result.rows, result.statements), out / "papers.csv")
    write_csv_atomic(result.statements, out / "statements.csv")
    return out


def run(args):
    """``./ns3 calibrate --all``; returns the exit status."""
    from ._native import build_dir

    out = args.out or str(Path("results") / "calibrate" /
                          ("all" if not args.hold_out else f"all-without-{args.hold_out}"))
    cal.check_out(out)
    check_paper(args.hold_out)
    recipes = sorted((cal.REPO / "recipes").glob("*.toml"))
    cluster, client = sw.open_client(args.scheduler, args.jobs)
    try:
        store = PointStore(Path(args.results) / "calibrate" / ".points")
        result = fit_all(recipes, args.results, build_dir(), client, store, args.hold_out,
                         args.max_evals)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    if result.refused:
        for line in refusal_lines(result.refused):
            print(f"{cal.PROG}: {line}", file=sys.stderr)
        return 2
    path = write_outputs(result, out)
    table = paper_table(result.rows, result.statements)
    for r in table.itertuples():
        say(f"paper {r.paper}: {r.rows} rows ({r.fitted_rows} fitted): |error| median "
            f"{r.fitted_median_pct:.2f} %, max {r.fitted_max_pct:.1f} % (start "
            f"{r.start_median_pct:.2f} %, {r.start_max_pct:.1f} %); statements holding "
            f"{r.fitted_statements_held} of {r.statements} (start {r.start_statements_held})")
    say(f"{result.simulations} simulations ({result.read} points read back) in "
        f"{result.wall_s:.0f} s -> {path}")
    return 0


# --- leave one paper out ----------------------------------------------------------------------

def hold_out_table(folder):
    """The leave-one-paper-out table from the runs under ``folder`` (``all/`` and
    ``all-without-PAPER/``, as ``--all`` and ``--all --hold-out=PAPER`` write them): per held-out
    paper, its rows, median and max |error| [%] with the paper in the fit and held out, its
    statements holding in each, and the values that kept their sources. Raise
    :class:`JointError` when ``all/`` is missing; a paper without its run is left out."""
    folder = Path(folder)
    try:
        joint = pd.read_csv(folder / "all" / "papers.csv", dtype={"paper": str})
    except OSError:
        raise JointError(f"{folder / 'all' / 'papers.csv'}: no joint fit there; run "
                         "./ns3 calibrate --all first") from None
    out = []
    for r in joint.itertuples(index=False):
        run = folder / f"all-without-{r.paper}"
        if not (run / "papers.csv").exists():
            continue
        held = pd.read_csv(run / "papers.csv", dtype={"paper": str}).set_index("paper")
        values = pd.read_csv(run / "values.csv", dtype=str, keep_default_na=False)
        h = held.loc[r.paper]
        out.append({"paper": r.paper, "rows": r.rows,
                    "included_median_pct": r.fitted_median_pct,
                    "included_max_pct": r.fitted_max_pct,
                    "held_out_median_pct": h.fitted_median_pct,
                    "held_out_max_pct": h.fitted_max_pct,
                    "statements": r.statements,
                    "included_statements_held": r.fitted_statements_held,
                    "held_out_statements_held": int(h.fitted_statements_held),
                    "values_from_sources": int(values.how.str.startswith("kept").sum()),
                    "kept": "; ".join(values.value[values.how.str.startswith("kept")])})
    return pd.DataFrame(out, columns=["paper", "rows", "included_median_pct",
                                      "included_max_pct", "held_out_median_pct",
                                      "held_out_max_pct", "statements",
                                      "included_statements_held", "held_out_statements_held",
                                      "values_from_sources", "kept"])


def hold_out_rst(table):
    """The table as the doc's RST."""
    head = ("paper", "rows", "included: median", "max", "held out: median", "max",
            "statements held (in / out)", "values from sources")
    lines = []
    for r in table.itertuples(index=False):
        lines.append((r.paper, str(r.rows), f"{r.included_median_pct:.1f} %",
                      f"{r.included_max_pct:.1f} %", f"{r.held_out_median_pct:.1f} %",
                      f"{r.held_out_max_pct:.1f} %",
                      f"{r.included_statements_held} / {r.held_out_statements_held} of "
                      f"{r.statements}", str(r.values_from_sources)))
    widths = [max(len(h), *(len(x[k]) for x in lines)) for k, h in enumerate(head)]
    rule = "  ".join("=" * w for w in widths)
    fmt = lambda cells: "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()  # noqa
    kept = [f"- {r.paper}: {r.kept.replace('; ', ', ')}" for r in table.itertuples(index=False)
            if r.kept]
    return "\n".join([rule, fmt(head), rule, *(fmt(x) for x in lines), rule, *(
        ["", "Values kept at their sources, per held-out paper:", "", *kept] if kept else [])])


def plot_hold_out(table, path):
    """Median and max |error| per paper, in the fit and held out (grouped bars, log scale)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from analysis.io import save_figure_atomic

    fig, ax = plt.subplots(figsize=(7, 4.4))
    x = np.arange(len(table))
    bars = [("included_median_pct", "median, paper in the fit", "tab:blue", -0.3),
            ("held_out_median_pct", "median, paper held out", "tab:red", -0.1),
            ("included_max_pct", "max, paper in the fit", "lightsteelblue", 0.1),
            ("held_out_max_pct", "max, paper held out", "lightsalmon", 0.3)]
    for column, label, color, dx in bars:
        ax.bar(x + dx, table[column], width=0.2, color=color, label=label)
    ax.axhline(15, color="black", linestyle=":", linewidth=1, label="15 % (issue 46)")
    ax.set_xticks(x, [f"seed {p}" for p in table.paper])
    ax.set_yscale("log")
    ax.set_ylabel("|error| of the paper's reference rows [%]")
    ax.set_title("Each paper predicted from the other four (leave one paper out)", fontsize=10)
    ax.legend(fontsize=7, ncol=3, loc="upper center", bbox_to_anchor=(0.5, -0.1))
    ax.grid(True, axis="y", which="both", alpha=0.3)
    fig.tight_layout()
    save_figure_atomic(fig, path, dpi=110)
    plt.close(fig)


def write_hold_out(folder):
    """``--hold-out-table``: write ``hold-out.csv`` and ``hold-out.png`` under ``folder``;
    return the RST table."""
    from analysis.io import write_csv_atomic

    table = hold_out_table(folder)
    if table.empty:
        raise JointError(f"{folder}: no run of --all --hold-out=PAPER yet")
    write_csv_atomic(table, Path(folder) / "hold-out.csv")
    plot_hold_out(table, Path(folder) / "hold-out.png")
    return hold_out_rst(table)
