"""ShiftLeft / ShiftRight by a tensor of counts (ascend950), one element, from the pages: unsigned
types shift logically, signed ones arithmetically (ShiftLeft's arithmetic left shift keeps the sign
bit: the pages' 0xAAAA << 1 = 0xD554); ShiftRight past the width gives 0, or -1 for a negative
signed element. The count is the element of src1, a signed integer of the same width. The model's
choices where the pages give none: a count of the width or more shifts every bit out (ShiftLeft:
0 below the sign bit); a negative count, "not supported", likewise."""
from __future__ import annotations

BITS = {"s8": (True, 8), "u8": (False, 8), "s16": (True, 16), "u16": (False, 16),
        "s32": (True, 32), "u32": (False, 32), "s64": (True, 64), "u64": (False, 64)}


def shift(name: str, t: str, a: bytes, c: bytes) -> bytes:
    """NAME (shift_left, shift_right) of element A (bytes of T) by count C (same width)."""
    signed, bits = BITS[t]
    v = int.from_bytes(a, "little", signed=signed)
    n = int.from_bytes(c, "little", signed=True)
    inside = 0 <= n < bits
    if name == "shift_left":
        r = (v << n) % (1 << bits) if inside else 0
        if signed:  # the sign bit stays, the bits below it shift
            top = 1 << (bits - 1)
            r = (v % (1 << bits)) & top | r & (top - 1)
    else:
        r = (v >> n if inside else (-1 if v < 0 else 0)) % (1 << bits)
    return r.to_bytes(bits // 8, "little")
