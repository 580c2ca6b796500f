"""vsel modes 0/1/2 (docs/semantics.md §6.2): raw bit patterns move, so NaN payloads survive."""

from __future__ import annotations

import numpy as np

from isa.addressing import bits_of
from isa.decode import VectorOp
from simulator.machine import RAW, Machine
from simulator.semantics.bulk import blend, plan_of
from simulator.semantics.common import load, store

_CMPMASK_BITS: dict[tuple[bytes, int], np.ndarray] = {}
_CMPMASK_MASKS: dict[tuple[bytes, int, int], np.ndarray] = {}


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
    nb = n // 8
    a = sel.base + lo * nb
    data = m.ub[a:a + (hi - lo) * nb]
    return bits_of(data, (hi - lo) * n).reshape(hi - lo, n)


def vsel(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
    if lo == 0 and hi == vop.repeats and _vsel_bulk(m, vop):
        return
    s = select_bits(m, vop, lo, hi)
    a = load(m, vop, vop.access("src0"), lo, hi)
    if vop.family.scalar_src1(vop.instr.fields):  # mode 1: src1 is CMPMASK's scalar
        other = m.cmpmask[:vop.t.size].view(RAW[vop.t.size])[0]
    else:
        other = load(m, vop, vop.access("src1"), lo, hi)
    store(m, vop, vop.access("dst"), np.where(s, a, other), lo, hi)


def _vsel_bulk(m: Machine, vop: VectorOp) -> bool:
    """All repeats through the decoding's bulk plan (semantics/bulk.py); False when it has
    none. The selection is a bit blend of the raw patterns, as exact as np.where."""
    mode1 = vop.family.scalar_src1(vop.instr.fields)
    plan = plan_of(m, vop, ("src0",) if mode1 else ("src0", "src1"))
    if plan is None:
        return False
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
    if vop.access("sel") is None:  # mode 0: one mask per CMPMASK value
        key = (m.cmpmask.tobytes(), vop.n, np.dtype(raw).itemsize)
        mask = _CMPMASK_MASKS.get(key)
        if mask is None:
            if len(_CMPMASK_MASKS) > 256:
                _CMPMASK_MASKS.clear()
            mask = _CMPMASK_MASKS[key] = _ones_where(select_bits(m, vop, 0, 1), raw)
            mask.setflags(write=False)
        return mask
    return _ones_where(select_bits(m, vop, 0, vop.repeats), raw)


def _ones_where(bits: np.ndarray, raw) -> np.ndarray:
    out = bits.astype(raw)
    return np.negative(out, out=out)  # 1 → all ones (unsigned wrap-around)
