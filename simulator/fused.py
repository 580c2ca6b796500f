"""The fused executor: `Executor.run`'s fast path when only the default observers listen.

With nothing but the run's statistics and hazard checks watching (no trace, debugger, user or
internal observer), a vector instruction whose issue depends on nothing but its text and
MASK/CTRL (`semantics.vector.prepared`: static operands, checks passed cleanly once) is issued
once per (text, MASK, CTRL); every later execution runs a plan worked out then: the body on the
shared decoding, the timing stage's booking with the cost precomputed (no InstrTiming record),
the statistics' sums inlined, and the hazard checks fed their event. Everything else — scalar
code, branches, DMA, flags, a first execution, a decoding with diagnostics, a mode-2 vsel, a
scalar read from UB — takes the reference path (`Executor.execute`) in the same loop, so state
flows between the two paths instruction by instruction. Functional results, diagnostics and
every cycle figure are identical (tests/differential/test_fused.py runs both).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from isa.families import VECTOR
from simulator.events import Event
from simulator.hazards import HazardChecks
from simulator.problems import Fault
from simulator.semantics import SEMANTICS, vector
from simulator.sources import ProgramSource
from simulator.stats import Statistics

if TYPE_CHECKING:  # pragma: no cover
    from isa.program import Instruction
    from simulator.executor import Executor

ENABLED = True  # tests switch it off to run the reference path alone


class Plan:
    """One instruction text's execution at one MASK/CTRL, worked out once."""

    __slots__ = ("vop", "body", "arg", "repeats", "cls", "cost", "writes_cmpmask")

    def __init__(self, vop, body, arg, cls, cost):
        self.vop, self.body, self.arg = vop, body, arg
        self.repeats = vop.repeats
        self.cls, self.cost = cls, cost
        self.writes_cmpmask = vop.family.writes_cmpmask


def fused_for(ex: Executor) -> FusedRun | None:
    """The fused loop for EX when its source and observers allow it, else None."""
    if not ENABLED or type(ex.source) is not ProgramSource:
        return None
    stats = hazards = None
    for ob in ex.observers:
        if type(ob) is Statistics and stats is None:
            stats = ob
        elif type(ob) is HazardChecks and hazards is None:
            hazards = ob
        else:
            return None
    if stats is None:
        return None
    return FusedRun(ex, stats, hazards)


class FusedRun:
    def __init__(self, ex: Executor, stats: Statistics, hazards: HazardChecks | None):
        self.ex, self.stats, self.hazards = ex, stats, hazards
        self.m, self.source, self.model = ex.m, ex.source, ex.timing
        # (MASK_HI, MASK_LO, counter) -> text -> Plan; only the reference path changes them
        self.plans: dict[tuple, dict[str, Plan]] = {}
        self.never: set[str] = set()  # texts that never have a plan

    def run(self) -> None:
        """Execute the source to its end (the executor started the run and finishes it)."""
        ex, m, never = self.ex, self.m, self.never
        source, fused, learn = self.source, self._fused, self._learn
        flat, max_steps = source.flat, ex.max_steps
        state = (m.mask_hi, m.mask_lo, m.counter)
        plans = self.plans.setdefault(state, {})
        while not ex.done:
            try:
                instr = flat[source.index]
            except IndexError:
                break
            if ex.steps >= max_steps:
                ex._count(instr)  # fails with the reference path's words
            ex.steps += 1
            plan = plans.get(instr.text)
            if plan is not None:
                try:
                    fused(instr, plan)
                except Fault as f:
                    ex.fail(instr, f.problem)
                continue
            try:
                ex.execute(instr)
            except Fault as f:
                ex.fail(instr, f.problem)
            after = (m.mask_hi, m.mask_lo, m.counter)
            if after != state:
                state, plans = after, self.plans.setdefault(after, {})
            elif instr.text not in never:
                learn(instr, plans)

    def _learn(self, instr: Instruction, plans: dict[str, Plan]) -> None:
        """After INSTR's reference execution (which left MASK/CTRL as they were): its plan at
        this MASK/CTRL, if it can have one."""
        fam = instr.defn.family
        if fam.kind != VECTOR or SEMANTICS.get(fam.name) is not vector.issue or instr.file \
                or not instr.is_static or fam.cmpmask_addr(instr.fields):
            self.never.add(instr.text)  # mode 2 included: its mask address is state
            return
        got = vector.prepared(self.ex, instr)
        if got is None:  # e.g. a decoding with diagnostics, or a no-op: not stored
            return
        vop, body, arg = got
        model = self.model
        cls = cost = None
        if model is not None:
            cls = model.class_of(instr)
            cost = model.vector_cost(vop, cls)
        plans[instr.text] = Plan(vop, body, arg, cls, cost)

    def _fused(self, instr: Instruction, plan: Plan) -> None:
        """One execution of a planned instruction: what `Executor.execute`, the timing stage and
        the statistics do for it, without the generic dispatch."""
        ex, m = self.ex, self.m
        r = plan.repeats
        plan.body(m, plan.vop, plan.arg, 0, r)
        self.source.index += 1
        if plan.writes_cmpmask:
            ex._cmpmask = m.cmpmask.tobytes()
        stats = self.stats
        stats.instructions += 1
        stats.uops += r
        model = self.model
        if model is not None:
            _, start, end, _, stalled = model.book_vector(plan.cls, plan.cost)
            busy = end - start
            model.busy["V"] += busy
            sums = stats.busy
            sums["V"] += busy
            sums["S"] += model.scalar_issue
            stats.line_cycles[("", instr.line)] += busy
            if plan.cost[3]:
                stats.stalls["bank_conflict"] += plan.cost[3]
            if stalled:
                stats.stalls["queue_full"] += stalled
        if self.hazards is not None:
            mask = (m.mask_hi, m.mask_lo)
            ev = Event(ex.steps - 1, instr, "V", plan.vop, r, None, False, mask, m.counter,
                       mask, m.counter, ex._cmpmask, self.source)
            ev.core = ex.core
            self.hazards.on_event(ev)
