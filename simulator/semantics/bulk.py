"""All repeats of a vector instruction at once, planned once per decoding (the bulk access path).

A vector operand is made of whole 32-byte blocks: block j of repeat i lies at
base + (i·rep + j·blk)·32. When every element is active and every operand is 32-byte aligned,
a `BulkPlan` says, once per decoding and machine, how the body reads and writes all repeats:

- a contiguous source is a zero-copy (R, blocks, B) view of UB; one whose blocks are
  consecutive within a repeat (any repeat stride, 0 and overlapping repeats included) is one
  copy out of such a view; any other (block stride 0 or above 1) is one gather of 32-byte
  blocks by a precomputed index;
- a destination whose positions are all distinct is a view the body computes into (`out=`);
  one whose repeats overlap keeps only each block's last writer (the later repeat wins), and
  the body computes just those surviving blocks, gathered from the sources by precomputed
  indices, and scatters them.

Anything else (masks, counter mode's short last repeat, unaligned operands, repeat by repeat)
takes the element paths of semantics/common.py.
"""

from __future__ import annotations

import numpy as np

from isa.addressing import BLOCK
from isa.decode import Access, VectorOp
from simulator.machine import RAW, Machine

V32 = np.dtype("V32")  # one UB block as one element: gathers and scatters move whole blocks
MASKS_PER_PLAN = 16  # per-element masks a plan keeps (by the state they come from)


class BulkPlan:
    """How one decoding's body reads and writes all its repeats (see the module docstring)."""

    __slots__ = ("blocks", "raw", "sources", "out", "dst_blocks", "positions", "shape", "nb",
                 "in_repeat", "masks")

    def __init__(self, m: Machine, vop: VectorOp, dst: Access, sources: tuple[Access, ...]):
        self.blocks = m.ub.view(V32)
        self.raw = RAW[dst.size]
        r, nb, pb = vop.repeats, dst.blocks, BLOCK // dst.size
        self.nb = nb
        self.out = self.dst_blocks = self.positions = None
        if dst.has_duplicates(r):
            where = dst.block_indices(r).reshape(-1)
            _, first = np.unique(where[::-1], return_index=True)
            keep = np.sort(where.size - 1 - first)  # each block's last write, in order
            self.positions, self.in_repeat = keep, keep % nb
            self.dst_blocks = _as_slice(where[keep])
            self.shape = (keep.size, pb)
        else:
            self.out = _view(m, dst, r)
            self.shape = (r, nb, pb)
        self.sources = {acc.role: self._source(m, acc, r) for acc in sources}
        self.masks: dict = {}  # a body's per-element masks by the state they come from

    def _source(self, m: Machine, acc: Access, r: int) -> tuple[str, np.ndarray]:
        if self.positions is None:
            return source_reading(m, acc, r)
        return "take", acc.block_indices(r).reshape(-1)[self.positions]

    def load(self, role: str) -> np.ndarray:
        """The raw elements of source ROLE at the plan's positions, in the plan's shape."""
        how, data = self.sources[role]
        return read_source(self.blocks, how, data, self.raw, self.shape)

    def per_element(self, values: np.ndarray) -> np.ndarray:
        """A (1 or R, N) per-element array (the select mask) in the plan's full shape
        (broadcasting a row costs more than reading a full array)."""
        if self.positions is None:
            return np.ascontiguousarray(np.broadcast_to(
                values.reshape(values.shape[0], *self.shape[1:]), self.shape))
        rows = np.ascontiguousarray(values).reshape(-1).view(V32)  # one element a block
        return rows.take(self.in_repeat if values.shape[0] == 1 else self.positions) \
            .view(values.dtype).reshape(self.shape)

    def store(self, values: np.ndarray) -> None:
        """Scatter the computed surviving blocks (when the destination's repeats overlap)."""
        values = np.ascontiguousarray(values).reshape(-1).view(V32)
        if isinstance(self.dst_blocks, slice):
            self.blocks[self.dst_blocks] = values
        else:
            self.blocks.put(self.dst_blocks, values)


def source_reading(m: Machine, acc: Access, r: int) -> tuple[str, np.ndarray]:
    """How to read all R repeats of a 32-byte aligned source on M: ("view", its (R, nb, B)
    view) when it is contiguous; ("copy", view) when its repeats share blocks (one fast copy
    beats every pass reading a strided view); else ("take", the block indices to gather)."""
    if acc.blk == 1:
        return ("view" if acc.contiguous else "copy"), _view(m, acc, r)
    return "take", acc.block_indices(r).reshape(-1)


def read_source(blocks: np.ndarray, how: str, data: np.ndarray, raw, shape) -> np.ndarray:
    """The raw elements a `source_reading` says how to read (BLOCKS: UB as 32-byte blocks;
    a gather comes back in SHAPE)."""
    if how == "view":
        return data
    if how == "copy":
        return np.ascontiguousarray(data)
    return blocks.take(data).view(raw).reshape(shape)


def _as_slice(where: np.ndarray) -> slice | np.ndarray:
    """Sorted distinct block indices as a slice when they are consecutive."""
    if where.size and bool((np.diff(where) == 1).all()):
        return slice(int(where[0]), int(where[-1]) + 1)
    return where


def _view(m: Machine, acc: Access, r: int) -> np.ndarray:
    return acc.block_view(m.ub, RAW[acc.size], 0, r)


def plan_of(m: Machine, vop: VectorOp, sources: tuple[str, ...]) -> BulkPlan | None:
    """The decoding's bulk plan on machine M for its destination and SOURCES, or None when
    the element paths must run."""
    key = ("bulk", m, sources)
    plan = vop.memo.get(key)
    if plan is None:
        dst = next((a for a in vop.operands if a.write), None)
        accs = tuple(vop.access(role) for role in sources)
        plan = vop.memo[key] = BulkPlan(m, vop, dst, accs) if has_plan(vop, sources) else False
    return plan or None


def has_plan(vop: VectorOp, sources: tuple[str, ...]) -> bool:
    """Whether the decoding's destination and SOURCES can take the bulk path: every element
    active, whole aligned blocks of one element size."""
    dst = next((a for a in vop.operands if a.write), None)
    accs = tuple(vop.access(role) for role in sources)
    return dst is not None and None not in accs and vop.all_active and vop.repeats > 0 and \
        all(a.kind == "vector" and a.base % BLOCK == 0 and a.size == dst.size
            and a.repeat_bytes == dst.repeat_bytes for a in (dst, *accs))


def blend(mask: np.ndarray, a: np.ndarray, b, out: np.ndarray | None = None) -> np.ndarray:
    """Raw bits: A where MASK is all ones, B where it is zero (MASK holds nothing else). Three
    branch-free passes; writing into OUT reads every input first (numpy's overlap rule)."""
    t = np.bitwise_xor(a, b)
    t &= mask
    return np.bitwise_xor(t, b, out=out)
