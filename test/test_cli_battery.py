# SPDX-License-Identifier: GPL-2.0-only
"""The bad-input battery: every scenario program, every option.

Bad values are derived from what each program declares about its options
(``--list-options=1``: kind, range, allowed words, whether empty has a meaning), plus the
command-line classes found failing by hand (issue 26): empty values, repeated options, ns-3's
own --RngRun/--RngSeed/--Print*, unusable --out, stray arguments.

The contract for each case: exit status 2, exactly one line on stderr naming the option, no
abort or traceback, and nothing written (no --out folder, nothing in the working directory).
"""
import functools
import json
import os
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import programs
import pytest
from refusal import run_refused

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "build" / "scenarios"
PROGRAMS = sorted(p.name for p in SCENARIOS.iterdir()
                  if p.is_file() and os.access(p, os.X_OK)) if SCENARIOS.is_dir() else []

NOT_WHOLE_NUMBERS = ["abc", "-1", "1.5", "nan", "inf", "-inf", "1e3", "0x10", " 5", "5 ", "+5",
                     "\uff15"]  # a fullwidth digit five
TOO_LARGE = ["99999999999999999999", "18446744073709551616"]
# Options a program cannot run without, given in every case that does not test them.
REQUIRED = {"mpi-replay": [f"--trace={ROOT / 'scenarios' / 'traces' / 'pingpong-barrier.txt'}"]}


def env():
    e = dict(os.environ)
    return e


@functools.lru_cache(maxsize=None)
def declared_options(prog):
    return json.loads(programs.run(prog, "--list-options=1", timeout=60).stdout)["options"]


def bad_values(opt):
    """Values that option ``opt`` (as --list-options declares it) must refuse."""
    kind, name = opt["kind"], opt["name"]
    values = [] if opt["empty_allowed"] else [""]
    if kind in ("uint", "uint_list"):
        lo, hi = opt["min"], opt["max"]
        values += NOT_WHOLE_NUMBERS + TOO_LARGE + [str(hi + 1)]
        if lo > 0:
            values.append(str(lo - 1))
        if kind == "uint":
            values += [f"{lo},{hi}", f"{lo},"]
        else:
            values += [f"{lo},", f",{lo}", f"{lo},,{hi}", f"{lo},{lo}", f"{lo},abc",
                       f"{lo},{hi + 1}"]
    elif kind in ("choice", "choice_list"):
        first, last = opt["allowed"][0], opt["allowed"][-1]
        upper = first.upper() if first.upper() != first else first + "x"
        values += [f"no-such-{name}", upper, f" {first}", f"{first} ", f"{first},"]
        if kind == "choice":
            values.append(f"{first},{last}" if first != last else f"{first},{first}")
        else:
            values += [f"{first},{first}", f"{first},no-such-{name}", f",{first}"]
    elif kind == "bool":
        values += ["2", "yes", "-1", "abc", "1,0", "TRUE", "01"]
    return values


def cases_for(prog):
    """(arguments, what the one stderr line must contain) for program ``prog``."""
    cases = []
    for opt in declared_options(prog):
        flag = "--" + opt["name"]
        for value in bad_values(opt):
            cases.append(([f"{flag}={value}"], flag))
        cases.append(([flag], flag))                                       # no value
        cases.append(([f"{flag}={opt['default']}", f"{flag}={opt['default']}"], flag))  # twice
    first = "--" + declared_options(prog)[0]["name"]
    cases += [
        ([f"{first}=bad\nvalue"], first),        # a line break in a value: still one line
        (["--no\tsuch\x01=1"], "--no\\tsuch\\x01"),
        (["--frobnicate=1"], "--frobnicate"),
        (["stray"], "unexpected argument"),
        (["--"], "unexpected argument"),
        (["--=1"], "--"),
        (["--help=1"], "--help"),
        (["--PrintHelp=x"], "--PrintHelp"),
        (["--PrintAttributes=bogus"], "--PrintAttributes"),
        (["--PrintAttributes"], "--PrintAttributes"),
        (["--PrintGroup=bogus"], "--PrintGroup"),
        (["--RngRun=3", "--RngRun=4"], "--RngRun"),
    ]
    for value in ["", "abc", "-1", "1.5", "1e3", "nan", "99999999999999999999"]:
        cases.append(([f"--RngRun={value}"], "--RngRun"))
    for value in ["", "0", "abc", "-1", "4294967296"]:
        cases.append(([f"--RngSeed={value}"], "--RngSeed"))
    cases += [(["--out=@FILE"], "--out"), (["--out=@FILE/sub"], "--out"),
              (["--out=/proc/nonexistent/x"], "--out")]
    return cases


def run_case(prog, args, expect):
    """Run one case in an empty working directory; return "" or what broke the contract."""
    with tempfile.TemporaryDirectory(prefix="clusternet-battery-") as tmp:
        tmp = Path(tmp)
        cwd, out, a_file = tmp / "cwd", tmp / "out", tmp / "a-file"
        cwd.mkdir()
        a_file.write_text("not a directory\n")
        args = [a.replace("@FILE", str(a_file)) for a in args]
        given = {a.split("=", 1)[0] for a in args}
        args = [r for r in REQUIRED.get(prog, []) if r.split("=", 1)[0] not in given] + args
        if not any(a.startswith("--out=") for a in args):
            args.append(f"--out={out}")
        what = f"{prog} {' '.join(args[:-1] if args[-1] == f'--out={out}' else args)}"
        problem, _, line = run_refused([SCENARIOS / prog, *args], cwd=cwd, env=env())
        if problem:
            return f"{what}: {problem}"
        if expect not in line:
            return f"{what}: the line does not name {expect}: {line!r}"
        if out.exists() or list(cwd.iterdir()) or a_file.read_text() != "not a directory\n":
            return f"{what}: wrote files although refused"
        return ""


@pytest.mark.parametrize("prog", PROGRAMS)
def test_every_declared_option_refuses_bad_values_in_one_line(prog):
    cases = cases_for(prog)
    with ThreadPoolExecutor(max_workers=4) as pool:
        failures = [f for f in pool.map(lambda c: run_case(prog, *c), cases) if f]
    assert not failures, f"{len(failures)} of {len(cases)} cases broke the contract:\n" + \
        "\n".join(failures[:40])


def test_the_battery_covers_every_program_and_option_with_over_1000_cases():
    assert len(PROGRAMS) >= 22, PROGRAMS
    total = 0
    for prog in PROGRAMS:
        options = declared_options(prog)
        cases = cases_for(prog)
        # each option is exercised at least by a missing value and a repetition
        for opt in options:
            assert any(args[0].split("=", 1)[0] == "--" + opt["name"] for args, _ in cases)
        total += len(cases)
    assert total >= 1000, total


def test_declared_ranges_are_written_in_the_help():
    """The help text says each typed option's range and words (the rule is stated once)."""
    for prog in PROGRAMS:
        proc = programs.run(prog, "--help", timeout=60)
        for opt in declared_options(prog):
            if opt["kind"] in ("uint", "uint_list"):
                assert f"{opt['unit']}, {opt['min']}..{opt['max']}]" in proc.stdout, \
                    (prog, opt["name"])
            if opt["kind"] in ("choice", "choice_list"):
                assert ", ".join(opt["allowed"]) in proc.stdout, (prog, opt["name"])


# ---------------------------------------------------------------------------------------------
# Named regression tests, one per class of issue 26 that belongs to the argument layer.

def refused(prog, args, expect, tmp_path):
    failure = run_case(prog, args, expect)
    assert not failure, failure


def accepted(prog, args, tmp_path):
    return programs.run(prog, *args, "--list-points=1", f"--out={tmp_path / 'out'}", timeout=60)


@pytest.fixture
def need(scenario_bin):
    return scenario_bin


def test_class1_empty_value_is_refused_but_documented_empty_forms_are_not(need, tmp_path):
    need("gige-mtu-sweep")
    refused("gige-mtu-sweep", ["--mtu="], "--mtu", tmp_path)
    refused("gige-mtu-sweep", ["--nic="], "--nic", tmp_path)
    refused("gige-mtu-sweep", ["--out="], "--out", tmp_path)
    # "empty = the host profile's" and "empty = no overrides" stay valid
    accepted("gige-mtu-sweep", ["--pci=", "--set=", "--scheduler="], tmp_path)
    accepted("what-if", ["--pci="], tmp_path)


def test_class2_unusable_out_is_refused_before_anything_is_simulated(need, tmp_path):
    need("mpi-replay")
    for prog in ("mpi-replay", "gige-mtu-sweep", "myrinet-clos-alltoall"):
        refused(prog, ["--out=@FILE"], "--out", tmp_path)
        refused(prog, ["--out=@FILE/below"], "--out", tmp_path)
        refused(prog, ["--out=/proc/nonexistent/x"], "--out", tmp_path)


def test_class3_bad_report_is_refused_before_the_sweep(need, tmp_path):
    need("nas-overlap")
    for value in ("abc", "-1", "nan", "18446744073709551616"):
        refused("nas-overlap", [f"--report={value}"], "--report", tmp_path)


def test_class4_a_repeated_option_is_refused_not_last_one_wins(need, tmp_path):
    need("gige-mtu-sweep")
    refused("gige-mtu-sweep", ["--nic=zzz", "--nic=sknet"], "--nic", tmp_path)
    refused("gige-mtu-sweep", ["--nic=sknet", "--nic=sknet"], "--nic", tmp_path)
    refused("what-if", ["--set=cpu.CopyBandwidth=1Gbps", "--set="], "--set", tmp_path)


def test_class5_ns3_options_are_checked_not_aborted_on(need, tmp_path):
    need("gige-mtu-sweep")
    for prog in ("gige-mtu-sweep", "hpvm-smt", "mpi-replay"):
        refused(prog, ["--RngRun=abc"], "--RngRun", tmp_path)
        refused(prog, ["--RngRun=-1"], "--RngRun", tmp_path)
        refused(prog, ["--RngSeed=0"], "--RngSeed", tmp_path)
        refused(prog, ["--PrintAttributes=bogus"], "--PrintAttributes", tmp_path)
    # good values still work: a run number goes to ns-3, --PrintAttributes prints
    accepted("gige-mtu-sweep", ["--RngRun=18446744073709551615", "--RngSeed=4294967295"],
             tmp_path)
    proc = programs.run("gige-mtu-sweep", "--PrintAttributes=ns3::clusternet::GigeNetDevice",
                        timeout=60)
    assert "Mtu" in proc.stdout, proc.stderr


def test_class8_options_a_case_list_replaces_are_still_checked(need, tmp_path):
    need("gige-tcp-netpipe")
    refused("gige-tcp-netpipe", ["--cases=sknet@1500", "--nic=bogus"], "--nic", tmp_path)
    refused("gige-tcp-netpipe", ["--cases=sknet@1500", "--mtu=abc"], "--mtu", tmp_path)
    accepted("gige-tcp-netpipe", ["--cases=sknet@1500"], tmp_path)


def test_class10_resume_after_changing_a_parameter_recomputes(need, tmp_path):
    """A point's identity is every parameter, not its label: a resume after changing
    --max-block, --set or --host (none of which is in the label) computes the point again,
    and data.csv says what was asked."""
    need("gige-mtu-sweep")
    out = tmp_path / "out"
    base = ["--nic=sknet", "--mtu=1500", "--sockbuf=65536", "--jobs=1", "--report=0",
            f"--out={out}"]

    def run(*extra):
        proc = programs.run("gige-mtu-sweep", *base, *extra, timeout=120)
        return proc.stderr, (out / "data.csv").read_text()

    _, first = run("--max-block=64")
    log, again = run("--max-block=64")
    assert "reused" in log and again == first  # same parameters: reused, same bytes
    for changed in (["--max-block=128"], ["--max-block=64", "--set=cpu.SyscallCycles=22500"],
                    ["--max-block=64", "--host=p200-430vx-linux24"]):
        log, data = run(*changed)
        assert "reused" not in log, (changed, log)
        assert data != first, changed
    assert ",p200-430vx-linux24," in data and "piii450-linux22" not in data


EXAMPLE_CASES = [(["--nic=bogus"], "--nic"), (["--host=bogus"], "--host"),
                 (["--mtu=1500", "--mtu=9000"], "--mtu"), (["--frob=1"], "--frob"),
                 (["stray"], "stray"), (["--RngRun=abc"], "--RngRun")]
EXAMPLE_CASES += [([f"--{name}"], f"--{name}") for name in ("nic", "host", "mtu")]
EXAMPLE_CASES += [([f"--{name}="], f"--{name}") for name in ("nic", "host", "mtu", "maxBlock")]
EXAMPLE_CASES += [([f"--{name}={value}"], f"--{name}")
                  for name, lo, hi in (("mtu", 1500, 9000), ("sockbuf", 4096, 67108864),
                                       ("maxBlock", 1, 1073741824))
                  for value in [lo - 1, hi + 1, "abc", "-1", "1e3", "nan", " 9",
                                "99999999999999999999"]]


@pytest.mark.parametrize("args,name", EXAMPLE_CASES)
def test_the_module_example_refuses_bad_values_in_one_line(args, name):
    """build/examples/gige-netpipe (ns-3's CommandLine, checked before it parses): an unknown,
    repeated or empty option, a profile that does not exist or a value outside its attribute's
    range is one line and exit 2 (it used to abort, or print the whole usage with status 1)."""
    proc = programs.run(ROOT / "build" / "examples" / "gige-netpipe", *args, status=2,
                        timeout=60)
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and name in lines[0], proc.stderr
    assert proc.stdout == ""


def test_a_run_that_stops_advancing_ends_with_exit_3_naming_the_point(need, tmp_path):
    """The stall watchdog every point runs under: with its same-instant limit lowered to 2
    events (ns-3's NS_ATTRIBUTE_DEFAULT), any run counts as stuck at t=0, and the program ends
    with one line naming the point and the reason, exit status 3, and no data.csv."""
    need("gige-mtu-sweep")
    out = tmp_path / "out"
    e = env()
    e["NS_ATTRIBUTE_DEFAULT"] = "ns3::clusternet::StallWatchdogScheduler::SameTimeLimit=2"
    proc = programs.run("gige-mtu-sweep", "--nic=sknet", "--mtu=1500", "--sockbuf=65536",
                        "--max-block=64", "--jobs=1", "--report=0", f"--out={out}", status=3,
                        env=e, timeout=120)
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "point 'nic=sknet mtu=1500 sockbuf=65536'" in lines[0]
    assert "stopped advancing" in lines[0]
    assert not (out / "data.csv").exists()
