"""The shared repeat/stride/mask helper every vector semantic uses: gather the elements of
repeats [lo, hi) of an operand, and scatter results to the active ones (later repeat wins)."""

from __future__ import annotations

import numpy as np

from isa.decode import Access, VectorOp
from simulator.machine import RAW, Machine


def _contiguous(acc: Access) -> bool:
    return acc.contiguous and acc.base % acc.size == 0


def _byte_gather(m: Machine, vop: VectorOp, acc: Access, lo: int, hi: int) -> np.ndarray:
    """Unaligned elements (only with --checks off): gather byte by byte."""
    addrs = acc.addresses(vop.repeats)[lo:hi]
    idx = np.clip(addrs[..., None] + np.arange(acc.size), 0, m.ub.size - 1)
    return np.ascontiguousarray(m.ub[idx]).view(RAW[acc.size])[..., 0]


def _strided(m: Machine, vop: VectorOp, acc: Access, lo: int, hi: int) -> np.ndarray | None:
    """A zero-copy (hi-lo, blocks, B) view of repeats [lo, hi), or None if its blocks leave
    UB."""
    first, end = acc.block_span(lo, hi)
    if first < 0 or end > m.ub.size:
        return None
    return acc.block_view(m.ub, RAW[acc.size], lo, hi)


def load(m: Machine, vop: VectorOp, acc: Access, lo: int, hi: int) -> np.ndarray:
    """(hi-lo, n) raw element bits of repeats [lo, hi) (inactive elements included; n the
    operand's elements a repeat)."""
    size, n = acc.size, acc.per_repeat
    if acc.nibble:
        return _load_nibbles(m, vop, acc, lo, hi)
    if acc.base % size:
        return _byte_gather(m, vop, acc, lo, hi)
    view = m.views[size]
    start = acc.base // size
    if _contiguous(acc):
        a, b = start + lo * n, start + hi * n
        if b <= view.size:
            return view[a:b].reshape(hi - lo, n)
    strided = _strided(m, vop, acc, lo, hi)
    if strided is not None and strided.size == (hi - lo) * n:  # whole blocks a repeat
        return strided.reshape(hi - lo, n)
    idx = start + acc.index_offsets(vop.repeats)[lo:hi]
    return view.take(idx, mode="clip")  # inactive elements may lie outside UB


def store(m: Machine, vop: VectorOp, acc: Access, values: np.ndarray, lo: int, hi: int) -> None:
    """Write values (hi-lo, n) to the active elements of repeats [lo, hi) (n the operand's
    elements a repeat; a packed operand's are all written)."""
    if acc.nibble:
        _store_nibbles(m, vop, acc, values, lo, hi)
        return
    size, n = acc.size, acc.per_repeat
    view = m.views[size]
    values = values.view(RAW[size]) if values.dtype.itemsize == size else values
    full = vop.all_active or (bool(vop.row.all()) and hi < vop.repeats) or acc.kind != "vector"
    if acc.base % size:
        _byte_store(m, vop, acc, values, lo, hi)
        return
    start = acc.base // size
    if full and _contiguous(acc):
        view[start + lo * n:start + hi * n] = values.reshape(-1)
        return
    dup = hi - lo > 1 and acc.has_duplicates(vop.repeats)
    strided = None if dup else _strided(m, vop, acc, lo, hi)
    if strided is not None:  # no two elements share an address: write through the view
        shape = strided.shape
        if full:
            strided[...] = np.broadcast_to(values, (hi - lo, n)).reshape(shape)
        else:
            np.copyto(strided, np.broadcast_to(values, (hi - lo, n)).reshape(shape),
                      where=vop.active[lo:hi].reshape(shape))
        return
    if dup:  # the later repeat wins: the surviving writes, worked out once per decoding
        idx, keep = vop.derived(("scatter", acc.role, lo, hi), lambda v: _last_writes(v, acc,
                                                                                       lo, hi))
        view[idx] = np.broadcast_to(values, (hi - lo, n)).reshape(-1)[keep]
        return
    idx = start + acc.index_offsets(vop.repeats)[lo:hi]
    values = np.broadcast_to(values, idx.shape)
    if not full:
        act = vop.active[lo:hi]
        idx, values = idx[act], values[act]
    else:
        idx, values = idx.reshape(-1), values.reshape(-1)
    view[idx] = values


def _nibble_bytes(vop: VectorOp, acc: Access, lo: int, hi: int) -> np.ndarray:
    """(hi-lo, bytes a repeat) UB byte addresses of an s4 operand's repeats [lo, hi)."""
    return acc.base + acc.index_offsets(vop.repeats)[lo:hi]


def _load_nibbles(m: Machine, vop: VectorOp, acc: Access, lo: int, hi: int) -> np.ndarray:
    """s4 elements as raw 4-bit values (uint8 0..15): element 2j the low half of its byte."""
    b = m.ub.take(_nibble_bytes(vop, acc, lo, hi), mode="clip")
    return np.stack([b & 0xF, b >> 4], axis=-1).reshape(hi - lo, -1)[:, :acc.per_repeat]


def _store_nibbles(m: Machine, vop: VectorOp, acc: Access, values: np.ndarray, lo: int,
                   hi: int) -> None:
    """Write the low 4 bits of VALUES (hi-lo, n) to the active s4 elements of repeats [lo, hi):
    a byte whose two elements are not both active keeps its other half (read-modify-write);
    repeats in order, so the later one wins where two share a byte."""
    n, grid = acc.per_repeat, acc.grid
    idx = _nibble_bytes(vop, acc, lo, hi)
    vals = np.zeros((hi - lo, 2 * grid), np.uint8)
    vals[:, :n] = np.broadcast_to(values, (hi - lo, n)).astype(np.uint8) & 0xF
    act = np.zeros((hi - lo, 2 * grid), bool)
    act[:, :n] = vop.active[lo:hi]
    vals, act = vals.reshape(hi - lo, grid, 2), act.reshape(hi - lo, grid, 2)
    dup = acc.has_duplicates(vop.repeats)
    if not dup and act.all():  # whole bytes: no old half to keep
        m.ub[idx] = vals[..., 0] | (vals[..., 1] << 4)
        return
    rows = [slice(None)] if not dup else \
        [slice(i, i + 1) for i in range(hi - lo)]
    for r in rows:
        old = m.ub[idx[r]]
        low = np.where(act[r][..., 0], vals[r][..., 0], old & 0xF)
        high = np.where(act[r][..., 1], vals[r][..., 1] << 4, old & 0xF0)
        m.ub[idx[r]] = low | high


def _last_writes(vop: VectorOp, acc: Access, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    """(element indices, positions in the flat (hi-lo)·N values) of the writes that survive when
    repeats [lo, hi) write overlapping elements: each address's last write."""
    idx = (acc.base // acc.size + acc.index_offsets(vop.repeats)[lo:hi]).reshape(-1)
    pos = np.arange(idx.size)
    full = vop.all_active or (bool(vop.row.all()) and hi < vop.repeats)
    if not full:
        act = vop.active[lo:hi].reshape(-1)
        idx, pos = idx[act], pos[act]
    _, first = np.unique(idx[::-1], return_index=True)
    last = idx.size - 1 - first
    out = (idx[last], pos[last])
    for a in out:
        a.setflags(write=False)
    return out


def _byte_store(m: Machine, vop: VectorOp, acc: Access, values, lo: int, hi: int) -> None:
    addrs = acc.addresses(vop.repeats)[lo:hi]
    act = np.ones(addrs.shape, bool) if vop.touches_all(acc) else vop.active[lo:hi]
    raw = np.ascontiguousarray(np.broadcast_to(values, addrs.shape)[act])
    raw = raw.view(np.uint8).reshape(-1, acc.size)
    for a, v in zip(addrs[act], raw, strict=True):  # only reachable with --checks off
        m.ub[a:a + acc.size] = v


def numeric(raw: np.ndarray, vop: VectorOp) -> np.ndarray:
    """Raw bits → values arithmetic and compares use (bf16 as ml_dtypes.bfloat16)."""
    return raw.view(vop.t.numeric) if vop.t.kind != "complex" else raw
