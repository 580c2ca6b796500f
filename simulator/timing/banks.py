"""UB bank models (TIMING.md §3): beats(i) of every repeat of a VectorOp, as one numpy array.

Each operand becomes an (R, 8, 2) array of 32-byte row addresses with a validity mask: a vector
operand has its block-j row in column [j, 0]; a bit operand (vsel mode 1/2 select mask, vcmpv /
vcmpvs destination) has its one or two rows in [0, 0] and [0, 1] (paired with j = 0). Rows an
operand touches twice in a repeat (block stride 0) and blocks with no active element are not
valid. Everything below is whole-array numpy: no loop over repeats or elements.
"""

from __future__ import annotations

import numpy as np

from isa.decode import Access, VectorOp

J = np.arange(8, dtype=np.int64)


def block_activity(vop: VectorOp) -> np.ndarray:
    """(R, 8) bool: blocks of a vector operand holding at least one active element."""
    r, n = vop.repeats, vop.n
    if vop.all_active:
        return np.ones((r, 8), bool)
    full = vop.row.reshape(8, n // 8).any(axis=1)
    act = np.broadcast_to(full, (r, 8)).copy()
    if vop.last < n and r:
        act[-1] = vop.active[-1].reshape(8, n // 8).any(axis=1)
    return act


def operand_rows(vop: VectorOp, acc: Access, act: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(rows, valid), both (R, 8, 2): the rows one operand touches in each repeat."""
    r = vop.repeats
    rows = np.zeros((r, 8, 2), np.int64)
    valid = np.zeros((r, 8, 2), bool)
    if acc.kind == "bits":
        nb = vop.bit_bytes(acc)
        start = acc.base + np.arange(r, dtype=np.int64) * nb
        rows[:, 0, 0] = start & ~31
        rows[:, 0, 1] = (start + nb - 1) & ~31
        valid[:, 0, 0] = True
        valid[:, 0, 1] = rows[:, 0, 1] != rows[:, 0, 0]
        return rows, valid
    rep = np.arange(r, dtype=np.int64)[:, None] * (acc.rep * 32)
    rows[:, :, 0] = (acc.base & ~31) + rep + J[None, :] * (acc.blk * 32)
    valid[:, :, 0] = act if acc.blk else act & (J == 0)[None, :]
    return rows, valid


def _pairs(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Broadcast two (R, 8, 2) arrays to compare every column of a with every column of b at
    the same block index j."""
    return a[:, :, :, None], b[:, :, None, :]


class Bank910B:
    """ascend910b: 16 groups; a row's bank is 16·(a // bank_bytes) + group."""

    def __init__(self, bank: dict):
        self.groups = bank["groups"]
        self.bank_bytes = bank["bank_bytes"]
        self.conflict = bank["conflict_beats"]

    def beats(self, vop: VectorOp, slope: int) -> np.ndarray:
        intra, cross = self.terms(vop)
        return np.maximum(np.maximum(intra, cross), slope)

    def terms(self, vop: VectorOp) -> tuple[np.ndarray, np.ndarray]:
        """intra(i) and cross(i) of TIMING.md §3, each (R,) int."""
        r = vop.repeats
        act = block_activity(vop)
        ops = [(acc, *operand_rows(vop, acc, act)) for acc in vop.operands]
        g = self.groups
        intra = np.zeros(r, np.int64)
        for _, rows, valid in ops:
            grp = ((rows >> 5) % g).reshape(r, 16)
            v = valid.reshape(r, 16)
            same = (grp[:, :, None] == grp[:, None, :]) & v[:, :, None] & v[:, None, :]
            intra = np.maximum(intra, same.sum(axis=2).max(axis=1))
        conflict = np.zeros(r, bool)
        reads = [o for o in ops if not o[0].write]
        writes = [o for o in ops if o[0].write]
        for k, (_, ra, va) in enumerate(reads):
            for _, rb, vb in reads[k + 1:]:  # two different rows read at j in one group
                (xa, xb), (ma, mb) = _pairs(ra, rb), _pairs(va, vb)
                hit = ma & mb & (xa != xb) & ((xa >> 5) % g == (xb >> 5) % g)
                conflict |= hit.any(axis=(1, 2, 3))
            for _, rw, vw in writes:  # a row read and the row written at j in one bank
                (xa, xw), (ma, mw) = _pairs(ra, rw), _pairs(va, vw)
                hit = ma & mw & (self._bank(xa) == self._bank(xw))
                conflict |= hit.any(axis=(1, 2, 3))
        return np.maximum(intra, 1), np.where(conflict, self.conflict, 1)

    def _bank(self, rows: np.ndarray) -> np.ndarray:
        return (rows // self.bank_bytes) * self.groups + (rows >> 5) % self.groups


class Bank950:
    """ascend950: 8 groups; a group serves `reads_per_beat` reads, or 1 read + 1 write, a beat."""

    def __init__(self, bank: dict):
        self.groups = bank["groups"]
        self.ports = bank["reads_per_beat"]

    def beats(self, vop: VectorOp, slope: int) -> np.ndarray:
        r = vop.repeats
        act = block_activity(vop)
        ops = [(acc, *operand_rows(vop, acc, act)) for acc in vop.operands]
        reads = self._per_group([o for o in ops if not o[0].write], r)
        writes = self._per_group([o for o in ops if o[0].write], r)
        p = self.ports
        per_group = np.maximum(np.maximum(-(-reads // p), writes), -(-(reads + writes) // p))
        return np.maximum(per_group.max(axis=1, initial=0), slope)

    def _per_group(self, ops: list, r: int) -> np.ndarray:
        """(R, groups): distinct rows the operands touch in each group (shared rows once)."""
        if not ops:
            return np.zeros((r, self.groups), np.int64)
        rows = np.concatenate([o[1].reshape(r, 16) for o in ops], axis=1)
        valid = np.concatenate([o[2].reshape(r, 16) for o in ops], axis=1)
        k = rows.shape[1]
        keyed = np.sort(np.where(valid, rows, -1 - np.arange(k, dtype=np.int64)), axis=1)
        first = keyed >= 0
        first[:, 1:] &= keyed[:, 1:] != keyed[:, :-1]
        grp = (keyed >> 5) % self.groups
        onehot = (grp[:, :, None] == np.arange(self.groups)) & first[:, :, None]
        return onehot.sum(axis=1)


class NoBanks:
    """Chips without a bank model: intra = cross = 1, beats = max(slope, 1)."""

    def __init__(self, bank: dict):
        pass

    def beats(self, vop: VectorOp, slope: int) -> np.ndarray:
        return np.full(vop.repeats, max(slope, 1), np.int64)


MODELS = {"910b": Bank910B, "950": Bank950, "none": NoBanks}


def bank_model(bank: dict):
    return MODELS[bank["model"]](bank)
