# SPDX-License-Identifier: GPL-2.0-only
"""Seed 003 scenarios: bad input is refused; small runs write a summary.csv with every seed 003
row they cover, deterministically."""

import pandas as pd
import pytest

BAD_INPUTS = [
    ("raw-ethernet-vs-myrinet", ["--net=atm"], "--net"),
    ("raw-ethernet-vs-myrinet", ["--coalesce=maybe"], "--coalesce"),
    ("raw-ethernet-vs-myrinet", ["--max-msg=70000"], "--max-msg"),
    ("raw-ethernet-vs-myrinet", ["--reps=0"], "--reps"),
    ("lampi-latency-bandwidth", ["--stack=lampi-quadrics"], "--stack"),
    ("lampi-latency-bandwidth", ["--min-msg=64", "--max-msg=8"], "--min-msg"),
    ("lampi-latency-bandwidth", ["--max-msg=-4"], "--max-msg"),
    ("nas-overlap", ["--config=bt.B.8"], "--config"),
    ("nas-overlap", ["--config=ft.B.4"], "--config"),
    ("nas-overlap", ["--config=is.A.4"], "--config"),
    ("nas-overlap", ["--config=lu.B"], "--config"),
    ("nas-overlap", ["--stack=lampi-quadrics"], "--stack"),
    ("nas-overlap", ["--steps=401"], "--steps"),
    ("nas-overlap", ["--set=npb.BtRate=0"], "--set"),
    ("nas-overlap", ["--set=cpu.CoreFactor=2"], "--set"),
]


@pytest.mark.parametrize("prog,args,name", BAD_INPUTS)
def test_bad_input_one_line_exit_2_no_files(assert_refused, prog, args, name):
    assert_refused(prog, args, name)


def test_raw_predictions_complete_and_deterministic(run_scenario, tmp_path):
    args = ["--max-msg=2048", "--stream-bytes=131072", "--reps=3"]
    a = run_scenario("raw-ethernet-vs-myrinet", tmp_path / "a", *args)
    b = run_scenario("raw-ethernet-vs-myrinet", tmp_path / "b", *args,
            "--report=0")
    assert (a / "data.csv").read_bytes() == (b / "data.csv").read_bytes()
    summary = pd.read_csv(a / "summary.csv")
    assert list(summary.columns) == ["paper", "experiment", "config", "metric", "sim_value",
                                     "ref_value", "rel_err"]
    assert len(summary) == 7 and summary.sim_value.notna().all()
    assert not (a / "predictions.csv").exists()
    data = pd.read_csv(a / "data.csv")
    gige = data[data.net == "gige"].pivot(index="msg_bytes", columns="coalesce",
                                          values="latency_us")
    # coalescing only delays interrupts: turning it off never raises the latency
    assert (gige["off"] <= gige["on"]).all()


def test_lampi_predictions_and_protocol_switch(run_scenario, tmp_path):
    out = run_scenario("lampi-latency-bandwidth", tmp_path / "a",
              "--min-msg=4096", "--max-msg=65536", "--stream-bytes=262144", "--reps=3")
    data = pd.read_csv(out / "data.csv")
    for _, c in data.groupby("stack"):
        lat = c.set_index("msg_bytes").latency_us
        assert lat[32768] > lat[16384]  # the rendezvous above 16 KB adds a round trip
    summary = pd.read_csv(out / "summary.csv").dropna(subset=["sim_value"])
    keys = set(summary.experiment + "|" + summary.config + "|" + summary.metric)
    assert "mpi-latency|stack=lampi-tcp-vs-gm;msg=65536|latency_gap_us" in keys
    assert "mpi-bw|stack=all;msg=16384-to-32768|drop" in keys


def test_a_33_mhz_board_holds_the_bus_at_33_mhz(run_scenario, tmp_path):
    # A board whose PciClock property is 33 (a 33 MHz PCI card, as the LANai 7.0/7.1 PCI64
    # boards were) holds the Athlon's 64-bit/66 MHz slot at 33 unless a slot is named; the
    # LANai 7.2's PCI64A is a 66 MHz board and keeps it at 66.
    profile = tmp_path / "slow.toml"
    profile.write_text('[slow-lanai]\nkind = "lanai"\nbase = "lanai72"\n'
                       'description = "a 33 MHz PCI board"\n'
                       '[slow-lanai.properties]\nPciClock = ["33", "test"]\n')
    common = ["--host=athlonxp2800-fbsd47", "--mode=uni", "--max-msg=4", "--report=0",
              f"--profile-file={profile}"]
    a = run_scenario("myrinet-gm-allsize", tmp_path / "a", "--lanai=slow-lanai", *common)
    b = run_scenario("myrinet-gm-allsize", tmp_path / "b", "--lanai=slow-lanai", *common,
                     "--pci=64x66")
    c = run_scenario("myrinet-gm-allsize", tmp_path / "c", "--lanai=lanai72", *common)
    assert set(pd.read_csv(a / "data.csv").pci) == {"64x33"}
    assert set(pd.read_csv(b / "data.csv").pci) == {"64x66"}
    assert set(pd.read_csv(c / "data.csv").pci) == {"64x66"}


def test_nas_run_is_deterministic_and_normalized(run_scenario, tmp_path):
    args = ["--config=mg.B.4", "--stack=lampi-tcp-ed,lampi-gm", "--steps=1"]
    a = run_scenario("nas-overlap", tmp_path / "a", *args)
    b = run_scenario("nas-overlap", tmp_path / "b", *args, "--report=0")
    assert (a / "data.csv").read_bytes() == (b / "data.csv").read_bytes()
    data = pd.read_csv(a / "data.csv").set_index("stack")
    # MG.B: 20 steps of 58 x 256^3 operations on 4 ranks at the profile's 260 Mflop/s
    compute = 20 * 58 * 256**3 / 4 / 260e6
    assert data.compute_s.tolist() == pytest.approx([compute] * 2, rel=1e-6)
    # communication only adds time, and not more than the computation itself here
    assert (data.time_s > compute).all() and (data.time_s < 2 * compute).all()
    assert (a / "nas-overlap.png").exists()


def test_nas_gm_all_to_all_under_congestion_completes(run_scenario, tmp_path):
    # IS.C.8's Alltoallv (8 MB per pair, 8 hosts through one XBar16) holds the links back
    # long enough that the ACKs outgrow the host port's queue; they wait in the control
    # program (this run aborted when the port refused them).
    out = run_scenario("nas-overlap", tmp_path / "a", "--config=is.C.8",
              "--stack=lampi-gm", "--steps=1", "--report=0")
    data = pd.read_csv(out / "data.csv")
    assert len(data) == 1 and data.time_s[0] > data.compute_s[0]
