"""A stream's statements through the fast loop's plans (simulator/fused.py `FastLoop.issue`)
against the reference path alone (`Stream(fast=False)`).

The C++ and TIK front ends issue API statements whose registers change from call to call (a
count form's counter-mode bracket of MASK writers, high-dimensional forms at moving addresses).
Random sequences of such statements, each repeated with the same and with new register values,
must leave everything identical both ways: UB's raw bytes, every diagnostic, every cycle figure,
the counts, stalls, hot lines, the timing model's final state and the registers; a failing
stream must fail with the same diagnostics and partial UB.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.errors import SimulationError
from simulator.stream import Stream
from tests.differential.test_random_programs import SETTINGS

UB = (("a", "f32", 2048, 0), ("b", "f32", 2048, 0x2000), ("z", "f32", 2048, 0x4000),
      ("d", "u8", 1024, 0x6000), ("d16", "u16", 512, 0x6000))
INIT = ("duplicate.f32 a, 1.5, count=2048", "duplicate.f32 b, 1.5, count=1024",
        "duplicate.u16 d16, 0x5a5a, count=512")
CMP = ("lt", "gt", "eq", "le", "ge", "ne")


@st.composite
def statements(draw):
    """(text, regs) of one API statement, its registers drawn (sometimes out of range)."""
    kind = draw(st.sampled_from(("count", "hd", "select", "add", "mask", "cmpmask")))
    tile = st.integers(0, 7)
    if kind == "count":
        n = draw(st.sampled_from((1, 63, 64, 100, 256, 1000, 2048, 70000)))
        j = draw(tile)
        return (f"compare.{draw(st.sampled_from(CMP))}.f32 d[x1], a[x2], b[x3], count=x4",
                (j * 32, j * 64, draw(tile) * 64, n))
    if kind == "hd":
        j = draw(tile)
        return ("compare.lt.f32 d[x1], a[x2], b[x3], repeat=x4, stride=1,1,1,8,8,8, "
                f"mask={draw(st.sampled_from((64, 17, 1)))}",
                (j * 32, j * 64, j * 64, draw(st.integers(0, 4))))
    if kind == "select":
        j = draw(tile)
        return ("select.f32 z[x1], d[x2], a[x3], b[x4], mode=0, repeat=x5, "
                "stride=1,1,1,8,8,8, mask=x6",
                (j * 64, j * 32, draw(tile) * 64, j * 64, draw(st.integers(1, 3)),
                 draw(st.sampled_from((64, 5, 0)))))
    if kind == "add":
        j = draw(tile)
        return ("add.f32 z[x1], a[x2], b[x3], count=x4",
                (j * 64, j * 64, draw(tile) * 64, draw(st.sampled_from((8, 64, 130, 512)))))
    if kind == "mask":
        return ("set_vector_mask x1, x2", (draw(st.integers(0, 2**64 - 1)),
                                            draw(st.integers(0, 2**64 - 1))))
    return ("compare.lt.f32 cmpmask, a[x1], b[x2], stride=1,1,1,8,8,8", (draw(tile) * 64, 0))


def _outcome(calls, fast: bool, timing: bool, max_steps: int = 10_000_000,
             checks: str = "error") -> tuple:
    s = Stream("ascend910b", name="s", fast=fast, timing=timing, max_steps=max_steps,
               checks=checks)
    for name, dtype, count, addr in UB:
        s.declare_ub(name, dtype, count, addr)
    s.declare_gm("g", "f32", np.arange(2048, dtype=np.float32).view(np.uint8))
    try:
        for k, text in enumerate(INIT):
            s.issue(text, file="k.cpp", line=1 + k)
        for line, text, regs in calls:
            s.issue(text, file="k.cpp", line=line, regs=regs)
        r = s.finish()
    except SimulationError as e:
        return ("error", e.diagnostics, bytes(s.machine.ub), s.executor.steps)
    return ("ok", bytes(r.ub), r.diagnostics, r.cycles, r.pipes, r.instructions, r.uops,
            r.stalls, r.hot_lines, r.timing, r.registers, s.vasm_text(), s.executor.steps)


@settings(SETTINGS, max_examples=60)
@given(st.lists(st.tuples(statements(), st.integers(1, 4), st.booleans()), min_size=1,
                max_size=8), st.booleans())
def test_a_stream_runs_the_same_with_plans_and_without(program, timing):
    """Each drawn statement runs 1-4 times at its line, its addresses moved to the next tile or
    kept with its last register (count, repeat, mask) changed, then the whole sequence again
    (plans made the first time run the second; a statement whose instructions all have plans
    by then is issued as a group)."""
    same_both_ways(_calls(program), timing)


@settings(SETTINGS, max_examples=40)
@given(st.lists(st.tuples(statements(), st.integers(1, 4), st.booleans()), min_size=1,
                max_size=8), st.integers(4, 160))
def test_a_stream_stops_at_max_steps_the_same_with_plans_and_without(program, max_steps):
    """--max-steps reached anywhere, inside a statement's group too: the same error at the same
    instruction, the same partial UB."""
    same_both_ways(_calls(program), True, max_steps)


def same_both_ways(calls, timing: bool, max_steps: int = 10_000_000,
                   checks: str = "error") -> tuple:
    want = _outcome(calls, False, timing, max_steps, checks)
    got = _outcome(calls, True, timing, max_steps, checks)
    assert got[0] == want[0], (got[:2], want[:2])
    for k, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g == w, f"field {k} differs: fast {g!r}\nreference {w!r}"
    return got


def _calls(program) -> list:
    calls = []
    for line, ((text, regs), times, moves) in enumerate(program, start=10):
        for t in range(times):
            shifted = tuple(r + 64 * t if moves and k < 2 and r < 512 else r
                            for k, r in enumerate(regs))
            if not moves and t % 2:  # the same addresses with another count, repeat or mask
                shifted = (*shifted[:-1], shifted[-1] // 2 + 1)
            calls.append((line, text, shifted))
    return calls + calls


def test_the_count_forms_bracket_runs_on_plans():
    """The counter-mode bracket of a count form (set_mask_count, set_vector_mask, the
    instruction, set_mask_norm, set_vector_mask) takes no reference execution once learnt."""
    s = Stream("ascend910b", name="s")
    for name, dtype, count, addr in UB:
        s.declare_ub(name, dtype, count, addr)
    for k, text in enumerate(INIT):
        s.issue(text, file="k.cpp", line=1 + k)
    calls = []
    original = s.executor.execute

    def counted(instr):
        calls.append(instr.text)
        return original(instr)
    s.executor.execute = counted
    for _ in range(2):
        calls.clear()
        for i in range(10):
            s.issue("compare.lt.f32 d[x1], a[x2], b[x3], count=x4", file="k.cpp", line=9,
                    regs=(0, 64 * (i % 2), 0, 256))
    assert calls == []  # the first round learnt every instruction at both addresses
    assert s.finish().instructions == 3 * 5 + 20 * 5


@pytest.mark.parametrize("max_steps", range(18, 44))
def test_max_steps_inside_a_count_forms_group(max_steps):
    """The count form's bracket issued as a group from its third call on (after the five plans
    were learnt): --max-steps reached at each of its instructions stops both ways at the same
    instruction, with the same steps counted."""
    calls = [(9, "compare.lt.f32 d[x1], a[x2], b[x3], count=x4", (0, 64 * (i % 2), 0, 256))
             for i in range(8)]
    same_both_ways(calls, True, max_steps)


def test_a_learnt_statement_is_issued_as_one_group():
    """Once the bracket's five plans exist, a call runs them as its group: no instruction of it
    goes through the per-instruction loop (its `count`), and the steps still count all five."""
    s = Stream("ascend910b", name="s")
    for name, dtype, count, addr in UB:
        s.declare_ub(name, dtype, count, addr)
    counted = []
    original = s.executor.count
    s.executor.count = lambda instr: (counted.append(instr.text), original(instr))
    for i in range(6):
        counted.clear()
        s.issue("compare.lt.f32 d[x1], a[x2], b[x3], count=x4", file="k.cpp", line=9,
                regs=(0, 64 * (i % 2), 0, 256))
    assert counted == []
    assert s.executor.steps == 6 * 5
    assert s.finish().instructions == 6 * 5


def test_a_groups_mask_writers_run_inline_and_leave_what_their_plans_leave(monkeypatch):
    """A statement's group runs its MASK writers' steps inline (simulator/fused.py `_group`),
    not through their plans: once the bracket is grouped no MASK writer's plan is called, and
    the same statement from two lines, its count changing, leaves everything (UB, counts,
    cycles, hot lines, registers, the recording) as the reference path does."""
    from simulator.fused import FastLoop

    called: list[str] = []
    learn = FastLoop._mask_plan

    def counted(self, learnt):
        plan = learn(self, learnt)
        if plan is None:
            return None

        def wrapper(instr, i):
            called.append(instr.text)
            return plan(instr, i)
        if plan in self.inline:  # the group finds the wrapper's inline steps
            self.inline[wrapper] = self.inline.pop(plan)
        return wrapper
    monkeypatch.setattr(FastLoop, "_mask_plan", counted)
    text = "compare.lt.f32 d[x1], a[x2], b[x3], count=x4"
    calls = [(9, text, (0, 0, 0, 256))] * 3 + \
        [(12, text, (32, 64, 64, n)) for n in (100, 100, 7, 7, 1000)] + [(9, text, (0, 0, 0, 9))]
    same_both_ways(calls * 2, True)
    s = Stream("ascend910b", name="s")
    for name, dtype, count, addr in UB:
        s.declare_ub(name, dtype, count, addr)
    for k, t in enumerate(INIT):
        s.issue(t, file="k.cpp", line=1 + k)
    for line, t, regs in calls:
        s.issue(t, file="k.cpp", line=line, regs=regs)
    called.clear()
    for _ in range(3):
        s.issue(text, file="k.cpp", line=9, regs=(0, 0, 0, 256))
    assert s._fast.groups and len(s._fast.inline) == 4
    assert called == []


def _run_outcome(values, fast: bool) -> tuple:
    """A statement of two MASK writers at one line (set_mask_norm, then set_mask.f32 x1:
    a run, `FastLoop._mask_run`), then a masked add, issued with each of VALUES in x1."""
    s = Stream("ascend910b", name="s", fast=fast)
    for name, dtype, count, addr in UB:
        s.declare_ub(name, dtype, count, addr)
    for k, text in enumerate(INIT):
        s.issue(text, file="k.cpp", line=1 + k)
    hw = []
    for text in ("set_mask_norm", "set_mask.f32 x1"):  # each assembled at line 9
        s.issue(text, file="k.cpp", line=9, regs=(64,))
        hw += s._statements[("k.cpp", 9, text)]
    s._statements[("k.cpp", 9, "both")] = hw
    try:
        for v in values:
            s.issue("both", file="k.cpp", line=9, regs=(v,))
            s.issue("add.f32 z[0], a[0], b[0], repeat=1", file="k.cpp", line=10)
        r = s.finish()
    except SimulationError as e:
        return ("error", e.diagnostics, bytes(s.machine.ub), s.executor.steps,
                s.machine.mask, s.machine.counter)
    return ("ok", bytes(r.ub), r.diagnostics, r.cycles, r.pipes, r.instructions, r.uops,
            r.stalls, r.hot_lines, r.timing, r.registers, s.executor.steps)


@pytest.mark.parametrize("values", [(64, 64, 17, 17, 64, 3, 3, 3), (64, 64, 17, 17, 0),
                                    (5, 5, 5, 99)])
def test_a_run_of_mask_writers_leaves_what_each_would(values):
    """Consecutive MASK writers of a statement run as one (one booking, their result kept per
    MASK/CTRL and register values): the same UB, MASK, counts, cycles and hot lines as the
    reference path; a write that fails (a length MASK cannot take) stops the run at it with
    the same error, the writes before it counted."""
    want, got = _run_outcome(values, False), _run_outcome(values, True)
    for k, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g == w, f"field {k} differs: fast {g!r}\nreference {w!r}"


def test_a_statements_mask_writers_run_as_one():
    """The count form's bracket, once grouped, books its two runs of MASK writers as two
    plans of two instructions each (`Planned.run`), and no writer's own plan runs."""
    s = Stream("ascend910b", name="s")
    for name, dtype, count, addr in UB:
        s.declare_ub(name, dtype, count, addr)
    for i in range(5):
        s.issue("compare.lt.f32 d[x1], a[x2], b[x3], count=x4", file="k.cpp", line=9,
                regs=(0, 64 * (i % 2), 0, 256))
    (instrs, _), = s._fast.groups.values()
    cells = [fold[3] for fold in s._fast.inline.values()]
    before = [c[0] for c in cells]
    s.issue("compare.lt.f32 d[x1], a[x2], b[x3], count=x4", file="k.cpp", line=9,
            regs=(0, 0, 0, 256))
    assert [c[0] for c in cells] == before  # the writers' own plans did not count it
    assert s.finish().instructions == 6 * 5


COUNT_FORM = "compare.lt.f32 d[x1], a[x2], b[x3], count=x4"


def _counting_members(monkeypatch, called: list) -> None:
    """The fast loop's runs of MASK writers and register-addressed vector plans wrapped: each
    call of one appends to CALLED (their resolvers, what a keyed group chains, move with them)."""
    from simulator.fused import FastLoop

    for name in ("_mask_run", "_dynamic_plan"):
        make = getattr(FastLoop, name)

        def counted(self, *args, make=make):
            plan = make(self, *args)
            if plan is None or plan not in self.resolvers:
                return plan

            def wrapper(*a):
                called.append(a)
                return plan(*a)
            self.resolvers[wrapper] = self.resolvers.pop(plan)
            return wrapper
        monkeypatch.setattr(FastLoop, name, counted)


def test_a_keyed_group_calls_no_member_for_values_it_has_seen(monkeypatch):
    """A count form's group keyed by its registers and MASK/CTRL (simulator/fused.py `_keyed`):
    once a call's values were seen, the call runs its chain (the runs' after-states, the
    decoding's step) without calling a member; new values go through the members, which learn
    them; everything stays as the reference path leaves it."""
    called: list = []
    _counting_members(monkeypatch, called)
    calls = [(9, COUNT_FORM, (32 * j, 64 * j, 64 * j, n)) for n in (256, 100, 256)
             for _ in range(3) for j in (0, 1)]
    same_both_ways(calls, True)
    s = Stream("ascend910b", name="s")
    for name, dtype, count, addr in UB:
        s.declare_ub(name, dtype, count, addr)
    for line, text, regs in calls:
        s.issue(text, file="k.cpp", line=line, regs=regs)
    assert called  # the members learnt the values
    called.clear()
    for line, text, regs in calls:
        s.issue(text, file="k.cpp", line=line, regs=regs)
    assert called == []
    s.issue(COUNT_FORM, file="k.cpp", line=9, regs=(0, 0, 0, 7))  # a count not seen
    assert called


def test_a_keyed_group_keeps_each_check_mask_write_and_cycle():
    """Calls that run their keyed chain (values seen before) check, write MASK and book as the
    reference path: an unsynchronised DMA into what the count form reads is a race at the
    call after it; the MASK the bracket leaves (normal mode, all ones) is what a masked add
    then finds, after a set_vector_mask between calls too; cycles, hot lines, registers, UB
    and every diagnostic are the same both ways."""
    add = "add.f32 z[x1], a[x1], b[x1], repeat=1"  # reads MASK as the bracket left it
    seen = [(9, COUNT_FORM, (32 * j, 64 * j, 64 * j, 256)) for _ in range(4) for j in (0, 1)]
    calls = seen + [(10, add, (0,)), (11, "copy_gm_to_ub a, g, nburst=1, burst=8", ()),
                    (9, COUNT_FORM, (0, 0, 0, 256)), (12, "set_vector_mask x1, x2", (5, 7)),
                    (10, add, (64,)), (9, COUNT_FORM, (32, 64, 64, 256)), (10, add, (128,))]
    got = same_both_ways(calls, True, checks="warn")
    races = [d for d in got[2] if d.line == 9 and "read-after-write" in d.message]
    assert races, got[2]


def _mask_outcome(masks, fast: bool) -> tuple:
    """A register-addressed add (one instruction: a keyed group of one plan) issued after each
    of MASKS ((mode, hi, lo): `set_mask_count` / `set_mask_norm`, then `set_vector_mask`, at
    line 10), at two addresses in turn: one reads b where INIT wrote it, the other across its
    end (the footprint, and so the init check, follows MASK)."""
    s = Stream("ascend910b", name="s", fast=fast)
    for name, dtype, count, addr in UB:
        s.declare_ub(name, dtype, count, addr)
    for k, text in enumerate(INIT):
        s.issue(text, file="k.cpp", line=1 + k)
    for k, (mode, hi, lo) in enumerate(masks):
        s.issue(mode, file="k.cpp", line=10)
        s.issue("set_vector_mask x1, x2", file="k.cpp", line=10, regs=(hi, lo))
        s.issue("add.f32 z[x1], a[x1], b[x1], repeat=1", file="k.cpp", line=9,
                regs=(1016 * (k % 2),))
    r = s.finish()
    return (bytes(r.ub), r.diagnostics, r.cycles, r.pipes, r.instructions, r.hot_lines,
            r.timing, r.registers, s.executor.steps)


def test_a_keyed_group_follows_the_mask_it_finds():
    """The same register values at another MASK or mask mode are another key: each call leaves
    what the reference path leaves (a chain keyed without MASK/CTRL would run the decoding of
    another MASK: eight elements of b, where all 64 read past what INIT wrote)."""
    norm, count = "set_mask_norm", "set_mask_count"
    masks = [(norm, 0, 0xff)] * 6 + [(norm, 0, 2**64 - 1)] * 6 + [(count, 0, 40)] * 6 + \
        [(norm, 0, 2**64 - 1), (norm, 0, 0xff), (count, 0, 40)] * 4
    want, got = _mask_outcome(masks, False), _mask_outcome(masks, True)
    assert any("never written" in d.message for d in want[1]), want[1]
    for k, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g == w, f"field {k} differs: fast {g!r}\nreference {w!r}"
