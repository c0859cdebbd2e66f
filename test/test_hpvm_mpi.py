# SPDX-License-Identifier: GPL-2.0-only
"""MPI over Fast Messages (MpiFmTransport, the mpi-fm profile) on seed 004's machines (issue 47):
an MPI message is one FM message of envelope and data, so its one-way time is FM's for that
many bytes plus the library's send call on the critical path (and at most its receive call
too, which a ping-pong posts before the message arrives), and its peak throughput is FM's."""

import pytest

QUIET = ("--report=0", "--jobs=1")


def _cost_us(attribute, host):
    """The mpi-fm library's per-call cost on ``host``: reference cycles at Clock x CoreFactor."""
    from analysis.catalogue import load_profiles, profile_value

    cpu = load_profiles()[host].values
    rate = float(cpu[("cpu", "Clock")][0]) * float(cpu[("cpu", "CoreFactor")][0])
    return float(profile_value("mpi", "mpi-fm", "mpi", attribute)) / rate


@pytest.mark.parametrize("curve, host", [("1.9:pii450", "pii450-netserver-nt4"),
                                         ("2.1:pii300", "pii300-kayak-nt4")])
def test_mpi_latency_is_fms_plus_the_librarys_calls(run_csv, tmp_path, curve, host):
    from analysis.catalogue import profile_value

    envelope = int(profile_value("mpi", "mpi-fm", "mpi", "EnvelopeBytes"))
    fm = run_csv("hpvm-fm", tmp_path / "fm", *QUIET, f"--config={curve}",
                 f"--sizes={envelope + 1}", "--reps=50", timeout=600)
    mpi = run_csv("hpvm-mpi", tmp_path / "mpi", *QUIET, f"--config={curve}", "--max-block=1",
                  timeout=600)
    one = mpi[mpi.block_bytes == 1].oneway_us.iloc[0]
    added = one - fm.oneway_us.iloc[0]
    send, recv = _cost_us("SendCycles", host), _cost_us("RecvCycles", host)
    # FM's notice of an arrival falls at a random point of the receiver's poll loop: 0.3 us.
    assert send - 0.3 <= added <= send + recv + 0.3, (one, fm.oneway_us.iloc[0], send, recv)
    assert set(mpi["host"]) == {host} and set(mpi["stack"]) == {"mpi-fm"}


def test_mpi_peak_is_fms_peak(run_csv, tmp_path):
    """Streamed as one FM message each, large MPI messages reach FM's own rate: the library
    adds a 32-byte envelope and no copy of a posted receive's data."""
    fm = run_csv("hpvm-fm", tmp_path / "fm", *QUIET, "--config=2.1:pii300", "--sizes=262144",
                 "--reps=2", timeout=600)
    mpi = run_csv("hpvm-mpi", tmp_path / "mpi", *QUIET, "--config=2.1:pii300",
                  "--max-block=300000", timeout=600)
    ratio = mpi.mbytes_per_s.max() / fm.mbytes_per_s.max()
    assert 0.9 <= ratio <= 1.02, ratio
    # both units, the same number
    assert ((mpi.mbps - 8 * mpi.mbytes_per_s).abs() <= 1e-9 + 0.004).all()


def test_a_library_over_another_transport_is_refused(run_program, tmp_path):
    proc = run_program("hpvm-mpi", "--stack=mpich", f"--out={tmp_path / 'o'}", status=2,
                       timeout=60)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "--stack" in lines[0] and "allowed: mpi-fm" in lines[0]
    assert not (tmp_path / "o").exists()
