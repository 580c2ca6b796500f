"""#27 (h27e) ascend950's Ands / Ors on int64_t / uint64_t, element by element from the pages'
formulas (dst_i = src_i & scalar, scalar & src_i; | likewise): Python integers on the two's
complement bit patterns, no numpy arithmetic."""

from __future__ import annotations

MASK64 = (1 << 64) - 1
OPS = {"ands": lambda a, b: a & b, "ors": lambda a, b: a | b}


def element(name: str, signed: bool, x: bytes, s: int, scalar_first: bool) -> bytes:
    """One 8-byte little-endian element of dst, from the element x of src and the scalar s (a
    Python int in the type's range, or any int taken modulo 2^64)."""
    a = int.from_bytes(x, "little")
    b = s & MASK64
    r = OPS[name](b, a) if scalar_first else OPS[name](a, b)
    return (r & MASK64).to_bytes(8, "little", signed=False) if not signed else \
        _signed(r & MASK64).to_bytes(8, "little", signed=True)


def _signed(u: int) -> int:
    return u - (1 << 64) if u >> 63 else u


def bytewise(name: str, a: bytes, b: bytes | None = None) -> bytes:
    """And / Or / Not of two (one) byte strings, byte by byte (#34: the 950's And, Or and Not of
    8- and 64-bit types are bitwise, so the element type does not change a byte's result)."""
    if name == "not":
        return bytes((~x) & 0xFF for x in a)
    return bytes(OPS[name + "s"](x, y) for x, y in zip(a, b, strict=True))
