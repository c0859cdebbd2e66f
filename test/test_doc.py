# SPDX-License-Identifier: GPL-2.0-only
"""The module documentation renders without a warning and follows ns-3's module-doc outline:
the manual (clusternet.rst) describes the module in under 900 lines and points to the report;
the user's guide and the study's notes beside it render too."""

import io
import re
from pathlib import Path

import docutils.core
import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "contrib" / "clusternet" / "doc" / "clusternet.rst"
GUIDE = DOC.parent / "clusternet-guide.rst"
STUDY = DOC.parent / "clusternet-study.rst"


def render_messages(text):
    """Every message docutils reports while rendering ``text`` (info level and above)."""
    stream = io.StringIO()
    docutils.core.publish_string(text, writer="null",
                                 settings_overrides={"warning_stream": stream,
                                                     "report_level": 1, "halt_level": 5})
    return stream.getvalue()


@pytest.mark.parametrize("doc", [DOC, GUIDE, STUDY], ids=lambda p: p.name)
def test_doc_renders_without_messages(doc):
    assert render_messages(doc.read_text()) == ""


def test_the_manual_is_short_and_points_to_the_report():
    text = DOC.read_text()
    assert len(text.splitlines()) < 900
    validation = text[text.index("\nValidation\n**********"):text.index("\nReferences\n")]
    assert "./ns3 report" in validation and "results/report/index.html" in validation
    assert "clusternet-guide.rst" in text and "clusternet-study.rst" in text


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
    guide = re.findall(r"^(\S[^\n]*)\n=+$", GUIDE.read_text(), re.M)
    assert sum(1 for t in guide if t.startswith("Walkthrough")) == 2, guide
    assert "Calibrating your cluster" in guide
    assert 'seed 000 … 004" are' in text  # the glossary line


def test_the_stored_leave_one_paper_out_table_is_one_of_the_command():
    """The leave-one-paper-out table kept beside the manual (figures/hold-out.csv, with
    hold-out.png: what ``./ns3 calibrate --hold-out-table`` wrote from the project's last runs;
    the report shows it when its results hold none) has every paper and the command's columns."""
    import pandas as pd

    from clusternet.jointfit import hold_out_rst

    stored = DOC.parent / "figures" / "hold-out.csv"
    table = pd.read_csv(stored, dtype={"paper": str, "kept": str}, keep_default_na=False)
    assert sorted(table.paper) == ["000", "001", "002", "003", "004"]
    assert hold_out_rst(table).count("\n0") == 5
    assert (DOC.parent / "figures" / "hold-out.png").stat().st_size > 0


PROFILES_README = ROOT / "contrib" / "clusternet" / "profiles" / "README.md"


def readme_targets(text):
    """The (kind, target) pairs the profiles README's "Targets" table names."""
    section = text[text.index("### Targets"):text.index("### Properties")]
    pairs = set()
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[1].startswith("`"):
            continue
        for kind in cells[0].split(","):
            for target in re.findall(r"`(\w+)`", cells[1]):
                pairs.add((kind.strip(), target))
    return pairs


def test_the_profiles_readme_names_the_target_table():
    from analysis.catalogue import target_rows
    assert readme_targets(PROFILES_README.read_text()) == {(k, t) for k, t, _ in target_rows()}


def test_the_add_a_target_diff_is_a_row_of_the_table():
    """The profiles README's "Adding a target" diff shows rows the target table really has."""
    text = PROFILES_README.read_text()
    diff = text[text.index("#### Adding a target"):text.index("### Properties")]
    added = re.findall(r"^\+(CLUSTERNET_PROFILE_TARGET\(.*\n\+.*\))$", diff, re.M)
    assert added, "no added row in the diff"
    table = (ROOT / "contrib/clusternet/model/profile/profile-targets.def").read_text()
    for row in added:
        assert row.replace("\n+", "\n") in table, row


def test_readme_targets_reads_combined_rows():
    text = ("### Targets\n| kind | target | object |\n|---|---|---|\n"
            "| host, cpu | `bus` | `ns3::clusternet::PciBus` |\n"
            "| mpi | `via`, `shm` | `MpiViaTransport`, `MpiShmTransport` |\n### Properties\n")
    assert readme_targets(text) == {("host", "bus"), ("cpu", "bus"), ("mpi", "via"), ("mpi", "shm")}
