"""GM atomics (issue #27; AscendC SetAtomicAdd/Max/Min<T>, SetAtomicNone, SetAtomicType):
`set_atomic.T atomic=OP` sets the state a UB → GM copy reads when it issues; each element the
copy moves is then combined with the GM element it lands on (add, max, min in T) instead of
overwriting it. Nothing else changes: the copy's bursts, timing and UB side are a plain copy's.

Arithmetic is T's own, element by element: float add is IEEE round-to-nearest-even of the exact
sum (numpy in T), integer add wraps, max/min follow vmax/vmin (a NaN operand wins)."""

from __future__ import annotations

import numpy as np

from isa.program import Instruction
from isa.table import ATOMIC_OPS
from isa.types import TYPES
from simulator.machine import Machine
from simulator.problems import Fault, Problem
from simulator.semantics.context import Context
from simulator.semantics.issued import Issued

OPS = {"add": np.add, "max": np.maximum, "min": np.minimum}


def issue(ex: Context, instr: Instruction) -> Issued:
    """set_atomic.T [atomic=OP]: without atomic=, the operation in force takes type T (the
    AscendC SetAtomicType)."""
    word = instr.fields.get("atomic")
    return Issued("S", None, _set, (None if word is None else ATOMIC_OPS[word], instr.dtype))


def _set(m: Machine, _op, arg, _lo, _hi) -> None:
    op, t = arg
    if op is None:  # SetAtomicType: keep the operation
        m.atomic = (m.atomic[0], t) if m.atomic is not None else None
    else:
        m.atomic = None if op == "none" else (op, t)


def atomic_of(ex: Context, instr: Instruction, gm_dst: str | None, nbytes: int
              ) -> tuple[str, str]:
    """The atomic operation a copy takes at issue: only UB → GM copies (GM is the destination)
    of whole elements of T (NBYTES a burst)."""
    state = ex.m.atomic
    if state is None or gm_dst is None:
        return ()
    op, t = state
    if nbytes % t.size:
        raise Fault(Problem("range", f"{instr.name} under atomic {op}.{t.name} moves {nbytes} "
                            f"bytes a burst, not whole {t.name} elements"))
    return (op, t.name)


def accumulate(gm: np.ndarray, where: np.ndarray, data: np.ndarray, atomic: tuple[str, str]
               ) -> None:
    """GM bytes WHERE (whole elements, in order) = GM OP DATA, in the element type."""
    op, name = atomic
    t = TYPES[name]
    with np.errstate(all="ignore"):
        old = gm[where].view(t.numeric)
        new = np.ascontiguousarray(data).view(t.numeric)
        res = OPS[op](old, new).astype(t.numeric, copy=False)
    gm[where] = res.view(np.uint8)
