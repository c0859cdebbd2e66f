# SPDX-License-Identifier: GPL-2.0-only
"""clusternet from Python: run the module's simulations through ns-3's cppyy bindings.

The ns-3 wheel's bindings (``from ns import ns``) are loaded on first use, together with the
clusternet library and headers from ``build/`` (``./ns3 build`` makes them). Loading takes
some 15 s; every later call starts at once.

    >>> import clusternet
    >>> df = clusternet.netpipe(nic="sknet", mtu=9000, sockbuf=131072)
    >>> df.mbps.max()

Any scenario runs from Python too, its points on Dask (a LocalCluster, or a client of yours):

    >>> df = clusternet.run("gige-mtu-sweep", nic="sknet", mtu=[1500, 9000], max_block=65536)

A result has the columns, types and values of the rows a scenario writes to ``data.csv`` for the
same configuration, so it can be handed straight to the :mod:`analysis` functions.
"""

from ._native import NotBuiltError, build_dir, load
from .netpipe import netpipe, profiles


def run(scenario, client=None, **options):
    """Run any scenario's sweep; return its data.csv as a DataFrame (see
    :func:`clusternet.sweep.run`)."""
    # Imported here: ``python -m clusternet.sweep`` must find the module not yet imported.
    from .sweep import run as run_sweep

    return run_sweep(scenario, client, **options)


__all__ = ["NotBuiltError", "build_dir", "load", "netpipe", "profiles", "run"]
