# SPDX-License-Identifier: GPL-2.0-only
"""A machine of one's own, described by profile files derived from the built-in ones: a flag
that is not given never replaces a value of the machine's profiles (a given flag that
conflicts is applied and says so in one line), and a run whose parts are not its paper's setup
is not compared with the paper."""

import subprocess
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]

# A Gigabit Ethernet card of one's own: the SK-NET chip and driver, configured for jumbo frames.
JUMBO_NIC = """\
[jumbonic]
kind = "nic"
base = "sknet"
description = "SK-NET set up for 9000-byte frames (test)"

[jumbonic.device]
Mtu = ["9000", "test: the card's driver configured for jumbo frames"]
"""

# A host of one's own: the Pentium 200 node of seed 001 with a CPU twice as fast.
FAST_HOST = """\
[fastcpu]
kind = "cpu"
base = "p200-430vx"
description = "a Pentium at 400 MHz on the 430VX board (test)"

[fastcpu.cpu]
Clock = ["400", "test: twice seed 001's clock"]

[fasthost]
kind = "host"
parts = ["fastcpu", "linux24", "gm15-linux24", "ipgm15-linux24"]
description = "seed 001's node with a 400 MHz CPU (test)"
"""

NETPIPE_ARGS = ["--sockbuf=131072", "--max-block=64", "--report=0", "--jobs=1"]
GM_ARGS = ["--mode=uni", "--max-msg=4096", "--jobs=1"]


def _run(prog, args, env, timeout=300):
    exe = ROOT / "build" / "scenarios" / prog
    if not exe.exists():
        pytest.skip(f"{exe} not built (run ./ns3 build)")
    return subprocess.run([exe, *args], capture_output=True, text=True, env=env,
                          timeout=timeout)


def _lines(proc, *words):
    """The lines of the run's output (stdout and stderr) that hold every one of ``words``."""
    return [line for line in (proc.stdout + proc.stderr).splitlines()
            if all(w in line for w in words)]


def _run_jumbo(tmp_path, env, *args):
    """gige-tcp-netpipe with the jumbo-frame NIC's profile file; the run and its data."""
    path = tmp_path / "jumbo.toml"
    path.write_text(JUMBO_NIC)
    out = tmp_path / "out"
    proc = _run("gige-tcp-netpipe", [f"--profile-file={path}", *args, f"--out={out}"], env)
    assert proc.returncode == 0, proc.stderr
    return proc, pd.read_csv(out / "data.csv"), out


def test_a_nic_profiles_mtu_is_the_runs_when_no_mtu_is_given(tmp_path, scenario_env):
    proc, data, _ = _run_jumbo(tmp_path, scenario_env, "--nic=jumbonic", *NETPIPE_ARGS)
    assert set(data["mtu"]) == {9000}, "a --mtu not given replaced the NIC profile's MTU"
    assert not _lines(proc, "--mtu"), "nothing was given, so nothing conflicts"


def test_a_given_mtu_that_conflicts_with_the_profile_is_applied_and_said(tmp_path,
                                                                          scenario_env):
    proc, data, _ = _run_jumbo(tmp_path, scenario_env, "--nic=jumbonic", "--mtu=1500",
                               *NETPIPE_ARGS)
    assert set(data["mtu"]) == {1500}
    said = _lines(proc, "--mtu", "1500", "9000", "jumbonic")
    assert len(said) == 1, proc.stdout + proc.stderr


def test_the_papers_setup_is_compared_with_the_paper(tmp_path, scenario_env):
    out = tmp_path / "out"
    proc = _run("myrinet-gm-allsize", [f"--out={out}", *GM_ARGS], scenario_env)
    assert proc.returncode == 0, proc.stderr
    assert (out / "summary.csv").exists()
    assert _lines(proc, "mode=uni", "peak_mbytes_per_s", "107")
    assert not _lines(proc, "no paper for this setup")


@pytest.mark.parametrize("how", ["host profile", "override"])
def test_a_run_on_other_parts_is_not_compared_with_the_paper(tmp_path, scenario_env, how):
    path = tmp_path / "fast.toml"
    path.write_text(FAST_HOST)
    args = {"host profile": [f"--profile-file={path}", "--host=fasthost"],
            "override": ["--set=cpu.Clock=400"]}[how]
    out = tmp_path / "out"
    proc = _run("myrinet-gm-allsize", [f"--out={out}", *args, *GM_ARGS], scenario_env)
    assert proc.returncode == 0, proc.stderr
    assert (out / "data.csv").exists()
    assert not (out / "summary.csv").exists(), "compared with a paper of other hardware"
    assert len(_lines(proc, "no paper for this setup")) == 1, proc.stdout
    assert not _lines(proc, "107"), "the seed-001 row printed for different hardware"


def test_a_run_mixing_the_papers_card_with_ones_own_compares_only_the_papers(tmp_path,
                                                                             scenario_env):
    proc, data, out = _run_jumbo(tmp_path, scenario_env, "--nic=sknet,jumbonic",
                                 *NETPIPE_ARGS[:-2])
    mine = int((data["nic"] == "jumbonic").sum())
    said = _lines(proc, f"{mine} of {len(data)} rows not compared with seed 000", "jumbonic")
    assert len(said) == 1, proc.stdout
    summary = pd.read_csv(out / "summary.csv")
    latency = summary[summary.config == "nic=sknet;mtu=1500;sockbuf=131072"]
    latency = latency[latency.metric == "latency_us"]
    # the SK-NET's own 1-byte one-way time, read from its rows alone
    sknet = data[(data.nic == "sknet") & (data.block_bytes == 1)]["oneway_us"].iloc[0]
    assert latency.sim_value.iloc[0] == pytest.approx(sknet)
    assert summary[summary.config.str.contains("mtu=9000")].sim_value.isna().all()


# A LANai board of one's own that runs at 66 MHz.
BOARD_66 = """\
[lanai9-66]
kind = "lanai"
base = "lanai9"
description = "LANai 9 on a 66 MHz board (test)"

[lanai9-66.properties]
PciClock = ["66", "test: a PCI64 board"]
"""


@pytest.mark.parametrize("host, slot, said", [("p200-430vx-linux24", "32x33", 1),
                                              ("athlonxp2800-fbsd47", "64x66", 0)])
def test_a_boards_pci_clock_the_bus_does_not_follow_is_said(tmp_path, scenario_env, host, slot,
                                                            said):
    path = tmp_path / "board.toml"
    path.write_text(BOARD_66)
    out = tmp_path / "out"
    proc = _run("myrinet-gm-allsize", [f"--profile-file={path}", "--lanai=lanai9-66",
                                       f"--host={host}", f"--out={out}", *GM_ARGS], scenario_env)
    assert proc.returncode == 0, proc.stderr
    assert set(pd.read_csv(out / "data.csv")["pci"]) == {slot}
    assert len(_lines(proc, "lanai9-66", "PciClock", "66 MHz", host)) == said, proc.stderr


@pytest.mark.parametrize("host, clock", [("p200-430vx-linux24", 200.0), ("fasthost", 400.0)])
def test_gm_reports_host_cpu_per_message_from_the_hosts_cycles(tmp_path, scenario_env, host,
                                                                clock):
    from analysis.catalogue import profile_value

    path = tmp_path / "fast.toml"
    path.write_text(FAST_HOST)
    out = tmp_path / "out"
    proc = _run("myrinet-gm-allsize", [f"--profile-file={path}", f"--host={host}",
                                       f"--out={out}", "--mode=uni,bi", "--max-msg=4096",
                                       "--jobs=1"], scenario_env)
    assert proc.returncode == 0, proc.stderr

    def gm(attribute):
        return float(profile_value("gm", "gm-host", "gm", attribute))

    # One message of a stream costs its sender gm_send and the SENT event, its receiver the
    # RECEIVED event and the buffer given back; reference cycles become time at the CPU's
    # clock times its core factor (the P5's iCOMP ratio against the P6).
    cycles = gm("SendCycles") + 2 * gm("EventCycles") + gm("ProvideCycles")
    factor = float(profile_value("cpu", "p200-430vx", "cpu", "CoreFactor"))
    expected = cycles / (clock * factor)
    data = pd.read_csv(out / "data.csv")
    assert data["host_cpu_us"].to_numpy() == pytest.approx(expected, abs=1e-3)
    said = _lines(proc, "uni: host CPU per message (send + receive)", f"{expected:.3g} us")
    assert len(said) == 1, proc.stdout
    assert _lines(proc, "per direction")


def test_gm_latency_has_no_first_message_effect(tmp_path, scenario_env):
    """A smaller message is never slower: the first round trip into each receive buffer (the
    LANai's page translations not yet cached) is not timed, as gm_allsize's many round trips
    amortize it. The 1-byte point was 0.63 us above the 2-byte one, so a "smallest message"
    rule read the artefact."""
    out = tmp_path / "out"
    proc = _run("myrinet-gm-allsize", [f"--out={out}", "--mode=uni", "--max-msg=8",
                                       "--jobs=1"], scenario_env)
    assert proc.returncode == 0, proc.stderr
    latency = pd.read_csv(out / "data.csv").sort_values("msg_bytes")["latency_us"].to_numpy()
    assert all(a <= b for a, b in zip(latency, latency[1:])), latency
