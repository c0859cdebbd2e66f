# SPDX-License-Identifier: GPL-2.0-only
"""The reproduction as a web site: ``./ns3 report [options]``.

Writes ``RESULTS/report/index.html`` and the pages it links (:mod:`analysis.htmlreport`) from
the results folder ``./ns3 reproduce`` fills. A scenario of the reproduction whose
``data.csv`` (or, with reference rows, ``summary.csv``) is missing is run first, by
``./ns3 reproduce`` into the same folder: it reuses every point already there, so after a
whole reproduction this only writes the pages; the transfer table (``./ns3 transfer`` over
those results, into ``RESULTS/transfer``, some seconds) likewise. ``--run-missing=0`` writes the
pages from what is there and names what is not. The leave-one-paper-out table takes hours of
calibration (``./ns3 calibrate --all --hold-out=PAPER`` per paper, then ``--hold-out-table``):
without one in ``RESULTS/calibrate`` the pages show the table kept beside the module's manual
(``doc/figures/hold-out.csv``), and say so.
"""

import argparse
import sys
from pathlib import Path

from analysis.htmlreport import ReportInputError, write_report
from analysis.reference import load_reference
from analysis.statements import STDOUT_PROGRAMS

from clusternet import reproduce
from clusternet import sweep as sw

PROG = "./ns3 report"


def fail(msg, status=2):
    print(f"{PROG}: {msg}", file=sys.stderr)
    sys.exit(status)


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        fail(message)


def missing(results):
    """The reproduction's scenarios whose results are not in ``results``: no ``data.csv`` (a
    program that prints its result: no ``provenance.csv``), or reference rows but no
    ``summary.csv``."""
    with_rows = set(load_reference()["scenario"])
    out = []
    for name in reproduce.scenario_names():
        folder = Path(results) / name
        first = "provenance.csv" if name in STDOUT_PROGRAMS else "data.csv"
        if not (folder / first).is_file() or \
                (name in with_rows and not (folder / "summary.csv").is_file()):
            out.append(name)
    return out


def main(argv=None):
    parser = _Parser(prog=PROG, description=__doc__.splitlines()[0])
    parser.add_argument("--results", default=str(sw.ROOT / "results"),
                        help="the reproduction's folder of scenario folders [path] [results]")
    parser.add_argument("--out", default="",
                        help="where the site goes [path] [RESULTS/report]")
    parser.add_argument("--run-missing", type=int, choices=(0, 1), default=1,
                        help="run the scenarios whose results are missing first, by ./ns3 "
                             "reproduce into RESULTS [0/1] [1]")
    parser.add_argument("--jobs", type=int, default=2,
                        help="with --run-missing: local Dask workers [processes, 1..256] [2]")
    args = parser.parse_args(argv)
    if not 1 <= args.jobs <= 256:
        fail(f"--jobs: {args.jobs} is not from 1 to 256 [processes]")
    results = Path(args.results)
    if not results.is_dir() and not args.run_missing:
        fail(f"--results: {results}: no such results folder (run ./ns3 reproduce, or leave "
             "out --run-missing=0 to run it first)")
    out = Path(args.out) if args.out else results / "report"
    absent = missing(results) if results.is_dir() else reproduce.scenario_names()
    if absent and args.run_missing:
        print(f"{PROG}: running what is missing ({', '.join(absent)}) with ./ns3 reproduce "
              f"--out={results}", file=sys.stderr, flush=True)
        rc = reproduce.main([f"--out={results}", f"--jobs={args.jobs}", "--only=" +
                             ",".join(absent)])
        if rc:
            fail(f"./ns3 reproduce failed (status {rc}); the report is not written", rc)
        absent = missing(results)
    if absent:
        print(f"{PROG}: not in {results}, left out of the pages: {', '.join(absent)}",
              file=sys.stderr)
    elif args.run_missing and not (results / "transfer" / "transfer.csv").is_file():
        from clusternet import transfer

        print(f"{PROG}: the transfer table, with ./ns3 transfer --results={results}",
              file=sys.stderr, flush=True)
        rc = transfer.main([f"--results={results}", f"--out={results / 'transfer'}"])
        if rc:
            fail(f"./ns3 transfer failed (status {rc}); the report is not written", rc)
    try:
        write_report(results, out)
    except ReportInputError as exc:
        fail(str(exc))
    print(f"{PROG}: {out / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
