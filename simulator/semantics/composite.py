"""Composite element-wise instructions (#27a, docs/semantics.md §6.4.1): vaxpy, vmla, vmadd,
vmaddrelu — a multiply and an add whose old destination is an operand (`acc`, the family's
read of dst). Each step is rounded in T (the product, then the sum): the vendor does not say
whether the silicon rounds once, so this is a model. NaN: where any operand is NaN the result
is the first NaN in evaluation order (the product's operands, then the addend), quieted —
decided here, not by numpy's loops, whose choice depends on the element's position; a NaN made
from numbers (inf·0, inf − inf) is the default NaN `vadd` gives."""

from __future__ import annotations

import numpy as np

from isa.decode import VectorOp
from simulator.machine import Machine
from simulator.semantics.common import load, numeric, store
from simulator.semantics.math import relu


def multiply_add(a: np.ndarray, b, c: np.ndarray, t) -> np.ndarray:
    """round(round(a·b) + c) in T, with the NaN rules above."""
    nt = t.numeric
    with np.errstate(all="ignore"):
        r = (np.multiply(a, b).astype(nt) + c).astype(nt)
    if not t.is_float:
        return r
    b = np.broadcast_to(np.asarray(b, nt), r.shape)
    na, nb, nc = np.isnan(a), np.isnan(b), np.isnan(c)
    nan_in = na | nb | nc
    made = np.isnan(r) & ~nan_in
    if not (nan_in.any() or made.any()):
        return r
    quiet = np.asarray(1 << (t.mantissa_bits - 1), t.raw)
    first = np.where(na, a, np.where(nb, b, c)).view(t.raw) | quiet
    top = np.asarray(((1 << (8 * t.size)) - 1) & ~((1 << t.mantissa_bits) - 1), t.raw)
    default = (top | quiet).view(nt)
    return np.where(nan_in, first.view(nt), np.where(made, default, r))


def _source(m: Machine, vop: VectorOp, role: str, lo: int, hi: int) -> np.ndarray:
    """Operand ROLE's values in T: a mixed form's f16 sources widened to f32 (exactly; the
    product of two f16 values is then exact in f32, so the sum is the one rounding)."""
    src = vop.instr.src_dtype
    raw = load(m, vop, vop.access(role), lo, hi)
    if src is None:
        return numeric(raw, vop)
    return raw.view(src.numeric).astype(vop.t.numeric)


def accumulate(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
    name, t = vop.instr.name, vop.t
    old = numeric(load(m, vop, vop.access("acc"), lo, hi), vop)
    if name == "vaxpy":
        src = _source(m, vop, "src", lo, hi)
        st = vop.instr.src_dtype or t
        res = multiply_add(src, scalar.reshape(1).view(st.numeric).astype(t.numeric)[0], old,
                           t)
    else:
        s0 = _source(m, vop, "src0", lo, hi)
        s1 = _source(m, vop, "src1", lo, hi)
        res = multiply_add(s0, s1, old, t) if name == "vmla" else multiply_add(s0, old, s1, t)
    if name == "vmaddrelu":
        res = relu(res)
    store(m, vop, vop.access("dst"), res, lo, hi)
