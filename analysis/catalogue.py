# SPDX-License-Identifier: GPL-2.0-only
"""The profile files (``contrib/clusternet/profiles/*.toml``, format in its ``README.md``) read from Python.

The same files the C++ scenarios read, with the same rules for bases (a profile with ``base``
holds the base's values with its own laid over them) and for where they are found
(``$CLUSTERNET_PROFILE_PATH``, colon-separated, else the module's ``profiles/`` folder). The C++
side also checks every attribute against its ns-3 TypeId; this reader needs no ns-3 and checks
the structure only: the keys and their types, kinds, targets (:func:`targets`), [value, source]
pairs, properties (:data:`PROPERTY_RULES`), bases and parts. A file it refuses is one line
naming ``file:line``, the line the C++ catalogue names (tomllib gives no positions: the lines
are found in the text).

    >>> from analysis.catalogue import profile_value
    >>> profile_value("mpi", "lampi-tcp", "mpi", "EagerLimit")
    '16384'
"""

import functools
import math
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

PROFILE_PATH_ENV = "CLUSTERNET_PROFILE_PATH"
#: The target table both readers use, one row per target: the C++ catalogue includes it
#: (``ProfileCatalogue::Targets()``), this reader parses it (:func:`kinds`, :func:`targets`).
TARGET_TABLE = (Path(__file__).resolve().parent.parent / "contrib" / "clusternet" / "model" /
                "profile" / "profile-targets.def")
_TARGET_ROW = re.compile(r'^CLUSTERNET_PROFILE_TARGET\(\s*"(\w+)",\s*"(\w+)",\s*"([\w:]+)",'
                         r'\s*"[^"]*"\s*\)', re.M)


@functools.cache
def target_rows(path=TARGET_TABLE):
    """The rows of the target table: (kind, target, TypeId name), in its order."""
    rows = _TARGET_ROW.findall(Path(path).read_text(encoding="utf-8"))
    if not rows:
        raise RuntimeError(f"{path}: no CLUSTERNET_PROFILE_TARGET rows (the target table)")
    return rows


def kinds():
    """The profile kinds, in the target table's order."""
    return tuple(dict.fromkeys(kind for kind, _, _ in target_rows()))


def targets():
    """The targets of each kind (the objects its values are set on), besides ``properties``."""
    return {kind: tuple(t for k, t, _ in target_rows() if k == kind) for kind in kinds()}


#: The part kinds a host or NIC profile may be composed of (``parts``).
PART_KINDS = {"host": ("cpu", "os", "gm"), "nic": ("chip", "driver")}
PROPERTIES = "properties"


def _is_number(text):
    """A finite number >= 0 in decimal digits (as C++ ``from_chars`` reads them)."""
    return bool(re.fullmatch(r"(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", text)) and \
        math.isfinite(float(text))


def _one_name(text):
    return bool(text) and "," not in text


#: ``[name.properties]``: kind -> {property: (what is allowed, check of the text or None, the
#: kind of profile each comma-separated item names or "")}, as the C++ catalogue's rules.
PROPERTY_RULES = {
    "host": {"Chipset": ("the name of one chipset profile", _one_name, "chipset")},
    "cpu": {"Chipset": ("the name of one chipset profile", _one_name, "chipset")},
    "nic": {"PriceUsd": ("a price in US dollars (a number >= 0)", _is_number, "")},
    "lanai": {"PciClock": ("33 or 66 (MHz: the fastest PCI clock the board runs at)",
                           lambda v: v in ("33", "66"), "")},
    "fm": {"Pacing": ("off, probe, or a PIO chunk in bytes",
                      lambda v: v in ("off", "probe") or (v.isascii() and v.isdigit()
                                                          and len(v) < 10), "")},
    "mpi": {"Transport": ("tcp, gm, via or fm", lambda v: v in ("tcp", "gm", "via", "fm"), ""),
            "Nics": ("NIC profile names, comma-separated", None, "nic")},
}


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
    #: the line of each key in its file: ``()`` the profile's table, ``("base",)``,
    #: ``("parts",)``, ``(target, attribute)`` of each of its own values
    lines: dict = field(default_factory=dict, repr=False, compare=False)

    def at(self, *key):
        """``file:line`` of ``key`` (see :attr:`lines`), else of the profile's table."""
        return f"{self.file}:{self.lines.get(key, self.lines.get((), 1))}"


def default_paths():
    """The folders and files the catalogue is read from."""
    env = os.environ.get(PROFILE_PATH_ENV, "")
    if env.strip():
        return [Path(p) for p in env.split(":") if p]
    return [Path(__file__).resolve().parent.parent / "contrib" / "clusternet" / "profiles"]


def _files(paths):
    """The files ``paths`` stand for, as the programs read them: a file, or a folder's
    ``*.toml`` (regular files) in name order. (``clusternet.sweep`` hashes them.)"""
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


def _profile_files(paths):
    """The profile files ``paths`` stand for (:func:`_files`), checked: a file named twice
    is read once; a path that is neither a file nor a folder, a ``*.toml`` in a folder that is
    not a regular file (a FIFO would never end; a folder is passed over) and a folder with no
    ``*.toml`` are refused."""
    out, seen = [], set()
    for path in paths:
        path = Path(path)
        if path.is_dir():
            found = []
            for p in sorted(path.glob("*.toml")):
                if p.is_dir():
                    continue
                if not p.is_file():
                    raise ProfileError(f"{p}:1: the profile file is not a regular file")
                found.append(p)
            if not found:
                raise ProfileError(f"{path}: the profile folder holds no profile file (*.toml)")
        elif path.is_file():
            found = [path]
        elif os.path.lexists(path):
            raise ProfileError(f"{path}: not a regular profile file or a folder of them")
        else:
            raise ProfileError(f"{path}: no such profile file or folder")
        for p in found:
            key = os.path.realpath(p)
            if key not in seen:
                seen.add(key)
                out.append(p)
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
    return _read_toml(path, what)[0]


def _read_toml(path, what="the profile file"):
    """The tables of TOML file ``path`` and its text (:func:`read_toml`)."""
    from .io import TextFileError, read_text_file

    try:
        text = read_text_file(path, what)
    except TextFileError as exc:
        raise ProfileError(str(exc)) from None
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as exc:
        # tomllib says where as "(at line N, column M)" or "(at end of document)".
        msg = str(exc)
        at = re.search(r" \(at line (\d+), column \d+\)$", msg)
        line = int(at.group(1)) if at else max(1, len(text.splitlines()))
        msg = msg[:at.start()] if at else msg.removesuffix(" (at end of document)")
        raise ProfileError(f"{path}:{line}: malformed TOML: {msg}") from None


def _split_key(text):
    """The parts of a dotted TOML key (``a."b.c".d`` -> ``[a, b.c, d]``), quotes removed."""
    parts, cur, quote = [], "", None
    for ch in text:
        if quote:
            if ch == quote:
                quote = None
            else:
                cur += ch
        elif ch in "\"'":
            quote = ch
        elif ch == ".":
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    parts.append(cur.strip())
    return parts


def _outside_quotes(text, stops):
    """The index of the first character of ``stops`` in ``text`` outside quotes (-1: none; a
    ``#`` outside quotes ends the search)."""
    quote = None
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch in stops:
            return i
        elif ch == "#":
            return -1
    return -1


def _scan(text):
    """``text`` with its strings emptied and its comment cut, and the delimiter of a
    multi-line string it leaves open ("" if none)."""
    out, i, n = [], 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "#":
            break
        if text[i:i + 3] in ('"' * 3, "'" * 3):
            delim = text[i:i + 3]
            end = text.find(delim, i + 3)
            if end < 0:
                return "".join(out), delim
            i = end + 3
            continue
        if ch in "\"'":
            j = i + 1
            while j < n and text[j] != ch:
                j += 2 if ch == '"' and text[j] == "\\" else 1
            i = j + 1
            continue
        out.append(ch)
        i += 1
    return "".join(out), ""


def _depth(body):
    return body.count("[") + body.count("{") - body.count("]") - body.count("}")


def _key_lines(text):
    """``{key path: line}`` of every table header and key of TOML ``text`` (where each is
    first written), for messages: tomllib gives no positions. A key inside an inline table has
    the line of the key that holds the table."""
    lines, table, depth, open_string = {}, (), 0, ""
    for n, raw in enumerate(text.splitlines(), 1):
        if open_string:
            end = raw.find(open_string)
            if end < 0:
                continue
            body, open_string = _scan(raw[end + 3:])
            depth += _depth(body)
            continue
        if depth > 0:
            body, open_string = _scan(raw)
            depth += _depth(body)
            continue
        stripped = raw.lstrip()
        if stripped.startswith("["):
            inner = stripped[2:] if stripped.startswith("[[") else stripped[1:]
            close = _outside_quotes(inner, "]")
            table = tuple(_split_key(inner[:close] if close >= 0 else inner))
            lines.setdefault(table, n)
            continue
        eq = _outside_quotes(raw, "=")
        if eq < 0:
            continue
        key = tuple(_split_key(raw[:eq]))
        for k in range(1, len(key) + 1):
            lines.setdefault(table + key[:k], n)
        body, open_string = _scan(raw[eq + 1:])
        depth = _depth(body)
    return lines


def toml_type(value):
    """What TOML calls the type of ``value`` (for messages)."""
    for kind, name in ((bool, "a boolean"), (int, "an integer"), (float, "a float"),
                       (str, "a string"), (list, "an array"), (dict, "a table")):
        if isinstance(value, kind):
            return name
    return "a date or time"


def _no_target(p, target, where):
    return ProfileError(f"{where}: {p.name}.{target}: a {p.kind} profile has no target "
                        f"'{target}' (allowed: {', '.join(targets()[p.kind])}, {PROPERTIES})")


def _read(path):
    """The profiles of file ``path`` as written (bases and parts not resolved), each checked
    for what needs no other file: its keys and their types, its kind and description, its
    targets, each value's [value, source] pair and the properties' rules. A problem is one
    line naming ``file:line``, as the C++ catalogue's."""
    doc, text = _read_toml(path)
    key_lines = _key_lines(text)
    if not doc:
        raise ProfileError(f"{path}:1: the profile file holds no profile")
    profiles = []
    for name, table in doc.items():
        def at(*key, name=name):
            return f"{path}:{key_lines.get((name, *key), key_lines.get((name,), 1))}"

        if not isinstance(table, dict):
            raise ProfileError(f"{at()}: '{name}' is not a profile table ([{name}] with kind, "
                               "description and values)")
        p = Profile(kind="", name=name, description="", file=str(path))
        p.lines[()] = key_lines.get((name,), 1)
        for key, value in table.items():
            if key in ("kind", "description", "base"):
                if not isinstance(value, str) or not value:
                    raise ProfileError(f"{at(key)}: {name}.{key}: needs a string"
                                       + (" (a profile name)" if key == "base" else "")
                                       + (", not an empty one" if value == "" else
                                          f", not {toml_type(value)}"))
                setattr(p, key, value)
                p.lines[(key,)] = key_lines.get((name, key), p.lines[()])
            elif key == "parts":
                if not isinstance(value, list) or not value or not all(
                        isinstance(x, str) and x for x in value):
                    raise ProfileError(f"{at(key)}: {name}.parts: needs a list of part profile "
                                       "names, e.g. [\"piii450-440bx\", \"linux22\"]")
                p.parts = tuple(value)
                p.lines[("parts",)] = key_lines.get((name, key), p.lines[()])
            elif key == "abstract":
                if not isinstance(value, bool):
                    raise ProfileError(f"{at(key)}: {name}.abstract: needs true or false")
                p.abstract = value
            elif not isinstance(value, dict):
                raise ProfileError(f"{at(key)}: {name}.{key}: unknown key (a profile has kind, "
                                   "description, base, parts, abstract and one table per "
                                   "target)")
            else:
                for attribute, pair in value.items():
                    where = f"{at(key, attribute)}: {name}.{key}.{attribute}"
                    if not isinstance(pair, list) or len(pair) != 2 or _text(pair[0]) is None:
                        raise ProfileError(f"{where}: needs [value, source], e.g. "
                                           "[\"5us\", \"datasheet p. 3\"]")
                    if not isinstance(pair[1], str) or not pair[1].strip(" \t"):
                        raise ProfileError(f"{where}: the value has no source (say where it "
                                           "comes from: paper and section, datasheet, driver "
                                           "default or reasoning)")
                    p.values[(key, attribute)] = (_text(pair[0]), pair[1])
                    p.lines[(key, attribute)] = key_lines.get((name, key, attribute),
                                                              p.lines[()])
        if not p.kind:
            raise ProfileError(f"{at()}: {name}: needs kind (one of {', '.join(kinds())})")
        if p.kind not in kinds():
            raise ProfileError(f"{at()}: {name}: unknown kind '{p.kind}' (one of "
                               f"{', '.join(kinds())})")
        if not p.description:
            raise ProfileError(f"{at()}: {name}: needs a description")
        for (target, attribute), (value, _) in sorted(p.values.items(),
                                                      key=lambda kv: p.lines[kv[0]]):
            where = f"{p.at(target, attribute)}: {name}.{target}.{attribute} = '{value}'"
            if target == PROPERTIES:
                rules = PROPERTY_RULES.get(p.kind, {})
                if attribute not in rules:
                    raise ProfileError(f"{where}: no such property of a {p.kind} profile ("
                                       + (f"allowed: {', '.join(rules)}" if rules else
                                          "it has none") + ")")
                allowed, check, _ = rules[attribute]
                if check is not None and not check(value):
                    raise ProfileError(f"{where}: not allowed ({allowed})")
            elif target not in targets()[p.kind]:
                raise _no_target(p, target, p.at(target, attribute))
        for target, value in table.items():
            if isinstance(value, dict) and target not in targets()[p.kind] + (PROPERTIES,):
                raise _no_target(p, target, at(target))   # an empty one
        profiles.append(p)
    return profiles


def load_profiles(paths=None, extra=()):
    """Read the catalogue; return ``{name: Profile}`` with bases resolved, in file order.

    ``paths`` defaults to :func:`default_paths`; ``extra`` adds files or folders (as a
    program's ``--profile-file``). Raises :class:`ProfileError`, one line naming ``file:line``.
    """
    raw = {}
    for path in _profile_files(list(default_paths() if paths is None else paths) +
                                  list(extra)):
        for p in _read(path):
            if p.name in raw:
                raise ProfileError(f"{p.at()}: profile '{p.name}' is already defined at "
                                   f"{raw[p.name].at()} (derive a new name from it with "
                                   f"base = \"{p.name}\")")
            raw[p.name] = p
    resolved = {}

    def resolve(name, chain):
        if name in resolved:
            return resolved[name]
        p = raw[name]
        values = {}
        if p.parts:
            at = f"{p.at('parts')}: {name}"
            if p.kind not in PART_KINDS:
                raise ProfileError(f"{at}: a {p.kind} profile has no parts (host and nic "
                                   "profiles are composed of parts)")
            if p.base:
                raise ProfileError(f"{at}: has both base and parts (derive from a part, or "
                                   "compose parts)")
            set_by = {}
            for part in p.parts:
                if part not in raw or raw[part].kind not in PART_KINDS[p.kind]:
                    raise ProfileError(f"{at}: part '{part}' is not a profile of a part kind "
                                       f"of a {p.kind} ({', '.join(PART_KINDS[p.kind])})")
                for key, pair in resolve(part, chain + [part]).values.items():
                    if key in set_by:
                        raise ProfileError(f"{at}: parts '{set_by[key]}' and '{part}' both "
                                           f"set {key[0]}.{key[1]} (a value belongs to one "
                                           "part)")
                    set_by[key] = part
                    values[key] = pair
        if p.base:
            at = f"{p.at('base')}: {name}"
            if p.base not in raw:
                raise ProfileError(f"{at}: unknown base profile '{p.base}'")
            if p.base in chain:
                raise ProfileError(f"{at}: its bases form a cycle "
                                   f"({' -> '.join(chain + [p.base])})")
            if raw[p.base].kind != p.kind:
                raise ProfileError(f"{at}: base '{p.base}' is a {raw[p.base].kind} profile, "
                                   f"not a {p.kind} profile")
            values = dict(resolve(p.base, chain + [p.base]).values)
        values.update(p.values)
        resolved[name] = Profile(p.kind, p.name, p.description, p.file, p.base, p.abstract,
                                 values, p.parts, p.lines)
        return resolved[name]

    out = {name: resolve(name, [name]) for name in raw}
    # Properties that name other profiles.
    for p in raw.values():
        for (target, attribute), (value, _) in p.values.items():
            rule = PROPERTY_RULES.get(p.kind, {}).get(attribute) if target == PROPERTIES \
                else None
            if not rule or not rule[2]:
                continue
            for item in value.split(","):
                other = raw.get(item)
                if other is None or other.kind != rule[2] or other.abstract:
                    raise ProfileError(f"{p.at(target, attribute)}: {p.name}.{target}."
                                       f"{attribute} = '{value}': '{item}' is not a {rule[2]} "
                                       f"profile ({rule[0]})")
    return out


def load_tables(paths=None, extra=()):
    """The profile tables as the files hold them, ``{name: table}`` (bases not resolved), for a
    program that writes a catalogue back out (``./ns3 calibrate``). Check the files with
    :func:`load_profiles` first."""
    tables = {}
    for path in _profile_files(list(default_paths() if paths is None else paths) +
                                  list(extra)):
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
