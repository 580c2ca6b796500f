"""Operand and keyword-field resolution against the instruction table, with the static checks
that need nothing but the text and the chip (docs/format.md §4.2, §9.2)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import NamedTuple

import numpy as np

from isa import api, regvec
from isa.chip import Chip
from isa.diagnostics import did_you_mean
from isa.families import DMA
from isa.lexer import (
    NAME_RE,
    READ_ONLY,
    LexError,
    is_parameter,
    parse_int,
    parse_number,
    parse_reg_expr,
    parse_register,
    split_top,
)
from isa.program import Instruction, Operand, RegExpr, Tensor, Value
from isa.table import (
    BARRIER_PIPES,
    INSTRUCTIONS,
    KEYS,
    ND_KEYS,
    PIPES,
    ROUND_MODES,
    TABLE,
    InstrDef,
    Key,
    Table,
)
from isa.types import UNSIGNED_MASK_TYPES, DType, convert_scalar

REF_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[(.*)\])?\Z", re.S)
SCALAR_REF_RE = re.compile(r"scalar\s*\((.*)\)\Z", re.S | re.I)
RAW_RE = re.compile(r"raw\s*\((.*)\)\Z", re.S | re.I)  # raw(BITS): a scalar as its bit pattern
ALIGN = {"vec": 32, "bits": 32, "cmpaddr": 16, "ub": 32}
# one dict for the equal `fields` (and `cols`) of many lines: a long program's lines differ in
# their addresses, rarely in their keys (nothing changes a body's dicts after it is made)
_SHARED: dict[tuple, dict] = {}
SHARED_LIMIT = 1 << 14
MUTEX_IDS = 32  # #34: the 950's Mutex ids (the Mutex page: 0..27 for kernels, 28..31 reserved)


def shared(d: dict) -> dict:
    """A dict equal to D, key order and value types included, shared by every body given an
    equal one (a copy of D: the caller may go on changing its own); D itself when a value is
    unhashable."""
    try:
        key = tuple((k, v.__class__, v) for k, v in d.items())
        got = _SHARED.get(key)
    except TypeError:
        return d
    if got is None:
        if len(_SHARED) >= SHARED_LIMIT:
            _SHARED.clear()
        got = _SHARED[key] = dict(d)
    return got


class StatementSyntax(NamedTuple):
    """One statement's text split into its parts (the assembler's, for Builder.build)."""

    defn: InstrDef
    op: str | None
    dtype: DType | None
    positional: list[tuple[str, int]]
    keys: dict[str, tuple[str, int]]
    offset: int  # of the mnemonic
    col: int
    src_dtype: DType | None = None  # vconv.DST.SRC: the source type


class Builder:
    """Builds the hardware instructions of one statement; collects its diagnostics."""

    def __init__(self, chip: Chip, tensors: dict[str, Tensor], labels: dict[str, int],
                 checks: str = "error", table: Table = TABLE):
        self.chip = chip
        self.table = table  # the rows an API statement expands into
        self.keys = table.keys  # the keyword fields the table's rows may name
        self.tensors = tensors
        self.labels = labels
        self.checks = checks
        self._diags: list[tuple[str, int, str]] = []

    def take_diags(self) -> list[tuple[str, int, str]]:
        d, self._diags = self._diags, []
        return d

    def warn(self, offset: int, msg: str) -> None:
        self._diags.append(("warning", offset, msg))

    def note(self, offset: int, msg: str) -> None:
        self._diags.append(("note", offset, msg))

    def rule(self, offset: int, msg: str) -> None:
        """A rule that --checks turns into a warning or silences (alignment, footprint)."""
        if self.checks == "error":
            raise LexError(msg, offset)
        if self.checks == "warn":
            self.warn(offset, msg)

    # -- statement ---------------------------------------------------------------------------
    def build(self, syn: StatementSyntax, pc: int, line: int = 0
              ) -> tuple[list[Instruction] | None, list]:
        self.syn, self.pc, self.line = syn, pc, line
        defn = syn.defn
        self.check_types(syn)
        nmax = len(defn.operands)
        nmin = defn.min_operands if defn.min_operands is not None else nmax
        got = len(syn.positional)
        if not nmin <= got <= nmax:
            want = str(nmax) if nmin == nmax else f"{nmin} to {nmax}"
            raise LexError(f"{defn.name} takes {want} operands, got {got}", syn.offset)
        fields, cols = self.fields(syn)
        if defn.src_typed:
            self.check_conversion(syn, fields)
        elif syn.src_dtype is not None:  # #27: a mixed form (vaxpy.f32.f16)
            self.check_pair(syn)
        if defn.level == "api":
            return api.expand(self, syn, fields, cols), []
        ops = {}
        for (role, kind), (text, off) in zip(defn.operands, syn.positional, strict=False):
            kind = defn.family.operand_kind(role, kind, fields, self.chip)  # vsel mode 1
            ops[role] = self.operand(kind, text, off, role,
                                     defn.family.operand_align(role, fields, syn.dtype))
            cols[role] = off
        self.check_hw(defn, syn.dtype, ops, fields, syn.positional)
        return [self.make(defn, syn.op, syn.dtype, ops, fields, cols, src=syn.src_dtype)], []

    def make(self, defn: InstrDef, op, dtype, ops: dict[str, Operand], fields: dict,
             cols: dict, notes: tuple[str, ...] = (), src: DType | None = None) -> Instruction:
        syn = self.syn
        text = render(defn, op, dtype, ops, fields, src, self.keys)
        return Instruction.of(defn, op, dtype, ops, shared(fields), shared(cols), self.pc,
                              self.line, syn.col, text, notes, src_dtype=src)

    # -- types and chip support --------------------------------------------------------------
    def check_pair(self, syn: StatementSyntax) -> None:
        """A one-type row's second type: the pair DST.SRC must be in the chip's list of the
        row's mixed forms ([types] of its `src_pairs` key)."""
        pair = f"{syn.dtype.name}.{syn.src_dtype.name}"
        pairs = self.chip.types.get(syn.defn.src_pairs, ())
        if pair not in pairs:
            raise LexError(f"{syn.defn.name}.{pair} is not supported on {self.chip.name} "
                           f"(mixed forms: {', '.join(pairs) or 'none'})", syn.offset)

    def check_conversion(self, syn: StatementSyntax, fields: dict) -> None:
        """The chip converts DST.SRC in the round mode the statement names (chip profile
        [conversions])."""
        pair = f"{syn.dtype.name}.{syn.src_dtype.name}"
        what = f"{syn.defn.name}.{pair}"
        pair_problem = getattr(syn.defn.family, "pair_problem", None)
        if pair_problem is not None:  # #34: the reg unit's Cast / Pack pairs are the family's
            why = pair_problem(syn.defn.name, syn.dtype, syn.src_dtype, fields)
            if why is not None:
                raise LexError(f"{what}: {why}", syn.offset)
            return
        if syn.defn.types != "conv":  # #27: a composite's own pairs, a [types] list of DST.SRC
            pairs = self.chip.types.get(syn.defn.types, ())
            if pair not in pairs:
                raise LexError(f"{what} is not supported on {self.chip.name} (supports "
                               f"{', '.join(pairs) or 'none'})", syn.offset)
            return
        modes = self.chip.conversions.get(pair)
        if modes is None and syn.defn.level == "api" and pair in self.chip.types.get("deq", ()):
            return  # Cast int32_t → half is vconv_deq (the Cast page: round mode ignored, with
            # SetDeqScale(half)); isa/api.py _cast
        if modes is None:
            known = ", ".join(self.chip.conversions) or "none"
            raise LexError(f"{what} is not supported on {self.chip.name} (supports {known})",
                           syn.offset)
        mode = ROUND_MODES[fields.get("round", 0)]
        if mode not in modes:
            col = _key_col(syn, "round") if "round" in syn.keys else syn.offset
            raise LexError(f"{what} round={mode} is not supported on {self.chip.name} "
                           f"(supports round={', '.join(modes)})", col)

    def check_types(self, syn: StatementSyntax) -> None:
        defn, t = syn.defn, syn.dtype
        if t is None or not defn.types or defn.src_typed:
            return
        supported = self.chip.types.get(defn.types, ())
        what = defn.name + (f".{syn.op}" if syn.op else "")
        if t.name not in supported:
            raise LexError(f"{what}.{t.name} is not supported on {self.chip.name} (supports "
                           f"{', '.join(supported) or 'none'})", syn.offset)
        if defn.level == "hw" and defn.family.kind != DMA \
                and t.name in self.chip.types.get("api_count_only", ()):
            # docs/machine.md §2: these types exist on the vector unit only through the API
            # count= forms; a copy's element type is only its padding's (DataCopyPad of u8, #34)
            raise LexError(f"{what}.{t.name} is not supported on {self.chip.name} at hardware "
                           f"level ({t.name} only through the count= form of the API-level "
                           "instructions)", syn.offset)
        if defn.has_op and syn.op != "eq" and t.name in self.chip.types.get(
                "compare_eq_only", ()):
            raise LexError(f"{defn.name}.{syn.op}.{t.name} is not supported on {self.chip.name} "
                           f"({t.name} compares support eq only)", syn.offset)

    # -- keyword fields ----------------------------------------------------------------------
    def fields(self, syn: StatementSyntax) -> tuple[dict[str, Value], dict[str, int]]:
        defn = syn.defn
        allowed = defn.allowed_keys
        out: dict[str, Value] = {}
        cols: dict[str, int] = {}
        for key, (text, off) in syn.keys.items():
            if key not in self.keys and key != "stride":
                near = did_you_mean(key, [k for k in (*self.keys, "stride") if k in allowed] or
                                    [*self.keys, "stride"])
                raise LexError(f"unknown key '{key}'{near}", off - len(key) - 1)
            if key not in allowed:
                acc = ", ".join(sorted(allowed)) or "no keys"
                raise LexError(f"key '{key}' does not apply to {defn.name} (accepts {acc})",
                               _key_col(syn, key))
            cols[key] = off
            if key == "stride":
                continue
            out[key] = self.key_value(defn, key, text, off)
        if defn.strides:
            names = defn.stride_names
            vals = list(defn.family.default_strides(names, defn.stride_default, syn.dtype,
                                                    syn.src_dtype))
            if "stride" in syn.keys:
                text, off = syn.keys["stride"]
                parts = split_top(text, off)
                if len(parts) != len(names):
                    raise LexError(f"{defn.name} takes stride={','.join(['n'] * len(names))} "
                                   f"({', '.join(names)}), got {len(parts)} values", off)
                for i, (p, o) in enumerate(parts):
                    vals[i] = self.stride_value(defn, names[i], p, o)
                    cols[names[i]] = o
            for i, n in enumerate(names):
                if n in out:
                    vals[i] = out[n]
                cols.setdefault(n, cols.get("stride", syn.offset))
            out.update(zip(names, vals, strict=True))
        for key in defn.keys:
            if key not in out and self.keys[key].default is not None and defn.level != "api":
                out[key] = self.keys[key].default
        return out, cols

    def key_value(self, defn: InstrDef, key: str, text: str, off: int) -> Value:
        spec = self.keys[key]
        if key.endswith(("_blk", "_rep")):
            return self.stride_value(defn, key, text, off)
        if spec.words:
            word = text.strip().lower()
            if word not in spec.words:
                raise LexError(f"{key}={text} is not one of {', '.join(spec.words)}", off)
            return spec.words.index(word)
        if spec.scalar:
            o = self.scalar(self.syn.dtype, text, off)
            return int.from_bytes(o.value.tobytes(), "little")
        reg = parse_register(text)
        if reg is not None:
            if not spec.register:
                raise LexError(f"key '{key}' takes a constant, not a register", off)
            return RegExpr(reg)
        v = parse_int(text, off)
        if not spec.lo <= v <= spec.hi:
            raise LexError(f"{key}={v} is out of range ({spec.lo}..{spec.hi})", off)
        return v

    def stride_value(self, defn: InstrDef, key: str, text: str, off: int) -> int:
        v = parse_int(text, off)
        layout = defn.stride_layout
        hi = layout.blk_max if key.endswith("_blk") else \
            layout.rep_max if layout is not None else 255
        if not 0 <= v <= hi:
            raise LexError(f"{key}={v} is out of range (0..{hi})", off)
        return v

    # -- operands ----------------------------------------------------------------------------
    def operand(self, kind: str, text: str, off: int, role: str, align: int = 32) -> Operand:
        """Operand ROLE of kind KIND from TEXT; a `vec` operand's address needs ALIGN bytes
        (the family's: a reduction's dst needs one result's)."""
        t = self.syn.dtype
        if kind in ("vec", "bits", "cmpaddr", "ub", "elemaddr"):
            o = self.mem(text, off, "ub")
            self.check_mem(o, kind, role, align)
            return o
        if kind == "gm":
            return self.mem(text, off, "gm")
        if kind in regvec.REG_KINDS:  # issue 34: v0..v31, p0..p7, a MaskPattern
            v = regvec.reg_value(kind, text, off)
            return Operand("reg" if kind in ("vreg", "preg", "ulreg", "usreg") else "word",
                           off, text, value=v)
        if kind == "raddr":  # issue 34: a reg load/store's UB address (checked when it runs)
            return self.mem(text, off, "ub")
        if kind == "scalar":  # its role's type: a mixed form's scalar is of the source type
            return self.scalar(self.role_type(role) if t is not None else t, text, off)
        if kind == "scalar_or_vec":
            if SCALAR_REF_RE.match(text) or not (text.startswith("@") or REF_RE.match(text)) \
                    or text in ("inf", "nan") or is_parameter(text) or \
                    (parse_register(text) is not None and text not in self.tensors):
                return self.scalar(t, text, off)
            o = self.mem(text, off, "ub")
            self.check_mem(o, "vec", role)
            return o
        if kind == "vec_or_cmpmask":
            if text.lower() == "cmpmask":
                return Operand("word", off, text, value="cmpmask")
            o = self.mem(text, off, "ub")
            self.check_mem(o, "bits", role)
            return o
        if kind in ("pipe", "bpipe"):
            names = PIPES if kind == "pipe" else BARRIER_PIPES
            if text.upper() not in names:
                raise LexError(f"expected a pipe ({' '.join(names)}), got '{text}'", off)
            return Operand("pipe", off, text, value=text.upper())
        if kind == "event":
            v = parse_int(text, off)
            if not 0 <= v < self.chip.event_ids:
                raise LexError(f"event id {v} is out of range (0..{self.chip.event_ids - 1} on "
                               f"{self.chip.name})", off)
            return Operand("int", off, text, value=v)
        if kind == "mutex":  # #34: the 950's Mutex ids (AllocMutexID's 0..27, 28..31 reserved)
            v = parse_int(text, off)
            if not 0 <= v < MUTEX_IDS:
                raise LexError(f"mutex id {v} is out of range (0..{MUTEX_IDS - 1})", off)
            return Operand("int", off, text, value=v)
        if kind == "xreg":
            reg = parse_register(text)
            if reg is None:
                raise LexError(f"expected a register x0..x31, got '{text}'", off)
            if role == "d" and reg in READ_ONLY:
                raise LexError(f"{READ_ONLY[reg]} is read-only (the launch sets it for each "
                               "core); write the result to x0..x31", off)
            return Operand("reg", off, text, value=reg)
        if kind == "deqsrc":  # #27/#29 set_deqscale: a 64-bit value, or a UB address (the
            # vdeq table: the register gets its address / 32)
            t = text.strip()
            if parse_register(t) is None and not t.lstrip("-+").replace("_", "")[:1].isdigit():
                return self.mem(text, off, "ub")
            kind = "xsrc"
        if kind in ("xsrc", "value", "imm"):
            reg = parse_register(text)
            if reg is not None and kind != "imm":
                return Operand("int", off, text, value=RegExpr(reg))
            v = parse_int(text, off)
            if not -(1 << 63) <= v <= (1 << 64) - 1:
                raise LexError(f"{v} does not fit in 64 bits", off)
            return Operand("int", off, text, value=v % (1 << 64))
        if kind == "text":
            if len(text) < 2 or not text.startswith('"') or not text.endswith('"'):
                raise LexError(f"expected text in double quotes, got '{text}'", off)
            return Operand("word", off, text, value=text[1:-1])
        if kind == "label":
            if text not in self.labels:
                raise LexError(f"unknown label '{text}'{did_you_mean(text, self.labels)}", off)
            return Operand("label", off, text, value=self.labels[text])
        if kind == "selem":  # ld/st: a UB element, or a GM one where the scalar unit reaches GM
            m = REF_RE.match(text)
            t = self.tensors.get(m.group(1)) if m else None
            if t is not None and t.space == "gm":
                if not self.chip.scalar_gm:
                    raise LexError(f"the scalar unit of {self.chip.name} loads and stores UB "
                                   f"only; '{t.name}' is a GM tensor", off)
                return self.mem(text, off, "gm")
            return self.mem(text, off, "ub")
        if kind == "vareg":  # TransDataTo5HD's address registers VA0..VA7
            m = re.fullmatch(r"va([0-7])", text.strip().lower())
            if m is None:
                raise LexError(f"expected an address register va0..va7, got '{text}'", off)
            return Operand("int", off, text, value=int(m.group(1)))
        if kind == "vaddr":  # a UB address a VA register holds: NAME[I] or @ADDR, any alignment
            return self.mem(text, off, "ub")  # (vnchwconv_va checks each block's at issue)
        if kind == "elem":
            o = self.mem(text, off, "ub")
            if o.tensor is None:
                raise LexError(f"addr takes a UB tensor element NAME[I], got '{text}'", off)
            return o
        raise LexError(f"internal: unknown operand kind {kind}", off)  # pragma: no cover

    def mem(self, text: str, off: int, space: str) -> Operand:
        if text.startswith("@"):
            if space == "gm":
                raise LexError(f"a GM operand names a .gm tensor, got '{text}'", off)
            body = text[1:].strip()
            rx = parse_reg_expr(body, off + 1)
            if rx is not None:
                return Operand("mem", off, text, "ub", RegExpr(rx[0], 1, rx[1]))
            addr = parse_int(body, off + 1)
            if not 0 <= addr < (1 << 40):
                raise LexError(f"address {addr:#x} is out of range", off)
            return Operand("mem", off, text, "ub", addr)
        m = REF_RE.match(text)
        if not m:
            raise LexError(f"expected a tensor reference NAME[I] or @ADDR, got '{text}'", off)
        name = m.group(1)
        t = self.tensors.get(name)
        if t is None:
            if parse_register(name) is not None:
                raise LexError(f"a register as an address is written @{name}", off)
            near = did_you_mean(name, [n for n, t in self.tensors.items() if t.space == space])
            raise LexError(f"unknown tensor '{name}'{near}", off)
        if t.space != space:
            where = "GM" if t.space == "gm" else "UB"
            need = "a UB operand (only DMA touches GM)" if space == "ub" else "a GM operand"
            raise LexError(f"'{name}' is a {where} tensor; expected {need}", off)
        base = t.addr if space == "ub" else 0
        size = t.dtype.size
        if m.group(2) is None:
            return Operand("mem", off, text, space, base, t)
        idx_text = m.group(2).strip()
        idx_off = off + text.index("[") + 1
        rx = parse_reg_expr(idx_text, idx_off)
        if rx is not None:
            if t.dtype.nibble:  # a register index would have to be halved at run time
                raise LexError(f"{name}[...] on an s4 tensor takes a constant index (or address "
                               "its bytes through a u8 tensor at the same place)", idx_off)
            return Operand("mem", off, text, space, RegExpr(rx[0], size, base + rx[1] * size), t)
        idx = parse_int(idx_text, idx_off)
        if not 0 <= idx < t.count:
            raise LexError(f"{name}[{idx}] is beyond the tensor ({t.count} elements)", idx_off)
        if t.dtype.nibble:  # int4b_t: element 2j starts byte j; an odd index splits a byte
            if idx % 2:
                raise LexError(f"{name}[{idx}] splits a byte: an s4 element offset must be even "
                               "(two elements a byte)", idx_off)
            return Operand("mem", off, text, space, base + idx // 2, t)
        return Operand("mem", off, text, space, base + idx * size, t)

    def role_type(self, role: str) -> DType:
        """Operand ROLE's own type (an API row: its hardware row's family's)."""
        defn = self.syn.defn
        hw = self.table.instructions.get(defn.hw) if defn.hw else None
        fam = hw.family if hw is not None else defn.family
        return fam.operand_type(role, self.syn.dtype, self.syn.src_dtype)

    def check_mem(self, o: Operand, kind: str, role: str, align: int = 32) -> None:
        t = self.syn.dtype
        if t is not None:
            t = self.role_type(role)
        if o.tensor is not None and t is not None:
            tt = o.tensor.dtype
            if kind in ("vec", "elemaddr") and tt.size != t.size:
                raise LexError(f"{self.head()} {role} '{o.tensor.name}' is {tt.name}; a {t.name} "
                               f"operand needs a tensor of {t.size}-byte elements", o.col)
            if kind in ("bits", "cmpaddr") and tt.name not in UNSIGNED_MASK_TYPES:
                raise LexError(f"{self.head()} {role} '{o.tensor.name}' is {tt.name}; a bit mask "
                               "needs an unsigned type (u8, u16, u32, u64)", o.col)
        if isinstance(o.addr, int):
            # a gather's source base: its element size (the offsets then keep it aligned)
            align = (t.size if t is not None else 1) if kind == "elemaddr" else \
                align if kind == "vec" else ALIGN[kind]
            if o.addr % align:
                what = "vector operands" if kind in ("vec", "bits", "ub") else \
                    "a gather's source" if kind == "elemaddr" else "CMPMASK moves"
                if kind == "vec" and align < 32:  # a reduction's dst: one result's alignment
                    what = f"{self.head()} {role}"
                self.rule(o.col, f"{self.head()} {role} address {o.addr:#x} is not "
                          f"{align}-byte aligned ({what} must be {align}-byte aligned)")

    def head(self) -> str:
        """`vsel.f32`, `vcmpv.lt.f16`: the mnemonic as diagnostics name it (as at run time)."""
        syn = self.syn
        return syn.defn.name + (f".{syn.op}" if syn.op else "") + (
            f".{syn.dtype.name}" if syn.dtype else "") + (
            f".{syn.src_dtype.name}" if syn.src_dtype else "")

    def scalar(self, t: DType | None, text: str, off: int) -> Operand:
        m = SCALAR_REF_RE.match(text)
        if m:
            if not self.chip.flexible_scalar:
                raise LexError(f"scalar(NAME[I]) is not supported on {self.chip.name} "
                               "(ascend950 select only)", off)
            inner_off = off + text.index("(") + 1
            o = self.mem(m.group(1).strip(), inner_off, "ub")
            if o.tensor is None or o.tensor.dtype.size != t.size:
                raise LexError("scalar(NAME[I]) names an element of a UB tensor of type "
                               f"{t.name}", inner_off)
            return Operand("scalar", off, text, "ub", o.addr, o.tensor, None)
        reg = parse_register(text)
        if reg is not None:  # a register: its low sizeof(T) bytes, read when S issues it
            return Operand("scalar", off, text, value=RegExpr(reg))
        m = RAW_RE.match(text)
        if m:  # the element's bits as they are (front ends pass floats this way: NaN payloads)
            bits = parse_int(m.group(1).strip(), off + text.index("(") + 1)
            if not 0 <= bits < 1 << (8 * t.size):
                raise LexError(f"raw({bits:#x}) does not fit in {t.name} ({8 * t.size} bits)",
                               off)
            return Operand("scalar", off, text, value=np.frombuffer(
                bits.to_bytes(t.size, "little"), np.uint8).copy())
        try:
            v = parse_number(text, off)
        except LexError:
            raise LexError(f"expected a scalar immediate, got '{text}'", off) from None
        raw, why = convert_scalar(t, v)
        if raw is None:
            raise LexError(why, off)
        return Operand("scalar", off, text, value=raw)

    # -- hardware-level rules ----------------------------------------------------------------
    def check_hw(self, defn: InstrDef, t, ops, fields, positional) -> None:
        """The family's chip requirement and operand rules (isa/families.py), then the
        stride and DMA-key rules."""
        fam, name = defn.family, defn.name
        problem = fam.chip_problem(name, self.chip, fields, t)
        if problem is not None:
            message, key = problem
            raise LexError(message, self.syn.keys[key][1] if key in self.syn.keys
                           else self.syn.offset)
        if fam.distinct_pipes and len({ops[r].value for r in fam.distinct_pipes}) == 1:
            raise LexError(f"{name} needs two different pipes", ops[fam.distinct_pipes[-1]].col)
        if defn.strides and "dst_blk" in fields and fam.block_stride("dst", fields) == 0 \
                and not fam.bit_output and "dst" in ops:
            self.rule(self._col("dst_blk"), f"{self.head()} dst block stride 0 is undefined on "
                      "hardware (destination block stride must be at least 1)")
        if fam.needs_burst and "burst" not in fields:
            raise LexError(f"{name} needs burst=", self.syn.offset)
        if fam.byte_bursts and "len" not in fields:
            raise LexError(f"{name} needs len= (bytes a burst)", self.syn.offset)

    def _col(self, key: str) -> int:
        k = self.syn.keys.get(key) or self.syn.keys.get("stride")
        return k[1] if k else self.syn.offset


def _key_col(syn: StatementSyntax, key: str) -> int:
    text, off = syn.keys[key]
    return off - len(key) - 1


# -- canonical text ---------------------------------------------------------------------------
_FIELD_ORDER = ("repeat", "nburst", "burst", "len", "src_gap", "dst_gap", "left_pad",
                "right_pad", "pad_value", "mode", "round")
_ZERO_HIDDEN = ("src_gap", "dst_gap", "left_pad", "right_pad")  # pad_value=0 is a value
_DEFAULT_HIDDEN = frozenset(ND_KEYS)  # #34: NDDMA's loop keys at their defaults (size 1, 0)


def render(defn: InstrDef, op, dtype, ops: dict[str, Operand], fields: dict,
           src: DType | None = None, keys: Mapping[str, Key] = KEYS) -> str:
    """The instruction as the listing prints it (hardware level, API expansions included):
    pipev's keys in their order, then any other key of the row's (KEYS: the table's)."""
    head = defn.name + (f".{op}" if op else "") + (f".{dtype.name}" if dtype else "") + (
        f".{src.name}" if src else "")
    parts = [_render_operand(o) for r, o in ops.items() if r != "guard"]
    for k in (*_FIELD_ORDER, *(k for k in defn.keys if k not in _FIELD_ORDER)):
        if k in fields and not (k in _ZERO_HIDDEN and fields[k] == 0) and not (
                k in _DEFAULT_HIDDEN and fields[k] == keys[k].default):
            v, spec = fields[k], keys[k]
            text = spec.words[v] if spec.words and isinstance(v, int) else \
                f"{v:#x}" if spec.scalar else str(v)
            parts.append(f"{k}={text}")
    if defn.strides:
        vals = tuple(fields[n] for n in defn.stride_names)
        if vals != defn.family.default_strides(defn.stride_names, defn.stride_default, dtype,
                                               src):
            parts.append("stride=" + ",".join(str(v) for v in vals))
    parts += [f"{k}={keys[k].default}" for k in defn.family.listed_keys if k not in fields]
    return head + (" " + ", ".join(parts) if parts else "")


def _render_operand(o: Operand) -> str:
    if o.kind == "mem" and o.tensor is None:
        return f"@{o.addr:#x}" if isinstance(o.addr, int) else f"@{o.addr}"
    if o.kind == "int":
        v = o.value
        return f"{v:#x}" if isinstance(v, int) and v > 0xFFFF else str(v)
    return o.text


__all__ = ["Builder", "StatementSyntax", "render", "INSTRUCTIONS", "NAME_RE"]
