"""Block-granular per-byte records for the hazard checks (simulator/hazards.py).

A `Record` holds one int32 per UB byte, but stores it per 32-byte block while a block's bytes
agree: vector operands and DMA bursts are made of whole blocks, so filling a 64 KB footprint is
2,048 block stores instead of 65,536 byte stores. A block some access covers only in part is
*split*: its value is copied to its 32 bytes, which are the truth from then on, until an access
covering the whole block joins it again. Splitting never changes a value, so every query sees
exactly the bytes a per-byte array would hold.

A `Footprint` is one operand's bytes as the record uses them, worked out once per decoding: the
blocks it covers whole (a slice when they are consecutive) and the bytes of the blocks it
covers in part.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from isa.addressing import BLOCK
from isa.decode import BlockBytes

_IN_BLOCK = np.arange(BLOCK, dtype=np.int64)


class Footprint:
    """The bytes of one UB range: whole blocks (`full`) plus the bytes (`part`, in the range's
    order) of the blocks it covers in part (`blocks`)."""

    __slots__ = ("full", "part", "blocks", "written")

    def __init__(self, full, part: np.ndarray | None, blocks: np.ndarray | None):
        self.full = full  # slice or block index array, or None
        self.part = part
        self.blocks = blocks
        self.written = False  # the init check found every byte written (bytes stay written)


def span_footprint(lo: int, hi: int) -> Footprint:
    """The footprint of bytes [lo, hi)."""
    a, b = -(-lo // BLOCK), hi // BLOCK
    if lo == a * BLOCK and hi == b * BLOCK and a < b:  # whole blocks: no numpy
        return Footprint(slice(a, b), None, None)
    if a >= b:  # no whole block: the blocks from lo's to (hi - 1)'s
        part = np.arange(lo, hi, dtype=np.int64)
        first, end = lo >> 5, ((hi - 1) >> 5) + 1 if hi > lo else lo >> 5
        return Footprint(None, part, np.arange(first, end, dtype=np.int64))
    # whole blocks a..b-1 and the bytes of a part block before them and one after (their
    # blocks a - 1 and b, sorted: no np.unique)
    head, tail = lo < a * BLOCK, hi > b * BLOCK
    if not (head or tail):
        return Footprint(slice(a, b), None, None)
    edges = np.arange(lo, a * BLOCK, dtype=np.int64) if not tail else \
        np.arange(b * BLOCK, hi, dtype=np.int64) if not head else \
        np.concatenate((np.arange(lo, a * BLOCK), np.arange(b * BLOCK, hi))).astype(np.int64)
    blocks = [a - 1, b] if head and tail else [a - 1] if head else [b]
    return Footprint(slice(a, b), edges, np.array(blocks, np.int64))


def index_footprint(idx) -> Footprint:
    """The footprint of the bytes of an index array (any order, repeats allowed), or of a
    whole-block operand's BlockBytes (isa/decode.py): its blocks, without its bytes."""
    if type(idx) is BlockBytes:
        return Footprint(_run_or_blocks(idx.starts >> 5), None, None)
    idx = np.asarray(idx, np.int64)
    blocks = _whole_blocks(idx)
    if blocks is not None:
        return Footprint(blocks, None, None)
    return _index_footprint(idx)


def _whole_blocks(idx: np.ndarray):
    """The blocks (a slice when consecutive) of an index array made of whole 32-byte blocks in
    increasing order — a strided operand with every element active — else None: a few whole-
    array tests instead of `_index_footprint`'s counting."""
    if idx.size == 0 or idx.size % BLOCK or idx[0] % BLOCK:
        return None
    rows = idx.reshape(-1, BLOCK)
    starts = rows[:, 0]
    if (starts % BLOCK).any() or not (rows - starts[:, None] == _IN_BLOCK).all() or \
            not (starts[1:] > starts[:-1]).all():
        return None
    return _run_or_blocks(starts >> 5)


def _run_or_blocks(blocks: np.ndarray):
    """Sorted distinct block numbers as a slice when consecutive, else themselves."""
    first, last = int(blocks[0]), int(blocks[-1])
    return slice(first, last + 1) if last - first + 1 == blocks.size else blocks


def _index_footprint(idx: np.ndarray) -> Footprint:
    """`index_footprint` by counting each block's distinct bytes (any index array)."""
    inc = idx.size < 2 or bool((idx[1:] > idx[:-1]).all())
    u = idx if inc else np.unique(idx)
    b0 = int(u[0]) >> 5
    counts = np.bincount((u >> 5) - b0)
    whole = counts == BLOCK
    full_blocks = b0 + np.flatnonzero(whole)
    full = None
    if full_blocks.size:
        first, last = int(full_blocks[0]), int(full_blocks[-1])
        full = slice(first, last + 1) if last - first + 1 == full_blocks.size else full_blocks
    partial = (counts > 0) & ~whole
    if not partial.any():
        return Footprint(full, None, None)
    part = idx[~whole[(idx >> 5) - b0]]
    return Footprint(full, part, b0 + np.flatnonzero(partial))


def merged(fps: list[Footprint]) -> tuple[Footprint, ...]:
    """Footprints filled with one value, as few as can be: whole-block footprints whose union
    is one run of blocks become one."""
    if len(fps) < 2 or any(fp.part is not None or not isinstance(fp.full, slice) for fp in fps):
        return tuple(fps)
    runs = sorted((fp.full.start, fp.full.stop) for fp in fps)
    start, stop = runs[0]
    for a, b in runs[1:]:
        if a > stop:
            return tuple(fps)
        stop = max(stop, b)
    return (Footprint(slice(start, stop), None, None),)


class Record:
    """One int32 per byte of a UB of NBYTES bytes, stored per block where the block agrees;
    every byte FILL (and what THEN fills) until the record is first used: its arrays are made
    then (most runs touch one or two pipes' records of five; a run whose reads all lie within
    INIT's bytes never reads the writer's), by the methods and by the first read of `block` or
    `mixed` (`made` tells whether they are)."""

    __slots__ = ("_block", "byte", "_mixed", "any_mixed", "_nblk", "_fill", "_then")

    def __init__(self, nbytes: int, fill: int,
                 then: Callable[[Record], None] | None = None):
        """THEN(record), when given, fills what the record holds at the start beyond FILL
        (the writer's INIT ranges): called once, when the record is made."""
        self._nblk, self._fill, self._then = -(-nbytes // BLOCK), fill, then
        self._block: np.ndarray | None = None  # made at the first use (`_made`)
        self.byte: np.ndarray | None = None  # allocated at the first split
        self._mixed: np.ndarray | None = None  # the block's values are in `byte`, not `block`
        self.any_mixed = False

    @property
    def made(self) -> bool:
        return self._block is not None

    @property
    def block(self) -> np.ndarray:
        """Each block's value (where `mixed` is False)."""
        return self._block if self._block is not None else self._made()

    @property
    def mixed(self) -> np.ndarray:
        """Whether each block's values are in `byte`, not `block`."""
        if self._block is None:
            self._made()
        return self._mixed

    def _made(self) -> np.ndarray:
        """The per-block values, made (every block FILL) at the first use."""
        block = self._block
        if block is None:
            block = self._block = np.empty(self._nblk, np.int32)
            block.fill(self._fill)
            self._mixed = np.zeros(self._nblk, bool)
            then, self._then = self._then, None
            if then is not None:
                then(self)
        return block

    def _split(self, blocks: np.ndarray) -> None:
        """Make BLOCKS' bytes the truth (their values unchanged; the record is made)."""
        mixed = self._mixed
        todo = blocks[~mixed[blocks]] if self.any_mixed else blocks
        if todo.size:
            if self.byte is None:  # only split blocks' bytes are ever read
                self.byte = np.empty(self._nblk * BLOCK, np.int32)
            self.byte[(todo[:, None] * BLOCK + _IN_BLOCK).reshape(-1)] = \
                np.repeat(self._block[todo], BLOCK)
            mixed[todo] = True
            self.any_mixed = True

    def fill(self, fp: Footprint, value: int) -> None:
        """Every byte of FP := VALUE."""
        block = self._block if self._block is not None else self._made()
        if fp.full is not None:
            block[fp.full] = value
            if self.any_mixed:
                self._mixed[fp.full] = False
        if fp.part is not None:
            self._split(fp.blocks)
            self.byte[fp.part] = value

    def fill_rows(self, blocks: np.ndarray, values: np.ndarray, apart: bool = False) -> None:
        """Every byte of the blocks of row j of BLOCKS ((rows, blocks) block numbers) :=
        VALUES[j], row after row (a later row's value wins where rows share a block); APART
        when no two rows share a block (then one store)."""
        self.fill_each(blocks.reshape(-1), np.repeat(values, blocks.shape[1]), apart)

    def fill_each(self, blocks: np.ndarray, values: np.ndarray, apart: bool = False) -> None:
        """Every byte of block BLOCKS[k] := VALUES[k], in order (a later entry wins where a
        block repeats); APART when none repeats (then one store)."""
        block = self._block if self._block is not None else self._made()
        if apart:
            at = blocks
            block[at] = values
        else:
            at, last = np.unique(blocks[::-1], return_index=True)  # each block's last entry
            block[at] = values[::-1][last]
        if self.any_mixed:
            self._mixed[at] = False

    def may_hold(self, fp: Footprint, pred: Callable[[np.ndarray], np.ndarray]) -> bool:
        """False when no byte of FP satisfies PRED; True when one may (then `values` tells)."""
        block = self._block if self._block is not None else self._made()
        full = fp.full
        if full is not None:
            if self.any_mixed and self._mixed[full].any():
                return True
            if pred(block[full]).any():
                return True
        if fp.part is not None:
            self._split(fp.blocks)
            return bool(pred(self.byte[fp.part]).any())
        return False

    def values(self, lo: int, hi: int, idx: np.ndarray | None) -> np.ndarray:
        """The bytes [lo, hi) (idx None) or idx, in that order, as a per-byte array holds them."""
        where = np.arange(lo, hi, dtype=np.int64) if idx is None else np.asarray(idx, np.int64)
        blocks = where >> 5
        out = (self._block if self._block is not None else self._made())[blocks]
        if self.any_mixed:
            split = self._mixed[blocks]
            out[split] = self.byte[where[split]]
        return out
