"""clusternet analysis: results CSV -> DataFrames -> comparison with the papers -> figures.

Usable without ns-3. The command-line report is ``python -m analysis.report <scenario>``
(not imported here, so that ``-m analysis.report`` runs cleanly).
"""

from . import gm, predictions
from .io import read_data, reference_dir, repo_root, save_figure_atomic, write_csv_atomic
from .netpipe import (curve_keys, curve_table, curves, is_netpipe, iter_curves, latency_us,
                      mbps_at, peak_mbps)
from .plots import (gm_allsize_figure, gm_latency_figure, lampi_bw_figure,
                    lampi_latency_figure, logp_figure, logp_size_figure, mtu_sweep_figure,
                    nas_figure, netpipe_figure, pci_dma_figure, plot_gm_allsize,
                    plot_gm_latency, plot_lampi_bw, plot_lampi_latency, plot_logp,
                    plot_logp_size, plot_mtu_sweep, plot_nas, plot_netpipe, plot_pci_dma,
                    plot_raw_bw, plot_raw_latency, plot_size_bandwidth, plot_size_latency,
                    raw_bw_figure, raw_latency_figure, size_bandwidth_figure,
                    size_latency_figure)
from .predictions import (PREDICTION_COLUMNS, lampi_predictions, nas_normalized,
                          nas_predictions, raw_predictions)
from .reference import load_reference, parse_config, reference_for
from .summary import (SUMMARY_COLUMNS, build_summary, error_stats, evaluate, score_error,
                      select, within_tolerance)

__all__ = [
    "PREDICTION_COLUMNS", "SUMMARY_COLUMNS", "build_summary", "curve_keys", "curve_table",
    "curves", "error_stats", "evaluate", "gm", "gm_allsize_figure", "gm_latency_figure",
    "is_netpipe", "iter_curves", "lampi_bw_figure", "lampi_latency_figure",
    "lampi_predictions", "latency_us", "load_reference", "logp_figure", "logp_size_figure",
    "mbps_at", "mtu_sweep_figure", "nas_figure", "nas_normalized", "nas_predictions",
    "netpipe_figure", "plot_size_bandwidth", "plot_size_latency", "size_bandwidth_figure",
    "size_latency_figure", "parse_config", "pci_dma_figure", "peak_mbps", "plot_gm_allsize",
    "plot_gm_latency", "plot_lampi_bw", "plot_lampi_latency", "plot_logp", "plot_logp_size",
    "plot_mtu_sweep", "plot_nas", "plot_netpipe", "plot_pci_dma",
    "plot_raw_bw", "plot_raw_latency", "predictions", "raw_bw_figure", "raw_latency_figure",
    "raw_predictions", "read_data", "reference_for", "repo_root", "save_figure_atomic",
    "reference_dir", "score_error", "select", "within_tolerance", "write_csv_atomic",
]
