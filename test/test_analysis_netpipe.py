"""Tests of analysis.netpipe on a hand-made fixture with known answers."""

import math
from pathlib import Path

import pandas as pd
import pytest


from analysis import netpipe
from analysis.io import read_data

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="module")
def data():
    return read_data(FIXTURES / "netpipe_small.csv")


def _curve(data, nic, mtu):
    return data[(data["nic"] == nic) & (data["mtu"] == mtu)]


def test_curve_keys_and_grouping(data):
    assert netpipe.curve_keys(data) == ["nic", "host", "pci", "mtu", "sockbuf"]
    assert netpipe.is_netpipe(data)
    assert not netpipe.is_netpipe(pd.DataFrame({"x": [1], "y": [2]}))
    assert netpipe.curves(data).ngroups == 3
    found = netpipe.iter_curves(data)
    assert [(c["nic"], c["mtu"]) for c, _ in found] == [("gnic2", 1500), ("sknet", 1500),
                                                       ("sknet", 9000)]
    assert [len(curve) for _, curve in found] == [3, 8, 3]


def test_peak_and_latency(data):
    sknet = _curve(data, "sknet", 1500)
    assert netpipe.peak_mbps(sknet) == 400.0
    assert netpipe.latency_us(sknet) == 50.0
    assert netpipe.latency_us(sknet, msg=1000) == 100.0
    assert netpipe.latency_us(_curve(data, "gnic2", 1500)) == 140.0
    assert netpipe.peak_mbps(_curve(data, "sknet", 9000)) == 600.0
    assert math.isnan(netpipe.peak_mbps(sknet.iloc[0:0]))


def test_mbps_at_exact_and_interpolated(data):
    sknet = _curve(data, "sknet", 1500)
    assert netpipe.mbps_at(sknet, 16384) == pytest.approx(327.68)
    assert netpipe.mbps_at(sknet, 1000) == 80.0
    # 8192 lies between the 1000-byte (80 Mbit/s) and 16381-byte (327.62) points.
    expected = 80.0 + (8192 - 1000) * (327.62 - 80.0) / (16381 - 1000)
    assert netpipe.mbps_at(sknet, 8192) == pytest.approx(expected, rel=1e-12)
    # The 131072-byte row comes before smaller blocks in the file: sorting must not matter.
    expected = 400.0 + (100000 - 65536) * (262.144 - 400.0) / (131072 - 65536)
    assert netpipe.mbps_at(sknet, 100000) == pytest.approx(expected, rel=1e-12)


def test_mbps_at_outside_range_is_nan(data):
    sknet = _curve(data, "sknet", 1500)
    assert math.isnan(netpipe.mbps_at(sknet, 0.5))
    assert math.isnan(netpipe.mbps_at(sknet, 131073))
    assert math.isnan(netpipe.mbps_at(sknet, "4096..12288"))
    assert netpipe.mbps_at(sknet, 131072) == pytest.approx(262.144)


def test_repeated_blocks_are_averaged():
    curve = pd.DataFrame({"nic": ["x"] * 4, "block_bytes": [100, 100, 1, 200],
                          "oneway_us": [80.0, 40.0, 10.0, 50.0], "mbps": [10.0, 20.0, 0.8, 32.0]})
    assert netpipe.mbps_at(curve, 100) == 15.0
    assert netpipe.mbps_at(curve, 150) == pytest.approx(23.5)
    assert netpipe.peak_mbps(curve) == 32.0
    assert netpipe.latency_us(curve) == 10.0


def test_throughput_derived_from_oneway_time():
    curve = pd.DataFrame({"msg_bytes": [1, 1000], "oneway_us": [20.0, 100.0]})
    assert netpipe.block_column(curve) == "msg_bytes"
    assert netpipe.peak_mbps(curve) == 80.0
    assert netpipe.latency_us(curve) == 20.0


def test_curve_table(data):
    table = netpipe.curve_table(data)
    assert list(table["peak_mbps"]) == [320.0, 400.0, 600.0]
    assert list(table["latency_us"]) == [140.0, 50.0, 46.0]
    assert list(table["points"]) == [3, 8, 3]
