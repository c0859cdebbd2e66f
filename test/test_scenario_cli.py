# SPDX-License-Identifier: GPL-2.0-only
"""Scenario programs: bad input is refused cleanly; a small sweep is complete and deterministic."""

import pandas as pd
import pytest

BAD_INPUTS = [
    (["--mtu=100"], "--mtu"),
    (["--mtu=20000"], "--mtu"),
    (["--sockbuf=-5"], "--sockbuf"),
    (["--nic=foo"], "--nic"),
    (["--mtu=abc"], "--mtu"),
    (["--jobs=two"], "--jobs"),
    (["--frobnicate=1"], "--frobnicate"),
    (["--pci=48x33"], "--pci"),
    (["--set=device.NoSuchAttribute=1"], "--set"),
    (["--set=device.Mtu=20000"], "--set"),
    (["--set=bus.Width=48"], "--set"),  # an enum value outside its checker's names
    (["--set=switch.Mtu=1500"], "--set"),  # a target the scenario does not have
    (["--set=cpu.CopyBandwidth"], "--set"),  # not target.Attribute=value
]


@pytest.mark.parametrize("args,name", BAD_INPUTS)
def test_bad_input_one_line_exit_2_no_files(assert_refused, args, name):
    assert_refused("gige-mtu-sweep", args, name)


SMALL = ("--nic=sknet,acenic", "--mtu=1500", "--sockbuf=65536", "--max-block=4096", "--jobs=2",
         "--report=0")


def test_small_sweep_is_complete_and_deterministic(run_program, tmp_path):
    run_program("gige-mtu-sweep", *SMALL, f"--out={tmp_path / 'a'}")
    run_program("gige-mtu-sweep", *SMALL, f"--out={tmp_path / 'b'}")
    first = (tmp_path / "a" / "data.csv").read_bytes()
    second = (tmp_path / "b" / "data.csv").read_bytes()
    assert first == second, "same parameters must give byte-identical data.csv"
    df = pd.read_csv(tmp_path / "a" / "data.csv")
    assert list(df.columns) == ["nic", "host", "pci", "switches", "mtu", "sockbuf",
                                "block_bytes", "oneway_us", "mbps", "mbytes_per_s", "reps"]
    assert set(df.nic) == {"sknet", "acenic"}
    for _, curve in df.groupby("nic"):
        assert curve.block_bytes.min() == 1 and curve.block_bytes.max() == 4096
        # throughput is bytes*8/one-way time
        assert (abs(curve.mbps - curve.block_bytes * 8 / curve.oneway_us) < 1e-2).all()
    # no temporary files left behind by the atomic writers
    assert not list((tmp_path / "a").rglob("*.tmp*"))


def test_help_lists_knobs_with_units(run_program):
    proc = run_program("gige-mtu-sweep", "--help", timeout=60)
    text = proc.stdout + proc.stderr
    for knob, unit in [("--mtu", "bytes"), ("--sockbuf", "bytes"), ("--pci", "MHz"),
                       ("--jobs", "processes"), ("--max-block", "bytes"),
                       ("--scheduler", "tcp://HOST:PORT"), ("--resume", "0/1")]:
        assert knob in text
        assert unit in text
