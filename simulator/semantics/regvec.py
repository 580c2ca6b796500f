"""Issue 34: the semantics of ascend950's reg-based vector unit (docs/semantics.md §15).

One issue function per family: it reads the registers' state, runs the checks a C++ line would
want (a register read before it is written, a MaskReg made for another element width, a load or
store outside UB, misaligned or, for a store, outside its tensor) and returns the body that takes
effect. Element k of a b-byte type is governed by mask bit b·k (the vendor's MaskReg page: the
lowest of the element's b bits); masks this unit makes set only those bits.

Arithmetic reuses the memory-based unit's element functions (semantics/arith.py, compare.py), so
one rule (integers wrap, IEEE floats, two NaNs give src0's NaN quieted) holds for both units.
"""

from __future__ import annotations

import numpy as np

from isa.program import Instruction, RegExpr
from isa.regvec import (
    DISTS,
    DIV_ALGOS,
    DIV_KEEPS_SUBNORMALS,
    LOAD_DISTS,
    PL,
    SDISTS,
    SQRT_ALGOS,
    SQRT_FAST,
    SQRT_FAST_LIMIT,
    SQRT_KEEPS_SUBNORMALS,
    STORE_DISTS,
    VL,
    pattern_active,
)
from isa.types import DType
from simulator.machine import Machine
from simulator.problems import Fault, Problem
from simulator.semantics.arith import _relu
from simulator.semantics.compare import OPS
from simulator.semantics.context import Context
from simulator.semantics.issued import Issued

BINARY = {"vradd": np.add, "vrsub": np.subtract, "vrmul": np.multiply, "vrmax": np.maximum,
          "vrmin": np.minimum, "vrand": np.bitwise_and, "vror": np.bitwise_or,
          "vrxor": np.bitwise_xor,
          "vradds": np.add, "vrmuls": np.multiply, "vrmaxs": np.maximum, "vrmins": np.minimum,
          # LeakyRelu (its page): src > 0 ? src : src * scalar, the product rounded in T
          "vrlrelu": lambda a, s: np.where(a > 0, a, a * s)}
SHIFTS = frozenset({"vrshl", "vrshr", "vrshls", "vrshrs"})
SIGNED = {1: np.int8, 2: np.int16, 4: np.int32, 8: np.int64}  # a count register's elements
UNARY = {"vrabs": np.abs, "vrneg": np.negative, "vrrelu": _relu, "vrnot": np.invert}
NAN_SRC0 = ("vradd", "vrsub", "vrmul", "vradds", "vrmuls")
PLOGIC = {"pand": np.bitwise_and, "por": np.bitwise_or, "pxor": np.bitwise_xor}


# -- the register file, as the checks see it ---------------------------------------------------
def _file(ex: Context, instr: Instruction):
    regs = ex.m.regs
    if regs is None:  # pragma: no cover - the assembler refuses these rows on other chips
        raise Fault(Problem("chip", f"{instr.name}: {ex.chip.name} has no reg-based unit"))
    return regs


def _reg(instr: Instruction, role: str) -> int:
    return instr.operands[role].value


def _read_v(ex: Context, instr: Instruction, *roles: str, on: np.ndarray | None = None,
            size: int = 0, under: str | None = None, outside: bool = False) -> None:
    """The vector registers of ROLES are read: in the elements ON (of SIZE bytes, default the
    instruction's type's), in those the mask register of role UNDER enables (OUTSIDE: those it
    does not; worked out only when a register is not wholly written) or, with neither, in every
    element. A register nothing in this VF wrote, or an element read that a merging write left
    unwritten (per lane: docs/ascendc.md), is a read before a write."""
    regs = _file(ex, instr)
    for role in roles:
        r = _reg(instr, role)
        if regs.v_set[r]:  # every lane written
            continue
        written = regs.v_def[r]
        size = size or (instr.dtype.size if instr.dtype is not None else 1)
        if under is not None:
            on, under = enabled(ex, instr, under, size), None
            if outside and on is not None:
                on = ~on
        lanes = written.reshape(-1, size).all(axis=1)
        missing = ~lanes if on is None else on & ~lanes
        if not missing.any():
            continue
        if not written.any():
            ex.check(instr, Problem("init", f"{instr.name} reads v{r} ({role})",
                                    " before anything in this vector function wrote it",
                                    role=role))
            continue
        k = int(np.argmax(missing))
        ex.check(instr, Problem("init", f"{instr.name} reads element {k} of v{r} ({role})",
                                f", which nothing in this vector function wrote (v{r} has "
                                f"{int(lanes.sum())} of {lanes.size} elements written: a "
                                "merging write keeps the elements its mask does not enable)",
                                role=role))


def enabled(ex: Context, instr: Instruction, role: str, size: int) -> np.ndarray | None:
    """The elements of SIZE bytes the mask register of ROLE enables now; None (every element)
    when nothing in this VF wrote it (its own check words that)."""
    regs = ex.m.regs
    r = _reg(instr, role)
    return active(regs.p[r], size) if regs.p_set[r] else None


def _read_p(ex: Context, instr: Instruction, role: str, t: DType | None) -> None:
    """A MaskReg operand: written before, and made for T's element width (when known)."""
    regs = _file(ex, instr)
    r = _reg(instr, role)
    if not regs.p_set[r]:
        ex.check(instr, Problem("init", f"{instr.name} reads p{r} ({role})",
                                " before anything in this vector function wrote it", role=role))
        return
    w = int(regs.p_width[r])
    if t is not None and w and w != t.size:
        ex.check(instr, Problem("mask", f"{instr.name}.{t.name} uses p{r}, a MaskReg made for "
                                f"{8 * w}-bit elements", f", with {8 * t.size}-bit elements "
                                f"(element k reads bit {t.size}*k: make the mask with "
                                f"CreateMask/UpdateMask<{t.name}>)", role=role))


def active(p: np.ndarray, size: int) -> np.ndarray:
    """The elements of SIZE bytes a mask register's bits enable (bit size·k for element k)."""
    return np.unpackbits(p, bitorder="little")[::size].astype(bool)


def mask_bits(on: np.ndarray, size: int) -> np.ndarray:
    """The mask register bytes enabling the elements ON (of SIZE bytes)."""
    bits = np.zeros(8 * PL, np.uint8)
    bits[::size] = on
    return np.packbits(bits, bitorder="little")


def _values(raw: np.ndarray, t: DType) -> np.ndarray:
    return raw.view(t.raw).view(t.numeric)


def _scalar(ex: Context, instr: Instruction, t: DType):
    """The scalar operand as a 0-d array of T (a register: its low bytes)."""
    v = instr.operands["scalar"].value
    if isinstance(v, RegExpr):
        bits = ex.m.x[v.reg] & ((1 << (8 * t.size)) - 1)
        raw = np.frombuffer(bits.to_bytes(t.size, "little"), np.uint8)
    else:
        raw = np.asarray(v, np.uint8)
    return raw.view(t.raw).view(t.numeric)[0]


def _write_v(m: Machine, r: int, values: np.ndarray) -> None:
    """A write of every lane of vR (a zeroing write: its inactive lanes are zeros)."""
    m.regs.v[r] = np.ascontiguousarray(values).view(np.uint8).reshape(-1)
    m.regs.v_set[r] = True


def _merge_v(m: Machine, r: int, values: np.ndarray, on: np.ndarray, size: int) -> None:
    """A merging write of vR: VALUES, of which only the elements ON (SIZE bytes each) are new;
    the others keep vR's, written or not (MaskMergeMode MERGING)."""
    regs = m.regs
    regs.v[r] = np.ascontiguousarray(values).view(np.uint8).reshape(-1)
    if regs.v_set[r]:
        return
    if np.ndim(on) == 0:
        on = np.full(VL // size, bool(on))
    row = regs.v_def[r]
    row |= np.repeat(on, size)
    regs.v_set[r] = row.all()


def _copy_def(m: Machine, d: int, a: int) -> None:
    """vD's written lanes become vA's (a copy of every lane: Move without a mask)."""
    regs = m.regs
    regs.v_set[d] = regs.v_set[a]
    if not regs.v_set[a]:
        regs.v_def[d] = regs.v_def[a]


def _write_p(m: Machine, r: int, bits: np.ndarray, width: int) -> None:
    m.regs.p[r] = bits
    m.regs.p_set[r] = True
    m.regs.p_width[r] = width


# -- vector functions and masks ------------------------------------------------------------------
def vf_begin(ex: Context, instr: Instruction) -> Issued:
    _file(ex, instr)
    return Issued("V", None, _begin, None)


def _begin(m: Machine, _op, _arg, _lo, _hi) -> None:
    m.regs.clear_written()


# LocalMemBar: which (earlier kind, later kind) pairs of vector UB accesses a barrier orders
ORDERS = {("vst", "vld"): ("vst", "vld"), ("vld", "vst"): ("vld", "vst"),
          ("vst", "vst"): ("vst", "vst"),
          ("vall", "vall"): (("vst", "vld"), ("vld", "vst"), ("vst", "vst"))}
# the conflicts checked: a load of bytes an earlier store wrote (the LocalMemBar page's case).
# A store after a load is ordered by the data in almost every kernel (it stores what was
# computed from the load), and register dependences are not tracked: not checked (decisions.md)
NEEDED = {("vst", "vld"): "LocalMemBar<MemType::VEC_STORE, MemType::VEC_LOAD>"}


def vmembar(ex: Context, instr: Instruction) -> Issued:
    _file(ex, instr)
    pair = (instr.operands["src"].value, instr.operands["dst"].value)
    orders = ORDERS.get(pair, ())
    if orders and isinstance(orders[0], str):
        orders = (orders,)
    return Issued("V", None, _membar, ("vst", "vld") in orders)


def _membar(m: Machine, _op, store_to_load: bool, _lo, _hi) -> None:
    if store_to_load:  # the VF's earlier stores are ordered before every later load
        m.regs.stored = None


def _ordered(ex: Context, instr: Instruction, kind: str, runs, reg: int) -> None:
    """A vector load over RUNS of bytes an earlier store of this VF wrote, with no LocalMemBar
    ordering them (the LocalMemBar page: the load may run before the store; the same register
    orders them itself), is a race at this line: a warning, once per line (a C++ loop issues
    it often; none with --checks off), and the load reads what program order gives. The
    vendor's own softmax sample loads what its VF stored after a LocalMemBar of the other
    direction and passes on silicon, so the race is not an error (docs/decisions.md)."""
    regs = _file(ex, instr)
    if kind != "vld" or regs.stored is None:
        return
    for a, n in runs:
        serial = regs.stored[a:a + n]
        hit = np.flatnonzero(serial)
        for k in hit[:1]:
            r, other = regs.store_log[serial[k] - 1]
            if r == reg:
                continue
            if ex.policy.checks != "off":
                ex.policy.warn_per_line(instr, Problem(
                    "race", f"{instr.name} reads UB byte {a + int(k):#x} that {other.name} at "
                    f"line {other.line} wrote in this vector function",
                    f" with no {NEEDED[('vst', 'vld')]} between (the load may overtake the "
                    "store on the chip; pipev reads it in program order)", role="addr"))
            return


def _note_access(m: Machine, kind: str, runs, reg: int, instr: Instruction) -> None:
    """A vector store's bytes, kept for the loads after it until a LocalMemBar."""
    if kind != "vst" or not runs:
        return
    regs = m.regs
    if regs.stored is None:
        regs.stored = np.zeros(m.ub.size, np.int32)
    regs.store_log.append((reg, instr))
    serial = len(regs.store_log)
    for a, n in runs:
        regs.stored[a:a + n] = serial


def vf_end(ex: Context, instr: Instruction) -> Issued:
    regs = _file(ex, instr)
    for u in np.flatnonzero(regs.us_lo >= 0):  # h34a: a StoreUnAlign's tail never written
        ex.warn(instr, Problem("order", f"the vector function ends with {int(regs.us_len[u])} "
                               f"bytes kept in us{u} at {int(regs.us_lo[u]):#x}",
                               " that no StoreUnAlignPost wrote: they never reach UB"))
    return Issued("V")


def pset(ex: Context, instr: Instruction) -> Issued:
    _file(ex, instr)
    t = instr.dtype
    n = VL // t.size
    k = pattern_active(instr.operands["pattern"].value, n)
    on = np.arange(n) % -k == 0 if k < 0 else np.arange(n) < k
    return Issued("V", None, _set_p, (_reg(instr, "d"), mask_bits(on, t.size), t.size))


def _set_p(m: Machine, _op, arg, _lo, _hi) -> None:
    _write_p(m, *arg)


def plt(ex: Context, instr: Instruction) -> Issued:
    """UpdateMask: the first min(xN, VL_T) elements; xN = xN < VL_T ? 0 : xN - VL_T."""
    _file(ex, instr)
    t = instr.dtype
    n, src = VL // t.size, _reg(instr, "n")
    # a register is read and updated; a constant (a recording's replay writes the value the
    # register had) only read
    reg = src.reg if isinstance(src, RegExpr) else None
    count = ex.m.x[reg] if reg is not None else src
    on = np.arange(n) < min(count, n)
    return Issued("V", None, _plt, (_reg(instr, "d"), mask_bits(on, t.size), t.size, reg,
                                    0 if count < n else count - n))


def _plt(m: Machine, _op, arg, _lo, _hi) -> None:
    d, bits, width, reg, left = arg
    _write_p(m, d, bits, width)
    if reg is not None:
        m.x[reg] = left


def plogic(ex: Context, instr: Instruction) -> Issued:
    roles = [r for r in ("a", "b", "m") if r in instr.operands]
    for role in roles:
        _read_p(ex, instr, role, None)
    return Issued("V", None, _plogic, (instr.name, _reg(instr, "d"),
                                       [_reg(instr, r) for r in roles]))


def _plogic(m: Machine, _op, arg, _lo, _hi) -> None:
    name, d, srcs = arg
    p = m.regs.p
    widths = {int(m.regs.p_width[s]) for s in srcs} - {0}
    width = widths.pop() if len(widths) == 1 else 0
    if name == "pmov":
        bits = p[srcs[0]].copy()
    elif name == "pnot":
        bits = ~p[srcs[0]] & p[srcs[1]]
    else:
        bits = PLOGIC[name](p[srcs[0]], p[srcs[1]]) & p[srcs[2]]
    _write_p(m, d, bits, width)


# -- loads and stores ---------------------------------------------------------------------------
class RegAccess:
    """The UB bytes one load or store of the unit touches (an event's op): the hazard checks'
    ranges, the undo log's writes. RUNS are (address, bytes) pairs."""

    __slots__ = ("instr", "runs", "write")

    def __init__(self, instr: Instruction, runs: list[tuple[int, int]], write: bool):
        self.instr, self.runs, self.write = instr, runs, write

    def ub_ranges(self) -> list:
        return [("addr", a, a + n, None, self.write) for a, n in self.runs]

    def write_runs(self) -> list[tuple[int, int]]:
        return self.runs if self.write else []


def _post(ex: Context, instr: Instruction, fields: dict, size: int):
    """(register, new value) of a post-update, or None."""
    post = fields.get("post")
    if post is None:
        return None
    post = post - (1 << 64) if post >> 63 else post
    addr = instr.operands["addr"].addr
    if not isinstance(addr, RegExpr):
        raise Fault(Problem("post", f"{instr.name} post={post} needs a register address",
                            " (@xN or NAME[xN]) to update", role="addr"))
    step = post * size // addr.scale
    return addr.reg, (ex.m.x[addr.reg] + step) % (1 << 64)


def _place(ex: Context, instr: Instruction, nbytes: int, align: int, write: bool,
           runs: list[tuple[int, int]] | None = None) -> tuple[int, dict]:
    """The access's UB address, checked: inside UB, ALIGN-aligned, a store's bytes (RUNS,
    default [addr, addr + NBYTES)) inside the tensor its operand names."""
    addrs, fields = ex.resolve(instr)
    addr = addrs["addr"]
    ub = ex.m.ub.size
    if not 0 <= addr <= ub - nbytes:
        raise Fault(Problem("bounds", f"{instr.name} address {addr:#x}",
                            f" is outside UB ({nbytes} bytes from it; UB has {ub})",
                            role="addr", at_value=True))
    if addr % align:
        ex.check(instr, Problem("align", f"{instr.name} address {addr:#x}",
                                f" is not {align}-byte aligned", role="addr", at_value=True))
    tensor = instr.operands["addr"].tensor
    if write and tensor is not None:
        for a, n in runs if runs is not None else [(addr, nbytes)]:
            if a < tensor.addr or a + n > tensor.addr + tensor.nbytes:
                ex.check(instr, Problem(
                    "footprint", f"{instr.name} writes UB [{a:#x}, {a + n:#x})",
                    f" outside tensor {tensor.name} ({tensor.nbytes} bytes at "
                    f"{tensor.addr:#x})", role="addr"))
                break
    return addr, fields


def vlds(ex: Context, instr: Instruction) -> Issued:
    _file(ex, instr)
    t = instr.dtype
    dist = DISTS[instr.fields.get("dist", 0)]
    nbytes, align, e = LOAD_DISTS[dist]
    addr, fields = _place(ex, instr, nbytes, align, False)
    _ordered(ex, instr, "vld", [(addr, nbytes)], _reg(instr, "d"))
    return Issued("V", RegAccess(instr, _in_tensor(instr, addr, nbytes), False), _vlds,
                  (_reg(instr, "d"), addr, nbytes, dist, e or t.size,
                   _post(ex, instr, fields, t.size), instr))


def _in_tensor(instr: Instruction, addr: int, nbytes: int) -> list[tuple[int, int]]:
    """The bytes of a load the init and race checks see: those inside the tensor its operand
    names (all of them when it names none). A whole-VL load reads past its buffer's end by
    design (the tail of UpdateMask loops; the store's mask drops those lanes), so bytes beyond
    it, uninitialised or being written by another pipe, are no finding (docs/decisions.md)."""
    t = instr.operands["addr"].tensor
    if t is None:
        return [(addr, nbytes)]
    lo, hi = max(addr, t.addr), min(addr + nbytes, t.addr + t.nbytes)
    return [(lo, hi - lo)] if hi > lo else []


def distribute(src: np.ndarray, dist: str, e: int) -> np.ndarray:
    """The VL bytes a LoadAlign of distribution DIST (element bytes E) makes of the UB bytes
    SRC (docs/semantics.md §15)."""
    el = src.reshape(-1, e)
    kind = dist.split("_")[0]
    if kind == "norm":
        return src
    if kind == "brc":
        return np.tile(src, VL // e)
    if kind == "us":
        return np.repeat(el, 2, axis=0).reshape(-1)
    if kind == "ds":
        return el[0::2].reshape(-1)
    if kind in ("unpack", "unpack4"):
        spread = np.zeros((el.shape[0], 2 if kind == "unpack" else 4, e), np.uint8)
        spread[:, 0] = el
        return spread.reshape(-1)
    if kind == "blk":
        return np.tile(src, VL // 32)
    return np.repeat(el, 32 // e, axis=0).reshape(-1)  # e2b: each element to a block


def _vlds(m: Machine, _op, arg, _lo, _hi) -> None:
    d, addr, nbytes, dist, e, post, instr = arg
    m.regs.v[d] = distribute(m.ub[addr:addr + nbytes], dist, e)
    m.regs.v_set[d] = True
    _note_access(m, "vld", [(addr, nbytes)], d, instr)
    _apply_post(m, post)


def _apply_post(m: Machine, post) -> None:
    if post is not None:
        m.x[post[0]] = post[1]


def _element_runs(addr: int, on: np.ndarray, size: int) -> list[tuple[int, int]]:
    """The contiguous byte runs of the elements ON of SIZE bytes from ADDR."""
    edges = np.diff(np.concatenate(([0], on.astype(np.int8), [0])))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    return [(addr + int(s) * size, int(e - s) * size) for s, e in zip(starts, ends, strict=True)]


def vsts(ex: Context, instr: Instruction) -> Issued:
    """StoreAlign: the active elements (sdist=norm), element 0 whatever the mask (first), or each
    active element's low half / quarter at its narrowed position (pack, pack4)."""
    t = instr.dtype
    sdist = SDISTS[instr.fields.get("sdist", 0)]
    regs = _file(ex, instr)
    first = sdist == "first"
    on = np.arange(VL // t.size) == 0 if first else active(regs.p[_reg(instr, "m")], t.size)
    _read_v(ex, instr, "s", on=on if first else None, under=None if first else "m")
    if first:
        width, align = t.size, t.size
    else:
        _read_p(ex, instr, "m", t)
        width = t.size // {"norm": 1, "pack": 2, "pack4": 4}[sdist]
        align = STORE_DISTS[sdist]
        if width == 0:
            raise Fault(Problem("type", f"vsts.{t.name} sdist={sdist} needs elements of at "
                                f"least {t.size * 2} bytes"))
    addr0 = ex.resolve(instr)[0]["addr"]
    runs = _element_runs(addr0, on, width)
    addr, fields = _place(ex, instr, int(on.size) * width, align, True, runs)
    _ordered(ex, instr, "vst", runs, _reg(instr, "s"))
    return Issued("V", RegAccess(instr, runs, True), _vsts,
                  (_reg(instr, "s"), addr, on, t.size, width, _post(ex, instr, fields, t.size),
                   runs, instr))


def _vsts(m: Machine, _op, arg, _lo, _hi) -> None:
    s, addr, on, size, width, post, runs, instr = arg
    n = VL // size
    dst = m.ub[addr:addr + n * width].reshape(-1, width)
    dst[on] = m.regs.v[s].reshape(-1, size)[on][:, :width]  # little-endian: the low bytes
    _note_access(m, "vst", runs, s, instr)
    _apply_post(m, post)


def vlds2(ex: Context, instr: Instruction) -> Issued:
    _file(ex, instr)
    t = instr.dtype
    addr, fields = _place(ex, instr, 2 * VL, 32, False)
    return Issued("V", RegAccess(instr, [(addr, 2 * VL)], False), _vlds2,
                  (_reg(instr, "d"), _reg(instr, "e"), addr, t.size,
                   _post(ex, instr, fields, t.size)))


def _vlds2(m: Machine, _op, arg, _lo, _hi) -> None:
    d, e, addr, size, post = arg
    el = m.ub[addr:addr + 2 * VL].reshape(-1, size)
    m.regs.v[d], m.regs.v[e] = el[0::2].reshape(-1), el[1::2].reshape(-1)
    m.regs.v_set[d] = m.regs.v_set[e] = True
    _apply_post(m, post)


def vsts2(ex: Context, instr: Instruction) -> Issued:
    t = instr.dtype
    _read_v(ex, instr, "s", "t")
    addr, fields = _place(ex, instr, 2 * VL, 32, True)
    return Issued("V", RegAccess(instr, [(addr, 2 * VL)], True), _vsts2,
                  (_reg(instr, "s"), _reg(instr, "t"), addr, t.size,
                   _post(ex, instr, fields, t.size)))


def _vsts2(m: Machine, _op, arg, _lo, _hi) -> None:
    s, t2, addr, size, post = arg
    out = np.empty((VL // size, 2, size), np.uint8)
    out[:, 0], out[:, 1] = m.regs.v[s].reshape(-1, size), m.regs.v[t2].reshape(-1, size)
    m.ub[addr:addr + 2 * VL] = out.reshape(-1)
    _apply_post(m, post)


def _blocks(ex: Context, instr: Instruction, t: DType, write: bool):
    """A DataBlock load or store: the 8 blocks' UB addresses, which are active (an element of
    it enabled), the element mask, the fields."""
    _read_p(ex, instr, "m", t)
    regs = _file(ex, instr)
    on = active(regs.p[_reg(instr, "m")], t.size)
    addrs, fields = ex.resolve(instr)
    blk = fields.get("blk", 1)
    starts = addrs["addr"] + 32 * blk * np.arange(VL // 32)
    live = on.reshape(VL // 32, -1).any(axis=1)
    ub = ex.m.ub.size
    for j in np.flatnonzero(live):  # a block no element of which is enabled is not touched
        a = int(starts[j])
        if not 0 <= a <= ub - 32:
            raise Fault(Problem("bounds", f"{instr.name} block {j} at {a:#x}",
                                f" is outside UB ({ub} bytes)", role="addr", at_value=True))
    if addrs["addr"] % 32:
        ex.check(instr, Problem("align", f"{instr.name} address {addrs['addr']:#x}",
                                " is not 32-byte aligned", role="addr", at_value=True))
    return starts, live, on, fields


def vldsb(ex: Context, instr: Instruction) -> Issued:
    t = instr.dtype
    starts, live, _on, fields = _blocks(ex, instr, t, False)
    runs = [(int(starts[j]), 32) for j in np.flatnonzero(live)]
    return Issued("V", RegAccess(instr, runs, False), _vldsb,
                  (_reg(instr, "d"), starts, live, _post(ex, instr, fields, t.size)))


def _vldsb(m: Machine, _op, arg, _lo, _hi) -> None:
    d, starts, live, post = arg
    out = np.zeros((VL // 32, 32), np.uint8)
    for j in np.flatnonzero(live):
        out[j] = m.ub[starts[j]:starts[j] + 32]
    m.regs.v[d] = out.reshape(-1)
    m.regs.v_set[d] = True
    _apply_post(m, post)


def vstsb(ex: Context, instr: Instruction) -> Issued:
    t = instr.dtype
    _read_v(ex, instr, "s", under="m")  # the enabled elements
    starts, live, on, fields = _blocks(ex, instr, t, True)
    per = 32 // t.size
    runs = [r for j in np.flatnonzero(live)
            for r in _element_runs(int(starts[j]), on[j * per:(j + 1) * per], t.size)]
    tensor = instr.operands["addr"].tensor
    if tensor is not None and any(a < tensor.addr or a + n > tensor.addr + tensor.nbytes
                                  for a, n in runs):
        ex.check(instr, Problem("footprint", f"{instr.name} writes outside tensor "
                                f"{tensor.name}", f" ({tensor.nbytes} bytes at "
                                f"{tensor.addr:#x})", role="addr"))
    return Issued("V", RegAccess(instr, runs, True), _vstsb,
                  (_reg(instr, "s"), starts, on, t.size, _post(ex, instr, fields, t.size)))


def _vstsb(m: Machine, _op, arg, _lo, _hi) -> None:
    s, starts, on, size, post = arg
    per = 32 // size
    src = m.regs.v[s].reshape(VL // 32, per, size)
    for j in range(VL // 32):
        keep = on[j * per:(j + 1) * per]
        if keep.any():
            a = int(starts[j])
            m.ub[a:a + 32].reshape(per, size)[keep] = src[j][keep]
    _apply_post(m, post)


def plds(ex: Context, instr: Instruction) -> Issued:
    _file(ex, instr)
    addr, fields = _place(ex, instr, PL, 32, False)
    return Issued("V", RegAccess(instr, [(addr, PL)], False), _plds,
                  (_reg(instr, "d"), addr, _post(ex, instr, fields, 1)))


def _plds(m: Machine, _op, arg, _lo, _hi) -> None:
    d, addr, post = arg
    _write_p(m, d, m.ub[addr:addr + PL].copy(), 0)  # from UB: made for no width in particular
    _apply_post(m, post)


def psts(ex: Context, instr: Instruction) -> Issued:
    _read_p(ex, instr, "s", None)
    addr, fields = _place(ex, instr, PL, 32, True)
    return Issued("V", RegAccess(instr, [(addr, PL)], True), _psts,
                  (_reg(instr, "s"), addr, _post(ex, instr, fields, 1)))


def _psts(m: Machine, _op, arg, _lo, _hi) -> None:
    s, addr, post = arg
    m.ub[addr:addr + PL] = m.regs.p[s]
    _apply_post(m, post)


# -- compute ------------------------------------------------------------------------------------
def vrcmp(ex: Context, instr: Instruction) -> Issued:
    t = instr.dtype
    scalar = "scalar" in instr.operands
    _read_v(ex, instr, "a", *(() if scalar else ("b",)), under="m")
    _read_p(ex, instr, "m", t)
    b = _scalar(ex, instr, t) if scalar else None
    return Issued("V", None, _vrcmp, (instr.op, t, _reg(instr, "d"), _reg(instr, "a"),
                                      None if scalar else _reg(instr, "b"), b,
                                      _reg(instr, "m")))


def _widened(v, t: DType):
    return v.astype(np.float32) if t.name == "bf16" else v


def _vrcmp(m: Machine, _op, arg, _lo, _hi) -> None:
    op, t, d, a, b, s, mk = arg
    x = _values(m.regs.v[a], t)
    y = _values(m.regs.v[b], t) if b is not None else s
    with np.errstate(invalid="ignore"):
        res = OPS[op](_widened(x, t), _widened(np.asarray(y), t))
    res &= active(m.regs.p[mk], t.size)  # the compare's mask: inactive elements give 0
    _write_p(m, d, mask_bits(res, t.size), t.size)


def vrsel(ex: Context, instr: Instruction) -> Issued:
    t = instr.dtype
    _read_v(ex, instr, "a", under="m")  # vA's elements where the mask enables, vB's elsewhere
    _read_v(ex, instr, "b", under="m", outside=True)
    _read_p(ex, instr, "m", t)
    return Issued("V", None, _vrsel, (t, _reg(instr, "d"), _reg(instr, "a"), _reg(instr, "b"),
                                      _reg(instr, "m")))


def _vrsel(m: Machine, _op, arg, _lo, _hi) -> None:
    t, d, a, b, mk = arg
    v = m.regs.v
    on = active(m.regs.p[mk], t.size)
    _write_v(m, d, np.where(on, v[a].view(t.raw), v[b].view(t.raw)))


def vrdup(ex: Context, instr: Instruction) -> Issued:
    t = instr.dtype
    _read_p(ex, instr, "m", t)
    merge = instr.fields.get("merge", 0) == 1  # vD's inactive elements kept, written or not
    if "a" in instr.operands:  # the lowest element of vA, read when it runs
        _read_v(ex, instr, "a", on=np.arange(VL // t.size) == 0)
        s = _reg(instr, "a")
    else:
        s = np.asarray(_scalar(ex, instr, t)).view(t.raw)
    return Issued("V", None, _vrdup, (t, _reg(instr, "d"), s, _reg(instr, "m"), merge))


def _vrdup(m: Machine, _op, arg, _lo, _hi) -> None:
    t, d, s, mk, merge = arg
    if isinstance(s, int):
        s = m.regs.v[s].view(t.raw)[0]
    on = active(m.regs.p[mk], t.size)
    if merge:
        _merge_v(m, d, np.where(on, s, m.regs.v[d].view(t.raw)), on, t.size)
    else:
        _write_v(m, d, np.where(on, s, np.zeros((), t.raw)))


def _compute(ex: Context, instr: Instruction) -> Issued:
    """The element-wise families: vrbin (vD, vA, vB, pM), vrun (vD, vA[, pM]), vrscalar
    (vD, vA, SCALAR, pM); inactive elements are zeroed (MaskMergeMode ZEROING)."""
    t = instr.dtype
    roles = ("a", "b") if "b" in instr.operands else ("a",)
    mk = _reg(instr, "m") if "m" in instr.operands else None
    regs = _file(ex, instr)
    a = _reg(instr, "a")
    # Move without a mask copies every lane, written or not (vD's written lanes become vA's):
    # only a register nothing wrote is a read before a write
    if instr.name != "vrmov" or regs.v_set[a] or not regs.v_def[a].any():
        _read_v(ex, instr, *roles, under=None if mk is None else "m")
    if mk is not None:
        _read_p(ex, instr, "m", t)
    if instr.name in SHIFTS:
        return Issued("V", None, _shift, (instr, t, _reg(instr, "d"), _reg(instr, "a"),
                                          _shift_count(ex, instr), mk))
    s = _scalar(ex, instr, t) if "scalar" in instr.operands else None
    # MaskMergeMode MERGING: inactive elements keep vD's, written or not (per lane)
    merge = instr.fields.get("merge", 0) == 1
    return Issued("V", None, _elementwise, (instr.name, t, _reg(instr, "d"),
                                            [_reg(instr, r) for r in roles], s, mk, merge))


def _elementwise(m: Machine, _op, arg, _lo, _hi) -> None:
    name, t, d, srcs, s, mk, merge = arg
    v = m.regs.v
    if name == "vrmov":
        _write_v(m, d, v[srcs[0]].copy())
        _copy_def(m, d, srcs[0])
        return
    a = _values(v[srcs[0]], t)
    with np.errstate(all="ignore"):
        if name in UNARY:
            res = UNARY[name](a)
        else:
            b = _values(v[srcs[1]], t) if s is None else s
            res = BINARY[name](a, b)
            if t.is_float and name in NAN_SRC0:
                res = _nan_src0(a, b, res, t)
    res = np.asarray(res).astype(t.numeric, copy=False).view(t.raw)
    on = active(m.regs.p[mk], t.size) if mk is not None else True
    if merge:
        _merge_v(m, d, np.where(on, res, v[d].view(t.raw)), on, t.size)
    else:
        _write_v(m, d, np.where(on, res, np.zeros((), t.raw)))


def vrmadd(ex: Context, instr: Instruction) -> Issued:
    """MulDstAdd (vD, vA, vB, pM): vD = vD * vA + vB rounded once where pM enables, else 0."""
    t = instr.dtype
    _read_v(ex, instr, "d", "a", "b", under="m")
    _read_p(ex, instr, "m", t)
    return Issued("V", None, _vrmadd, (t, _reg(instr, "d"), _reg(instr, "a"), _reg(instr, "b"),
                                       _reg(instr, "m")))


def _vrmadd(m: Machine, _op, arg, _lo, _hi) -> None:
    from simulator.semantics.composite import fused_multiply_add

    t, d, a, b, mk = arg
    v = m.regs.v
    res = fused_multiply_add(_values(v[d], t), _values(v[a], t), _values(v[b], t), t)
    on = active(m.regs.p[mk], t.size)
    _write_v(m, d, np.where(on, res.view(t.raw), np.zeros((), t.raw)))


def _shift_count(ex: Context, instr: Instruction) -> int | None:
    """ShiftLefts / ShiftRights' count: an int16 whatever T is (the pages' tables); None for
    the register forms, whose counts are vB's elements."""
    if "scalar" not in instr.operands:
        return None
    v = instr.operands["scalar"].value
    bits = ex.m.x[v.reg] if isinstance(v, RegExpr) else int.from_bytes(bytes(v), "little")
    return int(np.asarray(bits & 0xFFFF, np.uint16).view(np.int16))


def shifted(left: bool, a: np.ndarray, n) -> np.ndarray:
    """A << N or A >> N by the Reg ShiftLeft / ShiftRight pages: unsigned T logical, signed T
    arithmetic (a left shift keeps the sign bit, the bits below it shift). A count past the
    width: left 0, right 0 or -1 (the sign). The count equal to the width, which the pages do
    not settle, and negative counts ("not supported") shift every bit out (pipev's model)."""
    bits, signed = 8 * a.dtype.itemsize, a.dtype.kind == "i"
    n = np.asarray(n, np.int64)
    out = (n < 0) | (n >= bits)
    if left:
        res = np.left_shift(a, np.where(out, 0, n).astype(a.dtype))
        if signed:
            sign = np.asarray(np.iinfo(a.dtype).min, a.dtype)  # the sign bit alone
            res = (a & sign) | (res & ~sign)
        return np.where(out, np.zeros((), a.dtype), res)
    res = np.right_shift(a, np.where(out, bits - 1 if signed else 0, n).astype(a.dtype))
    return res if signed else np.where(out, np.zeros((), a.dtype), res)


def _shift(m: Machine, _op, arg, _lo, _hi) -> None:
    instr, t, d, src, count, mk = arg
    a = _values(m.regs.v[src], t)
    n = count if count is not None else m.regs.v[_reg(instr, "b")].view(SIGNED[t.size])
    on = active(m.regs.p[mk], t.size)
    negative = int(np.count_nonzero(on & (np.asarray(n) < 0)))
    if negative:
        m.count_unknown(instr, "a negative shift count", negative)
    res = shifted(instr.name.startswith("vrshl"), a, n).view(t.raw)
    _write_v(m, d, np.where(on, res, np.zeros((), t.raw)))


MATH = {"vrexp": "vexp", "vrln": "vln", "vrsqt": "vsqrt"}  # semantics/math.py's names


def _math(ex: Context, instr: Instruction) -> Issued:
    """Exp, Ln, Sqrt (vD, vA, pM) and Div (vD, vA, vB, pM): the memory-based unit's correctly
    rounded model (semantics/math.py), inactive elements zeroed."""
    t = instr.dtype
    roles = ("a", "b") if "b" in instr.operands else ("a",)
    _read_v(ex, instr, *roles, under="m")
    _read_p(ex, instr, "m", t)
    if instr.name == "vrsqt":
        keep = SQRT_ALGOS[instr.fields.get("salgo", 0)]
    else:
        keep = DIV_ALGOS[instr.fields.get("algo", 0)] in DIV_KEEPS_SUBNORMALS
    return Issued("V", None, _math_body, (instr.name, t, _reg(instr, "d"),
                                          [_reg(instr, r) for r in roles], _reg(instr, "m"),
                                          instr, keep))


def _math_body(m: Machine, _op, arg, _lo, _hi) -> None:
    from simulator.semantics.math import correctly_rounded

    name, t, d, srcs, mk, instr, keep = arg
    a = _values(m.regs.v[srcs[0]], t)
    if name == "vrdiv" and not t.is_float:
        res = int_quotient(a, _values(m.regs.v[srcs[1]], t), active(m.regs.p[mk], t.size),
                           m, instr)
    elif name == "vrdiv":
        res = float_quotient(a, _values(m.regs.v[srcs[1]], t), t, keep)
    elif name == "vrsqt":
        res = square_root(a, t, keep)
    else:
        res = correctly_rounded(MATH[name], a, t)
    on = active(m.regs.p[mk], t.size)
    _write_v(m, d, np.where(on, res.view(t.raw), np.zeros((), t.raw)))


def square_root(a: np.ndarray, t: DType, algo: str) -> np.ndarray:
    """Sqrt in SqrtAlgo ALGO: correctly rounded in every mode (a root of a float is never
    subnormal); a subnormal input is the zero of its sign (so its root is) but for the modes
    that keep subnormals; the fast-inverse modes give 0 for an input above 2^126 (the Memory
    Sqrt page), +inf among them."""
    from simulator.semantics.math import correctly_rounded

    if algo not in SQRT_KEEPS_SUBNORMALS:
        a = flushed(a, t)
    res = correctly_rounded("vsqrt", a, t)
    if algo in SQRT_FAST:
        res = np.where(a > SQRT_FAST_LIMIT, np.zeros((), t.numeric), res)
    return res


def flushed(x: np.ndarray, t: DType) -> np.ndarray:
    """X with its subnormals flushed to zero, the sign kept (FTZ)."""
    raw, sign = x.view(t.raw), 1 << (8 * t.size - 1)
    exp = raw & np.asarray(sign - (1 << t.mantissa_bits), t.raw)  # the bits between
    return np.where(exp == 0, raw & np.asarray(sign, t.raw), raw).view(x.dtype)


def float_quotient(a: np.ndarray, b: np.ndarray, t: DType, keep: bool) -> np.ndarray:
    """Float Div: the quotient correctly rounded in T (exact in float32 for f16, then one
    rounding). Unless KEEP (DivAlgo p0ulp / p1ulp), subnormal inputs and results are flushed
    to zero, the sign kept (the Div page's FTZ: 1 / -5.0e-39 gives -inf, two subnormals give
    NaN). A NaN made from numbers (0/0, inf/inf) is 0x7FFFFFFF for f32, the page's example;
    a NaN input gives itself, quieted, src0's first."""
    if not keep:
        a, b = flushed(a, t), flushed(b, t)
    with np.errstate(all="ignore"):
        res = np.divide(a, b).astype(t.numeric)
    if not keep:
        res = flushed(res, t)
    made = np.isnan(res) & ~np.isnan(a) & ~np.isnan(b)
    if t.name == "f32" and made.any():
        res = np.where(made, np.asarray(0x7FFFFFFF, np.uint32).view(np.float32), res)
    return _nan_src0(a, b, res, t)


def int_quotient(a: np.ndarray, b: np.ndarray, on: np.ndarray, m: Machine,
                 instr: Instruction) -> np.ndarray:
    """Integer Div: a / b truncated toward zero (C's `/`), in T (the most negative value over
    -1 wraps to itself). A zero divisor the page does not define: pipev gives 0 and the run
    warns once per instruction with the count of enabled elements that had one."""
    zero = b == 0
    safe = np.where(zero, np.ones((), b.dtype), b)
    with np.errstate(all="ignore"):
        q = a // safe
        q = q + ((a % safe != 0) & ((a < 0) != (safe < 0))).astype(q.dtype)
    n = int(np.count_nonzero(zero & on))
    if n:
        m.count_unknown(instr, "integer division by zero", n)
    return np.where(zero, np.zeros((), q.dtype), q).astype(a.dtype)


def _reduce(ex: Context, instr: Instruction) -> Issued:
    t = instr.dtype
    _read_v(ex, instr, "a", under="m")
    _read_p(ex, instr, "m", t)
    return Issued("V", None, _reduce_body, (instr.name[4:], t, _reg(instr, "d"),
                                            _reg(instr, "a"), _reg(instr, "m")))


def tree_sum(x: np.ndarray) -> np.ndarray:
    """The Reduce page's order: neighbours added pairwise, level by level, each sum in T."""
    with np.errstate(all="ignore"):
        while x.size > 1:
            x = (x[0::2] + x[1::2]).astype(x.dtype)
    return x[0]


def _extreme(x: np.ndarray, on: np.ndarray, t: DType, op: str) -> tuple:
    """(value, first index) of the largest (smallest) active element: NaN wins (the first NaN,
    its bits kept), max(-0, +0) = +0, min(-0, +0) = -0; none active: T's lowest (highest)."""
    idx = np.flatnonzero(on)
    if t.is_float:
        nan = idx[np.isnan(x[idx])]
        if nan.size:
            return x[nan[0]], int(nan[0])
    if not idx.size:
        lim = (-np.inf if op == "max" else np.inf) if t.is_float else \
            (np.iinfo(t.numeric).min if op == "max" else np.iinfo(t.numeric).max)
        return np.asarray(lim).astype(t.numeric), 0
    v = x[idx]
    # order -0 below +0, so max picks +0 and min picks -0
    key = v.astype(np.float64) if t.is_float else v
    if t.is_float:
        key = np.where(v == 0, np.where(np.signbit(v), -0.0, 0.0), key)
        sign = np.signbit(v) & (v == 0)
        best = key.max() if op == "max" else key.min()
        cand = np.flatnonzero(key == best)
        if best == 0:
            want_neg = op == "min" and sign[cand].any()
            cand = cand[sign[cand] == want_neg]
        k = int(cand[0])
    else:
        k = int(np.argmax(key) if op == "max" else np.argmin(key))
    return v[k], int(idx[k])


def _reduce_body(m: Machine, _op, arg, _lo, _hi) -> None:
    op, t, d, a, mk = arg
    x = _values(m.regs.v[a], t)
    on = active(m.regs.p[mk], t.size)
    out = np.zeros(VL // t.size, t.numeric)
    if op == "sum":
        out[0] = tree_sum(np.where(on, x, np.zeros((), t.numeric)))
    else:
        value, index = _extreme(x, on, t, op)
        out[0] = value
        out.view(t.raw)[1] = index  # the index as T's bits (the page: reinterpret it)
    _write_v(m, d, out)


def _nan_src0(a, b, res, t: DType):
    """Where both operands are NaN, src0's NaN with its quiet bit set (semantics/arith.py's
    rule for the memory-based unit, the same here)."""
    both = np.isnan(a) & np.isnan(b)
    if not both.any():
        return res
    quiet = np.asarray(1 << (t.mantissa_bits - 1), t.raw)
    return np.where(both, (a.view(t.raw) | quiet).view(t.numeric), res)


ISSUE = {"vf_begin": vf_begin, "vf_end": vf_end, "membar": vmembar, "pset": pset, "plt": plt,
         "plogic": plogic,
         "vload": vlds, "vstore": vsts, "vload2": vlds2, "vstore2": vsts2, "vloadb": vldsb,
         "vstoreb": vstsb, "pload": plds, "pstore": psts, "vrcmp": vrcmp,
         "vrsel": vrsel, "vrdup": vrdup, "vrbin": _compute, "vrun": _compute,
         "vrscalar": _compute, "vrmath": _math, "vrmathbin": _math, "vrreduce": _reduce,
         "vrfma": vrmadd, "vrsqrt": _math}
