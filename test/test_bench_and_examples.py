# SPDX-License-Identifier: GPL-2.0-only
"""The benchmark and the example programs: output contract and clean refusal of bad input."""
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from conftest import BUILD

REPO = Path(__file__).resolve().parents[1]


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
    # events per packet: a frame's transmit-complete and its arrival are events of their own
    for model, row in rows.items():
        assert int(row[7]) >= 2 * int(row[4]) and float(row[8]) >= 2.0, row


def test_ns3_bench_prints_every_part_it_is_asked_for(scenario_env, tmp_path):
    """./ns3 bench's figures (utils/bench.py, tiny sizes): (a, b) a row per run with both
    models' wall and events per packet and their ratio; (c) a row per Clos size whose packet
    count is the all-to-all's: 16 hosts x 15 peers x one 4096-byte packet each."""
    program(BUILD / "scenarios" / "bench-gige-vs-p2p")
    proc = subprocess.run([sys.executable, str(REPO / "utils" / "bench.py"), "--parts=a,c",
                           "--runs=2", "--bytes=1000000", "--clos=16x4096",
                           f"--out={tmp_path}"],
                          capture_output=True, text=True, env=scenario_env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    runs = [ln.split() for ln in lines if re.match(r"\s+[12]\s+\d", ln)]
    assert len(runs) == 2 and all(len(r) == 6 for r in runs), proc.stdout
    for r in runs:
        assert float(r[3]) == pytest.approx(float(r[1]) / float(r[2]), abs=0.01)
    assert any(ln.strip().startswith("ratio: min") for ln in lines)
    # (b) by kind: the census's kinds of the clusternet run, per packet, the PCI bus's among
    # them, together no more than its events per packet.
    kinds = [ln.split(None, 2) for ln in lines if re.match(r"\s+\d+\.\d\d  +\d+\.\d\d  \S", ln)]
    assert any("PciBus" in k[2] for k in kinds), proc.stdout
    assert 0 < sum(float(k[0]) for k in kinds) <= float(runs[0][4]) + 0.01 * len(kinds)
    clos = [ln.split() for ln in lines if re.match(r"\s+16\s+4096\s", ln)]
    assert len(clos) == 1 and int(clos[0][2]) == 16 * 15, proc.stdout
    # the headline figures, for ./ns3 report: the median of the runs' ratios, the Clos rates
    figures = pd.read_csv(tmp_path / "figures.csv")
    assert list(figures["part"]) == ["a", "c", "c"], figures
    ratio = sorted(float(r[1]) / float(r[2]) for r in runs)
    assert figures["value"][0] == pytest.approx(sum(ratio) / 2, rel=1e-3)
    assert figures["value"][2] == pytest.approx(float(clos[0][6]), abs=0.06)   # peak RSS, MB


@pytest.mark.parametrize("args,name", [(["--parts=x"], "--parts"), (["--runs=0"], "--runs"),
                                       (["--clos=100x5"], "--clos"), (["--bytes=1"], "--bytes"),
                                       (["--frob"], "--frob")])
def test_ns3_bench_refuses_bad_options_in_one_line(scenario_env, args, name):
    proc = subprocess.run([sys.executable, str(REPO / "utils" / "bench.py"), *args],
                          capture_output=True, text=True, env=scenario_env, timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and name in lines[0], proc.stderr


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


def _clos_figures(scenario_env, out, hosts, msg):
    exe = program(BUILD / "scenarios" / "myrinet-clos-alltoall")
    proc = subprocess.run([exe, f"--hosts={hosts}", f"--msg={msg}", "--resume=0",
                           f"--out={out}"], capture_output=True, text=True, env=scenario_env,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    return dict(re.findall(r"(\w+)=([^\s]+)", proc.stdout))


def test_clos_memory_follows_what_is_in_flight_not_what_was_sent(scenario_env, tmp_path):
    """128 hosts, all-to-all of 4 KB and of 16 KB messages (4x the packets, 65,024 against
    16,256): packets are created as the ports need them and a worm, its packet and its state are
    freed when its last hop is released, so the packets alive at once and the peak RSS do not
    grow with the message. (Before, every packet was created at the start and every worm kept
    itself alive through its step event: 16 KB took ~90 MB more than 4 KB.)"""
    small = _clos_figures(scenario_env, tmp_path / "small", 128, 4096)
    large = _clos_figures(scenario_env, tmp_path / "large", 128, 16384)
    assert int(large["packets_sent"]) == 4 * int(small["packets_sent"]) == 4 * 128 * 127
    assert int(large["peak_packets_in_flight"]) <= int(small["peak_packets_in_flight"])
    assert float(large["peak_rss_MB"]) <= float(small["peak_rss_MB"]) + 16.0


def test_bench_netpipe_workload_is_the_table1_point_and_its_floor(scenario_env, tmp_path):
    """--workload=netpipe: the clusternet run is gige-mtu-sweep's point (the same NetPIPE
    curve, so the same peak and the same number of block sizes, from another program); the
    point-to-point run measures the same blocks with the same TCP (host profile's stack) and
    is bounded by PPP framing at 1 Gbit/s."""
    exe = program(BUILD / "scenarios" / "bench-gige-vs-p2p")
    args = ["--nic=acenic", "--mtu=9000", "--sockbuf=65536", "--max-block=65536"]
    proc = subprocess.run([exe, "--workload=netpipe", *args, f"--out={tmp_path / 'b'}"],
                          capture_output=True, text=True, env=scenario_env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert lines[0].split()[:4] == ["model", "blocks", "sim_s", "peak_Mbps"], lines[0]
    rows = {line.split()[0]: line.split() for line in lines[1:-1]}
    assert set(rows) == {"clusternet", "p2p"} and re.fullmatch(r"ratio=\d+\.\d\d", lines[-1])
    sweep = subprocess.run([str(BUILD / "scenarios" / "gige-mtu-sweep"), *args,
                            f"--out={tmp_path / 's'}", "--report=0", "--jobs=1"],
                           capture_output=True, text=True, env=scenario_env, timeout=120)
    assert sweep.returncode == 0, sweep.stderr
    import pandas as pd

    curve = pd.read_csv(tmp_path / "s" / "data.csv")
    bench = pd.read_csv(tmp_path / "b" / "data.csv").set_index("model")
    assert int(rows["clusternet"][1]) == int(rows["p2p"][1]) == len(curve)
    assert (bench.blocks == len(curve)).all()
    assert bench.peak_mbps["clusternet"] == pytest.approx(curve.mbps.max(), abs=0.001)
    assert 0 < bench.peak_mbps["p2p"] <= 1e3 * (9000 - 52) / (9000 + 2)
    assert bench.peak_mbps["p2p"] > bench.peak_mbps["clusternet"]  # no host, PCI or NIC


def test_ns3_bench_compares_one_paper_point_with_simgrid(scenario_env, tmp_path):
    """(e) the 16 Table 1 points and the GM allsize points, whole process each, with medians,
    and ns-3's floor for each Table 1 configuration;
    (g) SimGrid's flow model on the same ping-pong when SimGrid is installed (its walls, the
    ratio, both errors against Table 1: SimGrid's one curve misses far more), else one line
    saying it was skipped."""
    program(BUILD / "scenarios" / "gige-mtu-sweep")
    proc = subprocess.run([sys.executable, str(REPO / "utils" / "bench.py"), "--parts=g",
                           "--runs=1", f"--out={tmp_path}"], capture_output=True, text=True, env=scenario_env,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert len(re.findall(r"^  gige-mtu-sweep .* [\d.]+ s$", out, re.M)) == 16, out
    assert re.search(r"seed 000 Table 1 NetPIPE configuration: median [\d.]+ s", out), out
    # ns-3's floor: a row per configuration, its ratio column the quotient of its walls, and
    # the medians of each column
    floor = re.findall(r"^  (acenic|sknet) mtu=(\d+) sockbuf=(\d+) +([\d.]+) +([\d.]+) +([\d.]+) "
                       r"+(\d+) +(\d+)$", out, re.M)
    assert len(floor) == 16, out
    for row in floor:
        assert float(row[5]) == pytest.approx(float(row[3]) / float(row[4]), abs=0.006), row
        assert int(row[6]) > 0 and int(row[7]) > 0
    medians = re.search(r"median Simulator::Run\(\) wall: clusternet ([\d.]+) s, "
                        r"point-to-point ([\d.]+) s", out)
    assert medians, out
    for column, median in ((3, medians.group(1)), (4, medians.group(2))):
        walls = sorted(float(r[column]) for r in floor)
        assert float(median) == pytest.approx((walls[7] + walls[8]) / 2, abs=0.0006)
    installed = subprocess.run(["pkg-config", "--exists", "simgrid"]).returncode == 0
    if not installed:
        assert "SimGrid is not installed (Debian libsimgrid-dev): skipped" in out, out
        return
    m = re.search(r"clusternet: median ([\d.]+) s per configuration = ([\d.]+) x", out)
    assert m, out
    sg = re.search(r"whole process median ([\d.]+) s over", out)
    fl = re.search(r"ns-3's floor \(part e, point-to-point, no host model\): median ([\d.]+) s = "
                   r"([\d.]+) x SimGrid's wall", out)
    assert sg and fl and fl.group(1) == medians.group(2), out
    assert float(fl.group(2)) == pytest.approx(float(fl.group(1)) / float(sg.group(1)), rel=0.1)
    errors = re.search(r"clusternet ([\d.]+)%, SimGrid ([\d.]+)%", out)
    assert errors and float(errors.group(1)) < float(errors.group(2)), out
