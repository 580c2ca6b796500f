"""vsel modes 0/1/2 (docs/semantics.md §6.2): raw bit patterns move, so NaN payloads survive."""

from __future__ import annotations

import numpy as np

from isa.addressing import bits_of
from isa.decode import VectorOp
from simulator.machine import RAW, Machine
from simulator.semantics.common import load, store
from simulator.semantics.runs import whole_runs

_CMPMASK_BITS: dict[tuple[bytes, int], np.ndarray] = {}


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
    s = select_bits(m, vop, lo, hi)
    a = load(m, vop, vop.access("src0"), lo, hi)
    if vop.family.scalar_src1(vop.instr.fields):  # mode 1: src1 is CMPMASK's scalar
        other = m.cmpmask[:vop.t.size].view(RAW[vop.t.size])[0]
    else:
        other = load(m, vop, vop.access("src1"), lo, hi)
    store(m, vop, vop.access("dst"), np.where(s, a, other), lo, hi)


def prepare_vsel(vop: VectorOp, ub_bytes: int):
    """vsel mode 0 over whole runs (semantics/runs.py): `vsel` with the slices worked out once;
    None for any other decoding."""
    if vop.access("sel") is not None or vop.family.scalar_src1(vop.instr.fields):
        return None
    runs = whole_runs(vop, ("dst", "src0", "src1"), ub_bytes)
    if runs is None:
        return None
    dst, src0, src1 = runs
    size, r = vop.t.size, vop.repeats
    if vop.access("dst").size != size:
        return None
    seen = [b"", None]  # CMPMASK's bytes when last seen, and its selection bits for all repeats

    def body(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
        view = m.views[size]
        cmpmask = m.cmpmask.tobytes()
        if cmpmask != seen[0]:
            seen[:] = cmpmask, np.tile(select_bits(m, vop, 0, r).reshape(-1), r)
        view[dst] = np.where(seen[1], view[src0], view[src1])
    return body
