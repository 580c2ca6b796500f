"""Cross-core GM hazards of a multi-core launch (msSanitizer's "multi-core stomping"): two cores
writing the same GM bytes, or one core reading GM bytes another core writes (accumulating under
GM atomics, set_atomic, is not a race with another core's accumulation). Between two SyncAlls
cores are not ordered, so either is a race: the result would depend on the order the hardware
happens to run the cores in, while pipev runs them in block order. A SyncAll orders everything
before it before everything after it (`barrier`).

One observer serves every core of the launch (cores run one after another). Per GM tensor it
keeps, per byte, the last core that wrote it and the last two cores that read it (`core + 1`, 0
for none: two bytes of bookkeeping per GM byte each), so every conflict is found (naming one of
the cores it is with); a conflict is reported at the later core's
statement, naming the earlier core's statement and the first byte.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import numpy as np

from isa.decode import DmaOp, ScalarAccess
from isa.diagnostics import Diagnostic
from isa.nddma import NdDmaOp
from simulator.events import Event, Observer, RunInfo
from simulator.plans import ObserverPlan, Planned
from simulator.summary import listed

RULE = "cross-core GM race"
MARK = " (multi-core stomping: cores are not ordered)"  # ends every message of this check


class CrossCoreRaces(Observer):
    plans_runs = True  # (its plan counts a run's instructions by `Booked.executions`)

    def __init__(self, sizes: dict[str, int] | None = None):
        self.sizes = dict(sizes or {})  # GM tensors' bytes, when known (else grown on demand)
        self.writer: dict[str, np.ndarray] = {}
        # the last core that accumulated into each byte under set_atomic: atomic writes of
        # different cores commute (GM atomics, issue #27), so they race only with plain
        # writes and with reads
        self.atomic_writer: dict[str, np.ndarray] = {}
        self.reader: dict[str, np.ndarray] = {}  # the last core that read each byte
        self.earlier_reader: dict[str, np.ndarray] = {}  # the one before, of another core
        # (core, tensor, write) -> the accesses, to name the earlier core's statement
        self.log: dict[tuple[int, str, bool], list[tuple[DmaOp, str, object]]] = {}
        self.run: RunInfo | None = None
        # the messages this check made -> the race they describe, (KIND, core, other core,
        # first byte): a launch merges one KIND's warnings from many core pairs (`merged`)
        self.reported: dict[str, tuple[tuple, int, int, int]] = {}

    def on_start(self, run: RunInfo) -> None:
        self.run = run

    def barrier(self) -> None:
        """Every core of the launch passed a SyncAll: what they touched before it is ordered
        before what any of them touches after it, so no later access races with an earlier
        one (a new epoch: the owners start empty)."""
        for table in (self.writer, self.atomic_writer, self.reader, self.earlier_reader,
                      self.log):
            table.clear()

    def on_event(self, ev: Event) -> None:
        op = ev.op
        cls = op.__class__
        if cls is DmaOp or cls is NdDmaOp:
            for role in ("src", "dst"):
                space = op.space_of(role)
                if space is not None:
                    self._access(ev, op, space, role)
        elif cls is ScalarAccess and op.gm is not None:  # the scalar unit's ld/st of GM
            self._access(ev, ScalarSpan(op.addr, op.size), op.gm, "dst" if op.write else "src")

    def plan(self, planned: Planned) -> ObserverPlan | None:
        """DMA and the scalar unit's GM loads and stores move GM, and the fast loop plans no
        DMA: a planned execution of anything else leaves this check as its event would
        (untouched), so a launch keeps the fast path on every core."""
        op = planned.op
        if op.__class__ in (DmaOp, NdDmaOp) or (op.__class__ is ScalarAccess and op.gm is not None):
            return None
        return ObserverPlan(None, None)

    def _owners(self, table: dict[str, np.ndarray], tensor: str, size: int) -> np.ndarray:
        """TABLE's owners of TENSOR's bytes, at least SIZE of them (grown as accesses reach
        further when the tensor's size is not known: a front end declares GM as it goes)."""
        arr = table.get(tensor)
        if arr is None or arr.size < size:
            size = max(size, self.sizes.get(tensor, 0), 2 * arr.size if arr is not None else 0)
            grown = np.zeros(size, np.uint16)
            if arr is not None:
                grown[:arr.size] = arr
            arr = table[tensor] = grown
        return arr

    def _access(self, ev: Event, op: DmaOp | ScalarSpan, tensor: str, role: str) -> None:
        core, write = ev.core, role == "dst"
        me = core + 1
        runs = op.runs(role)
        if len(runs) == 1:
            where = slice(runs[0][0], runs[0][0] + runs[0][1])
        else:
            where = op.indices(role, *op.touched(role))
        self.log.setdefault((core, tensor, write), []).append((op, role, ev.instr))
        size = op.extent(role)[1] + 1
        writers = self._owners(self.writer, tensor, size)
        readers = self._owners(self.reader, tensor, size)
        earlier = self._owners(self.earlier_reader, tensor, size)
        atomics = self._owners(self.atomic_writer, tensor, size)
        atomic = write and bool(op.atomic)
        self._conflict(ev, tensor, where, writers[where], write, True)
        if not atomic:
            self._conflict(ev, tensor, where, atomics[where], write, True)
        if write:
            last, before = readers[where], earlier[where]
            self._conflict(ev, tensor, where, np.where((last != 0) & (last != me), last,
                                                       before), True, False)
            (atomics if atomic else writers)[where] = me
        else:  # many cores may read a byte: keep the last two that did
            last = readers[where]
            earlier[where] = np.where(last != me, last, earlier[where])
            readers[where] = me

    def _conflict(self, ev: Event, tensor: str, where, seen: np.ndarray, write: bool,
                  other_writes: bool) -> None:
        hit = np.flatnonzero((seen != 0) & (seen != ev.core + 1))
        if not hit.size:
            return
        k = int(hit[0])
        byte = (where.start + k) if isinstance(where, slice) else int(where[k])
        other = int(seen[k]) - 1
        line = self._statement(other, tensor, other_writes, byte)
        mine = "writes" if write else "reads"
        theirs = "writes" if other_writes else "reads"
        also = " also" if mine == theirs else ""
        consequence = ("the result depends on which core writes last" if write and other_writes
                       else "what is read depends on which core runs first")
        message = (f"core {ev.core} {mine} GM {tensor} bytes that core {other}{also} {theirs} "
                   f"({line}), first byte {byte:#x}: {consequence}{MARK}")
        self.reported[message] = ((mine, tensor, also, theirs, line, consequence), ev.core,
                                  other, byte)
        if self.run is not None:
            self.run.warn(ev, message, role="dst" if write else "src", once=RULE)

    def _statement(self, core: int, tensor: str, write: bool, byte: int) -> str:
        """`line L` (or FILE:L) of core CORE's access that touched BYTE of TENSOR."""
        for op, role, instr in self.log.get((core, tensor, write), ()):
            if any(a <= byte < a + n for a, n in op.runs(role)):
                return f"{instr.file}:{instr.line}" if instr.file else f"line {instr.line}"
        return "an earlier statement"  # pragma: no cover - every owner byte has its access

    def race_of(self, message: str) -> tuple[tuple, int, int, int] | None:
        """The race a diagnostic's MESSAGE reports (the run may have added a suffix, such as
        the registers' values), or None for another check's message."""
        end = message.find(MARK)
        return None if end < 0 else self.reported.get(message[:end + len(MARK)])

    def merged(self, diagnostics: Sequence[Diagnostic]) -> list[Diagnostic]:
        """DIAGNOSTICS with this check's warnings merged: the same statement racing the same
        way with the same other statement, from many core pairs, is one warning listing the
        cores (every core storing one result gives a pair per core). Linear in the count."""
        groups: dict[tuple, list[tuple[int, int, int]]] = {}
        first: dict[tuple, int] = {}
        out: list[Diagnostic | None] = []
        for d in diagnostics:
            race = self.race_of(d.message)
            if race is None:
                out.append(d)
                continue
            key = (d.severity, d.path, d.line, d.column, race[0])
            if key not in groups:
                groups[key], first[key] = [], len(out)
                out.append(d)
            groups[key].append(race[1:])
        for key, pairs in groups.items():
            if len(pairs) > 1:
                d = out[first[key]]
                suffix = d.message[d.message.find(MARK) + len(MARK):]
                out[first[key]] = attrs.evolve(d, message=_merged(key[4], pairs) + suffix)
        return out


@attrs.frozen
class ScalarSpan:
    """A scalar GM access (an `ld`/`st`, a C++ GlobalTensor GetValue/SetValue) as the few
    parts of a DmaOp this check reads: SIZE bytes at byte ADDR of the tensor, no atomics."""

    addr: int
    size: int
    atomic = None

    def runs(self, role: str) -> list[tuple[int, int]]:
        return [(self.addr, self.size)]

    def extent(self, role: str) -> tuple[int, int]:
        return self.addr, self.addr + self.size - 1


def _merged(kind: tuple, pairs: list[tuple[int, int, int]]) -> str:
    """One warning for PAIRS (core, other core, first byte) of the same race KIND."""
    mine, tensor, also, theirs, line, consequence = kind
    cores = [c for c, _, _ in pairs]
    core, other, byte = pairs[0]
    return (f"{len(cores)} cores ({listed(cores)}) {mine[:-1]} GM {tensor} bytes that another core"
            f"{also} {theirs} ({line}); core {core} with core {other} from byte {byte:#x}: "
            f"{consequence}{MARK}")
