"""CastDequant's hardware forms, one element at a time, written from the vendor's pages (the
CastDequant and SetDeqScale pages, the CCE vconv page's DEQ flow, the C API's asc_deq_* pages) —
not from the simulator (nothing from `isa` or `simulator`). Exact rational arithmetic.

- int32_t → half: f16(src × scale), scale the half in DEQSCALE[15:0], rounded once to nearest
  even; a finite value beyond half's range saturates (Cast's rule).
- int16_t → b8: M = DEQSCALE[31:0] as f32 with its 13 low mantissa bits cleared ((1, 8, 10));
  t = f32(src × M) (nearest even); q = sat_s9(rint(t)); r = q + offset (DEQSCALE[45:37], s9);
  saturated to int8 when DEQSCALE[46] is 1, else to uint8.
- layout: repeat i, element k (of 128) → destination byte i·dst_rep·32 + (k // 16)·dst_blk·32
  + (16 if the h form else 0) + k % 16; the other bytes are left as they were.
"""

from __future__ import annotations

import struct
from fractions import Fraction

from tests.reference.convert import decode, floor_log2, max_finite, pick, to_float


def deq_f16(src: int, scale_bits: int) -> int:
    """Raw f16 result of one int32 element."""
    d = decode("f16", scale_bits)
    if d[0] == "nan":  # NaN × anything: that NaN, quieted
        return scale_bits | 0x0200
    if d[0] == "inf":  # ±inf × non-zero: ±inf; × 0: the default NaN
        if src == 0:
            return 0x7E00
        return 0xFC00 if (src < 0) != d[1] else 0x7C00
    _, neg_scale, mag = d
    neg = (src < 0) != neg_scale
    return to_float("f16", neg, abs(src) * mag, "rint")


def round_f32(v: Fraction) -> Fraction | None:
    """V rounded to f32, nearest even; None when it rounds past the largest finite (±inf)."""
    if v == 0:
        return Fraction(0)
    m, bias = 23, 127
    ex = max(floor_log2(abs(v)), 1 - bias)
    quantum = Fraction(2) ** (ex - m)
    r = pick(v / quantum, "rint") * quantum
    return None if abs(r) > max_finite("f32") else r


def deq_b8(src: int, word: int) -> int:
    """Raw 8-bit result of one int16 element with the DEQSCALE-format WORD."""
    d = decode("f32", word & 0xFFFFE000)
    off = (word >> 37) & 0x1FF
    off = off - 512 if off >= 256 else off
    signed = bool((word >> 46) & 1)
    if d[0] == "nan" or (d[0] == "inf" and src == 0):
        q = 0  # NaN → 0
    elif d[0] == "inf":
        q = 255 if (src < 0) == d[1] else -256
    else:
        t = round_f32(Fraction(src) * (-d[2] if d[1] else d[2]))
        if t is None:
            q = 255 if (src < 0) == d[1] else -256
        else:
            q = max(-256, min(255, pick(t, "rint")))
    r = q + off
    if signed:
        return max(-128, min(127, r)) & 0xFF
    return max(0, min(255, r))


def deq_b8_layout(n_repeats: int, dst_blk: int, dst_rep: int, high: bool) -> list[list[int]]:
    """Destination byte offset of element k of repeat i."""
    return [[i * dst_rep * 32 + (k // 16) * dst_blk * 32 + (16 if high else 0) + k % 16
             for k in range(128)] for i in range(n_repeats)]


def word(scale: float, offset: int, signed: bool) -> int:
    """SetDeqScale(float scale, int16_t offset, bool signMode)'s register value, per the
    SetDeqScale page's bit table."""
    sbits = struct.unpack("<I", struct.pack("<f", scale))[0]
    return sbits | ((offset & 0x1FF) << 37) | (int(signed) << 46)
