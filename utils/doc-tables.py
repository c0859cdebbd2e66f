#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Rewrite the doc's generated reference-row tables from a results folder.

    utils/doc-tables.py OUT [--check]

OUT holds ``<scenario>/data.csv`` for every scenario of reference/seeds.csv (as
``utils/run-defaults.py OUT`` writes at the defaults): the blocks of analysis.doctables.BLOCKS
and the list of rows beyond the error limit (OUTLIER_BLOCK). Without ``--check`` the blocks in
contrib/clusternet/doc/clusternet.rst are replaced; with it nothing is written and the exit
status is 1 when a block differs.
"""

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from analysis.doctables import (BLOCKS, OUTLIER_BLOCK, block_text, doc_blocks,
                                outlier_block_text, replace_blocks)
from analysis.reference import load_reference

DOC = os.path.join(ROOT, "contrib", "clusternet", "doc", "clusternet.rst")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="results folder [path]")
    parser.add_argument("--check", action="store_true", help="compare only, write nothing")
    args = parser.parse_args(argv)
    ref = load_reference()
    needed = sorted({s for names in BLOCKS.values() for s in names} | set(ref["scenario"]))
    missing = [s for s in needed if not os.path.exists(os.path.join(args.out, s, "data.csv"))]
    if missing:
        print(f"doc-tables: {os.path.join(args.out, missing[0], 'data.csv')} missing: run "
              f"utils/run-defaults.py {args.out} --only {','.join(missing)}", file=sys.stderr)
        return 2
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    new = {name: block_text(name, args.out, ref) for name in BLOCKS}
    new[OUTLIER_BLOCK] = outlier_block_text(args.out, ref)
    old = doc_blocks(text)
    stale = [n for n in new if old.get(n) != new[n]]
    if args.check:
        for n in stale:
            print(f"doc-tables: block {n} is not today's", file=sys.stderr)
        return 1 if stale else 0
    with open(DOC, "w", encoding="utf-8") as f:
        f.write(replace_blocks(text, new))
    print(f"doc-tables: {len(stale)} of {len(new)} blocks rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
