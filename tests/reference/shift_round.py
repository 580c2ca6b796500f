"""#27 vshr round_en=1 (AscendC ShiftRight's roundEn, the C API's asc_shiftright_round), one
element at a time from the ShiftRight page — not from the simulator: the arithmetic right shift
by n plus bit n-1 of the source (the last bit shifted out; "src 17 >> 5 with bit 5 set gives
1"); a count past the width shifts the sign in and rounds with the sign bit; unsigned types are
not rounded (the page: only int16_t / int32_t)."""

from __future__ import annotations

from tests.reference import elementwise


def shift_right_round(t: str, a: bytes, s: bytes) -> bytes:
    signed, bits = elementwise.INTS[t]
    plain = elementwise.shift("vshr", t, a, s)
    n = int.from_bytes(s, "little", signed=signed)
    if not signed or n < 1:
        return plain
    v = int.from_bytes(a, "little", signed=True)
    r = int.from_bytes(plain, "little", signed=True) + ((v >> min(n - 1, bits - 1)) & 1)
    return (r % (1 << bits)).to_bytes(bits // 8, "little")
