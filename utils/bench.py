#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""clusternet's speed and memory, measured in one run: ./ns3 bench [options].

A benchmark: it prints figures and ratios and asserts nothing about time (wall time on a shared
machine is noisy; run it on an idle one, after ./ns3 build).

  (a) bench-gige-vs-p2p, --runs times: wall time per simulated packet through clusternet's
      GigE NIC + host model and through ns-3's PointToPointNetDevice, and their ratio;
  (b) the events each executes per packet (from the same runs);
  (c) myrinet-clos-alltoall at each --clos size (HOSTSxMSG_BYTES): packets, events, events/s,
      peak RSS and RSS per packet sent;
  (d) every scenario at its defaults (utils/run-defaults.py), its wall time and the total;
  (e) one paper point, whole process (--run-point, as a worker runs it): each of seed 000's
      Table 1 NetPIPE configurations (gige-mtu-sweep, 1 B to 2 MB) and their median, and each
      GM point of myrinet-gm-allsize;
  (f) the default reproduction (./ns3 reproduce --resume=0 --report=0 into a scratch folder)
      with --jobs workers: its wall time next to its points' CPU sum / workers.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENARIOS = os.path.join(ROOT, "build", "scenarios")
PARTS = ("a", "c", "d", "e", "f")


class BenchError(Exception):
    """A benchmark program failed or printed what this script cannot read."""


def fail(msg):
    print(f"./ns3 bench: {msg}", file=sys.stderr)
    sys.exit(2)


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        fail(message)


def run(cmd, timeout=None):
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ, PYTHONPATH=ROOT))
    if proc.returncode != 0:
        raise BenchError(f"{os.path.basename(cmd[0])} failed ({proc.returncode}): "
                         f"{proc.stderr.strip()[-500:]}")
    return proc.stdout


def gige_vs_p2p(runs, nbytes, out):
    """Part (a) and (b): one row per model and run: wall_us_per_pkt, events_per_pkt."""
    print(f"(a, b) bench-gige-vs-p2p: {nbytes} bytes of TCP, {runs} runs", flush=True)
    print("  run  clusternet_us/pkt  p2p_us/pkt  ratio  clusternet_events/pkt  p2p_events/pkt")
    ratios = []
    for i in range(runs):
        text = run([os.path.join(SCENARIOS, "bench-gige-vs-p2p"), f"--bytes={nbytes}",
                    "--resume=0", f"--out={out}/bench-{i}"])
        rows = {}
        for line in text.splitlines():
            f = line.split()
            if f and f[0] in ("clusternet", "p2p") and len(f) == 9:
                rows[f[0]] = (float(f[6]), float(f[8]))
        if set(rows) != {"clusternet", "p2p"}:
            raise BenchError(f"bench-gige-vs-p2p printed no table: {text[-300:]}")
        ratio = rows["clusternet"][0] / rows["p2p"][0]
        ratios.append(ratio)
        print(f"  {i + 1:3d}  {rows['clusternet'][0]:17.3f}  {rows['p2p'][0]:10.3f}  "
              f"{ratio:5.2f}  {rows['clusternet'][1]:21.2f}  {rows['p2p'][1]:14.2f}", flush=True)
    print(f"  ratio: min {min(ratios):.2f}, median {statistics.median(ratios):.2f}, "
          f"max {max(ratios):.2f}", flush=True)


def clos(sizes, out):
    """Part (c): the Clos all-to-all at each size."""
    print("(c) myrinet-clos-alltoall, wire level", flush=True)
    print("  hosts  msg_bytes  packets     events       wall_run_s  Mevents/s  peak_rss_MB"
          "  rss_B/packet")
    for hosts, msg in sizes:
        text = run([os.path.join(SCENARIOS, "myrinet-clos-alltoall"), f"--hosts={hosts}",
                    f"--msg={msg}", "--resume=0", f"--out={out}/clos-{hosts}-{msg}"])
        kv = dict(re.findall(r"(\w+)=([^\s]+)", text))
        try:
            packets = int(kv["packets_sent"])
            events = int(kv["events"])
            wall = float(kv["wall_run_s"])
            rss = float(kv["peak_rss_MB"])
        except (KeyError, ValueError):
            raise BenchError(f"myrinet-clos-alltoall printed no figures: {text[-300:]}") from None
        print(f"  {hosts:5d}  {msg:9d}  {packets:10d}  {events:11d}  {wall:10.2f}  "
              f"{events / wall / 1e6 if wall else 0:9.2f}  {rss:11.1f}  "
              f"{rss * 2**20 / packets:12.0f}", flush=True)


def defaults(out):
    """Part (d): every scenario at its defaults, one after another."""
    print("(d) every scenario at its defaults (utils/run-defaults.py)", flush=True)
    began = time.monotonic()
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "utils", "run-defaults.py"),
                           f"{out}/defaults"], cwd=ROOT, capture_output=True, text=True)
    for line in proc.stdout.splitlines():
        print(f"  {line}", flush=True)
    if proc.returncode != 0:
        raise BenchError(f"utils/run-defaults.py failed: {proc.stderr.strip()[-500:]}")
    print(f"  total {time.monotonic() - began:.1f} s", flush=True)


def one_point(scenario, out, label):
    """Part (e) for one program: each default point's whole-process wall time [s]."""
    exe = os.path.join(SCENARIOS, scenario)
    import json

    points = json.loads(run([exe, "--list-points=1"]))["points"]
    walls = []
    for p in points:
        began = time.monotonic()
        run([exe, f"--run-point={p['file']}", f"--point-out={out}/{scenario}-point.csv",
             f"--out={out}/{scenario}"])
        walls.append(time.monotonic() - began)
        print(f"  {scenario:18s} {p['label']:40s} {walls[-1]:7.3f} s", flush=True)
    print(f"  {label}: median {statistics.median(walls):.3f} s, min {min(walls):.3f} s, "
          f"max {max(walls):.3f} s over {len(walls)} points", flush=True)


def points(out):
    """Part (e): paper points, whole process each."""
    print("(e) one point, whole process (as a worker runs it)", flush=True)
    one_point("gige-mtu-sweep", out, "seed 000 Table 1 NetPIPE configuration")
    one_point("myrinet-gm-allsize", out, "seed 001 GM allsize point")


def reproduction(jobs, out):
    """Part (f): the whole default reproduction on one pool."""
    print(f"(f) ./ns3 reproduce --resume=0 --report=0 --jobs={jobs}", flush=True)
    proc = subprocess.run([sys.executable, "-m", "clusternet.reproduce", f"--jobs={jobs}",
                           "--resume=0", "--report=0", f"--out={out}/reproduce"], cwd=ROOT,
                          capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=ROOT))
    if proc.returncode != 0:
        raise BenchError(f"./ns3 reproduce failed: {proc.stderr.strip()[-800:]}")
    summary = [l for l in proc.stderr.splitlines() if l.startswith("reproduce: ")]
    for line in summary:
        print(f"  {line}", flush=True)


def clos_sizes(text):
    sizes = []
    for item in text.split(","):
        m = re.fullmatch(r"(\d+)x(\d+)", item.strip())
        if not m or int(m.group(1)) not in (16, 128, 1024, 8192) or not 1 <= int(m.group(2)) <= 16777216:
            fail(f"--clos: '{item}' is not HOSTSxMSG_BYTES with HOSTS 16, 128, 1024 or 8192 and "
                 "MSG_BYTES 1-16777216 (e.g. 128x65536,1024x4096)")
        sizes.append((int(m.group(1)), int(m.group(2))))
    return sizes


def main(argv):
    parser = _Parser(prog="./ns3 bench", description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n".join(__doc__.splitlines()[2:]))
    parser.add_argument("--parts", default="a,c,d",
                        help="which parts to run, comma-separated: a (with b), c, d, e, f "
                             "[a,c,d]")
    parser.add_argument("--jobs", default="2", help="part (f)'s workers [1-256] [2]")
    parser.add_argument("--runs", default="3", help="runs of part (a) [1-20] [3]")
    parser.add_argument("--bytes", default="100000000",
                        help="bytes of part (a)'s TCP transfer [bytes, 1000000-4000000000] "
                             "[100000000]")
    parser.add_argument("--clos", default="128x65536,1024x4096",
                        help="part (c)'s sizes, HOSTSxMSG_BYTES, comma-separated "
                             "[128x65536,1024x4096]")
    args = parser.parse_args(argv)
    parts = [p for p in args.parts.split(",") if p]
    if not parts or any(p not in PARTS for p in parts):
        fail(f"--parts: '{args.parts}' is not a comma-separated list of a, c, d, e, f")
    if not args.jobs.isdigit() or not 1 <= int(args.jobs) <= 256:
        fail(f"--jobs: '{args.jobs}' is not a whole number 1-256")
    if not args.runs.isdigit() or not 1 <= int(args.runs) <= 20:
        fail(f"--runs: '{args.runs}' is not a whole number 1-20")
    if not args.bytes.isdigit() or not 1000000 <= int(args.bytes) <= 4000000000:
        fail(f"--bytes: '{args.bytes}' is not a whole number of bytes 1000000-4000000000")
    sizes = clos_sizes(args.clos)
    with tempfile.TemporaryDirectory(prefix="clusternet-bench-") as out:
        try:
            if "a" in parts:
                gige_vs_p2p(int(args.runs), int(args.bytes), out)
            if "c" in parts:
                clos(sizes, out)
            if "d" in parts:
                defaults(out)
            if "e" in parts:
                points(out)
            if "f" in parts:
                reproduction(int(args.jobs), out)
        except BenchError as e:
            print(f"./ns3 bench: {e}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
