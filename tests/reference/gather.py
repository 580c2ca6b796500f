"""An independent reference for issue 28's gather shapes (28b), from the vendor's pages, not from
the simulator: it imports nothing from `isa` or `simulator`, works on raw UB bytes and loops
element by element.

GatherMask (vreducev2) on A2/A3: repeat i reads src0 element k at
base + i·src0_rep·32 + (k // E)·src0_blk·32 + (k % E)·size (E = 32 / size); its gather-mask bit
is bit k of the pattern (built in: 1 → k even, 2 → k odd, 3..6 → k % 4 == pattern - 3, 7 → all;
user: bit k % 8 of byte k // 8 of the row at src1 + i·src1_rep·32). In normal mode a repeat is
256 bytes of elements (MASK ignored); in counter mode it is COUNT elements. The kept elements are
written one after another from dst, repeat after repeat; RSVD_CNT is how many."""

from __future__ import annotations

BLOCK = 32


def pattern_bit(pattern: int, k: int) -> bool:
    if pattern == 7:
        return True
    if pattern in (1, 2):
        return k % 2 == pattern - 1
    return k % 4 == pattern - 3


def gather_mask(ub: bytearray, size: int, dst: int, src0: int, src1: int | None, pattern: int,
                repeat: int, src0_blk: int, src0_rep: int, src1_rep: int,
                count: int | None = None, total: bool = False) -> int:
    """Apply one vreducev2 to UB (in place); return RSVD_CNT. COUNT: counter mode's elements a
    repeat (None: normal mode); TOTAL: COUNT elements in all instead, 256 bytes a repeat (the
    page's configuration two: the 310P AI Core), REPEAT ignored."""
    per_repeat = 256 // size if count is None or total else count
    per_block = BLOCK // size
    if total:
        repeat = -(-count // per_repeat)
    out = 0
    for i in range(repeat):
        for k in range(per_repeat):
            if total and i * per_repeat + k >= count:
                break
            if pattern == 0:
                row = src1 + i * src1_rep * BLOCK
                keep = bool(ub[row + k // 8] >> (k % 8) & 1)
            else:
                keep = pattern_bit(pattern, k)
            if not keep:
                continue
            a = src0 + i * src0_rep * BLOCK + (k // per_block) * src0_blk * BLOCK \
                + (k % per_block) * size
            ub[dst + out * size:dst + (out + 1) * size] = ub[a:a + size]
            out += 1
    return out


def gather(ub: bytearray, size: int, dst: int, src: int, offset: int, repeat: int,
           dst_rep: int, active: list[bool] | None = None, count: int | None = None) -> None:
    """Gather (vgather): active element k of repeat i (N = 256 / size a repeat) is the element
    at src + offset[i·N + k] bytes (u32 offsets, N a repeat, back to back), written at
    dst + i·dst_rep·32 + k·size. COUNT: counter mode's elements (the repeats follow)."""
    n = 256 // size
    if count is not None:
        repeat = -(-count // n)
    for i in range(repeat):
        for k in range(n):
            j = i * n + k
            if (count is not None and j >= count) or (active is not None and not active[k]):
                continue
            off = int.from_bytes(ub[offset + 4 * j:offset + 4 * j + 4], "little")
            a = dst + i * dst_rep * BLOCK + k * size
            ub[a:a + size] = ub[src + off:src + off + size]


def gatherb(ub: bytearray, dst: int, src: int, offsets: list[int], repeat: int, dst_blk: int,
            dst_rep: int) -> None:
    """Gatherb (vgatherb), the page's reference code: for repeat i and block j of 8, the 32
    bytes at src + offset[8i + j] go to dst + i·dst_rep·32 + j·dst_blk·32 (dst_blk 0 is taken
    as 1), byte for byte."""
    dst_blk = dst_blk or 1
    for i in range(repeat):
        for j in range(8):
            s = src + offsets[8 * i + j]
            d = dst + i * dst_rep * BLOCK + j * dst_blk * BLOCK
            ub[d:d + BLOCK] = bytes(ub[s:s + BLOCK])
