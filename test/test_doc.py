# SPDX-License-Identifier: GPL-2.0-only
"""The module documentation renders without a warning and follows ns-3's module-doc outline."""

import io
import re
from pathlib import Path

import docutils.core

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "contrib" / "clusternet" / "doc" / "clusternet.rst"


def render_messages(text):
    """Every message docutils reports while rendering ``text`` (info level and above)."""
    stream = io.StringIO()
    docutils.core.publish_string(text, writer="null",
                                 settings_overrides={"warning_stream": stream,
                                                     "report_level": 1, "halt_level": 5})
    return stream.getvalue()


def test_doc_renders_without_messages():
    assert render_messages(DOC.read_text()) == ""


def test_renderer_reports_a_broken_doc():
    assert "Undefined substitution" in render_messages("Median |error| 5 %.\n")
    assert "Unknown directive" in render_messages(".. highlight:: cpp\n")


def test_doc_outline():
    text = DOC.read_text()
    titles = re.findall(r"^(\S[^\n]*)\n([*=])\2{3,}$", text, re.M)
    sections = [t for t, mark in titles if mark == "*"]
    subsections = [t for t, mark in titles if mark == "="]
    assert sections == ["Model Description", "Usage", "Validation", "References"]
    for name in ("Design", "Scope and Limitations", "Helpers", "Attributes", "Traces",
                 "Examples"):
        assert name in subsections, name
    assert any(s.startswith("Walkthrough") for s in subsections)
    assert 'seed 000 … 004" are' in text  # the glossary line


def test_the_leave_one_paper_out_table_is_the_commands():
    """The doc's leave-one-paper-out table is what ``./ns3 calibrate --hold-out-table`` renders
    from the runs' table, kept beside the doc (figures/hold-out.csv, with hold-out.png)."""
    import pandas as pd

    from clusternet.jointfit import hold_out_rst

    stored = DOC.parent / "figures" / "hold-out.csv"
    table = pd.read_csv(stored, dtype={"paper": str, "kept": str}, keep_default_na=False)
    assert sorted(table.paper) == ["000", "001", "002", "003", "004"]
    assert hold_out_rst(table) in DOC.read_text()
    assert (DOC.parent / "figures" / "hold-out.png").stat().st_size > 0
