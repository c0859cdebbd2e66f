"""Seed 002 (GigaBit Performance under NT): the PingPong figures and Table 4.

The scenario ``nt-pingpong`` writes one curve per ``stack``/``os``/``net`` with ``msg_bytes``,
``oneway_us`` and ``mbytes_per_s`` (10^6 bytes/s), and for the two-host curves the NIC's
``price_usd`` (seed 002 Table 2). The functions here are plain functions over that frame.

- :func:`table4`: price over the simulated MPI/Pro peak bandwidth and minimum latency under
  NT 4, one row per NIC, ranked by $/(MB/s) (the paper's Table 4);
- :func:`plot_shared_memory`, :func:`plot_mpipro`, :func:`plot_winsock`: Figs 2, 3 and 4
  (bandwidth, log scale, against message length), with the paper's peaks.
"""

import pandas as pd

from .io import save_figure_atomic
from .plots import size_bandwidth_figure

CURVE_COLUMNS = ["stack", "os", "net"]
MEASURES = ["msg_bytes", "oneway_us", "mbytes_per_s"]
TABLE4_COLUMNS = ["net", "nic", "price_usd", "peak_mbytes_per_s", "min_latency_us",
                  "usd_per_mbytes_per_s", "usd_per_us", "rank"]
# The paper's Table 4 ranking by $/(MB/s), best first (its 2149 for GigaNet is 21.49).
PAPER_TABLE4_ORDER = ["fe100", "ga620", "giganet", "sk9841", "gnic2"]


def table4(data, stack="mpipro", os="nt4"):
    """Seed 002 Table 4 from simulated curves: for each NIC (two-host curves of ``stack`` under
    ``os`` with a price), the price over the peak bandwidth and over the minimum latency, ranked
    by ``usd_per_mbytes_per_s`` (1 = best value). The minimum latency is the paper's: the
    smallest message's one-way time (Table 3), not the least one-way time of the curve, which a
    coalescing NIC can reach at a longer message."""
    rows = data[(data["stack"] == stack) & (data["os"] == os) & (data["net"] != "shm")]
    rows = rows[pd.to_numeric(rows["price_usd"], errors="coerce").notna()]
    out = []
    for (net, nic), curve in rows.groupby(["net", "nic"], sort=False):
        price = float(curve["price_usd"].iloc[0])
        peak = float(curve["mbytes_per_s"].max())
        latency = float(curve.loc[curve["msg_bytes"].idxmin(), "oneway_us"])
        out.append({"net": net, "nic": nic, "price_usd": price, "peak_mbytes_per_s": peak,
                    "min_latency_us": latency, "usd_per_mbytes_per_s": price / peak,
                    "usd_per_us": price / latency})
    table = pd.DataFrame(out, columns=TABLE4_COLUMNS[:-1])
    table = table.sort_values("usd_per_mbytes_per_s", kind="stable").reset_index(drop=True)
    table["rank"] = range(1, len(table) + 1)
    return table[TABLE4_COLUMNS]


def _curves(data, mask):
    """The rows of ``mask`` with only the curve and measure columns (short legend labels)."""
    return data.loc[mask, CURVE_COLUMNS + MEASURES].reset_index(drop=True)


def _plot(data, summary, path, title):
    if data.empty:
        raise ValueError("no curves for this figure in data.csv")
    fig = size_bandwidth_figure(data, summary, title)
    ax = fig.axes[0]
    ax.set_yscale("log")
    ax.set_xlabel("message length [bytes]")
    return save_figure_atomic(fig, path)


def plot_shared_memory(data, summary, path, title=None):
    """Fig. 2: two processes on one host (shared memory, or WinSock/PVM over the loopback)."""
    return _plot(_curves(data, data["net"] == "shm"), summary, path,
                 title or "PingPong in shared memory (Fig. 2)")


def plot_mpipro(data, summary, path, title=None):
    """Fig. 3: MPI/Pro between two hosts, one curve per NIC."""
    mask = (data["stack"] == "mpipro") & (data["net"] != "shm")
    return _plot(_curves(data, mask), summary, path, title or "MPI/Pro between hosts (Fig. 3)")


def plot_winsock(data, summary, path, title=None):
    """Fig. 4: WinSock between two hosts, one curve per NIC."""
    mask = (data["stack"] == "winsock") & (data["net"] != "shm")
    return _plot(_curves(data, mask), summary, path, title or "WinSock between hosts (Fig. 4)")
