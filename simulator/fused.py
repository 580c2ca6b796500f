"""The fast loop: the reference loop (`Executor.run`) with plans for instructions that repeat.

The run builder (simulator/builder.py) runs it instead of `Executor.run` when the source is an
assembled program and every observer offers plans (`offered`). An instruction is issued by the
reference path (`Executor.execute`) until its text ran twice (a text that runs once never pays
for a plan); every later execution at that MASK/CTRL runs the plan worked out then, which
returns the flat index to continue at. A plan is the same body the reference path runs, bound
once, with the timing stage's and every observer's part of the same executions
(simulator/plans.py: `TimingModel.plan`, `Observer.plan`); when any of them declines, that
instruction keeps taking the reference path. Plans exist for:
- a vector instruction whose issue depends on nothing but its text and MASK/CTRL
  (`semantics.vector.prepared`: static operands, checks passed cleanly once): its body on the
  shared decoding (`semantics.vector.body_of`);
- a register-addressed one (or one whose scalar is read at issue): its addresses, fields and
  scalar read now, the decoding looked up in the decode cache as the reference path does, then
  that decoding's plan as above — or, for a decoding moved from another and seen once (a walk
  through UB), the instruction's moving plan (`_moving_plan`); without a stored decoding it
  declines (the reference path issues that execution and words its diagnostics);
- the lines of one shape (`Body.shape`: an unrolled kernel's statement at other tensor
  indices, each line run once), once two of them ran: each line's decoding moved from the
  shape's as the reference path finds it, the family's body, and the parts bound once for the
  shape (`Planned.op` a Varying set to each line's decoding; `_shape_plan`);
- consecutive lines not run before, an unrolled kernel's tiles (each the same statements of
  shapes with plans, every operand moving by one step from tile to tile): one batch, each
  statement's lines one decoding of that many repeats through the family's body, the timing
  stage booking each line, the observers taking them all or declining (simulator/batches.py);
- a scalar instruction or branch (`semantics.scalar.EFFECTS`): the same effect on the
  registers the family's issue applies; a taken branch continues at its target's flat index.
- a MASK or mask-mode writer (`semantics.registers`): the family's own issue and write, read
  at each execution (vector plans read MASK/CTRL at each of theirs, so they follow it).
Everything else — DMA, flags, barriers, CMPMASK moves, halt, a first execution, a decoding with
diagnostics, a mode-2 vsel — takes the reference path in the same loop, so state flows between
the two paths instruction by instruction. A stream (simulator/stream.py) runs each statement's
instructions through `issue`, with the same plans (no branches: a stream has no flat index);
once every instruction of a statement has its plan, the statement is issued as one group (a
count form's counter-mode bracket of five: the plans in order, without a lookup or a count
each, its MASK writers' steps run inline; `_group`); a group of MASK-writer runs and
register-addressed vector plans finds its whole chain by one lookup on its registers and
MASK/CTRL (`_keyed`).
Functional results, diagnostics and every cycle figure are identical
(tests/differential/test_fused.py runs both).

This module reads only what other modules make public: the executor's driving methods, the
source's `index`, the semantics' registries and the plans' contract.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING

from isa.decode import VectorOp
from isa.families import REGISTER, VECTOR
from isa.program import RegExpr
from simulator import regplans
from simulator.batches import Batches
from simulator.events import Observer
from simulator.plans import Booked, Planned, Varying, per_execution
from simulator.problems import Fault
from simulator.semantics import registers, scalar, vector
from simulator.sources import ProgramSource, StreamSource

if TYPE_CHECKING:  # pragma: no cover
    from isa.program import Body, Instruction
    from simulator.executor import Executor

# a register-addressed instruction's plan keeps at most this many decodings' plans (a loop
# walking UB has one per address; past it, the reference path issues the new ones)
DECODINGS_PER_PLAN = 1024
# a static vector instruction's plan keeps at most this many MASK/CTRL values' plans (a kernel
# uses a few: full, a tail; past it, the reference path issues the new ones)
MASKS_PER_PLAN = 64
# a stream keeps at most this many statements' groups (one per call site and text)
GROUPS = 4096
_DECLINED = object()  # a decoding some observer declined to plan (the reference path issues it)


def offered(source, timing, observers: Sequence[Observer]) -> bool:
    """Whether a run of SOURCE with this timing stage and OBSERVERS may take the fast loop: an
    assembled program (`FastLoop.run`) or a stream (`FastLoop.issue`, a statement at a time),
    a timing stage with plans, and every observer offering plans (one that does not would
    decline every instruction)."""
    return type(source) in (ProgramSource, StreamSource) \
        and (timing is None or hasattr(timing, "plan")) \
        and all(type(ob).plan is not Observer.plan for ob in observers)


class _Masked:
    """The plans of LEARNT's body, a static vector instruction whose decoding follows MASK/CTRL
    (`FastLoop._masked_plan`): one for each value in force, made at its second sighting. An
    object, not closures over one another (those formed a cycle): `release` empties its
    tables, and what its plans held goes by reference counting."""

    __slots__ = ("learnt", "ex", "plans", "vector_plan", "keys", "by_state", "sighted",
                 "members")

    def __init__(self, learnt: Instruction, ex: Executor, plans: dict, vector_plan: Callable):
        """EX: the loop's executor, PLANS its plans, VECTOR_PLAN its `_vector_plan`."""
        self.learnt, self.ex, self.plans, self.vector_plan = learnt, ex, plans, vector_plan
        self.keys = (learnt.body, (learnt.text, learnt.file))
        self.by_state: dict[tuple, Callable] = {}
        self.sighted: set[tuple] = set()
        self.members: set[Callable] = set()  # the plans made here (`switch`: not after `forget`)

    def make(self, got: tuple) -> Callable | None:
        return self.vector_plan(self.learnt, *got, miss=self.switch)

    def find(self, state: tuple) -> Callable | None:
        """The plan at STATE, or None (the reference path issues this execution)."""
        step = self.by_state.get(state)
        if step is None:
            step = self.learn(state)
        return None if step is _DECLINED else step  # (declined: looked up again)

    def switch(self, instr: Instruction, i: int) -> int | None:
        """A plan's MISS: the plan of the value now in force runs this execution, and becomes
        the one LEARNT's keys find."""
        m = self.ex.m
        step = self.find((m.mask_hi, m.mask_lo, m.counter))
        if step is None:
            return None
        plans, keys = self.plans, self.keys
        if plans.get(keys[0]) in self.members:  # (not after `forget`)
            plans[keys[0]] = plans[keys[1]] = step
        return step(instr, i)

    def learn(self, state: tuple) -> Callable | None:
        by_state, sighted = self.by_state, self.sighted
        if state not in sighted or len(by_state) >= MASKS_PER_PLAN:
            if len(sighted) >= MASKS_PER_PLAN:
                sighted.clear()
            sighted.add(state)
            return None
        got = vector.prepared(self.ex, self.learnt)
        if got is None:
            return None
        step = self.make(got)
        by_state[state] = _DECLINED if step is None else step
        if step is not None:
            self.members.add(step)
        return by_state[state]

    def release(self) -> None:
        self.by_state.clear()
        self.members.clear()


class FastLoop:
    """Runs an executor's program with plans (see the module doc)."""

    def __init__(self, ex: Executor):
        self.ex, self.m, self.source, self.model = ex, ex.m, ex.source, ex.timing
        self.observers = ex.observers
        # instruction body -> plan, and (text, file) -> plan for the lines of that text whose
        # body is their own (a `.loc` line's, one with `{i}`: the assembler shares a body
        # between the lines of one physical line's text). One set for every MASK/CTRL: a
        # vector plan follows them itself (`_masked_plan`, `_dynamic_plan`), so a loop that
        # sets a new MASK each iteration keeps no plans per value (only the reference path
        # changes MASK/CTRL)
        self.plans: dict[Body | tuple[str, str], Callable] = {}
        self.never: set[str] = set()  # texts that never have a plan
        # texts the reference path executed once: a plan is made at the second execution (a
        # text that runs once, as most of long straight-line code does, would only pay for it)
        self.once: set[str] = set()
        self.settles: list[Callable[[], None]] = []  # each plan's: its sums to their owners
        # a stream's statement (its list of instructions, by id) -> (that list, its group):
        # the statement's plans issued as a unit (`_group`)
        self.groups: dict[int, tuple[Sequence[Instruction], Callable[[], int]]] = {}
        # a MASK writer's plan -> what a group runs inline instead of calling it (`_mask_plan`)
        self.inline: dict[Callable, tuple] = {}
        # a run of MASK writers or a register-addressed vector plan -> (the registers it reads,
        # link_of(instr, MASK/CTRL) -> (its link in a keyed group, the MASK/CTRL it leaves), or
        # None while its memo has no answer): what `_keyed` chains. A link is (step, a, b,
        # count): the steps move on by COUNT, then step(a, 0, b) (a vector plan's call)
        self.resolvers: dict[Callable, tuple[tuple[int, ...], Callable]] = {}
        # a shape (isa/rebase.py: `Body.shape`, the body the lines of one statement but for
        # tensor indices were rebased from) -> the plan of its lines not yet run (`_shape_plan`),
        # None for a shape seen once or declined: an unrolled kernel's lines each run once
        self.shapes: dict[Body, Callable | None] = {}
        # consecutive lines run as one batch (an unrolled kernel's tiles: simulator/batches.py)
        self.batches = Batches(self)
        # each MASK-following plan's tables (`_masked_plan`), emptied by `release`: their
        # plans and its `switch` refer to one another through them
        self.masked: list[_Masked] = []

    def run(self) -> None:
        """Execute the program to its end, started and finished as `Executor.run` does."""
        ex = self.ex
        ex.start()
        try:
            self._loop()
        finally:  # a failed run reports its counts too
            for settle in self.settles:
                settle()
        ex.finish()

    def _loop(self) -> None:
        ex, m, never = self.ex, self.m, self.never
        source, learn = self.source, self._learn
        flat, max_steps = source.flat, ex.max_steps
        plans, shapes, shaped, once = self.plans, self.shapes, self._shape_plan, self.once
        batched, batch = self.batches.shapes, self.batches.run
        i = source.index  # the source's index, kept here while plans run (they need not see it)
        steps = ex.steps  # the executor's, which only this loop moves on
        limit = ex.uncounted  # (past it, the next step fails or is shown to the loop probe)
        try:
            while True:
                try:
                    instr = flat[i]
                except IndexError:
                    break
                if steps >= limit:
                    if steps >= max_steps:
                        ex.count(instr)  # fails with the reference path's words
                    ex.probed(instr, i, steps + 1)
                    limit = ex.uncounted
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
                    shape = None
                else:
                    shape = instr.body.shape
                    if shape is not None:  # a line rebased from another's build
                        step = shapes.get(shape)
                        if shape in batched:  # consecutive lines as one batch
                            nxt = batch(i, max_steps - steps + 1)
                            if nxt is not None:
                                steps += nxt - i - 1
                                ex.steps = steps
                                i = nxt
                                continue
                        if step is not None:
                            try:
                                nxt = step(instr, i)
                            except Fault as f:
                                ex.fail(instr, f.problem)
                            if nxt is not None:
                                i = nxt
                                text = instr.text  # run again, it has a plan of its own
                                if text not in once:
                                    once.add(text)
                                elif text not in never:
                                    learn(instr, plans)
                                continue
                        elif shape not in shapes:
                            shapes[shape] = None  # seen once: planned after its next line
                            shape = None
                source.index = i
                state = (m.mask_hi, m.mask_lo, m.counter)
                try:
                    ex.execute(instr)
                except Fault as f:
                    ex.fail(instr, f.problem)
                i = source.index
                if ex.done:
                    break
                if shape is not None and shapes[shape] is None:  # (its decoding now stored)
                    shapes[shape] = shaped(instr) or _declines
                    self._batchable(instr)
                if plan is None and instr.text not in never and \
                        (state == (m.mask_hi, m.mask_lo, m.counter)
                         or instr.defn.family.kind == REGISTER):
                    learn(instr, plans)
        finally:
            source.index = i

    def issue(self, instrs: Sequence[Instruction]) -> None:
        """Execute INSTRS, a stream's statement (simulator/stream.py), in order: each by its
        plan when its text has one (learnt as `_loop` learns them: a stream's statements
        repeat with new register values), else by the reference path, which takes it from the
        source's queue. Counts steps and fails as `Executor.step` does; `settle` hands the
        plans' sums to their owners."""
        group = self.groups.get(id(instrs))
        start = 0
        if group is not None and group[0] is instrs:
            start = group[1]()
            if start == len(instrs):
                return
        ex, m, never, plans, learn = self.ex, self.m, self.never, self.plans, self._learn
        queue = self.source.queue
        count, execute, get = ex.count, ex.execute, plans.get
        for instr in instrs[start:] if start else instrs:
            count(instr)
            plan = get(instr.body)
            if plan is None and plans:
                plan = get((instr.text, instr.file))
            if plan is not None:
                try:
                    nxt = plan(instr, 0)
                except Fault as f:
                    ex.fail(instr, f.problem)
                if nxt is not None:
                    continue
            state = (m.mask_hi, m.mask_lo, m.counter)
            queue.append(instr)
            try:
                execute(instr)  # takes it from the queue
            except Fault as f:
                ex.fail(instr, f.problem)
            if plan is None and instr.text not in never and \
                    (state == (m.mask_hi, m.mask_lo, m.counter)
                     or instr.defn.family.kind == REGISTER):
                learn(instr, plans)
        if group is None and len(self.groups) < GROUPS:
            self._group(instrs)

    def _group(self, instrs: Sequence[Instruction]) -> None:
        """Once every instruction of a stream's statement INSTRS has its plan: the statement's
        group, issued as a unit (a count form's counter-mode bracket of five): group() runs the
        members' plans in order, counting their steps, and returns how many it ran — all, or
        the index of the first whose plan left it to the reference path (that one and the rest
        then take `issue`'s loop; with max_steps in reach, none). Consecutive MASK writers
        run as one (`_mask_run`), else each runs its plan's steps inline (`_mask_plan`'s).
        Kept by the statement's list (the stream keeps one per call site and text; `forget`
        drops them with the plans)."""
        plans, get, inline = self.plans, self.plans.get, self.inline
        members: list[tuple] = []
        folds: list[tuple] = []
        for instr in instrs:
            plan = get(instr.body)
            if plan is None and plans:
                plan = get((instr.text, instr.file))
            if plan is None:
                return
            fold = inline.get(plan)
            if fold is not None and not 0 < instr.line < fold[4]:  # (else the plan's sink)
                folds.append((plan, instr, fold))
                continue
            members.extend(self._folds(folds))
            folds = []
            members.append((plan, instr, None, None, None, None, None))
        members.extend(self._folds(folds))
        ex, m, n, parts = self.ex, self.m, len(instrs), tuple(members)

        def group() -> int:
            steps = ex.steps
            if steps + n > ex.max_steps:
                return 0  # `count` stops the run with its words
            k = steps
            for plan, instr, write, book, cycles, key, cell in parts:
                if write is None:
                    if instr is None:  # a run of MASK writers: how many of them ran
                        ran = plan(k)
                        k += ran
                        if ran < key:
                            return k - steps
                        continue
                    k += 1
                    ex.steps = k
                    try:
                        nxt = plan(instr, 0)
                    except Fault as f:
                        ex.fail(instr, f.problem)
                    if nxt is None:  # the reference path issues it: `issue` counts it again
                        ex.steps = k - 1
                        return k - 1 - steps
                    continue
                # a MASK writer: its plan's steps, without the call
                k += 1
                ex.steps = k
                found = (m.mask_hi, m.mask_lo, m.counter)
                if not write(m, instr):
                    ex.steps = k - 1
                    return k - 1 - steps
                cell[1] = found
                if key is not None:
                    cycles[key] += book(False)
                else:
                    cycles(instr, book(False), False)
                cell[0] += 1
            return n
        self.groups[id(instrs)] = (instrs, self._keyed(parts, n, group) or group)

    def _keyed(self, parts: tuple, n: int, group: Callable[[], int]) -> Callable[[], int] | None:
        """GROUP (`_group`'s) with one lookup an issue: when every member is a run of MASK
        writers or a register-addressed vector plan with a fixed scalar (`self.resolvers`), what
        the whole statement does follows from the registers its members read and MASK/CTRL as
        it finds them — each run's after-state, each plan's decoding step. keyed() looks that
        chain up by those values and runs its links (`_links`), each as the member's own call
        would after its lookup: the same steps, writes, bookings and counts. A chain is made by
        asking the members' memos (what the group's own calls learnt); while one has no answer
        yet, GROUP runs and learns. None when a member has no resolver."""
        members = []
        for plan, instr, write, *_ in parts:
            resolver = self.resolvers.get(plan) if write is None else None
            if resolver is None:
                return None
            members.append((*resolver, instr))
        ex, m, x = self.ex, self.m, self.m.x
        regs = sorted({r for reg_set, _, _ in members for r in reg_set})
        values = itemgetter(*regs) if regs else _no_values  # the registers' values, at once
        chains: dict[tuple, tuple] = {}

        def keyed() -> int:
            steps = ex.steps
            if steps + n > ex.max_steps:
                return 0  # `count` stops the run with its words
            key = (values(x), m.mask_hi, m.mask_lo, m.counter)
            links = chains.get(key)
            if links is None:
                links = _links(members, (m.mask_hi, m.mask_lo, m.counter))
                if links is None:
                    return group()
                if len(chains) >= DECODINGS_PER_PLAN:
                    chains.clear()
                chains[key] = links
            for step, instr, arg, count in links:
                steps += count
                ex.steps = steps
                try:
                    step(instr, 0, arg)
                except Fault as f:  # (a vector body's; a run's link does not fault)
                    ex.fail(instr, f.problem)
            return n
        return keyed

    def _folds(self, folds: list[tuple]) -> list[tuple]:
        """A group's members for FOLDS, consecutive MASK writers, each (plan, instr, inline
        part): one run of them all (`_mask_run`), else each with its steps inline — its busy
        cycles to its line's slot when the statistics give one (`ObserverPlan.slot`: the
        member is the same instruction each time), else through its `elsewhere`."""
        if not folds:
            return []
        run = self._mask_run([(instr, fold) for _, instr, fold in folds]) \
            if len(folds) > 1 else None
        if run is not None:
            return [(run, None, None, None, None, len(folds), None)]
        out = []
        for plan, instr, (write, book, elsewhere, cell, _, slot) in folds:
            cycles, key = (slot(instr) if slot is not None else None) or (elsewhere, None)
            out.append((plan, instr, write, book, cycles, key, cell))
        return out

    def _mask_run(self, writers: list[tuple[Instruction, tuple]]) -> Callable | None:
        """run(steps) -> how many of WRITERS ran: consecutive MASK writers of a group, each
        (instr, its plan's inline part: `_mask_plan`), run from step STEPS on as one plan of
        `Planned.run` instructions at their line (one booking, their busy cycles to the line's
        slot at once). What the writes leave (MASK, CTRL's mode, MASK_LO's source) follows
        from MASK/CTRL and the registers they read: worked out by the writes once for those
        values (at most DECODINGS_PER_PLAN kept), then set directly. A write that fails
        stops the run there: the writes before it booked one by one, the reference path
        words the error. None when an observer does not take runs (`plans_runs`), an owner
        declines the run or the line has no slot."""
        ex, m, size = self.ex, self.m, len(writers)
        first = writers[0][0]
        if any((i.file, i.line) != (first.file, first.line) for i, _ in writers) or \
                not all(ob.plans_runs for ob in self.observers):
            return None
        cell: list = [0, (m.mask_hi, m.mask_lo, m.counter)]  # as `_mask_plan`'s

        def event(at: Instruction, taken: bool = False):
            hi, lo, counter = cell[1][:3]
            return ex.event_at(at, "S", None, 1, taken, ((hi, lo), counter))
        parts = self._parts(Planned(first, "S", None, 1, self.model is not None, event,
                                    size))
        if parts is None:
            return None
        book, _, _, elsewhere, each0, _, settle_parts, slot = parts
        at = slot(first) if each0 is None and elsewhere is not None and slot is not None \
            else None
        if at is None:
            return None
        cycles, key = at
        regs = tuple(sorted({o.value.reg for i, _ in writers for o in i.operands.values()
                             if isinstance(o.value, RegExpr)}))
        read = m.x.__getitem__
        memo: dict[tuple, tuple] = {}
        untouched = object()  # MASK_LO's source while no write of the run set it

        def run(steps: int) -> int:
            state = (m.mask_hi, m.mask_lo, m.counter, *map(read, regs))
            after = memo.get(state)
            if after is None:
                after = learn(steps, state)
                if after.__class__ is int:
                    return after
            ex.steps = steps + size
            put(state, 0, after)
            return size

        def put(state: tuple, _: int, after: tuple) -> None:
            """The run from STATE on, whose writes leave AFTER: set, booked, counted."""
            m.mask_hi, m.mask_lo, m.counter, source = after
            if source is not untouched:
                m.mask_source = source
            cell[1] = state
            cycles[key] += book(False)
            cell[0] += 1

        def link_of(_: Instruction | None, found: tuple) -> tuple | None:
            state = (*found, *map(read, regs))
            after = memo.get(state)
            return None if after is None else ((put, state, after, size), after[:3])

        def learn(steps: int, state: tuple) -> tuple | int:
            entry = m.mask_source
            m.mask_source = untouched  # nothing reads it while MASK writers run
            found = []
            try:
                for instr, fold in writers:
                    found.append((m.mask_hi, m.mask_lo, m.counter))
                    if not fold[0](m, instr):
                        return prefix(steps, found)
                if len(memo) >= DECODINGS_PER_PLAN:
                    memo.clear()
                after = memo[state] = (m.mask_hi, m.mask_lo, m.counter, m.mask_source)
                return after
            finally:
                if m.mask_source is untouched:
                    m.mask_source = entry

        def prefix(steps: int, found: list[tuple]) -> int:
            """The writers before the one that failed (FOUND: what each found), each
            booked by its own plan's steps (`_mask_plan`'s); how many ran."""
            k = len(found) - 1
            for (instr, (_, book_one, elsewhere_one, cell_one, _, _)), state in \
                    zip(writers[:k], found, strict=False):
                steps += 1
                ex.steps = steps
                cell_one[1] = state
                elsewhere_one(instr, book_one(False), False)
                cell_one[0] += 1
            return k

        def settle() -> None:
            n, cell[0] = cell[0], 0
            settle_parts(n * size)
        self.settles.append(settle)
        self.resolvers[run] = (regs, link_of)
        return run

    def settle(self) -> None:
        """Every plan's sums to their owners (the timing stage's and the observers' totals
        as the reference path would have left them); again later for later executions."""
        for settle in self.settles:
            settle()

    def forget(self) -> None:
        """Drop every plan (their sums kept for `settle`): a stream redeclared a tensor, so a
        text may now name other addresses."""
        self.plans.clear()
        self.inline.clear()
        self.resolvers.clear()
        self.never.clear()
        self.once.clear()
        self.groups.clear()
        self.shapes.clear()
        self.batches.clear()

    def release(self) -> None:
        """The run is over (`Run.release`): every plan dropped and the tables a plan's closures
        share emptied, so nothing the run made is left in reference cycles (what those would
        hold — the machine, the executor, the checks' steps — goes by reference counting, not
        at the caller's next collection)."""
        self.forget()
        for follower in self.masked:
            follower.release()
        self.masked.clear()

    def _learn(self, instr: Instruction, plans: dict) -> None:
        """After INSTR's reference execution (which left MASK/CTRL as they were, unless INSTR
        writes them): its plan at this MASK/CTRL, if it can have one, kept for its body and for
        its (text, file)."""
        fam = instr.defn.family
        isa = self.ex.isa
        issue = isa.issue.get(fam.name)
        effect_of = scalar.EFFECTS.get(issue)
        if effect_of is not None:
            if fam.writes_cmpmask or fam.cmpmask_reads(instr.fields) or \
                    type(self.source) is not ProgramSource and scalar.target_of(instr) \
                    is not None:  # a stream has no flat index to branch to
                self.never.add(instr.text)
                return
        elif issue is registers.issue:
            if fam.writes_cmpmask or fam.cmpmask_reads(instr.fields):
                self.never.add(instr.text)
                return
        elif regplans.plannable(issue, fam):  # issue 34: a reg-based register instruction
            pass
        elif not _vector_planned(instr, isa):
            self.never.add(instr.text)  # mode 2 included: its mask address is state
            return
        if instr.text not in self.once:
            self.once.add(instr.text)
            return
        if effect_of is not None:
            plan = self._scalar_plan(instr, scalar.effect(instr, effect_of))
        elif issue is registers.issue:
            plan = self._mask_plan(instr)
        elif fam.kind != VECTOR:  # plannable above
            plan = self._reg_plan(instr, issue)
        elif instr.is_static and vector.fixed_scalar(instr):
            got = vector.prepared(self.ex, instr)
            if got is None:  # e.g. a decoding with diagnostics, or a no-op: not stored
                return
            plan = self._masked_plan(instr, got)
        else:  # register-addressed, or a scalar read at issue from UB or a register
            plan = self._dynamic_plan(instr)
        if plan is None:  # an observer declined
            self.never.add(instr.text)
            return
        plans[instr.body] = plans[(instr.text, instr.file)] = plan

    def _parts(self, planned: Planned, takes: list | None = None) -> tuple | None:
        """(book, sink, limit, elsewhere, each0, each1, settle, slot) of PLANNED: the timing
        stage's booking (book() -> busy cycles; a scalar's book(taken)); the first per-line
        sink (`ObserverPlan.lines`: busy cycles to sink[line] for 0 < line < limit, else its
        owner's each, ELSEWHERE, and its SLOT or None); the other per-execution parts (in
        two, None when missing: a plan calls them without a loop); and settle(executions),
        which hands every owner its sums. None when any owner declines. A Batch plan's
        owners' `batch` parts (each taking a batch or not) are appended to TAKES."""
        model, timing = self.model, None
        if model is not None:
            timing = model.plan(planned)
            if timing is None:
                return None
        eaches, settles, sink, limit, elsewhere, slot = [], [], None, 0, None, None
        for ob in self.observers:
            part = ob.plan(planned)
            if part is None:
                return None
            each = part.each
            if part.lines is not None:
                if sink is None:
                    (sink, limit), elsewhere, each = part.lines, each, None
                    slot = part.slot
                else:
                    each = per_execution(*part.lines, each)
            if each is not None:
                eaches.append(each)
            if part.settle is not None:
                settles.append(part.settle)
            if part.batch is not None and takes is not None:
                takes.append(part.batch)
        if timing is None:
            book, booked = _no_cycles, Booked
        else:
            book, booked = timing

        def settle(n: int) -> None:
            done = booked(n)
            for s in settles:
                s(done)
        if len(eaches) > 2:  # a plan calls two without a loop: the rest one after the second
            eaches[1:] = [_chain(eaches[1:])]
        each0, each1 = (*eaches, None, None)[:2]
        return book, sink, limit, elsewhere, each0, each1, settle, slot

    def _planned(self, instr: Instruction, pipe: str, op, repeats: int) -> Planned:
        ex = self.ex

        def event(at: Instruction, taken: bool = False):
            return ex.event_at(at, pipe, op, repeats, taken)
        return Planned(instr, pipe, op, repeats, self.model is not None, event)

    def _scalar_plan(self, learnt: Instruction, effect: Callable[[list[int]], bool]
                     ) -> Callable | None:
        """plan(instr, i): one execution of a scalar instruction or branch of LEARNT's body —
        its effect on the registers, the timing stage's and the observers' parts — returning
        the flat index to continue at; None when an observer declines."""
        parts = self._parts(self._planned(learnt, "S", None, 1))
        if parts is None:
            return None
        book, sink, limit, elsewhere, each0, each1, settle_parts, _ = parts
        x, target = self.m.x, scalar.target_of(learnt)
        dest = self.source.start_of(target) if target is not None else None
        executions = 0

        def plan(instr: Instruction, i: int) -> int:
            nonlocal executions
            taken = effect(x)
            busy = book(taken)
            line = instr.line
            if 0 < line < limit:
                sink[line] += busy
            elif elsewhere is not None:
                elsewhere(instr, busy, taken)
            if each0 is not None:
                each0(instr, busy, taken)
                if each1 is not None:
                    each1(instr, busy, taken)
            executions += 1
            return dest if taken else i + 1

        def settle() -> None:
            nonlocal executions
            n, executions = executions, 0
            settle_parts(n)
        self.settles.append(settle)
        return plan

    def _mask_plan(self, learnt: Instruction) -> Callable | None:
        """plan(instr, i): one execution of a MASK or mask-mode writer of LEARNT's body — the
        family's write (`registers.effect`, reading its registers now), the timing stage's and
        the observers' parts of an S instruction; None (the reference path words it) when the
        value is one MASK cannot take, or when an observer declines. Vector plans read
        MASK/CTRL at each execution, so they follow what this one leaves."""
        ex, m, write = self.ex, self.m, registers.effect(learnt)
        # [executions since the last settle, the (MASK_HI, MASK_LO, counter) the last execution
        # found]: shared with the statement groups that run this plan inline (`_group`)
        cell: list = [0, (m.mask_hi, m.mask_lo, m.counter)]

        def event(at: Instruction, taken: bool = False):
            hi, lo, counter = cell[1]
            return ex.event_at(at, "S", None, 1, taken, ((hi, lo), counter))
        parts = self._parts(Planned(learnt, "S", None, 1, self.model is not None, event))
        if parts is None:
            return None
        book, sink, limit, elsewhere, each0, each1, settle_parts, slot = parts

        def plan(instr: Instruction, i: int) -> int | None:
            found = (m.mask_hi, m.mask_lo, m.counter)
            if not write(m, instr):
                return None
            cell[1] = found
            busy = book(False)
            line = instr.line
            if 0 < line < limit:
                sink[line] += busy
            elif elsewhere is not None:
                elsewhere(instr, busy, False)
            if each0 is not None:
                each0(instr, busy, False)
                if each1 is not None:
                    each1(instr, busy, False)
            cell[0] += 1
            return i + 1

        def settle() -> None:
            n, cell[0] = cell[0], 0
            settle_parts(n)
        self.settles.append(settle)
        if each0 is None and elsewhere is not None:
            # what a group runs inline for it: the same steps, for instructions at lines the
            # sink does not take (a stream's, which have a file: limit 0)
            self.inline[plan] = (write, book, elsewhere, cell, limit, slot)
        return plan

    def _masked_plan(self, learnt: Instruction, got: tuple) -> Callable | None:
        """plan(instr, i) of a static vector instruction of LEARNT's body, whose decoding
        follows MASK/CTRL: the plan of GOT (`vector.prepared` at the current MASK/CTRL) while
        they stay, else the plan made for the new value at its second sighting (once its
        checks passed there). That plan returns None when the reference path must issue it: a
        value seen once, one an observer declined, or a new one past MASKS_PER_PLAN plans (a
        loop setting a new MASK each iteration would keep every observer's plan for each
        value). None when an observer declines GOT's plan.

        Each value's plan checks MASK/CTRL itself (`_vector_plan`'s MISS: no wrapper call an
        execution; a subclass wrapping `_vector_plan`'s plans checks in its wrapper) and hands
        another value's to `switch`, which also makes the plan of the value now in force the
        one LEARNT's keys find."""
        follower = _Masked(learnt, self.ex, self.plans, self._vector_plan)
        first = follower.make(got)
        if first is None:
            return None
        m = self.m
        follower.by_state[(m.mask_hi, m.mask_lo, m.counter)] = first
        follower.members.add(first)
        self.masked.append(follower)
        return first

    def _reg_plan(self, learnt: Instruction, issue: Callable) -> Callable | None:
        """plan(instr, i) of a reg-based register instruction (simulator/regplans.py)."""
        return regplans.reg_plan(self, learnt, issue)

    def _dynamic_plan(self, learnt: Instruction) -> Callable:
        """plan(instr, i): one execution of a register-addressed vector instruction of LEARNT's
        body — its addresses and fields read from the registers now (`Executor.resolve`), the
        decoding looked up as the reference path does (`Executor.decodings`: one whose checks
        passed cleanly at these addresses relative to each other), the scalar read at issue —
        then the plan of that decoding (`_vector_plan`, made at its second sighting). None
        when the reference path must issue it: no decoding stored for these addresses (its
        checks still to run, or a diagnostic to word), a mode-2 mask address, a decoding seen
        once, one an observer declined."""
        ex, m, fam = self.ex, self.m, learnt.defn.family
        resolve, get, cmpmask_addr = ex.resolve, ex.decodings.get, fam.cmpmask_addr
        fixed = vector.fixed_scalar(learnt)
        read_scalar = vector.scalar_bytes
        arg0 = read_scalar(ex, learnt) if fixed else None
        known: dict[VectorOp, Callable] = {}  # a decoding -> its plan (holding it alive)
        sighted: set[int] = set()  # ids of decodings seen once
        ub_bytes = m.ub.size
        # the registers the addresses and fields read: their values and MASK/CTRL -> the plan
        # they led to (a stream's statement, a loop over a few tiles, re-runs the same values;
        # resolving and looking up the decoding again would find the same plan)
        regs = tuple(sorted({v.reg for v in (*(o.addr for o in learnt.operands.values()
                                                 if o.kind == "mem"), *learnt.fields.values())
                             if isinstance(v, RegExpr)}))
        read = m.x.__getitem__
        by_values: dict[tuple, Callable] = {}
        moving = self._moving_plan(learnt)

        def plan(instr: Instruction, i: int) -> int | None:
            key = (*map(read, regs), m.mask_hi, m.mask_lo, m.counter)
            step = by_values.get(key)
            if step is not None:
                return step(instr, i, arg0 if fixed else read_scalar(ex, instr))
            addrs, fields = resolve(instr)
            if cmpmask_addr(fields):
                return None
            vop = get(instr, addrs, fields, (m.mask_hi, m.mask_lo), m.counter, None)
            if vop is None:
                return None
            step = known.get(vop)
            if step is None:
                step = learn(vop)
                if step is None:  # seen once: a decoding moved (a walk through UB) runs as
                    if vop.origin is None:  # the next one will, without a plan of its own
                        return None
                    return moving(instr, i, vop, arg0 if fixed else read_scalar(ex, instr))
            if step is _DECLINED:
                return None
            if len(by_values) >= DECODINGS_PER_PLAN:
                by_values.clear()
            by_values[key] = step
            return step(instr, i, arg0 if fixed else read_scalar(ex, instr))

        def learn(vop: VectorOp) -> Callable | None:
            if id(vop) not in sighted or len(known) >= DECODINGS_PER_PLAN:
                if len(sighted) >= DECODINGS_PER_PLAN:
                    sighted.clear()
                sighted.add(id(vop))
                return None
            step = self._vector_plan(learnt, vop, vector.body_of(vop, ub_bytes, ex.isa), None)
            known[vop] = _DECLINED if step is None else step
            return known[vop]

        def link_of(instr: Instruction, found: tuple) -> tuple | None:
            step = by_values.get((*map(read, regs), *found))
            return None if step is None else ((step, instr, arg0, 1), found)
        if fixed:  # (a scalar read at issue is read at each execution: no link holds it)
            self.resolvers[plan] = (regs, link_of)
        return plan

    def _shape_plan(self, learnt: Instruction) -> Callable | None:
        """plan(instr, i): one execution of a line of LEARNT's shape (`Body.shape`: the same
        statement but for tensor indices) not run before — its decoding as the reference path
        finds it (`Executor.decodings`: the shape's, moved by shifts that keep every check
        passing), then `_moving_plan`'s run. The plan returns None (the reference path issues
        the line) where no such decoding is stored, or for a line whose fields or definition
        are not LEARNT's. None when LEARNT is not a static vector instruction with an
        immediate scalar (if any) and no mode-2 mask address."""
        ex, m = self.ex, self.m
        if not (learnt.is_static and _vector_planned(learnt, ex.isa)
                and vector.fixed_scalar(learnt)):
            return None
        run, arg = self._moving_plan(learnt), vector.scalar_bytes(ex, learnt)
        fields, defn, get = learnt.fields, learnt.defn, ex.decodings.get
        roles = tuple(role for role, o in learnt.operands.items() if o.kind == "mem")

        def plan(instr: Instruction, i: int) -> int | None:
            if instr.body.fields is not fields or instr.defn is not defn:
                return None
            ops = instr.operands
            vop = get(instr, {role: ops[role].addr for role in roles}, fields,
                      (m.mask_hi, m.mask_lo), m.counter, None)
            return None if vop is None else run(instr, i, vop, arg)
        return plan

    def _batchable(self, learnt: Instruction) -> None:
        """LEARNT's shape (its plan just made) may run its lines in batches when a vector plan
        can run it (simulator/batches.py says what else it needs)."""
        if learnt.is_static and _vector_planned(learnt, self.ex.isa):
            self.batches.add(learnt)

    def _moving_plan(self, learnt: Instruction) -> Callable:
        """run(instr, i, vop, arg) -> i + 1, or None: one execution of an instruction of
        LEARNT's text with VOP, its decoding at this execution (each execution its own: the
        lines of a shape, a register-addressed instruction walking UB), and scalar ARG — the
        family's body, then the timing stage's and the observers' parts, bound once per
        repeat count with `Planned.op` a Varying set to VOP. None (the reference path issues
        it) where an observer declines them for that repeat count."""
        ex, m, fam = self.ex, self.m, learnt.defn.family
        body, writes_cmpmask = ex.isa.bodies[fam.name], fam.writes_cmpmask
        by_repeats: dict[int, Callable | None] = {}

        def bound(r: int) -> Callable | None:
            cell = Varying()

            def event(at: Instruction, taken: bool = False):
                return ex.event_at(at, "V", cell.op, r, taken)
            parts = self._parts(Planned(learnt, "V", cell, r, self.model is not None, event))
            if parts is None:
                return None
            book, sink, limit, elsewhere, each0, each1, settle_parts, _ = parts
            after = per_execution(sink, limit, elsewhere, each0, each1)
            executions = 0

            def step(instr: Instruction, i: int, vop: VectorOp, arg) -> int:
                nonlocal executions
                cell.op = vop
                body(m, vop, arg, 0, r)
                if writes_cmpmask:  # CMPMASK as events report it
                    ex.cmpmask = m.cmpmask.tobytes()
                after(instr, book(), False)
                executions += 1
                return i + 1

            def settle() -> None:
                nonlocal executions
                n, executions = executions, 0
                settle_parts(n)
            self.settles.append(settle)
            return step

        def run(instr: Instruction, i: int, vop: VectorOp, arg) -> int | None:
            r = vop.repeats
            if r not in by_repeats:
                by_repeats[r] = bound(r)
            step = by_repeats[r]
            return None if step is None else step(instr, i, vop, arg)
        return run

    def _vector_plan(self, learnt: Instruction, vop: VectorOp, body: Callable, arg,
                     miss: Callable | None = None) -> Callable | None:
        """plan(instr, i[, arg]): one execution of an instruction of LEARNT's body (its text at
        its file) with this decoding, body and scalar — what `Executor.execute` does for it,
        with the timing stage's and the observers' parts bound once; None when one of them
        declines. With MISS, the plan runs only at the MASK/CTRL it was made at, and returns
        miss(instr, i) at any other (`_masked_plan`)."""
        r = vop.repeats
        parts = self._parts(self._planned(learnt, "V", vop, r))
        if parts is None:
            return None
        book, sink, limit, elsewhere, each0, each1, settle_parts, slot = parts
        ex, m = self.ex, self.m
        writes_cmpmask, executions = vop.family.writes_cmpmask, 0
        guard, hi, lo, ctr = miss is not None, m.mask_hi, m.mask_lo, m.counter
        # the last other file's line (a stream's, a TIK script's: issued again and again)
        # whose busy cycles go to a slot (`ObserverPlan.slot`), and that slot
        slotted_line = slotted_file = cycles = key = None

        def plan(instr: Instruction, i: int, arg=arg) -> int | None:
            nonlocal executions, slotted_line, slotted_file, cycles, key
            if guard and (m.mask_lo != lo or m.mask_hi != hi or m.counter != ctr):
                return miss(instr, i)
            body(m, vop, arg, 0, r)
            if writes_cmpmask:  # CMPMASK as events report it
                ex.cmpmask = m.cmpmask.tobytes()
            busy = book()
            line = instr.line
            if 0 < line < limit:
                sink[line] += busy
            elif line == slotted_line and instr.body.file is slotted_file:
                cycles[key] += busy
            elif elsewhere is not None:
                at = slot(instr) if slot is not None else None
                if at is None:
                    elsewhere(instr, busy, False)
                else:
                    slotted_line, slotted_file, (cycles, key) = line, instr.body.file, at
                    cycles[key] += busy
            if each0 is not None:
                each0(instr, busy, False)
                if each1 is not None:
                    each1(instr, busy, False)
            executions += 1
            return i + 1

        def settle() -> None:
            nonlocal executions
            n, executions = executions, 0
            settle_parts(n)
        self.settles.append(settle)
        return plan


def _links(members: list[tuple], state: tuple) -> tuple | None:
    """The links of a keyed group (`FastLoop._keyed`) from MASK/CTRL STATE on: each member's
    link_of(instr, state) -> (link, the state it leaves), in order; None when one has no
    answer yet."""
    links = []
    for _, link_of, instr in members:
        got = link_of(instr, state)
        if got is None:
            return None
        link, state = got
        links.append(link)
    return tuple(links)


def _no_values(x: list[int]) -> tuple:
    """The values of no registers (a keyed group whose members read none)."""
    return ()


def _chain(eaches: list) -> Callable:
    """One per-execution part calling EACHES in order."""
    def each(instr: Instruction, busy: int, taken: bool) -> None:
        for e in eaches:
            e(instr, busy, taken)
    return each


def _vector_planned(instr: Instruction, isa) -> bool:
    """Whether INSTR is a repeat-driven vector instruction a vector plan can run: ISA's own
    vector issue and a body, and no mode-2 mask address read from CMPMASK (state) when static."""
    fam = instr.defn.family
    return fam.kind == VECTOR and isa.issue.get(fam.name) is vector.issue \
        and fam.name in isa.bodies and not (instr.is_static and fam.cmpmask_addr(instr.fields))


def _declines(instr: Instruction, i: int) -> None:
    """The plan of a shape that has none: the reference path issues its every line."""
    return None


def _no_cycles(taken: bool = False) -> int:
    """The booking with timing off: no cycles."""
    return 0
