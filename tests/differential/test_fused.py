"""The fused executor (simulator/fused.py) against the reference per-instruction path.

Random programs (the generators of test_random_programs.py) are run twice, with the fast path
and with `fast=False` (the reference loop alone), after their statements were repeated — in
place and as a whole body — so that every instruction is executed again at the same and at a changed
MASK/CTRL (the fast path takes over from the second execution). Everything a run reports must
be identical: the raw bytes of UB and of every output, every diagnostic (severity, position,
message), every cycle figure and the timing model's final state, the counts, stalls, hot lines
and registers; a failing run must fail with the same diagnostics and partial UB.
"""

from __future__ import annotations

import re
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simulator
import simulator.builder
from isa.chip import CHIP_DIR
from isa.diagnostics import AssemblyError
from simulator import fused, hazards
from simulator.errors import SimulationError
from simulator.events import Observer
from simulator.plans import ObserverPlan, Planned
from tests.differential.test_bulk_layouts import PipeGen, same_as_byte_hazards
from tests.differential.test_random_programs import SETTINGS, Gen
from tests.reference.hazards import ByteHazardChecks


def _outcome(text: str, checks: str, enabled: bool, **kw) -> tuple:
    try:
        r = simulator.run(text, checks=checks, fast=enabled, **kw)
    except SimulationError as e:
        ub = bytes(e.partial.ub) if getattr(e, "partial", None) is not None else None
        return ("error", e.diagnostics, ub)
    outputs = {k: (v.dtype.str, v.shape, v.tobytes()) for k, v in r.outputs.items()}
    return ("ok", bytes(r.ub), outputs, r.diagnostics, r.cycles, r.time_us, r.pipes,
            r.instructions, r.uops, r.stalls, r.hot_lines, r.timing, r.registers)


def same_both_ways(text: str, checks: str = "error", **kw) -> tuple:
    """Run TEXT both ways; every field of the outcome must be equal. Returns it."""
    want = _outcome(text, checks, False, **kw)
    got = _outcome(text, checks, True, **kw)
    assert got[0] == want[0], f"fused {got[0]}, reference {want[0]}\n{text}"
    for k, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g == w, f"field {k} differs: fused {g!r}\nreference {w!r}\n{text}"
    return got


def same_three_ways(text: str, checks: str, without: dict, what: str) -> tuple:
    """TEXT on the fast loop, on the reference loop and on the fast loop with the FastLoop
    methods WITHOUT names replaced by their stand-ins (WHAT that leaves out, for the
    message): every field of the outcome equal. Returns it."""
    got = _outcome(text, checks, True)
    want = _outcome(text, checks, False)
    with pytest.MonkeyPatch.context() as mp:
        for name, stand_in in without.items():
            mp.setattr(fused.FastLoop, name, stand_in)
        plain = _outcome(text, checks, True)
    for other, name in ((want, "reference loop"), (plain, f"fast loop without {what}")):
        assert got[0] == other[0], f"{got[0]} against the {name}'s {other[0]}\n{text}"
        for k, (g, w) in enumerate(zip(got, other, strict=True)):
            assert g == w, f"field {k} differs from the {name}:\n{g!r}\n{w!r}\n{text}"
    return got


def same_if_it_assembles(text: str, checks: str = "error", **kw) -> None:
    try:
        same_both_ways(text, checks, **kw)
    except AssemblyError:  # a random program may not assemble: nothing to compare
        pass


@st.composite
def repeated_programs(draw, overlap: bool = False) -> str:
    """A random program whose statements run again: each repeated in place 1-4 times, then
    the whole body up to twice more (at whatever MASK/CTRL the pass before left)."""
    return repeated(draw, Gen(draw, overlap).program(), 4, 3)


def repeated(draw, text: str, most: int, passes: int) -> str:
    """TEXT with each statement repeated in place 1-MOST times, the body 1-PASSES times."""
    head = [ln for ln in text.splitlines() if ln.startswith(".")]
    body = [ln for ln in text.splitlines() if not ln.startswith(".")]
    times = draw(st.lists(st.integers(1, most), min_size=len(body), max_size=len(body)))
    body = [ln for ln, k in zip(body, times, strict=True) for _ in range(k)]
    return "\n".join(head + body * draw(st.integers(1, passes))) + "\n"


@settings(SETTINGS, max_examples=150)
@given(repeated_programs())
def test_fused_equals_reference(text):
    same_if_it_assembles(text, "error")


@settings(SETTINGS, max_examples=80)
@given(repeated_programs(overlap=True), st.sampled_from(("off", "warn", "error")))
def test_fused_equals_reference_overlapping_and_every_check_mode(text, checks):
    same_if_it_assembles(text, checks)


@settings(SETTINGS, max_examples=40)
@given(repeated_programs())
def test_fused_equals_reference_without_timing(text):
    same_if_it_assembles(text, "error", timing=False)


VSEL = """.chip ascend910b
.ub x f32[2048] = random(1)
.ub y f32[2048] = random(2)
.ub u f32[2048]
.ub m u8[256] = random(3)
"""


@pytest.mark.parametrize("body", [
    # straight line, a CMPMASK change between identical statements, a MASK change
    "set_cmpmask m\n" + "vsel.f32 x, x, y\n" * 5 + "set_cmpmask m[32]\n" + "vsel.f32 x, x, y\n"
    * 3 + "set_vector_mask 0, 0xff\n" + "vsel.f32 x, x, y\n" * 3,
    # a scalar loop around static vector code (the reference path runs the branch)
    "set_cmpmask m\nli x5, 0\nloop:\nvsel.f32 x, x, y, repeat=2\nvadd.f32 y, x, y\n"
    "add x5, x5, 1\nblt x5, 40, loop\n",
    # uninitialised reads warn once per statement, on either path
    "set_cmpmask m\n" + "vsel.f32 x, u, y\nvsel.f32 u, x, y\n" * 4,
    # vcmp writes CMPMASK, then vsel reads it; strided and partial-mask decodings
    "vcmpv.lt.f32 m, x, y\n" * 3 + "vsel.f32 u, x, y, stride=1,2,1,8,16,8\n" * 3
    + "set_vector_mask 0, 0x3\n" + "vsel.f32 u, x, y\n" * 3 + "get_cmpmask m[64]\n" * 2,
    # a register-addressed statement (never fused) between fused ones; a scalar from UB
    "set_cmpmask m\nli x1, 256\n" + "vsel.f32 x[x1], x, y\nvadds.f32 u, x, 1.5\n"
    "vadds.f32 u, x, 2.5\n" * 3,
    # statements from another file (a C++ recording's .loc): hot lines name it
    '.loc "k.cpp" 7 3\nset_cmpmask m\n' + "vsel.f32 x, x, y\n" * 3 + '.loc "k.cpp" 9 5\n'
    + "vadd.f32 u, x, y\n" * 4,
    # the same text in the program's own lines and then another file's: each line's cycles
    # to its own place
    "set_cmpmask m\n" + "vsel.f32 x, x, y\n" * 4 + '.loc "k.cpp" 9 5\n' + "vsel.f32 x, x, y\n"
    * 4,
    # ... and in a loop, where another file's line runs its plan again
    "set_cmpmask m\nli x5, 0\nloop:\nvsel.f32 x, x, y\n" + '.loc "k.cpp" 9 5\n'
    "vsel.f32 x, x, y\nvadd.f32 u, x, y\nadd x5, x5, 1\nblt x5, 20, loop\n",
    # races on fused statements' bytes: the warnings name the fused statement's line
    ".gm g f32[2048] output\nset_cmpmask m\n" + "vsel.f32 x, x, y\n" * 3 + "copy_ub_to_gm g, x, "
    "nburst=1, burst=8\n" + "vsel.f32 x, x, y\n" * 2 + "copy_ub_to_gm g, x, nburst=1, burst=8"
    "\n",
    # vsel mode 2 reads its mask address from CMPMASK: not fused
    ".ub p u32[8] = [0x3000, 0, 0, 0, 0, 0, 0, 0]\nset_cmpmask p\n"
    + "vsel.f32 u, x, y, mode=2\n" * 3,
])
def test_directed_programs_equal(body):
    outcome = same_both_ways(VSEL + body)
    assert outcome[0] == "ok", outcome


def test_max_steps_stops_both_paths_alike():
    text = VSEL + "set_cmpmask m\n" + "vsel.f32 x, x, y\n" * 50
    assert same_both_ways(text, max_steps=20)[0] == "error"


def test_errors_after_fused_instructions_are_the_same():
    text = VSEL + "set_cmpmask m\n" + "vsel.f32 x, x, y\n" * 4 + "vsel.f32 @0x3ff00, x, y\n"
    got = _outcome(text, "error", True)
    assert got[0] == "error"
    assert got == _outcome(text, "error", False)


def test_fused_path_is_taken_and_left_for_observers(reference_lines):
    """Without observers only set_cmpmask and the first two vsel take the reference path (the
    second makes the plan); with an observer of the user's every instruction does."""
    text = VSEL + "set_cmpmask m\n" + "vsel.f32 x, x, y\n" * 10
    calls = reference_lines
    plain = simulator.run(text)
    assert len(calls) == 3
    calls.clear()
    watched = simulator.run(text, observers=[Observer()])
    assert len(calls) == 11
    assert np.array_equal(plain.ub, watched.ub)


@st.composite
def whole_run_programs(draw) -> str:
    """vsel mode 0 and arithmetic over whole runs (prepared bodies), in place and not, between
    CMPMASK changes, MASK changes and strided or partial-mask statements that take the general
    bodies (NaN scalars included)."""
    t = draw(st.sampled_from(("f16", "f32")))
    n = 256 // (2 if t == "f16" else 4)
    lines = [".chip ascend910b", f".ub a {t}[{n * 40}] = random(1)",
             f".ub b {t}[{n * 40}] = random(2)", f".ub c {t}[{n * 40}]",
             ".ub m u8[512] = random(3)", "set_cmpmask m"]
    places = [f"{v}[{n * k}]" for v in "abc" for k in (0, 1, 4)]
    for _ in range(draw(st.integers(1, 8))):
        r = draw(st.sampled_from((1, 2, 3, 8)))
        dst, src0, src1 = (draw(st.sampled_from(places)) for _ in range(3))
        kind = draw(st.sampled_from(("plain", "plain", "plain", "cmpmask", "mask", "stride")))
        if kind == "cmpmask":
            lines.append(f"set_cmpmask m[{32 * draw(st.integers(0, 15))}]")
        elif kind == "mask":
            lines.append(draw(st.sampled_from(("set_vector_mask 0, 0xff", "set_vector_mask "
                                               "-1, -1"))))
        stride = ", stride=1,1,1,8,8,16" if kind == "stride" else ""
        ustride = ", stride=1,1,8,16" if kind == "stride" else ""
        head = draw(st.sampled_from(("vsel", "vsel", "vadd", "vmul", "vmax", "vsub")))
        lines += [f"{head}.{t} {dst}, {src0}, {src1}, repeat={r}{stride}"] * draw(
            st.integers(1, 4))
        if draw(st.booleans()):  # one-source forms over whole runs too
            head, scalar = draw(st.sampled_from((("vadds", ", -0.0"), ("vmuls", ", 2.5"),
                                                 ("vmaxs", ", nan"), ("vabs", ""))))
            lines += [f"{head}.{t} {dst}, {src0}{scalar}, repeat={r}{ustride}"] * draw(
                st.integers(1, 3))
    return "\n".join(lines) + "\n"


@settings(SETTINGS, max_examples=120)
@given(whole_run_programs(), st.sampled_from(("error", "off")))
def test_prepared_bodies_equal_reference(text, checks):
    same_if_it_assembles(text, checks)


def test_full_queues_and_bank_conflicts_cost_the_same():
    """Long straight-line code fills V's queue (S stalls) and strided operands conflict on
    banks: the fused booking must stall and charge exactly as the reference's."""
    text = VSEL + "set_cmpmask m\n" + ("vsel.f32 x, x, y\nvadd.f32 u, x, y\n"
                                       "vcopy.f32 u, x, stride=16,1,1,8\n") * 30
    outcome = same_both_ways(text)
    stalls = outcome[9]
    assert stalls["queue_full"] > 0 and stalls["bank_conflict"] > 0, stalls


# -- the hazard checks' fast path: pending fills and the per-plan hook -------------------------
@st.composite
def repeated_pipe_programs(draw) -> str:
    """A random multi-pipe program (DMA in and out, flags, barriers, CMPMASK moves, vector
    statements, often unsynchronised: tests/differential/test_bulk_layouts.py) whose statements
    run again: each repeated in place 1-6 times, then the whole body once more — long V-only
    stretches on the fast path between the other pipes' accesses and syncs."""
    return repeated(draw, PipeGen(draw).program(), 6, 2)


@settings(SETTINGS, max_examples=100)
@given(repeated_pipe_programs())
def test_fused_hazard_checks_equal_the_reference_path_and_the_per_byte_checks(text):
    """Every diagnostic (races, uninitialised reads) of the fused path's pending fills and
    hooks is the reference path's, and the per-byte checks' (which run the reference path)."""
    try:
        same_both_ways(text, "warn")
        same_as_byte_hazards(text)
    except AssemblyError:
        pass


@settings(SETTINGS, max_examples=40)
@given(repeated_pipe_programs())
def test_pending_fills_applied_early_give_the_same(text):
    """With room for only two pending decodings the fills are applied all the time: the
    diagnostics stay the same."""
    with mock.patch.object(hazards, "UNFILLED", 2):
        test_fused_hazard_checks_equal_the_reference_path_and_the_per_byte_checks.hypothesis \
            .inner_test(text)


STRETCH = VSEL + ".ub w f32[2048]\n.ub z f32[2048]\n.gm g f32[2048] input = random(4)\n" \
    ".gm o f32[2048] output\nset_cmpmask m\n"


@pytest.mark.parametrize("body, words", [
    # a long V-only stretch, then DMA out of what it wrote, unsynchronised: the race names
    # the stretch's last statement
    ("vsel.f32 w, x, y\nvadd.f32 u, w, y\n" * 40 + "copy_ub_to_gm o, u, nburst=1, burst=8\n",
     ["read-after-write"]),
    # two decodings writing the same bytes in turn: the last one's fill wins
    ("vadd.f32 u, x, y\nvsel.f32 u, y, x\n" * 20 + "vadd.f32 u, x, y\n"
     "copy_ub_to_gm o, u, nburst=1, burst=8\n", ["read-after-write"]),
    # and reading them in turn: the write-after-read names the last reader
    ("vsel.f32 w, x, y\nvadd.f32 u, x, w\n" * 20 + "vsel.f32 w, x, y\n"
     "copy_gm_to_ub x, g, nburst=1, burst=8\n", ["write-after-read"]),
    # DMA in under what a stretch reads, unsynchronised (write-after-read), then the stretch
    # again (read-after-write): the other pipe's access ends the fast path
    ("vadd.f32 u, x, y\n" * 30 + "copy_gm_to_ub x, g, nburst=1, burst=8\n"
     + "vadd.f32 u, x, y\n" * 30, ["write-after-read", "read-after-write"]),
    # synchronised: no race, however long the stretches
    ("vadd.f32 u, x, y\n" * 30 + "set_flag V, MTE2, 0\nwait_flag V, MTE2, 0\n"
     "copy_gm_to_ub x, g, nburst=1, burst=8\nset_flag MTE2, V, 0\nwait_flag MTE2, V, 0\n"
     + "vadd.f32 u, x, y\n" * 30, []),
    # a stretch writes w; a statement reading w and never-written z warns for z alone
    ("vsel.f32 w, x, y\n" * 40 + "vadd.f32 u, w, z\n" * 3, ["never written"]),
    # what a stretch wrote is written for a DMA out after a barrier (no init warning)
    ("vsel.f32 w, x, y\n" * 40 + "pipe_barrier ALL\ncopy_ub_to_gm o, w, nburst=1, burst=8\n",
     []),
])
def test_hazards_after_long_vector_stretches(body, words):
    """The diagnostics (the per-byte checks', and the reference path's) are those WORDS name:
    each of them at least once (a rule warns once per statement), nothing else."""
    diags = same_as_byte_hazards(STRETCH + body)
    same_both_ways(STRETCH + body, "warn")
    messages = [msg for *_, msg in diags]
    kinds = ("read-after-write", "write-after-read", "write-after-write", "never written")
    assert all(any(k in msg for k in kinds) for msg in messages), messages
    assert {k for k in kinds for msg in messages if k in msg} == set(words), messages
    if words in (["read-after-write"], ["write-after-read"]):  # named after the last access
        assert f"at line {(STRETCH + body).count(chr(10)) - 1}" in messages[0], messages


def test_a_stretch_leaves_fills_pending_and_the_records_right(monkeypatch):
    """A V-only stretch of 100 executions fills the records a handful of times (its first
    executions' checks apply what waits), and what they hold once the pending fills are applied
    is what the per-byte checks' filling at every execution gives."""
    fills = []
    real_fill = hazards.Record.fill
    monkeypatch.setattr(hazards.Record, "fill",
                        lambda self, fp, v: (fills.append(v), real_fill(self, fp, v))[1])
    made: list[hazards.HazardChecks] = []
    real_start = hazards.HazardChecks.on_start
    monkeypatch.setattr(hazards.HazardChecks, "on_start",
                        lambda self, run: (made.append(self), real_start(self, run))[1])
    text = STRETCH + "vsel.f32 w, x, y\nvadd.f32 u, w, y\n" * 50
    simulator.run(text)
    assert len(fills) < 20, len(fills)  # per execution: 300
    hz, before = made[-1], len(fills)
    assert len(hz.unfilled) == 2  # the two decodings' latest fills wait
    want = sum(len(acc.read_fills) + len(acc.writes) for acc in hz.unfilled)
    hz.flush()
    assert len(fills) - before == want and not hz.unfilled
    eager = ByteHazardChecks()
    monkeypatch.setattr(simulator.builder, "history_checks", lambda checks: [eager])
    simulator.run(text)
    ub = eager.writer.size
    assert np.array_equal(hz.writer.values(0, ub, None), eager.writer)
    for rec, row in zip(hz.readers, eager.readers, strict=True):
        assert np.array_equal(rec.values(0, ub, None), row)


def test_a_plans_step_starts_where_the_reference_paths_step_found_nothing_to_check(monkeypatch):
    """A decoding's checks run in full at its first two executions (the reference path's:
    the second finds nothing left to check), and its plan's step, made after them, starts
    quiet: no third full check while nothing moved `v_epoch`. An access on another pipe in
    between (bytes V never touches) moves it, and the plan's next execution checks in full
    again."""
    checked: list[int] = []
    real = hazards.HazardChecks._checked
    monkeypatch.setattr(hazards.HazardChecks, "_checked",
                        lambda self, ev, p, acc: (checked.append(p), real(self, ev, p, acc))[1])
    header = ".chip ascend910b\n.gm g f32[64] input = zeros\n.ub x f32[64] = random(1)\n" \
        ".ub y f32[64] = random(2)\n.ub z f32[64]\n.ub w f32[64]\n"
    simulator.run(header + "vadd.f32 z, x, y\n" * 6)
    assert checked == [hazards.V, hazards.V]
    checked.clear()
    simulator.run(header + "vadd.f32 z, x, y\n" * 4 + "copy_gm_to_ub w, g, nburst=1, burst=8\n" +
                  "vadd.f32 z, x, y\n" * 3)
    v = hazards.V
    assert checked[:2] == [v, v] and checked[2] != v and checked[3] == v, checked


# -- timing with a head and a tail (the shipped profiles have none) --------------------------------
@pytest.fixture(scope="module")
def headed_chip(tmp_path_factory) -> str:
    """ascend910b with every cost class given a head (V idle before it) and a tail (drained
    before a set_flag or barrier): the fused booking must charge them as the reference does."""
    text = (CHIP_DIR / "ascend910b.toml").read_text()
    assert "head = 0, tail = 0" in text
    path = tmp_path_factory.mktemp("chip") / "headed910b.toml"
    path.write_text(text.replace("head = 0, tail = 0", "head = 5, tail = 3"))
    return str(path)


@settings(SETTINGS, max_examples=60)
@given(text=repeated_programs())
def test_fused_equals_reference_with_heads_and_tails(headed_chip, text):
    same_if_it_assembles(text, "error", chip=headed_chip)


def test_heads_when_v_idles_cost_the_same(headed_chip):
    """V idles behind S's scalar code and flags, so fused executions pay the head."""
    text = VSEL + "set_cmpmask m\nli x5, 0\nloop:\n" + "vsel.f32 x, x, y\n" * 3 \
        + "set_flag V, S, 0\nwait_flag V, S, 0\n" + "add x6, x5, 1\n" * 6 \
        + "vadd.f32 u, x, y\nadd x5, x5, 1\nblt x5, 10, loop\n"
    assert same_both_ways(text, chip=headed_chip)[0] == "ok"


# -- vsel mode 0 over whole runs: every way the destination lies against the sources ---------------
@pytest.mark.parametrize("operands", ["x, x, y", "x, y, x", "u, x, y", "x, x[64], y",
                                      "x, y, x[64]", "x, x, x", "u, x, x"])
@pytest.mark.parametrize("repeat", [1, 3])
def test_whole_run_vsel_equal_reference(operands, repeat):
    """In place of src0 or src1, apart from both, overlapping one in part (a later repeat
    overwrites what an earlier one read: legal), all three the same;
    repeated across a CMPMASK change (the prepared body runs from the third execution)."""
    line = f"vsel.f32 {operands}, repeat={repeat}\n"
    body = "set_cmpmask m\n" + line * 4 + "set_cmpmask m[64]\n" + line * 4
    assert same_both_ways(VSEL + body)[0] == "ok"


# -- loops: scalar code, branches and register-addressed vector statements on the fast path ------
LOOP_HEAD = """.chip {chip}
.ub a f32[4096] = random(1)
.ub b f32[4096] = random(2)
.ub c f32[4096] = random(5)
.ub s f32[64] = random(3)
.ub m u8[256] = random(4)
.gm o f32[2048] output
"""
ALU_OPS = ("add", "sub", "mul", "and", "or", "xor", "shl", "shr")
BRANCHES = ("beq", "bne", "blt", "bge", "ble", "bgt")
IMMEDIATES = (0, 1, 3, -1, -7, 64, 1 << 40, (1 << 63) - 1, -(1 << 63))


class LoopGen:
    """Draws a program of two nested loops (trip counts, steps and limits drawn, the inner
    index walking a, b and c, sometimes past their end or off the 32-byte grid) whose body
    mixes register-addressed and static vector statements, scalar ALU code over x5..x7,
    forward branches taken or not, MASK and CMPMASK changes, a scalar read from UB that vector
    code writes (ascend950's select), and an unsynchronised DMA out (races)."""

    def __init__(self, draw):
        self.draw = draw
        self.chip = draw(st.sampled_from(("ascend910b", "ascend910b", "ascend950")))
        self.skips = 0

    def reg_or_imm(self) -> str:
        d = self.draw
        return d(st.sampled_from(("x1", "x5", "x6", "x7"))) if d(st.booleans()) else \
            str(d(st.sampled_from(IMMEDIATES)))

    def scalar_line(self) -> str:
        d = self.draw
        dst = d(st.sampled_from(("x5", "x6", "x7")))
        kind = d(st.sampled_from(("alu", "alu", "alu", "li", "mov", "addr", "nop")))
        if kind == "alu":
            a = d(st.sampled_from(("x1", "x5", "x6", "x7")))
            return f"{d(st.sampled_from(ALU_OPS))} {dst}, {a}, {self.reg_or_imm()}"
        if kind == "li":
            return f"li {dst}, {d(st.sampled_from(IMMEDIATES))}"
        if kind == "mov":
            return f"mov {dst}, {d(st.sampled_from(('x1', 'x2', 'x5', 'x6')))}"
        if kind == "addr":
            return f"addr {dst}, {d(st.sampled_from('abc'))}[{d(st.sampled_from(('x1', '8')))}]"
        return "nop"

    def vector_line(self) -> str:
        d = self.draw
        rep = d(st.sampled_from(("1", "2", "x4")))
        return d(st.sampled_from((
            f"vsel.f32 c[x1], a[x1], b, repeat={rep}",
            "vadd.f32 c[x1], c[x1], b[x1], repeat=1",
            "vadds.f32 c, c[x1], 1.5, repeat=1",
            "vmuls.f32 b[x1], a, 0.5, repeat=1",
            "vsel.f32 c, a, b, repeat=2",
            "vmaxs.f32 c, c, -0.0, repeat=1",
            "vcmpv.lt.f32 m, a[x1], b, repeat=1",
        )))

    def body(self) -> list[str]:
        d = self.draw
        lines = []
        for _ in range(d(st.integers(1, 6))):
            kind = d(st.sampled_from(("vec", "vec", "scalar", "scalar", "branch", "mask",
                                      "ub_scalar", "dma")))
            if kind == "vec":
                lines.append(self.vector_line())
            elif kind == "scalar":
                lines.append(self.scalar_line())
            elif kind == "branch":  # forward, over one statement
                self.skips += 1
                op = d(st.sampled_from(BRANCHES))
                a = d(st.sampled_from(("x1", "x5", "x6")))
                lines += [f"{op} {a}, {self.reg_or_imm()}, skip{self.skips}",
                          d(st.sampled_from((self.vector_line(), self.scalar_line()))),
                          f"skip{self.skips}:"]
            elif kind == "mask":
                lines.append(d(st.sampled_from(("set_vector_mask 0, 0xff",
                                                "set_vector_mask -1, -1"))))
            elif kind == "ub_scalar" and self.chip == "ascend950":
                lines += ["select.f32 c[x1], m, scalar(s[3]), a, mode=1, repeat=1, mask=64, "
                          "stride=1,1,1,8,8,8", "vadds.f32 s, s, 1.0, repeat=1"]
            elif kind == "dma":
                lines.append("copy_ub_to_gm o, c, nburst=1, burst=8")
        return lines

    def program(self) -> str:
        d = self.draw
        step = d(st.sampled_from((64, 64, 128, 8, 4)))  # elements; 4 f32 is off the grid
        start = d(st.sampled_from((0, 0, 64, 8)))
        trips = d(st.integers(1, 10))
        limit = start + step * trips + d(st.sampled_from((0, 0, 0, 1, 4096)))  # or past c
        lines = ["set_cmpmask m", f"li x2, {d(st.integers(1, 6))}", "li x4, 2", "li x5, 1",
                 "li x6, 0", "li x7, 64", "outer:", f"li x1, {start}", "inner:", *self.body(),
                 f"add x1, x1, {step}", f"blt x1, {limit}, inner", *self.body(),
                 "sub x2, x2, 1", "bne x2, 0, outer"]
        if d(st.booleans()):  # a jump over a statement, then halt before one
            lines += ["jmp over", "vadd.f32 c, c, c, repeat=1", "over:", "halt",
                      "vadd.f32 c, c, c, repeat=1"]
        return LOOP_HEAD.format(chip=self.chip) + "\n".join(lines) + "\n"


@st.composite
def loop_programs(draw) -> str:
    return LoopGen(draw).program()


@settings(SETTINGS, max_examples=150)
@given(loop_programs(), st.sampled_from(("error", "warn", "off")))
def test_loops_equal_reference(text, checks):
    same_if_it_assembles(text, checks)


@settings(SETTINGS, max_examples=60)
@given(loop_programs(), st.integers(1, 300))
def test_max_steps_inside_loops_stops_both_paths_alike(text, max_steps):
    same_if_it_assembles(text, "warn", max_steps=max_steps)


@settings(SETTINGS, max_examples=40)
@given(loop_programs())
def test_loops_equal_reference_without_timing(text):
    same_if_it_assembles(text, "warn", timing=False)


@settings(SETTINGS, max_examples=30)
@given(text=loop_programs())
def test_loops_equal_reference_with_heads_and_tails(headed_chip, text):
    same_if_it_assembles(text, "warn", chip=headed_chip)


@settings(SETTINGS, max_examples=30)
@given(loop_programs())
def test_loops_equal_reference_with_few_decodings_a_plan(text):
    """Past a plan's room for decodings, new addresses take the reference path."""
    with mock.patch.object(fused, "DECODINGS_PER_PLAN", 2):
        same_if_it_assembles(text, "warn")


@pytest.mark.parametrize("body", [
    # the benchmark's loops: a static vsel with sub/bne, register-addressed vector code
    "set_cmpmask m\nli x1, 50\nloop:\nvsel.f32 x, x, y, repeat=1, mode=0\nsub x1, x1, 1\n"
    "bne x1, 0, loop\n",
    "set_cmpmask m\nli x2, 6\nouter:\nli x1, 0\ninner:\nvsel.f32 u[x1], x[x1], y[x1]\n"
    "vadd.f32 u[x1], u[x1], y[x1], repeat=1\nvadds.f32 u[x1], u[x1], 1.0\nadd x1, x1, 64\n"
    "blt x1, 640, inner\nsub x2, x2, 1\nbne x2, 0, outer\n",
    # every scalar family, wrapping arithmetic, signed compares on registers
    "li x5, -1\nli x6, 3\nli x2, 9\nloop:\nmul x7, x5, x6\nshl x7, x7, 62\nshr x8, x7, x6\n"
    "xor x5, x5, x7\nor x9, x8, 5\nand x9, x9, x6\nmov x10, x9\naddr x11, x[x6]\nnop\n"
    "blt x5, x6, skip\nadd x6, x6, x5\nskip:\nbge x7, x8, skip2\nsub x6, x6, 1\nskip2:\n"
    "sub x2, x2, 1\nbgt x2, 0, loop\n",
    # compares against immediates read the register signed: -1 < 0, 2^63 < 1
    "li x5, -1\nli x6, 0x8000000000000000\nli x2, 6\nloop:\nblt x5, 0, neg\nadd x7, x7, 1\n"
    "neg:\nble x6, 1, low\nadd x8, x8, 1\nlow:\nbge x5, 1, big\nadd x9, x9, 1\nbig:\n"
    "sub x2, x2, 1\nbne x2, 0, loop\n",
    # a loop walking past the tensor's end: the error at the first address off its bounds
    "set_cmpmask m\nli x1, 0\nloop:\nvsel.f32 u[x1], x[x1], y\nadd x1, x1, 64\n"
    "blt x1, 4096, loop\n",
])
def test_directed_loops_equal(body):
    same_both_ways(VSEL + body)


def test_a_scalar_read_from_ub_in_a_loop_is_read_at_every_execution():
    """ascend950's select reads its scalar from UB at issue; vector code rewrites it."""
    body = "li x2, 12\nloop:\nselect.f32 c, m, scalar(s[3]), a, mode=1, repeat=1, mask=64, " \
        "stride=1,1,1,8,8,8\nvadds.f32 s, s, 1.0, repeat=1\nvadd.f32 b, b, c, repeat=1\n" \
        "sub x2, x2, 1\nbne x2, 0, loop\n"
    assert same_both_ways(LOOP_HEAD.format(chip="ascend950") + body)[0] == "ok"


def test_loops_take_the_fast_path(reference_lines):
    """In a loop of register-addressed vector code and its bookkeeping, the reference path
    issues only the first executions: the plans run the rest."""
    body = "set_cmpmask m\nli x2, 20\nouter:\nli x1, 0\ninner:\nvsel.f32 u[x1], x[x1], y\n" \
        "add x1, x1, 64\nblt x1, 256, inner\nsub x2, x2, 1\nbne x2, 0, outer\n"
    calls = reference_lines
    result = simulator.run(VSEL + body)
    assert result.instructions == 2 + 20 * (1 + 4 * 3 + 2)
    assert len(calls) < 30, len(calls)


# -- the plan hook: a user's observer inside the fast loop ---------------------------------------
class Seen(Observer):
    """Every execution as (seq, line, text, pipe, repeats, taken, mask, cmpmask, busy): from its
    event on the reference path, from the plan's `Planned.event` and busy on the fast one."""

    def __init__(self):
        self.seen: list[tuple] = []

    @staticmethod
    def row(ev, busy) -> tuple:
        return (ev.seq, ev.line, ev.text, ev.pipe, ev.repeats, ev.taken, ev.mask,
                ev.mask_mode, ev.cmpmask, ev.core, busy)

    def on_event(self, ev) -> None:
        self.seen.append(self.row(ev, ev.busy or 0))


class PlanningSeen(Seen):
    def plan(self, planned: Planned) -> ObserverPlan:
        def each(instr, busy, taken):
            self.seen.append(self.row(planned.event(instr, taken), busy))
        return ObserverPlan(each, None)


def _seen(text: str, fast: bool, observer: Seen, **kw) -> list[tuple]:
    try:
        simulator.run(text, observers=[observer], fast=fast, **kw)
    except SimulationError:
        pass
    return observer.seen


@settings(SETTINGS, max_examples=40)
@given(loop_programs(), st.booleans())
def test_a_users_plan_sees_what_its_events_say(text, timing):
    """A user's observer with a plan keeps the fast loop, and sees through it every execution
    as its events say on the reference loop (order, source, MASK, CMPMASK, busy cycles)."""
    try:
        want = _seen(text, False, Seen(), timing=timing)
    except AssemblyError:
        return
    assert _seen(text, True, PlanningSeen(), timing=timing) == want


def test_a_users_plan_keeps_the_fast_path_and_one_without_leaves_it(reference_lines):
    text = VSEL + "set_cmpmask m\n" + "vsel.f32 x, x, y\n" * 10
    planned, plain = PlanningSeen(), Seen()
    calls = reference_lines
    simulator.run(text, observers=[planned])
    assert len(calls) == 3  # set_cmpmask and the first two vsel: the plans run the rest
    calls.clear()
    simulator.run(text, observers=[plain])
    assert len(calls) == 11
    assert planned.seen == plain.seen


def test_a_plan_that_declines_leaves_that_instruction_to_the_reference_path(reference_lines):
    """An observer declining vector plans: the scalar loop keeps its plans, vsel does not."""
    class NoVector(PlanningSeen):
        def plan(self, planned):
            return None if planned.pipe == "V" else super().plan(planned)

    body = "set_cmpmask m\nli x1, 20\nloop:\nvsel.f32 x, x, y\nsub x1, x1, 1\nbne x1, 0, loop\n"
    watcher = NoVector()
    calls = reference_lines
    simulator.run(VSEL + body, observers=[watcher])
    vsel_line = VSEL.count("\n") + 4
    assert calls.count(vsel_line) == 20 and len(calls) < 20 + 10, calls
    assert watcher.seen == _seen(VSEL + body, False, Seen())


def test_subclasses_of_pipevs_observers_that_observe_differently_decline():
    """A subclass overriding on_event (or the timing stage's time) would be skipped by an
    inherited plan: the plans of Statistics, HazardChecks and TimingModel decline for it."""
    from simulator.stats import Statistics
    from simulator.timing import TimingModel

    class Louder(hazards.HazardChecks):
        def on_event(self, ev):
            super().on_event(ev)

    class Counting(Statistics):
        def on_event(self, ev):
            super().on_event(ev)

    class Slower(TimingModel):
        def time(self, ev):
            return super().time(ev)

    program = simulator.builder.load_program(VSEL + "set_cmpmask m\nvsel.f32 x, x, y\n")
    run = simulator.builder.Run.of_program(program)
    ex = run.executor
    ex.start()
    ex.execute(program.flat()[0][0])
    vop = ex.execute(program.flat()[0][1]).op
    planned = Planned(program.flat()[0][1], "V", vop, 1, True, ex.event_at)
    for ob in (Louder(), Counting()):
        assert ob.plan(planned) is None
    assert Slower(program.chip).plan(planned) is None
    assert run.model.plan(planned) is not None and Statistics().plan(planned) is not None


class LineBusy(Observer):
    """Busy cycles per source line: the program's own in a list, other files' in a dict; its
    plan hands the list to the loop as a per-line sink (`ObserverPlan.lines`)."""

    def on_start(self, run) -> None:
        self.cycles, self.other = [0] * (len(run.lines) + 1), {}

    def add(self, instr, busy: int) -> None:
        if not instr.file and 0 < instr.line < len(self.cycles):
            self.cycles[instr.line] += busy
        else:
            key = (instr.file, instr.line)
            self.other[key] = self.other.get(key, 0) + busy

    def on_event(self, ev) -> None:
        self.add(ev.instr, ev.busy or 0)

    def plan(self, planned: Planned) -> ObserverPlan:
        limit = 0 if planned.instr.file else len(self.cycles)
        return ObserverPlan(lambda instr, busy, taken: self.add(instr, busy), None,
                            (self.cycles, limit))


def _line_busy(text: str, fast: bool) -> tuple:
    watcher = LineBusy()
    try:
        simulator.run(text, observers=[watcher], fast=fast)
    except SimulationError:
        pass
    return watcher.cycles, watcher.other


@settings(SETTINGS, max_examples=30)
@given(loop_programs())
def test_a_per_line_sink_adds_what_the_events_say(text):
    """A plan's per-line sink gets every execution's busy cycles at its line, and the rest
    (another file's lines) go to its each, as on_event adds them on the reference loop."""
    try:
        want = _line_busy(text, False)
    except AssemblyError:
        return
    assert _line_busy(text, True) == want


def test_a_per_line_sink_and_another_files_lines():
    body = "set_cmpmask m\nli x5, 0\nloop:\nvsel.f32 x, x, y\n" + '.loc "k.cpp" 9 5\n' \
        "vsel.f32 x, x, y\nvadd.f32 u, x, y\nadd x5, x5, 1\nblt x5, 20, loop\n"
    cycles, other = _line_busy(VSEL + body, True)
    assert (cycles, other) == _line_busy(VSEL + body, False)
    assert sum(cycles) > 0 and other[("k.cpp", 9)] > 0


# -- a MASK that changes every iteration (#31 22) -------------------------------------------------
MASK_LOOP = """.chip ascend910b
.ub x f16[128] = random(3)
.ub z f16[128]
    li x1, 1
top:
    set_vector_mask 0, x1
    vadds.f16 z, x, 1.0, repeat=1
    add x1, x1, {step}
    blt x1, {end}, top
"""


@pytest.mark.parametrize("step,end", [(1, 200), (0x10001, 0x10001 * 40)])
def test_a_mask_changing_every_iteration_equals_reference(step, end):
    same_both_ways(MASK_LOOP.format(step=step, end=end), "warn")
    cycling = MASK_LOOP.replace("set_vector_mask 0, x1", "and x3, x1, 3\nadd x3, x3, 1\n"
                                "set_vector_mask 0, x3")  # a few values, each seen again
    same_both_ways(cycling.format(step=1, end=60), "warn")


def _kept(monkeypatch, iterations: int) -> tuple[int, int, int]:
    """What a run of MASK_LOOP keeps: plans made (their settles), static decodings, and bank
    shapes prepared."""
    from simulator.timing import banks

    loops, shapes = [], []
    run, build = fused.FastLoop.run, banks.build_shape

    def counted_run(self):  # (what the loop kept, read before the launch releases the run)
        run(self)
        static = self.ex.decodings._static
        loops.append((len(self.settles),
                      sum(len(v) if isinstance(v, dict) else 1 for v in static.values())))

    def counted_build(vop):
        shapes.append(1)
        return build(vop)
    monkeypatch.setattr(fused.FastLoop, "run", counted_run)
    monkeypatch.setattr(banks, "build_shape", counted_build)
    banks._PREPARED.clear()
    simulator.run(MASK_LOOP.format(step=1, end=iterations), checks="warn")
    (settles, decodings), = loops
    return settles, decodings, len(shapes)


def test_a_mask_changing_every_iteration_keeps_bounded_plans_and_decodings(monkeypatch):
    """A loop setting a new MASK each iteration: a plan per value (every observer's closures)
    was made and kept for the whole run, and a bank shape prepared per value. Now the plans
    do not grow with the iterations, a text keeps at most STATIC_MASKS decodings, and MASK
    values with the same active blocks share a bank shape."""
    from simulator import decodings

    settles_100, decodings_100, shapes_100 = _kept(monkeypatch, 100)
    monkeypatch.undo()
    settles_600, decodings_600, shapes_600 = _kept(monkeypatch, 600)
    assert settles_600 == settles_100 <= 8
    assert decodings_600 <= getattr(decodings, "STATIC_MASKS", 256)
    assert shapes_600 <= 4 and shapes_100 <= 4


@st.composite
def bulk_compare_programs(draw) -> str:
    """vcmpv / vcmpvs of many repeats in the layouts their prepared body reads differently — a
    view (back to back), one row per repeat over shared blocks (repeat stride below 8), a
    gather of blocks (block stride 0 or 2) — each line run several times so the fast path's
    prepared body runs it, destination bits written over a source too (a at 0, b at 12288)."""
    t = draw(st.sampled_from(("f16", "f32", "s32")))
    op = "eq" if t == "s32" else draw(st.sampled_from(("lt", "ge", "eq", "ne")))
    n = 256 // (2 if t == "f16" else 4)
    lines = [".chip ascend910b", f".ub a {t}[{n * 48}] = random(1)",
             f".ub b {t}[{n * 48}] = random(2)", ".ub d u8[2048] = random(3)"]
    for _ in range(draw(st.integers(1, 4))):
        r = draw(st.sampled_from((1, 2, 17, 40)))
        blk0, blk1 = (draw(st.sampled_from((1, 1, 0, 2, 4))) for _ in range(2))
        rep0, rep1 = (draw(st.sampled_from((8, 1, 0, 3, 4, 16))) for _ in range(2))
        dst = draw(st.sampled_from(("d", "d[64]", "@0", "@12544")))  # @: over a and b[n]
        if draw(st.booleans()):
            line = (f"vcmpv.{op}.{t} {dst}, a, b[{n}], repeat={r}, "
                    f"stride=1,{blk0},{blk1},8,{rep0},{rep1}")
        else:
            scalar = "7" if t == "s32" else draw(st.sampled_from(("0.5", "nan", "-0.0")))
            line = f"vcmpvs.{op}.{t} {dst}, b, {scalar}, repeat={r}, stride=1,{blk0},8,{rep0}"
        lines += [line] * draw(st.integers(2, 4))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("t, raw", [("f32", np.float32(-0.0)), ("f16", np.float16("nan")),
                                    ("s32", np.int32(-7)), ("bf16", np.uint16(0x3FC0))])
def test_a_compare_scalar_is_a_zero_d_array_of_its_value(t, raw):
    """vcmpvs's prepared body compares with its scalar as a 0-d array of the element type
    (a ufunc takes one as it is; a numpy scalar it converts at every call): the value
    `_values` makes (bf16 widened to f32), bit for bit, worked out again for new bytes."""
    from types import SimpleNamespace

    from isa.types import lookup
    from simulator.semantics.compare import _scalar_reader, _values

    vop = SimpleNamespace(t=lookup(t))
    scalar_of = _scalar_reader(vop)
    raw = np.array([raw]).view(f"u{vop.t.size}")  # (as the executor reads it: raw bits)
    got, want = scalar_of(raw), _values(raw, vop)[0]
    assert type(got) is np.ndarray and got.shape == () and got.dtype == want.dtype
    assert got.tobytes() == want.tobytes()
    assert scalar_of(raw) is got
    other = np.zeros_like(raw)
    assert scalar_of(other).tobytes() == bytes(len(got.tobytes()))


@settings(SETTINGS, max_examples=60)
@given(bulk_compare_programs(), st.sampled_from(("error", "off")))
def test_prepared_compares_equal_reference(text, checks):
    same_if_it_assembles(text, checks)


@settings(SETTINGS, max_examples=60)
@given(bulk_compare_programs(), st.sampled_from(("error", "off")))
def test_prepared_compares_equal_the_independent_model(text, checks):
    """Both loops run vcmpv's prepared body for a whole instruction (one body per
    instruction): the independent model (tests/reference) is what checks its bits, in every
    layout it reads differently (a union of blocks, rows of it, a gather; a view, a copy)."""
    from tests.differential.test_random_programs import SIZE, check
    placed, at = [], 0  # the model reads placed tensors: a, b, d back to back from 0
    for line in text.splitlines():
        head = re.match(r"(\.ub \w+ (\w+)\[(\d+)\])(.*)", line)
        if head is not None:
            line = f"{head[1]} @{at}{head[4]}"
            at += SIZE[head[2]] * int(head[3])
        placed.append(line)
    try:
        check("\n".join(placed) + "\n", checks)
    except AssemblyError:
        pass



@pytest.mark.parametrize("t, blk, rep", (("f32", 2, 8), ("f32", 4, 8), ("f16", 2, 4),
                                         ("s32", 2, 0), ("f32", 2, 6), ("s32", 2, 8),
                                         ("f16", 4, 12)))
@pytest.mark.parametrize("fast", (True, False))
def test_prepared_compares_at_block_stride_above_1_equal_numpy(t, blk, rep, fast):
    """Repeats reading every blk-th block of their union (rep a multiple of blk: the blocks
    read packed by words, then rows of their bits; else a gather): bit K of repeat I is the compare
    of element K of the repeat's blocks I·rep + J·blk, as numpy indexes them."""
    size, r = (2 if t == "f16" else 4), 40
    per = 32 // size
    op = "eq" if t == "s32" else "lt"  # (an s32 compare is eq only on this chip)
    text = (f".chip ascend910b\n.ub a {t}[{per * 512}] @0 = random(1)\n"
            f".ub b {t}[{per * 512}] @16384 = random(2)\n.ub m u8[2048] @32768 = random(3)\n"
            + f"vcmpv.{op}.{t} m, a, b, repeat={r}, stride=1,{blk},{blk},8,{rep},{rep}\n" * 3)
    ub = simulator.run(text, fast=fast).ub
    num = {"f32": np.float32, "f16": np.float16, "s32": np.int32}[t]
    a, b = ub[:16384].view(num), ub[16384:32768].view(num)
    blocks = (np.arange(r)[:, None] * rep + np.arange(8)[None, :] * blk).reshape(-1)
    elems = (blocks[:, None] * per + np.arange(per)[None, :]).reshape(-1)
    bits = a[elems] == b[elems] if t == "s32" else a[elems] < b[elems]
    want = np.packbits(bits, bitorder="little").tobytes()
    assert bytes(ub[32768:32768 + len(want)]) == want


def test_a_word_of_bools_times_the_packing_constant_holds_their_bits_in_its_top_byte():
    """`PACKING`: every one of the 256 words of 8 bools (bytes 0 or 1) times it has those
    bools' bits, bool K at bit K, in its top byte — what packbits makes of them."""
    from simulator.semantics.compare import PACKING

    bools = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1,
                          bitorder="little").astype(bool)
    words = bools.view(PACKING.dtype).reshape(-1)
    tops = (words * PACKING).view(np.uint8).reshape(-1, 8)[:, 7]
    assert bytes(tops) == bytes(np.packbits(bools, axis=1, bitorder="little").reshape(-1))


@pytest.mark.parametrize("blk, rep", ((2, 8), (1, 1), (1, 4)))
@pytest.mark.parametrize("fast", (True, False))
def test_prepared_compares_rows_follow_new_sources(blk, rep, fast):
    """Rows of a union's bits (block stride 2; overlapping reads) are packed into a buffer
    made once and copied through a view of it made once: an execution after the sources
    changed writes the new compare's bits, not the last one's."""
    r = 40
    line = f"vcmpv.lt.f32 m, a, b, repeat={r}, stride=1,{blk},{blk},8,{rep},{rep}\n"
    text = (".chip ascend910b\n.ub a f32[4096] @0 = random(1)\n.ub b f32[4096] @16384 = "
            "random(2)\n.ub m u8[2048] @32768 = random(3)\n" + line * 3 +
            "vmuls.f32 a, a, -1.0, repeat=64\n" + line * 2)
    ub = simulator.run(text, fast=fast).ub
    a, b = ub[:16384].view(np.float32), ub[16384:32768].view(np.float32)
    blocks = (np.arange(r)[:, None] * rep + np.arange(8)[None, :] * blk).reshape(-1)
    elems = (blocks[:, None] * 8 + np.arange(8)[None, :]).reshape(-1)
    want = np.packbits(a[elems] < b[elems], bitorder="little").tobytes()
    assert bytes(ub[32768:32768 + len(want)]) == want


@pytest.mark.parametrize("count", (32, 96, 224, 1024))
@pytest.mark.parametrize("fast", (True, False))
def test_prepared_compares_of_8_byte_elements_equal_numpy(count, fast):
    """An 8-byte element's block is half a byte of bits (s64 compares, ascend950's count form):
    the union layout packs the span as it lies, bit K the compare of element K."""
    text = (".chip ascend950\n.ub a s64[1024] @0 = random(1)\n.ub b s64[1024] @8192 = random(2)\n"
            ".ub m u8[128] @16384 = random(3)\n" + f"compare.lt.s64 m, a, b, count={count}\n" * 3)
    ub = simulator.run(text, fast=fast).ub
    a, b = ub[:8192].view(np.int64)[:count], ub[8192:16384].view(np.int64)[:count]
    assert bytes(ub[16384:16384 + count // 8]) == \
        np.packbits(a < b, bitorder="little").tobytes()


def test_a_plan_switches_between_mask_values_and_back():
    """A static line whose MASK changes: the plan made at its first value checks MASK itself,
    the one of each later value is followed (and found first while that value stays), and the
    first value's comes back — the same outcome as the reference path, with a debugger-style
    wrapped plan too (the counts of executions per line are part of the outcome)."""
    body = "vadd.f32 x, x, y\nvcmpv.lt.f32 m[128], x, y, repeat=2\n"
    text = (VSEL + "set_cmpmask m\n" + body * 3 + "set_vector_mask 0, 0xff\n" + body * 4
            + "set_vector_mask 0xffffffffffffffff, 0xffffffffffffffff\n" + body * 2
            + "set_vector_mask 0, 0x3\n" + body * 3 + "set_vector_mask 0, 0xff\n" + body * 3
            + "li x5, 0\nloop:\nset_vector_mask 0, 0xf\n" + body + "set_vector_mask 0, 0xff\n"
            + body + "add x5, x5, 1\nblt x5, 6, loop\n")
    same_both_ways(text)


@pytest.mark.parametrize("blk", [0, 1, 2, 3, 8])
@pytest.mark.parametrize("rep", [0, 1, 2, 3, 4, 6, 8, 9, 16])
@pytest.mark.parametrize("size", [1, 2, 4])
def test_compare_union_walk_worked_out_as_compared(blk, rep, size):
    """vcmpv's union (simulator/semantics/compare.py): whether the walk i·rep + j·blk is
    0, 1, 2… (`_union`'s back to back) and whether it is rows of every blk-th block (`_rows`),
    worked out from the strides, against the walk's blocks compared element by element."""
    from isa.decode import Access
    from simulator.semantics import compare

    for r, count in ((1, 0), (2, 0), (5, 0), (255, 0), (1, 32 // size), (5, 32 // size),
                     (5, 64 // size)):  # (count: a repeat of one or two blocks)
        acc = Access("src0", 4096, "vector", size, blk, rep, count=count)
        union = compare._union((acc, Access("src1", 8192, "vector", size, blk, rep,
                                            count=count)), r)
        order = compare._order(acc, r)
        span = acc.last_block(r) // 32 + 1
        if union is None:
            assert span > compare.UNION_SLACK * r * acc.blocks
            continue
        assert union[0] == span
        assert union[1] == (span == r * acc.blocks and bool((order == np.arange(span)).all()))
        walk = (np.arange(r)[:, None] * rep + np.arange(acc.blocks)[None, :] * blk).reshape(-1)
        assert order.tolist() == walk.tolist()
        rows = compare._rows(acc)
        assert rows == ((blk, rep // blk) if blk >= 1 and rep % blk == 0 else None)
