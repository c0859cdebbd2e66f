"""Reference numbers from the seed papers (``<repo>/reference/seeds.csv``).

Columns: ``paper,experiment,scenario,config,metric,value,approx,where``. ``config`` is a
``key=value;...`` string such as ``nic=sknet;mtu=1500;sockbuf=131072;msg=16384``.
"""

import re

import pandas as pd

from .io import reference_dir

REFERENCE_COLUMNS = ["paper", "experiment", "scenario", "config", "metric", "value", "approx",
                     "where"]

_INT_RE = re.compile(r"^[+-]?\d+$")


def default_reference_path():
    """Return the path of the repository's ``reference/seeds.csv``."""
    return reference_dir() / "seeds.csv"


def load_reference(path=None):
    """Load the reference table as a DataFrame.

    Every column is read as text (so ``paper`` stays ``"000"`` and ``config`` is kept exactly
    as written, empty configs as ``""``), except ``value`` (float) and ``approx`` (int, 0 when
    blank). ``path`` defaults to :func:`default_reference_path`.
    """
    path = default_reference_path() if path is None else path
    ref = pd.read_csv(path, dtype=str, keep_default_na=False)
    ref.columns = [c.strip() for c in ref.columns]
    missing = [c for c in ("scenario", "config", "metric", "value") if c not in ref.columns]
    if missing:
        raise ValueError(f"{path}: reference table lacks column(s) {', '.join(missing)}")
    ref["value"] = pd.to_numeric(ref["value"].str.strip(), errors="coerce").astype(float)
    if "approx" in ref.columns:
        ref["approx"] = pd.to_numeric(ref["approx"], errors="coerce").fillna(0).astype(int)
    return ref


def parse_value(text):
    """Return ``text`` stripped, as an ``int`` when it looks like one."""
    text = text.strip()
    return int(text) if _INT_RE.match(text) else text


def parse_config(s):
    """Parse ``"nic=sknet;mtu=1500"`` into ``{"nic": "sknet", "mtu": 1500}``.

    Values that look like integers become ``int``; anything else (``"4096..12288"``,
    ``"32x33"``) stays a string. Empty or missing configs give ``{}``; an item without ``=``
    maps to ``""``.
    """
    if s is None or (isinstance(s, float) and s != s):
        return {}
    out = {}
    for item in str(s).split(";"):
        if not item.strip():
            continue
        key, _, value = item.partition("=")
        out[key.strip()] = parse_value(value)
    return out


def format_config(cfg):
    """Inverse of :func:`parse_config`: ``{"mtu": 1500}`` -> ``"mtu=1500"``."""
    return ";".join(f"{k}={v}" for k, v in cfg.items())


def reference_for(scenario, ref=None):
    """Return the reference rows whose ``scenario`` column equals ``scenario``.

    Duplicates are kept and the file order is preserved; the index is renumbered from 0.
    ``ref`` defaults to :func:`load_reference`.
    """
    ref = load_reference() if ref is None else ref
    rows = ref[ref["scenario"].astype(str).str.strip() == scenario]
    return rows.reset_index(drop=True)
