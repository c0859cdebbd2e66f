"""clusternet analysis: results CSV -> DataFrames -> comparison with the papers -> figures.

Usable without ns-3. The command-line report is ``python -m analysis.report <scenario>``
(not imported here, so that ``-m analysis.report`` runs cleanly).
"""

from .io import read_data, repo_root, save_figure_atomic, shared_dir, write_csv_atomic
from .netpipe import (curve_keys, curve_table, curves, is_netpipe, iter_curves, latency_us,
                      mbps_at, peak_mbps)
from .plots import mtu_sweep_figure, netpipe_figure, plot_mtu_sweep, plot_netpipe
from .reference import load_reference, parse_config, reference_for
from .summary import SUMMARY_COLUMNS, build_summary, error_stats, evaluate, select

__all__ = [
    "SUMMARY_COLUMNS", "build_summary", "curve_keys", "curve_table", "curves", "error_stats",
    "evaluate", "is_netpipe", "iter_curves", "latency_us", "load_reference", "mbps_at",
    "mtu_sweep_figure", "netpipe_figure",
    "parse_config", "peak_mbps", "plot_mtu_sweep", "plot_netpipe", "read_data",
    "reference_for", "repo_root", "save_figure_atomic", "select", "shared_dir",
    "write_csv_atomic",
]
