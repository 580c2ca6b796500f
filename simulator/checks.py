"""Run-time checks over decoded micro-ops (ISA.md §9.2–§9.3): pure functions returning a
message (and the operand at fault) or None. The executor decides error, warning or silence."""

from __future__ import annotations

import numpy as np

from isa.addressing import has_duplicates
from isa.decode import Access, VectorOp
from isa.program import Tensor

Problem = tuple[str, str] | None  # (message, operand role)


def _where(vop: VectorOp, acc: Access, flat: int) -> str:
    if acc.kind == "bits":
        nb = vop.n // 8
        return f"(repeat {flat // nb}, block {flat % nb // 32})"
    i, k = divmod(flat, vop.n)
    return f"(repeat {i}, block {k // (32 // acc.size)})"


def _elements(vop: VectorOp, acc: Access) -> tuple[np.ndarray, np.ndarray]:
    """Flat (R·N) element addresses and which of them are touched."""
    addrs = vop.byte_addrs(acc).reshape(-1)
    if vop.all_active or acc.role in vop.full_roles:
        return addrs, np.ones(addrs.shape, bool)
    return addrs, vop.active.reshape(-1)


def extent(vop: VectorOp, acc: Access) -> tuple[int, int]:
    """[first, last] byte the operand touches; (0, -1) when it touches nothing."""
    if vop.repeats == 0:
        return 0, -1
    if acc.kind == "bits":
        return acc.base, acc.base + vop.repeats * (vop.n // 8) - 1
    offs = acc.offsets(vop.repeats)
    if vop.all_active or acc.role in vop.full_roles:
        return acc.base + int(offs[0, 0]), acc.base + int(offs.max()) + acc.size - 1
    sel = offs[vop.active]
    if sel.size == 0:
        return 0, -1
    return acc.base + int(sel.min()), acc.base + int(sel.max()) + acc.size - 1


def bounds(vop: VectorOp, acc: Access, ub_bytes: int, ext: tuple[int, int] | None = None
           ) -> Problem:
    lo, hi = ext or extent(vop, acc)
    if hi < lo or (lo >= 0 and hi < ub_bytes):
        return None
    if acc.kind == "bits":
        first = max(lo, ub_bytes) if lo >= 0 else lo
        return (f"{acc.role} touches byte {first:#x} outside UB ({ub_bytes} bytes) "
                f"{_where(vop, acc, first - acc.base)}", acc.role)
    addrs, touched = _elements(vop, acc)
    bad = touched & ((addrs < 0) | (addrs + acc.size > ub_bytes))
    flat = int(np.argmax(bad))
    byte = int(addrs[flat]) if addrs[flat] < 0 else max(int(addrs[flat]), ub_bytes)
    return (f"{acc.role} touches byte {byte:#x} outside UB ({ub_bytes} bytes) "
            f"{_where(vop, acc, flat)}", acc.role)


def footprint(vop: VectorOp, acc: Access, tensor: Tensor | None,
              ext: tuple[int, int] | None = None) -> Problem:
    """A tensor reference's footprint must stay inside the tensor (§9.2)."""
    if tensor is None:
        return None
    lo, hi = ext or extent(vop, acc)
    end = tensor.addr + tensor.nbytes
    if hi < lo or (lo >= tensor.addr and hi < end):
        return None
    if lo < tensor.addr:
        return (f"{acc.role} {tensor.name} starts at byte {lo:#x}, before the tensor "
                f"({tensor.addr:#x})", acc.role)
    if acc.kind == "bits":
        where = _where(vop, acc, end - acc.base)
    else:
        addrs, touched = _elements(vop, acc)
        where = _where(vop, acc, int(np.argmax(touched & (addrs + acc.size > end))))
    return (f"{acc.role} {tensor.name} needs {hi - tensor.addr + 1} bytes, tensor has "
            f"{tensor.nbytes} {where}", acc.role)


def alignment(acc: Access, align: int = 32) -> Problem:
    if acc.base % align == 0:
        return None
    what = "vsel mask" if acc.role == "sel" else acc.role
    return (f"{what} address {acc.base:#x} is not {align}-byte aligned (vector operands must be "
            f"{align}-byte aligned)", acc.role)


def _bytes_by_repeat(vop: VectorOp, acc: Access) -> tuple[np.ndarray, np.ndarray]:
    """(repeat ids, byte addresses) of every byte the operand touches, in repeat order."""
    r = vop.repeats
    if acc.kind == "bits":
        nb = vop.n // 8
        byte = acc.base + np.arange(r * nb, dtype=np.int64)
        return np.arange(r).repeat(nb), byte
    addrs = vop.byte_addrs(acc)
    rep = np.broadcast_to(np.arange(r)[:, None], addrs.shape)
    if not (vop.all_active or acc.role in vop.full_roles):
        addrs, rep = addrs[vop.active], rep[vop.active]
    addrs, rep = addrs.reshape(-1), rep.reshape(-1)
    if acc.size > 1:
        addrs = (addrs[:, None] + np.arange(acc.size)).reshape(-1)
        rep = rep.repeat(acc.size)
    return rep, addrs


def overlap(vop: VectorOp, extents: dict[str, tuple[int, int]] | None = None) -> Problem:
    """§9.3: 100%-or-nothing within a repeat; no repeat reads what an earlier one wrote."""
    dst = next((a for a in vop.operands if a.write), None)
    if dst is None or vop.repeats == 0:
        return None
    ext = extents or {}
    d_lo, d_hi = ext.get(dst.role) or extent(vop, dst)
    reads = [a for a in vop.operands if not a.write]
    dep = None
    for src in reads:
        s_lo, s_hi = ext.get(src.role) or extent(vop, src)
        if s_hi < d_lo or d_hi < s_lo or s_hi < s_lo:
            continue
        if _in_place(vop, dst, src):
            continue
        problem, dep = _overlap_pair(vop, dst, src, dep)
        if problem:
            return problem
    return None


def _in_place(vop: VectorOp, dst: Access, src: Access) -> bool:
    """The common in-place case, decided without byte sets: the same pattern reads in each
    repeat exactly what it writes, and no two repeats share a byte."""
    return (src.kind == dst.kind == "vector" and (src.base, src.size, src.blk, src.rep)
            == (dst.base, dst.size, dst.blk, dst.rep) and src.role not in vop.full_roles
            and not has_duplicates(dst.size, dst.blk, dst.rep, vop.repeats))


def _overlap_pair(vop: VectorOp, dst: Access, src: Access, dep) -> tuple[Problem, object]:
    if dep is None:
        drep, dbyte = _bytes_by_repeat(vop, dst)
        order = np.argsort(dbyte, kind="stable")
        sb, sr = dbyte[order], drep[order]
        first = np.ones(sb.size, bool)
        first[1:] = sb[1:] != sb[:-1]
        dep = (sb[first], sr[first], drep, dbyte)  # earliest writer per byte
    wbytes, wrep, drep, dbyte = dep
    srep, sbyte = _bytes_by_repeat(vop, src)
    pos = np.minimum(np.searchsorted(wbytes, sbyte), max(wbytes.size - 1, 0))
    hit = wbytes[pos] == sbyte
    earlier = hit & (wrep[pos] < srep)
    if earlier.any():
        k = int(np.argmax(earlier))
        return (f"repeat {int(srep[k])} reads {src.role} byte {int(sbyte[k]):#x}, which repeat "
                f"{int(wrep[pos[k]])} wrote to dst (dependency between repeats; dst and "
                f"{src.role} overlap)", src.role), dep
    # same-repeat overlap: must be 100% (same start, same block stride) or none
    big = np.int64(1) << 40
    same = np.isin(srep * big + sbyte, np.unique(drep * big + dbyte))
    if not same.any():
        return None, dep
    reps = np.unique(srep[same])
    if src.kind == dst.kind == "vector" and src.size == dst.size and src.blk == dst.blk:
        # same start and block stride give the same bytes (vector operands share the mask)
        starts_equal = src.base + reps * src.rep * 32 == dst.base + reps * dst.rep * 32
        if starts_equal.all():
            return None, dep
        i = int(reps[np.argmin(starts_equal)])
    else:
        i = int(reps[0])
    b = int(sbyte[same & (srep == i)][0])
    return (f"dst and {src.role} overlap partially in repeat {i} at byte {b:#x} "
            "(an overlap must be 100%: same start address and block stride, or none)",
            src.role), dep


def dma_ranges(base: int, nburst: int, burst: int, gap: int) -> tuple[int, int]:
    """[first, last] byte of a DMA side."""
    return base, base + (nburst - 1) * (burst + gap) * 32 + burst * 32 - 1
