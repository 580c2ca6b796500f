"""API-level instructions (docs/semantics.md §8): each statement expands into a fixed sequence of
hardware instructions, chosen per chip (counter-mode chips vs ascend910)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import numpy as np

from isa.addressing import REPEAT, element_offsets
from isa.lexer import LexError
from isa.program import Instruction, Operand, RegExpr
from isa.table import BINARY_DEFAULT, COMPARE_OPS, ROUND_MODES, UNARY_DEFAULT
from isa.types import TYPES, DType

# isa.operands.Builder and StatementSyntax: operands imports this module to expand statements
Builder = Any
StatementSyntax = Any

ONES = (1 << 64) - 1
CHUNK_COMPARE = 252  # 252 repeats keep the bit output 32-byte aligned (8/16/32-bit types)
CHUNK_REPEAT = 255

__all__ = ["COMPARE_OPS", "expand", "contiguous_mask"]


def contiguous_mask(length: int, t: DType) -> tuple[int, int]:
    """The contiguous rule of §8.3 → (HI, LO); LEN clamped to N(T); 8-bit only all ones."""
    if t.size == 1:
        return ONES, ONES
    n = min(length, t.per_repeat)
    return (1 << max(n - 64, 0)) - 1, (1 << min(n, 64)) - 1


def full_mask(t: DType) -> tuple[int, int]:
    return contiguous_mask(t.per_repeat, t)


class _Expander:
    """Helpers shared by the expansions: operand shifting and hardware instruction creation."""

    def __init__(self, b: Builder, syn: StatementSyntax, fields: dict, cols: dict):
        self.b, self.syn, self.fields, self.cols = b, syn, fields, cols
        self.t = syn.dtype
        self.chip = b.chip
        self.scr = b.chip.scratch_base
        self.out: list[Instruction] = []
        self.guard: Operand | None = None  # a scalar(NAME[xN]) element dst must not overlap
        self.hw_fields: dict = {}  # fields the hardware instruction takes as they are (round_en)

    def key_col(self, key: str) -> int:
        return self.cols.get(key, self.syn.offset)

    def emit(self, name: str, ops: dict[str, Operand] | None = None, t: DType | None = None,
             op: str | None = None, src: DType | None = None, **fields) -> None:
        defn = self.b.table.instructions[name]  # the run's table: its own rows too
        if defn.strides:
            stride = fields.pop("stride", None) or defn.family.default_strides(
                defn.stride_names, defn.stride_default, t, src)
            fields.update(zip(defn.stride_names, stride, strict=True))
        ops = ops or {}
        cols = {r: o.col for r, o in ops.items()}
        cols.update({k: self.key_col(k if k in self.cols else "stride") for k in fields})
        self.out.append(self.b.make(defn, op, t, ops, fields, cols, src=src))

    def raw(self, addr: int) -> Operand:
        return Operand("mem", self.syn.offset, f"@{addr:#x}", "ub", addr)

    def num(self, v: int | RegExpr) -> Operand:
        return Operand("int", self.syn.offset, str(v), value=v)

    def mask(self, hi: int | RegExpr | None, lo: int | RegExpr) -> None:
        if hi is None:  # mask=xN: the contiguous rule applied to the register at run time
            n = Operand("int", self.key_col("mask"), str(lo), value=lo)
            self.emit("set_mask", {"len": n}, t=self.t)
            return
        lo_op = self.num(lo)
        if isinstance(lo, RegExpr):  # a register count: diagnostics point at its key
            key = next((k for k in ("count", "mask_lo") if k in self.cols), None)
            lo_op = attrs.evolve(lo_op, col=self.key_col(key)) if key else lo_op
        self.emit("set_vector_mask", {"hi": self.num(hi), "lo": lo_op})

    def load(self, mode: int, sel: Operand | None, scalar: Operand | None) -> None:
        """LOAD(M): bring the selection source into CMPMASK (§8.1)."""
        if mode == 0:
            self.emit("set_cmpmask", {"src": sel})
            return
        slot = self.raw(self.scr_scalar)
        if mode == 1:
            self.dup_block(slot, scalar)
        else:
            self.emit("set_mask_norm")
            self.mask(0, 0xFF)
            addr = sel.addr
            text = f"{addr:#x}" if isinstance(addr, int) else str(addr)
            value = addr.to_bytes(4, "little") if isinstance(addr, int) else addr
            u32 = TYPES["u32"]
            self.emit("vector_dup", {"dst": slot, "scalar": _scalar(u32, value, text, sel.col)},
                      u32, repeat=1)
        self.emit("set_cmpmask", {"src": slot})

    def dup_block(self, slot: Operand, scalar: Operand) -> None:
        """One 32-byte block of the scalar at SLOT (LOAD(1)'s vector_dup); the mode is norm
        afterwards."""
        t = self.t
        if t.size == 1 and self.chip.counter_mode:
            # 8-bit: a partial normal-mode MASK is an error (§14.1), so the one block of
            # scalars is written in counter mode (count = B(T))
            self.emit("set_mask_count")
            self.mask(0, t.per_block)
            self.emit("vector_dup", {"dst": slot, "scalar": scalar}, t, repeat=1)
            self.emit("set_mask_norm")
            return
        self.emit("set_mask_norm")
        hi, lo = (ONES, ONES) if t.size == 1 else (0, (1 << t.per_block) - 1)
        self.mask(hi, lo)
        self.emit("vector_dup", {"dst": slot, "scalar": scalar}, t, repeat=1)

    @property
    def scr_scalar(self) -> int:
        # the last 32 bytes of scratch; the bytes below may hold an inverted select mask
        return self.scr + self.chip.scratch_bytes - 32 if self.inverted else self.scr

    inverted = False
    scalar_override: Operand | None = None  # subs: the scalar operand, negated


def _scalar(t: DType, value, text: str, col: int) -> Operand:
    if isinstance(value, RegExpr):
        return Operand("scalar", col, text, value=value)
    return Operand("scalar", col, text, value=np.frombuffer(bytes(value), np.uint8)[:t.size])


def shift(o: Operand, nbytes: int) -> Operand:
    """The same operand nbytes further on (chunked expansions)."""
    if nbytes == 0:
        return o
    if isinstance(o.addr, RegExpr):
        addr = attrs.evolve(o.addr, offset=o.addr.offset + nbytes)
        return attrs.evolve(o, addr=addr)
    addr = o.addr + nbytes
    text = f"@{addr:#x}"
    t = o.tensor
    if t is not None and (addr - t.addr) % t.dtype.size == 0:
        text = f"{t.name}[{(addr - t.addr) // t.dtype.size}]"  # the listing names the chunk
    return attrs.evolve(o, addr=addr, text=text)


def expand(b: Builder, syn: StatementSyntax, fields: dict, cols: dict) -> list[Instruction]:
    e = _Expander(b, syn, fields, cols)
    _EXPANSIONS[syn.defn.family.name](e)
    return e.out


# -- operand helpers ----------------------------------------------------------------------------
def _operands(e: _Expander, kinds: list[tuple[str, str]]) -> dict[str, Operand]:
    ops = {}
    for (role, kind), (text, off) in zip(kinds, e.syn.positional, strict=True):
        ops[role] = e.b.operand(kind, text, off, role)
    return ops


def _arity(e: _Expander, n: int, form: str) -> None:
    got = len(e.syn.positional)
    if got != n:
        raise LexError(f"{e.syn.defn.name} ({form}) takes {n} operands, got {got}", e.syn.offset)


def _form(e: _Expander) -> str:
    """count | highdim | nomask, with the key rules of §8.1."""
    f = e.fields
    if ("count" in f) == ("repeat" in f):
        raise LexError(f"{e.syn.defn.name} takes exactly one of count= or repeat=", e.syn.offset)
    has_mask = any(k in f for k in ("mask", "mask_lo", "mask_hi"))
    if "count" in f:
        if has_mask or "stride" in e.syn.keys:
            k = next(k for k in ("mask", "mask_lo", "mask_hi", "stride") if k in e.syn.keys)
            raise LexError(f"key '{k}' does not apply to the count= form", e.key_col(k))
        return "count"
    return "highdim" if has_mask else "nomask"


def _mask_from_keys(e: _Expander) -> tuple[int | RegExpr | None, int | RegExpr]:
    f, t = e.fields, e.t
    if "mask" in f:
        if "mask_lo" in f or "mask_hi" in f:
            raise LexError("give mask= or mask_lo=/mask_hi=, not both", e.key_col("mask"))
        n = f["mask"]
        if isinstance(n, RegExpr):  # docs/semantics.md §7: decoded as set_mask.T xN (e.mask)
            return None, n
        if t.size == 1 and n != 256:
            raise LexError(f"8-bit types take mask=256 only (all elements), got {n}",
                           e.key_col("mask"))
        if n < 1:
            raise LexError(f"mask={n} is out of range (1..{t.per_repeat})", e.key_col("mask"))
        return contiguous_mask(n, t)
    lo, hi = f.get("mask_lo", 0), f.get("mask_hi", 0)
    if t.size == 1:
        if (lo, hi) != (ONES, ONES):
            raise LexError("8-bit types take only the full mask (mask_lo=mask_hi=all ones)",
                           e.key_col("mask_lo"))
    if t.size >= 4 and isinstance(hi, int) and hi != 0:
        raise LexError(f"mask_hi must be 0 for {8 * t.size}-bit types", e.key_col("mask_hi"))
    if t.size == 8 and isinstance(lo, int) and lo >= 1 << 32:
        raise LexError("mask_lo must be below 2^32 for 64-bit types", e.key_col("mask_lo"))
    return hi, lo


def _count(e: _Expander, limit: int | None) -> int | RegExpr:
    n = e.fields["count"]
    if isinstance(n, int) and limit is not None and n > limit:
        raise LexError(f"count={n} is out of range (0..{limit} for {e.t.name})",
                       e.key_col("count"))
    return n


def _check_count_only(e: _Expander, form: str) -> None:
    t = e.t
    if form != "count" and t.name in e.chip.types.get("api_count_only", ()):
        op = f".{e.syn.op}" if e.syn.op else ""
        raise LexError(f"{e.syn.defn.name}{op}.{t.name} is supported only through count= on "
                       f"{e.chip.name}", e.syn.offset)


# -- select -------------------------------------------------------------------------------------
def _select(e: _Expander) -> None:
    chip = e.chip
    mode = e.fields.get("mode", 0)
    form = _form(e)
    _check_count_only(e, form)
    problem = chip.select_mode_problem("select", mode, e.t.size, e.t.name)
    if problem:
        raise LexError(problem, e.key_col("mode"))
    if mode == 0 and len(e.syn.positional) == 3 and form != "nomask":
        _select_cmpmask(e, form)  # CMPMASK as it is (the C API, TIK's vec_cmp_*)
        return
    if form == "nomask":
        _arity(e, 3, "no-mask form")
        roles = [("dst", "vec"), ("sel", "bits"), ("src0", "vec")] if mode == 1 else \
            [("dst", "vec"), ("src0", "vec"), ("src1", "vec")]
        ops = _operands(e, roles)
        s1 = ops["sel"] if mode == 1 else ops["src1"]
        _vsel(e, ops["dst"], ops["src0"], s1, mode, e.fields["repeat"], _strides(e))
        return
    _arity(e, 4, "count form" if form == "count" else "high-dimensional form")
    kinds = [("dst", "vec"), ("sel", "bits"), ("src0", "scalar_or_vec"),
             ("src1", "scalar_or_vec")]
    ops = _operands(e, kinds)
    scalar0, scalar1 = ops["src0"].kind == "scalar", ops["src1"].kind == "scalar"
    if mode != 1 and (scalar0 or scalar1):
        which = "src0" if scalar0 else "src1"
        raise LexError(f"select mode {mode} takes tensors; {which} is a scalar",
                       ops[which].col)
    if mode == 1:
        if scalar0 == scalar1:
            raise LexError("select mode 1 takes exactly one scalar (src1; on ascend950 src0 or "
                           "src1)", ops["src1"].col)
        if scalar0 and not chip.flexible_scalar:
            raise LexError(f"a scalar src0 (flexible scalar position) is not supported on "
                           f"{chip.name} (ascend950 only)", ops["src0"].col)
    if mode == 1:
        _check_scalar_overlap(e, ops["dst"], ops["src0" if scalar0 else "src1"], form)
    if mode == 1 and scalar0:
        _select_scalar_first(e, ops, form)
        return
    scalar = ops["src1"] if mode == 1 else None
    s1 = ops["sel"] if mode == 1 else ops["src1"]
    if form == "count":
        _select_count(e, ops, mode, scalar, s1)
    else:
        e.load(mode, ops["sel"], scalar)
        e.mask(*_mask_from_keys(e))
        _vsel(e, ops["dst"], ops["src0"], s1, mode, e.fields["repeat"], _strides(e))


def _select_cmpmask(e: _Expander, form: str) -> None:
    """select.T DST, SRC0, SRC1, mode=0 with count= or a mask: the first N elements, or the
    high-dimensional form, selected by CMPMASK as an earlier set_cmp_mask or compare left it."""
    ops = _operands(e, [("dst", "vec"), ("src0", "vec"), ("src1", "vec")])
    if form == "highdim":
        e.mask(*_mask_from_keys(e))
        _vsel(e, ops["dst"], ops["src0"], ops["src1"], 0, e.fields["repeat"], _strides(e))
        return
    n = _count(e, CHUNK_REPEAT * e.t.per_repeat)
    if n == 0:
        e.b.warn(e.key_col("count"), "select with count=0 does nothing")
        return

    def body(done: int, repeat: int, hi_lo: tuple[int, int]) -> None:
        off = done * REPEAT
        e.mask(*hi_lo)
        _vsel(e, shift(ops["dst"], off), shift(ops["src0"], off), shift(ops["src1"], off), 0,
              repeat, BINARY_DEFAULT)

    _first_n(e, n, lambda: _vsel(e, ops["dst"], ops["src0"], ops["src1"], 0, 1,
                                 BINARY_DEFAULT), body)


def _check_scalar_overlap(e: _Expander, dst: Operand, scalar: Operand, form: str) -> None:
    """§8.1: dst must not overlap a scalar(NAME[I]) element (checked here when both are
    constants, the high-dimensional form counting every element position of the repeats, MASK
    aside; otherwise the vsel carries the element as its `guard` and the run checks it)."""
    if scalar.tensor is None:
        return
    if not isinstance(scalar.addr, int) or not isinstance(dst.addr, int) or \
            not isinstance(e.fields.get("count" if form == "count" else "repeat"), int):
        e.guard = attrs.evolve(scalar, kind="mem")
        return
    t, f = e.t, e.fields
    if form == "count":
        n = f["count"]
        if not isinstance(n, int):
            return
        hit = dst.addr - t.size < scalar.addr < dst.addr + n * t.size
    else:
        if not isinstance(f["repeat"], int):
            return
        offs = element_offsets(t.size, f["dst_blk"], f["dst_rep"], f["repeat"]) + dst.addr
        hit = bool(np.any(np.abs(offs - scalar.addr) < t.size))
    if hit:
        raise LexError(f"{e.syn.defn.name} dst overlaps the scalar element {scalar.text} at "
                       f"{scalar.addr:#x} (the scalar must not overlap dst)", scalar.col)


def _strides(e: _Expander) -> tuple[int, ...]:
    return tuple(e.fields[n] for n in e.syn.defn.stride_names)


def _vsel(e: _Expander, dst, src0, s1, mode: int, repeat, stride) -> None:
    ops = {"dst": dst, "src0": src0, "src1": s1}
    if e.guard is not None:  # checked against dst at run time, never accessed
        ops["guard"] = e.guard
    e.emit("vsel", ops, e.t, repeat=repeat, mode=mode, stride=stride)


def _select_count(e: _Expander, ops: dict, mode: int, scalar, s1) -> None:
    t = e.t
    n = _count(e, CHUNK_REPEAT * t.per_repeat)
    if n == 0:
        e.b.warn(e.key_col("count"), "select with count=0 does nothing")
        return
    if e.chip.counter_mode:
        e.load(mode, ops["sel"], scalar)

    def body(done: int, repeat: int, hi_lo: tuple[int, int]) -> None:
        off = done * REPEAT
        e.emit("set_cmpmask", {"src": ops["sel"]})
        e.mask(*hi_lo)
        _vsel(e, shift(ops["dst"], off), shift(ops["src0"], off), shift(ops["src1"], off), 0,
              repeat, BINARY_DEFAULT)

    _first_n(e, n, lambda: _vsel(e, ops["dst"], ops["src0"], s1, mode, 1, BINARY_DEFAULT), body)


def _first_n(e: _Expander, n: int | RegExpr, counted: Callable[[], None],
             chunk: Callable[[int, int, tuple[int, int]], None] | None) -> None:
    """The first-n (count=) form: one instruction in counter mode on the chips that have it
    (COUNTED emits it); on ascend910 chunks of full repeats and a masked tail (CHUNK emits one,
    given the whole repeats before it, its repeat count and MASK; None where N is always a
    register)."""
    if e.chip.counter_mode:
        e.emit("set_mask_count")
        e.mask(0, n)
        counted()
        e.emit("set_mask_norm")
        e.mask(ONES, ONES)
        return
    if isinstance(n, RegExpr):
        raise LexError(f"count= must be a constant on {e.chip.name} (no counter mode)",
                       e.key_col("count"))
    _chunked(e, n, chunk)


def _chunked(e: _Expander, n: int, body) -> None:
    """ascend910 count forms: chunks of up to 255 full repeats, then a masked tail repeat."""
    t = e.t
    full, tail = divmod(n, t.per_repeat)
    done = 0  # whole repeats before the chunk
    while full > 0:
        k = min(full, CHUNK_REPEAT)
        body(done, k, full_mask(t))
        done += k
        full -= k
    if tail:
        body(done, 1, contiguous_mask(tail, t))
    e.mask(ONES, ONES)


def _select_scalar_first(e: _Expander, ops: dict, form: str) -> None:
    """ascend950 flexible scalar position, scalar as src0: invert sel into scratch with
    s16 arithmetic (~x = -x - 1), then mode 1 with the tensor src1 as src0 (a register
    count or repeat: _select_scalar_block)."""
    t = e.t
    key = "count" if form == "count" else "repeat"
    if isinstance(e.fields[key], RegExpr):
        _select_scalar_block(e, ops, form)
        return
    e.inverted = True
    inv = e.raw(e.scr)
    s16 = TYPES["s16"]
    if form == "count":
        n = _count(e, CHUNK_REPEAT * t.per_repeat)
        if n == 0:
            e.b.warn(e.key_col("count"), "select with count=0 does nothing")
            return
        repeats = -(-n // t.per_repeat)
    else:
        repeats = e.fields["repeat"]
    words = repeats * t.per_repeat // 16
    _check_sel_size(e, ops["sel"], words * 2)
    if words:
        e.emit("set_mask_count")
        e.mask(0, words)
        minus1 = _scalar(s16, (0xFFFF).to_bytes(2, "little"), "-1", ops["sel"].col)
        e.emit("vmuls", {"dst": inv, "src": ops["sel"], "scalar": minus1}, s16, repeat=1)
        e.emit("vadds", {"dst": inv, "src": inv, "scalar": minus1}, s16, repeat=1)
    e.load(1, None, ops["src0"])
    if form == "count":
        e.emit("set_mask_count")
        e.mask(0, n)
        _vsel(e, ops["dst"], ops["src1"], inv, 1, 1, BINARY_DEFAULT)
        e.emit("set_mask_norm")
        e.mask(ONES, ONES)
    else:
        e.mask(*_mask_from_keys(e))
        _vsel(e, ops["dst"], ops["src1"], inv, 1, repeats, _tensor_first_strides(e))


def _check_sel_size(e: _Expander, sel: Operand, nbytes: int) -> None:
    """The inversion reads NBYTES of sel: say so in the select's words, not the vmuls'."""
    t = sel.tensor
    if t is None or not isinstance(sel.addr, int) or sel.addr + nbytes <= t.addr + t.nbytes:
        return
    e.b.rule(sel.col, f"select sel {t.name} needs {sel.addr + nbytes - t.addr} bytes "
             f"({nbytes * 8} mask bits), tensor has {t.nbytes}")


def _select_scalar_block(e: _Expander, ops: dict, form: str) -> None:
    """Scalar-first select whose count= or repeat= is a register: the inversion above needs
    the repeat count before running, so this form takes vsel mode 2 instead, with src0 one
    block of the scalar read with block and repeat stride 0 (every element is the scalar) and
    the select mask read in place from its CMPMASK address (docs/decisions.md)."""
    key = "count" if form == "count" else "repeat"
    problem = e.chip.select_mode_problem("vsel", 2, e.t.size, e.t.name)
    if problem:
        raise LexError(f"select with a scalar src0 and {key}=xN decodes to vsel mode 2: "
                       f"{problem}", e.key_col(key))
    block = e.raw(e.scr + 32)  # above LOAD(2)'s slot at SCR
    e.dup_block(block, ops["src0"])
    e.load(2, ops["sel"], None)
    f = e.fields
    if form == "count":
        _first_n(e, f["count"], lambda: _vsel(e, ops["dst"], block, ops["src1"], 2, 1,
                                               (1, 0, 1, 8, 0, 8)), None)
        return
    e.mask(*_mask_from_keys(e))
    _vsel(e, ops["dst"], block, ops["src1"], 2, f["repeat"],
          (f["dst_blk"], 0, f["src1_blk"], f["dst_rep"], 0, f["src1_rep"]))


def _tensor_first_strides(e: _Expander) -> tuple[int, ...]:
    """The strides of a scalar-first select once its tensor src1 moved into vsel's src0 slot:
    src1's strides go with it; the select mask in the src1 slot is read contiguously (mode 1
    ignores its strides), so it gets the defaults; the scalar's strides mean nothing."""
    f = e.fields
    return (f["dst_blk"], f["src1_blk"], BINARY_DEFAULT[2], f["dst_rep"], f["src1_rep"],
            BINARY_DEFAULT[5])


# -- compares -------------------------------------------------------------------------------------
def _compare(e: _Expander) -> None:
    _arity(e, 3, "compare")
    ops = _operands(e, list(e.syn.defn.operands))
    t, chip = e.t, e.chip
    if ops["dst"].kind == "word":
        if not chip.compare_to_cmpmask:
            raise LexError(f"compare to CMPMASK is not supported on {chip.name} (supports "
                           "compares to UB bits only)", ops["dst"].col)
        _check_count_only(e, "cmpmask")
        if "count" in e.fields or "repeat" in e.fields:
            k = "count" if "count" in e.fields else "repeat"
            raise LexError(f"key '{k}' does not apply to a compare into cmpmask",
                           e.key_col(k))
        if any(k in e.fields for k in ("mask", "mask_lo", "mask_hi")):
            e.mask(*_mask_from_keys(e))
        e.emit("vcmp", {"src0": ops["src0"], "src1": ops["src1"]}, t, e.syn.op,
               stride=_strides(e))
        return
    _compare_to_ub(e, ops, "vcmpv", BINARY_DEFAULT)


def _compare_to_ub(e: _Expander, ops: dict, hw: str, count_stride: tuple[int, ...]) -> None:
    """compare / compares with a UB destination: one vcmpv(s) for repeat=, chunks for count=."""
    name, t = e.syn.defn.name, e.t
    form = _form(e)
    _check_count_only(e, form)
    if form != "count":
        if form == "highdim":
            e.b.note(e.key_col(next(k for k in ("mask", "mask_lo", "mask_hi")
                                    if k in e.fields)),
                     f"{name} ignores mask keys ({hw} writes all bits; MASK is not touched)")
        e.emit(hw, ops, t, e.syn.op, repeat=e.fields["repeat"], stride=_strides(e))
        return
    n = _count(e, None)
    if isinstance(n, RegExpr):
        # known only at issue: one counter-mode instruction of ceil(n / N(T)) whole repeats
        # (at most 255, checked at issue); the 256-byte rule of compare cannot be checked
        # before running (docs/decisions.md)
        _first_n(e, n, lambda: e.emit(hw, ops, t, e.syn.op, repeat=1, stride=count_stride),
                 None)
        return
    if n == 0:
        e.b.warn(e.key_col("count"), f"{name} with count=0 does nothing")
        return
    if hw == "vcmpv":  # Compare: whole repeats only, as the vendor asserts
        if n * t.size % 256:
            raise LexError(f"compare count={n} × {t.size} bytes is not a multiple of 256 bytes",
                           e.key_col("count"))
        repeats = n * t.size // 256
    else:  # Compares: every one of the N result bits is computed
        repeats = -(-n // t.per_repeat)
    _chunk_compare(e, hw, ops, repeats, count_stride)


def _chunk_compare(e: _Expander, name: str, ops: dict, repeats: int, stride) -> None:
    t = e.t
    # a repeat writes N/8 = 32/size bytes, so a chunk of a multiple of size repeats keeps the
    # next dst 32-byte aligned: 252 for 8/16/32-bit types, 248 for 64-bit ones
    chunk = CHUNK_COMPARE - CHUNK_COMPARE % t.size
    done = 0
    while done < repeats:
        k = min(chunk, repeats - done)
        moved = {r: shift(o, done * REPEAT if r != "dst" else done * t.per_repeat // 8)
                 if o.kind == "mem" else o for r, o in ops.items()}
        e.emit(name, moved, t, e.syn.op, repeat=k, stride=stride)
        done += k


def _compares(e: _Expander) -> None:
    _arity(e, 3, "compares")
    _compare_to_ub(e, _operands(e, list(e.syn.defn.operands)), "vcmpvs", UNARY_DEFAULT)


# -- others ---------------------------------------------------------------------------------------
def _duplicate(e: _Expander) -> None:
    if "repeat" in e.fields and "count" not in e.fields:
        _elementwise(e)  # the high-dimensional form, as the other elementwise APIs
        return
    _arity(e, 2, "count form")
    if "count" not in e.fields:
        raise LexError("duplicate takes count=", e.syn.offset)
    _form(e)  # no mask or stride keys
    ops = _operands(e, list(e.syn.defn.operands))
    t = e.t
    n = _count(e, CHUNK_REPEAT * t.per_repeat)
    if n == 0:
        e.b.warn(e.key_col("count"), "duplicate with count=0 does nothing")
        return
    def body(done: int, repeat: int, hi_lo: tuple[int, int]) -> None:
        e.mask(*hi_lo)
        e.emit("vector_dup", {"dst": shift(ops["dst"], done * REPEAT), "scalar": ops["scalar"]}, t,
               repeat=repeat)

    _first_n(e, n, lambda: e.emit("vector_dup", ops, t, repeat=1), body)


def _elementwise(e: _Expander, hw: str | None = None,
                 kinds: list[tuple[str, str]] | None = None) -> None:
    """abs / not, and / or / add / sub / mul / max / min and adds / muls / maxs / mins:
    count=, repeat= with a mask, or repeat= alone (MASK as it is), each one hardware
    instruction, the row's `hw` (chunks on ascend910, each operand moved on by the repeats
    done in its own layout; a scalar operand stays where it is)."""
    if e.syn.src_dtype is not None:  # #27: a mixed form (axpy.f32.f16, mul_add_dst.f32.f16)
        _binary_cast(e)
        return
    if e.scalar_override is None and _flexible(e):  # #27 (h27c): ascend950, scalar first
        _flex_scalar(e, _FLEX_BINARY[e.syn.defn.name])
        return
    hw = hw or e.syn.defn.hw  # another instruction (kinds: its operands): h27c's vshlv/vshrv
    kinds = kinds or list(e.syn.defn.operands)
    form = _form(e)
    _arity(e, len(kinds), form)
    ops = _operands(e, kinds)
    if e.scalar_override is not None:  # subs: the negated scalar
        ops["scalar"] = e.scalar_override
    t = e.t
    if form != "count":
        if form == "highdim":
            e.mask(*_mask_from_keys(e))
        e.emit(hw, ops, t, repeat=e.fields["repeat"], stride=_strides(e), **e.hw_fields)
        return
    n = _count(e, CHUNK_REPEAT * t.per_repeat)
    if n == 0:
        e.b.warn(e.key_col("count"), f"{e.syn.defn.name} with count=0 does nothing")
        return

    packed = dict(e.b.table.instructions[hw].family.packed)

    def body(done: int, repeat: int, hi_lo: tuple[int, int]) -> None:
        e.mask(*hi_lo)
        e.emit(hw, {r: shift(o, done * (packed[r] * t.size if r in packed else REPEAT))
                    if o.kind == "mem" else o for r, o in ops.items()}, t, repeat=repeat,
               **e.hw_fields)

    _first_n(e, n, lambda: e.emit(hw, ops, t, repeat=1, **e.hw_fields), body)


# -- #27a: shifts and Subs -----------------------------------------------------------------------
def _scalar_operand(e: _Expander) -> Operand:
    return e.b.operand("scalar", *e.syn.positional[2], "scalar")


def _shift(e: _Expander) -> None:
    """shift_left / shift_right: the elementwise expansion; a constant count outside the
    pages' range is warned about here: [0, width] on A2/A3 and 200I/500 A2 (the ShiftLeft/Right
    pages: int16 [0, 16], int32 [0, 32]; a count of the width shifts every bit out), any count
    >= 0 on ascend950, whose page gives every bit out past the width (the model's value)."""
    if len(e.syn.positional) == 3 and _shift_by_tensor(e):
        return
    if len(e.syn.positional) == 3:
        o = _scalar_operand(e)
        if isinstance(o.value, np.ndarray):
            n = int(o.value.view(e.t.numeric)[0])
            bits = 8 * e.t.size
            # the chips with tensor-count shifts (ascend950) define every count >= 0
            top = None if e.chip.types.get("shift_tensor") else bits
            if n < 0 or (top is not None and n > top):
                where = f"0..{top}" if top is not None else ">= 0"
                e.b.warn(o.col, f"{e.syn.defn.name} by {n}: the count is outside {where} "
                         "(pipev shifts every bit out; the docs give no result)")
    if "round_en" in e.fields:  # #27: ShiftRight's roundEn, asc_shiftright_round
        e.hw_fields = {"round_en": e.fields["round_en"]}
        hw = e.b.table.instructions[e.syn.defn.hw]
        problem = hw.family.chip_problem(e.syn.defn.name, e.chip, e.hw_fields, e.t)
        if problem is not None:
            raise LexError(problem[0], e.key_col("round_en"))
    _elementwise(e)


# #27 (h27c): ascend950's ShiftLeft / ShiftRight by a tensor of counts (count= only, the pages'
# one form), the counts' tensor of T's width (a signed U, its bits read as such by vshlv/vshrv)
_SHIFT_TENSOR = {"shift_left": "vshlv", "shift_right": "vshrv"}


def _shift_by_tensor(e: _Expander) -> bool:
    """shift_left / shift_right DST, SRC0, SRC1 with SRC1 a tensor: vshlv / vshrv over the
    first count= elements (the elementwise count form with the binary instruction); False when
    SRC1 is a scalar."""
    text, off = e.syn.positional[2]
    if e.b.operand("scalar_or_vec", text, off, "src1").kind == "scalar":
        return False
    hw = _SHIFT_TENSOR[e.syn.defn.name]
    allowed = e.chip.types.get("shift_tensor", ())
    if e.t.name not in allowed:
        raise LexError(f"{e.syn.defn.name}.{e.t.name} by a tensor of counts ({hw}) is not "
                       f"supported on {e.chip.name} (supports {', '.join(allowed) or 'none'})",
                       off)
    if "count" not in e.fields or "round_en" in e.fields:
        k = next((k for k in ("round_en", "repeat") if k in e.syn.keys), "count")
        raise LexError(f"{e.syn.defn.name} by a tensor of counts takes count= only (the "
                       "ShiftLeft/ShiftRight tensor-count form)", e.key_col(k)
                       if k in e.syn.keys else e.syn.offset)
    _elementwise(e, hw, _FLEX_KINDS)
    return True


def _subs(e: _Expander) -> None:
    """subs.T DST, SRC, S → vadds of -S (x - s and x + (-s) are the same IEEE operation, and
    the same value modulo 2^n for integers); the scalar must be a constant."""
    if _flexible(e):  # #27 (h27c): ascend950, s - x or a scalar that is not a constant
        _flex_scalar(e, _FLEX_BINARY["subs"])
        return
    if len(e.syn.positional) == 3:
        o = _scalar_operand(e)
        if not isinstance(o.value, np.ndarray):
            raise LexError("subs takes a constant scalar (it is negated when the statement "
                           "expands to vadds)", o.col)
        raw = o.value.view(e.t.raw).copy()
        neg = raw ^ np.asarray(1 << (8 * e.t.size - 1), e.t.raw) if e.t.is_float else \
            (-(raw.view(e.t.numeric))).view(e.t.raw)
        plain = o.text.lstrip("-").replace(".", "", 1).replace("e-", "").replace("e", "")
        if e.t.is_float and plain.isdigit():
            text = o.text[1:] if o.text.startswith("-") else f"-{o.text}"
        elif e.t.is_float:  # raw(0x…), nan, inf: the negated bits, exactly
            text = f"raw({int(neg.view(e.t.raw)[0]):#0{2 + 2 * e.t.size}x})"
        else:  # -(-32768) wraps to -32768 in s16
            text = str(int(neg.view(e.t.numeric)[0]))
        e.scalar_override = attrs.evolve(o, value=neg.view(np.uint8), text=text)
    _elementwise(e)
def _reduce(e: _Expander) -> None:
    """The reductions (WholeReduce*, BlockReduce*, PairReduceSum): repeat= with a mask, or MASK
    as it is; one hardware instruction, the row's `hw`, with the statement's strides (dst_rep
    in whole results) and, for max/min, its order. dst is aligned as the hardware's needs."""
    if "count" in e.fields:
        _reduce_count(e)
        return
    if "repeat" not in e.fields:
        raise LexError(f"{e.syn.defn.name} takes repeat= or count= (the C API's first-n form)",
                       e.syn.offset)
    form = _form(e)
    _arity(e, 2, form)
    hw = e.b.table.instructions[e.syn.defn.hw]
    ops = {role: e.b.operand(kind, text, off, role,
                             hw.family.operand_align(role, e.fields, e.t))
           for (role, kind), (text, off) in zip(e.syn.defn.operands, e.syn.positional,
                                                strict=True)}
    if form == "highdim":
        e.mask(*_mask_from_keys(e))
    keys = {"order": e.fields.get("order", 0)} if "order" in hw.keys else {}
    e.emit(hw.name, ops, e.t, repeat=e.fields["repeat"], stride=_strides(e), **keys)


def _reduce_count(e: _Expander) -> None:
    """count=N (h28: the C API's first-n forms, asc_repeat_reduce_* / asc_datablock_reduce_* /
    asc_pair_reduce_sum(dst, src, count)): the row's instruction over src's first N elements
    in counter mode, the results back to back (the default strides dst_rep 1, src_blk 1,
    src_rep 8); mode normal and MASK all ones afterwards. ascend910 (no counter mode; N a
    constant): chunks of whole repeats, then the tail repeat under the contiguous rule."""
    name = e.syn.defn.name
    if "repeat" in e.fields or any(k in e.fields for k in ("mask", "mask_lo", "mask_hi")) or \
            "stride" in e.syn.keys:
        raise LexError(f"{name} count= takes no repeat=, mask or stride keys (the first-n "
                       "form's strides are the defaults)", e.key_col("count"))
    _arity(e, 2, "count form")
    hw = e.b.table.instructions[e.syn.defn.hw]
    ops = {role: e.b.operand(kind, text, off, role,
                             hw.family.operand_align(role, e.fields, e.t))
           for (role, kind), (text, off) in zip(e.syn.defn.operands, e.syn.positional,
                                                strict=True)}
    n = _count(e, CHUNK_REPEAT * e.t.per_repeat if e.chip.counter_mode else None)
    if isinstance(n, int) and n == 0:
        e.b.warn(e.key_col("count"), f"{name} with count=0 does nothing")
        return
    keys = {"order": e.fields.get("order", 0)} if "order" in hw.keys else {}
    (_, per), = hw.family.packed_counts(keys, e.t).items()
    unit = per * e.t.size  # one repeat's result

    def chunk(done: int, k: int, mask: tuple[int, int]) -> None:
        """ascend910: K repeats (MASK) after DONE whole ones, their results after theirs."""
        e.mask(*mask)
        e.emit(hw.name, {"dst": shift(ops["dst"], done * unit),
                         "src": shift(ops["src"], done * REPEAT)}, e.t, repeat=k, **keys)

    _first_n(e, n, lambda: e.emit(hw.name, ops, e.t, repeat=1, **keys), chunk)
    if not e.chip.counter_mode:
        e.mask(ONES, ONES)


# -- composite reductions: ReduceMax / ReduceMin / ReduceSum (issue 28, group 28a) -----------
def _evens(n: int) -> tuple[int, int]:
    """MASK selecting the even lanes below N: a round's values, not their indices."""
    bits = int("01" * 64, 2) & ((1 << n) - 1)
    return bits >> 64, bits & ONES


class _Rounds:
    """The rounds of a composite reduction: the whole-repeat instruction HW over SRC (round 1)
    and then over the work tensor's results until one is left, which lands in dst."""

    def __init__(self, e: _Expander, ops: dict[str, Operand]):
        self.e, self.t = e, e.t
        self.hw = e.syn.defn.hw
        self.dst, self.src, self.work = ops["dst"], ops["src"], ops["work"]
        self.extreme = self.hw != "vcadd"
        self.n = self.t.per_repeat

    def emit(self, dst: Operand, src: Operand, repeat: int, src_rep: int, unit: int,
             last: bool) -> None:
        """HW over REPEAT repeats (chunks of 255), results UNIT bytes apart; max/min keep the
        index in the work tensor and only the value in dst (LAST)."""
        order = {"order": 2 if last else 0} if self.extreme else {}
        done = 0
        while done < repeat:
            k = min(CHUNK_REPEAT, repeat - done)
            self.e.emit(self.hw, {"dst": shift(dst, done * unit),
                                  "src": shift(src, done * src_rep * 32)}, self.t, repeat=k,
                        stride=(1, 1, src_rep), **order)
            done += k

    def results(self, count: int) -> int:
        """Elements a round of COUNT repeats leaves in the work tensor."""
        return 2 * count if self.extreme else count

    def first(self, repeats: int, src_rep: int, tail: int = 0) -> None:
        """Round 1: REPEATS repeats of src under MASK as set, then (count form) one of TAIL
        elements; straight into dst when it is the only repeat."""
        size = self.t.size
        only = repeats + (1 if tail else 0) == 1
        target = self.dst if only else self.work
        unit = self.results(1) * size
        self.emit(target, self.src, repeats, src_rep, unit, only)
        if tail:
            self.e.mask(*contiguous_mask(tail, self.t))
            self.emit(shift(target, repeats * unit), shift(self.src, repeats * src_rep * 32), 1,
                      8, unit, only)

    def again(self, count: int) -> None:
        """Later rounds: the COUNT results in work reduced by HW in place (the values' lanes for
        max/min) until one is left, written to dst."""
        t, n = self.t, self.n
        while count > 1:
            elems = self.results(count)
            full, tail = divmod(elems, n)
            nxt = full + (1 if tail else 0)
            last = nxt == 1
            target = self.dst if last else self.work
            unit = self.results(1) * t.size
            if full:
                self.e.mask(*(_evens(n) if self.extreme else full_mask(t)))
                self.emit(target, self.work, full, 8, unit, last)
            if tail:
                self.e.mask(*(_evens(tail) if self.extreme else contiguous_mask(tail, t)))
                self.emit(shift(target, full * unit), shift(self.work, full * n * t.size), 1, 8,
                          unit, last)
            count = nxt

    def in_order(self, count: int) -> None:
        """ReduceSum's first-n form on A2/A3: the COUNT repeat sums added one after another.
        Step k adds the running sum (left in work[k-1]) and work[k] with a vcadd whose MASK
        keeps just those two lanes of the 32-byte aligned block holding work[k-1] (a tree of
        two values and zeros: their sum) and writes work[k]; the last step writes dst."""
        per_block, size = self.t.per_block, self.t.size
        for k in range(1, count):
            base = (k - 1) // per_block * per_block
            self.e.mask(0, 3 << (k - 1 - base))
            target = self.dst if k == count - 1 else shift(self.work, k * size)
            self.e.emit("vcadd", {"dst": target, "src": shift(self.work, base * size)}, self.t,
                        repeat=1, stride=(1, 1, 8))


    def runs(self, count: int) -> None:
        """TIK vec_reduce_add on A2/A3 (h28; its page, the A2 paragraph): the COUNT repeat sums
        in work added in order within each run of up to 255 (work[255c : 255c + L]: the
        in_order steps, the run's sum landing at work[c]), then the runs' sums by one vcadd's
        tree into dst (a single run: its last step writes dst). A run of one repeat sum (the
        last run's, when COUNT = 1 mod 255) is moved to work[c] by a one-lane vcadd."""
        t, size, per_block = self.t, self.t.size, self.t.per_block
        nruns = -(-count // CHUNK_REPEAT)
        if nruns > self.n:
            raise LexError(f"vec_reduce_add of {count} repeats: pipev adds at most {self.n} runs "
                           f"of 255 repeat sums ({t.name})", self.e.key_col("repeats"))
        for c in range(nruns):
            start, length = CHUNK_REPEAT * c, min(CHUNK_REPEAT, count - CHUNK_REPEAT * c)
            final = self.dst if nruns == 1 else shift(self.work, c * size)
            if length == 1:
                base = start // per_block * per_block
                self.e.mask(0, 1 << (start - base))
                self.e.emit("vcadd", {"dst": final, "src": shift(self.work, base * size)}, t,
                            repeat=1, stride=(1, 1, 8))
                continue
            for i in range(start + 1, start + length):
                base = (i - 1) // per_block * per_block
                self.e.mask(0, 3 << (i - 1 - base))
                target = final if i == start + length - 1 else shift(self.work, i * size)
                self.e.emit("vcadd", {"dst": target, "src": shift(self.work, base * size)}, t,
                            repeat=1, stride=(1, 1, 8))
        if nruns > 1:
            self.e.mask(*contiguous_mask(nruns, t))
            self.e.emit("vcadd", {"dst": self.dst, "src": self.work}, t, repeat=1,
                        stride=(1, 1, 8))


def _work_needed(extreme: bool, repeats: int, t: DType) -> int:
    """The vendor's minimum work size in elements (ReduceMax/Min without the index, ReduceSum):
    the first round's results, rounded up to whole 32-byte blocks."""
    results = 2 * repeats if extreme else repeats
    return -(-results // t.per_block) * t.per_block


def _reduce_all(e: _Expander) -> None:
    """reduce_max / reduce_min / reduce_sum: count=N (the first N elements: full repeats and a
    masked tail) or repeats=R with a mask (or MASK as it is) and src_rep; round 1 of the row's
    whole-repeat instruction into the work tensor, then rounds over its results (semantics.md
    §8.4); the work tensor's size is checked against the vendor's rule."""
    defn, t = e.syn.defn, e.t
    f = e.fields
    if ("count" in f) == ("repeats" in f):
        raise LexError(f"{defn.name} takes exactly one of count= or repeats=", e.syn.offset)
    _arity(e, 3, defn.name)
    hw = e.b.table.instructions[defn.hw]
    kinds = list(defn.operands)
    ops = {role: e.b.operand(kind, text, off, role, hw.family.operand_align(role, f, t))
           for (role, kind), (text, off) in zip(kinds, e.syn.positional, strict=True)}
    rounds = _Rounds(e, ops)
    if f.get("runs", 0) and (rounds.extreme or "count" in f):
        raise LexError(f"{defn.name} runs=1 is vec_reduce_add's order: reduce_sum with repeats= "
                       "only", e.key_col("runs"))
    if f.get("index", 0):
        _IndexRounds(e, rounds, ops).run()
        return
    if "count" in f:
        if any(k in f for k in ("mask", "mask_lo", "mask_hi")) or "stride" in e.syn.keys:
            raise LexError(f"{defn.name} count= takes no mask or stride keys", e.key_col("count"))
        n = f["count"]
        if not isinstance(n, int):
            raise LexError(f"{defn.name} count= must be a constant (the rounds are planned when "
                           "assembling)", e.key_col("count"))
        if n < 1:
            raise LexError(f"{defn.name} count={n} is out of range (at least 1)",
                           e.key_col("count"))
        full, tail = divmod(n, t.per_repeat)
        repeats = full + (1 if tail else 0)
        _check_work(e, ops["work"], rounds.extreme, repeats)
        e.mask(*full_mask(t))
        rounds.first(full, 8, tail)
        if rounds.extreme or e.chip.reduce_sum_first_n == "tree":
            rounds.again(repeats)
        else:
            rounds.in_order(repeats)
    else:
        repeats = f["repeats"]
        if repeats < 1:
            raise LexError(f"{defn.name} repeats={repeats} is out of range (at least 1)",
                           e.key_col("repeats"))
        _check_work(e, ops["work"], rounds.extreme, repeats)
        if any(k in f for k in ("mask", "mask_lo", "mask_hi")):
            e.mask(*_mask_from_keys(e))
        rounds.first(repeats, f["src_rep"])
        if f.get("runs", 0) and e.chip.reduce_sum_first_n == "sequential" and repeats > 1:
            rounds.runs(repeats)  # TIK vec_reduce_add on A2/A3 (its page)
        else:
            rounds.again(repeats)
    e.mask(ONES, ONES)


class _IndexRounds:
    """ReduceMax/ReduceMin with calIndex (index=1), the vendor's algorithm (ReduceMax's page and
    figures): round 1 leaves each repeat's value and index in work[0 : 2R]; each later round
    reduces the previous region's values (the even lanes) into the next region, 32-byte aligned
    (the page's iter2AlignStart / iter3AlignStart), until one pair is left; then the scalar unit
    (after a barrier: V done) walks the indices back — a round's index names a lane of the
    region before — to the position in src (repeat · N + index), and writes dst = value, index
    (raw bits in an element of T) with `ld`/`st`, in the registers tmp_a= and tmp_b=."""

    def __init__(self, e: _Expander, rounds: _Rounds, ops: dict[str, Operand]):
        self.e, self.rounds, self.t = e, rounds, e.t
        self.dst, self.src, self.work = ops["dst"], ops["src"], ops["work"]
        f, defn = e.fields, e.syn.defn
        if not rounds.extreme:
            raise LexError(f"{defn.name} has no index (index=1 is ReduceMax/ReduceMin's)",
                           e.key_col("index"))
        regs = [f.get(k) for k in ("tmp_a", "tmp_b")]
        if not all(isinstance(r, RegExpr) for r in regs) or regs[0].reg == regs[1].reg:
            raise LexError(f"{defn.name} index=1 walks the indices back with the scalar unit: "
                           "name two scalar registers it may use, tmp_a=xA, tmp_b=xB",
                           e.key_col("index"))
        if not all(isinstance(o.addr, int) for o in (self.dst, self.work)):
            raise LexError(f"{defn.name} index=1 needs dst and work at constant addresses (the "
                           "walk addresses the work tensor with a register)", e.key_col("index"))
        self.a, self.b = regs[0].reg, regs[1].reg

    def run(self) -> None:
        e, t, f = self.e, self.t, self.e.fields
        n, size = t.per_repeat, t.size
        if "count" in f:
            count = f["count"]
            if not isinstance(count, int) or count < 1:
                raise LexError(f"{e.syn.defn.name} count= must be a constant of at least 1 (the "
                               "rounds are planned when assembling)", e.key_col("count"))
            full, tail = divmod(count, n)
            repeats = full + (1 if tail else 0)
            e.mask(*full_mask(t))
            self._round(0, self.src, full, 8, tail)
        else:
            repeats = f["repeats"]
            if repeats < 1:
                raise LexError(f"{e.syn.defn.name} repeats={repeats} is out of range (at least "
                               "1)", e.key_col("repeats"))
            if any(k in f for k in ("mask", "mask_lo", "mask_hi")):
                e.mask(*_mask_from_keys(e))
            self._round(0, self.src, repeats, f["src_rep"])
        starts, counts = [0], [2 * repeats]
        while counts[-1] > 2:
            start, elems = starts[-1], counts[-1]
            out = start + -(-elems // t.per_block) * t.per_block
            full, tail = divmod(elems, n)
            e.mask(*_evens(n))
            self._round(out, shift(self.work, start * size), full, 8, tail, _evens(tail))
            starts.append(out)
            counts.append(2 * (full + (1 if tail else 0)))
        e.mask(ONES, ONES)
        self._check(starts[-1] + 2)
        self._walk(starts)

    def _round(self, at: int, src: Operand, full: int, src_rep: int, tail: int = 0,
               tail_mask: tuple[int, int] | None = None) -> None:
        """FULL repeats of SRC, then one of TAIL elements, into work from element AT (value,
        index pairs)."""
        unit = 2 * self.t.size
        target = shift(self.work, at * self.t.size)
        if full:
            self.rounds.emit(target, src, full, src_rep, unit, False)
        if tail:
            self.e.mask(*(tail_mask or contiguous_mask(tail, self.t)))
            self.rounds.emit(shift(target, full * unit), shift(src, full * src_rep * 32), 1, 8,
                             unit, False)

    def _check(self, need: int) -> None:
        tensor, work = self.work.tensor, self.work
        if tensor is None:
            return
        have = (tensor.addr + tensor.nbytes - work.addr) // self.t.size
        if have < need:
            self.e.b.rule(work.col, f"{self.e.syn.defn.name}.{self.t.name} index=1: work "
                          f"{tensor.name} has {have} elements from {work.text}, the rounds' "
                          f"regions need {need}")

    def _walk(self, starts: list[int]) -> None:
        e, t, a, b = self.e, self.t, self.a, self.b
        raw = TYPES[{2: "u16", 4: "u32"}[t.size]]
        n, size, base, dst = t.per_repeat, t.size, self.work.addr, self.dst.addr
        barrier = {"pipe": Operand("pipe", e.syn.offset, "ALL", value="ALL")}
        e.emit("pipe_barrier", barrier)  # the scalar unit reads what V wrote
        self._scalar("ld", raw, a, e.raw(base + starts[-1] * size))  # the value
        self._scalar("st", raw, a, e.raw(dst))
        if len(starts) == 1:  # one repeat: its index is the position
            self._scalar("ld", raw, b, e.raw(base + size))
        else:  # pair = the last round's index / 2, then back through the rounds
            self._scalar("ld", raw, b, e.raw(base + (starts[-1] + 1) * size))
            self._alu("shr", b, b, 1)
            for start in reversed(starts[:-1]):
                self._alu("mul", a, b, 2 * size)  # a = &work[start + 2·pair + 1]
                self._alu("add", a, a, base + (start + 1) * size)
                self._scalar("ld", raw, a, Operand("mem", e.syn.offset, f"@x{a}", "ub",
                                                   RegExpr(a)))
                self._alu("mul", b, b, n)  # pair·N + pos: a lane of the region before
                self._alu("add", b, b, RegExpr(a))
                if start:
                    self._alu("shr", b, b, 1)  # (a pair's value lane) / 2
        self._scalar("st", raw, b, e.raw(dst + size))
        e.emit("pipe_barrier", barrier)  # V reads dst after the scalar stores

    def _scalar(self, name: str, t: DType, reg: int, elem: Operand) -> None:
        role = "d" if name == "ld" else "s"
        self.e.emit(name, {role: Operand("reg", self.e.syn.offset, f"x{reg}", value=reg),
                           "elem": elem}, t)

    def _alu(self, name: str, d: int, a: int, b: int | RegExpr) -> None:
        text = f"x{b.reg}" if isinstance(b, RegExpr) else str(b)
        self.e.emit(name, {"d": Operand("reg", self.e.syn.offset, f"x{d}", value=d),
                           "a": Operand("reg", self.e.syn.offset, f"x{a}", value=a),
                           "b": Operand("int", self.e.syn.offset, text, value=b)})


def _check_work(e: _Expander, work: Operand, extreme: bool, repeats: int) -> None:
    need = _work_needed(extreme, repeats, e.t)
    tensor = work.tensor
    if repeats == 1 or tensor is None or not isinstance(work.addr, int):
        return
    have = (tensor.addr + tensor.nbytes - work.addr) // e.t.size
    if have < need:
        e.b.rule(work.col, f"{e.syn.defn.name}.{e.t.name} work {tensor.name} has {have} "
                 f"elements from {work.text}, needs {need} ({repeats} repeats: "
                 f"{'2 results' if extreme else 'one result'} a repeat, rounded up to 32 bytes)")


def _cast(e: _Expander) -> None:
    """Cast → vconv.DST.SRC: masks and counts are in elements of a repeat, N = 256 bytes of the
    wider type; each operand moves on in its own type."""
    dst_t, src_t = e.syn.dtype, e.syn.src_dtype
    wide = dst_t if dst_t.size >= src_t.size else src_t
    e.t = wide  # the mask and count rules are the wider type's
    form = _form(e)
    _arity(e, 2, form)
    ops = _operands(e, list(e.syn.defn.operands))
    rnd = e.fields.get("round", 0)
    pair = f"{dst_t.name}.{src_t.name}"
    if pair not in e.chip.conversions:  # int32_t → half: vconv_deq × DEQSCALE (check_conversion)
        if rnd:
            e.b.warn(e.key_col("round"), f"cast.{pair} ignores round= (the Cast page: int32_t → "
                     "half is scaled by SetDeqScale(half) and rounded to nearest even)")
        e.syn = e.syn._replace(defn=e.b.table.instructions["cast_dequant"])
        e.fields = {k: v for k, v in e.fields.items() if k != "round"}
        _cast_dequant(e)
        return
    if form != "count":
        if form == "highdim":
            e.mask(*_mask_from_keys(e))
        e.emit("vconv", ops, dst_t, src=src_t, repeat=e.fields["repeat"], stride=_strides(e),
               round=rnd)
        return
    n = _count(e, CHUNK_REPEAT * wide.per_repeat)
    if n == 0:
        e.b.warn(e.key_col("count"), "cast with count=0 does nothing")
        return

    def body(done: int, repeat: int, hi_lo: tuple[int, int]) -> None:
        k = done * wide.per_repeat  # elements done so far
        e.mask(*hi_lo)
        moved = {"dst": shift(ops["dst"], k * dst_t.size), "src": shift(ops["src"], k * src_t.size)}
        e.emit("vconv", moved, dst_t, src=src_t, repeat=repeat, round=rnd)

    _first_n(e, n, lambda: e.emit("vconv", ops, dst_t, src=src_t, repeat=1, round=rnd), body)


def _binary_cast(e: _Expander) -> None:
    """AddReluCast / SubReluCast / MulCast → vaddreluconv / vsubreluconv / vmulconv.DST.SRC,
    and the mixed forms axpy.f32.f16 / mul_add_dst.f32.f16 → vaxpy / vmla.f32.f16: as Cast,
    masks and counts are in elements of a repeat, N = 256 bytes of the wider type, and each
    tensor operand moves on in its own type (a scalar stays as it is)."""
    dst_t, src_t, hw = e.syn.dtype, e.syn.src_dtype, e.syn.defn.hw
    fam = e.b.table.instructions[hw].family
    wide = dst_t if dst_t.size >= src_t.size else src_t
    e.t = wide  # the mask and count rules are the wider type's
    form = _form(e)
    _arity(e, len(e.syn.defn.operands), form)
    ops = _operands(e, list(e.syn.defn.operands))
    if form != "count":
        if form == "highdim":
            e.mask(*_mask_from_keys(e))
        names = e.syn.defn.stride_names  # those not given: contiguous in each operand's type
        default = fam.default_strides(names, e.syn.defn.stride_default, dst_t, src_t)
        given = "stride" in e.syn.keys
        stride = tuple(e.fields[k] if given or k in e.syn.keys else d
                       for k, d in zip(names, default, strict=True))
        e.emit(hw, ops, dst_t, src=src_t, repeat=e.fields["repeat"], stride=stride)
        return
    n = _count(e, CHUNK_REPEAT * wide.per_repeat)
    if n == 0:
        e.b.warn(e.key_col("count"), f"{e.syn.defn.name} with count=0 does nothing")
        return

    def body(done: int, repeat: int, hi_lo: tuple[int, int]) -> None:
        k = done * wide.per_repeat  # elements done so far
        e.mask(*hi_lo)
        moved = {role: shift(op, k * fam.operand_type(role, dst_t, src_t).size)
                 if op.kind == "mem" else op for role, op in ops.items()}
        e.emit(hw, moved, dst_t, src=src_t, repeat=repeat)

    _first_n(e, n, lambda: e.emit(hw, ops, dst_t, src=src_t, repeat=1), body)


def _flex_scalar(e: _Expander, hw: str | None = None) -> None:
    """ands / ors / divs (ascend950): exactly one of src0, src1 is a scalar (a value, a register
    or scalar(NAME[I])). It is broadcast into one repeat of scratch by vector_dup (MASK all
    ones, or MASK as it is in the no-mask form: the same element positions), then vand / vor
    / vdiv read the scratch at repeat stride 0 in the scalar's position (s / x for divs).
    Also the flexible forms of adds / muls / maxs / mins / subs (hw: their binary instruction,
    _FLEX_BINARY)."""
    hw, t, f = hw or e.syn.defn.hw, e.t, e.fields
    form = _form(e)
    _arity(e, 3, form)
    _check_count_only(e, form)  # #27 (h27e): the 64-bit Ands / Ors, count form only
    ops = _operands(e, _FLEX_KINDS)
    s0, s1 = ops["src0"].kind == "scalar", ops["src1"].kind == "scalar"
    if s0 == s1:
        raise LexError(f"{e.syn.defn.name} takes exactly one scalar (src0 or src1) and one tensor",
                       ops["src1"].col)
    srole, vrole = ("src0", "src1") if s0 else ("src1", "src0")
    _check_scalar_overlap(e, ops["dst"], ops[srole], form)
    scr = e.raw(e.scr)
    if form != "nomask":
        e.mask(ONES, ONES)
    e.emit("vector_dup", {"dst": scr, "scalar": ops[srole]}, t, repeat=1)
    vec = ops[vrole]
    bits = _bitwise_view(hw, t)  # #27 (h27e): s64/u64 Ands / Ors as 2n u32 bit operations

    def stride(db: int, vb: int, dr: int, vr: int) -> tuple[int, ...]:
        blk = {"src0": 1, "src1": 1, vrole: vb}
        rep = {"src0": 0, "src1": 0, vrole: vr}
        return (db, blk["src0"], blk["src1"], dr, rep["src0"], rep["src1"])

    def emit(dst: Operand, v: Operand, repeat, st: tuple[int, ...]) -> None:
        srcs = {srole: scr, vrole: v}
        e.emit(hw, {"dst": dst, "src0": srcs["src0"], "src1": srcs["src1"]}, bits or t,
               repeat=repeat, stride=st)
    if form != "count":
        if form == "highdim":
            e.mask(*_mask_from_keys(e))
        emit(ops["dst"], vec, f["repeat"], stride(f["dst_blk"], f["src_blk"], f["dst_rep"],
                                                  f["src_rep"]))
        return
    n = _count(e, CHUNK_REPEAT * t.per_repeat)
    if n == 0:
        e.b.warn(e.key_col("count"), f"{e.syn.defn.name} with count=0 does nothing")
        return
    dense = stride(1, 1, 8, 8)
    if bits is not None:  # counter mode (ascend950 only): the mask counts u32 halves
        e.emit("set_mask_count")
        e.mask(0, _twice(n))
        emit(ops["dst"], vec, 1, dense)
        e.emit("set_mask_norm")
        e.mask(ONES, ONES)
        return

    def body(done: int, repeat: int, hi_lo: tuple[int, int]) -> None:
        e.mask(*hi_lo)
        emit(shift(ops["dst"], done * REPEAT), shift(vec, done * REPEAT), repeat, dense)

    _first_n(e, n, lambda: emit(ops["dst"], vec, 1, dense), body)


def _bitwise_view(hw: str, t: DType) -> DType | None:
    """A bitwise op on 64-bit elements is the same op on their two 32-bit halves: vand / vor
    run as u32 over twice the elements (bit-exact by construction; the 950 pages give the
    64-bit Ands / Ors the count form only, so no mask or stride is ever halved)."""
    return TYPES["u32"] if t.size == 8 and hw in ("vand", "vor") else None


def _twice(n: int | RegExpr) -> int | RegExpr:
    if isinstance(n, RegExpr):
        return attrs.evolve(n, scale=n.scale * 2, offset=n.offset * 2)
    return 2 * n


# #27 (h27c): ascend950's flexible-scalar forms of the scalar ops (the scalar first, or for subs
# a scalar that is not a constant): the binary instruction each becomes after _flex_scalar's
# vector_dup into scratch
_FLEX_KINDS = [("dst", "vec"), ("src0", "scalar_or_vec"), ("src1", "scalar_or_vec")]
_FLEX_BINARY = {"adds": "vadd", "muls": "vmul", "maxs": "vmax", "mins": "vmin", "subs": "vsub"}


def _flexible(e: _Expander) -> bool:
    """True for adds … subs with a scalar src0 (ascend950 only: elsewhere an error at it), or
    subs whose scalar src1 is not a constant on ascend950 (it cannot be negated into vadds)."""
    name = e.syn.defn.name
    if name not in _FLEX_BINARY or len(e.syn.positional) != 3 or e.syn.src_dtype is not None:
        return False
    ops = _operands(e, _FLEX_KINDS)
    if ops["src0"].kind == "scalar":
        if not e.chip.flexible_scalar:
            raise LexError(f"a scalar src0 (flexible scalar position) is not supported on "
                           f"{e.chip.name} (ascend950 only)", ops["src0"].col)
        return True
    return (name == "subs" and e.chip.flexible_scalar and ops["src1"].kind == "scalar"
            and not isinstance(ops["src1"].value, np.ndarray))


# -- issue 28 (28b): gathers and layout shapes ------------------------------------------------
def _gather_mask(e: _Expander) -> None:
    """GatherMask → vreducev2. repeat= alone is reduceMode false (normal mode: MASK ignored,
    R repeats of 256 bytes); count=K is reduceMode true (counter mode, the A2/A3 way: each of
    the repeat= repeats, default 1, takes K elements), after which the mode is normal again
    and MASK all ones, as the API leaves them."""
    f = e.fields
    pattern = f.get("pattern", 0)
    n = 3 if pattern == 0 else 2
    _arity(e, n, "user pattern src1" if pattern == 0 else f"built-in pattern={pattern}")
    ops = _operands(e, list(e.syn.defn.operands)[:n])
    stride = _strides(e)
    repeat = f.get("repeat", 1)
    if "count" not in f:
        if "repeat" not in f:
            raise LexError("gather_mask takes repeat= (normal mode), count= (counter mode) or "
                           "both", e.syn.offset)
        e.emit("vreducev2", ops, e.t, repeat=repeat, pattern=pattern, stride=stride)
        return
    if not e.chip.counter_mode:
        raise LexError(f"gather_mask count= needs counter mode, which {e.chip.name} lacks",
                       e.key_col("count"))
    count = _count(e, None)
    if isinstance(count, int) and count == 0:
        e.b.warn(e.key_col("count"), "gather_mask with count=0 does nothing")
        return
    e.emit("set_mask_count")
    e.mask(0, count)
    e.emit("vreducev2", ops, e.t, repeat=repeat, pattern=pattern, stride=stride)
    e.emit("set_mask_norm")
    e.mask(ONES, ONES)


def _repeat_form_as_is(name: str, hw: str, arity: int) -> Callable[[_Expander], None]:
    """NAME → HW as it is, in its repeat form only (MASK is not considered): Brcb, Gatherb."""
    def expand(e: _Expander) -> None:
        if "repeat" not in e.fields:
            raise LexError(f"{name} takes repeat=", e.syn.offset)
        _arity(e, arity, "repeat form")
        e.emit(hw, _operands(e, list(e.syn.defn.operands)), e.t, repeat=e.fields["repeat"],
               stride=_strides(e))
    return expand


_brcb = _repeat_form_as_is("brcb", "vbrcb", 2)
_gatherb = _repeat_form_as_is("gatherb", "vgatherb", 3)


def _create_vec_index(e: _Expander) -> None:
    """CreateVecIndex → vci: the duplicate forms (count= in counter mode: the index runs on
    across repeats; repeat= with a mask or MASK as it is)."""
    if "count" in e.fields and not e.chip.counter_mode:
        raise LexError(f"create_vec_index count= needs counter mode, which {e.chip.name} lacks",
                       e.key_col("count"))
    _elementwise(e)


def _gather(e: _Expander) -> None:
    """Gather → vgather: src moved on by base= bytes; count= in counter mode (the offsets and
    dst follow repeat after repeat), repeat= with a mask or MASK as it is."""
    form = _form(e)
    _arity(e, 3, form)
    ops = _operands(e, list(e.syn.defn.operands))
    base = e.fields.get("base", 0)
    if base:
        ops["src"] = shift(ops["src"], base)
    if form != "count":
        if form == "highdim":
            e.mask(*_mask_from_keys(e))
        e.emit("vgather", ops, e.t, repeat=e.fields["repeat"], stride=_strides(e))
        return
    if not e.chip.counter_mode:
        raise LexError(f"gather count= needs counter mode, which {e.chip.name} lacks",
                       e.key_col("count"))
    n = _count(e, None)
    if isinstance(n, int) and n == 0:
        e.b.warn(e.key_col("count"), "gather with count=0 does nothing")
        return
    _first_n(e, n, lambda: e.emit("vgather", ops, e.t, repeat=1), None)


def _transpose(e: _Expander) -> None:
    """REPEAT vtransposes, dst and src moved on by their strides x 512 bytes each time."""
    _arity(e, 2, "transpose")
    ops = _operands(e, list(e.syn.defn.operands))
    repeat = e.fields.get("repeat", 1)
    if isinstance(repeat, RegExpr):
        raise LexError("transpose repeat= must be a constant (one vtranspose a matrix)",
                       e.key_col("repeat"))
    step = {r: e.fields.get(f"{r}_rep", 1) * 2 * REPEAT for r in ("dst", "src")}
    for i in range(repeat):
        e.emit("vtranspose", {r: shift(o, i * step[r]) for r, o in ops.items()}, e.t)


def _transpose_4d(e: _Expander) -> None:
    """Transpose's enhanced NCHW <-> NHWC forms (issue 28 item 5). The vendor's steps are not
    published, so this is a clear expansion whose result is the documented layout: for each
    chunk of 64 dst elements, the chunk's source byte offsets (u32) are written one lane at a
    time into the first 256 bytes of the temporary buffer (vector_dup under a one-lane MASK),
    then one vgather moves the chunk; MASK is all ones afterwards (docs/semantics.md). 8-bit
    types have no gather: _transpose_4d_b8 picks their bytes out of 16-bit gathers."""
    _arity(e, 3, "enhanced transpose")
    ops = _operands(e, list(e.syn.defn.operands))
    names = ("nsize", "csize", "hsize", "wsize")
    dims = [e.fields.get(k, 0) for k in names]
    for k, v in zip(names, dims, strict=True):
        if not isinstance(v, int):
            raise LexError(f"{e.syn.defn.name} {k}= must be a constant", e.key_col(k))
    n, c, h, w = dims
    hw, size = h * w, e.t.size
    total = n * c * hw
    _check_transpose_shape(e, n, c, hw)
    # the page's size rule: (C + 2) (NCHW2NHWC) or (2C + 1) (NHWC2NCHW) tiles of h0 x w0
    # elements, h0 = 32 for 8-bit types (else 16), w0 = 32 / sizeof(T): 1024 bytes a tile for
    # 8-bit types, 512 for 16- and 32-bit ones
    tmp_need = _TRANSPOSE_TMP[e.syn.defn.name](c) * (1024 if size == 1 else 512)
    tensor, at = ops["tmp"].tensor, ops["tmp"].addr
    if tensor is not None and isinstance(at, int) and \
            tensor.addr + tensor.count * tensor.dtype.size - at < tmp_need:
        raise LexError(f"{e.syn.defn.name}: the temporary buffer must hold {tmp_need} bytes "
                       f"for csize={c} (the Transpose page's size table)", ops["tmp"].col)
    if total == 0:
        return
    if size == 1:
        _transpose_4d_b8(e, ops, c, hw, total)
        return
    e.emit("set_mask_norm")
    for start in range(0, total, 64):
        m = min(64, total - start)
        _offsets_into(e, ops["tmp"], [_transpose_src(e.syn.defn.name, start + k, c, hw) * size
                                      for k in range(m)])
        e.mask(*contiguous_mask(m, e.t))
        e.emit("vgather", {"dst": shift(ops["dst"], start * size), "src": ops["src"],
                           "offset": ops["tmp"]}, e.t, repeat=1)
    e.mask(ONES, ONES)


def _offsets_into(e: _Expander, at: Operand, offsets: list[int]) -> None:
    """u32 lane k at AT = offsets[k]: one vector_dup under a one-lane MASK each (64 lanes a
    256-byte repeat)."""
    u32 = TYPES["u32"]
    for k, off in enumerate(offsets):
        e.mask(0, 1 << (k % 64))
        e.emit("vector_dup", {"dst": shift(at, 256 * (k // 64)),
                              "scalar": _scalar(u32, off.to_bytes(4, "little"), str(off),
                                                at.col)}, u32, repeat=1)


def _transpose_4d_b8(e: _Expander, ops: dict[str, Operand], c: int, hw: int,
                     total: int) -> None:
    """The 8-bit forms, 128 dst bytes a chunk, in the temporary buffer: the u32 offsets of the
    source halfwords holding the chunk's bytes (offset & ~1) at tmp[0:512]; one vgather.u16 of
    them to W = tmp[512:768]; W <<= 8 in the lanes whose byte is the low one (even offset: a
    MASK of those lanes), then W >>= 8 in every lane: each lane's byte, zero-extended; then
    vconv.f16.s16 in place and vconv.u8.f16 into dst (exact: 0..255), which writes the raw
    byte whatever T's sign. Normal mode; MASK all ones afterwards."""
    name = e.syn.defn.name
    u16, f16, s16, u8 = (TYPES[k] for k in ("u16", "f16", "s16", "u8"))
    tmp = ops["tmp"]
    words = shift(tmp, 512)
    eight = _scalar(u16, (8).to_bytes(2, "little"), "8", tmp.col)
    none = ROUND_MODES.index("none")
    e.emit("set_mask_norm")
    for start in range(0, total, 128):
        m = min(128, total - start)
        src = [_transpose_src(name, start + k, c, hw) for k in range(m)]
        _offsets_into(e, tmp, [s & ~1 for s in src])
        chunk = contiguous_mask(m, u16)
        e.mask(*chunk)
        e.emit("vgather", {"dst": words, "src": ops["src"], "offset": tmp}, u16, repeat=1)
        low = sum(1 << k for k, s in enumerate(src) if s % 2 == 0)
        if low:
            e.mask(low >> 64, low & ONES)
            e.emit("vshl", {"dst": words, "src": words, "scalar": eight}, u16, repeat=1)
        e.mask(*chunk)
        e.emit("vshr", {"dst": words, "src": words, "scalar": eight}, u16, repeat=1)
        e.emit("vconv", {"dst": words, "src": words}, f16, src=s16, repeat=1, round=none)
        e.emit("vconv", {"dst": shift(ops["dst"], start), "src": words}, u8, src=f16,
               repeat=1, round=none)
    e.mask(ONES, ONES)


def _check_transpose_shape(e: _Expander, n: int, c: int, hw: int) -> None:
    """The page's ranges (nSize <= 65535, cSize <= 4095, hSize x wSize <= 4095) and
    hSize x wSize x sizeof(T) a multiple of 32 bytes: rules (--checks)."""
    col = e.key_col("hsize")
    for key, v, hi in (("nsize", n, 65535), ("csize", c, 4095)):
        if v > hi:
            e.b.rule(e.key_col(key), f"{e.syn.defn.name} {key}={v} is over {hi} (the "
                     "Transpose page's range)")
    if hw > 4095:
        e.b.rule(col, f"{e.syn.defn.name} hsize x wsize = {hw} is over 4095 (the Transpose "
                 "page's range)")
    if hw * e.t.size % 32:
        e.b.rule(col, f"{e.syn.defn.name}.{e.t.name} hsize x wsize x {e.t.size} = "
                 f"{hw * e.t.size} bytes is not a multiple of 32 (the Transpose page: "
                 "hSize * wSize * sizeof(T) 32-byte aligned)")


# temporary buffer in tiles (the Transpose page: (C + 2) tiles for NCHW2NHWC, (2C + 1) for
# NHWC2NCHW; a tile is 1024 bytes for 8-bit types, 512 for 16- and 32-bit ones)
_TRANSPOSE_TMP = {"transpose_nchw2nhwc": lambda c: c + 2,
                  "transpose_nhwc2nchw": lambda c: 2 * c + 1}


def _transpose_src(name: str, j: int, c: int, hw: int) -> int:
    """The source element index of dst element j."""
    plane, r = divmod(j, c * hw)
    if name == "transpose_nchw2nhwc":  # dst [n, hw, c] <- src [n, c, hw]
        p, ch = divmod(r, c)
        return plane * c * hw + ch * hw + p
    ch, p = divmod(r, hw)  # dst [n, c, hw] <- src [n, hw, c]
    return plane * c * hw + p * c + ch


def _trans_data_5hd(e: _Expander) -> None:
    """TransDataTo5HD → vnchwconv, as it is."""
    _arity(e, 2, "address lists")
    fields = {k: e.fields[k] for k in ("repeat", "dst_high", "src_high") if k in e.fields}
    e.emit("vnchwconv", _operands(e, list(e.syn.defn.operands)), e.t, stride=_strides(e),
           **fields)


def _set_mask(e: _Expander) -> None:
    """set_mask.T LEN runs on S as itself: the contiguous rule, or the count in counter mode,
    decided by the mask mode at issue."""
    _arity(e, 1, "set_mask")
    ops = _operands(e, list(e.syn.defn.operands))
    v = ops["len"].value
    if isinstance(v, int) and e.t.size == 1 and v != 256:
        e.b.note(ops["len"].col, "8-bit types accept only LEN=256 in normal mode")
    e.out.append(e.b.make(e.syn.defn, None, e.t, ops, {}, {"len": ops["len"].col}))


def _cmpmask_move(hw: str, role: str):
    def expand_one(e: _Expander) -> None:
        _arity(e, 1, e.syn.defn.name)
        ops = _operands(e, list(e.syn.defn.operands))
        e.emit(hw, {role: ops[role]})
    return expand_one


# -- #32 class 4: the rounding advanced APIs ------------------------------------------------------
def _rounding(e: _Expander) -> None:
    """floor / ceil / trunc / rint / round / frac .T DST, SRC[, WORK], count=N: vconv with the
    statement's round mode, float to float (exact: the result is an integer of the source's
    range, or the source itself when it is ±inf, NaN or already integral). A half source goes
    through float in WORK (N × 4 bytes); Frac subtracts the truncation from the source (exact
    in T: x - trunc(x) is representable), keeping it in WORK (half: narrowed in place there).
    One counter-mode span: N may be a register (the C++ front end's count)."""
    name, t = e.syn.defn.name, e.t
    if "count" not in e.fields:
        raise LexError(f"{name} takes count= (the advanced API's element count)", e.syn.offset)
    got = len(e.syn.positional)
    if got not in (2, 3):
        raise LexError(f"{name} takes DST, SRC[, WORK], got {got} operands", e.syn.offset)
    ops = _operands(e, list(e.syn.defn.operands)[:got])
    if "work" not in ops and (t.size == 2 or name == "frac"):
        raise LexError(f"{name}.{t.name} takes a work tensor (count × 4 bytes, the float "
                       "copy pipev's sequence keeps)", e.syn.offset)
    if not e.chip.counter_mode:
        raise LexError(f"{name} is not on {e.chip.name} (no counter mode; the vendor lists the "
                       "advanced rounding APIs for A2/A3 and later)", e.syn.offset)
    f32 = TYPES["f32"]
    n = _count(e, CHUNK_REPEAT * f32.per_repeat)
    if n == 0:
        e.b.warn(e.key_col("count"), f"{name} with count=0 does nothing")
        return
    if "work" in ops and isinstance(n, int):
        _check_rounding_work(e, ops["work"], n * f32.size)
    mode = ROUND_MODES.index("trunc" if name == "frac" else name)
    none = ROUND_MODES.index("none")
    dst, src, work = ops["dst"], ops["src"], ops.get("work")
    e.emit("set_mask_count")
    e.mask(0, n)
    wide = src if t == f32 else work
    if t != f32:
        e.emit("vconv", {"dst": work, "src": src}, f32, src=t, repeat=1, round=none)
    rounded = work if name == "frac" else (dst if t == f32 else work)
    e.emit("vconv", {"dst": rounded, "src": wide}, f32, src=f32, repeat=1, round=mode)
    if name != "frac" and t != f32:
        e.emit("vconv", {"dst": dst, "src": work}, t, src=f32, repeat=1, round=none)
    if name == "frac":
        if t != f32:  # the truncation narrowed in place: exact, the value is an integer
            e.emit("vconv", {"dst": work, "src": work}, t, src=f32, repeat=1, round=none)
        e.emit("vsub", {"dst": dst, "src0": src, "src1": work}, t, repeat=1)
    e.emit("set_mask_norm")
    e.mask(ONES, ONES)


def _check_rounding_work(e: _Expander, work: Operand, need: int) -> None:
    tensor = work.tensor
    if tensor is None or not isinstance(work.addr, int):
        return
    have = tensor.addr + tensor.nbytes - work.addr
    if have < need:
        e.b.rule(work.col, f"{e.syn.defn.name}.{e.t.name} work {tensor.name} has {have} bytes "
                 f"from {work.text}, needs {need} (count × 4: the float copy)")


_EXPANSIONS = {
    "api_select": _select,
    "api_compare": _compare,
    "api_compares": _compares,
    "api_duplicate": _duplicate,
    "api_cast": _cast,
    "api_reduce": _reduce,
    "api_reduce_all": _reduce_all,
    "api_unary": _elementwise,
    "api_binary": _elementwise,
    "api_scalar": _elementwise,
    "api_set_mask": _set_mask,
    "api_gather_mask": _gather_mask,  # issue 28 (28b)
    "api_brcb": _brcb,
    "api_create_vec_index": _create_vec_index,
    "api_gather": _gather,
    "api_gatherb": _gatherb,  # issue 28
    "api_transpose": _transpose,
    "api_trans_data_5hd": _trans_data_5hd,
    "api_transpose_4d": _transpose_4d,  # issue 28 item 5
    "api_shift": _shift,  # #27a
    "api_subs": _subs,  # #27a
    "api_binary_cast": _binary_cast,  # #27: AddReluCast SubReluCast MulCast
    "api_flex_scalar": _flex_scalar,  # #27: ascend950 Ands Ors Divs
    "api_get_cmp_mask": _cmpmask_move("get_cmpmask", "dst"),
    "api_set_cmp_mask": _cmpmask_move("set_cmpmask", "src"),
    "api_rounding": _rounding,  # #32 class 4
}


# -- #27/#29 (h27dq): SetDeqScale and CastDequant ------------------------------------------------
def deq_word(scale_bits: int, offset: int, sign: int) -> int:
    """SetDeqScale(float scale, int16_t offset, bool signMode)'s DEQSCALE value, as the
    SetDeqScale page's bit table lays it out: the f32 scale in [31:0], the offset's 9 low bits
    in [45:37], signMode in [46]."""
    return (scale_bits & 0xFFFFFFFF) | ((offset & 0x1FF) << 37) | ((sign & 1) << 46)


def _set_deq_scale(e: _Expander) -> None:
    """SetDeqScale → set_deqscale: half → its bits; float → deq_word; a u64 tensor (the vdeq
    table, filled by the caller) → its UB address / 32."""
    t = e.t
    _arity(e, 1, t.name)
    text, off = e.syn.positional[0]
    if t.name == "u64":
        e.emit("set_deqscale", {"value": e.b.operand("vec", text, off, "value")})
        return
    else:
        o = e.b.operand("scalar", text, off, "scale")
        if not isinstance(o.value, np.ndarray):
            raise LexError(f"set_deq_scale.{t.name} needs an immediate scale", off)
        bits = int.from_bytes(o.value.tobytes(), "little")
        if t.name == "f16":
            for k in ("deq_offset", "sign"):
                if k in e.syn.keys:
                    raise LexError(f"set_deq_scale.f16 takes no {k}= (SetDeqScale(half scale))",
                                   e.key_col(k))
            value = bits
        else:
            value = deq_word(bits, e.fields.get("deq_offset", 0),
                              e.fields.get("sign", 0))
    e.emit("set_deqscale", {"value": e.num(value)})


def _cast_dequant(e: _Expander) -> None:
    """CastDequant → vconv_deq.f16.s32, or vconv_(v)deqs162b8(h|l).DST.s16 by vec_deq= and
    half_block=; the forms and chunks as Cast's (N = 256 bytes of the source a repeat; the b8
    destination covers as many bytes as the source, so it moves on by the source's bytes)."""
    dst_t, src_t = e.syn.dtype, e.syn.src_dtype
    if src_t.size == 4:
        hw = "vconv_deq"
    else:
        hw = (f"vconv_{'v' if e.fields.get('vec_deq', 1) else ''}deqs162b8"
              f"{'h' if e.fields.get('half_block', 1) else 'l'}")
    e.t = src_t  # the mask and count rules are the source's (the wider type)
    form = _form(e)
    _arity(e, 2, form)
    ops = _operands(e, list(e.syn.defn.operands))
    dst_step = src_t.size if src_t.size == 2 else dst_t.size
    if form != "count":
        if form == "highdim":
            e.mask(*_mask_from_keys(e))
        e.emit(hw, ops, dst_t, src=src_t, repeat=e.fields["repeat"], stride=_strides(e))
        return
    n = _count(e, CHUNK_REPEAT * src_t.per_repeat)
    if n == 0:
        e.b.warn(e.key_col("count"), "cast_dequant with count=0 does nothing")
        return

    def body(done: int, repeat: int, hi_lo: tuple[int, int]) -> None:
        k = done * src_t.per_repeat
        e.mask(*hi_lo)
        moved = {"dst": shift(ops["dst"], k * dst_step), "src": shift(ops["src"], k * src_t.size)}
        e.emit(hw, moved, dst_t, src=src_t, repeat=repeat)

    _first_n(e, n, lambda: e.emit(hw, ops, dst_t, src=src_t, repeat=1), body)


_EXPANSIONS["api_set_deq_scale"] = _set_deq_scale
_EXPANSIONS["api_cast_dequant"] = _cast_dequant
