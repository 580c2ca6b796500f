"""The undo log: one record per micro-op holding the bytes it wrote (before and after) and the
registers around it, so the debugger can move backward and forward without re-executing.

Memory grows with what the program wrote, never with UB size: a record keeps only the exact byte
runs its micro-op wrote (found from the decoded operation just before the write, through the
observer contract's `before_write` hook) plus a register snapshot (a few hundred bytes).
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs
import numpy as np

from isa.decode import CmpmaskMove, DmaOp, VectorOp
from isa.program import Instruction
from simulator.events import Event, Observer
from simulator.machine import Machine

# (MASK_HI, MASK_LO, counter mode, CMPMASK bytes, set flags, x registers)
Regs = tuple[int, int, bool, bytes, tuple, tuple]
RECORD_OVERHEAD = 400  # bytes a record costs besides its data, for the history budget


def snapshot(m: Machine) -> Regs:
    return (m.mask_hi, m.mask_lo, m.counter, m.cmpmask.tobytes(), tuple(m.flags.items()),
            tuple(m.x))


def restore(m: Machine, regs: Regs) -> None:
    m.mask_hi, m.mask_lo, m.counter = regs[0], regs[1], regs[2]
    m.cmpmask[:] = np.frombuffer(regs[3], np.uint8)
    m.flags.clear()
    m.flags.update(regs[4])
    m.x[:] = regs[5]


@attrs.define(slots=True)
class Write:
    """One contiguous run of bytes a micro-op wrote: UB (space None) or a GM tensor."""

    space: str | None
    addr: int
    before: bytes
    after: bytes = b""

    @property
    def end(self) -> int:
        return self.addr + len(self.before)


@attrs.define(slots=True, eq=False)
class Record:
    """One micro-op: a repeat of a vector instruction, or a whole other instruction."""

    index: int  # flat index of the hardware instruction
    instr: Instruction
    repeat: int | None  # the repeat it ran; None: the whole instruction
    repeats: int  # repeats of the instruction (0 for non-vector instructions)
    op: object  # VectorOp | DmaOp | int (CMPMASK move address) | None
    writes: list[Write]
    regs_before: Regs
    regs_after: Regs
    completes: bool = True  # the instruction is complete after it
    next_index: int = 0  # flat index of the next instruction to run after it
    end: int = 0  # cycle this micro-op ended at (timing model), 0 when unknown
    cycle: int = 0  # the largest end cycle of any micro-op up to this one
    timing: object = None  # the instruction's InstrTiming (on its completing record)
    event: Event | None = None  # the instruction's event (on its completing record)

    @property
    def nbytes(self) -> int:
        return RECORD_OVERHEAD + sum(2 * len(w.before) for w in self.writes)

    def touches(self, space: str | None, lo: int, hi: int) -> Write | None:
        """The first write overlapping bytes [lo, hi) of SPACE, if any."""
        for w in self.writes:
            if w.space == space and w.addr < hi and lo < w.end:
                return w
        return None


def _runs(addrs: np.ndarray) -> list[tuple[int, int]]:
    """Sorted unique byte addresses → (start, length) runs."""
    if addrs.size == 0:
        return []
    cut = np.flatnonzero(np.diff(addrs) != 1) + 1
    starts = addrs[np.concatenate(([0], cut))].tolist()
    lengths = np.diff(np.concatenate(([0], cut, [addrs.size]))).tolist()
    return list(zip(starts, lengths, strict=True))


def vector_runs(vop: VectorOp, repeat: int | None) -> list[tuple[int, int]]:
    """The UB byte runs the destination of repeat REPEAT (None: all repeats) writes."""
    acc = vop.access("dst")
    if acc is None or vop.repeats == 0:
        return []  # vcmp writes CMPMASK only
    lo, hi = (0, vop.repeats) if repeat is None else (repeat, repeat + 1)
    if acc.kind == "bits":
        nb = vop.n // 8
        return [(acc.base + lo * nb, (hi - lo) * nb)]
    full = vop.all_active or (hi < vop.repeats and bool(vop.row.all()))
    if full and acc.blk == 1 and (acc.contiguous or hi - lo == 1):
        # the common case, no arrays
        return [(acc.base + lo * acc.rep * 32, (hi - lo) * acc.repeat_bytes)]
    addrs = acc.base + acc.offsets(vop.repeats)[lo:hi]
    addrs = addrs[vop.active[lo:hi]]
    return _runs(np.unique((addrs[:, None] + np.arange(acc.size)).reshape(-1)))


def dma_runs(op: DmaOp) -> list[tuple[int, int]]:
    return op.runs("dst")


def _writes(m: Machine, instr: Instruction, op, repeat: int | None) -> list[Write]:
    if isinstance(op, VectorOp):
        space, runs = None, vector_runs(op, repeat)
    elif isinstance(op, DmaOp):
        space, runs = op.dst_space, dma_runs(op)
    elif isinstance(op, CmpmaskMove) and op.to_ub:
        space, runs = None, [(op.addr, op.size)]
    else:
        return []
    mem = m.space(space)
    return [Write(space, a, mem[a:a + n].tobytes()) for a, n in runs]


class Recorder(Observer):
    """Builds the records of one executed instruction from the executor's notifications; it
    asks for repeat-by-repeat execution so that every repeat is a point of its own."""

    wants_repeats = True

    def __init__(self, machine: Machine):
        self.m = machine
        self.pending: list[Record] = []
        self.open: tuple | None = None
        self.event: Event | None = None
        self.index = 0
        self.regs: Regs = snapshot(machine)

    def begin(self, index: int) -> None:
        self.pending, self.open, self.event, self.index = [], None, None, index
        self.regs = snapshot(self.m)

    def before_write(self, instr: Instruction, op, repeat: int | None) -> None:
        self.open = (instr, op, repeat, _writes(self.m, instr, op, repeat))

    def on_repeat(self, event: Event, repeat: int) -> None:
        self._close(event.vop.repeats, completes=False)

    def on_event(self, event: Event) -> None:
        self.event = event

    def _close(self, repeats: int, completes: bool) -> Record:
        instr, op, repeat, writes = self.open
        for w in writes:
            w.after = self.m.space(w.space)[w.addr:w.end].tobytes()
        after = snapshot(self.m)
        if after == self.regs:
            after = self.regs  # share the tuple: most micro-ops change no register
        rec = Record(self.index, instr, repeat, repeats, op, writes, self.regs, after,
                     completes, self.index)
        self.pending.append(rec)
        self.regs, self.open = after, None
        return rec

    def end(self, instr: Instruction, next_index: int) -> list[Record]:
        """The records of the instruction just executed; its last one completes it."""
        ev = self.event
        repeats = ev.vop.repeats if ev is not None and ev.vop is not None else 0
        if self.open is not None or not self.pending:
            if self.open is None:
                self.open = (instr, ev.vop if ev is not None else None, None, [])
            self._close(repeats, completes=True)
        last = self.pending[-1]
        last.completes, last.next_index, last.event = True, next_index, ev
        return self.pending

    def abandon(self) -> None:
        """The instruction faulted: put back whatever it had written."""
        for rec in reversed(self.pending):
            undo(self.m, rec)
        self.pending, self.open = [], None


def undo(m: Machine, rec: Record) -> None:
    for w in reversed(rec.writes):
        m.space(w.space)[w.addr:w.end] = np.frombuffer(w.before, np.uint8)
    restore(m, rec.regs_before)


def redo(m: Machine, rec: Record) -> None:
    for w in rec.writes:
        m.space(w.space)[w.addr:w.end] = np.frombuffer(w.after, np.uint8)
    restore(m, rec.regs_after)


class UndoLog:
    """Records by absolute position: record p takes the machine from point p to point p+1.
    When over budget, whole instructions are dropped from the front (`first` moves on)."""

    def __init__(self, budget: int):
        self.records: list[Record] = []
        self.first = 0
        self.budget = budget
        self.nbytes = 0
        self.start_index = 0  # flat index of the instruction at point `first`

    @property
    def end(self) -> int:
        return self.first + len(self.records)

    def __getitem__(self, p: int) -> Record:
        return self.records[p - self.first]

    def extend(self, recs: list[Record], keep_from: int) -> None:
        self.records.extend(recs)
        self.nbytes += sum(r.nbytes for r in recs)
        if self.nbytes > self.budget:
            self._trim(keep_from)

    def _trim(self, keep_from: int) -> None:
        """Drop the oldest instructions down to half the budget, never past KEEP_FROM."""
        drop, freed = 0, 0
        limit = min(keep_from - self.first, len(self.records))
        cut = 0
        while drop < limit and self.nbytes - freed > self.budget // 2:
            freed += self.records[drop].nbytes
            drop += 1
            if self.records[drop - 1].completes:
                cut = drop
        if cut:
            self.start_index = self.records[cut - 1].next_index
            self.nbytes -= sum(r.nbytes for r in self.records[:cut])
            del self.records[:cut]
            self.first += cut

    def between(self, lo: int, hi: int) -> Iterator[Record]:
        return iter(self.records[max(lo - self.first, 0):max(hi - self.first, 0)])

    def index_at(self, p: int) -> int:
        """Flat index of the instruction that runs next (or is half done) at point p."""
        return self.start_index if p == self.first else self[p - 1].next_index

    def boundary(self, p: int) -> bool:
        """Whether point p lies between two instructions (not inside one)."""
        return p == self.first or self[p - 1].completes
