"""Issue 34: the reference for the reg-based Cast's 950 types — fp8_e4m3fn_t, fp8_e5m2_t,
hifloat8_t, fp4x2_e2m1_t / fp4x2_e1m2_t and int4x2_t — one element at a time, written from the
vendor's pages (the built-in data types page: table 5's formats and ranges, table 6's hifloat8
encoding; the Cast page: table 4's saturation rules and the float → hifloat8_t pseudo-code,
followed step by step), with exact rational arithmetic. Imports nothing from `isa` or
`simulator`.

Where the pages are silent the rules are docs/decisions.md's: a NaN keeps its sign and top
payload bits with the quiet bit set, an f16 subnormal is normalised before hifloat8's rounding.
"""

from __future__ import annotations

from fractions import Fraction

from tests.reference.convert import FLOATS, encode_float, floor_log2, max_finite, pick

# name → (bits of a value, exponent bits, mantissa bits, bias); hif8 apart
FORMATS = {"f8e4m3": (8, 4, 3, 7), "f8e5m2": (8, 5, 2, 15), "f4e2m1": (4, 2, 1, 1),
           "f4e1m2": (4, 1, 2, 1)}  # e1m2: bias 1, so the range is table 5's ±7·2^-2
LOW = (*FORMATS, "hif8")
TWO = Fraction(2)


def decode(name: str, code: int):
    """('num', negative, Fraction) | ('inf', negative) | ('nan', negative, payload)."""
    if name == "hif8":
        return decode_hif8(code)
    bits, e, m, bias = FORMATS[name]
    neg = bool(code >> (bits - 1) & 1)
    exp = code >> m & ((1 << e) - 1)
    frac = code & ((1 << m) - 1)
    if name == "f8e5m2" and exp == (1 << e) - 1:
        return ("nan", neg, frac) if frac else ("inf", neg)
    if name == "f8e4m3" and exp == 15 and frac == 7:  # S.1111.111, e4m3fn's one NaN
        return ("nan", neg, frac)
    if exp == 0:
        return ("num", neg, Fraction(frac, 1 << m) * TWO ** (1 - bias))
    return ("num", neg, (1 + Fraction(frac, 1 << m)) * TWO ** (exp - bias))


# hifloat8: the dot field D after the sign, its exponent and mantissa widths (table 6)
HIF8_D = [("11", 4, 1), ("10", 3, 2), ("01", 2, 3), ("001", 1, 3), ("0001", 0, 3)]


def decode_hif8(code: int):
    if code == 0x80:
        return ("nan", False, 0)
    neg = bool(code & 0x80)
    if code & 0x7F == 0x6F:
        return ("inf", neg)
    body = format(code & 0x7F, "07b")
    for d, ew, mw in HIF8_D:
        if body.startswith(d):
            e = body[len(d):len(d) + ew]
            m = int(body[len(d) + ew:], 2)
            ev = 0
            if ew:
                em = int("1" + e[1:], 2)  # E without its top bit, under a leading 1
                ev = -em if e[0] == "1" else em
            return ("num", neg, TWO ** ev * (1 + Fraction(m, 1 << mw)))
    m = int(body[4:], 2)  # D = 0000: subnormal 2^(M-23); M = 0 is zero
    return ("num", neg, TWO ** (m - 23) if m else Fraction(0))


def encode_hif8(neg: bool, ev: int, m: int) -> int:
    """{S, Ev, M} → the code (Ev in [-15, 15] normal with M of its width; Ev < -15: the
    subnormal 2^Ev, M ignored)."""
    s = 0x80 if neg else 0
    if ev < -15:
        return s | (ev + 23)
    a = abs(ev)
    d, ew, mw = (HIF8_D[4] if a == 0 else HIF8_D[3] if a == 1 else HIF8_D[2] if a <= 3 else
                 HIF8_D[1] if a <= 7 else HIF8_D[0])
    e = ""
    if ew:
        e = ("1" if ev < 0 else "0") + format(a, "b")[1:]
    return s | int(d + e + format(m, f"0{mw}b"), 2)


def _mwidth(ev: int) -> int:
    a = abs(ev)
    return 3 if a <= 3 else 2 if a <= 7 else 1


def to_hif8(src: str, bits: int, mode: str, sat: bool) -> int:
    """The Cast page's float → hifloat8_t (and half → hifloat8_t) pseudo-code."""
    mbits, ebits = FLOATS[src]
    neg = bool(bits >> (mbits + ebits))
    field = bits >> mbits & ((1 << ebits) - 1)
    mant = bits & ((1 << mbits) - 1)
    bias = (1 << (ebits - 1)) - 1
    if field == (1 << ebits) - 1:
        if mant:
            return 0 if sat else 0x80
        return (0xEE if neg else 0x6E) if sat else (0xEF if neg else 0x6F)
    if field == 0 and mant == 0:
        return 0
    ev = field - bias
    thr = mant & 0x3FFF if src == "f32" else ((mant & 1) << 1) | 1
    if field == 0:  # a subnormal source, normalised (docs/decisions.md)
        lead = mant.bit_length() - 1
        ev = lead - mbits + 1 - bias
        mant = (mant << (mbits - lead)) & ((1 << mbits) - 1)
    fw = 14 if src == "f32" else 2  # the bits of frac (and thr)

    def bits_from(top: int, n: int) -> int:  # tmp2[top : top-n+1] of the mantissa
        return (mant >> (top - n + 1)) & ((1 << n) - 1)

    if ev > 15:
        return (0xEE if neg else 0x6E) if sat else (0xEF if neg else 0x6F)
    if ev < -23:
        return 0
    if ev == -23:
        up = mode == "round" or ((1 << (fw - 1)) | bits_from(mbits - 1, fw - 1)) >= thr
        return (0x81 if neg else 0x01) if up else 0
    if ev <= -16:  # subnormal: 2^ev, TA the top mantissa bit
        ta = mant >> (mbits - 1) & 1
        frac = bits_from(mbits - 1, fw)
        up = ta == 1 if mode == "round" else frac >= thr
        return encode_hif8(neg, ev + 1 if up else ev, 0)
    mw = _mwidth(ev)
    m = mant >> (mbits - mw)
    ta = mant >> (mbits - mw - 1) & 1
    frac = bits_from(mbits - mw - 1, fw)
    up = ta == 1 if abs(ev) <= 3 or mode == "round" else frac >= thr
    if up:
        m += 1
        if m == 1 << mw:
            ev, m = ev + 1, 0
    if ev > 15:
        code = 0x6F
    else:
        code = encode_hif8(False, ev, m)
    if code == 0x6F:  # ±inf: saturation by the control bit
        code = 0x6E if sat else 0x6F
    return code | (0x80 if neg else 0)


def _max(name: str) -> Fraction:
    bits, e, m, bias = FORMATS[name]
    if name == "f8e4m3":
        return Fraction(448)
    top = (1 << e) - (2 if name == "f8e5m2" else 1)
    return (2 - Fraction(1, 1 << m)) * TWO ** (top - bias)


def _code(name: str, neg: bool, mag: Fraction) -> int:
    bits, e, m, bias = FORMATS[name]
    s = int(neg) << (bits - 1)
    if mag < TWO ** (1 - bias):
        q = mag / TWO ** (1 - bias - m)
        return s | int(q)
    ex = floor_log2(mag)
    return s | ((ex + bias) << m) | int(mag / TWO ** (ex - m) - (1 << m))


def to_small(src: str, name: str, bits: int, mode: str, sat: bool) -> int:
    """f32 / bf16 → fp8 / fp4 in MODE (the Cast page, table 4: SAT gives +0 for NaN and ±max
    past the range; NO_SAT NaN for NaN, ±inf for ±inf and past the range — e4m3fn, without
    inf, NaN; fp4 has neither and always saturates)."""
    kind, neg, *rest = _decode_wide(src, bits)
    fmt_bits, e, m, bias = FORMATS[name]
    s = int(neg) << (fmt_bits - 1)
    fp4 = fmt_bits == 4
    big = s | _code(name, False, _max(name))
    over = big if sat or fp4 else s | (0x7F if name == "f8e4m3" else 0x7C)
    if kind == "nan":
        if sat or fp4:
            return 0
        if name == "f8e4m3":
            return s | 0x7F
        return s | 0x7C | 0x2 | (rest[0] >> (FLOATS[src][0] - 2) & 1)
    if kind == "inf":
        return over
    mag = rest[0]
    if mag == 0:
        return s
    ex = max(floor_log2(mag), 1 - bias)
    quantum = TWO ** (ex - m)
    r = abs(pick((-mag if neg else mag) / quantum, mode) * quantum)
    if r > _max(name):
        return over
    return s | (_code(name, False, r) if r else 0)


def _decode_wide(src: str, bits: int):
    from tests.reference.convert import decode as wide

    return wide(src, bits)


def widen(name: str, dst: str, code: int) -> int:
    """A 950-type code → DST's bits, exactly; NaN: quiet, the sign and top payload bits kept
    (hif8's one NaN: +)."""
    kind, neg, *rest = decode(name, code)
    m, e = FLOATS[dst]
    sign = int(neg) << (m + e)
    top = ((1 << e) - 1) << m
    if kind == "inf":
        return sign | top
    if kind == "nan":
        if name == "hif8":
            return top | (1 << (m - 1))
        fm = FORMATS[name][2]
        return sign | top | (1 << (m - 1)) | (rest[0] << (m - fm))
    assert rest[0] <= max_finite(dst)
    return encode_float(dst, neg, rest[0])


def int4_from(src: str, bits: int, mode: str, sat: bool) -> int:
    """f16 / s16 → int4 (4 bits): SAT clamps to −8..7, NO_SAT keeps the low 4 bits of the
    rounded integer; ±inf the extremes, NaN 0."""
    from tests.reference.convert import decode as wide

    kind, neg, *rest = wide(src, bits)
    if kind == "nan":
        return 0
    if kind == "inf":
        return 8 if neg else 7
    v = pick(-rest[0] if neg else rest[0], mode)
    return (min(max(v, -8), 7) if sat else v) % 16


def int4_to(dst: str, nibble: int) -> int:
    v = nibble - 16 if nibble & 8 else nibble
    if dst == "s16":
        return v % (1 << 16)
    return encode_float(dst, v < 0, Fraction(abs(v)))


def cast_value(src: str, dst: str, bits: int, mode: str, sat: bool) -> int:
    """One value of a Cast whose source or destination is a 950 type."""
    mode = {"none": "round" if dst == "hif8" else "rint"}.get(mode, mode)
    if src in LOW:
        return widen(src, dst, bits)
    if dst == "hif8":
        return to_hif8(src, bits, mode, sat)
    if dst in LOW:
        return to_small(src, dst, bits, mode, sat)
    if src == "s4":
        return int4_to(dst, bits)
    return int4_from(src, bits, mode, sat)
