# SPDX-License-Identifier: GPL-2.0-only
"""The sweep driver: runs a scenario's points on dask.distributed, with provenance.

C++ simulates, Python orchestrates. A scenario program lists its points
(``--list-points=1``: data.csv's columns, each point's label and file name, the sweep options)
and simulates one point when asked (``--run-point=FILE --point-out=PATH``, FILE as the list names the point). This driver:

- asks the program for its points (the program has checked every option by then);
- refuses, in one line and before anything runs, an ``--out`` tree with a file where a
  folder belongs or a folder (or other non-regular file) where a result file belongs;
- reuses the points of ``--out`` that were computed with the same code, parameters and
  profiles (``--resume=1``, the default; ``--resume=0`` recomputes every point), and only
  those whose rows still match the digest their record holds: a point whose files are
  missing, damaged or another point's is computed again, with a line saying which and why;
- runs the others as independent processes on Dask workers: a ``LocalCluster`` of ``--jobs``
  single-threaded worker processes by default, or the cluster whose scheduler
  ``--scheduler=tcp://HOST:PORT`` (or ``$CLUSTERNET_SCHEDULER``) names. With one worker, or one
  point left to run, and no scheduler, the point runs straight from here (no cluster to start);
- writes each finished point atomically (``.points/<file>.csv`` and its provenance
  ``.points/<file>.json``), then ``data.csv`` (the points' rows in the program's order, so the
  bytes do not depend on the workers) and ``provenance.csv``; a point that fails is reported
  with its parameters and does not stop the others, and the exit status is the failing points'
  own when they agree on one from 3 to 125 (a deadlock's 3), else 1 (a one-point sweep prints
  no progress lines: its program's own output is the report);
- runs the report (``python -m analysis.report``) when every point succeeded.

A scenario program started without the driver's options hands its command line to this module
(``python -m clusternet.sweep --binary=PROGRAM -- ARGS``), so ``./ns3 run scenarios/X -- ARGS``
and ``build/scenarios/X ARGS`` both come here.
"""

import argparse
import hashlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCHEDULER_ENV = "CLUSTERNET_SCHEDULER"
# Options of the sweep itself: where and how the points run, not what they compute.
SWEEP_OPTIONS = ("jobs", "out", "resume", "report", "scheduler", "list-points", "run-point",
                 "point-out")
# A point whose process was killed by SIGKILL (kill -9, the OOM killer) runs again, this often;
# an abort or any other signal is the model's own failure and is reported.
KILLED_POINT_RETRIES = 1
# Environment a point's simulation may read (profile search path, ns-3 globals and logging).
POINT_ENV_PREFIXES = ("CLUSTERNET_", "NS_")
PROVENANCE_COLUMNS = ["point", "file", "key", "scenario", "args", "rng_run", "rng_seed",
                      "code_sha256", "profiles_sha256", "inputs_sha256", "rows_sha256",
                      "git_commit", "git_dirty", "ns3_version", "wall_s", "host",
                      "finished_utc", "parts"]


class SweepError(Exception):
    """A sweep that cannot start; the message names what to fix."""


class SchedulerLost(SweepError):
    """The Dask scheduler went away mid-sweep; the points finished so far are kept."""


#: How long a Dask scheduler has to accept a connection, shake hands and say who it is [s].
SCHEDULER_TIMEOUT = 20.0


def check_scheduler_address(address, source):
    """Refuse an address that is not ``tcp://HOST:PORT`` (the one protocol the driver speaks:
    ``tls://`` needs certificates it does not take); ``source`` names where it came from."""
    scheme, _, rest = address.partition("://")
    host, _, port = rest.rpartition(":")
    # One host: a name or IPv4 address, or an IPv6 address in brackets (no list, no spaces).
    one_host = re.fullmatch(r"[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\]", host)
    if scheme != "tcp" or not one_host or not port.isascii() or not port.isdigit() or \
            len(port) > 5 or not 0 < int(port) < 65536:
        raise SweepError(f"{source}: '{address}' is not a Dask scheduler address; allowed: "
                         "tcp://HOST:PORT (tls:// is not supported)")


def probe_scheduler(address, timeout=SCHEDULER_TIMEOUT):
    """Connect to ``address``, shake hands and ask its identity, all within ``timeout``
    seconds; :class:`SweepError` unless a Dask scheduler answers."""
    import asyncio

    from distributed.comm import connect

    async def identity():
        comm = await connect(address, timeout=timeout)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    try:
        answer = asyncio.run(asyncio.wait_for(identity(), timeout))
    except (TimeoutError, asyncio.TimeoutError):
        raise SweepError(f"--scheduler: {address} did not answer as a Dask scheduler within "
                         f"{timeout:g} s") from None
    except OSError as e:
        raise SweepError(f"--scheduler: cannot reach the Dask scheduler at {address} ({e}); "
                         f"start one with 'dask scheduler' and 'dask worker {address}'") from None
    except Exception as e:  # noqa: BLE001 - whatever a non-Dask endpoint makes the comm raise
        raise SweepError(f"--scheduler: {address} is not a Dask scheduler (its answer: "
                         f"{type(e).__name__})") from None
    if not isinstance(answer, dict) or answer.get("type") != "Scheduler":
        raise SweepError(f"--scheduler: {address} answers, but not as a Dask scheduler")


# ---------------------------------------------------------------------------------------------
# What a point is: its parameters, the code and the profiles that compute it.

def option_name(arg):
    """``--name=value`` -> ``name`` (None for anything else)."""
    if not arg.startswith("--"):
        return None
    return arg[2:].split("=", 1)[0]


def option_value(args, name, default=None):
    """The last value of ``--name=value`` in ``args``."""
    value = default
    for arg in args:
        if option_name(arg) == name and "=" in arg:
            value = arg.split("=", 1)[1]
    return value


def point_args(args):
    """``args`` without the sweep's own options: the parameters a point's result depends on."""
    return [a for a in args if option_name(a) not in SWEEP_OPTIONS]


def _sha256_files(paths):
    h = hashlib.sha256()
    for path in paths:
        h.update(str(path).encode() + b"\0")
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        h.update(b"\0")
    return h.hexdigest()


def code_files(binary):
    """The scenario program and the project's libraries beside it (build/lib)."""
    binary = Path(binary).resolve()
    lib = binary.parent.parent / "lib"
    libs = sorted(p for p in lib.glob("*.so*") if p.is_file()) if lib.is_dir() else []
    return [binary, *libs]


def profile_files(args):
    """The profile files a run reads: the catalogue and every ``--profile-file``."""
    from analysis import catalogue

    paths = list(catalogue.default_paths())
    for value in [a.split("=", 1)[1] for a in args
                  if option_name(a) == "profile-file" and "=" in a]:
        paths += [Path(p) for p in value.split(",") if p]
    # The program has read them all by now: a missing one was refused there.
    return [p.resolve() for p in catalogue._files(paths)]


def ns3_version():
    try:
        from importlib.metadata import version

        return version("ns3")
    except Exception:  # noqa: BLE001 - a build against another ns-3 has no wheel metadata
        return ""


def git_state(root=ROOT):
    """(commit, dirty) of the checkout, ("", "") outside git."""
    def git(*cmd):
        return subprocess.run(["git", "-C", str(root), *cmd], capture_output=True, text=True,
                              check=False)
    head = git("rev-parse", "HEAD")
    if head.returncode != 0:
        return "", ""
    status = git("status", "--porcelain", "--untracked-files=no")
    return head.stdout.strip(), "1" if status.stdout.strip() else "0"


def point_env():
    return {k: v for k, v in os.environ.items() if k.startswith(POINT_ENV_PREFIXES)
            and k not in (SCHEDULER_ENV, "CLUSTERNET_PYTHON", "CLUSTERNET_ROOT")}


def point_key(scenario, label, args, code_sha, profiles_sha, inputs_sha, env):
    """The identity of a point's result: equal keys give equal rows."""
    ident = {"scenario": scenario, "point": label, "args": point_args(args),
             "code": code_sha, "profiles": profiles_sha, "inputs": inputs_sha,
             "ns3": ns3_version(),
             "env": {k: env[k] for k in sorted(env) if k != "CLUSTERNET_PROFILE_PATH"}}
    return hashlib.sha256(json.dumps(ident, sort_keys=True).encode()).hexdigest()


# ---------------------------------------------------------------------------------------------
# One point, on whichever worker runs it.

def run_point(binary, args, file, env, cwd):
    """Simulate one point in its own process; return its rows and how it went.

    Runs on a Dask worker (or here): ``binary ARGS --run-point=FILE --point-out=TMP``, with
    the client's working directory and its clusternet/ns-3 environment. ``parts`` is what the
    program wrote to TMP.parts: the profiles the point was composed of, ``kind:name;...``.
    """
    started = time.monotonic()
    killed = []
    cpu = 0.0
    for _ in range(1 + KILLED_POINT_RETRIES):
        with tempfile.TemporaryDirectory(prefix="clusternet-point-") as tmp:
            out = os.path.join(tmp, "rows.csv")
            status, stdout, stderr, used = _run_measured(
                [str(binary), *args, f"--run-point={file}", f"--point-out={out}"],
                cwd, {**os.environ, **env})
            cpu += used
            rows = None
            parts = ""
            if status == 0 and os.path.exists(out):
                with open(out, encoding="utf-8", newline="") as f:
                    rows = f.read()
                if os.path.exists(out + ".parts"):
                    with open(out + ".parts", encoding="utf-8") as f:
                        parts = ";".join(line.strip() for line in f if line.strip())
        if status != -signal.SIGKILL:
            break
        killed.append(signal.SIGKILL)   # killed (kill -9, the OOM killer), not failed: again
    return {"status": status, "rows": rows, "parts": parts, "stdout": stdout, "stderr": stderr,
            "wall_s": time.monotonic() - started, "cpu_s": cpu,
            "host": socket.gethostname(), "killed": killed}


def _run_measured(cmd, cwd, env):
    """Run ``cmd``; return its status (as subprocess gives it), output, error output and the
    CPU seconds (user + system) of that process alone (``os.wait4``: exact even when several
    points run in one worker process)."""
    import threading

    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    texts = {}

    def drain(name, stream):
        texts[name] = stream.read()
        stream.close()

    readers = [threading.Thread(target=drain, args=(n, s))
               for n, s in (("out", proc.stdout), ("err", proc.stderr))]
    for r in readers:
        r.start()
    for r in readers:
        r.join()
    _, wstatus, usage = os.wait4(proc.pid, 0)
    status = os.waitstatus_to_exitcode(wstatus)
    proc.returncode = status   # reaped here: Popen must not wait for it again
    return status, texts["out"], texts["err"], usage.ru_utime + usage.ru_stime


# ---------------------------------------------------------------------------------------------
# The sweep.

def write_atomic(path, text):
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def open_client(scheduler, jobs):
    """``(cluster, client)`` for running points: a client of the Dask scheduler at
    ``scheduler`` (cluster None), or of a new LocalCluster of ``jobs`` single-threaded workers
    when ``scheduler`` is empty. Raises SweepError when the scheduler cannot be reached."""
    import logging

    from distributed import Client, LocalCluster, Worker

    if scheduler:
        probe_scheduler(scheduler)
        try:
            return None, Client(scheduler, timeout=f"{SCHEDULER_TIMEOUT:g}s")
        except (OSError, TimeoutError) as e:
            raise SweepError(f"--scheduler: cannot reach the Dask scheduler at {scheduler} "
                             f"({e}); start one with 'dask scheduler' and 'dask worker "
                             f"{scheduler}'") from None
    import dask

    # One point per worker at a time, the rest queued at the scheduler: a point is long and a
    # worker that holds two would make one wait behind the other.
    dask.config.set({"distributed.scheduler.worker-saturation": 1.0})
    # Workers in this process (a point is a process of its own: a worker only waits for it), so
    # a local sweep starts at once; on a real cluster the nannies restart a lost worker and the
    # scheduler runs its point again.
    cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                           worker_class=Worker, dashboard_address=None,
                           silence_logs=logging.ERROR)
    return cluster, Client(cluster)


class ProgramRefused(Exception):
    """The scenario program refused its command line (its one-line message, its status)."""

    def __init__(self, message, status):
        super().__init__(message)
        self.status = status


def list_points(binary, args):
    """Ask the program for its sweep (it checks every option first: a bad one exits 2)."""
    args = [a for a in args if option_name(a) != "list-points"]   # the driver's to give
    proc = subprocess.run([str(binary), *args, "--list-points=1"], capture_output=True,
                          text=True, check=False)
    if proc.returncode != 0:
        raise ProgramRefused(proc.stderr.strip(), proc.returncode)
    return json.loads(proc.stdout)


class Sweep:
    """One run of a scenario's sweep into its output folder."""

    def __init__(self, binary, args, client=None):
        self.binary = Path(binary).resolve()
        self.client = client
        self.args = list(args)
        plan = list_points(self.binary, self.args)
        self.scenario = plan["scenario"]
        self.columns = plan["columns"]
        self.points = plan["points"]
        opts = plan["options"]
        self.jobs = int(opts["jobs"])
        self.out = Path(opts["out"])
        # A program whose points write files of their own (a capture) has them rerun.
        self.resume = opts["resume"] in ("1", "true") and plan.get("reusable", True)
        self.report = opts["report"] in ("1", "true")   # "" for a program without a report
        self.scheduler = opts["scheduler"] or os.environ.get(SCHEDULER_ENV, "")
        if self.scheduler and self.client is None:
            check_scheduler_address(self.scheduler, "--scheduler" if opts["scheduler"]
                                    else f"${SCHEDULER_ENV}")
        self.env = point_env()
        self.code_sha = _sha256_files(code_files(self.binary))
        self.profiles_sha = _sha256_files(profile_files(self.args))
        # Files the points read besides the profiles (a trace), named by the program.
        self.inputs_sha = _sha256_files([Path(p).resolve() for p in plan.get("inputs", [])])
        self.commit, self.dirty = git_state()
        self.rng_run = option_value(self.args, "RngRun", "")
        self.rng_seed = option_value(self.args, "RngSeed", "")
        for name, default in (("RngRun", "1"), ("RngSeed", "1")):
            glob = [kv.split("=", 1)[1] for kv in self.env.get("NS_GLOBAL_VALUE", "").split(";")
                    if kv.startswith(name + "=")]
            attr = "rng_run" if name == "RngRun" else "rng_seed"
            if not getattr(self, attr):
                setattr(self, attr, glob[-1] if glob else default)
        self.check_out_tree()
        self.done = {}   # file -> provenance record of the finished points
        self.rows = {}   # file -> the verified rows of a finished point
        self.failed_status = set()
        self.t0 = time.monotonic()

    # Files of a point.
    def _csv(self, p):
        return self.out / ".points" / f"{p['file']}.csv"

    def _json(self, p):
        return self.out / ".points" / f"{p['file']}.json"

    def key(self, p):
        return point_key(self.scenario, p["label"], self.args, self.code_sha,
                         self.profiles_sha, self.inputs_sha, self.env)

    def check_out_tree(self):
        """Refuse an --out tree whose entries are of the wrong kind, before anything runs."""
        def kind(path, want_dir):
            if not os.path.lexists(path):
                return
            ok = path.is_dir() if want_dir else path.is_file()
            if not ok:
                what = "a folder" if want_dir else "a regular file"
                raise SweepError(f"--out: {path} is not {what}; move it away or choose another "
                                 "--out")

        kind(self.out, True)
        kind(self.out / ".points", True)
        for name in ("data.csv", "provenance.csv"):
            kind(self.out / name, False)
        for p in self.points:
            for path in (self._csv(p), self._json(p), self._stdout(p)):
                kind(path, False)

    def reusable(self, p):
        """``(record, rows, why_not)``: the point's record and rows when they can be reused;
        else ``why_not`` says what is wrong with files it left (None when there is nothing
        to reuse: never computed, computed with other code or parameters, or --resume=0)."""
        csv, record_file = self._csv(p), self._json(p)
        if not self.resume or not (csv.exists() or record_file.exists()):
            return None, None, None
        if not record_file.exists():
            return None, None, "its record (.json) is missing"
        try:
            record = json.loads(record_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None, None, "its record (.json) is unreadable"
        if not isinstance(record, dict) or not isinstance(record.get("key"), str):
            return None, None, "its record (.json) is not a point's record"
        lacking = [c for c in PROVENANCE_COLUMNS if not isinstance(record.get(c), str)]
        if lacking:
            return None, None, f"its record (.json) has no text for {lacking[0]}"
        if record.get("file") != p["file"] or record.get("point") != p["label"]:
            return None, None, "its record (.json) is another point's"
        if record["key"] != self.key(p):
            return None, None, None
        if not csv.exists():
            return None, None, "its rows (.csv) are missing"
        try:
            data = csv.read_bytes()
        except OSError:
            return None, None, "its rows (.csv) are unreadable"
        if "rows_sha256" not in record:
            return None, None, "its record holds no digest of its rows (an older run)"
        if record["rows_sha256"] != hashlib.sha256(data).hexdigest():
            return None, None, "its rows (.csv) do not match the digest in its record"
        try:
            return record, data.decode("utf-8"), None
        except UnicodeDecodeError:
            return None, None, "its rows (.csv) are not text"

    def record(self, p, result):
        rows_sha = hashlib.sha256(result["rows"].encode("utf-8")).hexdigest()
        return {"point": p["label"], "file": p["file"], "key": self.key(p),
                "scenario": self.scenario, "args": json.dumps(point_args(self.args)),
                "rng_run": self.rng_run, "rng_seed": self.rng_seed,
                "code_sha256": self.code_sha, "profiles_sha256": self.profiles_sha,
                "inputs_sha256": self.inputs_sha, "rows_sha256": rows_sha,
                "git_commit": self.commit, "git_dirty": self.dirty,
                "ns3_version": ns3_version(), "wall_s": f"{result['wall_s']:.3f}",
                "host": result["host"],
                "finished_utc": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                "parts": result.get("parts", "")}

    def write_results(self):
        """data.csv and provenance.csv of the finished points, in the program's order, from
        the rows verified or computed in this run."""
        text = ",".join(self.columns) + "\n"
        prov = [",".join(PROVENANCE_COLUMNS)]
        for p in self.points:
            if p["file"] in self.done:
                text += self.rows[p["file"]]
                rec = self.done[p["file"]]
                prov.append(",".join(_csv_cell(rec[c]) for c in PROVENANCE_COLUMNS))
        write_atomic(self.out / "data.csv", text)
        write_atomic(self.out / "provenance.csv", "\n".join(prov) + "\n")

    def progress(self, finished, p, what):
        el = time.monotonic() - self.t0
        total = len(self.points)
        width = len(str(total))
        line = f"[{finished:>{width}}/{total}] {p['label']:<44} {what}  (elapsed {el:.0f} s"
        if 0 < finished < total:
            line += f", ~{el / finished * (total - finished):.0f} s left"
        print(line + ")", file=sys.stderr, flush=True)

    def _stdout(self, p):
        return self.out / ".points" / f"{p['file']}.stdout"

    def finish_point(self, p, result):
        (self.out / ".points").mkdir(parents=True, exist_ok=True)   # first result: the folder
        write_atomic(self._stdout(p), result.get("stdout") or "")
        write_atomic(self._csv(p), result["rows"])
        rec = self.record(p, result)
        write_atomic(self._json(p), json.dumps(rec, indent=1) + "\n")
        self.done[p["file"]] = rec
        self.rows[p["file"]] = result["rows"]
        self.write_results()

    def run(self):
        """Run the sweep; return the number of points that failed."""
        finished = 0
        todo = []
        for p in self.points:
            rec, rows, why_not = self.reusable(p)
            if rec is None:
                if why_not:
                    print(f"{p['label']}: not reused: {why_not}; computing it again",
                          file=sys.stderr, flush=True)
                todo.append(p)
                continue
            self.done[p["file"]] = rec
            self.rows[p["file"]] = rows
            finished += 1
            self.write_results()
            if self._stdout(p).exists():   # what the point printed, as when it ran
                sys.stdout.write(self._stdout(p).read_text(encoding="utf-8", errors="replace"))
                sys.stdout.flush()
            self.progress(finished, p, "reused (same code, parameters and profiles)")
        if not todo and self.done:
            self.write_results()
        failed = 0
        total = len(self.points)
        for p, result in self._execute(todo):
            finished += 1
            sys.stdout.write(result.get("stdout") or "")
            sys.stdout.flush()
            for sig in result.get("killed", []):
                print(f"{p['label']}: its process was killed (signal {sig}); ran it again",
                      file=sys.stderr, flush=True)
            ok = result["status"] == 0 and result["rows"] is not None
            if ok:
                self.finish_point(p, result)
            sys.stderr.write(result.get("stderr") or "")   # as the program wrote it
            if ok:
                if total > 1:
                    self.progress(finished, p, f"done in {result['wall_s']:.1f} s")
                continue
            failed += 1
            self.failed_status.add(result["status"])
            if total > 1:
                self.progress(finished, p, f"FAILED (status {result['status']}): "
                              f"{self.scenario} {' '.join(point_args(self.args))} "
                              f"--run-point={p['file']}")
        if total > 1 or not failed:
            where = f" -> {self.out}/data.csv" if self.done else " (nothing written)"
            print(f"{self.scenario}: {total - failed} of {total} points in "
                  f"{time.monotonic() - self.t0:.0f} s{where}", file=sys.stderr, flush=True)
        return failed

    def exit_status(self):
        """0 when every point succeeded; else the failing points' own status when they all
        exited with the same one from 3 to 125 (3: an MPI deadlock), else 1."""
        if not self.failed_status:
            return 0
        if len(self.failed_status) == 1:
            status = next(iter(self.failed_status))
            if 3 <= status <= 125:
                return status
        return 1

    def _execute(self, todo):
        """Yield (point, result) as points finish."""
        if not todo:
            return
        args = point_args(self.args)
        cwd = os.getcwd()
        if self.client is None and not self.scheduler and (self.jobs == 1 or len(todo) == 1):
            for p in todo:
                yield p, run_point(self.binary, args, p["file"], self.env, cwd)
            return
        yield from self._execute_dask(todo, args, cwd)

    def _execute_dask(self, todo, args, cwd):
        import logging

        import cloudpickle
        from distributed import as_completed

        # Workers need not import this package: run_point travels by value.
        cloudpickle.register_pickle_by_value(sys.modules[__name__])
        cluster = None
        try:
            if self.client is not None:
                client = _Borrowed(self.client)
            else:
                cluster, client = open_client(self.scheduler, min(self.jobs, len(todo)))
            if self.scheduler and self.client is None:
                # A lost scheduler is reported in one line below, not by the client's reconnect
                # attempts.
                logging.getLogger("distributed.client").setLevel(logging.CRITICAL)
            reused = len(self.done)
            with client as client:
                futures = {}
                for p in todo:
                    fut = client.submit(run_point, self.binary, args, p["file"], self.env, cwd,
                                        key=f"{self.scenario}-{p['file']}-{self.key(p)[:16]}",
                                        pure=False, retries=0)
                    futures[fut] = p
                for fut in as_completed(futures):
                    p = futures[fut]
                    try:
                        result = fut.result()
                    except Exception as e:  # noqa: BLE001 - a lost worker fails the point only
                        if client.status != "running" or "scheduler-connection-lost" in str(e):
                            done = len(self.done) - reused
                            raise SchedulerLost(
                                f"lost the Dask scheduler at {self.scheduler or 'the client'} "
                                f"with {len(todo) - done} of {len(todo)} points to go; the "
                                f"{len(self.done)} finished are kept: rerun the same command to "
                                "resume") from None
                        result = {"status": -1, "rows": None, "stdout": "",
                                  "stderr": f"worker error: {type(e).__name__}: {e}",
                                  "wall_s": 0.0, "host": ""}
                    yield p, result
        finally:
            # Every result is in: what the comms say while the cluster shuts down (a
            # CommClosedError as workers and scheduler part) is not the user's concern.
            logging.getLogger("distributed").setLevel(logging.CRITICAL)
            if cluster is not None:
                cluster.close()
            cloudpickle.unregister_pickle_by_value(sys.modules[__name__])

    def run_report(self):
        """The Python report over data.csv; return its exit status."""
        cmd = [sys.executable, "-m", "analysis.report", self.scenario, "--results",
               str(self.out.resolve())]
        sys.stdout.flush()
        rc = subprocess.call(cmd, cwd=ROOT)
        if rc != 0:
            print(f"{self.scenario}: the report step failed; data.csv is complete. Run: "
                  f"cd {ROOT} && {' '.join(cmd)}", file=sys.stderr)
        return rc


class _Borrowed:
    """A client the caller owns: used in a ``with`` block without being closed."""

    def __init__(self, client):
        self.client = client

    def __enter__(self):
        return self.client

    def __exit__(self, *exc):
        return False


def _csv_cell(value):
    text = str(value)
    if any(ch in text for ch in ',"\n'):
        text = '"' + text.replace('"', '""') + '"'
    return text


# Command-line options that print something and exit: no sweep to run from Python.
PRINT_OPTIONS = ("help", "list-options", "PrintHelp", "PrintVersion", "PrintGlobals",
                 "PrintGroups", "PrintGroup", "PrintTypeIds", "PrintAttributes")
#: The longest ``--name=value`` one argument of a command line may be [bytes]: Linux's
#: MAX_ARG_STRLEN (32 pages) less the terminating NUL.
MAX_ARG_BYTES = 32 * 4096 - 1


_declared = {}   # (program, its mtime and size) -> its options


def list_options(binary):
    """The options a scenario program declares (``--list-options=1``), ``{name: option}``;
    asked once per build of the program."""
    stat = os.stat(binary)
    key = (str(binary), stat.st_mtime_ns, stat.st_size)
    if key not in _declared:
        proc = subprocess.run([str(binary), "--list-options=1"], capture_output=True, text=True,
                              check=False)
        if proc.returncode != 0:
            raise ProgramRefused(proc.stderr.strip(), proc.returncode)
        _declared[key] = {o["name"]: o for o in json.loads(proc.stdout)["options"]}
    return _declared[key]


def scenario_binary(scenario):
    """The built program of ``scenario``, a name of ``scenarios/*.cc``; ValueError for anything
    else (a path, a file of the build folder, not a str), NotBuiltError when not built."""
    from ._native import NotBuiltError, build_dir

    if not isinstance(scenario, str) or not scenario:
        raise ValueError(f"run: scenario must be a scenario's name (a str), not {scenario!r}")
    known = sorted(p.stem for p in (ROOT / "scenarios").glob("*.cc"))
    if scenario not in known:
        raise ValueError(f"run: unknown scenario {scenario!r}; known: {', '.join(known)}")
    binary = build_dir() / "scenarios" / scenario
    if not binary.is_file():
        raise NotBuiltError(f"clusternet: {binary} is not built; run ./ns3 build")
    return binary


def _is_option_name(name):
    """A keyword that can be an option: an ASCII letter, then letters, digits, _ and -."""
    return (name[:1].isascii() and name[:1].isalpha()
            and all(c.isascii() and (c.isalnum() or c in "_-") for c in name))


def _option_text(where, value, kind):
    """The command-line text of ``value`` for an option of ``kind`` (as the program declares
    it; None for one it does not declare, such as --RngRun): a list or tuple joined with commas,
    a dict ``key=value;...``, True/False 1/0 for a boolean option (elsewhere a bool stays the
    word ``True``, which the program refuses as on its command line), a path its text, anything
    else ``str(value)``. ValueError naming ``where`` (``PROGRAM: --option``) for what has no
    text: bytes, a list or set inside a list."""
    if isinstance(value, bool):
        return ("1" if value else "0") if kind == "bool" else str(value)
    if isinstance(value, (bytes, bytearray)):
        raise ValueError(f"{where}: {value!r} is bytes; give text (a str)")
    if isinstance(value, dict):
        return ";".join(f"{k}={_option_text(where, v, 'bool')}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        for member in value:
            if isinstance(member, (list, tuple, dict, set, frozenset)):
                raise ValueError(f"{where}: {member!r} inside the list; give a flat list of "
                                 "values")
        return ",".join(_option_text(where, v, kind) for v in value)
    if isinstance(value, os.PathLike):
        path = os.fspath(value)
        if isinstance(path, bytes):
            raise ValueError(f"{where}: {value!r} is a bytes path; give text (a str)")
        return path
    return str(value)


def _option_arg(scenario, name, value, declared):
    """``--name=TEXT`` for keyword ``name`` (``_`` for ``-``) of :func:`run`; ValueError,
    naming the option, for a value no command line can carry: a control character (a line
    break, a NUL), a lone surrogate, more than :data:`MAX_ARG_BYTES`."""
    flag = name.replace("_", "-")
    where = f"{scenario}: --{flag}"
    text = _option_text(where, value, declared.get(flag, {}).get("kind"))
    for ch in text:
        if ord(ch) < 32 or ord(ch) == 127 or 0xD800 <= ord(ch) <= 0xDFFF:
            raise ValueError(f"{where}: the value holds {ch!r}; control characters (a line "
                             "break, a NUL) and lone surrogates cannot be passed to a program")
    arg = f"--{flag}={text}"
    if len(arg.encode("utf-8")) > MAX_ARG_BYTES:
        raise ValueError(f"{where}: a value of {len(text.encode('utf-8'))} bytes is too long "
                         f"for a command line (at most {MAX_ARG_BYTES - len(flag) - 3})")
    return arg


def run(scenario, client=None, *, out=None, report=False, resume=True, jobs=None,
        scheduler=None, **params):
    """Run a scenario's sweep from Python; return its ``data.csv`` as a DataFrame.

    ``params`` are the scenario's own options (its ``--help``), ``_`` for ``-``, and ns-3's
    ``RngRun``/``RngSeed``: a list or tuple is joined with commas, True/False give 1/0 for a
    boolean option (for any other option a bool is refused, as the word would be on the command
    line), a dict (``set``) gives ``target.Attribute=value;...``, a path its text, anything
    else ``str(value)``; None leaves the option at the program's default. They are checked by
    the scenario program with the same rules and messages as on its command line, before
    anything runs; a refused value raises ``ValueError`` with that message
    (``PROGRAM: --option: ...``). So does a value no command line can carry (bytes, a nested
    list, a control character), an option that is not a scenario's parameter (the driver's own
    ``--run-point``, ``--point-out``, ``--list-points``; ``--list-options``, ``--help`` and
    ns-3's ``--Print*``, which print and exit), an unknown ``scenario`` or a ``client`` that is
    not one.

    The points run on ``client`` (a ``distributed.Client`` the caller owns) when given, else on
    ``scheduler`` (an address), else as the command line would (a LocalCluster of ``jobs``
    workers). Results go to ``out`` (a path; the program's default, ``results/<scenario>``, if
    None), with provenance; points already there with the same code, parameters and profiles
    are reused unless ``resume`` is False. ``report`` also writes the scenario's summary and
    plots. ``resume``, ``report``, ``jobs`` and ``scheduler`` take what their command-line
    options take (``--resume=0``: ``resume=False``, ``0`` or ``"0"``).

        >>> df = clusternet.run("gige-mtu-sweep", nic="sknet", mtu=[1500, 9000],
        ...                     sockbuf=131072, max_block=65536)
    """
    binary = scenario_binary(scenario)
    if client is not None and not callable(getattr(client, "submit", None)):
        raise ValueError(f"run: client must be a distributed.Client (or None), not "
                         f"{type(client).__name__}")
    for name in params:
        if not _is_option_name(name):
            raise ValueError(f"run: {name!r} is not an option name; give a scenario's option "
                             "(its --help) as a keyword, _ for -")
    internal = sorted(n for n in params if n.replace("_", "-") in SWEEP_OPTIONS)
    if internal:
        raise ValueError(f"run: {internal[0]} is the sweep driver's own option, not a "
                         "scenario's; its keyword arguments are out, report, resume, jobs and "
                         "scheduler")
    printing = sorted(n for n in params if n.replace("_", "-") in PRINT_OPTIONS)
    if printing:
        raise ValueError(f"run: {printing[0]} is a command-line option that prints and exits, "
                         "not a scenario's parameter; run the program with --"
                         f"{printing[0].replace('_', '-')} instead")
    if out is not None and (not isinstance(out, (str, os.PathLike))
                            or not isinstance(os.fspath(out), str)):
        raise ValueError(f"{scenario}: --out: give a folder's path (a str or os.PathLike), not "
                         f"{out!r}")
    try:
        declared = list_options(binary)
    except ProgramRefused as e:
        raise ValueError(str(e)) from None
    given = {**params, "resume": True if resume is None else resume,
             "report": (False if report is None else report) if "report" in declared else None,
             "out": out, "jobs": jobs, "scheduler": None if scheduler == "" else scheduler}
    args = [_option_arg(scenario, name, value, declared) for name, value in given.items()
            if value is not None]
    try:
        list_points(binary, args)   # the program checks every option, and writes nothing
        sweep = Sweep(binary, args, client=client)
    except ProgramRefused as e:
        raise ValueError(str(e)) from None
    except SweepError as e:
        raise ValueError(f"{scenario}: {e}") from None
    except OSError as e:   # the command line as a whole too long for the system
        raise ValueError(f"run: cannot start {scenario} ({e.strerror or e})") from None
    failed = sweep.run()
    if failed:
        raise RuntimeError(f"{scenario}: {failed} of {len(sweep.points)} points failed "
                           "(their messages are above)")
    # The report as the program's --report says (report="0" is no report); a program without
    # one runs the Python report when asked, as before.
    if (sweep.report if "report" in declared else report) and sweep.run_report() != 0:
        raise RuntimeError(f"{scenario}: the report step failed; data.csv is complete")
    from analysis.io import read_data

    return read_data(sweep.out / "data.csv")


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m clusternet.sweep",
        description="Run a scenario program's sweep on dask.distributed (the program's own "
                    "options follow --; see the program's --help).")
    parser.add_argument("--binary", required=True, help="the scenario program")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    ns = parser.parse_args(argv)
    args = ns.args[1:] if ns.args[:1] == ["--"] else ns.args
    if not ns.binary or not os.access(ns.binary, os.X_OK):
        print(f"clusternet.sweep: --binary: '{ns.binary}' is not an executable scenario program",
              file=sys.stderr)
        return 2
    try:
        sweep = Sweep(ns.binary, args)
        failed = sweep.run()
    except ProgramRefused as e:
        print(e, file=sys.stderr)
        return e.status
    except SweepError as e:
        print(f"{Path(ns.binary).name}: {e}", file=sys.stderr)
        return 1 if isinstance(e, SchedulerLost) else 2
    except KeyboardInterrupt:
        return 130
    if failed:
        return sweep.exit_status()
    if sweep.report:
        return 0 if sweep.run_report() == 0 else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
