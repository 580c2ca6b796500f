"""MASK and the mask mode (docs/semantics.md §6.1, §8.3): set_vector_mask, set_mask.T,
set_mask_count / set_mask_norm. The rules are isa.masks', shared with the listing."""

from __future__ import annotations

from isa.masks import MaskError, mask_after
from isa.program import Instruction, RegExpr
from simulator.machine import Machine
from simulator.problems import Fault, Problem
from simulator.semantics.context import Context
from simulator.semantics.issued import Issued


def issue(ex: Context, instr: Instruction) -> Issued:
    m = ex.m
    try:
        after = mask_after(instr, m.mask, m.counter, lambda role: ex.int_operand(instr, role))
    except MaskError as e:
        raise Fault(Problem("mask", e.message, role=e.role)) from None
    lo = instr.operands.get("lo") or instr.operands.get("len")
    source = (instr, lo) if lo is not None and isinstance(lo.value, RegExpr) else None
    return Issued("S", None, _set, (after, source))


def _set(m: Machine, _op, arg, _lo, _hi) -> None:
    after, source = arg
    if source is not None or after[0] != (m.mask_hi, m.mask_lo):
        m.mask_source = source  # which register MASK_LO (a counter-mode count) came from
    (m.mask_hi, m.mask_lo), m.counter = after
