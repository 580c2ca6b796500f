"""Run-time checks over decoded micro-ops (docs/format.md §9.2–§9.3): pure functions returning a
Problem (what is wrong, the operand at fault, where) or None. The executor's policy decides
error, warning or silence and words the diagnostic."""

from __future__ import annotations

import numpy as np

from isa.decode import Access, VectorOp
from isa.program import Instruction, Tensor
from simulator.problems import Problem


def _where(acc: Access, flat: int) -> str:
    """`(repeat i, block j)` of element FLAT (a bit stream's byte) counted repeat by repeat."""
    i, j = acc.locate(flat)
    return f"(repeat {i}, block {j})"


def _elements(vop: VectorOp, acc: Access) -> tuple[np.ndarray, np.ndarray]:
    """Flat (R·N) element addresses and which of them are touched."""
    addrs = acc.addresses(vop.repeats).reshape(-1)
    if vop.touches_all(acc):
        return addrs, np.ones(addrs.shape, bool)
    return addrs, vop.active.reshape(-1)


def extent(vop: VectorOp, acc: Access) -> tuple[int, int]:
    """[first, last] byte the operand touches; (0, -1) when it touches nothing."""
    if vop.repeats == 0:
        return 0, -1
    if not acc.masked or vop.all_active or acc.role in vop.full_roles:  # = touches_all
        return acc.extent(vop.repeats)  # by arithmetic: what `_offsets_extent` shortcuts
    return _offsets_extent(vop, acc)


def _offsets_extent(vop: VectorOp, acc: Access) -> tuple[int, int]:
    """`extent` of a vector operand over its offset table (any strides and MASK)."""
    offs = acc.offsets(vop.repeats)
    if vop.all_active or acc.role in vop.full_roles:
        return acc.base + int(offs[0, 0]), acc.base + int(offs.max()) + acc.size - 1
    sel = offs[vop.active]
    if sel.size == 0:
        return 0, -1
    return acc.base + int(sel.min()), acc.base + int(sel.max()) + acc.size - 1


def bounds(vop: VectorOp, acc: Access, ub_bytes: int, ext: tuple[int, int] | None = None
           ) -> Problem | None:
    lo, hi = ext or extent(vop, acc)
    if hi < lo or (lo >= 0 and hi < ub_bytes):
        return None
    if acc.kind == "bits":
        first = max(lo, ub_bytes) if lo >= 0 else lo
        return Problem("bounds", f"{_name(vop, acc)} touches byte {first:#x} outside UB "
                       f"({ub_bytes} bytes)", where=_where(acc, first - acc.base),
                       role=acc.role)
    addrs, touched = _elements(vop, acc)
    bad = touched & ((addrs < 0) | (addrs + acc.size > ub_bytes))
    flat = int(np.argmax(bad))
    byte = int(addrs[flat]) if addrs[flat] < 0 else max(int(addrs[flat]), ub_bytes)
    return Problem("bounds", f"{_name(vop, acc)} touches byte {byte:#x} outside UB "
                   f"({ub_bytes} bytes)", where=_where(acc, flat), role=acc.role)


def tensor_of(instr: Instruction, role: str) -> Tensor | None:
    """The tensor an access of ROLE names (for the footprint rule), if any."""
    if role == "sel":
        src = instr.defn.family.sel_column_source(instr.fields)
        if src is None:
            return None
        role = src
    o = instr.operands.get(role)
    return o.tensor if o is not None else None


def footprint(vop: VectorOp, acc: Access, tensor: Tensor | None,
              ext: tuple[int, int] | None = None) -> Problem | None:
    """A tensor reference's footprint must stay inside the tensor (§9.2)."""
    if tensor is None:
        return None
    lo, hi = ext or extent(vop, acc)
    end = tensor.addr + tensor.nbytes
    if hi < lo or (lo >= tensor.addr and hi < end):
        return None
    if lo < tensor.addr:
        return Problem("footprint", f"{_name(vop, acc)} starts at byte {lo:#x}, before the "
                       f"tensor ({tensor.addr:#x})", role=acc.role)
    if acc.kind == "bits":
        where = _where(acc, end - acc.base)
    else:
        addrs, touched = _elements(vop, acc)
        where = _where(acc, int(np.argmax(touched & (addrs + acc.size > end))))
    return Problem("footprint", f"{_name(vop, acc)} needs {hi - tensor.addr + 1} bytes, "
                   f"tensor has {tensor.nbytes}", where=where, role=acc.role)


def scalar_overlap(vop: VectorOp, guard, addr: int) -> Problem | None:
    """§8.1: the destination must not overlap the scalar(NAME[I]) element at ADDR."""
    dst = vop.access("dst")
    if dst is None or vop.repeats == 0:
        return None
    addrs, touched = _elements(vop, dst)
    size = vop.t.size
    if not (touched & (addrs < addr + size) & (addrs + dst.size > addr)).any():
        return None
    return Problem("scalar_overlap", f"select dst overlaps the scalar element {guard.text} at "
                   f"{addr:#x}", " (the scalar must not overlap dst)", role="guard",
                   at_value=True)


def alignment(vop: VectorOp, acc: Access, align: int = 32) -> Problem | None:
    if acc.base % align == 0:
        return None
    which = "vector operands and vsel mask addresses" if acc.role == "sel" else \
        "vector operands" if align == 32 else f"{vop.instr.head} {acc.role}"
    return Problem("align", f"{_name(vop, acc)} address {acc.base:#x}",
                   f" is not {align}-byte aligned ({which} must be {align}-byte aligned)",
                   role=acc.role, at_value=True)


def nibble_mask(vop: VectorOp, acc: Access) -> Problem | None:
    """An s4 operand's two elements of a byte are enabled together (the Cast page: an even
    count, and in bitwise mode the bits 2j and 2j+1 of MASK equal)."""
    if vop.touches_all(acc):
        return None
    if vop.counter:
        if vop.last % 2 == 0:
            return None
        return Problem("align", f"{_name(vop, acc)}: counter mode count "
                       f"{(vop.repeats - 1) * vop.n + vop.last} is odd",
                       " (s4 elements pair in a byte: the count must be even)", role=acc.role)
    row = vop.row[: acc.per_repeat // 2 * 2].reshape(-1, 2)
    bad = np.flatnonzero(row[:, 0] != row[:, 1])
    if not bad.size:
        return None
    j = int(bad[0])
    return Problem("align", f"{_name(vop, acc)}: MASK bits {2 * j} and {2 * j + 1} differ",
                   " (s4 elements pair in a byte: MASK bits 2j and 2j+1 must be equal)",
                   role=acc.role)


def _bytes_by_repeat(vop: VectorOp, acc: Access) -> tuple[np.ndarray, np.ndarray]:
    """(repeat ids, byte addresses) of every byte the operand touches, in repeat order."""
    r = vop.repeats
    addrs = acc.addresses(r)
    rep = np.broadcast_to(np.arange(r)[:, None], addrs.shape)
    if not vop.touches_all(acc):
        addrs, rep = addrs[vop.active], rep[vop.active]
    addrs, rep = addrs.reshape(-1), rep.reshape(-1)
    if acc.size > 1:
        addrs = (addrs[:, None] + np.arange(acc.size)).reshape(-1)
        rep = rep.repeat(acc.size)
    return rep, addrs


def _name(vop: VectorOp, acc: Access) -> str:
    """`vsel.f32 dst z`: the instruction and the operand, as a message names them."""
    return f"{vop.instr.head} {label(vop, acc)}"


def label(vop: VectorOp, acc: Access) -> str:
    """How a message names an operand: `src0 x`, `dst @0x100`, `select mask m`."""
    role = acc.role
    if role == "sel":
        src = vop.family.sel_column_source(vop.instr.fields)
        if vop.family.cmpmask_addr(vop.instr.fields):
            return "select mask (address from CMPMASK)"
        o = vop.instr.operands.get(src) if src else None
        return f"select mask {o.tensor.name}" if o is not None and o.tensor else "select mask"
    o = vop.instr.operands.get(role)
    return f"{role} {o.tensor.name}" if o is not None and o.tensor is not None else role


def overlap(vop: VectorOp, extents: dict[str, tuple[int, int]] | None = None,
            skip: str | None = None) -> Problem | None:
    """§9.3 over the exact bytes: within a repeat, a source overlaps the destination 100% (the
    same bytes) or not at all; no repeat reads a byte an earlier repeat wrote. The problem at
    the lowest repeat is reported, with both operands, both repeats and the first byte."""
    dst = next((a for a in vop.operands if a.write), None)
    if dst is None or vop.repeats == 0:
        return None
    ext = extents or {}
    d_lo, d_hi = ext.get(dst.role) or extent(vop, dst)
    dep = None
    found: list[tuple[int, str, str]] = []
    for src in vop.operands:
        if src.write or src.role == skip:  # skip: a documented accumulating source (#27a)
            continue
        s_lo, s_hi = ext.get(src.role) or extent(vop, src)
        if s_hi < d_lo or d_hi < s_lo or s_hi < s_lo:
            continue
        if _in_place(vop, dst, src):
            continue
        problem, dep = _overlap_pair(vop, dst, src, dep, within=not _count_from_start(
            vop, dst, src))
        if problem:
            found.append(problem)
    if not found:
        return None
    return min(found, key=lambda f: f[0])[1]


def _in_place(vop: VectorOp, dst: Access, src: Access) -> bool:
    """The common in-place case, decided without byte sets: the same pattern reads in each
    repeat exactly what it writes, and no two repeats share a byte."""
    return (src.kind == dst.kind == "vector" and (src.base, src.size, src.blk, src.rep)
            == (dst.base, dst.size, dst.blk, dst.rep) and src.role not in vop.full_roles
            and not dst.has_duplicates(vop.repeats))


def _count_from_start(vop: VectorOp, dst: Access, src: Access) -> bool:
    """A count-form (counter mode) operation whose destination starts where its source does
    (a Cast narrowing in place): the documented 100%-or-nothing rule within a repeat is the
    high-dimensional forms' (docs/decisions.md, "#32: overlap of count forms"); only the rule
    between repeats applies, which still refuses a widening in place."""
    return vop.counter and dst.kind == src.kind == "vector" and dst.base == src.base


_BIG = np.int64(1) << 40  # (repeat, byte) packed into one int64 key


def _overlap_pair(vop: VectorOp, dst: Access, src: Access, dep, within: bool = True):
    """((repeat, message, role) or None, cached dst tables) for one (dst, source) pair;
    WITHIN: check the rule within a repeat as well as the one between repeats."""
    if dep is None:
        drep, dbyte = _bytes_by_repeat(vop, dst)
        order = np.argsort(dbyte, kind="stable")
        sb, sr = dbyte[order], drep[order]
        first = np.ones(sb.size, bool)
        first[1:] = sb[1:] != sb[:-1]
        dep = (sb[first], sr[first], np.unique(drep * _BIG + dbyte))  # earliest writer per byte
    wbytes, wrep, dkeys = dep
    srep, sbyte = _bytes_by_repeat(vop, src)
    names = f"{vop.instr.head} {label(vop, dst)} and {label(vop, src)}"
    role = src.role if not (src.role == "sel" and vop.family.cmpmask_addr(vop.instr.fields)) \
        else dst.role  # a select mask whose address comes from CMPMASK is no operand: dst
    found = []
    # a dependency between repeats: the earliest writer of a byte read is an earlier repeat
    pos = np.minimum(np.searchsorted(wbytes, sbyte), max(wbytes.size - 1, 0))
    earlier = (wbytes[pos] == sbyte) & (wrep[pos] < srep)
    if earlier.any():
        i = int(srep[earlier].min())
        this = earlier & (srep == i)
        b = int(sbyte[this].min())
        j = int(wrep[pos[this][np.argmin(sbyte[this])]])
        found.append((i, Problem("overlap", f"{names} overlap across repeats: repeat {i} reads "
                                 f"byte {b:#x}, which repeat {j} wrote (no repeat may read what "
                                 "an earlier repeat wrote)", where=_at(src, i, b),
                                 role=role)))
    if within and vop.family.reads_by_element(src.role):
        hit = _earlier_element(vop, dst, src)
        if hit is not None:
            i, k, j, b = hit
            found.append((i, Problem("overlap", f"{names} overlap in repeat {i}: element {k} "
                                     f"reads byte {b:#x}, which element {j} of the repeat "
                                     "wrote (a gathered element may be read where the repeat "
                                     "writes it or a later element, not an earlier one)",
                                     where=_at(src, i, b), role=role)))
    elif within and not vop.family.reads_before_writing():
        found += _partial_in_repeat(srep, sbyte, dkeys, names, src, role)
    return (min(found, key=lambda f: f[0]) if found else None), dep


def _partial_in_repeat(srep, sbyte, dkeys, names: str, src: Access, role: str) -> list[tuple]:
    """The rule within a repeat (unless the repeat reads all it reads before it writes: a
    reduction): where the byte sets meet they must be equal; [(repeat, Problem)] or []."""
    found = []
    skeys = np.unique(srep * _BIG + sbyte)
    shared = np.isin(skeys, dkeys, assume_unique=True)
    if shared.any():
        meet = np.unique(skeys[shared] // _BIG)
        only = np.concatenate([skeys[~shared],
                               dkeys[~np.isin(dkeys, skeys, assume_unique=True)]]) // _BIG
        bad = meet[np.isin(meet, only)]
        if bad.size:
            i = int(bad[0])
            keys = skeys[shared]
            b = int((keys[keys // _BIG == i] % _BIG).min())
            found.append((i, Problem("overlap", f"{names} overlap partially in repeat {i}, "
                                     f"first at byte {b:#x} (within a repeat operands overlap "
                                     "100%, the same bytes, or not at all)",
                                     where=_at(src, i, b), role=role)))
    return found


def _earlier_element(vop: VectorOp, dst: Access, src: Access
                     ) -> tuple[int, int, int, int] | None:
    """(repeat i, element k, element j < k, byte) of the first active element of a repeat that
    reads an element an earlier active element of that repeat wrote, or None. Within a repeat
    whose elements are read and written in order, or all read before any is written, the
    result is the same unless that happens: what pipev accepts does not depend on which."""
    r, size = vop.repeats, dst.size
    d, s = dst.addresses(r), src.addresses(r)
    active = vop.active if not vop.touches_all(dst) else np.ones(d.shape, bool)
    off = s - d[:, :1]
    j = off // size
    n = d.shape[1]
    k = np.arange(n)
    hit = active & (off % size == 0) & (j >= 0) & (j < k)  # (j < k < n)
    if hit.any():
        rows, cols = np.nonzero(hit)
        hit[rows, cols] = active[rows, j[rows, cols]]
    if not hit.any():
        return None
    i, kk = (int(v[0]) for v in np.nonzero(hit))
    return i, kk, int(j[i, kk]), int(s[i, kk])


def _at(acc: Access, i: int, byte: int) -> str:
    """`(repeat i, block j)` for the block of operand ACC holding BYTE in repeat i."""
    return f"(repeat {i}, block {acc.block_at(i, byte)})"
