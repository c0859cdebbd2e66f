# SPDX-License-Identifier: GPL-2.0-only
"""Every trace source of the module names a signature its class's header declares.

ns-3 takes a trace source's callback signature as a string (the last argument of
``AddTraceSource``) and never checks it; its documentation and users' ``Config::Connect`` sinks
rely on it. As in ns-3's own models (``PointToPointNetDevice``'s ``TracedCallback`` typedefs), the
name ``ns3::clusternet::Class::Name`` must be a ``typedef void (*Name)(...)`` in ``Class``'s
header whose parameters are as many as the traced member's: the ``TracedCallback``'s template
arguments, or the old and new value of a ``TracedValue``.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODEL = ROOT / "contrib" / "clusternet" / "model"

SOURCE = re.compile(r'AddTraceSource\(\s*"(\w+)".*?MakeTraceSourceAccessor\(\s*&(\w+)::(\w+)\s*\)'
                    r'\s*,\s*"([\w:]+)"', re.S)
SIGNATURE = r"typedef\s+void\s*\(\s*\*\s*{name}\s*\)\s*\(([^;]*?)\)\s*;"
MEMBER = r"(TracedCallback|TracedValue)\s*<([^;]*?)>\s*{member}\s*[;{{]"


def _arity(params):
    """Top-level comma-separated items of a parameter or template argument list."""
    depth, items, current = 0, 0, ""
    for ch in params:
        depth += ch in "<(" and 1 or 0
        depth -= ch in ">)" and 1 or 0
        if ch == "," and depth == 0:
            items += 1
            current = ""
        else:
            current += ch
    return items + (1 if current.strip() and current.strip() != "void" else 0)


def problems(model):
    """Every trace source whose signature is not declared as the rule says, as strings."""
    found = []
    for cc in sorted(model.rglob("*.cc")):
        text = cc.read_text()
        header = cc.with_suffix(".h")
        declared = header.read_text() if header.exists() else ""
        for m in SOURCE.finditer(text):
            source, cls, member, signature = m.groups()
            where = f"{cc.relative_to(model)}:{text.count(chr(10), 0, m.start()) + 1}"
            parts = signature.split("::")
            if parts[:2] != ["ns3", "clusternet"] or len(parts) != 4 or parts[2] != cls:
                if parts[:2] == ["ns3", "clusternet"]:
                    found.append(f"{where}: trace source {source} names {signature}, "
                                 f"not a signature of {cls}")
                continue  # an ns-3 signature (ns3::Packet::TracedCallback, ...)
            decl = re.search(SIGNATURE.format(name=re.escape(parts[3])), declared)
            if decl is None:
                found.append(f"{where}: trace source {source} names {signature}, which "
                             f"{header.name} does not declare")
                continue
            traced = re.search(MEMBER.format(member=re.escape(member)), declared, re.S)
            if traced is None:
                found.append(f"{where}: {cls}::{member} is not a TracedCallback or TracedValue "
                             f"member in {header.name}")
                continue
            want = _arity(traced.group(2)) if traced.group(1) == "TracedCallback" else 2
            if _arity(decl.group(1)) != want:
                found.append(f"{where}: {signature} takes {_arity(decl.group(1))} parameters, "
                             f"{cls}::{member} passes {want}")
    return found


def test_every_trace_source_names_a_declared_signature():
    assert problems(MODEL) == []


def test_the_module_has_trace_sources_of_its_own_to_check():
    names = [m.group(4) for cc in MODEL.rglob("*.cc") for m in SOURCE.finditer(cc.read_text())]
    assert sum(n.startswith("ns3::clusternet::") for n in names) >= 15


@pytest.mark.parametrize("header,expected", [
    ("", "does not declare"),
    ("typedef void (*ThingCallback)(uint32_t bytes);\nTracedCallback<uint32_t, Time> m_thing;",
     "takes 1 parameters, Foo::m_thing passes 2"),
    ("typedef void (*ThingCallback)(uint32_t a, Time b);\nuint32_t m_thing;",
     "is not a TracedCallback"),
])
def test_checker_finds_a_bad_signature(tmp_path, header, expected):
    (tmp_path / "foo.cc").write_text(
        'tid.AddTraceSource("Thing", "help", MakeTraceSourceAccessor(&Foo::m_thing), '
        '"ns3::clusternet::Foo::ThingCallback");\n')
    (tmp_path / "foo.h").write_text(header)
    found = problems(tmp_path)
    assert len(found) == 1 and expected in found[0], found


def test_checker_accepts_a_declared_signature(tmp_path):
    (tmp_path / "foo.cc").write_text(
        'tid.AddTraceSource("Thing", "help", MakeTraceSourceAccessor(&Foo::m_thing), '
        '"ns3::clusternet::Foo::ThingCallback")\n'
        '.AddTraceSource("State", "help", MakeTraceSourceAccessor(&Foo::m_state), '
        '"ns3::clusternet::Foo::StateCallback");\n')
    (tmp_path / "foo.h").write_text(
        "typedef void (*ThingCallback)(Ptr<const Packet> p, std::pair<int, int> x);\n"
        "typedef void (*StateCallback)(State oldValue, State newValue);\n"
        "TracedCallback<Ptr<const Packet>, std::pair<int, int>> m_thing;\n"
        "TracedValue<State> m_state;\n")
    assert problems(tmp_path) == []
