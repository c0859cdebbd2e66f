#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write the joint calibration's values into the profiles.

    utils/take-joint-values.py [OUT]        (default results/calibrate/all)

Reads OUT/values.csv, written by ``./ns3 calibrate --all --out=OUT``, and puts every value the
fit moved (``how`` = fitted) at every place it goes (``places``: ``profile:target.Attribute``)
into the profile files under contrib/clusternet/profiles/. Only the value's text changes, and a
time the note derives from it (a leading "N us on the HOST" of a cycle count) scaled with it;
the rest of the note is kept. Values kept at their sources (a hold-out run) are not written.
Prints one line per place changed; exits 2, writing nothing, if a place is not in the files.
"""

import argparse
import csv
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROFILES = os.path.join(ROOT, "contrib", "clusternet", "profiles")
# The value and the start of its note: Attr = ["value", """note or Attr = ["value", "note
ENTRY = re.compile(r'^(?P<attr>[A-Za-z0-9_]+) = \["(?P<value>[^"]*)", (?P<quote>"""|")'
                   r'(?P<us>\d+(?:\.\d+)?) us on the |'
                   r'^(?P<attr2>[A-Za-z0-9_]+) = \["(?P<value2>[^"]*)", ')
SECTION = re.compile(r"^\[(?P<name>[^\]]+)\]\s*$")


def plain_number(text):
    """``text`` as a number when it is one without a unit, else None."""
    try:
        return float(text)
    except ValueError:
        return None


def scaled_time(us_text, old, new):
    """The note's time in us scaled by new/old, with as many decimals as it had."""
    places = len(us_text.split(".")[1]) if "." in us_text else 0
    return f"{float(us_text) * new / old:.{places}f}"


def rewrite(lines, section, attribute, text):
    """Lines with ``[section]``'s ``attribute`` set to ``text``; (lines, old text) or None."""
    inside = False
    for n, line in enumerate(lines):
        m = SECTION.match(line)
        if m:
            inside = m["name"] == section
            continue
        if not inside:
            continue
        e = ENTRY.match(line)
        if not e or (e["attr"] or e["attr2"]) != attribute:
            continue
        old = e["value"] if e["attr"] else e["value2"]
        head = f'{attribute} = ["{text}", '
        if e["attr"]:
            a, b = plain_number(old), plain_number(text)
            us = scaled_time(e["us"], a, b) if a and b is not None else e["us"]
            line = head + e["quote"] + us + " us on the " + line[e.end():]
        else:
            line = head + line[e.end():]
        return lines[:n] + [line] + lines[n + 1:], old
    return None


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default=os.path.join(ROOT, "results", "calibrate",
                                                                "all"))
    args = parser.parse_args(argv)
    path = os.path.join(args.out, "values.csv")
    if not os.path.isfile(path):
        print(f"{path}: no such file: run ./ns3 calibrate --all --out={args.out} first",
              file=sys.stderr)
        return 2
    with open(path, encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        missing = {"places", "fitted", "how"} - set(reader.fieldnames or [])
        if missing:
            print(f"{path}: no column {', '.join(sorted(missing))}: not a values.csv of "
                  "./ns3 calibrate --all", file=sys.stderr)
            return 2
        values = [r for r in reader if r["how"] == "fitted"]
    files = {}
    for name in sorted(os.listdir(PROFILES)):
        if name.endswith(".toml"):
            with open(os.path.join(PROFILES, name), encoding="utf-8") as f:
                files[name] = f.read().split("\n")
    changed = []
    for row in values:
        for place in row["places"].split():
            profile, _, target_attr = place.partition(":")
            target, _, attribute = target_attr.rpartition(".")
            section = f"{profile}.{target}"
            for name, lines in files.items():
                done = rewrite(lines, section, attribute, row["fitted"])
                if done:
                    files[name], old = done
                    if old != row["fitted"]:
                        changed.append(name)
                        print(f"{name}: [{section}] {attribute} {old} -> {row['fitted']}")
                    break
            else:
                print(f"{path}: {place}: no [{section}] {attribute} in {PROFILES}/*.toml "
                      "(a value inherited from a base is written where the base has it)",
                      file=sys.stderr)
                return 2
    for name in sorted(set(changed)):
        with open(os.path.join(PROFILES, name), "w", encoding="utf-8") as f:
            f.write("\n".join(files[name]))
    print(f"{len(changed)} values changed in {len(set(changed))} files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
