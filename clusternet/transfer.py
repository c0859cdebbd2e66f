# SPDX-License-Identifier: GPL-2.0-only
"""How far a calibration carries across papers: ``./ns3 transfer``.

For each pair of :data:`PAIRS` (the same hardware or software in two seed papers), the other
paper's experiment runs twice: with its own profile (the *slot*), and with the profile
calibrated on the first paper (the *source*) in its place, unchanged: a NIC pair replaces the
slot's whole profile by the source's (its bases resolved); an MPI pair replaces the slot's
``mpi`` table (the library's costs and protocol) and keeps the rest of the slot (its
shared-memory device and transport, which the source's library does not have). Both runs are evaluated on the other paper's reference rows of that slot
(``reference/seeds.csv``, as ``summary.csv`` evaluates them), and
:func:`analysis.transfer.transfer_table` tabulates the errors.

Writes ``rows.csv`` (every row, both runs), ``transfer.csv`` (the table) and ``transfer.png``
into ``--out`` (default ``results/transfer``) and prints the table.
"""

import argparse
import copy
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from .catalogue import PROFILE_PATH_ENV, ProfileError, load_profiles, load_tables

PROG = "./ns3 transfer"


@dataclass(frozen=True)
class Pair:
    """``source`` (calibrated on ``source_paper``) used in place of ``slot`` in ``runs``."""

    name: str
    source: str
    source_paper: str
    slot: str
    slot_paper: str
    runs: tuple        # (scenario, (arg, ...)) of the slot paper's experiment
    rows: dict         # config key -> value that selects the slot's reference rows
    targets: tuple = ()  # the tables that carry over; () = the whole profile

    @property
    def label(self):
        return f"{self.name}: {self.source} ({self.source_paper}) -> {self.slot} ({self.slot_paper})"


PAIRS = [
    Pair("Tigon 2", "acenic", "000", "ga620", "002",
         (("nt-pingpong", ("--config=mpipro:nt4:ga620,winsock:nt4:ga620",)),), {"net": "ga620"}),
    Pair("Tigon 2", "ga620", "002", "acenic", "000",
         (("gige-tcp-netpipe", ("--cases=acenic@1500,acenic@9000",)),
          ("gige-mtu-sweep", ("--nic=acenic",))), {"nic": "acenic"}),
    Pair("GNIC-II", "gnic2", "000", "gnic2-nt", "002",
         (("nt-pingpong", ("--config=mpipro:nt4:gnic2,winsock:nt4:gnic2",)),), {"net": "gnic2"}),
    Pair("GNIC-II", "gnic2-nt", "002", "gnic2", "000",
         (("gige-tcp-netpipe", ("--cases=gnic2@1500",)),), {"nic": "gnic2"}),
    Pair("SysKonnect", "sknet", "000", "sk9841", "002",
         (("nt-pingpong", ("--config=mpipro:nt4:sk9841,winsock:nt4:sk9841",)),),
         {"net": "sk9841"}),
    Pair("SysKonnect", "sk9841", "002", "sknet", "000",
         (("gige-tcp-netpipe", ("--cases=sknet@1500,sknet@9000",)),
          ("gige-mtu-sweep", ("--nic=sknet",))), {"nic": "sknet"}),
    Pair("MPICH p4", "mpich", "000", "wmpi", "002",
         (("nt-pingpong", ("--config=wmpi:nt4:fe100,wmpi:nt4:shm",)),), {"stack": "wmpi"}, ("mpi",)),
    Pair("MPICH p4", "mpich", "000", "patent", "002",
         (("nt-pingpong", ("--config=patent:nt4:shm,patent:nt5:shm",)),), {"stack": "patent"}, ("mpi",)),
    Pair("MPICH p4", "wmpi", "002", "mpich", "000",
         (("gige-mpi-netpipe", ("--stack=mpich", "--cases=gnic2@1500,acenic@1500,sknet@1500")),),
         {"stack": "mpich"}, ("mpi",)),
]
# Pairs the issue names that are not run here: seed 003's rows (released after its blind
# prediction) compare whole setups (gaps, saturations of the LANai 7.2 against GigE) through
# analysis.predictions, which transfer's evaluate() does not read yet; seed 004 runs FM, not GM.
NOT_MEASURABLE = [
    ("LANai 9 -> LANai 7.2", "seed 003's rows compare whole setups; not wired into transfer"),
    ("GM 1.5 (001) -> GM on seed 003's cluster",
     "seed 003's rows compare whole setups; not wired into transfer"),
]


class TransferError(Exception):
    """A transfer that cannot run; the message says what to fix."""


def overlay(tables, profiles, pair):
    """The catalogue ``tables`` with ``pair.source`` in ``pair.slot``'s place: the whole profile
    (its bases resolved), or only the tables ``pair.targets`` names."""
    src, slot = profiles[pair.source], profiles[pair.slot]
    if src.kind != slot.kind:
        raise TransferError(f"{pair.label}: {pair.source} is a {src.kind} profile, {pair.slot} "
                            f"a {slot.kind} profile")
    out = copy.deepcopy(tables)
    if pair.targets:
        table = out[pair.slot]
        for target in pair.targets:
            table[target] = {}
    else:
        table = {"kind": slot.kind,
                 "description": f"{pair.source}'s values in {pair.slot}'s place (transfer)"}
        out[pair.slot] = table
    for (target, attribute), (value, source) in src.values.items():
        if not pair.targets or target in pair.targets:
            table.setdefault(target, {})[attribute] = [value, f"from {pair.source}: {source}"]
    return out


def rows_of(pair, ref):
    """The slot paper's reference rows of ``pair``'s slot, for its runs' scenarios."""
    from analysis.reference import parse_config

    scen = {s for s, _ in pair.runs}
    mine = ref[(ref.paper == pair.slot_paper) & ref.scenario.isin(scen)]
    keep = [all(str(parse_config(c).get(k)) == v for k, v in pair.rows.items())
            for c in mine.config]
    return mine[keep]


def run_scenario(build_dir, scenario, args, catalogue_file, workdir, tag, jobs):
    """Run one scenario (on ``catalogue_file`` if given); return its data frame."""
    from analysis.io import read_data

    exe = Path(build_dir) / "scenarios" / scenario
    if not exe.is_file():
        raise TransferError(f"scenario '{scenario}' is not built (run ./ns3 build)")
    out = Path(workdir) / tag
    env = dict(os.environ)
    if catalogue_file:
        env[PROFILE_PATH_ENV] = str(catalogue_file)
    cmd = [str(exe), *args, f"--out={out}", "--report=0", f"--jobs={jobs}"]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
        raise TransferError(f"{scenario} {' '.join(args)} failed: "
                            f"{lines[-1] if lines else done.returncode}")
    return read_data(out / "data.csv")


def transfer_rows(pairs, build_dir, jobs=2, say=print):
    """Run every pair (the native runs shared); return the rows frame of
    :mod:`analysis.transfer`."""
    import tomli_w
    from analysis.reference import load_reference
    from analysis.summary import evaluate

    try:
        profiles = load_profiles()
        tables = load_tables()
    except ProfileError as exc:
        raise TransferError(str(exc)) from None
    ref = load_reference()
    native = {}
    records = []
    with tempfile.TemporaryDirectory(prefix="clusternet-transfer-") as work:
        for k, pair in enumerate(pairs, 1):
            say(f"[{k}/{len(pairs)}] {pair.label}")
            cat_file = Path(work) / f"catalogue{k}.toml"
            cat_file.write_text(tomli_w.dumps(overlay(tables, profiles, pair)))
            mine = rows_of(pair, ref)
            for scenario, args in pair.runs:
                key = (scenario, args)
                if key not in native:
                    native[key] = run_scenario(build_dir, scenario, args, None, work,
                                               f"native{len(native)}", jobs)
                moved = run_scenario(build_dir, scenario, args, cat_file, work,
                                     f"pair{k}-{scenario}", jobs)
                for r in mine[mine.scenario == scenario].itertuples(index=False):
                    records.append({
                        "pair": pair.name, "source": f"{pair.source} ({pair.source_paper})",
                        "slot": f"{pair.slot} ({pair.slot_paper})", "scenario": scenario,
                        "config": r.config, "metric": r.metric, "ref_value": r.value,
                        "native": evaluate(native[key], r.config, r.metric),
                        "transferred": evaluate(moved, r.config, r.metric)})
    return pd.DataFrame(records)


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        print(f"{PROG}: {message} (see --help)", file=sys.stderr)
        sys.exit(2)


def _parser():
    p = _Parser(prog=PROG, description="How far a calibration carries: a profile calibrated on "
                "one paper, used unchanged in another paper's experiment, against that paper's "
                "reference rows.")
    p.add_argument("--out", default=os.path.join("results", "transfer"),
                   help="output folder [path] (default %(default)s)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 2,
                   help="simulations run in parallel within a scenario [processes] "
                        "(default: the cores, %(default)s)")
    p.add_argument("--only", default="",
                   help="pairs whose name contains this text, e.g. 'Tigon' [text] (default all)")
    return p


def main(argv=None):
    from analysis.io import write_csv_atomic
    from analysis.transfer import plot_transfer, transfer_table

    from ._native import build_dir

    args = _parser().parse_args(argv)
    if args.jobs < 1:
        print(f"{PROG}: --jobs: {args.jobs} must be >= 1", file=sys.stderr)
        return 2
    pairs = [p for p in PAIRS if args.only.lower() in p.name.lower()]
    if not pairs:
        print(f"{PROG}: --only: no pair matches '{args.only}' (pairs: "
              f"{', '.join(sorted({p.name for p in PAIRS}))})", file=sys.stderr)
        return 2
    began = time.monotonic()
    try:
        rows = transfer_rows(pairs, build_dir(), jobs=args.jobs,
                             say=lambda m: print(f"[transfer] {m}", file=sys.stderr, flush=True))
    except TransferError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    table = transfer_table(rows)
    write_csv_atomic(rows, out / "rows.csv")
    write_csv_atomic(table, out / "transfer.csv")
    plot_transfer(table, out / "transfer.png")
    shown = table.copy()
    for c in ("native_median_err", "transferred_median_err", "transferred_max_err"):
        shown[c] = (100 * shown[c]).map(lambda v: f"{v:.1f} %")
    print(shown.to_string(index=False))
    for name, why in NOT_MEASURABLE:
        print(f"not measurable: {name}: {why}")
    print(f"[transfer] {len(rows)} rows in {time.monotonic() - began:.0f} s -> {out}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
