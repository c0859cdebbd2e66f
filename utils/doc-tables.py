#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Rewrite the doc's generated reference-row tables from a results folder.

    utils/doc-tables.py OUT [--check]

OUT holds ``<scenario>/data.csv`` for the scenarios of analysis.doctables.BLOCKS (as
``utils/run-defaults.py OUT`` writes at the defaults). Without ``--check`` the blocks in
contrib/clusternet/doc/clusternet.rst are replaced; with it nothing is written and the exit
status is 1 when a block differs.
"""

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from analysis.doctables import BLOCKS, block_text, doc_blocks, replace_blocks  # noqa: E402

DOC = os.path.join(ROOT, "contrib", "clusternet", "doc", "clusternet.rst")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="results folder [path]")
    parser.add_argument("--check", action="store_true", help="compare only, write nothing")
    args = parser.parse_args(argv)
    for name, scenarios in BLOCKS.items():
        for scenario in scenarios:
            path = os.path.join(args.out, scenario, "data.csv")
            if not os.path.exists(path):
                print(f"doc-tables: {path} missing: run utils/run-defaults.py {args.out} "
                      f"--only {','.join(scenarios)}", file=sys.stderr)
                return 2
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    new = {name: block_text(name, args.out) for name in BLOCKS}
    old = doc_blocks(text)
    stale = [n for n in BLOCKS if old.get(n) != new[n]]
    if args.check:
        for n in stale:
            print(f"doc-tables: block {n} is not today's", file=sys.stderr)
        return 1 if stale else 0
    with open(DOC, "w", encoding="utf-8") as f:
        f.write(replace_blocks(text, new))
    print(f"doc-tables: {len(stale)} of {len(BLOCKS)} blocks rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
