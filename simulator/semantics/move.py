"""vector_dup and vcopy (docs/semantics.md §6.4): bit copies."""

from __future__ import annotations

import numpy as np

from isa.decode import VectorOp
from simulator.machine import Machine
from simulator.semantics.common import load, store


def dup(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
    values = np.broadcast_to(scalar.reshape(1), (hi - lo, vop.n))
    store(m, vop, vop.access("dst"), values, lo, hi)


def vcopy(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
    store(m, vop, vop.access("dst"), load(m, vop, vop.access("src"), lo, hi).copy(), lo, hi)
