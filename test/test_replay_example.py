# SPDX-License-Identifier: GPL-2.0-only
"""The OTF2 replay notebook (notebooks/replay-otf2.py) and analysis.replay.

``time_per_rank`` is checked on a small hand-made data.csv against hand-computed splits; the
notebook is run whole as a user would, and its six configurations' data.csv checked: all
ranks there, the Athlons given the same computation, the PIII-450 4.6 times as much (the
Athlon XP 2800+ does 2070 reference cycles per us, the PIII-450 450), Myrinet/GM
communicating in less time than Gigabit Ethernet/TCP."""
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from analysis.replay import compute_time_us, run_summary, time_per_rank

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
ATHLON = "athlonxp2800-fbsd47"


# ---------------------------------------------------------------------------------------------
# time_per_rank on a hand-made frame

def hand_made():
    """Two configurations (stack x and y). x's rank 0 starts with a computation that is
    preempted in its second one; x's rank 1 starts with communication and ends with a wait."""
    rows = [
        # stack, rank, index, op, completed_us
        ("x", 0, 0, "compute 100us", 100.0),        # 100 - 0   = 100 computing
        ("x", 0, 1, "isend 1 1 2048 1", 102.0),     #             2 communicating
        ("x", 0, 2, "compute 50us", 160.0),         # 160 - 102 = 58 computing (asked 50)
        ("x", 0, 3, "wait 1", 200.0),               #             40 communicating
        ("x", 1, 0, "irecv 0 1 2048 1", 5.0),       #             5 communicating
        ("x", 1, 1, "compute 100000ns", 110.0),     # 110 - 5   = 105 computing (asked 100)
        ("x", 1, 2, "wait 1", 150.0),               #             40 communicating
        ("y", 0, 0, "compute 1ms", 1000.0),         # all computing
    ]
    df = pd.DataFrame(rows, columns=["stack", "rank", "index", "op", "completed_us"])
    return df.sample(frac=1, random_state=3).reset_index(drop=True)   # order must not matter


def test_time_per_rank_splits_hand_computed_times():
    got = time_per_rank(hand_made())
    assert list(got.columns) == ["stack", "rank", "compute_us", "communication_us", "total_us",
                                 "compute_nominal_us"]
    expected = pd.DataFrame({
        "stack": ["x", "x", "y"], "rank": [0, 1, 0],
        "compute_us": [158.0, 105.0, 1000.0],
        "communication_us": [42.0, 45.0, 0.0],
        "total_us": [200.0, 150.0, 1000.0],
        "compute_nominal_us": [150.0, 100.0, 1000.0],
    })
    pd.testing.assert_frame_equal(got.reset_index(drop=True), expected, check_dtype=False)


def test_run_summary_takes_the_latest_rank_and_the_means():
    got = run_summary(time_per_rank(hand_made())).set_index("stack")
    assert got.loc["x", "ranks"] == 2 and got.loc["y", "ranks"] == 1
    assert got.loc["x", "run_us"] == 200.0
    assert got.loc["x", "compute_us"] == pytest.approx((158 + 105) / 2)
    assert got.loc["x", "communication_us"] == pytest.approx((42 + 45) / 2)


def test_compute_time_us_reads_the_units():
    assert compute_time_us("compute 300us") == 300.0
    assert compute_time_us("compute 4810225ns") == pytest.approx(4810.225)
    with pytest.raises(ValueError, match="not a compute operation"):
        compute_time_us("wait 3")


@pytest.mark.parametrize("missing", ["rank", "index", "op", "completed_us"])
def test_time_per_rank_names_a_missing_column(missing):
    with pytest.raises(ValueError) as info:
        time_per_rank(hand_made().drop(columns=[missing]))
    message = str(info.value)
    assert f"'{missing}'" in message and "\n" not in message


# ---------------------------------------------------------------------------------------------
# The notebook, run whole

def test_replay_notebook_runs_and_compares_the_clusters(scenario_bin, tmp_path):
    scenario_bin("mpi-replay")
    env = dict(os.environ, CLUSTERNET_EXAMPLE_OUT=str(tmp_path))
    env.pop("CLUSTERNET_OTF2_TRACE", None)          # its own synthetic trace: 16 ranks
    env.pop("CLUSTERNET_OTF2_RECORDED_ON", None)
    proc = subprocess.run([PY, str(ROOT / "notebooks" / "replay-otf2.py")], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "replay-otf2.png").stat().st_size > 10000

    runs = {}
    for csv in sorted(tmp_path.glob("*/data.csv")):
        df = pd.read_csv(csv)
        (config,) = df[["stack", "host", "nic"]].drop_duplicates().itertuples(index=False)
        runs[tuple(config)] = df
    configs = {
        "a": ("lampi-tcp", ATHLON, "pro1000mt"),
        "b": ("lampi-tcp", ATHLON, "pro1000mt-nocoal"),
        "c": ("lampi-gm", ATHLON, "lanai72"),
        "d": ("mpich-gm", ATHLON, "lanai72"),
        "e": ("lam", "piii450-linux22", "sknet"),
        "f": ("mpich-gm", "p200-430vx-linux24", "lanai9"),
    }
    assert set(runs) == set(configs.values()), sorted(runs)
    data = {name: runs[config] for name, config in configs.items()}

    # every configuration replays the whole job: all 16 ranks, each its whole program
    ops = {name: df.groupby("rank")["index"].agg(["count", "max"]) for name, df in data.items()}
    for name, df in data.items():
        assert set(df["ranks"]) == {16}, name
        assert sorted(df["rank"].unique()) == list(range(16)), name
        assert (ops[name]["max"] == ops[name]["count"] - 1).all(), name
        assert ops[name]["count"].equals(ops["a"]["count"]), name

    split = {name: time_per_rank(df).set_index("rank") for name, df in data.items()}
    # the same trace on the same host: the same computation on (a)-(d), as recorded
    # (10 steps of 300 us); preemption by other work can only lengthen its elapsed time
    athlon = split["a"]["compute_nominal_us"]
    assert (athlon == 3000.0).all(), athlon
    for name in "bcd":
        assert split[name]["compute_nominal_us"].equals(athlon), name
    for name, s in split.items():
        assert (s["compute_us"] >= s["compute_nominal_us"] - 1e-6).all(), name
    # the PIII-450 computes the Athlon XP 2800+'s trace 2070/450 times as long
    ratio = split["e"]["compute_nominal_us"] / athlon
    assert ratio.to_numpy() == pytest.approx(2070 / 450, rel=1e-3), ratio
    # Myrinet/GM (OS bypass) communicates in less time than Gigabit Ethernet/TCP, every rank
    assert (split["c"]["communication_us"] < split["a"]["communication_us"]).all(), \
        pd.DataFrame({"gm": split["c"]["communication_us"], "tcp": split["a"]["communication_us"]})
