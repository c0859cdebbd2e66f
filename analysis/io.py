"""File locations and crash-safe file output for the clusternet analysis package.

Every file this package writes goes through :func:`write_csv_atomic` or
:func:`save_figure_atomic`: the content is written to a temporary file in the destination
directory, flushed to disk, and renamed over the destination with :func:`os.replace`. A reader
(or an interrupted sweep) therefore sees either the old file or the complete new one, never a
half-written file.
"""

import os
import tempfile
from pathlib import Path

import pandas as pd

class TextFileError(ValueError):
    """A file that is not readable UTF-8 text; the message is ``file:line: what is wrong``."""


def _line_of(before):
    """The line number at the end of the bytes ``before``: lines end at \\n, \\r\\n or \\r."""
    return before.count(b"\n") + before.count(b"\r") - before.count(b"\r\n") + 1


def read_text_file(path, what="the file"):
    """The text of ``path``, a regular file of UTF-8 text without NUL bytes (a leading BOM
    dropped). Anything else raises :class:`TextFileError` naming the file, the line and ``what``
    it is, before a FIFO or a folder is opened."""
    path = Path(path)
    try:
        regular = path.is_file()
    except OSError as exc:   # a name too long, a loop of symlinks: no file to read
        raise TextFileError(f"{path}:1: cannot read {what} ({exc.strerror or exc})") from None
    if not regular:
        if not os.path.lexists(path):
            raise TextFileError(f"{path}:1: cannot read {what} (no such file)")
        raise TextFileError(f"{path}:1: {what} is not a regular file")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise TextFileError(f"{path}:1: cannot read {what} ({exc.strerror or exc})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = _line_of(data[:exc.start])
        raise TextFileError(f"{path}:{line}: {what} is not UTF-8 text (byte {exc.start}); "
                            "save it as UTF-8") from None
    if "\0" in text:
        line = _line_of(text[:text.index("\0")].encode())
        raise TextFileError(f"{path}:{line}: {what} has NUL bytes: not a text file (UTF-16?); "
                            "save it as UTF-8")
    return text.removeprefix("\ufeff")


def repo_root():
    """Return the repository root: the parent of the ``analysis/`` package folder."""
    return Path(__file__).resolve().parent.parent


def reference_dir():
    """Return the folder of the papers' reference numbers, ``<repo root>/reference``."""
    return repo_root() / "reference"


def read_data(path):
    """Read a scenario's tidy ``data.csv`` into a DataFrame.

    Column names are stripped of surrounding blanks; pandas infers the column types (ints stay
    ints, floats floats, anything else strings). Raises ``FileNotFoundError`` when the file is
    missing and ``pandas.errors.EmptyDataError`` when it is empty.
    """
    df = pd.read_csv(path, skipinitialspace=True)
    df.columns = [str(c).strip() for c in df.columns]
    return df


def _fsync_dir(directory):
    """Flush a directory entry to disk (best effort; not possible on every platform)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _default_mode():
    """Permission bits an ordinary ``open(path, "w")`` would give under the current umask."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def atomic_write(path, write, binary=False):
    """Write ``path`` atomically by calling ``write(fileobj)`` on a temporary sibling file.

    The temporary file lives in the same directory (so the final rename cannot cross file
    systems), is fsync'ed, then renamed over ``path``. If ``write`` raises, the temporary file
    is removed, any existing ``path`` is left untouched, and the exception propagates.
    Missing parent directories are created. Returns ``path`` as a ``Path``.
    """
    path = Path(path)
    directory = path.parent
    directory.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        mode = "wb" if binary else "w"
        kwargs = {} if binary else {"newline": "", "encoding": "utf-8"}
        with os.fdopen(fd, mode, **kwargs) as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, _default_mode())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    _fsync_dir(directory)
    return path


def write_csv_atomic(df, path):
    """Write ``df`` (without its index) as CSV to ``path`` atomically; return the path."""
    return atomic_write(path, lambda f: df.to_csv(f, index=False))


def save_figure_atomic(fig, path, **savefig_kwargs):
    """Save a matplotlib figure to ``path`` atomically; the format follows the extension."""
    path = Path(path)
    fmt = path.suffix.lstrip(".").lower() or "png"
    kwargs = {"dpi": 120, "bbox_inches": "tight"}
    kwargs.update(savefig_kwargs)
    return atomic_write(path, lambda f: fig.savefig(f, format=fmt, **kwargs), binary=True)


def load_runs(*results):
    """Load the points of one or more sweeps into one DataFrame, each row with its provenance.

    ``results`` are sweep output folders (``results/<scenario>``). Each point's rows
    (``.points/<file>.csv``, with ``data.csv``'s columns) get the columns of its line of
    ``provenance.csv`` (``point``, ``key``, ``args``, ``rng_run``, ``code_sha256``,
    ``profiles_sha256``, ``git_commit``, ``git_dirty``, ``ns3_version``, ``wall_s``, ``host``,
    ...) and ``results``, the folder it came from. Columns one sweep lacks are empty (NaN) in
    the others' rows. Raises ``FileNotFoundError`` for a folder without ``data.csv`` or
    ``provenance.csv``.
    """
    frames = []
    for folder in results:
        folder = Path(folder)
        columns = list(read_data(folder / "data.csv").columns)
        prov = pd.read_csv(folder / "provenance.csv", dtype=str, keep_default_na=False)
        prov["wall_s"] = pd.to_numeric(prov["wall_s"])
        for _, point in prov.iterrows():
            path = folder / ".points" / f"{point['file']}.csv"
            if path.stat().st_size == 0:
                continue
            rows = pd.read_csv(path, header=None, names=columns)
            for name, value in point.items():
                rows[name] = value
            rows["results"] = str(folder)
            frames.append(rows)
    if not frames:
        return pd.DataFrame()
    return pd.concat(frames, ignore_index=True)
