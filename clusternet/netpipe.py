# SPDX-License-Identifier: GPL-2.0-only
"""NetPIPE TCP between two hosts over Gigabit Ethernet, from Python."""

import io
import os
from collections.abc import Mapping

from ._native import load
from analysis.catalogue import ProfileError, _files, kinds, load_profiles, profile_names

UINT32_MAX = 2**32 - 1


def _whole(name, value, unit, lo=None, hi=None):
    """Check that ``value`` is a whole number (and, when given, within ``lo..hi``)."""
    allowed = f"allowed {lo}..{hi} {unit}" if lo is not None else f"[{unit}]"
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name}: {value!r} is not a whole number; {allowed}")
    if lo is not None and not lo <= value <= hi:
        raise ValueError(f"{name}: {value} out of range; {allowed}")
    return value


def _in_range(name, value, uinteger_range, unit):
    """Check ``value`` against a C++ ``UintegerRange`` (read from an attribute's checker)."""
    return _whole(name, value, unit, int(uinteger_range.min), int(uinteger_range.max))


def _one_line(name, text):
    """Refuse a text with a control character (a line break, a NUL: C++ would cut the text at
    a NUL) or a lone surrogate; return ``text``."""
    for ch in text:
        if ord(ch) < 32 or ord(ch) == 127 or 0xD800 <= ord(ch) <= 0xDFFF:
            raise ValueError(f"{name}: the value holds {ch!r}; control characters (a line "
                             "break, a NUL) are not allowed")
    return text


def _overrides_text(overrides):
    if overrides is None:
        return ""
    if isinstance(overrides, str):
        return overrides
    if isinstance(overrides, Mapping):
        return ";".join(f"{k}={v}" for k, v in overrides.items())
    raise ValueError(
        "overrides: give 'target.Attribute=value;...' or a dict {'target.Attribute': value}"
    )


def _paths(profile_file):
    """The paths of ``profile_file``: None or "" (none, as an empty ``--profile-file``), a path
    (str or os.PathLike) or a list or tuple of paths; ValueError for anything else."""
    if profile_file is None or (isinstance(profile_file, str) and not profile_file):
        return []
    if isinstance(profile_file, (str, os.PathLike)):
        items = [profile_file]
    elif isinstance(profile_file, (list, tuple)):
        items = list(profile_file)
    else:
        raise ValueError(f"profile_file: give a path (a str or os.PathLike) or a list of them, "
                         f"not {profile_file!r}")
    paths = []
    for item in items:
        path = os.fspath(item) if isinstance(item, (str, os.PathLike)) else None
        if not isinstance(path, str) or not path:
            raise ValueError(f"profile_file: {item!r} is not a path; give a path (a str or "
                             "os.PathLike) or a list of them")
        paths.append(_one_line("profile_file", path))
    return paths


def profiles(kind, profile_file=None):
    """Return the names of the selectable profiles of one kind (``"nic"``, ``"host"``,
    ``"lanai"``, ``"chipset"``, ``"fm"`` or ``"mpi"``), with those of ``profile_file`` (a path or
    a list of paths, files or folders, as a scenario's ``--profile-file``; None or "" for none).
    An unknown kind, or a ``profile_file`` that is not a path or cannot be read, raises
    ValueError naming ``kind`` or ``profile_file``."""
    if not isinstance(kind, str) or kind not in kinds():
        raise ValueError(f"profiles: kind {kind!r} is not one of {', '.join(kinds())}")
    paths = _paths(profile_file)
    try:
        catalogue = load_profiles(extra=paths)
    except ProfileError as exc:
        if paths:   # the user's files (a fault of the catalogue's own files is its own)
            raise ValueError(f"profile_file: {exc}") from None
        raise
    return profile_names(kind, catalogue)


def netpipe(
    nic="sknet",
    mtu=1500,
    sockbuf=131072,
    host="piii450-linux22",
    pci=None,
    max_block=1 << 21,
    overrides=None,
    rng_run=1,
    profile_file=None,
):
    """Simulate one NetPIPE TCP run between two hosts linked back to back.

    Parameters
    ----------
    nic : str
        NIC profile (see ``profiles("nic")``).
    mtu : int
        IP MTU [bytes; the range of the NIC model's Mtu attribute, 1500 to 9000].
    sockbuf : int
        socket buffer, SO_SNDBUF and SO_RCVBUF [bytes; the range of NetpipeApplication's
        SocketBuffer attribute].
    host : str
        host profile (see ``profiles("host")``).
    pci : str or None
        PCI slot ``"WIDTHxCLOCK"`` [bits x MHz: 32x33, 32x66, 64x33, 64x66]; None = the host
        profile's.
    max_block : int
        largest NetPIPE block [bytes; the range of NetpipeApplication's MaxBlock attribute].
    overrides : str, dict or None
        profile attribute overrides, ``"cpu.CopyBandwidth=1200Mbps;device.Mtu=..."`` or
        ``{"cpu.CopyBandwidth": "1200Mbps"}``; targets device, driver, coalescer, cpu, bus, stack.
    rng_run : int
        ns-3 RngRun (run number of the random streams) [>= 1].
    profile_file : str, path, list of them, or None
        profile files or folders read besides the catalogue (format: ``contrib/clusternet/profiles/README.md``),
        as a scenario's ``--profile-file``; None or "" for none.

    Returns
    -------
    pandas.DataFrame
        One row per block size with the columns of a scenario's ``data.csv``: nic, host, pci,
        mtu, sockbuf, block_bytes, oneway_us, mbps, reps.

    Raises
    ------
    ValueError
        naming the parameter and what is allowed, before anything is simulated.
    """
    for name, value in (("mtu", mtu), ("sockbuf", sockbuf), ("max_block", max_block)):
        _whole(name, value, "bytes")
    _whole("rng_run", rng_run, "", 1, UINT32_MAX)
    for name, value in (("nic", nic), ("host", host)):
        if not isinstance(value, str):
            raise ValueError(f"{name}: give a profile name as a string, not {value!r}")
        _one_line(name, value)
    if pci is not None and not isinstance(pci, str):
        raise ValueError(f"pci: give 'WIDTHxCLOCK' (32x33, 32x66, 64x33, 64x66), not {pci!r}")
    _one_line("pci", pci or "")
    text = _one_line("overrides", _overrides_text(overrides))
    paths = _paths(profile_file)
    try:
        _files(paths)   # each one there, before ns-3 is loaded
    except ProfileError as exc:
        raise ValueError(f"profile_file: {exc}") from None

    cn = load()
    experiment = cn.TcpNetpipeExperiment
    _in_range("mtu", mtu, experiment.MtuRange(), "bytes")
    _in_range("sockbuf", sockbuf, experiment.SockbufRange(), "bytes")
    _in_range("max_block", max_block, experiment.MaxBlockRange(), "bytes")
    if paths:
        err = str(cn.ProfileCatalogue.Load(paths))
        if err:
            raise ValueError(f"profile_file: {err}")
    config = cn.NetpipeConfig()
    config.nic = nic
    config.host = host
    config.pci = pci or ""
    config.mtu = mtu
    config.sockbuf = sockbuf
    config.maxBlock = max_block
    config.overrides = text
    err = str(cn.TcpNetpipeExperiment.Validate(config))
    if err:
        # The C++ messages name command-line options; name the Python parameters instead.
        err = err.replace("--set:", "overrides:", 1).removeprefix("--")
        raise ValueError(err)

    import cppyy

    cppyy.gbl.ns3.RngSeedManager.SetRun(rng_run)
    columns = [str(c) for c in cn.NetpipeColumns()]
    rows = cn.NetpipeRows(config)
    lines = [",".join(columns)] + [",".join(str(v) for v in row) for row in rows]
    # Parse the text the scenario would write, so types and values match data.csv exactly.
    import pandas as pd   # here, so that importing clusternet stays quick

    return pd.read_csv(io.StringIO("\n".join(lines) + "\n"))
