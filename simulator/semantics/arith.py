"""Element-wise arithmetic (ISA.md §6.4): numpy arithmetic in T; integers wrap.

Two NaN operands of vadd/vsub/vmul(s) give src0's NaN, quieted (docs/decisions.md): numpy's own
choice depends on whether an element falls in its SIMD body or its scalar tail, which would make
results depend on how many repeats run at once."""

from __future__ import annotations

import numpy as np

from isa.decode import VectorOp
from simulator.machine import Machine
from simulator.semantics.common import load, numeric, store

BINARY = {"vadd": np.add, "vsub": np.subtract, "vmul": np.multiply, "vmax": np.maximum,
          "vmin": np.minimum, "vand": np.bitwise_and, "vor": np.bitwise_or}
SCALAR = {"vadds": np.add, "vmuls": np.multiply, "vmaxs": np.maximum, "vmins": np.minimum}
NAN_SRC0 = ("vadd", "vsub", "vmul", "vadds", "vmuls")


def _nan_rule(vop: VectorOp, a: np.ndarray, b, res: np.ndarray) -> np.ndarray:
    """Where both operands are NaN, src0's NaN with its quiet bit set."""
    if not vop.t.is_float or vop.instr.name not in NAN_SRC0:
        return res
    both = np.isnan(a) & np.isnan(b)
    if not both.any():
        return res
    quiet = 1 << (vop.t.mantissa_bits - 1)  # the top mantissa bit
    raw = a.view(vop.t.raw) | np.asarray(quiet, vop.t.raw)
    return np.where(both, raw.view(vop.t.numeric), res)


def binary(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
    a = numeric(load(m, vop, vop.access("src0"), lo, hi), vop)
    b = numeric(load(m, vop, vop.access("src1"), lo, hi), vop)
    with np.errstate(all="ignore"):
        res = BINARY[vop.instr.name](a, b).astype(vop.t.numeric, copy=False)
        res = _nan_rule(vop, a, b, res)
    store(m, vop, vop.access("dst"), res, lo, hi)


def _abs(raw: np.ndarray, t) -> np.ndarray:
    """The sign bit cleared: |x| for floats, NaN payloads and all."""
    return raw & np.asarray((1 << (8 * t.size - 1)) - 1, t.raw)


UNARY = {"vabs": _abs, "vnot": lambda raw, t: ~raw}


def unary(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
    """vabs, vnot: bit operations on the raw elements."""
    raw = load(m, vop, vop.access("src"), lo, hi).view(vop.t.raw)
    store(m, vop, vop.access("dst"), UNARY[vop.instr.name](raw, vop.t), lo, hi)


def unary_scalar(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
    a = numeric(load(m, vop, vop.access("src"), lo, hi), vop)
    s = scalar.reshape(1).view(vop.t.numeric)[0]
    with np.errstate(all="ignore"):
        res = SCALAR[vop.instr.name](a, s).astype(vop.t.numeric, copy=False)
        res = _nan_rule(vop, a, s, res)
    store(m, vop, vop.access("dst"), res, lo, hi)
