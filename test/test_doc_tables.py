# SPDX-License-Identifier: GPL-2.0-only
"""The doc's generated reference-row tables (analysis.doctables) hold today's figures."""
import pathlib

import pandas as pd
import pytest

from analysis.doctables import (BLOCKS, OUTLIER_BLOCK, block_text, doc_blocks, replace_blocks,
                                rows_table)

DOC = pathlib.Path(__file__).resolve().parent.parent / "contrib" / "clusternet" / "doc" / \
    "clusternet.rst"


def test_rows_table_layout_and_summary_line():
    frame = pd.DataFrame({"config": ["mode=uni", "msg=8"],
                          "metric": ["peak_mbytes_per_s", "burst_transition"],
                          "sim_value": [115.129, 17.0], "ref_value": [107.0, 19.0],
                          "rel_err": [8.129 / 107, -2 / 19]})
    rule = "  ".join("=" * w for w in (40, 18, 8, 8, 8))
    expected = "\n".join([
        rule,
        "Row".ljust(42) + "Metric".ljust(20) + "Sim".ljust(10) + "Paper".ljust(10) + "Error",
        rule,
        "mode=uni".ljust(42) + "peak MB/s".ljust(20) + "115.1".ljust(10) + "107".ljust(10)
        + "+7.6 %",
        "msg=8".ljust(42) + "burst transition".ljust(20) + "17".ljust(10) + "19".ljust(10)
        + "−10.5 %",
        rule]) + "\n\n2 rows: median \\|error\\| 9.1 %, maximum 10.5 %.\n"
    assert rows_table([("myrinet-gm-allsize", frame)]) == expected


def test_a_config_two_scenarios_list_is_tagged():
    row = {"config": ["version=1.9"], "metric": ["latency_us"], "sim_value": [3.0],
           "ref_value": [3.0], "rel_err": [0.0]}
    text = rows_table([("hpvm-fm", pd.DataFrame(row)), ("hpvm-smt", pd.DataFrame(row))])
    assert "version=1.9 (FM)" in text and "version=1.9 (SMT)" in text


def test_unknown_metric_and_block_are_refused():
    frame = pd.DataFrame({"config": ["x=1"], "metric": ["furlongs"], "sim_value": [1.0],
                          "ref_value": [1.0], "rel_err": [0.0]})
    with pytest.raises(ValueError, match="furlongs"):
        rows_table([("s", frame)])
    with pytest.raises(ValueError, match="unknown block"):
        block_text("seed999", "/nonexistent")
    with pytest.raises(ValueError, match="no block"):
        replace_blocks(DOC.read_text(), {"seed999": "x\n"})


def test_doc_holds_every_block_and_replacing_keeps_the_rest():
    text = DOC.read_text()
    assert set(doc_blocks(text)) == set(BLOCKS) | {OUTLIER_BLOCK}
    swapped = replace_blocks(text, {"seed004": "a table\n"})
    assert doc_blocks(swapped)["seed004"] == "a table\n"
    assert replace_blocks(swapped, {"seed004": doc_blocks(text)["seed004"]}) == text


def test_doc_tables_are_todays(reproduction):
    """Every generated block equals what the scenarios give at their defaults now: a change
    that moves a row leaves the doc stale until utils/doc-tables.py is run."""
    folder = reproduction.ensure(sorted({s for names in BLOCKS.values() for s in names}))
    blocks = doc_blocks(DOC.read_text())
    for name in BLOCKS:
        assert blocks[name] == block_text(name, folder), (
            f"doc block {name} is stale: run utils/run-defaults.py OUT and "
            f"utils/doc-tables.py OUT")
