# SPDX-License-Identifier: GPL-2.0-only
"""A --set reaches the objects its target names in every kind of run (issue 50): each target's
row of the target table says where its objects are below a node (a Config path), and a run
applies its overrides through those paths. Each case makes one object of the target slower by a
large factor, so the run's first one-way time must grow; an override that reached nothing (a
wrong path, a missing link such as a port's channel or a rank's transport) leaves it as it was.
The expectation is only the direction, which follows from what the attribute is."""

import pytest

NETPIPE_GIGE = ("gige-tcp-netpipe", "--nic=acenic", "--mtu=1500", "--sockbuf=65536",
                "--max-block=8")
NETPIPE_GM = ("myrinet-tcp-over-gm", "--nic=lanai9", "--mtu=9000", "--sockbuf=65536",
              "--max-block=8")
MPI_TCP = ("gige-mpi-netpipe", "--cases=acenic@1500", "--stack=mpich", "--max-block=8")
MPI_VIA = ("gige-via-netpipe", "--nic=gnic2", "--stack=mvia", "--max-block=8")
GM = ("myrinet-gm-allsize", "--mode=uni", "--min-msg=8", "--max-msg=8", "--reps=2")
PINGPONG = ("nt-pingpong", "--config=mpipro:nt4:ga620", "--lengths=8", "--repeats=2")
PINGPONG_SHM = ("nt-pingpong", "--config=mpipro:nt4:shm", "--lengths=8", "--repeats=2")

CASES = [
    # Gigabit Ethernet: the NIC, its driver and coalescer, the host's CPU, bus and stack.
    (NETPIPE_GIGE, "device.NicRxCost=200us", "oneway_us"),
    (NETPIPE_GIGE, "driver.RxCycles=90000", "oneway_us"),
    (NETPIPE_GIGE, "coalescer.Enabled=true;coalescer.Timeout=300us;coalescer.MaxFrames=64",
     "oneway_us"),
    (NETPIPE_GIGE, "cpu.Clock=50", "oneway_us"),
    (NETPIPE_GIGE, "bus.ReadLatency=1000", "oneway_us"),
    (NETPIPE_GIGE, "link.Delay=100us", "oneway_us"),
    # IP over GM: the LANai, its control program, the port and its link, the driver's device.
    (NETPIPE_GM, "lanai.Clock=10", "oneway_us"),
    (NETPIPE_GM, "mcp.SendCycles=20000", "oneway_us"),
    (NETPIPE_GM, "link.DataRate=1Mbps", "oneway_us"),
    (NETPIPE_GM, "driver.RxCycles=90000", "oneway_us"),
    (NETPIPE_GM, "gm.SendCycles=90000", "oneway_us"),
    # MPI over TCP and over VIA: the ranks and their transports.
    (MPI_TCP, "mpi.SendCycles=90000", "oneway_us"),
    (MPI_VIA, "via.PostCycles=90000", "oneway_us"),
    # GM's own benchmark: the link of every port.
    (GM, "link.DataRate=1Mbps", None),
    # The NT ping-pong: the ranks (both the timing and the echoing one).
    (PINGPONG, "mpi.SendCycles=90000", None),
    (PINGPONG, "device.NicRxCost=200us", None),
    (PINGPONG_SHM, "shm.SendCycles=90000", None),
]


def _first_time(data, column):
    """The run's first time: the named column, else the first column whose name is a time."""
    if column is None:
        column = next(c for c in data.columns if c.endswith("_us"))
    return float(data[column].iloc[0])


@pytest.mark.parametrize("args,override,column", CASES,
                         ids=[f"{a[0]}:{o.split('.')[0]}" for a, o, _ in CASES])
def test_a_set_reaches_its_objects(tmp_path, run_csv, args, override, column):
    scenario, *options = args
    base = run_csv(scenario, tmp_path / "base", "--jobs=1", *options)
    slow = run_csv(scenario, tmp_path / "slow", "--jobs=1", *options, f"--set={override}")
    before, after = _first_time(base, column), _first_time(slow, column)
    assert after > before * 1.05, (override, before, after)


LONG_CABLE = """\
[long-cable]
kind = "nic"
base = "acenic"
description = "an ACEnic on 20 km of fibre (test)"

[long-cable.link]
Delay = ["100us", "20 km at 5 ns/m (test)"]
"""


def test_a_profiles_value_reaches_a_target_no_helper_sets(tmp_path, run_csv):
    """A NIC profile's cable (target link, a row of the table that no helper routes) reaches the
    GigE channel through its Config path: each one-way trip crosses it once more, 100 us."""
    path = tmp_path / "cable.toml"
    path.write_text(LONG_CABLE)
    options = [o for o in NETPIPE_GIGE[1:] if not o.startswith("--nic")]
    base = run_csv("gige-tcp-netpipe", tmp_path / "base", "--jobs=1", "--nic=acenic", *options)
    far = run_csv("gige-tcp-netpipe", tmp_path / "far", "--jobs=1", f"--profile-file={path}",
                  "--nic=long-cable", *options)
    added = far["oneway_us"].iloc[0] - base["oneway_us"].iloc[0]
    assert added == pytest.approx(100.0, abs=1.0), added


def test_netpipes_library_columns_record_the_run_settings(tmp_path, run_csv):
    """NetPIPE's MPI rows name the library's eager limit and socket buffer as the run has them:
    a --set of either is what the row says (and what the ranks were given)."""
    data = run_csv("gige-mpi-netpipe", tmp_path / "out", "--jobs=1", *MPI_TCP[1:],
                   "--set=mpi.EagerLimit=1024;transport.SocketBuffer=32768")
    assert set(data["eager_limit_bytes"]) == {1024}
    assert set(data["sockbuf_bytes"]) == {32768}


def test_a_runs_own_choice_outlasts_the_profile_applied_after_building(tmp_path, run_csv):
    """NT's loopback driver profile sets the device's Mtu (1500); --mtu is the run's own choice
    and must win over it after the run's values are applied to the built machine, as a --set of
    the same Mtu does (the profile's value would otherwise come back over the choice)."""
    common = ["--nic=loopback-nt", "--host=piii450-nt4", "--sockbuf=65536",
              "--max-block=65536"]
    chosen = run_csv("gige-tcp-netpipe", tmp_path / "chosen", "--jobs=1", *common, "--mtu=9000")
    overridden = run_csv("gige-tcp-netpipe", tmp_path / "set", "--jobs=1", *common,
                         "--mtu=1500", "--set=device.Mtu=9000")
    assert list(chosen["oneway_us"]) == list(overridden["oneway_us"])
