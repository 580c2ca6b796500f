"""Operands as whole runs: a decoding whose every operand is one aligned run of elements, all of
them active, reads and writes plain slices of UB. Worked out once per decoding, for the plans of
the bodies (semantics/vector.py PREPARE: the same computation as the body's general path over
common.py's element access, which gives the same bytes)."""

from __future__ import annotations

from isa.decode import VectorOp


def whole_runs(vop: VectorOp, roles: tuple[str, ...], ub_bytes: int) -> list[slice] | None:
    """Element slices (of UB viewed as the operands' element size) of ROLES over all repeats,
    when each is one aligned, in-bounds run with every element active; else None."""
    if not vop.all_active or not vop.repeats:
        return None
    out = []
    for role in roles:
        acc = vop.access(role)
        if acc is None or acc.kind != "vector" or not acc.contiguous or acc.base % acc.size:
            return None
        start = acc.base // acc.size
        stop = start + vop.repeats * vop.n
        if stop * acc.size > ub_bytes or acc.per_repeat != vop.n:
            return None
        out.append(slice(start, stop))
    return out
