# SPDX-License-Identifier: GPL-2.0-only
"""The part options (issue 47): --os, --gm, --driver and --mcp replace one part of the host,
NIC or LANai board a scenario selects, for a what-if about that part alone.

The expectation is independent of the code that composes: the same machine written by hand as
a profile file (its parts listed, the board derived from the other control program) must give
the same numbers. The composed profile's name is in data.csv, its parts in provenance.csv, the
swap is said in one line, and the run is not compared with a paper."""

import csv
import subprocess

import pandas as pd
import pytest

PARTS = """\
[gm164-mcp]
kind = "lanai"
abstract = true
base = "gm15-lanai"
description = "GM 1.6.4's control program (test)"

[gm164-mcp.mcp]
SendCycles = ["80", "test"]

[mygm]
kind = "gm"
base = "gm-host"
description = "another GM host library (test)"

[mygm.gm]
SendCycles = ["200", "test"]

[myboard]
kind = "lanai"
base = "gm15-lanai"
description = "a LANai 9 at 200 MHz under GM 1.5 (test)"

[myboard.lanai]
Clock = ["200", "test"]
SramSize = ["2097152", "test"]

[myboard.link]
DataRate = ["2Gbps", "test"]
"""

# The machines the options compose, written by hand.
BY_HAND = """\
[hand-gm-host]
kind = "host"
parts = ["piii450-440bx", "linux22", "mygm"]
description = "piii450-linux22 with mygm added (test)"

[hand-board]
kind = "lanai"
base = "gm164-mcp"
description = "myboard under gm164-mcp (test)"

[hand-board.lanai]
Clock = ["200", "test"]
SramSize = ["2097152", "test"]

[hand-board.link]
DataRate = ["2Gbps", "test"]

[hand-nic]
kind = "nic"
parts = ["xmac2", "acenic-045"]
description = "sknet with acenic-045 in place of sk98lin-301 (test)"

[hand-host]
kind = "host"
parts = ["piii450-440bx", "linux24"]
description = "piii450-linux22 with linux24 in place of linux22 (test)"

[hand-fm-host]
kind = "host"
parts = ["pii450-netserver", "linux22"]
description = "pii450-netserver-nt4 with linux22 in place of nt4 (test)"

[hand-nt-host]
kind = "host"
parts = ["piii450-440bx", "nt5"]
description = "piii450-nt4 with nt5 in place of nt4 (test)"

[hand-nt-nic]
kind = "nic"
parts = ["xmac2", "ga620-nt4"]
description = "sk9841 with ga620-nt4 in place of sk98xx-nt4 (test)"

[hand-nt-nic.properties]
PriceUsd = ["729", "sk9841's price (test)"]
"""

# scenario: (arguments with the part options, the same machine by hand, the composed names each
# data.csv column holds, the parts provenance must name, the parts it must not)
CASES = {
    "myrinet-gm-allsize": (
        ["--host=piii450-linux22", "--lanai=myboard", "--gm=mygm", "--mcp=gm164-mcp"],
        ["--host=hand-gm-host", "--lanai=hand-board"],
        {"host": "piii450-linux22+mygm", "nic": "myboard+gm164-mcp"},
        {"gm:mygm", "lanai:gm164-mcp", "cpu:piii450-440bx", "os:linux22"},
        {"lanai:myboard", "host:piii450-linux22"},
        ["--mode=uni,bi", "--max-msg=4096", "--jobs=1"]),
    "gige-tcp-netpipe": (
        ["--nic=sknet", "--host=piii450-linux22", "--driver=acenic-045", "--os=linux24"],
        ["--nic=hand-nic", "--host=hand-host"],
        {"host": "piii450-linux22+linux24", "nic": "sknet+acenic-045"},
        {"driver:acenic-045", "chip:xmac2", "os:linux24"},
        {"driver:sk98lin-301", "os:linux22", "host:piii450-linux22", "nic:sknet"},
        ["--mtu=1500", "--sockbuf=65536", "--max-block=8192", "--jobs=1"]),
    "hpvm-fm": (
        ["--config=1.9:pii450", "--os=linux22"],
        ["--config=1.9:hand-fm-host"],
        {"host": "pii450-netserver-nt4+linux22"},
        {"os:linux22", "cpu:pii450-netserver"},
        {"os:nt4", "host:pii450-netserver-nt4"},
        ["--sizes=16,1024", "--reps=2", "--jobs=1"]),
    "nt-pingpong": (
        ["--config=mpipro:nt4:sk9841", "--os=nt5", "--driver=ga620-nt4"],
        ["--config=mpipro:hand-nt-host:hand-nt-nic"],
        {"host": "piii450-nt4+nt5", "nic": "sk9841+ga620-nt4", "os": "nt5"},
        {"os:nt5", "driver:ga620-nt4", "chip:xmac2"},
        {"driver:sk98xx-nt4", "nic:sk9841", "host:piii450-nt4"},   # nt5 derives from nt4
        ["--lengths=1,1024", "--repeats=2", "--jobs=1"]),
}


def _run(scenario_bin, env, prog, args):
    return subprocess.run([scenario_bin(prog), *args], capture_output=True, text=True, env=env,
                          timeout=600)


def _parts(out):
    with open(out / "provenance.csv", newline="") as f:
        return [set(p for p in rec["parts"].split(";") if p) for rec in csv.DictReader(f)]


@pytest.mark.parametrize("scenario", sorted(CASES))
def test_a_part_option_runs_the_machine_written_by_hand(tmp_path, scenario_bin, scenario_env,
                                                        scenario):
    swapped, by_hand, names, present, absent, common = CASES[scenario]
    files = tmp_path / "parts.toml", tmp_path / "hand.toml"
    files[0].write_text(PARTS)
    files[1].write_text(BY_HAND)
    profiles = f"--profile-file={files[0]},{files[1]}"
    out_a, out_b = tmp_path / "swapped", tmp_path / "by-hand"
    a = _run(scenario_bin, scenario_env, scenario, [profiles, f"--out={out_a}", *swapped, *common])
    b = _run(scenario_bin, scenario_env, scenario, [profiles, f"--out={out_b}", *by_hand, *common])
    assert a.returncode == 0 and b.returncode == 0, a.stderr + b.stderr

    data_a = pd.read_csv(out_a / "data.csv", dtype=str, keep_default_na=False)
    data_b = pd.read_csv(out_b / "data.csv", dtype=str, keep_default_na=False)
    for column, name in names.items():
        assert set(data_a[column]) == {name}, (column, set(data_a[column]))
    # Every other column, every number included, is the hand-written machine's.
    assert len(data_a) == len(data_b) > 0
    # The curves' labels: hpvm-fm's cpu, nt-pingpong's os (--os's) and net.
    label_columns = set(names) | {"cpu", "os", "net"}
    others = [c for c in data_a.columns if c not in label_columns]
    pd.testing.assert_frame_equal(data_a[others], data_b[others])

    for parts in _parts(out_a):
        assert present <= parts, present - parts
        assert not parts & absent, parts & absent
    # Each swap said once; no paper compared.
    out = a.stdout + a.stderr
    for option in [s for s in swapped if s.split("=")[0] in ("--os", "--gm", "--driver",
                                                            "--mcp")]:
        said = [line for line in out.splitlines() if line.split(": ")[1:2] == [option]]
        assert len(said) == 1, (option, out)
        assert "no paper has this setup" in said[0]
    assert "no paper for this setup" in out, out
    assert not (out_a / "summary.csv").exists() or \
        "paper" not in (out_a / "summary.csv").read_text().splitlines()[0]


def test_a_part_a_profile_already_has_changes_nothing(tmp_path, scenario_bin, scenario_env):
    """--os=linux24 on seed 001's host (its own OS): the paper's setup, compared as without."""
    common = ["--mode=uni", "--max-msg=64", "--jobs=1"]
    a = _run(scenario_bin, scenario_env, "myrinet-gm-allsize",
             [f"--out={tmp_path / 'a'}", "--os=linux24", "--gm=gm15-linux24", *common])
    b = _run(scenario_bin, scenario_env, "myrinet-gm-allsize", [f"--out={tmp_path / 'b'}",
                                                                *common])
    assert a.returncode == 0 and b.returncode == 0, a.stderr + b.stderr
    assert (tmp_path / "a" / "data.csv").read_bytes() == (tmp_path / "b" / "data.csv").read_bytes()
    assert "no paper for this setup" not in a.stdout + a.stderr
    assert "--os" not in a.stdout + a.stderr


WHOLE = """\
[wholenic]
kind = "nic"
description = "a NIC written whole, without parts (test)"

[wholenic.device]
Mtu = ["1500", "test"]

[bareboard]
kind = "lanai"
description = "a board with no control program (test)"

[bareboard.lanai]
Clock = ["100", "test"]
"""


@pytest.mark.parametrize("prog, args, name", [
    ("myrinet-gm-allsize", ["--os=windows"], "--os"),
    ("myrinet-gm-allsize", ["--mcp=lanai9"], "--mcp"),          # a board, not a program
    ("gige-tcp-netpipe", ["--driver=xmac2"], "--driver"),       # a chip, not a driver
    ("gige-tcp-netpipe", ["--nic=wholenic", "--driver=acenic-045"], "not composed of parts"),
    ("myrinet-gm-allsize", ["--lanai=bareboard", "--mcp=gm15-lanai"], "no GM control program"),
    ("gige-tcp-netpipe", ["--nic=lanai9", "--driver=acenic-045"], "has that part"),
])
def test_a_part_option_that_cannot_apply_is_refused(tmp_path, assert_refused, prog, args, name):
    path = tmp_path / "whole.toml"
    path.write_text(WHOLE)
    assert_refused(prog, [f"--profile-file={path}", *args], name)


# --pci on the scenarios whose machines are built by ClusterArgs and PingPongExperiment: the
# same run as on a host profile written with that slot.
SLOT_HOSTS = """\
[slot-athlon]
kind = "host"
parts = ["athlonxp2800-760mpx", "freebsd47", "gm-fbsd47"]
description = "seed 003's node in a 32-bit/33 MHz slot (test)"

[slot-athlon.bus]
Width = ["32", "test"]
Clock = ["33", "test"]

[slot-nt]
kind = "host"
parts = ["piii450-440bx", "nt4"]
description = "seed 002's host in a 64-bit/66 MHz slot (test)"

[slot-nt.bus]
Width = ["64", "test"]
Clock = ["66", "test"]
"""

PCI_CASES = {
    "raw-ethernet-vs-myrinet": (["--pci=32x33"], ["--host=slot-athlon"], "32x33",
                                ["--net=gige", "--max-msg=4096", "--reps=2"]),
    "lampi-latency-bandwidth": (["--pci=32x33"], ["--host=slot-athlon"], "32x33",
                                ["--stack=lampi-tcp", "--min-msg=4", "--max-msg=4096",
                                 "--reps=2"]),
    "nt-pingpong": (["--config=mpipro:nt4:sk9841", "--pci=64x66"],
                    ["--config=mpipro:slot-nt:sk9841"], "64x66",
                    ["--lengths=1,65536", "--repeats=2"]),
}


@pytest.mark.parametrize("scenario", sorted(PCI_CASES))
def test_pci_runs_the_host_written_with_that_slot(tmp_path, scenario_bin, scenario_env,
                                                  scenario):
    given, by_hand, slot, common = PCI_CASES[scenario]
    path = tmp_path / "slots.toml"
    path.write_text(SLOT_HOSTS)
    out_a, out_b = tmp_path / "pci", tmp_path / "by-hand"
    args = [f"--profile-file={path}", "--jobs=1", *common]
    a = _run(scenario_bin, scenario_env, scenario, [f"--out={out_a}", *given, *args])
    b = _run(scenario_bin, scenario_env, scenario, [f"--out={out_b}", *by_hand, *args])
    assert a.returncode == 0 and b.returncode == 0, a.stderr + b.stderr
    data_a = pd.read_csv(out_a / "data.csv", dtype=str, keep_default_na=False)
    data_b = pd.read_csv(out_b / "data.csv", dtype=str, keep_default_na=False)
    assert set(data_a["pci"]) == set(data_b["pci"]) == {slot}
    others = [c for c in data_a.columns if c not in ("host", "os")]
    assert len(data_a) > 0
    pd.testing.assert_frame_equal(data_a[others], data_b[others])
    assert "no paper for this setup" in a.stdout + a.stderr
