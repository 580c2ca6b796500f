"""UB tensors whose outermost dimension is known only when the kernel runs (#29): a dynamic-
shape operator declares `Tensor(dtype, (n,), scope=tik.scope_ubuf)` with `n` a Scalar read from
its tiling data. TIK places such a tensor when the kernel runs; so does pipev:

- every run-time-sized tensor lies in one region of UB, the *arena*: from the end of the
  highest range a fixed-size tensor of the kernel ever takes (known at BuildCCE) to the API
  scratch area;
- a tensor starts where the last run-time-sized tensor still alive ends (0 for the first): its
  end, in bytes rounded up to 32, is an int64 register the scalar unit computes at the
  declaration (when registers are short, the expression of the sizes, recomputed where it is
  used), and the tensor's accesses add the start of it;
- a tensor that would end past the arena stops the run with an error at its declaration.

Each such tensor is its own pipev tensor over the whole arena, so an access beyond the arena is
out of bounds; one beyond the tensor's run-time size but inside the arena is not seen (the
bytes belong to the next run-time tensor or to none). The synchronisation orders all of them
as one buffer (they share the arena's bytes)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from simulator.tik.errors import Loc, TikError
from simulator.tik.expr import Const, LowerError, as_expr
from simulator.tik.nodes import Op
from simulator.tik.values import Tensor, set_scalar

if TYPE_CHECKING:
    from isa.types import DType

# TIK: the simulator/tik/tik.py Tik building the kernel, untyped here (tik.py imports this module)
TIK = Any

# the arena's size in the declarations' checks, replaced by the real figure at BuildCCE
# (an immediate no kernel writes: 2^62 + 29)
_PENDING = (1 << 62) + 29
# a tensor's end takes a register only while more than these are free for the kernel's own
# Scalars (an operator keeping many tiling Scalars alive would run out): else its end is the
# expression of the sizes, which the scalar unit recomputes where the tensor is used
SPARE_REGISTERS = 8


class Placed:
    """One run-time-sized tensor: its root (a pipev tensor over the arena) and its end."""

    def __init__(self, root: Tensor, end, check: Op):
        self.root, self.end, self.check = root, end, check


def is_runtime(shape) -> bool:
    """SHAPE has an outermost dimension known only when the kernel runs."""
    if not isinstance(shape, (list, tuple)) or not shape:
        return False
    try:
        return as_expr(shape[0]).constant() is None
    except (TypeError, LowerError):
        return False


def declare(tik: TIK, loc: Loc, dtype: str, t: DType, shape, name: str, pname: str) -> Tensor:
    """The tensor, placed when the kernel runs (see the module's text)."""
    try:
        inner = tuple(int(as_expr(d).constant()) for d in shape[1:])
    except (TypeError, LowerError, ValueError):
        raise TikError.at(loc, f"Tensor '{name}': only the outermost dimension of a scope_ubuf "
                          f"tensor may be known only when the kernel runs, got {shape!r}") \
            from None
    if any(d < 1 for d in inner):
        raise TikError.at(loc, f"Tensor '{name}': shape {shape!r} must have positive dimensions")
    count = as_expr(shape[0]) * math.prod(inner)
    nbytes = (count * t.size + 31) // 32 * 32
    alive = [p for p in tik.runtime_ub if not (p.root.life and p.root.life.ended)]
    start = alive[-1].end if alive else Const(0)
    if tik.registers.spare() > SPARE_REGISTERS:
        end = tik.Scalar("int64", name=f"{name}_end")
        set_scalar(end, start + nbytes, loc)
    else:  # registers are short: the end as the expression of the sizes (recomputed per use)
        end = as_expr(start + nbytes)
    check = Op(loc, "Tensor", [])
    with tik._branch(loc, end > _PENDING):
        tik.record(check)
    cap = (tik.chip.ub_bytes - tik.chip.scratch_bytes) // t.size
    root = Tensor(tik, dtype, t, (cap,), name, "ubuf", pname, loc)
    tik.tensors[pname] = root
    tik.runtime_ub.append(Placed(root, end, check))
    rows = cap // math.prod(inner)
    view = Tensor(tik, dtype, t, (rows, *inner), name, "ubuf", pname, loc, root,
                  as_expr(start) // t.size if alive else Const(0))
    return view


def finish(tik: TIK) -> None:
    """At BuildCCE: the arena's place, each run-time tensor's root over it, and the size the
    declarations check against."""
    if not tik.runtime_ub:
        return
    ours = {p.root.pname for p in tik.runtime_ub}
    fixed_end = max((b for _, b, name in tik.placed if name not in ours), default=0)
    base = (fixed_end + 31) // 32 * 32
    limit = tik.chip.ub_bytes - tik.chip.scratch_bytes
    size = max(0, limit - base)
    for p in tik.runtime_ub:
        root = p.root
        root.addr = base
        root.shape = (max(1, size // root.t.size),)
        root._strides = None
        tik.placed.append((base, base + max(size, 32), root.pname))
        p.check.lines = [f'fail "Tensor \'{root.name}\' does not fit in UB: with the shape '
                         f'it has when the kernel runs it ends past the {size} bytes left '
                         f'on {tik.chip.name} for tensors sized at run time"']
        _replace_pending(tik, p, size)
    for view in tik.tensors.values():  # reinterpret_cast_to views of a run-time tensor
        if view.alias_of is not None and view.alias_of.pname in ours:
            view.addr = base
            view.shape = (max(1, size // view.t.size),)


def _replace_pending(tik: TIK, p: Placed, size: int) -> None:
    """The If around P's check compares against _PENDING: now the arena's size."""
    from simulator.tik.nodes import If

    def walk(block) -> bool:
        for node in block.nodes:
            if isinstance(node, If) and node.then.nodes and node.then.nodes[0] is p.check:
                node.head.lines = [line.replace(str(_PENDING), str(size))
                                   for line in node.head.lines]
                return True
            for child in (getattr(node, "body", None), getattr(node, "then", None),
                          getattr(node, "orelse", None)):
                if child is not None and walk(child):
                    return True
        return False

    walk(tik.root)
