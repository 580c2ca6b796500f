"""pipev's scratch area when kernels may have all of UB (the C++ front end, #32 class 3).

A few API expansions (isa/api.py: a select's scalar block, an inverted select mask) keep
temporaries at fixed addresses in the top `scratch_bytes` of UB. The `.vasm` front end keeps
that area out of the user's way (a warning when a tensor reaches into it). AscendC kernels may
InitBuffer the whole UB, as on silicon: then the area is used only when such an API runs, and
an expansion whose temporaries overlap a UB tensor the kernel has declared is an error at that
call, naming the tensor and where it was declared — on silicon the vendor's API would keep its
temporaries somewhere, and a kernel that fills all of UB leaves it no room (a latent bug).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from isa.program import Instruction

BLOCK = 32  # a temporary is written and read in whole 32-byte blocks


def scratch_span(hw: Iterable[Instruction], base: int) -> tuple[int, int] | None:
    """The UB bytes [lo, hi) of the scratch area (at and above BASE) the instructions HW name,
    or None when they use none."""
    lo = hi = None
    for instr in hw:
        for o in instr.operands.values():
            if o.kind == "mem" and o.space == "ub" and o.tensor is None \
                    and isinstance(o.addr, int) and o.addr >= base:
                lo = o.addr if lo is None else min(lo, o.addr)
                hi = o.addr + BLOCK if hi is None else max(hi, o.addr + BLOCK)
    return None if lo is None else (lo, hi)


def overlapping(span: tuple[int, int], tensors: Mapping[str, object]):
    """The first UB tensor (declaration order) whose bytes meet SPAN, or None."""
    lo, hi = span
    for t in tensors.values():
        if t.space == "ub" and t.addr < hi and lo < t.addr + t.nbytes:
            return t
    return None


def message(span: tuple[int, int], tensor, file: str) -> str:
    lo, hi = span
    return (f"this call keeps temporaries in pipev's scratch area at UB {lo:#x}..{hi:#x}, "
            f"which overlaps '{tensor.name}' (UB {tensor.addr:#x}..{tensor.addr + tensor.nbytes:#x}"
            f", declared at {file}:{tensor.line}): they would overwrite it; leave that part of "
            "UB free for this call (on silicon the API needs room for its temporaries too)")
