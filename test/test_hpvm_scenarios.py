# SPDX-License-Identifier: GPL-2.0-only
"""Seed 004 (HPVM) scenarios: bad input is refused with one line and exit 2; small runs are
deterministic and show the paper's phenomena."""
import subprocess

import pandas as pd
import pytest

BAD_INPUTS = [
    ("hpvm-fm", ["--chipset=440fx"], "--chipset"),
    ("hpvm-pio-pacing", ["--chipset-list=440gx"], "--chipset-list"),
    ("hpvm-fm", ["--pacing=0"], "--pacing"),
    ("hpvm-fm", ["--pacing=2081"], "--pacing"),
    ("hpvm-pio-pacing", ["--pacing=4096"], "--pacing"),
    ("hpvm-fm", ["--credits=0"], "--credits"),
    ("hpvm-fm", ["--credits=-3"], "--credits"),
    ("hpvm-fm", ["--queues=0"], "--queues"),
    ("hpvm-fm", ["--processes=2", "--queues=3"], "--queues"),
    ("hpvm-pio-pacing", ["--fm-version=hpvm20"], "--fm-version"),
    ("hpvm-fm", ["--config=1.9:pii500"], "--config"),
    ("hpvm-fm", ["--set=bridge.QueueLines=0"], "--set"),
]


@pytest.mark.parametrize("prog,args,name", BAD_INPUTS)
def test_bad_input_one_line_exit_2_no_files(assert_refused, prog, args, name):
    assert_refused(prog, args, name)


def run(scenario_bin, env, prog, out, *args):
    proc = subprocess.run([scenario_bin(prog), f"--out={out}", "--jobs=2", *args],
                          capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return out


def test_pio_pacing_phenomena(scenario_bin, scenario_env, tmp_path):
    out = run(scenario_bin, scenario_env, "hpvm-pio-pacing", tmp_path / "a", "--reps=16")
    data = pd.read_csv(out / "data.csv")
    curve = {k: g.set_index("msg_bytes")["mbytes_per_s"]
             for k, g in data.groupby(["chipset", "pacing"])}
    bx_off, bx_paced = curve[("440bx", "off")], curve[("440bx", "probe")]
    lx = curve[("440lx", "off")]
    # the 440BX falls past its 160-byte queue; the 440LX keeps climbing
    assert bx_off.idxmax() == 160 and bx_off[2048] < 0.85 * bx_off[160]
    assert lx.is_monotonic_increasing
    # pacing restores the BX at full packets; the probe picks 160 B on the BX, none on the LX
    assert bx_paced[2048] > 1.15 * bx_off[2048]
    assert set(data[data.chipset == "440bx"].pacing_bytes) == {160}
    assert set(data[data.chipset == "440lx"].pacing_bytes) == {0}
    summary = pd.read_csv(out / "summary.csv")
    assert len(summary) == 3 and summary.sim_value.notna().all()


def test_fm_memory_notification_and_determinism(scenario_bin, scenario_env, tmp_path):
    args = ["--sizes=0,1024", "--reps=10", "--stream-bytes=65536"]
    a = run(scenario_bin, scenario_env, "hpvm-fm", tmp_path / "a", *args)
    b = run(scenario_bin, scenario_env, "hpvm-fm", tmp_path / "b", *args, "--report=0")
    assert (a / "data.csv").read_bytes() == (b / "data.csv").read_bytes()
    data = pd.read_csv(a / "data.csv")
    lat = data[data.msg_bytes == 0].set_index("version")["oneway_us"]
    # memory-based notification cuts the zero-byte latency of HPVM 1.2 by 5..25 %
    cut = (lat[1.2] - lat[1.9]) / lat[1.2]
    assert 0.05 < cut < 0.25
    polls = data.groupby("poll")["poll_ns"].first()
    assert polls["memory"] < 0.5 * polls["pci-poll"]
