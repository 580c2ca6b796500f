"""vconv's numpy path (#33): the conversions whose numpy arithmetic is exactly the documented
rounding (semantics/convert.py's module docstring), done in a few whole-array passes instead
of the exact integer path's dozens.

`FAST[(src, dst)]` names the round modes a pair takes here; `fast_convert` returns None for
anything else, which the exact path converts. Each entry holds because:

- a float source widened to f32 is exact (f16 by numpy's cast, bf16 by moving its bits up), and
  so is an integer of at most 8 bits to f16 or of 16 bits to f32: every mode gives the value;
- an integral value in a mode is IEEE arithmetic in f32 (rint, floor, ceil, trunc; `round`,
  ties away, from trunc and the exact remainder x - trunc(x));
- a float destination narrower than the exact value is numpy's cast of an exact f32 (or, from
  an integer of 32 bits or fewer, f64) value: one rounding, to nearest even (`rint`, `none`);
  a value that would round to a subnormal or beyond the range is done here (`_narrowed`);
  bf16 from an exact f32 value in every mode is the top half of its bits, the magnitude
  rounded on the half below (bf16 keeps f32's exponent: subnormals and the carry into the
  exponent alike);
- an integer destination is the rounded value clipped to its range (NaN 0);
- then the rules numpy does not share: a finite value beyond the range saturates at the
  largest finite value, and a NaN keeps its sign and top payload bits with the quiet bit set.

tests/unit/test_convert_fast.py checks every entry against the exact path (every value of an
8- or 16-bit source, the specials and boundaries and random values of a 32-bit one) and
against the element-by-element reference (tests/reference/convert.py).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from isa.types import TYPES, DType, int_range

NEAREST = ("none", "rint")  # `none` is rint where precision is lost
ALL = ("none", "rint", "floor", "ceil", "round", "trunc", "odd")
INTEGRAL = ("none", "rint", "floor", "ceil", "round", "trunc")  # the modes `_integral` rounds in


def _away(x: np.ndarray) -> np.ndarray:
    """X rounded to an integral value, ties away from zero (the remainder is exact; a zero or
    an integral X keeps trunc's value, sign of zero included)."""
    t = np.trunc(x)
    up = np.abs(x - t) >= 0.5  # inf - inf is NaN: not up
    return np.where(up, t + np.copysign(np.ones((), x.dtype), x), t)


ROUND: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "none": np.rint, "rint": np.rint, "floor": np.floor, "ceil": np.ceil, "trunc": np.trunc,
    "round": _away}


def _floats(raw: np.ndarray, src: DType) -> np.ndarray:
    """SRC's raw elements as exact f32 values (NaN payloads aside: `_nan`)."""
    if src.name == "bf16":
        return (raw.astype(np.uint32) << 16).view(np.float32)
    return raw.view(src.numeric).astype(np.float32, copy=False)


def _ints(raw: np.ndarray, src: DType) -> np.ndarray:
    """SRC's raw elements as int64 values (s4: the low 4 bits, two's complement)."""
    if src.nibble:
        return ((raw.astype(np.int64) & 0xF) ^ 8) - 8
    return raw.view(src.numeric).astype(np.int64)


def _to_int(v: np.ndarray, dst: DType) -> np.ndarray:
    """Integer values (int64, or integral floats that are exact in f64) clipped to DST's range,
    NaN 0, as DST's raw bits."""
    lo, hi = int_range(dst)
    v = np.clip(v, lo, hi)
    if v.dtype.kind == "f":
        v = np.nan_to_num(v, nan=0.0)
    out = v.astype(dst.numeric).view(dst.raw)
    return out & 0xF if dst.nibble else out


def _narrowed(x: np.ndarray, dst: DType) -> np.ndarray:
    """X's values cast to DST (numpy: one rounding to nearest even) as DST's raw bits. numpy
    flags each overflow and underflow, slowly, and overflows to inf: a finite value beyond DST's
    largest finite value saturates there first (the cast keeps it), and one below its
    smallest normal is rounded here, in steps of the smallest subnormal (exact: a power of two;
    the count, to nearest even, is the subnormal's code, 2^mant the smallest normal's)."""
    info = np.finfo(dst.numeric)
    mag = np.abs(x)
    over = mag > info.max  # (NaN: False)
    if over.any():
        x = np.where(over & np.isfinite(x), np.copysign(np.asarray(info.max, x.dtype), x), x)
    low = (mag < info.smallest_normal) & (mag != 0)
    if not low.any():
        return x.astype(dst.numeric).view(dst.raw)
    out = np.where(low, 0, x).astype(dst.numeric).view(dst.raw)
    steps = np.rint(np.where(low, mag, 0) / np.asarray(info.smallest_subnormal, x.dtype))
    sign = np.signbit(x).astype(dst.raw) << (8 * dst.size - 1)
    return np.where(low, steps.astype(dst.raw) | sign, out)


def _nan(bits: np.ndarray, x: np.ndarray, raw: np.ndarray, src: DType, dst: DType
         ) -> np.ndarray:
    """BITS (DST's raw results of X, SRC's RAW elements as f32 values) with each NaN source's
    NaN: its sign, DST's exponent all ones, the quiet bit and the source's top payload bits."""
    nan = np.isnan(x)
    if not nan.any():
        return bits
    sm, dm = src.mantissa_bits, dst.mantissa_bits
    r = raw[nan].astype(np.uint64)
    frac = r & np.uint64((1 << sm) - 1)
    payload = frac << np.uint64(dm - sm) if dm >= sm else frac >> np.uint64(sm - dm)
    sign = (r >> np.uint64(8 * src.size - 1)) << np.uint64(8 * dst.size - 1)
    quiet_inf = (((1 << (8 * dst.size - 1 - dm)) - 1) << dm) | 1 << (dm - 1)
    bits = bits.copy()
    bits[nan] = (sign | np.uint64(quiet_inf) | payload).astype(dst.raw)
    return bits


def _float_to_float(raw: np.ndarray, src: DType, dst: DType, mode: str) -> np.ndarray:
    x = _floats(raw, src)
    with np.errstate(over="ignore", invalid="ignore"):
        if dst.name == "f32":
            out = ROUND[mode](x) if src.name == "f32" else x
        else:
            return _nan(_narrowed(x, dst), x, raw, src, dst)
    return _nan(out.view(dst.raw), x, raw, src, dst)


def _to_bf16(raw: np.ndarray, src: DType, dst: DType, mode: str) -> np.ndarray:
    """The top 16 bits of the exact f32 value, the magnitude rounded in MODE on the 16 below;
    a finite value rounded past the largest finite bf16 saturates there."""
    bits = raw.astype(np.uint32) if src.name == "f32" else _floats(raw, src).view(np.uint32)
    mag, neg = bits & 0x7FFFFFFF, bits >> 31 != 0
    top, low = mag >> 16, mag & 0xFFFF
    if mode in NEAREST:
        up = (low > 0x8000) | ((low == 0x8000) & (top & 1 == 1))
    elif mode == "round":
        up = low >= 0x8000
    elif mode == "floor":
        up = (low != 0) & neg
    elif mode == "ceil":
        up = (low != 0) & ~neg
    else:  # trunc
        up = np.zeros(bits.shape, bool)
    out = top + up
    out = np.where((out >= 0x7F80) & (mag < 0x7F800000), 0x7F7F, out)  # finite: saturates
    out = (out | (bits >> 16 & 0x8000)).astype(np.uint16)
    return _nan(out, bits.view(np.float32), raw, src, dst)


def _float_to_int(raw: np.ndarray, src: DType, dst: DType, mode: str) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        return _to_int(ROUND[mode](_floats(raw, src)).astype(np.float64), dst)


def _int_to_int(raw: np.ndarray, src: DType, dst: DType, mode: str) -> np.ndarray:
    return _to_int(_ints(raw, src), dst)


def _int_to_float(raw: np.ndarray, src: DType, dst: DType, mode: str) -> np.ndarray:
    x = _ints(raw, src).astype(np.float64)  # exact: 32 bits or fewer
    return _narrowed(x, dst)


Convert = Callable[[np.ndarray, DType, DType, str], np.ndarray]
# (source, destination) -> (the modes converted here, how): pairs some chip converts
FAST: dict[tuple[str, str], tuple[tuple[str, ...], Convert]] = {
    # exact widenings: every mode
    ("f16", "f32"): (ALL, _float_to_float), ("bf16", "f32"): (ALL, _float_to_float),
    ("s8", "f16"): (ALL, _int_to_float), ("u8", "f16"): (ALL, _int_to_float),
    ("s4", "f16"): (ALL, _int_to_float), ("s4", "bf16"): (ALL, _int_to_float),
    ("s16", "f32"): (ALL, _int_to_float),
    ("s32", "s64"): (ALL, _int_to_int), ("s4", "s16"): (ALL, _int_to_int),
    # integers narrowed: saturation, no rounding
    ("s64", "s32"): (ALL, _int_to_int), ("s32", "s16"): (ALL, _int_to_int),
    ("s16", "s4"): (ALL, _int_to_int),
    # one rounding to nearest even
    ("f32", "f16"): (NEAREST, _float_to_float), ("bf16", "f16"): (NEAREST, _float_to_float),
    ("s16", "f16"): (NEAREST, _int_to_float), ("s32", "f32"): (NEAREST, _int_to_float),
    # bit arithmetic on (exact) f32 bits, in every mode the chips name
    ("f32", "bf16"): (INTEGRAL, _to_bf16), ("f16", "bf16"): (INTEGRAL, _to_bf16),
    # an integral value, then the destination's range
    ("f32", "f32"): (INTEGRAL, _float_to_float),
    **{pair: (INTEGRAL, _float_to_int) for pair in (
        ("f32", "s32"), ("f32", "s16"), ("f16", "s32"), ("f16", "s16"), ("f16", "s8"),
        ("f16", "u8"), ("f16", "s4"), ("bf16", "s32"))},
}


def fast_convert(raw: np.ndarray, src: DType, dst: DType, mode: str) -> np.ndarray | None:
    """Raw SRC elements -> raw DST elements where `FAST` has the pair and MODE, else None."""
    entry = FAST.get((src.name, dst.name))
    if entry is None or mode not in entry[0] or TYPES.get(src.name) is not src \
            or TYPES.get(dst.name) is not dst:
        return None
    return entry[1](raw, src, dst, mode)
