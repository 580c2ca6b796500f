"""vcmp / vcmpv / vcmpvs (docs/semantics.md §6.3): IEEE compares, results as LSB-first bits."""

from __future__ import annotations

import numpy as np

from isa.addressing import bits_of
from isa.decode import VectorOp
from simulator.machine import Machine
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
