"""vcmp / vcmpv / vcmpvs (docs/semantics.md §6.3): IEEE compares, results as LSB-first bits."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import numpy as np

from isa.addressing import BLOCK, bits_of
from isa.decode import VectorOp
from simulator.machine import RAW, Machine
from simulator.semantics.bulk import V32, source_reading
from simulator.semantics.common import load, numeric

OPS = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "gt": np.greater,
       "le": np.less_equal, "ge": np.greater_equal}


def _values(raw: np.ndarray, vop: VectorOp) -> np.ndarray:
    v = numeric(raw, vop)
    return v.astype(np.float32) if vop.t.name == "bf16" else v


def _compare(vop: VectorOp, a: np.ndarray, b) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        return OPS[vop.instr.op](_values(a, vop), b)


def vcmp(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
    if vop.repeats == 0:
        return
    a = load(m, vop, vop.access("src0"), 0, 1)
    b = _values(load(m, vop, vop.access("src1"), 0, 1), vop)
    res = _compare(vop, a, b)[0]
    act = vop.active[0]
    nbits = m.cmpmask.size * 8
    bits = bits_of(m.cmpmask, nbits)
    bits[:vop.n][act] = res[act]
    m.cmpmask[:] = np.packbits(bits, bitorder="little")


def _write_bits(m: Machine, vop: VectorOp, res: np.ndarray, lo: int) -> None:
    a, b = vop.access("dst").run(lo, lo + res.shape[0])
    m.ub[a:b] = np.packbits(res, axis=-1, bitorder="little").reshape(-1)


def vcmpv(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
    a = load(m, vop, vop.access("src0"), lo, hi)
    b = _values(load(m, vop, vop.access("src1"), lo, hi), vop)
    _write_bits(m, vop, _compare(vop, a, b), lo)


def vcmpvs(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
    a = load(m, vop, vop.access("src"), lo, hi)
    s = _values(scalar.reshape(1), vop)
    _write_bits(m, vop, _compare(vop, a, s[0]), lo)


def _compares_warn() -> bool:
    """Whether this numpy raises the invalid flag comparing NaN (older releases did): the
    prepared bodies then keep the element path's np.errstate."""
    try:
        with np.errstate(invalid="raise"):
            np.less(np.float32("nan"), np.float32(0))
    except FloatingPointError:
        return True
    return False


COMPARES_WARN = _compares_warn()


def prepare_vcmpv(vop: VectorOp, ub_bytes: int):
    """vcmpv's / vcmpvs's body for all repeats of this decoding at once (the fast loop's, as
    vsel's): every source read whole (MASK is ignored) through the bulk path's readers
    (semantics/bulk.py: a view, one copy, or one gather of blocks), one compare into a flat
    buffer, one packbits into the destination's run — the element path's bits, without its
    per-call lookups, errstate and per-row packing. None when a source is not 32-byte aligned
    or leaves UB (the element path reports or clips those)."""
    roles = ("src0", "src1") if vop.access("src1") is not None else ("src",)
    accs = tuple(vop.access(role) for role in roles)
    r, dst = vop.repeats, vop.access("dst")
    run = dst.run(0, r) if r and dst is not None else None
    if run is None or run[1] > ub_bytes or COMPARES_WARN or any(
            a.kind != "vector" or a.base % BLOCK or a.block_span(0, r)[1] > ub_bytes
            for a in accs):
        return None
    start, stop = run
    op, out = OPS[vop.instr.op], np.empty((r, accs[0].blocks, BLOCK // vop.t.size), bool)
    machine = reads = None

    def body(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
        nonlocal machine, reads
        if m is not machine:  # the readers hold views of this machine's UB
            machine, reads = m, [_reader(m, vop, a) for a in accs]
        other = reads[1]() if len(reads) > 1 else _values(scalar.reshape(1), vop)[0]
        op(reads[0](), other, out=out)
        m.ub[start:stop] = np.packbits(out.reshape(-1), bitorder="little")
    return body


def _reader(m: Machine, vop: VectorOp, acc) -> Callable[[], np.ndarray]:
    """read() -> all repeats' values of source ACC as `_values` makes them, (R, blocks,
    elements a block): a view of UB made once where its blocks lie one after another in each
    repeat (numpy walks a repeat's blocks as one row, repeats overlapping or apart), else one
    gather of blocks a call (block stride 0 or above 1: faster than walking short rows)."""
    how, data = source_reading(m, acc, vop.repeats)
    num, widen = vop.t.numeric, vop.t.name == "bf16"
    if how != "take":
        values = data.view(num)
        return partial(values.astype, np.float32) if widen else partial(_same, values)
    blocks, raw = m.ub.view(V32), RAW[acc.size]
    shape = (vop.repeats, acc.blocks, BLOCK // acc.size)

    def read() -> np.ndarray:
        values = blocks.take(data).view(raw).reshape(shape).view(num)
        return values.astype(np.float32) if widen else values
    return read


def _same(a: np.ndarray) -> np.ndarray:
    return a
