# SPDX-License-Identifier: GPL-2.0-only
"""The bad-input battery of calibration recipes (issue 44), derived like the CLI battery.

The cases are derived from the valid recipes: every recipe of ``recipes/`` and one written here
that uses every key the format has (profile files, a measured file with its curve and byte
range, names, also, choices, a loss). For every key of every table: the key removed (where it
is required), each wrong TOML type (string, integer, float, boolean, array, table, date) and the
empty string; for names: an unknown scenario, profile, target or attribute; for bounds: inverted,
equal, outside the attribute's checker range, nan, inf, 1e300, negative, wrong units; choices
the checker refuses; a parameter fitted twice; unknown keys; options in ``args`` that calibrate
owns or that stop the program before it simulates. And the files: a recipe that is not TOML,
binary, not UTF-8, UTF-16, empty, a folder, a FIFO (which must not hang), missing; measurement
and profile files it names that are missing or bad.

The contract for each case: the checks ``./ns3 calibrate`` makes before its first simulation
(:func:`clusternet.calibrate.load_recipe`, then :func:`clusternet.calibrate.check_recipe`, which
runs each benchmark's own pre-run check without simulating) raise
:class:`clusternet.calibrate.CalibrationError` (a ValueError) with one line naming the file and
the key (``fit 2: min``, ``measured 1: 'rows'``) or ``file:line``, and what is allowed. A
sample goes through the command line: exit status 2, exactly one line on stderr, no
traceback, nothing simulated, no output folder and nothing in the working directory.
"""

import copy
import datetime
import math
import os
import sys
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import tomli_w
from refusal import run_refused

ROOT = Path(__file__).resolve().parent.parent

from clusternet import calibrate
from clusternet.calibrate import CalibrationError, load_recipe

BUILD = ROOT / "build"
RECIPES = sorted((ROOT / "recipes").glob("*.toml"))

# A recipe with every key of the format, valid (test_the_full_recipe_is_valid), and the files
# it names.
MINE = ('[mynic]\nkind = "nic"\nbase = "acenic"\ndescription = "the ACEnic, as measured here"\n'
        '[mynic.coalescer]\nTimeout = ["100us", "test"]\n')
NP_OUT = "1 0.05 0.00009\n64 2.0 0.00012\n1024 20.0 0.0004\n4096 40.0 0.0008\n"
FULL = {
    "benchmark": "gige-tcp-netpipe",
    "args": ["--cases=acenic@1500", "--max-block=4096"],
    "profile-files": ["mine.toml"],
    "loss": "squares",
    "fit": [{"profile": "mynic", "attribute": "coalescer.Timeout", "min": "10us",
             "max": "500us", "start": "60us", "also": ["coalescer.JumboTimeout"]},
            {"profile": "tigon2", "attribute": "device.DmaReadBurst",
             "choices": ["32", "64", "128", "256"], "start": "128"}],
    "measured": [{"file": "np.out", "curve": "nic=acenic;mtu=1500", "min-bytes": 1,
                  "max-bytes": 1024},
                 {"paper": "000", "rows": [["nic=acenic;mtu=1500;sockbuf=131072",
                                            "latency_us"]]}],
    "names": {"mynic": "mynic-fitted", "tigon2": "tigon2-fitted"},
}
FULL_FILES = {"mine.toml": MINE, "np.out": NP_OUT}

# The wrong TOML types given to a key, by name.
DATE = datetime.date(1979, 5, 27)
TYPES = {"string": "garbage", "int": 7, "float": 2.5, "bool": True, "array": [1, 2],
         "table": {"x": 1}, "date": DATE, "empty": ""}
# What each key of each table takes: (required, the TYPES that are valid for it), so that the
# cases are only those the recipe must refuse. A string given to a key that takes a name is an
# unknown name.
TOP = {"benchmark": (True, ()), "args": (False, ()), "statements": (False, ()),
       "loss": (False, ()), "fit": (True, ()), "measured": (True, ()), "names": (False, ()),
       "profile-files": (False, ())}
FIT = {"profile": (True, ()), "attribute": (True, ()), "min": (True, ("int", "float")),
       "max": (True, ("int", "float")), "start": (False, ("int", "float")),
       "also": (False, ()), "choices": (True, ("array",)), "source": (False, ())}
MEASURED = {"paper": (True, ()), "rows": (False, ()), "benchmark": (False, ()),
            "file": (True, ()), "curve": (True, ()), "min-bytes": (False, ("int", "float")),
            "max-bytes": (False, ("int", "float"))}
# Options calibrate sets itself, and options that make the program stop before it simulates.
OWNED_ARGS = ["--out=x", "--jobs=2", "--report=1", "--profile-file=x.toml", "--resume=0"]
STOP_ARGS = ["--help", "--list-points=1", "--list-options=1", "--run-point=x",
             "--point-out=x.csv", "--PrintHelp", "--PrintAttributes=ns3::Node"]
BAD_ARGS = ["--bogus=1", "stray", "--max-block=abc"]


class Case:
    """One bad recipe: its text (or bytes, or a special file), the files beside it, and the
    words the one-line refusal must hold (``@`` stands for the case's folder)."""

    def __init__(self, cid, doc=None, text=None, files=None, named=(), special=None):
        self.id = cid
        self.doc = doc
        self.text = text
        self.files = dict(files or {})
        self.named = tuple(named)
        self.special = special

    def write(self, folder):
        folder.mkdir(parents=True, exist_ok=True)
        recipe = folder / "r.toml"
        for name, content in self.files.items():
            path = folder / name
            if content is os.mkfifo:
                os.mkfifo(path)
            elif content is Path.mkdir:
                path.mkdir()
            elif isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content)
        if self.special == "fifo":
            os.mkfifo(recipe)
        elif self.special == "directory":
            recipe.mkdir()
        elif self.special == "missing":
            pass
        elif self.special == "dangling":
            recipe.symlink_to(folder / "nowhere.toml")
        elif isinstance(self.text, bytes):
            recipe.write_bytes(self.text)
        elif self.text is not None:
            recipe.write_text(self.text)
        else:
            recipe.write_text(tomli_w.dumps(self.doc))
        return recipe


def base_recipes():
    """(name, document, files) of every valid recipe the cases derive from."""
    out = [(p.stem, tomllib.loads(p.read_text()), {}) for p in RECIPES]
    out.append(("full", FULL, FULL_FILES))
    return out


def _entry_name(table, i):
    return f"{'fit' if table == 'fit' else 'measured'} {i + 1}"


def key_cases(name, doc, files):
    """Every key of every table: removed (if required), each wrong type, the empty string."""
    cases = []

    def add(cid, new, named):
        cases.append(Case(f"{name}:{cid}", doc=new, files=files, named=named))

    for key, value in doc.items():
        required, valid = TOP[key]
        if required:
            new = copy.deepcopy(doc)
            del new[key]
            add(f"{key}:removed", new, [key])
        for tname, wrong in TYPES.items():
            if tname in valid:
                continue
            new = copy.deepcopy(doc)
            new[key] = copy.deepcopy(wrong)
            add(f"{key}:{tname}", new, [key])
        # the tables of a table: [args] of several benchmarks, [names]
        if isinstance(value, dict) and key in ("args", "names"):
            for sub in value:
                for tname, wrong in TYPES.items():
                    if key == "names" and tname == "string":
                        continue   # another derived name: valid
                    new = copy.deepcopy(doc)
                    new[key][sub] = copy.deepcopy(wrong)
                    add(f"{key}.{sub}:{tname}", new, [key])
    for table, spec in (("fit", FIT), ("measured", MEASURED)):
        for i, entry in enumerate(doc[table]):
            where = _entry_name(table, i)
            for key in entry:
                required, valid = spec[key]
                other_way = (key in ("min", "max") and "choices" in entry) or (
                    key == "choices" and "min" in entry) or (
                    key == "paper" and "file" in entry) or (key == "file" and "paper" in entry)
                if required and not other_way:
                    new = copy.deepcopy(doc)
                    del new[table][i][key]
                    add(f"{table}{i + 1}.{key}:removed", new, [where])
                if i > 0:
                    continue   # the types: on the first entry of each table
                for tname, wrong in TYPES.items():
                    if tname in valid:
                        continue
                    new = copy.deepcopy(doc)
                    new[table][i][key] = copy.deepcopy(wrong)
                    add(f"{table}{i + 1}.{key}:{tname}", new, [where, key])
    return cases


def _fits(doc):
    return list(enumerate(doc["fit"]))


def _with_unit(text, unit):
    value, _ = calibrate.parse_quantity(text, "x")
    return f"{value:g}{unit}"


def value_cases(name, doc, files):
    """Bounds, starts and choices each attribute must refuse, and unknown names."""
    cases = []

    def add(cid, mutate, named):
        new = copy.deepcopy(doc)
        mutate(new)
        cases.append(Case(f"{name}:{cid}", doc=new, files=files, named=named))

    kinds = set()
    for i, entry in _fits(doc):
        where = f"fit {i + 1}"
        # the bounds of one [[fit]] of each kind of attribute in the recipe: choices, or the
        # unit and whether the bounds are whole numbers
        kind = "choices" if "choices" in entry else (
            calibrate.parse_quantity(entry["min"], "min")[1],
            calibrate._is_whole_text(entry["min"]) and calibrate._is_whole_text(entry["max"]))
        if kind in kinds:
            continue
        kinds.add(kind)

        def setter(**kw):
            def mutate(d, kw=kw, i=i):
                for k, v in kw.items():
                    if v is None:
                        d["fit"][i].pop(k, None)
                    else:
                        d["fit"][i][k] = v
            return mutate

        if "choices" in entry:
            choices = entry["choices"]
            for bad in ["-8", "abc", "nan", "1e300", "", "99999999999999999999"]:
                add(f"fit{i + 1}.choices:+{bad or 'empty'}", setter(choices=choices + [bad]),
                    [where, "choice"])
            add(f"fit{i + 1}.choices:one", setter(choices=choices[:1], start=choices[0]),
                [where, "choices"])
            add(f"fit{i + 1}.choices:none", setter(choices=[]), [where, "choices"])
            add(f"fit{i + 1}.choices:twice", setter(choices=choices + choices[:1]),
                [where, "choices"])
            add(f"fit{i + 1}.choices:bools", setter(choices=[True, False]), [where, "choices"])
            add(f"fit{i + 1}.start:not-a-choice", setter(start="12345"), [where, "start"])
            add(f"fit{i + 1}.choices:and-min", setter(min=choices[0]), [where, "min"])
            continue
        lo, unit = calibrate.parse_quantity(entry["min"], "min")
        hi, _ = calibrate.parse_quantity(entry["max"], "max")
        add(f"fit{i + 1}.bounds:inverted", setter(min=entry["max"], max=entry["min"]),
            [where, "min", "max"])
        add(f"fit{i + 1}.bounds:equal", setter(max=entry["min"], start=entry["min"]),
            [where, "min", "max"])
        add(f"fit{i + 1}.min:negative", setter(min=f"-{max(lo, 1):g}{unit}"), [where, "min"])
        add(f"fit{i + 1}.min:nan-text", setter(min="nan"), [where, "min"])
        add(f"fit{i + 1}.min:nan", setter(min=math.nan), [where, "min"])
        add(f"fit{i + 1}.max:nan", setter(max=math.nan), [where, "max"])
        add(f"fit{i + 1}.max:inf", setter(max=math.inf), [where, "max"])
        add(f"fit{i + 1}.max:inf-text", setter(max=f"inf{unit}"), [where, "max"])
        add(f"fit{i + 1}.max:1e300", setter(max=f"1e300{unit}"), [where, "max"])
        add(f"fit{i + 1}.min:-1e300", setter(min=f"-1e300{unit}"), [where, "min"])
        add(f"fit{i + 1}.start:above", setter(start=f"{hi * 2:g}{unit}"), [where, "start"])
        add(f"fit{i + 1}.start:below", setter(start=f"{lo / 2 - 1:g}{unit}"), [where, "start"])
        add(f"fit{i + 1}.start:nan", setter(start=math.nan), [where, "start"])
        add(f"fit{i + 1}.start:inf", setter(start=math.inf), [where, "start"])
        add(f"fit{i + 1}.min:unknown-unit", setter(min=f"{lo:g}parsec"), [where, "min"])
        add(f"fit{i + 1}.max:other-family",
            setter(max=_with_unit(entry["max"], "Mbps" if unit != "Mbps" else "us")),
            [where, "max"])
        # every bound in a unit of the wrong kind for the attribute
        wrong = {"": "us", "us": "Mbps", "Mbps": "us"}.get(unit, "")
        add(f"fit{i + 1}.bounds:wrong-unit",
            setter(min=_with_unit(entry["min"], wrong), max=_with_unit(entry["max"], wrong),
                   start=_with_unit(entry.get("start", entry["min"]), wrong)),
            [where])
        if i == 0:
            add(f"fit{i + 1}.profile:unknown", setter(profile="no-such-profile"),
                [where, "no-such-profile"])
            tgt, attr = entry["attribute"].split(".")
            start = entry.get("start", entry["min"])
            add(f"fit{i + 1}.attribute:unknown-target",
                setter(attribute=f"nosuch.{attr}", start=start), [where, "nosuch"])
            add(f"fit{i + 1}.attribute:unknown-attribute",
                setter(attribute=f"{tgt}.NoSuchAttribute", start=start),
                [where, "NoSuchAttribute"])
            add(f"fit{i + 1}.attribute:unknown-no-start",
                setter(attribute=f"{tgt}.NoSuchAttribute", start=None),
                [where, "NoSuchAttribute"])
            add(f"fit{i + 1}.attribute:three-parts", setter(attribute=f"{tgt}.{attr}.x"),
                [where, "attribute"])
            add(f"fit{i + 1}.also:itself", setter(also=[entry["attribute"]]),
                [where, "twice"])
            add(f"fit{i + 1}.also:unknown-profile",
                setter(also=[f"no-such-profile:{entry['attribute']}"]),
                [where, "no-such-profile"])
            add(f"fit{i + 1}.also:no-dot", setter(also=["Timeout"]), [where, "also"])
            add(f"fit{i + 1}.also:unknown-attribute",
                setter(also=[f"{tgt}.NoSuchAttribute"]), [where, "NoSuchAttribute"])
            add(f"fit{i + 1}.also:empty-item", setter(also=[""]), [where, "also"])
    # a parameter fitted twice; unknown keys; empty lists and tables
    add("fit:twice", lambda d: d["fit"].append(copy.deepcopy(d["fit"][0])), ["twice"])
    add("fit:empty-list", lambda d: d.update(fit=[]), ["fit"])
    add("fit:empty-table", lambda d: d["fit"].append({}), [f"fit {len(doc['fit']) + 1}"])
    add("measured:empty-list", lambda d: d.update(measured=[]), ["measured"])
    add("measured:empty-table", lambda d: d["measured"].append({}),
        [f"measured {len(doc['measured']) + 1}"])
    add("measured:repeated", lambda d: d["measured"].append(copy.deepcopy(d["measured"][0])),
        [f"measured {len(doc['measured']) + 1}"])
    add("top:unknown-key", lambda d: d.update(colour="red"), ["colour"])
    add("fit1:unknown-key", lambda d: d["fit"][0].update(colour="red"), ["fit 1", "colour"])
    add("measured1:unknown-key", lambda d: d["measured"][0].update(colour="red"),
        ["measured 1", "colour"])
    add("names:unknown-profile", lambda d: d.update(names={"no-such-profile": "x"}),
        ["names", "no-such-profile"])
    add("names:existing-profile", lambda d: d.update(
        names={d["fit"][0]["profile"]: "sknet"}), ["names", "sknet"])
    add("names:empty-name", lambda d: d.update(names={d["fit"][0]["profile"]: ""}),
        ["names"])
    add("benchmark:unknown", lambda d: d.update(benchmark="no-such-scenario"),
        ["benchmark", "no-such-scenario"])
    add("benchmark:empty-list", lambda d: d.update(benchmark=[]), ["benchmark"])
    add("loss:unknown", lambda d: d.update(loss="cubic"), ["loss"])
    add("statements:unknown", lambda d: d.update(statements=["s999-99"]),
        ["statements", "s999-99"])
    add("statements:no-margin", lambda d: d.update(statements=["s003-01"]),
        ["statements", "s003-01"])
    add("statements:twice", lambda d: d.update(statements=["s001-19", "s001-19"]),
        ["statements"])
    # the rows of the first paper entry
    for k, entry in enumerate(doc["measured"]):
        if "paper" not in entry:
            continue
        where = f"measured {k + 1}"

        def rows(value, k=k):
            return lambda d: d["measured"][k].update(rows=value)

        first = entry.get("rows", [["msg=1", "latency_us"]])[0]
        add(f"measured{k + 1}.rows:no-rows", rows([]), [where, "rows"])
        add(f"measured{k + 1}.rows:unknown-config", rows([["nosuch=1", first[1]]]),
            [where, "nosuch=1"])
        add(f"measured{k + 1}.rows:unknown-metric", rows([[first[0], "nosuch_metric"]]),
            [where, "nosuch_metric"])
        add(f"measured{k + 1}.rows:triple", rows([[first[0], first[1], "x"]]), [where, "rows"])
        add(f"measured{k + 1}.rows:twice", rows([first, first]), [where, "rows"])
        add(f"measured{k + 1}.paper:unknown", lambda d, k=k: d["measured"][k].update(
            paper="999"), [where, "999"])
        add(f"measured{k + 1}.paper:negative", lambda d, k=k: d["measured"][k].update(
            paper=-1), [where, "paper"])
        add(f"measured{k + 1}.benchmark:not-the-recipe's",
            lambda d, k=k: d["measured"][k].update(benchmark="gige-switch-incast"),
            [where, "gige-switch-incast"])
        break
    return cases


def args_cases(name, doc, files):
    """Options in args that calibrate owns, that stop the program, that it refuses."""
    cases = []
    benches = [doc["benchmark"]] if isinstance(doc["benchmark"], str) else doc["benchmark"]
    for arg in OWNED_ARGS + STOP_ARGS + BAD_ARGS:
        new = copy.deepcopy(doc)
        args = new.get("args", [] if len(benches) == 1 else {})
        if isinstance(args, dict):
            args.setdefault(benches[0], []).append(arg)
        else:
            args.append(arg)
        new["args"] = args
        cases.append(Case(f"{name}:args:{arg}", doc=new, files=files,
                          named=["args", arg.split("=")[0]]))
    return cases


GOOD = tomli_w.dumps({k: FULL[k] for k in FULL if k not in ("profile-files",)}).replace(
    '"mynic"', '"acenic"').replace("mynic", "acenic")


def file_cases():
    """The recipe file itself, and the measurement and profile files it names."""
    cases = [
        Case("file:not-toml", text="benchmark = [\n", named=["r.toml:", "TOML"]),
        Case("file:not-toml-line3", text='benchmark = "gige-tcp-netpipe"\n\nargs = = 1\n',
             named=["r.toml:3"]),
        Case("file:duplicate-key", text='benchmark = "gige-tcp-netpipe"\n'
             'benchmark = "gige-mtu-sweep"\n', named=["r.toml:2"]),
        Case("file:duplicate-key-in-fit", text=GOOD.replace(
            'min = "10us"', 'min = "10us"\nmin = "20us"'), named=["r.toml:", "TOML"]),
        Case("file:binary", text=b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)),
             named=["r.toml:", "UTF-8"]),
        Case("file:non-utf8", text=("# caf\xe9\n" + GOOD).encode("latin-1"),
             named=["r.toml:1", "UTF-8"]),
        Case("file:non-utf8-line5", text=GOOD.encode()[:0] + "\n".join(
            GOOD.splitlines()[:4]).encode() + b"\n# \xff\n", named=["r.toml:5", "UTF-8"]),
        Case("file:utf16", text=GOOD.encode("utf-16"), named=["r.toml:1"]),
        Case("file:utf16-be", text=GOOD.encode("utf-16-be"), named=["r.toml:1"]),
        Case("file:nul", text=GOOD.encode() + b"\0\n", named=["r.toml:", "NUL"]),
        Case("file:empty", text="", named=["r.toml", "benchmark"]),
        Case("file:comments-only", text="# nothing\n\n  # here\n", named=["r.toml", "benchmark"]),
        Case("file:bom-only", text="\ufeff", named=["r.toml", "benchmark"]),
        Case("file:directory", special="directory", named=["r.toml", "not a regular file"]),
        Case("file:fifo", special="fifo", named=["r.toml", "not a regular file"]),
        Case("file:missing", special="missing", named=["r.toml", "no such file"]),
        Case("file:dangling-symlink", special="dangling", named=["r.toml"]),
        Case("file:array-of-tables-only", text="[[benchmark]]\nx = 1\n",
             named=["r.toml", "benchmark"]),
    ]
    # measurement files
    measured = {
        "missing": (None, "no such file"),
        "directory": (Path.mkdir, "not a regular file"),
        "fifo": (os.mkfifo, "not a regular file"),
        "binary": (b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)), "np.out:"),
        "non-utf8": (b"1 0.05 0.00009\n# caf\xe9\n", "np.out:2"),
        "utf16": ("1 0.05 0.00009\n".encode("utf-16"), "np.out:1"),
        "empty": ("", "np.out:1"),
        "comments-only": ("# nothing\n", "np.out"),
        "bad-number": ("1 0.05 0.00009\n64 x y\n", "np.out:2"),
        "nan-time": ("1 0.05 nan\n", "np.out:1"),
        "negative-time": ("1 0.05 -0.00009\n", "np.out:1"),
        "zero-time": ("1 0.05 0\n", "np.out:1"),
        "two-columns": ("1 0.05\n", "np.out:1"),
        "unsorted": ("64 2.0 0.00012\n1 0.05 0.00009\n", "np.out:2"),
        "huge-size": ("99999999999 2.0 0.00012\n", "np.out:1"),
    }
    for label, (content, named) in measured.items():
        files = dict(FULL_FILES)
        if content is None:
            del files["np.out"]
        else:
            files["np.out"] = content
        cases.append(Case(f"measured-file:{label}", doc=FULL, files=files, named=[named]))
    csv_cases = {
        "header-only": ("msg_bytes,latency_us\n", "m.csv"),
        "no-msg-column": ("size,latency_us\n1,90\n", "m.csv:1"),
        "zero-latency": ("msg_bytes,latency_us\n1,0\n", "m.csv:2"),
        "inf-latency": ("msg_bytes,latency_us\n1,inf\n", "m.csv:2"),
        "short-row": ("msg_bytes,latency_us\n1\n", "m.csv:2"),
    }
    for label, (content, named) in csv_cases.items():
        doc = copy.deepcopy(FULL)
        doc["measured"][0]["file"] = "m.csv"
        cases.append(Case(f"measured-csv:{label}", doc=doc,
                          files={**FULL_FILES, "m.csv": content}, named=[named]))
    for label, value, named in [
        ("file-empty-name", "", "file"), ("file-a-folder", ".", "file"),
        ("curve-empty", None, "curve"), ("curve-with-msg", "nic=acenic;mtu=1500;msg=64", "msg"),
        ("curve-unknown-column", "colour=red", "colour"),
        ("curve-no-equals", "acenic", "curve"),
        ("min-bytes-above-max", ("min-bytes", 2048), "min-bytes"),
        ("min-bytes-negative", ("min-bytes", -1), "min-bytes"),
        ("min-bytes-nan", ("min-bytes", math.nan), "min-bytes"),
        ("max-bytes-nan", ("max-bytes", math.nan), "max-bytes"),
        ("min-bytes-inf", ("min-bytes", math.inf), "min-bytes"),
        ("max-bytes-bool", ("max-bytes", True), "max-bytes"),
        ("file-and-paper", ("paper", "000"), "either"),
        ("file-benchmark-unknown", ("benchmark", "gige-mtu-sweep"), "gige-mtu-sweep"),
    ]:
        doc = copy.deepcopy(FULL)
        entry = doc["measured"][0]
        if label.startswith("file-") and isinstance(value, str):
            entry["file"] = value
        elif label.startswith("curve-"):
            if value is None:
                entry["curve"] = ""
            else:
                entry["curve"] = value
        else:
            entry[value[0]] = value[1]
        cases.append(Case(f"measured-entry:{label}", doc=doc, files=FULL_FILES,
                          named=["measured 1", named]))
    # profile files
    profiles = {
        "missing": (None, "mine.toml"),
        "directory": (Path.mkdir, "holds no profile file"),
        "fifo": (os.mkfifo, "mine.toml"),
        "binary": (b"\x00\x01\xff\xfe binary", "mine.toml:1"),
        "non-utf8": (MINE.encode() + b"# \xe9\n", "mine.toml:7"),
        "utf16": (MINE.encode("utf-16"), "mine.toml:1"),
        "malformed": ("[mynic\n", "mine.toml:1"),
        "empty": ("", "mine.toml:1"),
        "redefines-a-profile": (MINE + '[acenic]\nkind = "nic"\ndescription = "again"\n',
                                "acenic"),
        "base-a-list": (MINE.replace('base = "acenic"', 'base = ["acenic"]'), "base"),
        "unknown-base": (MINE.replace('base = "acenic"', 'base = "no-such"'), "no-such"),
        "unknown-kind": (MINE.replace('kind = "nic"', 'kind = "router"'), "kind"),
        "no-source": (MINE.replace('"test"', '""'), "source"),
        "value-only": (MINE.replace('["100us", "test"]', '"100us"'), "value"),
    }
    for label, (content, named) in profiles.items():
        files = dict(FULL_FILES)
        if content is None:
            del files["mine.toml"]
        else:
            files["mine.toml"] = content
        cases.append(Case(f"profile-file:{label}", doc=FULL, files=files, named=[named]))
    for label, value, named in [("empty-name", [""], "profile-files"),
                                ("twice", ["mine.toml", "mine.toml"], "twice"),
                                ("a-string", "mine.toml", "profile-files")]:
        doc = copy.deepcopy(FULL)
        doc["profile-files"] = value
        cases.append(Case(f"profile-files:{label}", doc=doc, files=FULL_FILES, named=[named]))
    return cases


def all_cases():
    cases = []
    for name, doc, files in base_recipes():
        cases += key_cases(name, doc, files)
        cases += value_cases(name, doc, files)
        cases += args_cases(name, doc, files)
    cases += file_cases()
    seen, out = set(), []
    for c in cases:
        assert c.id not in seen, c.id
        seen.add(c.id)
        out.append(c)
    return out


CASES = all_cases()


def check_recipe(recipe):
    return calibrate.check_recipe(recipe, BUILD)


def refusal_in_process(case, folder):
    """The one-line refusal of ``case`` by the checks calibrate makes before simulating, or
    what broke the contract."""
    recipe = case.write(folder)
    try:
        loaded = load_recipe(recipe)
        check_recipe(loaded)
    except CalibrationError as exc:
        msg = str(exc)
    except Exception as exc:  # noqa: BLE001 - any other exception breaks the contract
        return None, f"{type(exc).__name__}: {exc}"[:300]
    else:
        return None, "accepted"
    if "\n" in msg.strip():
        return msg, f"more than one line: {msg[:300]!r}"
    named = [n.replace("@", str(folder)) for n in case.named]
    if str(folder) not in msg:
        return msg, f"does not name the file: {msg[:300]!r}"
    missing = [n for n in named if n not in msg]
    if missing:
        return msg, f"does not name {missing}: {msg[:300]!r}"
    return msg, ""


def run_cases(cases, tmp_path):
    def one(args):
        k, case = args
        _, failure = refusal_in_process(case, tmp_path / f"c{k}")
        return f"{case.id}: {failure}" if failure else ""

    with ThreadPoolExecutor(max_workers=2) as pool:
        return [f for f in pool.map(one, enumerate(cases)) if f]


needs_build = pytest.mark.skipif(not (BUILD / "scenarios" / "gige-tcp-netpipe").exists(),
                                 reason="scenarios not built (run ./ns3 build)")


@needs_build
def test_the_full_recipe_and_every_project_recipe_are_valid(tmp_path):
    """The cases derive from valid recipes: each passes every check made before simulating."""
    for name, doc, files in base_recipes():
        folder = tmp_path / name
        recipe = Case(name, doc=doc, files=files).write(folder)
        check_recipe(load_recipe(recipe))


def test_the_battery_has_over_200_cases_from_every_recipe():
    assert len(CASES) >= 200, len(CASES)
    for name, _, _ in base_recipes():
        assert sum(c.id.startswith(f"{name}:") for c in CASES) >= 20, name


GROUPS = sorted({c.id.split(":")[0] if ":" in c.id else c.id for c in CASES})


@needs_build
@pytest.mark.parametrize("group", GROUPS)
def test_every_bad_recipe_is_refused_in_one_line_before_simulating(tmp_path, group):
    cases = [c for c in CASES if c.id.split(":")[0] == group]
    failures = run_cases(cases, tmp_path)
    assert not failures, f"{len(failures)} of {len(cases)} cases broke the contract:\n" + \
        "\n".join(failures[:60])


# --- through the command line -----------------------------------------------------------------

CLI_SAMPLE = ["file:not-toml", "file:binary", "file:utf16", "file:fifo", "file:directory",
              "file:missing", "full:loss:array", "full:fit1.profile:table",
              "seed001-gm:measured1.benchmark:array", "measured-file:utf16", "profile-file:fifo",
              "seed000-tcp-latency:fit1.max:inf", "seed000-acenic-dma:fit1.choices:+-8",
              "seed004-fm:args:--help", "full:measured2.rows:no-rows",
              "seed001-gm:fit1.attribute:unknown-target", "measured-entry:curve-unknown-column"]


def run_cli(case, tmp_path):
    tmp_path.mkdir(parents=True)
    folder = tmp_path / "case"
    recipe = case.write(folder)
    cwd, out = tmp_path / "cwd", tmp_path / "out"
    cwd.mkdir()
    env = dict(os.environ)
    problem, stdout, _ = run_refused([sys.executable, "-m", "clusternet.calibrate", recipe,
                                      f"--out={out}", "--starts=0", "--jobs=1"], cwd=cwd,
                                     env=env, timeout=120)
    if problem:
        return problem
    if "step" in stdout or "measured points" in stdout:
        return f"simulated before refusing: {stdout[-300:]!r}"
    if out.exists() or list(cwd.iterdir()):
        return "wrote files although refused"
    return ""


@needs_build
def test_a_sample_is_refused_by_the_command_line(tmp_path):
    """A case of each kind through ``python -m clusternet.calibrate`` (what ``./ns3
    calibrate`` runs after building), two at a time."""
    cases = {c.id: c for c in CASES}

    def one(cid):
        return cid, run_cli(cases[cid], tmp_path / cid.replace(":", "_"))

    with ThreadPoolExecutor(max_workers=2) as pool:
        failures = [f"{cid}: {f}" for cid, f in pool.map(one, CLI_SAMPLE) if f]
    assert not failures, "\n".join(failures)
