# SPDX-License-Identifier: GPL-2.0-only
"""The bad-input battery of the measurement files (analysis.measurements), issue 44.

**Contract.** For every bad file, :func:`analysis.measurements.read_curve` raises
:class:`analysis.measurements.MeasurementError` (a ``ValueError``) whose message is one line of
at most a few hundred characters (besides the path), starting ``FILE:LINE: `` with the line at
fault (line 1 for a fault of the whole file: empty, not text, not a regular file); nothing
else is raised, and nothing hangs (a FIFO). Through the command line,
``python -m analysis.measurements FILE`` exits with status 2 and writes exactly one line to
stderr, ``python -m analysis.measurements: FILE:LINE: ...``, no traceback and nothing to stdout
(a sample of the cases, run as subprocesses). Valid variants of the same files must be read,
with the values they hold: a battery that refuses everything proves nothing.

**Where the cases come from.** Two valid files, a NetPIPE ``np.out`` (:data:`NP_LINES`) and a
CSV (:data:`CSV_LINES`), and the rules the module doc declares for each field:

- the message size (np.out column 1, CSV ``msg_bytes``): a positive integer up to
  ``MAX_BYTES`` (2^32 - 1), never blank;
- the time (np.out column 3) and the throughput (np.out column 2): positive finite numbers,
  and the time must give a finite latency and throughput;
- ``latency_us`` and ``mbps`` (CSV): positive finite numbers, or blank, but not both blank.

Each field of the second data line is replaced by every text of :data:`NOT_NUMBERS` (words,
non-finite values, other digit sets, Python-only syntax, control characters, a long token) and
then by the numbers its own rule refuses (:data:`RULE_BREAKERS`), and blanked. The structure is
varied next (missing and extra fields, header faults, duplicate or misnamed columns, header
only, decreasing sizes, quoting), then the bytes (empty, blank, comments only, NUL, Latin-1,
UTF-16/32 with and without BOM, line numbers after blank lines, comments and Unicode line
separators, very long lines), then paths that are not regular files (a folder, a FIFO, a
missing file, a broken symlink, a device, a name too long). Decisions stated in the module
doc and checked here as valid variants: CRLF and bare CR line ends are read (Python's text
mode reads them so; Windows NetPIPE builds and spreadsheets write CRLF), a UTF-8 BOM is
dropped, extra np.out columns (``-C``) and unknown CSV columns are ignored, blank lines are
skipped, an integral size written ``1024.0`` is a size.
"""
import os
import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import programs
import pytest

REPO = Path(__file__).resolve().parents[1]

from analysis.measurements import MAX_BYTES, PROG, MeasurementError, read_curve

# A NetPIPE 3.7 file ("%8d %lf %12.8lf"): 1, 2, 8 and 1024 bytes in 20, 20, 16 and 40 us.
NP_LINES = ["       1 0.381470   0.00002000",
            "       2 0.762939   0.00002000",
            "       8 3.814697   0.00001600",
            "    1024 195.312500   0.00004000"]
NP_FIELDS = ["size", "throughput", "time"]
# The same curve as a CSV (line 1 is the header).
CSV_LINES = ["msg_bytes,latency_us,mbps", "1,20,0.4", "2,20,0.8", "8,16,4", "1024,40,204.8"]
CSV_FIELDS = ["msg_bytes", "latency_us", "mbps"]
SIZES = [1, 2, 8, 1024]
LATENCIES = [20.0, 20.0, 16.0, 40.0]

# Texts that no numeric field may take.
NOT_NUMBERS = [
    "abc", "x1", "1x", "nan", "NaN", "-nan", "inf", "-inf", "+inf", "Infinity", "-Infinity",
    "1e400", "-1e400", "0x10", "0b101", "0o17", "1_000", "1,5", "1.2.3", "1e", "e5", "1e+", ".",
    "-", "+", "--1", "+-1", "1e5e5", "1j", "True", "None",
    "\uff12",               # a fullwidth digit two
    "\uff11\uff10\uff12\uff14",  # fullwidth 1024
    "\u0662",               # an Arabic-Indic digit two
    "\u00bd",               # one half
    "\u00b2",               # a superscript two
    "1\u00a0024",           # a no-break space as thousands separator
    "\ufeff2",              # a BOM in the middle of the file
    "2\x1b[0m",             # a terminal escape
    "\x7f2",                # DEL
    "9" * 200_000,          # a very long token (a CSV cell beyond the csv module's limit)
]
# Numbers that a field's own rule refuses.
RULE_BREAKERS = {
    "size": ["0", "-0", "-1", "-2", "1.5", "0.5", "2.5", "1e-3", "-4294967296",
             str(MAX_BYTES + 1), "4294967295.5", "1e300", "1e10", str(2**63), str(2**63 - 1),
             str(2**64), str(2**64 + 1), "1.0000000000000001", "2.0000000000000004"],
    "time": ["0", "-0", "0.0", "0e0", "-1e-5", "-0.00002", "1e-400", "1e-320", "5e-324",
             "1e303", "1e308"],
    "throughput": ["0", "-0", "0.0", "-1", "-0.762939", "1e-400"],
    "latency": ["0", "-0", "0.0", "-20", "-1e-9", "1e-400"],
    "mbps": ["0", "-0", "0.0", "-0.8", "-1e-9", "1e-400"],
}


def _ident(text):
    text = text if len(text) < 24 else f"{text[:12]}..{len(text)}"
    return text.encode("unicode_escape").decode("ascii") or "blank"


def _csv_text(rows):
    """CSV lines of ``rows``, a cell quoted when it holds a comma, a quote or a line end."""
    def cell(text):
        if any(c in text for c in ',"\r\n'):
            return '"' + text.replace('"', '""') + '"'
        return text
    return "".join(",".join(cell(c) for c in row) + "\n" for row in rows)


def np_with(field, value):
    """The valid np.out with one field of its line 2 replaced (None: the field left out)."""
    fields = NP_LINES[1].split()
    if value is None:
        del fields[field]
    else:
        fields[field] = value
    lines = list(NP_LINES)
    lines[1] = " ".join(fields)
    return "\n".join(lines) + "\n"


def csv_with(column, value):
    """The valid CSV with one cell of line 3 (data line 2) replaced, quoted where needed."""
    rows = [line.split(",") for line in CSV_LINES]
    rows[2][column] = value
    return _csv_text(rows)


def text_cases():
    """(id, file name, content, line at fault, a text the message holds or None)."""
    cases = []
    # 1. Each field of each format, by every non-number and the field's own rule.
    for i, field in enumerate(NP_FIELDS):
        for value in NOT_NUMBERS:
            if value.split() != [value]:      # a token np.out splits is a column-count case
                continue
            cases.append((f"np-{field}-{_ident(value)}", "np.out", np_with(i, value), 2, None))
        for value in RULE_BREAKERS[field]:
            cases.append((f"np-{field}-rule-{_ident(value)}", "np.out", np_with(i, value), 2,
                          None))
        cases.append((f"np-{field}-missing", "np.out", np_with(i, None), 2, "column"))
    for i, (column, rule) in enumerate(zip(CSV_FIELDS, ["size", "latency", "mbps"])):
        for value in NOT_NUMBERS + ["1 5", "2\n3", '2"0', "2\r3"]:
            cases.append((f"csv-{column}-{_ident(value)}", "m.csv", csv_with(i, value), 3,
                          None))
        for value in RULE_BREAKERS[rule]:
            cases.append((f"csv-{column}-rule-{_ident(value)}", "m.csv", csv_with(i, value), 3,
                          None))
    cases.append(("csv-msg_bytes-blank", "m.csv", csv_with(0, ""), 3, None))
    cases.append(("csv-msg_bytes-spaces", "m.csv", csv_with(0, " \t "), 3, None))
    cases.append(("csv-measures-blank", "m.csv",
                  _csv_text([c.split(",") for c in CSV_LINES[:2]] + [["2", "", ""]]), 3,
                  "no latency_us or mbps"))
    cases.append(("csv-measures-only-spaces", "m.csv",
                  _csv_text([c.split(",") for c in CSV_LINES[:2]] + [["2", " ", "\t"]]), 3,
                  "no latency_us or mbps"))

    # 2. The structure of np.out.
    np_text = "\n".join(NP_LINES) + "\n"
    lines = list(NP_LINES)
    structure = [
        ("np-one-field", "\n".join(lines[:1] + ["       2"] + lines[2:]), 2),
        ("np-comma-separated", "\n".join(lines[:1] + ["2,0.762939,0.00002"] + lines[2:]), 2),
        ("np-semicolon-separated", "\n".join(lines[:1] + ["2;0.762939;0.00002"] + lines[2:]),
         2),
        ("np-header-not-commented", "bytes Mbps seconds\n" + np_text, 1),
        ("np-sizes-decreasing", "\n".join([lines[0], lines[1], lines[3], lines[2]]), 4),
        ("np-sizes-reversed", "\n".join(reversed(lines)), 2),
        ("np-trailing-garbage-line", np_text + "end of run\n", 5),
        ("np-garbage-after-blank-lines", np_text + "\n\n\nx y z\n", 8),
        ("np-line-after-comments", "# NetPIPE\n\n# more\n" + np_text.replace(
            "0.762939", "0.76x", 1), 5),
        ("np-csv-content", "\n".join(CSV_LINES) + "\n", 1),
        ("np-empty", "", 1),
        ("np-blank-lines-only", "\n\n   \n\t\n", 1),
        ("np-comments-only", "# NetPIPE 3.7.1\n# no data\n", 1),
        ("np-comments-and-blanks", "\n# a\n\n  # b\n\n", 1),
        ("np-a-lone-hash", "#\n", 1),
        # line numbers count line ends, not the other characters Python splits lines at
        ("np-line-number-after-u2028", "# a\u2028b\n" + np_text.replace("0.762939", "x", 1),
         3),
        ("np-line-number-after-formfeed", "# a\x0cb\n" + np_text.replace("0.762939", "x", 1),
         3),
        ("np-line-number-after-nel", "# a\x85b\n" + np_text.replace("0.762939", "x", 1), 3),
        ("np-line-number-after-vt", "# a\x0bb\x1cc\x1dd\x1ee\n"
         + np_text.replace("0.762939", "x", 1), 3),
        ("np-line-number-with-crlf", np_text.replace("\n", "\r\n").replace("0.762939", "x", 1),
         2),
        ("np-line-number-with-cr", np_text.replace("\n", "\r").replace("0.762939", "x", 1), 2),
        ("np-long-bad-line", "\n".join(lines[:1] + ["x" * 1_000_000] + lines[2:]), 2),
    ]
    cases += [(i, "np.out", t, n, None) for i, t, n in structure]

    # 3. The structure of the CSV.
    rows = [line.split(",") for line in CSV_LINES]
    body = "\n".join(CSV_LINES[1:]) + "\n"
    structure = [
        ("csv-extra-field", _csv_text(rows[:2] + [["2", "20", "0.8", "9"]] + rows[3:]), 3),
        ("csv-trailing-comma", _csv_text(rows[:2] + [["2", "20", "0.8", ""]] + rows[3:]), 3),
        ("csv-missing-field", _csv_text(rows[:2] + [["2", "20"]] + rows[3:]), 3),
        ("csv-one-field", _csv_text(rows[:2] + [["2"]] + rows[3:]), 3),
        ("csv-header-no-msg_bytes", "size,latency_us,mbps\n" + body, 1),
        ("csv-header-no-measure", "msg_bytes,note\n1,a\n", 1),
        ("csv-header-capitalised", "Msg_Bytes,Latency_us,Mbps\n" + body, 1),
        ("csv-header-units", "msg_bytes [B],latency_us [us],mbps\n" + body, 1),
        ("csv-header-semicolons", "msg_bytes;latency_us;mbps\n1;20;0.4\n", 1),
        ("csv-header-tabs", "msg_bytes\tlatency_us\tmbps\n1\t20\t0.4\n", 1),
        ("csv-header-numbers", body, 1),
        ("csv-header-comment-first", "# measured 2024\n" + "\n".join(CSV_LINES) + "\n", 1),
        ("csv-header-long", ",".join(f"c{i}" for i in range(50_000)) + "\n1\n", 1),
        ("csv-header-only", CSV_LINES[0] + "\n", 1),
        ("csv-header-only-crlf", CSV_LINES[0] + "\r\n\r\n", 1),
        ("csv-duplicate-msg_bytes", "msg_bytes,latency_us,msg_bytes\n1,20,1\n2,20,999\n", 1),
        ("csv-duplicate-latency_us", "msg_bytes,latency_us,latency_us\n1,20,20\n2,20,99\n", 1),
        ("csv-duplicate-mbps", "msg_bytes,mbps,mbps\n1,0.4,0.4\n2,0.8,9\n", 1),
        ("csv-duplicate-spaced", "msg_bytes,mbps, mbps\n1,0.4,0.4\n", 1),
        ("csv-sizes-decreasing", _csv_text([rows[0], rows[1], rows[2], rows[4], rows[3]]), 5),
        ("csv-header-repeated", "\n".join(CSV_LINES + CSV_LINES[:1]) + "\n", 6),
        ("csv-unterminated-quote", _csv_text(rows[:2]) + '2,"20,0.8\n8,16,4\n', 3),
        ("csv-quote-inside-cell", _csv_text(rows[:2]) + '2,2"0",0.8\n', 3),
        ("csv-text-after-quote", _csv_text(rows[:2]) + '2,"20"x,0.8\n', 3),
        ("csv-empty", "", 1),
        ("csv-blank-lines-only", "\n\n \n", 1),
        ("csv-commas-only", ",,\n,,\n", 1),
        ("csv-line-number-after-blank-lines", "\n\n" + "\n".join(CSV_LINES[:2]) + "\n\n2,x,1\n",
         6),
        ("csv-line-number-after-quoted-newline",
         'msg_bytes,latency_us,note\n1,20,"a\nb"\n2,x,c\n', 4),
        ("csv-line-number-with-crlf", "\r\n".join(CSV_LINES[:2] + ["2,x,1"]) + "\r\n", 3),
        ("csv-line-number-with-cr", "\r".join(CSV_LINES[:2] + ["2,x,1"]) + "\r", 3),
        ("csv-long-line", _csv_text(rows[:2]) + "2,20," + "1" * 300_000 + "\n", 3),
    ]
    cases += [(i, "m.csv", t, n, None) for i, t, n in structure]
    return [(i, name, text.encode("utf-8"), line, what) for i, name, text, line, what in cases]


def byte_cases():
    """Files that are not UTF-8 text: (id, file name, bytes, line at fault, text or None)."""
    np_text = "\n".join(NP_LINES) + "\n"
    csv_text = "\n".join(CSV_LINES) + "\n"
    cases = []
    for name, text in (("np.out", np_text), ("m.csv", csv_text)):
        kind = "np" if name == "np.out" else "csv"
        data = text.encode()
        second = data.index(b"\n") + 1
        third = data.index(b"\n", second) + 1
        cases += [
            (f"{kind}-nul-line-1", name, b"\0" + data, 1, "NUL"),
            (f"{kind}-nul-line-3", name, data[:third] + b"\0" + data[third:], 3, "NUL"),
            (f"{kind}-nul-at-end", name, data + b"\0", 6 if kind == "csv" else 5, "NUL"),
            (f"{kind}-latin1-line-2", name, data[:second] + "\u00b5s ".encode("latin-1")
             + data[second:], 2, "UTF-8"),
            (f"{kind}-latin1-last-byte", name, data + b"\xe9", 6 if kind == "csv" else 5,
             "UTF-8"),
            (f"{kind}-cp1252-quotes", name, b"\x93" + data, 1, "UTF-8"),
            (f"{kind}-surrogate-bytes", name, data[:second] + b"\xed\xa0\x80" + data[second:],
             2, "UTF-8"),
            (f"{kind}-overlong-utf8", name, data[:second] + b"\xc0\xaf" + data[second:], 2,
             "UTF-8"),
            (f"{kind}-utf16-bom", name, text.encode("utf-16"), 1, None),
            (f"{kind}-utf16-be-bom", name, b"\xfe\xff" + text.encode("utf-16-be"), 1, None),
            (f"{kind}-utf16-le-no-bom", name, text.encode("utf-16-le"), 1, "NUL"),
            (f"{kind}-utf16-be-no-bom", name, text.encode("utf-16-be"), 1, "NUL"),
            (f"{kind}-utf32-bom", name, text.encode("utf-32"), 1, None),
            (f"{kind}-gzip", name, b"\x1f\x8b\x08\x00" + bytes(range(256)), 1, None),
        ]
    cases.append(("np-comment-latin1", "np.out", ("# mesur\u00e9\n".encode("latin-1")
                                                  + np_text.encode()), 1, "UTF-8"))
    return cases


# Paths that are not regular files: (id, file name, kind, line).
PATH_CASES = [(f"{kind}-{name}", name, kind, 1)
              for kind in ("folder", "fifo", "missing", "broken-symlink", "symlink-to-folder",
                           "symlink-to-fifo", "below-a-file")
              for name in ("np.out", "m.csv")]
PATH_CASES += [("device", os.devnull, "device", 1), ("name-too-long", "n" * 300 + ".out",
                                                     "too-long", 1),
               ("path-too-long", "/".join(["d" * 200] * 30) + "/np.out", "too-long", 1)]

CASES = [(i, name, data, line, what) for i, name, data, line, what in text_cases() + byte_cases()]


def make(tmp, name, data):
    """Write a case under ``tmp``; return its path. ``data`` is bytes or a kind of path."""
    if isinstance(data, bytes):
        path = tmp / name
        path.write_bytes(data)
        return path
    path = tmp / name
    if data == "folder":
        path.mkdir()
    elif data == "fifo":
        os.mkfifo(path)
    elif data == "broken-symlink":
        path.symlink_to(tmp / "nowhere")
    elif data == "symlink-to-folder":
        (tmp / "sub").mkdir()
        path.symlink_to(tmp / "sub")
    elif data == "symlink-to-fifo":
        os.mkfifo(tmp / "pipe")
        path.symlink_to(tmp / "pipe")
    elif data == "below-a-file":
        (tmp / "a-file").write_text("1 0.3 0.00002\n")
        path = tmp / "a-file" / name
    elif data == "device":
        path = Path(name)
    elif data == "too-long":
        path = tmp / name
    return path


def check_message(message, path, line, what):
    """'' when ``message`` keeps the contract for a fault of ``path`` at ``line``."""
    prefix = f"{path}:{line}: "
    if len(message.splitlines()) != 1 or "\n" in message or "\r" in message:
        return f"not one line: {message[:300]!r}"
    if not message.startswith(prefix):
        return f"does not start with {prefix[-60:]!r}: {message[:300]!r}"
    if len(message) > len(str(path)) + 300:
        return f"{len(message)} characters: {message[:200]!r}..."
    if what and what not in message:
        return f"does not say {what!r}: {message[:300]!r}"
    return ""


def read_with_timeout(path, timeout=10.0):
    """read_curve(path) in a thread; a reader still blocked (a FIFO opened) is freed."""
    result = {}

    def target():
        try:
            result["value"] = read_curve(path)
        except BaseException as exc:  # noqa: BLE001 - reported by the caller
            result["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)   # the blocked open returns: EOF
        os.close(fd)
        thread.join(timeout)
        return None, "still reading after 10 s (it opened a FIFO)"
    return result.get("value"), result.get("error")


def check_refused(tmp_path, name, data, line, what):
    path = make(tmp_path, name, data)
    curve, error = read_with_timeout(path)
    if isinstance(error, str):
        return error
    if error is None:
        return f"accepted: {len(curve)} rows"
    if not isinstance(error, MeasurementError):
        return f"raised {type(error).__name__}, not MeasurementError: {str(error)[:200]!r}"
    return check_message(str(error), path, line, what)


@pytest.mark.parametrize("name,data,line,what", [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_bad_content_is_refused_naming_file_and_line(tmp_path, name, data, line, what):
    failure = check_refused(tmp_path, name, data, line, what)
    assert not failure, failure


@pytest.mark.parametrize("name,kind,line", [c[1:] for c in PATH_CASES],
                         ids=[c[0] for c in PATH_CASES])
def test_a_path_that_is_not_a_regular_file_is_refused_without_hanging(tmp_path, name, kind,
                                                                      line):
    failure = check_refused(tmp_path, name, kind, line, None)
    assert not failure, failure


def test_the_battery_has_over_250_cases_and_covers_every_field():
    assert len(CASES) + len(PATH_CASES) >= 250, len(CASES) + len(PATH_CASES)
    ids = " ".join(c[0] for c in CASES)
    for field in NP_FIELDS:
        assert f"np-{field}-" in ids
    for field in CSV_FIELDS:
        assert f"csv-{field}-" in ids


# ---------------------------------------------------------------------------------------------
# Valid variants: read, with the values they hold.

NP_TEXT = "\n".join(NP_LINES) + "\n"
CSV_TEXT = "\n".join(CSV_LINES) + "\n"
VALID = [
    ("np-plain", "np.out", NP_TEXT, SIZES, LATENCIES),
    ("np-crlf", "np.out", NP_TEXT.replace("\n", "\r\n"), SIZES, LATENCIES),
    ("np-cr", "np.out", NP_TEXT.replace("\n", "\r"), SIZES, LATENCIES),
    ("np-bom", "np.out", "\ufeff" + NP_TEXT, SIZES, LATENCIES),
    ("np-no-final-newline", "np.out", NP_TEXT.rstrip("\n"), SIZES, LATENCIES),
    ("np-tabs", "np.out", NP_TEXT.replace("   ", "\t"), SIZES, LATENCIES),
    ("np-comments-and-blank-lines", "np.out",
     "# NetPIPE 3.7.1\n\n" + NP_TEXT.replace("\n", "\n\n   # x\n", 2), SIZES, LATENCIES),
    ("np-cpu-columns", "np.out", NP_TEXT.replace("\n", " 0.5 0.25\n"), SIZES, LATENCIES),
    ("np-trailing-comment", "np.out", NP_TEXT.replace("\n", "  # run 1\n"), SIZES, LATENCIES),
    ("np-long-comment", "np.out", "# " + "x" * 500_000 + "\n" + NP_TEXT, SIZES, LATENCIES),
    ("np-repeated-size", "np.out", NP_TEXT + "    1024 1 0.00006\n", SIZES,
     [20.0, 20.0, 16.0, 50.0]),
    ("np-largest-size", "np.out", NP_TEXT + f"{MAX_BYTES} 1 1.0\n", SIZES + [MAX_BYTES],
     LATENCIES + [1e6]),
    ("np-exponent-time", "np.out", NP_TEXT.replace("0.00004000", "4e-05"), SIZES, LATENCIES),
    ("csv-plain", "m.csv", CSV_TEXT, SIZES, LATENCIES),
    ("csv-crlf", "m.csv", CSV_TEXT.replace("\n", "\r\n"), SIZES, LATENCIES),
    ("csv-cr", "m.csv", CSV_TEXT.replace("\n", "\r"), SIZES, LATENCIES),
    ("csv-bom", "m.csv", "\ufeff" + CSV_TEXT, SIZES, LATENCIES),
    ("csv-upper-suffix", "M.CSV", CSV_TEXT, SIZES, LATENCIES),
    ("csv-no-final-newline", "m.csv", CSV_TEXT.rstrip("\n"), SIZES, LATENCIES),
    ("csv-columns-reordered", "m.csv",
     "mbps,msg_bytes,latency_us\n0.4,1,20\n0.8,2,20\n4,8,16\n204.8,1024,40\n", SIZES,
     LATENCIES),
    ("csv-unknown-columns", "m.csv",
     "host,msg_bytes,latency_us,note\na,1,20,x\na,2,20,\na,8,16,y\na,1024,40,z\n", SIZES,
     LATENCIES),
    ("csv-latency-only", "m.csv", "msg_bytes,latency_us\n1,20\n2,20\n8,16\n1024,40\n", SIZES,
     LATENCIES),
    ("csv-mbps-only", "m.csv", "msg_bytes,mbps\n1,0.4\n2,0.8\n8,4\n1024,204.8\n", SIZES,
     [None] * 4),
    ("csv-blank-cells", "m.csv", "msg_bytes,latency_us,mbps\n1,20,\n2,,0.8\n8,16,4\n1024,40,\n",
     SIZES, [20.0, None, 16.0, 40.0]),
    ("csv-blank-lines", "m.csv", "\n" + CSV_TEXT.replace("\n", "\n\n", 2) + "\n\n", SIZES,
     LATENCIES),
    ("csv-quoted", "m.csv", '"msg_bytes","latency_us","mbps"\n"1","20","0.4"\n"2","20","0.8"\n'
     '"8","16","4"\n"1024","40","204.8"\n', SIZES, LATENCIES),
    ("csv-spaces", "m.csv", " msg_bytes , latency_us ,mbps\n 1 , 20 ,0.4\n2,20 ,0.8\n8, 16,4\n"
     "1024,40,204.8\n", SIZES, LATENCIES),
    ("csv-float-sizes", "m.csv", "msg_bytes,latency_us\n1.0,20\n2.0,20\n8.0,16\n1024.0,40\n",
     SIZES, LATENCIES),
    ("csv-largest-size", "m.csv", CSV_TEXT + f"{MAX_BYTES},1e6,\n", SIZES + [MAX_BYTES],
     LATENCIES + [1e6]),
]


@pytest.mark.parametrize("name,text,sizes,latencies", [v[1:] for v in VALID],
                         ids=[v[0] for v in VALID])
def test_valid_variants_are_read(tmp_path, name, text, sizes, latencies):
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    curve = read_curve(path)
    assert curve["msg_bytes"].tolist() == sizes
    for got, want in zip(curve["latency_us"].tolist(), latencies):
        if want is None:
            assert got != got   # NaN: not measured
        else:
            assert got == pytest.approx(want)


# ---------------------------------------------------------------------------------------------
# The command line, on a sample of the cases.

def cli(*paths):
    return programs.run_python("-m", "analysis.measurements", *paths, status=None, cwd=REPO,
                               timeout=60)


def cli_case(tmp, case):
    """'' when the command line keeps the contract for ``case``."""
    ident, name, data, line, _ = case
    tmp = tmp / ident
    tmp.mkdir()
    path = make(tmp, name, data)
    try:
        proc = cli(path)
    except subprocess.TimeoutExpired:
        return f"{ident}: still running after 60 s"
    lines = proc.stderr.splitlines()
    if proc.returncode != 2:
        return f"{ident}: exit status {proc.returncode}, not 2: {proc.stderr[-300:]!r}"
    if proc.stdout:
        return f"{ident}: wrote to stdout: {proc.stdout[:200]!r}"
    if len(lines) != 1 or "Traceback" in proc.stderr:
        return f"{ident}: {len(lines)} lines on stderr, not 1: {proc.stderr[-300:]!r}"
    if not lines[0].startswith(f"{PROG}: {path}:{line}: "):
        return f"{ident}: the line does not name {path}:{line}: {lines[0][:300]!r}"
    return ""


def cli_sample():
    """About 20 cases: a spread over the content cases and the kinds of path."""
    chosen = {"np-size-abc", "np-time-rule-0", "csv-msg_bytes-nan", "csv-latency_us-rule--20",
              "csv-mbps-2\\n3", "csv-long-line", "np-long-bad-line", "csv-header-only",
              "csv-duplicate-latency_us", "np-empty", "np-comments-only", "np-nul-line-3",
              "csv-utf16-bom", "np-latin1-line-2", "csv-unterminated-quote",
              "np-sizes-decreasing", "np-line-number-after-u2028"}
    sample = [c for c in CASES if c[0] in chosen]
    assert len(sample) == len(chosen), chosen - {c[0] for c in sample}
    return sample + [(*c, None) for c in PATH_CASES
                     if c[0] in ("fifo-np.out", "folder-m.csv", "name-too-long")]


def test_the_command_line_refuses_in_one_line(tmp_path):
    sample = cli_sample()
    with ThreadPoolExecutor(max_workers=4) as pool:
        failures = [f for f in pool.map(lambda c: cli_case(tmp_path, c), sample) if f]
    assert not failures, f"{len(failures)} of {len(sample)} cases broke the contract:\n" + \
        "\n".join(failures)


def test_the_command_line_reports_the_good_files_before_the_bad_one(tmp_path):
    good, bad = tmp_path / "np.out", tmp_path / "bad.csv"
    good.write_text(NP_TEXT)
    bad.write_text("msg_bytes,latency_us,latency_us\n1,20,30\n")
    proc = cli(good, bad, good)
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout.splitlines() == [f"{good}: 4 sizes, 1-1024 B, latency 20.00 us, "
                                        "peak 204.8 Mbit/s"]
    assert proc.stderr.splitlines() == [proc.stderr.strip()]
    assert proc.stderr.startswith(f"{PROG}: {bad}:1: ")
