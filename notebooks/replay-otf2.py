# SPDX-License-Identifier: GPL-2.0-only
# %% [markdown]
# # How would this application run on ...? Replaying an OTF2 trace on six clusters
#
# An MPI application's trace (an OTF2 archive, as Score-P writes it) is replayed by
# `mpi-replay` on modelled clusters: each rank's computation is taken from the trace, its MPI
# calls go through the modelled MPI library, host and network. This notebook (cells in the
# percent format: VS Code, Spyder and jupytext open it as a notebook;
# `python notebooks/replay-otf2.py` runs it whole) compares six machines:
#
# * the same Athlon XP 2800+ hosts of seed 003's cluster (FreeBSD 4.7) with
#   **(a)** LA-MPI over TCP on Gigabit Ethernet with the Intel PRO/1000 MT (interrupt
#   coalescing at the driver's defaults), **(b)** the same with coalescing off,
#   **(c)** LA-MPI over GM on Myrinet with the LANai 7.2, **(d)** MPICH-GM on the same;
# * **(e)** seed 000's cluster: LAM over TCP on PIII-450s (Linux 2.2) with the SK-NET;
# * **(f)** seed 001's: MPICH-GM on Pentium 200s (Linux 2.4, GM 1.5) with the LANai 9.
#
# The trace is the file named by `CLUSTERNET_OTF2_TRACE` if that is set, else a synthetic one
# written here: a 2-D stencil on a periodic 4 x 4 grid of ranks, each step 300 us of
# computation, a halo exchange of 16 KB with each of the four neighbours and an allreduce of
# 8 bytes. Either is taken as recorded on the Athlon XP 2800+ (`CLUSTERNET_OTF2_RECORDED_ON`
# names another host profile), so on the Athlons the computation is replayed as recorded and
# on the PIII-450 and the Pentium 200 (`recorded_on=`) it is scaled by the hosts' CPU speeds.
#
# All six combinations were checked to run as asked (none is refused by `mpi-replay`).

# %%
import os
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
from distributed import Client, LocalCluster  # noqa: E402

import clusternet  # noqa: E402
from analysis.replay import run_summary, time_per_rank  # noqa: E402
from clusternet.synthetic import stencil  # noqa: E402

OUT = Path(os.environ.get("CLUSTERNET_EXAMPLE_OUT", "results/notebook-replay-otf2"))
OUT.mkdir(parents=True, exist_ok=True)
RECORDED_ON = os.environ.get("CLUSTERNET_OTF2_RECORDED_ON", "athlonxp2800-fbsd47")
if os.environ.get("CLUSTERNET_OTF2_TRACE"):
    TRACE = Path(os.environ["CLUSTERNET_OTF2_TRACE"])
else:
    TRACE = Path(stencil(OUT / "stencil-trace", side=4, steps=10, halo_bytes=16384,
                         compute_ns=300_000))
print("trace:", TRACE, "recorded on", RECORDED_ON)

# %% [markdown]
# The six configurations: a short key (the output folder under `OUT`), a title, and the
# options of `mpi-replay` (`--help` lists them). `recorded_on` is given where the host is not
# the one the trace was recorded on.

# %%
ATHLON = "athlonxp2800-fbsd47"
CONFIGS = {
    "a-lampi-tcp-pro1000mt": (
        "(a) GigE/TCP: LA-MPI-TCP\nAthlon XP 2800+, PRO/1000 MT",
        dict(stack="lampi-tcp", host=ATHLON, nic="pro1000mt")),
    "b-lampi-tcp-pro1000mt-nocoal": (
        "(b) GigE/TCP: LA-MPI-TCP\nAthlon XP 2800+, PRO/1000 MT, no coalescing",
        dict(stack="lampi-tcp", host=ATHLON, nic="pro1000mt-nocoal")),
    "c-lampi-gm-lanai72": (
        "(c) Myrinet/GM: LA-MPI-GM\nAthlon XP 2800+, LANai 7.2",
        dict(stack="lampi-gm", host=ATHLON, lanai="lanai72")),
    "d-mpich-gm-lanai72": (
        "(d) Myrinet/GM: MPICH-GM\nAthlon XP 2800+, LANai 7.2",
        dict(stack="mpich-gm", host=ATHLON, lanai="lanai72")),
    "e-seed000-lam-sknet": (
        "(e) seed 000: LAM over TCP\nPIII-450, SK-NET",
        dict(stack="lam", host="piii450-linux22", nic="sknet")),
    "f-seed001-mpich-gm-lanai9": (
        "(f) seed 001: MPICH-GM\nPentium 200, LANai 9",
        dict(stack="mpich-gm", host="p200-430vx-linux24", lanai="lanai9")),
}
for _, options in CONFIGS.values():
    if options["host"] != RECORDED_ON:
        options["recorded_on"] = RECORDED_ON

# %% [markdown]
# A local Dask cluster runs the replays (threads are enough: each replay is a simulation in
# its own process). Each configuration is one run of `mpi-replay`, its data.csv (one row per
# operation of each rank, with its completion time) in its own folder.

# %%
cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                       dashboard_address=None)
client = Client(cluster)

data = {}
for key, (title, options) in CONFIGS.items():
    data[key] = clusternet.run("mpi-replay", client, trace=TRACE, out=OUT / key, **options)

client.close()
cluster.close()

# %% [markdown]
# Where each rank's time went (`analysis.replay.time_per_rank`): the computation is the
# elapsed time of the rank's `compute` operations, the communication the rest of the rank's
# time up to its last operation's completion (time in MPI calls, including waiting for the
# other ranks). The application's run time is the latest rank's. `trace compute` is the
# computation the trace asks of the host (scaled to it); the elapsed computation can be longer,
# since the modelled host CPU lets interrupt, kernel and library work preempt it.

# %%
per_rank = pd.concat([time_per_rank(df).assign(config=key) for key, df in data.items()],
                     ignore_index=True)
summary = run_summary(per_rank, by=["config"])
table = pd.DataFrame({
    "configuration": [CONFIGS[k][0].replace("\n", "; ") for k in summary["config"]],
    "ranks": summary["ranks"].to_numpy(),
    "run time [ms]": summary["run_us"].to_numpy() / 1000,
    "mean compute [ms]": summary["compute_us"].to_numpy() / 1000,
    "mean communication [ms]": summary["communication_us"].to_numpy() / 1000,
    "trace compute [ms]": summary["compute_nominal_us"].to_numpy() / 1000,
})
with pd.option_context("display.width", 200, "display.max_colwidth", 80):
    print(table.round(3).to_string(index=False))

# %% [markdown]
# The figure: one panel per configuration, a bar per rank, computation below and communication
# above, all on one time axis. Read across the panels: the four Athlon configurations are given
# the same computation (the table's `trace compute`; its elapsed time can differ a little where
# interrupts and the TCP stack take the CPU from it), so the difference in their heights is
# the network's and MPI library's; the PIII-450 and the Pentium 200 get the computation scaled
# to their slower CPUs, and their panels show how that and their networks share the run time.
# A rank whose bar is mostly communication spends its time in MPI calls: sending, receiving,
# and waiting for its neighbours.

# %%
fig, axes = plt.subplots(2, 3, figsize=(13, 7.5), sharey=True)
for ax, (key, (title, _)) in zip(axes.flat, CONFIGS.items()):
    ranks = per_rank[per_rank["config"] == key].sort_values("rank")
    compute_ms = ranks["compute_us"] / 1000
    comm_ms = ranks["communication_us"] / 1000
    ax.bar(ranks["rank"], compute_ms, color="tab:blue", label="computation")
    ax.bar(ranks["rank"], comm_ms, bottom=compute_ms, color="tab:orange",
           label="communication (time in MPI calls)")
    ax.set_title(title, fontsize=10)
    ax.set_xlabel("rank")
    ax.set_xticks(list(ranks["rank"])[::2] if len(ranks) > 16 else list(ranks["rank"]))
    ax.tick_params(axis="x", labelsize=8)
for ax in axes[:, 0]:
    ax.set_ylabel("time per rank [ms]")
handles, labels = axes.flat[0].get_legend_handles_labels()
fig.legend(handles, labels, loc="lower center", ncol=2)
fig.suptitle(f"Replay of {TRACE.parent.name}/{TRACE.name} (recorded on {RECORDED_ON}): "
             "time per rank")
fig.tight_layout(rect=(0, 0.05, 1, 1))
fig.savefig(OUT / "replay-otf2.png", dpi=120)
print("figure:", OUT / "replay-otf2.png")
