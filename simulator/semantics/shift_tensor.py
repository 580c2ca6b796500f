"""vshlv / vshrv (#27, ascend950's ShiftLeft / ShiftRight with a LocalTensor count): each element
of src0 shifted by the element at its place in src1, read as a signed integer of T's width.

The pages: unsigned T shifts logically, signed T arithmetically (ShiftLeft keeps the sign bit,
as the scalar form); ShiftRight by more than the width gives 0, or -1 for a negative signed
element. Counts of the width or more shift every bit out (ShiftLeft as the scalar vshl's model).
Negative counts are "not supported" (the pages): the model shifts every bit out and the run warns
once per instruction with their count, as for the other unknown results."""

from __future__ import annotations

import numpy as np

from isa.decode import VectorOp
from simulator.machine import Machine
from simulator.semantics.common import load, numeric, store

SIGNED = {1: np.int8, 2: np.int16, 4: np.int32, 8: np.int64}


def values(name: str, a: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """NAME (vshlv, vshrv) of A by COUNTS (signed, A's width), in A's type."""
    bits = 8 * a.dtype.itemsize
    n = counts.view(SIGNED[a.dtype.itemsize])
    out = (n < 0) | (n >= bits)
    signed = a.dtype.kind == "i"
    if name == "vshlv":
        res = np.left_shift(a, np.where(out, 0, n).astype(a.dtype))
        res = np.where(out, np.zeros((), a.dtype), res)
        if signed:
            sign = np.asarray(np.iinfo(a.dtype).min, a.dtype)  # the sign bit alone
            res = (a & sign) | (res & ~sign)
        return res
    res = np.right_shift(a, np.where(out, bits - 1 if signed else 0, n).astype(a.dtype))
    return res if signed else np.where(out, np.zeros((), a.dtype), res)


def shift_tensor(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
    a = numeric(load(m, vop, vop.access("src0"), lo, hi), vop)
    counts = load(m, vop, vop.access("src1"), lo, hi).view(SIGNED[vop.t.size])
    neg = int(np.count_nonzero((counts < 0) & vop.active[lo:hi].reshape(counts.shape)))
    if neg:
        m.count_unknown(vop.instr, "negative shift counts (not supported: every bit shifted out)",
                        neg)
    store(m, vop, vop.access("dst"), values(vop.instr.name, a, counts), lo, hi)
