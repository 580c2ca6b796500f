"""GatherMask (vreducev2) and its count register, and Gather (vgather) (docs/semantics.md §8.4).

GatherMask: src0's elements whose pattern bit is set, written back to back from dst; RSVD_CNT
holds how many. Where they go depends on the pattern's bits, so the issue reads them (UB as it is
at issue, which the body sees too: bodies take effect at issue) and fixes the destination's count
before the checks: the footprint, bounds, traces and the undo log see the bytes actually written.

Gather: each dst element from src + a byte offset read from UB; the issue reads the offsets and
attaches them to src's `indexed` access before src's checks, so its bounds, footprint, alignment,
overlap and race checks are over the bytes actually read."""

from __future__ import annotations

from collections.abc import Callable

import attrs
import numpy as np

from isa.decode import Access, VectorOp, address_list_offsets, decode_vector
from isa.program import Instruction
from simulator import checks
from simulator.machine import Machine
from simulator.problems import Fault, Problem
from simulator.semantics.common import load, store
from simulator.semantics.context import Context
from simulator.semantics.issued import Issued
from simulator.semantics.vector import _noop, check_operand

RSVD = "rsvd_cnt"  # Machine.special's key: the count GetRsvdCnt reads


def pattern_bits(pattern: int, n: int) -> np.ndarray:
    """(n,) bool: the built-in pattern's bit of element k of a repeat (the vendor's bit strings
    read from the right: 1 = 0101…01 keeps elements 0, 2, 4, …)."""
    k = np.arange(n)
    if pattern == 7:
        return np.ones(n, bool)
    if pattern in (1, 2):
        return k % 2 == pattern - 1
    return k % 4 == pattern - 3


def kept(m: Machine, vop: VectorOp) -> np.ndarray:
    """(R, n) bool: the elements each repeat keeps — its pattern bit and active."""
    src1 = vop.access("src1")
    if src1 is None:
        bits = np.broadcast_to(pattern_bits(vop.instr.fields.get("pattern", 0), vop.n),
                               vop.active.shape)
    else:
        rows = m.ub[np.clip(src1.addresses(vop.repeats), 0, m.ub.size - 1)]
        bits = np.unpackbits(rows, axis=1, bitorder="little")[:, :vop.n].astype(bool)
    return bits & vop.active


def issue(ex: Context, instr: Instruction) -> Issued:
    m = ex.m
    addrs, fields = ex.resolve(instr)
    vop = decode_vector(instr, addrs, fields, m.mask, m.counter,
                        ex.chip.gathermask_counter == "per_repeat")
    if _noop(ex, instr, vop, fields):
        return Issued("V", vop, uops=vop.repeats)
    for acc in vop.operands:
        if acc.role != "dst":
            _check(ex, instr, vop, acc)
    keep = kept(m, vop)
    total = int(keep.sum())
    dst = vop.access("dst")
    others = tuple(a for a in vop.operands if a.role != "dst")
    vop = attrs.evolve(vop, operands=(attrs.evolve(dst, count=total),) + others if total
                       else others, memo={})
    if total:
        _check(ex, instr, vop, vop.access("dst"))
        ex.check(instr, _overlap(vop, keep))
    r = vop.repeats
    return Issued("V", vop, body, keep, r, uops=r)


def _check(ex: Context, instr: Instruction, vop: VectorOp, acc: Access) -> None:
    """The §9.2 checks of one operand (an indexed one's elements are checked below)."""
    check_operand(ex, instr, vop, acc, 32, not instr.is_static and acc.kind != "indexed")


def _overlap(vop: VectorOp, keep: np.ndarray) -> Problem | None:
    """dst shares no byte with the pattern; with src0 only as a compaction in place: the kept
    elements read in increasing order, each written at or before where it was read (so none
    is overwritten before it is read, whatever src0's strides)."""
    dst = vop.access("dst")
    lo, hi = checks.extent(vop, dst)
    for src in vop.operands:
        if src.write:
            continue
        s_lo, s_hi = checks.extent(vop, src)
        if s_hi < lo or hi < s_lo:
            continue
        if src.role == "src0":
            reads = src.addresses(vop.repeats)[keep]
            writes = dst.addresses(1)[0, :reads.size]
            bad = np.flatnonzero(writes > reads)
            ordered = bool((np.diff(reads) >= src.size).all())
            if ordered and not bad.size:
                continue
            j = int(bad[0]) if bad.size else 0
            return Problem("overlap", f"{vop.instr.head} {checks.label(vop, dst)} and "
                           f"{checks.label(vop, src)} overlap: kept element {j} is written at "
                           f"{int(writes[j]):#x}, after {int(reads[j]):#x} where it is read (dst "
                           "may overlap src0 only as a compaction in place: every element "
                           "written at or before where it was read)", role=src.role)
        byte = max(lo, s_lo)
        return Problem("overlap", f"{vop.instr.head} {checks.label(vop, dst)} and "
                       f"{checks.label(vop, src)} overlap at byte {byte:#x} (a GatherMask's "
                       "dst may not overlap its pattern)", role=src.role)
    return None


def body(m: Machine, vop: VectorOp, keep: np.ndarray, lo: int, hi: int) -> None:
    """Repeats [lo, hi): their kept elements, after those of the repeats before; RSVD_CNT is
    the count so far (all of them once the last repeat ran)."""
    before = int(keep[:lo].sum())
    picked = load(m, vop, vop.access("src0"), lo, hi)[keep[lo:hi]]
    dst = vop.access("dst")
    if picked.size:
        idx = dst.base // dst.size + dst.index_offsets(1)[0, before:before + picked.size]
        m.views[dst.size][idx] = picked
    m.special[RSVD] = before + picked.size


def get_rsvd_cnt(ex: Context, instr: Instruction) -> Issued:
    """xD = RSVD_CNT (GetRsvdCnt): read when it issues, after every earlier vreducev2 took
    effect (bodies take effect at issue)."""
    reg = instr.operands["d"].value
    return Issued("S", None, _read, reg)


def _read(m: Machine, _op, reg: int, _lo, _hi) -> None:
    m.x[reg] = m.special.get(RSVD, 0)


def get_reduce_spr(ex: Context, instr: Instruction) -> Issued:
    """get_reduce_max_min xV, xI / get_reduce_sum xD: the registers the last vcmax/vcmin or
    vcadd left (semantics/reduce.py), read when it issues (0 before any set them)."""
    regs = tuple((o.value, key) for o, key in zip(
        instr.operands.values(), ("reduce_max_min_value", "reduce_max_min_index")
        if instr.defn.name == "get_reduce_max_min" else ("reduce_sum",), strict=True))
    return Issued("S", None, _read_spr, regs)


def _read_spr(m: Machine, _op, regs, _lo, _hi) -> None:
    for reg, key in regs:
        m.x[reg] = m.special.get(key, 0)


# -- Gather ---------------------------------------------------------------------------------------
def issue_gather(ex: Context, instr: Instruction) -> Issued:
    return _issue_by_offsets(ex, instr, lambda vop, offsets: vop.access("src").indexed(offsets),
                             _misaligned)


def _issue_by_offsets(ex: Context, instr: Instruction,
                      src_at: Callable[[VectorOp, np.ndarray], Access],
                      misaligned: Callable[[VectorOp, Access, np.ndarray], Problem | None]
                      ) -> Issued:
    """A gather (Gather, Gatherb): dst's and the offsets' checks, then src's where SRC_AT puts
    it for the offsets read (MISALIGNED: its alignment rule), then the overlap check."""
    m = ex.m
    addrs, fields = ex.resolve(instr)
    vop = decode_vector(instr, addrs, fields, m.mask, m.counter)
    if _noop(ex, instr, vop, fields):
        return Issued("V", vop, uops=vop.repeats)
    for role in ("dst", "offset"):
        _check(ex, instr, vop, vop.access(role))
    offsets = load(m, vop, vop.access("offset"), 0, vop.repeats).astype(np.int64)
    src = src_at(vop, offsets)
    vop = attrs.evolve(vop, operands=tuple(src if a.role == "src" else a for a in vop.operands),
                       memo={})
    ex.check(instr, misaligned(vop, src, offsets))
    _check(ex, instr, vop, src)
    ex.check(instr, checks.overlap(vop))
    r = vop.repeats
    return Issued("V", vop, gather_body, None, r, uops=r)


def _misaligned(vop: VectorOp, src: Access, _offsets: np.ndarray) -> Problem | None:
    """Every address read must be a multiple of the element size (the Gather page)."""
    addrs = src.addresses(vop.repeats)
    bad = (addrs % src.size != 0) & vop.active
    if not bad.any():
        return None
    i, k = (int(x[0]) for x in np.nonzero(bad))
    return Problem("align", f"{vop.instr.head} src address {int(addrs[i, k]):#x} (offset "
                   f"{int(src.index[i, k])} of element {i * src.per_repeat + k}) is not "
                   f"{src.size}-byte aligned (a gather's offsets keep src's elements aligned)",
                   role="offset")


def gather_body(m: Machine, vop: VectorOp, _arg, lo: int, hi: int) -> None:
    """Repeats [lo, hi): each active dst element from its src address (raw bits)."""
    src = vop.access("src")
    idx = src.base // src.size + src.index_offsets(vop.repeats)[lo:hi]
    store(m, vop, vop.access("dst"), m.views[src.size].take(idx, mode="clip"), lo, hi)


# -- Gatherb --------------------------------------------------------------------------------------
def issue_gatherb(ex: Context, instr: Instruction) -> Issued:
    """The offsets' and dst's checks, then src's over the blocks the offsets name (each 32-byte
    aligned: the page)."""
    return _issue_by_offsets(ex, instr, _blocks_at, _block_misaligned)


def _blocks_at(vop: VectorOp, offsets: np.ndarray) -> Access:
    """src's elements: block j of repeat i at src + offset[i, j] (offsets (R, 8))."""
    src = vop.access("src")
    per_block = 32 // src.size
    k = np.arange(vop.n)
    return src.indexed(offsets[:, k // per_block] + (k % per_block) * src.size)


def _block_misaligned(vop: VectorOp, src: Access, offsets: np.ndarray) -> Problem | None:
    """src + each offset must be 32-byte aligned (the Gatherb page: "偏移地址后需要32字节对齐")."""
    bad = np.argwhere((src.base + offsets) % 32 != 0)
    if not bad.size:
        return None
    i, j = (int(x) for x in bad[0])
    return Problem("align", f"{vop.instr.head} offset {8 * i + j} = {int(offsets[i, j])}: src "
                   f"+ it = {src.base + int(offsets[i, j]):#x} is not 32-byte aligned (Gatherb "
                   "moves whole blocks)", role="offset")


# -- TransDataTo5HD -------------------------------------------------------------------------------
def issue_trans5hd(ex: Context, instr: Instruction) -> Issued:
    """The lists' checks, then their 16 addresses each (32-byte aligned), then the data's."""
    m = ex.m
    addrs, fields = ex.resolve(instr)
    vop = decode_vector(instr, addrs, fields, m.mask, m.counter)
    if _noop(ex, instr, vop, fields):
        return Issued("V", vop, uops=vop.repeats)
    lists = {}
    for role in ("dst_list", "src_list"):
        acc = vop.access(role)
        _check(ex, instr, vop, acc)
        lists[role] = m.ub[acc.base:acc.base + 128].view(np.uint64).astype(np.int64)
        ex.check(instr, _list_alignment(vop, role, lists[role]))
    return _data_checked(ex, instr, vop, fields, lists["dst_list"], lists["src_list"])


def va_key(n: int) -> str:
    """Machine.special's key of VA register N (a tuple of its 8 addresses)."""
    return f"va{n}"


def set_va(ex: Context, instr: Instruction) -> Issued:
    """VA register N = the 8 addresses (asc_set_va_reg), in program order at issue; issued to
    its family's pipe (V, as the C API page says)."""
    addrs, _ = ex.resolve(instr)
    n = instr.operands["va"].value
    return Issued(instr.defn.family.pipe, None, _write_va,
                  (n, tuple(addrs[f"a{k}"] for k in range(8))))


def _write_va(m: Machine, _op, arg, _lo, _hi) -> None:
    n, values = arg
    m.special[va_key(n)] = values


def _va_list(ex: Context, instr: Instruction, role: str) -> np.ndarray:
    """The 16 addresses of ROLE's register pair VA n, n + 1 (an error when one was never set)."""
    n = instr.operands[role].value
    if n > 6:
        raise Fault(Problem("operand", f"{instr.head} {role} = va{n}: its 16 addresses are in "
                            f"va{n} and the next register; there is no va{n + 1} (va0..va7)",
                            role=role))
    out = []
    for k in (n, n + 1):
        values = ex.m.special.get(va_key(k))
        if values is None:
            raise Fault(Problem("operand", f"{instr.head} {role} reads va{k}, which no set_va "
                                "has written", role=role))
        out.extend(values)
    return np.array(out, dtype=np.int64)


def issue_trans5hd_va(ex: Context, instr: Instruction) -> Issued:
    """vnchwconv_va: vnchwconv with its lists from the VA registers (no list operands in UB)."""
    m = ex.m
    _, fields = ex.resolve(instr)
    vop = decode_vector(instr, {"dst": 0, "src": 0}, fields, m.mask, m.counter)
    if _noop(ex, instr, vop, fields):
        return Issued("V", vop, uops=vop.repeats)
    lists = {role: _va_list(ex, instr, role) for role in ("dst", "src")}
    for role in ("dst", "src"):
        ex.check(instr, _list_alignment(vop, role, lists[role]))
    return _data_checked(ex, instr, vop, fields, lists["dst"], lists["src"])


def _data_checked(ex: Context, instr: Instruction, vop: VectorOp, fields: dict,
                  dst_list: np.ndarray, src_list: np.ndarray) -> Issued:
    """The data operands' addresses from the two lists, their checks, the issued body."""
    dst, src = address_list_offsets(vop.t.size, vop.repeats, fields, dst_list, src_list)
    ops = {"dst": vop.access("dst"), "src": vop.access("src")}
    ops = {r: a.indexed(ix - a.base) for (r, a), ix in zip(ops.items(), (dst, src), strict=True)}
    vop = attrs.evolve(vop, operands=tuple(ops.get(a.role, a) for a in vop.operands), memo={})
    for role in ("dst", "src"):
        _check(ex, instr, vop, vop.access(role))
    ex.check(instr, checks.overlap(vop))
    r = vop.repeats
    return Issued("V", vop, trans5hd_body, None, r, uops=r)


def _list_alignment(vop: VectorOp, role: str, addresses: np.ndarray) -> Problem | None:
    bad = np.flatnonzero(addresses % 32)
    if not bad.size:
        return None
    k = int(bad[0])
    return Problem("align", f"{vop.instr.head} {role} entry {k} = {int(addresses[k]):#x} is not "
                   "32-byte aligned (the blocks a TransDataTo5HD moves are 32-byte aligned)",
                   role=role)


def trans5hd_body(m: Machine, vop: VectorOp, _arg, lo: int, hi: int) -> None:
    """Repeats [lo, hi): every element read, then written (raw bits)."""
    src, dst = vop.access("src"), vop.access("dst")
    view = m.views[src.size]
    values = view.take(src.base // src.size + src.index_offsets(vop.repeats)[lo:hi], mode="clip")
    view[dst.base // dst.size + dst.index_offsets(vop.repeats)[lo:hi]] = values
