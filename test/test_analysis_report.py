"""Tests of the report CLI (python -m analysis.report) on synthetic results directories."""

import csv
import os
import shutil
import statistics
from pathlib import Path

import pandas as pd
import programs
import pytest

REPO = Path(__file__).resolve().parents[1]

from analysis.io import reference_dir
from analysis.report import main

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SEEDS = reference_dir() / "seeds.csv"


def fixture_peak(nic, mtu, sockbuf):
    """The peak built into mtu_sweep_data.csv (see fixtures/make_fixtures.py)."""
    return 250 + mtu / 30 + 40 * (sockbuf / 65536 - 1) + (30 if nic == "sknet" else 0)


def _results(tmp_path, fixture):
    results = tmp_path / "results"
    results.mkdir()
    shutil.copy(FIXTURES / fixture, results / "data.csv")
    return results


def _seed_rows(scenario):
    with open(SEEDS, newline="") as f:
        return [r for r in csv.DictReader(f) if r["scenario"] == scenario]


def _run_cli(*args, module="analysis.report"):
    return programs.run_python("-m", module, *args, status=None, cwd=REPO, timeout=60)


@pytest.mark.parametrize("module", ["analysis.report", "analysis"])
def test_cli_missing_data_exits_2_with_one_line(tmp_path, module):
    missing = tmp_path / "nowhere"
    proc = _run_cli("gige-mtu-sweep", "--results", str(missing), module=module)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert str(missing / "data.csv") in lines[0]
    assert "Traceback" not in proc.stderr
    assert proc.stdout == ""
    assert not missing.exists()


def test_empty_data_file_exits_2(tmp_path, capsys):
    results = tmp_path / "r"
    results.mkdir()
    (results / "data.csv").write_text("")
    assert main(["gige-tcp-netpipe", "--results", str(results)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "data.csv" in err
    assert os.listdir(results) == ["data.csv"]


def test_mtu_sweep_report(tmp_path, capsys):
    results = _results(tmp_path, "mtu_sweep_data.csv")
    assert main(["gige-mtu-sweep", "--results", str(results)]) == 0
    assert sorted(os.listdir(results)) == ["data.csv", "gige-mtu-sweep-netpipe.png",
                                           "gige-mtu-sweep.png", "np", "summary.csv"]
    assert (results / "gige-mtu-sweep.png").read_bytes()[:4] == b"\x89PNG"

    seeds = _seed_rows("gige-mtu-sweep")
    with open(results / "summary.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(seeds) == 16
    assert list(rows[0]) == ["paper", "experiment", "config", "metric", "sim_value",
                             "ref_value", "rel_err"]
    errs = []
    for row, seed in zip(rows, seeds):
        assert (row["paper"], row["config"], row["metric"]) == ("000", seed["config"],
                                                               seed["metric"])
        cfg = dict(item.split("=") for item in seed["config"].split(";"))
        sim = fixture_peak(cfg["nic"], int(cfg["mtu"]), int(cfg["sockbuf"]))
        ref = float(seed["value"])
        assert float(row["sim_value"]) == pytest.approx(sim, rel=1e-8)
        assert float(row["ref_value"]) == ref
        assert float(row["rel_err"]) == pytest.approx((sim - ref) / ref, rel=1e-6)
        errs.append(abs((sim - ref) / ref))

    lines = capsys.readouterr().out.strip().splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("MTU"))
    assert lines[header].split() == ["MTU", "ACEnic", "64K", "ACEnic", "128K", "SK-NET", "64K",
                                     "SK-NET", "128K"]
    table = lines[header + 1:header + 5]
    assert [line.split()[0] for line in table] == ["1500", "4500", "8500", "9000"]
    # ACEnic 64K at MTU 1500: 250 + 50 = 300 simulated, 294.624 in the paper.
    assert table[0].split()[1:4] == ["300.0", "/", "294.6"]
    # SK-NET 128K at MTU 9000: 250 + 300 + 40 + 30 = 620 simulated, 613.219 in the paper.
    assert table[3].split()[-3:] == ["620.0", "/", "613.2"]
    assert lines[-1] == (f"n=16 median |err|={100 * statistics.median(errs):.1f}% "
                         f"max |err|={100 * max(errs):.1f}%")


def test_tcp_netpipe_report_generic_listing(tmp_path, capsys):
    results = _results(tmp_path, "netpipe_small.csv")
    assert main(["gige-tcp-netpipe", "--results", str(results)]) == 0
    summary = pd.read_csv(results / "summary.csv", dtype={"paper": str})
    assert len(summary) == 12 and (summary["paper"] == "000").all()
    assert (results / "gige-tcp-netpipe.png").is_file()
    out = capsys.readouterr().out.strip().splitlines()
    ratio = next(line for line in out if "ratio_vs_gnic2" in line)
    assert ratio.split()[-3:] == ["1.28", "1.32", "-3.0%"]
    missing = next(line for line in out if line.startswith("nic=acenic;mtu=1500")
                   and "peak_mbps" in line)
    assert missing.split()[-3:] == ["n/a", "301", "n/a"]
    assert out[-1].startswith("n=7 median |err|=")


def test_fixture_reference_option(tmp_path, capsys):
    results = _results(tmp_path, "netpipe_small.csv")
    ref = str(FIXTURES / "reference_small.csv")
    assert main(["test-netpipe", "--results", str(results), "--reference", ref]) == 0
    assert len(pd.read_csv(results / "summary.csv")) == 14
    assert capsys.readouterr().out.strip().splitlines()[-1] == \
        "n=9 median |err|=3.8% max |err|=25.0%"


def test_unknown_scenario_with_netpipe_data(tmp_path, capsys):
    results = _results(tmp_path, "netpipe_small.csv")
    ref = str(FIXTURES / "reference_small.csv")
    assert main(["my-what-if", "--results", str(results), "--reference", ref]) == 0
    assert sorted(os.listdir(results)) == ["data.csv", "my-what-if.png", "np"]
    out = capsys.readouterr().out
    assert "no reference rows for scenario my-what-if" in out
    line = next(s for s in out.splitlines() if s.startswith("SK-NET") and "mtu=9000" in s)
    assert line.split()[-2:] == ["600", "46"]


def test_unknown_scenario_with_other_columns(tmp_path, capsys):
    results = tmp_path / "r"
    results.mkdir()
    (results / "data.csv").write_text("stack,os,latency\nwmpi,nt4,44.2\n")
    ref = str(FIXTURES / "reference_small.csv")
    assert main(["nt-like", "--results", str(results), "--reference", ref]) == 0
    assert os.listdir(results) == ["data.csv"]
    assert "no reference rows" in capsys.readouterr().out


def test_missing_reference_option_exits_2(tmp_path, capsys):
    results = _results(tmp_path, "netpipe_small.csv")
    code = main(["test-netpipe", "--results", str(results), "--reference",
                 str(tmp_path / "none.csv")])
    assert code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
