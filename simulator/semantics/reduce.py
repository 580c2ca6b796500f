"""The reductions (issue 28): vcmax/vcmin/vcadd (one result a repeat), vcgmax/vcgmin/vcgadd
(one a 32-byte block), vcpadd (one a pair). Orders as the vendor documents them
(docs/semantics.md "Reductions"): sums are binary trees — (x0+x1), (x2+x3), then pairs of those —
over a repeat or a block, with inactive elements as +0; max/min are exact: a NaN among the
active elements wins (the first one's bits), else the extreme value, ties to the smallest
index. Sums run in the type's IEEE arithmetic (the Inf/NaN mode, the A2/A3 default).

Every body writes its packed dst through `_write`: a result with no active element behind it
is left as it was (A2/A3), or is the operation's identity on a chip whose profile says
`masked_block_reduce = "identity"`."""

from __future__ import annotations

import numpy as np

from isa.decode import Access, VectorOp
from isa.families import REDUCE_ORDERS
from simulator.machine import RAW, Machine
from simulator.semantics.common import load, numeric

INDEX = {2: np.uint16, 4: np.uint32}  # an index's raw bits, in an element of the type
QUIET = {2: 0x0200, 4: 0x00400000}  # the quiet bit of an f16 / f32 NaN


def _add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a + b in the type, with vadd's NaN rule (docs/decisions.md): where both are NaN, a's NaN
    with its quiet bit set (numpy's own pick would depend on the array's length)."""
    with np.errstate(over="ignore", invalid="ignore"):
        res = a + b
    both = np.isnan(a) & np.isnan(b)
    if both.any():
        raw = RAW[a.dtype.itemsize]
        quiet = np.asarray(QUIET[a.dtype.itemsize], raw)
        res = np.where(both, (a.view(raw) | quiet).view(a.dtype), res)
    return res


def _tree_sum(x: np.ndarray) -> np.ndarray:
    """Sum the last axis (a power of two long) as a binary tree of neighbouring pairs:
    (x0+x1), (x2+x3), ..., then pairs of those."""
    while x.shape[-1] > 1:
        x = _add(x[..., 0::2], x[..., 1::2])
    return x[..., 0]


def _extreme(x: np.ndarray, act: np.ndarray, largest: bool) -> np.ndarray:
    """Index along the last axis of the largest (smallest) active element: the first active
    NaN if there is one, else the first of the equal extremes (0 where none is active)."""
    nan = np.isnan(x) & act
    ok = act & ~nan
    fill = -np.inf if largest else np.inf
    keyed = np.where(ok, x, fill)
    best = keyed.max(axis=-1, keepdims=True) if largest else keyed.min(axis=-1, keepdims=True)
    idx = np.argmax(ok & (keyed == best), axis=-1)
    return np.where(nan.any(axis=-1), np.argmax(nan, axis=-1), idx)


def _source(m: Machine, vop: VectorOp, lo: int, hi: int):
    """(raw bits, values, active) of src's repeats [lo, hi), each (hi-lo, N)."""
    raw = load(m, vop, vop.access("src"), lo, hi)
    return raw, numeric(raw, vop), vop.active[lo:hi]


def _write(m: Machine, vop: VectorOp, values: np.ndarray, written: np.ndarray, lo: int,
           hi: int) -> None:
    """Store VALUES (hi-lo, count) raw bits at dst's results of repeats [lo, hi) where WRITTEN;
    repeats in order (a dst_rep of 0 writes one place: the last repeat's result stays)."""
    acc: Access = vop.access("dst")
    size = acc.size
    addrs = acc.addresses(vop.repeats)[lo:hi]
    data = np.ascontiguousarray(values).view(np.uint8).reshape(*addrs.shape, size)
    lanes = np.arange(size, dtype=np.int64)
    if hi - lo > 1 and acc.has_duplicates(vop.repeats):
        for i in range(hi - lo):
            w = written[i]
            m.ub[addrs[i][w][:, None] + lanes] = data[i][w]
        return
    m.ub[addrs[written][:, None] + lanes] = data[written]


def _identity_chip(m: Machine) -> bool:
    return m.chip.masked_block_reduce == "identity"


# -- the registers a whole-repeat reduction leaves (GetReduceRepeatMaxMinSpr, …SumSpr) ----------
SPR_VALUE, SPR_INDEX, SPR_SUM = "reduce_max_min_value", "reduce_max_min_index", "reduce_sum"


def _spr_extreme(m: Machine, vop: VectorOp, raw: np.ndarray, x: np.ndarray, act: np.ndarray,
                 idx: np.ndarray, lo: int, largest: bool) -> None:
    """vcmax/vcmin's register pair: the extreme over every active element of its repeats (the
    first NaN, else the first of the extremes) and its position i·N + k, as one vcmax over the
    repeats back to back would find it; repeats [lo, hi) combine with the earlier ones'."""
    rows = np.flatnonzero(act.any(axis=1))  # repeats with an active element
    if not rows.size:
        return
    cols = idx[rows]
    best = x[rows, cols]
    nan = np.isnan(best)
    j = int(np.argmax(nan)) if nan.any() else \
        int(np.argmax(best) if largest else np.argmin(best))  # the first of equals
    i, k = int(rows[j]), int(cols[j])
    if lo > 0 and SPR_VALUE in m.special:  # the earlier repeats win ties and keep a NaN
        prev = np.array(m.special[SPR_VALUE], RAW[vop.t.size]).view(x.dtype)
        new = best[j]
        if np.isnan(prev) or not (nan[j] or (new > prev if largest else new < prev)):
            return
    m.special[SPR_VALUE] = int(raw[i, k])
    m.special[SPR_INDEX] = (lo + i) * vop.n + k


def _spr_sum(m: Machine, vop: VectorOp, total: np.ndarray, lo: int) -> None:
    """vcadd's register: its repeats' sums added one after another in the type (the order
    ReduceSum's first-n form documents on A2/A3), repeats [lo, hi) onto the earlier ones'."""
    sums = total
    if lo > 0 and SPR_SUM in m.special:
        prev = np.array([m.special[SPR_SUM]], RAW[vop.t.size]).view(total.dtype)
        sums = np.concatenate([prev, total])
    if sums.size == 1:
        result = sums[0]
    elif np.isnan(sums).any():  # vadd's NaN rule, one addition at a time
        acc = sums[:1]
        for v in sums[1:]:
            acc = _add(acc, np.array([v], sums.dtype))
        result = acc[0]
    elif float(np.abs(sums).max()) * sums.size < float(np.finfo(sums.dtype).max):
        result = np.add.accumulate(sums)[-1]  # finite, and no partial sum can overflow
    else:
        with np.errstate(over="ignore", invalid="ignore"):  # inf - inf is NaN, as vadd's
            result = np.add.accumulate(sums)[-1]
    m.special[SPR_SUM] = int(np.array(result, sums.dtype).view(RAW[vop.t.size]))


# -- one result a repeat ----------------------------------------------------------------------
def _whole_extreme(largest: bool):
    def body(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
        raw, x, act = _source(m, vop, lo, hi)
        idx = _extreme(x, act, largest)
        _spr_extreme(m, vop, raw, x, act, idx, lo, largest)
        value = np.take_along_axis(raw, idx[:, None], axis=1)[:, 0]
        index = idx.astype(INDEX[vop.t.size])
        order = REDUCE_ORDERS[vop.instr.fields.get("order", 0)]
        if order == "value_index":
            out = np.stack([value, index], axis=1)
        elif order == "index_value":
            out = np.stack([index, value], axis=1)
        elif order == "only_value":
            out = value[:, None]
        else:  # a u32 index, whatever the type: the element(s) that hold its bytes
            out = idx.astype(np.uint32)[:, None].view(RAW[vop.t.size])
        _write(m, vop, out, np.broadcast_to(act.any(axis=1)[:, None], out.shape), lo, hi)
    return body


def vcadd(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
    _, x, act = _source(m, vop, lo, hi)
    total = _tree_sum(np.where(act, x, np.zeros((), x.dtype)))
    _spr_sum(m, vop, total, lo)
    _write(m, vop, total[:, None], act.any(axis=1)[:, None], lo, hi)


vcmax = _whole_extreme(True)
vcmin = _whole_extreme(False)


# -- one result a block -----------------------------------------------------------------------
def _blocks(m: Machine, vop: VectorOp, lo: int, hi: int):
    """src as (hi-lo, 8, E) raw bits, values and active elements (E elements a block)."""
    raw, x, act = _source(m, vop, lo, hi)
    shape = (hi - lo, 8, -1)
    return raw.reshape(shape), x.reshape(shape), act.reshape(shape)


def _block_result(m: Machine, vop: VectorOp, out: np.ndarray, act: np.ndarray, identity,
                  lo: int, hi: int) -> None:
    """Write the blocks' results; a block with no active element keeps its dst element, or
    gets IDENTITY (bits of the type) where the chip writes one."""
    written = act.any(axis=-1)
    if _identity_chip(m):
        out = np.where(written, out, np.asarray(identity, vop.t.numeric).view(out.dtype))
        written = np.ones_like(written)
    _write(m, vop, out, written, lo, hi)


def _block_extreme(largest: bool):
    def body(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
        raw, x, act = _blocks(m, vop, lo, hi)
        idx = _extreme(x, act, largest)
        out = np.take_along_axis(raw, idx[..., None], axis=-1)[..., 0]
        _block_result(m, vop, out, act, -np.inf if largest else np.inf, lo, hi)
    return body


def vcgadd(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
    _, x, act = _blocks(m, vop, lo, hi)
    total = _tree_sum(np.where(act, x, np.zeros((), x.dtype)))
    _block_result(m, vop, total.view(RAW[vop.t.size]), act, 0, lo, hi)


vcgmax = _block_extreme(True)
vcgmin = _block_extreme(False)


# -- one result a pair ------------------------------------------------------------------------
def vcpadd(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
    """dst k of a repeat = src 2k + src 2k+1 (inactive as +0); a pair with neither element
    active is handled as a fully masked block (the chip's `masked_block_reduce`)."""
    _, x, act = _source(m, vop, lo, hi)
    pairs = np.where(act, x, np.zeros((), x.dtype)).reshape(hi - lo, -1, 2)
    total = _add(pairs[..., 0], pairs[..., 1])
    _block_result(m, vop, total.view(RAW[vop.t.size]), act.reshape(hi - lo, -1, 2), 0, lo, hi)


BODIES = {"vcmax": vcmax, "vcmin": vcmin, "vcadd": vcadd, "vcgmax": vcgmax, "vcgmin": vcgmin,
          "vcgadd": vcgadd, "vcpadd": vcpadd}
