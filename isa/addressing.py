"""Block/repeat address generation (docs/machine.md §5) as cached numpy index arrays.

addr(i, j, e) = B + (i·r + j·b)·32 + e·sizeof(T). Offsets depend only on (size, b, r, R), so
they are computed once per distinct combination and shared (read-only) by every instruction.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np


@lru_cache(maxsize=4096)
def element_offsets(size: int, blk: int, rep: int, repeats: int) -> np.ndarray:
    """(R, N) byte offsets of every element of every repeat, relative to the base address."""
    per_block = 32 // size
    j = np.arange(8, dtype=np.int64).repeat(per_block)
    e = np.tile(np.arange(per_block, dtype=np.int64) * size, 8)
    row = j * (blk * 32) + e
    out = np.arange(repeats, dtype=np.int64)[:, None] * (rep * 32) + row[None, :]
    out.setflags(write=False)
    return out


@lru_cache(maxsize=4096)
def has_duplicates(size: int, blk: int, rep: int, repeats: int) -> bool:
    """Whether two (repeat, element) positions share an address (then the later one wins)."""
    if repeats <= 1 and blk != 0:
        return False
    offs = element_offsets(size, blk, rep, repeats)
    return np.unique(offs).size != offs.size


@lru_cache(maxsize=1024)
def mask_row(hi: int, lo: int, n: int) -> np.ndarray:
    """The active-element bits of a repeat in normal mode: MASK bit k enables element k."""
    if n == 256:
        row = np.ones(256, bool)
    else:
        bits = lo | (hi << 64) if n == 128 else lo & ((1 << n) - 1)
        raw = np.frombuffer(bits.to_bytes(32, "little"), np.uint8)
        row = np.unpackbits(raw, bitorder="little")[:n].astype(bool)
    row.setflags(write=False)
    return row


def bits_of(data: np.ndarray, nbits: int) -> np.ndarray:
    """The first NBITS bits of a byte array, LSB first (bit k = byte k//8, bit k%8)."""
    return np.unpackbits(data, bitorder="little", count=nbits).astype(bool)
