# SPDX-License-Identifier: GPL-2.0-only
"""clusternet from Python: run the module's simulations through ns-3's cppyy bindings.

The ns-3 wheel's bindings (``from ns import ns``) are loaded on first use, together with the
clusternet library and headers from ``build/`` (``./ns3 build`` makes them). Loading takes
some 15 s; every later call starts at once.

    >>> import clusternet
    >>> df = clusternet.netpipe(nic="sknet", mtu=9000, sockbuf=131072)
    >>> df.mbps.max()

A result has the columns, types and values of the rows a scenario writes to ``data.csv`` for the
same configuration, so it can be handed straight to the :mod:`analysis` functions.
"""

from ._native import NotBuiltError, build_dir, load
from .netpipe import netpipe, profiles

__all__ = ["NotBuiltError", "build_dir", "load", "netpipe", "profiles"]
