#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""clusternet's speed and memory, measured in one run: ./ns3 bench [options].

A benchmark: it prints figures and ratios and asserts nothing about time (wall time on a shared
machine is noisy; run it on an idle one, after ./ns3 build).

  (a) bench-gige-vs-p2p, --runs times: wall time per simulated packet through clusternet's
      GigE NIC + host model and through ns-3's PointToPointNetDevice, and their ratio;
  (b) the events each executes per packet (from the same runs), and the clusternet run's by
      kind (one more run with the event census, $CLUSTERNET_EVENT_CENSUS=1);
  (c) myrinet-clos-alltoall at each --clos size (HOSTSxMSG_BYTES): packets, events, events/s,
      peak RSS and RSS per packet sent;
  (d) every scenario at its defaults (utils/run-defaults.py), its wall time and the total;
  (e) one paper point, whole process (--run-point, as a worker runs it): each of seed 000's
      Table 1 NetPIPE configurations (gige-mtu-sweep, 1 B to 2 MB) and their median, and each
      GM point of myrinet-gm-allsize; then ns-3's floor: each Table 1 ping-pong through
      clusternet and through ns-3's PointToPointNetDevice with no host model
      (bench-gige-vs-p2p --workload=netpipe), both Simulator::Run() walls and their medians;
  (f) the default reproduction (./ns3 reproduce --resume=0 --report=0 into a scratch folder)
      with --jobs workers: its wall time next to its points' CPU sum / workers;
  (g) when SimGrid is installed (Debian libsimgrid-dev): the same NetPIPE ping-pong in
      SimGrid's flow model (utils/simgrid-netpipe.cc, built here), its whole-process wall over
      --runs runs against part (e)'s median Table 1 point and ns-3's floor, and both models'
      median |error| against seed 000's Table 1 peaks (SimGrid has no MTU, NIC or socket
      buffer: one curve for every configuration).
  (h) mpi-replay of an OTF2 trace of 1024 ranks (clusternet.synthetic.stencil: a 32 x 32
      stencil, halo exchange and an allreduce per step, --replay-steps steps) over MPICH-GM on
      the 1024-host Clos of XBar16 switches at GM level, the point run as a worker runs it:
      its events, Simulator::Run() wall, events per second and peak RSS.
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
PARTS = ("a", "c", "d", "e", "f", "g", "h")


#: The headline figures of this run: (part, figure, value, unit), written to figures.csv.
FIGURES = []


def figure(part, name, value, unit):
    """Record one headline figure for figures.csv (it is printed where it is measured)."""
    FIGURES.append({"part": part, "figure": name, "value": round(float(value), 4),
                    "unit": unit})


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
                          env=dict(os.environ))
    if proc.returncode != 0:
        raise BenchError(f"{os.path.basename(cmd[0])} failed ({proc.returncode}): "
                         f"{proc.stderr.strip()[-500:]}")
    return proc.stdout


def model_rows(args, out):
    """Run bench-gige-vs-p2p with ``args`` into ``out``; return its table's two rows by model
    (model, then the eight figures as text)."""
    text = run([os.path.join(SCENARIOS, "bench-gige-vs-p2p"), *args, "--resume=0",
                f"--out={out}"])
    rows = {}
    for line in text.splitlines():
        f = line.split()
        if f and f[0] in ("clusternet", "p2p") and len(f) == 9:
            rows[f[0]] = f
    if set(rows) != {"clusternet", "p2p"}:
        raise BenchError(f"bench-gige-vs-p2p printed no table: {text[-300:]}")
    return rows


def gige_vs_p2p(runs, nbytes, out):
    """Part (a) and (b): one row per model and run: wall_us_per_pkt, events_per_pkt."""
    print(f"(a, b) bench-gige-vs-p2p: {nbytes} bytes of TCP, {runs} runs", flush=True)
    print("  run  clusternet_us/pkt  p2p_us/pkt  ratio  clusternet_events/pkt  p2p_events/pkt")
    ratios = []
    for i in range(runs):
        rows = {model: (float(f[6]), float(f[8]))
                for model, f in model_rows([f"--bytes={nbytes}"], f"{out}/bench-{i}").items()}
        ratio = rows["clusternet"][0] / rows["p2p"][0]
        ratios.append(ratio)
        print(f"  {i + 1:3d}  {rows['clusternet'][0]:17.3f}  {rows['p2p'][0]:10.3f}  "
              f"{ratio:5.2f}  {rows['clusternet'][1]:21.2f}  {rows['p2p'][1]:14.2f}", flush=True)
    print(f"  ratio: min {min(ratios):.2f}, median {statistics.median(ratios):.2f}, "
          f"max {max(ratios):.2f}", flush=True)
    figure("a", f"wall per packet, clusternet / point-to-point ({nbytes} B of TCP, median of "
           f"{runs})", statistics.median(ratios), "ratio")
    census(nbytes, out)


def census(nbytes, out):
    """Part (b), by kind: one more (untimed) run with the event census on; the clusternet
    run's events per packet for each kind of event (the C++ type the census names)."""
    exe = os.path.join(SCENARIOS, "bench-gige-vs-p2p")
    proc = subprocess.run([exe, f"--bytes={nbytes}", "--resume=0", f"--out={out}/census"],
                          cwd=ROOT, capture_output=True, text=True,
                          env=dict(os.environ, CLUSTERNET_EVENT_CENSUS="1"))
    if proc.returncode != 0:
        raise BenchError(f"bench-gige-vs-p2p with the census failed: {proc.stderr[-300:]}")
    packets = None
    for line in proc.stdout.splitlines():
        f = line.split()
        if f and f[0] == "clusternet" and len(f) == 9:
            packets = int(f[4])
    # The first census is the clusternet simulation's (it runs first), up to the second.
    blocks = proc.stderr.split("event census: ")
    if packets is None or len(blocks) < 2:
        raise BenchError("bench-gige-vs-p2p printed no census")
    print("  clusternet's events per packet by kind: run, cancelled (taken off the list at "
          "their time or when the simulation ends)", flush=True)
    for line in blocks[1].splitlines()[1:]:
        m = re.match(r"\s+(\d+) run, (\d+) cancelled: (.*)", line)
        if not m:
            break
        run_, cancelled = int(m.group(1)), int(m.group(2))
        if run_ + cancelled >= packets / 20:
            kind = re.sub(r"^ns3::(clusternet::)?", "", m.group(3))[:90]
            print(f"    {run_ / packets:5.2f}  {cancelled / packets:5.2f}  {kind}", flush=True)


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
        figure("c", f"Clos all-to-all {hosts} hosts x {msg} B: events per second",
               events / wall / 1e6 if wall else 0, "Mevents/s")
        figure("c", f"Clos all-to-all {hosts} hosts x {msg} B: peak RSS", rss, "MB")


def replay1024(steps, out):
    """Part (h): a 1024-rank OTF2 trace replayed at GM level on the Clos."""
    import json

    from clusternet.synthetic import stencil

    print(f"(h) mpi-replay, 1024-rank OTF2 stencil, {steps} steps, MPICH-GM on the Clos",
          flush=True)
    began = time.monotonic()
    anchor = stencil(os.path.join(out, "stencil"), side=32, steps=steps)
    print(f"  trace written in {time.monotonic() - began:.1f} s: {anchor}", flush=True)
    exe = os.path.join(SCENARIOS, "mpi-replay")
    args = [f"--trace={anchor}", "--stack=mpich-gm", "--host=athlonxp2800-fbsd47",
            "--lanai=lanai72", f"--out={out}/replay"]
    point = json.loads(run([exe, *args, "--list-points=1"]))["points"][0]
    began = time.monotonic()
    text = run([exe, *args, f"--run-point={point['file']}", f"--point-out={out}/replay.csv"])
    whole = time.monotonic() - began
    kv = dict(re.findall(r"(\w+)=([^\s;]+)", text))
    try:
        events = int(kv["events"])
        wall = float(kv["wall_run_s"])
        rss = float(kv["peak_rss_MB"])
    except (KeyError, ValueError):
        raise BenchError(f"mpi-replay printed no figures: {text[-300:]}") from None
    print(f"  events {events}, Simulator::Run() {wall:.2f} s ({events / wall / 1e6 if wall else 0:.2f}"
          f" Mevents/s), whole point {whole:.1f} s (with the conversion), peak RSS {rss:.1f} MB",
          flush=True)
    figure("h", "1024-rank OTF2 replay, GM on the Clos: events", events, "events")
    figure("h", "1024-rank OTF2 replay, GM on the Clos: Simulator::Run() wall", wall, "s")
    figure("h", "1024-rank OTF2 replay, GM on the Clos: whole point", whole, "s")
    figure("h", "1024-rank OTF2 replay, GM on the Clos: peak RSS", rss, "MB")


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
    figure("d", "every scenario at its defaults, one after another", time.monotonic() - began,
           "s")


def one_point(scenario, out, label):
    """Part (e) for one program: each default point's whole-process wall time [s]; return the
    median wall and the points' rows (data.csv's text less its header)."""
    exe = os.path.join(SCENARIOS, scenario)
    import json

    points = json.loads(run([exe, "--list-points=1"]))["points"]
    walls = []
    rows = ""
    for p in points:
        began = time.monotonic()
        run([exe, f"--run-point={p['file']}", f"--point-out={out}/{scenario}-point.csv",
             f"--out={out}/{scenario}"])
        walls.append(time.monotonic() - began)
        with open(f"{out}/{scenario}-point.csv", encoding="utf-8") as f:
            rows += f.read()
        print(f"  {scenario:18s} {p['label']:40s} {walls[-1]:7.3f} s", flush=True)
    print(f"  {label}: median {statistics.median(walls):.3f} s, min {min(walls):.3f} s, "
          f"max {max(walls):.3f} s over {len(walls)} points", flush=True)
    figure("e", f"one {label}, whole process: median wall", statistics.median(walls), "s")
    return statistics.median(walls), rows


def floor(out):
    """Part (e), ns-3's floor: each Table 1 configuration's ping-pong once more through
    bench-gige-vs-p2p --workload=netpipe, which runs it through clusternet and through ns-3's
    PointToPointNetDevice with no host model (the same NetpipeApplication, TCP settings, MTU and
    socket buffer); return the point-to-point runs' median Simulator::Run() wall [s]."""
    import json

    exe = os.path.join(SCENARIOS, "gige-mtu-sweep")
    configs = [dict(kv.split("=") for kv in p["label"].split())
               for p in json.loads(run([exe, "--list-points=1"]))["points"]]
    print("  ns-3's floor: the same ping-pong through PointToPointNetDevice, no host model "
          "(bench-gige-vs-p2p --workload=netpipe; Simulator::Run() walls)", flush=True)
    print("  configuration                     clusternet_s   p2p_s  ratio  clusternet_frames"
          "  p2p_frames", flush=True)
    walls = {"clusternet": [], "p2p": []}
    for c in configs:
        args = ["--workload=netpipe", f"--nic={c['nic']}", f"--mtu={c['mtu']}",
                f"--sockbuf={c['sockbuf']}"]
        rows = {model: (float(f[5]), int(f[4]))
                for model, f in model_rows(args, f"{out}/floor").items()}
        for model in walls:
            walls[model].append(rows[model][0])
        label = f"{c['nic']} mtu={c['mtu']} sockbuf={c['sockbuf']}"
        print(f"  {label:32s}  {rows['clusternet'][0]:12.3f}  {rows['p2p'][0]:6.3f}  "
              f"{rows['clusternet'][0] / rows['p2p'][0]:5.2f}  {rows['clusternet'][1]:17d}  "
              f"{rows['p2p'][1]:10d}", flush=True)
    ours, theirs = (statistics.median(walls[m]) for m in ("clusternet", "p2p"))
    print(f"  median Simulator::Run() wall: clusternet {ours:.3f} s, point-to-point {theirs:.3f} s "
          f"(ratio {ours / theirs:.2f})", flush=True)
    figure("e", "Table 1 ping-pong, Simulator::Run() wall: clusternet / point-to-point",
           ours / theirs, "ratio")
    return theirs


def points(out):
    """Part (e): paper points, whole process each, and ns-3's floor for Table 1; return the
    Table 1 points' median wall, their rows and the floor's median wall."""
    print("(e) one point, whole process (as a worker runs it)", flush=True)
    wall, rows = one_point("gige-mtu-sweep", out, "seed 000 Table 1 NetPIPE configuration")
    one_point("myrinet-gm-allsize", out, "seed 001 GM allsize point")
    return wall, rows, floor(out)


SIMGRID_SOURCE = os.path.join(ROOT, "utils", "simgrid-netpipe.cc")
SIMGRID_PROGRAM = os.path.join(ROOT, "build", "utils", "simgrid-netpipe")
#: The link SimGrid's ping-pong runs over: the line rate, and a LAN link's latency (SimGrid's
#: LV08 model multiplies it by 13.01 and takes 97 % of the bandwidth).
SIMGRID_LINK = ("1Gbps", "50us")


def simgrid_program():
    """Build utils/simgrid-netpipe.cc when SimGrid is installed; return its path or None."""
    if subprocess.run(["pkg-config", "--exists", "simgrid"]).returncode != 0:
        return None
    if (not os.path.exists(SIMGRID_PROGRAM)
            or os.path.getmtime(SIMGRID_PROGRAM) < os.path.getmtime(SIMGRID_SOURCE)):
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "simgrid"],
                               capture_output=True, text=True, check=True).stdout.split()
        os.makedirs(os.path.dirname(SIMGRID_PROGRAM), exist_ok=True)
        run(["c++", "-O2", "-std=c++17", SIMGRID_SOURCE, "-o", SIMGRID_PROGRAM, *flags])
    return SIMGRID_PROGRAM


def median_error(scenario, frame):
    """The median |error| of a scenario's reference rows over ``frame`` (its data.csv)."""
    from analysis.summary import build_summary

    err = build_summary(scenario, frame)["rel_err"].abs()
    return float(err.median())


def simgrid(runs, table1, out):
    """Part (g): SimGrid's flow model on the same ping-pong."""
    import io

    import pandas as pd

    print("(g) SimGrid's flow model on the Table 1 ping-pong", flush=True)
    program = simgrid_program()
    if program is None:
        print("  SimGrid is not installed (Debian libsimgrid-dev): skipped", flush=True)
        return
    bandwidth, latency = SIMGRID_LINK
    wall, rows, p2p = table1
    ours = pd.read_csv(io.StringIO(
        "nic,host,pci,mtu,sockbuf,block_bytes,oneway_us,mbps,reps\n" + rows))
    first = ours.iloc[0]
    sizes = ours[(ours["nic"] == first["nic"]) & (ours["mtu"] == first["mtu"])
                 & (ours["sockbuf"] == first["sockbuf"])]["block_bytes"]
    walls = []
    for _ in range(runs):
        began = time.monotonic()
        text = run([program, f"--sizes={','.join(str(b) for b in sizes)}",
                    f"--bandwidth={bandwidth}", f"--latency={latency}"])
        walls.append(time.monotonic() - began)
    curve = pd.read_csv(io.StringIO("\n".join(l for l in text.splitlines()
                                              if not l.startswith("wall_"))))
    configs = ours[["nic", "host", "pci", "mtu", "sockbuf"]].drop_duplicates()
    theirs = pd.concat([curve.rename(columns={"msg_bytes": "block_bytes",
                                              "latency_us": "oneway_us"})
                        .assign(reps=1, **c) for c in configs.to_dict("records")],
                       ignore_index=True)[ours.columns]
    sg_wall = statistics.median(walls)
    print(f"  SimGrid 3.32 (link {bandwidth}, {latency}): whole process median {sg_wall:.3f} s "
          f"over {runs} runs; peak {curve['mbps'].max():.1f} Mbit/s for every configuration",
          flush=True)
    print(f"  clusternet: median {wall:.3f} s per configuration = {wall / sg_wall:.1f} x "
          f"SimGrid's wall", flush=True)
    figure("g", "Table 1 configuration, whole process: clusternet / SimGrid", wall / sg_wall,
           "ratio")
    print(f"  ns-3's floor (part e, point-to-point, no host model): median {p2p:.3f} s = "
          f"{p2p / sg_wall:.1f} x SimGrid's wall", flush=True)
    print(f"  median |error| against seed 000 Table 1 peaks: clusternet "
          f"{median_error('gige-mtu-sweep', ours):.1%}, SimGrid "
          f"{median_error('gige-mtu-sweep', theirs):.1%}", flush=True)


def reproduction(jobs, out):
    """Part (f): the whole default reproduction on one pool."""
    print(f"(f) ./ns3 reproduce --resume=0 --report=0 --jobs={jobs}", flush=True)
    proc = subprocess.run([sys.executable, "-m", "clusternet.reproduce", f"--jobs={jobs}",
                           "--resume=0", "--report=0", f"--out={out}/reproduce"], cwd=ROOT,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise BenchError(f"./ns3 reproduce failed: {proc.stderr.strip()[-800:]}")
    summary = [l for l in proc.stderr.splitlines() if l.startswith("reproduce: ")]
    for line in summary:
        print(f"  {line}", flush=True)
        m = re.search(r"reproduce: ([\d.]+) s wall, points' CPU ([\d.]+) s", line)
        if m:
            figure("f", f"./ns3 reproduce on {jobs} workers: wall", float(m.group(1)), "s")
            figure("f", "./ns3 reproduce: the points' CPU time", float(m.group(2)), "s")


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
                        help="which parts to run, comma-separated: a (with b), c, d, e, f, g, "
                             "h [a,c,d]")
    parser.add_argument("--replay-steps", default="10",
                        help="part (h)'s stencil steps [1-1000] [10]")
    parser.add_argument("--jobs", default="2", help="part (f)'s workers [1-256] [2]")
    parser.add_argument("--runs", default="3", help="runs of parts (a) and (g) [1-20] [3]")
    parser.add_argument("--bytes", default="100000000",
                        help="bytes of part (a)'s TCP transfer [bytes, 1000000-4000000000] "
                             "[100000000]")
    parser.add_argument("--out", default=os.path.join(ROOT, "results", "bench"),
                        help="where figures.csv goes [path] [results/bench]")
    parser.add_argument("--clos", default="128x65536,1024x4096",
                        help="part (c)'s sizes, HOSTSxMSG_BYTES, comma-separated "
                             "[128x65536,1024x4096]")
    args = parser.parse_args(argv)
    parts = [p for p in args.parts.split(",") if p]
    if not parts or any(p not in PARTS for p in parts):
        fail(f"--parts: '{args.parts}' is not a comma-separated list of a, c, d, e, f, g, h")
    if not args.replay_steps.isdigit() or not 1 <= int(args.replay_steps) <= 1000:
        fail(f"--replay-steps: '{args.replay_steps}' is not a whole number 1-1000")
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
            table1 = None
            if "e" in parts:
                table1 = points(out)
            if "g" in parts:
                if table1 is None:
                    table1 = points(out)
                simgrid(int(args.runs), table1, out)
            if "f" in parts:
                reproduction(int(args.jobs), out)
            if "h" in parts:
                replay1024(int(args.replay_steps), out)
        except BenchError as e:
            print(f"./ns3 bench: {e}", file=sys.stderr)
            return 1
    import pandas as pd
    from analysis.io import write_csv_atomic

    os.makedirs(args.out, exist_ok=True)
    path = write_csv_atomic(pd.DataFrame(FIGURES, columns=["part", "figure", "value", "unit"]),
                            os.path.join(args.out, "figures.csv"))
    print(f"./ns3 bench: the figures above in {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
