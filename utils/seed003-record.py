#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write seed 003's blind record into the module doc (or print it).

    utils/seed003-record.py [--data DIR] [--print]

Scores the two blind rounds of ``reference/seed003-blind.csv`` and the current model's values
(``DIR/<scenario>.csv``, the ``data.csv`` of each of seed 003's three scenarios at its
defaults; DIR defaults to ``test/fixtures/seed003-baseline``) against ``reference/seeds.csv``
(:mod:`analysis.blind`) and replaces the part of ``contrib/clusternet/doc/clusternet.rst``
between the ``seed003-record`` markers with the tables; ``--print`` prints them instead.
After a model change: run the three scenarios, copy their ``data.csv`` into DIR, run this.
"""

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from analysis.blind import (SCENARIOS, blind_record, current_record, load_blind,
                            record_rst, replace_record)

DOC = os.path.join(ROOT, "contrib", "clusternet", "doc", "clusternet.rst")
DATA = os.path.join(ROOT, "test", "fixtures", "seed003-baseline")


def build(data_dir=DATA):
    """The record text from the blind table and ``data_dir``'s data."""
    data = {s: os.path.join(data_dir, f"{s}.csv") for s in SCENARIOS}
    return record_rst(blind_record(load_blind()), current_record(data))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=DATA)
    parser.add_argument("--print", action="store_true", dest="show")
    args = parser.parse_args(argv)
    record = build(args.data)
    if args.show:
        print(record)
        return 0
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    with open(DOC, "w", encoding="utf-8") as f:
        f.write(replace_record(text, record))
    print(f"wrote the seed 003 record into {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
