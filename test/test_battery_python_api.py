# SPDX-License-Identifier: GPL-2.0-only
"""The bad-input battery of the Python API (clusternet.run, clusternet.netpipe,
clusternet.profiles), issue 44.

**Contract.** A bad call raises ``ValueError`` whose message is one line naming the option or
parameter, before anything is simulated, and writes no file (the working directory and every
``out`` stay as they were). For ``clusternet.run`` the message is the scenario program's own
command-line message for the same mistake, ``PROGRAM: --option: ...``, whenever the mistake
has a command-line form: a value becomes the text the ``run`` docstring says (a list or tuple
joined with commas, True/False 1/0 for a boolean option, anything else ``str(value)``), and the
program run with ``--option=TEXT --list-points=1`` must print exactly the line ``run`` raises.
Mistakes that exist only in Python (a nested list, bytes, a control character, an option name
that is not one, an internal or print-and-exit option, a scenario that is not a name, a client
that is not a client, an ``out`` that is not a path) raise a line starting ``PROGRAM: --option:``
or ``run:`` that names what is wrong. For ``netpipe`` and ``profiles`` the message starts with
the parameter's name (``mtu: ...``). Each case takes at most a couple of seconds; valid calls of
the same kinds must be accepted (they reach the point where the sweep would start, and one
really runs).

**Where the cases come from.** For ``run``: the options four scenario programs with different
kinds of option declare (``--list-options=1``: kind, range, allowed words, whether empty means
something). For every option of the first (gige-mtu-sweep), every bad command-line text the CLI
battery derives from its declaration (``test_cli_battery.bad_values``) is passed as a string,
and the Python values of the wrong type or range derived from the same declaration
(:func:`typed_values`): bools for numbers and words, floats, nan, negatives, values just out of
range, 2^64, lists for scalars, empty lists, lists with bad or nested members, bytes, sets,
dicts, control characters, a lone surrogate, a value too long for a command line; for every
option of the other three, one value of each class (their command-line texts are the CLI
battery's own cases). Then the option names (unknown, misspelt, internal to the sweep driver,
print-and-exit options of ns-3, not names at all), ns-3's --RngRun/--RngSeed, the driver's own
keywords (out, jobs, resume, report, scheduler), the scenario and the client. For ``netpipe``:
its parameters' documented types and ranges (the ranges of the model's attributes); type
mistakes are checked in this process with ns-3 kept unloaded, and range and name mistakes, which
need the model, in one child process that loads ns-3 once (some 15 s). For ``profiles``: its
kinds and ``profile_file``.
"""
import functools
import json
import os
import subprocess
import sys
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "build" / "scenarios"

import clusternet
import clusternet.sweep as sweep_module
from test_cli_battery import bad_values

netpipe_module = sys.modules["clusternet.netpipe"]   # (clusternet.netpipe is the function)

PROGRAMS = ["gige-mtu-sweep", "hpvm-smt", "myrinet-clos-alltoall", "mpi-replay"]
TRACE = ROOT / "scenarios" / "traces" / "pingpong-barrier.txt"
REQUIRED = {"mpi-replay": {"trace": str(TRACE)}}
# The sweep driver's keywords and options: cases of their own below.
DRIVER = set(sweep_module.SWEEP_OPTIONS) | {"list-options"}
MAX_SECONDS = 3.0
NOT_BUILT = not all((SCENARIOS / p).exists() for p in PROGRAMS)
pytestmark = pytest.mark.skipif(NOT_BUILT, reason="scenario programs not built (./ns3 build)")


@functools.lru_cache(maxsize=None)
def declared(prog):
    proc = subprocess.run([str(SCENARIOS / prog), "--list-options=1"], capture_output=True,
                          text=True, timeout=60, check=True)
    return [o for o in json.loads(proc.stdout)["options"] if o["name"] not in DRIVER]


def cli_text(value, kind):
    """The command-line text the run docstring says ``value`` becomes (None: no such text)."""
    if isinstance(value, bool):
        return ("1" if value else "0") if kind == "bool" else str(value)
    if isinstance(value, dict):
        members = [cli_text(v, "bool") for v in value.values()]
        if None in members:
            return None
        return ";".join(f"{k}={v}" for k, v in zip(value, members))
    if isinstance(value, (list, tuple)):
        members = [cli_text(v, kind) for v in value]
        if any(isinstance(v, (list, tuple, dict, set, bytes)) for v in value) or None in members:
            return None
        return ",".join(members)
    if isinstance(value, (bytes, bytearray)):
        return None
    text = os.fspath(value) if isinstance(value, os.PathLike) else str(value)
    if any(ord(c) < 32 or ord(c) == 127 or 0xD800 <= ord(c) < 0xE000 for c in text) or \
            len(text.encode()) > 100_000:
        return None
    return text


def typed_values(opt, full=True):
    """Python values of the wrong type or range for option ``opt`` (as it is declared); not
    ``full``: one of each class (out of range, bool, float, list for one value, nested list,
    control character)."""
    kind = opt["kind"]
    if not full:
        lo, hi = opt.get("min", 1), opt.get("max", 1)
        first = (opt.get("allowed") or ["x"])[0]
        return {"uint": [hi + 1, True, float(lo), [lo, hi], [[lo]], "x\ny"],
                "uint_list": [[lo, hi + 1], [lo, True], [lo, 1.5], [lo, [hi]], [], "x\0y"],
                "choice": [1, True, [first, first], [[first]], b"x", "x\ny"],
                "choice_list": [[first, 1], [True], [[first]], "x\ry"],
                "bool": [2, "yes", [[1]], "1\n"],
                "text": [b"x", [[1]], "x\ny"]}.get(kind, [])
    ctrl = ["x\ny", "x\rn", "x\0y", "\x1b[31mx", "x\udc80", "1" * 200_000]
    if kind in ("uint", "uint_list"):
        lo, hi = opt["min"], opt["max"]
        values = [hi + 1, -1, 2**64, 10**30, True, False, float(lo), float("nan"),
                  float("inf"), -0.0, [], [[lo]], [lo, [hi]], [lo, None], [lo, 1.5],
                  [lo, True], [lo, {lo: 1}], (lo, "abc"), {lo}, b"1", bytearray(b"1"),
                  {"a": lo}, [lo, b"1"]] + ctrl
        values += [lo - 1] if lo > 0 else []
        values += [[lo, hi]] if kind == "uint" else [[lo, hi + 1], [lo, lo], (lo, -1)]
        return values
    if kind in ("choice", "choice_list"):
        first, last = opt["allowed"][0], opt["allowed"][-1]
        values = [1, True, 1.5, [[first]], [first, None], [first, 1], [True], b"x",
                  [first, b"x"], {first}, first.upper() + "x", ["no-such"]] + ctrl
        if not opt["empty_allowed"]:
            values.append([])
        values += [[first, last]] if kind == "choice" else [[first, first], (first, "no-such")]
        return values
    if kind == "bool":
        return [2, -1, 1.5, "yes", "no", [True], [], [1, 0], b"1", {1}, [[1]]] + ctrl
    if kind == "text" and opt["name"] == "set":
        return [{"cpu.NoSuchAttribute": 1}, {"nosuchtarget.X": "1"}, "cpu.NoSuch=1", "garbage",
                {"cpu.CopyBandwidth": [1, 2]}, b"cpu.CopyBandwidth=1Gbps", ["a=1"]] + ctrl[:3]
    if kind == "text":
        return [b"x", [[1]]] + ctrl[:3]
    return []


def option_cases(prog, full):
    """(program, keyword arguments, command-line text or None, name the message names); not
    ``full``: a few typed values per option, without the command line's own bad texts."""
    cases = []
    for opt in declared(prog):
        flag, key = opt["name"], opt["name"].replace("-", "_")
        if prog in REQUIRED and key in REQUIRED[prog]:
            continue
        for text in bad_values(opt) if full else []:
            cases.append((prog, {key: text}, f"--{flag}={text}", f"--{flag}"))
        for value in typed_values(opt, full):
            text = cli_text(value, opt["kind"])
            cases.append((prog, {key: value}, None if text is None else f"--{flag}={text}",
                          f"--{flag}"))
    return cases


def general_cases():
    """Names, ns-3's options, the driver's keywords, for gige-mtu-sweep."""
    prog = "gige-mtu-sweep"
    cases = []
    for name in ("frobnicate", "mtuu", "Mtu", "MTU", "rng_run", "nics", "max_blocks",
                 "set_", "x"):
        cases.append((prog, {name: 1}, f"--{name.replace('_', '-')}=1",
                      f"--{name.replace('_', '-')}"))
    for name in ("mtu=9000", "", "-mtu", "--mtu", "mtu ", " mtu", "m tu", "mtu\n", "mtu\0",
                 "m\u00fc", "1mtu", "mtu.x", "mtu;x"):
        cases.append((prog, {name: 1500}, None, None))
    for name in ("run_point", "point_out", "list_points", "list_options", "run-point",
                 "point-out", "list-points", "list-options"):
        cases.append((prog, {name: 1}, None, name))
    for name, value in (("PrintHelp", True), ("PrintHelp", ""), ("PrintVersion", True),
                        ("PrintGlobals", True), ("PrintGroups", True), ("PrintTypeIds", True),
                        ("PrintAttributes", "ns3::clusternet::GigeNetDevice"),
                        ("PrintGroup", "Core"), ("help", True), ("help", "")):
        cases.append((prog, {name: value}, None, name))
    for value in ("abc", -1, 1.5, True, 2**64, "", "1e3", [1, 2], "nan"):
        cases.append((prog, {"RngRun": value}, f"--RngRun={cli_text(value, 'uint')}",
                      "--RngRun"))
    for value in (0, -1, "abc", 2**32, False):
        cases.append((prog, {"RngSeed": value}, f"--RngSeed={cli_text(value, 'uint')}",
                      "--RngSeed"))
    for value in (0, 257, -1, True, 1.5, "abc", [1, 2], 2**64, "", " 2", []):
        cases.append((prog, {"jobs": value}, f"--jobs={cli_text(value, 'uint')}", "--jobs"))
    for key in ("resume", "report"):
        for value in ("yes", "no", 2, -1, 1.5, [], "", " 1", [True, False], "TRUE", [2]):
            cases.append((prog, {key: value}, f"--{key}={cli_text(value, 'bool')}", f"--{key}"))
        for value in (b"1", [[1]], "1\n"):
            cases.append((prog, {key: value}, None, f"--{key}"))
    for value in ("tls://a:1", "tcp://host", "tcp://h:0", "tcp://h:70000", "localhost:8786",
                  123, "tcp://:1", "http://a:1", True):
        cases.append((prog, {"scheduler": value}, f"--scheduler={cli_text(value, 'text')}",
                      "--scheduler"))
    cases.append((prog, {"scheduler": b"tcp://a:1"}, None, "--scheduler"))
    for value in ("", "@FILE", "@FILE/below", "/proc/nonexistent/x"):
        cases.append((prog, {"out": value}, f"--out={value}", "--out"))
    for value in (1, True, b"/tmp/x", ["a"], 1.5, "x\ny", "x\0y"):
        cases.append((prog, {"out": value}, None, "--out"))
    # a case of mpi-replay: its trace is checked like any option
    for value in ("", "/nonexistent/trace.txt", "@FILE"):
        cases.append(("mpi-replay", {"trace": value}, f"--trace={value}", "--trace"))
    cases.append(("mpi-replay", {"trace": Path("/nonexistent/trace.txt")},
                  "--trace=/nonexistent/trace.txt", "--trace"))
    return cases


def scenario_cases():
    """(scenario, keyword arguments, what the message names)."""
    cases = [(s, {}, "scenario") for s in (
        None, 1, 1.5, True, b"gige-mtu-sweep", Path("gige-mtu-sweep"), ["gige-mtu-sweep"],
        "", " ", "no-such-scenario", "GIGE-MTU-SWEEP", " gige-mtu-sweep", "gige-mtu-sweep ",
        "gige-mtu-sweep.cc", "gige-mtu-sweep/", "../scenarios/gige-mtu-sweep",
        "./gige-mtu-sweep", str(SCENARIOS / "gige-mtu-sweep"), "/bin/true", "CMakeFiles",
        "cmake_install.cmake", "traces", "CMakeLists", "gige-mtu-sweep\n", "gige-mtu-sweep\0",
        "..", ".")]
    cases += [("gige-mtu-sweep", {"client": c}, "client") for c in (
        1, True, "tcp://127.0.0.1:8786", object(), [], {}, type("NoSubmit", (), {"submit": 1})())]
    return cases


# Every declared option of the first program with every value; of the others a few typed
# values per option (their command-line texts are the CLI battery's).
ALL_OPTION_CASES = [c for i, prog in enumerate(PROGRAMS if not NOT_BUILT else [])
                    for c in option_cases(prog, full=i == 0)]
ALL_OPTION_CASES += general_cases() if not NOT_BUILT else []
SCENARIO_CASES = scenario_cases()


class Accepted(Exception):
    """Raised where the sweep would start simulating: the call was accepted (with its
    command line as ``args[0]``)."""


def _accepted(self):
    raise Accepted(list(self.args))


@functools.lru_cache(maxsize=None)
def cli_message(prog, args):
    """The one line the program prints for ``args`` (checked with --list-points=1)."""
    proc = subprocess.run([str(SCENARIOS / prog), *args, "--list-points=1"],
                          capture_output=True, text=True, timeout=60, check=False)
    lines = proc.stderr.splitlines()
    return (proc.returncode, lines[0] if len(lines) == 1 else proc.stderr)


def call(func, *args, **kwargs):
    """(exception or None, seconds) of one call."""
    started = time.monotonic()
    try:
        func(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - what was raised is the result
        return exc, time.monotonic() - started
    return None, time.monotonic() - started


def check(error, seconds, name=None, expect=None, prefix=None):
    """'' when the call kept the contract, else what broke it."""
    if seconds > MAX_SECONDS:
        return f"took {seconds:.1f} s"
    if error is None:
        return "accepted (no ValueError)"
    if isinstance(error, Accepted):
        return "accepted: the sweep would start"
    if not isinstance(error, ValueError):
        return f"raised {type(error).__name__}, not ValueError: {str(error)[:200]!r}"
    if isinstance(error, UnicodeError):
        return f"raised {type(error).__name__}: {str(error)[:200]!r}"
    message = str(error)
    if len(message.splitlines()) != 1 or "\n" in message or "\r" in message:
        return f"not one line: {message[:300]!r}"
    if len(message) > 1000:
        return f"{len(message)} characters: {message[:200]!r}..."
    if expect is not None and message != expect:
        return f"not the command line's message {expect[:200]!r}: {message[:200]!r}"
    if prefix is not None and not message.startswith(prefix):
        return f"does not start with {prefix!r}: {message[:200]!r}"
    if name and name not in message:
        return f"does not name {name!r}: {message[:200]!r}"
    return ""


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """An empty working directory and a file where a folder is wanted, for every run call."""
    tmp = tmp_path_factory.mktemp("api")
    cwd = tmp / "cwd"
    cwd.mkdir()
    a_file = tmp / "a-file"
    a_file.write_text("not a folder\n")
    return cwd, a_file


def _subst(value, a_file):
    if isinstance(value, str) and value.startswith("@FILE"):
        return value.replace("@FILE", str(a_file))
    return value


@pytest.fixture(scope="module")
def run_results(workdir, tmp_path_factory):
    """Every run() case, called in threads with the sweep's start replaced by Accepted."""
    start_native(tmp_path_factory)
    cwd, a_file = workdir

    def one(case):
        prog, kwargs, cli, name = case
        kwargs = {k: _subst(v, a_file) for k, v in kwargs.items()}
        kwargs = {**REQUIRED.get(prog, {}), **kwargs}
        error, seconds = call(clusternet.run, prog, **kwargs)
        expect = None
        if cli is not None:
            args = [f"--{k}={v}" for k, v in REQUIRED.get(prog, {}).items()
                    if k not in case[1]] + [_subst(cli, a_file).replace("=@FILE",
                                                                        f"={a_file}")]
            status, expect = cli_message(prog, tuple(args))
            if status != 2:
                return f"the command line itself did not refuse {args}: {status} {expect!r}"
        return check(error, seconds, name, expect, None if expect else f"{prog}: "
                     if name and name.startswith("--") else None)

    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(cwd)
        mp.setattr(sweep_module.Sweep, "run", _accepted)
        with ThreadPoolExecutor(max_workers=4) as pool:
            results = dict(zip(range(len(ALL_OPTION_CASES)), pool.map(one, ALL_OPTION_CASES)))
    assert list(cwd.iterdir()) == [], "a refused call wrote files"
    assert a_file.read_text() == "not a folder\n"
    return results


def _case_id(case):
    prog, kwargs, _, _ = case
    (key, value), = kwargs.items()
    text = repr(value)
    text = text if len(text) < 30 else f"{text[:20]}..{len(text)}"
    return f"{prog}-{key}={text}"


@pytest.mark.parametrize("index", range(len(ALL_OPTION_CASES)),
                         ids=[_case_id(c) for c in ALL_OPTION_CASES])
def test_run_refuses_a_bad_option_with_the_command_lines_message(run_results, index):
    failure = run_results[index]
    assert not failure, f"{_case_id(ALL_OPTION_CASES[index])}: {failure}"


@pytest.mark.parametrize("scenario,kwargs,name", SCENARIO_CASES,
                         ids=[f"{s!r}-{list(k)}"[:60] for s, k, _ in SCENARIO_CASES])
def test_run_refuses_a_bad_scenario_or_client(workdir, monkeypatch, scenario, kwargs, name):
    cwd, _ = workdir
    monkeypatch.chdir(cwd)
    monkeypatch.setattr(sweep_module.Sweep, "run", _accepted)
    error, seconds = call(clusternet.run, scenario, **kwargs)
    failure = check(error, seconds, name, prefix="run:" if name == "client" else None)
    assert not failure, failure
    assert list(cwd.iterdir()) == []


# (scenario, keyword arguments, arguments the program must get, arguments it must not get)
VALID_RUNS = [
    ("gige-mtu-sweep", {"nic": "sknet", "mtu": 1500}, ["--nic=sknet", "--mtu=1500"], []),
    ("gige-mtu-sweep", {"mtu": [1500, 9000], "nic": ("sknet", "acenic")},
     ["--mtu=1500,9000", "--nic=sknet,acenic"], []),
    ("gige-mtu-sweep", {"mtu": "1500,9000", "sockbuf": 65536, "max_block": 1},
     ["--mtu=1500,9000", "--max-block=1"], []),
    ("gige-mtu-sweep", {"pci": "", "set": "", "scheduler": None}, ["--pci=", "--set="],
     ["--scheduler"]),
    ("gige-mtu-sweep", {"pci": None, "host": None}, [], ["--pci", "--host"]),
    ("gige-mtu-sweep", {"set": {"cpu.CopyBandwidth": "1200Mbps", "cpu.SyscallCycles": 22500}},
     ["--set=cpu.CopyBandwidth=1200Mbps;cpu.SyscallCycles=22500"], []),
    ("gige-mtu-sweep", {"set": "cpu.CopyBandwidth=1200Mbps"},
     ["--set=cpu.CopyBandwidth=1200Mbps"], []),
    ("gige-mtu-sweep", {"resume": False, "report": True, "jobs": 1},
     ["--resume=0", "--report=1", "--jobs=1"], []),
    ("gige-mtu-sweep", {"resume": 0, "report": 1, "jobs": "1"},
     ["--resume=0", "--report=1", "--jobs=1"], []),
    ("gige-mtu-sweep", {"resume": "0", "report": "true"}, ["--resume=0", "--report=true"], []),
    ("gige-mtu-sweep", {}, ["--resume=1", "--report=0"], ["--out", "--jobs", "--scheduler"]),
    ("gige-mtu-sweep", {"RngRun": 3, "RngSeed": 2}, ["--RngRun=3", "--RngSeed=2"], []),
    ("gige-mtu-sweep", {"out": "@TMP/o", "profile_file": ""}, ["--out=@TMP/o"], []),
    ("gige-mtu-sweep", {"out": Path("@TMP/p"), "max_block": 1073741824}, ["--out=@TMP/p"], []),
    ("hpvm-smt", {"sizes": [0, 8], "processes": 16, "config": ["1.2:smt"]},
     ["--sizes=0,8", "--config=1.2:smt"], []),
    ("myrinet-clos-alltoall", {"hosts": 16, "receive_buffers": 0, "report": False},
     ["--hosts=16", "--receive-buffers=0"], ["--report"]),
    ("mpi-replay", {"trace": TRACE, "ranks": 2}, [f"--trace={TRACE}"], []),
]


@pytest.mark.parametrize("scenario,kwargs,given,not_given", VALID_RUNS,
                         ids=[f"{s}-{'-'.join(k)}" for s, k, _, _ in VALID_RUNS])
def test_run_accepts_valid_calls(tmp_path, monkeypatch, scenario, kwargs, given, not_given):
    """A valid call gets to the start of the sweep (Sweep.run), having written nothing, with
    the command line the run docstring says."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sweep_module.Sweep, "run", _accepted)
    kwargs = {k: Path(str(v).replace("@TMP", str(tmp_path))) if isinstance(v, Path) else
              v.replace("@TMP", str(tmp_path)) if isinstance(v, str) else v
              for k, v in kwargs.items()}
    error, seconds = call(clusternet.run, scenario, **kwargs)
    assert isinstance(error, Accepted), f"refused: {error!r}"
    args = error.args[0]
    for arg in given:
        assert arg.replace("@TMP", str(tmp_path)) in args, (arg, args)
    for flag in not_given:
        assert not any(a.split("=")[0] == flag for a in args), (flag, args)
    assert seconds < MAX_SECONDS
    assert list(tmp_path.iterdir()) == []


def test_run_really_runs_a_valid_sweep(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    df = clusternet.run("gige-mtu-sweep", nic=["sknet"], mtu=1500, sockbuf=65536, max_block=1,
                        jobs=1, resume=False, out=tmp_path / "out", host=None)
    assert set(df["nic"]) == {"sknet"} and len(df) >= 1
    assert (tmp_path / "out" / "data.csv").is_file()


def test_the_battery_has_over_150_cases_from_every_declared_option():
    assert len(ALL_OPTION_CASES) + len(SCENARIO_CASES) >= 150
    for prog in PROGRAMS:
        for opt in declared(prog):
            key = opt["name"].replace("-", "_")
            if key not in REQUIRED.get(prog, {}) and opt["kind"] != "text":
                assert any(c[0] == prog and key in c[1] for c in ALL_OPTION_CASES), \
                    (prog, key)


# ---------------------------------------------------------------------------------------------
# clusternet.netpipe and clusternet.profiles without ns-3: type mistakes.

class WouldLoad(Exception):
    """netpipe() got as far as loading ns-3: its checks let the value through."""


NETPIPE_TYPE_CASES = []
for _param in ("mtu", "sockbuf", "max_block"):
    for _value in (True, False, 1500.0, "1500", None, [1500], float("nan"), b"1500", 1500j,
                   {"a": 1}):
        NETPIPE_TYPE_CASES.append(({_param: _value}, _param))
for _value in (0, -1, 2**32, 2**64, True, 1.0, "1", None, [1]):
    NETPIPE_TYPE_CASES.append(({"rng_run": _value}, "rng_run"))
for _param in ("nic", "host"):
    for _value in (None, 1, True, b"sknet", ["sknet"], ("sknet",), {"sknet": 1}):
        NETPIPE_TYPE_CASES.append(({_param: _value}, _param))
for _value in (3233, True, b"32x33", ["32x33"], 32.33):
    NETPIPE_TYPE_CASES.append(({"pci": _value}, "pci"))
for _value in (1, True, ["cpu.CopyBandwidth=1Gbps"], b"cpu.CopyBandwidth=1Gbps", 1.5,
               {"cpu.CopyBandwidth"}):
    NETPIPE_TYPE_CASES.append(({"overrides": _value}, "overrides"))
for _value in (1, True, [1], [None], b"/tmp/x.toml", [b"/tmp/x.toml"], 1.5, {"a": 1},
               [["/tmp/x.toml"]]):
    NETPIPE_TYPE_CASES.append(({"profile_file": _value}, "profile_file"))


def _would_load():
    raise WouldLoad()


@pytest.mark.parametrize("kwargs,name", NETPIPE_TYPE_CASES,
                         ids=[f"{n}={v!r}"[:50] for k, n in NETPIPE_TYPE_CASES
                              for v in k.values()])
def test_netpipe_refuses_a_wrong_type_before_loading_ns3(monkeypatch, kwargs, name):
    monkeypatch.setattr(netpipe_module, "load", _would_load)
    error, seconds = call(clusternet.netpipe, **kwargs)
    if isinstance(error, WouldLoad):
        pytest.fail(f"{kwargs!r}: accepted up to loading ns-3")
    failure = check(error, seconds, name, prefix=f"{name}:")
    assert not failure, failure


MINE = "[mynic]\nkind = 'nic'\nbase = 'sknet'\ndescription = 'mine'\n"
PROFILE_CASES = [((kind,), {}, "kind") for kind in (
    None, 1, True, b"nic", ["nic"], ("nic",), "NIC", " nic", "nic ", "", "nics", "profile",
    "gige", "nic\n", "nic\0", "n\u00efc")]
PROFILE_CASES += [(("nic", value), {}, "profile_file") for value in (
    1, True, [1], [None], b"/tmp/x", 1.5, "/nonexistent/x.toml", ["/nonexistent/x.toml"],
    "@DIR/bad.toml", "@DIR/latin1.toml", "@DIR/fifo.toml", [""], ["@DIR/mine.toml", ""],
    "@DIR/dup.toml", {"a": 1}, [["@DIR/mine.toml"]], "@DIR/mine.toml\0", "@DIR/mine.toml\n")]
PROFILE_CASES += [(("nic",), {"profile_file": "/nonexistent"}, "profile_file")]


@pytest.mark.parametrize("args,kwargs,name", PROFILE_CASES,
                         ids=[f"{a!r}-{list(k)}"[:50] for a, k, _ in PROFILE_CASES])
def test_profiles_refuses_a_bad_kind_or_profile_file(tmp_path, args, kwargs, name):
    (tmp_path / "empty.toml").write_text("")
    (tmp_path / "bad.toml").write_text("[mynic\nkind = 'nic'\n")
    (tmp_path / "latin1.toml").write_bytes(b"# \xe9\n")
    (tmp_path / "dup.toml").write_text("[sknet]\nkind = 'nic'\ndescription = 'x'\n")
    (tmp_path / "mine.toml").write_text(MINE)
    os.mkfifo(tmp_path / "fifo.toml")

    def subst(a):
        if isinstance(a, str):
            return a.replace("@DIR", str(tmp_path))
        return [subst(x) for x in a] if isinstance(a, list) else a

    args = tuple(subst(a) for a in args)
    error, seconds = call(clusternet.profiles, *args, **kwargs)
    failure = check(error, seconds, name, prefix=None if name == "kind" else f"{name}:")
    assert not failure, failure
    if name == "kind":
        assert str(error).startswith("profiles: kind"), str(error)


def test_profiles_accepts_the_documented_kinds_and_a_user_file(tmp_path):
    nics = clusternet.profiles("nic")
    assert nics[:3] == ["sknet", "acenic", "gnic2"]
    for kind in ("host", "lanai", "chipset", "fm", "mpi"):
        assert clusternet.profiles(kind), kind
    mine = tmp_path / "mine.toml"
    mine.write_text(MINE)
    assert clusternet.profiles("nic", mine) == nics + ["mynic"]
    assert clusternet.profiles("nic", [str(mine)]) == nics + ["mynic"]
    assert clusternet.profiles("nic", (mine,)) == nics + ["mynic"]
    assert clusternet.profiles("nic", tmp_path) == nics + ["mynic"]
    # empty, as the command line's --profile-file=: no file besides the catalogue
    assert clusternet.profiles("nic", "") == nics == clusternet.profiles("nic", [])


# ---------------------------------------------------------------------------------------------
# clusternet.netpipe with ns-3: range and name mistakes, in one child process (one load).

NETPIPE_MODEL_CASES = []
for _value in (100, 1499, 9001, 20000, 0, -1, 2**32, 2**64, 10**30):
    NETPIPE_MODEL_CASES.append(({"mtu": _value}, "mtu", "1500..9000"))
for _value in (0, 4095, -5, 2**64):
    NETPIPE_MODEL_CASES.append(({"sockbuf": _value}, "sockbuf", None))
for _value in (0, -1, 2**31, 2**64):
    NETPIPE_MODEL_CASES.append(({"max_block": _value}, "max_block", None))
for _value in ("foo", "SKNET", "", " sknet", "sknet,acenic", "sknet\n", "sknet\0x"):
    NETPIPE_MODEL_CASES.append(({"nic": _value}, "nic", None))
for _value in ("foo", "", "PIII450-LINUX22"):
    NETPIPE_MODEL_CASES.append(({"host": _value}, "host", None))
for _value in ("48x33", "32X33", "32x33 ", "x", "32x33\n"):
    NETPIPE_MODEL_CASES.append(({"pci": _value}, "pci", None))
for _value in ("cpu.NoSuch=1", "garbage", "cpu.CopyBandwidth=fast", {"cpu.NoSuch": 1},
               {"nosuchtarget.X": 1}, "=1", "cpu.CopyBandwidth=1Gbps\n"):
    NETPIPE_MODEL_CASES.append(({"overrides": _value}, "overrides", None))
for _value in ("/nonexistent/x.toml", ["/nonexistent/x.toml"]):
    NETPIPE_MODEL_CASES.append(({"profile_file": _value}, "profile_file", None))

NATIVE_SCRIPT = textwrap.dedent("""
    import json, sys, time
    import clusternet
    clusternet.load()   # first: the cases come when the others are done
    cases = json.loads(sys.stdin.read())
    results = []
    for kwargs in cases:
        started = time.monotonic()
        try:
            df = clusternet.netpipe(**kwargs)
            results.append([None, None, time.monotonic() - started, len(df)])
        except Exception as exc:
            results.append([type(exc).__name__, str(exc), time.monotonic() - started, 0])
    print(json.dumps(results))
""")


NATIVE_BUILT = bool(list((ROOT / "build" / "lib").glob("libns3*-clusternet*.so")))
_native = {}


def start_native(tmp_path_factory):
    """Start the child process of the ns-3 cases once (it loads ns-3 while the others run)."""
    if NATIVE_BUILT and not _native:
        cwd = tmp_path_factory.mktemp("native")
        cases = [kwargs for kwargs, _, _ in NETPIPE_MODEL_CASES]
        cases = [{"max_block": 1, **k} if "max_block" not in k else k for k in cases]
        cases += [{"max_block": 1}, {"max_block": 1, "profile_file": ""},
                  {"max_block": 1, "profile_file": []}]   # valid calls, simulated
        env = dict(os.environ)
        proc = subprocess.Popen([sys.executable, "-c", NATIVE_SCRIPT], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=env, cwd=cwd)
        _native.update(proc=proc, cwd=cwd, input=json.dumps(cases))


@pytest.fixture(scope="module")
def native_results(tmp_path_factory):
    if not NATIVE_BUILT:
        pytest.skip("clusternet library not built (run ./ns3 build)")
    start_native(tmp_path_factory)
    proc = _native["proc"]
    stdout, stderr = proc.communicate(_native["input"], timeout=300)
    assert proc.returncode == 0, stderr[-2000:]
    assert list(_native["cwd"].iterdir()) == [], "netpipe() wrote files"
    return json.loads(stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("index", range(len(NETPIPE_MODEL_CASES)),
                         ids=[f"{n}={v!r}"[:50] for k, n, _ in NETPIPE_MODEL_CASES
                              for v in k.values()])
def test_netpipe_refuses_a_value_the_model_refuses(native_results, index):
    kwargs, name, says = NETPIPE_MODEL_CASES[index]
    kind, message, seconds, rows = native_results[index]
    assert kind is not None, f"{kwargs!r}: accepted ({rows} rows in {seconds:.1f} s)"
    error = ValueError(message) if kind == "ValueError" else RuntimeError(f"{kind}: {message}")
    failure = check(error, seconds, name, prefix=f"{name}:")
    assert not failure, f"{kwargs!r}: {failure}"
    if says:
        assert says in message, message


def test_netpipe_accepts_valid_calls(native_results):
    for kind, message, _, rows in native_results[len(NETPIPE_MODEL_CASES):]:
        assert kind is None, message
        assert rows >= 1
