# SPDX-License-Identifier: GPL-2.0-only
"""scenarios/what-if: one NetPIPE configuration against a baseline."""
import pandas as pd
import pytest

from analysis.report import baseline_text


def test_whatif_and_baseline_differ_only_where_asked(run_csv, tmp_path):
    df = run_csv("what-if", tmp_path / "w", "--nic=sknet", "--mtu=9000", "--pci=64x66",
                 "--max-block=4096", "--report=0")
    assert list(df.columns) == ["case", "nic", "host", "pci", "set", "switches", "mtu",
                                "sockbuf", "block_bytes", "oneway_us", "mbps", "mbytes_per_s",
                                "reps"]
    cases = {c: part for c, part in df.groupby("case")}
    assert set(cases) == {"what-if", "baseline"}
    assert set(cases["what-if"].pci) == {"64x66"}
    assert set(cases["baseline"].pci) == {"32x33"}  # the host profile's slot
    for part in cases.values():
        assert set(part.nic) == {"sknet"} and set(part.mtu) == {9000}
        assert part.block_bytes.max() == 4096
    # a faster PCI slot cannot make the one-byte latency worse
    lat = {c: part.sort_values("block_bytes").oneway_us.iloc[0] for c, part in cases.items()}
    assert lat["what-if"] <= lat["baseline"]


@pytest.mark.parametrize("args,name", [
    (["--baseline-mtu=20000"], "--baseline-mtu"),
    (["--baseline-nic=foo"], "--baseline-nic"),
    (["--baseline-pci=48x33"], "--baseline-pci"),
    (["--baseline-set=cpu.NoSuchThing=1"], "--baseline-set"),
    (["--mtu=1500,9000"], "--mtu"),
    (["--sockbuf=big"], "--sockbuf"),
])
def test_bad_input(assert_refused, args, name):
    assert_refused("what-if", args, name)


def test_baseline_text_reports_relative_change():
    rows = []
    for case, us in (("baseline", 50.0), ("what-if", 40.0)):
        for block, mbps in ((1, 0.16), (1000, 100.0), (100000, 400.0 if case == "baseline"
                                                        else 500.0)):
            rows.append({"case": case, "nic": "sknet", "pci": "32x33" if case == "baseline"
                         else "64x66", "block_bytes": block,
                         "oneway_us": us if block == 1 else block * 8 / mbps, "mbps": mbps})
    text = baseline_text(pd.DataFrame(rows))
    change = next(line for line in text.splitlines() if line.strip().startswith("change"))
    # peak 400 -> 500 is +25%, latency 50 -> 40 us is -20%
    assert change.split()[1:] == ["+25.0%", "-20.0%"]
    assert baseline_text(pd.DataFrame(rows).assign(case="x")) is None
