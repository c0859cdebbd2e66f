# SPDX-License-Identifier: GPL-2.0-only
"""OTF2 traces of MPI programs (as Score-P records them) to the simulator's text MPI trace.

:func:`convert` reads an OTF2 archive, given by its anchor file (``.../traces.otf2``), and
returns the plain-text trace the MPI application model replays: per world rank, its
point-to-point operations, request completions, blocking collectives and the computation
between MPI calls. :class:`TraceWriter` writes such archives from Python, with Score-P's
definitions and size conventions, for tests and examples.

    >>> with TraceWriter("run", ranks=2) as w:
    ...     w.send(0, 1, tag=0, size=1024); w.recv(1, 0, tag=0, size=1024)
    >>> text, ranks = convert("run/traces.otf2")

The conversion, per MPI rank (a location of the ``COMM_LOCATIONS`` group of the MPI paradigm;
its index there is its world rank):

- ``compute <N>ns``: the time between the leave of an MPI call (a region named ``MPI_*``) and
  the enter of the next, times ``compute_scale``; nothing before the first MPI call (usually
  ``MPI_Init``) or after the last.
- ``MpiSend``/``MpiRecv`` become ``send``/``recv``; inside ``MPI_Sendrecv*`` the pair becomes
  ``isend`` + ``irecv`` and two ``wait`` at the call's end (two blocking calls could deadlock).
- ``MpiIsend`` becomes ``isend``, ``MpiIrecvRequest`` an ``irecv`` whose source, tag and size
  are those of its completion (``MpiIrecv``: the actual source and tag, also after a
  wildcard receive). Every completion (``MpiIsendComplete``, ``MpiIrecv``) within an MPI call
  (``MPI_Wait*``, ``MPI_Test*``, ...) is a ``wait <request>`` line, in the order recorded.
  Requests are numbered 1, 2, 3, ... per rank, a new number for each request started.
- ``MpiCollectiveEnd`` becomes the collective, its per-rank size recovered from Score-P's
  sizeSent/sizeReceived (N = the communicator's size): bcast (root sends N·b, the others
  receive b), reduce and gather (each sends b), scatter (each receives b), allreduce,
  allgather and alltoall (each sends N·b); alltoallv from each rank's totals, bytes(i→j) =
  sent_i · recv_j / Σ_{k≠i} recv_k rounded half up for j ≠ i, 0 to itself. The members of a
  communicator must agree, call by call, on the operation, the root and b. Communicator
  creation and destruction (``CREATE_HANDLE``, ``DESTROY_HANDLE``) write no line.
- Peers and roots, ranks within the event's communicator in OTF2, are written as world ranks.
  ``MPI_COMM_WORLD`` has no suffix; every other communicator used gets an id 1, 2, ... (in
  the order of their definitions), a ``comm <id> <world ranks>`` line at the top and a
  `` comm=<id>`` suffix on each line that uses it.

Anything the model cannot replay (one-sided, I/O, probes, cancelled requests, non-blocking
collectives, threads and OpenMP, a collective other than the nine, a communicator of one rank)
and any inconsistency (an unmatched enter/leave, a request completed that was never started
or never completed, members disagreeing on a collective, a cut event file) raises
:class:`TraceError`, whose one-line message names the archive, the rank (location) and the
event (its position in that location's stream, from 1) or the definition.

The archive is read location by location (one event file open at a time, so thousands of
ranks need no more file descriptors); while it reads, file descriptor 2 goes to a temporary
file (the OTF2 library prints its errors there; the first becomes part of the message), so
:func:`convert` is not for threads that write to stderr meanwhile.

Command line: ``python -m clusternet.otf2trace ARCHIVE [--out=FILE] [--compute-scale=F]``.
"""

import argparse
import contextlib
import math
import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import _otf2
import otf2
from otf2.enums import CollectiveOp, GroupType, Paradigm, RegionRole

PROG = "otf2trace"
NS_PER_S = 10**9
INT32_MAX = 2**31 - 1
UNDEFINED_U32 = 2**32 - 1  # OTF2_UNDEFINED_UINT32: "no root"

# Events that carry nothing the replay needs.
_IGNORED = {"BufferFlush", "MeasurementOnOff", "Metric", "ParameterString", "ParameterInt",
            "ParameterUnsignedInt", "ProgramBegin", "ProgramEnd", "CallingContextEnter",
            "CallingContextLeave", "CallingContextSample", "CommCreate", "CommDestroy",
            "MpiRequestTest"}
# Collectives the text format has: {OTF2 name: (text name, has a root)}.
_COLLECTIVES = {"BARRIER": ("barrier", False), "BCAST": ("bcast", True),
                "REDUCE": ("reduce", True), "ALLREDUCE": ("allreduce", False),
                "GATHER": ("gather", True), "SCATTER": ("scatter", True),
                "ALLGATHER": ("allgather", False), "ALLTOALL": ("alltoall", False),
                "ALLTOALLV": ("alltoallv", False)}
_NO_DATA = {"CREATE_HANDLE", "DESTROY_HANDLE"}
_RMA_CALLS = {"MPI_Put", "MPI_Get", "MPI_Accumulate", "MPI_Get_accumulate", "MPI_Fetch_and_op",
              "MPI_Compare_and_swap", "MPI_Rput", "MPI_Rget", "MPI_Raccumulate",
              "MPI_Rget_accumulate"}
_NONBLOCKING_COLLECTIVE = re.compile(r"MPI_I(barrier|bcast|reduce|allreduce|gather|scatter|"
                                     r"allgather|alltoall|scan|exscan|neighbor)", re.I)


class TraceError(ValueError):
    """A trace that cannot be converted; the message is one line naming the archive, the rank
    (location) and event or the definition, and what is wrong."""


def _op_name(op) -> str:
    """``CollectiveOp.BCAST`` -> ``"BCAST"`` (OTF2's enums are ctypes values, not Python
    enums: their names are in ``str()``)."""
    return str(op).rpartition(".")[2]


# ---------------------------------------------------------------------------------------------
# Definitions


@dataclass
class _Comm:
    ref: int
    name: str
    members: tuple[int, ...] | None  # world ranks in comm-rank order; None: not usable
    problem: str = ""  # why it is not usable (members None), or "" for a usable one
    index: dict[int, int] = field(default_factory=dict)  # world rank -> comm rank

    def label(self) -> str:
        return f"communicator {self.ref} '{self.name}'" if self.name else f"communicator {self.ref}"


@dataclass
class _Defs:
    resolution: int  # timer ticks per second
    ranks: dict[int, int]  # MPI location ref -> world rank
    locations: list[tuple[int, str, int]]  # every location: (ref, name, events announced)
    regions: dict[int, str]
    comms: dict[int, _Comm]
    world: int | None  # the ref of MPI_COMM_WORLD


def _definitions(reader, archive: str) -> _Defs:
    d = reader.definitions
    clock = d.clock_properties
    if clock.timer_resolution <= 0:
        raise TraceError(f"{archive}: ClockProperties: timer resolution "
                         f"{clock.timer_resolution}; allowed >= 1 ticks per second")
    mpi_groups = [g for g in d.groups
                  if g.group_type == GroupType.COMM_LOCATIONS and g.paradigm == Paradigm.MPI]
    if len(mpi_groups) > 1:
        raise TraceError(f"{archive}: Group {mpi_groups[1]._ref}: a second COMM_LOCATIONS "
                         "group of the MPI paradigm; allowed: one, listing the world's ranks")
    if not mpi_groups or not mpi_groups[0].members:
        raise TraceError(f"{archive}: no MPI locations (no COMM_LOCATIONS group of the MPI "
                         "paradigm, or an empty one): not a trace of an MPI program")
    ranks = {}
    for rank, loc in enumerate(mpi_groups[0].members):
        if loc._ref in ranks:
            raise TraceError(f"{archive}: Group {mpi_groups[0]._ref}: location {loc._ref} is "
                             f"world rank {ranks[loc._ref]} and {rank}")
        ranks[loc._ref] = rank
    comms = {}
    for c in d.comms:
        comms[c._ref] = _comm(c, ranks)
    for c in d.inter_comms:
        comms[c._ref] = _Comm(c._ref, c.name, None, "an inter-communicator; not supported")
    everyone = tuple(range(len(ranks)))
    worlds = [c for c in comms.values() if c.members == everyone]
    worlds.sort(key=lambda c: (c.name != "MPI_COMM_WORLD", c.ref))
    world = worlds[0].ref if worlds else None
    return _Defs(resolution=clock.timer_resolution, ranks=ranks,
                 locations=[(loc._ref, loc.name, loc.number_of_events) for loc in d.locations],
                 regions={r._ref: r.name for r in d.regions}, comms=comms, world=world)


def _comm(c, ranks: dict[int, int]) -> _Comm:
    group = c.group
    if group.group_type == GroupType.COMM_SELF:
        return _Comm(c._ref, c.name, None, "a self communicator (a COMM_SELF group, like "
                     "MPI_COMM_SELF: one rank); not supported")
    if group.paradigm != Paradigm.MPI:
        return _Comm(c._ref, c.name, None, "not an MPI communicator")
    if group.group_type not in (GroupType.COMM_GROUP, GroupType.COMM_LOCATIONS):
        return _Comm(c._ref, c.name, None, f"its group is of type {group.group_type}; "
                     "allowed COMM_GROUP or COMM_LOCATIONS")
    # The otf2 module has already turned COMM_GROUP members (world ranks) into locations.
    try:
        members = tuple(ranks[loc._ref] for loc in group.members)
    except (KeyError, AttributeError):
        return _Comm(c._ref, c.name, None, "a member is no MPI rank")
    if len(members) == 1:
        return _Comm(c._ref, c.name, None, "a communicator of one rank (like MPI_COMM_SELF); "
                     "not supported")
    if len(set(members)) != len(members):
        return _Comm(c._ref, c.name, None, "a rank is twice a member")
    return _Comm(c._ref, c.name, members, "", {r: i for i, r in enumerate(members)})


# ---------------------------------------------------------------------------------------------
# Reading events


@contextlib.contextmanager
def _stderr_captured() -> Iterator[Callable[[], str]]:
    """Send file descriptor 2 (where the OTF2 library prints its errors) to a temporary file;
    yield a function that returns what was written since its last call."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), 2)

        seen = 0

        def text() -> str:
            nonlocal seen
            sys.stderr.flush()
            end = os.fstat(tmp.fileno()).st_size
            data = os.pread(tmp.fileno(), end - seen, seen)  # fd 2 shares the file offset
            seen = end
            return data.decode("utf-8", "replace")
        try:
            yield text
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)


def _otf2_says(captured: str, exc: BaseException) -> str:
    """The first error the OTF2 library printed, else the exception's text."""
    for line in captured.splitlines():
        if "error:" in line:
            return line.split("error:", 1)[1].strip()
    return str(exc).strip() or type(exc).__name__


def _event_callbacks(buffer: list) -> tuple[object, list]:
    """An OTF2 local-event callbacks struct that appends every event, of every type, to
    ``buffer`` as ``(event name, time, position, args)``; and the Python callbacks, which must
    stay alive while it is used."""
    names = [n[len("EvtReaderCallbacks_Set"):-len("Callback")] for n in dir(_otf2)
             if n.startswith("EvtReaderCallbacks_Set") and n.endswith("Callback")]
    callbacks = _otf2.EvtReaderCallbacks_New()
    alive = []
    for name in names:
        def record(location, time, position, user_data, attributes, *args, _name=name):
            buffer.append((_name, time, position, args))
        alive.append(record)  # one function object each: _otf2 hangs its wrapper on it
        getattr(_otf2, f"EvtReaderCallbacks_Set{name}Callback")(callbacks, record)
    return callbacks, alive


def _read_locations(reader, defs: _Defs, archive: str,
                    captured: Callable[[], str]) -> Iterator[tuple[int, str, list]]:
    """Yield ``(location ref, name, events)`` location by location (one event file open at a
    time: a global reader would open all of them at once)."""
    handle = reader.handle
    buffer: list = []
    callbacks, alive = _event_callbacks(buffer)
    try:
        for ref, _, _ in defs.locations:
            _otf2.Reader_SelectLocation(handle, ref)
        try:
            _otf2.Reader_OpenDefFiles(handle)
            def_files = True
        except _otf2.Error:
            def_files = False  # an archive without local definitions
        _otf2.Reader_OpenEvtFiles(handle)
        for ref, name, announced in defs.locations:
            where = _where(archive, defs, ref, name)
            captured()  # forget what the library said about earlier locations
            buffer.clear()
            if announced == 0:  # a location without events may have no event file
                yield ref, name, buffer
                continue
            try:
                if def_files:
                    def_reader = _otf2.Reader_GetDefReader(handle, ref)
                    if def_reader:  # local definitions: the mapping tables to global refs
                        _otf2.Reader_ReadAllLocalDefinitions(handle, def_reader)
                        _otf2.Reader_CloseDefReader(handle, def_reader)
                evt_reader = _otf2.Reader_GetEvtReader(handle, ref)
                if not evt_reader:
                    raise TraceError(f"{where}: its event file cannot be opened "
                                     f"({_otf2_says(captured(), Exception())})")
                _otf2.Reader_RegisterEvtCallbacks(handle, evt_reader, callbacks, None)
                _otf2.Reader_ReadAllLocalEvents(handle, evt_reader)
                _otf2.Reader_CloseEvtReader(handle, evt_reader)
            except _otf2.Error as exc:
                raise TraceError(f"{where}, event {len(buffer) + 1}: the event file is cut or "
                                 f"damaged ({_otf2_says(captured(), exc)})") from None
            if len(buffer) != announced:
                raise TraceError(f"{where}: the event file holds {len(buffer)} events, the "
                                 f"definitions announce {announced} (cut or damaged)")
            yield ref, name, buffer
        if def_files:
            _otf2.Reader_CloseDefFiles(handle)
        _otf2.Reader_CloseEvtFiles(handle)
    finally:
        _otf2.EvtReaderCallbacks_Delete(callbacks)
        alive.clear()  # the Python callbacks may go only now


def _where(archive: str, defs: _Defs, ref: int, name: str) -> str:
    if ref in defs.ranks:
        return f"{archive}: rank {defs.ranks[ref]}"
    return f"{archive}: location {ref} '{name}' (no MPI rank)"


# ---------------------------------------------------------------------------------------------
# One rank


@dataclass
class _Collective:
    """One collective call of one rank, for the checks across its communicator's members."""
    op: str
    root: int | None  # world rank
    size: int | tuple[int, int]  # b, or alltoallv's (sent, received) totals
    position: int
    fill: int = -1  # alltoallv: index of the line to fill once every member is read


class _Rank:
    """The conversion of one location's events."""

    def __init__(self, where: str, rank: int | None, defs: _Defs, tick_ns: tuple[int, int],
                 fills: list, used_comms: set, collectives: dict):
        self.where, self.rank, self.defs = where, rank, defs
        self.num, self.den = tick_ns  # ns = ticks * num / den
        self.fills, self.used_comms, self.collectives = fills, used_comms, collectives
        self.lines: list[str | None] = []
        self.stack: list[tuple[int, int]] = []  # open regions: (region ref, position)
        self.mpi_depth = 0
        self.last_leave: int | None = None  # time of the last leave of an MPI call
        self.requests: dict[int, tuple[int, bool, int, int]] = {}  # OTF2 id -> (number,
        # is a send, position, line of an irecv)
        self.next_request = 1
        self.sendrecv: list[int] = []  # requests of MPI_Sendrecv, waited at its leave
        self.begun: int | None = None  # position of an MpiCollectiveBegin not yet ended
        self.event = ""
        self.position = 0

    def fail(self, what: str) -> TraceError:
        at = f"event {self.position} ({self.event})" if self.event else \
            f"after its last event ({self.position})"
        return TraceError(f"{self.where}, {at}: {what}")

    def run(self, events: list) -> str:
        handlers = {"Enter": self.enter, "Leave": self.leave, "MpiSend": self.send,
                    "MpiRecv": self.recv, "MpiIsend": self.isend,
                    "MpiIsendComplete": self.isend_complete,
                    "MpiIrecvRequest": self.irecv_request, "MpiIrecv": self.irecv,
                    "MpiCollectiveBegin": self.collective_begin,
                    "MpiCollectiveEnd": self.collective_end}
        for name, time, position, args in events:
            self.event, self.position = name, position
            handler = handlers.get(name)
            if handler is not None:
                if self.rank is None and name != "Enter" and name != "Leave":
                    raise self.fail("an MPI event on a location that is no MPI rank")
                handler(time, *args)
            elif name not in _IGNORED:
                raise self.fail(_refusal(name))
        self.event, self.position = "", len(events)
        if self.stack:
            ref, position = self.stack[-1]
            raise self.fail(f"region '{self.defs.regions.get(ref, ref)}' entered at event "
                            f"{position} is never left")
        if self.requests:
            oid, (number, _, position, _) = min(self.requests.items(), key=lambda x: x[1][2])
            raise self.fail(f"request {oid} started at event {position} is never completed")
        return "".join(f"{self.rank} {line}\n" for line in self.lines)

    # -- regions

    def enter(self, time: int, region: int) -> None:
        name = self.defs.regions.get(region)
        if name is None:
            raise self.fail(f"region {region} is not defined")
        self.stack.append((region, self.position))
        if not name.startswith("MPI_"):
            return
        if self.rank is None:
            raise self.fail(f"{name}: an MPI call on a location that is no MPI rank")
        problem = _unsupported_call(name)
        if problem:
            raise self.fail(f"{name}: {problem}")
        if self.mpi_depth == 0 and self.last_leave is not None:
            ns = ((time - self.last_leave) * self.num * 2 + self.den) // (2 * self.den)
            if ns > 0:
                self.lines.append(f"compute {ns}ns")
        self.mpi_depth += 1

    def leave(self, time: int, region: int) -> None:
        if not self.stack:
            raise self.fail(f"leave of region '{self.defs.regions.get(region, region)}', but "
                            "no region is open")
        top, position = self.stack.pop()
        if top != region:
            raise self.fail(f"leave of region '{self.defs.regions.get(region, region)}', but "
                            f"'{self.defs.regions.get(top, top)}' (entered at event "
                            f"{position}) is open")
        if not self.defs.regions[region].startswith("MPI_"):
            return
        if self.begun is not None:
            raise self.fail(f"MpiCollectiveBegin at event {self.begun} has no "
                            "MpiCollectiveEnd")
        self.mpi_depth -= 1
        if self.mpi_depth == 0:
            self.last_leave = time
        for number in self.sendrecv:
            self.lines.append(f"wait {number}")
        self.sendrecv.clear()

    def mpi_call(self) -> str:
        """The innermost open MPI call's name; fails outside one."""
        for ref, _ in reversed(self.stack):
            if self.defs.regions[ref].startswith("MPI_"):
                return self.defs.regions[ref]
        raise self.fail("an MPI event outside an MPI call (no MPI_* region is open)")

    # -- point to point

    def peer(self, comm: _Comm, peer: int, role: str) -> int:
        if not 0 <= peer < len(comm.members):
            raise self.fail(f"{role} {peer} is no rank of {comm.label()} "
                            f"({len(comm.members)} ranks)")
        return comm.members[peer]

    def communicator(self, ref: int) -> tuple[_Comm, str]:
        """The event's communicator and the suffix of its lines."""
        comm = self.defs.comms.get(ref)
        if comm is None:
            raise self.fail(f"communicator {ref} is not defined")
        if comm.members is None:
            raise self.fail(f"{comm.label()} is {comm.problem}")
        if self.rank not in comm.index:
            raise self.fail(f"rank {self.rank} is no member of {comm.label()}")
        if ref == self.defs.world:
            return comm, ""
        self.used_comms.add(ref)
        return comm, f"\0C{ref}\0"

    def tag(self, tag: int) -> int:
        if not 0 <= tag <= INT32_MAX:
            raise self.fail(f"tag {tag}; allowed 0..{INT32_MAX}")
        return tag

    def number(self) -> int:
        """The next request number of this rank."""
        number = self.next_request
        if number > INT32_MAX:
            raise self.fail(f"more than {INT32_MAX} requests")
        self.next_request += 1
        return number

    def new_request(self, oid: int, is_send: bool, line: int) -> int:
        if oid in self.requests:
            raise self.fail(f"request {oid} is still outstanding (started at event "
                            f"{self.requests[oid][2]})")
        number = self.number()
        self.requests[oid] = (number, is_send, self.position, line)
        return number

    def send(self, time: int, receiver: int, comm_ref: int, tag: int, size: int) -> None:
        call = self.mpi_call()
        comm, suffix = self.communicator(comm_ref)
        dest, tag = self.peer(comm, receiver, "receiver"), self.tag(tag)
        if call.startswith("MPI_Sendrecv"):  # isend + irecv + 2 waits: no deadlock
            number = self.number()
            self.sendrecv.append(number)
            self.lines.append(f"isend {dest} {tag} {size} {number}{suffix}")
        else:
            self.lines.append(f"send {dest} {tag} {size}{suffix}")

    def recv(self, time: int, sender: int, comm_ref: int, tag: int, size: int) -> None:
        call = self.mpi_call()
        comm, suffix = self.communicator(comm_ref)
        source, tag = self.peer(comm, sender, "sender"), self.tag(tag)
        if call.startswith("MPI_Sendrecv"):
            number = self.number()
            self.sendrecv.append(number)
            self.lines.append(f"irecv {source} {tag} {size} {number}{suffix}")
        else:
            self.lines.append(f"recv {source} {tag} {size}{suffix}")

    def isend(self, time: int, receiver: int, comm_ref: int, tag: int, size: int,
              oid: int) -> None:
        self.mpi_call()
        comm, suffix = self.communicator(comm_ref)
        dest, tag = self.peer(comm, receiver, "receiver"), self.tag(tag)
        number = self.new_request(oid, True, -1)
        self.lines.append(f"isend {dest} {tag} {size} {number}{suffix}")

    def irecv_request(self, time: int, oid: int) -> None:
        self.mpi_call()
        self.new_request(oid, False, len(self.lines))
        self.lines.append(None)  # filled in by the completion, which knows source and size

    def complete(self, oid: int, is_send: bool) -> tuple[int, int]:
        self.mpi_call()
        if oid not in self.requests:
            raise self.fail(f"request {oid} completes but was never started (or completed "
                            "already)")
        number, was_send, _, line = self.requests.pop(oid)
        if was_send != is_send:
            raise self.fail(f"request {oid} is {'an isend' if was_send else 'an irecv'}, "
                            f"completed as {'a send' if is_send else 'a receive'}")
        self.lines.append(f"wait {number}")
        return number, line

    def isend_complete(self, time: int, oid: int) -> None:
        self.complete(oid, True)

    def irecv(self, time: int, sender: int, comm_ref: int, tag: int, size: int,
              oid: int) -> None:
        number, line = self.complete(oid, False)
        comm, suffix = self.communicator(comm_ref)
        source, tag = self.peer(comm, sender, "sender"), self.tag(tag)
        self.lines[line] = f"irecv {source} {tag} {size} {number}{suffix}"

    # -- collectives

    def collective_begin(self, time: int) -> None:
        self.mpi_call()
        if self.begun is not None:
            raise self.fail(f"MpiCollectiveBegin at event {self.begun} has no "
                            "MpiCollectiveEnd")
        self.begun = self.position

    def collective_end(self, time: int, op, comm_ref: int, root: int, sent: int,
                       received: int) -> None:
        self.mpi_call()
        if self.begun is None:
            raise self.fail("no MpiCollectiveBegin before it")
        self.begun = None
        name = _op_name(op)
        if name in _NO_DATA:
            return
        if name not in _COLLECTIVES:
            raise self.fail(f"collective {name} is not supported; allowed "
                            f"{', '.join(_COLLECTIVES)} (and CREATE_HANDLE/DESTROY_HANDLE, "
                            "which write no line)")
        text, rooted = _COLLECTIVES[name]
        comm, suffix = self.communicator(comm_ref)
        n = len(comm.members)
        root_world = None
        if rooted:
            if root == UNDEFINED_U32:
                raise self.fail(f"{name} without a root")
            root_world = self.peer(comm, root, "root")
        # Score-P's sizes (b: per rank, N: the communicator's size; see the module's doc)
        size: int | tuple[int, int]
        if name in ("ALLREDUCE", "ALLGATHER", "ALLTOALL") or (
                name == "BCAST" and root_world == self.rank):  # sent N x b
            if sent % n:
                raise self.fail(f"{name}: sizeSent {sent} is not a multiple of the "
                                f"communicator's {n} ranks (Score-P records N x b)")
            size = sent // n
        elif name in ("BCAST", "SCATTER"):  # each receives b
            size = received
        elif name in ("REDUCE", "GATHER"):  # each sends b
            size = sent
        elif name == "ALLTOALLV":  # the totals; each member's row is made once all are read
            size = (sent, received)
        else:
            size = 0
        record = _Collective(name, root_world, size, self.position)
        if name == "BARRIER":
            line = "barrier"
        elif name == "ALLTOALLV":
            record.fill = len(self.fills)
            self.fills.append("")
            line = f"alltoallv \0A{record.fill}\0"
        elif rooted:
            line = f"{text} {root_world} {size}"
        else:
            line = f"{text} {size}"
        self.collectives.setdefault(comm_ref, {}).setdefault(self.rank, []).append(record)
        self.lines.append(line + suffix)


def _refusal(event: str) -> str:
    kinds = (("Rma", "one-sided communication (RMA)"), ("Io", "I/O"),
             ("Omp", "OpenMP"), ("Thread", "threads"),
             ("NonBlockingCollective", "a non-blocking collective"),
             ("MpiProbe", "a probe"), ("MpiMrecv", "a matched receive"),
             ("MpiImrecv", "a matched receive"), ("MpiRequestCancelled", "a cancelled request"),
             ("Unknown", "an event record this OTF2 version does not know"))
    for prefix, kind in kinds:
        if event.startswith(prefix):
            return (f"{kind} is not supported; allowed: point-to-point, wait/test and the "
                    "blocking collectives")
    return "this event is not supported"


def _unsupported_call(name: str) -> str:
    """Why the MPI call ``name`` cannot be replayed, or ""."""
    if name in ("MPI_Probe", "MPI_Iprobe", "MPI_Mprobe", "MPI_Improbe"):
        return "probes are not supported"
    if name in _RMA_CALLS or name.startswith("MPI_Win_"):
        return "one-sided communication (RMA) is not supported"
    if name.startswith("MPI_File_"):
        return "MPI I/O is not supported"
    if _NONBLOCKING_COLLECTIVE.match(name):
        return "non-blocking collectives are not supported"
    return ""


# ---------------------------------------------------------------------------------------------
# Across ranks


def _check_collectives(archive: str, defs: _Defs, collectives: dict, fills: list) -> None:
    """Match each communicator's collectives call by call across its members; check that they
    agree; fill in alltoallv's per-destination sizes."""
    for ref in sorted(collectives):
        comm = defs.comms[ref]
        calls = collectives[ref]
        longest = max(len(v) for v in calls.values())
        for k in range(longest):
            first_rank = next(r for r in comm.members if len(calls.get(r, ())) > k)
            first = calls[first_rank][k]
            what = f"collective #{k + 1} on {comm.label()}"
            for rank in comm.members:
                mine = calls.get(rank, [])
                if len(mine) <= k:
                    raise TraceError(f"{archive}: rank {rank}: has no {what}, which rank "
                                     f"{first_rank} makes at event {first.position} "
                                     f"({first.op})")
                call = mine[k]
                where = f"{archive}: rank {rank}, event {call.position} (MpiCollectiveEnd)"
                if call.op != first.op:
                    raise TraceError(f"{where}: {what} is {call.op}, but {first.op} on rank "
                                     f"{first_rank} (event {first.position})")
                if call.root != first.root:
                    raise TraceError(f"{where}: {what} ({call.op}) has root {call.root}, but "
                                     f"root {first.root} on rank {first_rank} (event "
                                     f"{first.position})")
                if call.op != "ALLTOALLV" and call.size != first.size:
                    raise TraceError(f"{where}: {what} ({call.op}) moves {call.size} bytes "
                                     f"per rank, but {first.size} on rank {first_rank} (event "
                                     f"{first.position})")
            if first.op == "ALLTOALLV":
                totals = [calls[r][k].size for r in comm.members]
                for i, r in enumerate(comm.members):
                    fills[calls[r][k].fill] = ",".join(map(str, _alltoallv_row(totals, i)))


def _alltoallv_row(totals: Sequence[tuple[int, int]], i: int) -> list[int]:
    """Bytes member ``i`` sends to each member, from every member's (sent, received) totals:
    round(sent_i · recv_j / Σ_{k≠i} recv_k) for j ≠ i (half up), 0 to itself: member i's
    total is spread over the others in proportion to what each receives (a row sums to
    sent_i, up to the rounding)."""
    sent = totals[i][0]
    whole = sum(received for k, (_, received) in enumerate(totals) if k != i)
    if whole == 0:
        return [0] * len(totals)
    return [0 if j == i else (2 * sent * received + whole) // (2 * whole)
            for j, (_, received) in enumerate(totals)]


# ---------------------------------------------------------------------------------------------
# The conversion


def convert(archive: str | os.PathLike, compute_scale: float = 1.0) -> tuple[str, int]:
    """Convert the OTF2 archive whose anchor file is ``archive`` to the simulator's text MPI
    trace; return ``(text, number of ranks)``. Computation times are multiplied by
    ``compute_scale`` (>= 0). Raises :class:`TraceError` on a trace it cannot convert."""
    path = os.fspath(archive)
    archive = path if path.isprintable() else repr(path)  # as the messages show it: one line
    if isinstance(compute_scale, bool) or not isinstance(compute_scale, (int, float)) or \
            not math.isfinite(compute_scale) or compute_scale < 0:
        raise ValueError(f"compute_scale: {compute_scale!r}; allowed a finite number >= 0")
    if os.path.isdir(path):
        raise TraceError(f"{archive}: a folder; give the archive's anchor file (e.g. "
                         f"{os.path.join(archive, 'traces.otf2')})")
    if not os.path.isfile(path):
        raise TraceError(f"{archive}: no such file")
    with _stderr_captured() as captured:
        try:
            reader = otf2.reader.Reader(path)
        except Exception as exc:  # noqa: BLE001 - the library raises several kinds
            raise TraceError(f"{archive}: not a readable OTF2 archive "
                             f"({_otf2_says(captured(), exc)})") from None
        try:
            return _convert(reader, archive, compute_scale, captured)
        finally:
            reader.close()


def _convert(reader, archive: str, compute_scale: float,
             captured: Callable[[], str]) -> tuple[str, int]:
    defs = _definitions(reader, archive)
    scale = Fraction(compute_scale) * Fraction(NS_PER_S, defs.resolution)
    tick_ns = (scale.numerator, scale.denominator)
    fills: list[str] = []
    used_comms: set[int] = set()
    collectives: dict = {}
    texts: dict[int, str] = {}
    with contextlib.closing(_read_locations(reader, defs, archive, captured)) as locations:
        for ref, name, events in locations:
            rank = defs.ranks.get(ref)
            where = _where(archive, defs, ref, name)
            text = _Rank(where, rank, defs, tick_ns, fills, used_comms, collectives).run(events)
            if rank is not None:
                texts[rank] = text
    _check_collectives(archive, defs, collectives, fills)
    order = [ref for ref in defs.comms if ref in used_comms]  # definition order
    ids = {ref: i for i, ref in enumerate(order, 1)}
    nranks = len(defs.ranks)
    head = [f"# MPI trace of {nranks} ranks converted from the OTF2 archive {archive}"
            + (f" (computation x {compute_scale:g})" if compute_scale != 1 else "") + "\n"]
    head += [f"comm {ids[ref]} {' '.join(map(str, defs.comms[ref].members))}\n"
             for ref in order]
    body = "".join(texts.get(r, "") for r in range(nranks))
    if "\0" in body:
        def repl(m: re.Match) -> str:
            return f" comm={ids[int(m[2])]}" if m[1] == "C" else fills[int(m[2])]
        body = re.sub(r"\0([CA])(\d+)\0", repl, body)
    return "".join(head) + body, nranks


# ---------------------------------------------------------------------------------------------
# Writing archives


_REGION_OF = {"CREATE_HANDLE": "MPI_Comm_dup", "DESTROY_HANDLE": "MPI_Comm_free",
              "REDUCE_SCATTER": "MPI_Reduce_scatter",
              "REDUCE_SCATTER_BLOCK": "MPI_Reduce_scatter_block"}
_ROOTED = {"BCAST", "REDUCE", "GATHER", "GATHERV", "SCATTER", "SCATTERV"}


class TraceWriter:
    """Write a Score-P-like OTF2 archive of an MPI program, rank by rank, call by call.

    ``TraceWriter(path, ranks)`` makes the archive in the folder ``path`` (its anchor file is
    :attr:`anchor`, ``path/traces.otf2``). Its definitions are Score-P's: a location per rank
    (a ``Master thread`` in an ``MPI Rank <r>`` process), a ``COMM_LOCATIONS`` group of the MPI
    paradigm listing them in rank order, ``MPI_COMM_WORLD`` (a ``COMM_GROUP`` of every rank),
    ``MPI_COMM_SELF`` (a ``COMM_SELF`` group) and a region per MPI function.

    Each rank has its own clock in nanoseconds, starting at 0 with the enter of ``main`` and
    (``mpi_init=True``) an ``MPI_Init`` call; :meth:`compute` advances it, each MPI call takes
    ``call_ns``. Times are written in ticks of ``timer_resolution`` per second (rounded down).
    :meth:`close` ends each rank with ``MPI_Finalize`` (``mpi_init=True``) and the leave of
    ``main``, and writes the archive; a ``with`` block closes it too. With ``mpi_init=False``
    a test writes ``w.call(rank, "MPI_Init")`` and ``"MPI_Finalize"`` itself, where it likes.

    ``rank`` is always a world rank; peers and roots are ranks within ``comm`` (default
    ``MPI_COMM_WORLD``), as in MPI. Sizes are bytes. Collectives record Score-P's sizeSent and
    sizeReceived for a per-rank size (see :mod:`clusternet.otf2trace`). Nothing is checked
    for consistency: the writer also makes bad traces, for tests.
    """

    def __init__(self, path: str | os.PathLike, ranks: int, timer_resolution: int = NS_PER_S,
                 call_ns: int = 1000, mpi_init: bool = True):
        if isinstance(ranks, bool) or not isinstance(ranks, int) or ranks < 1:
            raise ValueError(f"ranks: {ranks!r}; allowed a whole number >= 1")
        if isinstance(timer_resolution, bool) or not isinstance(timer_resolution, int) or \
                timer_resolution < 1:
            raise ValueError(f"timer_resolution: {timer_resolution!r}; allowed a whole number "
                             ">= 1 [ticks per second]")
        self.path = os.fspath(path)
        self.anchor = os.path.join(self.path, "traces.otf2")
        if os.path.exists(self.anchor):
            raise FileExistsError(f"{self.anchor}: an archive exists already")
        self.ranks, self.resolution, self.call_ns = ranks, timer_resolution, call_ns
        self.mpi_init = mpi_init
        self._writer = otf2.writer.Writer(self.path, timer_resolution=timer_resolution)
        d = self._writer.definitions
        node = d.system_tree_node("machine", class_name="machine")
        self._locations = [d.location("Master thread", group=d.location_group(
            f"MPI Rank {r}", system_tree_parent=node)) for r in range(ranks)]
        d.group("", group_type=GroupType.COMM_LOCATIONS, paradigm=Paradigm.MPI,
                members=self._locations)
        self.world = d.comm("MPI_COMM_WORLD", group=d.group(
            "", group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI, members=range(ranks)))
        self.comm_self = d.comm("MPI_COMM_SELF", group=d.group(
            "", group_type=GroupType.COMM_SELF, paradigm=Paradigm.MPI, members=()))
        self._events = [self._writer.event_writer_from_location(loc) for loc in self._locations]
        self._now = [0] * ranks
        self._requests: list[dict[int, tuple]] = [{} for _ in range(ranks)]
        self._regions: dict[str, object] = {}
        for r in range(ranks):
            self._events[r].enter(0, self._region("main"))
            if mpi_init:
                self.call(r, "MPI_Init")

    def __enter__(self) -> "TraceWriter":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def definitions(self):
        """The archive's :class:`otf2.registry.DefinitionRegistry`, for definitions of one's
        own."""
        return self._writer.definitions

    def _region(self, name: str):
        region = self._regions.get(name)
        if region is None:
            mpi = name.startswith("MPI_")
            region = self._regions[name] = self._writer.definitions.region(
                name, paradigm=Paradigm.MPI if mpi else Paradigm.USER,
                region_role=RegionRole.FUNCTION)
        return region

    def _comm(self, comm):
        return self.world if comm is None else comm

    def _tick(self, ns: int) -> int:
        return ns * self.resolution // NS_PER_S

    def comm(self, world_ranks: Sequence[int]):
        """Define a communicator of ``world_ranks`` (in comm-rank order), a child of
        ``MPI_COMM_WORLD``; return it for ``comm=``."""
        d = self._writer.definitions
        group = d.group("", group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI,
                        members=list(world_ranks))
        return d.comm(f"comm {len(list(d.comms))}", group=group, parent=self.world)

    def compute(self, rank: int, ns: int) -> None:
        """``ns`` nanoseconds of computation on ``rank``."""
        self._now[rank] += ns

    def call(self, rank: int, region: str,
             emit: Callable[[object, int], None] | None = None, ns: int | None = None) -> None:
        """A call of ``region`` on ``rank`` lasting ``ns`` (default ``call_ns``):
        ``emit(event_writer, tick)`` writes the events inside it (the tick is the enter's;
        the leave is ``ns`` later)."""
        events, start = self._events[rank], self._now[rank]
        self._now[rank] += self.call_ns if ns is None else ns
        events.enter(self._tick(start), self._region(region))
        if emit is not None:
            emit(events, self._tick(start))
        events.leave(self._tick(self._now[rank]), self._region(region))

    def send(self, rank: int, dest: int, tag: int, size: int, comm=None) -> None:
        self.call(rank, "MPI_Send", lambda ew, t: ew.mpi_send(
            t, dest, self._comm(comm), tag, size))

    def recv(self, rank: int, source: int, tag: int, size: int, comm=None) -> None:
        """A blocking receive; ``source`` and ``tag`` are the matched message's (Score-P
        records those, also for a wildcard receive)."""
        self.call(rank, "MPI_Recv", lambda ew, t: ew.mpi_recv(
            t, source, self._comm(comm), tag, size))

    def sendrecv(self, rank: int, dest: int, send_tag: int, send_size: int, source: int,
                 recv_tag: int, recv_size: int, comm=None) -> None:
        comm = self._comm(comm)

        def emit(ew, t):
            ew.mpi_send(t, dest, comm, send_tag, send_size)
            ew.mpi_recv(t, source, comm, recv_tag, recv_size)
        self.call(rank, "MPI_Sendrecv", emit)

    def _new_request(self, rank: int, what: tuple) -> int:
        """A request id: the smallest free one from 1000 on (MPI reuses its handles so)."""
        rid = 1000
        while rid in self._requests[rank]:
            rid += 1
        self._requests[rank][rid] = what
        return rid

    def isend(self, rank: int, dest: int, tag: int, size: int, comm=None) -> int:
        """Start a non-blocking send; return its request id."""
        rid = self._new_request(rank, ("send",))
        self.call(rank, "MPI_Isend", lambda ew, t: ew.mpi_isend(
            t, dest, self._comm(comm), tag, size, rid))
        return rid

    def irecv(self, rank: int, source: int, tag: int, size: int, comm=None) -> int:
        """Start a non-blocking receive; return its request id. ``source`` and ``tag`` are
        the matched message's, written with its completion (as Score-P does: the posted
        receive records only the request)."""
        rid = self._new_request(rank, ("recv", source, self._comm(comm), tag, size))
        self.call(rank, "MPI_Irecv", lambda ew, t: ew.mpi_irecv_request(t, rid))
        return rid

    def _complete(self, ew, t: int, rank: int, request: int) -> None:
        what = self._requests[rank].pop(request, ("send",))  # unknown: a bad trace, for tests
        if what[0] == "send":
            ew.mpi_isend_complete(t, request)
        else:
            ew.mpi_irecv(t, what[1], what[2], what[3], what[4], request)

    def wait(self, rank: int, request: int) -> None:
        self.call(rank, "MPI_Wait", lambda ew, t: self._complete(ew, t, rank, request))

    def waitall(self, rank: int, requests: Sequence[int]) -> None:
        """Complete ``requests`` in one ``MPI_Waitall``, in this order."""
        def emit(ew, t):
            for request in requests:
                self._complete(ew, t, rank, request)
        self.call(rank, "MPI_Waitall", emit)

    def collective(self, rank: int, op: str, size: int = 0, root: int | None = None,
                   comm=None, alltoallv_sent: int | Sequence[int] = 0,
                   alltoallv_recv: int | Sequence[int] = 0) -> None:
        """A blocking collective ``op`` (an :class:`otf2.CollectiveOp` name, any case: bcast,
        allreduce, ...) moving ``size`` bytes per rank, root ``root`` (a rank within
        ``comm``, for bcast, reduce, gather, scatter); alltoallv takes what this rank sends
        and receives in all (a total, or one size per member)."""
        name = op.upper()
        coll_op = getattr(CollectiveOp, name, None)
        if not isinstance(coll_op, CollectiveOp):
            raise ValueError(f"op: {op!r} is no OTF2 collective operation")
        comm = self._comm(comm)
        n = len(comm.group.members)
        if name in _ROOTED and root is None:
            raise ValueError(f"{op} needs a root")
        is_root = name in _ROOTED and 0 <= root < n and \
            comm.group.members[root] == self._locations[rank]
        if name == "BARRIER":
            sent, received = 0, 0
        elif name == "BCAST":
            sent, received = (n * size if is_root else 0), size
        elif name in ("REDUCE", "GATHER"):
            sent, received = size, (n * size if is_root else 0)
        elif name == "SCATTER":
            sent, received = (n * size if is_root else 0), size
        elif name in ("ALLREDUCE", "ALLGATHER", "ALLTOALL"):
            sent, received = n * size, n * size
        elif name == "ALLTOALLV":
            sent, received = (v if isinstance(v, int) else sum(v)
                              for v in (alltoallv_sent, alltoallv_recv))
        else:
            sent, received = size, size
        root_ref = UNDEFINED_U32 if root is None else root
        region = _REGION_OF.get(name, "MPI_" + name.capitalize())

        def emit(ew, t):
            ew.mpi_collective_begin(t)
            ew.mpi_collective_end(self._tick(self._now[rank]), coll_op, comm, root_ref, sent,
                                  received)
        self.call(rank, region, emit)

    def close(self) -> None:
        """End every rank (``MPI_Finalize``, leave ``main``) and write the archive."""
        if self._writer is None:
            return
        for r in range(self.ranks):
            if self.mpi_init:
                self.call(r, "MPI_Finalize")
            self._events[r].leave(self._tick(self._now[r]), self._region("main"))
        self._writer.close()
        self._writer = None


# ---------------------------------------------------------------------------------------------
# Command line


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:
        print(f"{PROG}: {message} (see --help)", file=sys.stderr)
        sys.exit(2)


def _scale(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text}: allowed a finite number >= 0")
    return value


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog=f"python -m clusternet.{PROG}",
                description="Convert an OTF2 trace of an MPI program (as Score-P records "
                "it) to clusternet's text MPI trace: per world rank its point-to-point "
                "operations, waits, blocking collectives and the computation between MPI "
                "calls.")
    p.add_argument("archive", metavar="ARCHIVE",
                   help="the archive's anchor file [path], e.g. scorep-run/traces.otf2")
    p.add_argument("--out", default=None, metavar="FILE",
                   help="write the text trace here [path] (default: standard output); "
                        "written only if the conversion succeeds")
    p.add_argument("--compute-scale", type=_scale, default=1.0, metavar="F",
                   help="multiply every computation time by F [factor >= 0], e.g. 0.5 for a "
                        "CPU twice as fast as the traced one (default %(default)s)")
    return p


def _write_atomic(path: str, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file beside it, renamed when whole."""
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)),
                               prefix=".otf2trace-")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        text, ranks = convert(args.archive, args.compute_scale)
    except TraceError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    if args.out is None:
        sys.stdout.write(text)
        return 0
    try:
        _write_atomic(args.out, text)
    except OSError as exc:
        print(f"{PROG}: --out: {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"{PROG}: {ranks} ranks, {text.count(chr(10))} lines -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
