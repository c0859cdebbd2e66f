# SPDX-License-Identifier: GPL-2.0-only
"""``./ns3 report``: the reproduction as a web site (analysis/htmlreport.py, clusternet/report.py).

The numbers on the pages are checked against the CSV files they are read from, with the
expected cells formatted here (not by the code under test); every CSV the report reads is
changed once and the page must change with it; bad results folders are refused in one line.
The report of the session's whole reproduction is opened in headless Chromium (test at the
end).
"""

import math
import os
import shutil
import statistics
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import programs
import pytest

from analysis.htmlreport import write_report
from analysis.reference import load_reference
from conftest import ROOT

PAPER = "001"
SCENARIO = "myrinet-gm-allsize"
SCREENSHOTS = ROOT / "results" / "report-screenshots"


class Tables(HTMLParser):
    """The cells' text of every table with an id: ``{id: [[cell, ...], ...]}`` (body rows)."""

    def __init__(self, text):
        super().__init__()
        self.tables, self._id, self._row, self._cell, self._head = {}, None, None, None, False
        self.links, self.images = [], []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and "id" in a:
            self._id = a["id"]
            self.tables[self._id] = []
        elif tag == "thead":
            self._head = True
        elif tag == "tr" and self._id and not self._head:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = ""
        elif tag == "a" and "href" in a:
            self.links.append(a["href"])
        elif tag == "img":
            self.images.append(a["src"])

    def handle_endtag(self, tag):
        if tag == "table":
            self._id = None
        elif tag == "thead":
            self._head = False
        elif tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append(" ".join(self._cell.split()))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.tables[self._id].append(self._row)
            self._row = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data


def fmt(x):
    """4 significant digits, as a reader of the paper's tables expects."""
    return f"{float(x):.4g}"


def signed_pct(fraction):
    return f"{100 * fraction:+.1f} %"


def make_results(folder):
    """A results folder of one scenario: seed 001's GM throughput and latency rows, each
    simulated at its paper value times 1 + k/100 (k the row's number), a provenance record, a
    figure, a hold-out table, a transfer table and benchmark figures."""
    ref = load_reference()
    rows = ref[ref["scenario"] == SCENARIO].reset_index(drop=True)
    sim = [float(v) * (1 + (k + 1) / 100) for k, v in enumerate(rows["value"])]
    summary = pd.DataFrame({"paper": PAPER, "experiment": rows["experiment"],
                            "config": rows["config"], "metric": rows["metric"],
                            "sim_value": sim, "ref_value": rows["value"],
                            "rel_err": [(s - float(v)) / float(v)
                                        for s, v in zip(sim, rows["value"])]})
    out = folder / SCENARIO
    out.mkdir(parents=True)
    summary.to_csv(out / "summary.csv", index=False)
    pd.DataFrame({"mode": ["uni"], "msg_bytes": [1], "latency_us": [11.0]}).to_csv(
        out / "data.csv", index=False)
    pd.DataFrame({"point": ["p"], "file": ["p"], "git_commit": ["0123456789abcdef"],
                  "git_dirty": ["0"], "ns3_version": ["3.44.post0"], "wall_s": ["12.5"],
                  "finished_utc": ["2026-11-30T08:00:00+00:00"]}).to_csv(
        out / "provenance.csv", index=False)
    shutil.copyfile(ROOT / "contrib" / "clusternet" / "doc" / "figures" / "hold-out.png",
                    out / f"{SCENARIO}.png")
    (folder / "calibrate").mkdir()
    pd.DataFrame({"paper": ["001"], "rows": [21], "included_median_pct": [3.3],
                  "included_max_pct": [20.4], "held_out_median_pct": [3.1],
                  "held_out_max_pct": [29.9], "statements": [16],
                  "included_statements_held": [13], "held_out_statements_held": [10],
                  "values_from_sources": [4], "kept": ["a b.C"]}).to_csv(
        folder / "calibrate" / "hold-out.csv", index=False)
    (folder / "transfer").mkdir()
    pd.DataFrame({"part": ["gm15-lanai"], "kind": ["lanai"], "paper": ["003"],
                  "profiles": ["lanai72"], "fitted_on": ["001"], "carried": ["transfer"],
                  "rows": [15], "median_abs_err": [0.0447], "max_abs_err": [1.0]}).to_csv(
        folder / "transfer" / "transfer.csv", index=False)
    (folder / "bench").mkdir()
    pd.DataFrame({"part": ["a"], "figure": ["wall per packet, clusternet / p2p"],
                  "value": [2.41], "unit": ["ratio"]}).to_csv(
        folder / "bench" / "figures.csv", index=False)
    return summary


def page(out, name):
    return (out / name).read_text(encoding="utf-8")


def test_paper_page_and_summary_hold_the_csv_numbers(tmp_path):
    summary = make_results(tmp_path / "results")
    write_report(tmp_path / "results", tmp_path / "site")
    rows = Tables(page(tmp_path / "site", f"paper-{PAPER}.html")).tables["rows-table"]
    got = {(r[0], r[1], r[2]): r for r in rows}
    assert len(summary) > 5
    for s in summary.itertuples():
        r = got[(SCENARIO, s.config, s.metric)]
        assert r[4] == fmt(s.ref_value) and r[5] == fmt(s.sim_value), r
        assert r[6] == signed_pct(s.rel_err), r
    # the other scenarios of seed 001 were not run: their rows say so, and the page names them
    absent = [r for r in rows if r[0] != SCENARIO]
    assert absent and all(r[5] == "n/a" and r[7] == "no" for r in absent)
    assert "Not run" in page(tmp_path / "site", f"paper-{PAPER}.html")
    index = Tables(page(tmp_path / "site", "index.html"))
    line = next(r for r in index.tables["papers"] if r[0] == PAPER)
    errs = [abs(e) for e in summary["rel_err"]]
    assert line[3] == str(len(summary))                        # simulated
    assert line[5] == f"{100 * statistics.median(errs):.1f} %"  # median |error|
    assert line[6] == f"{100 * max(errs):.1f} %"
    prov = next(r for r in index.tables["provenance-table"] if r[0] == SCENARIO)
    assert prov[1:4] == ["1", "0123456789", "no"] and prov[6] == "12.5"
    assert index.tables["holdout-table"][0][2] == "3.3 %"
    assert index.tables["bench-table"][0][2] == "2.41"
    assert f"figures/{SCENARIO}/{SCENARIO}.png" in Tables(
        page(tmp_path / "site", f"paper-{PAPER}.html")).images


def test_without_hold_out_runs_the_stored_table_is_shown_and_named(tmp_path):
    make_results(tmp_path / "results")
    shutil.rmtree(tmp_path / "results" / "calibrate")
    write_report(tmp_path / "results", tmp_path / "site")
    text = page(tmp_path / "site", "index.html")
    stored = pd.read_csv(ROOT / "contrib" / "clusternet" / "doc" / "figures" / "hold-out.csv",
                         dtype={"paper": str})
    rows = Tables(text).tables["holdout-table"]
    assert [r[0] for r in rows] == list(stored["paper"])
    assert [r[4] for r in rows] == [f"{v:.1f} %" for v in stored["held_out_median_pct"]]
    assert "kept beside the module" in text and "doc/figures/hold-out.csv" in text
    assert (tmp_path / "site" / "figures" / "calibrate" / "hold-out.png").is_file()


# (file under the results folder, column, row, new value, page, the new value as shown)
CHANGES = [
    (f"{SCENARIO}/summary.csv", "sim_value", 0, 987.6, f"paper-{PAPER}.html", "987.6"),
    (f"{SCENARIO}/summary.csv", "rel_err", 0, -0.4321, "index.html", "43.2 %"),
    (f"{SCENARIO}/provenance.csv", "wall_s", 0, 4321.0, "index.html", "4321"),
    (f"{SCENARIO}/provenance.csv", "git_commit", 0, "fedcba9876543", "index.html",
     "fedcba9876"),
    ("calibrate/hold-out.csv", "held_out_max_pct", 0, 77.77, "index.html", "77.8 %"),
    ("transfer/transfer.csv", "median_abs_err", 0, 0.1234, "index.html", "12.3 %"),
    ("bench/figures.csv", "value", 0, 9.876, "index.html", "9.876"),
]


@pytest.mark.parametrize("change", CHANGES, ids=[f"{c[0]}:{c[1]}" for c in CHANGES])
def test_a_changed_csv_value_changes_the_page(tmp_path, change):
    path, column, row, value, name, shown = change
    make_results(tmp_path / "results")
    write_report(tmp_path / "results", tmp_path / "before")
    csv = tmp_path / "results" / path
    frame = pd.read_csv(csv, dtype=str, keep_default_na=False)
    frame.loc[row, column] = str(value)
    frame.to_csv(csv, index=False)
    write_report(tmp_path / "results", tmp_path / "after")
    before, after = page(tmp_path / "before", name), page(tmp_path / "after", name)
    assert shown not in before and shown in after


def pci_dma(folder, rate):
    """myrinet-pci-dma's data.csv: the four gm_debug tests, the first at 110 MB/s, tests 2-4
    at ``rate`` MB/s both ways."""
    out = folder / "myrinet-pci-dma"
    out.mkdir(exist_ok=True)
    pd.DataFrame({"test": ["1st", "2nd", "3rd", "4th"], "transfer_bytes": 4096,
                  "read_mbytes_per_s": [110.0, rate, rate, rate],
                  "write_mbytes_per_s": [110.0, rate, rate, rate]}).to_csv(
        out / "data.csv", index=False)


def test_the_parts_page_shows_the_profile_files_values(tmp_path, monkeypatch):
    """Each value on the parts page is the profile file's, read when the report is written:
    seed 001's P5-200 bus clock changed in a copy of the catalogue changes the page."""
    make_results(tmp_path / "results")
    profiles = tmp_path / "profiles"
    shutil.copytree(ROOT / "contrib" / "clusternet" / "profiles", profiles)
    monkeypatch.setenv("CLUSTERNET_PROFILE_PATH", str(profiles))

    def clock_cell(site):
        text = page(site, "profiles.html")
        section = text[text.index('id="p-p200-430vx"'):]
        row = section[section.index("<code>bus.Clock</code>"):]
        return row[row.index("<td>") + 4:row.index("</td>", row.index("<td>"))]

    write_report(tmp_path / "results", tmp_path / "before")
    cpus = profiles / "cpus.toml"
    text = cpus.read_text()
    assert 'Clock = ["33", "seed 001 sec. 3"]' in text
    cpus.write_text(text.replace('Clock = ["33", "seed 001 sec. 3"]',
                                 'Clock = ["66", "seed 001 sec. 3"]'))
    write_report(tmp_path / "results", tmp_path / "after")
    assert (clock_cell(tmp_path / "before"), clock_cell(tmp_path / "after")) == ("33", "66")


def test_a_statement_is_checked_over_the_data(tmp_path):
    """A statement's outcome comes from data.csv when the report is written: s001-05 (DMA
    tests 2-4 between 0.9 x and 1 x 132 MB/s) holds at 125 MB/s and not at 100; statements
    whose data lack what they read say they cannot be checked, those not run say so."""
    make_results(tmp_path / "results")
    outcomes = {}
    for rate in (125.0, 100.0):
        pci_dma(tmp_path / "results", rate)
        write_report(tmp_path / "results", tmp_path / f"site{rate:g}")
        rows = Tables(page(tmp_path / f"site{rate:g}", f"paper-{PAPER}.html")).tables[
            "statements-table"]
        outcomes[rate] = {r[0]: r for r in rows}
    assert outcomes[125.0]["s001-05"][3] == "yes" and outcomes[100.0]["s001-05"][3] == "no"
    gm = [r for r in outcomes[125.0].values() if r[2].startswith("myrinet-gm-allsize")]
    assert gm and all(r[3] == "n/a" and "cannot be checked" in r[5] for r in gm)
    logp = [r for r in outcomes[125.0].values() if r[2].startswith("myrinet-gm-logp")]
    assert logp and all(r[3] == "n/a" and r[5].startswith("not run") for r in logp)


def run_report(*args):
    return programs.run_python("-m", "clusternet.report", *args, status=None)


def test_bad_results_are_refused_in_one_line(tmp_path):
    proc = run_report(f"--results={tmp_path / 'none'}", "--run-missing=0")
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert "--results" in proc.stderr and "no such results folder" in proc.stderr and "Traceback" not in proc.stderr
    make_results(tmp_path / "results")
    write_report(tmp_path / "results", tmp_path / "results" / "report")
    kept = page(tmp_path / "results" / "report", "index.html")
    (tmp_path / "results" / SCENARIO / "summary.csv").write_text("paper,config\n001,x\n")
    proc = run_report(f"--results={tmp_path / 'results'}", "--run-missing=0")
    assert proc.returncode == 2, proc.stderr
    last = proc.stderr.strip().splitlines()[-1]
    assert "summary.csv" in last and "needs the columns" in last and "Traceback" not in proc.stderr
    assert page(tmp_path / "results" / "report", "index.html") == kept, "no partial report"
    assert not list((tmp_path / "results").glob(".report*")), "no scratch folder left"
    for bad in (["--jobs=0"], ["--run-missing=2"], ["--colour"]):
        proc = run_report(f"--results={tmp_path / 'results'}", *bad)
        assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def chromium():
    path = shutil.which("chromium")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("chromium missing: ./ns3 test should have installed it "
                        "(apt-get install chromium)")
        pytest.skip("chromium not installed (apt-get install chromium)")
    return path


def test_report_of_the_reproduction_opens_in_chromium(reproduction):
    """The session's whole reproduction, as ./ns3 report writes it, opened page by page in
    headless Chromium: every image and linked file loads, the console shows no error; the
    summary page's screenshot is kept in results/report-screenshots/ for the reader."""
    from playwright.sync_api import sync_playwright

    browser_path = chromium()
    folder = reproduction.ensure()
    proc = run_report(f"--results={folder}", "--run-missing=0")
    assert proc.returncode == 0, proc.stderr
    site = folder / "report"
    pages = sorted(site.glob("*.html"))
    assert {p.name for p in pages} >= {"index.html", "profiles.html",
                                       *(f"paper-{p}.html" for p in ("000", "001", "002", "003",
                                                                     "004"))}
    problems = []
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=browser_path, args=["--no-sandbox"])
        try:
            tab = browser.new_page(viewport={"width": 1280, "height": 900})
            tab.on("console", lambda m: problems.append(f"console {m.type}: {m.text}")
                   if m.type in ("error", "warning") else None)
            tab.on("pageerror", lambda e: problems.append(f"page error: {e}"))
            tab.on("requestfailed", lambda r: problems.append(f"failed: {r.url}"))
            for html_page in pages:
                tab.goto(html_page.as_uri(), wait_until="load")
                broken = tab.evaluate("Array.from(document.images).filter(i => !i.complete || "
                                      "i.naturalWidth === 0).map(i => i.src)")
                problems += [f"{html_page.name}: image not loaded: {b}" for b in broken]
                for href in Tables(html_page.read_text(encoding="utf-8")).links:
                    target = href.split("#")[0]
                    if target and not (site / target).is_file():
                        problems.append(f"{html_page.name}: link to a missing file: {href}")
                if html_page.name == "index.html":
                    shot = SCREENSHOTS / "summary.png"
                    tab.screenshot(path=str(shot), full_page=True)
                    print(f"screenshot of the summary page: {shot}")
        finally:
            browser.close()
    assert not problems, "\n".join(problems)
    assert shot.stat().st_size > 20000
    index = Tables((site / "index.html").read_text(encoding="utf-8")).tables["papers"]
    assert [r[0] for r in index] == ["000", "001", "002", "003", "004"]
    assert all(r[3] == r[2] for r in index), "every reference row simulated"
    assert not any(math.isnan(float(r[5].split()[0])) for r in index)
    # seed 003's blind record: both rounds as reference/seed003-blind.csv holds them
    blind = pd.read_csv(ROOT / "reference" / "seed003-blind.csv")
    rows = Tables((site / "paper-003.html").read_text(encoding="utf-8")).tables["blind-table"]
    assert [(r[0], r[3], r[5]) for r in rows] == [
        (b.config, fmt(b.first), fmt(b.second)) for b in blind.itertuples()]
    # every statement of every paper is on its paper's page, checked over the run
    from analysis.statements import STATEMENTS

    for paper in ("000", "001", "002", "003", "004"):
        listed = Tables((site / f"paper-{paper}.html").read_text(encoding="utf-8")).tables[
            "statements-table"]
        mine = [st for st in STATEMENTS if st.seed == paper]
        assert [r[0] for r in listed] == [st.id for st in mine]
        assert all(r[3] in ("yes", "no") for r in listed), "every statement checked"
        assert [r[3] for r in listed] == [("yes" if st.holds else "no") for st in mine]
