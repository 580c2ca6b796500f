"""#27a property tests: random programs of vdiv, vexp, vln, vsqrt, vrec, vrsqrt, vrelu, vlrelu,
vshl, vshr and the composites vaddrelu, vsubrelu, vaxpy, vmla, vmadd, vmaddrelu (with masks,
mask modes, strides, repeats, in-place operands and the specials of the shared pools: ±0, ±inf,
NaN payloads, subnormals, extremes) run bit-exact against tests/reference/elementwise.py
through the reference model."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.differential.test_random_programs import SETTINGS, SIZE, UB_BYTES, Gen, check

MATH = ("f16", "f32")
TYPES = {"vdiv": MATH, "vexp": MATH, "vln": MATH, "vsqrt": MATH, "vrec": MATH, "vrsqrt": MATH,
         "vrelu": ("f16", "f32", "s32"), "vlrelu": MATH,
         "vshl": ("s16", "u16", "s32", "u32"), "vshr": ("s16", "u16", "s32", "u32"),
         "vaddrelu": ("s16", "f16", "f32"), "vsubrelu": ("s16", "f16", "f32"), "vaxpy": MATH,
         "vmla": MATH, "vmadd": MATH, "vmaddrelu": MATH}
BINARY = ("vdiv", "vaddrelu", "vsubrelu", "vmla", "vmadd", "vmaddrelu")
SCALAR = ("vlrelu", "vshl", "vshr", "vaxpy")
ACC = ("vaxpy", "vmla", "vmadd", "vmaddrelu")  # read dst: no overlapping dst repeats
SHIFT_COUNTS = ("0", "1", "3", "7", "15", "16", "31", "40")


class MathGen(Gen):
    def scalar(self, t: str) -> str:
        if t[0] in "su":
            return self.draw(st.sampled_from(SHIFT_COUNTS))
        return super().scalar(t)

    def math_op(self) -> None:
        self.new_state()
        name = self.draw(st.sampled_from(sorted(TYPES)))
        t = self.draw(st.sampled_from(TYPES[name]))
        n = 256 // SIZE[t]
        repeat = self.repeats_field()
        r = self.effective_repeats(repeat, n)
        self.used, self.dst_region = set(), None
        binary = name in BINARY
        strides = [self.stride(r, dst=role == "dst")
                   for role in (("dst", "src0", "src1") if binary else ("dst", "src"))]
        if name in ACC:
            strides[0] = (1, max(strides[0][1], 8))  # dst's repeats apart
        (db, dr) = strides[0]
        ops = [self.shared_dst(t, r, db, dr)]
        for k, (b, rp) in enumerate(strides[1:], 1):
            if k == 1 and name not in ACC and self.draw(st.integers(0, 4)) == 4:
                ops.append(ops[0])  # in place
                strides[k] = (db, dr)
            else:
                ops.append(self.operand(t, self.extent(r, b, rp))[0])
        if name in SCALAR:
            ops.append(self.scalar(t))
        flat = [s[0] for s in strides] + [s[1] for s in strides]
        self.emit_vector(f"{name}.{t}", ops, repeat, flat)
        if name == "vshr" and t in ("s16", "s32", "u16") and self.draw(st.booleans()):
            self.lines[-1] += ", round_en=1"  # #27: ShiftRight's roundEn (u16: a no-op)

    def accumulate(self) -> None:
        """The documented overlap exception: dst = src1 at repeat stride 0 (an accumulation
        across repeats), now and then with a type or op outside it (then an overlap error)."""
        self.new_state()
        name = self.draw(st.sampled_from(("vadd", "vsub", "vmul", "vmax", "vmin", "vaddrelu")))
        t = self.draw(st.sampled_from(("f16", "f32", "s32", "s16")))
        if name == "vaddrelu" and t == "s32":
            t = "s16"
        n = 256 // SIZE[t]
        repeat = self.repeats_field()
        r = self.effective_repeats(repeat, n)
        self.used, self.dst_region = set(), None
        db = self.draw(st.sampled_from((1, 2)))
        dst = self.operand(t, self.extent(1, db, 0))[0]
        ab, ar = self.stride(r, False)
        src0 = self.operand(t, self.extent(r, ab, ar))[0]
        self.emit_vector(f"{name}.{t}", [dst, src0, dst], repeat, [db, ab, db, 0, ar, 0])

    def program(self) -> str:
        for _ in range(self.draw(st.integers(1, 5))):
            kind = self.draw(st.sampled_from(("mask", "mode", "math", "math", "math", "acc")))
            {"mask": self.mask, "mode": self.mask_mode, "math": self.math_op,
             "acc": self.accumulate}[kind]()
        return "\n".join([".chip ascend910b", *self.decls, *self.lines]) + "\n"


@st.composite
def programs(draw, overlap: bool = False) -> str:
    return MathGen(draw, overlap).program()


@settings(SETTINGS, max_examples=300)
@given(programs())
def test_elementwise_programs_bit_exact(text):
    check(text, "error")


@settings(SETTINGS, max_examples=100)
@given(programs(overlap=True))
def test_elementwise_overlaps_follow_the_reference(text):
    check(text, "off")


def test_scratch_is_below_the_generator_limit():
    assert UB_BYTES - 8192 > 0
