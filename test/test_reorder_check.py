# SPDX-License-Identifier: GPL-2.0-only
"""utils/reorder-check.py: issue 45's rule for changes that reorder same-instant events."""
import shutil
from pathlib import Path

import pandas as pd
import programs
import pytest

REPO = Path(__file__).resolve().parents[1]
TOOL = REPO / "utils" / "reorder-check.py"


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """A run-defaults folder holding myrinet-pci-dma (seed 001 Table 1: reference rows)."""
    folder = tmp_path_factory.mktemp("base")
    programs.run("myrinet-pci-dma", f"--out={folder / 'myrinet-pci-dma'}", "--report=0")
    return folder


def after(base, tmp_path, factor):
    """A copy of ``base`` whose first read bandwidth is scaled by ``factor``."""
    folder = tmp_path / "after"
    shutil.copytree(base, folder)
    csv = folder / "myrinet-pci-dma" / "data.csv"
    data = pd.read_csv(csv)
    data.loc[0, "read_mbytes_per_s"] = round(data.loc[0, "read_mbytes_per_s"] * factor, 3)
    data.to_csv(csv, index=False)
    return folder


def check(base, other):
    return programs.run_python(TOOL, base, other, status=None, timeout=120)


@pytest.mark.parametrize("factor,holds", [(1.0, True), (1.0005, True), (1.01, False)])
def test_rule_on_one_changed_value(base, tmp_path, factor, holds):
    """A 1 % change of a value read by a reference row moves its error by about 1 pp (broken);
    0.05 % by about 0.05 pp (holds); no change moves nothing."""
    proc = check(base, after(base, tmp_path, factor))
    assert proc.returncode == (0 if holds else 1), proc.stdout + proc.stderr
    assert ("rule holds" if holds else "rule BROKEN") in proc.stdout
    assert ("changed: myrinet-pci-dma" in proc.stdout) == (factor != 1.0)


def test_usage_in_one_line(tmp_path):
    proc = check(tmp_path, tmp_path / "missing")
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
