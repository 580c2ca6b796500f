"""vconv's body (docs/semantics.md §6.4, AscendC Cast): the memory-based unit's conversion
instruction, over semantics/convert.py's exact arithmetic; on ascend950 through the reg-based
Cast (semantics/regvec_convert.py), which the 950's memory-based Cast is built on. Kept apart
from convert.py so that the arithmetic both units share sits below both."""

from __future__ import annotations

import numpy as np

from isa import ctrl
from isa.decode import VectorOp
from isa.regvec_convert import CAST_PAIRS
from isa.table import ROUND_MODES
from isa.types import DType
from simulator.machine import RAW, Machine
from simulator.semantics.common import load, store
from simulator.semantics.convert import convert, split
from simulator.semantics.ctrl import value as ctrl_value
from simulator.semantics.regvec_convert import reg_convert


def vconv(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
    instr = vop.instr
    raw = load(m, vop, vop.access("src"), lo, hi)
    mode = ROUND_MODES[instr.fields.get("round", 0)]
    src = raw.view(RAW[instr.src_dtype.size])
    if instr.dtype.kind == "uint" and instr.src_dtype.kind != "uint":
        count_negative(m, vop, src, lo, hi)
    out = _on_reg_unit(m, src, instr.src_dtype, instr.dtype, mode)
    if out is None:
        out = convert(src, instr.src_dtype, instr.dtype, mode)
    store(m, vop, vop.access("dst"), out, lo, hi)


def _on_reg_unit(m: Machine, raw: np.ndarray, src: DType, dst: DType, mode: str
                 ) -> np.ndarray | None:
    """On ascend950 the memory-based Cast is the reg-based one (the Cast page: "通过VF调用Reg矢量
    计算API实现"), so a pair the reg Cast has converts by its rules, saturating as CTRL says
    (the memory-based Cast has no SatMode of its own: with CTRL[60] = 0 it saturates, its
    "溢出默认按照饱和处理"); None elsewhere (docs/semantics.md §15.4)."""
    if not m.chip.reg_vector:
        return None
    row = CAST_PAIRS.get((dst.name, src.name))
    if row is None:
        return None
    sat = row[1] != "sat" or ctrl.saturates(ctrl_value(m),
                                            dst.name[0] in "su", True)
    return reg_convert(raw, src, dst, mode, sat)


def count_negative(m: Machine, vop: VectorOp, raw: np.ndarray, lo: int, hi: int) -> None:
    """Negative sources of a conversion to an unsigned type: the Cast page calls the result
    unknown (pipev saturates to 0); the run warns once per instruction with their count."""
    t = vop.instr.src_dtype
    if t.is_float:  # the sign bit set and not NaN, -0 aside: below zero
        p = split(raw, t)
        neg = p.neg & ~p.nan & ((p.mag != 0) | p.inf)
    else:
        neg = raw.view(t.numeric) < 0
    n = int(np.count_nonzero(neg & vop.active[lo:hi]))
    if n:
        m.count_unknown(vop.instr, f"negative values converted to {vop.instr.dtype.name}", n)
