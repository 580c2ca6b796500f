"""int4b_t (s4) in memory, one element at a time, written from the vendor's pages and not from the
simulator (it imports nothing from `isa` or `simulator`):

- two elements a byte: element 2j in bits 0–3 of byte j, element 2j+1 in bits 4–7 (the int4b_t
  figure of the C-API reference); two's complement, −8..7;
- a vector operand of s4 holds 64 elements a 32-byte block, so a repeat of vconv (128 elements,
  the f16 side's 256 bytes) covers two of its blocks: element k of repeat i lies in byte
  base + i·rep·32 + (k // 64)·blk·32 + (k % 64) // 2, in the low half when k is even;
- the value conversions themselves are `tests.reference.convert.convert_one` (exact rationals).
"""

from __future__ import annotations

from tests.reference.convert import convert_one

PER_BLOCK = 64  # s4 elements a 32-byte block
PER_REPEAT = 128  # elements a vconv repeat between f16 and s4


def get(mem: bytearray, byte: int, high: bool) -> int:
    """The 4 bits of one s4 element."""
    return (mem[byte] >> 4) & 0xF if high else mem[byte] & 0xF


def put(mem: bytearray, byte: int, high: bool, bits: int) -> None:
    """Write one s4 element, keeping the other half of its byte."""
    if high:
        mem[byte] = (mem[byte] & 0x0F) | ((bits & 0xF) << 4)
    else:
        mem[byte] = (mem[byte] & 0xF0) | (bits & 0xF)


def s4_place(base: int, i: int, k: int, blk: int, rep: int) -> tuple[int, bool]:
    """(byte, high half?) of element K of repeat I of an s4 operand."""
    return base + i * rep * 32 + (k // PER_BLOCK) * blk * 32 + (k % PER_BLOCK) // 2, k % 2 == 1


def f16_place(base: int, i: int, k: int, blk: int, rep: int) -> int:
    """The first byte of element K of repeat I of an f16 operand (16 a block)."""
    return base + i * rep * 32 + (k // 16) * blk * 32 + (k % 16) * 2


def active(mask_hi: int, mask_lo: int, counter: bool, count: int, i: int, k: int) -> bool:
    """Whether element K of repeat I is enabled: MASK bit k (normal mode), or the first COUNT
    elements counted repeat after repeat (counter mode)."""
    if counter:
        return i * PER_REPEAT + k < count
    return bool(((mask_hi << 64 | mask_lo) >> k) & 1)


def vconv_s4(mem: bytearray, dst: str, dst_base: int, src_base: int, repeats: int, mode: str,
             strides: tuple[int, int, int, int], mask: tuple[int, int] = (2**64 - 1, 2**64 - 1),
             counter: bool = False, count: int = 0) -> None:
    """vconv between f16 and s4 (DST "s4": f16 → s4, "f16": s4 → f16) on MEM, element by
    element, repeats in order (the later write wins)."""
    dst_blk, src_blk, dst_rep, src_rep = strides
    if counter:
        repeats = -(-count // PER_REPEAT)
    for i in range(repeats):
        for k in range(PER_REPEAT):
            if not active(mask[0], mask[1], counter, count, i, k):
                continue
            if dst == "s4":
                a = f16_place(src_base, i, k, src_blk, src_rep)
                bits = convert_one("f16", "s4", mem[a] | mem[a + 1] << 8, mode)
                put(mem, *s4_place(dst_base, i, k, dst_blk, dst_rep), bits)
            else:
                bits = convert_one("s4", "f16", get(mem, *s4_place(src_base, i, k, src_blk,
                                                                     src_rep)), mode)
                a = f16_place(dst_base, i, k, dst_blk, dst_rep)
                mem[a], mem[a + 1] = bits & 0xFF, bits >> 8
