"""Issue 34 (h34a): the reg-based unit's unaligned loads and stores, Scatter / Gather, block and
pair reductions, MaskGenWithRegTensor and the masked Move (docs/semantics.md §15.3).

Unaligned loads read the VL bytes at any address (the LoadUnAlign page's result); the load
register only has to be made ready by LoadUnAlignPre first (a load through one never made ready
is a read before a write). Unaligned stores follow the StoreUnAlign page's mechanism, because
what lands in UB depends on it: each store writes the whole 32-byte blocks of its bytes (and of
the bytes the store register kept from the store before) and keeps its last partial block in
the store register; the next store must continue where the kept bytes end, and
StoreUnAlignPost writes them. A kernel that forgets the Post loses that tail, as on the chip.
"""

from __future__ import annotations

import numpy as np

from isa.program import Instruction, RegExpr
from isa.regvec import VL
from isa.types import DType, lookup
from simulator.machine import Machine
from simulator.problems import Fault, Problem
from simulator.semantics.context import Context
from simulator.semantics.issued import Issued
from simulator.semantics.math import correctly_rounded
from simulator.semantics.regvec import (
    RegAccess,
    _apply_post,
    _extreme,
    _file,
    _in_tensor,
    _merge_v,
    _note_access,
    _ordered,
    _place,
    _post,
    _read_p,
    _read_v,
    _reg,
    _values,
    _write_p,
    _write_v,
    active,
    enabled,
    tree_sum,
)
from simulator.semantics.regvec_convert import _check_mask


# -- unaligned loads -------------------------------------------------------------------------
def vldupre(ex: Context, instr: Instruction) -> Issued:
    _file(ex, instr)
    addr, fields = _place(ex, instr, 1, 1, False)
    block = addr - addr % 32
    return Issued("V", RegAccess(instr, _in_tensor(instr, block, 32), False), _ready,
                  (_reg(instr, "u"), _post(ex, instr, fields, 1)))


def _ready(m: Machine, _op, arg, _lo, _hi) -> None:
    u, post = arg
    m.regs.ul_set[u] = True
    _apply_post(m, post)


def vldu(ex: Context, instr: Instruction) -> Issued:
    regs = _file(ex, instr)
    t = instr.dtype
    u = _reg(instr, "u")
    if not regs.ul_set[u]:
        ex.check(instr, Problem("init", f"{instr.name} loads through ul{u}",
                                " before LoadUnAlignPre made it ready in this vector function",
                                role="u"))
    addr, fields = _place(ex, instr, VL, 1, False)
    # the bytes past the tensor its operand names are read by design (a mask of 32 bytes read
    # a VL at a time): no finding, as for LoadAlign's (docs/decisions.md)
    runs = _in_tensor(instr, addr, VL)
    _ordered(ex, instr, "vld", runs, _reg(instr, "d"))
    return Issued("V", RegAccess(instr, runs, False), _vldu,
                  (_reg(instr, "d"), addr, _post(ex, instr, fields, t.size), instr))


def _vldu(m: Machine, _op, arg, _lo, _hi) -> None:
    d, addr, post, instr = arg
    _write_v(m, d, m.ub[addr:addr + VL].copy())
    _note_access(m, "vld", [(addr, VL)], d, instr)
    _apply_post(m, post)


# -- unaligned stores ------------------------------------------------------------------------
def _count(ex: Context, instr: Instruction) -> int:
    n = instr.operands["n"].value
    return int(ex.m.x[n.reg]) if isinstance(n, RegExpr) else int(n)


def vstu(ex: Context, instr: Instruction) -> Issued:
    """StoreUnAlign: N elements (the AR form, `vstuar`: AR's bytes, at where the last one
    through the register ended, else at ADDR)."""
    regs = _file(ex, instr)
    t = instr.dtype
    _read_v(ex, instr, "s")
    u = _reg(instr, "u")
    ar_form = "n" not in instr.operands
    n = int(regs.ar[0]) // t.size if ar_form else _count(ex, instr)
    if not 0 <= n <= VL // t.size:
        raise Fault(Problem("range", f"{instr.name}.{t.name} stores {n} elements",
                            f" (a register holds {VL // t.size})", role="n"))
    nbytes = n * t.size
    addr = ex.resolve(instr)[0]["addr"]
    if ar_form and regs.us_next[u] >= 0:
        addr = int(regs.us_next[u])
    if not 0 <= addr <= ex.m.ub.size - nbytes:
        raise Fault(Problem("bounds", f"{instr.name} address {addr:#x}",
                            f" is outside UB ({nbytes} bytes from it)", role="addr"))
    fields = _place(ex, instr, 0, 1, True, [(addr, nbytes)])[1]
    lo, kept = int(regs.us_lo[u]), int(regs.us_len[u])
    if lo >= 0 and lo + kept != addr:
        ex.check(instr, Problem("order", f"{instr.name} stores at {addr:#x}, but us{u} keeps "
                                f"{kept} bytes of a store that ends at {lo + kept:#x}",
                                " (a StoreUnAlign continues the one before it: call "
                                "StoreUnAlignPost first, or the kept bytes land at the wrong "
                                "place)", role="addr"))
    start = lo if lo >= 0 else addr
    end = addr + nbytes
    cut = max(start, end - end % 32)
    runs = [(start, cut - start)] if cut > start else []
    _ordered(ex, instr, "vst", runs, _reg(instr, "s"))
    return Issued("V", RegAccess(instr, runs, True), _vstu,
                  (_reg(instr, "s"), u, start, cut, end, nbytes, kept if lo >= 0 else 0,
                   _post(ex, instr, fields, t.size), runs, instr))


def _vstu(m: Machine, _op, arg, _lo, _hi) -> None:
    s, u, start, cut, end, nbytes, kept, post, runs, instr = arg
    regs = m.regs
    stream = np.concatenate((regs.us_data[u][:kept], regs.v[s][:nbytes]))
    m.ub[start:cut] = stream[:cut - start]
    tail = stream[cut - start:]
    regs.us_data[u][:tail.size] = tail
    regs.us_lo[u] = cut if tail.size else -1
    regs.us_len[u] = tail.size
    regs.us_next[u] = end
    _note_access(m, "vst", runs, s, instr)
    _apply_post(m, post)


def vstupost(ex: Context, instr: Instruction) -> Issued:
    regs = _file(ex, instr)
    u = _reg(instr, "u")
    lo, kept = int(regs.us_lo[u]), int(regs.us_len[u])
    addr0 = ex.resolve(instr)[0]["addr"]
    runs = [(lo, kept)] if lo >= 0 else []
    addr, fields = _place(ex, instr, 0, 1, True, runs)
    if lo >= 0 and lo + kept != addr0 and instr.name == "vstupost":  # vstupostar: no address
        ex.check(instr, Problem("order", f"{instr.name} at {addr0:#x}, but us{u} keeps {kept} "
                                f"bytes that end at {lo + kept:#x}",
                                " (StoreUnAlignPost takes the address the last StoreUnAlign "
                                "left: its post-updated pointer)", role="addr"))
    return Issued("V", RegAccess(instr, runs, True), _vstupost,
                  (u, _post(ex, instr, fields, 1)))


def _vstupost(m: Machine, _op, arg, _lo, _hi) -> None:
    u, post = arg
    regs = m.regs
    lo, kept = int(regs.us_lo[u]), int(regs.us_len[u])
    if lo >= 0:
        m.ub[lo:lo + kept] = regs.us_data[u][:kept]
    regs.us_lo[u], regs.us_len[u], regs.us_next[u] = -1, 0, -1
    _apply_post(m, post)


# -- Scatter / Gather ------------------------------------------------------------------------
def _indexed(ex: Context, instr: Instruction, write: bool, t: DType | None = None):
    """The element addresses of the enabled elements (base + index · size), checked: the base
    32-byte aligned, every address inside UB and, for a store, its tensor; a Scatter's repeated
    index (the page: which element lands is unknown) is an overlap. T: the UB data's type (8-bit
    data takes 16-bit indices, the Scatter / Gather pages: 128 of them, element k enabled by
    mask bit 2k whichever width the mask was made for)."""
    regs = _file(ex, instr)
    t = t or instr.dtype
    isz = max(t.size, 2)
    on = active(regs.p[_reg(instr, "m")], isz)
    _read_v(ex, instr, "i", under="m", size=isz)  # the enabled elements' indices (and data)
    if write and t.size > 1:
        _read_v(ex, instr, "s", under="m")
    elif write:  # 8-bit data: the even bytes of the enabled elements (the Scatter page)
        read = enabled(ex, instr, "m", isz)
        _read_v(ex, instr, "s", on=None if read is None else
                np.repeat(read, 2) & (np.arange(VL) % 2 == 0), size=1)
    _read_p(ex, instr, "m", t if t.size > 1 else None)
    idx = regs.v[_reg(instr, "i")].view(np.dtype(f"<u{isz}")).astype(np.int64)
    base = ex.resolve(instr)[0]["addr"]
    addrs = base + idx * t.size
    where = np.flatnonzero(on)
    ub = ex.m.ub.size
    bad = where[(addrs[where] < 0) | (addrs[where] > ub - t.size)]
    if bad.size:
        k = int(bad[0])
        raise Fault(Problem("bounds", f"{instr.name} element {k} (index {int(idx[k])}) at "
                            f"{int(addrs[k]):#x}", f" is outside UB ({ub} bytes)", role="i"))
    runs = [(int(addrs[k]), t.size) for k in where]
    _place(ex, instr, 0, 32, write, runs)
    if write:
        _, first, counts = np.unique(addrs[where], return_index=True, return_counts=True)
        if (counts > 1).any():
            k = int(where[first[np.argmax(counts > 1)]])
            ex.check(instr, Problem("overlap", f"{instr.name} writes UB {int(addrs[k]):#x} from "
                                    f"{int(counts.max())} elements (index {int(idx[k])})",
                                    " (Scatter's indices must differ: which element lands is "
                                    "not defined)", role="i"))
    return on, addrs, runs


def vsct(ex: Context, instr: Instruction) -> Issued:
    on, addrs, runs = _indexed(ex, instr, True)
    _ordered(ex, instr, "vst", runs, _reg(instr, "s"))
    return Issued("V", RegAccess(instr, sorted(runs), True), _vsct,
                  (instr.dtype.size, _reg(instr, "s"), np.flatnonzero(on), addrs, runs, instr))


def _vsct(m: Machine, _op, arg, _lo, _hi) -> None:
    size, s, where, addrs, runs, instr = arg
    el = m.regs.v[s].reshape(-1, size)
    if size == 1:  # 8-bit data: the even elements only (the Scatter page)
        el = el[0::2]
    at = addrs[where]
    if np.unique(at).size == at.size:
        m.ub[(at[:, None] + np.arange(size)).reshape(-1)] = el[where].reshape(-1)
    else:
        for k in where:  # in element order: of repeated indices the last lands (pipev's choice)
            a = int(addrs[k])
            m.ub[a:a + size] = el[k]
    _note_access(m, "vst", runs, s, instr)


def vgth(ex: Context, instr: Instruction) -> Issued:
    on, addrs, runs = _indexed(ex, instr, False)
    _ordered(ex, instr, "vld", runs, _reg(instr, "d"))
    return Issued("V", RegAccess(instr, sorted(runs), False), _vgth,
                  (instr.dtype.size, _reg(instr, "d"), on, addrs))


def _vgth(m: Machine, _op, arg, _lo, _hi) -> None:
    size, d, on, addrs = arg
    out = np.zeros((VL // size, size), np.uint8)
    out[on] = m.ub[addrs[on][:, None] + np.arange(size)]
    _write_v(m, d, out.reshape(-1))


def vgthw(ex: Context, instr: Instruction) -> Issued:
    """Gather of 8-bit UB data into 16-bit elements (the Gather page's int16_t ← int8_t and
    uint16_t ← uint8_t rows): the byte in the low half, the high half 0 (int8 -40 gives 216)."""
    on, addrs, runs = _indexed(ex, instr, False, instr.src_dtype)
    _ordered(ex, instr, "vld", runs, _reg(instr, "d"))
    return Issued("V", RegAccess(instr, sorted(runs), False), _vgthw,
                  (_reg(instr, "d"), on, addrs))


def _vgthw(m: Machine, _op, arg, _lo, _hi) -> None:
    d, on, addrs = arg
    out = np.zeros(VL // 2, np.uint16)
    out[on] = m.ub[addrs[on]]
    _write_v(m, d, out.view(np.uint8))


def vgthb(ex: Context, instr: Instruction) -> Issued:
    """GatherB: block j from ADDR + index[j] bytes (index j a u32, a multiple of 32) where mask
    bit 4j is set (the page: the mask read as b32, its first 8 elements' bits), else vD's block
    kept (the page: "not updated")."""
    regs = _file(ex, instr)
    _read_v(ex, instr, "i")
    _read_p(ex, instr, "m", instr.dtype)
    live = active(regs.p[_reg(instr, "m")], 4)[:VL // 32]
    offs = regs.v[_reg(instr, "i")].view("<u4")[:VL // 32].astype(np.int64)
    base = ex.resolve(instr)[0]["addr"]
    ub = ex.m.ub.size
    for j in np.flatnonzero(live):
        a = base + int(offs[j])
        if offs[j] % 32:
            ex.check(instr, Problem("align", f"{instr.name} block {j} index {int(offs[j])}",
                                    " is not a multiple of 32 bytes", role="i"))
        if a > ub - 32:
            raise Fault(Problem("bounds", f"{instr.name} block {j} at {a:#x}",
                                f" is outside UB ({ub} bytes)", role="i"))
    runs = [(base + int(offs[j]), 32) for j in np.flatnonzero(live)]
    _place(ex, instr, 0, 32, False)
    _ordered(ex, instr, "vld", runs, _reg(instr, "d"))
    return Issued("V", RegAccess(instr, sorted(runs), False), _vgthb,
                  (_reg(instr, "d"), live, [(j, a) for j, (a, _n) in
                                            zip(np.flatnonzero(live), runs, strict=True)]))


def _vgthb(m: Machine, _op, arg, _lo, _hi) -> None:
    d, live, blocks = arg
    out = m.regs.v[d].reshape(VL // 32, 32).copy()
    for j, a in blocks:
        out[j] = m.ub[a:a + 32]
    _merge_v(m, d, out.reshape(-1), live, 32)


def vrgather(ex: Context, instr: Instruction) -> Issued:
    _read_v(ex, instr, "a", "i")
    return Issued("V", None, _vrgather, (instr.dtype.size, _reg(instr, "d"), _reg(instr, "a"),
                                         _reg(instr, "i")))


def _vrgather(m: Machine, _op, arg, _lo, _hi) -> None:
    size, d, a, i = arg
    raw = np.dtype(f"<u{size}")
    idx = m.regs.v[i].view(raw).astype(np.int64) % (VL // size)
    _write_v(m, d, m.regs.v[a].view(raw)[idx].copy())


# -- block and pair reductions ---------------------------------------------------------------
def _masked(ex: Context, instr: Instruction, body, *extra) -> Issued:
    t = instr.dtype
    _read_v(ex, instr, "a", under="m")
    _read_p(ex, instr, "m", t)
    return Issued("V", None, body, (instr.name, t, _reg(instr, "d"), _reg(instr, "a"),
                                    _reg(instr, "m"), *extra))


def vredblk(ex: Context, instr: Instruction) -> Issued:
    return _masked(ex, instr, _vredblk)


def _vredblk(m: Machine, _op, arg, _lo, _hi) -> None:
    name, t, d, a, mk = arg
    op = name[len("vredblk"):]
    per = 32 // t.size
    x = _values(m.regs.v[a], t).reshape(-1, per)
    on = active(m.regs.p[mk], t.size).reshape(-1, per)
    out = np.zeros(VL // t.size, t.numeric)
    for j in range(VL // 32):
        if op == "sum":
            out[j] = tree_sum(np.where(on[j], x[j], np.zeros((), t.numeric)))
        else:
            out[j] = _extreme(x[j], on[j], t, op)[0]
    _write_v(m, d, out)


def vredblkwsum(ex: Context, instr: Instruction) -> Issued:
    src = instr.src_dtype
    _read_v(ex, instr, "a")
    _read_p(ex, instr, "m", src)
    return Issued("V", None, _vredblkwsum, (instr.dtype, src, _reg(instr, "d"),
                                            _reg(instr, "a"), _reg(instr, "m")))


def _vredblkwsum(m: Machine, _op, arg, _lo, _hi) -> None:
    """Each block's 16 enabled 16-bit values summed in 32 bits: exact, so any order is."""
    dst, src, d, a, mk = arg
    x = m.regs.v[a].view(src.numeric).astype(np.int64).reshape(-1, 16)
    on = active(m.regs.p[mk], src.size).reshape(-1, 16)
    out = np.zeros(VL // dst.size, dst.numeric)
    out[:VL // 32] = np.where(on, x, 0).sum(axis=1)
    _write_v(m, d, out)


def vredsumw(ex: Context, instr: Instruction) -> Issued:
    """Reduce SUM of 16-bit integers into a 32-bit one (the Reduce page's table 3)."""
    src = instr.src_dtype
    _read_v(ex, instr, "a")
    _read_p(ex, instr, "m", src)
    return Issued("V", None, _vredsumw, (instr.dtype, src, _reg(instr, "d"), _reg(instr, "a"),
                                         _reg(instr, "m")))


def _vredsumw(m: Machine, _op, arg, _lo, _hi) -> None:
    """vD[0] = the enabled elements' sum: at most 128 16-bit values, exact in 32 bits."""
    dst, src, d, a, mk = arg
    x = m.regs.v[a].view(src.numeric).astype(np.int64)
    out = np.zeros(VL // dst.size, dst.numeric)
    out[0] = np.where(active(m.regs.p[mk], src.size), x, 0).sum()
    _write_v(m, d, out)


def vrexpsub(ex: Context, instr: Instruction) -> Issued:
    """ExpSub: e^(vA - vB) in f32 (the ExpSub page's formula)."""
    src = instr.src_dtype
    _read_v(ex, instr, "a", "b")
    _check_mask(ex, instr, (src.size, instr.dtype.size))
    return Issued("V", None, _vrexpsub, (src, instr.fields.get("part", 0), _reg(instr, "d"),
                                         _reg(instr, "a"), _reg(instr, "b"), _reg(instr, "m")))


def exp_sub(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """e^(A - B) of float32 elements: the difference rounded to float32 once (as Sub), then
    Exp's correctly rounded model (docs/semantics.md §15.4)."""
    with np.errstate(all="ignore"):
        diff = (a.astype(np.float32) - b.astype(np.float32)).astype(np.float32)
    return correctly_rounded("vexp", diff, lookup("f32"))


def _vrexpsub(m: Machine, _op, arg, _lo, _hi) -> None:
    """f16 sources: element 2k + part of each (widened exactly) gives vD[k], enabled by its
    own mask bit (the page: the even bits of a b16 mask), as Cast's RegLayout does."""
    src, part, d, a, b, mk = arg
    on = active(m.regs.p[mk], src.size)
    x, y = _values(m.regs.v[a], src), _values(m.regs.v[b], src)
    if src.size == 2:
        x, y, on = x[part::2], y[part::2], on[part::2]
    res = exp_sub(x, y).view(np.uint32)
    _write_v(m, d, np.where(on, res, np.zeros((), np.uint32)))


def vrpairsum(ex: Context, instr: Instruction) -> Issued:
    return _masked(ex, instr, _vrpairsum)


def _vrpairsum(m: Machine, _op, arg, _lo, _hi) -> None:
    _name, t, d, a, mk = arg
    x = _values(m.regs.v[a], t)
    on = active(m.regs.p[mk], t.size)
    even, odd = x[0::2], x[1::2]
    with np.errstate(all="ignore"):
        both = (even + odd).astype(t.numeric)
    zero = np.zeros((), t.numeric)
    # the page: a disabled element counts as 0; one enabled element is the result as it is
    res = np.where(on[0::2] & on[1::2], both,
                   np.where(on[0::2], even, np.where(on[1::2], odd, zero)))
    out = np.zeros(VL // t.size, t.numeric)
    out[:res.size] = res
    _write_v(m, d, out)


# -- MaskReg from a RegTensor, Move with a mask ----------------------------------------------
def pgenv(ex: Context, instr: Instruction) -> Issued:
    t = instr.dtype
    _read_v(ex, instr, "a")
    off = instr.fields.get("offset", 0)
    block = VL // (8 * t.size)  # 16 bytes for b16, 8 for b32: one bit an element

    if off >= VL // block:
        raise Fault(Problem("range", f"{instr.name}.{t.name} offset={off}",
                            f" is beyond the register's {VL // block} blocks of {block} bytes"))
    return Issued("V", None, _pgenv, (t.size, _reg(instr, "d"), _reg(instr, "a"), off * block,
                                      block))


def _pgenv(m: Machine, _op, arg, _lo, _hi) -> None:
    size, d, a, start, block = arg
    bits = np.unpackbits(m.regs.v[a][start:start + block], bitorder="little")
    _write_p(m, d, np.packbits(np.repeat(bits, size), bitorder="little"), size)


def vrmovm(ex: Context, instr: Instruction) -> Issued:
    return _masked(ex, instr, _vrmovm)  # vD's inactive elements kept, written or not


def _vrmovm(m: Machine, _op, arg, _lo, _hi) -> None:
    _name, t, d, a, mk = arg
    on = active(m.regs.p[mk], t.size)
    v = m.regs.v
    _merge_v(m, d, np.where(on, v[a].view(t.raw), v[d].view(t.raw)), on, t.size)


def vrsqz(ex: Context, instr: Instruction) -> Issued:
    return _masked(ex, instr, _vrsqz, instr.fields.get("ar", 0) == 1)


def _vrsqz(m: Machine, _op, arg, _lo, _hi) -> None:
    _name, t, d, a, mk, ar = arg
    on = active(m.regs.p[mk], t.size)
    kept = m.regs.v[a].view(t.raw)[on]
    out = np.zeros(VL // t.size, t.raw)
    out[:kept.size] = kept
    _write_v(m, d, out)
    if ar:  # STORE_REG: the kept elements' bytes, for an AR-form StoreUnAlign
        m.regs.ar[0] = kept.size * t.size


def vclrar(ex: Context, instr: Instruction) -> Issued:
    _file(ex, instr)
    return Issued("V", None, _vclrar, None)


def _vclrar(m: Machine, _op, _arg, _lo, _hi) -> None:
    m.regs.ar[0] = 0


def vrhist(ex: Context, instr: Instruction) -> Issued:
    _read_v(ex, instr, "d")
    _read_p(ex, instr, "m", instr.src_dtype)
    _read_v(ex, instr, "a")
    f = instr.fields
    return Issued("V", None, _vrhist, (_reg(instr, "d"), _reg(instr, "a"), _reg(instr, "m"),
                                       f.get("half", 0), f.get("cum", 0) == 1))


def _vrhist(m: Machine, _op, arg, _lo, _hi) -> None:
    d, a, mk, high, cum = arg
    on = active(m.regs.p[mk], 1)
    counts = np.bincount(m.regs.v[a][on], minlength=256)[128 * high:128 * (high + 1)]
    if cum:
        counts = np.cumsum(counts)
    old = m.regs.v[d].view("<u2").astype(np.int64)
    _write_v(m, d, ((old + counts) % (1 << 16)).astype("<u2"))


ISSUE = {"vldupre": vldupre, "vldu": vldu, "vstu": vstu, "vstupost": vstupost,
         "vscatter": vsct, "vgatherub": vgth, "vgatherw": vgthw, "vgatherbub": vgthb,
         "vrgather": vrgather,
         "vredblk": vredblk, "vredblkw": vredblkwsum, "vredw": vredsumw,
         "vrexpsub": vrexpsub, "vrpair": vrpairsum, "pgenv": pgenv,
         "vrmovm": vrmovm, "vrsqz": vrsqz,
         "vclrar": vclrar, "vrhist": vrhist}
