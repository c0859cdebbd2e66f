# SPDX-License-Identifier: GPL-2.0-only
"""The benchmark and the example programs: output contract and clean refusal of bad input."""
import re
import subprocess

import pytest

from conftest import BUILD


def program(path):
    if not path.exists():
        pytest.skip(f"{path} not built (run ./ns3 build)")
    return str(path)


def test_bench_reports_both_models_and_ratio(scenario_env):
    exe = program(BUILD / "scenarios" / "bench-gige-vs-p2p")
    proc = subprocess.run([exe, "--bytes=2000000"], capture_output=True, text=True,
                          env=scenario_env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert re.fullmatch(r"ratio=\d+\.\d\d", lines[-1]), lines[-1]
    rows = {line.split()[0]: line.split() for line in lines[1:-1]}
    assert set(rows) == {"clusternet", "p2p"}
    # Goodput bounds [Mbit/s] from framing at MTU 1500 with timestamps (1448-byte segments):
    # Ethernet puts 1538 bytes on the wire per segment (preamble, header, FCS, IFG), PPP 1502.
    bound = {"clusternet": 1e3 * 1448 / 1538, "p2p": 1e3 * 1448 / 1502}
    for model, row in rows.items():
        assert int(row[1]) == 2000000  # every byte reached the sink
        assert 0 < float(row[3]) <= bound[model] + 0.1
    # both carried the same data segments; ACK counts may differ with timing
    assert int(rows["clusternet"][4]) >= 2000000 // 1448


@pytest.mark.parametrize("exe,args,name", [
    ("scenarios/bench-gige-vs-p2p", ["--bytes=abc"], "--bytes"),
    ("scenarios/bench-gige-vs-p2p", ["--nic=foo"], "--nic"),
    ("scenarios/bench-gige-vs-p2p", ["--sockbuf=-5"], "--sockbuf"),
    ("scenarios/gige-switch-incast", ["--senders=99"], "--senders"),
    ("scenarios/gige-switch-incast", ["--pause=maybe"], "--pause"),
    ("scenarios/gige-switch-incast", ["--frobnicate"], "--frobnicate"),
    ("scenarios/myrinet-clos-alltoall", ["--hosts=100"], "--hosts"),
    ("scenarios/myrinet-clos-alltoall", ["--hosts=64"], "--hosts"),
    ("scenarios/myrinet-clos-alltoall", ["--level=mpi"], "--level"),
    ("scenarios/myrinet-clos-alltoall", ["--level=gm", "--lanai=lanai11"], "--lanai"),
])
def test_bad_input_one_line_exit_2(scenario_env, exe, args, name):
    proc = subprocess.run([program(BUILD / exe), *args], capture_output=True, text=True,
                          env=scenario_env, timeout=60)
    assert proc.returncode == 2, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and name in lines[0], proc.stderr
    assert proc.stdout == ""


def test_clos_alltoall_over_gm_completes_lossless(scenario_env):
    exe = program(BUILD / "scenarios" / "myrinet-clos-alltoall")
    proc = subprocess.run([exe, "--hosts=16", "--msg=10000", "--level=gm"], capture_output=True,
                          text=True, env=scenario_env, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    fields = dict(item.split("=") for item in proc.stdout.split())
    # 16 x 15 messages of 10000 bytes, each 3 GM packets (4096 + 4096 + 1808).
    assert fields["level"] == "gm" and fields["unfinished_processes"] == "0"
    assert int(fields["gm_messages"]) == 16 * 15
    assert int(fields["packets_delivered"]) == int(fields["expected"]) == 16 * 15 * 3
    assert fields["drops"] == "0" and fields["slack_overflows"] == "0"
    # Every data packet is acknowledged: the wire carried one ACK per data packet.
    assert int(fields["packets_sent"]) == 2 * 16 * 15 * 3


def test_clos_alltoall_over_gm_resends_when_buffers_run_short(scenario_env):
    exe = program(BUILD / "scenarios" / "myrinet-clos-alltoall")
    proc = subprocess.run([exe, "--hosts=16", "--msg=10000", "--level=gm",
                           "--receive-buffers=1"], capture_output=True, text=True,
                          env=scenario_env, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    fields = dict(item.split("=") for item in proc.stdout.split())
    # One buffer per host against 15 senders at once: GM drops, NACKs and resends, and still
    # every message arrives exactly once (the data packets counted once each).
    assert int(fields["gm_nacks"]) > 0 and int(fields["gm_resent"]) > 0
    assert fields["unfinished_processes"] == "0"
    assert int(fields["gm_messages"]) == 16 * 15
    assert int(fields["packets_delivered"]) == int(fields["expected"]) == 16 * 15 * 3
    assert fields["drops"] == "0" and fields["slack_overflows"] == "0"
