# SPDX-License-Identifier: GPL-2.0-only
"""Attribute ranges that are true (issue 44, item 3): every attribute a user can --set on a
Gigabit Ethernet NetPIPE run (targets device, driver, coalescer, cpu, bus, stack) is tried at
both ends of its checker's range (a rate at 1 bit/s and 1000 Gbit/s, an open-ended time at
10^6 s, each enum value, both booleans), with otherwise small settings. Each end either runs to
completion (exit 0) or is refused before the first event in one line (exit 2) -- never a failed
connection, a deadlock report, an abort or a run past the watchdog's horizon.

The ranges come from the checkers themselves (ns-3's TypeIds through the Python bindings, in a
child process), so an attribute added later is tried too."""

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROGRAM = ROOT / "build" / "scenarios" / "gige-mtu-sweep"
TARGETS = {"device": "GigeNetDevice", "driver": "EthernetDriver",
           "coalescer": "InterruptCoalescer", "cpu": "HostCpu", "bus": "PciBus",
           "stack": "HostStack"}
SMALL = ["--nic=sknet", "--mtu=1500", "--sockbuf=65536", "--max-block=4096", "--report=0",
         "--jobs=1", "--resume=0"]

DUMP = """
import json, sys
import clusternet
clusternet.load()
from ns import ns
out = {}
for target, name in json.loads(sys.argv[1]).items():
    tid = ns.TypeId.LookupByName("ns3::clusternet::" + name)
    out[target] = [(str(a.name), str(a.checker.GetValueTypeName()),
                    str(a.checker.GetUnderlyingTypeInformation()), int(a.flags))
                   for a in (tid.GetAttribute(i) for i in range(tid.GetAttributeN()))]
print(json.dumps(out))
"""


def ends(value_type, info):
    """The two ends (or every value) of a checker, as --set text; [] for what text cannot set."""
    if info.startswith(("uint", "int", "double")):
        return info.split()[1].split(":")
    if info.startswith("Time "):
        lo, hi = (t.lstrip("+") for t in info.split()[1].split(":"))
        return [lo, "1000000s" if "e+18" in hi else hi]
    if value_type.endswith("DataRateValue"):
        return ["1bps", "1000Gbps"]
    if info == "bool":
        return ["true", "false"]
    if "|" in info:
        return info.split("|")
    return []   # pointers, addresses: refused by the pre-run check (test_bad_values.py)


@pytest.fixture(scope="module")
def cases():
    if not PROGRAM.exists():
        pytest.skip("not built (run ./ns3 build)")
    env = dict(os.environ)
    dump = subprocess.run([sys.executable, "-c", DUMP, json.dumps(TARGETS)], env=env,
                          capture_output=True, text=True, timeout=300, check=True)
    attributes = json.loads(dump.stdout.strip().splitlines()[-1])
    out = []
    for target, rows in attributes.items():
        for name, value_type, info, flags in rows:
            if flags & 2:   # settable
                out += [f"{target}.{name}={v}" for v in ends(value_type, info)]
    return out


def run(item, tmp):
    proc = subprocess.run([str(PROGRAM), *SMALL, f"--set={item}", f"--out={tmp}"],
                          capture_output=True, text=True, timeout=300)
    lines = [line for line in proc.stderr.splitlines() if line.strip() and line[0] != "["]
    if proc.returncode == 0 or (proc.returncode == 2 and len(lines) == 1 and
                                not (Path(tmp) / "data.csv").exists()):
        return ""
    return f"{item}: exit {proc.returncode}: {' | '.join(lines)[:300]}"


def test_every_attribute_end_runs_or_is_refused_before_the_first_event(cases, tmp_path):
    assert len(cases) >= 100, len(cases)
    with ThreadPoolExecutor(max_workers=2) as pool:
        failures = [f for f in pool.map(lambda ic: run(ic[1], tmp_path / f"out{ic[0]}"),
                                         enumerate(cases)) if f]
    assert not failures, f"{len(failures)} of {len(cases)} ends broke:\n" + "\n".join(failures)


def test_delayed_ack_is_within_rfc_1122s_half_second(assert_refused, run_scenario, tmp_path):
    """The one end that broke: DelAckTimeout=10^6 s left a delayed-ACK timer past the stall
    watchdog's horizon (exit 3, 'a model bug'). RFC 1122 sec. 4.2.3.2 bounds the delay at 0.5 s;
    the checker now says so."""
    assert_refused("gige-mtu-sweep", [*SMALL[:4], "--set=stack.DelAckTimeout=501ms"],
                   "stack.DelAckTimeout=501ms")
    run_scenario("gige-mtu-sweep", tmp_path / "ok", *SMALL[:4], "--report=0",
                 "--set=stack.DelAckTimeout=500ms")
