"""The undo log: one record per micro-op holding the bytes it wrote (before and after) and the
registers around it, so the debugger can move backward and forward without re-executing.

Memory grows with what the program wrote, never with UB size: a record keeps only the exact byte
runs its micro-op wrote (found from the decoded operation just before the write, through the
observer contract's `before_write` hook) plus a register snapshot, shared with the record before
when no register changed.

A vector instruction runs in bulk (all repeats in one numpy operation, one record) unless the
debugger is stepping by repeats at the newest point (`Recorder.split`, read by the executor
through `wants_repeats`). A bulk record keeps the body and scalar the instruction ran with, so
`split` can re-run it repeat by repeat from its recorded pre-state when motion needs a point
inside it (`stepr`/`backr` into it, a watchpoint or a cycle breakpoint firing in it): the same
body on the same state, so the repeats' records are exactly what a split run would have made.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import attrs
import numpy as np

from isa.decode import CmpmaskMove, DmaOp, VectorOp
from isa.nddma import NdDmaOp
from isa.program import Instruction
from simulator.events import Event, Observer
from simulator.machine import Machine
from simulator.plans import ObserverPlan

# (MASK_HI, MASK_LO, counter mode, CMPMASK bytes, set flags, x registers, special registers,
# GM atomic state, the reg-based unit's registers or None)
Regs = tuple[int, int, bool, bytes, tuple, tuple, tuple, object, object, tuple]

_size = sys.getsizeof
# Resident bytes of the parts of a record that `Record.nbytes` does not measure one by one:
# a Python int above the small-int cache, an event (slots object, its mask tuples, what its
# decoded operation holds; its byte ranges are dropped: Event.compact) and its timing record
# (attrs slots object plus the per-repeat beats array's header). benchmarks/debugger_speed.py
# compares the total with the resident memory a session really takes (within about 10%).
INT_BYTES = 32
EVENT_BYTES = _size(object()) + 16 * 8 + 2 * 56 + 160
TIMING_BYTES = _size(object()) + 17 * 8 + 112


def _fixed_sizes() -> tuple[int, int, int]:
    """Resident bytes of an empty record, an empty list, and a Write with its two bytes
    objects beyond their data (slots classes: the same for every instance)."""
    rec = Record(0, None, None, 0, None, [], (), ())
    return _size(rec), _size([]), _size(Write(None, 0, b"")) + 2 * _size(b"")


def snapshot(m: Machine, prev: Regs | None = None) -> Regs:
    """The registers now; the parts equal to PREV's are PREV's own objects (shared)."""
    x = tuple(m.x)
    cmp = m.cmpmask.tobytes()
    flags = tuple(m.flags.items())
    special = tuple(m.special.items())
    if prev is not None:
        x = prev[5] if x == prev[5] else x
        cmp = prev[3] if cmp == prev[3] else cmp
        flags = prev[4] if flags == prev[4] else flags
        special = prev[6] if special == prev[6] else special
    # issue 34: the reg-based unit's registers (ascend950), shared with PREV's when unchanged
    vregs = m.regs.state() if m.regs is not None else None
    if prev is not None and len(prev) > 8 and vregs == prev[8]:
        vregs = prev[8]
    mutexes = tuple(m.mutexes.items())  # issue 34: ascend950's locked Mutex ids
    if prev is not None and len(prev) > 9 and mutexes == prev[9]:
        mutexes = prev[9]
    return (m.mask_hi, m.mask_lo, m.counter, cmp, flags, x, special, m.atomic, vregs, mutexes)


def regs_bytes(regs: Regs, prev: Regs) -> int:
    """Resident bytes REGS holds beyond what it shares with PREV."""
    if regs is prev:
        return 0
    n = _size(regs) + 3 * INT_BYTES
    if regs[3] is not prev[3]:
        n += _size(regs[3])
    if regs[4] is not prev[4]:
        n += _size(regs[4]) + len(regs[4]) * 120  # ((src, dst, id), instr) pairs
    if regs[5] is not prev[5]:
        n += _size(regs[5]) + sum(INT_BYTES for v in regs[5] if v > 256)
    if regs[6] is not prev[6]:
        n += _size(regs[6]) + len(regs[6]) * 120
    if len(regs) > 8 and regs[8] is not None and (len(prev) <= 8 or regs[8] is not prev[8]):
        n += _size(regs[8])  # issue 34: the reg-based unit's registers
    if len(regs) > 9 and regs[9] and (len(prev) <= 9 or regs[9] is not prev[9]):
        n += _size(regs[9]) + len(regs[9]) * 120  # (id, (pipe, instr)) pairs
    return n


def restore(m: Machine, regs: Regs) -> None:
    m.mask_hi, m.mask_lo, m.counter = regs[0], regs[1], regs[2]
    m.cmpmask[:] = np.frombuffer(regs[3], np.uint8)
    m.flags.clear()
    m.flags.update(regs[4])
    m.x[:] = regs[5]
    m.special.clear()
    m.special.update(regs[6])
    m.atomic = regs[7]  # set_atomic's state (issue #27): stepping back over it restores it
    if len(regs) > 8 and regs[8] is not None and m.regs is not None:  # issue 34
        m.regs.restore(regs[8])
    if len(regs) > 9:
        m.mutexes.clear()
        m.mutexes.update(regs[9])


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
    # the instruction's InstrTiming (on its completing record; see `timing`)
    _timing: object = attrs.field(default=None, alias="timing")
    event: Event | None = None  # the instruction's event (on its completing record)
    rerun: tuple | None = None  # (body, scalar) of a bulk vector instruction: see `split`
    label: str | None = None  # a write the user made (`set var ...`), not an instruction
    nbytes: int = 0  # resident bytes it holds (the history budget counts these)

    @property
    def timing(self):
        """The instruction's InstrTiming. The debugger's fast path keeps the figures to build
        it from, (build, *figures): it is built on first read (most never are)."""
        t = self._timing
        if t.__class__ is tuple:
            t = self._timing = t[0](*t[1:])
        return t

    @timing.setter
    def timing(self, t) -> None:
        self._timing = t

    @property
    def bulk(self) -> bool:
        """All repeats of a vector instruction in one record (split it to see one repeat)."""
        return self.rerun is not None

    def measure(self) -> int:
        """Resident bytes of this record and what only it holds (shared parts not counted)."""
        writes = self.writes
        n = RECORD_BYTES + LIST_BYTES + 8 * len(writes)
        for w in writes:
            n += WRITE_BYTES + len(w.before) + len(w.after)
        if self.regs_after is not self.regs_before:
            n += regs_bytes(self.regs_after, self.regs_before)
        if self.op is not None and self.completes:  # a decoding of its own (shared by repeats)
            n += _size(self.op)
        if self.event is not None:
            n += EVENT_BYTES
        t = self.timing
        if t is not None:
            n += TIMING_BYTES + (t.beats.nbytes if t.beats is not None else 0)
            n += len(t._repeats) * 80  # per-repeat records, once somebody read them
        self.nbytes = n
        return n

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
    full = vop.touches_all(acc) or (hi < vop.repeats and bool(vop.row.all()))
    run = acc.run(lo, hi) if full else None
    if run is not None:  # the common case, no arrays
        return [(run[0], run[1] - run[0])]
    addrs = acc.addresses(vop.repeats)[lo:hi]
    addrs = addrs[vop.active[lo:hi]]
    return _runs(np.unique((addrs[:, None] + np.arange(acc.size)).reshape(-1)))


def dma_runs(op: DmaOp) -> list[tuple[int, int]]:
    return op.runs("dst")


def _writes(m: Machine, instr: Instruction, op, repeat: int | None) -> list[Write]:
    if isinstance(op, VectorOp):
        space, runs = None, vector_runs(op, repeat)
    elif isinstance(op, (DmaOp, NdDmaOp)):
        space, runs = op.dst_space, dma_runs(op)
    elif isinstance(op, CmpmaskMove) and op.to_ub:
        space, runs = None, [(op.addr, op.size)]
    elif hasattr(op, "write_runs"):  # issue 34: a reg-based unit's store
        space, runs = None, op.write_runs()
    else:
        return []
    mem = m.space(space)
    return [Write(space, a, mem[a:a + n].tobytes()) for a, n in runs]


RECORD_BYTES, LIST_BYTES, WRITE_BYTES = _fixed_sizes()


class Recorder(Observer):
    """Builds the records of one executed instruction from the executor's notifications. It
    asks for repeat-by-repeat execution only while `split` is set (stepping by repeats at the
    newest point); otherwise a vector instruction runs in bulk and gets one record that can be
    split later (`split_record`)."""

    def __init__(self, machine: Machine):
        self.m = machine
        self.pending: list[Record] = []
        self.open: tuple | None = None
        self.event: Event | None = None
        self.index = 0
        self.regs: Regs = snapshot(machine)
        self.split = False
        self.executor = None  # set by the session: where a bulk instruction's body is read
        self.stale = True  # the machine changed since `regs` was taken (the session says so)
        self.planning = False  # the debugger's fast path records planned executions itself

    @property
    def wants_repeats(self) -> bool:
        return self.split

    def plan(self, planned) -> ObserverPlan | None:
        """Nothing per execution: once the debugger's fast path drives the executor
        (`planning`, debugger/fast.py), it records planned executions itself; otherwise every
        instruction must come through the notifications, so it declines."""
        return ObserverPlan(None, None) if self.planning else None

    def begin(self, index: int) -> None:
        self.pending, self.open, self.event, self.index = [], None, None, index
        if self.stale:
            self.regs = snapshot(self.m, self.regs)
            self.stale = False

    def before_write(self, instr: Instruction, op, repeat: int | None) -> None:
        rerun = None
        if repeat is None and isinstance(op, VectorOp):
            if op.repeats == 1:
                repeat = 0  # one repeat: the record is that repeat
            elif op.repeats > 1:
                iss = self.executor.issued
                rerun = (iss.body, iss.arg)
        self.open = (instr, op, repeat, _writes(self.m, instr, op, repeat), rerun)

    def on_repeat(self, event: Event, repeat: int) -> None:
        self._close(event.vop.repeats, completes=False)

    def on_event(self, event: Event) -> None:
        self.event = event

    def _close(self, repeats: int, completes: bool) -> Record:
        instr, op, repeat, writes, rerun = self.open
        for w in writes:
            w.after = self.m.space(w.space)[w.addr:w.end].tobytes()
        after = snapshot(self.m, self.regs)
        if after == self.regs:
            after = self.regs  # share the tuple: most micro-ops change no register
        rec = Record(self.index, instr, repeat, repeats, op, writes, self.regs, after,
                     completes, self.index, rerun=rerun)
        self.pending.append(rec)
        self.regs, self.open = after, None
        return rec

    def end(self, instr: Instruction, next_index: int) -> list[Record]:
        """The records of the instruction just executed; its last one completes it."""
        ev = self.event
        repeats = ev.vop.repeats if ev is not None and ev.vop is not None else 0
        if self.open is not None or not self.pending:
            if self.open is None:
                self.open = (instr, ev.vop if ev is not None else None, None, [], None)
            self._close(repeats, completes=True)
        last = self.pending[-1]
        last.completes, last.next_index, last.event = True, next_index, ev
        return self.pending

    def abandon(self) -> None:
        """The instruction faulted: put back whatever it had written."""
        for rec in reversed(self.pending):
            undo(self.m, rec)
        self.pending, self.open, self.stale = [], None, True


def split_record(m: Machine, rec: Record, cycle_before: int) -> list[Record]:
    """Re-run bulk record REC repeat by repeat; the machine must be at its pre-state and is
    left at its post-state. The records of its repeats (the last one completes it);
    CYCLE_BEFORE is the cycle at its start."""
    body, arg = rec.rerun
    vop, regs = rec.op, rec.regs_before
    out = []
    for i in range(vop.repeats):
        writes = _writes(m, rec.instr, vop, i)
        body(m, vop, arg, i, i + 1)
        for w in writes:
            w.after = m.space(w.space)[w.addr:w.end].tobytes()
        after = snapshot(m, regs)
        after = regs if after == regs else after
        out.append(Record(rec.index, rec.instr, i, rec.repeats, vop, writes, regs, after,
                          completes=False, next_index=rec.index))
        regs = after
    last = out[-1]
    last.completes, last.next_index, last.event = True, rec.next_index, rec.event
    last.regs_after = rec.regs_after  # the same registers, one object with the next record's
    reps = rec.timing.repeats if rec.timing is not None else ()
    for sub in out:  # cycles: a running maximum, ending at the bulk record's own
        sub.end = int(reps[sub.repeat].end) if sub.repeat < len(reps) else rec.end
        sub.cycle = cycle_before = max(cycle_before, sub.end)
    last.end, last.cycle = rec.end, rec.cycle
    last.timing = rec.timing
    return out


def undo(m: Machine, rec: Record) -> None:
    """Take the machine from the point after REC to the one before it. A write whose bytes
    written were not kept (the debugger's fast path keeps only what it overwrote: debugger/
    fast.py) takes them now, from the machine at the point after it, for `redo`."""
    for w in reversed(rec.writes):
        mem = m.space(w.space)
        if not w.after:
            w.after = mem[w.addr:w.end].tobytes()
        mem[w.addr:w.end] = np.frombuffer(w.before, np.uint8)
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
        self.nbytes += sum(r.measure() for r in recs) + 8 * len(recs)  # + the list's slots
        if self.nbytes > self.budget:
            self._trim(keep_from)

    def truncate(self, p: int) -> None:
        """Drop the records from point P on."""
        gone = self.records[p - self.first:]
        self.nbytes -= sum(r.nbytes + 8 for r in gone)
        del self.records[p - self.first:]

    def replace(self, p: int, recs: list[Record]) -> None:
        """Record P becomes RECS (a bulk record split into its repeats)."""
        i = p - self.first
        self.nbytes += sum(r.measure() for r in recs) + 8 * (len(recs) - 1) \
            - self.records[i].nbytes
        self.records[i:i + 1] = recs

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
            self.nbytes -= sum(r.nbytes + 8 for r in self.records[:cut])
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
