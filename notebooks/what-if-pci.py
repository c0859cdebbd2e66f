# SPDX-License-Identifier: GPL-2.0-only
# %% [markdown]
# # What if seed 000's NICs sat in a 64-bit/66 MHz PCI slot?
#
# Seed 000 measured the ACEnic and the SK-NET in the 32-bit/33 MHz slots of two PIII-450s.
# This notebook (cells in the percent format: VS Code, Spyder and jupytext open it as a
# notebook; `python notebooks/what-if-pci.py` runs it whole) asks the simulator what a
# 64-bit/66 MHz slot would have given, running both sweeps on one Dask cluster and loading
# them, with their provenance, into one DataFrame.

# %%
import os
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from distributed import Client, LocalCluster  # noqa: E402

import clusternet  # noqa: E402
from analysis.io import load_runs  # noqa: E402

OUT = Path(os.environ.get("CLUSTERNET_EXAMPLE_OUT", "results/notebook-what-if-pci"))
SLOTS = ["32x33", "64x66"]

# %% [markdown]
# A local Dask cluster. Each point is a simulation in its own process, so thread workers are
# enough here (and a notebook needs no `if __name__ == "__main__"` guard for them); for a
# cluster of machines, `Client("tcp://scheduler:8786")` instead.

# %%
cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                       dashboard_address=None)
client = Client(cluster)

# %% [markdown]
# One sweep per slot: both NICs at MTU 1500 and 9000 with 128 KB socket buffers. NetPIPE's
# blocks stop at 1 MB to keep this quick (Table 1's runs go to 8 MB, a few % higher at 9000).

# %%
for slot in SLOTS:
    clusternet.run("gige-mtu-sweep", client, nic=["acenic", "sknet"], mtu=[1500, 9000],
                   sockbuf=131072, pci=slot, max_block=1048576, out=OUT / slot)

# %%
runs = load_runs(*(OUT / slot for slot in SLOTS))
peaks = runs.groupby(["nic", "mtu", "pci"]).mbps.max().unstack("pci")
print(peaks.round(1))
print("provenance:", runs[["git_commit", "ns3_version", "host"]].drop_duplicates().to_dict("records"))

# %%
fig, ax = plt.subplots(figsize=(6, 4))
labels = [f"{nic}\nMTU {mtu}" for nic, mtu in peaks.index]
x = range(len(labels))
for i, slot in enumerate(SLOTS):
    ax.bar([v + (i - 0.5) * 0.4 for v in x], peaks[slot], width=0.4, label=f"PCI {slot}")
ax.set_xticks(list(x), labels)
ax.set_ylabel("peak NetPIPE TCP throughput [Mbit/s]")
ax.set_xlabel("NIC and MTU [bytes]")
ax.set_title("Seed 000 hosts: 32-bit/33 MHz against 64-bit/66 MHz PCI")
ax.legend()
fig.tight_layout()
fig.savefig(OUT / "what-if-pci.png", dpi=120)
print("figure:", OUT / "what-if-pci.png")

# %%
client.close()
cluster.close()
