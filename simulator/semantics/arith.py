"""Element-wise arithmetic (docs/semantics.md §6.4): numpy arithmetic in T; integers wrap.

Two NaN operands of vadd/vsub/vmul(s) give src0's NaN, quieted (docs/decisions.md): numpy's own
choice depends on whether an element falls in its SIMD body or its scalar tail, which would make
results depend on how many repeats run at once."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from isa.decode import VectorOp
from simulator.machine import RAW, Machine
from simulator.semantics.common import load, numeric, store
from simulator.semantics.runs import whole_runs


def _shift_left(a: np.ndarray, s) -> np.ndarray:
    """a << s in T; a count outside [0, width) shifts every bit out (docs/semantics.md: the
    model's value). Signed T is the ShiftLeft page's arithmetic left shift: the sign bit stays,
    the bits below it shift (0xAAAA << 1 = 0xD554 in int16_t)."""
    n, bits = int(s), 8 * a.dtype.itemsize
    res = np.zeros_like(a) if not 0 <= n < bits else np.left_shift(a, n)
    if a.dtype.kind != "i":
        return res
    sign = np.asarray(np.iinfo(a.dtype).min, a.dtype)  # the sign bit alone
    return (a & sign) | (res & ~sign)


def _shift_right(a: np.ndarray, s) -> np.ndarray:
    """a >> s in T: arithmetic for signed T, logical for unsigned; a count outside [0, width)
    shifts every bit out (signed: the sign fills)."""
    n, bits = int(s), 8 * a.dtype.itemsize
    if not 0 <= n < bits:
        n = bits - 1 if a.dtype.kind == "i" else bits
        if n == bits:
            return np.zeros_like(a)
    return np.right_shift(a, n)


def _relu(a: np.ndarray) -> np.ndarray:
    """a < 0 ? 0 : a (−0 and NaN pass as they are), in a's type."""
    return np.where(a < 0, np.zeros((), a.dtype), a)


def _shift_right_round(a: np.ndarray, s) -> np.ndarray:
    """vshr round_en=1 (#27): a >> s plus the last bit shifted out (bit s-1 of a; the sign bit
    for counts past the width); unsigned types are not rounded (the ShiftRight page)."""
    res = _shift_right(a, s)
    n, bits = int(s), 8 * a.dtype.itemsize
    if n < 1 or a.dtype.kind != "i":
        return res
    return res + (np.right_shift(a, min(n - 1, bits - 1)) & 1).astype(a.dtype)


def _leaky_relu(a: np.ndarray, s) -> np.ndarray:
    """src < 0 ? src * SCALAR (rounded in T) : src; NaN and -0 pass as they are."""
    return np.where(a < 0, a * s, a)


BINARY = {"vadd": np.add, "vsub": np.subtract, "vmul": np.multiply, "vmax": np.maximum,
          "vmin": np.minimum, "vand": np.bitwise_and, "vor": np.bitwise_or,
          # #27a: vdiv (IEEE division, correctly rounded in T), vaddrelu, vsubrelu
          "vdiv": np.divide, "vaddrelu": lambda a, b: _relu(np.add(a, b)),
          "vsubrelu": lambda a, b: _relu(np.subtract(a, b))}
SCALAR = {"vadds": np.add, "vmuls": np.multiply, "vmaxs": np.maximum, "vmins": np.minimum,
          # #27a
          "vlrelu": _leaky_relu, "vshl": _shift_left, "vshr": _shift_right}
NAN_SRC0 = ("vadd", "vsub", "vmul", "vadds", "vmuls", "vdiv", "vaddrelu", "vsubrelu")


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
    res = _binary(vop, load(m, vop, vop.access("src0"), lo, hi),
                  load(m, vop, vop.access("src1"), lo, hi))
    store(m, vop, vop.access("dst"), res, lo, hi)


def _binary(vop: VectorOp, raw0: np.ndarray, raw1: np.ndarray) -> np.ndarray:
    a, b = numeric(raw0, vop), numeric(raw1, vop)
    with np.errstate(all="ignore"):
        res = BINARY[vop.instr.name](a, b).astype(vop.t.numeric, copy=False)
        return _nan_rule(vop, a, b, res)


def binary_of(values) -> Callable:
    """The body of a binary family whose dst = VALUES(src0, src1) in T, numpy's arithmetic
    on the numeric elements (a new family's body in one line: docs/decisions.md)."""
    def body(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
        a = numeric(load(m, vop, vop.access("src0"), lo, hi), vop)
        b = numeric(load(m, vop, vop.access("src1"), lo, hi), vop)
        with np.errstate(all="ignore"):
            res = values(a, b).astype(vop.t.numeric, copy=False)
        store(m, vop, vop.access("dst"), res, lo, hi)
    return body


def _abs(raw: np.ndarray, t) -> np.ndarray:
    """The sign bit cleared: |x| for floats, NaN payloads and all."""
    return raw & np.asarray((1 << (8 * t.size - 1)) - 1, t.raw)


UNARY = {"vabs": _abs, "vnot": lambda raw, t: ~raw}


def unary(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
    """vabs, vnot: bit operations on the raw elements."""
    raw = load(m, vop, vop.access("src"), lo, hi)
    store(m, vop, vop.access("dst"), _unary(vop, raw), lo, hi)


def _unary(vop: VectorOp, raw: np.ndarray) -> np.ndarray:
    return UNARY[vop.instr.name](raw.view(vop.t.raw), vop.t)


def unary_scalar(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
    res = _unary_scalar(vop, load(m, vop, vop.access("src"), lo, hi), scalar)
    store(m, vop, vop.access("dst"), res, lo, hi)


def _unary_scalar(vop: VectorOp, raw: np.ndarray, scalar: np.ndarray) -> np.ndarray:
    a = numeric(raw, vop)
    s = scalar.reshape(1).view(vop.t.numeric)[0]
    fn = _shift_right_round if vop.instr.fields.get("round_en") else SCALAR[vop.instr.name]
    with np.errstate(all="ignore"):
        res = fn(a, s).astype(vop.t.numeric, copy=False)
        return _nan_rule(vop, a, s, res)


def _prepared(values, sources: tuple[str, ...]):
    """prepare(vop, ub_bytes), the plan of a family whose body is dst = VALUES(vop, *sources'
    raw elements[, scalar]), over whole runs (semantics/runs.py): the body's own VALUES, read
    and written through slices worked out once; None for any other decoding."""
    def prepare(vop: VectorOp, ub_bytes: int):
        size = vop.t.size
        if vop.t.kind == "complex" or any(a.size != size for a in vop.operands):
            return None
        runs = whole_runs(vop, ("dst", *sources), ub_bytes)
        if runs is None:
            return None
        dst, srcs, raw = runs[0], runs[1:], RAW[size]

        def body(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
            view = m.views[size]
            args = [view[s] for s in srcs] + ([scalar] if scalar is not None else [])
            view[dst] = values(vop, *args).view(raw)
        return body
    return prepare


PREPARE = {"binary": _prepared(_binary, ("src0", "src1")),
           "unary": _prepared(_unary, ("src",)),
           "unary_scalar": _prepared(_unary_scalar, ("src",))}
