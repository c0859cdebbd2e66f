# SPDX-License-Identifier: GPL-2.0-only
"""The profile files (``contrib/clusternet/profiles/*.toml``, format in its ``README.md``) read from Python.

The same files the C++ scenarios read, with the same rules for bases (a profile with ``base``
holds the base's values with its own laid over them) and for where they are found
(``$CLUSTERNET_PROFILE_PATH``, colon-separated, else the module's ``profiles/`` folder). The C++
side also checks every attribute against its ns-3 TypeId; this reader needs no ns-3 and checks
the structure only.

    >>> from clusternet.catalogue import profile_value
    >>> profile_value("mpi", "lampi-tcp", "mpi", "EagerLimit")
    '16384'
"""

import functools
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

PROFILE_PATH_ENV = "CLUSTERNET_PROFILE_PATH"
KINDS = ("host", "nic", "cpu", "os", "gm", "chip", "driver", "lanai", "chipset", "fm", "mpi")
#: The part kinds a host or NIC profile may be composed of (``parts``).
PART_KINDS = {"host": ("cpu", "os", "gm"), "nic": ("chip", "driver")}
_PROFILE_KEYS = {"kind", "description", "base", "abstract", "parts"}


class ProfileError(ValueError):
    """A profile file that cannot be used; the message names the file."""


@dataclass
class Profile:
    """One profile with its resolved values ``{(target, attribute): (value, source)}``."""

    kind: str
    name: str
    description: str
    file: str
    base: str = ""
    abstract: bool = False
    values: dict = field(default_factory=dict)
    parts: tuple = ()


def default_paths():
    """The folders and files the catalogue is read from."""
    env = os.environ.get(PROFILE_PATH_ENV, "")
    if env.strip():
        return [Path(p) for p in env.split(":") if p]
    return [Path(__file__).resolve().parent.parent / "contrib" / "clusternet" / "profiles"]


def _files(paths):
    out = []
    for path in paths:
        path = Path(path)
        if path.is_dir():
            out += sorted(p for p in path.glob("*.toml") if p.is_file())
        elif path.is_file():
            out.append(path)
        else:
            raise ProfileError(f"{path}: no such profile file or folder")
    return out


def _text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str)):
        return str(value)
    return None


def read_toml(path, what="the profile file"):
    """The tables of TOML file ``path``; :class:`ProfileError` naming it (and ``what`` it is)
    when it cannot be read or parsed."""
    from analysis.io import TextFileError, read_text_file

    try:
        text = read_text_file(path, what)
    except TextFileError as exc:
        raise ProfileError(str(exc)) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{path}: malformed TOML: {exc}") from exc


def _read(path):
    doc = read_toml(path)
    profiles = []
    for name, table in doc.items():
        if not isinstance(table, dict):
            raise ProfileError(f"{path}: '{name}' is not a profile table")
        for key in ("kind", "description", "base"):
            if not isinstance(table.get(key, ""), str):
                raise ProfileError(f"{path}: {name}.{key}: needs a string (a profile name for "
                                   "base), not " + type(table[key]).__name__)
        p = Profile(kind=table.get("kind", ""), name=name,
                    description=table.get("description", ""), file=str(path),
                    base=table.get("base", ""), abstract=bool(table.get("abstract", False)))
        parts = table.get("parts", [])
        if not isinstance(parts, list) or not all(isinstance(x, str) and x for x in parts):
            raise ProfileError(f"{path}: {name}.parts: needs a list of part profile names")
        p.parts = tuple(parts)
        if p.kind not in KINDS:
            raise ProfileError(f"{path}: {name}: kind must be one of {', '.join(KINDS)}")
        if not p.description:
            raise ProfileError(f"{path}: {name}: needs a description")
        for target, values in table.items():
            if target in _PROFILE_KEYS:
                continue
            if not isinstance(values, dict):
                raise ProfileError(f"{path}: {name}.{target}: unknown key")
            for attribute, pair in values.items():
                where = f"{path}: {name}.{target}.{attribute}"
                if not isinstance(pair, list) or len(pair) != 2 or _text(pair[0]) is None:
                    raise ProfileError(f"{where}: needs [value, source]")
                if not isinstance(pair[1], str) or not pair[1].strip():
                    raise ProfileError(f"{where}: the value has no source")
                p.values[(target, attribute)] = (_text(pair[0]), pair[1])
        profiles.append(p)
    return profiles


def load_profiles(paths=None, extra=()):
    """Read the catalogue; return ``{name: Profile}`` with bases resolved, in file order.

    ``paths`` defaults to :func:`default_paths`; ``extra`` adds files or folders (as a
    program's ``--profile-file``). Raises :class:`ProfileError`.
    """
    raw = {}
    for path in _files(list(default_paths() if paths is None else paths) + list(extra)):
        for p in _read(path):
            if p.name in raw:
                raise ProfileError(f"{path}: profile '{p.name}' is already defined in "
                                   f"{raw[p.name].file}")
            raw[p.name] = p
    resolved = {}

    def resolve(name, chain):
        if name in resolved:
            return resolved[name]
        p = raw[name]
        values = {}
        if p.parts:
            if p.kind not in PART_KINDS:
                raise ProfileError(f"{p.file}: {name}: a {p.kind} profile has no parts")
            if p.base:
                raise ProfileError(f"{p.file}: {name}: has both base and parts")
            set_by = {}
            for part in p.parts:
                if part not in raw or raw[part].kind not in PART_KINDS[p.kind]:
                    raise ProfileError(f"{p.file}: {name}: part '{part}' is not a profile of a "
                                       f"part kind of a {p.kind} "
                                       f"({', '.join(PART_KINDS[p.kind])})")
                for key, pair in resolve(part, chain + [part]).values.items():
                    if key in set_by:
                        raise ProfileError(f"{p.file}: {name}: parts '{set_by[key]}' and "
                                           f"'{part}' both set {key[0]}.{key[1]}")
                    set_by[key] = part
                    values[key] = pair
        if p.base:
            if p.base not in raw:
                raise ProfileError(f"{p.file}: {name}: unknown base profile '{p.base}'")
            if p.base in chain:
                raise ProfileError(f"{p.file}: {name}: its bases form a cycle "
                                   f"({' -> '.join(chain + [p.base])})")
            if raw[p.base].kind != p.kind:
                raise ProfileError(f"{p.file}: {name}: base '{p.base}' is a "
                                   f"{raw[p.base].kind} profile, not a {p.kind} profile")
            values = dict(resolve(p.base, chain + [p.base]).values)
        values.update(p.values)
        resolved[name] = Profile(p.kind, p.name, p.description, p.file, p.base, p.abstract,
                                 values, p.parts)
        return resolved[name]

    return {name: resolve(name, [name]) for name in raw}


def load_tables(paths=None, extra=()):
    """The profile tables as the files hold them, ``{name: table}`` (bases not resolved), for a
    program that writes a catalogue back out (``./ns3 calibrate``). Check the files with
    :func:`load_profiles` first."""
    tables = {}
    for path in _files(list(default_paths() if paths is None else paths) + list(extra)):
        tables.update(read_toml(path))
    return tables


@functools.lru_cache(maxsize=None)
def _default_catalogue(key):
    return load_profiles()


def catalogue():
    """The default catalogue (cached per ``$CLUSTERNET_PROFILE_PATH``)."""
    return _default_catalogue(os.environ.get(PROFILE_PATH_ENV, ""))


def profile_names(kind, profiles=None):
    """Names of the selectable (not abstract) profiles of ``kind``, in file order."""
    profiles = catalogue() if profiles is None else profiles
    return [p.name for p in profiles.values() if p.kind == kind and not p.abstract]


def profile_value(kind, name, target, attribute, profiles=None):
    """The text value a profile gives ``target.attribute`` (``None`` when it sets none).

    Raises :class:`KeyError` when there is no profile ``name`` of ``kind``.
    """
    profiles = catalogue() if profiles is None else profiles
    p = profiles.get(name)
    if p is None or p.kind != kind:
        raise KeyError(f"no {kind} profile '{name}'")
    pair = p.values.get((target, attribute))
    return None if pair is None else pair[0]
