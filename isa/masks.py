"""What the MASK-register instructions do (docs/semantics.md §6.1, §8.3), as pure functions shared
by the simulator's semantics and the listing, which follows MASK through straight-line code."""

from __future__ import annotations

from collections.abc import Callable

from isa.api import contiguous_mask
from isa.program import Instruction

M64 = (1 << 64) - 1


class MaskError(Exception):
    """A MASK value the instruction cannot set (message, operand role)."""

    def __init__(self, message: str, role: str):
        super().__init__(message)
        self.message, self.role = message, role


def mask_after(instr: Instruction, mask: tuple, counter: bool, value: Callable[[str], object]
               ) -> tuple[tuple, bool]:
    """(MASK, counter mode) after a register-family instruction. VALUE(role) reads an operand's
    integer (at run time a register's value; in the listing possibly a symbolic RegExpr)."""
    fam = instr.defn.family
    if fam.sets_mask_mode is not None:
        return mask, fam.sets_mask_mode
    if instr.dtype is None:  # set_vector_mask HI, LO
        hi, lo = value("hi"), value("lo")
        return (_u64(hi), _u64(lo)), counter
    n = value("len")  # set_mask.T LEN: the contiguous rule, or the count in counter mode
    if not isinstance(n, int):
        return (n, n), counter
    t = instr.dtype
    if counter:
        return (0, n & M64), counter
    if t.size == 1 and n != 256:
        raise MaskError(f"set_mask.{t.name} {n}: 8-bit types take LEN=256 only in normal mode",
                        "len")
    if n < 1:
        raise MaskError(f"set_mask.{t.name} LEN={n} is out of range (1..{t.per_repeat})", "len")
    return contiguous_mask(n, t), counter


def _u64(v):
    return v & M64 if isinstance(v, int) else v
