# SPDX-License-Identifier: GPL-2.0-only
"""The manual's generated table (analysis.doctables): each paper at the defaults, today's."""
import pathlib
import shutil

import pandas as pd
import pytest

from analysis.doctables import BLOCK, doc_blocks, papers_block_text, papers_table, replace_blocks
from analysis.reference import load_reference
from analysis.statements import STATEMENTS

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOC = ROOT / "contrib" / "clusternet" / "doc" / "clusternet.rst"
BASELINE = ROOT / "test" / "fixtures" / "seed003-baseline"


def test_papers_table_of_seed_003s_scenarios(tmp_path):
    """Seed 003's three scenarios (the fixtures' data.csv) and nothing else: its rows all
    simulated, the other papers' none; the median and max are those of |rel_err| over its 22
    rows, computed here from the summaries; statements of scenarios not run do not hold."""
    from analysis.summary import build_summary

    ref = load_reference()
    errs = []
    for csv in sorted(BASELINE.glob("*.csv")):
        (tmp_path / csv.stem).mkdir()
        shutil.copyfile(csv, tmp_path / csv.stem / "data.csv")
        errs += list(build_summary(csv.stem, pd.read_csv(csv), ref)["rel_err"].abs())
    table = papers_table(tmp_path).set_index("paper")
    assert list(table.index) == ["000", "001", "002", "003", "004"]
    assert table.loc["003", "rows"] == table.loc["003", "simulated"] == 22
    assert table.loc["003", "median_pct"] == pytest.approx(100 * pd.Series(errs).median())
    assert table.loc["003", "max_pct"] == pytest.approx(100 * max(errs))
    assert (table.drop(index="003")["simulated"] == 0).all()
    assert table.loc["003", "statements"] == sum(1 for s in STATEMENTS if s.seed == "003")
    assert table.loc["000", "held"] == 0
    text = papers_block_text(tmp_path)
    line = next(ln for ln in text.splitlines() if ln.startswith("003 "))
    assert f"{100 * pd.Series(errs).median():.1f} %" in line and " 22 " in line


def test_doc_holds_the_block_and_replacing_keeps_the_rest():
    text = DOC.read_text()
    assert set(doc_blocks(text)) == {BLOCK}
    swapped = replace_blocks(text, {BLOCK: "a table\n"})
    assert doc_blocks(swapped)[BLOCK] == "a table\n"
    assert replace_blocks(swapped, {BLOCK: doc_blocks(text)[BLOCK]}) == text
    with pytest.raises(ValueError, match="no block"):
        replace_blocks(text, {"seed999": "x\n"})


def test_doc_table_is_todays(reproduction):
    """The block equals what a reproduction gives now: a change that moves a row or a
    statement leaves the doc stale until utils/doc-tables.py is run."""
    folder = reproduction.ensure()
    assert doc_blocks(DOC.read_text())[BLOCK] == papers_block_text(folder), (
        "the manual's table of the papers is stale: ./ns3 reproduce --out=OUT, then "
        "utils/doc-tables.py OUT")
