"""Hazard checks (docs/format.md §9.4, always warnings): the init check and the race check.

The init check also covers CMPMASK: `vsel` (every mode reads it: mode 0 its bits, mode 1 its
scalar, mode 2 the mask address) or `get_cmpmask` before any `set_cmpmask`/`vcmp` wrote it reads
the power-on zeros, which is almost always a missing `set_cmpmask`.

Both are one observer over the bytes each executed instruction reads and writes in UB, as its
event gives them (`Event.ub_ranges`: VectorOp footprints, DmaOp bursts, CMPMASK moves). They
never change machine state and are independent of the timing model.

One int32 per UB byte holds its last writer: -1 never written, 0 written by INIT (ordered before
everything), else count*4 + pipe, where count numbers the pipe's accessing instructions from 1.
One int32 per byte and pipe holds the count of that pipe's last read of each byte. Both are
kept per 32-byte block where a block's bytes agree (simulator/footprints.py), with each
operand's footprint worked out once per decoding: the checks see exactly the per-byte values
and give the same diagnostics, at block cost. Happens-before is
tracked with a vector clock per pipe (program order within a pipe; S before everything it issues
later; set_flag before the wait_flag it releases; a Mutex unlock before the next lock of its id
by another pipe; `pipe_barrier ALL` before everything after it). The byte arrays are only
compared when some other pipe has accesses this pipe does not know
about; a well-synchronised program pays for one comparison and one store per operand.

A vector decoding's fills are kept pending (`unfilled`: its accesses -> the mark of its latest
execution, in the order of latest executions) and applied only when something reads the records
(a race or init check, another kind of access): applying each footprint's latest fill in that
order leaves every byte exactly as filling at every execution would, so a stretch of vector
code pays no numpy per instruction. A vector decoding's executions go through one step with its
accesses bound once (`_vector_step`), on_event's and the fast loop's plan alike
(simulator/plans.py): while nothing that could make a check necessary happened since
(`v_epoch`: another pipe's access, S's clock moving on), an execution is the clock, the pending
fill and the access's place in `where`.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from isa.decode import Range
from isa.families import BARRIER, LOCK, SET_FLAG, UNLOCK, VECTOR, WAIT_FLAG
from isa.table import PIPES
from simulator.events import Event, Observer, RunInfo
from simulator.footprints import Footprint, Record, index_footprint, merged, span_footprint
from simulator.plans import Batch, Each, FamilyFacts, ObserverPlan, Planned, Varying

if TYPE_CHECKING:  # pragma: no cover
    from isa.program import Instruction

PIPE = {p: k for k, p in enumerate(PIPES)}
S = 0
V = PIPE["V"]
UNFILLED = 1 << 14  # pending fills are applied when this many decodings have some
ACCESS_PIPES = (1, 2, 3)  # S never touches UB
SYNCS = (SET_FLAG, WAIT_FLAG, BARRIER, LOCK, UNLOCK)
SPAN_CACHE = 4096  # remembered footprints of contiguous ranges (DMA, CMPMASK moves, scalars)
STEPPED = 1 << 14  # accesses whose kept step `release` lets go of (`_kept_step`)


class Accesses:
    """One instruction's UB accesses: its ranges with their footprints, the reads (role,
    range and footprint, for the init check) and what the readers' and writer's records are
    filled with (the reads' footprints merged where they can be)."""

    __slots__ = ("ranges", "footprints", "reads", "_fills", "writes", "written", "step",
                 "quiet_at")

    def __init__(self, ranges, footprints, reads, writes):
        self.ranges, self.footprints = ranges, footprints
        self.reads, self.writes = reads, writes
        self._fills = None  # merged when first filled (a pending fill may never be applied)
        self.written = False  # every read found fully written: the init check is done
        self.step = None  # a vector decoding's: on_event's (`HazardChecks._vector_step`)
        self.quiet_at = -1  # the v_epoch at which one of its steps found nothing to check

    @property
    def read_fills(self) -> tuple[Footprint, ...]:
        fills = self._fills
        if fills is None:
            fills = self._fills = merged([r[4] for r in self.reads])
        return fills


NO_ACCESS = Accesses(None, (), (), ())  # what flags and barriers touch


class HazardChecks(Observer):
    """Init and race checks as one observer (they share the per-byte writer record)."""

    plans_runs = True  # (its plan counts a run's instructions by `Booked.executions`)

    def __init__(self, init: bool = True, races: bool = True):
        self.init = init
        self.races = races

    def on_start(self, run: RunInfo) -> None:
        self.run = run
        ub = run.ub_bytes
        self.spans: dict[tuple[int, int], Footprint] = {}
        inits = run.initialised
        self.writer = Record(ub, -1, partial(_inits_written, inits))  # (not a closure over
        # this object, which holds the record: no cycle)
        self.inited = _joined(run.initialised)
        self.readers = [Record(ub, 0) for _ in PIPES]
        self.clock = [[0, 0, 0, 0] for _ in PIPES]
        self.s_version = 0
        self.seen_s = [0, 0, 0, 0]
        self.last_write = [0, 0, 0, 0]
        self.last_read = [0, 0, 0, 0]
        self.where: list[list[Instruction]] = [[] for _ in PIPES]  # pipe → its accesses
        self.pending: dict[tuple[str, str, int], list[int]] = {}
        self.unlocked: dict[int, tuple[int, list[int]]] = {}  # #34: mutex id -> (pipe, clock)
        self.cmpmask_set = False
        # a vector decoding's accesses -> count*4 + pipe of its latest execution, whose fills
        # wait (see the module's doc); the same dict all run (hooks hold it)
        self.unfilled: dict[Accesses, int] = {}
        self.stepped: list[Accesses] = []  # the accesses given a `step` (`release` drops it)
        # moves on when what let V's executions skip the checks may have changed: another
        # pipe's access, or S's clock (s_version) moving on
        self.v_epoch = 0

    def flush(self) -> None:
        """Apply the pending fills, each decoding's latest, in the order of latest executions:
        every byte then holds what filling at every execution would have left."""
        if not self.unfilled:
            return
        readers, writer = self.readers, self.writer
        for acc, mark in self.unfilled.items():
            if acc.read_fills:
                row, count = readers[mark & 3], mark >> 2
                for fp in acc.read_fills:
                    row.fill(fp, count)
            for fp in acc.writes:
                writer.fill(fp, mark)
        self.unfilled.clear()

    # -- happens-before -------------------------------------------------------------------------
    def _join(self, p: int, other: list[int]) -> None:
        c = self.clock[p]
        for k in range(4):
            if other[k] > c[k]:
                c[k] = other[k]

    def _sync(self, ev: Event, p: int, kind: str) -> None:
        """Flag and barrier edges."""
        if kind == SET_FLAG:
            self.pending.setdefault(ev.flag, list(self.clock[p]))  # a set flag stays set
        elif kind == WAIT_FLAG:
            clk = self.pending.pop(ev.flag, None)
            if clk is not None:
                self._join(p, clk)
                if p == S:
                    self.s_version += 1
                    self.v_epoch += 1
        elif kind == UNLOCK:
            self.unlocked[ev.flag] = (p, list(self.clock[p]))
        elif kind == LOCK:
            last = self.unlocked.get(ev.flag)
            if last is not None and last[0] != p:
                self._join(p, last[1])
                if p == S:
                    self.s_version += 1
                    self.v_epoch += 1
        elif ev.pipe == "S":  # pipe_barrier ALL: S waits until every queue is empty
            for q in ACCESS_PIPES:
                self._join(S, self.clock[q])
            self.s_version += 1
            self.v_epoch += 1

    # -- the observer ---------------------------------------------------------------------------
    def on_event(self, ev: Event) -> None:
        memo = getattr(ev.op, "memo", None)  # a vector decoding's: its accesses, planned once
        if memo is not None:
            acc = memo.get(self)
            if acc is not None:  # seen before: the decoding's step (made at its second sighting)
                step = acc.step
                if step is None:
                    step = self._kept_step(acc, ev.reads_cmpmask or ev.writes_cmpmask)
                step(ev.instr, 0, False, ev)
                return
            acc = memo[self] = self._accesses(ev.ub_ranges())  # a first sighting: its fill
        else:  # waits below as a step's does; anything else fills at once, after what waits
            kind = ev.instr.defn.family.kind
            if kind in SYNCS:
                p = PIPE[ev.pipe]
                self._checked(ev, p, NO_ACCESS)
                self._sync(ev, p, kind)
                return
            acc = self._accesses(ev.ub_ranges())
        p = PIPE[ev.pipe]
        count = self._checked(ev, p, acc)
        if count is not None:  # a vector decoding's fill waits, as a step's does (#33 item 1:
            # a long unrolled kernel's lines are all first sightings)
            self._recorded(acc, count, p, ev.instr, memo is not None and p == V)

    def _recorded(self, acc: Accesses, count: int, p: int, instr: Instruction,
                  waits: bool) -> None:
        """An access ACC of pipe P, its COUNT, recorded: the pipe's last read and write, the
        records filled (their fill left pending when WAITS: see flush) and INSTR's place."""
        if acc.reads:
            self.last_read[p] = count
        if acc.writes:
            self.last_write[p] = count
        if waits:
            unfilled = self.unfilled
            if unfilled.pop(acc, None) is None and len(unfilled) >= UNFILLED:
                self.flush()
            unfilled[acc] = count * 4 + p
        else:
            self.flush()
            self._fill(acc, p, count)
        self.where[p].append(instr)

    def release(self) -> None:
        """The run is over (`Run.release`): the per-pipe logs of instructions emptied, the
        run's RunInfo (its program) dropped, and each decoding's step (a closure over its
        accesses and this object, kept on the accesses) let go, so nothing here is left in a
        reference cycle. Its records stay readable; nothing warns after a run."""
        for log in self.where:
            log.clear()
        self.run = None
        for acc in self.stepped:  # (a step refers to its accesses and to this object)
            acc.step = None
        self.stepped.clear()

    def _kept_step(self, acc: Accesses, cmpmask: bool) -> Each:
        """ACC's step (`_vector_step` without an event), kept on ACC and noted for `release`
        (at most STEPPED noted: past that, the ones noted so far are left to the collector, so
        that accesses their decodings let go of are not kept alive here)."""
        step = acc.step = self._vector_step(acc, cmpmask, None)
        stepped = self.stepped
        if len(stepped) >= STEPPED:
            stepped.clear()
        stepped.append(acc)
        return step

    def _checked(self, ev: Event | _Later, p: int, acc: Accesses) -> int | None:
        """EV's checks on pipe P with accesses ACC: what S did before it joins P's clock, the
        CMPMASK init check, then (when it touches UB) P's count moves on and the race and init
        checks run. Returns the count, None when it touches no UB (nothing to record). EV may
        stand for the event (`_Later`: a plan's, made only when a check reports)."""
        if p != S and self.seen_s[p] != self.s_version:
            self._join(p, self.clock[S])
            self.seen_s[p] = self.s_version
        if not self.cmpmask_set:
            self._cmpmask_check(ev)
        if acc.ranges is None:
            return None
        clock = self.clock[p]
        count = clock[p] + 1
        clock[p] = count
        if p == S:  # a front end's scalar code touched UB: what S issues later is after it
            self.s_version += 1
        if p != V:
            self.v_epoch += 1
        if self.races:
            lw, lr = self.last_write, self.last_read
            for q in ACCESS_PIPES:
                if q != p and (lw[q] > clock[q] or lr[q] > clock[q]):
                    self.flush()
                    self._race_check(_made(ev), p, acc.ranges, acc.footprints)
                    break
        if acc.reads and self.init and not acc.written:
            for role, lo, hi, idx, fp in acc.reads:
                if not fp.written:
                    self._init_check(ev, role, lo, hi, idx, fp)
            acc.written = all(r[4].written for r in acc.reads)
        return count

    def _vector_step(self, acc: Accesses, cmpmask: bool, event: Callable | None) -> Each:
        """step(instr, busy, taken, ev=None): `on_event` of an execution of one vector
        decoding (accesses ACC, CMPMASK read or written when CMPMASK) on V, its accesses
        bound once — on_event's own, and the plan's each (EVENT(instr) builds the event when
        a check needs it). While nothing moved `v_epoch` since an execution found nothing to
        check (`_quiet`), an execution only counts and records itself; its fill waits (see
        flush) either way."""
        unfilled, clock, checked, quiet = self.unfilled, self.clock[V], self._checked, self._quiet
        pop, last_read, last_write = unfilled.pop, self.last_read, self.last_write
        append = self.where[V].append
        reads, writes, touches = bool(acc.reads), bool(acc.writes), acc.ranges is not None
        p = V  # (a closure's cell: cheaper than the global)
        # the v_epoch at which an execution found nothing to check: any step's of these
        # accesses (a plan's step, made after on_event's, starts where that one left off)
        quiet_at = acc.quiet_at

        def step(instr: Instruction, busy: int = 0, taken: bool = False, ev=None) -> None:
            nonlocal quiet_at
            if self.v_epoch == quiet_at:
                if not touches:
                    return
                count = clock[p] + 1
                clock[p] = count
                looked = False
            else:
                count = checked(ev if ev is not None else event(instr), p, acc)
                looked = True
            if count is not None:
                if pop(acc, None) is None and len(unfilled) >= UNFILLED:
                    self.flush()
                unfilled[acc] = count * 4 + p
                if reads:
                    last_read[p] = count
                if writes:
                    last_write[p] = count
                append(instr)
            if looked and quiet(acc, cmpmask):
                quiet_at = acc.quiet_at = self.v_epoch
        return step

    def _varying_step(self, cell: Varying, event: Callable) -> Each:
        """The plan's each of a reg-based load or store (issue 34), whose UB bytes change
        between executions (CELL.op: the execution's RegAccess): each layout's accesses made
        once, then that layout's `_vector_step`, as for a vector decoding (its fill waits:
        see flush), with EVENT building the event when a check needs it."""
        steps: dict[tuple, Each] = {}

        def each(instr: Instruction, busy: int = 0, taken: bool = False) -> None:
            op = cell.op
            key = (*op.runs, op.write)
            step = steps.get(key)
            if step is None:
                if len(steps) >= SPAN_CACHE:
                    steps.clear()
                step = steps[key] = self._vector_step(self._accesses(op.ub_ranges()), False,
                                                      event)
            step(instr, busy, taken)
        return each

    def _moved_step(self, cell: Varying, cmpmask: bool, event: Callable) -> Each:
        """The plan's each of lines of one shape at their own addresses (CELL.op: the
        execution's VectorOp, a decoding moved; CMPMASK read or written when CMPMASK): what
        `on_event` does at a decoding's first sighting, with EVENT building the event only
        when a check needs it; a decoding executed again takes its step (`_vector_step`)."""
        checked, recorded = self._checked, self._recorded
        again: dict[Accesses, Each] = {}  # a decoding's step, once it is executed again

        def each(instr: Instruction, busy: int = 0, taken: bool = False) -> None:
            memo = cell.op.memo
            acc = memo.get(self)
            if acc is not None:
                step = again.get(acc)
                if step is None:
                    if len(again) >= SPAN_CACHE:
                        again.clear()
                    step = again[acc] = self._vector_step(acc, cmpmask, event)
                step(instr, busy, taken)
                return
            acc = memo[self] = self._accesses(cell.op.ub_ranges())
            count = checked(_Later(instr, event), V, acc)
            if count is not None:
                recorded(acc, count, V, instr, True)
        return each

    def _batch(self, cell: Batch) -> Callable[[], bool]:
        """The plan's batch (CELL: its groups of lines, each moved from its origin): when no
        check can report at any of its lines — S's clock known to V, CMPMASK's check done or
        not concerned, no race possible, every read within bytes written — each line
        counted, recorded and filled in program order as `_moved_step` would (no fill
        waits); otherwise nothing (the lines then run one at a time, and their checks word
        what they find). A footprint not made of whole blocks declines too."""
        def batch() -> bool:
            if self.seen_s[V] != self.s_version:  # (the first line's `_checked` would)
                self._join(V, self.clock[S])
                self.seen_s[V] = self.s_version
            if self.races and self._unordered(V):
                return False
            groups = []
            for lines, origin, shifts in cell.groups:
                first = lines[0]
                if not self.cmpmask_set and first.defn.family.cmpmask_reads(first.fields):
                    return False
                moved = self._moved_blocks(origin, shifts)
                if moved is None:
                    return False
                groups.append(moved)
            self.flush()
            counts = _counts(self.clock[V][V] + 1, len(cell.instrs), len(groups))
            if self.init and not self._batch_written(groups, counts):
                return False
            self._record_lines(cell.instrs, groups, counts)
            return True
        return batch

    def _batch_written(self, groups: list, counts: list[np.ndarray]) -> bool:
        """Whether every byte a batch's line reads (GROUPS: `_moved_blocks`' for each group;
        COUNTS: each group's lines' counts) holds a write when it reads it: before the batch
        (the record, its pending fills applied), or by a line of the batch before it."""
        unwritten = [(b, c) for moved, c in zip(groups, counts, strict=True)
                     for b, w in moved if not w and not self._written(b)]
        if not unwritten:
            return True
        writes = [(b, c) for moved, c in zip(groups, counts, strict=True) for b, w in moved if w]
        if not writes:
            return False
        # each block the batch writes, and the count of its first write
        blocks = np.concatenate([b.reshape(-1) for b, _ in writes])
        first = np.concatenate([np.repeat(c, b.shape[1]) for b, c in writes])
        order = np.lexsort((first, blocks))
        blocks, first = blocks[order], first[order]
        keep = np.r_[True, blocks[1:] != blocks[:-1]]
        blocks, first = blocks[keep], first[keep]
        for b, c in unwritten:
            at = np.minimum(np.searchsorted(blocks, b), len(blocks) - 1)
            if not self._written_or(b, (blocks[at] == b) & (first[at] < c[:, None])):
                return False
        return True

    def _written_or(self, blocks: np.ndarray, mine: np.ndarray) -> bool:
        """Whether every one of BLOCKS but those MINE says were written earlier in the batch
        holds a write."""
        rest = blocks[~mine]
        return not rest.size or self._written(rest)

    def _moved_blocks(self, origin, shifts: np.ndarray) -> list[tuple[np.ndarray, bool]] | None:
        """Each UB range of ORIGIN's lines moved by SHIFTS as (its blocks, a row a line;
        whether written), or None when one is not made of whole blocks."""
        ranges = origin.memo.get((self, "blocks"), False)
        if ranges is False:
            ranges = origin.memo[(self, "blocks")] = self._origin_blocks(origin)
        if ranges is None:
            return None
        return [(blocks + (shifts[:, k] >> 5)[:, None], write) for blocks, k, write in ranges]

    def _origin_blocks(self, origin) -> list[tuple[np.ndarray, int, bool]] | None:
        """Each UB range of ORIGIN (a batch's stored decoding) as (its blocks, the column of
        its operand, whether written); None when one is not made of whole blocks."""
        acc = origin.memo.get(self)
        if acc is None:
            acc = origin.memo[self] = self._accesses(origin.ub_ranges())
        if acc.ranges is None:
            return None
        col = {a.role: k for k, a in enumerate(origin.operands)}
        out = []
        for (role, *_, write), fp in zip(acc.ranges, acc.footprints, strict=True):
            if fp.part is not None or role not in col:
                return None
            full = fp.full
            out.append((np.arange(full.start, full.stop) if type(full) is slice else full,
                        col[role], write))
        return out

    def _record_lines(self, instrs, groups: list[list[tuple[np.ndarray, bool]]],
                      counts: list[np.ndarray]) -> None:
        """INSTRS, consecutive accesses on V (tile after tile, a line of each group a tile)
        whose blocks GROUPS give (`_moved_blocks`, a list a group), counted (COUNTS: each
        group's lines') and recorded: each line's writes and reads filled with its count, as
        in program order."""
        p, last = len(groups), len(instrs) + self.clock[V][V]
        self.clock[V][V] = last
        writes = [(b, c) for moved, c in zip(groups, counts, strict=True) for b, w in moved if w]
        reads = [(b, c) for moved, c in zip(groups, counts, strict=True)
                 for b, w in moved if not w]
        if writes:
            if p == 1:  # (no line of a group writes what another touches: apart)
                for blocks, c in writes:
                    self.writer.fill_rows(blocks, c * 4 + V, True)
            else:
                _fill_latest(self.writer, [(b, c * 4 + V) for b, c in writes])
            self.last_write[V] = last
        if reads:  # (a line's read may be another's read of another operand: filled as one,
            # unless the operands' blocks lie apart)
            if len(reads) == 1 or p == 1 and _apart([b for b, _ in reads]):
                for blocks, c in reads:
                    _fill_moved(self.readers[V], blocks, c)
            elif p == 1:  # (rows side by side: a line's reads, lines in order)
                self.readers[V].fill_rows(np.hstack([b for b, _ in reads]), counts[0])
            else:
                _fill_latest(self.readers[V], reads)
            self.last_read[V] = last
        self.where[V].extend(instrs)

    def _written(self, blocks: np.ndarray) -> bool:
        """Whether every byte of BLOCKS (whole blocks) holds a write (pending fills applied)."""
        return not self.writer.may_hold(Footprint(blocks.reshape(-1), None, None), _negative)

    def _unordered(self, p: int) -> bool:
        """Whether another pipe has accesses pipe P does not know about (a race is possible)."""
        lw, lr, clock = self.last_write, self.last_read, self.clock[p]
        for q in ACCESS_PIPES:
            if q != p and (lw[q] > clock[q] or lr[q] > clock[q]):
                return True
        return False

    def _fill(self, acc: Accesses, p: int, count: int) -> None:
        if acc.reads:
            row = self.readers[p]
            for fp in acc.read_fills:
                row.fill(fp, count)
        mark = count * 4 + p
        for fp in acc.writes:
            self.writer.fill(fp, mark)

    def plan(self, planned: Planned) -> ObserverPlan | None:
        """`on_event` for PLANNED's executions (simulator/plans.py): nothing for what S
        executes itself without touching UB or CMPMASK; for a vector decoding on V, the
        decoding's `_vector_step` (its own, with the plan's event builder). Anything else
        declines, as does a subclass that checks differently."""
        if type(self).on_event is not HazardChecks.on_event:
            return None
        op, cmpmask = planned.op, planned.reads_cmpmask or planned.writes_cmpmask
        if op is None and planned.pipe == "S" and not cmpmask \
                and planned.kind not in SYNCS:
            return ObserverPlan(None, None)  # on_event finds no UB access: it does nothing
        if op is None and planned.pipe == "V" and not cmpmask \
                and planned.kind not in SYNCS:
            return ObserverPlan(self._v_joins, None)  # issue 34: a reg-based register op
        if type(op) is Batch and planned.pipe == "V" and planned.kind == VECTOR:
            return ObserverPlan(None, None, batch=self._batch(op))
        if type(op) is Varying and planned.pipe == "V" and planned.kind == VECTOR:
            return ObserverPlan(self._moved_step(op, cmpmask, planned.event), None)
        if type(op) is Varying and planned.pipe == "V" and not cmpmask:
            return ObserverPlan(self._varying_step(op, planned.event), None)  # its load/store
        if planned.pipe != "V" or getattr(op, "memo", None) is None:
            return None
        acc = op.memo.get(self)
        if acc is None:
            acc = op.memo[self] = self._accesses(op.ub_ranges())
            self._kept_step(acc, cmpmask)
        return ObserverPlan(self._vector_step(acc, cmpmask, planned.event), None)

    def _v_joins(self, instr: Instruction, busy: int = 0, taken: bool = False) -> None:
        """`on_event` of an instruction on V that touches no UB and no CMPMASK: V learns what
        S did before it (`_checked`'s first step), nothing else."""
        if self.seen_s[V] != self.s_version:
            self._join(V, self.clock[S])
            self.seen_s[V] = self.s_version

    def _quiet(self, acc: Accesses, cmpmask: bool) -> bool:
        """After an execution of ACC on V: whether the next, with v_epoch unchanged, would
        check nothing (S's clock known, CMPMASK's check done or not concerned, no race possible,
        every read found written) and so may skip to its bookkeeping."""
        if self.seen_s[V] != self.s_version or (cmpmask and not self.cmpmask_set):
            return False
        if acc.ranges is None:
            return True
        if self.races and self._unordered(V):
            return False
        return not (self.init and acc.reads and not acc.written)

    # -- footprints ---------------------------------------------------------------------------
    def _accesses(self, ranges) -> Accesses:
        """An instruction's UB accesses as the records use them (for a vector instruction once
        per decoding; a contiguous range's footprint once per span)."""
        if not ranges:
            return Accesses(None, (), (), ())
        fps = [self._span(lo, hi) if idx is None else index_footprint(idx)
               for _, lo, hi, idx, _ in ranges]
        reads = tuple((role, lo, hi, idx, fp) for (role, lo, hi, idx, write), fp
                      in zip(ranges, fps, strict=True) if not write)
        writes = tuple(fp for (*_, write), fp in zip(ranges, fps, strict=True) if write)
        return Accesses(ranges, fps, reads, writes)

    def _span(self, lo: int, hi: int) -> Footprint:
        fp = self.spans.get((lo, hi))
        if fp is None:
            if len(self.spans) >= SPAN_CACHE:
                self.spans.clear()
            fp = self.spans[(lo, hi)] = span_footprint(lo, hi)
        return fp

    # -- init check ---------------------------------------------------------------------------
    def _cmpmask_check(self, ev: Event | _Later) -> None:
        """The first read of a never-set CMPMASK warns; after that CMPMASK is taken as set (one
        missing set_cmpmask is one warning, not one per vsel)."""
        if self.init and ev.reads_cmpmask:
            self.run.warn(_made(ev), f"{ev.instr.head} reads CMPMASK, which nothing has set "
                          "(uninitialised CMPMASK: no set_cmpmask or vcmp before this read; it "
                          "holds its power-on zeros)", once="init")
            self.cmpmask_set = True
        if ev.writes_cmpmask:
            self.cmpmask_set = True

    def _init_check(self, ev: Event | _Later, role: str, lo: int, hi: int, idx,
                    fp: Footprint) -> None:
        """Warn at the first never-written byte of a read; a range found fully written is not
        looked at again (bytes never become unwritten). A read within what INIT wrote at the
        start is written without a look at the record (an unrolled kernel's reads each read
        bytes no other read did)."""
        starts, ends = self.inited
        k = bisect_right(starts, lo) - 1
        if k >= 0 and hi <= ends[k]:
            fp.written = True
            return
        if self.writer.may_hold(fp, _negative):
            # pending fills only write (never-written is -1, a fill's mark >= 0): a read the
            # record without them finds written is written with them, so only a read that
            # may not be applies them first
            self.flush()
            w = self.writer.values(lo, hi, idx)
            if w.min() < 0:
                self._uninit(_made(ev), role, lo, idx, w)
                return
        fp.written = True

    def _uninit(self, ev: Event, role: str, lo: int, idx, w: np.ndarray) -> None:
        k = int(np.argmax(w < 0))
        byte = lo + k if idx is None else int(idx[k])
        self.run.warn(ev, f"{ev.instr.head} {_name(ev.instr, role)} reads byte {byte:#x}, "
                      "which was never written (uninitialised UB: no INIT, DMA or instruction "
                      "wrote it before this read)", role, once="init")

    # -- race check ---------------------------------------------------------------------------
    def _race_check(self, ev: Event, p: int, ranges: list[Range], plans: list[Footprint]
                    ) -> None:
        clock = np.array(self.clock[p], np.int64)

        def unordered_write(w: np.ndarray) -> np.ndarray:
            return (w >> 2) > clock[w & 3]

        for (role, lo, hi, idx, write), fp in zip(ranges, plans, strict=True):
            if self.writer.may_hold(fp, unordered_write):
                w = self.writer.values(lo, hi, idx)
                bad = unordered_write(w)
                if bad.any():
                    k = int(np.argmax(bad))
                    q, c = int(w[k] & 3), int(w[k] >> 2)
                    kind = "write-after-write" if write else "read-after-write"
                    self._race(ev, p, role, lo, idx, k, q, c, "wrote", kind)
                    return
            if not write:
                continue
            for q in ACCESS_PIPES:
                if q == p or self.last_read[q] <= clock[q]:
                    continue
                known = int(clock[q])
                if not self.readers[q].may_hold(fp, lambda r, known=known: r > known):
                    continue
                r = self.readers[q].values(lo, hi, idx)
                bad = r > known
                if bad.any():
                    k = int(np.argmax(bad))
                    self._race(ev, p, role, lo, idx, k, q, int(r[k]), "read",
                               "write-after-read")
                    return

    def _race(self, ev: Event, p: int, role: str, lo: int, idx, k: int, q: int, c: int,
              verb: str, kind: str) -> None:
        byte = lo + k if idx is None else int(idx[k])
        other = self.where[q][c - 1]
        mine = "writes" if kind != "read-after-write" else "reads"
        self.run.warn(ev, f"race: {ev.instr.head} on {PIPES[p]} {mine} {_name(ev.instr, role)} "
                      f"byte {byte:#x}, which {other.head} on {PIPES[q]} at line {other.line} "
                      f"{verb}, with no set_flag/wait_flag or pipe_barrier ordering them "
                      f"({kind})", role, once="race")


def _fill_moved(record: Record, blocks: np.ndarray, values: np.ndarray) -> None:
    """`Record.fill_rows` of one operand's rows of blocks, each row its last moved by one step:
    rows not moving leave the last row's value, rows moving past their own blocks are apart."""
    step = int(blocks[1, 0] - blocks[0, 0]) if len(blocks) > 1 else 0
    if step == 0:
        record.fill_rows(blocks[-1:], values[-1:], True)
    else:
        record.fill_rows(blocks, values, abs(step) > int(blocks[0].max() - blocks[0].min()))


def _counts(first: int, n: int, p: int) -> list[np.ndarray]:
    """The counts of N lines from FIRST on, tile after tile of P: each group's."""
    return [np.arange(first + r, first + n, p, dtype=np.int64) for r in range(p)]


def _apart(ranges: list[np.ndarray]) -> bool:
    """Whether the blocks of RANGES (each a range's rows of blocks) lie apart, range from
    range (their spans do not meet)."""
    spans = sorted((int(b.min()), int(b.max())) for b in ranges)
    return all(hi < lo for (_, hi), (lo, _) in zip(spans, spans[1:], strict=False))


def _fill_latest(record: Record, rows: list[tuple[np.ndarray, np.ndarray]]) -> None:
    """ROWS, each (blocks, a row a line; a value a line), filled as in the order of their values
    (increasing with program order): each block takes its largest value."""
    blocks = np.concatenate([b.reshape(-1) for b, _ in rows])
    values = np.concatenate([np.repeat(v, b.shape[1]) for b, v in rows])
    order = np.argsort(values, kind="stable")
    record.fill_each(blocks[order], values[order])


def _joined(ranges: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """The byte ranges [lo, hi) of RANGES joined where they touch or overlap: (their starts,
    their ends), in increasing order."""
    starts: list[int] = []
    ends: list[int] = []
    for lo, hi in sorted(r for r in ranges if r[1] > r[0]):
        if ends and lo <= ends[-1]:
            ends[-1] = max(ends[-1], hi)
        else:
            starts.append(lo)
            ends.append(hi)
    return starts, ends


class _Later(FamilyFacts):
    """The event of a plan's execution of INSTR, made by MAKE(instr) only when a check reports
    at it (`_checked`); what its family says of it read from INSTR meanwhile."""

    __slots__ = ("instr", "make")

    def __init__(self, instr: Instruction, make: Callable):
        self.instr, self.make = instr, make


def _made(ev: Event | _Later) -> Event:
    """EV, or the event it stands for."""
    return ev.make(ev.instr) if type(ev) is _Later else ev


def _negative(w: np.ndarray) -> np.ndarray:
    return w < 0


def _name(instr: Instruction, role: str) -> str:
    if role == "sel":
        src = instr.defn.family.sel_column_source(instr.fields)
        o = instr.operands.get(src) if src else None
    else:
        o = instr.operands.get(role)
    if o is not None and o.tensor is not None:
        return f"{role} {o.tensor.name}"
    return "select mask" if role == "sel" else role


def _inits_written(inits: list[tuple[int, int]], writer: Record) -> None:
    """The writer's record as the run starts: INIT's byte ranges INITS written (0), in order
    (`HazardChecks.on_start`: when the record is first used)."""
    for lo, hi in inits:
        if hi > lo:
            writer.fill(span_footprint(lo, hi), 0)
