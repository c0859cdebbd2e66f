# SPDX-License-Identifier: GPL-2.0-only
"""The damaged --out battery (issue 44): every way a finished sweep's output folder can be
damaged, derived from the files a sweep leaves, checked against the resume contract.

A sweep of three points (a stand-in program, twelve rows each) is run once; each case copies its
folder, damages one thing and asks the driver what it would do with it:

- the damaged point is not reused, with a reason (``Sweep.reusable`` gives ``why_not``), and
  the undamaged ones are reused -- or, for an entry of the wrong kind (a folder, a FIFO, a
  dangling link where a file belongs), the sweep is refused in one line naming it before
  anything runs (``SweepError``, exit 2);
- never an exception, and ``data.csv`` is only ever assembled from verified rows.

Cases come from each file's bytes (truncated and flipped at several places, lines added,
removed, repeated and reordered, other encodings), each record field (removed, retyped,
another point's value), each entry's kind, and swaps between points. A sample goes through the
whole driver: the folder ends byte-identical to an undisturbed run."""

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
from clusternet import sweep as sweep_module

PY = sys.executable
POINTS = ["a", "b", "c"]
ROWS = 12

FAKE = textwrap.dedent('''\
    #!{py}
    # Stand-in scenario: points a, b, c of {rows} rows each.
    import json, sys
    opts = dict(jobs="1", out="results/fake", resume="1", report="0", scheduler="")
    opts.update({{"list-points": "0", "run-point": "", "point-out": ""}})
    for arg in sys.argv[1:]:
        name, _, value = arg[2:].partition("=")
        if name not in opts:
            print(f"fake: unknown option --{{name}}", file=sys.stderr)
            sys.exit(2)
        opts[name] = value
    if opts["list-points"] == "1":
        print(json.dumps(dict(scenario="fake", columns=["point", "i", "value"],
                              options={{k: opts[k] for k in
                                       ("jobs", "out", "resume", "report", "scheduler")}},
                              points=[dict(label="point " + p, file=p) for p in {points!r}])))
        sys.exit(0)
    p = opts["run-point"]
    with open(opts["point-out"], "w") as f:
        for i in range({rows}):
            f.write(f"{{p}},{{i}},{{(ord(p) * 7919 + i * 104729) % 100003 / 7:.4f}}\\n")
    print("simulated " + p)
''')


def drive(binary, out):
    env = dict(os.environ)
    return subprocess.run([PY, "-m", "clusternet.sweep", f"--binary={binary}", "--",
                           f"--out={out}", "--jobs=1"], capture_output=True, text=True,
                          env=env, timeout=300)


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """(fake program, a finished output folder, its data.csv bytes)."""
    base = tmp_path_factory.mktemp("out-tree")
    binary = base / "fake"
    binary.write_text(FAKE.format(py=PY, rows=ROWS, points=POINTS))
    binary.chmod(0o755)
    out = base / "good"
    proc = drive(binary, out)
    assert proc.returncode == 0, proc.stderr
    return binary, out, (out / "data.csv").read_bytes()


# --- the damages ------------------------------------------------------------------------------

def _rewrite(path, change):
    path.write_bytes(change(path.read_bytes()))


def _lines(change):
    def apply(data):
        lines = data.decode().splitlines(keepends=True)
        return "".join(change(lines)).encode()
    return apply


def _flip(at):
    def apply(data):
        i = int(len(data) * at)
        return data[:i] + bytes([data[i] ^ 0x20]) + data[i + 1:]
    return apply


def _swap(a, b):
    ta, tb = a.read_bytes(), b.read_bytes()
    a.write_bytes(tb)
    b.write_bytes(ta)


def _replace_by_dir(path):
    path.unlink()
    path.mkdir()


def _replace_by_fifo(path):
    path.unlink()
    os.mkfifo(path)


def _replace_by_link(path, target):
    path.unlink()
    path.symlink_to(target)


BYTE_DAMAGES = {
    "truncated to 0": lambda d: b"",
    "truncated to 1": lambda d: d[:1],
    "truncated to half": lambda d: d[:len(d) // 2],
    "last byte cut": lambda d: d[:-1],
    "flipped at start": _flip(0.0),
    "flipped in the middle": _flip(0.5),
    "flipped near the end": _flip(0.97),
    "NUL bytes": lambda d: b"\x00" * len(d),
    "not UTF-8": lambda d: b"\xff\xfe" + d,
    "UTF-16": lambda d: d.decode().encode("utf-16"),
    "CRLF": lambda d: d.replace(b"\n", b"\r\n"),
    "a newline appended": lambda d: d + b"\n",
    "a space appended": lambda d: d + b" ",
}
CSV_LINE_DAMAGES = {
    "a row appended": _lines(lambda ls: ls + [ls[-1]]),
    "a row prepended": _lines(lambda ls: [ls[0]] + ls),
    "a row removed": _lines(lambda ls: ls[:3] + ls[4:]),
    "two rows reordered": _lines(lambda ls: [ls[1], ls[0]] + ls[2:]),
    "a header added": _lines(lambda ls: ["point,i,value\n"] + ls),
    "one value edited": _lines(lambda ls: ls[:5] + [ls[5].replace(",5,", ",6,")] + ls[6:]),
}

# What a case expects: ("why", point) -- that point is not reused, with a reason, the others
# are; ("refused", name) -- the sweep is refused before anything runs, naming it;
# ("reused",) -- nothing that matters was damaged.
CASES = {}


def case(name, expect):
    def register(damage):
        CASES[name] = (damage, expect)
        return damage
    return register


for point in POINTS:
    for what, change in {**BYTE_DAMAGES, **CSV_LINE_DAMAGES}.items():
        CASES[f"{point}.csv {what}"] = (
            (lambda c, p: lambda pts: _rewrite(pts / f"{p}.csv", c))(change, point), ("why", point))
    CASES[f"{point}.csv missing"] = ((lambda p: lambda pts: (pts / f"{p}.csv").unlink())(point),
                                     ("why", point))
    CASES[f"{point}.csv a folder"] = ((lambda p: lambda pts: _replace_by_dir(pts / f"{p}.csv"))(
        point), ("refused", f"{point}.csv"))
    CASES[f"{point}.csv a FIFO"] = ((lambda p: lambda pts: _replace_by_fifo(pts / f"{p}.csv"))(
        point), ("refused", f"{point}.csv"))
    CASES[f"{point}.csv a dangling link"] = (
        (lambda p: lambda pts: _replace_by_link(pts / f"{p}.csv", pts / "nowhere"))(point),
        ("refused", f"{point}.csv"))
    other = POINTS[(POINTS.index(point) + 1) % len(POINTS)]
    CASES[f"{point}.csv a link to {other}.csv"] = (
        (lambda p, o: lambda pts: _replace_by_link(pts / f"{p}.csv", pts / f"{o}.csv"))(
            point, other), ("why", point))
    CASES[f"{point}.csv a link to a folder"] = (
        (lambda p: lambda pts: _replace_by_link(pts / f"{p}.csv", pts.parent))(point),
        ("refused", f"{point}.csv"))

    # the record: the file as a whole
    for what, change in BYTE_DAMAGES.items():
        if what in ("CRLF", "a newline appended", "a space appended", "last byte cut"):
            continue   # still the same JSON (its final newline is not part of it): reused
        CASES[f"{point}.json {what}"] = (
            (lambda c, p: lambda pts: _rewrite(pts / f"{p}.json", c))(change, point),
            ("why", point))
    for what, text in {"[]": "[]", "null": "null", "{}": "{}", "a number": "1",
                       "a string": '"x"', "not JSON": "point a\n"}.items():
        CASES[f"{point}.json {what}"] = (
            (lambda t, p: lambda pts: (pts / f"{p}.json").write_text(t))(text, point),
            ("why", point))
    CASES[f"{point}.json missing"] = (
        (lambda p: lambda pts: (pts / f"{p}.json").unlink())(point), ("why", point))
    CASES[f"{point}.json a folder"] = (
        (lambda p: lambda pts: _replace_by_dir(pts / f"{p}.json"))(point),
        ("refused", f"{point}.json"))
    CASES[f"{point}.json a FIFO"] = (
        (lambda p: lambda pts: _replace_by_fifo(pts / f"{p}.json"))(point),
        ("refused", f"{point}.json"))
    CASES[f"{point}.stdout a folder"] = (
        (lambda p: lambda pts: _replace_by_dir(pts / f"{p}.stdout"))(point),
        ("refused", f"{point}.stdout"))

    # the record: each field
    for field in sweep_module.PROVENANCE_COLUMNS:
        for what, value in {"removed": KeyError, "null": None, "a number": 1, "a list": [],
                            "an object": {}, "true": True}.items():
            def damage(pts, p=point, f=field, v=value):
                path = pts / f"{p}.json"
                rec = json.loads(path.read_text())
                if v is KeyError:
                    del rec[f]
                else:
                    rec[f] = v
                path.write_text(json.dumps(rec))
            CASES[f"{point}.json {field} {what}"] = (damage, ("why", point))
        if field in ("point", "file", "key", "rows_sha256"):
            def borrowed(pts, p=point, o=other, f=field):
                path = pts / f"{p}.json"
                rec = json.loads(path.read_text())
                rec[f] = json.loads((pts / f"{o}.json").read_text())[f]
                path.write_text(json.dumps(rec))
            # another point's key is another configuration's: computed again without a word
            expect = ("silent", point) if field == "key" else ("why", point)
            CASES[f"{point}.json {field} of {other}"] = (borrowed, expect)

CASES["a.csv and b.csv swapped"] = (lambda pts: _swap(pts / "a.csv", pts / "b.csv"),
                                    ("why", "a", "b"))
CASES["a.json and c.json swapped"] = (lambda pts: _swap(pts / "a.json", pts / "c.json"),
                                      ("why", "a", "c"))
CASES["both files of a and b swapped"] = (
    lambda pts: (_swap(pts / "a.csv", pts / "b.csv"), _swap(pts / "a.json", pts / "b.json")),
    ("why", "a", "b"))
CASES[".points a file"] = (lambda pts: (shutil.rmtree(pts), pts.write_text("x")),
                           ("refused", ".points"))
CASES[".points a FIFO"] = (lambda pts: (shutil.rmtree(pts), os.mkfifo(pts)),
                           ("refused", ".points"))
CASES[".points a dangling link"] = (lambda pts: (shutil.rmtree(pts), pts.symlink_to("nowhere")),
                                    ("refused", ".points"))
CASES[".points missing"] = (lambda pts: shutil.rmtree(pts), ("silent", "a", "b", "c"))
for name in ("data.csv", "provenance.csv"):
    CASES[f"{name} a folder"] = ((lambda n: lambda pts: _replace_by_dir(pts.parent / n))(name),
                                 ("refused", name))
    CASES[f"{name} a FIFO"] = ((lambda n: lambda pts: _replace_by_fifo(pts.parent / n))(name),
                               ("refused", name))
    CASES[f"{name} garbage"] = ((lambda n: lambda pts: (pts.parent / n).write_bytes(
        b"\xff\x00garbage"))(name), ("reused",))   # rewritten from the verified rows
    CASES[f"{name} missing"] = ((lambda n: lambda pts: (pts.parent / n).unlink())(name),
                                ("reused",))
CASES["stray files in .points"] = (
    lambda pts: ((pts / "z.csv").write_text("z,0,0\n"), (pts / "z.json").write_text("{}")),
    ("reused",))
CASES["a.stdout missing"] = (lambda pts: (pts / "a.stdout").unlink(), ("reused",))
CASES["a.stdout not UTF-8"] = (lambda pts: (pts / "a.stdout").write_bytes(b"\xff\xfe"),
                               ("reused",))


def test_the_battery_has_enough_cases():
    assert len(CASES) >= 250, len(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_damaged_out_tree(finished, tmp_path, name):
    binary, good, _ = finished
    out = tmp_path / "out"
    shutil.copytree(good, out, symlinks=True)
    damage, expect = CASES[name]
    damage(out / ".points")
    args = [f"--out={out}", "--jobs=1"]
    if expect[0] == "refused":
        with pytest.raises(sweep_module.SweepError) as refused:
            sweep_module.Sweep(binary, args)
        message = str(refused.value)
        assert "\n" not in message and expect[1] in message and "--out" in message, message
        return
    sw = sweep_module.Sweep(binary, args)
    for p in sw.points:
        rec, rows, why_not = sw.reusable(p)
        if p["file"] in expect[1:] and expect[0] == "why":
            assert rec is None and why_not, (p["file"], why_not)
        elif p["file"] in expect[1:]:   # "silent": recomputed without a word
            assert rec is None and why_not is None, (p["file"], why_not)
        else:
            assert rec is not None and why_not is None, (p["file"], why_not)
            assert rows.count("\n") == ROWS and rows.startswith(p["file"] + ",")


END_TO_END = ["a.csv one value edited", "b.csv truncated to half", "a.csv and b.csv swapped",
              "c.json rows_sha256 of a", "a.json host removed", "data.csv garbage",
              "b.csv a link to c.csv", ".points missing"]


@pytest.mark.parametrize("name", END_TO_END)
def test_a_damaged_out_tree_ends_as_an_undisturbed_run(finished, tmp_path, name):
    binary, good, data = finished
    out = tmp_path / "out"
    shutil.copytree(good, out, symlinks=True)
    CASES[name][0](out / ".points")
    proc = drive(binary, out)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert (out / "data.csv").read_bytes() == data
    why = CASES[name][1]
    said = [line for line in proc.stderr.splitlines() if "not reused" in line]
    assert len(said) == (len(why) - 1 if why[0] == "why" else 0), proc.stderr
