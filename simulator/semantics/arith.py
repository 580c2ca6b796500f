"""Element-wise arithmetic (ISA.md §6.4): numpy arithmetic in T; integers wrap."""

from __future__ import annotations

import numpy as np

from isa.decode import VectorOp
from simulator.machine import Machine
from simulator.semantics.common import load, numeric, store

BINARY = {"vadd": np.add, "vsub": np.subtract, "vmul": np.multiply, "vmax": np.maximum,
          "vmin": np.minimum}
SCALAR = {"vadds": np.add, "vmuls": np.multiply, "vmaxs": np.maximum, "vmins": np.minimum}


def binary(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
    a = numeric(load(m, vop, vop.access("src0"), lo, hi), vop)
    b = numeric(load(m, vop, vop.access("src1"), lo, hi), vop)
    with np.errstate(all="ignore"):
        res = BINARY[vop.instr.name](a, b).astype(vop.t.numeric, copy=False)
    store(m, vop, vop.access("dst"), res, lo, hi)


def unary_scalar(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
    a = numeric(load(m, vop, vop.access("src"), lo, hi), vop)
    s = scalar.reshape(1).view(vop.t.numeric)[0]
    with np.errstate(all="ignore"):
        res = SCALAR[vop.instr.name](a, s).astype(vop.t.numeric, copy=False)
    store(m, vop, vop.access("dst"), res, lo, hi)
