"""The binary composites with a conversion (#27, docs/semantics.md §6.4.3): vaddreluconv,
vsubreluconv (AscendC AddReluCast, SubReluCast) and vmulconv (MulCast).

Each element is computed in the source type SRC exactly as vaddrelu / vsubrelu / vmul compute
it (the IEEE result rounded in SRC, integers wrapping; two NaN operands give src0's NaN,
quieted), then converted to DST as Cast does with round=none — RINT where the conversion is
inexact, saturating to DST's range, NaN to an integer giving 0 (semantics/convert.py). The
vendor's pages call the conversion the Cast rules ("精度转换规则"); the C API's MulCast page
names RINT and saturation. Negative products converted to u8 (MulCast's u8 form) are the Cast
page's "unknown" case: pipev gives 0 and warns once per instruction with their count.
"""

from __future__ import annotations

import numpy as np

from isa.decode import VectorOp
from isa.types import DType
from simulator.machine import RAW, Machine
from simulator.semantics.arith import BINARY
from simulator.semantics.common import load, store
from simulator.semantics.convert import convert
from simulator.semantics.vconv import count_negative

# the same-type instruction whose element rule each one applies before converting
_OPS = {"vaddreluconv": "vaddrelu", "vsubreluconv": "vsubrelu", "vmulconv": "vmul"}


def _in_source(vop: VectorOp, raw0: np.ndarray, raw1: np.ndarray) -> np.ndarray:
    """The element results in SRC, as raw bits."""
    t = vop.instr.src_dtype
    a, b = raw0.view(t.numeric), raw1.view(t.numeric)
    with np.errstate(all="ignore"):
        res = BINARY[_OPS[vop.instr.name]](a, b).astype(t.numeric, copy=False)
    if t.is_float:
        both = np.isnan(a) & np.isnan(b)
        if both.any():
            quiet = np.asarray(1 << (t.mantissa_bits - 1), t.raw)
            res = np.where(both, (a.view(t.raw) | quiet).view(t.numeric), res)
    return res.view(RAW[t.size])


def _converted(raw: np.ndarray, src: DType, dst: DType) -> np.ndarray:
    """convert(raw, src, dst, "none"), with numpy where numpy's rounding is the same (round to
    nearest even; the exact conversion is the reference: tests/unit/test_binary_cast.py): an
    integer destination from rint and a clip (NaN → 0), f16 from f32 by numpy's correctly
    rounded cast with finite overflow saturated; NaN elements through convert() itself."""
    x = raw.view(src.numeric)
    if dst.is_int:
        info = np.iinfo(dst.numeric)
        if not src.is_float:
            return np.clip(x, info.min, info.max).astype(dst.numeric).view(dst.raw)
        # in f32 (f16 → f32 is exact, and numpy's f16 arithmetic is slow)
        with np.errstate(invalid="ignore"):
            v = np.rint(x.astype(np.float32))
        v = np.clip(np.nan_to_num(v, nan=0.0), info.min, info.max)
        return v.astype(dst.numeric).view(dst.raw)
    with np.errstate(over="ignore"):
        out = x.astype(dst.numeric)
    over = np.isinf(out) & np.isfinite(x)
    if over.any():  # the Cast rule: a finite value beyond the range saturates
        out = np.where(over, np.copysign(np.finfo(dst.numeric).max, x).astype(dst.numeric), out)
    out = out.view(dst.raw)
    nan = np.isnan(x)
    if nan.any():  # payload and quiet bit as the exact conversion keeps them
        out = out.copy()
        out[nan] = convert(raw[nan], src, dst, "none")
    return out


def binary_conv(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
    instr = vop.instr
    raw = _in_source(vop, load(m, vop, vop.access("src0"), lo, hi),
                     load(m, vop, vop.access("src1"), lo, hi))
    if instr.dtype.kind == "uint" and instr.src_dtype.kind != "uint":
        count_negative(m, vop, raw, lo, hi)
    store(m, vop, vop.access("dst"), _converted(raw, instr.src_dtype, instr.dtype), lo, hi)
