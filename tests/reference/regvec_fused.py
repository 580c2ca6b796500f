"""Issue 34 (r2): Div's precision modes, ExpSub and the widening Reduce SUM of the reg-based
unit, one element at a time, written from the vendor's pages (Div: "only PRECISION_0ULP_FTZ_FALSE
or PRECISION_1ULP_FTZ_FALSE keep subnormals; every other mode flushes them", its table 8: 1 /
-5.0e-39 gives -inf, 1.86e-39 / 7.7e-39 gives NaN 0x7FFFFFFF; ExpSub: e^(src0 - src1) in float,
half sources widened; Reduce: int16 sums into int32). Imports nothing from `isa` or `simulator`.

pipev's stated model, written here as such: the quotient is correctly rounded in every mode; a
flushed input or result keeps its sign; ExpSub's difference is rounded to float once, then Exp is
correctly rounded (tests/reference/elementwise.py's exact arithmetic for both).
"""

from __future__ import annotations

import math
import struct
from fractions import Fraction

from tests.reference.elementwise import DEFAULT_NAN, div, nearest, unary

SMALLEST_NORMAL = {"f16": Fraction(1, 2 ** 14), "f32": Fraction(1, 2 ** 126)}
FORMAT = {"f16": "<e", "f32": "<f"}
F32_MADE_NAN = 0x7FFFFFFF  # the Div page's table 8


def _value(t: str, raw: bytes) -> float:
    return struct.unpack(FORMAT[t], raw)[0]


def flush(t: str, raw: bytes) -> bytes:
    """A subnormal becomes the zero of its sign."""
    x = _value(t, raw)
    if math.isfinite(x) and x != 0 and abs(Fraction(x)) < SMALLEST_NORMAL[t]:
        return struct.pack(FORMAT[t], math.copysign(0.0, x))
    return raw


def reg_div(t: str, a: bytes, b: bytes, keep: bool) -> bytes:
    """Reg Div of two floats of T (raw bytes); KEEP: a FTZ_FALSE mode."""
    if not keep:
        a, b = flush(t, a), flush(t, b)
    q = div(t, a, b)
    made = not math.isnan(_value(t, a)) and not math.isnan(_value(t, b))
    if t == "f32" and made and int.from_bytes(q, "little") == DEFAULT_NAN[t]:
        return F32_MADE_NAN.to_bytes(4, "little")
    return q if keep else flush(t, q)


def _sub_f32(x: float, y: float) -> bytes:
    """x - y rounded to float32 once (IEEE: NaN operands quieted, src0's first)."""
    for v in (x, y):
        if math.isnan(v):
            bits = int.from_bytes(struct.pack("<f", v), "little") | 0x00400000
            return bits.to_bytes(4, "little")
    if math.isinf(x) and math.isinf(y) and (x > 0) == (y > 0):
        return DEFAULT_NAN["f32"].to_bytes(4, "little")
    if math.isinf(x) or math.isinf(y):
        return struct.pack("<f", x if math.isinf(x) else -y)
    d = Fraction(x) - Fraction(y)
    if d == 0:  # IEEE: x - x is +0; -0 - +0 is -0
        return struct.pack("<f", -0.0 if math.copysign(1, x) < 0 < math.copysign(1, y)
                           else 0.0)
    return nearest("f32", d)


def exp_sub(src: str, a: bytes, b: bytes) -> bytes:
    """ExpSub of one element pair of SRC (f16 / f32), as f32 bytes."""
    x, y = _value(src, a), _value(src, b)  # a half widens exactly
    if src == "f16":
        x, y = _quiet16(x, a), _quiet16(y, b)
    return unary("vexp", "f32", _sub_f32(x, y))


def _quiet16(v: float, raw: bytes) -> float:
    """A half NaN widened: sign and payload's top bits kept (struct reads it as a float)."""
    if not math.isnan(v):
        return v
    h = int.from_bytes(raw, "little")
    bits = (h & 0x8000) << 16 | 0x7F800000 | (h & 0x3FF) << 13 | 0x00400000
    return struct.unpack("<f", bits.to_bytes(4, "little"))[0]


def wide_sum(values: list[int], active: list[bool], bits: int) -> int:
    """Reduce SUM of 16-bit integers into a 32-bit one: the exact sum, as BITS-bit raw."""
    return sum(v for v, on in zip(values, active, strict=True) if on) % (1 << bits)


def mul_dst_add(t: str, d: bytes, a: bytes, b: bytes) -> bytes:
    """Reg MulDstAdd of one element of T (f16 / f32): d·a + b rounded once (the page: a fused
    multiply-add). A NaN among d, a, b: the first, quieted; inf·0 and inf − inf: the default
    NaN; an exact zero sum is +0 unless the product and b are both -0."""
    for raw in (d, a, b):
        if math.isnan(_value(t, raw)):
            return _raw_nan(t, raw)
    x, y, z = _value(t, d), _value(t, a), _value(t, b)
    neg = (math.copysign(1, x) < 0) != (math.copysign(1, y) < 0)
    if math.isinf(x) or math.isinf(y):
        if x == 0 or y == 0 or (math.isinf(z) and (z < 0) != neg):
            return DEFAULT_NAN[t].to_bytes(SIZE[t], "little")
        return struct.pack(FORMAT[t], -math.inf if neg else math.inf)
    if math.isinf(z):
        return b
    product = Fraction(x) * Fraction(y)
    q = product + Fraction(z)
    if q == 0:  # -0 only as (-0) + (-0)
        both = product == 0 and neg and math.copysign(1, z) < 0
        return struct.pack(FORMAT[t], -0.0 if both else 0.0)
    return nearest(t, q)


SIZE = {"f16": 2, "f32": 4}


def _raw_nan(t: str, raw: bytes) -> bytes:
    bits = int.from_bytes(raw, "little") | (0x0200 if t == "f16" else 0x00400000)
    return bits.to_bytes(SIZE[t], "little")


SQRT_KEEPS = ("fast", "p0ulp", "p1ulp")  # the Sqrt pages: these modes keep subnormals
SQRT_FAST = ("fast", "p0ulp")  # the fast-inverse algorithm: above 2^126, 0 (the Memory page)


def reg_sqrt(t: str, a: bytes, algo: str) -> bytes:
    """Sqrt of one element of T in SqrtAlgo ALGO: the correctly rounded root (pipev's stated
    model, every mode); a subnormal input flushed to the zero of its sign in the modes that do
    not keep subnormals; an input above 2^126 gives +0 in the fast-inverse modes."""
    x = _value(t, a)
    if algo in SQRT_FAST and not math.isnan(x) and x > 2.0 ** 126:
        return bytes(SIZE[t])
    return unary("vsqrt", t, a if algo in SQRT_KEEPS else flush(t, a))
