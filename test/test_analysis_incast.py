# SPDX-License-Identifier: GPL-2.0-only
"""analysis.incast: conservation and STOP tables over synthetic incast data."""
from pathlib import Path

import pandas as pd


from analysis.incast import conservation, stop_table


def frame(received_by_host2=100):
    rows = []
    for drain in (500, 2000):
        rx2 = received_by_host2 if drain == 500 else 100
        for link, stops, sent, got in (("host1->switch", 7, 100, 100),
                                       ("host2->switch", 9, 100, rx2),
                                       ("switch->host0", 40 if drain == 500 else 0, 200,
                                        100 + rx2)):
            rows.append({"drain_mbps": drain, "link": link, "stops": stops,
                         "payload_sent_bytes": sent, "payload_received_bytes": got,
                         "drops": 0, "overflows": 0, "receiver_mbps": drain * 0.99})
    return pd.DataFrame(rows)


def test_conserved_when_every_sender_balances():
    table = conservation(frame())
    assert list(table["drain_mbps"]) == [500, 2000]
    assert table["conserved"].all()
    assert (table["payload_sent_bytes"] == 200).all()


def test_a_missing_byte_or_a_drop_breaks_conservation():
    table = conservation(frame(received_by_host2=99)).set_index("drain_mbps")
    assert not table.loc[500, "conserved"] and table.loc[2000, "conserved"]
    dropped = frame()
    dropped.loc[0, "drops"] = 1
    assert not conservation(dropped).set_index("drain_mbps").loc[500, "conserved"]


def test_stop_table_splits_receiver_and_uplinks():
    table = stop_table(frame()).set_index("drain_mbps")
    assert table.loc[500, "receiver_stops"] == 40
    assert table.loc[500, "uplink_stops"] == 16 and table.loc[500, "max_uplink_stops"] == 9
    assert table.loc[2000, "receiver_stops"] == 0
    assert table.loc[2000, "receiver_mbps"] == 1980.0
