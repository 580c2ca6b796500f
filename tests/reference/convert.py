"""The reference for vconv / cast, one element at a time with exact rational arithmetic
(`fractions.Fraction`), written from the round-mode definitions, not from the simulator: it
imports nothing from `isa` or `simulator` and never uses numpy's casts.

A source element's bits become an exact value (or ±inf, NaN); the value is divided by the
destination's quantum at its exponent, the two integer neighbours floor(q) and ceil(q) are the
candidates, and the mode picks one:

- floor / ceil: the lower / upper one; trunc: the one nearer zero;
- rint (and none): the nearer, ties to the even one; round: the nearer, ties away from zero;
- odd: the odd one when the value is inexact (von Neumann rounding).

docs/decisions.md: float results saturate at the largest finite value, ±inf stays ±inf, NaN
keeps its sign and top payload bits with the quiet bit set, zeros keep their sign; integer
results saturate, NaN gives 0. A float converted to its own type (f32 → f32) is rounded to an
integer in the mode and stays in that type (the Cast page's float → float row).
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

# name → (explicit mantissa bits, exponent bits)
FLOATS = {"f16": (10, 5), "bf16": (7, 8), "f32": (23, 8)}
# name → (bits, signed)
INTS = {"s8": (8, True), "u8": (8, False), "s16": (16, True), "u16": (16, False),
        "s32": (32, True), "u32": (32, False), "s64": (64, True),
        "s4": (4, True)}  # int4b_t: two's complement −8..7 (its bits, unpacked)
MODES = ("none", "rint", "floor", "ceil", "round", "trunc", "odd")


def width(t: str) -> int:
    if t in FLOATS:
        m, e = FLOATS[t]
        return 1 + m + e
    return INTS[t][0]


def decode(t: str, bits: int):
    """('num', negative, Fraction) | ('inf', negative) | ('nan', negative, payload bits)."""
    if t in INTS:
        n, signed = INTS[t]
        v = bits - (1 << n) if signed and bits >> (n - 1) else bits
        return ("num", v < 0, Fraction(abs(v)))
    m, e = FLOATS[t]
    neg = bool(bits >> (m + e))
    exp = (bits >> m) & ((1 << e) - 1)
    frac = bits & ((1 << m) - 1)
    bias = (1 << (e - 1)) - 1
    if exp == (1 << e) - 1:
        return ("nan", neg, frac) if frac else ("inf", neg)
    if exp == 0:
        return ("num", neg, Fraction(frac) * Fraction(2) ** (1 - bias - m))
    return ("num", neg, (1 + Fraction(frac, 1 << m)) * Fraction(2) ** (exp - bias))


def floor_log2(x: Fraction) -> int:
    """The integer e with 2^e <= x < 2^(e+1), x > 0, exactly."""
    e = x.numerator.bit_length() - x.denominator.bit_length()
    while Fraction(2) ** e > x:
        e -= 1
    while Fraction(2) ** (e + 1) <= x:
        e += 1
    return e


def pick(q: Fraction, mode: str) -> int:
    """The integer MODE rounds the signed rational Q to."""
    lo, hi = math.floor(q), math.ceil(q)
    if lo == hi:
        return lo
    toward_zero = lo if q > 0 else hi
    if mode == "floor":
        return lo
    if mode == "ceil":
        return hi
    if mode == "trunc":
        return toward_zero
    if mode == "odd":
        return lo if lo % 2 else hi
    dlo, dhi = q - lo, hi - q
    if dlo != dhi:
        return lo if dlo < dhi else hi
    if mode == "round":
        return hi if q > 0 else lo  # away from zero
    return lo if lo % 2 == 0 else hi  # rint, none: ties to even


def encode_float(t: str, neg: bool, mag: Fraction) -> int:
    """|value| = MAG, exactly representable in T (or its largest finite value)."""
    m, e = FLOATS[t]
    bias = (1 << (e - 1)) - 1
    sign = int(neg) << (m + e)
    if mag == 0:
        return sign
    if mag < Fraction(2) ** (1 - bias):  # subnormal
        frac = mag / Fraction(2) ** (1 - bias - m)
        assert frac.denominator == 1
        return sign | int(frac)
    ex = floor_log2(mag)
    frac = mag / Fraction(2) ** (ex - m) - (1 << m)
    assert frac.denominator == 1 and 0 <= frac < (1 << m)
    return sign | ((ex + bias) << m) | int(frac)


def max_finite(t: str) -> Fraction:
    m, e = FLOATS[t]
    bias = (1 << (e - 1)) - 1
    return (2 - Fraction(1, 1 << m)) * Fraction(2) ** bias


def to_float(t: str, neg: bool, mag: Fraction, mode: str) -> int:
    m, e = FLOATS[t]
    bias = (1 << (e - 1)) - 1
    if mag == 0:
        return int(neg) << (m + e)
    ex = max(floor_log2(mag), 1 - bias)
    quantum = Fraction(2) ** (ex - m)
    signed = -mag if neg else mag
    r = pick(signed / quantum, mode) * quantum
    r_mag = min(abs(r), max_finite(t))  # finite overflow saturates
    return encode_float(t, neg, r_mag)  # a zero result keeps the source's sign


def to_int(t: str, neg: bool, mag: Fraction, mode: str) -> int:
    n, signed = INTS[t]
    lo, hi = (-(1 << (n - 1)), (1 << (n - 1)) - 1) if signed else (0, (1 << n) - 1)
    v = pick(-mag if neg else mag, mode)
    return min(max(v, lo), hi) % (1 << n)


@lru_cache(maxsize=1 << 16)  # a pure function: random programs convert the same bits often
def convert_one(src: str, dst: str, bits: int, mode: str) -> int:
    """The raw bits of DST that SRC element BITS converts to in MODE."""
    kind, neg, *rest = decode(src, bits)
    if dst in INTS:
        n, signed = INTS[dst]
        if kind == "nan":
            return 0
        if kind == "inf":
            lo, hi = (-(1 << (n - 1)), (1 << (n - 1)) - 1) if signed else (0, (1 << n) - 1)
            return (lo if neg else hi) % (1 << n)
        return to_int(dst, neg, rest[0], mode)
    m, e = FLOATS[dst]
    top = ((1 << e) - 1) << m
    sign = int(neg) << (m + e)
    if kind == "inf":
        return sign | top
    if kind == "nan":
        ms = FLOATS[src][0]
        payload = rest[0] << (m - ms) if m >= ms else rest[0] >> (ms - m)
        return sign | top | (1 << (m - 1)) | payload
    if src == dst:  # float → same float: round to an integral value
        r = pick(-rest[0] if neg else rest[0], mode)
        return encode_float(dst, neg, Fraction(abs(r)))
    return to_float(dst, neg, rest[0], mode)
