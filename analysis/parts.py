# SPDX-License-Identifier: GPL-2.0-only
"""Physical parts across papers: which part a profile is, which papers have it, which papers'
rows its values were fitted on, and which reference rows it takes part in.

A *part* is a profile together with the profiles derived from it (``base``): its identity is
the root of the base chain (``tigon2`` for the Tigon 2 chip of the ACEnic and the GA620,
``gm15-lanai`` for the LANai 9, 7.2 and 4). A host or NIC profile stands for its ``parts``.
A paper's setup is ``reference/compositions.toml``.

A value is *fitted on* a paper when its source says it was fitted by a recipe of that paper
(``fitted by ./ns3 calibrate recipes/seed003-...``). For each part in two or more papers,
:func:`transfer_by_part` tabulates, per paper that has the part, the errors of that paper's
reference rows the part takes part in, and where the part's values were fitted: on other papers
only (the part *carried over*: a transfer), on this paper too (*calibrated here*), or nowhere
(*estimates*: every value from a datasheet, a driver source or an estimate).

Everything here is plain functions over the catalogue (:func:`analysis.catalogue.load_profiles`)
and DataFrames.
"""

import re

import numpy as np
import pandas as pd

#: A source that says its value was fitted on a paper's rows, and that paper.
FITTED = re.compile(r"fitted\b.*?recipes/seed(\d{3})", re.IGNORECASE | re.DOTALL)

TABLE_COLUMNS = ["part", "kind", "paper", "profiles", "fitted_on", "carried", "rows",
                 "median_abs_err", "max_abs_err"]


def root(profiles, name):
    """The part a profile is: the root of its base chain."""
    while profiles[name].base:
        name = profiles[name].base
    return name


def expand(profiles, name):
    """The part profiles ``name`` stands for: its ``parts`` (a host or NIC), else itself."""
    p = profiles[name]
    return list(p.parts) if getattr(p, "parts", None) else [name]


def paper_profiles(profiles, setup):
    """Every part profile of one paper's setup (a compositions.toml table)."""
    out = set()
    for kind, names in setup.items():
        if kind == "paper":
            continue
        for name in names:
            out.update(expand(profiles, name))
    return out


def shared_parts(profiles, compositions):
    """``{part: {paper: {profiles}}}`` of every part that two or more papers have."""
    uses = {}
    for paper, setup in compositions.items():
        for name in paper_profiles(profiles, setup):
            uses.setdefault(root(profiles, name), {}).setdefault(paper, set()).add(name)
    return {r: by for r, by in sorted(uses.items()) if len(by) > 1}


def fitted_on(profiles, name):
    """The papers whose reference rows a value of profile ``name`` (its own or inherited) was
    fitted on, from the values' sources."""
    papers = set()
    for _value, source in profiles[name].values.values():
        papers.update(FITTED.findall(source))
    return papers


def row_profiles(profiles, setup, data):
    """The part profiles that the simulated rows ``data`` (a selection of a scenario's data)
    take part in, within one paper's ``setup``.

    The data's own columns name them where it has them (``host``, ``nic`` for a GigE NIC or a
    LANai board, ``stack`` for an MPI library, ``chipset``); a host or network it does not name
    is the setup's (a ``net`` column of ``myrinet`` or ``gige`` says which network). The GM host
    software part of a host counts only on Myrinet rows.
    """
    def column(name):
        if name not in data:
            return []
        return sorted({str(v) for v in data[name].dropna().unique() if str(v) in profiles})

    hosts = column("host") or list(setup.get("host", []))
    nets = column("nic")
    if not nets:
        kinds = []
        if "net" in data:
            for v in data["net"].dropna().unique():
                kinds += ["lanai"] if "myrinet" in str(v) else ["nic"] if "gige" in str(v) else []
        kinds = kinds or ["nic", "lanai"]
        nets = [n for k in dict.fromkeys(kinds) for n in setup.get(k, [])]
    myrinet = any(profiles[n].kind == "lanai" for n in nets)
    out = set()
    for name in hosts + nets + column("stack") + column("chipset"):
        for part in expand(profiles, name):
            if profiles[part].kind == "gm" and not myrinet:
                continue
            out.add(part)
    return out


def transfer_by_part(profiles, compositions, rows):
    """The table of :data:`TABLE_COLUMNS`: one line per part in two or more papers and paper
    that has it.

    ``rows``: one line per reference row with ``paper`` (3 digits), ``abs_err`` (|error| as a
    fraction, NaN when not computable) and ``parts`` (the set of part profiles the row takes
    part in, :func:`row_profiles`). ``fitted_on`` lists the papers the paper's profiles of the
    part were fitted on; ``carried`` is ``transfer`` when they are other papers only,
    ``calibrated here`` when the paper is one of them, ``estimates`` when none.
    """
    lines = []
    for part, by_paper in shared_parts(profiles, compositions).items():
        for paper, names in sorted(by_paper.items()):
            fitted = set().union(*(fitted_on(profiles, n) for n in names))
            carried = ("calibrated here" if paper in fitted else
                       "transfer" if fitted else "estimates")
            mine = rows[(rows.paper == paper) & rows.parts.map(lambda s: bool(s & names))]
            errs = mine.abs_err.to_numpy(dtype=float)
            errs = errs[np.isfinite(errs)]
            lines.append({
                "part": part, "kind": profiles[part].kind, "paper": paper,
                "profiles": ", ".join(sorted(names)), "fitted_on": ", ".join(sorted(fitted)),
                "carried": carried, "rows": int(errs.size),
                "median_abs_err": float(np.median(errs)) if errs.size else np.nan,
                "max_abs_err": float(errs.max()) if errs.size else np.nan,
            })
    return pd.DataFrame(lines, columns=TABLE_COLUMNS)
