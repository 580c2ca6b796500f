"""The scalar helpers of issue #27 (AscendC GetBitCount, CountLeadingZero,
CountBitsCntSameAsSignBit, GetSFFValue, CeilDivision, ToFloat/ToBfloat16, scalar Cast; the C
API's asc_popc, asc_ffz, asc_sflbits, asc_float2int32_*), written from the vendor's pages with
Python integers: nothing from `isa` or `simulator`, nor from the headers."""

from __future__ import annotations

import struct
from fractions import Fraction

from tests.reference.convert import convert_one, decode

MASK = (1 << 64) - 1


def bit_count(v: int, ones: bool) -> int:
    n = bin(v & MASK).count("1")
    return n if ones else 64 - n


def leading_zeros(v: int) -> int:
    return 64 - (v & MASK).bit_length()


def same_as_sign(v: int) -> int:
    """Bits after the sign bit equal to it (two's complement int64); -1 for 0 and -1."""
    v &= MASK
    if v in (0, MASK):
        return -1
    sign = v >> 63
    n = 0
    for k in range(62, -1, -1):
        if (v >> k) & 1 != sign:
            break
        n += 1
    return n


def first_from_lsb(v: int, bit: int) -> int:
    """The position of the first BIT (0 or 1) from the least significant end, -1 if none."""
    for k in range(64):
        if (v >> k) & 1 == bit:
            return k
    return -1


def ceil_division(a: int, b: int) -> int:
    return 0 if b == 0 else -(-a // b)


def f32_bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def to_half_odd(bits: int) -> int:
    return convert_one("f32", "f16", bits, "odd")


def to_int32(bits: int, mode: str) -> int:
    """float → int32 in MODE (rint, round, floor, ceil), signed."""
    v = convert_one("f32", "s32", bits, mode)
    return v - (1 << 32) if v >> 31 else v


def bf16_round_trip(bits: int) -> int:
    """float → bfloat16 (IEEE nearest even: beyond the halfway point above the largest finite
    value, (2 - 2^-8)·2^127, it is ±inf, not saturated as the vector Cast) → float, f32 bits."""
    kind, neg, *rest = decode("f32", bits)
    if kind == "num" and rest[0] >= (2 - Fraction(1, 256)) * Fraction(2) ** 127:
        return (0xFF800000 if neg else 0x7F800000)
    return convert_one("f32", "bf16", bits, "rint") << 16
