"""Measured curves in their own formats: NetPIPE's ``np.out`` and a plain CSV.

A measured curve is a DataFrame with the columns :data:`CURVE_COLUMNS`: ``msg_bytes`` (the
block or message size in bytes), ``latency_us`` (one-way time in µs, half the ping-pong) and
``mbps`` (throughput in Mbit/s, 10^6 bit/s), one row per size in increasing order; a column the
file does not give is NaN.

**NetPIPE output** (``np.out``). Each line is one block size, whitespace-separated: the size in
bytes, the throughput, and the one-way time in seconds; NetPIPE 3.x writes them with
``fprintf(out, "%8d %lf %12.8lf", bits / 8, bps, t)`` (netpipe.c of NetPIPE 3.7.1,
github.com/handong32/NetPIPE-3.7.1 ``src/netpipe.c``; 3.6 used ``"%8d %lf %lf"``, 2.x tabs).
Its throughput is ``bits / (t * 1024 * 1024)``, "Mbps" in units of 2^20 bit/s, and with
``-C`` CPU-use columns follow the time; 2.x could write MB/s instead. The reader therefore
takes the size and the time and derives ``mbps = 8 * bytes / t / 10^6`` itself; further columns
are ignored. Lines that are blank or start with ``#`` are skipped. :func:`write_np_out` writes
the same three columns (the time with 11 decimals instead of NetPIPE's 8, so a simulated
curve keeps its 1 ns resolution).

**CSV**: a header with ``msg_bytes`` and at least one of ``latency_us`` and ``mbps``, each
once; other columns are ignored; a blank cell is a value not measured; blank lines are skipped.

Both formats: UTF-8 text (a leading BOM is dropped); a line ends with ``\\n``, ``\\r\\n`` or
a lone ``\\r`` (as Python's text mode reads them: files from Windows or spreadsheets read as they
are), and line numbers count those ends only. A number is written with ASCII digits, an
optional sign, decimal point and exponent (``1024``, ``1024.0``, ``2e-05``); Python's ``1_000``,
other scripts' digits and ``nan``/``inf`` are not numbers of a measurement file.

Both readers refuse a bad file with :class:`MeasurementError`, whose message is one line
naming ``file:line`` and what is allowed (a value it quotes is escaped and cut to a few dozen
characters): a path that is not a regular file (a folder, a FIFO: refused before it is opened)
or cannot be looked up (a name too long), a file that is not UTF-8 text (or holds NUL bytes, as
UTF-16 does), a file without data lines, a non-numeric or non-finite value, a size that is not
a positive integer or exceeds :data:`MAX_BYTES` (the model's message sizes are 32-bit), a time
or throughput that is not positive, a time so small or large that the latency or throughput it
gives is not finite, a size smaller than the line before (unsorted), a line with fewer than
three columns (np.out), a CSV line that is not CSV (a quote left open, a field beyond the csv
module's limit) or has a different column count than the header, a header that names a column
twice, a CSV line with no measured value. A size given on several lines is averaged.

``python -m analysis.measurements FILE...`` checks files and prints one line per curve
(exit 2 on the first bad file; without a file, the usage on stderr and exit 2).
"""

import csv
import io
import math
import re
import sys
from decimal import Decimal, InvalidOperation
from pathlib import Path

import pandas as pd

from .io import TextFileError, atomic_write, read_text_file

CURVE_COLUMNS = ["msg_bytes", "latency_us", "mbps"]
#: The largest message size a measured curve may hold: the model's sizes are 32-bit unsigned.
MAX_BYTES = 2**32 - 1
NETPIPE_MBIT = 1024.0 * 1024.0   # NetPIPE's "Mbps": bits / (t * 2^20)
PROG = "python -m analysis.measurements"
# A number as C's printf and spreadsheets write it (ASCII digits only), and the words of the
# non-finite values, told apart for the message.
NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
NON_FINITE = re.compile(r"[+-]?(?:nan|inf|infinity)", re.IGNORECASE)
#: Values longer than this are cut in messages.
SHOWN_CHARS = 40


class MeasurementError(ValueError):
    """A measurement file that cannot be read; the message is ``file:line: what is wrong``."""


def _shown(text):
    """``text`` quoted for a one-line message: control characters escaped, a long text cut."""
    if len(text) > SHOWN_CHARS:
        return f"{text[:SHOWN_CHARS - 8]!r}... ({len(text)} characters)"
    return repr(text)


def _float(text, path, lineno, what):
    """``text`` as a float (inf when beyond a double); refused unless written as a number."""
    if NON_FINITE.fullmatch(text):
        raise MeasurementError(f"{path}:{lineno}: {what} {_shown(text)} is not a finite number")
    if not NUMBER.fullmatch(text):
        raise MeasurementError(f"{path}:{lineno}: {what} {_shown(text)} is not a number "
                               "(ASCII digits, e.g. 1024, 0.5 or 2e-05)")
    return float(text)


def _number(text, path, lineno, what):
    value = _float(text, path, lineno, what)
    if not math.isfinite(value):
        raise MeasurementError(f"{path}:{lineno}: {what} {_shown(text)} is not a finite number "
                               "(beyond a double's range)")
    return value


def _size(text, path, lineno):
    value = _float(text, path, lineno, "message size")
    if value > MAX_BYTES:
        raise MeasurementError(f"{path}:{lineno}: message size {_shown(text)} is too large: at "
                               f"most {MAX_BYTES} bytes")
    try:
        exact = Decimal(text)   # 1.0000000000000001 is 1.0 as a float, but no integer
        whole = exact == exact.to_integral_value()
    except InvalidOperation:
        whole = False
    if value < 1 or not whole:
        raise MeasurementError(f"{path}:{lineno}: message size {_shown(text)} must be a "
                               "positive integer number of bytes")
    return int(value)


def _positive(text, path, lineno, what):
    value = _number(text, path, lineno, what)
    if value <= 0:
        raise MeasurementError(f"{path}:{lineno}: {what} {_shown(text)} must be > 0")
    return value


def _curve(rows, path):
    """Rows (size, latency_us, mbps) -> the curve frame; sizes checked non-decreasing."""
    if not rows:
        raise MeasurementError(f"{path}:1: no measurements (an empty file, or no data line)")
    last = 0
    for lineno, size, _, _ in rows:
        if size < last:
            raise MeasurementError(f"{path}:{lineno}: message size {size} is smaller than the "
                                   f"line before ({last}); sizes must be in increasing order")
        last = size
    df = pd.DataFrame([r[1:] for r in rows], columns=CURVE_COLUMNS, dtype=float)
    df["msg_bytes"] = df["msg_bytes"].astype(int)
    return df.groupby("msg_bytes", as_index=False, sort=True).mean()


def _text(path):
    """The text of a measurement file (:func:`analysis.io.read_text_file`)."""
    try:
        return read_text_file(path, "the measurement file")
    except TextFileError as exc:
        raise MeasurementError(str(exc)) from None


def _lines(text):
    """The lines of ``text``, split at ``\\n``, ``\\r\\n`` and ``\\r`` only (``str.splitlines``
    also splits at form feeds, U+2028 and others, which would shift the line numbers)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def read_np_out(path):
    """Read a NetPIPE output file; return the curve (see the module doc)."""
    path = Path(path)
    rows = []
    for lineno, line in enumerate(_lines(_text(path)), start=1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        if len(fields) < 3:
            raise MeasurementError(f"{path}:{lineno}: {len(fields)} column(s); a NetPIPE line "
                                   "has at least 3 (bytes, throughput, seconds)")
        size = _size(fields[0], path, lineno)
        _positive(fields[1], path, lineno, "throughput")
        seconds = _positive(fields[2], path, lineno, "time")
        latency, mbps = seconds * 1e6, 8.0 * size / seconds / 1e6
        if not (math.isfinite(latency) and math.isfinite(mbps)):
            raise MeasurementError(f"{path}:{lineno}: time {_shown(fields[2])} is out of range: "
                                   "the latency or throughput it gives is not a finite number")
        rows.append((lineno, size, latency, mbps))
    return _curve(rows, path)


def read_csv_curve(path):
    """Read a CSV of ``msg_bytes`` with ``latency_us`` and/or ``mbps``; return the curve."""
    path = Path(path)
    lines = []
    reader = csv.reader(io.StringIO(_text(path), newline=""), strict=True)
    while True:
        lineno = reader.line_num + 1      # the line a record starts on (a quoted cell may span)
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            raise MeasurementError(f"{path}:{lineno}: not a CSV line ({exc}); a quoted cell "
                                   "ends with a quote before the comma or line end, and a cell "
                                   f"holds at most {csv.field_size_limit()} characters") from None
        if any(c.strip() for c in row):
            lines.append((lineno, row))
    if not lines:
        raise MeasurementError(f"{path}:1: no measurements (an empty file)")
    header_line, header = lines[0]
    header = [c.strip() for c in header]
    given = [c for c in ("latency_us", "mbps") if c in header]
    if "msg_bytes" not in header or not given:
        raise MeasurementError(f"{path}:{header_line}: the header needs msg_bytes and at least "
                               f"one of latency_us, mbps (it has {_shown(','.join(header))})")
    for name in ("msg_bytes", *given):
        if header.count(name) > 1:
            raise MeasurementError(f"{path}:{header_line}: the header names {name} "
                                   f"{header.count(name)} times; give each column once")
    col = {name: header.index(name) for name in ["msg_bytes", *given]}
    rows = []
    for lineno, row in lines[1:]:
        if len(row) != len(header):
            raise MeasurementError(f"{path}:{lineno}: {len(row)} column(s), the header has "
                                   f"{len(header)}")
        size = _size(row[col["msg_bytes"]].strip(), path, lineno)
        values = {}
        for name, what in (("latency_us", "latency"), ("mbps", "throughput")):
            cell = row[col[name]].strip() if name in col else ""
            values[name] = _positive(cell, path, lineno, what) if cell else math.nan
        if all(math.isnan(v) for v in values.values()):
            raise MeasurementError(f"{path}:{lineno}: no latency_us or mbps value on this line "
                                   "(a line gives at least one)")
        rows.append((lineno, size, values["latency_us"], values["mbps"]))
    return _curve(rows, path)


def read_curve(path):
    """Read a measured curve: a ``.csv`` file as CSV, anything else as NetPIPE output."""
    return read_csv_curve(path) if Path(path).suffix.lower() == ".csv" else read_np_out(path)


def np_out_text(msg_bytes, latency_us):
    """NetPIPE 3.x output lines for sizes ``msg_bytes`` and one-way times ``latency_us``."""
    lines = []
    for size, lat in zip(msg_bytes, latency_us):
        seconds = float(lat) * 1e-6
        lines.append(f"{int(size):8d} {8.0 * int(size) / (seconds * NETPIPE_MBIT):f} "
                     f"{seconds:15.11f}\n")
    return "".join(lines)


def write_np_out(msg_bytes, latency_us, path):
    """Write a NetPIPE output file atomically (see :func:`np_out_text`); return the path."""
    text = np_out_text(msg_bytes, latency_us)
    return atomic_write(Path(path), lambda f: f.write(text))


def main(argv=None):
    """Check measurement files; print one line per curve. Returns the exit status."""
    paths = sys.argv[1:] if argv is None else argv
    if not paths or any(p in ("-h", "--help") for p in paths):
        print(f"usage: {PROG} FILE...  (NetPIPE np.out, or CSV with msg_bytes and latency_us "
              "and/or mbps)", file=sys.stdout if paths else sys.stderr)
        return 0 if paths else 2
    for path in paths:
        try:
            curve = read_curve(path)
        except MeasurementError as exc:
            print(f"{PROG}: {exc}", file=sys.stderr)
            return 2
        lat = curve["latency_us"].dropna()
        peak = curve["mbps"].max()
        print(f"{path}: {len(curve)} sizes, {curve['msg_bytes'].iloc[0]}-"
              f"{curve['msg_bytes'].iloc[-1]} B, latency "
              f"{f'{lat.iloc[0]:.2f} us' if len(lat) else 'n/a'}, peak "
              f"{f'{peak:.1f} Mbit/s' if math.isfinite(peak) else 'n/a'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
