"""The debugger's fast path: `continue` through the run's plans where nothing can stop motion.

`continue` (and `run`, `until`/`advance` to a location) moves forward until a breakpoint, a
watchpoint, an error or the end. Instruction by instruction through the reference path, with a
full snapshot of the registers and an event per instruction, it cost several times a run. Here
the session's executor runs the fast loop's plans (simulator/fused.py), the same ones `pipev
run` takes, and every planned execution still leaves one exact record in the undo log, built in
bulk: a plan's write runs, its rerun body and its record sizes are worked out once per plan, and
each execution adds the bytes it overwrote and wrote, the register snapshot only when a scalar
changed one, and the timing record `time` would have published (`TimingModel.plan_records`).
So stepping back after a fast `continue` is exactly as after a slow one.

What may stop motion is checked per plan, not per instruction:
- a breakpoint (line, label, pc, `until`/`advance`): the loop stops before the flat index it
  sits at, and the session checks it there as after any record (its condition, ignore count);
- a byte watchpoint: an execution whose write runs overlap a watched UB range is declined by
  its plan (the reference path executes it, and the session's check fires); GM is written by
  DMA only, which has no plan;
- anything else (a register watch, a cycle breakpoint, `--werror`) keeps the whole motion on
  the reference path (`DebugLoop.can_run`).
The loop also stops at the first instruction without a plan (the session executes that one
through the reference path and asks the loop to learn from it) and on an interrupt.
"""

from __future__ import annotations

import sys
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from isa.decode import VectorOp
from simulator.fused import FastLoop
from simulator.problems import Fault
from simulator.semantics import scalar

from .undo import (
    EVENT_BYTES,
    LIST_BYTES,
    RECORD_BYTES,
    TIMING_BYTES,
    WRITE_BYTES,
    Record,
    Write,
    regs_bytes,
    snapshot,
    undo,
    vector_runs,
)

if TYPE_CHECKING:  # pragma: no cover
    from isa.program import Instruction


class DebugLoop(FastLoop):
    """A session's fast loop: plans wrapped to record each execution (see the module doc)."""

    def __init__(self, session: Any):  # a debugger/session.py Session, which imports this
        super().__init__(session.ex)
        # the session holds this loop: a weak reference back keeps a dropped session (and its
        # undo log, tens of thousands of records) freed at once, not left to the collector
        self._session = weakref.ref(session)
        self.watched: tuple[tuple[int, int], ...] = ()  # enabled watchpoints' UB ranges
        self.refreshes: list[Callable[[], None]] = []  # each vector plan's: watched changed
        # the record the last plan call made; (writes, registers) while its body runs
        self.planned_record: Record | tuple | None = None
        self.planned = 0  # executions recorded through plans (tests check the path was taken)
        session.recorder.planning = True

    @property
    def s(self) -> Any:
        return self._session()

    # -- what may fire -------------------------------------------------------------------------
    def can_run(self) -> bool:
        """Whether motion may take the plans at all: no register watch, no cycle breakpoint
        (they are checked per record), no warning promoted to an error."""
        s = self.s
        if s.werror or s.model is None:
            return False
        return not any(b.enabled and b.kind not in ("watch",) and not b.pcs
                       for b in s.breaks.values())

    def arm(self) -> frozenset[int]:
        """Before a fast stretch: the watched UB ranges (for the plans) and the flat indices
        a breakpoint may stop before (for the loop)."""
        s = self.s
        me = s.block()[0]
        live = [b for b in s.breaks.values() if b.enabled and b.core in (None, me)]
        watched = tuple(sorted((b.lo, b.hi) for b in live if b.kind == "watch"
                               and b.space is None))
        if watched != self.watched:
            self.watched = watched
            for refresh in self.refreshes:
                refresh()
        pcs = frozenset().union(*(b.pcs for b in live)) if live else frozenset()
        if not pcs:
            return frozenset()
        return frozenset(s.source.start_of(pc) for pc in pcs)

    # -- the loop ------------------------------------------------------------------------------
    def run_plans(self, stops: frozenset[int]) -> bool:
        """Run planned executions from the source's index, one record each, until the next
        instruction has no plan (or its plan declines it), a flat index in STOPS, the end or
        an interrupt. Returns whether any ran. The first is never stopped at: motion starts
        there, or the session checked its breakpoint after the record before it. A plan's
        fault is the reference path's (`Executor.fail`): its writes are put back and the
        session stops on it."""
        s, ex, source, hist = self.s, self.ex, self.source, self.s.hist
        plans, flat, records = self.plans, source.flat, hist.records
        n_flat, budget = len(flat), hist.budget
        limit = ex.uncounted  # (past it the reference path counts the step)
        i = source.index
        pos0 = pos = s.pos
        steps, uops, planned = ex.steps, s.uops, self.planned
        prev = s.cycle(pos)  # the cycle figures' running maximum (`Session._time`)
        try:
            while i < n_flat and not s.interrupted:
                instr = flat[i]
                plan = plans.get(instr.body)
                if plan is None and plans:
                    plan = plans.get((instr.text, instr.file))
                if plan is None or steps >= limit:
                    break
                ex.steps = steps + 1
                try:
                    nxt = plan(instr, i)
                except Fault as f:
                    self._fault(instr, i, f)
                    return True
                if nxt is None:  # the reference path issues this one (and counts it)
                    ex.steps = steps
                    break
                steps += 1
                rec, self.planned_record = self.planned_record, None
                if rec.__class__ is not Record:  # a plan this loop did not wrap: never made
                    raise RuntimeError(f"{instr.text}: a plan ran without a record")
                rec.next_index = nxt
                end = rec.end
                prev = rec.cycle = end if end > prev else prev
                records.append(rec)
                hist.nbytes += rec.nbytes + 8
                if hist.nbytes > budget:
                    hist._trim(pos)  # as `UndoLog.extend`, never past this point
                pos += 1
                planned += 1
                uops += rec.repeats or 1
                i = nxt
                if i in stops:
                    break
        finally:
            self.planned_record = None
            source.index = i
            s.pos = s.mpos = pos
            s.uops = uops
            self.planned = planned
        return pos != pos0

    def settle(self) -> None:
        """Hand every plan's sums to their owners (the timing stage's busy cycles, the
        statistics' counts): before the executor finishes and whenever motion ends."""
        for settle in self.settles:
            settle()

    def _fault(self, instr: Instruction, i: int, f: Fault) -> None:
        """A plan raised FAULT at INSTR (flat index I): what the session does when the reference
        path faults (the executor reports it; what the instruction wrote is put back)."""
        s, ex = self.s, self.ex
        pending = self.planned_record  # (writes, registers) from before its body ran
        self.planned_record = None
        if pending is not None:
            writes, regs = pending
            undo(s.machine, Record(i, instr, None, 0, None, writes, regs, regs))
        self.source.index = i
        try:
            ex.fail(instr, f.problem)
        except Fault:
            pass
        s.recorder.stale = True
        s.fault = ex.diagnostics[-1]

    def learn_after(self, instr: Instruction, state: tuple) -> None:
        """After the reference path executed INSTR (MASK/CTRL were STATE before it): its plan,
        as the fast loop learns it."""
        m = self.m
        if instr.body in self.plans or (instr.text, instr.file) in self.plans \
                or instr.text in self.never or state != (m.mask_hi, m.mask_lo, m.counter):
            return
        self._learn(instr, self.plans)

    # -- recording plans -----------------------------------------------------------------------
    def _reg_plan(self, learnt: Instruction, issue: Callable) -> Callable | None:
        """None: a reg-based instruction steps through the reference path, which records it
        (its registers are the undo log's)."""
        return None

    def _moving_plan(self, learnt: Instruction) -> Callable:
        """A run that declines: a decoding seen once steps through the reference path, which
        records it (every plan the loop runs must leave a record)."""
        return _declines

    def _batchable(self, learnt: Instruction) -> None:
        """Nothing: lines run one at a time in a session (each leaves a record)."""

    def _mask_plan(self, learnt: Instruction) -> Callable | None:
        """None: a MASK or mask-mode writer takes the reference path in a session (its record
        snapshots the registers it changes; every plan the loop runs must leave a record)."""
        return None

    def _vector_plan(self, learnt: Instruction, vop: VectorOp, body: Callable, arg,
                     miss: Callable | None = None) -> Callable | None:
        """The fast loop's plan wrapped to record each execution; MISS as there (checked here,
        before anything is recorded)."""
        plan = super()._vector_plan(learnt, vop, body, arg)
        if plan is None:
            return None
        s, m, model = self.s, self.m, self.model
        timing = model.plan_records(self._planned(learnt, "V", vop, vop.repeats))
        if timing is None:
            return None
        r = vop.repeats
        repeat, runs = (0, vector_runs(vop, 0)) if r == 1 else (None, vector_runs(vop, None))
        rerun_body = self.ex.isa.bodies[vop.family.name]  # the reference path's (`split`)
        ub = m.ub
        q = model.queues["V"]
        writes_cmpmask = vop.family.writes_cmpmask
        recorder = s.recorder
        # Record.measure's figures for every execution of this plan (the register snapshot's
        # share is added when a compare changed CMPMASK)
        size = RECORD_BYTES + LIST_BYTES + 8 * len(runs) + sum(
            WRITE_BYTES + 2 * n for _, n in runs) + sys.getsizeof(vop) + TIMING_BYTES + (
            _beats_bytes(vop, model, learnt))
        hit = False

        def refresh() -> None:  # the watched ranges changed (`arm`)
            nonlocal hit
            hit = _overlaps(runs, self.watched)
        refresh()
        self.refreshes.append(refresh)
        one = runs[0] if len(runs) == 1 else None
        guard, mask_hi, mask_lo, ctr = miss is not None, m.mask_hi, m.mask_lo, m.counter

        def recorded(instr: Instruction, i: int, arg=arg) -> int | None:
            if guard and (m.mask_lo != mask_lo or m.mask_hi != mask_hi or m.counter != ctr):
                return miss(instr, i)
            if hit:
                return None  # the reference path executes it: the session's check fires
            if one is not None:
                lo, n = one
                writes = [Write(None, lo, ub[lo:lo + n].tobytes())]
            else:
                writes = [Write(None, lo, ub[lo:lo + n].tobytes()) for lo, n in runs]
            before, v_end = model.s_time, q.last_end
            regs = after = recorder.regs
            self.planned_record = (writes, regs)  # put back should the plan fault
            nxt = plan(instr, i, arg)  # (the bytes written are read when it is undone)
            nbytes = size
            if writes_cmpmask:
                after = snapshot(m, regs)
                if after != regs:
                    recorder.regs = after
                    nbytes += regs_bytes(after, regs)
                else:
                    after = regs
            end = q.last_end
            # Record(index, instr, repeat, repeats, op, writes, regs_before, regs_after,
            # completes, next_index (the loop's), end, cycle (the loop's), timing, event,
            # rerun, label, nbytes): one call, no attribute set after it
            self.planned_record = Record(
                i, instr, repeat, r, vop, writes, regs, after, True, 0, end, 0,
                (timing, before, v_end, model.s_time, end), None,
                None if repeat is not None else (rerun_body, arg), None, nbytes)
            return nxt
        return recorded

    def _scalar_plan(self, learnt: Instruction, effect: Callable[[list[int]], bool]
                     ) -> Callable | None:
        taken = [False]

        def seen(x: list[int]) -> bool:
            t = taken[0] = effect(x)
            return t
        plan = super()._scalar_plan(learnt, seen)
        if plan is None:
            return None
        s, m, model = self.s, self.m, self.model
        planned = self._planned(learnt, "S", None, 1)
        timing = model.plan_records(planned)
        if timing is None:
            return None
        recorder = s.recorder
        branch = planned.event  # a branch's record keeps its event (`loops` reads `taken`)
        is_branch = scalar.target_of(learnt) is not None
        size = RECORD_BYTES + LIST_BYTES + TIMING_BYTES

        def recorded(instr: Instruction, i: int) -> int:
            regs = after = recorder.regs
            before = model.s_time
            self.planned_record = ((), regs)  # put back should the plan fault
            nxt = plan(instr, i)
            x = tuple(m.x)
            nbytes = size
            if x != regs[5]:
                after = recorder.regs = (*regs[:5], x, *regs[6:])
                nbytes += regs_bytes(after, regs)
            end = model.s_time
            ev = None
            if is_branch:
                ev = branch(instr, taken[0])
                ev.timing = timing(before, end)
                ev.compact()
                nbytes += EVENT_BYTES
            self.planned_record = Record(  # (the fields as in the vector plan's record)
                i, instr, None, 0, None, [], regs, after, True, 0, end, 0,
                (timing, before, end) if ev is None else ev.timing, ev, None, None, nbytes)
            return nxt
        return recorded


def _overlaps(runs: list[tuple[int, int]], watched: tuple[tuple[int, int], ...]) -> bool:
    return any(a < hi and lo < a + n for a, n in runs for lo, hi in watched)


def _beats_bytes(vop: VectorOp, model, learnt) -> int:
    beats = model._vector_cost(vop, model.class_of(learnt))[0]
    return beats.nbytes if beats is not None else 0


def _declines(instr: Instruction, i: int, vop: VectorOp, arg) -> None:
    return None
