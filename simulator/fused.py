"""The fused executor: `Executor.run`'s fast path when only the default observers listen.

With nothing but the run's statistics and hazard checks watching (no trace, debugger, user or
internal observer), an instruction is issued by the reference path until its text ran twice (a
text that runs once never pays for a plan); every later execution at that MASK/CTRL runs the
plan worked out then, which returns the flat index to continue at:
- a vector instruction whose issue depends on nothing but its text and MASK/CTRL
  (`semantics.vector.prepared`: static operands, checks passed cleanly once): the body on the
  shared decoding (a prepared body where the family has one), the timing stage's V booking
  bound to the precomputed cost (`TimingModel.vector_booker`; no InstrTiming record), the busy
  cycles to the line, and the hazard checks' hook for the decoding (`HazardChecks.vector_hook`:
  a clock and a pending fill while nothing calls for a check);
- a register-addressed one (or one whose scalar is read at issue): its addresses, fields and
  scalar read now, the decoding looked up in the decode cache as the reference path does, then
  that decoding's plan as above; without a stored decoding it declines (the reference path
  issues that execution and words its diagnostics);
- a scalar instruction or branch (`semantics.scalar.PREPARE`): its effect on the registers,
  S's booking (`TimingModel.scalar_booker`), the busy cycles to the line; a taken branch
  continues at its target's flat index.
Sums that are only added to (counts, busy cycles, stalls) are settled once per plan when the
loop ends. Everything else — DMA, flags, barriers, MASK/CTRL and CMPMASK moves, halt, a first
execution, a decoding with diagnostics, a mode-2 vsel — takes the reference path
(`Executor.execute`) in the same loop, so state flows between the two paths instruction by
instruction. Functional results, diagnostics and every cycle figure are identical
(tests/differential/test_fused.py runs both).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from isa.decode import VectorOp
from isa.families import VECTOR
from simulator.events import Event
from simulator.hazards import HazardChecks
from simulator.problems import Fault
from simulator.semantics import scalar, vector
from simulator.sources import ProgramSource
from simulator.stats import Statistics

if TYPE_CHECKING:  # pragma: no cover
    from isa.program import Body, Instruction
    from simulator.executor import Executor

ENABLED = True  # tests switch it off to run the reference path alone
# a register-addressed instruction's plan keeps at most this many decodings' plans (a loop
# walking UB has one per address; past it, the reference path issues the new ones)
DECODINGS_PER_PLAN = 1024


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
    if ex.timing is not None:
        from simulator.timing import TimingModel

        if type(ex.timing) is not TimingModel:
            return None
    return FusedRun(ex, stats, hazards)


class FusedRun:
    def __init__(self, ex: Executor, stats: Statistics, hazards: HazardChecks | None):
        self.ex, self.stats, self.hazards = ex, stats, hazards
        self.m, self.source, self.model = ex.m, ex.source, ex.timing
        # (MASK_HI, MASK_LO, counter) -> instruction body -> plan (`_plan`), and (text, file)
        # -> plan for the lines of that text whose body is their own (a `.loc` line's, one with
        # `{i}`: the assembler shares a body between the lines of one physical line's text);
        # only the reference path changes MASK/CTRL
        self.plans: dict[tuple, dict[Body | tuple[str, str], Callable]] = {}
        self.never: set[str] = set()  # texts that never have a plan
        # texts the reference path executed once: a plan is made at the second execution (a
        # text that runs once, as most of long straight-line code does, would only pay for it)
        self.once: set[str] = set()
        self.settles: list[Callable[[], None]] = []  # each plan's: its sums to the statistics

    def run(self) -> None:
        """Execute the source to its end (the executor started the run and finishes it)."""
        try:
            self._loop()
        finally:  # a failed run reports its counts too
            for settle in self.settles:
                settle()

    def _loop(self) -> None:
        ex, m, never = self.ex, self.m, self.never
        source, learn = self.source, self._learn
        flat, max_steps = source.flat, ex.max_steps
        state = (m.mask_hi, m.mask_lo, m.counter)
        plans = self.plans.setdefault(state, {})
        i = source.index  # the source's index, kept here while plans run (they need not see it)
        steps = ex.steps  # the executor's, which only this loop moves on
        try:
            while True:
                try:
                    instr = flat[i]
                except IndexError:
                    break
                if steps >= max_steps:
                    ex._count(instr)  # fails with the reference path's words
                steps += 1
                ex.steps = steps
                plan = plans.get(instr.body)
                if plan is None and plans:  # a line of a planned text with a body of its own
                    plan = plans.get((instr.text, instr.file))
                if plan is not None:
                    try:
                        nxt = plan(instr, i)
                    except Fault as f:
                        ex.fail(instr, f.problem)
                    if nxt is not None:
                        i = nxt
                        continue
                    # this execution is the reference path's (e.g. a register-addressed
                    # instruction at addresses whose decoding is not stored yet)
                source.index = i
                try:
                    ex.execute(instr)
                except Fault as f:
                    ex.fail(instr, f.problem)
                i = source.index
                if ex.done:
                    break
                after = (m.mask_hi, m.mask_lo, m.counter)
                if after != state:
                    state, plans = after, self.plans.setdefault(after, {})
                elif plan is None and instr.text not in never:
                    learn(instr, plans)
        finally:
            source.index = i

    def _learn(self, instr: Instruction, plans: dict) -> None:
        """After INSTR's reference execution (which left MASK/CTRL as they were): its plan at
        this MASK/CTRL, if it can have one, kept for its body and for its (text, file)."""
        fam = instr.defn.family
        isa = self.ex.isa
        issue = isa.issue.get(fam.name)
        prepare = scalar.PREPARE.get(issue)
        if prepare is not None:
            if fam.writes_cmpmask or fam.cmpmask_reads(instr.fields):
                self.never.add(instr.text)
                return
        elif fam.kind != VECTOR or issue is not vector.issue or fam.name not in isa.bodies \
                or instr.is_static and fam.cmpmask_addr(instr.fields):
            self.never.add(instr.text)  # mode 2 included: its mask address is state
            return
        if instr.text not in self.once:
            self.once.add(instr.text)
            return
        if prepare is not None:
            plan = self._scalar_plan(instr, *prepare(instr))
        elif instr.is_static and vector.fixed_scalar(instr):
            got = vector.prepared(self.ex, instr)
            if got is None:  # e.g. a decoding with diagnostics, or a no-op: not stored
                return
            plan = self._plan(instr, *got)
        else:  # register-addressed, or a scalar read at issue from UB or a register
            plan = self._dynamic_plan(instr)
        plans[instr.body] = plans[(instr.text, instr.file)] = plan

    def _scalar_plan(self, learnt: Instruction, effect: Callable[[list[int]], bool | None],
                     target: int | None) -> Callable:
        """plan(instr, i): one execution of a scalar instruction or branch of LEARNT's body —
        its effect on the registers (`semantics.scalar.PREPARE`), the timing stage's S booking
        (`TimingModel.scalar_booker`), its busy cycles to the line — returning the flat index
        to continue at. The hazard checks have nothing to do for it (no UB access, no CMPMASK),
        and the statistics' sums wait for the settle."""
        m, stats, model, source, x = self.m, self.stats, self.model, self.source, self.m.x
        dest = source.start_of(target) if target is not None else None
        executions = 0
        if model is None:
            def plan(instr: Instruction, i: int) -> int:
                nonlocal executions
                executions += 1
                return dest if effect(x) else i + 1

            def settle() -> None:
                nonlocal executions
                stats.instructions += executions
                stats.uops += executions
                executions = 0
            self.settles.append(settle)
            return plan

        book, settle_timing = model.scalar_booker()
        own, line_busy, ex = stats.own, stats.line_busy, self.ex
        sized = stats.own_slots(learnt.file)

        def event(instr: Instruction, taken: bool = False) -> Event:  # a .loc line's first,
            mask = (m.mask_hi, m.mask_lo)  # for its text
            ev = Event(ex.steps - 1, instr, "S", None, 1, None, taken, mask, m.counter, mask,
                       m.counter, ex._cmpmask, source)
            ev.core = ex.core
            return ev

        def event_taken(instr: Instruction) -> Event:
            return event(instr, True)

        def timed(instr: Instruction, i: int) -> int:
            nonlocal executions
            taken = effect(x)
            busy = book(taken)
            executions += 1
            line = instr.line
            if 0 < line < sized:
                own[line] += busy
            else:
                line_busy(instr, busy, event_taken if taken else event)
            return dest if taken else i + 1

        def settle_timed() -> None:
            nonlocal executions
            busy = settle_timing()
            stats.instructions += executions
            stats.uops += executions
            stats.busy["S"] += busy
            executions = 0
        self.settles.append(settle_timed)
        return timed

    def _dynamic_plan(self, learnt: Instruction) -> Callable:
        """plan(instr, i): one execution of a register-addressed vector instruction of LEARNT's
        body — its addresses and fields read from the registers now (`Executor.resolve`), the
        decoding looked up as the reference path does (`Executor.decodings`: one whose checks
        passed cleanly at these addresses relative to each other), the scalar read at issue —
        then the plan of that decoding (`_plan`, made at its second sighting). None when the
        reference path must issue it: no decoding stored for these addresses (its checks still
        to run, or a diagnostic to word), a mode-2 mask address, a decoding seen once."""
        ex, m, fam = self.ex, self.m, learnt.defn.family
        resolve, get, cmpmask_addr = ex.resolve, ex.decodings.get, fam.cmpmask_addr
        fixed = vector.fixed_scalar(learnt)
        read_scalar = vector.scalar_bytes
        arg0 = read_scalar(ex, learnt) if fixed else None
        known: dict[VectorOp, Callable] = {}  # a decoding -> its plan (holding it alive)
        sighted: set[int] = set()  # ids of decodings seen once
        ub_bytes = m.ub.size

        def plan(instr: Instruction, i: int) -> int | None:
            addrs, fields = resolve(instr)
            if cmpmask_addr(fields):
                return None
            vop = get(instr, addrs, fields, (m.mask_hi, m.mask_lo), m.counter, None)
            if vop is None:
                return None
            step = known.get(vop)
            if step is None:
                step = learn(vop)
                if step is None:
                    return None
            return step(instr, i, arg0 if fixed else read_scalar(ex, instr))

        def learn(vop: VectorOp) -> Callable | None:
            if id(vop) not in sighted or len(known) >= DECODINGS_PER_PLAN:
                if len(sighted) >= DECODINGS_PER_PLAN:
                    sighted.clear()
                sighted.add(id(vop))
                return None
            step = known[vop] = self._plan(learnt, vop, vector.body_of(vop, ub_bytes, ex.isa), None)
            return step
        return plan

    def _plan(self, learnt: Instruction, vop: VectorOp, body: Callable, arg) -> Callable:
        """plan(instr): one execution of an instruction of LEARNT's body (its text at its file)
        with this decoding, body and scalar — what `Executor.execute`, the timing stage and
        the statistics do for it, with everything that depends on the decoding alone bound
        once. The statistics' sums wait for the plan's settle (in `settles`), which `run`
        calls at its end."""
        ex, m, source, core, r = self.ex, self.m, self.source, self.ex.core, vop.repeats

        def event(instr: Instruction) -> Event:
            mask = (m.mask_hi, m.mask_lo)  # MASK/CTRL are this plan's: a vector op keeps them
            ev = Event(ex.steps - 1, instr, "V", vop, r, None, False, mask, m.counter, mask,
                       m.counter, ex._cmpmask, source)
            ev.core = core
            return ev

        # the hazard checks' event, brought up to date when they look at it: they keep nothing
        # of an event but its instruction (the statistics keep events: theirs are fresh)
        told = event(vop.instr)

        def told_for(instr: Instruction) -> Event:
            told.seq, told.instr, told._cmpmask = ex.steps - 1, instr, ex._cmpmask
            return told

        hook = self.hazards.vector_hook(told, told_for) if self.hazards is not None else None
        if self.model is None:
            return self._untimed(vop, body, arg, hook)
        return self._timed(learnt, vop, body, arg, hook, event)

    def _untimed(self, vop: VectorOp, body: Callable, arg, hook) -> Callable:
        """The plan with timing off: the body, CMPMASK as events report it, the hazard hook."""
        ex, m, stats, r = self.ex, self.m, self.stats, vop.repeats
        writes_cmpmask, executions = vop.family.writes_cmpmask, 0

        def plan(instr: Instruction, i: int, arg=arg) -> int:
            nonlocal executions
            body(m, vop, arg, 0, r)
            if writes_cmpmask:
                ex._cmpmask = m.cmpmask.tobytes()
            executions += 1
            if hook is not None:
                hook(instr)
            return i + 1

        def settle() -> None:
            nonlocal executions
            stats.instructions += executions
            stats.uops += executions * r
            executions = 0
        self.settles.append(settle)
        return plan

    def _timed(self, learnt: Instruction, vop: VectorOp, body: Callable, arg, hook,
               event: Callable[[Instruction], Event]) -> Callable:
        """The plan with timing on: also the V booking and the busy cycles to the line."""
        ex, m, stats, model, r = self.ex, self.m, self.stats, self.model, vop.repeats
        writes_cmpmask, own, line_busy = vop.family.writes_cmpmask, stats.own, stats.line_busy
        cls = model.class_of(vop.instr)  # the class follows the text's fields
        cost = model.vector_cost(vop, cls)
        book, settle_timing = model.vector_booker(cls, cost)
        issue_cost, extra = model.scalar_issue, cost[3]
        # lines whose cycles go straight to own[line]; a plan's instructions share their body,
        # so their file
        sized = stats.own_slots(learnt.file)

        def plan(instr: Instruction, i: int, arg=arg) -> int:
            body(m, vop, arg, 0, r)
            if writes_cmpmask:
                ex._cmpmask = m.cmpmask.tobytes()
            busy = book()
            line = instr.line
            if 0 < line < sized:
                own[line] += busy
            else:
                line_busy(instr, busy, event)
            if hook is not None:
                hook(instr)
            return i + 1

        def settle() -> None:
            n, busy, stalled = settle_timing()
            if n:
                stats.instructions += n
                stats.uops += n * r
                stats.busy["V"] += busy
                stats.busy["S"] += n * issue_cost
                stats.stalls["queue_full"] += stalled
                stats.stalls["bank_conflict"] += n * extra
        self.settles.append(settle)
        return plan
