"""Tests of analysis.plots: the figures carry the data, the paper values and labelled axes."""

from pathlib import Path

import pytest


from analysis.io import read_data
from analysis.plots import (mtu_sweep_figure, netpipe_figure, plot_mtu_sweep,
                            plot_netpipe)
from analysis.reference import load_reference
from analysis.summary import build_summary

FIXTURES = Path(__file__).resolve().parent / "fixtures"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def small():
    data = read_data(FIXTURES / "netpipe_small.csv")
    ref = load_reference(FIXTURES / "reference_small.csv")
    return data, build_summary("test-netpipe", data, ref)


def _table1_summary():
    """A Table-1 summary built by hand: sim = 300 + i, paper = 290 + i for cell i."""
    import pandas as pd
    rows = []
    i = 0
    for nic in ("acenic", "sknet"):
        for mtu in (1500, 4500, 8500, 9000):
            for sockbuf in (65536, 131072):
                rows.append({"paper": "000", "experiment": "mtu-sockbuf",
                             "config": f"nic={nic};mtu={mtu};sockbuf={sockbuf}",
                             "metric": "peak_mbps", "sim_value": 300.0 + i,
                             "ref_value": 290.0 + i, "rel_err": 10.0 / (290.0 + i)})
                i += 1
    return pd.DataFrame(rows)


def test_netpipe_figure_content(small):
    data, summary = small
    fig = netpipe_figure(data, summary, "test title")
    left, right = fig.axes[:2]
    assert left.get_xscale() == "log"
    assert left.get_xlabel() == "Block size (bytes)"
    assert left.get_ylabel() == "Throughput (Mbit/s)"
    assert right.get_xlabel() == "One-way latency (µs)"
    assert fig._suptitle.get_text() == "test title"
    curves = {line.get_label(): line for line in left.get_lines()
              if not line.get_label().startswith("_")}
    assert set(curves) == {"GNIC-II mtu=1500", "SK-NET mtu=1500", "SK-NET mtu=9000"}
    sk = curves["SK-NET mtu=1500"]
    assert list(sk.get_xdata()) == [1, 2, 1000, 16381, 16384, 16387, 65536, 131072]
    assert max(sk.get_ydata()) == 400.0
    dashed = [line for line in left.get_lines() if line.get_linestyle() == "--"]
    # The paper's peak for sknet/1500 appears twice in the fixture (duplicate row), same colour.
    assert [tuple(line.get_ydata()) for line in dashed] == [(500.0, 500.0), (500.0, 500.0)]
    assert all(line.get_color() == sk.get_color() for line in dashed)
    # Latency bars: three simulated, two paper (sknet/1500 = 40, gnic2 = 140).
    widths = sorted(p.get_width() for p in right.patches)
    assert widths == [40.0, 46.0, 50.0, 140.0, 140.0]
    labels = [t.get_text() for t in right.get_yticklabels()]
    assert labels == ["GNIC-II mtu=1500", "SK-NET mtu=1500", "SK-NET mtu=9000"]


def test_mtu_sweep_figure_content():
    summary = _table1_summary()
    fig = mtu_sweep_figure(summary)
    ax = fig.axes[0]
    assert ax.get_xlabel() == "MTU (bytes)"
    assert ax.get_ylabel() == "Peak TCP throughput (Mbit/s)"
    assert ax.get_title()
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1500", "4500", "8500", "9000"]
    heights = sorted(p.get_height() for p in ax.patches)
    assert heights == [300.0 + i for i in range(16)]
    paper = sorted(float(y) for coll in ax.collections for _, y in coll.get_offsets())
    assert paper == [290.0 + i for i in range(16)]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "ACEnic sockbuf 64K (sim)" in legend and "SK-NET sockbuf 128K (sim)" in legend
    assert "paper (Table 1)" in legend


def test_plot_files_are_png(tmp_path, small):
    data, _ = small
    out = plot_mtu_sweep(_table1_summary(), tmp_path / "mtu.png")
    assert out.read_bytes()[:8] == PNG_MAGIC
    out = plot_netpipe(data, None, tmp_path / "nosummary.png", "t")
    assert out.read_bytes()[:8] == PNG_MAGIC
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mtu.png", "nosummary.png"]
