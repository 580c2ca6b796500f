"""The exact conversion arithmetic (docs/semantics.md §6.4): element conversion between types in
a round mode, for vconv (semantics/vconv.py), the reg-based Cast and the families that convert.

Exact integer arithmetic over the raw bits, vectorised with numpy (never numpy's own casts,
whose rounding is round-to-nearest only): each source element is split into sign, an integer
magnitude M and a power of two E (value = ±M·2^E), rounded once to the destination's quantum,
and encoded. The rules (docs/decisions.md):

- `rint` nearest, ties to even; `round` nearest, ties away from zero; `floor`, `ceil`, `trunc`
  the directed modes; `odd` truncate and set the last bit when inexact; `none` is `rint` where
  precision is lost (exact conversions are exact in every mode).
- float results: subnormals are produced and read (no flush); signed zeros keep their sign; a
  finite result beyond the destination's range saturates to its largest finite value (the
  vendor's "overflow saturates by default"); ±inf stays ±inf; NaN stays NaN, sign and the top
  payload bits kept, quiet bit set.
- integer results: saturate to the destination's range; ±inf saturates; NaN gives 0 (s4,
  int4b_t: −8..7, one raw 4-bit value a element; common.py packs two a byte).
- a float converted to its own type (f32 → f32) is rounded to an integral value in the mode.
- int64 sources: a magnitude of 2^62 or more keeps its top 61 bits and a sticky bit (exact for
  every destination the chips convert int64 to: floats, whose 24 bits round the same, and
  int32, which saturates there).

`convert(raw, src, dst, mode)` is the one entry point other families use (AddReluCast,
CastDequant: a raw numpy array of SRC's bits in, DST's bits out). It takes numpy's path for
the pairs and modes where numpy's arithmetic is the same rounding (semantics/convert_fast.py,
each checked against `exact_convert`), the exact one for the rest.
"""

from __future__ import annotations

import attrs
import numpy as np

from isa.types import DType, int_range
from simulator.semantics.convert_fast import fast_convert

MAX_SHIFT = 62  # M < 2^62 in every supported type: beyond this shift only a sticky bit is left


@attrs.frozen
class FloatFormat:
    mant: int  # explicit mantissa bits
    exp_bits: int

    @property
    def bias(self) -> int:
        return (1 << (self.exp_bits - 1)) - 1

    @property
    def emin(self) -> int:
        return 1 - self.bias

    @property
    def inf_bits(self) -> int:
        return ((1 << self.exp_bits) - 1) << self.mant


def float_format(t: DType) -> FloatFormat:
    p = t.mantissa_bits
    return FloatFormat(p, 8 * t.size - 1 - p)


@attrs.frozen(eq=False)
class Parts:
    """Source elements as ±M·2^E (finite) plus the special classes."""

    neg: np.ndarray
    mag: np.ndarray  # int64 M
    exp: np.ndarray  # int64 E
    inf: np.ndarray
    nan: np.ndarray
    payload: np.ndarray  # NaN payload bits, aligned to the top of a 62-bit field


def split(raw: np.ndarray, t: DType) -> Parts:
    """Raw elements of T → Parts."""
    if t.is_int:
        return _split_int(raw, t)
    f = float_format(t)
    bits = raw.astype(np.int64)
    neg = ((bits >> (8 * t.size - 1)) & 1).astype(bool)
    e = (bits >> f.mant) & ((1 << f.exp_bits) - 1)
    frac = bits & ((1 << f.mant) - 1)
    special = e == (1 << f.exp_bits) - 1
    normal = e != 0
    mag = np.where(normal, frac | (1 << f.mant), frac)
    exp = np.where(normal, e, 1) - f.bias - f.mant
    return Parts(neg, np.where(special, 0, mag), exp, special & (frac == 0),
                 special & (frac != 0), frac << (MAX_SHIFT - f.mant))


def _split_int(raw: np.ndarray, t: DType) -> Parts:
    if t.nibble:  # s4: the low 4 bits, two's complement
        v = ((raw.astype(np.int64) & 0xF) ^ 8) - 8
    else:
        v = raw.view(t.numeric).astype(np.int64)
    zeros = np.zeros(v.shape, bool)
    exp = np.zeros(v.shape, np.int64)
    if t.size < 8:
        return Parts(v < 0, np.abs(v), exp, zeros, zeros, exp)
    mag = np.where(v < 0, -(v.astype(np.uint64)), v.astype(np.uint64))  # |int64 min| = 2^63
    big = mag >= np.uint64(1 << 62)
    sticky = (mag & np.uint64(3)) != 0
    mag = np.where(big, (mag >> np.uint64(2)) | sticky.astype(np.uint64), mag)
    return Parts(v < 0, mag.astype(np.int64), np.where(big, 2, 0), zeros, zeros, exp)


def bit_length(mag: np.ndarray) -> np.ndarray:
    """The exact bit length of each M < 2^62 (float64's frexp may round 2^k - 1 up)."""
    length = np.frexp(mag.astype(np.float64))[1].astype(np.int64)
    over = (length > 0) & ((mag >> np.maximum(length - 1, 0)) == 0)
    return length - over


def round_shift(mag: np.ndarray, sh: np.ndarray, neg: np.ndarray, mode: str) -> np.ndarray:
    """M / 2^sh rounded to an integer in MODE (sh may be negative: an exact left shift)."""
    s = np.clip(sh, 0, MAX_SHIFT)
    q = mag >> s
    rem = mag - (q << s)
    half = (np.int64(1) << s) >> 1
    inexact = rem != 0
    above = rem > half
    tie = inexact & (rem == half)
    odd = (q & 1) == 1
    if mode in ("none", "rint"):
        up = above | (tie & odd)
    elif mode == "round":
        up = above | tie
    elif mode == "floor":
        up = inexact & neg
    elif mode == "ceil":
        up = inexact & ~neg
    elif mode == "odd":
        up = inexact & ~odd
    else:  # trunc
        up = np.zeros(mag.shape, bool)
    return np.where(sh <= 0, mag << np.clip(-sh, 0, MAX_SHIFT), q + up)


def to_float(p: Parts, t: DType, mode: str, overflow: str = "max") -> np.ndarray:
    """OVERFLOW: a finite value beyond T's range gives its largest finite value ("max", the
    memory-based Cast) or ±inf ("inf", the reg-based Cast's SatMode NO_SAT)."""
    f = float_format(t)
    sign = p.neg.astype(np.int64) << (8 * t.size - 1)
    length = bit_length(p.mag)
    e = np.maximum(length - 1 + p.exp, f.emin)  # the result's exponent (emin: subnormal)
    m = round_shift(p.mag, e - f.mant - p.exp, p.neg, mode)
    bits = ((e - f.emin) << f.mant) + m  # a carry out of the mantissa bumps the exponent
    top = f.inf_bits - 1 if overflow == "max" else f.inf_bits
    bits = np.where(p.mag == 0, 0, np.minimum(bits, top))  # saturate
    quiet = 1 << (f.mant - 1)
    nan = f.inf_bits | quiet | (p.payload >> (MAX_SHIFT - f.mant))
    bits = np.where(p.inf, f.inf_bits, np.where(p.nan, nan, bits))
    return (bits | sign).astype(t.raw)


def to_int(p: Parts, t: DType, mode: str) -> np.ndarray:
    lo, hi = int_range(t)
    lo, hi = max(lo, -(1 << 63)), min(hi, (1 << 63) - 1)  # int64 arithmetic below (u64)
    # |value| ≥ 2^63 saturates whatever the mode and the destination; below, M·2^E fits int64
    big = (p.mag != 0) & (bit_length(p.mag) + p.exp > 63)
    m = round_shift(p.mag, -np.where(big, 0, p.exp), p.neg, mode)
    v = np.clip(np.where(p.neg, -m, m), lo, hi)
    v = np.where(big | p.inf, np.where(p.neg, lo, hi), v)
    v = np.where(p.nan, 0, v)
    out = v.astype(t.numeric).view(t.raw)
    return out & 0xF if t.nibble else out  # s4: the element's 4 bits


def to_integral(p: Parts, t: DType, mode: str) -> np.ndarray:
    """A float rounded to an integral value of its own type (float → same float)."""
    frac = p.exp < 0  # E ≥ 0: already integral (and M·2^E is kept as it is)
    m = round_shift(p.mag, np.where(frac, -p.exp, 0), p.neg, mode)
    rounded = Parts(p.neg, np.where(frac, m, p.mag), np.where(frac, 0, p.exp), p.inf, p.nan,
                    p.payload)
    return to_float(rounded, t, mode)


def convert(raw: np.ndarray, src: DType, dst: DType, mode: str) -> np.ndarray:
    """Raw SRC elements → raw DST elements, exactly (see the module docstring): by numpy where
    its arithmetic is the same rounding (semantics/convert_fast.py), else `exact_convert`."""
    out = fast_convert(raw, src, dst, mode)
    return exact_convert(raw, src, dst, mode) if out is None else out


def exact_convert(raw: np.ndarray, src: DType, dst: DType, mode: str) -> np.ndarray:
    """Raw SRC elements → raw DST elements by the exact integer path (every pair and mode)."""
    parts = split(raw, src)
    if dst.is_float:
        return to_integral(parts, dst, mode) if dst == src else to_float(parts, dst, mode)
    return to_int(parts, dst, mode)
