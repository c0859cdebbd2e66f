#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Rewrite the manual's generated table (each paper at the defaults) from a results folder.

    utils/doc-tables.py OUT [--check]

OUT holds ``<scenario>/data.csv`` for every scenario of reference/seeds.csv and of the papers'
statements, as ``./ns3 reproduce --out=OUT`` writes them (analysis.doctables). Without
``--check`` the block in contrib/clusternet/doc/clusternet.rst is replaced; with it nothing is
written and the exit status is 1 when the block differs.
"""

import argparse
import os
import sys

from analysis.doctables import BLOCK, doc_blocks, papers_block_text, replace_blocks
from analysis.reference import load_reference
from analysis.statements import STATEMENTS, STDOUT_PROGRAMS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "contrib", "clusternet", "doc", "clusternet.rst")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="results folder [path]")
    parser.add_argument("--check", action="store_true", help="compare only, write nothing")
    args = parser.parse_args(argv)
    needed = sorted(set(load_reference()["scenario"]) |
                    {n for s in STATEMENTS for n in s.scenarios})
    first = {n: "provenance.csv" if n in STDOUT_PROGRAMS else "data.csv" for n in needed}
    missing = [n for n in needed if not os.path.exists(os.path.join(args.out, n, first[n]))]
    if missing:
        print(f"doc-tables: {os.path.join(args.out, missing[0], first[missing[0]])} missing: "
              f"run ./ns3 reproduce --out={args.out}", file=sys.stderr)
        return 2
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    new = papers_block_text(args.out)
    if args.check:
        if doc_blocks(text).get(BLOCK) != new:
            print(f"doc-tables: block {BLOCK} is not today's", file=sys.stderr)
            return 1
        return 0
    with open(DOC, "w", encoding="utf-8") as f:
        f.write(replace_blocks(text, {BLOCK: new}))
    print(f"doc-tables: block {BLOCK} written")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
