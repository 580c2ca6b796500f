"""#27a element-wise instructions, one element at a time, written from the vendor's pages and
docs/semantics.md — not from the simulator (nothing from `isa` or `simulator`).

vdiv, vexp, vln, vsqrt, vrec, vrsqrt: the exact value (a rational, or `decimal` at 50 digits for
the transcendentals) rounded to the nearest T value by comparing it with the candidates around a
first guess, ties to the even significand; vrelu, vlrelu (the product rounded the same way),
vshl, vshr (Python integers). NaN rules: a NaN input gives itself with the quiet bit set (vdiv:
src0's when both are NaN); an invalid operation gives the default NaN with the sign set.
"""

from __future__ import annotations

import decimal
import math
import struct
from fractions import Fraction

import numpy as np

FLOATS = {"f16": (np.float16, "e", 2), "f32": (np.float32, "f", 4)}
INTS = {"s16": (True, 16), "u16": (False, 16), "s32": (True, 32), "u32": (False, 32)}
QUIET = {"f16": 0x0200, "f32": 0x00400000}
DEFAULT_NAN = {"f16": 0xFE00, "f32": 0xFFC00000}
MATH_UNARY = ("vexp", "vln", "vsqrt", "vrec", "vrsqrt", "vrelu")
MATH_BINARY = ("vdiv", "vaddrelu", "vsubrelu", "vmla", "vmadd", "vmaddrelu")
MATH_SCALAR = ("vlrelu", "vshl", "vshr", "vaxpy")
MATH_ACC = ("vaxpy", "vmla", "vmadd", "vmaddrelu")  # read the old dst too


def _value(t: str, raw: bytes) -> float:
    return struct.unpack("<" + FLOATS[t][1], raw)[0]


def _bits(t: str, raw: bytes) -> int:
    return int.from_bytes(raw, "little")


def _raw(t: str, bits: int) -> bytes:
    return bits.to_bytes(FLOATS[t][2], "little")


def _pack(t: str, v: float) -> bytes:
    return np.asarray(v, FLOATS[t][0]).tobytes()


def _top(t: str) -> Fraction:
    """2^(emax+1): where inf sits for rounding (the overflow threshold's far end)."""
    return Fraction(2) ** (16 if t == "f16" else 128)


def nearest(t: str, q: Fraction) -> bytes:
    """Q rounded to nearest T, ties to even: the candidates around numpy's guess compared
    exactly."""
    if q == 0:
        return _pack(t, 0.0)
    dt = FLOATS[t][0]
    guess = float(q) if abs(q) < 2 ** 1000 else (math.inf if q > 0 else -math.inf)
    with np.errstate(over="ignore"):  # (the neighbours of the largest finite overflow to inf)
        c = dt(guess)
        cands = [c, np.nextafter(c, dt(np.inf)), np.nextafter(c, dt(-np.inf))]

    def value(x) -> Fraction:
        return (_top(t) if x > 0 else -_top(t)) if np.isinf(x) else Fraction(float(x))

    def key(x):
        bits = int(np.asarray(x, dt).view(np.uint16 if t == "f16" else np.uint32))
        return abs(value(x) - q), bits & 1
    best = min((x for x in cands if not np.isnan(x)), key=key)
    return np.asarray(best, dt).tobytes()


def _nan_in(t: str, raw: bytes) -> bytes:
    return _raw(t, _bits(t, raw) | QUIET[t])


def div(t: str, a: bytes, b: bytes) -> bytes:
    x, y = _value(t, a), _value(t, b)
    if math.isnan(x):
        return _nan_in(t, a)
    if math.isnan(y):
        return _nan_in(t, b)
    if (x == 0 and y == 0) or (math.isinf(x) and math.isinf(y)):
        return _raw(t, DEFAULT_NAN[t])
    neg = math.copysign(1, x) * math.copysign(1, y) < 0
    if math.isinf(x) or y == 0:
        return _pack(t, -math.inf if neg else math.inf)
    if math.isinf(y) or x == 0:
        return _pack(t, -0.0 if neg else 0.0)
    return nearest(t, Fraction(x) / Fraction(y))


def _transcendental(name: str, x: float) -> Fraction:
    with decimal.localcontext() as ctx:
        ctx.prec = 50
        d = decimal.Decimal(x)
        r = {"vexp": lambda: d.exp(), "vln": lambda: d.ln(), "vsqrt": lambda: d.sqrt(),
             "vrec": lambda: 1 / d, "vrsqrt": lambda: 1 / d.sqrt()}[name]()
        return Fraction(r)


def unary(name: str, t: str, a: bytes) -> bytes:
    if name == "vrelu":
        return relu(t, a)
    x = _value(t, a)
    if math.isnan(x):
        return _nan_in(t, a)
    inf, nan = _pack(t, math.inf), _raw(t, DEFAULT_NAN[t])
    if name == "vexp":
        if abs(x) > 200:  # far beyond either end of f32 (e^88.7, e^-103.3): skip decimal
            return inf if x > 0 else _pack(t, 0.0)
    elif name == "vln":
        if x == 0:
            return _pack(t, -math.inf)
        if x < 0:
            return nan
        if math.isinf(x):
            return inf
    elif name == "vsqrt":
        if x == 0:
            return a  # sqrt(±0) = ±0
        if x < 0:
            return nan
        if math.isinf(x):
            return inf
    elif name == "vrec":
        if x == 0:
            return _pack(t, math.copysign(math.inf, x))
        if math.isinf(x):
            return _pack(t, math.copysign(0.0, x))
    elif name == "vrsqrt":
        if x == 0:
            return _pack(t, math.copysign(math.inf, x))
        if x < 0:
            return nan
        if math.isinf(x):
            return _pack(t, 0.0)
    return nearest(t, _transcendental(name, x))


def relu(t: str, a: bytes) -> bytes:
    if t in INTS:
        signed, bits = INTS[t]
        v = int.from_bytes(a, "little", signed=signed)
        return (0 if v < 0 else v).to_bytes(bits // 8, "little", signed=signed)
    x = _value(t, a)
    return _pack(t, 0.0) if x < 0 else a


def leaky_relu(t: str, a: bytes, s: bytes) -> bytes:
    x, k = _value(t, a), _value(t, s)
    if not x < 0:  # NaN, ±0 and positives pass as they are
        return a
    if math.isinf(x):
        if math.isnan(k) or k == 0:
            return _nan_in(t, s) if math.isnan(k) else _raw(t, DEFAULT_NAN[t])
        return _pack(t, -math.inf if k > 0 else math.inf)
    if math.isnan(k):
        return _nan_in(t, s)
    if math.isinf(k):
        return _pack(t, -math.inf if k > 0 else math.inf)
    if k == 0:
        return _pack(t, -0.0 if math.copysign(1, k) > 0 else 0.0)
    return nearest(t, Fraction(x) * Fraction(k))


def shift(name: str, t: str, a: bytes, s: bytes) -> bytes:
    signed, bits = INTS[t]
    v = int.from_bytes(a, "little", signed=signed)
    n = int.from_bytes(s, "little", signed=signed)
    if name == "vshl":  # signed: the page's arithmetic left shift keeps the sign bit
        r = (v << n) % (1 << bits) if 0 <= n < bits else 0
        if signed:
            top = 1 << (bits - 1)
            r = (v % (1 << bits)) & top | r & (top - 1)
        return r.to_bytes(bits // 8, "little")
    if not 0 <= n < bits:
        n = bits  # every bit out: the sign fills a signed type
    r = v >> n  # Python's >> on a negative int is arithmetic
    return (r % (1 << bits)).to_bytes(bits // 8, "little")


def _first_nan(t: str, *xs: bytes) -> bytes | None:
    for x in xs:
        if t in FLOATS and math.isnan(_value(t, x)):
            return _nan_in(t, x)
    return None


def mul(t: str, a: bytes, b: bytes) -> bytes:
    """a · b rounded in T (IEEE specials; a NaN operand: the first, quieted)."""
    nan = _first_nan(t, a, b)
    if nan is not None:
        return nan
    x, y = _value(t, a), _value(t, b)
    neg = (math.copysign(1, x) < 0) != (math.copysign(1, y) < 0)
    if math.isinf(x) or math.isinf(y):
        if x == 0 or y == 0:
            return _raw(t, DEFAULT_NAN[t])
        return _pack(t, -math.inf if neg else math.inf)
    q = Fraction(x) * Fraction(y)
    return _pack(t, -0.0 if neg else 0.0) if q == 0 else nearest(t, q)


def add(t: str, a: bytes, b: bytes) -> bytes:
    """a + b rounded in T (exact zero sums: +0 unless both are -0)."""
    nan = _first_nan(t, a, b)
    if nan is not None:
        return nan
    x, y = _value(t, a), _value(t, b)
    if math.isinf(x) or math.isinf(y):
        if math.isinf(x) and math.isinf(y) and x != y:
            return _raw(t, DEFAULT_NAN[t])
        return _pack(t, x if math.isinf(x) else y)
    q = Fraction(x) + Fraction(y)
    if q == 0:
        both_neg = math.copysign(1, x) < 0 and math.copysign(1, y) < 0
        return _pack(t, -0.0 if both_neg else 0.0)
    return nearest(t, q)


def _int_op(t: str, a: bytes, b: bytes, fn) -> bytes:
    signed, bits = INTS[t]
    x = int.from_bytes(a, "little", signed=signed)
    y = int.from_bytes(b, "little", signed=signed)
    return (fn(x, y) % (1 << bits)).to_bytes(bits // 8, "little")


def multiply_add(t: str, a: bytes, b: bytes, c: bytes) -> bytes:
    """round(round(a·b) + c); a NaN among a, b, c: the first, quieted."""
    nan = _first_nan(t, a, b, c)
    return nan if nan is not None else add(t, mul(t, a, b), c)


def _neg(t: str, b: bytes) -> bytes:
    if t in FLOATS:
        return _raw(t, _bits(t, b) ^ (1 << (8 * FLOATS[t][2] - 1)))
    signed, bits = INTS[t]
    return ((-int.from_bytes(b, "little", signed=signed)) % (1 << bits)).to_bytes(bits // 8,
                                                                                 "little")


def add_relu(name: str, t: str, a: bytes, b: bytes) -> bytes:
    """relu(a ± b) in T (integers wrap first). Two NaNs: src0's."""
    if t in INTS:
        s = _int_op(t, a, b, (lambda x, y: x + y) if name == "vaddrelu" else
                    (lambda x, y: x - y))
        return relu(t, s)
    if name == "vsubrelu" and not math.isnan(_value(t, b)):
        b = _neg(t, b)  # x - y is x + (-y); a NaN y keeps its payload and sign
    return relu(t, add(t, a, b))


def element(name: str, t: str, a: bytes, b: bytes | None = None,
            old: bytes | None = None) -> bytes:
    """One element of instruction NAME in type T: sources A (and B: src1 or the scalar; OLD:
    the destination's old value, for the MATH_ACC instructions)."""
    if name == "vaxpy":
        return multiply_add(t, a, b, old)
    if name == "vmla":
        return multiply_add(t, a, b, old)
    if name in ("vmadd", "vmaddrelu"):
        r = multiply_add(t, a, old, b)
        return relu(t, r) if name == "vmaddrelu" else r
    if name in ("vaddrelu", "vsubrelu"):
        return add_relu(name, t, a, b)
    if name == "vdiv":
        return div(t, a, b)
    if name == "vlrelu":
        return leaky_relu(t, a, b)
    if name in ("vshl", "vshr"):
        return shift(name, t, a, b)
    return unary(name, t, a)


def accumulates(name: str, t: str | None, ops: dict, touched: dict) -> bool:
    """The documented overlap exception of vadd vsub vmul vmax vmin vand vor (TIK's two-source
    general definition): dst is src1 with repeat stride 0 on both (same start, same block
    stride), T is f16, f32 or s32, more than one repeat, and src0 touches none of dst's bytes."""
    if name not in ("vadd", "vsub", "vmul", "vmax", "vmin", "vand", "vor") or \
            t not in ("f16", "f32", "s32") or len(touched["dst"]) < 2:
        return False
    d, s1 = ops["dst"], ops["src1"]
    if (d["addr"], d["blk"], d["rep"]) != (s1["addr"], s1["blk"], s1["rep"]) or d["rep"] != 0:
        return False
    dst_bytes = set().union(*touched["dst"])
    return not dst_bytes & set().union(*touched["src0"])
