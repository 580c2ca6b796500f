"""DMA (ISA.md §6.5): copy_gm_to_ub / copy_ub_to_gm on the MTE pipes, copy_ub_to_ub on V.
Bursts of `burst` 32-byte blocks; gaps skip blocks after each burst."""

from __future__ import annotations

from isa.decode import DmaOp
from isa.program import Instruction
from simulator.machine import Machine
from simulator.problems import Fault, Problem
from simulator.semantics.context import Context
from simulator.semantics.issued import Issued


def issue(ex: Context, instr: Instruction) -> Issued:
    addrs, f = ex.resolve(instr)
    o = instr.operands
    spaces = {r: (o[r].tensor.name if o[r].space == "gm" else None) for r in ("dst", "src")}
    op = DmaOp(instr, spaces["dst"], addrs["dst"], spaces["src"], addrs["src"],
               f["nburst"], f["burst"], f.get("src_gap", 0), f.get("dst_gap", 0))
    for role, base, gap in (("src", op.src, op.src_gap), ("dst", op.dst, op.dst_gap)):
        _check_side(ex, instr, op, role, base, gap, spaces[role])
    return Issued(instr.defn.family.pipe, op, copy)


def copy(m: Machine, op: DmaOp, _arg, _lo, _hi) -> None:
    src, dst = m.space(op.src_space), m.space(op.dst_space)
    n = op.burst * 32
    if op.nburst == 1:
        dst[op.dst:op.dst + n] = src[op.src:op.src + n]
    elif src is dst:  # UB → UB: burst by burst, in order
        for k in range(op.nburst):
            s = op.src + k * (op.burst + op.src_gap) * 32
            d = op.dst + k * (op.burst + op.dst_gap) * 32
            dst[d:d + n] = src[s:s + n]
    else:
        dst[op.indices(op.dst, op.dst_gap)] = src[op.indices(op.src, op.src_gap)]


def _where(op: DmaOp, base: int, gap: int, byte: int) -> str:
    """`(burst k, block j)` of the first block at or after BYTE that one side touches."""
    burst, blk = divmod(max(byte - base, 0) // 32, op.burst + gap)
    if blk >= op.burst:  # BYTE falls in a gap: the next burst's first block
        burst, blk = burst + 1, 0
    if burst >= op.nburst:
        burst, blk = op.nburst - 1, op.burst - 1
    return f"(burst {burst}, block {blk})"


def _check_side(ex: Context, instr: Instruction, op: DmaOp, role: str, base: int, gap: int,
                gm: str | None) -> None:
    lo, hi = op.extent(base, gap)
    size = ex.m.space(gm).size
    if lo < 0 or hi >= size:
        where = f"GM tensor {gm} ({size} bytes)" if gm else f"UB ({size} bytes)"
        first = lo if lo < 0 else max(lo, size)
        raise Fault(Problem("bounds", f"{instr.name} {role} touches byte {first:#x} outside "
                            f"{where}", where=_where(op, base, gap, first), role=role))
    if gm is not None:
        return
    if base % 32 and not instr.is_static:
        ex.check(instr, Problem("align", f"{instr.name} {role} address {base:#x}",
                                " is not 32-byte aligned (UB operands of DMA must be 32-byte "
                                "aligned)", role=role, at_value=True))
    t = instr.operands[role].tensor
    if t is not None and (lo < t.addr or hi >= t.addr + t.nbytes):
        end = t.addr + t.nbytes
        tail = _where(op, base, gap, end if hi >= end else lo)
        ex.check(instr, Problem("footprint", f"{instr.name} {role} {t.name} needs "
                                f"{hi - t.addr + 1} bytes, tensor has {t.nbytes}", where=tail,
                                role=role))
