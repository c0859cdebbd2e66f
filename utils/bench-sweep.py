#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Sweep benchmark: the speed-up of 2 Dask workers over 1 on a 16-point sweep.

    utils/bench-sweep.py [--scenario-args ...]

Runs seed 000 Table 1 (gige-mtu-sweep at its defaults: 2 NICs x 4 MTUs x 2 socket buffers, 16
points) with ``--jobs=1`` and with ``--jobs=2`` (``--resume=0 --report=0``, fresh output
folders), checks that both give the same data.csv bytes and prints the wall times and their
ratio. A benchmark: it prints figures and asserts nothing about time. Run it after
``./ns3 build`` on an otherwise idle machine.
"""

import filecmp
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(jobs, out, extra):
    began = time.monotonic()
    subprocess.run([os.path.join(ROOT, "build", "scenarios", "gige-mtu-sweep"),
                    f"--jobs={jobs}", "--resume=0", "--report=0", f"--out={out}", *extra],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.monotonic() - began


def main(argv):
    with tempfile.TemporaryDirectory(prefix="clusternet-bench-sweep-") as tmp:
        one = run(1, os.path.join(tmp, "one"), argv)
        two = run(2, os.path.join(tmp, "two"), argv)
        same = filecmp.cmp(os.path.join(tmp, "one", "data.csv"),
                           os.path.join(tmp, "two", "data.csv"), shallow=False)
        with open(os.path.join(tmp, "two", "data.csv")) as f:
            points = len({tuple(line.split(",")[:5]) for line in f.readlines()[1:]})
    print(f"points={points} cores={os.cpu_count()}")
    print(f"wall_1_worker_s={one:.2f}")
    print(f"wall_2_workers_s={two:.2f}")
    print(f"speedup={one / two:.2f}")
    print(f"same_data_csv={'yes' if same else 'NO'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
