"""Myrinet incast (``myrinet-incast``): flow-control and conservation tables over data.csv.

Each data row is one link direction of one run (``drain_mbps``): the STOP/GO symbols its
receiving port sent, the wire bytes and packets it carried, the peak slack-buffer occupancy,
losses, and the payload its sender(s) sent and the receiver got. Sender uplinks are named
``hostN->switch``, the receiver's downlink ``switch->hostN``.
"""

import pandas as pd

DOWNLINK_PREFIX = "switch->"


def is_downlink(data):
    """Boolean mask of the receiver's downlink rows."""
    return data["link"].astype(str).str.startswith(DOWNLINK_PREFIX)


def conservation(data):
    """Per drain rate: payload sent by all senders, received, losses and whether it balances.

    Columns ``drain_mbps, payload_sent_bytes, payload_received_bytes, drops, overflows,
    conserved`` (``conserved``: every sender's payload arrived, nothing lost anywhere).
    """
    rows = []
    for drain, group in data.groupby("drain_mbps", sort=True):
        up = group[~is_downlink(group)]
        sent = int(up["payload_sent_bytes"].sum())
        received = int(up["payload_received_bytes"].sum())
        drops = int(group["drops"].sum())
        overflows = int(group["overflows"].sum())
        per_sender = bool((up["payload_sent_bytes"] == up["payload_received_bytes"]).all())
        rows.append({"drain_mbps": drain, "payload_sent_bytes": sent,
                     "payload_received_bytes": received, "drops": drops,
                     "overflows": overflows,
                     "conserved": per_sender and sent == received and drops == 0
                     and overflows == 0})
    return pd.DataFrame(rows, columns=["drain_mbps", "payload_sent_bytes",
                                       "payload_received_bytes", "drops", "overflows",
                                       "conserved"])


def stop_table(data):
    """Per drain rate: STOPs sent on the receiver's downlink, on all uplinks together, the
    busiest uplink's count, and the receiver's throughput (Mbit/s)."""
    rows = []
    for drain, group in data.groupby("drain_mbps", sort=True):
        down = group[is_downlink(group)]
        up = group[~is_downlink(group)]
        rows.append({"drain_mbps": drain,
                     "receiver_stops": int(down["stops"].sum()),
                     "uplink_stops": int(up["stops"].sum()),
                     "max_uplink_stops": int(up["stops"].max()) if len(up) else 0,
                     "receiver_mbps": float(group["receiver_mbps"].iloc[0])})
    return pd.DataFrame(rows)
