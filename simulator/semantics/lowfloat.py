"""Issue 34: ascend950's 8-bit floats and fp4 pairs under the reg-based Cast (docs/semantics.md
§15.2; the formats are isa/types.py's LOW_FLOATS).

Every code of a format of at most 8 bits decodes to an exact value held in float64, so a
widening Cast is a table look-up, and a narrowing one rounds on the format's grid of finite
values (float64 compares and midpoints are exact for every f16 / bf16 / f32 source):

- the two grid neighbours of |x|, lo <= |x| <= hi, and the mode picks one: floor / ceil / trunc
  directed, rint the nearer with ties to the even code, round (and hif8's ROUND) the nearer
  with ties away from zero;
- hif8's HYBRID rounds up or down by the Cast page's bit rule (frac >= thr on the source's
  bits, hybrid_up), between the same neighbours;
- a value past the grid (its last point is the value after the largest finite one, which only
  overflow reaches) and a source ±inf: SAT gives ±max, NO_SAT ±inf (e5m2, hif8) or NaN
  (e4m3fn, which has no inf); fp4 has neither and always saturates;
- a NaN: SAT gives +0, NO_SAT a NaN (e5m2: the sign and top payload bits, quiet bit set;
  e4m3fn: S.1111.111; hif8: 0x80); fp4 gives 0;
- zeros keep their sign (hif8, which has no -0: 0x00).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from isa.types import LOW_FLOATS, DType


def decode_code(name: str, code: int) -> float:
    """The value of one code of format NAME (float64: exact; nan, ±inf as such)."""
    low = LOW_FLOATS[name]
    sign = -1.0 if code >> (low.bits - 1) & 1 else 1.0
    mag = code & ((1 << (low.bits - 1)) - 1)
    if name == "hif8":
        return _hif8(code)
    if low.inf is not None and mag >> low.mant == (1 << low.exp) - 1:
        return sign * np.inf if mag == low.inf else np.nan
    if low.inf is None and low.nan is not None and mag == low.nan:
        return np.nan
    e, f = mag >> low.mant, mag & ((1 << low.mant) - 1)
    if e == 0:
        return sign * f * 2.0 ** (1 - low.bias - low.mant)
    return sign * (1 + f / (1 << low.mant)) * 2.0 ** (e - low.bias)


def _hif8(code: int) -> float:
    """hifloat8: sign, a prefix-coded dot field D, then exponent and mantissa (the built-in data
    types page, table 6): D=01/10/11 (2 bits) take 2/3/4 exponent bits and 3/2/1 mantissa bits,
    D=001 one exponent bit, D=0001 none (Ev 0), D=0000 is subnormal: 2^(M-23)."""
    if code == 0x80:
        return np.nan
    sign = -1.0 if code & 0x80 else 1.0
    if code & 0x7F == 0x6F:
        return sign * np.inf
    rest = code & 0x7F
    d = rest >> 5
    if d:
        ew, mw = {1: (2, 3), 2: (3, 2), 3: (4, 1)}[d]
    elif rest >> 4 & 1:
        ew, mw = 1, 3
    elif rest >> 3 & 1:
        ew, mw = 0, 3
    else:
        m = rest & 7
        return sign * 2.0 ** (m - 23) if m else 0.0
    m = rest & ((1 << mw) - 1)
    e = rest >> mw & ((1 << ew) - 1)
    ev = 0
    if ew:
        em = (e & ((1 << (ew - 1)) - 1)) | (1 << (ew - 1))  # E's low bits under a leading 1
        ev = -em if e >> (ew - 1) else em  # E's top bit is the exponent's sign
    return sign * 2.0 ** ev * (1 + m / (1 << mw))


@cache
def table(name: str) -> np.ndarray:
    """The float64 value of each code (16 for fp4, 256 for the 8-bit formats)."""
    return np.array([decode_code(name, c) for c in range(1 << LOW_FLOATS[name].bits)])


@cache
def grid(name: str) -> tuple[np.ndarray, np.ndarray, int]:
    """The finite values >= 0 in order, their codes, then the value after the largest (code
    -1: overflow); and the largest finite value's code."""
    vals = table(name)
    half = 1 << (LOW_FLOATS[name].bits - 1)
    codes = [c for c in range(half) if np.isfinite(vals[c])]
    codes.sort(key=lambda c: vals[c])
    top = codes[-1]
    if name == "hif8":  # the inf code sits where 1.5·2^15 would be
        beyond = 1.5 * 2.0 ** 15
    else:
        low = LOW_FLOATS[name]
        beyond = vals[top] + 2.0 ** (int(np.floor(np.log2(vals[top]))) - low.mant)
    return (np.array([vals[c] for c in codes] + [beyond]), np.array(codes + [-1]), top)


def widen(codes: np.ndarray, name: str, dst: DType) -> np.ndarray:
    """Codes of NAME → raw DST bits, exactly (NaN: quiet, its sign and top payload bits)."""
    return _widen_lut(name, dst.name)[codes.astype(np.intp)]


@cache
def _widen_lut(name: str, dst: str) -> np.ndarray:
    from isa.types import TYPES

    t = TYPES[dst]
    vals = table(name)
    raw = np.zeros(vals.size, t.raw)
    for c, v in enumerate(vals):
        if np.isnan(v):
            raw[c] = _nan_bits(name, c, t)
        else:
            raw[c] = _float_bits(v, t)
    return raw


def _float_bits(v: float, t: DType) -> int:
    if t.name == "bf16":  # exact: every low-float value fits bf16's 8 mantissa bits
        return int(np.array([v], np.float32).view(np.uint32)[0] >> 16)
    return int(np.array([v], t.numeric).view(t.raw)[0])


def _nan_bits(name: str, code: int, t: DType) -> int:
    """The quiet NaN a NaN code widens to: its sign, its payload's top bits, quiet bit set."""
    mant = t.mantissa_bits
    top = ((1 << (8 * t.size - 1 - mant)) - 1) << mant
    low = LOW_FLOATS[name]
    if name == "hif8":
        return top | (1 << (mant - 1))
    sign = (code >> (low.bits - 1)) & 1
    payload = (code & ((1 << low.mant) - 1)) << (mant - low.mant)
    return (sign << (8 * t.size - 1)) | top | (1 << (mant - 1)) | payload


def source_values(raw: np.ndarray, src: DType) -> np.ndarray:
    """f16 / bf16 / f32 raw bits → float64, exactly (a signalling NaN stays a NaN: only
    NaN-ness is read from it)."""
    with np.errstate(invalid="ignore"):
        if src.name == "bf16":
            return (raw.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
        return raw.view(src.numeric).astype(np.float64)


def narrow(raw: np.ndarray, src: DType, name: str, mode: str, sat: bool) -> np.ndarray:
    """Raw f16 / bf16 / f32 bits → codes of NAME (uint8; fp4: the 4-bit code), by the rules of
    the module docstring."""
    x = source_values(raw, src)
    nbits = 8 * src.size
    neg = (raw.astype(np.uint64) >> np.uint64(nbits - 1)).astype(bool)
    mag = np.abs(x)
    vals, codes, top = grid(name)
    finite = np.isfinite(mag)
    m = np.where(finite, mag, 0.0)
    lo = np.clip(np.searchsorted(vals, m, side="right") - 1, 0, vals.size - 1)
    hi = np.minimum(lo + 1, vals.size - 1)
    exact = vals[lo] == m
    up = _round_up(mode, m, vals[lo], vals[hi], codes[lo], neg, exact)
    if mode == "hybrid":
        up = hybrid_up(raw, src)
    pick = np.where(up, hi, lo)
    over = ~finite | (codes[pick] < 0) | (m > vals[-1])
    code = codes[np.minimum(pick, vals.size - 2)].astype(np.uint8)
    low = LOW_FLOATS[name]
    sign = np.uint8(1 << (low.bits - 1))
    if name == "hif8":  # no -0
        code = np.where(code == 0, np.uint8(0), np.where(neg, code | sign, code))
    else:
        code = np.where(neg, code | sign, code)
    sat_all = sat or low.inf is None and low.nan is None  # fp4: no inf, no NaN
    if sat_all:
        big = np.uint8(top)
    elif low.inf is not None:
        big = np.uint8(low.inf)
    else:  # e4m3fn: a NaN for an overflow
        big = np.uint8(low.nan)
    code = np.where(over, np.where(neg, big | sign, big), code)
    nan = np.isnan(x)
    if nan.any():
        code = np.where(nan, np.uint8(0) if sat_all else _nan_codes(raw, src, name, neg), code)
    return code.astype(np.uint8)


def _round_up(mode: str, m, lo, hi, lo_code, neg, exact) -> np.ndarray:
    """Whether MODE takes the upper neighbour HI of magnitude M (LO <= M <= HI)."""
    if mode == "trunc":
        return np.zeros(m.shape, bool)
    if mode == "floor":
        return neg & ~exact
    if mode == "ceil":
        return ~neg & ~exact
    below, above = m - lo, hi - m
    if mode == "round":  # ties away from zero
        return ~exact & (below >= above)
    return ~exact & ((below > above) | ((below == above) & (lo_code % 2 == 1)))  # rint


def _nan_codes(raw: np.ndarray, src: DType, name: str, neg: np.ndarray) -> np.ndarray:
    low = LOW_FLOATS[name]
    if name == "hif8":
        return np.full(raw.shape, np.uint8(low.nan))
    sign = np.where(neg, np.uint8(0x80), np.uint8(0))
    if low.inf is None:  # e4m3fn: its one NaN
        return sign | np.uint8(low.nan)
    ms = src.mantissa_bits
    payload = (raw.astype(np.uint64) >> np.uint64(ms - low.mant)) & np.uint64(
        (1 << low.mant) - 1)
    return sign | np.uint8(low.nan) | payload.astype(np.uint8)


def hybrid_up(raw: np.ndarray, src: DType) -> np.ndarray:
    """hif8's HYBRID rounding: whether an f32 / f16 element rounds up, by the Cast page's
    pseudo-code: with Ev the source's exponent and TA the first bit below hif8's mantissa, Ev in
    ±[0, 3] rounds up on TA; ±[4, 15] and the subnormal range [-22, -16] when frac >= thr (frac:
    the 14 (f32) or 2 (f16) bits from TA down; thr: f32's low 14 bits, f16's {bit 0, 1});
    Ev = -23 when {1, the top 13 (f32) / 1 (f16) mantissa bits} >= thr. An f16 subnormal is
    normalised first (its mantissa shifted to a leading 1; thr still from its raw bit 0)."""
    r = raw.astype(np.int64)
    if src.name == "f32":
        mw, width, tail = 23, 14, np.int64(0x3FFF)
        field = (r >> 23) & 0xFF
        ev = field - 127
        mant = r & 0x7FFFFF
        thr = r & tail
    else:
        mw, width, tail = 10, 2, np.int64(3)
        field = (r >> 10) & 0x1F
        mant = r & 0x3FF
        ev = field - 15
        sub = (field == 0) & (mant != 0)
        lead = np.where(sub, np.floor(np.log2(np.maximum(mant, 1))).astype(np.int64), 0)
        ev = np.where(sub, lead - 24, ev)
        mant = np.where(sub, (mant << (mw - lead)) & 0x3FF, mant)
        thr = ((r & 1) << 1) | 1
    a = np.abs(ev)
    keep = np.select([a <= 3, a <= 7, a <= 15], [3, 2, 1], 0)  # hif8 mantissa bits at Ev
    ta = np.where((ev >= -22) & (ev <= -16), mw - 1, mw - 1 - keep)  # the TA bit's index
    frac = (mant >> np.maximum(ta - (width - 1), 0)) & tail
    ta_bit = (mant >> np.maximum(ta, 0)) & 1
    edge = ((1 << (width - 1)) | (mant >> (mw - width + 1))) >= thr  # Ev == -23
    up = np.where(a <= 3, ta_bit == 1, frac >= thr)
    return np.where(ev == -23, edge, up) & (ev >= -23)  # below: 0
