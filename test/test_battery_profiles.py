# SPDX-License-Identifier: GPL-2.0-only
"""The bad-input battery of profile files (issue 44), derived like the CLI battery.

The cases derive from one valid file of profiles of different kinds, each derived from one of
the catalogue (a NIC, a host, a CPU and a host composed of it, an MPI library, a LANai board):

- structural faults, for every key of every profile: the key removed (where it is required),
  each wrong TOML type (string, integer, float, boolean, array, table, date) and the empty
  string; an unknown kind, target, base (and a base that is itself, a cycle, another kind),
  parts that are empty, unknown, of the wrong kind or with a base; a value that is not a
  [value, source] array of two, a table nested too deep, a source that is empty or not text;
  unknown keys and properties; a name defined twice; duplicate keys and tables;
- bad values of each attribute, from its type as the C++ catalogue's checker describes it
  (probed: a whole number in a range, a number in a range, a time, a rate, a boolean, one of
  some names): empty, garbage, nan, inf, negative, beyond either end of the range, wrong
  units; and the properties' values;
- the file itself: binary, not UTF-8, UTF-16, empty, a FIFO (which must not hang), a folder
  with no profile file, missing; given with --profile-file and in $CLUSTERNET_PROFILE_PATH.

The contract: the Python reader (:func:`analysis.catalogue.load_profiles`) raises a
ValueError with one line naming ``file:line`` (the line of the key at fault); a scenario program
given the file exits with status 2 and one line on stderr naming the same ``file:line`` (or
the file), without an abort, ``terminate``, NS_FATAL or traceback, and creates no --out folder.
The Python reader checks the structure only (it needs no ns-3): the attribute values are the
C++ side's cases. The C++ cases (about 150) run two at a time, each with tiny settings, using
the profile at fault (--nic, --host, --stack, --lanai), so a value the reader let through would
run.
"""

import copy
import json
import datetime
import functools
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import tomli_w
from refusal import run_refused

ROOT = Path(__file__).resolve().parent.parent

from analysis import catalogue
from analysis.catalogue import ProfileError, load_profiles

SCENARIOS = ROOT / "build" / "scenarios"
PROFILES_BIN = ROOT / "build" / "utils" / "profiles"
CATALOGUE_DIR = ROOT / "contrib" / "clusternet" / "profiles"
CATALOGUE = load_profiles(paths=[CATALOGUE_DIR])

# The profiles under test, each derived from one of the catalogue, with own values equal to
# its base's (so the file is valid): name -> (kind, base, [(target, attribute)] of own values).
UNDER_TEST = {
    "mynic": ("nic", "sknet", [("driver", "RxCycles")]),
    "myhost": ("host", "piii450-linux22", [("stack", "DelAckCount")]),
    "mycpu": ("cpu", "piii450-440bx", [("cpu", "Clock"), ("properties", "Chipset")]),
    "mylib": ("mpi", "lam", [("mpi", "SendCycles")]),
    "mylanai": ("lanai", "lanai9", [("mcp", "SendCycles")]),
}
NETPIPE = ["--mtu=1500", "--sockbuf=65536", "--max-block=64", "--jobs=1", "--report=0"]
# The program that uses each profile, with tiny settings.
PROGRAMS = {
    "mynic": ("gige-mtu-sweep", ["--nic=mynic", *NETPIPE]),
    "myhost": ("gige-mtu-sweep", ["--host=myhost", "--nic=sknet", *NETPIPE]),
    "mycpu": ("gige-mtu-sweep", ["--host=mycpuhost", "--nic=sknet", *NETPIPE]),
    "mycpuhost": ("gige-mtu-sweep", ["--host=mycpuhost", "--nic=sknet", *NETPIPE]),
    "mylib": ("gige-mpi-netpipe", ["--stack=mylib", "--cases=sknet@1500", "--max-block=64",
                                   "--jobs=1", "--report=0"]),
    "mylanai": ("myrinet-gm-allsize", ["--lanai=mylanai", "--mode=uni", "--max-msg=64",
                                       "--stream-bytes=1024", "--reps=1", "--jobs=1",
                                       "--report=0"]),
    "file": ("gige-mtu-sweep", ["--nic=sknet", *NETPIPE]),
}


def base_profiles():
    """The valid file's profiles: {name: table}."""
    out = {}
    for name, (kind, base, own) in UNDER_TEST.items():
        table = {"kind": kind, "base": base, "description": f"{base}, as measured here (test)"}
        for target, attribute in own:
            value = CATALOGUE[base].values[(target, attribute)][0]
            table.setdefault(target, {})[attribute] = [value, f"test: {base}'s value"]
        out[name] = table
        if name == "mycpu":
            out["mycpuhost"] = {"kind": "host", "parts": ["mycpu", "linux22"],
                                "description": "mycpu under Linux 2.2 (test)"}
    out["mylib"]["properties"] = {"Transport": ["tcp", "test: LAM runs over TCP"]}
    return out


BASE = base_profiles()

# --- a renderer that knows the line of every key -------------------------------------------------

_BARE = re.compile(r"[A-Za-z0-9_-]+")


def _key(k):
    return k if _BARE.fullmatch(k) else '"' + k.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render(profiles):
    """The TOML text of ``profiles`` and ``{key path: line}``: scalars and arrays of a table
    first, then its tables (a table's header line is the line of its key)."""
    out, lines = [], {}

    def table(path, value):
        lines[path] = len(out) + 1
        out.append("[" + ".".join(_key(k) for k in path) + "]")
        subs = []
        for k, v in value.items():
            if isinstance(v, dict):
                subs.append((k, v))
                continue
            lines[path + (k,)] = len(out) + 1
            out.extend(tomli_w.dumps({k: v}).rstrip("\n").split("\n"))
        for k, v in subs:
            table(path + (k,), v)

    for name, value in profiles.items():
        if isinstance(value, dict):
            table((name,), value)
        else:   # a top-level key that is not a table: written before every table
            written = tomli_w.dumps({name: value}).rstrip("\n").split("\n")
            out[:0] = written
            lines = {k: n + len(written) for k, n in lines.items()}
            lines[(name,)] = 1
        out.append("")
    return "\n".join(out) + "\n", lines


# --- the cases ---------------------------------------------------------------------------------

DATE = datetime.date(1979, 5, 27)
TYPES = {"string": "garbage", "int": 7, "float": 2.5, "bool": True, "array": [1, 2],
         "table": {"x": 1}, "date": DATE, "empty": ""}


class Case:
    """One bad profile file: the profiles (or the text, or a special file), the key whose line
    the refusal names (a key path, or a line number), the words it holds and which readers run
    it."""

    def __init__(self, cid, profiles=None, at=None, words=(), text=None, special=None,
                 python=True, cpp=False, prog="file", extra=None):
        self.id, self.profiles, self.at, self.words = cid, profiles, at, tuple(words)
        self.text, self.special, self.python, self.cpp = text, special, python, cpp
        self.prog, self.extra = prog, extra

    def write(self, folder):
        """Write the case's file(s) into ``folder``; return (the --profile-file path, the
        expected line or None, any other paths to give)."""
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "mine.toml"
        line = self.at if isinstance(self.at, int) else None
        if self.special == "fifo":
            os.mkfifo(path)
        elif self.special == "missing":
            pass
        elif self.special == "empty-folder":
            path = folder / "profiles"
            path.mkdir()
            (path / "notes.txt").write_text("no profile here\n")
        elif self.special == "fifo-in-folder":
            path = folder / "profiles"
            path.mkdir()
            os.mkfifo(path / "x.toml")
        elif isinstance(self.text, bytes):
            path.write_bytes(self.text)
        elif self.text is not None:
            path.write_text(self.text)
        else:
            text, lines = render(self.profiles)
            path.write_text(text)
            if self.at is not None and not isinstance(self.at, int):
                line = lines[self.at]
        others = []
        if self.extra is not None:
            other = folder / "other.toml"
            other.write_text(render(self.extra)[0])
            others.append(other)
        return path, line, others


def _mutate(name, fn):
    profiles = copy.deepcopy(BASE)
    fn(profiles[name], profiles)
    return profiles


def structural_cases():
    """Every key of every profile under test: removed, each wrong type, empty; and the
    structural faults of names, bases, parts, targets and [value, source] pairs."""
    cases = []

    def add(cid, fn, at, words, name):
        cases.append(Case(cid, _mutate(name, fn), at=at, words=words, prog=name))

    for name, table in BASE.items():
        own = [(t, a) for t, v in table.items() if isinstance(v, dict) for a in v]
        first = (name, *own[0]) if own else (name, "parts")
        # kind
        add(f"{name}:kind:removed", lambda t, p: t.pop("kind"), (name,), [name, "kind"], name)
        for tname, wrong in TYPES.items():
            if tname == "string":
                add(f"{name}:kind:unknown", lambda t, p: t.update(kind="router"), (name,),
                    [name, "kind 'router'"], name)
                continue
            add(f"{name}:kind:{tname}", lambda t, p, w=wrong: t.update(kind=copy.deepcopy(w)),
                (name, "kind"), [f"{name}.kind"], name)
        # description
        add(f"{name}:description:removed", lambda t, p: t.pop("description"), (name,),
            [name, "description"], name)
        for tname, wrong in TYPES.items():
            if tname != "string":
                add(f"{name}:description:{tname}",
                    lambda t, p, w=wrong: t.update(description=copy.deepcopy(w)),
                    (name, "description"), [f"{name}.description"], name)
        # base (or parts)
        if "base" in table:
            for tname, wrong in TYPES.items():
                if tname == "string":
                    add(f"{name}:base:unknown", lambda t, p: t.update(base="no-such-profile"),
                        (name, "base"), [name, "no-such-profile"], name)
                    continue
                add(f"{name}:base:{tname}",
                    lambda t, p, w=wrong: t.update(base=copy.deepcopy(w)), (name, "base"),
                    [f"{name}.base"], name)
            add(f"{name}:base:itself", lambda t, p, n=name: t.update(base=n), (name, "base"),
                [name, "cycle"], name)
            other = "lanai9" if table["kind"] != "lanai" else "sknet"
            add(f"{name}:base:other-kind", lambda t, p, o=other: t.update(base=o),
                (name, "base"), [name, other], name)
            add(f"{name}:base:and-parts", lambda t, p: t.update(parts=["mycpu", "linux22"]),
                (name, "parts"), [name, "parts"], name)
        if "parts" in table:
            for tname, wrong in TYPES.items():
                add(f"{name}:parts:{tname}",
                    lambda t, p, w=wrong: t.update(parts=copy.deepcopy(w)), (name, "parts"),
                    [f"{name}.parts"], name)
            for label, parts, words in [
                    ("none", [], [f"{name}.parts"]),
                    ("unknown", ["mycpu", "no-such-part"], ["no-such-part"]),
                    ("wrong-kind", ["mycpu", "sknet"], ["sknet"]),
                    ("twice", ["mycpu", "mycpu"], ["mycpu"]),
                    ("empty-name", ["mycpu", ""], [f"{name}.parts"])]:
                add(f"{name}:parts:{label}", lambda t, p, v=parts: t.update(parts=v),
                    (name, "parts"), words, name)
        # abstract: each type but a boolean
        for tname, wrong in TYPES.items():
            if tname != "bool":
                add(f"{name}:abstract:{tname}",
                    lambda t, p, w=wrong: t.update(abstract=copy.deepcopy(w)),
                    (name, "abstract"), [f"{name}.abstract"], name)
        # unknown keys, targets
        add(f"{name}:key:unknown", lambda t, p: t.update(colour="red"), (name, "colour"),
            [f"{name}.colour"], name)
        add(f"{name}:target:unknown", lambda t, p: t.update(nosuch={"Clock": ["1", "test"]}),
            (name, "nosuch", "Clock"), [f"{name}.nosuch"], name)
        foreign = next(t for t in ("device", "mpi", "mcp") if t not in
                       catalogue.targets()[table["kind"]])
        add(f"{name}:target:of-another-kind",
            lambda t, p, f=foreign: t.update({f: {"Clock": ["1", "test"]}}),
            (name, foreign, "Clock"), [f"{name}.{foreign}"], name)
        add(f"{name}:target:unknown-empty", lambda t, p: t.update(nosuch={}),
            (name, "nosuch"), [f"{name}.nosuch"], name)
        # the profile's own targets and values
        for target, attribute in own:
            for tname, wrong in TYPES.items():
                if tname == "table":
                    continue   # a table: a target of its own, as it is
                add(f"{name}:{target}:{tname}",
                    lambda t, p, g=target, w=wrong: t.update({g: copy.deepcopy(w)}),
                    (name, target), [f"{name}.{target}"], name)
            value = table[target][attribute][0]
            at = (name, target, attribute)
            for label, pair in [
                    ("not-an-array", value), ("one", [value]), ("three", [value, "a", "b"]),
                    ("none", []), ("value-array", [[value], "test"]),
                    ("value-date", [DATE, "test"]), ("source-int", [value, 5]),
                    ("source-empty", [value, ""]), ("source-blank", [value, "  "]),
                    ("source-array", [value, ["test"]]), ("int", 5), ("bool", True)]:
                add(f"{name}:{target}.{attribute}:{label}",
                    lambda t, p, g=target, a=attribute, v=pair: t[g].update({a: v}), at,
                    [f"{name}.{target}.{attribute}"], name)
            add(f"{name}:{target}.{attribute}:table",
                lambda t, p, g=target, a=attribute: t[g].update({a: {"x": ["1", "test"]}}),
                at, [f"{name}.{target}.{attribute}"], name)
        del first
    # attributes the target's object does not have, or that text cannot set (C++ only: the
    # Python reader knows no TypeId)
    for name, table in BASE.items():
        for target, values in table.items():
            if isinstance(values, dict) and target != "properties":
                cases.append(Case(f"{name}:{target}.NoSuchAttribute:unknown",
                                  _mutate(name, lambda t, p, g=target: t[g].update(
                                      NoSuchAttribute=["1", "test"])),
                                  at=(name, target, "NoSuchAttribute"),
                                  words=["has no attribute NoSuchAttribute"], prog=name,
                                  python=False, cpp=True))
    for attribute, says in [("RxBufferBytes", "read-only"), ("TxQueue", "object"),
                            ("Address", "address")]:
        cases.append(Case(f"mynic:device.{attribute}:{says}",
                          _mutate("mynic", lambda t, p, a=attribute: t.update(
                              device={a: ["1", "test"]})),
                          at=("mynic", "device", attribute), words=[says], prog="mynic",
                          python=False, cpp=True))
    # names: a profile of the catalogue again, or of another file; a top-level key
    for name in BASE:
        cases.append(Case(f"{name}:name:catalogue's",
                          {**copy.deepcopy(BASE), "sknet": copy.deepcopy(BASE[name])},
                          at=("sknet",), words=["'sknet' is already defined"], prog=name))
    cases.append(Case("file:name:in-another-file", copy.deepcopy(BASE), at=None,
                      words=["'mynic' is already defined"],
                      extra={"mynic": copy.deepcopy(BASE["mynic"])}))
    cases.append(Case("file:top-level:not-a-table", {"colour": "red", **copy.deepcopy(BASE)},
                      at=("colour",), words=["'colour' is not a profile table"]))
    cases.append(Case("file:top-level:array", {"mynic2": [1, 2], **copy.deepcopy(BASE)},
                      at=("mynic2",), words=["'mynic2' is not a profile table"]))
    # cycles of two
    two = copy.deepcopy(BASE)
    two["mynic2"] = {"kind": "nic", "base": "mynic", "description": "test"}
    two["mynic"]["base"] = "mynic2"
    cases.append(Case("mynic:base:cycle-of-two", two, at=("mynic2", "base"),
                      words=["mynic2", "cycle (mynic -> mynic2 -> mynic)"], prog="mynic"))
    return cases


PROPERTY_CASES = [
    # (profile, property, bad value, words)
    ("mynic", "PriceUsd", "", "PriceUsd"),
    ("mynic", "PriceUsd", "abc", "PriceUsd"),
    ("mynic", "PriceUsd", "-1", "PriceUsd"),
    ("mynic", "PriceUsd", "nan", "PriceUsd"),
    ("mynic", "PriceUsd", "inf", "PriceUsd"),
    ("mynic", "PriceUsd", "1e999", "PriceUsd"),
    ("mynic", "Colour", "red", "no such property"),
    ("mylanai", "PciClock", "50", "PciClock"),
    ("mylanai", "PciClock", "", "PciClock"),
    ("mylanai", "PciClock", "33.0", "PciClock"),
    ("mylanai", "PriceUsd", "100", "no such property"),
    ("mylib", "Transport", "udp", "Transport"),
    ("mylib", "Transport", "", "Transport"),
    ("mylib", "Transport", "TCP", "Transport"),
    ("mylib", "Nics", "nope", "'nope' is not a nic profile"),
    ("mylib", "Nics", "sknet,nope", "'nope' is not a nic profile"),
    ("mylib", "Nics", "lanai9", "'lanai9' is not a nic profile"),
    ("mylib", "Nics", "", "Nics"),
    ("mylib", "Nics", "sknet,", "Nics"),
    ("mycpu", "Chipset", "nope", "'nope' is not a chipset profile"),
    ("mycpu", "Chipset", "sknet", "'sknet' is not a chipset profile"),
    ("mycpu", "Chipset", "", "Chipset"),
    ("myhost", "Chipset", "440bx,440lx", "Chipset"),
    ("myhost", "Pacing", "off", "no such property"),
]


def property_cases():
    cases = []
    for name, prop, value, words in PROPERTY_CASES:
        profiles = copy.deepcopy(BASE)
        profiles[name].setdefault("properties", {})[prop] = [value, "test"]
        cases.append(Case(f"{name}:properties.{prop}:{value or 'empty'}", profiles,
                          at=(name, "properties", prop), words=[words], prog=name, cpp=True))
    return cases


GOOD = render(BASE)[0]
LINES = GOOD.splitlines(keepends=True)


def file_cases():
    """The file itself."""
    return [
        Case("file:malformed", text=GOOD + "[mynic2\n", at=len(LINES) + 1,
             words=["malformed TOML"], cpp=True),
        Case("file:malformed-value", text="".join(LINES[:3]) + "bogus = = 1\n"
             + "".join(LINES[3:]), at=4, words=["malformed TOML"], cpp=True),
        Case("file:duplicate-key", text="".join(LINES[:3]) + 'kind = "nic"\n'
             + "".join(LINES[3:]), at=4, words=["malformed TOML"], cpp=True),
        Case("file:duplicate-table", text=GOOD + "[mynic]\n" + 'kind = "nic"\n',
             at=len(LINES) + 1, words=["malformed TOML"], cpp=True),
        Case("file:binary", text=b"\x00\x01\xff\xfe binary\n", at=1, cpp=True),
        Case("file:non-utf8", text=("".join(LINES[:2]) + "# caf\xe9\n").encode("latin-1")
             + "".join(LINES[2:]).encode(), at=3, cpp=True),
        Case("file:utf16", text=GOOD.encode("utf-16"), at=1, cpp=True),
        Case("file:nul", text="".join(LINES[:4]).encode() + b"\0\n", at=5, cpp=True),
        Case("file:empty", text="", at=1, words=["no profile"], cpp=True),
        Case("file:comments-only", text="# nothing here\n\n", at=1, words=["no profile"],
             cpp=True),
        Case("file:fifo", special="fifo", words=["mine.toml"], cpp=True),
        Case("file:missing", special="missing", words=["no such profile file"], cpp=True),
        Case("file:folder-without-profiles", special="empty-folder",
             words=["holds no profile file"], cpp=True),
        Case("file:fifo-in-folder", special="fifo-in-folder",
             words=["x.toml:1", "not a regular file"],
             cpp=True),
    ]


# --- the attributes' bad values, from their types -----------------------------------------------

def _probe(kind, base, target, attribute, value):
    """The C++ catalogue's refusal of ``value`` for ``target.attribute`` ("" if taken)."""
    with tempfile.TemporaryDirectory(prefix="clusternet-probe-") as tmp:
        path = Path(tmp) / "p.toml"
        path.write_text(f'[x]\nkind = "{kind}"\nbase = "{base}"\ndescription = "d"\n'
                        f'[x.{target}]\n{attribute} = ["{value}", "t"]\n')
        proc = subprocess.run([str(PROFILES_BIN), f"--profile-file={path}"],
                              capture_output=True, text=True, timeout=60)
    if proc.returncode == 0:
        return ""
    return proc.stderr.strip().rpartition("': ")[2]


@functools.lru_cache(maxsize=None)
def attribute_type(kind, base, target, attribute):
    """The type of an attribute as the C++ checker describes it: ("uint", lo, hi),
    ("double", lo, hi), ("time", negative allowed), ("rate", zero allowed), ("bool",),
    ("enum", names) or ("other", text)."""
    what = _probe(kind, base, target, attribute, "?")
    m = re.search(r"a whole number; u?int\d+_t (-?\d+):(\d+)", what)
    if m:
        return ("uint", int(m.group(1)), int(m.group(2)))
    if "a finite number" in what:
        m = re.search(r"double (\S+):(\S+)\)", _probe(kind, base, target, attribute, "-1e300"))
        return ("double", float(m.group(1)), float(m.group(2))) if m else \
            ("double", float("-inf"), float("inf"))
    if "a time" in what:
        return ("time", _probe(kind, base, target, attribute, "-5us") == "")
    if "a rate" in what:
        return ("rate", "0 bit/s or more" in what)
    if what == "value not allowed (bool)":
        return ("bool",)
    m = re.search(r"one of ([^)]*)\)", what)
    if m:
        return ("enum", tuple(m.group(1).split("|")))
    return ("other", what)


def bad_values(typ):
    """(class, value) pairs the attribute of type ``typ`` must refuse."""
    kind = typ[0]
    common = [("empty", ""), ("garbage", "abc"), ("nan", "nan"), ("inf", "inf")]
    if kind == "uint":
        lo, hi = typ[1], typ[2]
        out = common + [("negative", "-1"), ("fraction", "1.5"), ("above", str(hi + 1)),
                        ("units", f"{max(lo, 1)}us"), ("huge", "99999999999999999999")]
        return out + ([("below", str(lo - 1))] if lo > 0 else [])
    if kind == "double":
        lo, hi = typ[1], typ[2]
        out = common + [("units", "5us"), ("overflow", "1e999"), ("comma", "1,5")]
        if lo >= 0:
            out.append(("negative", "-1"))
        if lo > 0:
            out.append(("below", f"{lo / 2:g}"))
        if hi < float("inf"):
            out.append(("above", f"{hi * 10:g}"))
        return out
    if kind == "time":
        out = common + [("overflow", "1e30s"), ("blank", "5 us"), ("units", "5Mbps"),
                        ("unknown-unit", "5parsec")]
        return out + ([] if typ[1] else [("negative", "-5us")])
    if kind == "rate":
        out = common + [("negative", "-1Gbps"), ("overflow", "1e30Gbps"), ("units", "5us"),
                        ("blank", "5 Gbps")]
        return out + ([] if typ[1] else [("zero", "0bps")])
    if kind == "bool":
        return common + [("number", "2"), ("word", "yes"), ("negative", "-1")]
    if kind == "enum":
        names = typ[1]
        return common + [("negative", "-1"), ("two", "|".join(names[:2])),
                         ("blank", f" {names[0]}"), ("near", f"{names[0]}x")]
    return []


def value_cases():
    """Bad values of every attribute of the profiles under test (C++ only). The attributes of
    one type take its classes in turn, one each, and the first of them also every class the
    turns leave out: every attribute has a case, every class of every type is covered."""
    attributes = []
    for name, (kind, base, _) in UNDER_TEST.items():
        for target, attribute in sorted(CATALOGUE[base].values):
            if target != "properties":
                typ = attribute_type(kind, base, target, attribute)
                if bad_values(typ):
                    attributes.append((name, target, attribute, typ))
    picks, turn = [], {}
    for name, target, attribute, typ in attributes:
        values = bad_values(typ)
        k = turn.get(typ[0], 0)
        turn[typ[0]] = k + 1
        picks.append((name, target, attribute, values[k % len(values)]))
    for name, target, attribute, typ in attributes:
        values = bad_values(typ)
        if turn.get(typ[0], 0) < len(values):   # the first attribute of its type takes the rest
            picks += [(name, target, attribute, v) for v in values[turn[typ[0]]:]]
            turn[typ[0]] = len(values)
    cases = []
    for name, target, attribute, (label, value) in picks:
        profiles = copy.deepcopy(BASE)
        profiles[name].setdefault(target, {})[attribute] = [value, "test"]
        cases.append(Case(f"{name}:{target}.{attribute}={value}:{label}", profiles,
                          at=(name, target, attribute), words=[f"{name}.{target}.{attribute}"],
                          prog=name, python=False, cpp=True))
    return cases


# The structural cases that also run through a program: each class once.
CPP_STRUCTURAL = {
    *(f"mynic:{k}" for k in [
        "kind:removed", "kind:unknown", "kind:int", "kind:table", "description:removed",
        "description:empty", "base:unknown", "base:array", "base:itself", "base:other-kind",
        "base:and-parts", "abstract:string", "key:unknown", "target:unknown",
        "target:of-another-kind", "target:unknown-empty", "driver:string", "name:catalogue's",
        "base:cycle-of-two"]),
    *(f"mynic:driver.RxCycles:{k}" for k in [
        "not-an-array", "one", "three", "none", "value-array", "value-date", "source-int",
        "source-empty", "source-blank", "table"]),
    *(f"mycpuhost:parts:{k}" for k in ["string", "none", "unknown", "wrong-kind", "twice",
                                       "empty-name"]),
    "mylib:kind:unknown", "mylanai:target:of-another-kind", "mycpu:base:other-kind",
    "file:name:in-another-file", "file:top-level:not-a-table",
}


@functools.lru_cache(maxsize=None)
def all_cases(with_values=True):
    cases = structural_cases() + property_cases() + file_cases()
    assert CPP_STRUCTURAL <= {c.id for c in cases}, CPP_STRUCTURAL - {c.id for c in cases}
    for c in cases:
        c.cpp = c.cpp or c.id in CPP_STRUCTURAL
    if with_values:
        cases += value_cases()
    ids = [c.id for c in cases]
    assert len(ids) == len(set(ids)), [i for i in ids if ids.count(i) > 1]
    return tuple(cases)


# --- the readers ----------------------------------------------------------------------------------

def python_failure(case, folder):
    """"" if the Python reader refuses ``case`` as the contract says, else what broke it."""
    path, line, others = case.write(folder)
    try:
        load_profiles(paths=[CATALOGUE_DIR], extra=[path, *others])
    except ProfileError as exc:
        msg = str(exc)
    except Exception as exc:  # noqa: BLE001 - any other exception breaks the contract
        return f"{type(exc).__name__}: {exc}"[:300]
    else:
        return "accepted"
    if "\n" in msg.strip():
        return f"more than one line: {msg[:300]!r}"
    where = others[0] if case.id.endswith("in-another-file") else path
    named = f"{where}:{line}:" if line else str(where)
    if named not in msg:
        return f"does not name {named}: {msg[:300]!r}"
    missing = [w for w in case.words if w not in msg]
    if missing:
        return f"does not say {missing}: {msg[:300]!r}"
    return ""


def cpp_failure(case, folder, env=None):
    """"" if the program refuses ``case`` as the contract says, else what broke it."""
    path, line, others = case.write(folder)
    prog, args = PROGRAMS[case.prog]
    out = folder / "out"
    cmd = [str(SCENARIOS / prog), f"--profile-file={','.join(map(str, [path, *others]))}",
           *args, f"--out={out}"]
    if env is not None:
        cmd = [str(SCENARIOS / prog), *args, f"--out={out}"]
    problem, _, refusal = run_refused(cmd, cwd=folder, env=env,
                                      timeout=5 if "fifo" in case.id else 60)
    if problem:
        return problem
    where = others[0] if case.id.endswith("in-another-file") else path
    named = f"{where}:{line}:" if line else str(where)
    if named not in refusal:
        return f"does not name {named}: {refusal[:300]!r}"
    missing = [w for w in case.words if w not in refusal]
    if missing:
        return f"does not say {missing}: {refusal[:300]!r}"
    if out.exists():
        return "created the --out folder although refused"
    return ""


needs_build = pytest.mark.skipif(
    not (SCENARIOS / "gige-mtu-sweep").exists() or not PROFILES_BIN.exists(),
    reason="scenarios not built (run ./ns3 build)")


def test_the_base_file_is_valid_for_both_readers(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(GOOD)
    profiles = load_profiles(paths=[CATALOGUE_DIR], extra=[path])
    assert set(UNDER_TEST) <= set(profiles)
    # the renderer's lines are the reader's
    text, lines = render(BASE)
    for name in UNDER_TEST:
        p = profiles[name]
        assert p.at() == f"{path}:{lines[(name,)]}"
        for key in p.values:
            if key in p.lines:
                assert p.at(*key) == f"{path}:{lines[(name, *key)]}", (name, key)


@needs_build
def test_the_base_file_runs_in_every_program(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(GOOD)
    for name in sorted({p for p in PROGRAMS if p != "file"}):
        prog, args = PROGRAMS[name]
        proc = subprocess.run([str(SCENARIOS / prog), f"--profile-file={path}", *args,
                               f"--out={tmp_path / name}"], capture_output=True, text=True,
                              timeout=120)
        assert proc.returncode == 0, (name, proc.stderr)


def test_the_battery_has_over_250_cases_and_covers_every_profile():
    cases = all_cases(with_values=False)
    for name in list(UNDER_TEST) + ["mycpuhost"]:
        assert sum(c.id.startswith(f"{name}:") for c in cases) >= 30, name
    assert len(cases) >= 250, len(cases)


@pytest.mark.parametrize("group", ["mynic", "myhost", "mycpu", "mycpuhost", "mylib",
                                   "mylanai", "file"])
def test_the_python_reader_refuses_every_structural_fault_with_its_line(tmp_path, group):
    cases = [c for c in all_cases(with_values=False) if c.python and
             c.id.split(":")[0] == group]
    assert cases
    failures = []
    for k, case in enumerate(cases):
        failure = python_failure(case, tmp_path / f"c{k}")
        if failure:
            failures.append(f"{case.id}: {failure}")
    assert not failures, f"{len(failures)} of {len(cases)} cases broke the contract:\n" + \
        "\n".join(failures[:60])


def cpp_cases():
    return [c for c in all_cases() if c.cpp]


@needs_build
def test_the_programs_refuse_every_fault_with_its_line(tmp_path):
    """About 150 cases through the programs, two at a time."""
    cases = cpp_cases()
    assert 100 <= len(cases) <= 190, len(cases)  # grows with the targets (coll: 172)

    def one(k_case):
        k, case = k_case
        return case, cpp_failure(case, tmp_path / f"c{k}")

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(one, enumerate(cases)))
    failures = [f"{c.id}: {f}" for c, f in results if f]
    assert not failures, f"{len(failures)} of {len(cases)} cases broke the contract:\n" + \
        "\n".join(failures[:60])


@needs_build
@pytest.mark.parametrize("label", ["malformed", "unknown-kind", "bad-value"])
def test_the_profile_path_variable_names_the_file_and_line(tmp_path, monkeypatch, label):
    """$CLUSTERNET_PROFILE_PATH replaces the catalogue folder: a bad file there is refused
    the same way, before anything runs."""
    profiles = copy.deepcopy(BASE)
    if label == "malformed":
        case = Case(label, text=GOOD + "[mynic2\n", at=len(LINES) + 1,
                    words=["malformed TOML"])
    elif label == "unknown-kind":
        profiles["mynic"]["kind"] = "router"
        case = Case(label, profiles, at=("mynic",), words=["unknown kind 'router'"])
    else:
        profiles["mynic"]["driver"]["RxCycles"] = ["nan", "test"]
        case = Case(label, profiles, at=("mynic", "driver", "RxCycles"),
                    words=["mynic.driver.RxCycles"])
    path, line, _ = case.write(tmp_path)
    env = dict(os.environ, CLUSTERNET_PROFILE_PATH=f"{CATALOGUE_DIR}:{path}")
    assert cpp_failure(case, tmp_path, env=env) == ""
    if label != "bad-value":   # the Python reader checks the structure only
        monkeypatch.setenv("CLUSTERNET_PROFILE_PATH", env["CLUSTERNET_PROFILE_PATH"])
        with pytest.raises(ProfileError, match=re.escape(f"{path}:{line}:")):
            load_profiles()


@needs_build
def test_python_and_cpp_name_the_same_line_of_every_catalogue_value():
    """The Python reader's lines (it finds them in the text; tomllib gives none) are the C++
    reader's (toml++'s), for every value the catalogue's files hold."""
    checked = 0
    for name, p in CATALOGUE.items():
        proc = subprocess.run([str(PROFILES_BIN), f"--show={name}"], capture_output=True,
                              text=True, timeout=60, env=dict(os.environ,
                                                              CLUSTERNET_PROFILE_PATH=""))
        assert proc.returncode == 0, proc.stderr
        lines = proc.stdout.splitlines()
        assert lines[1].startswith(f"# {p.at()}"), (name, lines[1], p.at())
        key = None
        for line in lines[2:]:
            if not line.startswith("    #"):
                key = tuple(line.split(" = ")[0].split(".", 1))
            elif key in p.lines:
                m = re.search(r"\(([^()]*:\d+)\)$", line)
                assert m and m.group(1) == p.at(*key), (name, key, line, p.at(*key))
                checked += 1
    assert checked > 300, checked


TARGETS_DUMP = """
import json
import clusternet
clusternet.load()
from ns import ns
rows = ns.clusternet.ProfileCatalogue.Targets()
print(json.dumps([[str(r.kind), str(r.target), str(r.typeId)] for r in rows]))
"""


def test_the_cpp_catalogue_compiles_the_target_table_python_reads():
    """One target table: ProfileCatalogue::Targets(), as built, holds the rows of
    profile-targets.def that catalogue.kinds() and catalogue.targets() are read from."""
    if not list((ROOT / "build" / "lib").glob("libns3*-clusternet*.so")):
        pytest.skip("not built (run ./ns3 build)")
    dump = subprocess.run([sys.executable, "-c", TARGETS_DUMP], capture_output=True, text=True,
                          timeout=300, check=True)
    cpp = [tuple(row) for row in json.loads(dump.stdout.strip().splitlines()[-1])]
    assert cpp == catalogue.target_rows()
    assert catalogue.targets() == {k: tuple(t for kk, t, _ in cpp if kk == k)
                                 for k in dict.fromkeys(k for k, _, _ in cpp)}
