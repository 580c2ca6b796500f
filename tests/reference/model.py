"""An independent, element-by-element reference model of docs/machine.md §5–§6 (ascend910b), and of
the API-level `select` of §8.1 on ascend950 (its semantics, not its decoding).

Written from the spec, not from the simulator: it imports nothing from `isa` or `simulator`.
It parses the small subset of `.vasm` the property tests generate (hardware-level instructions,
`.ub NAME TYPE[COUNT] @ADDR = INIT`), models the UB bytes, MASK
(HI:LO), the mask mode and CMPMASK, and applies one hardware instruction at a time with explicit
loops over repeat, block and element. Clarity over speed: it runs on small cases.

Besides the final state it predicts the documented run-time rejections (§9.2–§9.3): alignment,
bounds, footprint, overlap and the counter-mode repeat limit, reporting every rule the first
failing instruction breaks (`RefError.rules`).
"""

from __future__ import annotations

import math
import re
import struct
from dataclasses import dataclass, field

import ml_dtypes
import numpy as np

from tests.reference import binary_conv, elementwise, shift_round
from tests.reference.convert import convert_one

UB_BYTES = 196608  # ascend910b (docs/machine.md §2)
CMPMASK_BYTES = 16  # 128 bits
CHIPS = {"ascend910b": (UB_BYTES, CMPMASK_BYTES), "ascend950": (262144, 32)}  # UB, CMPMASK
ONES = (1 << 64) - 1

# name → (numpy dtype, struct code, kind)
TYPES = {
    "s8": (np.int8, "b", "int"),
    "u8": (np.uint8, "B", "int"), "u16": (np.uint16, "H", "int"),
    "u32": (np.uint32, "I", "int"), "u64": (np.uint64, "Q", "int"),
    "s16": (np.int16, "h", "int"), "s32": (np.int32, "i", "int"), "s64": (np.int64, "q", "int"),
    "f16": (np.float16, "e", "float"), "f32": (np.float32, "f", "float"),
    "bf16": (ml_dtypes.bfloat16, "", "float"),  # select moves it as raw bits; no struct code
}
BINARY = ("vadd", "vsub", "vmul", "vmax", "vmin", "vand", "vor") + elementwise.MATH_BINARY \
    + binary_conv.NAMES  # #27: vaddreluconv.DST.SRC …: binary operands, sources of type SRC
SCALAR_OPS = ("vadds", "vmuls", "vmaxs", "vmins") + elementwise.MATH_SCALAR
# bit operations on one source; #27a's one-source functions share their operand layout
UNARY_BITS = ("vabs", "vnot") + elementwise.MATH_UNARY
UNARY_STRIDED = SCALAR_OPS + ("vcopy", "vector_dup", "vcmpvs", "vconv") + UNARY_BITS
BINARY_STRIDED = BINARY + ("vsel", "vcmp", "vcmpv")
MIXED = ("vaxpy", "vmla")  # #27: a second type, f16 sources (and scalar) into an f32 dst
QUIET = {2: 0x0200, 4: 0x00400000}  # the quiet bit of an f16 / f32 NaN


class RefError(Exception):
    """A documented run-time rejection; `rules` holds every rule the instruction breaks."""

    def __init__(self, line: int, rules: set[str]):
        super().__init__(f"line {line}: {sorted(rules)}")
        self.line = line
        self.rules = rules


@dataclass
class Tensor:
    name: str
    t: str
    count: int
    addr: int

    @property
    def size(self) -> int:
        return np.dtype(TYPES[self.t][0]).itemsize

    @property
    def end(self) -> int:
        return self.addr + self.count * self.size


@dataclass
class Operand:
    addr: int
    tensor: Tensor | None = None


@dataclass
class Instr:
    line: int
    name: str
    op: str | None
    t: str | None
    args: list[str]
    keys: dict[str, str] = field(default_factory=dict)
    src_t: str | None = None  # vconv.DST.SRC


# -- value helpers --------------------------------------------------------------------------------
def size_of(t: str) -> int:
    return np.dtype(TYPES[t][0]).itemsize


def scalar_bytes(t: str, text: str) -> bytes:
    """A scalar immediate → the raw bytes of one T element (numpy.asarray(v, T), §4.2)."""
    dt = TYPES[t][0]
    text = text.strip()
    if TYPES[t][2] == "int":
        return np.asarray(int(text, 0), dt).tobytes()
    return np.asarray(float(text), dt).tobytes()


def as_float(t: str, raw: bytes) -> float | int:
    """Raw element bytes → a Python number (exact for f16/f32 and the integer types)."""
    return struct.unpack("<" + TYPES[t][1], raw)[0]


def is_nan(t: str, raw: bytes) -> bool:
    return TYPES[t][2] == "float" and math.isnan(as_float(t, raw))


def compare(op: str, a: float, b: float) -> bool:
    """IEEE compares: Python floats already give NaN → false except ne; -0 == +0."""
    return {"eq": a == b, "ne": a != b, "lt": a < b, "gt": a > b, "le": a <= b,
            "ge": a >= b}[op]


def arith(name: str, t: str, a: bytes, b: bytes) -> bytes:
    """One element of numpy arithmetic in T (integers wrap). Where both operands of an add,
    subtract or multiply are NaN the result is src0's NaN, quieted (docs/decisions.md: the
    payload must not depend on how many elements numpy processes at once)."""
    if name in ("vand", "vor"):
        x, y = int.from_bytes(a, "little"), int.from_bytes(b, "little")
        return (x & y if name == "vand" else x | y).to_bytes(len(a), "little")
    both_nan = TYPES[t][2] == "float" and is_nan(t, a) and is_nan(t, b)
    if both_nan and name in ("vadd", "vsub", "vmul", "vadds", "vmuls"):
        q = int.from_bytes(a, "little") | QUIET[size_of(t)]
        return q.to_bytes(size_of(t), "little")
    dt = TYPES[t][0]
    x = np.frombuffer(a, dt).copy()
    y = np.frombuffer(b, dt).copy()
    fn = {"vadd": np.add, "vadds": np.add, "vsub": np.subtract, "vmul": np.multiply,
          "vmuls": np.multiply, "vmax": np.maximum, "vmaxs": np.maximum, "vmin": np.minimum,
          "vmins": np.minimum}[name]
    with np.errstate(all="ignore"):
        return fn(x, y).astype(dt).tobytes()


def bits_lsb_first(data: bytes, nbits: int) -> list[int]:
    """Bit k of a bit stream is bit (k mod 8) of byte (k div 8)."""
    return [(data[k // 8] >> (k % 8)) & 1 for k in range(nbits)]


def pack_bits(bits: list[int]) -> bytes:
    out = bytearray((len(bits) + 7) // 8)
    for k, b in enumerate(bits):
        if b:
            out[k // 8] |= 1 << (k % 8)
    return bytes(out)


# -- parsing the generated subset -----------------------------------------------------------------
UB_RE = re.compile(r"\.ub\s+(\w+)\s+(\w+)\[(\d+)\]\s*@\s*(\w+)\s*(?:=\s*(.*))?$")


def init_bytes(t: str, count: int, text: str | None) -> bytes:
    """INIT forms of §4.1 used by the tests: zeros, fill, arange, [list], random(SEED),
    bits("HEX")."""
    dt = TYPES[t][0]
    if text is None or text == "zeros":
        return bytes(count * size_of(t))
    if text.startswith("bits("):
        return bytes.fromhex(text[text.index('"') + 1:text.rindex('"')])
    if text.startswith("fill("):
        return scalar_bytes(t, text[5:-1]) * count
    if text.startswith("["):
        items = [v for v in text[1:-1].split(",") if v.strip()]
        assert len(items) == count, "reference: list length"
        return b"".join(scalar_bytes(t, v) for v in items)
    if text.startswith("arange("):
        args = [float(v) if "." in v else int(v, 0) for v in text[7:-1].split(",")]
        start, step = args[0], args[1] if len(args) > 1 else 1
        return (start + step * np.arange(count)).astype(dt).tobytes()
    m = re.fullmatch(r"random\((\d+)\)", text)
    if not m:
        raise ValueError(f"reference: unsupported INIT {text!r}")
    rng = np.random.default_rng(int(m.group(1)))
    if TYPES[t][2] == "float":
        return rng.uniform(-100, 100, count).astype(dt).tobytes()
    info = np.iinfo(dt)
    lo, hi = max(int(info.min), -100), min(int(info.max), 100)
    return rng.integers(lo, hi, count, endpoint=True, dtype=dt).tobytes()


def split_operands(rest: str) -> tuple[list[str], dict[str, str]]:
    """Positional operands then KEY=VALUE fields (stride= takes the comma list after it)."""
    args: list[str] = []
    keys: dict[str, str] = {}
    parts = [p.strip() for p in rest.split(",")] if rest.strip() else []
    last = None
    for p in parts:
        if "=" in p:
            k, v = p.split("=", 1)
            last = k.strip().lower()
            keys[last] = v.strip()
        elif last == "stride":
            keys["stride"] += "," + p
        else:
            args.append(p)
    return args, keys


# -- the machine -----------------------------------------------------------------------------------
class Reference:
    def __init__(self) -> None:
        self.ub = bytearray(UB_BYTES)
        self.mask_hi = ONES
        self.mask_lo = ONES
        self.counter = False
        self.cmpmask = bytearray(CMPMASK_BYTES)
        self.tensors: dict[str, Tensor] = {}
        self.checks = "error"
        self.x = [0] * 32  # scalar registers (li only)

    # ---- program level ----
    def run(self, text: str, checks: str = "error") -> Reference:
        """Declarations first (with INITs, later declarations win), then the instructions in
        program order. Raises RefError on the first rejected instruction."""
        self.checks = checks
        instrs = []
        for lineno, raw in enumerate(text.splitlines(), 1):
            line = raw.split(";")[0].split("#")[0].strip()
            if not line:
                continue
            if line.startswith(".ub"):
                m = UB_RE.match(line)
                name, t, count, addr, init = m.groups()
                tensor = Tensor(name, t, int(count), int(addr, 0))
                self.tensors[name] = tensor
                data = init_bytes(t, tensor.count, init.strip() if init else None)
                self.ub[tensor.addr:tensor.addr + len(data)] = data
                continue
            if line.startswith(".chip"):
                ub_bytes, cmp_bytes = CHIPS[line.split()[1]]
                self.ub, self.cmpmask = bytearray(ub_bytes), bytearray(cmp_bytes)
                continue
            if line.startswith("."):
                continue
            head, _, rest = line.partition(" ")
            parts = head.lower().split(".")
            name = parts[0]
            src_t = None
            if name == "vconv" or name in binary_conv.NAMES:  # vconv.DST.SRC
                op, t, src_t = None, parts[1], parts[2]
            elif name in MIXED and len(parts) == 3:  # #27: vaxpy.f32.f16, vmla.f32.f16
                op, t, src_t = None, parts[1], parts[2]
            else:
                op = parts[1] if len(parts) == 3 else None
                t = parts[-1] if len(parts) >= 2 else None
            args, keys = split_operands(rest)
            instrs.append(Instr(lineno, name, op, t, args, keys, src_t))
        if checks == "error":
            for ins in instrs:
                self.static_rules(ins)
        for ins in instrs:
            self.execute(ins)
        return self

    def static_rules(self, ins: Instr) -> None:
        """The assembler's rules on constant operands (§9.2): alignment of every address
        operand (32 bytes; 16 for the CMPMASK moves) and a destination block stride of 0."""
        rules = set()
        align = 16 if ins.name in ("set_cmpmask", "get_cmpmask") else 32
        for text in ins.args:
            text = text.strip()
            if text.startswith("@") or re.fullmatch(r"[A-Za-z_]\w*(\[\d+\])?", text) and \
                    text.split("[")[0] in self.tensors:
                if self.operand(text).addr % align:
                    rules.add("align")
        if "dst" in self.strides_if_vector(ins) and self.strides(ins)["dst_blk"] == 0:
            rules.add("dst_blk0")
        if rules:
            raise RefError(ins.line, rules)

    def operand(self, text: str) -> Operand:
        text = text.strip()
        if text.startswith("@"):
            return Operand(int(text[1:], 0))
        m = re.fullmatch(r"(\w+)(?:\[(\d+)\])?", text)
        t = self.tensors[m.group(1)]
        idx = int(m.group(2)) if m.group(2) else 0
        return Operand(t.addr + idx * t.size, t)

    def execute(self, ins: Instr) -> None:
        name = ins.name
        if name == "set_vector_mask":
            self.mask_hi = int(ins.args[0], 0) & ONES
            self.mask_lo = int(ins.args[1], 0) & ONES
        elif name == "set_mask":  # API set_mask.T LEN (§8.3), decided at issue
            length = int(ins.args[0], 0)
            if self.counter:
                self.mask_hi, self.mask_lo = 0, length
            else:
                length = min(length, 256 // size_of(ins.t))
                self.mask_hi = (1 << max(length - 64, 0)) - 1
                self.mask_lo = (1 << min(length, 64)) - 1
        elif name == "set_mask_count":
            self.counter = True
        elif name == "set_mask_norm":
            self.counter = False
        elif name in ("set_cmpmask", "get_cmpmask"):
            self.cmpmask_move(ins)
        elif name == "copy_ub_to_ub":
            self.copy_ub_to_ub(ins)
        elif name == "nop":
            pass
        elif name == "li":
            self.x[int(ins.args[0][1:])] = int(ins.args[1], 0) % (1 << 64)
        elif name == "select":
            self.api_select(ins)
        else:
            self.vector(ins)

    # ---- §6.1 CMPMASK moves ----
    def cmpmask_move(self, ins: Instr) -> None:
        o = self.operand(ins.args[0])
        rules = set()
        if o.addr % 16:
            rules.add("align")
        if o.addr < 0 or o.addr + len(self.cmpmask) > len(self.ub):
            raise RefError(ins.line, rules | {"bounds"})
        if o.tensor is not None and o.addr + len(self.cmpmask) > o.tensor.end:
            rules.add("footprint")
        self.rule(ins, rules)
        if ins.name == "set_cmpmask":
            self.cmpmask[:] = self.ub[o.addr:o.addr + len(self.cmpmask)]
        else:
            self.ub[o.addr:o.addr + len(self.cmpmask)] = self.cmpmask

    # ---- §6.5 copy_ub_to_ub ----
    def copy_ub_to_ub(self, ins: Instr) -> None:
        dst, src = self.operand(ins.args[0]), self.operand(ins.args[1])
        nburst = int(ins.keys.get("nburst", "1"))
        burst = int(ins.keys["burst"])
        gaps = {"src": int(ins.keys.get("src_gap", "0")), "dst": int(ins.keys.get("dst_gap", "0"))}
        rules = set()
        for role, o in (("src", src), ("dst", dst)):
            last = o.addr + (nburst - 1) * (burst + gaps[role]) * 32 + burst * 32
            if o.addr % 32:
                rules.add("align")
            if o.addr < 0 or last > len(self.ub):
                raise RefError(ins.line, rules | {"bounds"})
            if o.tensor is not None and (o.addr < o.tensor.addr or last > o.tensor.end):
                rules.add("footprint")
        self.rule(ins, rules)
        for k in range(nburst):  # burst by burst, in order
            s = src.addr + k * (burst + gaps["src"]) * 32
            d = dst.addr + k * (burst + gaps["dst"]) * 32
            self.ub[d:d + burst * 32] = bytes(self.ub[s:s + burst * 32])

    def rule(self, ins: Instr, rules: set[str]) -> None:
        """--checks: the alignment, footprint and overlap rules are errors only with 'error'."""
        if rules and self.checks == "error":
            raise RefError(ins.line, rules)

    # ---- §5 address generation ----
    def strides(self, ins: Instr) -> dict[str, int]:
        """Block/repeat strides in blocks, per operand role, with the §4.2 defaults."""
        unary = ins.name in UNARY_STRIDED
        names = (("dst_blk", "src_blk", "dst_rep", "src_rep") if unary else
                 ("dst_blk", "src0_blk", "src1_blk", "dst_rep", "src0_rep", "src1_rep"))
        vals = [1, 1, 8, 8] if unary else [1, 1, 1, 8, 8, 8]
        if ins.name == "vconv":  # contiguous: each side's repeat stride is the blocks it covers
            wide = max(size_of(ins.t), size_of(ins.src_t))
            vals = [1, 1, 8 * size_of(ins.t) // wide, 8 * size_of(ins.src_t) // wide]
        if ins.name in MIXED and ins.src_t:  # and for the mixed forms (#27)
            wide = max(size_of(ins.t), size_of(ins.src_t))
            src_rep = 8 * size_of(ins.src_t) // wide
            vals = [1, 1, 8, src_rep] if unary else [1, 1, 1, 8, src_rep, src_rep]
        if ins.name in binary_conv.NAMES:  # the same for the binary conversions (#27)
            wide = max(size_of(ins.t), size_of(ins.src_t))
            src_rep = 8 * size_of(ins.src_t) // wide
            vals = [1, 1, 1, 8 * size_of(ins.t) // wide, src_rep, src_rep]
        if "stride" in ins.keys:
            vals = [int(v) for v in ins.keys["stride"].split(",")]
        out = dict(zip(names, vals, strict=True))
        for n in names:
            if n in ins.keys:
                out[n] = int(ins.keys[n])
        return out

    def strides_if_vector(self, ins: Instr) -> tuple[str, ...]:
        """The roles with strides of a strided instruction whose dst strides matter."""
        if ins.name in ("vcmpv", "vcmpvs", "vcmp"):
            return ()
        if ins.name in UNARY_STRIDED or ins.name in BINARY_STRIDED:
            return ("dst",)
        return ()

    @staticmethod
    def addr(base: int, size: int, blk: int, rep: int, i: int, k: int) -> int:
        """addr(i, j, e) = B + (i·r + j·b)·32 + e·sizeof(T), element k = (j, e)."""
        per_block = 32 // size
        j, e = divmod(k, per_block)
        return base + (i * rep + j * blk) * 32 + e * size

    def plan(self, ins: Instr, n: int) -> list[list[bool]]:
        """Per repeat, which of its N elements are active (§5)."""
        repeat = int(ins.keys.get("repeat", "1"))
        ignores_mask = ins.name in ("vcmpv", "vcmpvs")
        if self.counter:
            c = self.mask_lo & 0xFFFFFFFF
            if ins.name == "vcmp":
                return [[k < c for k in range(n)]] if c else []
            repeats = -(-c // n)
            if repeats > 255:
                raise RefError(ins.line, {"count"})
            if ignores_mask:
                return [[True] * n for _ in range(repeats)]
            return [[i * n + k < c for k in range(n)] for i in range(repeats)]
        if ins.name == "vcmp":
            repeat = 1  # vcmp: one repeat; the repeat field is ignored
        if ignores_mask:
            return [[True] * n for _ in range(repeat)]
        row = []
        for k in range(n):
            if n == 64:
                bit = (self.mask_lo >> k) & 1
            else:
                bit = (self.mask_lo >> k) & 1 if k < 64 else (self.mask_hi >> (k - 64)) & 1
            row.append(bool(bit))
        return [list(row) for _ in range(repeat)]

    # ---- §6.2–§6.4 repeat-driven vector instructions ----
    def vector(self, ins: Instr) -> None:
        t = ins.t
        size = size_of(t)
        n = 256 // max(size, size_of(ins.src_t)) if ins.src_t else 256 // size
        name = ins.name
        active = self.plan(ins, n)
        if not any(any(r) for r in active):
            return  # repeat 0, count 0 or MASK 0: a no-op
        st = self.strides(ins)
        mode = int(ins.keys.get("mode", "0"))
        ops = self.operands_of(ins, st, mode)
        scalar = None
        if name in SCALAR_OPS + ("vector_dup", "vcmpvs"):
            scalar = scalar_bytes(ins.src_t or t, ins.args[-1])  # a mixed form's: SRC
        # per repeat: the byte sets each operand reads / writes (for the checks)
        touched = self.touched(ins, ops, active, n, size)
        self.check(ins, ops, touched)
        sel_scalar = bytes(self.cmpmask[:size])  # vsel mode 1 "other"
        cmp_bits = bits_lsb_first(bytes(self.cmpmask), len(self.cmpmask) * 8)
        for i, act in enumerate(active):
            self.one_repeat(ins, ops, i, act, n, size, scalar, sel_scalar, cmp_bits, mode)

    def operands_of(self, ins: Instr, st: dict, mode: int) -> dict[str, dict]:
        """role → {addr, kind: vector|bits, blk, rep, tensor, write}."""
        name = ins.name
        args = ins.args
        ops: dict[str, dict] = {}

        def vec(role: str, text: str, blk: str, rep: str, write: bool = False) -> None:
            o = self.operand(text)
            ops[role] = {"addr": o.addr, "tensor": o.tensor, "kind": "vector",
                         "blk": st[blk], "rep": st[rep], "write": write}

        def bits(role: str, addr: int, tensor, write: bool = False) -> None:
            ops[role] = {"addr": addr, "tensor": tensor, "kind": "bits", "write": write}

        if name in BINARY or name == "vsel":
            vec("dst", args[0], "dst_blk", "dst_rep", True)
            vec("src0", args[1], "src0_blk", "src0_rep")
            if name == "vsel" and mode == 1:
                o = self.operand(args[2])  # the src1 slot holds the select-mask address
                bits("sel", o.addr, o.tensor)
            else:
                vec("src1", args[2], "src1_blk", "src1_rep")
            if name == "vsel" and mode == 2:
                bits("sel", int.from_bytes(self.cmpmask[:4], "little"), None)
        elif name == "vcmp":
            vec("src0", args[0], "src0_blk", "src0_rep")
            vec("src1", args[1], "src1_blk", "src1_rep")
        elif name == "vcmpv":
            o = self.operand(args[0])
            bits("dst", o.addr, o.tensor, True)
            vec("src0", args[1], "src0_blk", "src0_rep")
            vec("src1", args[2], "src1_blk", "src1_rep")
        elif name == "vcmpvs":
            o = self.operand(args[0])
            bits("dst", o.addr, o.tensor, True)
            vec("src", args[1], "src_blk", "src_rep")
        elif name == "vector_dup":
            vec("dst", args[0], "dst_blk", "dst_rep", True)
        elif name in SCALAR_OPS or name in ("vcopy", "vconv") + UNARY_BITS:
            vec("dst", args[0], "dst_blk", "dst_rep", True)
            vec("src", args[1], "src_blk", "src_rep")
            if name == "vconv":
                ops["src"]["size"] = size_of(ins.src_t)
        else:
            raise ValueError(f"reference: unsupported instruction {name}")
        if name in binary_conv.NAMES or (name in MIXED and ins.src_t):  # #27: of type SRC
            for role in ("src", "src0", "src1"):
                if role in ops:
                    ops[role]["size"] = size_of(ins.src_t)
        return ops

    def touched(self, ins: Instr, ops: dict, active: list[list[bool]], n: int, size: int
                ) -> dict[str, list[set[int]]]:
        """role → per repeat, the set of byte addresses the operand touches (§5: active elements
        only, except vcmpv/vcmpvs sources (all N) and bit streams (N/8 bytes per repeat))."""
        out = {}
        full_sources = ins.name in ("vcmpv", "vcmpvs")
        for role, o in ops.items():
            per = []
            for i, act in enumerate(active):
                s: set[int] = set()
                if o["kind"] == "bits":
                    start = o["addr"] + i * n // 8
                    s.update(range(start, start + n // 8))
                else:
                    for k in range(n):
                        if act[k] or (full_sources and not o["write"]):
                            sz = o.get("size", size)  # vconv's source has its own
                            a = self.addr(o["addr"], sz, o["blk"], o["rep"], i, k)
                            s.update(range(a, a + sz))
                per.append(s)
            out[role] = per
        return out

    def check(self, ins: Instr, ops: dict, touched: dict) -> None:
        """§9.2–§9.3 over the touched bytes: alignment, bounds, footprint, overlap."""
        rules: set[str] = set()
        for role, o in ops.items():
            if o["addr"] % 32:
                rules.add("align")
            allb = set().union(*touched[role])
            if allb and (min(allb) < 0 or max(allb) >= len(self.ub)):
                raise RefError(ins.line, rules | {"bounds"})
            tens = o["tensor"]
            if tens is not None and allb and (min(allb) < tens.addr or max(allb) >= tens.end):
                rules.add("footprint")
        if "dst" in ops and self.overlaps(ops, touched, size_of(ins.t) if ins.t else 1) and \
                not elementwise.accumulates(ins.name, ins.t, ops, touched):  # #27a
            rules.add("overlap")
        self.rule(ins, rules)

    @staticmethod
    def overlaps(ops: dict, touched: dict, size: int) -> bool:
        """§9.3: no repeat reads what an earlier repeat wrote; within a repeat a (dst, src)
        pair overlaps 100% (same start, same block stride, same element layout) or not at all.
        SIZE: the instruction's element size (vconv's source has its own: a narrowing or
        widening conversion in place is a partial overlap, docs/decisions.md)."""
        d, dbytes = ops["dst"], touched["dst"]
        written: set[int] = set()
        for i in range(len(dbytes)):
            for role, o in ops.items():
                if o["write"]:
                    continue
                sb = touched[role][i]
                if sb & written:
                    return True
                if sb & dbytes[i]:
                    same = (o["kind"] == d["kind"] == "vector" and o["blk"] == d["blk"]
                            and o.get("size", size) == d.get("size", size)
                            and o["addr"] + i * o["rep"] * 32 == d["addr"] + i * d["rep"] * 32)
                    if not same:
                        return True
            written |= dbytes[i]
        return False

    def load(self, o: dict, size: int, i: int, k: int) -> bytes:
        size = o.get("size", size)
        a = self.addr(o["addr"], size, o["blk"], o["rep"], i, k)
        return bytes(self.ub[a:a + size])

    def one_repeat(self, ins: Instr, ops: dict, i: int, act: list[bool], n: int, size: int,
                   scalar: bytes | None, sel_scalar: bytes, cmp_bits: list[int], mode: int
                   ) -> None:
        """Sequential model: a repeat reads all its sources, then writes its results."""
        name, t = ins.name, ins.t
        if name in ("vcmpv", "vcmpvs"):
            res = []
            for k in range(n):
                a = as_float(t, self.load(ops["src0" if name == "vcmpv" else "src"], size, i, k))
                b = (as_float(t, self.load(ops["src1"], size, i, k)) if name == "vcmpv"
                     else as_float(t, scalar))
                res.append(int(compare(ins.op, a, b)))
            start = ops["dst"]["addr"] + i * n // 8
            self.ub[start:start + n // 8] = pack_bits(res)
            return
        if name == "vcmp":
            for k in range(n):
                if act[k]:
                    a = as_float(t, self.load(ops["src0"], size, i, k))
                    b = as_float(t, self.load(ops["src1"], size, i, k))
                    r = compare(ins.op, a, b)
                    byte, bit = divmod(k, 8)
                    self.cmpmask[byte] = (self.cmpmask[byte] & ~(1 << bit)) | (int(r) << bit)
            return
        sel = None
        if name == "vsel":
            if mode == 0:
                sel = cmp_bits[:n]
            else:
                start = ops["sel"]["addr"] + i * n // 8
                sel = bits_lsb_first(bytes(self.ub[start:start + n // 8]), n)
        results: list[tuple[int, bytes]] = []
        for k in range(n):
            if not act[k]:
                continue  # inactive elements are not written
            if name == "vsel":
                a = self.load(ops["src0"], size, i, k)
                other = sel_scalar if mode == 1 else self.load(ops["src1"], size, i, k)
                v = a if sel[k] else other
            elif name in binary_conv.NAMES:  # #27: computed in SRC, converted to DST
                v = binary_conv.element(name, t, ins.src_t, self.load(ops["src0"], size, i, k),
                                        self.load(ops["src1"], size, i, k))
            elif name in MIXED and ins.src_t:  # #27: f16 values widened exactly to f32
                first = "src" if name == "vaxpy" else "src0"
                b = scalar if name == "vaxpy" else self.load(ops["src1"], size, i, k)
                v = binary_conv.mixed(name, t, ins.src_t, self.load(ops[first], size, i, k), b,
                                      self.load(ops["dst"], size, i, k))
            elif name in elementwise.MATH_BINARY:  # #27a
                v = elementwise.element(name, t, self.load(ops["src0"], size, i, k),
                                        self.load(ops["src1"], size, i, k),
                                        self.load(ops["dst"], size, i, k))
            elif name == "vshr" and ins.keys.get("round_en", "0") == "1":  # #27: roundEn
                v = shift_round.shift_right_round(t, self.load(ops["src"], size, i, k), scalar)
            elif name in elementwise.MATH_SCALAR + elementwise.MATH_UNARY:  # #27a
                v = elementwise.element(name, t, self.load(ops["src"], size, i, k), scalar,
                                        self.load(ops["dst"], size, i, k))
            elif name in BINARY:
                v = arith(name, t, self.load(ops["src0"], size, i, k),
                          self.load(ops["src1"], size, i, k))
            elif name in SCALAR_OPS:
                v = arith(name, t, self.load(ops["src"], size, i, k), scalar)
            elif name == "vector_dup":
                v = scalar
            elif name == "vconv":
                x = int.from_bytes(self.load(ops["src"], size, i, k), "little")
                mode = ins.keys.get("round", "none")
                v = convert_one(ins.src_t, t, x, mode).to_bytes(size, "little")
            elif name == "vabs":  # the sign bit cleared
                x = int.from_bytes(self.load(ops["src"], size, i, k), "little")
                v = (x & ((1 << (8 * size - 1)) - 1)).to_bytes(size, "little")
            elif name == "vnot":
                x = int.from_bytes(self.load(ops["src"], size, i, k), "little")
                v = (~x % (1 << (8 * size))).to_bytes(size, "little")
            else:  # vcopy
                v = self.load(ops["src"], size, i, k)
            d = ops["dst"]
            results.append((self.addr(d["addr"], size, d["blk"], d["rep"], i, k), v))
        for a, v in results:
            self.ub[a:a + size] = v


    # ---- §8.1 API-level select: what it computes, element by element ----
    def api_select(self, ins: Instr) -> None:
        """dst = sel bit ? src0 : src1 over the first COUNT elements (count=) or over REPEAT
        repeats of the MASK the mask key sets, each operand with its own strides (§5). A scalar
        operand (immediate or scalar(NAME[I])) stands for every element; mode 0 uses the first
        N(T) sel bits in every repeat, modes 1 and 2 consume sel contiguously."""
        t = ins.t
        size, mode = size_of(t), int(ins.keys.get("mode", "0"))
        n = 256 // size
        dst, sel = self.operand(ins.args[0]).addr, self.operand(ins.args[1]).addr
        srcs = [self.select_source(t, a) for a in ins.args[2:4]]
        places = self.select_places(ins, n, size, mode)
        need = max((b for group in places for b, _, _ in group), default=-1) + 1
        bits = bits_lsb_first(bytes(self.ub[sel:sel + (need + 7) // 8]), need)
        for group in places:  # one repeat (or the whole count form): read all, then write
            out = []
            for bit, d_off, offs in group:
                pick = 0 if bits[bit] else 1
                src = srcs[pick]
                v = src if isinstance(src, bytes) else bytes(
                    self.ub[src + offs[pick]:src + offs[pick] + size])
                out.append((dst + d_off, v))
            for a, v in out:
                self.ub[a:a + size] = v
        if "count" in ins.keys:  # the count form leaves normal mode, MASK all ones
            self.counter, self.mask_hi, self.mask_lo = False, ONES, ONES

    def select_source(self, t: str, text: str) -> bytes | int:
        """The raw bytes of a scalar (read now), or a tensor operand's base address."""
        m = re.fullmatch(r"scalar\((.+)\)", text.strip())
        if m:
            a = self.operand(m.group(1)).addr
            return bytes(self.ub[a:a + size_of(t)])
        if text.startswith("@") or text.split("[")[0].strip() in self.tensors:
            return self.operand(text).addr
        return scalar_bytes(t, text)

    def select_places(self, ins: Instr, n: int, size: int, mode: int) -> list[list[tuple]]:
        """Per repeat: (sel bit, dst byte offset, (src0 offset, src1 offset)) of each active
        element, in order."""
        if "count" in ins.keys:
            c = self.reg_or_int(ins.keys["count"])
            return [[(k if mode else k % n, k * size, (k * size, k * size)) for k in range(c)]]
        st = self.strides(ins)
        row = self.mask_row(ins, n)
        out = []
        for i in range(self.reg_or_int(ins.keys["repeat"])):
            group = []
            for k in range(n):
                if row[k]:
                    offs = tuple(self.addr(0, size, st[f"{r}_blk"], st[f"{r}_rep"], i, k)
                                 for r in ("src0", "src1"))
                    group.append((i * n + k if mode else k,
                                  self.addr(0, size, st["dst_blk"], st["dst_rep"], i, k), offs))
            out.append(group)
        return out

    def mask_row(self, ins: Instr, n: int) -> list[bool]:
        """The active elements of a repeat under the mask key; MASK keeps that value (§8.1)."""
        if "mask" in ins.keys:
            length = min(int(ins.keys["mask"], 0), n)
            self.mask_hi = (1 << max(length - 64, 0)) - 1
            self.mask_lo = (1 << min(length, 64)) - 1
        else:
            self.mask_hi = int(ins.keys.get("mask_hi", "0"), 0)
            self.mask_lo = int(ins.keys.get("mask_lo", "0"), 0)
        return [bool((self.mask_lo >> k) & 1 if k < 64 else (self.mask_hi >> (k - 64)) & 1)
                for k in range(n)]

    def reg_or_int(self, text: str) -> int:
        return self.x[int(text[1:])] if re.fullmatch(r"x\d+", text) else int(text, 0)


def run_reference(text: str, checks: str = "error") -> Reference:
    return Reference().run(text, checks)
