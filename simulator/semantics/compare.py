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
# packbits' bit order, passed by position in the prepared bodies (numpy's dispatcher takes
# positional arguments ≈0.3 µs faster than keywords: a tenth of a 255-repeat compare)
LITTLE = "little"
# np.packbits without numpy's __array_function__ dispatch: the prepared bodies pack plain
# ndarrays, and the dispatch's Python-level call cost 0.18 us of a 255-repeat vcmpv's ~3
PACK = getattr(np.packbits, "__wrapped__", np.packbits)


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
    whole = _whole(m, vop, lo, hi)
    if whole:
        return whole(m, vop, scalar, lo, hi)
    a = load(m, vop, vop.access("src0"), lo, hi)
    b = _values(load(m, vop, vop.access("src1"), lo, hi), vop)
    _write_bits(m, vop, _compare(vop, a, b), lo)


def vcmpvs(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
    whole = _whole(m, vop, lo, hi)
    if whole:
        return whole(m, vop, scalar, lo, hi)
    a = load(m, vop, vop.access("src"), lo, hi)
    s = _values(scalar.reshape(1), vop)
    _write_bits(m, vop, _compare(vop, a, s[0]), lo)


def _whole(m: Machine, vop: VectorOp, lo: int, hi: int):
    """The prepared body (`prepare_vcmpv`) when a call covers every repeat of the decoding:
    one body for a whole instruction in both loops (the fast loop binds it through the same
    memo, `vector.body_of`); False for a call repeat by repeat (an overlap, the debugger
    stepping) or a decoding it does not take, which the element path runs."""
    if lo or hi != vop.repeats:
        return False
    size = m.ub.size
    return vop.derived(("prepared", size), lambda v: prepare_vcmpv(v, size) or False)


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
    """vcmpv's / vcmpvs's body for all repeats of this decoding at once — the one body both
    loops run for a whole instruction (`vcmpv` hands it every call covering all repeats; the
    fast loop binds it directly), as vsel's: every source read whole (MASK is ignored), one
    compare into a buffer made once, one packbits into the destination's run — the element
    path's bits, without its per-call lookups, errstate and per-row packing. Laid out once per
    decoding (`_union` / `_reader`); None when a source is not 32-byte aligned or leaves UB
    (the element path reports or clips those)."""
    roles = ("src0", "src1") if vop.access("src1") is not None else ("src",)
    accs = tuple(vop.access(role) for role in roles)
    r, dst = vop.repeats, vop.access("dst")
    run = dst.run(0, r) if r and dst is not None else None
    if run is None or run[1] > ub_bytes or COMPARES_WARN or any(
            a.kind != "vector" or a.base % BLOCK or a.block_span(0, r)[1] > ub_bytes
            for a in accs):
        return None
    union = _union(accs, r)
    # a block's bits fill whole bytes (size 4 and below; an 8-byte element's block is half a
    # byte): then the packed blocks can be rearranged, else only the span packed as it lies
    if union is not None and (union[1] or (BLOCK // vop.t.size) % 8 == 0):
        return _union_body(vop, accs, run, *union)
    start, stop = run
    op, out = OPS[vop.instr.op], np.empty((r, accs[0].blocks, BLOCK // vop.t.size), bool)
    machine = reads = None
    scalar_of = _scalar_reader(vop)

    def body(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
        nonlocal machine, reads
        if m is not machine:  # the readers hold views of this machine's UB
            machine, reads = m, [_reader(m, vop, a) for a in accs]
        other = reads[1]() if len(reads) > 1 else scalar_of(scalar)
        op(reads[0](), other, out=out)
        m.ub[start:stop] = PACK(out.reshape(-1), None, LITTLE)
    return body


# a union of blocks compared whole may hold at most this many times the blocks the repeats
# read (repeats far apart leave gaps a gather of the read blocks skips)
UNION_SLACK = 2


def _union(accs, r: int) -> tuple[int, bool] | None:
    """When every source walks the same blocks relative to its base (the same repeat and
    block strides: block j of repeat i at block i·rep + j·blk from each base, vector operands
    at 32-byte aligned bases), (span, back to back): compare the SPAN blocks from each base
    once, each block's bits made once whatever repeats share it, then the destination's bytes
    are the packed blocks in the walk's order (`_order`), which is 0, 1, 2… — the span as it
    lies — when BACK TO BACK. None otherwise, or when the span would hold more than
    UNION_SLACK times the blocks read."""
    first = accs[0]
    if any((a.rep, a.blk, a.blocks) != (first.rep, first.blk, first.blocks) for a in accs):
        return None
    nb = first.blocks
    span = first.last_block(r) // BLOCK + 1
    if span > UNION_SLACK * r * nb:
        return None
    # the walk i·rep + j·blk is 0, 1, 2… exactly when a repeat's blocks follow one another
    # (blk 1, or one block) and each repeat starts where the last ended (rep = blocks, or one
    # repeat): worked out, not compared element by element
    return span, (first.blk == 1 or nb == 1) and (first.rep == nb or r == 1)


def _order(acc, r: int) -> np.ndarray:
    """The union's blocks the destination's bytes follow: i·rep + j·blk over (i, j)."""
    return (acc.block_indices(r) - acc.base // BLOCK).reshape(-1)


BYTES_OF = {1: np.uint8, 2: np.uint16, 4: np.uint32}  # a block's bits: 32 / size bits


def _union_body(vop: VectorOp, accs, run: tuple[int, int], span: int, back_to_back: bool):
    """The body over a union of blocks (`_union`): each source's SPAN blocks a contiguous view
    made once per machine, one compare into a buffer made once, one packbits; the destination's
    bytes that (BACK_TO_BACK), rows of it (`_rows`: each repeat's blocks every blk-th block of
    the union, repeats a multiple of blk apart — packed into a buffer, then one strided copy of
    its R rows; when blk is above 1, only the blocks read are packed, by `_packed_words`), or
    its blocks gathered in the walk's order (`_order`)."""
    start, stop = run
    per_block = BLOCK // vop.t.size
    op, out = OPS[vop.instr.op], np.empty(span * per_block, bool)
    num, widen = vop.t.numeric, vop.t.name == "bf16"
    bases = tuple(a.base for a in accs)
    acc, r = accs[0], vop.repeats
    rows = _rows(acc) if not back_to_back else None
    order = _order(acc, r) if not back_to_back and rows is None else None
    pack, mul, packing = PACK, np.multiply, PACKING
    if rows is not None:  # the blocks read: every blk-th (a block's bits, per_block bools)
        blk, apart = rows
        # the packed bits land in a buffer made once, whose R rows (a repeat's bytes, each
        # APART blocks' bytes after the last) are a view made once too: a view of packbits'
        # new array each call cost more than the copy into the buffer
        packed = np.empty(-(-span // blk) * per_block // 8, np.uint8)
        # (blk above 1: only the blocks read are packed, by words, `_packed_words`)
        words, read, into = _packed_words(out, per_block, blk, packed) if blk > 1 else \
            (None, None, None)
        row = np.dtype(f"V{acc.blocks * per_block // 8}")
        rows_of_packed = np.ndarray((r,), row, packed, 0, (apart * per_block // 8,))
    else:
        unit = BYTES_OF.get(per_block // 8)  # (None: a block is less than a byte, back to back)
    machine = first = second = dst = None
    two, scalar_of = len(accs) > 1, _scalar_reader(vop)

    def body(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
        nonlocal machine, first, second, dst
        if m is not machine:  # views of this machine's UB
            views = [m.ub[b:b + span * BLOCK].view(num) for b in bases]
            machine, first, second = m, views[0], views[-1]
            dst = m.ub[start:stop]
            if rows is not None:
                dst = dst.view(row)
        if widen:
            op(first.astype(np.float32), second.astype(np.float32) if two
               else scalar_of(scalar), out)
        else:  # (out by position, as packbits' order: the dispatch is cheaper)
            op(first, second if two else scalar_of(scalar), out)
        if rows is not None:
            if words is not None:
                mul(words, packing, words)  # (OUT is the compare's again at the next call)
                into[...] = read
            else:
                packed[...] = pack(out, None, LITTLE)
            dst[...] = rows_of_packed
        elif back_to_back:
            dst[...] = pack(out, None, LITTLE)
        else:
            dst[...] = pack(out, None, LITTLE).view(unit).take(order).view(np.uint8)
    return body


# a word of 8 bools (bytes 0 or 1, little-endian) times this holds their bits, bool k at bit
# k, in its top byte: bool k lands at bit 56 + k, and no other product nor carry reaches that
# byte (all 256 such words checked in tests/differential/test_fused.py)
PACKING = np.array(0x0102040810204080, np.dtype("<u8"))


def _packed_words(out: np.ndarray, per_block: int, blk: int, packed: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(words, read, into) to pack every BLK-th block of OUT (PER_BLOCK bools a block, a
    multiple of 8) into PACKED: WORDS *= PACKING turns each word of 8 bools into its packed
    byte, then INTO[...] = READ copies the blocks read. No picked copy of the blocks first and
    no packbits call: a 255-repeat vcmpv at block stride 2 took 3.21 us instead of 3.56
    (its body alone, the two timed in turn)."""
    per = per_block // 8  # a block's packed bytes
    tops = out.view(np.uint8)[7::8]  # each word's top byte
    if per == 1:  # (one-dimensional: a copy of (n, 1) rows cost a fifth more)
        return out.view(PACKING.dtype), tops[::blk], packed
    return out.view(PACKING.dtype), tops.reshape(-1, per)[::blk], packed.reshape(-1, per)


def _rows(acc) -> tuple[int, int] | None:
    """(blk, apart) when the walk (`_order`: repeat i's blocks from block i·rep at block
    stride blk) has blk >= 1 and rep a multiple of blk: then every blk-th block of the union
    is read, repeat i's from the (i·rep/blk)-th of those on (APART = rep/blk); None
    otherwise."""
    blk, rep = acc.blk, acc.rep
    if blk < 1 or rep % blk:
        return None
    return blk, rep // blk


def _scalar_reader(vop: VectorOp) -> Callable:
    """scalar_of(raw) -> vcmpvs's scalar as `_values` makes it, as a 0-d array (a ufunc takes
    it as it is; a numpy scalar it turns into one at every call, a sixth of the compare),
    worked out again only when the bytes handed in are another array (the fast loop hands
    one immediate's each time)."""
    last = value = None

    def scalar_of(scalar):
        nonlocal last, value
        if scalar is not last:
            last, value = scalar, np.asarray(_values(scalar.reshape(1), vop)[0])
        return value
    return scalar_of


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

