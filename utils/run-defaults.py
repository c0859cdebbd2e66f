#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run every scenario at its default arguments into one folder, for before/after comparisons.

    utils/run-defaults.py OUT [--only a,b] [--skip a,b]

Each scenario writes ``OUT/<scenario>/data.csv`` (``--report=0``: no plots, no summary);
``mpi-replay`` replays ``scenarios/traces/pingpong-barrier.txt``; the programs that also print
their result (STDOUT_PROGRAMS) have their standard output, less wall-clock lines, kept in
``OUT/<program>/stdout.txt``. A refactor that
must not change results is checked with ``diff -r`` of two such folders made from the two
commits. Timing benchmarks are skipped (SKIP). Run it after ``./ns3 build``.
"""

import argparse
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
from clusternet.reproduce import BENCHMARKS, default_args

# Wall-clock benchmarks: their data.csv holds timings, not results.
SKIP = BENCHMARKS
# Programs that print their result instead of writing data.csv: their standard output, less
# wall-clock lines, is compared.
STDOUT_PROGRAMS = ["gige-switch-incast", "myrinet-clos-alltoall"]
NO_REPORT_FLAG = {"mpi-replay", "gige-switch-incast", "myrinet-clos-alltoall"}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--only", default="")
    parser.add_argument("--skip", default="")
    args = parser.parse_args(argv)
    names = sorted(f[:-3] for f in os.listdir(os.path.join(ROOT, "scenarios")) if f.endswith(".cc"))
    only = [n for n in args.only.split(",") if n]
    skip = SKIP | set(STDOUT_PROGRAMS) | {n for n in args.skip.split(",") if n}
    names = [n for n in names if (n in only if only else n not in skip)]
    stdout_names = [n for n in STDOUT_PROGRAMS if n not in names and (not only or n in only)]
    env = dict(os.environ)
    failed = []
    for name in names + stdout_names:
        exe = os.path.join(ROOT, "build", "scenarios", name)
        out = os.path.join(os.path.abspath(args.out), name)
        start = time.monotonic()
        cmd = [exe, f"--out={out}", *default_args(name)]
        if name not in NO_REPORT_FLAG:
            cmd.append("--report=0")
        proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
        status = "ok" if proc.returncode == 0 else f"FAILED ({proc.returncode})"
        print(f"{name:28s} {time.monotonic() - start:7.1f} s  {status}", flush=True)
        if name in STDOUT_PROGRAMS:
            os.makedirs(out, exist_ok=True)
            lines = [l for l in proc.stdout.splitlines(True) if not l.startswith("wall_")]
            with open(os.path.join(out, "stdout.txt"), "w") as f:
                f.writelines(lines)
        if proc.returncode != 0:
            failed.append(name)
            print(proc.stderr.strip()[-2000:], file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
