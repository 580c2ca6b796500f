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
    return nan_rules(a, b, c, r, t)


def nan_rules(a: np.ndarray, b, c: np.ndarray, r: np.ndarray, t) -> np.ndarray:
    """R with the NaN rules above: a NaN among A, B, C gives the first, quieted; a NaN made
    from numbers the default NaN."""
    nt = t.numeric
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


def fused_multiply_add(a: np.ndarray, b: np.ndarray, c: np.ndarray, t) -> np.ndarray:
    """round(a·b + c) in T, one rounding (the reg MulDstAdd page: a fused multiply-add), with the
    NaN rules above. The product of two f32 (f16, bf16) values is exact in float64; their sum is
    rounded there to odd (the TwoSum error decides the last bit), which a float64 has enough
    bits beyond T's for the one rounding to T to be the correct one (bf16: through f32, rounded
    to odd too)."""
    with np.errstate(all="ignore"):
        s = _sum_to_odd(a.astype(np.float64) * b.astype(np.float64), c.astype(np.float64))
        if t.name == "bf16":
            s32 = s.astype(np.float32)
            s = _odd(s32, s32.astype(np.float64) - s, np.uint32)
        r = s.astype(t.numeric)
    return nan_rules(a, b, c, r, t)


def _sum_to_odd(p: np.ndarray, c: np.ndarray) -> np.ndarray:
    """p + c rounded to odd in float64: the nearest sum, its last bit set where inexact."""
    s = p + c
    v = s - p
    err = (p - (s - v)) + (c - v)  # TwoSum: p + c = s + err exactly (finite s)
    return _odd(s, -err, np.uint64)


def _odd(s: np.ndarray, over: np.ndarray, bits) -> np.ndarray:
    """S moved one step toward the exact value where S is inexact (OVER = S - exact, nonzero)
    and its last bit is even: rounding to odd."""
    even = (s.view(bits) & 1) == 0
    fix = np.isfinite(s) & np.isfinite(over) & (over != 0) & even
    if not fix.any():
        return s
    toward = np.where(over > 0, -np.inf, np.inf).astype(s.dtype)
    return np.where(fix, np.nextafter(s, toward), s)


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
