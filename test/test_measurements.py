# SPDX-License-Identifier: GPL-2.0-only
"""Measured curves in their own formats (analysis.measurements): NetPIPE np.out and CSV.

Expected values are worked out by hand: a NetPIPE line ``8 0.5 0.000016`` is 8 bytes in 16 µs
one way, 8 * 8 / 16e-6 = 4 Mbit/s (10^6 bit/s), whatever the file's own 2^20-based column says.
"""

import os
from pathlib import Path

import pandas as pd
import programs
import pytest

REPO = Path(__file__).resolve().parents[1]

from analysis.measurements import (MeasurementError, np_out_text, read_curve,
                                   read_np_out)
from analysis.report import write_np_outs

# NetPIPE 3.7 lines ("%8d %lf %12.8lf"), one with -C's CPU columns after the time.
NP_OUT = """       1 0.381470   0.00002000
       2 0.762939   0.00002000
       8 3.814697   0.00001600 0.5 0.5
    1024 195.312500   0.00004000
"""


def test_np_out_reads_size_and_time(tmp_path):
    path = tmp_path / "np.out"
    path.write_text(NP_OUT)
    curve = read_np_out(path)
    assert curve["msg_bytes"].tolist() == [1, 2, 8, 1024]
    assert curve["latency_us"].tolist() == pytest.approx([20.0, 20.0, 16.0, 40.0])
    assert curve["mbps"].tolist() == pytest.approx([0.4, 0.8, 4.0, 204.8])


def test_a_real_netpipe_file_reads():
    """A NetPIPE np.out measured by someone else: ``np.out`` of the public repository
    github.com/jli111/ompi (commit 15f792b4), kept verbatim as fixtures/ompi-netpipe.np.out:
    124 block sizes from 1 byte to 8 MB with NetPIPE's perturbations (n-3, n, n+3). Its second
    column is NetPIPE's own throughput in 2^20 bit/s, which the reader ignores; the reader's
    mbps (10^6 bit/s, from size and time) times 10^6 / 2^20 must give it back."""
    path = REPO / "test" / "fixtures" / "ompi-netpipe.np.out"
    curve = read_np_out(path)
    assert len(curve) == 124
    first, last = curve.iloc[0], curve.iloc[-1]
    assert (first.msg_bytes, first.latency_us) == (1, pytest.approx(27.61))
    assert (last.msg_bytes, last.latency_us) == (8388611, pytest.approx(13895.31))
    netpipe = [float(line.split()[1]) for line in path.read_text().splitlines()]
    assert list(curve.mbps * 1e6 / 2**20) == pytest.approx(netpipe, rel=1e-3)


def test_repeated_size_is_averaged_and_comments_skipped(tmp_path):
    path = tmp_path / "np.out"
    path.write_text("# NetPIPE run\n\n 4 1 0.000010\n 4 1 0.000030\n 16 1 0.000020\n")
    curve = read_np_out(path)
    assert curve["msg_bytes"].tolist() == [4, 16]
    assert curve["latency_us"].tolist() == pytest.approx([20.0, 20.0])


def test_csv_with_one_measure_column(tmp_path):
    path = tmp_path / "m.csv"
    path.write_text("msg_bytes,mbps,note\n1024,400,a\n65536,900.5,c\n")
    curve = read_curve(path)
    assert curve["msg_bytes"].tolist() == [1024, 65536]
    assert curve["mbps"].tolist() == [400.0, 900.5] and curve["latency_us"].isna().all()
    # a blank cell is a value not measured, as long as the line measures something
    path.write_text("msg_bytes,latency_us,mbps\n1024,20,\n4096,,640\n")
    curve = read_curve(path)
    assert curve["latency_us"].isna().tolist() == [False, True]
    assert curve["mbps"].isna().tolist() == [True, False]


# (file name, content, line named, what the message says); .csv files are read as CSV
BAD_FILES = [
    ("np.out", "", 1, "no measurements"),
    ("np.out", "# only a comment\n", 1, "no measurements"),
    ("np.out", "1 0.3 0.00002\n2 abc 0.00002\n", 2, "'abc' is not a number"),
    ("np.out", "1 0.3 0.00002\n2 0.3 nan\n", 2, "not a finite number"),
    ("np.out", "4 0.3 0.00002\n2 0.3 0.00002\n", 2, "increasing order"),
    ("np.out", "1 0.3 0.00002\n-2 0.3 0.00002\n", 2, "positive integer"),
    ("np.out", "1.5 0.3 0.00002\n", 1, "positive integer"),
    ("np.out", "1 0.3 -0.00002\n", 1, "must be > 0"),
    ("np.out", "1 0.3 0.00002\n2 0.3\n", 2, "2 column(s)"),
    ("m.csv", "msg_bytes,latency_us\n", 1, "no measurements"),
    ("m.csv", "size,latency_us\n1,2\n", 1, "needs msg_bytes"),
    ("m.csv", "msg_bytes,note\n1,2\n", 1, "at least one of latency_us, mbps"),
    ("m.csv", "msg_bytes,latency_us\n1,2\n2,3,4\n", 3, "3 column(s)"),
    ("m.csv", "msg_bytes,latency_us\n8,2\n4,3\n", 3, "increasing order"),
    ("m.csv", "msg_bytes,mbps\n8,-1\n", 2, "must be > 0"),
]


@pytest.mark.parametrize("name,text,line,what", BAD_FILES)
def test_bad_file_names_file_and_line(tmp_path, name, text, line, what):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(MeasurementError) as err:
        read_curve(path)
    message = str(err.value)
    assert message.startswith(f"{path}:{line}: ") and what in message
    assert "\n" not in message


# Issue 44, item 6: files as bytes that a careless export or a hostile user gives.
BAD_BYTES = [
    ("np.out", b"1 0.3 0.00002\n2 0.3 \xff\xfe0.00002\n", 2, "not UTF-8 text"),
    ("m.csv", "msg_bytes,latency_us\n1,2\n".encode("utf-16"), 1, "not UTF-8 text"),
    ("np.out", "1 0.3 0.00002\n".encode("utf-16-le"), 1, "NUL bytes"),
    ("np.out", b"9223372036854775808 0.3 0.00002\n", 1, "at most 4294967295"),
    ("np.out", b"1e300 0.3 0.00002\n", 1, "at most 4294967295"),
    ("m.csv", b"msg_bytes,latency_us\n9223372036854775808,2\n", 2, "at most 4294967295"),
    ("m.csv", b"msg_bytes,latency_us,mbps\n64,,\n", 2, "no latency_us or mbps value"),
]


@pytest.mark.parametrize("name,data,line,what", BAD_BYTES,
                         ids=[f"{n}-{w}" for n, _, _, w in BAD_BYTES])
def test_bad_bytes_are_refused_with_file_and_line(tmp_path, name, data, line, what):
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(MeasurementError) as err:
        read_curve(path)
    message = str(err.value)
    assert message.startswith(f"{path}:{line}: ") and what in message, message
    assert "\n" not in message


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_file_that_is_not_regular_is_refused_without_reading(tmp_path, kind):
    """A FIFO would block the reader forever; a folder is no measurement file."""
    path = tmp_path / "np.out"
    os.mkfifo(path) if kind == "fifo" else path.mkdir()
    with pytest.raises(MeasurementError, match="not a regular file"):
        read_curve(path)


def test_cli_without_files_prints_usage_to_stderr():
    proc = programs.run_python("-m", "analysis.measurements", status=2, cwd=REPO, timeout=60)
    assert proc.stdout == "" and "usage:" in proc.stderr


def test_cli_checks_files(tmp_path):
    good, bad = tmp_path / "np.out", tmp_path / "bad.out"
    good.write_text(NP_OUT)
    bad.write_text("1 0.3 0.00002\n2 x 0.00002\n")
    cmd = ["-m", "analysis.measurements"]
    proc = programs.run_python(*cmd, good, cwd=REPO)
    assert "4 sizes, 1-1024 B, latency 20.00 us" in proc.stdout
    proc = programs.run_python(*cmd, good, bad, status=2, cwd=REPO)
    assert proc.stderr.strip().count("\n") == 0 and f"{bad}:2:" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_written_lines_follow_netpipe_columns():
    # 1 byte in 20 us: NetPIPE's bps = 8 / (20e-6 * 2^20) = 0.381470 "Mbps"
    assert np_out_text([1, 1024], [20.0, 40.0]) == (
        "       1 0.381470   0.00002000000\n"
        "    1024 195.312500   0.00004000000\n")


def test_netpipe_data_round_trips_through_np_out(tmp_path):
    data = pd.DataFrame({
        "nic": ["acenic"] * 3 + ["sknet"] * 3, "host": ["piii450-linux22"] * 6,
        "mtu": [1500, 1500, 1500, 9000, 9000, 9000],
        "block_bytes": [1, 1024, 65536] * 2,
        "oneway_us": [177.5, 190.125, 1105.999, 43.58, 60.001, 700.25],
        "reps": [5] * 6})
    # as a NetPIPE scenario writes it: 8 * bytes / one-way time, 3 decimals
    data.insert(5, "mbps", (8 * data["block_bytes"] / data["oneway_us"]).round(3))
    written = write_np_outs(data, tmp_path)
    index = pd.read_csv(tmp_path / "np" / "index.csv")
    assert len(written) == 3 and index["nic"].tolist() == ["acenic", "sknet"]
    for _, row in index.iterrows():
        curve = read_np_out(tmp_path / "np" / row["file"])
        part = data[(data["nic"] == row["nic"]) & (data["mtu"] == row["mtu"])]
        assert curve["msg_bytes"].tolist() == part["block_bytes"].tolist()
        assert curve["latency_us"].to_numpy() == pytest.approx(part["oneway_us"].to_numpy(),
                                                              abs=1e-6)
        assert curve["mbps"].to_numpy() == pytest.approx(part["mbps"].to_numpy(), abs=6e-4)


def test_curves_whose_names_clash_get_their_own_files(tmp_path):
    data = pd.DataFrame({"nic": ["a-b", "a_b"], "sockbuf_bytes": [65536, 65536],
                         "block_bytes": [1, 1], "oneway_us": [10.0, 20.0]})
    write_np_outs(data, tmp_path)
    index = pd.read_csv(tmp_path / "np" / "index.csv")
    assert index["file"].tolist() == ["a_b-65536.out", "a_b-65536.2.out"]
    assert read_np_out(tmp_path / "np" / "a_b-65536.2.out")["latency_us"].tolist() == \
        pytest.approx([20.0])


def test_other_data_writes_no_np_out(tmp_path):
    data = pd.DataFrame({"msg_bytes": [1, 2], "latency_us": [10.0, 11.0], "mbps": [1.0, 2.0]})
    assert write_np_outs(data, tmp_path) == []
    assert not (tmp_path / "np").exists()


def test_scenario_writes_np_out_per_curve(run_scenario, tmp_path):
    out = run_scenario("gige-tcp-netpipe", tmp_path / "out", "--nic=acenic,sknet",
                       "--max-block=4096")
    data = pd.read_csv(out / "data.csv")
    index = pd.read_csv(out / "np" / "index.csv")
    keys = [c for c in index.columns if c != "file"]
    assert sorted(set(index["nic"])) == ["acenic", "sknet"]
    assert len(index) == len(data.groupby(keys))
    for _, row in index.iterrows():
        curve = read_np_out(out / "np" / row["file"])
        part = data.merge(row[keys].to_frame().T.astype(data[keys].dtypes), on=keys)
        # NetPIPE's perturbations measure some sizes twice (3 = 2 + 1 = 4 - 1): averaged
        part = part.groupby("block_bytes")["oneway_us"].mean()
        assert curve["msg_bytes"].tolist() == part.index.tolist()
        assert curve["latency_us"].to_numpy() == pytest.approx(part.to_numpy(), abs=1e-6)
