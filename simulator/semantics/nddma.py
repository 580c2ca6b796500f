"""ascend950's multi-dimensional DMA, copy_gm_to_ub_nd (docs/semantics.md §6.5; #34): up to
five nested loops of element strides, each loop padded on either side with a constant or its
nearest element (the address arithmetic: isa/nddma.py). GM → UB on MTE2.

Checks: the source inside its GM tensor and the destination inside UB (errors), the destination
32-byte aligned and inside its tensor (footprint), and two positions writing one element (the
pages forbid loops whose address spaces overlap: the overlap rule)."""

from __future__ import annotations

import numpy as np

from isa.nddma import DIMS, NdDmaOp
from isa.program import Instruction
from simulator.machine import Machine
from simulator.problems import Fault, Problem
from simulator.semantics.context import Context
from simulator.semantics.issued import Issued


def issue(ex: Context, instr: Instruction) -> Issued:
    addrs, f = ex.resolve(instr)
    gm = instr.operands["src"].tensor.name
    size = instr.dtype.size
    loops = {k: tuple(int(f.get(f"{k}{d}", dflt)) for d in range(DIMS))
             for k, dflt in (("size", 1), ("src_stride", 0), ("dst_stride", 0), ("lp", 0),
                             ("rp", 0))}
    nearest = bool(f.get("nearest", 0))
    if nearest and size == 8:
        raise Fault(Problem("range", f"{instr.name}: nearest=1 (nearest-value padding) is not "
                            "for 64-bit types (the NDDMA page: constant padding only)",
                            col=instr.cols.get("nearest")))
    pad = b"" if nearest else int(f.get("pad_value", 0)).to_bytes(size, "little")
    op = NdDmaOp(instr, None, addrs["dst"], gm, addrs["src"], size, loops["size"],
                 loops["src_stride"], loops["dst_stride"], loops["lp"], loops["rp"], pad,
                 nearest)
    _check_bounds(ex, instr, op, "src", gm)
    _check_bounds(ex, instr, op, "dst", None)
    _check_dst(ex, instr, op)
    return Issued(instr.defn.family.pipe, op, copy)


def copy(m: Machine, op: NdDmaOp, _arg, _lo, _hi) -> None:
    """Every position's element, loop 0 fastest: its source element or the padding."""
    src, dst = m.space(op.src_space), m.space(op.dst_space)
    values = src[op.element_bytes(op.src, op.src_elements)]
    if op.pad:
        values[op.padding] = np.frombuffer(op.pad, np.uint8)
    dst[op.element_bytes(op.dst, op.dst_elements)] = values


def _check_bounds(ex: Context, instr: Instruction, op: NdDmaOp, role: str,
                  gm: str | None) -> None:
    lo, hi = op.extent(role)
    size = ex.m.space(gm).size
    if lo < 0 or hi >= size:
        where = f"GM tensor {gm} ({size} bytes)" if gm else f"UB ({size} bytes)"
        first = lo if lo < 0 else int(op.indices(role)[op.indices(role) >= size][0])
        raise Fault(Problem("bounds", f"{instr.name} {role} touches byte {first:#x} outside "
                            f"{where}", role=role))


def _check_dst(ex: Context, instr: Instruction, op: NdDmaOp) -> None:
    if op.dst % 32 and not instr.is_static:
        ex.check(instr, Problem("align", f"{instr.name} dst address {op.dst:#x}",
                                " is not 32-byte aligned (UB operands of DMA must be 32-byte "
                                "aligned)", role="dst", at_value=True))
    t = instr.operands["dst"].tensor
    lo, hi = op.extent("dst")
    if t is not None and (lo < t.addr or hi >= t.addr + t.nbytes):
        ex.check(instr, Problem("footprint", f"{instr.name} dst {t.name} needs "
                                f"{hi - t.addr + 1} bytes, tensor has {t.nbytes}", role="dst"))
    twice = op.overlap()
    if twice is not None:
        ex.check(instr, Problem("overlap", f"{instr.name} writes dst element {twice} more than "
                                "once (the loops' destination address spaces overlap; NDDMA "
                                "needs them disjoint)", role="dst"))
