"""The fast loop's plan for lines of one shape (simulator/fused.py `_shape_plan`, #33 item 1),
against the reference loop and against the fast loop without it.

An unrolled kernel writes one statement at many tensor indices; the assembler builds the
later lines by rebasing the first (isa/rebase.py, `Body.shape`), and the fast loop runs each
line it has not run before through one plan for the shape: the decoding moved to the line's
addresses, the family's body, and the timing stage's and observers' parts bound once
(`Planned.op` a Varying). Compared here: UB bytes, outputs, diagnostics (init and race
warnings at their lines, errors with their words), cycles, statistics and hot lines — on
random programs of a few shapes under every check mode with MASK, counter mode and CMPMASK
changing, on unrolled kernels whose lines cross 64 KB bank regions on every chip, and with
DMA racing the vector lines. Each comparison is shown to fail when the plan keeps a moved
decoding's accesses at the origin's addresses.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import simulator
from isa.assembler import assemble
from isa.chip import get_chip
from isa.decode import decode_vector
from isa.diagnostics import AssemblyError
from simulator import fused, hazards
from simulator.timing.banks import bank_model
from tests.differential.test_fused import _outcome
from tests.differential.test_fused import same_three_ways as three_ways
from tests.differential.test_rebased_lines import SETTINGS, rebased_programs

CHIPS = ("ascend910b", "ascend950", "ascend310p", "ascend910")
ONES = (1 << 64) - 1


def same_three_ways(text: str, checks: str = "error") -> tuple:
    """TEXT on the fast loop with shape plans, on the reference loop and on the fast loop
    without them: every field of the outcome equal. Returns it."""
    return three_ways(text, checks, {"_shape_plan": NO_SHAPES["_shape_plan"]}, "shape plans")


def reference_runs(text: str, calls: list[int], **without) -> tuple[int, int]:
    """How many executions of TEXT take the reference path (CALLS: `reference_lines`'s), with
    the fast loop's plans and with the FastLoop methods WITHOUT names (each made to decline)."""
    calls.clear()
    simulator.run(text)
    planned = len(calls)
    calls.clear()
    with pytest.MonkeyPatch.context() as mp:
        for name, stand_in in without.items():
            mp.setattr(fused.FastLoop, name, stand_in)
        simulator.run(text)
    return planned, len(calls)


# (batches of a shape's lines too: simulator/batches.py runs them without the shape plan)
NO_SHAPES = {"_shape_plan": lambda self, learnt: None, "_batchable": lambda self, learnt: None}


@SETTINGS
@given(rebased_programs(), st.sampled_from(["error", "warn", "off"]))
def test_random_programs_of_a_few_shapes(text, checks):
    try:
        same_three_ways(text, checks)
    except AssemblyError:  # a line past its tensor: nothing to run
        pass


def unrolled(chip: str, n: int, t: str = "f32", count: int = 12288) -> str:
    """N vsel lines at distinct addresses (x's moving, y's every 5 lines) and N vadd lines,
    over tensors large enough that the lines cross 64 KB regions."""
    e = {"f32": 64, "f16": 128}[t]
    lines = []
    for i in range(n):
        a, b = e * (i % 97), e * (i // 5)
        lines.append(f"vsel.{t} x[{a}], x[{a}], y[{b}]")
        lines.append(f"vadd.{t} z[{e * i}], x[{a}], y[{b}]")
    return (f".chip {chip}\n.ub x {t}[{count}] = random(1)\n.ub y {t}[{count}] = random(2)\n"
            f".ub z {t}[{count}]\n.ub m u8[256] = random(3)\n    set_cmpmask m\n"
            + "".join(f"    {ln}\n" for ln in lines))


def unrolled_alike(chip: str, n: int, t: str = "f32") -> str:
    """An unrolled kernel whose lines move every operand alike (the next tile of each), over
    tensors that cross 64 KB regions: two shapes, each laid out one way."""
    e = {"f32": 64, "f16": 128}[t]
    lines = []
    for i in range(n):
        lines.append(f"vsel.{t} x[{e * i}], x[{e * i}], y[{e * i}]")
        lines.append(f"vadd.{t} z[{e * i}], x[{e * i}], y[{e * i}]")
    count = e * n
    return (f".chip {chip}\n.ub x {t}[{count}] = random(1)\n.ub y {t}[{count}] = random(2)\n"
            f".ub z {t}[{count}]\n.ub m u8[256] = random(3)\n    set_cmpmask m\n"
            + "".join(f"    {ln}\n" for ln in lines))


@pytest.mark.parametrize("chip", CHIPS)
def test_unrolled_kernels_run_by_shape_plans_alike(chip, reference_lines):
    t = "f32" if chip != "ascend910" else "f16"
    for text in (unrolled(chip, 120, t, 12288 if t == "f32" else 24576),
                 unrolled_alike(chip, 180, t)):
        assert same_three_ways(text)[0] == "ok"
        planned, unplanned = reference_runs(text, reference_lines, **NO_SHAPES)
        assert planned < unplanned


def test_the_shape_plan_is_what_runs_the_lines(reference_lines):
    """Lines moved alike: the reference path runs the first three lines of each shape (a
    template per width of the indices' digits, isa/rebase.py: the line built in full, the
    first rebased line, and the second, after which the plan is made); without shape plans,
    every line."""
    runs = reference_runs(unrolled_alike("ascend910b", 100), reference_lines, **NO_SHAPES)
    assert runs == (17, 201), runs


def test_init_and_race_warnings_at_their_lines():
    """A DMA writes y while the vector lines read it unordered (a race at the first line that
    reads its bytes), and lines read z before anything wrote it (an init warning at the first
    such line): the same warnings at the same lines."""
    body = ["set_cmpmask m", "copy_gm_to_ub y, g, nburst=1, burst=64"]
    body += [f"vsel.f32 x[{64 * i}], x[{64 * i}], y[{64 * (i % 3)}]" for i in range(20)]
    body += [f"vadd.f32 x[{64 * i}], z[{64 * i}], x[{64 * i}]" for i in range(20)]
    text = (".chip ascend910b\n.gm g f32[2048] = random(4)\n.ub x f32[2048] = random(1)\n"
            ".ub y f32[2048]\n.ub z f32[2048]\n.ub m u8[256] = random(3)\n"
            + "".join(f"    {ln}\n" for ln in body))
    got = same_three_ways(text, "warn")
    words = [d.message for d in got[3]]
    assert any("race" in w for w in words) and any("never written" in w for w in words)


def test_a_line_that_fails_its_checks_is_worded_by_the_reference_path():
    """A later line of the shape reaches past its tensor (the footprint rule): its decoding is
    not the moved one's, so the reference path issues it and words the error."""
    body = ["set_cmpmask m"] + [f"vsel.f32 x[{64 * i}], x[{64 * i}], y[{64 * i}], repeat=2"
                                for i in range(30)]
    text = (".chip ascend910b\n.ub x f32[1920] = random(1)\n.ub y f32[2048] = random(2)\n"
            ".ub m u8[256] = random(3)\n" + "".join(f"    {ln}\n" for ln in body))
    got = same_three_ways(text)
    assert got[0] == "error" and any("x" in d.message for d in got[1])


def test_mask_and_counter_mode_changing_between_lines():
    lines = ["set_cmpmask m"]
    for i in range(40):
        if i % 9 == 4:
            lines.append(f"set_vector_mask 0x0, {hex(0xff << (i % 7))}")
        if i % 13 == 6:
            lines += ["set_mask_count", f"set_vector_mask 0, {40 + i}"]
        if i % 13 == 9:
            lines += ["set_mask_norm", "set_vector_mask 0xffffffffffffffff, 0xffffffffffffffff"]
        lines.append(f"vcmpv.lt.f32 m[{32 * (i % 5)}], x[{64 * i}], y[{64 * (i % 4)}]")
        lines.append(f"vsel.f32 z[{64 * i}], x[{64 * i}], y[{64 * i}]")
    text = (".chip ascend910b\n.ub x f32[4096] = random(1)\n.ub y f32[4096] = random(2)\n"
            ".ub z f32[4096]\n.ub m u8[256] = random(3)\n"
            + "".join(f"    {ln}\n" for ln in lines))
    same_three_ways(text)


def test_a_plan_keeping_the_origin_accesses_is_caught(monkeypatch):
    """The comparison fails when the plan's hazard step checks the origin's bytes: the init
    warning of a moved line reading unwritten bytes goes missing."""
    real = hazards.HazardChecks._moved_step

    def stale(self, cell, cmpmask, event):
        class Origin:  # the decoding the line was moved from, in its place
            @property
            def op(self):
                op = cell.op
                return op.origin[0] if op.origin is not None else op
        return real(self, Origin(), cmpmask, event)
    body = ["set_cmpmask m", "copy_gm_to_ub y, g, nburst=1, burst=48", "set_flag MTE2, V, 0",
            "wait_flag MTE2, V, 0"]
    body += [f"vsel.f32 x[{64 * i}], x[{64 * i}], y[{64 * i}]" for i in range(12)]
    text = (".chip ascend910b\n.gm g f32[2048] = random(4)\n.ub x f32[2048] = random(1)\n"
            ".ub y f32[2048]\n.ub m u8[256] = random(3)\n"
            + "".join(f"    {ln}\n" for ln in body))
    assert any("never written" in d.message for d in same_three_ways(text, "warn")[3])
    monkeypatch.setattr(hazards.HazardChecks, "_moved_step", stale)
    with pytest.raises(AssertionError):
        same_three_ways(text, "warn")


# -- moved decodings: what is derived from one is its origin's, moved -------------------------

@SETTINGS
@given(st.sampled_from(("ascend910b", "ascend950")), st.integers(0, 3),
       st.lists(st.integers(0, 4095), min_size=3, max_size=3), st.integers(-2048, 2048),
       st.integers(1, 4), st.sampled_from((1, 2)), st.sampled_from((8, 16)))
def test_moved_ranges_and_costs_equal_a_fresh_decoding(chip, line, rows, shift, r, blk, rep):
    """A decoding moved by a whole number of rows has the byte ranges and bank cost of the
    same instruction decoded at the moved addresses (`VectorOp.origin`, `moved_key`)."""
    text = ("vadd.f32 @0x0, @0x100, @0x200", "vsel.f32 @0x0, @0x100, @0x200",
            "vcmpv.lt.f32 @0x0, @0x100, @0x200", "vadd.f16 @0x0, @0x100, @0x200")[line]
    prog = assemble(f".chip {chip}\n    {text}, repeat={r}, stride={blk},{blk},{blk},"
                    f"{rep},{rep},{rep}\n" if line != 2 else
                    f".chip {chip}\n    {text}, repeat={r}\n")
    instr = prog.flat()[0][0]
    cfg = get_chip(chip)
    bases = [32 * row for row in rows]
    moved = [b + 32 * shift for b in bases]
    if min(moved) < 0:
        return
    roles = [role for role, o in instr.operands.items() if o.kind == "mem"]
    origin = decode_vector(instr, dict(zip(roles, bases, strict=True)), instr.fields,
                           (ONES, ONES), False)
    fresh = decode_vector(instr, dict(zip(roles, moved, strict=True)), instr.fields,
                          (ONES, ONES), False)
    made = origin.moved(instr, 32 * shift)
    got, want = made.ub_ranges(), fresh.ub_ranges()
    assert [g[:3] + g[4:] for g in got] == [w[:3] + w[4:] for w in want]
    for g, w in zip(got, want, strict=True):
        assert (g[3] is None) == (w[3] is None) and (g[3] is None or np.array_equal(g[3], w[3]))
    banks = bank_model(cfg.bank)
    key = banks.moved_key(origin, (32 * shift,) * len(origin.operands))
    if key is not None:
        assert banks.layout_key(made) == banks.layout_key(fresh)
        for other in range(-3, 4):  # another move with the same key: the same layout key
            again = [b + 32 * (shift + other * 2048) for b in bases]
            moved_again = (32 * (shift + other * 2048),) * len(origin.operands)
            if min(again) < 0 or banks.moved_key(origin, moved_again) != key:
                continue
            twin = decode_vector(instr, dict(zip(roles, again, strict=True)), instr.fields,
                                 (ONES, ONES), False)
            assert banks.layout_key(twin) == banks.layout_key(fresh)


def test_an_evolved_body_or_decoding_keeps_no_shape_or_origin():
    """A body or decoding evolved into another (a gather's decoding, a `.loc` line's body) is
    made afresh: what was derived from its shape or origin does not follow it."""
    import attrs
    prog = assemble(".chip ascend910b\n.ub x f32[1024]\n.ub y f32[1024]\n"
                    "    vadd.f32 x[64], x[64], y[64]\n    vadd.f32 x[96], x[96], y[96]\n")
    line = prog.flat()[0][1]
    assert line.body.shape is prog.flat()[0][0].body
    assert line.evolve(line=9).body.shape is line.body.shape  # the same body, moved
    assert line.evolve(col=9).body.shape is None
    roles = [role for role, o in line.operands.items() if o.kind == "mem"]
    vop = decode_vector(line, {r: 0 for r in roles}, line.fields, (ONES, ONES), False)
    moved = vop.moved(line, 256)
    assert moved.origin == (vop, (256,) * len(vop.operands))
    assert attrs.evolve(moved, memo={}).origin is None


def test_operands_moving_apart_past_a_fixed_one(reference_lines):
    """An unrolled kernel whose destination walks past a fixed source (`Decodings`: each
    operand moved by its own shift while the operands overlap as they did): the same
    outcome as decoding every line afresh, until the line whose destination overlaps the
    fixed source in part, which the reference path words; and before it, the lines run by the
    shape plan."""
    from tests.differential.test_rebased_lines import slow_path
    lines = [f"vadd.f32 z[{16 * i}], x[{64 * (i % 3)}], z[1600]" for i in range(1, 120)]
    text = (".chip ascend910b\n.ub x f32[512] = random(1)\n.ub z f32[4096] = random(2)\n"
            + "".join(f"    {ln}\n" for ln in lines))
    got = same_three_ways(text, "warn")
    with slow_path():
        assert _outcome(text, "warn", True) == got
    assert any("overlap" in d.message for d in got[3])
    reference_lines.clear()
    simulator.run(text, checks="warn")
    assert len(reference_lines) < 50, len(reference_lines)


WALK = """.chip {chip}
.ub x f32[6400] = random(1)
.ub y f32[6400] = random(2)
.ub z f32[6400]
.ub cm u8[32] = random(3)
    set_cmpmask cm
    li x1, 0
walk:
    vsel.f32 z[x1], x[x1], y[x1]
    vadd.f32 y[x1], z[x1], y[x1], repeat=1
    vcmpv.lt.f32 cm, x[x1], z[x1]
    add x1, x1, 64
    blt x1, 6400, walk
"""


@pytest.mark.parametrize("chip", CHIPS[:3])
def test_a_register_addressed_walk_runs_its_moved_decodings_by_plan(chip, reference_lines):
    """A loop walking UB once (each execution at new addresses: a decoding moved from the
    first, seen once) runs by the instruction's moving plan (`_moving_plan`), the same as the
    reference loop; without it, every vector execution takes the reference path."""
    text = WALK.format(chip=chip)
    assert same_three_ways(text)[0] == "ok"
    runs = reference_runs(text, reference_lines, _moving_plan=lambda self, learnt:
                          lambda instr, i, vop, arg: None)
    assert runs[0] <= 20 and runs[1] >= 300, runs
