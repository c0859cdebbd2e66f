# SPDX-License-Identifier: GPL-2.0-only
"""The whole reproduction on one pool: ``./ns3 reproduce [options]``.

Every scenario's default points (DEFAULT_ARGS says which programs, with which arguments) run
on one Dask pool, longest first, then every scenario's report:

- each scenario is a sweep of its own (``clusternet.sweep.Sweep``): its ``--out`` folder is
  ``OUT/<scenario>``, with the same provenance, resume rules and ``data.csv`` as
  ``./ns3 run scenarios/<scenario>`` writes there;
- the points of all the sweeps are submitted together, ordered by their expected wall time:
  the ``wall_s`` of the point's last record in ``OUT`` (kept even when the point is computed
  again), else ``point-walls.csv`` (the walls of a reference run shipped with the package),
  else the longest known. Longest first keeps two workers busy to the end instead of leaving
  one to finish a long point alone;
- one progress line per finished point for the whole run, and at the end the wall time next
  to the points' CPU time: their sum over the workers is the wall time perfect packing would
  give.

``--scheduler=tcp://HOST:PORT`` (or ``$CLUSTERNET_SCHEDULER``) runs the points on an existing
Dask cluster, as the sweep driver does.
"""

import argparse
import csv
import json
import logging
import os
import sys
import time
from pathlib import Path

from clusternet import sweep as sw

ROOT = sw.ROOT
SCENARIOS = ROOT / "build" / "scenarios"
#: The reference walls shipped with the package (``--save-walls`` rewrites it).
WALLS_FILE = Path(__file__).resolve().parent / "point-walls.csv"
#: Wall-clock benchmarks: their rows are timings, not results, and never reused.
BENCHMARKS = {"bench-gige-vs-p2p"}
#: Arguments a scenario's default run needs beyond its defaults (paths relative to the repo).
DEFAULT_ARGS = {"mpi-replay": ["--trace=scenarios/traces/pingpong-barrier.txt"]}


class ReproduceError(Exception):
    """The reproduction cannot start; the message names what to fix."""


def fail(msg, status=2):
    print(f"./ns3 reproduce: {msg}", file=sys.stderr)
    sys.exit(status)


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        fail(message)


def scenario_names():
    """The scenario programs of the reproduction, in name order."""
    names = sorted(f[:-3] for f in os.listdir(ROOT / "scenarios") if f.endswith(".cc"))
    return [n for n in names if n not in BENCHMARKS]


def default_args(name):
    """The command-line arguments of scenario ``name``'s default run (absolute paths)."""
    out = []
    for arg in DEFAULT_ARGS.get(name, []):
        opt, _, value = arg.partition("=")
        out.append(f"{opt}={ROOT / value}" if opt == "--trace" else arg)
    return out


def shipped_walls(path=WALLS_FILE):
    """``{(scenario, file): wall_s}`` of the reference run; empty when there is none."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            return {(r["scenario"], r["file"]): float(r["wall_s"]) for r in csv.DictReader(f)}
    except (OSError, KeyError, ValueError):
        return {}


def recorded_wall(sweep, point):
    """The wall time of the point's last record under the sweep's --out, or None."""
    try:
        rec = json.loads(sweep._json(point).read_text(encoding="utf-8"))
        return float(rec["wall_s"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def plan(sweeps, walls):
    """The points to compute, longest expected first: ``[(expected_s, sweep, point)]``."""
    todo = []
    for s in sweeps:
        for p in s.todo:
            known = recorded_wall(s, p)
            if known is None:
                known = walls.get((s.scenario, p["file"]))
            todo.append([known, s, p])
    longest = max((t[0] for t in todo if t[0] is not None), default=1.0)
    for t in todo:
        if t[0] is None:
            t[0] = longest
    # Stable: equal expectations keep the scenarios' and points' own order.
    return [tuple(t) for t in sorted(todo, key=lambda t: -t[0])]


class Reproduction:
    """Every scenario's default sweep into one folder, on one pool."""

    def __init__(self, out, jobs, scheduler, resume, report, only=()):
        self.out = Path(out)
        self.jobs = jobs
        self.scheduler = scheduler or os.environ.get(sw.SCHEDULER_ENV, "")
        if self.scheduler:
            sw.check_scheduler_address(self.scheduler, "--scheduler" if scheduler
                                       else f"${sw.SCHEDULER_ENV}")
        self.report = report
        names = scenario_names()
        unknown = [n for n in only if n not in names]
        if unknown:
            raise ReproduceError(f"--only: '{unknown[0]}' is not a scenario of the reproduction "
                                 f"({', '.join(names)})")
        self.names = [n for n in names if not only or n in only]
        self.sweeps = []
        for name in self.names:
            binary = SCENARIOS / name
            if not os.access(binary, os.X_OK):
                raise ReproduceError(f"{binary} is missing; run ./ns3 build")
            args = [*default_args(name), f"--out={self.out / name}",
                    f"--resume={1 if resume else 0}"]
            try:
                s = sw.Sweep(binary, args)
            except sw.ProgramRefused as e:
                raise ReproduceError(str(e)) from None
            s.todo = []
            self.sweeps.append(s)

    def reuse(self):
        """Take every point that can be reused; the others become each sweep's todo."""
        reused = 0
        for s in self.sweeps:
            for p in s.points:
                rec, rows, why_not = s.reusable(p)
                if rec is None:
                    if why_not:
                        print(f"{s.scenario}: {p['label']}: not reused: {why_not}; computing it "
                              "again", file=sys.stderr, flush=True)
                    s.todo.append(p)
                    continue
                s.done[p["file"]] = rec
                s.rows[p["file"]] = rows
                reused += 1
            if s.done:
                s.write_results()
        return reused

    def run(self, walls):
        """Run every point left; return (failed points, wall s, CPU s of the points run)."""
        import cloudpickle
        from distributed import as_completed

        todo = plan(self.sweeps, walls)
        total = len(todo)
        t0 = time.monotonic()
        failed = 0
        cpu = 0.0
        if not todo:
            return 0, 0.0, 0.0
        print(f"reproduce: {total} points of {len(self.sweeps)} scenarios on "
              f"{self.scheduler or f'{self.jobs} local workers'}, longest first "
              f"(expected CPU {sum(t[0] for t in todo):.0f} s)", file=sys.stderr, flush=True)
        cloudpickle.register_pickle_by_value(sys.modules[__name__])
        cloudpickle.register_pickle_by_value(sw)
        cluster = None
        cwd = os.getcwd()
        try:
            cluster, client = sw.open_client(self.scheduler, self.jobs)
            with client:
                # Longest first, as a list scheduler: each free worker thread takes the longest
                # point left (Dask's own queue would hand points to workers at submission).
                slots = max(1, sum(client.nthreads().values()))
                queue = list(todo)
                futures = {}
                left = sum(t[0] for t in todo)

                def submit_next():
                    expected, s, p = queue.pop(0)
                    fut = client.submit(sw.run_point, s.binary, sw.point_args(s.args),
                                        p["file"], s.env, cwd,
                                        key=f"{s.scenario}-{p['file']}-{s.key(p)[:16]}",
                                        pure=False, retries=0)
                    futures[fut] = (expected, s, p)
                    return fut

                pending = as_completed([submit_next() for _ in range(min(slots, len(queue)))])
                for finished, fut in enumerate(pending, start=1):
                    if queue:
                        pending.add(submit_next())
                    expected, s, p = futures.pop(fut)
                    left -= expected
                    try:
                        result = fut.result()
                    except Exception as e:  # noqa: BLE001 - a lost worker fails the point only
                        result = {"status": -1, "rows": None, "stderr":
                                  f"worker error: {type(e).__name__}: {e}\n", "wall_s": 0.0,
                                  "cpu_s": 0.0, "host": ""}
                    cpu += result.get("cpu_s", 0.0)
                    el = time.monotonic() - t0
                    ok = result["status"] == 0 and result["rows"] is not None
                    if ok:
                        s.finish_point(p, result)
                        what = f"done in {result['wall_s']:.1f} s"
                    else:
                        failed += 1
                        s.failed_status.add(result["status"])
                        sys.stderr.write(result.get("stderr") or "")
                        what = (f"FAILED (status {result['status']}): {s.scenario} "
                                f"{' '.join(sw.point_args(s.args))} --run-point={p['file']}")
                    eta = f", ~{max(left, 0.0) / slots:.0f} s left" if finished < total else ""
                    print(f"[{finished:>{len(str(total))}}/{total}] {s.scenario} {p['label']}: "
                          f"{what}  (elapsed {el:.0f} s{eta})", file=sys.stderr, flush=True)
        finally:
            logging.getLogger("distributed").setLevel(logging.CRITICAL)
            if cluster is not None:
                cluster.close()
            cloudpickle.unregister_pickle_by_value(sw)
            cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
        return failed, time.monotonic() - t0, cpu

    def reports(self):
        """Every scenario's report (those whose points all succeeded); return failures."""
        bad = 0
        for s in self.sweeps:
            if s.failed_status or not s.report:
                continue
            if s.run_report() != 0:
                bad += 1
        return bad

    def save_walls(self, path):
        """Write every point's recorded wall time as the shipped reference."""
        rows = []
        for s in self.sweeps:
            for p in s.points:
                wall = recorded_wall(s, p)
                if wall is not None:
                    rows.append((s.scenario, p["file"], f"{wall:.3f}"))
        sw.write_atomic(path, "scenario,file,wall_s\n" +
                        "".join(",".join(r) + "\n" for r in rows))


def main(argv=None):
    parser = _Parser(prog="./ns3 reproduce", description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "results"),
                        help="folder of the scenarios' folders [path] [results]")
    parser.add_argument("--jobs", type=int, default=2,
                        help="local Dask workers (points at once) [processes, 1..256] [2]")
    parser.add_argument("--scheduler", default="",
                        help="an existing Dask cluster's scheduler tcp://HOST:PORT (empty: "
                             f"${sw.SCHEDULER_ENV}, else --jobs local workers) [address]")
    parser.add_argument("--resume", type=int, choices=(0, 1), default=1,
                        help="reuse points computed with the same code, parameters and "
                             "profiles [0/1] [1]")
    parser.add_argument("--report", type=int, choices=(0, 1), default=1,
                        help="run every scenario's report at the end [0/1] [1]")
    parser.add_argument("--only", default="",
                        help="these scenarios only, comma-separated [names] [all]")
    parser.add_argument("--save-walls", type=int, choices=(0, 1), default=0,
                        help="afterwards, write the points' wall times as the shipped "
                             "reference that orders a first run [0/1] [0]")
    args = parser.parse_args(argv)
    if not 1 <= args.jobs <= 256:
        fail(f"--jobs: {args.jobs} is not from 1 to 256 [processes]")
    only = [n for n in args.only.split(",") if n]
    try:
        rep = Reproduction(args.out, args.jobs, args.scheduler, args.resume == 1,
                           args.report == 1, only)
        reused = rep.reuse()
        if reused:
            print(f"reproduce: {reused} points reused (same code, parameters and profiles)",
                  file=sys.stderr, flush=True)
        failed, wall, cpu = rep.run(shipped_walls())
    except (ReproduceError, sw.SweepError) as e:
        fail(str(e), 1 if isinstance(e, sw.SchedulerLost) else 2)
    except KeyboardInterrupt:
        return 130
    workers = args.jobs if not rep.scheduler else None
    line = f"reproduce: {wall:.1f} s wall, points' CPU {cpu:.1f} s"
    if workers:
        ideal = cpu / workers
        line += (f"; CPU / {workers} workers = {ideal:.1f} s, wall / that = "
                 f"{wall / ideal:.2f}" if ideal > 0 else "")
    print(line + f" -> {rep.out}", file=sys.stderr, flush=True)
    if args.save_walls:
        rep.save_walls(WALLS_FILE)
    bad = rep.reports() if args.report else 0
    if failed:
        print(f"reproduce: {failed} points failed (their messages are above)", file=sys.stderr)
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
