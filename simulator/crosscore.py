"""Cross-core GM hazards of a multi-core launch (msSanitizer's "multi-core stomping"): two cores
writing the same GM bytes, or one core reading GM bytes another core writes. Cores are never
ordered (inter-core synchronisation is out of scope), so either is a race: the result would
depend on the order the hardware happens to run the cores in, while pipev runs them in block
order.

One observer serves every core of the launch (cores run one after another). Per GM tensor it
keeps, per byte, the last core that wrote it and the last that read it (`core + 1`, 0 for none:
two bytes of bookkeeping per GM byte and direction); a conflict is reported at the later core's
statement, naming the earlier core's statement and the first byte.
"""

from __future__ import annotations

import numpy as np

from isa.decode import DmaOp
from simulator.events import Event, Observer, RunInfo

RULE = "cross-core GM race"


class CrossCoreRaces(Observer):
    def __init__(self, gm_sizes: dict[str, int]):
        self.sizes = gm_sizes
        self.writer: dict[str, np.ndarray] = {}
        self.reader: dict[str, np.ndarray] = {}
        # (core, tensor, write) -> the accesses, to name the earlier core's statement
        self.log: dict[tuple[int, str, bool], list[tuple[DmaOp, int, int, object]]] = {}
        self.run: RunInfo | None = None
        self.reported: set[str] = set()  # the messages this check made (the launch words them)

    def on_start(self, run: RunInfo) -> None:
        self.run = run

    def on_event(self, ev: Event) -> None:
        op = ev.op
        if op.__class__ is not DmaOp:
            return
        if op.src_space is not None:
            self._access(ev, op, op.src_space, op.src, op.src_gap, False)
        if op.dst_space is not None:
            self._access(ev, op, op.dst_space, op.dst, op.dst_gap, True)

    def _owners(self, table: dict[str, np.ndarray], tensor: str) -> np.ndarray:
        arr = table.get(tensor)
        if arr is None:
            arr = table[tensor] = np.zeros(self.sizes[tensor], np.uint16)
        return arr

    def _access(self, ev: Event, op: DmaOp, tensor: str, base: int, gap: int,
                write: bool) -> None:
        core = ev.core
        me = core + 1
        where = slice(base, base + op.nburst * op.burst * 32) if gap == 0 or op.nburst == 1 \
            else op.indices(base, gap)
        self.log.setdefault((core, tensor, write), []).append((op, base, gap, ev.instr))
        writers = self._owners(self.writer, tensor)
        self._conflict(ev, tensor, where, writers, write, True)
        if write:
            self._conflict(ev, tensor, where, self._owners(self.reader, tensor), True, False)
            writers[where] = me
        else:
            self._owners(self.reader, tensor)[where] = me

    def _conflict(self, ev: Event, tensor: str, where, owners: np.ndarray, write: bool,
                  other_writes: bool) -> None:
        seen = owners[where]
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
                   f"({line}), first byte {byte:#x}: {consequence} (multi-core stomping: "
                   "cores are not ordered)")
        self.reported.add(message)
        if self.run is not None:
            self.run.warn(ev, message, role="dst" if write else "src", once=RULE)

    def _statement(self, core: int, tensor: str, write: bool, byte: int) -> str:
        """`line L` (or FILE:L) of core CORE's access that touched BYTE of TENSOR."""
        for op, base, gap, instr in self.log.get((core, tensor, write), ()):
            lo, hi = op.extent(base, gap)
            if lo <= byte <= hi and ((byte - base) // 32) % (op.burst + gap) < op.burst:
                return f"{instr.file}:{instr.line}" if instr.file else f"line {instr.line}"
        return "an earlier statement"  # pragma: no cover - every owner byte has its access
