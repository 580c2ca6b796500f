"""The block/repeat address formula (docs/machine.md §5) as cached numpy index arrays.

Element k of repeat i lies at B + i·step + (k // E)·blk·32 + (k % E)·size, E = 32 // size
elements a block, k < n: a vector operand's step is its repeat stride times 32, a bit stream's
its bytes a repeat (its "elements" are bytes, its blocks back to back). isa/decode.py's `Access`
is the only caller besides the API expansions' `element_offsets`; every other module asks an
`Access`. Offsets depend only on (size, blk, step, R, n), so they are computed once per
distinct combination and shared (read-only) by every instruction.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

BLOCK = 32  # bytes a block
REPEAT = 256  # bytes of a full repeat


@lru_cache(maxsize=4096)
def offsets(size: int, blk: int, step: int, repeats: int, n: int) -> np.ndarray:
    """(R, n) byte offsets of every element of every repeat, relative to the base address."""
    per_block = BLOCK // size
    k = np.arange(n, dtype=np.int64)
    row = k // per_block * (blk * BLOCK) + k % per_block * size
    out = np.arange(repeats, dtype=np.int64)[:, None] * step + row[None, :]
    out.setflags(write=False)
    return out


@lru_cache(maxsize=1024)
def nibble_offsets(blk: int, step: int, repeats: int, n: int) -> np.ndarray:
    """`offsets` of N half-byte (s4) elements: element k in byte k // 2 of the byte grid."""
    out = offsets(1, blk, step, repeats, (n + 1) // 2).repeat(2, axis=1)[:, :n]
    out.setflags(write=False)
    return out


@lru_cache(maxsize=4096)
def index_offsets(size: int, blk: int, step: int, repeats: int, n: int) -> np.ndarray:
    """`offsets` in elements (for an operand whose base is a multiple of SIZE)."""
    out = offsets(size, blk, step, repeats, n) // size
    out.setflags(write=False)
    return out


@lru_cache(maxsize=4096)
def has_duplicates(size: int, blk: int, step: int, repeats: int, n: int) -> bool:
    """Whether two (repeat, element) positions share an address (then the later one wins)."""
    if repeats <= 1 and blk != 0:
        return False
    offs = offsets(size, blk, step, repeats, n)
    return np.unique(offs).size != offs.size


def element_offsets(size: int, blk: int, rep: int, repeats: int) -> np.ndarray:
    """`offsets` of a full repeat of SIZE-byte elements at block and repeat strides BLK, REP."""
    return offsets(size, blk, rep * BLOCK, repeats, REPEAT // size)


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
