"""The instruction table: one record per mnemonic. Assembler, listing, decoder and the generated
ISA reference all read it (ISA.md §6–§8)."""

from __future__ import annotations

import attrs

from isa import families as F
from isa.families import Family

COMPARE_OPS = ("eq", "ne", "lt", "gt", "le", "ge")
PIPES = ("S", "V", "MTE2", "MTE3")
BARRIER_PIPES = ("V", "MTE2", "MTE3", "ALL")

BINARY_STRIDES = ("dst_blk", "src0_blk", "src1_blk", "dst_rep", "src0_rep", "src1_rep")
UNARY_STRIDES = ("dst_blk", "src_blk", "dst_rep", "src_rep")
BINARY_DEFAULT = (1, 1, 1, 8, 8, 8)
UNARY_DEFAULT = (1, 1, 8, 8)
U64 = (1 << 64) - 1


@attrs.frozen
class Key:
    """A keyword field: its range, default and whether a register may supply it (ISA.md §7)."""

    name: str
    lo: int
    hi: int
    default: int | None = None
    register: bool = False
    doc: str = ""


KEYS: dict[str, Key] = {k.name: k for k in (
    Key("repeat", 0, 255, 1, True, "repeat count R"),
    Key("mode", 0, 2, 0, False, "vsel mode"),
    Key("count", 0, (1 << 32) - 1, None, True, "element count (API first-n form)"),
    Key("mask", 0, 256, None, True, "contiguous mask length"),
    Key("mask_lo", 0, U64, None, True, "bitwise mask, low 64 bits"),
    Key("mask_hi", 0, U64, None, True, "bitwise mask, high 64 bits"),
    Key("nburst", 1, 4095, 1, True, "DMA bursts"),
    Key("burst", 1, 65535, None, True, "DMA burst length in 32-byte blocks"),
    Key("src_gap", 0, 65535, 0, True, "DMA source gap in blocks"),
    Key("dst_gap", 0, 65535, 0, True, "DMA destination gap in blocks"),
    *(Key(s, 0, 255, None, False, "block/repeat stride in 32-byte blocks")
      for s in sorted(set(BINARY_STRIDES + UNARY_STRIDES))),
)}
UNARY_BLK_MAX = 65535


@attrs.frozen
class InstrDef:
    """One mnemonic. `operands` are (role, kind) pairs; kinds are checked by the assembler.

    kinds: vec (UB vector operand), bits (UB bit-mask operand), cmpaddr (16-byte aligned UB),
    ub / gm (DMA ends), scalar (immediate of T), value (integer or register), pipe, bpipe,
    event, xreg, xsrc (register or immediate), label, elem (UB tensor element), len,
    vec_or_cmpmask, scalar_or_vec (950 flexible scalar position).
    """

    name: str
    operands: tuple[tuple[str, str], ...]
    family: Family  # the shape: pipe, operand roles, cost class, semantics (isa/families.py)
    level: str = "hw"  # hw | api | scalar
    has_op: bool = False
    typed: bool = False
    types: str = ""  # chip type family key ("select", "compare", "arith", "move")
    strides: str = ""  # binary | unary | ""
    keys: tuple[str, ...] = ()
    min_operands: int | None = None
    doc: str = ""

    @property
    def pipe(self) -> str:
        return self.family.pipe

    @property
    def role_names(self) -> tuple[str, ...]:
        return tuple(r for r, _ in self.operands)

    @property
    def stride_names(self) -> tuple[str, ...]:
        return {"binary": BINARY_STRIDES, "unary": UNARY_STRIDES}.get(self.strides, ())

    @property
    def stride_default(self) -> tuple[int, ...]:
        return {"binary": BINARY_DEFAULT, "unary": UNARY_DEFAULT}.get(self.strides, ())

    @property
    def allowed_keys(self) -> frozenset[str]:
        extra = ("stride",) + self.stride_names if self.strides else ()
        return frozenset(self.keys + extra)


_VEC3 = (("dst", "vec"), ("src0", "vec"), ("src1", "vec"))
_VS = (("dst", "vec"), ("src", "vec"), ("scalar", "scalar"))
_DMA = ("nburst", "burst", "src_gap", "dst_gap")
_APIMASK = ("mask", "mask_lo", "mask_hi")


def _binary(name: str, doc: str) -> InstrDef:
    return InstrDef(name, _VEC3, F.BINARY, typed=True, types="arith",
                    strides="binary", keys=("repeat",), doc=doc)


def _scalar_op(name: str, doc: str) -> InstrDef:
    return InstrDef(name, _VS, F.UNARY_SCALAR, typed=True, types="arith",
                    strides="unary", keys=("repeat",), doc=doc)


def _alu(name: str, doc: str) -> InstrDef:
    return InstrDef(name, (("d", "xreg"), ("a", "xreg"), ("b", "xsrc")), F.ALU,
                    level="scalar", doc=doc)


def _branch(name: str, doc: str) -> InstrDef:
    return InstrDef(name, (("a", "xreg"), ("b", "xsrc"), ("target", "label")), F.BRANCH,
                    level="scalar", doc=doc)


INSTRUCTIONS: dict[str, InstrDef] = {d.name: d for d in (
    # --- registers and control (§6.1)
    InstrDef("set_vector_mask", (("hi", "value"), ("lo", "value")), F.SET_MASK,
             doc="MASK_HI = HI, MASK_LO = LO"),
    InstrDef("set_mask_count", (), F.MASK_COUNT, doc="CTRL.mask_mode = count"),
    InstrDef("set_mask_norm", (), F.MASK_NORM, doc="CTRL.mask_mode = norm"),
    InstrDef("set_cmpmask", (("src", "cmpaddr"),), F.SET_CMPMASK,
             doc="CMPMASK = the 16 (32 on ascend950) bytes at SRC"),
    InstrDef("get_cmpmask", (("dst", "cmpaddr"),), F.GET_CMPMASK,
             doc="write CMPMASK to UB at DST"),
    InstrDef("nop", (), F.NOP, doc="nothing"),
    # --- select and compares (§6.2, §6.3)
    InstrDef("vsel", _VEC3, F.VSEL, typed=True, types="select", strides="binary",
             keys=("repeat", "mode"),
             doc="dst = sel ? src0 : other; mode 0 CMPMASK bits, 1 tensor/scalar, 2 tensor/tensor"),
    InstrDef("vcmp", (("src0", "vec"), ("src1", "vec")), F.VCMP, has_op=True,
             typed=True, types="compare", strides="binary", keys=("repeat",),
             doc="CMPMASK bit k = src0 OP src1 for active elements (one repeat)"),
    InstrDef("vcmpv", (("dst", "bits"), ("src0", "vec"), ("src1", "vec")), F.VCMPV,
             has_op=True, typed=True, types="compare", strides="binary",
             keys=("repeat",), doc="result bits to UB, contiguous; MASK ignored"),
    InstrDef("vcmpvs", (("dst", "bits"), ("src", "vec"), ("scalar", "scalar")), F.VCMPVS,
             has_op=True, typed=True, types="compare", strides="unary",
             keys=("repeat",), doc="result bits of src OP SCALAR to UB; MASK ignored"),
    # --- other vector instructions (§6.4)
    InstrDef("vector_dup", (("dst", "vec"), ("scalar", "scalar")), F.DUP,
             typed=True, types="move", strides="unary", keys=("repeat",), doc="dst = SCALAR"),
    _binary("vadd", "dst = src0 + src1"), _binary("vsub", "dst = src0 - src1"),
    _binary("vmul", "dst = src0 * src1"), _binary("vmax", "dst = max(src0, src1)"),
    _binary("vmin", "dst = min(src0, src1)"),
    _scalar_op("vadds", "dst = src + SCALAR"), _scalar_op("vmuls", "dst = src * SCALAR"),
    _scalar_op("vmaxs", "dst = max(src, SCALAR)"), _scalar_op("vmins", "dst = min(src, SCALAR)"),
    InstrDef("vcopy", (("dst", "vec"), ("src", "vec")), F.VCOPY, typed=True,
             types="move", strides="unary", keys=("repeat",), doc="dst = src (bit copy)"),
    # --- DMA (§6.5)
    InstrDef("copy_gm_to_ub", (("dst", "ub"), ("src", "gm")), F.DMA_GM_TO_UB,
             keys=_DMA, doc="GM → UB, nburst bursts of burst blocks"),
    InstrDef("copy_ub_to_gm", (("dst", "gm"), ("src", "ub")), F.DMA_UB_TO_GM,
             keys=_DMA, doc="UB → GM"),
    InstrDef("copy_ub_to_ub", (("dst", "ub"), ("src", "ub")), F.DMA_UB_TO_UB,
             keys=_DMA, doc="UB → UB on the vector pipe"),
    # --- synchronisation (§6.6)
    InstrDef("set_flag", (("src", "pipe"), ("dst", "pipe"), ("id", "event")), F.SET_FLAG_F,
             doc="fires when every earlier SRC instruction has completed"),
    InstrDef("wait_flag", (("src", "pipe"), ("dst", "pipe"), ("id", "event")), F.WAIT_FLAG_F,
             doc="blocks DST until the flag is set, then clears it"),
    InstrDef("pipe_barrier", (("pipe", "bpipe"),), F.BARRIER_F,
             doc="later instructions of PIPE wait until earlier ones complete"),
    # --- scalar unit (§7)
    InstrDef("li", (("d", "xreg"), ("imm", "imm")), F.LI, level="scalar", doc="xD = IMM"),
    InstrDef("mov", (("d", "xreg"), ("a", "xreg")), F.MOV, level="scalar", doc="xD = xS"),
    _alu("add", "xD = xA + B"), _alu("sub", "xD = xA - B"), _alu("mul", "xD = xA * B"),
    _alu("and", "xD = xA & B"), _alu("or", "xD = xA | B"), _alu("xor", "xD = xA ^ B"),
    _alu("shl", "xD = xA << (B & 63)"), _alu("shr", "xD = xA >> (B & 63), logical"),
    InstrDef("addr", (("d", "xreg"), ("elem", "elem")), F.ADDR, level="scalar",
             doc="xD = byte address of a UB tensor element"),
    _branch("beq", "branch if xA == B"), _branch("bne", "branch if xA != B"),
    _branch("blt", "branch if xA < B (signed)"), _branch("bge", "branch if xA >= B (signed)"),
    _branch("ble", "branch if xA <= B (signed)"), _branch("bgt", "branch if xA > B (signed)"),
    InstrDef("jmp", (("target", "label"),), F.JMP, level="scalar", doc="jump"),
    InstrDef("halt", (), F.HALT, level="scalar", doc="stop"),
    # --- API level (§8)
    InstrDef("select", (("dst", "vec"), ("sel", "bits"), ("src0", "scalar_or_vec"),
                        ("src1", "scalar_or_vec")), F.api("api_select"), level="api",
             typed=True, types="select", strides="binary",
             keys=("mode", "count", "repeat") + _APIMASK, min_operands=3,
             doc="AscendC Select: first-n (count=), high-dimensional (repeat= + mask), no-mask"),
    InstrDef("compare", (("dst", "vec_or_cmpmask"), ("src0", "vec"), ("src1", "vec")),
             F.api("api_compare"), level="api", has_op=True, typed=True, types="compare",
             strides="binary", keys=("count", "repeat") + _APIMASK,
             doc="AscendC Compare: to UB bits (count= or repeat=) or to CMPMASK"),
    InstrDef("compares", (("dst", "bits"), ("src", "vec"), ("scalar", "scalar")),
             F.api("api_compares"), level="api", has_op=True, typed=True, types="compare",
             strides="unary", keys=("count", "repeat") + _APIMASK,
             doc="AscendC Compares: src OP SCALAR to UB bits"),
    InstrDef("duplicate", (("dst", "vec"), ("scalar", "scalar")), F.api("api_duplicate"),
             level="api", typed=True, types="move", keys=("count",),
             doc="AscendC Duplicate, first-n form"),
    InstrDef("set_mask", (("len", "value"),), F.API_SET_MASK, level="api", typed=True,
             doc="set_vector_mask by the contiguous rule"),
    InstrDef("get_cmp_mask", (("dst", "cmpaddr"),), F.api("api_get_cmp_mask"), level="api",
             doc="AscendC GetCmpMask → get_cmpmask"),
    InstrDef("set_cmp_mask", (("src", "cmpaddr"),), F.api("api_set_cmp_mask"), level="api",
             doc="AscendC SetCmpMask → set_cmpmask"),
)}


def register(defn: InstrDef) -> InstrDef:
    """Add an instruction to the table: the assembler, listing, decoder, reference and timing
    all find it there (a made-up family in a test, or a plug-in)."""
    INSTRUCTIONS[defn.name] = defn
    return defn


def cost_classes() -> tuple[str, ...]:
    """The timing cost classes the profiles must define: those of everything issued to V."""
    return tuple(dict.fromkeys(c for d in INSTRUCTIONS.values() if d.level != "api"
                               and d.family.pipe == "V" for c in d.family.cost_classes()))


def type_families() -> tuple[str, ...]:
    """The chip type-family keys the table names (InstrDef.types)."""
    return tuple(dict.fromkeys(d.types for d in INSTRUCTIONS.values() if d.types))
