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

from isa.addressing import element_offsets, mask_row
from isa.program import Instruction
from isa.types import DType

# Families whose destination is a contiguous bit stream and that ignore MASK.
BIT_OUTPUT = ("vcmpv", "vcmpvs")


@attrs.frozen
class Access:
    """One operand's address pattern.

    kind "vector": element k of repeat i at base + offsets(size, blk, rep)[i, k];
    kind "bits": repeat i covers bytes [base + i·stride, base + (i+1)·stride) (stride = N/8).
    """

    role: str
    base: int
    kind: str
    size: int
    blk: int = 1
    rep: int = 8
    write: bool = False
    space: str = "ub"

    def offsets(self, repeats: int) -> np.ndarray:
        return element_offsets(self.size, self.blk, self.rep, repeats)


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

    @property
    def family(self) -> str:
        return self.instr.defn.family

    def at(self, instr: Instruction) -> VectorOp:
        """The same decoding for another statement with identical text (a decode-cache hit)."""
        return VectorOp(instr, self.t, self.repeats, self.n, self.row, self.last, self.operands,
                        self.mask, self.counter, self.all_active)

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
        """(R, N) element byte addresses of a vector operand."""
        return acc.base + acc.offsets(self.repeats)

    def footprint(self, acc: Access) -> np.ndarray:
        """Sorted unique byte addresses the operand touches (its active elements' bytes)."""
        if acc.kind == "bits":
            return acc.base + np.arange(self.repeats * self.bit_bytes(acc), dtype=np.int64)
        addrs = self.byte_addrs(acc)
        if not (self.all_active or acc.role in self.full_roles):
            addrs = addrs[self.active]
        return np.unique((addrs.reshape(-1, 1) + np.arange(acc.size)).reshape(-1))

    def bit_bytes(self, acc: Access) -> int:
        return self.n // 8

    @property
    def full_roles(self) -> tuple[str, ...]:
        """Operands that read every element whatever MASK says (vcmpv/vcmpvs sources)."""
        return ("src0", "src1", "src") if self.family in BIT_OUTPUT else ()

    def uops(self) -> Iterator[MicroOp]:
        act = self.active
        for i in range(self.repeats):
            rows = {}
            for acc in self.operands:
                if acc.kind == "bits":
                    start = acc.base + i * self.bit_bytes(acc)
                    rows[acc.role] = sorted(set(range(start & ~31, start + self.n // 8, 32)))
                    continue
                a = self.byte_addrs(acc)[i]
                sel = a if acc.role in self.full_roles else a[act[i]]
                rows[acc.role] = sorted({int(x) & ~31 for x in sel})
            bits = int.from_bytes(np.packbits(act[i], bitorder="little").tobytes(), "little")
            yield MicroOp(i, bits, rows)


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


def decode_vector(instr: Instruction, addrs: dict[str, int], fields: dict[str, int],
                  mask: tuple[int, int], counter: bool) -> VectorOp:
    """Decode a repeat-driven vector instruction with its addresses and fields resolved."""
    defn, t = instr.defn, instr.dtype
    family = defn.family
    n = t.per_repeat
    repeat = fields.get("repeat", 1)
    if family == "vcmp":
        repeat = 1
    r, row, last = repeat_plan(n, repeat, mask, counter)
    if family == "vcmp":
        r = min(r, 1)
        if counter:
            last = min(mask[1] & 0xFFFFFFFF, n)
    if family in BIT_OUTPUT:
        row, last = _full_row(n), n
    ops = []
    for role in instr.operands:
        if role not in addrs:
            continue
        if family in BIT_OUTPUT and role == "dst":
            ops.append(Access("dst", addrs[role], "bits", 1, write=True))
        elif family == "vsel" and role == "src1" and fields.get("mode", 0) == 1:
            ops.append(Access("sel", addrs[role], "bits", 1))
        else:
            ops.append(Access(role, addrs[role], "vector", t.size, fields.get(f"{role}_blk", 1),
                              fields.get(f"{role}_rep", 8), role == "dst"))
    if family == "vsel" and fields.get("mode", 0) == 2 and "sel" in addrs:
        ops.append(Access("sel", addrs["sel"], "bits", 1))
    all_active = bool(row.all()) and last == n
    return VectorOp(instr, t, r, n, row, last, tuple(ops), mask, counter, all_active)


@attrs.frozen
class DmaOp:
    """A DMA copy: nburst bursts of `burst` blocks; gaps skip blocks after each burst (§6.5)."""

    instr: Instruction
    dst_space: str | None  # GM tensor name, or None for UB
    dst: int  # byte address (UB) or byte offset (GM tensor)
    src_space: str | None
    src: int
    nburst: int
    burst: int
    src_gap: int
    dst_gap: int

    @property
    def blocks(self) -> int:
        return self.nburst * self.burst

    def indices(self, base: int, gap: int) -> np.ndarray:
        """Byte addresses of one side, burst after burst."""
        starts = base + np.arange(self.nburst, dtype=np.int64) * (self.burst + gap) * 32
        return (starts[:, None] + np.arange(self.burst * 32, dtype=np.int64)).reshape(-1)

    def extent(self, base: int, gap: int) -> tuple[int, int]:
        return base, base + (self.nburst - 1) * (self.burst + gap) * 32 + self.burst * 32 - 1
