"""Human-readable names for configuration values, shared by plots and text reports."""

import math

NIC_NAMES = {
    "acenic": "ACEnic",
    "sknet": "SK-NET",
    "gnic2": "GNIC-II",
    "pro1000mt": "Pro/1000 MT",
    "ga620": "GA620",
    "fa310tx": "FA310TX",
    "lanai9": "LANai9",
    "lanai72": "LANai 7.2",
    "lanai4": "LANai 4",
}


def nic_label(nic):
    """``"sknet"`` -> ``"SK-NET"``; unknown NICs are returned unchanged."""
    return NIC_NAMES.get(str(nic), str(nic))


def bytes_label(value):
    """``65536`` -> ``"64K"``, ``1048576`` -> ``"1M"``; other sizes as plain numbers."""
    try:
        n = int(value)
    except (TypeError, ValueError):
        return str(value)
    for unit, size in (("M", 1 << 20), ("K", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size}{unit}"
    return str(n)


def config_label(cfg, keys=None):
    """``{"nic": "sknet", "mtu": 9000}`` -> ``"SK-NET mtu=9000"`` (only ``keys`` when given)."""
    keys = list(cfg) if keys is None else list(keys)
    parts = []
    for key in keys:
        value = cfg.get(key)
        if key == "nic":
            parts.append(nic_label(value))
        elif key == "sockbuf":
            parts.append(f"sockbuf={bytes_label(value)}")
        else:
            parts.append(f"{key}={plain(value)}")
    return " ".join(parts)


def plain(value):
    """Numbers without a spurious ``.0`` (``1500.0`` -> ``"1500"``); other values as text."""
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return str(int(value))
    return str(value)


def _finite_or_none(value):
    """``value`` as a float, or None when it is missing, NaN or not a number."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(x) else x


def number(value, missing="n/a"):
    """Compact number for tables: 4 significant digits, ``missing`` for NaN/None."""
    x = _finite_or_none(value)
    return missing if x is None else f"{x:.4g}"


def percent(fraction, missing="n/a"):
    """Signed percentage of a fraction: ``-0.0123`` -> ``"-1.2%"``."""
    x = _finite_or_none(fraction)
    return missing if x is None else f"{100.0 * x:+.1f}%"
