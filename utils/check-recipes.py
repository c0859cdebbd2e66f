#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check that the profiles hold what the joint calibration fits; or run each recipe alone.

    utils/check-recipes.py [OUT] --all [--jobs N] [--results DIR]
    utils/check-recipes.py [OUT] [--only a,b] [--jobs N]

With --all, the joint calibration (./ns3 calibrate --all --out=OUT/all; ``--results`` is passed
on: the reproduction and the store of points it reads back): every value it fits, at every
place it goes, is compared with the value the catalogue gives. Prints one line per place and
exits 1 if any differs by more than a tenth of its standard error
(clusternet.calibrate.agreement). The profiles hold the joint fit's values.

Without --all, each recipe runs alone, as ``./ns3 calibrate recipes/NAME.toml --out=OUT/NAME``
would (after ``./ns3 build``): one paper's chosen rows, every other value held. It prints where
each fitted attribute (and each its ``also`` names) ends against the profile, with the recipe's
wall time: what that paper alone would say, which may differ from the joint value (seed 004's
FM recipe fits three values on three rows). Exits 1 only if a recipe fails to run.
"""

import argparse
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV_PY = os.path.join(ROOT, ".venv", "bin", "python")
if os.path.realpath(sys.prefix) != os.path.realpath(os.path.join(ROOT, ".venv")) and \
        os.path.exists(VENV_PY):
    os.execv(VENV_PY, [VENV_PY, *sys.argv])   # the project's Python (./ns3 configure made it)

from clusternet.calibrate import held_and_fitted
from analysis.catalogue import load_profiles


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default=os.path.join(ROOT, "results", "recipes"))
    parser.add_argument("--only", default="")
    parser.add_argument("--jobs", default=str(os.cpu_count() or 2))
    parser.add_argument("--all", action="store_true",
                        help="run the joint calibration (./ns3 calibrate --all) instead of each "
                             "recipe alone and check the profiles hold what it fits")
    parser.add_argument("--results", default=os.path.join(ROOT, "results"),
                        help="with --all: the reproduction's folder, passed to ./ns3 calibrate "
                             "--all [path] (default results)")
    args = parser.parse_args(argv)
    if args.all:
        return check_joint(os.path.join(args.out, "all"), args.jobs, args.results)
    names = sorted(f[:-5] for f in os.listdir(os.path.join(ROOT, "recipes"))
                   if f.endswith(".toml"))
    only = [n for n in args.only.split(",") if n]
    names = [n for n in names if not only or n in only]
    profiles = load_profiles()
    failed = 0
    for name in names:
        out = os.path.join(args.out, name)
        began = time.monotonic()
        done = subprocess.run([sys.executable, "-m", "clusternet.calibrate",
                               os.path.join("recipes", f"{name}.toml"), f"--out={out}",
                               f"--jobs={args.jobs}"], cwd=ROOT, capture_output=True, text=True)
        wall = time.monotonic() - began
        if done.returncode != 0:
            print(f"{name}: calibrate failed: {done.stderr.strip()}")
            failed += 1
            continue
        for profile, tgt, at, held, fitted, verdict in held_and_fitted(
                os.path.join(out, "parameters.csv"), profiles):
            said = {"same": "same", "within": "within its error"}.get(verdict, "differs")
            print(f"{name:26s} {profile:20s} {tgt}.{at:26s} profile {held:>10s}  "
                  f"fit {fitted:>10s}  {said}  ({wall:.0f} s)")
    return 1 if failed else 0


def check_joint(out, jobs, results):
    """``--all``: the joint fit's values against the profiles."""
    from clusternet.jointfit import held_and_joint

    began = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "clusternet.calibrate", "--all", f"--out={out}",
                           f"--jobs={jobs}", f"--results={results}"], cwd=ROOT)
    wall = time.monotonic() - began
    if done.returncode != 0:
        print(f"calibrate --all failed (status {done.returncode})")
        return 1
    differ = 0
    for profile, tgt, at, held, fitted, verdict in held_and_joint(
            os.path.join(out, "values.csv"), load_profiles()):
        differ += verdict == "differs"
        said = {"same": "ok", "within": "ok (within its error)"}.get(verdict, "DIFFERS")
        print(f"{profile:20s} {tgt}.{at:26s} profile {held:>10s}  joint fit {fitted:>10s}  "
              f"{said}")
    print(f"joint fit: {wall:.0f} s")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
