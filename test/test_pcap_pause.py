# SPDX-License-Identifier: GPL-2.0-only
"""PCAP of a PAUSE run, decoded by Wireshark's own dissector (tshark).

The incast example drives two senders into one switch port; the switch's ingress ports send
802.3x PAUSE frames to the senders. The capture of a sender's NIC must hold them as MAC Control
frames (EtherType 0x8808, opcode 1 = PAUSE, to 01:80:c2:00:00:01), both the full-quanta stop
and the zero-quanta resume, as many as the switch port reports sending.
"""
import os
import re
import shutil
import subprocess

import pytest

from conftest import BUILD

EXAMPLE = BUILD / "scenarios" / "gige-switch-incast"


def tshark():
    path = shutil.which("tshark")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("tshark missing: ./ns3 test should have installed it (apt-get install tshark)")
        pytest.skip("tshark not installed (apt-get install tshark)")
    return path


def run_example(tmp_path, *args):
    if not EXAMPLE.exists():
        pytest.skip(f"{EXAMPLE} not built (run ./ns3 build)")
    out = subprocess.run([str(EXAMPLE), *args], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


def mac_control_frames(pcap):
    """Return (eth.dst, eth.type, opcode, pause_time) of every MAC Control frame in pcap."""
    out = subprocess.run(
        [tshark(), "-r", str(pcap), "-Y", "macc", "-T", "fields",
         "-e", "eth.dst", "-e", "eth.type", "-e", "macc.opcode", "-e", "macc.pause_time"],
        capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr
    return [tuple(line.split("\t")) for line in out.stdout.splitlines() if line]


def pause_sent_by_port(stdout, port):
    for line in stdout.splitlines():
        fields = line.split()
        if fields and fields[0] == str(port):
            return int(fields[2])
    raise AssertionError(f"no row for port {port} in:\n{stdout}")


def test_pause_frames_decoded_as_mac_control(tmp_path):
    tshark()
    prefix = tmp_path / "incast"
    stdout = run_example(tmp_path, "--senders=2", "--frames=400", f"--pcap={prefix}")
    assert "drops=0" in stdout
    capture = tmp_path / "incast-0-0.pcap"  # sender 0's NIC
    assert capture.exists()
    frames = mac_control_frames(capture)
    assert frames, "no MAC Control frames in the capture"
    for dst, ethertype, opcode, _ in frames:
        assert dst == "01:80:c2:00:00:01"
        assert ethertype == "0x8808"
        assert int(opcode, 16) == 1  # PAUSE
    quanta = [int(q) for *_, q in frames]
    assert 65535 in quanta, "no stop (full-quanta PAUSE) captured"
    assert 0 in quanta, "no resume (zero-quanta PAUSE) captured"
    # Every PAUSE the switch port facing sender 0 sent reached the capture, and nothing else.
    assert len(frames) == pause_sent_by_port(stdout, 0)


def test_no_pause_frames_when_flow_control_off(tmp_path):
    tshark()
    prefix = tmp_path / "off"
    stdout = run_example(tmp_path, "--pause=false", f"--pcap={prefix}")
    drops = int(re.search(r"drops=(\d+)", stdout).group(1))
    assert drops > 0
    assert mac_control_frames(tmp_path / "off-0-0.pcap") == []
