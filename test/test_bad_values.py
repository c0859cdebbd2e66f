# SPDX-License-Identifier: GPL-2.0-only
"""Bad values are refused before anything runs (issue 26): attribute overrides (--set) and
profile file values that ns-3 would abort on, overflow or divide by zero with, malformed or
empty --set items, overrides of objects a program does not exercise, unusable mpi-replay traces
and pcap prefixes. Each is one stderr line naming the parameter or file:line, exit status 2, no
abort or traceback, and no results (the ``assert_refused`` fixture)."""

import shutil
from pathlib import Path

import pytest

# Small runs, so that a value the unfixed programs accept finishes quickly.
FM = ["--sizes=8", "--reps=1", "--stream-bytes=2048"]
NETPIPE = ["--mtu=1500", "--max-block=64"]

PROFILES = Path(__file__).resolve().parent.parent / "contrib" / "clusternet" / "profiles"
TRACE_OK = "0 send 1 1 100\n1 recv 0 1 100\n"


@pytest.mark.parametrize("prog,args,name", [
    ("hpvm-fm", [*FM, "--set=cpu.CoreFactor=nan"], "cpu.CoreFactor=nan"),
    ("nas-overlap", ["--set=npb.BtRate=nan"], "npb.BtRate=nan"),
    ("nas-overlap", ["--set=npb.BtRate=inf"], "npb.BtRate=inf"),
    ("hpvm-smt", [*FM, "--set=cpu.Clock=1e999"], "cpu.Clock=1e999"),
])
def test_set_nan_double_is_refused(assert_refused, prog, args, name):
    assert_refused(prog, args, name)


@pytest.mark.parametrize("prog,args,name", [
    ("hpvm-fm", [*FM, "--set=cpu.ComputeSlice=1e30s"], "cpu.ComputeSlice=1e30s"),
    # ns-3 Time holds int64 nanoseconds: at most 9223372036 s.
    ("hpvm-fm", [*FM, "--set=cpu.ComputeSlice=9223372037s"], "9223372036s"),
    ("mpi-replay", ["--limit=99999999999999999999s"], "--limit"),
])
def test_set_time_overflow_is_refused(assert_refused, tmp_path, prog, args, name):
    if prog == "mpi-replay":
        trace = tmp_path / "ok.txt"
        trace.write_text(TRACE_OK)
        args = [f"--trace={trace}", *args]
    assert_refused(prog, args, name)


def test_trace_time_overflow_is_refused(assert_refused, tmp_path):
    trace = tmp_path / "big.txt"
    trace.write_text("0 compute 99999999999999999999s\n" + TRACE_OK)
    assert_refused("mpi-replay", [f"--trace={trace}"], f"{trace}:1: compute")


@pytest.mark.parametrize("prog,args,name", [
    ("gige-mtu-sweep", [*NETPIPE, "--set=device.DataRate=0bps"], "device.DataRate=0bps"),
    ("hpvm-fm", [*FM, "--set=link.DataRate=0bps"], "link.DataRate=0bps"),
    ("gige-mtu-sweep", [*NETPIPE, "--set=cpu.CopyBandwidth=0Mbps"], "cpu.CopyBandwidth"),
    ("myrinet-incast", ["--drain=1000", "--set=link.DataRate=0.5bps"], "link.DataRate"),
])
def test_zero_rate_is_refused_up_front(assert_refused, prog, args, name):
    assert_refused(prog, args, name)


def test_zero_rate_in_profile_file_names_its_line(assert_refused, tmp_path):
    path = tmp_path / "slow.toml"
    path.write_text('[slownic]\nkind = "nic"\nbase = "sknet"\ndescription = "x"\n\n'
                    '[slownic.device]\nDataRate = ["0Gbps", "test"]\n')
    assert_refused("gige-mtu-sweep", [f"--profile-file={path}", *NETPIPE], f"{path}:7")


@pytest.mark.parametrize("prog,args,name", [
    ("hpvm-fm", [*FM, "--set=;;"], ";;"),
    ("hpvm-fm", [*FM, "--set=cpu.CopyBandwidth="], "cpu.CopyBandwidth="),
    ("gige-mtu-sweep", [*NETPIPE, "--set=device.Mtu=9000;"], "empty item"),
    ("myrinet-incast", ["--drain=1000", "--set=.Latency=1us"], ".Latency=1us"),
])
def test_set_empty_item_and_empty_value_are_refused(assert_refused, prog, args, name):
    assert_refused(prog, args, name)


@pytest.mark.parametrize("prog,args,name", [
    # Processes on one host: the Myrinet links and ports carry nothing.
    ("hpvm-smt", [*FM, "--set=link.DataRate=1Gbps"], "target 'link'"),
    ("hpvm-smt", [*FM, "--set=port.StopThreshold=40"], "target 'port'"),
    # One process per host: no shared region.
    ("hpvm-fm", [*FM, "--set=smt.Queues=2"], "target 'smt'"),
    # The PIO micro-benchmark alone: no FM traffic through the NIC.
    ("hpvm-pio-pacing", ["--reps=1", "--set=lanai.Clock=100"], "target 'lanai'"),
    # The switch's port count bounds the hosts linked to it (it was set after they were).
    ("myrinet-incast", ["--drain=1000", "--set=switch.Ports=4"], "switch.Ports=4"),
    # --drain sets the receiver's port.ReceiveRate (a --set of it was silently replaced).
    ("myrinet-incast", ["--drain=1000", "--set=port.ReceiveRate=500Mbps"], "--drain"),
    # Each sender queues its whole message: a --set of port.MaxQueue was silently replaced.
    ("myrinet-incast", ["--set=port.MaxQueue=4"], "--msg"),
])
def test_set_unused_target_is_refused(assert_refused, prog, args, name):
    assert_refused(prog, args, name)


@pytest.mark.parametrize("kind", ["empty", "comments-only", "directory", "binary"])
def test_trace_empty_comments_only_directory_binary(assert_refused, tmp_path, kind):
    trace = tmp_path / f"{kind}.txt"
    if kind == "directory":
        trace.mkdir()
    elif kind == "binary":
        trace.write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)))
    else:
        trace.write_text("" if kind == "empty" else "# nothing\n\n   # to replay\n")
    assert_refused("mpi-replay", [f"--trace={trace}"], "--trace")
    assert_refused("mpi-replay", [f"--trace={trace}"], str(trace))


def test_trace_send_larger_than_receive(assert_refused, tmp_path):
    trace = tmp_path / "truncate.txt"
    trace.write_text("# a 1,000-byte send into a 10-byte receive\n"
                     "0 send 1 1 1000\n1 recv 0 1 10\n")
    assert_refused("mpi-replay", [f"--trace={trace}"], f"{trace}:3")
    assert_refused("mpi-replay", [f"--trace={trace}"], "MPI_ERR_TRUNCATE")


@pytest.mark.parametrize("prefix", ["/proc/nonexistent/x", "/nonexistent-dir/capture"])
def test_pcap_path_unusable(assert_refused, prefix):
    assert_refused("gige-switch-incast", ["--frames=1", f"--pcap={prefix}"], "--pcap")


@pytest.mark.parametrize("item,says", [
    ("device.Address=zzz", "each device's own address"),
    ("device.Address=00:00:00:00:00:01", "each device's own address"),
    ("device.RxCoalescer=zzz", "object the helper builds"),
    ("device.TxCoalescer=zzz", "object the helper builds"),
    ("device.TxQueue=zzz", "object the helper builds"),
    ("device.RxBufferBytes=1000", "read-only"),
])
def test_set_of_what_text_cannot_set_is_refused(assert_refused, item, says):
    """Issue 44, item 2: an address (an uncaught stoul), an object (NS_ASSERT in the TypeId
    lookup) and a read-only attribute (NS_FATAL after the check, a partial data.csv) are refused
    by the pre-run check, on the command line and in a profile file."""
    assert_refused("gige-mtu-sweep", [*NETPIPE, f"--set={item}"], item)
    assert_refused("gige-mtu-sweep", [*NETPIPE, f"--set={item}"], says)


def test_read_only_attribute_in_a_profile_file_names_its_line(assert_refused, tmp_path):
    path = tmp_path / "ro.toml"
    path.write_text('[ronic]\nkind = "nic"\nbase = "sknet"\ndescription = "x"\n\n'
                    '[ronic.device]\nRxBufferBytes = ["1000", "test"]\n')
    assert_refused("gige-mtu-sweep", [f"--profile-file={path}", *NETPIPE], f"{path}:7")


@pytest.mark.parametrize("args,name", [
    (["--point-out=rows.csv"], "--point-out: only with --run-point"),
    (["--run-point=nic_sknet_mtu_1500_sockbuf_65536"], "--run-point: needs --point-out"),
    (["--run-point=nic_sknet_mtu_1500_sockbuf_65536", "--point-out=r.csv", "--list-points=1"],
     "--list-points: not with --run-point"),
    (["--scheduler=tls://127.0.0.1:1"], "tls:// is not supported"),
    (["--scheduler=tcp://127.0.0.1:1,tcp://127.0.0.1:2"], "is not a Dask scheduler address"),
    (["--scheduler=tcp://a b:1"], "is not a Dask scheduler address"),
])
def test_the_driver_protocol_options_are_used_together(assert_refused, args, name):
    """Issue 44: --point-out without --run-point was ignored silently (132 CLI cases)."""
    assert_refused("gige-mtu-sweep", [*NETPIPE, *args], name)


@pytest.mark.parametrize("item", ["device.PauseHighWater=0", "device.PauseLowWater=60000",
                                  "device.PauseHighWater=999999"])
def test_pause_water_marks_are_checked_before_the_first_event(assert_refused, item):
    """Issue 44, item 2: PauseHighWater=0 is inside its attribute's range but aborted the run
    (after the baseline curve was written) on the device's own relation; the pre-run check now
    knows that relation."""
    assert_refused("gige-mtu-sweep", [*NETPIPE, f"--set={item}"],
                   "need PauseLowWater < PauseHighWater <= RxFifoSize")


@pytest.mark.parametrize("item,says", [
    ("smt.Queues=9", "smt.Queues=9; allowed: 1..smt.MaxProcesses (2)"),
    ("smt.MaxProcesses=1", "smt.MaxProcesses=1 is below the 2 processes per host"),
    ("smt.FreeListFrames=3", "smt.FreeListFrames=3; allowed: a power of two"),
])
def test_fm_shared_region_layout_is_checked_before_the_first_event(assert_refused, item, says):
    """Issue 44, item 2: FmSmt::Attach asserted its layout (Queues within MaxProcesses, no more
    processes than MaxProcesses) only at run time, and an NS_ASSERT is compiled out of the
    optimised wheel: --set=smt.Queues=9 ran with queues nobody sends to. RunChecks::FmSmtLayout
    now refuses the layout before anything is built."""
    assert_refused("hpvm-smt", [*FM, "--config=1.9:smt", "--processes=2", f"--set={item}"],
                   says)


@pytest.mark.parametrize("prog,args", [
    ("myrinet-mpich-gm", ["--max-block=64"]),
    ("lampi-latency-bandwidth", ["--min-msg=8", "--max-msg=8", "--reps=2"]),
    ("nas-overlap", ["--config=is.C.8"]),
])
def test_a_bounce_buffer_with_no_room_after_its_envelope_is_refused(assert_refused, tmp_path,
                                                                     scenario_env, prog, args):
    """Issue 44, item 2: a GM library whose bounce buffers carry long data (LongDataCopied) in
    fragments of BounceSize less the envelope; a BounceSize not above EnvelopeBytes (72 for
    lampi-gm) was an NS_ASSERT in the middle of the run (compiled out of the optimised wheel: a
    fragment loop that never ends). MpiHelper::CheckProfile refuses it before anything runs."""
    catalogue = tmp_path / "profiles"
    shutil.copytree(PROFILES, catalogue)
    mpi = catalogue / "mpi.toml"
    text = mpi.read_text()
    assert text.count('BounceSize = ["65528"') == 1
    mpi.write_text(text.replace('BounceSize = ["65528"', 'BounceSize = ["64"'))
    scenario_env["CLUSTERNET_PROFILE_PATH"] = str(catalogue)
    assert_refused(prog, ["--stack=lampi-gm", *args],
                   "gmtransport.BounceSize=64 leaves no room after the envelope")
