"""Layout shapes of issue 28 (28b): Brcb (vbrcb) — one element of src a 32-byte block of dst
(docs/semantics.md §8.4)."""

from __future__ import annotations

import numpy as np

from isa.addressing import BLOCK
from isa.decode import VectorOp
from simulator.machine import Machine
from simulator.semantics.common import load, store


def brcb(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
    """Repeats [lo, hi): src's 8 elements of each, each repeated over one block of dst."""
    src = load(m, vop, vop.access("src"), lo, hi)  # (hi - lo, 8), raw bits
    store(m, vop, vop.access("dst"), np.repeat(src, BLOCK // vop.t.size, axis=1), lo, hi)


def vci(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
    """Repeats [lo, hi): element k of repeat i is the first value plus i·N + k, worked out
    exactly and rounded once to the type (an integer type wraps)."""
    t = vop.t
    index = np.arange(lo * vop.n, hi * vop.n, dtype=np.int64).reshape(hi - lo, vop.n)
    first = scalar.view(t.numeric)[0]
    if t.kind == "float":
        values = (np.float64(first) + index).astype(t.numeric)
    else:
        values = (int(first) + index).astype(t.numeric)  # two's complement: wraps
    store(m, vop, vop.access("dst"), values, lo, hi)


def vtranspose(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
    """dst = src as a 16 x 16 matrix, transposed (raw bits; src read before dst is written)."""
    src = load(m, vop, vop.access("src"), lo, hi).reshape(hi - lo, 16, 16)
    store(m, vop, vop.access("dst"), src.transpose(0, 2, 1).reshape(hi - lo, 256).copy(), lo, hi)
