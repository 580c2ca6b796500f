"""UB bank models (docs/timing.md §T3): beats(i) of every repeat of a VectorOp, as one numpy array.

The rows an instruction touches are laid out as columns of an (R, M) array: one per block j of
a vector operand's repeat (eight; fewer on vconv's narrower side) and two per bit operand (the
vsel mode 1/2 select mask, a vcmpv/vcmpvs destination: the one or two rows of its bytes,
paired with j = 0). A column is *valid* in a repeat when the operand touches that row there for
the first time (block stride 0 reads one row; blocks without active elements touch nothing).
The operands' `Access` records say where each row lies. Everything that depends only on the
instruction's shape — strides, repeats, active blocks — is a `Shape`, built once and cached;
per instruction only whole-array numpy runs, never a loop over repeats or elements.
"""

from __future__ import annotations

from functools import cache

import attrs
import numpy as np

from isa.decode import VectorOp

SHAPE_CACHE_LIMIT = 4096
_APART = -(1 << 62)  # (`layout_groups`: two operands' rows too far apart to meet)


def block_activity(vop: VectorOp, blocks: int) -> np.ndarray:
    """(R, BLOCKS) bool: which blocks of a vector operand of BLOCKS blocks a repeat hold at
    least one active element (block j holds the j-th BLOCKS-th of a repeat's elements)."""
    r, n = vop.repeats, vop.n
    if vop.all_active:
        return np.ones((r, blocks), bool)
    full = vop.row.reshape(blocks, -1).any(axis=1)
    act = np.broadcast_to(full, (r, blocks)).copy()
    if vop.last < n and r:
        act[-1] = vop.active[-1].reshape(blocks, -1).any(axis=1)
    return act


@attrs.frozen(eq=False)
class Shape:
    """Columns of every operand's rows relative to that operand's own first row."""

    rel: np.ndarray  # (R, M) byte offsets of each column from its operand's base row
    col_op: np.ndarray  # (M,) operand index of each column
    valid: np.ndarray  # (R, M) bool
    cols: tuple[tuple[int, int, bool], ...]  # per column: (operand, j, written)

    def pairs(self, reads_only: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Column pairs (p, q) at the same j: two reads of different operands (reads_only),
        or a read and a write; with their validity (R, P)."""
        ps, qs = [], []
        for p, (op_p, j_p, w_p) in enumerate(self.cols):
            for q, (op_q, j_q, w_q) in enumerate(self.cols):
                if j_p != j_q or op_p == op_q or w_p:
                    continue
                if (reads_only and not w_q and op_p < op_q) or (not reads_only and w_q):
                    ps.append(p)
                    qs.append(q)
        p, q = np.array(ps, np.int64), np.array(qs, np.int64)
        return p, q, self.valid[:, p] & self.valid[:, q]


def build_shape(vop: VectorOp) -> Shape:
    r = vop.repeats
    rels, valids, col_op, cols = [], [], [], []
    for k, acc in enumerate(vop.operands):
        if acc.kind != "vector":  # packed: the rows of its first and last byte a repeat
            ends = (acc.base & 31) + acc.offsets(r)[:, [0, -1]] + [0, acc.size - 1]
            rel = ends & ~31
            valid = np.ones((r, 2), bool)
            valid[:, 1] = rel[:, 1] != rel[:, 0]
            js = (0, 0)
        else:
            rel = acc.block_offsets(r)
            own = block_activity(vop, acc.blocks)
            valid = own if acc.blk else own & (np.arange(acc.blocks) == 0)  # one row a repeat
            js = tuple(range(acc.blocks))
        rels.append(rel)
        valids.append(valid)
        col_op += [k] * len(js)
        cols += [(k, j, acc.write) for j in js]
    return Shape(np.concatenate(rels, axis=1), np.array(col_op, np.int64),
                 np.concatenate(valids, axis=1), tuple(cols))


def shape_key(vop: VectorOp) -> tuple:
    """What `build_shape` depends on: of MASK only which blocks a repeat has active (many
    MASK values share one pattern: a loop setting a new MASK each iteration prepares a few
    shapes, not one per value)."""
    return (vop.repeats, vop.n, None if vop.all_active else _activity_key(vop),
            tuple((a.kind, a.write, a.size, a.blk, a.rep, a.base & 31 if a.kind != "vector"
                   else 0, a.index_key) for a in vop.operands))


def _activity_key(vop: VectorOp) -> tuple:
    """`block_activity` of each block count the operands have, without its (R, blocks)
    array: every repeat's but the last is the full row's."""
    key = []
    for blocks in sorted({a.blocks for a in vop.operands if a.kind == "vector"}):
        full = vop.row.reshape(blocks, -1).any(axis=1)
        last = vop.active[-1].reshape(blocks, -1).any(axis=1) \
            if vop.last < vop.n and vop.repeats else None
        key.append((blocks, full.tobytes(), None if last is None else last.tobytes()))
    return tuple(key)


def relative_layout(vop: VectorOp, region: int | None) -> tuple:
    """The operands' addresses relative to the first operand's row, with their strides: all
    the bank models depend on besides the instruction's kind (groups and rows shift together).
    With a `region` (910b: a bank is a group within a 64 KB region) the absolute first row is
    added unless every row lies in one region. Hot path: plain integer arithmetic."""
    ops = vop.operands
    r1 = vop.repeats - 1
    ref = ops[0].base & ~31
    parts = []
    lo = hi = ref
    for a in ops:
        b = a.base
        if a.kind != "vector":  # (its count and offsets may be data: gathers)
            top = a.extent(r1 + 1)[1]
            parts.append((b - ref, a.count, a.index_key))
        else:
            top = b + a.last_block(r1 + 1) + 31
            parts.append((b - ref, a.blk, a.rep))
        if b < lo:
            lo = b
        if top > hi:
            hi = top
    if region is not None and (lo & ~31) // region != hi // region:
        parts.append(ref)
    return tuple(parts)


def bank_layout(vop: VectorOp, period: int, region: int | None) -> tuple:
    """What a bank model's cost depends on in the operands' addresses, and nothing more, so
    that distinct lines laid out alike share one cost (docs/decisions.md, "the bank cost's
    layout key"). A row's group is its address modulo PERIOD (groups · 32 bytes), so each
    operand's first row enters modulo PERIOD; whether two operands ever touch the same row
    takes their exact distance, needed only while it is within their rows' spans (farther
    apart, no row of one is a row of the other); and with a REGION (910b: a bank is a group
    within a 64 KB region) which region each operand lies in, relative to the first, when no
    operand straddles two — else the exact `relative_layout`. Plain integer arithmetic."""
    ops = vop.operands
    ref = ops[0].base & ~31
    spans = _spans(vop)  # (first row, last row - first row) of each operand
    parts = []
    for a, (b, _) in zip(ops, spans, strict=True):
        if a.kind != "vector":  # its rows move with its byte offset in its first row
            parts.append((a.base & 31, (b - ref) % period, a.count, a.index_key))
        else:
            parts.append((a.blk, a.rep, (b - ref) % period))
    for k, (row_p, end_p) in enumerate(spans):
        for row_q, end_q in spans[k + 1:]:
            d = row_p - row_q  # row_p + x == row_q + y for some x <= end_p, y <= end_q
            parts.append(d if -end_p <= d <= end_q else None)
    if region is not None:
        regions = _regions(spans, region)
        if regions is None:  # an operand straddles two regions
            return ("exact", relative_layout(vop, region), ref)
        parts.append(regions)
    return tuple(parts)


def _regions(spans: list[tuple[int, int]], region: int, shift: int = 0) -> tuple | None:
    """The region each operand of SPANS (`_spans`), moved by SHIFT bytes, lies in, relative to
    the first's; None when one straddles two."""
    first = (spans[0][0] + shift) // region
    out = []
    for row, end in spans:
        at = (row + shift) // region
        if (row + shift + end) // region != at:
            return None
        out.append(at - first)
    return tuple(out)


@cache
def _pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The pairs p < q of N operands, as two index arrays."""
    return np.triu_indices(n, 1)


def _spans(vop: VectorOp) -> list[tuple[int, int]]:
    """(first row, last row - first row) of each operand."""
    r = vop.repeats
    out = []
    for a in vop.operands:
        b = a.base & ~31
        out.append((b, (a.extent(r)[1] - b) & ~31) if a.kind != "vector" else
                   (b, a.last_block(r)))
    return out


_PREPARED: dict[tuple, dict[tuple, tuple]] = {}  # bank parameters -> shape key -> prepared


class _Model:
    """Shared plumbing: the Shape cache and the absolute rows of an instruction."""

    region: int | None = None

    def __init__(self):
        # prepared shapes depend on the shape and the bank parameters alone: shared by every
        # model of the same parameters (each run has its own model)
        self._shapes = _PREPARED.setdefault((type(self), *self.parameters()), {})

    def parameters(self) -> tuple:
        """What `prepare` depends on besides the shape."""
        return ()

    groups = 1

    def layout_key(self, vop: VectorOp) -> tuple:
        return bank_layout(vop, self.groups * 32, self.region)

    def moved_key(self, vop: VectorOp, shifts: tuple[int, ...]) -> tuple | None:
        """What VOP with its operands moved by SHIFTS bytes (one an operand) adds to VOP's
        shape for its `layout_key` (and so its cost), or None when it must be worked out
        afresh (a distinct line of an unrolled kernel, costed by the line it was moved from):
        operands moved alike by whole rows keep every relative part of the key; with a
        REGION, each operand's region relative to the first's, when no operand straddles two."""
        shift = shifts[0]
        if shift % 32 or type(self).layout_key is not _Model.layout_key or \
                shifts.count(shift) != len(shifts):
            return None
        region = self.region
        if region is None:
            return ()
        return _regions(vop.derived("bank spans", _spans), region, shift)

    def layout_groups(self, vop: VectorOp, shifts: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray] | None:
        """Lines of VOP with its operands moved by each row of SHIFTS ((lines, operands)
        bytes, whole rows) grouped so that the lines of a group have one `layout_key` (and so
        one cost): (each line's group, a line of each group), or None when this model keys
        layouts otherwise. A line's group follows what `bank_layout` reads of the moved
        rows: each row's distance from the first's modulo the period, each pair's distance
        while their rows may meet, and with a region the regions relative to the first's, or
        (an operand straddling two) the rows themselves."""
        if type(self).layout_key is not _Model.layout_key:
            return None
        spans = vop.derived("bank spans", _spans)
        rows = np.array([row for row, _ in spans], np.int64) + shifts
        ends = [end for _, end in spans]
        cols = [(rows - rows[:, :1]) % (self.groups * 32)]
        if len(spans) > 1:  # every pair p < q at once
            p, q = _pairs(len(spans))
            end = np.array(ends, np.int64)
            d = rows[:, p] - rows[:, q]
            cols.append(np.where((-end[p] <= d) & (d <= end[q]), d, _APART))
        if self.region is not None:
            at = rows // self.region
            straddles = ((rows + np.array(ends, np.int64)) // self.region != at).any(axis=1)
            cols += [at - at[:, :1], np.where(straddles[:, None], rows, -1)]
        index: dict[tuple, int] = {}  # a line's key -> its group (few: no sort of the rows)
        group = [index.setdefault(key, len(index)) for key in map(tuple,
                                                                  np.hstack(cols).tolist())]
        first = [0] * len(index)
        for j in range(len(group) - 1, -1, -1):
            first[group[j]] = j
        return np.array(group, np.int64), np.array(first, np.int64)

    def shape(self, vop: VectorOp) -> tuple:
        key = shape_key(vop)
        hit = self._shapes.get(key)
        if hit is None:
            if len(self._shapes) >= SHAPE_CACHE_LIMIT:
                self._shapes.clear()
            hit = self._shapes[key] = self.prepare(build_shape(vop))
        return hit

    def prepare(self, shape: Shape) -> tuple:
        return (shape,)

    @staticmethod
    def rows(vop: VectorOp, shape: Shape) -> np.ndarray:
        """(R, M) absolute row addresses."""
        bases = np.array([a.base & ~31 for a in vop.operands], np.int64)
        return shape.rel + bases[shape.col_op]


class Bank910B(_Model):
    """ascend910b: 16 groups; a row's bank is 16·(a // bank_bytes) + group."""

    def __init__(self, bank: dict):
        self.groups = bank["groups"]
        self.region = bank["bank_bytes"]
        self.conflict = bank["conflict_beats"]
        super().__init__()

    def parameters(self) -> tuple:
        return (self.groups,)

    def prepare(self, shape: Shape) -> tuple:
        """intra(i) depends on the shape alone (an operand's rows shift together)."""
        grp = (shape.rel >> 5) % self.groups
        same = ((grp[:, :, None] == grp[:, None, :]) & shape.valid[:, :, None]
                & shape.valid[:, None, :] & (shape.col_op[:, None] == shape.col_op[None, :]))
        intra = np.maximum(same.sum(axis=2).max(axis=1), 1)
        return shape, intra, shape.pairs(True), shape.pairs(False)

    def beats(self, vop: VectorOp, slope: int) -> np.ndarray:
        intra, cross = self.terms(vop)
        return np.maximum(np.maximum(intra, cross), slope)

    def terms(self, vop: VectorOp) -> tuple[np.ndarray, np.ndarray]:
        """intra(i) and cross(i) of docs/timing.md §T3, each (R,) int."""
        shape, intra, (p, q, v), (pw, qw, vw) = self.shape(vop)
        rows = self.rows(vop, shape)
        grp = (rows >> 5) % self.groups
        conflict = np.zeros(vop.repeats, bool)
        if len(p):  # two different rows read at j in one group
            hit = v & (grp[:, p] == grp[:, q]) & (rows[:, p] != rows[:, q])
            conflict |= hit.any(axis=1)
        if len(pw):  # a row read and the row written at j in one bank
            bank = (rows // self.region) * self.groups + grp
            conflict |= (vw & (bank[:, pw] == bank[:, qw])).any(axis=1)
        return intra, np.where(conflict, self.conflict, 1)


class Bank950(_Model):
    """ascend950: 8 groups; a group serves `reads_per_beat` reads, or 1 read + 1 write, a beat.
    beats_g = max(ceil(R_g / 2), W_g, ceil((R_g + W_g) / 2)), shared rows counted once."""

    def __init__(self, bank: dict):
        super().__init__()
        self.groups = bank["groups"]
        self.ports = bank["reads_per_beat"]

    def prepare(self, shape: Shape) -> tuple:
        written = np.array([w for _, _, w in shape.cols], bool)
        return shape, ~written, written

    def beats(self, vop: VectorOp, slope: int) -> np.ndarray:
        shape, reads, writes = self.shape(vop)
        rows = self.rows(vop, shape)
        nr = self._per_group(rows[:, reads], shape.valid[:, reads])
        nw = self._per_group(rows[:, writes], shape.valid[:, writes])
        p = self.ports
        per_group = np.maximum(np.maximum(-(-nr // p), nw), -(-(nr + nw) // p))
        return np.maximum(per_group.max(axis=1), slope)

    def _per_group(self, rows: np.ndarray, valid: np.ndarray) -> np.ndarray:
        """(R, groups): distinct valid rows in each group."""
        k = rows.shape[1]
        keyed = np.sort(np.where(valid, rows, -1 - np.arange(k, dtype=np.int64)), axis=1)
        first = keyed >= 0
        first[:, 1:] &= keyed[:, 1:] != keyed[:, :-1]
        onehot = ((keyed[:, :, None] >> 5) % self.groups == np.arange(self.groups)) \
            & first[:, :, None]
        return onehot.sum(axis=1)


class NoBanks:
    """Chips without a bank model: intra = cross = 1, beats = max(slope, 1)."""

    def __init__(self, bank: dict):
        pass

    def layout_key(self, vop: VectorOp) -> tuple:
        return ()

    def moved_key(self, vop: VectorOp, shifts: tuple[int, ...]) -> tuple | None:
        return ()

    def layout_groups(self, vop: VectorOp, shifts: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray] | None:
        return np.zeros(len(shifts), np.int64), np.zeros(1, np.int64)  # one layout

    def beats(self, vop: VectorOp, slope: int) -> np.ndarray:
        return np.full(vop.repeats, max(slope, 1), np.int64)


MODELS = {"910b": Bank910B, "950": Bank950, "none": NoBanks}


def bank_model(bank: dict):
    return MODELS[bank["model"]](bank)
