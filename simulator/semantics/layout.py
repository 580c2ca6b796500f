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
