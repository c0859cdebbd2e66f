#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Issue 45's rule for a change that reorders same-instant events, checked on two default runs.

    utils/reorder-check.py BASE AFTER

BASE and AFTER are folders written by ``utils/run-defaults.py`` from the two commits. The change
is allowed when every reference row's error moves by at most 0.1 percentage point and every
statement keeps its outcome. This prints each changed file with the largest relative change of
a value in it, each reference row whose error moved, the largest move, and every statement
whose outcome changed; exit status 1 when the rule is broken, 0 when it holds.
"""

import math
import os
import sys

import pandas as pd

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from analysis.io import read_data
from analysis.outliers import summaries
from analysis.reference import load_reference
from analysis.statements import STATEMENTS, STDOUT_PROGRAMS, evaluate

#: The largest move of a reference row's error the rule allows [percentage points].
LIMIT_PP = 0.1


def load(folder):
    """``{scenario: data}`` of a run-defaults folder (a frame, or the printed text)."""
    out = {}
    for name in sorted(os.listdir(folder)):
        csv = os.path.join(folder, name, "data.csv")
        txt = os.path.join(folder, name, "stdout.txt")
        if name in STDOUT_PROGRAMS and os.path.exists(txt):
            with open(txt, encoding="utf-8") as f:
                out[name] = f.read()
        elif os.path.exists(csv):
            out[name] = read_data(csv)
    return out


def largest_change(a, b):
    """The largest relative change of a numeric value between two frames of equal shape."""
    if a.shape != b.shape or list(a.columns) != list(b.columns):
        return math.inf
    worst = 0.0
    for col in a.columns:
        x = pd.to_numeric(a[col], errors="coerce")
        y = pd.to_numeric(b[col], errors="coerce")
        both = x.notna() & y.notna() & (x != 0)
        if both.any():
            worst = max(worst, float(((y[both] - x[both]) / x[both]).abs().max()))
    return worst


def main(argv):
    if len(argv) != 2 or not all(os.path.isdir(p) for p in argv):
        print("usage: utils/reorder-check.py BASE AFTER (two utils/run-defaults.py folders)",
              file=sys.stderr)
        return 2
    base, after = (load(p) for p in argv)
    common = sorted(set(base) & set(after))
    ok = True
    changed = []
    for name in common:
        a, b = base[name], after[name]
        same = a == b if isinstance(a, str) else a.equals(b)
        if not same:
            change = "text" if isinstance(a, str) else f"{largest_change(a, b):.3%}"
            changed.append(name)
            print(f"changed: {name}: largest relative change of a value {change}")
    frames = {n: d for n, d in base.items() if n in common and not isinstance(d, str)}
    ref = load_reference()
    sb = summaries(frames, ref)
    sa = summaries({n: after[n] for n in frames}, ref)
    key = ["scenario", "config", "metric"]
    joined = sb[key + ["rel_err"]].merge(sa[key + ["rel_err"]], on=key, suffixes=("_b", "_a"))
    move = (pd.to_numeric(joined["rel_err_a"], errors="coerce")
            - pd.to_numeric(joined["rel_err_b"], errors="coerce")).abs() * 100
    joined = joined.assign(move_pp=move)
    moved = joined[joined["move_pp"] > 0].sort_values("move_pp", ascending=False)
    for _, r in moved.iterrows():
        print(f"row: {r['scenario']} {r['config']} {r['metric']}: error {r['rel_err_b']:+.4%} -> "
              f"{r['rel_err_a']:+.4%} ({r['move_pp']:.4f} pp)")
    largest = float(moved["move_pp"].max()) if len(moved) else 0.0
    print(f"reference rows: {len(joined)} compared, {len(moved)} moved, largest move "
          f"{largest:.4f} pp (limit {LIMIT_PP} pp)")
    if largest > LIMIT_PP:
        ok = False
    flipped = 0
    checked = 0
    for s in STATEMENTS:
        names = list(s.scenarios)
        if s.args or not all(n in common for n in names):
            continue
        if not any(n in changed for n in names):
            checked += 1
            continue
        several = isinstance(s.scenario, tuple)
        pick = (lambda d: {n: d[n] for n in names}) if several else (lambda d: d[names[0]])
        hb = evaluate(s, pick(base))[0]
        ha = evaluate(s, pick(after))[0]
        checked += 1
        if hb != ha:
            flipped += 1
            print(f"statement {s.id}: {'holds' if hb else 'fails'} -> "
                  f"{'holds' if ha else 'fails'}")
    print(f"statements: {checked} checked, {flipped} changed outcome")
    if flipped:
        ok = False
    print("rule holds" if ok else "rule BROKEN")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
