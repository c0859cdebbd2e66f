# SPDX-License-Identifier: GPL-2.0-only
"""A machine of one's own through every benchmark scenario (issue 47): a new host (its own CPU
and GM host library), a new Gigabit Ethernet NIC (its own driver, jumbo frames) and a new LANai
board running another GM version's control program, written as profile files derived from the
built-in ones, run switched and back to back. Every value a run used (data.csv's columns, and
the parts provenance.csv records) must be the machine's, and no run is compared with a paper."""

import csv
from pathlib import Path

import pandas as pd
import pytest

from test_own_machine import _lines, _run

MACHINE = """\
[mycpu]
kind = "cpu"
base = "athlonxp2800-760mpx"
description = "an Athlon at 2.4 GHz in a 64-bit/33 MHz slot (test)"

[mycpu.cpu]
Clock = ["2400", "test"]

[mycpu.bus]
Clock = ["33", "test: a 64-bit/33 MHz slot"]

[mygm]
kind = "gm"
base = "gm-host"
description = "GM 1.6.4's host library (test)"

[mygm.gm]
SendCycles = ["120", "test"]

[myhost]
kind = "host"
parts = ["mycpu", "freebsd47", "mygm", "ipgm15-linux24"]
description = "a node of one's own (test)"

[mydriver]
kind = "driver"
base = "em13-fbsd47"
description = "an em driver of one's own (test)"

[mydriver.driver]
TxCycles = ["1500", "test"]

[mydriver-nocoal]
kind = "driver"
base = "mydriver"
description = "the same with interrupt coalescing off (test)"

[mydriver-nocoal.coalescer]
Enabled = ["false", "test"]

[mydriver-nocoal.txcoalescer]
Enabled = ["false", "test"]

[mynic]
kind = "nic"
parts = ["82545em", "mydriver"]
description = "a Gigabit Ethernet card of one's own, jumbo frames (test)"

[mynic.device]
Mtu = ["9000", "test"]

[mynic-nocoal]
kind = "nic"
parts = ["82545em", "mydriver-nocoal"]
description = "the same card with coalescing off (test)"

[mynic-nocoal.device]
Mtu = ["9000", "test"]

[gm164-lanai]
kind = "lanai"
abstract = true
base = "gm15-lanai"
description = "GM 1.6.4's control program (test)"

[gm164-lanai.mcp]
SendCycles = ["100", "test"]

[mylanai]
kind = "lanai"
base = "gm164-lanai"
description = "a LANai 9 board at 200 MHz under GM 1.6.4 (test)"

[mylanai.lanai]
Clock = ["200", "test"]
SramSize = ["2097152", "test"]

[mylanai.link]
DataRate = ["2Gbps", "test"]
"""

SLOT = "64x33"   # mycpu's bus: the Athlon board's 64-bit width, its own 33 MHz clock
HOST_PARTS = {"host:myhost", "cpu:mycpu", "os:freebsd47", "gm:mygm", "gm:ipgm15-linux24"}
NIC_PARTS = {"nic:mynic", "chip:82545em", "driver:mydriver"}
LANAI_PARTS = {"lanai:mylanai", "lanai:gm164-lanai", "lanai:gm15-lanai"}
# Every profile of the machine and every profile those derive from.
MACHINE_PROFILES = HOST_PARTS | NIC_PARTS | LANAI_PARTS | {
    "cpu:athlonxp2800-760mpx", "gm:gm-host", "nic:mynic-nocoal", "driver:mydriver-nocoal",
    "driver:em13-fbsd47"}
MACHINE_KINDS = {"host", "cpu", "os", "gm", "nic", "chip", "driver", "lanai"}
NETPIPE = ["--host=myhost", "--max-block=64", "--jobs=1"]
GM = ["--host=myhost", "--lanai=mylanai", "--jobs=1"]

# scenario: (its arguments, the data.csv columns and the values they must hold, the parts every
# point must be composed of, whether it takes --switches)
RUNS = {
    "gige-mtu-sweep": (["--nic=mynic", "--sockbuf=131072", *NETPIPE],
                       {"nic": "mynic", "host": "myhost", "pci": SLOT, "mtu": 9000},
                       HOST_PARTS | NIC_PARTS, True),
    "gige-tcp-netpipe": (["--nic=mynic", "--sockbuf=131072", *NETPIPE],
                         {"nic": "mynic", "host": "myhost", "pci": SLOT, "mtu": 9000},
                         HOST_PARTS | NIC_PARTS, True),
    "gige-mpi-netpipe": (["--nic=mynic", "--stack=mpich", *NETPIPE],
                         {"nic": "mynic", "host": "myhost", "pci": SLOT, "mtu": 9000},
                         HOST_PARTS | NIC_PARTS, True),
    "myrinet-tcp-over-gm": (["--nic=mylanai", "--sockbuf=131072", *NETPIPE],
                            {"nic": "mylanai", "host": "myhost", "pci": SLOT},
                            HOST_PARTS | LANAI_PARTS, True),
    "what-if": (["--nic=mynic", f"--pci={SLOT}", *NETPIPE],
                {"nic": "mynic", "host": "myhost", "pci": SLOT, "mtu": 9000},
                HOST_PARTS | NIC_PARTS, True),
    "myrinet-gm-allsize": ([*GM, "--mode=uni", "--max-msg=64"],
                           {"nic": "mylanai", "host": "myhost", "pci": SLOT},
                           HOST_PARTS | LANAI_PARTS, True),
    "myrinet-gm-logp": ([*GM, "--sizes=none", "--delta=0", "--max-burst=4", "--reps=2"],
                        {"nic": "mylanai", "host": "myhost", "pci": SLOT},
                        HOST_PARTS | LANAI_PARTS, True),
    "myrinet-mpich-gm": ([*GM, "--max-block=64"],
                         {"nic": "mylanai", "host": "myhost", "pci": SLOT},
                         HOST_PARTS | LANAI_PARTS, True),
    "myrinet-pci-dma": (GM, {"nic": "mylanai", "host": "myhost", "pci": SLOT},
                        HOST_PARTS | LANAI_PARTS, False),
    "raw-ethernet-vs-myrinet": ([*GM, "--nic=mynic", "--nic-nocoal=mynic-nocoal",
                                 "--max-msg=64", "--reps=2"],
                                {"host": "myhost", "pci": SLOT},
                                HOST_PARTS | LANAI_PARTS | NIC_PARTS, True),
    "lampi-latency-bandwidth": ([*GM, "--nic=mynic", "--stack=lampi-tcp,lampi-gm",
                                 "--min-msg=4", "--max-msg=64", "--reps=2"],
                                {"host": "myhost", "pci": SLOT},
                                HOST_PARTS | LANAI_PARTS | NIC_PARTS, True),
    "nt-pingpong": (["--config=mpipro:myhost:mynic", "--lengths=1,64", "--repeats=2",
                     "--jobs=1"],
                    {"host": "myhost", "nic": "mynic", "pci": SLOT}, HOST_PARTS | NIC_PARTS,
                    True),
    "hpvm-fm": (["--config=1.9:myhost", "--lanai=mylanai", "--chipset=440bx",
                 "--sizes=8,4096", "--reps=2", "--jobs=1"],
                {"host": "myhost", "lanai": "mylanai", "chipset": "440bx"},
                HOST_PARTS | {"lanai:mylanai", "chipset:440bx", "fm:hpvm19"}, True),
    "hpvm-smt": (["--host=myhost", "--lanai=mylanai", "--chipset=440bx", "--sizes=8",
                  "--reps=2", "--jobs=1"],
                 {"host": "myhost", "lanai": "mylanai", "chipset": "440bx"},
                 HOST_PARTS | {"lanai:mylanai", "chipset:440bx"}, False),
    "hpvm-pio-pacing": (["--host=myhost", "--lanai=mylanai", "--chipset-list=440bx",
                         "--reps=2", "--jobs=1"],
                        {"host": "myhost", "lanai": "mylanai", "chipset": "440bx"},
                        HOST_PARTS | {"lanai:mylanai", "chipset:440bx"}, False),
}

CASES = [(s, n) for s, (_, _, _, fabric) in RUNS.items() for n in ((0, 1) if fabric else (None,))]


def _parts(out):
    with open(out / "provenance.csv", newline="") as f:
        return [set(p for p in rec["parts"].split(";") if p) for rec in csv.DictReader(f)]


@pytest.mark.parametrize("scenario, switches", CASES)
def test_a_machine_of_ones_own_runs_every_benchmark_scenario(tmp_path, scenario_env, scenario,
                                                             switches):
    args, columns, parts, _ = RUNS[scenario]
    path = tmp_path / "machine.toml"
    path.write_text(MACHINE)
    out = tmp_path / "out"
    fabric = [] if switches is None else [f"--switches={switches}"]
    proc = _run(scenario, [f"--profile-file={path}", f"--out={out}", *args, *fabric],
                scenario_env, timeout=600)
    assert proc.returncode == 0, proc.stderr

    data = pd.read_csv(out / "data.csv", dtype=str, keep_default_na=False)
    assert len(data) > 0
    if scenario == "what-if":
        data = data[data["case"] == "what-if"]
    for column, value in columns.items():
        assert set(data[column]) == {str(value)}, (column, set(data[column]))
    if switches is not None and "switches" in data.columns:
        used = set(data["switches"]) - {""}   # nt-pingpong's shared-memory rows have none
        assert used == {str(switches)}
    if "nic" in data.columns and "lanai" not in columns and scenario.startswith("raw"):
        assert set(data["nic"]) == {"mynic", "mynic-nocoal", "mylanai"}

    # Every throughput in both decimal units, each column named by its unit, the same number.
    rates = {c[:-len("mbps")] for c in data.columns if c.endswith("mbps")} | \
        {c[:-len("mbytes_per_s")] for c in data.columns if c.endswith("mbytes_per_s")}
    for rate in rates:
        mbps, mbytes = rate + "mbps", rate + "mbytes_per_s"
        assert {mbps, mbytes} <= set(data.columns), f"{rate}: not in both units"
        pair = data[[mbps, mbytes]].replace("", "nan").astype(float).dropna()
        assert ((pair[mbps] - 8 * pair[mbytes]).abs() <= 0.004 + 1e-9).all(), pair

    points = _parts(out)
    missing = parts - set().union(*points)
    assert not missing, f"no point composed of {sorted(missing)}"
    for point in points:
        assert HOST_PARTS <= point, sorted(point)
        # Of the kinds the machine is made of, no profile but the machine's and its bases.
        other = {p for p in point if p.split(":")[0] in MACHINE_KINDS} - MACHINE_PROFILES
        assert not other, f"not the machine's: {sorted(other)}"
    # Another machine than any paper's: nothing is compared.
    assert not (out / "summary.csv").exists() or \
        len(pd.read_csv(out / "summary.csv")) == 0, (out / "summary.csv").read_text()
    assert _lines(proc, "no paper for this setup") or not (out / "summary.csv").exists()


def test_a_fabric_other_than_the_papers_is_recorded_and_not_compared(tmp_path, scenario_env):
    """The paper's own parts, two switches between them: the run says the fabric is not the
    paper's setup, and the parts record it."""
    out = tmp_path / "out"
    proc = _run("myrinet-gm-allsize", [f"--out={out}", "--mode=uni", "--max-msg=64",
                                       "--switches=2", "--jobs=1"], scenario_env)
    assert proc.returncode == 0, proc.stderr
    assert all("setup:switches=2" in p for p in _parts(out))
    assert _lines(proc, "no paper for this setup", "--switches=2")
    assert not (out / "summary.csv").exists()
    data = pd.read_csv(out / "data.csv")
    assert set(data["switches"]) == {2}


def test_each_switch_adds_its_latency_and_at_most_a_cable_and_a_poll(tmp_path, scenario_env):
    """One-way latency across a line of switches grows by at least one switch latency per switch
    and by no more than that, a cable delay and some cycles of the LANai's dispatch loop: the
    receiving LANai sees a packet when its loop next polls, so a cable's 15 ns can fall within
    the poll the packet would have met anyway (timed in steady state, 4 switches add 2.000 us)."""
    latency = {}
    for n in (0, 4):
        out = tmp_path / f"out{n}"
        proc = _run("myrinet-gm-allsize", [f"--out={out}", "--mode=uni", "--max-msg=1",
                                           f"--switches={n}", "--report=0", "--jobs=1"],
                    scenario_env)
        assert proc.returncode == 0, proc.stderr
        latency[n] = float(pd.read_csv(out / "data.csv")["latency_us"].iloc[0])
    # MyrinetSwitch Latency 500 ns, MyrinetChannel Delay 15 ns (the attributes' defaults).
    per_switch = (latency[4] - latency[0]) / 4
    assert 0.5 <= per_switch <= 0.515 + 0.05, per_switch


def test_the_papers_fabric_given_explicitly_is_the_papers_setup(tmp_path, scenario_env):
    """--switches=0 on seed 001's back-to-back benchmark is its paper's fabric: nothing is
    recorded and the run is compared as without the flag."""
    out = tmp_path / "out"
    proc = _run("myrinet-gm-allsize", [f"--out={out}", "--mode=uni", "--max-msg=64",
                                       "--switches=0", "--jobs=1"], scenario_env)
    assert proc.returncode == 0, proc.stderr
    assert not any(p.startswith("setup:") for point in _parts(out) for p in point)
    assert (out / "summary.csv").exists()
    assert not _lines(proc, "no paper for this setup")
