"""MASK and the mask mode (ISA.md §6.1, §8.3): set_vector_mask, set_mask.T, set_mask_count /
set_mask_norm. The rules are isa.masks', shared with the listing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from isa.masks import MaskError, mask_after
from isa.program import Instruction
from simulator.machine import Machine
from simulator.problems import Fault, Problem
from simulator.semantics.issued import Issued

if TYPE_CHECKING:  # pragma: no cover
    from simulator.executor import Executor


def issue(ex: Executor, instr: Instruction) -> Issued:
    m = ex.m
    try:
        after = mask_after(instr, m.mask, m.counter, lambda role: ex.int_operand(instr, role))
    except MaskError as e:
        raise Fault(Problem("mask", e.message, role=e.role)) from None
    return Issued("S", None, _set, after)


def _set(m: Machine, _op, after, _lo, _hi) -> None:
    (m.mask_hi, m.mask_lo), m.counter = after
