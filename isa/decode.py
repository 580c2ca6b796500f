"""Decode: a hardware instruction plus the machine state captured at issue → micro-ops (§5).

A `VectorOp` describes all repeats of one vector instruction as arrays (the executor runs them in
bulk); `VectorOp.uops()` yields one immutable `MicroOp` per repeat for listings, traces and the
debugger. Pure functions: no machine, no memory.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property

import attrs
import numpy as np

from isa.addressing import (
    BLOCK,
    REPEAT,
    has_duplicates,
    index_offsets,
    mask_row,
    nibble_offsets,
    offsets,
)
from isa.families import Family
from isa.program import Instruction
from isa.types import DType


@attrs.frozen
class Access:
    """One operand's address pattern, and the only code that turns its fields into element
    offsets, byte addresses, blocks and byte ranges (isa/addressing.py holds the formula's
    tables): checks, bulk plans, bank models, the undo log, the debugger and the decodings
    cache ask it, and nothing else assumes a repeat's size.

    kind "vector": element k < per_repeat of repeat i lies at
    base + i·rep·32 + (k // E)·blk·32 + (k % E)·size, E = 32 // size elements a block;
    kind "bits" (a bit stream): repeat i covers bytes [base + i·count, base + (i+1)·count),
    the same formula with 1-byte elements, blocks back to back and repeats `count` bytes apart;
    kind "packed" (a family's `packed` operand, e.g. a reduction's destination): `count`
    elements of `size` bytes a repeat, repeat i at base + i·rep·count·size (`rep` counts whole
    results: 1, back to back, unless the instruction has a `dst_rep`);
    kind "bitrows" (a bit row a repeat, GatherMask's pattern): `count` bytes a repeat, repeats
    rep·32 bytes apart (rep 0: every repeat reads the same row);
    kind "compact" (GatherMask's destination): the `count` elements the instruction keeps, back
    to back from base — known at issue, from the pattern's bits — claimed by every repeat
    (step 0: where one repeat's elements start depends on the data).
    kind "indexed" (a gather's source): element k of repeat i at base + index[i, k], the
    byte offsets the instruction read from UB at issue (`index`; `index_key` tells two apart).
    "vector" and "indexed" operands touch their active elements (`masked`); every other kind
    is touched whole whatever MASK says.
    `nibble` (s4, int4b_t: two elements a byte, `size` 1): element k lies in byte k // 2 of the
    same formula on the byte grid (k even: bits 0–3, odd: bits 4–7), so every byte range,
    footprint, overlap and bound below stays in whole bytes; `per_repeat` counts elements.
    Strides are never negative (the assembler takes 0..255).
    """

    role: str
    base: int
    kind: str
    size: int
    blk: int = 1
    rep: int = 8
    write: bool = False
    space: str = "ub"
    count: int = 0  # elements a repeat touches (0: a full repeat's worth); vconv's narrower
    # side; a bit stream's bytes
    index: np.ndarray | None = attrs.field(default=None, eq=False, repr=False)  # "indexed"
    index_key: int = 0  # a hash of `index`'s bytes: decodings with other offsets differ
    nibble: bool = False  # two elements a byte (s4)
    # derived at construction (read by nearly every check and body: plain slots, no lookup)
    per_repeat: int = attrs.field(init=False, eq=False, repr=False)
    repeat_bytes: int = attrs.field(init=False, eq=False, repr=False)
    step: int = attrs.field(init=False, eq=False, repr=False)
    contiguous: bool = attrs.field(init=False, eq=False, repr=False)

    @per_repeat.default
    def _per_repeat(self) -> int:
        """Elements of this operand in one repeat."""
        return self.count or REPEAT // self.size * (2 if self.nibble else 1)

    @repeat_bytes.default
    def _repeat_bytes(self) -> int:
        """Bytes one full repeat of this operand spans with block stride 1."""
        return self.grid * self.size

    @step.default
    def _step(self) -> int:
        """Bytes from one repeat's start to the next."""
        if self.kind == "packed":  # rep counts whole results (a reduction's dst_rep)
            return self.rep * self.repeat_bytes
        if self.kind == "vector" or self.kind == "bitrows":
            return self.rep * BLOCK
        return 0 if self.kind in ("compact", "indexed") else self.repeat_bytes

    @contiguous.default
    def _contiguous(self) -> bool:
        """Block stride 1 and repeats back to back: one run of bytes."""
        return self.blk == 1 and self.step == self.repeat_bytes

    @property
    def grid(self) -> int:
        """Byte-grid elements a repeat: `per_repeat`, or the bytes its s4 elements fill."""
        return (self.per_repeat + 1) // 2 if self.nibble else self.per_repeat

    @property
    def masked(self) -> bool:
        """Whether MASK decides which of its elements the operand touches."""
        return self.kind in MASKED_KINDS

    def rebased(self, base: int) -> Access:
        """The same pattern at BASE."""
        return Access(self.role, base, self.kind, self.size, self.blk, self.rep, self.write,
                      self.space, self.count, self.index, self.index_key, self.nibble)

    def indexed(self, offsets: np.ndarray) -> Access:
        """This "indexed" operand with its (R, per_repeat) byte offsets from the base."""
        index = np.asarray(offsets, dtype=np.int64)
        index.setflags(write=False)
        return attrs.evolve(self, index=index, index_key=hash(index.tobytes()))

    # -- elements ----------------------------------------------------------------------------
    def offsets(self, repeats: int) -> np.ndarray:
        """(R, per_repeat) byte offsets of every element from the base (read-only, shared)."""
        if self.index is not None:
            return self.index[:repeats]
        if self.nibble:
            return nibble_offsets(self.blk, self.step, repeats, self.per_repeat)
        return offsets(self.size, self.blk, self.step, repeats, self.per_repeat)

    def addresses(self, repeats: int) -> np.ndarray:
        """(R, per_repeat) byte addresses of every element."""
        return self.base + self.offsets(repeats)

    def index_offsets(self, repeats: int) -> np.ndarray:
        """`offsets` in elements (read-only, shared): for a base that is a multiple of size."""
        if self.index is not None:
            return self.index[:repeats] // self.size
        if self.nibble:  # the bytes (byte-grid elements) a repeat's s4 elements fill
            return index_offsets(1, self.blk, self.step, repeats, self.grid)
        return index_offsets(self.size, self.blk, self.step, repeats, self.per_repeat)

    def has_duplicates(self, repeats: int) -> bool:
        """Whether two (repeat, element) positions share an address (the later one wins)."""
        if self.index is not None:
            offs = self.index[:repeats]
            return np.unique(offs).size != offs.size
        return has_duplicates(self.size, self.blk, self.step, repeats, self.grid)

    def start(self, i: int) -> int:
        """The address of repeat I's first element."""
        return self.base + i * self.step

    def locate(self, flat: int) -> tuple[int, int]:
        """(repeat, block) of element FLAT counted repeat after repeat (a bit stream's byte)."""
        i, k = divmod(flat, self.per_repeat)
        return i, k // (BLOCK // self.size * (2 if self.nibble else 1))

    # -- byte ranges (every element touched) -------------------------------------------------
    def last_offset(self, repeats: int) -> int:
        """The largest element offset, by plain arithmetic (what `offsets(R).max()` says): it
        grows with i and, for blk >= 1, with k; with blk = 0 every block reads the first."""
        n, per_block = self.grid, BLOCK // self.size
        if self.index is not None:
            return int(self.index[:repeats].max())
        if self.blk == 0:
            inner = (min(n, per_block) - 1) * self.size
        else:
            inner = (n - 1) // per_block * self.blk * BLOCK + (n - 1) % per_block * self.size
        return (repeats - 1) * self.step + inner

    def extent(self, repeats: int) -> tuple[int, int]:
        """[first, last] byte of R repeats (R >= 1) with every element touched."""
        if self.index is not None:
            first = self.base + int(self.index[:repeats].min())
            return first, self.base + self.last_offset(repeats) + self.size - 1
        return self.base, self.base + self.last_offset(repeats) + self.size - 1

    def run(self, lo: int, hi: int, last: int | None = None) -> tuple[int, int] | None:
        """[start, end) of the bytes of repeats [lo, hi) (the last one's first LAST elements,
        or all) when block stride 1 lays them out as one run (one repeat, or repeats back to
        back), else None."""
        if self.kind == "indexed":
            return None
        if self.kind != "vector" and self.step == 0:  # every repeat touches the same run
            return self.base, self.base + self.repeat_bytes
        if self.blk != 1 or (hi - lo > 1 and not self.contiguous):
            return None
        a = self.base + lo * self.step
        tail = self.repeat_bytes if last is None else \
            (last + 1) // 2 if self.nibble else last * self.size
        return a, a + (hi - lo - 1) * self.step + tail

    # -- blocks (vector operands: whole 32-byte blocks) --------------------------------------
    @property
    def blocks(self) -> int:
        """Blocks one repeat covers (at least one)."""
        return -(-self.repeat_bytes // BLOCK)

    def block_offsets(self, repeats: int) -> np.ndarray:
        """(R, blocks) byte offsets of each repeat's blocks from the base."""
        i = np.arange(repeats, dtype=np.int64)[:, None]
        return i * self.step + np.arange(self.blocks, dtype=np.int64) * (self.blk * BLOCK)

    def block_indices(self, repeats: int) -> np.ndarray:
        """(R, blocks) UB block numbers of each repeat's blocks (a block-aligned operand)."""
        return (self.base + self.block_offsets(repeats)) // BLOCK

    def last_block(self, repeats: int) -> int:
        """The largest of `block_offsets(R)`: where the last block starts."""
        return (repeats - 1) * self.step + (self.repeat_bytes - 1) // BLOCK * self.blk * BLOCK

    def block_at(self, i: int, byte: int) -> int:
        """Block j of repeat I that BYTE (one the repeat touches) lies in; 0 at block stride
        0, where every block is the first."""
        j = (byte - self.base - i * self.step) // (self.blk * BLOCK) if self.blk else 0
        return min(max(j, 0), self.blocks - 1)

    def block_starts(self, repeats: int) -> np.ndarray:
        """Sorted distinct addresses of the blocks R repeats cover."""
        return self.base + BLOCK * _distinct_blocks(repeats, self.blocks, self.blk, self.rep)

    def block_span(self, lo: int, hi: int) -> tuple[int, int]:
        """[first, end) bytes of the blocks of repeats [lo, hi)."""
        first = self.base + lo * self.step
        return first, first + self.last_block(hi - lo) + BLOCK

    def block_view(self, buffer: np.ndarray, dtype, lo: int, hi: int) -> np.ndarray:
        """A zero-copy (hi-lo, blocks, elements a block) view of repeats [lo, hi) of BUFFER
        (UB's bytes) as DTYPE elements; numpy refuses one that leaves BUFFER."""
        return np.ndarray((hi - lo, self.blocks, BLOCK // self.size), dtype, buffer,
                          self.base + lo * self.step, (self.step, self.blk * BLOCK, self.size))


def _distinct_blocks(repeats: int, nb: int, blk: int, rep: int) -> np.ndarray:
    """Sorted distinct i·rep + j·blk over the repeats and NB blocks."""
    i = np.arange(repeats, dtype=np.int64)
    if blk == 1 and rep <= nb:  # repeats that meet or overlap: one run of blocks
        return np.arange((repeats - 1) * rep + nb, dtype=np.int64)
    if blk == 1:  # repeats apart: already sorted and distinct
        return (i[:, None] * rep + np.arange(nb, dtype=np.int64)).reshape(-1)
    if blk == 0:
        return i * rep if rep else i[:1]
    if rep % blk == 0:  # each repeat's blocks lie on one grid of step blk, from i·rep on
        if rep <= nb * blk:  # consecutive repeats meet or overlap on it: the whole grid
            return np.arange(0, (repeats - 1) * rep + (nb - 1) * blk + 1, blk, dtype=np.int64)
        return (i[:, None] * rep + np.arange(nb, dtype=np.int64) * blk).reshape(-1)  # apart
    return np.unique(i[:, None] * rep + np.arange(nb, dtype=np.int64) * blk)


@attrs.frozen
class MicroOp:
    """One repeat of a vector instruction."""

    index: int
    active: int  # active-element bits
    rows: dict[str, list[int]]  # operand → 32-byte row addresses touched
    sel: int | None = None  # select-mask bits consumed (vsel)


@attrs.frozen(eq=False)
class VectorOp:
    instr: Instruction
    t: DType
    repeats: int
    n: int  # elements per repeat
    row: np.ndarray = attrs.field(eq=False)  # (N,) active bits of a full repeat
    last: int  # active elements of the last repeat (counter mode cuts it short)
    operands: tuple[Access, ...]
    mask: tuple[int, int]  # MASK (HI, LO) at issue
    counter: bool  # counter mode at issue
    all_active: bool
    # values derived from the decoding alone (byte ranges, rows, costs): statements with
    # identical text share the decoding (simulator/decodings.py) and compute them once
    memo: dict = attrs.field(factory=dict, eq=False, repr=False)
    # (the decoding this one is with its operands moved, each operand's shift in bytes) when
    # made by moving it (`moved`: distinct lines of one shape), else None: what is derived from
    # it (byte ranges, a bank cost) is derived from that decoding's, moved. Not an init
    # argument, so a decoding evolved into another (a gather's, a dequantisation's) has none
    origin: tuple[VectorOp, tuple[int, ...]] | None = attrs.field(
        default=None, init=False, eq=False, repr=False)

    @property
    def family(self) -> Family:
        return self.instr.defn.family

    def derived(self, key, compute):
        """COMPUTE(self) once per decoding and KEY (derived data must not depend on the
        statement: only on the decoding's operands, repeats and MASK)."""
        hit = self.memo.get(key)
        if hit is None:
            hit = self.memo[key] = compute(self)
        return hit

    def moved(self, instr: Instruction, shift: int | tuple[int, ...]) -> VectorOp:
        """This decoding for INSTR, every operand moved by SHIFT bytes (or each by its own:
        a tuple, one an operand), its origin this one."""
        shifts = shift if type(shift) is tuple else (shift,) * len(self.operands)
        out = VectorOp(instr, self.t, self.repeats, self.n, self.row, self.last,
                       tuple(a.rebased(a.base + s) for a, s in zip(self.operands, shifts,
                                                                   strict=True)),
                       self.mask, self.counter, self.all_active)
        object.__setattr__(out, "origin", (self, shifts))  # (frozen; not an init argument)
        return out

    def batched(self, instr: Instruction, bases: tuple[int, ...], steps: tuple[int, ...],
                lines: int) -> VectorOp:
        """LINES one-repeat lines of this one-repeat decoding as one decoding of LINES
        repeats: operand k of line j at BASES[k] + j·STEPS[k] bytes (whole blocks, never
        negative), every line's active elements this one's (a batch of an unrolled kernel's
        lines, none touching what another writes: simulator/fused.py)."""
        ops = tuple(Access(a.role, b, a.kind, a.size, a.blk, s // BLOCK, a.write, a.space,
                           a.count, a.index, a.index_key, a.nibble)
                    for a, b, s in zip(self.operands, bases, steps, strict=True))
        return VectorOp(instr, self.t, lines, self.n, self.row, self.n, ops, self.mask,
                        self.counter, self.all_active)

    def access(self, role: str) -> Access | None:
        for a in self.operands:
            if a.role == role:
                return a
        return None

    @cached_property
    def active(self) -> np.ndarray:
        """(R, N) bool: which elements each repeat touches."""
        act = np.broadcast_to(self.row, (self.repeats, self.n)).copy()
        if self.last < self.n and self.repeats:
            act[-1, self.last:] = False
        return act

    def byte_addrs(self, acc: Access) -> np.ndarray:
        """(R, per_repeat) byte addresses of an operand's elements (a bit stream's bytes)."""
        return acc.addresses(self.repeats)

    def touches_all(self, acc: Access) -> bool:
        """Whether the operand touches every element of every repeat whatever MASK says."""
        return self.all_active or not acc.masked or acc.role in self.full_roles

    def footprint(self, acc: Access) -> np.ndarray:
        """Sorted unique byte addresses the operand touches (its active elements' bytes)."""
        if acc.kind == "indexed":  # element by element
            addrs = self.byte_addrs(acc)
            flat = (addrs if self.touches_all(acc) else addrs[self.active]).reshape(-1)
            if acc.size == 1 and bool(np.all(flat[1:] > flat[:-1])):
                return flat  # increasing bytes (CastDequant's halves): already sorted, unique
            starts = np.unique(flat)
            return np.unique((starts[:, None] + np.arange(acc.size, dtype=np.int64)).reshape(-1))
        if not acc.masked:  # one run, or runs apart (bitrows, a packed operand's dst_rep)
            run = acc.run(0, self.repeats)
            if run is not None:
                return np.arange(*run, dtype=np.int64)
            starts, run = np.unique(acc.addresses(self.repeats)), acc.size
            return np.unique((starts[:, None] + np.arange(run, dtype=np.int64)).reshape(-1))
        if self.touches_all(acc):  # whole blocks
            starts, run = acc.block_starts(self.repeats), BLOCK
        else:  # element starts all lie on one grid of acc.size: distinct ones never overlap
            starts, run = np.unique(self.byte_addrs(acc)[self.active]), acc.size
        return (starts[:, None] + np.arange(run, dtype=np.int64)).reshape(-1)

    @property
    def full_roles(self) -> tuple[str, ...]:
        """Operands that read every element whatever MASK says (bit-output compare sources)."""
        return self.instr.defn.family.full_roles()

    def ub_ranges(self) -> list[Range]:
        """Every UB operand's bytes: (role, start, end, sorted byte array or None when
        [start, end) is exactly what it touches, write), computed once per decoding. An
        operand of whole blocks gives its byte array as BlockBytes (its blocks; numpy takes
        it as the array)."""
        return self.derived("ranges", _vector_ranges)

    def uops(self) -> Iterator[MicroOp]:
        act = self.active
        addrs = [(acc.role, self.byte_addrs(acc), self.touches_all(acc)) for acc in self.operands]
        for i in range(self.repeats):
            rows = {}
            for role, a, whole in addrs:
                sel = a[i] if whole else a[i][act[i]]
                rows[role] = sorted({int(x) & ~(BLOCK - 1) for x in sel})
            bits = int.from_bytes(np.packbits(act[i], bitorder="little").tobytes(), "little")
            yield MicroOp(i, bits, rows)


def address_list_offsets(size: int, reps: int, fields: dict, dst_list: np.ndarray,
                         src_list: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """TransDataTo5HD's formula (an `indexed` pair from two lists of 16 block addresses): (R, n)
    byte addresses of each element read (src) and where it goes (dst), element
    (r, k) = element k taken from source block r. 2-byte: dst block k, element r; 4-byte: dst
    block 2k + r // 8, element r % 8; 1-byte: element k of the chosen half of source block r to
    byte r of the chosen half of dst block k. Repeat i is i x stride blocks on — one stride on
    when there is one repeat (the vendor page)."""
    kk = 8 if size == 4 else 16
    r = np.repeat(np.arange(16), kk)
    k = np.tile(np.arange(kk), 16)
    half = 16 * size  # bytes of half a block: the 8-bit form's
    if size == 4:
        dblock, dpos = 2 * k + r // 8, (r % 8) * size
    elif size == 2:
        dblock, dpos = k, r * size
    else:
        dblock, dpos = k, fields.get("dst_high", 0) * half + r
    spos = (fields.get("src_high", 0) * half if size == 1 else 0) + k * size
    i = np.arange(reps)[:, None] if reps > 1 else np.ones((1, 1), np.int64)
    d_off = i * fields.get("dst_rep", 0) * 32
    s_off = i * fields.get("src_rep", 0) * 32
    return dst_list[dblock][None, :] + dpos + d_off, src_list[r][None, :] + spos + s_off


MASKED_KINDS = ("vector", "indexed")  # kinds whose operands MASK applies to

# One operand's UB bytes: (role, first byte, end byte, index array or None, write); the index
# array of an operand of whole blocks is BlockBytes (the array made when asked for)
Range = tuple[str, int, int, "np.ndarray | None", bool]


def _vector_ranges(vop: VectorOp) -> list[Range]:
    if vop.repeats == 0:
        return []
    if vop.origin is not None:
        return _moved_ranges(vop)
    out: list[Range] = []
    for acc in vop.operands:
        span = _contiguous_span(vop, acc)
        if span is not None:
            out.append((acc.role, span[0], span[1], None, acc.write))
            continue
        fp = _whole_block_bytes(vop, acc)
        if fp is not None:
            lo, hi = int(fp.starts[0]), int(fp.starts[-1]) + BLOCK
        else:
            fp = vop.footprint(acc)
            if not fp.size:
                continue
            lo, hi = int(fp[0]), int(fp[-1]) + 1
        out.append((acc.role, lo, hi, None if hi - lo == fp.size else fp, acc.write))
    return _with_scalar(vop, out)


def _moved_ranges(vop: VectorOp) -> list[Range]:
    """The ranges of VOP's origin, each operand's moved by the shift (the scalar read from UB,
    if any, is the line's own: its address is not one of the moved operands')."""
    src, shifts = vop.origin
    s = shifts[0]
    if shifts.count(s) == len(shifts):  # every operand moved alike (the common case)
        out = [(role, lo + s, hi + s, None if idx is None else idx + s, write)
               for role, lo, hi, idx, write in src.ub_ranges() if role != "scalar"]
        return _with_scalar(vop, out)
    shift = dict(zip([a.role for a in src.operands], shifts, strict=True))
    out = [(role, lo + shift[role], hi + shift[role], None if idx is None else idx + shift[role],
            write) for role, lo, hi, idx, write in src.ub_ranges() if role != "scalar"]
    return _with_scalar(vop, out)


def _with_scalar(vop: VectorOp, out: list[Range]) -> list[Range]:
    """OUT and the bytes of VOP's scalar operand when it is read from a UB tensor."""
    scalar = vop.instr.operands.get("scalar")
    if scalar is not None and scalar.tensor is not None and isinstance(scalar.addr, int):
        out.append(("scalar", scalar.addr, scalar.addr + vop.t.size, None, False))
    return out


class BlockBytes:
    """The sorted bytes of whole 32-byte blocks: a Range's byte array for an operand made of
    whole blocks (`VectorOp.footprint`'s, every element of a strided operand touched), kept as
    its block addresses (`starts`, sorted and distinct). The bytes themselves, 32 int64 a block
    (256 KB for a 255-repeat operand at block stride 2), are made only when something asks for
    them — numpy through `__array__`, an index, `len` — which the hazard records, kept per
    block (simulator/footprints.py), never do on a clean run."""

    __slots__ = ("starts", "_bytes")

    def __init__(self, starts: np.ndarray):
        self.starts = starts
        self._bytes: np.ndarray | None = None

    @property
    def size(self) -> int:
        return self.starts.size * BLOCK

    def __len__(self) -> int:
        return self.size

    def bytes(self) -> np.ndarray:
        """The byte addresses, sorted (made once)."""
        if self._bytes is None:
            self._bytes = (self.starts[:, None] + np.arange(BLOCK, dtype=np.int64)).reshape(-1)
        return self._bytes

    def forget_bytes(self) -> None:
        """Let go of the byte array (made again when asked): a decoding kept between runs
        keeps its blocks only (simulator/decodings.py)."""
        self._bytes = None

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        b = self.bytes()
        return b if dtype is None else b.astype(dtype, copy=False)

    def __getitem__(self, k):
        return self.bytes()[k]

    def __add__(self, shift: int) -> BlockBytes | np.ndarray:
        """The bytes SHIFT on (a moved decoding's: `_moved_ranges`): blocks still when SHIFT
        is whole blocks, else the byte array."""
        if shift % BLOCK == 0:
            return BlockBytes(self.starts + shift)
        return self.bytes() + shift

    def __repr__(self) -> str:
        return f"BlockBytes({self.starts!r})"


def _whole_block_bytes(vop: VectorOp, acc: Access) -> BlockBytes | None:
    """`vop.footprint(acc)` as BlockBytes when the operand touches whole blocks (a vector
    operand whose every element is touched), else None."""
    if acc.kind != "vector" or not acc.masked or not vop.touches_all(acc):
        return None
    starts = acc.block_starts(vop.repeats)
    return BlockBytes(starts) if starts.size else None


def _contiguous_span(vop: VectorOp, acc: Access) -> tuple[int, int] | None:
    """[lo, hi) when the operand's bytes are exactly one contiguous run, else None."""
    if vop.touches_all(acc):
        return acc.run(0, vop.repeats)
    if vop.row.all():  # counter mode: the last repeat is cut short
        return acc.run(0, vop.repeats, vop.last)
    return None


def repeat_plan(n: int, repeat: int, mask: tuple[int, int], counter: bool
                ) -> tuple[int, np.ndarray, int]:
    """(R, active row, active count of the last repeat) from the repeat field and MASK/CTRL."""
    if counter:
        c = mask[1] & 0xFFFFFFFF
        r = -(-c // n)
        return r, _full_row(n), c - (r - 1) * n if r else n
    return repeat, mask_row(mask[0], mask[1], n), n


_FULL: dict[int, np.ndarray] = {}


def _full_row(n: int) -> np.ndarray:
    row = _FULL.get(n)
    if row is None:
        row = _FULL[n] = np.ones(n, bool)
        row.setflags(write=False)
    return row


# (family, types, operand roles, fields, MASK, CTRL) -> what a decoding takes from them (`_plan`)
_PLANS: dict[tuple, tuple] = {}
PLAN_LIMIT = 4096


def decode_vector(instr: Instruction, addrs: dict[str, int], fields: dict[str, int],
                  mask: tuple[int, int], counter: bool, per_repeat: bool = True) -> VectorOp:
    """Decode a repeat-driven vector instruction with its addresses and fields resolved. The
    family says which operand is which; `addrs["sel"]` is a select mask address taken from
    CMPMASK (vsel mode 2), absent where it is unknown (the listing). Everything but the
    addresses comes from a plan remembered per (family, types, roles, fields, MASK, CTRL):
    distinct lines of one shape decode at the cost of their Access records. PER_REPEAT false:
    a `counter_per_repeat` family counts MASK_LO elements in all, as every other family does
    (GatherMask's configuration two, the chip's `gathermask_counter`)."""
    src = instr.src_dtype
    roles = tuple(role for role in instr.operands if role in addrs)
    key = (instr.defn.family.name, instr.dtype.name, src.name if src is not None else None,
           roles, tuple(fields.items()), mask, counter, per_repeat)
    plan = _PLANS.get(key)
    if plan is None:
        if len(_PLANS) >= PLAN_LIMIT:
            _PLANS.clear()
        plan = _PLANS[key] = _plan(instr, roles, fields, mask, counter, per_repeat)
    r, n, row, last, all_active, accesses = plan
    ops = tuple(Access(role, addrs[source], kind, size, blk, rep, write, count=count,
                       nibble=nibble)
                for role, source, kind, size, blk, rep, write, count, nibble in accesses
                if source in addrs)
    return VectorOp(instr, instr.dtype, r, n, row, last, ops, mask, counter, all_active)


def _plan(instr: Instruction, roles: tuple[str, ...], fields: dict[str, int],
          mask: tuple[int, int], counter: bool, per_repeat: bool = True) -> tuple:
    """(R, N, active row, last, all active, per operand (role, the address it takes, kind,
    size, blk, rep, write, count, nibble)) of a decoding: all of it but the addresses."""
    fam, t, src = instr.defn.family, instr.dtype, instr.src_dtype
    n = fam.repeat_elements(t, src)
    repeat = 1 if fam.one_repeat else fields.get("repeat", 1)
    if fam.counter_per_repeat and counter and per_repeat:  # `repeat` repeats of MASK_LO each
        n = mask[1] & 0xFFFFFFFF
        r, row, last = (repeat if n else 0), _full_row(n), n
    elif fam.mask_ignored and not (fam.counter_per_repeat and counter):
        r, row, last = repeat, _full_row(n), n
    else:
        r, row, last = repeat_plan(n, repeat, mask, counter)
    if fam.one_repeat:
        r = min(r, 1)
        if counter:
            last = min(mask[1] & 0xFFFFFFFF, n)
    if fam.bit_output:
        row, last = _full_row(n), n
    accesses = []
    for op in fam.operands(roles, fields, t):
        source = op.source if op.source is not None else op.role
        if op.kind == "bits":
            accesses.append((op.role, source, "bits", 1, 1, 8, op.write, n // 8, False))
        elif op.kind == "packed":
            size = fam.operand_type(op.role, t, src).size
            accesses.append((op.role, source, "packed", size, 1, fields.get(f"{op.role}_rep", 1),
                             op.write, op.count, False))
        elif op.kind == "bitrows":  # n bits a repeat, rows src1_rep blocks apart
            accesses.append((op.role, source, "bitrows", 1, 1, fields.get(f"{op.role}_rep", 1),
                             op.write, -(-n // 8), False))
        elif op.kind == "addrlist":  # 16 u64 addresses, the same every repeat
            accesses.append((op.role, source, "bitrows", 1, 1, 0, op.write, 128, False))
        elif op.kind == "indexed":  # its offsets are data, attached at issue
            size = fam.operand_type(op.role, t, src).size
            accesses.append((op.role, source, "indexed", size, 1, 0, op.write, n, False))
        elif op.kind == "compact":  # its count is the kept elements, known at issue
            size = fam.operand_type(op.role, t, src).size
            accesses.append((op.role, source, "compact", size, 1, 0, op.write, n, False))
        else:
            ot = fam.operand_type(op.role, t, src)
            size = ot.size
            # strides are the source operand's (an accumulator reads dst with dst's strides)
            accesses.append((op.role, source, "vector", size, fam.block_stride(source, fields),
                             fam.repeat_stride(source, fields, n), op.write,
                             n if n * ot.bits != 8 * REPEAT else 0, ot.nibble))
    all_active = bool(row.all()) and last == n
    return r, n, row, last, all_active, tuple(accesses)


@attrs.frozen
class DmaOp:
    """A DMA copy: nburst bursts of `burst` blocks; gaps skip blocks after each burst (§6.5).

    The padded copies (copy_gm_to_ub_pad / copy_ub_to_gm_pad) are byte-granular: `length`
    bytes of data a burst, burst starts `pitch` bytes apart on each side, and on a GM → UB copy
    `left` and `right` bytes of padding (`pad`, one element's bytes repeated) around the data in
    UB. `burst` is then the blocks a burst occupies, rounded up (what the timing counts).
    `fill` "dummy" bytes follow the right padding up to the next 32-byte boundary: the pad
    value repeated, or without one the burst's first element repeated (`esize` bytes)."""

    instr: Instruction
    dst_space: str | None  # GM tensor name, or None for UB
    dst: int  # byte address (UB) or byte offset (GM tensor)
    src_space: str | None
    src: int
    nburst: int
    burst: int
    src_gap: int
    dst_gap: int
    length: int = 0  # data bytes a burst (0: burst·32)
    src_pitch: int = 0  # bytes between burst starts (0: (burst + gap)·32)
    dst_pitch: int = 0
    left: int = 0  # padding bytes before / after the data (GM → UB)
    right: int = 0
    pad: bytes = b""
    fill: int = 0  # GM → UB padded copies: dummy bytes after each burst's right padding
    esize: int = 0  # the element size the dummy bytes repeat
    # GM → UB compact copies (PaddingMode::Compact): pad bytes after the last burst only, up to
    # the next 32-byte boundary (the bursts themselves are packed: dst pitch = length)
    tail: int = 0
    # UB → GM under set_atomic: (add / max / min, element type name), each element combined
    # with GM's; () a plain store
    atomic: tuple[str, str] = ()

    @property
    def blocks(self) -> int:
        return self.nburst * self.burst

    @property
    def data_bytes(self) -> int:
        return self.length or self.burst * 32

    def side(self, role: str) -> tuple[int, int, int]:
        """(base, pitch, bytes touched a burst) of the src or dst side."""
        if role == "src":
            return (self.src, self.src_pitch or (self.burst + self.src_gap) * 32,
                    self.data_bytes)
        return (self.dst, self.dst_pitch or (self.burst + self.dst_gap) * 32,
                self.left + self.data_bytes + self.right + self.fill)

    def space_of(self, role: str) -> str | None:
        return self.src_space if role == "src" else self.dst_space

    def burst_starts(self, role: str) -> np.ndarray:
        base, pitch, _ = self.side(role)
        return base + np.arange(self.nburst, dtype=np.int64) * pitch

    def indices(self, role: str, skip: int = 0, count: int | None = None) -> np.ndarray:
        """Byte addresses of one side, burst after burst (SKIP bytes into each burst, COUNT
        bytes of it: all of it by default)."""
        count = self.side(role)[2] - skip if count is None else count
        starts = self.burst_starts(role) + skip
        return (starts[:, None] + np.arange(count, dtype=np.int64)).reshape(-1)

    def extent(self, role: str) -> tuple[int, int]:
        """[first, last] byte of one side."""
        base, pitch, run = self.side(role)
        return base, base + (self.nburst - 1) * pitch + run - 1 + (self.tail if role == "dst"
                                                                   else 0)

    def touched(self, role: str) -> tuple[int, int]:
        """(skip, bytes) of each burst the side reads or writes: without a pad value the left
        padding of a GM → UB copy is skipped, not written (the data, then the first element
        repeated up to the block boundary, are)."""
        run = self.side(role)[2]
        if role == "dst" and not self.pad and self.left:
            return self.left, run - self.left
        return 0, run

    def runs(self, role: str) -> list[tuple[int, int]]:
        """(start, bytes) of each contiguous run one side touches."""
        base, pitch, _ = self.side(role)
        skip, run = self.touched(role)
        if self.nburst == 1 or pitch == run:
            return [(base + skip, run * self.nburst)]
        return [(int(a) + skip, run) for a in self.burst_starts(role)]

    def ub_ranges(self) -> list[Range]:
        """The UB bytes of each UB side (see VectorOp.ub_ranges)."""
        out: list[Range] = []
        for role, write in (("src", False), ("dst", True)):
            if self.space_of(role) is not None:
                continue
            base, pitch, _ = self.side(role)
            skip, run = self.touched(role)
            if self.nburst == 1 or pitch == run:
                tail = self.tail if write else 0
                out.append((role, base + skip, base + skip + self.nburst * run + tail, None,
                            write))
            else:
                idx = self.indices(role, skip, run)
                out.append((role, int(idx[0]), int(idx[-1]) + 1, idx, write))
        return out


@attrs.frozen
class CmpmaskMove:
    """set_cmpmask (UB → CMPMASK) or get_cmpmask (CMPMASK → UB) of SIZE bytes at ADDR."""

    instr: Instruction
    addr: int
    size: int
    to_ub: bool

    def ub_ranges(self) -> list[Range]:
        role = "dst" if self.to_ub else "src"
        return [(role, self.addr, self.addr + self.size, None, self.to_ub)]


@attrs.frozen(eq=False)
class ScalarAccess:
    """A scalar-unit load (`ld`) or store (`st`) of SIZE bytes at UB address ADDR
    (docs/semantics.md §7.1): an access by S, seen by the init and race checks."""

    instr: Instruction
    addr: int
    size: int
    write: bool
    gm: str | None = None  # a GM tensor's name (ADDR its byte offset); None: UB

    def ub_ranges(self) -> list[Range]:
        if self.gm is not None:
            return []
        return [("elem", self.addr, self.addr + self.size, None, self.write)]


# -- #27/#29 (h27dq): CastDequant's b8 destination and its parameter table ----------------------
def half_block_offsets(repeats: int, blk: int, rep: int, high: bool) -> np.ndarray:
    """(R, 128) byte offsets of vconv_(v)deqs162b8's results: element k of repeat i lands in
    destination block k // 16 (blk blocks apart, repeats rep blocks apart), byte k % 16 of its
    high half (bytes 16..31) or low half (0..15)."""
    k = np.arange(128, dtype=np.int64)
    row = (k // 16) * blk * BLOCK + (BLOCK // 2 if high else 0) + k % 16
    return np.arange(repeats, dtype=np.int64)[:, None] * rep * BLOCK + row


def half_block_access(dst: Access, repeats: int, blk: int, rep: int, high: bool) -> Access:
    """DST as the indexed operand of those offsets (the other half of each block untouched)."""
    laid = Access(dst.role, dst.base, "indexed", dst.size, write=dst.write, space=dst.space,
                  count=128)
    return laid.indexed(half_block_offsets(repeats, blk, rep, high))


def row_access(role: str, addr: int, nbytes: int) -> Access:
    """NBYTES at ADDR that every repeat reads whole (vconv_vdeqs162b8's parameter table)."""
    return Access(role, addr, "bitrows", 1, 1, 0, count=nbytes)
