# SPDX-License-Identifier: GPL-2.0-only
"""Synthetic MPI applications written as OTF2 archives (:class:`clusternet.otf2trace.TraceWriter`),
for tests, benchmarks and examples of ``mpi-replay``.

    >>> anchor = stencil("halo", side=4, steps=3)   # 16 ranks
"""

import os

from .otf2trace import TraceWriter


def stencil(path: str | os.PathLike, side: int, steps: int, halo_bytes: int = 2048,
            compute_ns: int = 200_000, allreduce_bytes: int = 8) -> str:
    """A 2-D stencil on a periodic ``side`` x ``side`` grid of ranks: each step, computation,
    a halo exchange with the four neighbours (four irecv, four isend, one waitall) and an
    allreduce of the residual. Returns the archive's anchor file (``path/traces.otf2``)."""
    if side < 2 or steps < 1:
        raise ValueError(f"stencil: side {side} (at least 2) and steps {steps} (at least 1)")
    ranks = side * side
    with TraceWriter(path, ranks=ranks) as w:
        for _ in range(steps):
            for r in range(ranks):
                w.compute(r, compute_ns)
            for r in range(ranks):
                x, y = r % side, r // side
                peers = [(x + 1) % side + y * side, (x - 1) % side + y * side,
                         x + (y + 1) % side * side, x + (y - 1) % side * side]
                requests = [w.irecv(r, p, 1, halo_bytes) for p in peers]
                requests += [w.isend(r, p, 1, halo_bytes) for p in peers]
                w.waitall(r, requests)
            for r in range(ranks):
                w.collective(r, "allreduce", size=allreduce_bytes)
        return str(w.anchor)
