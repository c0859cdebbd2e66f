"""Tests of analysis.io: locations and crash-safe writers."""

import os
from pathlib import Path

import pandas as pd
import pytest

REPO = Path(__file__).resolve().parents[1]

from analysis.io import (read_data, reference_dir, repo_root, save_figure_atomic,
                         write_csv_atomic)
from analysis.plots import new_figure

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _umask_mode():
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def test_repo_root_is_parent_of_analysis():
    assert repo_root() == REPO
    assert (repo_root() / "analysis" / "io.py").is_file()


def test_reference_inside_the_repository(monkeypatch):
    # The papers' numbers ship with the repository: no environment variable points elsewhere.
    monkeypatch.setenv("CLUSTERNET_SHARED", "/nonexistent")
    assert reference_dir() == REPO / "reference"
    assert (reference_dir() / "seeds.csv").is_file()
    assert (reference_dir() / "README.md").is_file()


def test_read_data_types():
    df = read_data(FIXTURES / "netpipe_small.csv")
    assert list(df.columns) == ["nic", "host", "pci", "mtu", "sockbuf", "block_bytes",
                                "oneway_us", "mbps", "reps"]
    assert len(df) == 14
    assert df["mtu"].dtype.kind == "i" and df["block_bytes"].dtype.kind == "i"
    assert df["mbps"].dtype.kind == "f"
    assert df.loc[0, "pci"] == "32x33" and df.loc[0, "host"] == "piii450-linux22"


def test_read_data_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_data(tmp_path / "data.csv")


def test_write_csv_atomic_writes_complete_file(tmp_path):
    target = tmp_path / "sub" / "summary.csv"
    df = pd.DataFrame({"paper": ["000", "001"], "value": [1.5, 2.0]})
    assert write_csv_atomic(df, target) == target
    assert target.read_text() == "paper,value\n000,1.5\n001,2.0\n"
    assert os.listdir(target.parent) == ["summary.csv"]
    assert target.stat().st_mode & 0o777 == _umask_mode()
    # Overwriting replaces the content and still leaves no temporary file.
    write_csv_atomic(df.head(1), target)
    assert target.read_text() == "paper,value\n000,1.5\n"
    assert os.listdir(target.parent) == ["summary.csv"]


class _FailingFrame:
    """Writes half a row, then fails like a full disk would."""

    def to_csv(self, f, index=False):
        f.write("paper,value\n000,")
        raise OSError("No space left on device")


def test_write_csv_atomic_failure_keeps_old_file(tmp_path):
    target = tmp_path / "summary.csv"
    target.write_text("old content\n")
    with pytest.raises(OSError, match="No space"):
        write_csv_atomic(_FailingFrame(), target)
    assert target.read_text() == "old content\n"
    assert os.listdir(tmp_path) == ["summary.csv"]


def test_write_csv_atomic_failure_without_old_file(tmp_path):
    with pytest.raises(OSError):
        write_csv_atomic(_FailingFrame(), tmp_path / "summary.csv")
    assert os.listdir(tmp_path) == []


class _FailingFigure:
    def savefig(self, f, **kwargs):
        f.write(b"\x89PNG half")
        raise RuntimeError("renderer crashed")


def test_save_figure_atomic(tmp_path):
    target = tmp_path / "plot.png"
    fig = new_figure(3, 2)
    ax = fig.subplots()
    ax.plot([1, 2], [3, 4])
    save_figure_atomic(fig, target)
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    before = target.read_bytes()
    with pytest.raises(RuntimeError):
        save_figure_atomic(_FailingFigure(), target)
    assert target.read_bytes() == before
    assert os.listdir(tmp_path) == ["plot.png"]
