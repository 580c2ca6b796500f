"""MASK and the mask mode (docs/semantics.md §6.1, §8.3): set_vector_mask, set_mask.T,
set_mask_count / set_mask_norm. The rules are isa.masks', shared with the listing."""

from __future__ import annotations

from collections.abc import Callable

from isa.masks import M64, MaskError, mask_after
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


def effect(instr: Instruction) -> Callable[[Machine, Instruction], bool]:
    """The write of INSTR's text as the fast loop repeats it (simulator/fused.py):
    effect(m, at) does what `issue` then `_set` do for the instruction AT (a line of that text:
    MASK_LO's source names it) and returns True, or returns False, changing nothing, when
    `issue` would fault (the reference path words it). Made once per plan: the mode writers
    and a `set_vector_mask` set the fields directly; `set_mask.T` goes through `mask_after`."""
    fam = instr.defn.family
    mode = fam.sets_mask_mode
    if mode is not None:
        def set_mode(m: Machine, at: Instruction) -> bool:
            m.counter = mode
            return True
        return set_mode
    ops = instr.operands
    if instr.dtype is None:  # set_vector_mask HI, LO: 64-bit words, no rule to check
        hi, lo = ops["hi"].value, ops["lo"].value
        hreg = hi.reg if isinstance(hi, RegExpr) else None
        lreg = lo.reg if isinstance(lo, RegExpr) else None
        last = [None, None]  # the last line written from and its MASK_LO source

        def set_words(m: Machine, at: Instruction) -> bool:
            x = m.x
            # a register word is x[reg] * scale + offset (an expansion may scale a count)
            h = (x[hreg] * hi.scale + hi.offset if hreg is not None else hi) & M64
            lw = (x[lreg] * lo.scale + lo.offset if lreg is not None else lo) & M64
            if lreg is not None:
                if at is not last[0]:  # a stream's statement writes from the same line again
                    last[:] = at, (at, at.operands["lo"])
                m.mask_source = last[1]
            elif h != m.mask_hi or lw != m.mask_lo:
                m.mask_source = None
            m.mask_hi, m.mask_lo = h, lw
            return True
        return set_words

    def set_mask(m: Machine, at: Instruction) -> bool:
        try:
            after = mask_after(at, m.mask, m.counter, lambda role: _int(m, at, role))
        except MaskError:
            return False
        lo = at.operands.get("lo") or at.operands.get("len")
        _set(m, None, (after, (at, lo) if lo is not None and isinstance(lo.value, RegExpr)
                       else None), 0, 1)
        return True
    return set_mask


def _int(m: Machine, instr: Instruction, role: str) -> int:
    """`Context.int_operand` on the machine itself."""
    v = instr.operands[role].value
    if not isinstance(v, RegExpr):
        return v
    x = m.x[v.reg]  # x * scale + offset modulo 2^64, as Context.int_operand
    return x if (v.scale, v.offset) == (1, 0) else (x * v.scale + v.offset) & M64
