"""vsel modes 0/1/2 (docs/semantics.md §6.2): raw bit patterns move, so NaN payloads survive."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import numpy as np

from isa.addressing import bits_of
from isa.decode import VectorOp
from simulator.machine import RAW, Machine
from simulator.semantics.bulk import MASKS_PER_PLAN, blend, has_plan, plan_of
from simulator.semantics.common import load, store
from simulator.semantics.runs import whole_runs

_CMPMASK_BITS: dict[tuple[bytes, int], np.ndarray] = {}
BULK_REPEATS = 8  # from this many repeats the fused executor runs vsel's bulk path (measured)
PLAN_AT = 2  # the execution of a decoding that makes its bulk plan (tests plan at the first)


# how a selection's destination lies against its sources (`_selection`)
NOTHING, KEEP_SRC0, KEEP_SRC1, APART, OVERLAPPING, NEW = range(6)


def select_bits(m: Machine, vop: VectorOp, lo: int, hi: int) -> np.ndarray:
    """The selection bits of repeats [lo, hi): CMPMASK (mode 0) or the mask in UB (1, 2)."""
    n = vop.n
    sel = vop.access("sel")
    if sel is None:  # mode 0: the same CMPMASK bits every repeat, unpacked once per value
        key = (m.cmpmask.tobytes(), n)
        bits = _CMPMASK_BITS.get(key)
        if bits is None:
            if len(_CMPMASK_BITS) > 256:
                _CMPMASK_BITS.clear()
            bits = _CMPMASK_BITS[key] = bits_of(m.cmpmask, n)[None, :]
            bits.setflags(write=False)
        return bits
    a, b = sel.run(lo, hi)
    data = m.ub[a:b]
    return bits_of(data, (hi - lo) * n).reshape(hi - lo, n)


def _vsel_bulk(m: Machine, vop: VectorOp) -> bool:
    """All repeats through the decoding's bulk plan (semantics/bulk.py); False when it has
    none. The selection is a bit blend of the raw patterns, as exact as np.where."""
    key = ("vsel", m)
    how = vop.memo.get(key, 0)
    if type(how) is int:  # executions so far: planning costs more than one execution, and most
        if how + 1 < PLAN_AT:  # lines that run once never run again (the element path does)
            vop.memo[key] = how + 1
            return False
        mode1 = vop.family.scalar_src1(vop.instr.fields)  # the plan, mode 1 (scalar src1),
        plan = plan_of(m, vop, ("src0",) if mode1 else ("src0", "src1"))  # mode 0 (CMPMASK)
        how = vop.memo[key] = (plan, mode1, vop.access("sel") is None) if plan else None
    if how is None:
        return False
    plan, mode1, mode0 = how
    if mode0:  # the same mask every repeat: one per CMPMASK value, in the plan's shape
        bits = m.cmpmask.tobytes()
        mask = plan.masks.get(bits)
        if mask is None:
            if len(plan.masks) >= MASKS_PER_PLAN:
                plan.masks.clear()
            mask = plan.masks[bits] = plan.per_element(_select_mask(m, vop, plan.raw))
    else:
        mask = plan.per_element(_select_mask(m, vop, plan.raw))
    a = plan.load("src0")
    other = m.cmpmask[:vop.t.size].view(plan.raw)[0] if mode1 else plan.load("src1")
    if plan.out is not None:
        blend(mask, a, other, plan.out)
    else:
        plan.store(blend(mask, a, other))
    return True


def _select_mask(m: Machine, vop: VectorOp, raw) -> np.ndarray:
    """(1 or R, N) of RAW: all ones where the element selects src0, zero elsewhere."""
    if vop.access("sel") is None:  # mode 0: the CMPMASK bits, the same every repeat
        return _ones_where(select_bits(m, vop, 0, 1), raw)
    return _ones_where(select_bits(m, vop, 0, vop.repeats), raw)


def _ones_where(bits: np.ndarray, raw) -> np.ndarray:
    out = bits.astype(raw)
    return np.negative(out, out=out)  # 1 → all ones (unsigned wrap-around)


def vsel(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
    """vsel's one body, for both loops. All repeats at once run the decoding's plan where it
    has one — whole runs through views made once (`prepare_vsel`: mode 0), else the bulk plan
    (`_vsel_bulk`) — and otherwise (or repeat by repeat) the elements: every way selects
    through `_selection`, or the bulk plan's bit blend of the same raw patterns."""
    if lo == 0 and hi == vop.repeats:
        key = ("vsel", m.ub.size)
        whole = vop.memo.get(key, 0)
        if type(whole) is int:  # executions so far: planned at the PLAN_AT-th, as the bulk plan
            whole = vop.memo[key] = whole + 1 if whole + 1 < PLAN_AT else \
                prepare_vsel(vop, m.ub.size) or False  # (False: none, remembered)
        if type(whole) is not int and whole:
            whole(m, vop, scalar, lo, hi)
            return
        if _vsel_bulk(m, vop):
            return
    s = select_bits(m, vop, lo, hi)
    a = load(m, vop, vop.access("src0"), lo, hi)
    if vop.family.scalar_src1(vop.instr.fields):  # mode 1: src1 is CMPMASK's scalar
        other = m.cmpmask[:vop.t.size].view(RAW[vop.t.size])[0]
    else:
        other = load(m, vop, vop.access("src1"), lo, hi)
    store(m, vop, vop.access("dst"), _selection(NEW, s, None, a, other)(), lo, hi)


def _selection(how: int, sel: np.ndarray, unsel: np.ndarray | None, a, b, out=None
               ) -> Callable[[], np.ndarray | None]:
    """vsel's selection, bound: run() makes the raw elements A where SEL, B elsewhere (UNSEL:
    ~SEL), into OUT as HOW says it lies against them (a plan works that out once): NEW returns
    a new array; KEEP_SRC0 (OUT is A) takes B where not selected and KEEP_SRC1 (OUT is B) A
    where selected (np.putmask with a mask and values of OUT's size: no temporary); APART
    takes B, then A where selected; OVERLAPPING (OUT overlaps one in part) takes np.where's
    result; NOTHING (all three are one) keeps OUT. The bulk plan's is the same selection with
    SEL as all-ones raw elements (`bulk.blend`: three branch-free passes, which measured
    faster than np.putmask over its gathered and strided operands)."""
    if how == KEEP_SRC0:
        return partial(np.putmask, out, unsel, b)
    if how == KEEP_SRC1:
        return partial(np.putmask, out, sel, a)
    if how == NEW:
        return partial(np.where, sel, a, b)
    if how == NOTHING:
        return _nothing

    def run() -> None:
        if how == APART:
            np.copyto(out, b)
            np.putmask(out, sel, a)
        else:  # OVERLAPPING
            out[...] = np.where(sel, a, b)
    return run


def _nothing() -> None:
    return None


def prepare_vsel(vop: VectorOp, ub_bytes: int):
    """vsel's plan over whole runs (semantics/runs.py), which the fast loop runs in place of
    `vsel` (the same plan `vsel` itself takes for all repeats); None for any other decoding,
    and for one of many repeats that the bulk path (planned per decoding: a bit blend, faster
    than np.where on random bits) takes."""
    if vop.access("sel") is not None or vop.family.scalar_src1(vop.instr.fields):
        return None
    if vop.repeats >= BULK_REPEATS and has_plan(vop, ("src0", "src1")):
        return None
    runs = whole_runs(vop, ("dst", "src0", "src1"), ub_bytes)
    if runs is None:
        return None
    dst, src0, src1 = runs
    size, r = vop.t.size, vop.repeats
    if vop.access("dst").size != size:
        return None
    return _whole_run_vsel(dst, src0, src1, size, r)


def _whole_run_vsel(dst: slice, src0: slice, src1: slice, size: int, r: int):
    """vsel mode 0 over whole runs (element slices of UB viewed as SIZE-byte raw elements, R
    repeats): `_selection` on views of the machine's UB made once (a machine's UB is never
    reallocated), bound once per CMPMASK value (its selection bits for all repeats)."""
    def apart(a: slice, b: slice) -> bool:
        return a.stop <= b.start or b.stop <= a.start

    how = (NOTHING if dst == src0 == src1 else KEEP_SRC0 if dst == src0 else
           KEEP_SRC1 if dst == src1 else
           APART if apart(dst, src0) and apart(dst, src1) else OVERLAPPING)
    machine = cmpmask = d = s0 = s1 = run = None

    def body(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
        nonlocal machine, cmpmask, d, s0, s1, run
        if m is not machine:
            view = m.views[size]
            machine, d, s0, s1, cmpmask = m, view[dst], view[src0], view[src1], None
        seen = m.cmpmask.tobytes()
        if seen != cmpmask:
            sel = np.tile(select_bits(m, vop, 0, r).reshape(-1), r)
            cmpmask, run = seen, _selection(how, sel, ~sel, s0, s1, d)
        run()
    return body
