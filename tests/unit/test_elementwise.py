"""#27a: the element-wise arithmetic, transcendentals, LeakyRelu and shifts at the API and
hardware levels: expansions, the type and operand checks, the unknown-result and shift-count
warnings, correct rounding against tests/reference/elementwise.py (a sweep of f16 and random
f32 with specials), and the width-dependent cost classes of the throughput table."""

from __future__ import annotations

from fractions import Fraction
from unittest import mock

import numpy as np
import pytest

import isa
import simulator
from isa.diagnostics import AssemblyError
from isa.types import TYPES
from simulator.errors import SimulationError
from simulator.semantics import math as smath
from tests.reference import elementwise as ref
from tests.reference import run_reference

CHIP = ".chip ascend910b\n"
F32 = (".ub x f32[256] @0x400 = random(1)\n.ub y f32[256] @0x800 = random(2)\n"
       ".ub z f32[256] @0xc00\n")
S16 = ".ub s s16[256] @0x0 = random(3)\n.ub d s16[256] @0x200\n"


def hw(text: str) -> list[str]:
    p = isa.assemble(CHIP + text)
    return [h.text for h in p.statements[-1].hw]


def error_of(text: str) -> str:
    with pytest.raises((AssemblyError, SimulationError)) as e:
        simulator.run(CHIP + text)
    return str(e.value)


def run_checked(text: str):
    """Run TEXT and its hardware instructions through the reference model: same UB bytes."""
    res = simulator.run(CHIP + text)
    decls = [ln for ln in text.splitlines() if ln.startswith(".ub")]
    lines = [h.text for s in res.program.statements for h in s.hw]
    want = run_reference("\n".join([".chip ascend910b", *decls, *lines]))
    assert bytes(res.ub) == bytes(want.ub)
    return res


# -- expansions ---------------------------------------------------------------------------------
@pytest.mark.parametrize("api, mnemonic", [
    ("exp.f32 z, x", "vexp.f32"), ("ln.f32 z, x", "vln.f32"), ("sqrt.f32 z, x", "vsqrt.f32"),
    ("rsqrt.f32 z, x", "vrsqrt.f32"), ("reciprocal.f32 z, x", "vrec.f32"),
    ("relu.f32 z, x", "vrelu.f32"), ("div.f32 z, x, y", "vdiv.f32"),
    ("leaky_relu.f32 z, x, 0.5", "vlrelu.f32")])
def test_api_statements_expand_to_their_hardware_instruction(api, mnemonic):
    count = hw(F32 + f"{api}, count=200\n")
    assert [t.split()[0] for t in count] == ["set_mask_count", "set_vector_mask", mnemonic,
                                            "set_mask_norm", "set_vector_mask"]
    high = hw(F32 + f"{api}, repeat=2, mask=16\n")
    assert high[0] == "set_vector_mask 0, 65535" and high[1].startswith(mnemonic + " ")
    assert hw(F32 + f"{api}, repeat=3\n")[0].startswith(mnemonic + " ")  # MASK as it is


def test_subs_is_vadds_of_the_negated_scalar():
    assert hw(F32 + "subs.f32 z, x, 1.5, count=64\n")[2] == "vadds.f32 z, x, -1.5, repeat=1"
    assert hw(F32 + "subs.f32 z, x, -2, repeat=1\n")[0] == "vadds.f32 z, x, 2, repeat=1"
    res = run_checked(S16 + "subs.s16 d, s, -32768, count=256\n")
    s = np.frombuffer(bytes(res.ub[:512]), np.int16)
    d = np.frombuffer(bytes(res.ub[512:1024]), np.int16)
    assert (d == (s.astype(np.int32) + 32768).astype(np.int16)).all()  # wraps as x - s does


@pytest.mark.parametrize("text, want", [
    ("exp.s16 d, s, count=16", "exp.s16 is not supported on ascend910b (supports f16, f32)"),
    ("shift_left.f32 z, x, 1, count=16", "supports s16, u16, s32, u32"),
    ("relu.s16 d, s, count=16", "supports f16, f32, s32"),
    ("vdiv.s16 d, s, s, repeat=1", "supports f16, f32")])
def test_types_outside_the_profile_are_refused(text, want):
    assert want in error_of(F32 + S16 + text + "\n")


def test_shift_count_outside_the_width_is_warned_at_the_count():
    res = run_checked(S16 + "shift_right.s16 d, s, 17, count=256\n")
    (w,) = [d for d in res.diagnostics if d.severity == "warning"]
    assert "shift_right by 17: the count is outside 0..16" in w.message and w.column == 23
    s = np.frombuffer(bytes(res.ub[:512]), np.int16)
    d = np.frombuffer(bytes(res.ub[512:1024]), np.int16)
    assert (d == np.where(s < 0, -1, 0)).all()  # every bit out: the sign fills


def test_shift_count_of_the_width_is_allowed():
    """The A2/A3 pages give int16 counts [0, 16]: 16 shifts every bit out, without a warning."""
    res = run_checked(S16 + "shift_right.s16 d, s, 16, count=256\n")
    assert not [d for d in res.diagnostics if d.severity == "warning"]
    s = np.frombuffer(bytes(res.ub[:512]), np.int16)
    d = np.frombuffer(bytes(res.ub[512:1024]), np.int16)
    assert (d == np.where(s < 0, -1, 0)).all()


def test_unknown_results_warn_once_per_instruction_with_the_total():
    text = (".ub x f32[64] = fill(-1.0)\n.ub z f32[64]\n"
            "    li x1, 0\nloop:\n    sqrt.f32 z, x, count=10\n    add x1, x1, 1\n"
            "    blt x1, 3, loop\n    reciprocal.f32 z, x, count=64\n")
    res = simulator.run(CHIP + text)
    warned = [d for d in res.diagnostics if d.severity == "warning"]
    assert len(warned) == 1 and warned[0].line == 6
    assert "Sqrt of an input <= 0 on 30 elements" in warned[0].message  # 3 runs × 10


def test_unknown_results_count_active_elements_only():
    text = ".ub x f32[64] = fill(0.0)\n.ub z f32[64]\nrsqrt.f32 z, x, repeat=1, mask=5\n"
    (w,) = [d for d in simulator.run(CHIP + text).diagnostics if d.severity == "warning"]
    assert "Rsqrt of an input <= 0 on 5 elements" in w.message


# -- correct rounding ---------------------------------------------------------------------------
def _all_f16(step: int) -> np.ndarray:
    return np.arange(0, 65536, step, dtype=np.uint32).astype(np.uint16).view(np.float16)


@pytest.mark.parametrize("name", ["vexp", "vln", "vsqrt", "vrec", "vrsqrt"])
def test_f16_sweep_is_correctly_rounded(name):
    x = _all_f16(13)
    got = smath.correctly_rounded(name, x, TYPES["f16"])
    want = np.frombuffer(b"".join(ref.element(name, "f16", v.tobytes()) for v in x), np.float16)
    bad = np.flatnonzero(got.view(np.uint16) != want.view(np.uint16))
    assert not bad.size, [(x[i], got[i], want[i]) for i in bad[:5]]


SPECIAL32 = np.array([0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001,
                      0xFFC12345, 0x00000001, 0x80000001, 0x007FFFFF, 0x00800000, 0x7F7FFFFF,
                      0x3F800000, 0xBF800000, 0x42B17218, 0x42B17217, 0xC2CFF1B5, 0xC2CFF1B4,
                      0x3F800001, 0x3F7FFFFF], np.uint32)


@pytest.mark.parametrize("name", ["vexp", "vln", "vsqrt", "vrec", "vrsqrt"])
def test_f32_random_and_specials_are_correctly_rounded(name):
    rng = np.random.default_rng(hash(name) % 1000)
    raw = np.concatenate([SPECIAL32, rng.integers(0, 1 << 32, 600, dtype=np.uint64)
                          .astype(np.uint32)])
    if name == "vexp":  # most random floats overflow or underflow: add the interesting range
        raw = np.concatenate([raw, rng.uniform(-110, 90, 600).astype(np.float32)
                              .view(np.uint32)])
    x = raw.view(np.float32)
    got = smath.correctly_rounded(name, x, TYPES["f32"])
    want = np.frombuffer(b"".join(ref.element(name, "f32", v.tobytes()) for v in x), np.float32)
    bad = np.flatnonzero(got.view(np.uint32) != want.view(np.uint32))
    assert not bad.size, [(x[i], got[i], want[i]) for i in bad[:5]]


def test_the_exact_fallback_gives_the_same_values():
    """Every element decided in decimal (the slack made huge) gives the same bits: the
    fallback path is exercised and agrees with the extended-precision one."""
    x = _all_f16(97)
    for name in ("vexp", "vln", "vrsqrt"):
        fast = smath.correctly_rounded(name, x, TYPES["f16"])
        with mock.patch.object(smath, "_SLACK", np.longdouble(0.5)):
            slow = smath.correctly_rounded(name, x, TYPES["f16"])
        assert fast.tobytes() == slow.tobytes(), name


@pytest.mark.parametrize("q, t, want", [
    (Fraction(1, 3), "f16", 0.333251953125),
    (Fraction(2049), "f16", 2048.0),  # a tie: to the even significand
    (Fraction(2051), "f16", 2052.0),
    (Fraction(65520), "f16", float("inf")),  # the tie past the largest finite value
    (Fraction(65519), "f16", 65504.0),
    (Fraction(1, 2 ** 25), "f16", 0.0),  # half the smallest subnormal: ties to even (0)
    (Fraction(3, 2 ** 26), "f16", 2.0 ** -24),
    (Fraction(-1, 10), "f32", float(np.float32(-0.1)))])
def test_round_to_is_nearest_even(q, t, want):
    assert smath.round_to(q, TYPES[t]) == want


def test_nan_rules():
    x = np.array([np.nan, -1.0, 0.0], np.float32)
    x.view(np.uint32)[0] = 0x7F800001  # a signalling NaN
    got = smath.correctly_rounded("vln", x, TYPES["f32"]).view(np.uint32)
    assert got.tolist() == [0x7FC00001, 0xFFC00000, 0xFF800000]  # quieted; default; -inf


# -- timing ----------------------------------------------------------------------------------
def _v_busy(line: str, t: str) -> int:
    return simulator.run(f"{CHIP}.ub x {t}[2048] = random(1)\n.ub y {t}[2048]\n{line}\n") \
        .pipes["V"]


def test_cost_classes_follow_the_throughput_table():
    # Exp, Div: 32 elements a cycle for both types → 4 (f16) and 2 (f32) cycles a repeat
    assert _v_busy("vexp.f16 y, x, repeat=8", "f16") == 32
    assert _v_busy("vexp.f32 y, x, repeat=8", "f32") == 16
    assert _v_busy("vdiv.f16 y, x, x, repeat=8", "f16") == 32
    assert _v_busy("vdiv.f32 y, x, x, repeat=8", "f32") == _v_busy(
        "vadd.f32 y, x, x, repeat=8", "f32")
    # Reciprocal, Rsqrt, Relu run at the rate of the unary class (vabs)
    for name in ("vrec", "vrsqrt", "vrelu"):
        assert _v_busy(f"{name}.f16 y, x, repeat=8", "f16") == _v_busy(
            "vabs.f16 y, x, repeat=8", "f16")


def test_composites_read_dst_and_cost_by_their_streams():
    text = (".ub a f32[64] @0x0 = random(1)\n.ub b f32[64] @0x1000 = random(2)\n"
            ".ub d f32[64] @0x2000\nvmla.f32 d, a, b, repeat=1\n")
    res = simulator.run(CHIP + text)
    # dst is read: never written before, the run says so
    assert any("reads byte" in w.message and "never written" in w.message
               for w in res.diagnostics if w.severity == "warning")
    three = _v_busy("vmadd.f32 y, x, x, repeat=8", "f32")
    assert three == 3 * 8  # three streams: src0, src1 and the old dst
    assert _v_busy("vaxpy.f32 y, x, 2.0, repeat=8", "f32") == _v_busy(
        "vadd.f32 y, x, x, repeat=8", "f32")


def test_composite_api_forms_expand_to_one_instruction():
    assert hw(F32 + "axpy.f32 z, x, 0.5, count=64\n")[2] == "vaxpy.f32 z, x, 0.5, repeat=1"
    for api, mn in (("add_relu", "vaddrelu"), ("sub_relu", "vsubrelu"),
                    ("mul_add_dst", "vmla"), ("fused_mul_add", "vmadd"),
                    ("mul_add_relu", "vmaddrelu")):
        assert hw(F32 + f"{api}.f32 z, x, y, repeat=2, mask=8\n")[1].startswith(mn + ".f32 ")


# -- the documented overlap exception: dst = src1 at repeat stride 0 -------------------------------
ACC = ".ub a f32[512] @0x0 = random(1)\n.ub d f32[128] @0x1000 = random(2)\n"


@pytest.mark.parametrize("op, fn", [("vadd", np.add), ("vmax", np.maximum), ("vmul", np.multiply)])
def test_binary_ops_accumulate_into_dst_across_repeats(op, fn):
    res = run_checked(ACC + f"{op}.f32 d, a, d, repeat=8, stride=1,1,1,0,8,0\n")
    assert not res.diagnostics
    a = np.frombuffer(bytes(res.ub[:2048]), np.float32).reshape(8, 64)
    want = np.frombuffer(bytes(simulator.run(CHIP + ACC + "nop\n").ub[0x1000:0x1100]),
                         np.float32)
    for row in a:  # each repeat reads what the repeat before wrote
        want = fn(row, want)
    assert bytes(res.ub[0x1000:0x1100]) == want.tobytes()


@pytest.mark.parametrize("text, why", [
    ("vadd.f32 d, d, a, repeat=8, stride=1,1,1,0,0,8", "src0, not src1"),
    ("vaddrelu.f32 d, a, d, repeat=8, stride=1,1,1,0,8,0", "not one of the listed ops"),
    ("vadd.f32 d, a, d, repeat=2, stride=1,1,1,0,8,1", "src1 moves on"),
    ("vadd.f32 d, d, d, repeat=8, stride=1,1,1,0,0,0", "src0 overlaps dst")])
def test_outside_the_exception_the_overlap_rule_holds(text, why):
    assert "overlap across repeats" in error_of(ACC + text + "\n"), why


def test_the_exception_needs_a_listed_type():
    text = (".ub a s16[1024] @0x0 = random(1)\n.ub d s16[128] @0x1000 = random(2)\n"
            "vadd.s16 d, a, d, repeat=8, stride=1,1,1,0,8,0\n")
    assert "overlap across repeats" in error_of(text)
