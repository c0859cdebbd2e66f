# SPDX-License-Identifier: GPL-2.0-only
"""How far a calibration carries, part by part: ``./ns3 transfer``.

A paper's setup is a composition of physical parts (``reference/compositions.toml``): a CPU and
its chipset, an operating system, a NIC's chip and its driver, a LANai board, a library. A part
that two or more papers have is one profile (and the profiles derived from it, each difference
sourced), its values fitted on some papers' rows. For each such part and each paper that has
it, this tabulates the errors of that paper's reference rows the part takes part in, and says
whether the part's values came from other papers only (*transfer*: the part calibrated on one
paper, used unchanged in another's setup with that paper's own other parts), from this paper
too (*calibrated here*) or from no paper's rows (*estimates*) (:mod:`analysis.parts`).

Every scenario with reference rows is run at its defaults (``--report=0``) into
``OUT/runs/<scenario>``, unless ``--results DIR`` names a folder that already holds their
``data.csv`` (``DIR/<scenario>/data.csv``, as ``utils/run-defaults.py`` writes); a scenario
missing there is run. Writes ``rows.csv`` (every reference row, its error and its parts),
``transfer.csv`` (the table) and ``transfer.png`` into ``--out`` (default
``results/transfer``) and prints the table.
"""

import argparse
import os
import subprocess
import sys
import time
import tomllib
from pathlib import Path

from analysis.catalogue import ProfileError, load_profiles

PROG = "./ns3 transfer"
ROOT = Path(__file__).resolve().parents[1]
COMPOSITIONS = ROOT / "reference" / "compositions.toml"


class TransferError(Exception):
    """A transfer table that cannot be made; the message says what to fix."""


def load_compositions(path=COMPOSITIONS):
    """``{paper: setup}`` of ``reference/compositions.toml``."""
    try:
        return tomllib.loads(Path(path).read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise TransferError(f"{path}: {exc}") from None


def scenario_data(scenarios, results, runs, build_dir, jobs, say=print):
    """``{scenario: data frame}``: each scenario's ``data.csv`` from ``results`` (a folder or
    None), else from a run at its defaults into ``runs``."""
    from analysis.io import read_data

    out = {}
    for k, name in enumerate(scenarios, 1):
        found = Path(results) / name / "data.csv" if results else None
        if found is not None and found.is_file():
            source = found
        else:
            exe = Path(build_dir) / "scenarios" / name
            if not exe.is_file():
                raise TransferError(f"scenario '{name}' is not built (run ./ns3 build)")
            began = time.monotonic()
            cmd = [str(exe), f"--out={Path(runs) / name}", "--report=0", f"--jobs={jobs}"]
            done = subprocess.run(cmd, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
                raise TransferError(f"{name} failed: {lines[-1] if lines else done.returncode}")
            say(f"[{k}/{len(scenarios)}] {name}: ran in {time.monotonic() - began:.0f} s")
            source = Path(runs) / name / "data.csv"
        try:
            out[name] = read_data(source)
        except Exception as exc:  # noqa: BLE001 - any unreadable file is one line
            raise TransferError(f"{source}: unreadable ({type(exc).__name__}: {exc})") from None
    return out


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        print(f"{PROG}: {message} (see --help)", file=sys.stderr)
        sys.exit(2)


def _jobs(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number >= 1") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be >= 1")
    return value


def _parser():
    p = _Parser(prog=PROG, description="How far a calibration carries: every physical part in "
                "two or more papers, judged on the reference rows of each paper that has it, "
                "and whether its values were fitted on that paper or carried over from another.")
    p.add_argument("--out", default=os.path.join("results", "transfer"),
                   help="output folder [path] (default %(default)s)")
    p.add_argument("--results", default=None,
                   help="folder holding each scenario's default results, DIR/<scenario>/data.csv "
                        "[path] (default: run every scenario into OUT/runs)")
    p.add_argument("--jobs", type=_jobs, default=os.cpu_count() or 2,
                   help="simulations run in parallel within a scenario [processes] "
                        "(default: the cores, %(default)s)")
    return p


def main(argv=None):
    from analysis.io import write_csv_atomic
    from analysis.parts import transfer_by_part
    from analysis.reference import load_reference
    from analysis.transfer import plot_transfer, reference_rows

    from ._native import build_dir

    args = _parser().parse_args(argv)
    if args.results is not None and not Path(args.results).is_dir():
        print(f"{PROG}: --results: {args.results} is not a folder", file=sys.stderr)
        return 2
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        print(f"{PROG}: --out: {out} is a file, not a folder", file=sys.stderr)
        return 2
    began = time.monotonic()
    try:
        profiles = load_profiles()
        compositions = load_compositions()
        ref = load_reference()
        scenarios = sorted(set(ref.scenario))
        data = scenario_data(scenarios, args.results, out / "runs", build_dir(), args.jobs,
                             say=lambda m: print(f"[transfer] {m}", file=sys.stderr,
                                                 flush=True))
        rows = reference_rows(profiles, compositions, data, ref)
    except (TransferError, ProfileError) as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    table = transfer_by_part(profiles, compositions, rows)
    out.mkdir(parents=True, exist_ok=True)
    shown_rows = rows.assign(parts=rows.parts.map(lambda s: " ".join(sorted(s))))
    write_csv_atomic(shown_rows, out / "rows.csv")
    write_csv_atomic(table, out / "transfer.csv")
    plot_transfer(table, out / "transfer.png")
    shown = table.copy()
    for c in ("median_abs_err", "max_abs_err"):
        shown[c] = (100 * shown[c]).map(lambda v: f"{v:.1f} %")
    print(shown.to_string(index=False))
    print(f"[transfer] {len(rows)} rows in {time.monotonic() - began:.0f} s -> {out}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
