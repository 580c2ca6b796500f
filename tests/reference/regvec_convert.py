"""Issue 34 (h34a): the reg-based unit's Cast, Truncate, Arange, Interleave / DeInterleave and
Pack / UnPack, one element at a time, written from the vendor's pages (Cast: tables 4-9 and the
RegLayout pseudo-code; Arange: the C API's "{value, value + 1, ...}"; Interleave: the figure's
a0 b0 a1 b1 ...), with exact rational arithmetic for the conversions (tests/reference/convert.py's
decode / pick / encode). Imports nothing from `isa` or `simulator`.

The reg rules on top of the memory-based Cast's rounding (docs/semantics.md §15.2):
- SAT (SatMode::UNKNOWN runs as SAT): integer results clamp; float results: a finite overflow
  gives ±max, ±inf gives ±max, NaN gives +0; ±inf to an integer gives its extremes, NaN 0;
- NO_SAT: integer results keep the low bits of the rounded integer (±inf still the extremes,
  NaN 0); float results: NaN stays NaN (quieted), ±inf stays, a finite overflow gives ±inf.
"""

from __future__ import annotations

from fractions import Fraction

from tests.reference import lowfloat
from tests.reference.convert import (
    FLOATS,
    INTS,
    convert_one,
    decode,
    encode_float,
    floor_log2,
    max_finite,
    pick,
)

SIZES = {**{t: (1 + m + e) // 8 for t, (m, e) in FLOATS.items()},
         **{t: n // 8 for t, (n, _) in INTS.items()}, "u64": 8,
         **dict.fromkeys(lowfloat.LOW, 1), "s4": 1}  # int4x2_t, fp4x2: a byte of two values
PAIRS = ("s4", "f4e2m1", "f4e1m2")  # two 4-bit values a byte
INTS_ALL = {**INTS, "u64": (64, False)}


def _int_range(t: str) -> tuple[int, int]:
    n, signed = INTS_ALL[t]
    return (-(1 << (n - 1)), (1 << (n - 1)) - 1) if signed else (0, (1 << n) - 1)


def _to_int(dst: str, v: int, sat: bool) -> int:
    n = INTS_ALL[dst][0]
    lo, hi = _int_range(dst)
    return (min(max(v, lo), hi) if sat else v) % (1 << n)


def _float_bits(dst: str, neg: bool, mag: Fraction, mode: str, sat: bool) -> int:
    """MAG rounded into DST in MODE; a result beyond DST's range: ±max (SAT) or ±inf."""
    m, e = FLOATS[dst]
    bias = (1 << (e - 1)) - 1
    sign = int(neg) << (m + e)
    if mag == 0:
        return sign
    ex = max(floor_log2(mag), 1 - bias)
    quantum = Fraction(2) ** (ex - m)
    r = abs(pick((-mag if neg else mag) / quantum, mode) * quantum)
    if r > max_finite(dst):
        return encode_float(dst, neg, max_finite(dst)) if sat else sign | (((1 << e) - 1) << m)
    return encode_float(dst, neg, r)


def cast_one(src: str, dst: str, bits: int, mode: str, sat: bool) -> int:
    """The raw bits of DST the reg-based Cast makes of SRC element BITS."""
    if src in lowfloat.LOW or dst in lowfloat.LOW or "s4" in (src, dst):
        return lowfloat.cast_value(src, dst, bits, mode, sat)
    kind, neg, *rest = decode(src, bits) if src != "u64" else ("num", False, Fraction(bits))
    if dst in INTS_ALL:
        if kind == "nan":
            return 0
        lo, hi = _int_range(dst)
        if kind == "inf":
            return (lo if neg else hi) % (1 << INTS_ALL[dst][0])
        return _to_int(dst, pick(-rest[0] if neg else rest[0], mode), sat)
    m, e = FLOATS[dst]
    sign = int(neg) << (m + e)
    if src == dst:  # Truncate: an integral value of the same type
        return convert_one(src, dst, bits, mode)
    widening = src in FLOATS and sum(FLOATS[dst]) > sum(FLOATS[src])  # exact: ±inf, NaN stay
    if kind == "nan":
        return 0 if sat and not widening else convert_one(src, dst, bits, mode)
    if kind == "inf":
        return sign | (encode_float(dst, False, max_finite(dst)) if sat and not widening else
                       ((1 << e) - 1) << m)
    return _float_bits(dst, neg, rest[0], mode, sat)


def _elements(raw: bytes, size: int) -> list[int]:
    return [int.from_bytes(raw[k:k + size], "little") for k in range(0, len(raw), size)]


def _bytes(values: list[int], size: int) -> bytes:
    return b"".join(v.to_bytes(size, "little") for v in values)


def mask_on(pbits: bytes, size: int, n: int) -> list[bool]:
    """Element k of SIZE bytes is enabled by bit size·k of the MaskReg (the MaskReg page)."""
    return [bool(pbits[(size * k) // 8] >> ((size * k) % 8) & 1) for k in range(n)]


def cast_register(src_raw: bytes, pbits: bytes, dst: str, src: str, mode: str, sat: bool,
                  part: int) -> bytes:
    """The 256 bytes of Cast's destination register (the RegLayout page's pseudo-code: b32 → b16
    `dst[layout::2] = src[0:64]`, b16 → b32 `dst[0:64] = src[layout::2]`, the mask read at the
    source's width, disabled elements 0)."""
    if src in PAIRS or dst in PAIRS:
        return _pair_register(src_raw, pbits, dst, src, mode, sat, part)
    ss, ds = SIZES[src], SIZES[dst]
    s = _elements(src_raw, ss)
    on = mask_on(pbits, ss, len(s))
    out = [0] * (256 // ds)
    if ss == ds:
        for k in range(len(s)):
            out[k] = cast_one(src, dst, s[k], mode, sat) if on[k] else 0
    elif ds > ss:
        r = ds // ss
        for i in range(len(out)):
            k = r * i + part
            out[i] = cast_one(src, dst, s[k], mode, sat) if on[k] else 0
    else:
        r = ss // ds
        for i in range(len(s)):
            if on[i]:
                out[r * i + part] = cast_one(src, dst, s[i], mode, sat)
    return _bytes(out, ds)


def _pair_register(src_raw: bytes, pbits: bytes, dst: str, src: str, mode: str, sat: bool,
                   part: int) -> bytes:
    """int4x2_t / fp4x2 ↔ a 16-bit type: the Cast page reads and writes two values as a pair,
    4:1 under RegLayout; a narrowing Cast's mask bit is its even element's."""
    if src in PAIRS:  # byte 4i + part → elements 2i (low half) and 2i + 1 (high half)
        on = mask_on(pbits, 1, 256)
        out = []
        for i in range(64):
            b = src_raw[4 * i + part]
            for half in (b & 0xF, b >> 4):
                out.append(cast_one(src, dst, half, mode, sat) if on[4 * i + part] else 0)
        return _bytes(out, 2)
    s = _elements(src_raw, 2)
    on = mask_on(pbits, 2, 128)
    out = bytearray(256)
    for i in range(64):
        if on[2 * i]:
            lo, hi = (cast_one(src, dst, s[2 * i + k], mode, sat) for k in (0, 1))
            out[4 * i + part] = lo | hi << 4
    return bytes(out)


def truncate_register(src_raw: bytes, pbits: bytes, t: str, mode: str) -> bytes:
    size = SIZES[t]
    s = _elements(src_raw, size)
    on = mask_on(pbits, size, len(s))
    return _bytes([convert_one(t, t, v, mode) if on[k] else 0 for k, v in enumerate(s)], size)


def arange_register(t: str, start_bits: int, desc: bool) -> bytes:
    """{value + k} (desc: {value + N-1-k}): integers wrap; floats: the exact sum rounded once to
    nearest, ties to even (NaN and ±inf as IEEE addition leaves them)."""
    size = SIZES[t]
    n = 256 // size
    out = []
    for k in range(n):
        step = n - 1 - k if desc else k
        if t in INTS_ALL:
            lo, _ = _int_range(t)
            v = start_bits - (1 << (8 * size)) if lo < 0 and start_bits >> (8 * size - 1) \
                else start_bits
            out.append((v + step) % (1 << (8 * size)))
            continue
        kind, neg, *rest = decode(t, start_bits)
        if kind != "num":
            out.append(start_bits if kind == "inf" else
                       start_bits | (1 << (FLOATS[t][0] - 1)))
            continue
        total = (-rest[0] if neg else rest[0]) + step
        if total == 0:  # an exact zero sum is +0 to nearest (IEEE), -0 + 0 too
            out.append(0)
            continue
        out.append(_float_bits(t, total < 0, abs(total), "rint", False))
    return _bytes(out, size)


def interleave(name: str, a: bytes, b: bytes, size: int) -> tuple[bytes, bytes]:
    """Interleave: dst0 = a0 b0 a1 b1 ... (the first half of the pairs), dst1 the rest;
    DeInterleave: dst0 = the even, dst1 the odd elements of a then b."""
    x, y = _elements(a, size), _elements(b, size)
    n = len(x)
    if name == "vrintlv":
        z = [v for pair in zip(x, y, strict=True) for v in pair]
        return _bytes(z[:n], size), _bytes(z[n:], size)
    z = x + y
    return _bytes(z[0::2], size), _bytes(z[1::2], size)


def pack_register(raw: bytes, dst: str, src: str, high: bool, pack: bool) -> bytes:
    """Pack: the low bits of each SRC element into the low (high) half, the other half 0;
    UnPack: the low (high) half's SRC elements widened, signed ones keeping their sign."""
    ss, ds = SIZES[src], SIZES[dst]
    s = _elements(raw, ss)
    if pack:
        low = [v % (1 << (8 * ds)) for v in s]
        zeros = [0] * len(s)
        return _bytes(zeros + low if high else low + zeros, ds)
    n = 256 // ds
    half = s[n:] if high else s[:n]
    signed = INTS_ALL[src][1]
    out = [(v - (1 << (8 * ss)) if signed and v >> (8 * ss - 1) else v) % (1 << (8 * ds))
           for v in half]
    return _bytes(out, ds)



def _bits(p: bytes) -> list[int]:
    return [(p[i // 8] >> (i % 8)) & 1 for i in range(8 * len(p))]


def _pack_bits(bits: list[int]) -> bytes:
    out = bytearray(len(bits) // 8)
    for i, b in enumerate(bits):
        out[i // 8] |= b << (i % 8)
    return bytes(out)


def mask_interleave(name: str, a: bytes, b: bytes, size: int) -> tuple[bytes, bytes]:
    """MaskReg Interleave / DeInterleave<T>: groups of SIZE bits, as the RegTensor forms."""
    ga = [_bits(a)[i:i + size] for i in range(0, 256, size)]
    gb = [_bits(b)[i:i + size] for i in range(0, 256, size)]
    n = len(ga)
    if name == "pintlv":
        z = [g for pair in zip(ga, gb, strict=True) for g in pair]
        x, y = z[:n], z[n:]
    else:
        z = ga + gb
        x, y = z[0::2], z[1::2]
    return (_pack_bits([v for g in x for v in g]), _pack_bits([v for g in y for v in g]))


def mask_pack(p: bytes, high: bool, pack: bool) -> bytes:
    """MaskReg Pack: the even bits into the low (high) half, the other half 0; UnPack: the low
    (high) half's bits, each followed by a 0."""
    bits = _bits(p)
    if pack:
        even = bits[0::2]
        zero = [0] * len(even)
        return _pack_bits(zero + even if high else even + zero)
    half = bits[128:] if high else bits[:128]
    return _pack_bits([v for b in half for v in (b, 0)])
