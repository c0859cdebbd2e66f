# SPDX-License-Identifier: GPL-2.0-only
"""Every run-time assertion on attribute values is known to the pre-run check (issue 44, item 2).

A model that asserts something about its attributes while it runs (NS_ASSERT, NS_ABORT,
NS_FATAL) turns a bad value into an abort in the middle of a sweep, or, for an NS_ASSERT that
the optimised ns-3 wheel compiles out, into a run with nonsense. Each such statement must be
covered before the first event: by a check function the experiments call (RunChecks, a model's
static Check*), or be listed here with why no value can reach it. The scan reads the model
sources: a statement counts when its condition names a member that an attribute accessor of the
same file binds. A new assertion on attributes fails this test until it is listed."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODEL = ROOT / "contrib" / "clusternet" / "model"
CALLERS = [ROOT / "harness", ROOT / "scenarios", ROOT / "contrib" / "clusternet" / "helper"]

MACRO = re.compile(r"\bNS_(ABORT_MSG_UNLESS|ABORT_MSG_IF|ABORT_IF|ABORT_UNLESS|ASSERT_MSG|"
                   r"ASSERT|FATAL_ERROR)\s*\(")
# Attribute accessors only: a trace source (MakeTraceSourceAccessor) is the model's own state,
# which no value a run is given sets.
ACCESSOR = re.compile(r"Make(?!TraceSource)\w+Accessor\(\s*&\w+::(m_\w+)")

# (file under model/, attribute members its condition reads) -> (how it is covered, a text that
# must appear in the harness, scenarios or helpers: the check that covers it), or
# (why no value reaches it, None).
KNOWN = {
    ("fm/fm-smt.cc", ("m_maxProcesses",)):
        ("no more processes attach than MaxProcesses", "RunChecks::FmSmtLayout"),
    ("gm/gm-ethernet-net-device.cc", ("m_sendBuffers",)):
        ("IP over GM's buffers within GM's tokens", "RunChecks::GmEthernetTokens"),
    ("gm/gm-ethernet-net-device.cc", ("m_receiveBuffers",)):
        ("IP over GM's buffers within GM's tokens", "RunChecks::GmEthernetTokens"),
    ("mpi/mpi-via-transport.cc", ("m_maxTransfer",)):
        ("NetPIPE's block and each traced message within the library's largest message",
         "GetMaxMessage()"),
    ("myrinet/myrinet-switch.cc", ("m_maxPorts",)):
        ("myrinet-incast checks switch.Ports against its hosts; no other program takes a "
         "switch target (GM and FM runs have at most 16 hosts on the 16-port default)",
         'GetValue<UintegerValue>("switch", "Ports")'),
    ("apps/gm-benchmark.cc", ("m_bufferSize",)):
        ("the program sizes BufferSize to its largest message", 'SetAttribute("BufferSize"'),
    ("gm/gm-ethernet-net-device.cc", ("m_driver",)):
        ("a pointer the helper sets; text cannot set a pointer (CheckAttribute refuses it)", None),
    ("apps/kernel-udp-benchmark.cc", ("m_port",)):
        ("the result of Bind, not a relation between values", None),
    ("apps/kernel-udp-benchmark.cc", ("m_window",)):
        ("raw-ethernet-vs-myrinet keeps Window at 256 frames and --max-msg at most 65,000 bytes "
         "(45 frames at MTU 1500); no program takes a target for the benchmark", None),
    ("fm/fm-context.cc", ("m_creditsPerPeer",)):
        ("an invariant of the run's own credit accounting", None),
    ("host/host-bridge.cc", ("m_queueLines",)):
        ("an invariant of the bridge's own queue", None),
}


def _arguments(text, open_paren):
    depth = 0
    for i in range(open_paren, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return text[open_paren + 1:i]
    raise AssertionError("unbalanced macro call")


def _condition(arguments):
    depth = 0
    for i, c in enumerate(arguments):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            return arguments[:i]
    return arguments


def assertions_on_attributes(model=MODEL):
    """{(file, members): [line, ...]} for each NS_ASSERT/ABORT/FATAL reading attribute members."""
    found = {}
    for source in sorted(model.rglob("*.cc")):
        text = source.read_text()
        members = set(ACCESSOR.findall(text))
        for m in MACRO.finditer(text):
            if m.group(1) == "FATAL_ERROR":
                condition = _arguments(text, m.end() - 1)  # unconditional: the message names it
            else:
                condition = _condition(_arguments(text, m.end() - 1))
            used = tuple(sorted(x for x in members if re.search(rf"\b{x}\b", condition)))
            if used:
                key = (source.relative_to(model).as_posix(), used)
                found.setdefault(key, []).append(text.count("\n", 0, m.start()) + 1)
    return found


def test_every_assertion_on_attributes_is_covered_before_the_first_event():
    found = assertions_on_attributes()
    unknown = [f"model/{f}:{lines[0]} reads {', '.join(members)}"
               for (f, members), lines in found.items() if (f, members) not in KNOWN]
    assert not unknown, (
        "assertions on attribute values the pre-run check does not know; add the relation to "
        "RunChecks (or a model's static Check*) and list it in KNOWN:\n" + "\n".join(unknown))


def test_the_list_has_no_stale_entries_and_each_named_check_is_called():
    found = assertions_on_attributes()
    stale = [key for key in KNOWN if key not in found]
    assert not stale, f"KNOWN lists assertions the model no longer has: {stale}"
    callers = "\n".join(p.read_text() for d in CALLERS for p in d.rglob("*.cc"))
    for key, (why, check) in KNOWN.items():
        assert why
        if check is not None:
            assert check in callers, f"{key}: '{check}' is not called anywhere"


def test_the_scan_finds_an_assertion_on_an_attribute(tmp_path):
    """The scan itself: an assertion reading an attribute member is found, one reading a plain
    member, a traced state or a local is not."""
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "thing.cc").write_text(
        "tid.AddAttribute(\"Size\", \"h\", UintegerValue(1),\n"
        "    MakeUintegerAccessor(&Thing::m_size), MakeUintegerChecker<uint32_t>());\n"
        "void Thing::F(uint32_t n) {\n"
        "    NS_ASSERT_MSG(n <= m_size, \"too big\");\n"
        "    NS_ABORT_MSG_IF(m_count > n, \"count \" << m_size);\n"
        "    NS_ABORT_MSG_IF(m_state != IDLE, \"busy\");\n"
        "}\n"
        "tid.AddTraceSource(\"State\", \"h\", MakeTraceSourceAccessor(&Thing::m_state), \"t\");\n")
    assert assertions_on_attributes(tmp_path) == {("x/thing.cc", ("m_size",)): [4]}
