# SPDX-License-Identifier: GPL-2.0-only
"""Which simulated rows are of a paper's setup, and so may be compared with its numbers.

A paper's setup is the physical parts it measured (``reference/compositions.toml``): its hosts,
NICs, LANai boards, chipsets, FM versions and MPI libraries, each standing for its parts and the
profiles they derive from (``base``). A point of a run is *on the paper's setup* when every
profile it was composed of (``provenance.csv``'s ``parts``) is one of those, it changed none of
their values (no ``--set``), it ran in the host's own PCI slot (no ``--pci`` other than the
host profile's) and changed nothing else of the setup that no profile holds (the program
records such an option, e.g. ``--switches``, as ``setup:NAME=VALUE`` among the parts when its
value is not the paper's). A user's profile always has a name of its own (a catalogue refuses a second
profile of one name), so a machine described by profile files is never taken for a paper's.

A run whose rows are on no paper's setup is not compared with any paper: a what-if about
another machine is not an error against the papers. Everything here is plain functions over
DataFrames and the catalogue (:func:`analysis.catalogue.load_profiles`).
"""

import hashlib
import json
import tomllib
from pathlib import Path

import pandas as pd

from analysis.catalogue import load_profiles

from .io import reference_dir

COMPOSITIONS = "compositions.toml"

#: Options that change a part's values or the slot it sits in, whatever the profiles say.
PART_OPTIONS = ("--set", "--pci", "--baseline-set", "--baseline-pci")


def load_compositions(path=None):
    """``{paper: setup}`` of ``reference/compositions.toml`` (or ``path``)."""
    path = reference_dir() / COMPOSITIONS if path is None else Path(path)
    return tomllib.loads(path.read_text())


def setup_profiles(profiles, setup):
    """Every profile one paper's setup (a compositions.toml table) is composed of: its named
    profiles, their parts, and every profile those derive from."""
    pending = [n for kind, names in setup.items() if kind != "paper" for n in names]
    out = set()
    while pending:
        name = pending.pop()
        if name in out or name not in profiles:
            continue
        out.add(name)
        p = profiles[name]
        pending += list(p.parts) + ([p.base] if p.base else [])
    return out


def _slot(profiles, host):
    """The PCI slot ``WIDTHxCLOCK`` of a host profile, or "" when it sets none."""
    p = profiles.get(host)
    if p is None:
        return ""
    width = p.values.get(("bus", "Width"), ("",))[0]
    clock = p.values.get(("bus", "Clock"), ("",))[0]
    return f"{width}x{clock}" if width and clock else ""


def off_setup(point, allowed, profiles):
    """Why one point (a ``provenance.csv`` line as a dict) is not on a setup whose profiles are
    ``allowed``, in a few words; "" when it is."""
    recorded = [p for p in str(point.get("parts", "")).split(";") if p]
    changes = [p.split(":", 1)[1] for p in recorded if p.startswith("setup:")]
    if changes:
        return "--" + ", --".join(changes) + " " + ("are" if len(changes) > 1 else "is") + \
            " not the paper's setup"
    names = [p.split(":", 1)[-1] for p in recorded]
    if not names:
        return ""   # a point of a program that records no parts: nothing to judge it by
    other = sorted(n for n in names if n not in allowed)
    if other:
        return "its " + ", ".join(other) + (" are" if len(other) > 1 else " is") + " not the paper's"
    try:
        args = json.loads(point.get("args", "") or "[]")
    except json.JSONDecodeError:
        args = []
    hosts = [n for n in names if n in profiles and profiles[n].kind == "host"]
    for arg in args:
        option, _, value = str(arg).partition("=")
        if option not in PART_OPTIONS or not value:
            continue
        if option.endswith("pci") and all(_slot(profiles, h) == value for h in hosts):
            continue   # the host's own slot, named
        return f"{option}={value} changes the paper's parts"
    return ""


def _point_of_rows(data_path, prov):
    """The provenance line index of each data row (data.csv is the points' rows in provenance
    order; each point's rows hash to its ``rows_sha256``), or None when they do not add up."""
    lines = Path(data_path).read_text().splitlines(keepends=True)[1:]
    owner, at = [], 0
    for i, sha in enumerate(prov["rows_sha256"]):
        text, end = "", at
        while hashlib.sha256(text.encode()).hexdigest() != sha:
            if end == len(lines):
                return None
            text += lines[end]
            end += 1
        owner += [i] * (end - at)
        at = end
    return owner if at == len(lines) else None


def rows_on_setup(results, papers, compositions=None, profiles=None):
    """For each paper of ``papers``, a boolean Series over ``results/data.csv``'s rows: True
    where the row's point is on that paper's setup. Also returns, per paper, why the first
    point that is not is not (or "").

    Without ``provenance.csv`` (data written by hand) every row counts as on every setup; when
    its points cannot be matched to data.csv's rows, a row counts only if every point is on.
    """
    results = Path(results)
    n = max(0, len((results / "data.csv").read_text().splitlines()) - 1)
    prov_path = results / "provenance.csv"
    if not prov_path.is_file():
        return {p: pd.Series([True] * n) for p in papers}, {p: "" for p in papers}
    prov = pd.read_csv(prov_path, dtype=str, keep_default_na=False)
    profiles = load_profiles() if profiles is None else profiles
    compositions = load_compositions() if compositions is None else compositions
    owner = _point_of_rows(results / "data.csv", prov) if "rows_sha256" in prov else None
    masks, why = {}, {}
    for paper in papers:
        allowed = setup_profiles(profiles, compositions.get(paper, {}))
        reasons = [off_setup(rec, allowed, profiles) for rec in prov.to_dict("records")]
        why[paper] = next((r for r in reasons if r), "")
        if owner is None:
            masks[paper] = pd.Series([not why[paper]] * n)
        else:
            masks[paper] = pd.Series([not reasons[i] for i in owner], dtype=bool)
    return masks, why
