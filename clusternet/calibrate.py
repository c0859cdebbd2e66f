# SPDX-License-Identifier: GPL-2.0-only
"""Fit profile attributes to measured curves: ``./ns3 calibrate RECIPE``.

A *recipe* (TOML) says which benchmark to run, which profile attributes to fit within which
bounds, and what the simulation is compared with::

    benchmark = "gige-tcp-netpipe"                 # a scenario under scenarios/
    args = ["--cases=acenic@1500", "--max-block=65536"]
    profile-files = ["my-profiles.toml"]           # optional: profiles besides the catalogue

    [[fit]]
    profile = "acenic"                             # whose value is fitted
    attribute = "coalescer.Timeout"                # target.Attribute, as in a profile file
    min = "10us"                                   # bounds, in the attribute's unit
    max = "400us"
    # start = "150us"                              # default: the profile's own value
    # choices = ["16", "32", "64", "128"]           # instead of min/max: allowed values
    # also = ["gnic2:coalescer.Timeout"]           # attributes that take the same value
                                                   #   ('target.Attribute' of the same
                                                   #   profile, or 'profile:target.Attribute')
    # source = ["100us", "the driver's default"]   # the value a source gives: kept when no
                                                   #   row fits it (./ns3 calibrate --all
                                                   #   --hold-out of its only paper)

    [[measured]]
    file = "acenic.np.out"                         # NetPIPE output, or CSV (msg_bytes,
    curve = "nic=acenic;mtu=1500"                  #   latency_us and/or mbps); the data.csv
                                                   #   curve it is compared with
    [[measured]]
    paper = "000"                                  # rows of reference/seeds.csv for the
    rows = [["nic=acenic;mtu=1500;sockbuf=131072", "latency_us"]]   # benchmark (all if absent)

    [names]
    acenic = "acenic-fitted"                       # the derived profile's name (default
                                                   #   '<profile>-fitted')

A paper's sentences constrain the fit: ``statements = ["s001-21"]`` names statements of
:mod:`analysis.statements` (those with a ``margin``) that the fitted values must keep. Each
reads the data of recipe benchmarks (its scenarios must be among them, run with the arguments
it needs) and adds a residual that is 0 while the statement holds with at least
:data:`STATEMENT_CLEARANCE` to spare and grows steeply (:data:`STATEMENT_WEIGHT` per unit of
margin) as it nears or breaks its check, so the fit meets the points as well as it can without
breaking what the paper says in words.

The loss: by default robust (``soft_l1``: a point off by more than 2 % counts linearly, so one
point that jumps cannot hold the fit, and points no value can all meet are mostly met, the rest
left); ``loss = "squares"`` shares the error among points that conflict.

Several benchmarks: ``benchmark = ["myrinet-gm-allsize", "myrinet-gm-logp"]`` with ``args`` a
table of each one's arguments (``[args]`` then ``myrinet-gm-logp = ["--msg=8"]``); every
evaluation runs them all. A ``paper`` entry takes the rows of every benchmark (``benchmark =
"..."`` in the entry narrows it to one); a ``file`` entry names its ``benchmark`` when there are
several.

Paths in a recipe are relative to the recipe's folder. Each measured point becomes one residual,
``ln(simulated / measured)``: a one-way time per block size of a curve (a throughput where a CSV
gives no time; at a size between two simulated blocks the simulated curve is interpolated), or a
reference row's metric as ``summary.csv`` evaluates it (:func:`analysis.summary.evaluate`).

The fit is :func:`scipy.optimize.least_squares` (trust-region reflective, within the bounds) on
the attributes mapped to ``[0, 1]`` (logarithmically when the lower bound is above 0). The
simulation is the objective: every evaluation writes the catalogue with the candidate values laid
over the fitted profiles and runs the benchmark on it (``$CLUSTERNET_PROFILE_PATH``), so every
profile that derives from a fitted one sees its values, as it would in the catalogue. The
slopes are forward differences whose runs go to ``--jobs`` workers at once. Everything is
deterministic: the same recipe gives the same files.

It writes into ``--out`` (default ``results/calibrate/<recipe name>``):

- ``profile.toml``: a derived profile per fitted profile (``base`` = the profile), holding the
  fitted values, each with its source: what it was fitted on, the fit's error, and the command
  that reproduces it. ``--profile-file=profile.toml`` hands it to every scenario.
- ``points.csv``: every measured point with its simulated value at the start and at the fit.
- ``parameters.csv``: each attribute's start, fit, bounds and how well the points determine it.
- ``fit.png``: measured against simulated, at the start and at the fit.
"""

import argparse
import concurrent.futures
import copy
import itertools
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.catalogue import PROFILE_PATH_ENV, ProfileError, load_profiles, load_tables
from analysis.catalogue import read_toml as catalogue_read_toml
from analysis.catalogue import toml_type

PROG = "./ns3 calibrate"
REPO = Path(__file__).resolve().parent.parent

# Options the tool sets on the benchmark itself.
OWNED_OPTIONS = ("--out", "--jobs", "--report", "--profile-file", "--resume")
# Options that make a program print something and stop (or run one point of the sweep driver's
# protocol) instead of simulating: a recipe's args cannot hold them.
STOP_OPTIONS = ("--help", "-h", "--list-options", "--list-points", "--run-point", "--point-out",
                "--PrintHelp", "--PrintGlobals", "--PrintGroups", "--PrintGroup",
                "--PrintTypeIds", "--PrintAttributes", "--PrintVersion")
RECIPE_KEYS = {"benchmark", "args", "profile-files", "fit", "measured", "names", "loss",
               "statements"}
FIT_KEYS = {"profile", "attribute", "min", "max", "start", "also", "choices", "source"}
MEASURED_KEYS = {"file", "curve", "min-bytes", "max-bytes", "paper", "rows", "benchmark"}
# Relative step of a slope, in the [0, 1] coordinate of an attribute.
SLOPE_STEP = 0.02
# Residual of a point the simulation cannot evaluate (ln 20: a factor of twenty off).
MISSING_RESIDUAL = math.log(20.0)
SIGNIFICANT = 4   # significant digits of a fitted value in the profile
# Robust loss: a point off by more than LOSS_SCALE (as a log ratio) counts linearly, not
# squared, so one point that jumps (a timer firing or not) cannot hold the fit.
LOSS = "soft_l1"
# A recipe's 'loss': the robust one above, or plain squares (points that no value can all meet
# share the error instead of the fit meeting most and leaving the rest).
LOSSES = {"robust": "soft_l1", "squares": "linear"}
LOSS_SCALE = 0.02
# Scatter assumed of measured points (as a log ratio) when judging how well the fit determines
# an attribute, and the relative standard error above which it is called poorly determined.
SCATTER_FLOOR = 0.01
POORLY_DETERMINED = 0.10
# Stop when a step improves the cost by less than FTOL (relative) or moves less than XTOL.
FTOL = 1e-8
XTOL = 1e-6
MAX_WHOLE_MOVES = 50   # one-unit moves of the whole attributes after the local fits
# A recipe's statements: the residual of one is STATEMENT_WEIGHT * (STATEMENT_CLEARANCE -
# margin) once its margin (a fraction) falls below STATEMENT_CLEARANCE, 0 above. The weight
# makes a statement outweigh any number of points (a hundredth of margin counts as a point off by
# a factor e); the clearance keeps the rounded values inside the check.
STATEMENT_WEIGHT = 100.0
STATEMENT_CLEARANCE = 0.002
# A profile value that a recipe's fit misses by at most AGREEMENT times the fitted attribute's
# standard error (at SCATTER_FLOOR) is one the recipe's points cannot tell from the fit: the fits
# chained on one another's values (seed 000's host costs and latencies, seed 001's PCI and GM
# costs) end within a few tenths of a percent of each other, not on one number.
AGREEMENT = 0.1

TIME_UNITS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "ps": 1e-12}
RATE_UNITS = {"bps": 1.0, "kbps": 1e3, "Kbps": 1e3, "Mbps": 1e6, "Gbps": 1e9,
              "Bps": 8.0, "KBps": 8e3, "kBps": 8e3, "MBps": 8e6, "GBps": 8e9}


class CalibrationError(ValueError):
    """Bad input: the message is one line naming the file or option and what is allowed."""


def say(msg):
    print(f"[calibrate] {msg}", flush=True)


# --- quantities -------------------------------------------------------------------------------

def parse_quantity(text, where):
    """``"120us"`` -> ``(120.0, "us")``; a bare number has unit ``""``."""
    if isinstance(text, bool):
        raise CalibrationError(f"{where}: {text!r} is not a number with a unit")
    if isinstance(text, (int, float)):
        if not math.isfinite(text):
            raise CalibrationError(f"{where}: {text} is not a finite number")
        return float(text), ""
    if not isinstance(text, str):
        raise CalibrationError(f"{where}: {toml_type(text)} is not a number with a unit "
                               "(e.g. \"120us\", \"800Mbps\", 0.45, 200)")
    s = text.strip()
    i = len(s)
    while i > 0 and (s[i - 1].isalpha() or s[i - 1] == "/"):
        i -= 1
    number, unit = s[:i].strip(), s[i:]
    try:
        value = float(number)
    except ValueError:
        raise CalibrationError(f"{where}: '{text}' is not a number with a unit (e.g. 120us, "
                               "800Mbps, 0.45, 200)") from None
    if not math.isfinite(value):
        raise CalibrationError(f"{where}: '{text}' is not a finite number")
    if unit and unit not in TIME_UNITS and unit not in RATE_UNITS:
        raise CalibrationError(f"{where}: unit '{unit}' of '{text}' is not one of "
                               f"{', '.join(TIME_UNITS)} or {', '.join(RATE_UNITS)}")
    return value, unit


def _family(unit):
    if unit in TIME_UNITS:
        return TIME_UNITS
    if unit in RATE_UNITS:
        return RATE_UNITS
    return None


def convert(value, unit, to, where):
    """``value`` in ``unit`` expressed in ``to`` (same family: times, rates, or bare numbers)."""
    if unit == to:
        return value
    family = _family(to)
    if family is None or unit not in family:
        raise CalibrationError(f"{where}: '{value:g}{unit}' cannot be expressed in "
                               f"'{to or 'a bare number'}'; give min, max and start in one kind "
                               "of unit")
    return value * family[unit] / family[to]


def _is_whole_text(text):
    return isinstance(text, int) and not isinstance(text, bool) or (
        isinstance(text, str) and text.strip().lstrip("+-").isdigit())


def format_number(x, digits):
    """``x`` with ``digits`` significant digits, never in exponent notation."""
    return np.format_float_positional(float(x), precision=digits, unique=False, fractional=False,
                                      trim="-")


# --- recipe -----------------------------------------------------------------------------------

@dataclass
class Parameter:
    """One fitted attribute: ``profile``'s ``target.attribute`` within ``[lo, hi]`` (``unit``)."""

    profile: str
    target: str
    attribute: str
    lo: float
    hi: float
    start: float
    unit: str
    integer: bool
    also: tuple = ()   # (profile, target, attribute) of each attribute given the same value
    choices: tuple = ()  # the values allowed, in order; the attribute is then their index
    source: tuple = None  # (value, where it comes from): the value when no row fits it

    @property
    def key(self):
        return f"{self.profile} {self.target}.{self.attribute}"

    @property
    def places(self):
        """Every (profile, target, attribute) the value goes to: the fitted one, then ``also``."""
        return ((self.profile, self.target, self.attribute), *self.also)

    @property
    def log_scale(self):
        return self.lo > 0

    def to_z(self, x):
        if self.log_scale:
            return math.log(x / self.lo) / math.log(self.hi / self.lo)
        return (x - self.lo) / (self.hi - self.lo)

    def from_z(self, z):
        z = min(1.0, max(0.0, float(z)))
        if self.log_scale:
            return self.lo * (self.hi / self.lo) ** z
        return self.lo + z * (self.hi - self.lo)

    def unit_step(self, z):
        """The step in ``z`` that moves the attribute from ``from_z(z)`` up by one unit."""
        x = self.from_z(z)
        return self.to_z(min(self.hi, x + 1.0)) - self.to_z(x) if x + 1.0 <= self.hi else \
            self.to_z(x) - self.to_z(max(self.lo, x - 1.0))

    def text(self, x, digits=8):
        """The attribute text of value ``x`` (the unit of the bounds)."""
        if self.choices:
            return self.choices[int(round(x))]
        if self.integer:
            return str(int(round(x)))
        return format_number(x, digits) + self.unit

    def rounded(self, x):
        """``x`` as the profile writes it (whole, or :data:`SIGNIFICANT` digits)."""
        if self.choices:
            return float(round(x))
        return parse_quantity(self.text(x, SIGNIFICANT), self.key)[0]


@dataclass
class Recipe:
    path: Path
    benchmarks: dict        # scenario -> its args, in the recipe's order
    profile_files: list
    parameters: list
    targets: pd.DataFrame   # source, bench, config, metric, value; curve, msg of a curve
    sources: list           # one label per [[measured]] entry
    names: dict             # fitted profile -> derived profile name
    kinds: dict             # fitted profile -> its kind
    loss: str = LOSS        # scipy's name of the recipe's loss
    statements: tuple = ()  # analysis.statements.Statement the fit keeps


def _fail(path, msg):
    raise CalibrationError(f"{path}: {msg}")


def _shown(value):
    """A recipe value as a message quotes it: a string in quotes, anything else as TOML has it
    (a date as 1979-05-27, not as Python's repr)."""
    return repr(value) if isinstance(value, str) else str(value)


def _check_keys(path, table, allowed, what):
    if not isinstance(table, dict):
        _fail(path, f"{what} must be a table")
    unknown = sorted(set(table) - allowed)
    if unknown:
        _fail(path, f"{what}: unknown key '{unknown[0]}'; allowed: {', '.join(sorted(allowed))}")


def _string_list(path, value, what):
    """``value``, a list of strings; ``what`` is the key ('args', or 'fit 1: also')."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        entry, _, key = what.rpartition(": ")
        _fail(path, f"{entry + ': ' if entry else ''}'{key}' must be a list of strings")
    return value


def read_toml(path, what):
    """The tables of TOML file ``path``; one line naming it when it cannot be read
    (:func:`analysis.catalogue.read_toml`)."""
    try:
        return catalogue_read_toml(path, what)
    except ProfileError as exc:
        raise CalibrationError(str(exc)) from None


def load_catalogue(extra_files=()):
    """Every profile of the catalogue and of ``extra_files``, bases resolved
    (:func:`analysis.catalogue.load_profiles`)."""
    try:
        return load_profiles(extra=extra_files)
    except ProfileError as exc:
        raise CalibrationError(str(exc)) from None


def _parameter(path, i, entry, catalogue):
    where = f"{path}: fit {i}"
    _check_keys(path, entry, FIT_KEYS, f"fit {i}")
    needs = ("profile", "attribute") if "choices" in entry else ("profile", "attribute", "min",
                                                                 "max")
    for key in needs:
        if key not in entry:
            _fail(path, f"fit {i}: '{key}' is missing (needs profile, attribute, and min, max "
                        "or choices)")
    profile, attr = entry["profile"], entry["attribute"]
    if not isinstance(profile, str) or not profile:
        _fail(path, f"fit {i}: 'profile' must be the name of a profile, e.g. \"acenic\"")
    if profile not in catalogue:
        _fail(path, f"fit {i}: profile '{profile}' is in no profile file read (catalogue and "
                    "profile-files)")
    if not isinstance(attr, str) or attr.count(".") != 1 or not all(attr.split(".")):
        _fail(path, f"fit {i}: attribute '{attr}' must be 'target.Attribute' "
                    "(e.g. coalescer.Timeout)")
    target, attribute = attr.split(".")
    also = _also(path, i, entry, profile, catalogue)
    if "choices" in entry:
        return _choice_parameter(path, i, entry, catalogue, profile, target, attribute, also)
    lo, unit = parse_quantity(entry["min"], f"{where} min")
    hi, hi_unit = parse_quantity(entry["max"], f"{where} max")
    hi = convert(hi, hi_unit, unit, f"{where} max")
    if not 0 <= lo < hi:
        _fail(path, f"fit {i}: needs 0 <= min < max (min {entry['min']}, max {entry['max']})")
    start_text = entry.get("start", catalogue[profile].values.get((target, attribute), (None,))[0])
    if start_text is None:
        _fail(path, f"fit {i}: '{profile}' gives no {attr} (nor do its bases): add 'start'")
    start, start_unit = parse_quantity(start_text, f"{where} start")
    start = convert(start, start_unit, unit, f"{where} start ('{start_text}')")
    if not lo <= start <= hi:
        _fail(path, f"fit {i}: start {start_text} lies outside min..max "
                    f"({entry['min']}..{entry['max']})")
    integer = _is_whole_text(entry["min"]) and _is_whole_text(entry["max"]) and not unit
    source = None
    if "source" in entry:
        text, said = _source(path, i, entry)
        value, value_unit = parse_quantity(text, f"{where} source")
        value = convert(value, value_unit, unit, f"{where} source ('{text}')")
        if not lo <= value <= hi:
            _fail(path, f"fit {i}: source {text} lies outside min..max "
                        f"({entry['min']}..{entry['max']})")
        source = (value, said)
    return Parameter(profile, target, attribute, lo, hi, start, unit, integer, also,
                     source=source)


def _source(path, i, entry):
    """A [[fit]]'s ``source = ["value", "where it comes from"]``."""
    raw = entry["source"]
    if not (isinstance(raw, list) and len(raw) == 2 and all(isinstance(x, str) and x.strip()
                                                            for x in raw)):
        _fail(path, f"fit {i}: 'source' must be [\"value\", \"where it comes from\"] (two "
                    f"texts), not {_shown(raw)}")
    return raw[0], raw[1]


def _also(path, i, entry, profile, catalogue):
    """The (profile, target, attribute) of each attribute a [[fit]]'s 'also' names."""
    also = []
    for name in _string_list(path, entry.get("also", []), f"fit {i}: also"):
        other, _, other_attr = name.rpartition(":")
        other = other or profile
        if other not in catalogue:
            _fail(path, f"fit {i}: also '{name}': profile '{other}' is in no profile file read")
        if other_attr.count(".") != 1 or not all(other_attr.split(".")):
            _fail(path, f"fit {i}: also '{name}' must be 'target.Attribute' or "
                        "'profile:target.Attribute'")
        also.append((other, *other_attr.split(".")))
    return tuple(also)


def _choice_parameter(path, i, entry, catalogue, profile, target, attribute, also):
    """A [[fit]] over a list of allowed values: a whole-number index into them."""
    for key in ("min", "max"):
        if key in entry:
            _fail(path, f"fit {i}: give either min and max or choices, not both")
    raw = entry["choices"]
    if not isinstance(raw, list) or len(raw) < 2 or not all(
            isinstance(c, (str, int, float)) and not isinstance(c, bool) for c in raw):
        _fail(path, f"fit {i}: 'choices' must be a list of two or more values")
    choices = tuple(str(c) for c in raw)
    if len(set(choices)) != len(choices):
        _fail(path, f"fit {i}: 'choices' names a value twice")
    start_text = entry.get("start", catalogue[profile].values.get((target, attribute), (None,))[0])
    if start_text is None:
        _fail(path, f"fit {i}: '{profile}' gives no {target}.{attribute} (nor do its bases): "
                    "add 'start'")
    if str(start_text) not in choices:
        _fail(path, f"fit {i}: start {start_text} is not one of the choices "
                    f"({', '.join(choices)})")
    source = None
    if "source" in entry:
        text, said = _source(path, i, entry)
        if text not in choices:
            _fail(path, f"fit {i}: source {text} is not one of the choices "
                        f"({', '.join(choices)})")
        source = (float(choices.index(text)), said)
    return Parameter(profile, target, attribute, 0.0, float(len(choices) - 1),
                     float(choices.index(str(start_text))), "", True, also, choices, source)


def _curve_targets(path, i, entry, base):
    from analysis.measurements import MeasurementError, read_curve
    from analysis.reference import parse_config

    if "curve" not in entry:
        _fail(path, f"measured {i}: 'curve' is missing: the data.csv curve the file is compared "
                    "with, e.g. 'nic=acenic;mtu=1500'")
    curve = entry["curve"]
    items = curve.split(";") if isinstance(curve, str) else []
    if not items or not all(k.strip() and v.strip() for k, _, v in
                            (item.partition("=") for item in items)) or \
            "msg" in parse_config(curve):
        _fail(path, f"measured {i}: 'curve' {_shown(curve)} must be 'column=value;...' "
                    "without msg, e.g. 'nic=acenic;mtu=1500'")
    if not isinstance(entry["file"], str) or not entry["file"].strip():
        _fail(path, f"measured {i}: 'file' must be the name of a measurement file (np.out or "
                    "CSV), relative to the recipe's folder")
    file = base / entry["file"]
    try:
        measured = read_curve(file)
    except MeasurementError as exc:
        _fail(path, f"measured {i}: {exc}")
    except OSError as exc:
        _fail(path, f"measured {i}: cannot read '{entry['file']}' ({exc.strerror})")
    lo = entry.get("min-bytes", 0)
    hi = entry.get("max-bytes", math.inf)
    for key, value in (("min-bytes", lo), ("max-bytes", hi)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value) \
                or value < 0 or (key == "min-bytes" and math.isinf(value)):
            _fail(path, f"measured {i}: '{key}' must be a number of bytes >= 0")
    measured = measured[(measured.msg_bytes >= lo) & (measured.msg_bytes <= hi)]
    if measured.empty:
        _fail(path, f"measured {i}: no point of '{entry['file']}' lies in min-bytes..max-bytes")
    rows = []
    for rec in measured.itertuples(index=False):
        metric = "latency_us" if not math.isnan(rec.latency_us) else "mbps"
        value = rec.latency_us if metric == "latency_us" else rec.mbps
        rows.append((f"{curve};msg={int(rec.msg_bytes)}", metric, float(value), curve,
                     int(rec.msg_bytes)))
    return rows, f"{entry['file']} ({curve})"


def _entry_benchmarks(path, i, entry, benchmarks):
    """The benchmarks a [[measured]] entry is compared with."""
    if "benchmark" not in entry:
        if "file" in entry and len(benchmarks) > 1:
            _fail(path, f"measured {i}: 'benchmark' is missing: which of "
                        f"{', '.join(benchmarks)} simulates the file's curve")
        return list(benchmarks)
    if not isinstance(entry["benchmark"], str) or entry["benchmark"] not in benchmarks:
        _fail(path, f"measured {i}: benchmark '{entry['benchmark']}' is not one of the recipe's "
                    f"({', '.join(benchmarks)})")
    return [entry["benchmark"]]


def _reference_targets(path, i, entry, benchmarks):
    from analysis.reference import load_reference

    ref = load_reference()
    paper = entry["paper"]
    if isinstance(paper, bool) or not (isinstance(paper, int) and paper >= 0 or
                                       isinstance(paper, str) and paper.isdigit()):
        _fail(path, f"measured {i}: 'paper' {_shown(paper)} must be a paper's number, e.g. \"000\" "
                    "(reference/seeds.csv)")
    paper = str(paper).zfill(3)
    mine = ref[ref.scenario.isin(benchmarks) & (ref.paper == paper)]
    names = "', '".join(benchmarks)
    if mine.empty:
        _fail(path, f"measured {i}: reference/seeds.csv has no row of paper {paper} for "
                    f"'{names}'")
    wanted = entry.get("rows")
    if wanted is None:
        chosen = mine
    else:
        if not isinstance(wanted, list) or not all(
                isinstance(r, list) and len(r) == 2 and all(isinstance(x, str) for x in r)
                for r in wanted):
            _fail(path, f"measured {i}: 'rows' must be a list of [config, metric] pairs")
        if not wanted:
            _fail(path, f"measured {i}: 'rows' names no row: give [config, metric] pairs, or "
                        "leave 'rows' out for every row of the paper")
        for k, row in enumerate(wanted):
            if row in wanted[:k]:
                _fail(path, f"measured {i}: 'rows' names ['{row[0]}', '{row[1]}'] twice")
        picks = []
        for config, metric in wanted:
            hit = mine[(mine.config == config) & (mine.metric == metric)]
            if hit.empty:
                _fail(path, f"measured {i}: no reference row '{config}' '{metric}' of paper "
                            f"{paper} for '{names}'")
            picks.append(hit.iloc[[0]])
        chosen = pd.concat(picks)
    rows = [(r.scenario, r.config, r.metric, float(r.value), "", 0)
            for r in chosen.itertuples(index=False)]
    return rows, f"seed {paper} reference rows"


def _benchmarks(path, doc):
    """The recipe's benchmarks and their args: {scenario: [arg, ...]}."""
    benchmark = doc.get("benchmark")
    names = [benchmark] if isinstance(benchmark, str) else benchmark
    if not names or not isinstance(names, list) or not all(
            isinstance(n, str) and n for n in names):
        what = "is missing" if "benchmark" not in doc else f"{_shown(benchmark)} is not a name"
        _fail(path, f"'benchmark' {what}: the scenario to run, e.g. \"gige-tcp-netpipe\", "
                    "or a list of them")
    if len(set(names)) != len(names):
        _fail(path, "'benchmark' names a scenario twice")
    known = sorted(f.stem for f in (REPO / "scenarios").glob("*.cc"))
    for name in names:
        if name not in known:
            _fail(path, f"benchmark '{name}' is not a scenario; known: {', '.join(known)}")
    args = doc.get("args", [] if len(names) == 1 else {})
    if isinstance(args, dict):
        for name in args:
            if name not in names:
                _fail(path, f"[args]: '{name}' is not a benchmark of the recipe")
        per = {n: _string_list(path, args.get(n, []), f"args.{n}") for n in names}
    elif len(names) == 1:
        per = {names[0]: _string_list(path, args, "args")}
    else:
        _fail(path, "'args' of several benchmarks is a table: [args] then scenario = [...]")
    for name, values in per.items():
        for a in values:
            if a.split("=")[0] in OWNED_OPTIONS:
                _fail(path, f"args: '{a}' is set by calibrate itself; leave out "
                            f"{', '.join(OWNED_OPTIONS)}")
            if a.split("=")[0] in STOP_OPTIONS:
                _fail(path, f"args: '{a}' stops {name} before it simulates; leave out "
                            f"{', '.join(STOP_OPTIONS)}")
    return per


def _statements(path, doc, benchmarks):
    """The statements the recipe keeps, each checked to be one the fit can read."""
    from analysis.statements import STATEMENTS

    ids = _string_list(path, doc.get("statements", []), "statements")
    known = {s.id: s for s in STATEMENTS}
    usable = [s.id for s in STATEMENTS if s.margin is not None]
    out = []
    for sid in ids:
        if sid not in known:
            _fail(path, f"statements: '{sid}' is not a statement of analysis/statements.py "
                        f"(ids like 's001-21')")
        st = known[sid]
        if st.margin is None:
            _fail(path, f"statements: {sid} has no margin function, so a fit cannot keep it; "
                        f"ones that have: {', '.join(usable)}")
        for name in st.scenarios:
            if name not in benchmarks:
                _fail(path, f"statements: {sid} reads {name}'s data: add it to 'benchmark'")
            missing = [a for a in st.args if a not in benchmarks[name]]
            if missing:
                _fail(path, f"statements: {sid} reads {name} run with {' '.join(missing)}: "
                            f"add that to its args")
        if st in out:
            _fail(path, f"statements: '{sid}' is named twice")
        out.append(st)
    return tuple(out)


def load_recipe(path):
    """Read and check a recipe; raise :class:`CalibrationError` on anything wrong."""
    path = Path(path)
    doc = read_toml(path, "the recipe")
    _check_keys(path, doc, RECIPE_KEYS, "recipe")
    base = path.parent
    benchmarks = _benchmarks(path, doc)
    files = _string_list(path, doc.get("profile-files", []), "profile-files")
    for k, f in enumerate(files):
        if not f.strip():
            _fail(path, "'profile-files' names an empty file name; give profile files (TOML) "
                        "relative to the recipe's folder")
        if f in files[:k]:
            _fail(path, f"'profile-files' names '{f}' twice")
    files = [str(base / f) for f in files]
    catalogue = load_catalogue(files)
    fits = doc.get("fit")
    if not isinstance(fits, list) or not fits:
        _fail(path, "no [[fit]] table: name at least one attribute to fit")
    parameters = [_parameter(path, i, e, catalogue) for i, e in enumerate(fits, 1)]
    fitted_by = {}
    for i, p in enumerate(parameters, 1):
        for k, place in enumerate(p.places):
            what = "its attribute" if k == 0 else f"also '{place[0]}:{place[1]}.{place[2]}'"
            if place in fitted_by:
                _fail(path, f"fit {i}: {what}: '{place[0]}' {place[1]}.{place[2]} is fitted "
                            f"twice (by {fitted_by[place]} too)")
            fitted_by[place] = f"fit {i}" if k == 0 else f"fit {i}'s also"
    measured = doc.get("measured")
    if not isinstance(measured, list) or not measured:
        _fail(path, "no [[measured]] table: give measured curves or reference rows")
    records, sources = [], []
    for i, entry in enumerate(measured, 1):
        _check_keys(path, entry, MEASURED_KEYS, f"measured {i}")
        if entry in measured[:i - 1]:
            _fail(path, f"measured {i} repeats measured {measured.index(entry) + 1}")
        if ("file" in entry) == ("paper" in entry):
            _fail(path, f"measured {i}: give either 'file' (with 'curve') or 'paper'")
        names_here = _entry_benchmarks(path, i, entry, benchmarks)
        if "file" in entry:
            rows, label = _curve_targets(path, i, entry, base)
            rows = [(names_here[0], *r) for r in rows]
        else:
            rows, label = _reference_targets(path, i, entry, names_here)
        records += [(len(sources), *r) for r in rows]
        sources.append(label)
    targets = pd.DataFrame(records, columns=["source", "bench", "config", "metric", "value",
                                            "curve", "msg"])
    if (targets.value <= 0).any():
        bad = targets[targets.value <= 0].iloc[0]
        _fail(path, f"measured {bad.source + 1}: value {bad.value:g} of '{bad.config}' "
                    f"'{bad.metric}' must be > 0")
    names = doc.get("names", {})
    if not isinstance(names, dict) or not all(isinstance(v, str) and v.strip()
                                              for v in names.values()):
        _fail(path, "[names] maps a fitted profile to its derived name: profile = \"name\"")
    fitted = {place[0] for p in parameters for place in p.places}
    for profile in names:
        if profile not in fitted:
            _fail(path, f"[names]: '{profile}' is not a fitted profile")
    names = {p: names.get(p, f"{p}-fitted") for p in sorted(fitted)}
    for profile, name in names.items():
        if name in catalogue:
            _fail(path, f"[names]: '{name}' is already a profile; choose another name")
        if list(names.values()).count(name) > 1:
            _fail(path, f"[names]: '{name}' names two derived profiles; give each its own name")
    kinds = {p: catalogue[p].kind for p in names}
    loss = doc.get("loss", "robust")
    if not isinstance(loss, str) or loss not in LOSSES:
        _fail(path, f"'loss' must be one of {', '.join(LOSSES)} (not {_shown(loss)})")
    statements = _statements(path, doc, benchmarks)
    return Recipe(path, benchmarks, files, parameters, targets, sources, names, kinds,
                  LOSSES[loss], statements)


# --- the simulation as objective --------------------------------------------------------------

class Benchmark:
    """Runs one scenario binary on a catalogue with candidate values laid over it."""

    def __init__(self, recipe, name, build_dir, workdir):
        self.recipe = recipe
        self.name = name
        self.args = recipe.benchmarks[name]
        self.exe = Path(build_dir) / "scenarios" / name
        if not self.exe.is_file():
            known = sorted(p.name for p in (Path(build_dir) / "scenarios").iterdir()
                           if p.is_file() and os.access(p, os.X_OK)) if (
                Path(build_dir) / "scenarios").is_dir() else []
            raise CalibrationError(f"{recipe.path}: benchmark '{name}' is not a "
                                   f"built scenario (known: {', '.join(known) or 'none; run ./ns3 build'})")
        help_text = subprocess.run([str(self.exe), "--help"], capture_output=True, text=True,
                                   check=False).stdout
        self.options = [o for o in ("--jobs=1", "--report=0") if f"{o.split('=')[0]}:" in help_text]
        self.can_list = "--list-points:" in help_text
        self.catalogue = load_tables(extra=recipe.profile_files)
        self.workdir = Path(workdir)
        self.columns = None   # the columns of its data.csv, once refusal() has listed them

    def catalogue_with(self, texts):
        """The catalogue with ``texts`` (one value text per parameter; None leaves the
        profile's own value) laid over it."""
        cat = copy.deepcopy(self.catalogue)
        for p, text in zip(self.recipe.parameters, texts):
            if text is None:
                continue
            for profile, target, attribute in p.places:
                cat[profile].setdefault(target, {})[attribute] = [text, "calibrate candidate"]
        return cat

    def refusal(self, texts, tag):
        """The program's one-line refusal of the parameter values ``texts`` ("" when it takes
        them): the checks every run makes before its first event, without simulating. A line
        about the catalogue written here names the profile value, not the temporary file."""
        import json

        import tomli_w

        if not self.can_list:
            return ""
        folder = self.workdir / tag
        folder.mkdir(parents=True)
        profiles = folder / "catalogue.toml"
        profiles.write_text(tomli_w.dumps(self.catalogue_with(texts)))
        env = dict(os.environ, **{PROFILE_PATH_ENV: str(profiles)})
        cmd = [str(self.exe), *self.args, f"--out={folder / 'out'}", *self.options,
               "--list-points=1"]
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
        shutil.rmtree(folder, ignore_errors=True)
        if done.returncode == 0:
            try:
                self.columns = json.loads(done.stdout).get("columns")
            except (ValueError, AttributeError):
                pass
            return ""
        lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
        if not lines:
            return f"status {done.returncode}"
        return re.sub(r"^(clusternet: )?" + re.escape(str(profiles)) + r":\d+: ", "", lines[-1])

    def run(self, texts, tag):
        """Simulate with the parameter values ``texts``; return the benchmark's data frame."""
        import tomli_w
        from analysis.io import read_data

        folder = self.workdir / tag
        folder.mkdir(parents=True)
        profiles = folder / "catalogue.toml"
        profiles.write_text(tomli_w.dumps(self.catalogue_with(texts)))
        env = dict(os.environ, **{PROFILE_PATH_ENV: str(profiles)})
        cmd = [str(self.exe), *self.args, f"--out={folder / 'out'}", *self.options]
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
            last = lines[-1] if lines else f"status {done.returncode}"
            raise CalibrationError(f"{self.recipe.path}: benchmark {self.name} "
                                   f"failed with {', '.join(texts)}: {last}")
        data = read_data(folder / "out" / "data.csv")
        shutil.rmtree(folder, ignore_errors=True)
        return data


def evaluate_points(data, targets):
    """The simulated value of every target row on the benchmark's ``data``.

    A measured curve's points take the curve once and interpolate it at every size, as
    :func:`analysis.netpipe.value_at` does one size at a time; a reference row goes through
    :func:`analysis.summary.evaluate`, as in ``summary.csv``.
    """
    from analysis import netpipe
    from analysis.reference import parse_config
    from analysis.summary import evaluate, single_curve

    out = np.full(len(targets), np.nan)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for (curve, metric), rows in targets.groupby(["curve", "metric"], sort=False):
            idx = rows.index.to_numpy()
            if not curve:
                out[idx] = [evaluate(data, c, metric) for c in rows.config]
                continue
            found = single_curve(data, parse_config(curve))
            if found is None:
                continue
            column = netpipe.oneway_us if metric == "latency_us" else netpipe.throughput_mbps
            series = netpipe.by_block(found, column(found))
            out[idx] = np.interp(rows.msg.to_numpy(dtype=float),
                                 series.index.to_numpy(dtype=float),
                                 series.to_numpy(dtype=float), left=np.nan, right=np.nan)
    return out


def statement_margins(statements, data):
    """The margin of each statement over ``data`` (scenario -> its data frame)."""
    from analysis.statements import margin_of

    return [margin_of(st, data[st.scenario] if isinstance(st.scenario, str) else
                      {n: data[n] for n in st.scenarios}) for st in statements]


def statement_residuals(margins):
    """The residual of each statement's margin (the module doc); a margin that could not be
    evaluated counts as a point :data:`MISSING_RESIDUAL` off."""
    m = np.asarray(margins, dtype=float)
    with np.errstate(invalid="ignore"):
        r = STATEMENT_WEIGHT * np.maximum(0.0, STATEMENT_CLEARANCE - m)
    return np.where(np.isfinite(m), r, MISSING_RESIDUAL)


class Objective:
    """Residuals ``ln(sim / measured)`` of every measured point, then one per statement the
    recipe keeps, cached per set of values. A simulated vector holds the points' values, then
    the statements' margins."""

    def __init__(self, recipe, benches, jobs):
        self.recipe = recipe
        self.benches = benches
        self.jobs = jobs
        self.cache = {}
        self.evaluations = 0
        self._tags = itertools.count()

    def texts(self, z):
        return tuple(p.text(p.from_z(zi)) for p, zi in zip(self.recipe.parameters, z))

    def simulated(self, texts):
        """Simulated value of every measured point for parameter ``texts`` (cached)."""
        if texts not in self.cache:
            t = self.recipe.targets
            n = len(t)
            out = np.full(n + len(self.recipe.statements), np.nan)
            try:
                data = {}
                for bench in self.benches:
                    data[bench.name] = bench.run(texts, f"run{next(self._tags)}")
                    mask = np.flatnonzero((t.bench == bench.name).to_numpy())
                    out[mask] = evaluate_points(data[bench.name],
                                                t.iloc[mask].reset_index(drop=True))
                out[n:] = statement_margins(self.recipe.statements, data)
            except CalibrationError as exc:
                # The recipe's start must simulate; a candidate the benchmark cannot simulate
                # counts as MISSING_RESIDUAL on every point, so the fit steps away from it.
                if not self.cache:
                    raise
                say(f"candidate failed, counted as 20x off: {exc}")
                out[:] = np.nan
            self.cache[texts] = out
        return self.cache[texts]

    def simulate_many(self, text_sets):
        todo = [t for t in dict.fromkeys(text_sets) if t not in self.cache]
        if len(todo) > 1 and self.jobs > 1:
            with concurrent.futures.ThreadPoolExecutor(self.jobs) as pool:
                list(pool.map(self.simulated, todo))
        for t in todo:
            self.simulated(t)
        return [self.cache[t] for t in text_sets]

    def residuals_of(self, sims):
        measured = self.recipe.targets.value.to_numpy(dtype=float)
        n = len(measured)
        with np.errstate(divide="ignore", invalid="ignore"):
            r = np.log(sims[:n] / measured)
        r = np.where(np.isfinite(r), r, MISSING_RESIDUAL)
        return np.concatenate([r, statement_residuals(sims[n:])])

    def __call__(self, z):
        texts = self.texts(z)
        sims = self.simulated(texts)
        r = self.residuals_of(sims)
        self.evaluations += 1
        n = len(self.recipe.targets)
        err = np.abs(np.expm1(r[:n]))
        kept = ""
        if self.recipe.statements:
            held = int(np.sum(sims[n:] >= 0))
            kept = f", statements held {held} of {len(self.recipe.statements)}"
        say(f"step {self.evaluations}: |error| median {100 * np.median(err):.2f} %, max "
            f"{100 * err.max():.2f} %{kept}   " + "  ".join(
                f"{p.target}.{p.attribute}={t}" for p, t in zip(self.recipe.parameters, texts)))
        return r

    def steps(self, z):
        """The step of each attribute's slope: forward, backward at the upper bound; a whole
        attribute's step moves it by at least one unit (a smaller one would round away)."""
        out = []
        for p, zi in zip(self.recipe.parameters, z):
            h = max(SLOPE_STEP, p.unit_step(zi)) if p.integer else SLOPE_STEP
            out.append(h if zi + h <= 1.0 else -h)
        return out

    def jacobian(self, z, only=None):
        """The slopes at ``z``, of every attribute or of those indexed by ``only``."""
        z = np.asarray(z, dtype=float)
        steps = self.steps(z)
        which = range(len(steps)) if only is None else only
        points = []
        for i in which:
            zi = z.copy()
            zi[i] += steps[i]
            points.append(zi)
        base = self.residuals_of(self.simulated(self.texts(z)))
        sims = self.simulate_many([self.texts(zi) for zi in points])
        cols = [(self.residuals_of(s) - base) / steps[i] for s, i in zip(sims, which)]
        return np.column_stack(cols)


class HeldObjective:
    """``obj`` over the attributes indexed by ``free``, the others held where ``z`` has them."""

    def __init__(self, obj, z, free):
        self.obj = obj
        self.z = np.asarray(z, dtype=float)
        self.free = list(free)

    def full(self, zf):
        z = self.z.copy()
        z[self.free] = zf
        return z

    def __call__(self, zf):
        return self.obj(self.full(zf))

    def jacobian(self, zf):
        return self.obj.jacobian(self.full(zf), only=self.free)


# --- the fit ----------------------------------------------------------------------------------

def _errors(sims, targets):
    rel = sims / targets.value.to_numpy(dtype=float) - 1.0
    return np.where(np.isfinite(rel), rel, np.nan)


def _error_text(rel):
    a = np.abs(rel[np.isfinite(rel)])
    if a.size == 0:
        return "no point evaluated"
    return f"|error| median {100 * np.median(a):.1f} %, max {100 * a.max():.1f} %"


def determination(parameters, jac, residuals, z, scatter=None):
    """Each attribute's relative standard error from the slopes at the fit, or a note why none.

    The covariance of the ``[0, 1]`` coordinates is ``s^2 (J^T J)^-1``, the usual least-squares
    estimate, with ``s`` the residuals' standard deviation but at least :data:`SCATTER_FLOOR`:
    a fit to simulated points is exact, and what matters is how far an attribute could move
    were the points measured, with their scatter. ``scatter`` replaces the residuals' standard
    deviation when given (the joint fit's robust one). The error is carried to the attribute
    through the mapping (``ln(hi/lo)`` per unit on a log scale).
    """
    m, n = jac.shape
    notes, sigma = [], [math.nan] * n
    norms = np.linalg.norm(jac, axis=0)
    for i in range(n):
        notes.append("no effect on the measured points" if norms[i] == 0 else "")
    live = [i for i in range(n) if norms[i] > 0]
    if live and m > len(live):
        jl = jac[:, live]
        s2 = max(float(residuals @ residuals) / (m - len(live)) if scatter is None else
                 scatter ** 2, SCATTER_FLOOR ** 2)
        jtj = jl.T @ jl
        if np.linalg.cond(jtj) < 1e12:
            cov = np.linalg.inv(jtj) * s2
            for k, i in enumerate(live):
                sz = math.sqrt(max(cov[k, k], 0.0))
                p = parameters[i]
                x = p.from_z(z[i])
                sigma[i] = (math.log(p.hi / p.lo) * sz) if p.log_scale else (
                    (p.hi - p.lo) * sz / x if x else math.nan)
        else:
            for i in live:
                notes[i] = "not separable from the others on these points"
    elif live:
        for i in live:
            notes[i] = "no more points than attributes: no error estimate"
    for i, p in enumerate(parameters):
        if p.choices and math.isfinite(sigma[i]):
            sigma[i] = math.nan   # a standard error of a list index means nothing
    for i in range(n):
        if not notes[i] and z[i] in (0.0, 1.0) and not parameters[i].choices:
            notes[i] = "at its bound: widen min/max"
        elif not notes[i] and math.isfinite(sigma[i]) and sigma[i] > POORLY_DETERMINED:
            notes[i] = "poorly determined by these points"
    return sigma, notes


@dataclass
class Fit:
    recipe: Recipe
    start_texts: tuple
    fitted_texts: tuple
    start_sims: np.ndarray      # each measured point's simulated value
    fitted_sims: np.ndarray
    sigma: list
    notes: list
    evaluations: int
    runs: int
    start_margins: tuple = ()   # each statement's margin at the start and at the fit
    fitted_margins: tuple = ()


def robust_cost(r, loss=LOSS):
    """The fit's cost of residuals ``r``: least_squares' ``loss`` (soft_l1 at
    :data:`LOSS_SCALE`, or linear: half the sum of squares)."""
    if loss == "linear":
        return float(0.5 * np.sum(np.square(r)))
    f = LOSS_SCALE
    return float(np.sum(2.0 * f * f * (np.sqrt(1.0 + (np.asarray(r) / f) ** 2) - 1.0)))


def scattered_starts(n, count):
    """``count`` points spread over ``[0, 1]^n`` (a scrambled Sobol sequence of fixed seed)."""
    from scipy.stats import qmc

    if count < 1:
        return np.empty((0, n))
    m = max(0, math.ceil(math.log2(count)))
    return qmc.Sobol(d=n, scramble=True, rng=np.random.default_rng(0)).random_base2(m)[:count]


def whole_search(obj, z):
    """Polish the whole attributes: move them by one unit while that lowers the cost.

    A whole attribute's cost is a staircase, whose slope a local fit sees only across a step;
    the neighbours of the rounded fit (each whole attribute one unit down, kept or one up, so
    diagonal moves too: two latencies may only improve together) are simulated (in parallel)
    until none is better.
    """
    params = obj.recipe.parameters
    x = [round(p.from_z(zi)) if p.integer else p.from_z(zi) for p, zi in zip(params, z)]

    def z_of(values):
        return np.array([p.to_z(v) for p, v in zip(params, values)])

    def cost(values):
        return robust_cost(obj.residuals_of(obj.simulated(obj.texts(z_of(values)))),
                           obj.recipe.loss)

    whole = [i for i, p in enumerate(params) if p.integer]
    here = cost(x)
    for _ in range(MAX_WHOLE_MOVES):
        moves = []
        for steps in itertools.product((-1, 0, 1), repeat=len(whole)):
            if not any(steps):
                continue
            m = list(x)
            for i, d in zip(whole, steps):
                m[i] += d
            if all(params[i].lo <= m[i] <= params[i].hi for i in whole):
                moves.append(m)
        obj.simulate_many([obj.texts(z_of(m)) for m in moves])
        best = min(moves, key=cost, default=None)
        if best is None or cost(best) >= here:
            break
        x, here = best, cost(best)
        say(f"whole-number step: cost {here:.6g}   " + "  ".join(
            f"{p.target}.{p.attribute}={p.text(v)}" for p, v in zip(params, x)))
    return z_of(x)


def local_fit(fun, z0, jac, loss, max_evals, ftol=FTOL, xtol=XTOL):
    """:func:`scipy.optimize.least_squares` (trust-region reflective) within ``[0, 1]``."""
    from scipy.optimize import least_squares

    return least_squares(fun, z0, jac=jac, bounds=(0.0, 1.0), method="trf", x_scale=1.0,
                         ftol=ftol, xtol=xtol, gtol=1e-10, loss=loss, f_scale=LOSS_SCALE,
                         max_nfev=max_evals)


def check_bounds(recipe, benches):
    """Refuse, before the first simulation, a [[fit]] whose start, min, max or a choice the
    model's attribute checker refuses (each benchmark program's own pre-run check, run without
    simulating), each value alone on the catalogue, so that the line names the [[fit]] whose
    value it is."""
    n = len(recipe.parameters)
    for i, p in enumerate(recipe.parameters):
        if p.choices:
            ends = [("choice", c) for c in p.choices]
        else:
            ends = [("start", p.text(p.start)), ("min", p.text(p.lo)), ("max", p.text(p.hi))]
        for k, (what, text) in enumerate(ends):
            texts = [None] * n
            texts[i] = text
            for bench in benches:
                why = bench.refusal(tuple(texts), f"check{i}-{k}-{bench.name}")
                if why:
                    raise CalibrationError(
                        f"{recipe.path}: fit {i + 1}: {what} {text} of {p.profile} "
                        f"{p.target}.{p.attribute} is refused by {bench.name}: {why}")


def check_benchmarks(recipe, benches):
    """Refuse, before the first simulation, args a benchmark refuses (its own pre-run check on
    the catalogue as the files hold it) and a measured curve that names a column the
    benchmark's data does not have."""
    from analysis.reference import parse_config

    for bench in benches:
        why = bench.refusal((None,) * len(recipe.parameters), f"args-{bench.name}")
        if why:
            raise CalibrationError(f"{recipe.path}: args of {bench.name} ({' '.join(bench.args)})"
                                   f" are refused: {why}")
    columns = {b.name: b.columns for b in benches}
    curves = recipe.targets[recipe.targets.curve != ""]
    for row in curves.drop_duplicates(["source", "bench", "curve"]).itertuples(index=False):
        known = columns.get(row.bench)
        for key in parse_config(row.curve):
            if known is not None and key not in known:
                raise CalibrationError(
                    f"{recipe.path}: measured {row.source + 1}: curve '{row.curve}': '{key}' is "
                    f"not a column of {row.bench}'s data ({', '.join(known)})")


def check_recipe(recipe, build_dir, workdir=None):
    """Every check :func:`fit` makes before its first simulation, on a recipe
    :func:`load_recipe` read: each benchmark is built, takes its args, has the columns the
    measured curves name, and takes every start, bound and choice. Raises
    :class:`CalibrationError`; returns the benchmarks (working in ``workdir``)."""
    if workdir is None:
        with tempfile.TemporaryDirectory(prefix="clusternet-calibrate-") as work:
            return check_recipe(recipe, build_dir, work)
    benches = [Benchmark(recipe, name, build_dir, workdir) for name in recipe.benchmarks]
    check_benchmarks(recipe, benches)
    check_bounds(recipe, benches)
    return benches


def check_out(out):
    """Refuse an --out the results could not be written to, before the fit."""
    path = Path(out)
    if path.exists() and not path.is_dir():
        raise CalibrationError(f"--out: {out} is not a folder")
    folder = path
    while not folder.exists():
        folder = folder.parent
    if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
        raise CalibrationError(f"--out: {out}: {folder} is not a folder this user can write to")


def fit(recipe, build_dir, jobs=2, max_evals=60, starts=8, local=2):
    """Fit the recipe's attributes; return a :class:`Fit`. Prints progress.

    A simulated curve has kinks and steps (a timer fires before a frame arrives or after it), so
    one local fit can stop on the wrong side of one. The fit therefore simulates the recipe's
    start and ``starts`` points scattered over the bounds, runs a local fit from the recipe's
    start and from the best ``local - 1`` others, and keeps the lowest cost. Whole attributes
    then step to their best neighbours (:func:`whole_search`), and the other attributes get a
    last local fit with the whole ones held.
    """
    params = recipe.parameters
    with tempfile.TemporaryDirectory(prefix="clusternet-calibrate-") as work:
        benches = check_recipe(recipe, build_dir, work)
        obj = Objective(recipe, benches, jobs)
        z0 = np.array([p.to_z(p.start) for p in params])
        say(f"{', '.join(recipe.benchmarks)}: {len(recipe.targets)} measured points, "
            f"{len(params)} attributes, {jobs} workers")
        start_texts = obj.texts(z0)
        start_sims = obj.simulated(start_texts)
        n = len(recipe.targets)
        missing = np.flatnonzero(~np.isfinite(start_sims))
        if missing.size and missing[0] >= n:
            st = recipe.statements[missing[0] - n]
            raise CalibrationError(
                f"{recipe.path}: statements: {st.id} cannot be evaluated on the data of "
                f"{', '.join(st.scenarios)} (do its args leave out what it reads?)")
        if missing.size:
            t = recipe.targets.iloc[missing[0]]
            raise CalibrationError(
                f"{recipe.path}: measured {t.source + 1}: '{t.config}' '{t.metric}' cannot be "
                f"evaluated on {t.bench}'s data (no such curve or size in 'args'?)")
        others = scattered_starts(len(params), starts)
        if len(others):
            say(f"scanning {len(others)} scattered starts")
        sims = obj.simulate_many([obj.texts(z) for z in others])
        costs = [robust_cost(obj.residuals_of(s), recipe.loss) for s in sims]
        order = [others[i] for i in np.argsort(costs, kind="stable")][: max(0, local - 1)]
        best = None
        for k, z_start in enumerate([z0, *order], 1):
            what = "the recipe's start" if k == 1 else "a scattered start"
            say(f"local fit {k} of {1 + len(order)}, from {what}")
            result = local_fit(obj, z_start, obj.jacobian, recipe.loss, max_evals)
            cost = robust_cost(obj.residuals_of(obj.simulated(obj.texts(result.x))), recipe.loss)
            say(f"local fit {k}: cost {cost:.6g}")
            if best is None or cost < best[0]:
                best = (cost, result)
            if cost == 0.0:
                say("every point met: no further local fit can do better")
                break
        z = best[1].x
        if any(p.integer for p in params):
            z = whole_search(obj, z)
            free = [i for i, p in enumerate(params) if not p.integer]
            if free:
                # The whole attributes moved: the others' best values may have moved with them.
                say("local fit of the other attributes, the whole ones held")
                held = HeldObjective(obj, z, free)
                z = held.full(local_fit(held, z[free], held.jacobian, recipe.loss, max_evals).x)
        # The profile holds rounded values: report what the file gives.
        fitted_texts = tuple(p.text(p.from_z(zi), SIGNIFICANT) for p, zi in zip(params, z))
        fitted_sims = obj.simulated(fitted_texts)
        zr = np.array([p.to_z(p.rounded(p.from_z(zi))) for p, zi in zip(params, z)])
        zr = np.clip(zr, 0.0, 1.0)
        say("slopes at the fit, for how well each attribute is determined")
        jac = obj.jacobian(zr)
        sigma, notes = determination(params, jac, obj.residuals_of(fitted_sims), zr)
        for p, s, note, t in zip(params, sigma, notes, fitted_texts):
            pm = f" +- {100 * s:.1f} %" if math.isfinite(s) else ""
            say(f"{p.key} = {t}{pm}{'  (' + note + ')' if note else ''}")
        for st, m in zip(recipe.statements, fitted_sims[n:]):
            say(f"statement {st.id}: {_margin_text(m)}")
        return Fit(recipe, start_texts, fitted_texts, start_sims[:n], fitted_sims[:n], sigma,
                   notes, obj.evaluations, len(obj.cache) * len(benches),
                   tuple(start_sims[n:]), tuple(fitted_sims[n:]))


# --- output -----------------------------------------------------------------------------------

def _margin_text(m):
    if not math.isfinite(m):
        return "not evaluated"
    return f"{'holds' if m >= 0 else 'BROKEN'}, margin {100 * m:+.2f} %"


def _toml_string(s):
    import tomli_w
    return tomli_w.dumps({"x": s})[4:].strip()


def _points(n):
    return f"{n} point{'' if n == 1 else 's'}"


def profile_text(result, command):
    """The derived profiles, as TOML (see the module doc)."""
    recipe = result.recipe
    t = recipe.targets
    start_err = _errors(result.start_sims, t)
    fit_err = _errors(result.fitted_sims, t)
    per_source = []
    for k, label in enumerate(recipe.sources):
        mask = (t.source == k).to_numpy()
        per_source.append(f"{_error_text(fit_err[mask])}; start "
                          f"{_error_text(start_err[mask]).replace('|error| ', '')}")
    counts = t.source.value_counts()
    on = "; ".join(recipe.sources)
    lines = [
        "# SPDX-License-Identifier: GPL-2.0-only",
        f"# Written by {command}; the same recipe gives this same file.",
        *[f"# Benchmark: {name} {' '.join(args)}".rstrip()
          for name, args in recipe.benchmarks.items()],
        f"# Fit over {_points(len(t))}: {_error_text(fit_err)} (start: {_error_text(start_err)}); "
        f"{result.evaluations} steps, {result.runs} simulations.",
        "# Per measured source (points: error at the fit; at the start):",
        *[f"#   {label} ({_points(counts.get(k, 0))}): {e}"
          for k, (label, e) in enumerate(zip(recipe.sources, per_source))],
        *(["# Statements kept (analysis/statements.py; at the fit; at the start):"]
          if recipe.statements else []),
        *[f"#   {st.id}: {_margin_text(m)}; start {_margin_text(m0)}"
          for st, m, m0 in zip(recipe.statements, result.fitted_margins, result.start_margins)],
        "",
    ]
    keeping = (f" keeping {', '.join(st.id for st in recipe.statements)}"
               if recipe.statements else "")
    for profile, name in recipe.names.items():
        mine = [(place, p, text, s, n) for p, text, s, n in zip(
                    recipe.parameters, result.fitted_texts, result.sigma, result.notes)
                for place in p.places if place[0] == profile]
        kind = recipe.kinds[profile]
        attrs = ", ".join(f"{target}.{attr}" for (_, target, attr), *_ in mine)
        lines += [f"[{name}]", f"kind = {_toml_string(kind)}", f"base = {_toml_string(profile)}",
                  f"description = {_toml_string(f'{profile} with {attrs} fitted by {command}')}"]
        for target in dict.fromkeys(place[1] for place, *_ in mine):
            lines += ["", f"[{name}.{target}]"]
            for (_, tgt, attr), p, text, s, n in mine:
                if tgt != target:
                    continue
                how = [f"+- {100 * s:.1f} % at {100 * SCATTER_FLOOR:g} % scatter"] if \
                    math.isfinite(s) else []
                how += [n] if n else []
                tied = "" if (profile, tgt, attr) == p.places[0] else \
                    f"the value of {p.profile} {p.target}.{p.attribute}, "
                source = (f"{tied}fitted by {command} on {on} ({_points(len(t))})"
                          f"{keeping}: "
                          f"{_error_text(fit_err)}; start {p.text(p.start, SIGNIFICANT)}: "
                          f"{_error_text(start_err)}; {'; '.join(how + [''])}"
                          f"reproduce: {command}")
                lines.append(f"{attr} = [{_toml_string(text)}, {_toml_string(source)}]")
        lines.append("")
    return "\n".join(lines)


def points_frame(result):
    t = result.recipe.targets
    return pd.DataFrame({
        "source": [result.recipe.sources[s] for s in t.source],
        "config": t.config, "metric": t.metric, "measured": t.value,
        "start_sim": result.start_sims, "fitted_sim": result.fitted_sims,
        "start_err": _errors(result.start_sims, t), "fitted_err": _errors(result.fitted_sims, t),
    })


def parameters_frame(result):
    rows = []
    for p, start, fitted, s, n in zip(result.recipe.parameters, result.start_texts,
                                      result.fitted_texts, result.sigma, result.notes):
        rows.append({"profile": p.profile, "attribute": f"{p.target}.{p.attribute}",
                     "start": p.text(p.start, SIGNIFICANT), "fitted": fitted,
                     "min": p.text(p.lo, SIGNIFICANT), "max": p.text(p.hi, SIGNIFICANT),
                     "rel_sigma": s, "note": n,
                     "also": " ".join(f"{a}:{b}.{c}" for a, b, c in p.also)})
    return pd.DataFrame(rows)


def agreement(held, fitted, rel_sigma, within=AGREEMENT):
    """How a profile's value ``held`` compares with a fit's ``fitted`` (attribute strings), whose
    relative standard error is ``rel_sigma`` (NaN when the fit gives none): ``"same"`` (equal
    numbers), ``"within"`` (at most ``within`` standard errors apart, by default
    :data:`AGREEMENT`) or ``"differs"``."""
    try:
        h, hu = parse_quantity(held, "profile")
        f, fu = parse_quantity(fitted, "fit")
        h = convert(h, hu, fu, "profile")
    except CalibrationError:
        return "same" if held == fitted else "differs"
    if math.isclose(h, f, rel_tol=1e-12, abs_tol=0.0):
        return "same"
    if math.isfinite(rel_sigma) and abs(h - f) <= within * rel_sigma * abs(f):
        return "within"
    return "differs"


def held_and_fitted(parameters_csv, profiles):
    """Each attribute a written ``parameters.csv`` fits (and each its ``also`` names), with the
    value ``profiles`` (:func:`analysis.catalogue.load_profiles`) holds, the fitted one and
    their :func:`agreement`: ``[(profile, target, attribute, held, fitted, verdict), ...]``."""
    fitted = pd.read_csv(parameters_csv, dtype=str, keep_default_na=False)
    out = []
    for row in fitted.itertuples(index=False):
        target, attr = row.attribute.split(".")
        places = [(row.profile, target, attr)] + [
            (a.split(":")[0], *a.split(":")[1].split(".")) for a in row.also.split()]
        sigma = float(row.rel_sigma) if row.rel_sigma else math.nan
        for profile, tgt, at in places:
            held = profiles[profile].values[(tgt, at)][0]
            out.append((profile, tgt, at, held, row.fitted, agreement(held, row.fitted, sigma)))
    return out


def plot_fit(result, path):
    """Measured against simulated points, at the start and at the fit: one panel per source."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from analysis.io import save_figure_atomic
    from analysis.reference import parse_config

    pts = points_frame(result)
    n = len(result.recipe.sources)
    fig, axes = plt.subplots(n, 1, figsize=(7, 3.6 * n), squeeze=False)
    for k, (ax, label) in enumerate(zip(axes[:, 0], result.recipe.sources)):
        rows = pts[result.recipe.targets.source.to_numpy() == k]
        sizes = [parse_config(c).get("msg") for c in rows.config]
        if all(isinstance(s, int) for s in sizes):
            x, xlabel = np.array(sizes), "message size [bytes]"
            ax.set_xscale("log")
            metric = rows.metric.iloc[0]
            ylabel = "one-way time [us]" if metric == "latency_us" else "throughput [Mbit/s]"
            ax.set_yscale("log")
            style = {"marker": ".", "linestyle": "-"}
        else:
            x, xlabel = np.arange(len(rows)), "reference row"
            ylabel = "value (the row's metric)"
            style = {"marker": "o", "linestyle": "none"}
        ax.plot(x, rows.measured, color="black", label="measured", **style)
        ax.plot(x, rows.start_sim, color="tab:gray", alpha=0.7, label="simulated, start", **style)
        ax.plot(x, rows.fitted_sim, color="tab:red", label="simulated, fitted", **style)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_title(label, fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    save_figure_atomic(fig, path, dpi=110)
    plt.close(fig)


def write_outputs(result, out, command):
    from analysis.io import atomic_write, write_csv_atomic

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    text = profile_text(result, command)
    atomic_write(out / "profile.toml", lambda f: f.write(text))
    write_csv_atomic(points_frame(result), out / "points.csv")
    write_csv_atomic(parameters_frame(result), out / "parameters.csv")
    plot_fit(result, out / "fit.png")
    return out / "profile.toml"


# --- command line -----------------------------------------------------------------------------

class _Parser(argparse.ArgumentParser):
    def error(self, message):
        print(f"{PROG}: {message} (see --help)", file=sys.stderr)
        sys.exit(2)


def _whole_at_least(name, least):
    """An argparse type: a whole number >= ``least`` for option ``--name``."""
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"--{name}: '{text}' is not a whole number") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"--{name}: {value} must be >= {least}")
        return value
    return parse


def parser():
    p = _Parser(prog=PROG, description="Fit profile attributes to measured curves (NetPIPE "
                "np.out, CSV or the papers' reference rows) by simulating the benchmark; write a "
                "derived profile file. The recipe format: --recipe-help.")
    p.add_argument("recipe", nargs="?", help="the recipe file (TOML) [path]")
    p.add_argument("--out", help="output folder [path] (default results/calibrate/<recipe name>)")
    p.add_argument("--jobs", type=_whole_at_least("jobs", 1), default=os.cpu_count() or 2,
                   help="simulations run in parallel [processes] (default: the cores, %(default)s)")
    p.add_argument("--max-evals", type=_whole_at_least("max-evals", 1), default=60,
                   help="most optimiser steps (each one simulation; the slopes add one per "
                        "attribute) [steps] (default %(default)s)")
    p.add_argument("--starts", type=_whole_at_least("starts", 0), default=8,
                   help="points scattered over the bounds and simulated before the local fits "
                        "[points] (default %(default)s)")
    p.add_argument("--local", type=_whole_at_least("local", 1), default=2,
                   help="local fits: from the recipe's start and the best scattered starts "
                        "[fits] (default %(default)s)")
    p.add_argument("--recipe-help", action="store_true", help="print the recipe format and exit")
    p.add_argument("--plan", action="store_true",
                   help="print the joint calibration's plan instead of fitting: every fitted "
                        "value of the recipes under recipes/ with the reference rows, in any "
                        "paper, that read a point composed of its profile (from the points' "
                        "parts in --results), and the count of values against rows")
    p.add_argument("--results", default="results",
                   help="with --plan or --all: the folder ./ns3 reproduce wrote [path]; --all "
                        "reads back the points simulated there on the same code and catalogue, "
                        "and keeps the points it simulates under RESULTS/calibrate/.points "
                        "(default %(default)s)")
    p.add_argument("--all", action="store_true",
                   help="the joint calibration: every fitted value of every recipe under "
                        "recipes/ at once, over every reference row, in any paper, that reads "
                        "a point composed of its profile (clusternet/jointfit.py); writes "
                        "values.csv, rows.csv and papers.csv into --out (default "
                        "results/calibrate/all)")
    p.add_argument("--hold-out", default="", metavar="PAPER",
                   help="with --all: leave paper PAPER's rows out of the fit (a value only its "
                        "rows read keeps its recipe's 'source') and predict them [paper id, "
                        "e.g. 003] (default: none; --out then defaults to "
                        "results/calibrate/all-without-PAPER)")
    p.add_argument("--hold-out-table", action="store_true",
                   help="print the leave-one-paper-out table (RST) from the runs of --all and "
                        "--all --hold-out=PAPER under RESULTS/calibrate, and write it there as "
                        "hold-out.csv and hold-out.png")
    p.add_argument("--scheduler", default=os.environ.get("CLUSTERNET_SCHEDULER", ""),
                   metavar="tcp://HOST:PORT",
                   help="with --all: run the simulations on this Dask scheduler instead of "
                        "--jobs local workers (default $CLUSTERNET_SCHEDULER, else local)")
    return p


def print_plan(results):
    """``--plan``: the joint problem of every recipe under recipes/ (clusternet.joint)."""
    from . import joint

    recipes = [load_recipe(p) for p in sorted((REPO / "recipes").glob("*.toml"))]
    say(f"plan: {len(recipes)} recipes; which points every reference row reads, from "
        f"{results}")
    rows = joint.affected_rows(results)
    print(joint.report(joint.plan(recipes, rows), rows))


def main(argv=None):
    args = parser().parse_args(argv)
    if args.recipe_help:
        print(__doc__)
        return 0
    if args.plan:
        from .joint import PlanError

        if args.recipe:
            print(f"{PROG}: --plan takes every recipe under recipes/, not '{args.recipe}'",
                  file=sys.stderr)
            return 2
        try:
            print_plan(args.results)
        except (CalibrationError, PlanError) as exc:
            print(f"{PROG}: {exc}", file=sys.stderr)
            return 2
        return 0
    if args.hold_out_table:
        from . import jointfit
        try:
            print(jointfit.write_hold_out(Path(args.results) / "calibrate"))
        except jointfit.cal.CalibrationError as exc:
            print(f"{PROG}: {exc}", file=sys.stderr)
            return 2
        return 0
    if args.hold_out and not args.all:
        print(f"{PROG}: --hold-out goes with --all", file=sys.stderr)
        return 2
    if args.all:
        from . import jointfit
        from .sweep import SweepError

        if args.recipe or args.plan:
            print(f"{PROG}: --all takes every recipe under recipes/; give no recipe and no "
                  "--plan", file=sys.stderr)
            return 2
        try:
            return jointfit.run(args)
        except (jointfit.cal.CalibrationError, SweepError) as exc:   # this module as imported
            #                                                           (not __main__)
            print(f"{PROG}: {exc}", file=sys.stderr)
            return 2
    if not args.recipe:
        print(f"{PROG}: give a recipe file (see --help; format: --recipe-help)", file=sys.stderr)
        return 2
    command = f"{PROG} {args.recipe}"
    out = args.out or os.path.join("results", "calibrate", Path(args.recipe).stem)
    from ._native import build_dir
    began = time.monotonic()
    try:
        check_out(out)
        recipe = load_recipe(args.recipe)
        result = fit(recipe, build_dir(), jobs=args.jobs, max_evals=args.max_evals,
                     starts=args.starts, local=args.local)
    except CalibrationError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    path = write_outputs(result, out, command)
    say(f"{result.runs} simulations in {time.monotonic() - began:.0f} s -> {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
