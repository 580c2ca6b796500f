"""The instruction table: one record per mnemonic. Assembler, listing, decoder and the generated
ISA reference all read it (ISA.md §6–§8)."""

from __future__ import annotations

import attrs

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
    pipe: str  # S, V, MTE2, MTE3, or "flag" (the queue named by the SRC/DST operand)
    family: str  # semantics family
    cost: str = ""  # timing class key
    level: str = "hw"  # hw | api | scalar
    has_op: bool = False
    typed: bool = False
    types: str = ""  # chip type family key ("select", "compare", "arith", "move")
    strides: str = ""  # binary | unary | ""
    keys: tuple[str, ...] = ()
    min_operands: int | None = None
    doc: str = ""

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
    return InstrDef(name, _VEC3, "V", "binary", "binary", typed=True, types="arith",
                    strides="binary", keys=("repeat",), doc=doc)


def _scalar_op(name: str, doc: str) -> InstrDef:
    return InstrDef(name, _VS, "V", "unary_scalar", "unary_scalar", typed=True, types="arith",
                    strides="unary", keys=("repeat",), doc=doc)


def _alu(name: str, doc: str) -> InstrDef:
    return InstrDef(name, (("d", "xreg"), ("a", "xreg"), ("b", "xsrc")), "S", "alu",
                    level="scalar", doc=doc)


def _branch(name: str, doc: str) -> InstrDef:
    return InstrDef(name, (("a", "xreg"), ("b", "xsrc"), ("target", "label")), "S", "branch",
                    level="scalar", doc=doc)


INSTRUCTIONS: dict[str, InstrDef] = {d.name: d for d in (
    # --- registers and control (§6.1)
    InstrDef("set_vector_mask", (("hi", "value"), ("lo", "value")), "S", "set_mask",
             doc="MASK_HI = HI, MASK_LO = LO"),
    InstrDef("set_mask_count", (), "S", "mask_mode", doc="CTRL.mask_mode = count"),
    InstrDef("set_mask_norm", (), "S", "mask_mode", doc="CTRL.mask_mode = norm"),
    InstrDef("set_cmpmask", (("src", "cmpaddr"),), "V", "set_cmpmask", "cmpmask_move",
             doc="CMPMASK = the 16 (32 on ascend950) bytes at SRC"),
    InstrDef("get_cmpmask", (("dst", "cmpaddr"),), "V", "get_cmpmask", "cmpmask_move",
             doc="write CMPMASK to UB at DST"),
    InstrDef("nop", (), "S", "nop", doc="nothing"),
    # --- select and compares (§6.2, §6.3)
    InstrDef("vsel", _VEC3, "V", "vsel", "vsel", typed=True, types="select", strides="binary",
             keys=("repeat", "mode"),
             doc="dst = sel ? src0 : other; mode 0 CMPMASK bits, 1 tensor/scalar, 2 tensor/tensor"),
    InstrDef("vcmp", (("src0", "vec"), ("src1", "vec")), "V", "vcmp", "vcmp", has_op=True,
             typed=True, types="compare", strides="binary", keys=("repeat",),
             doc="CMPMASK bit k = src0 OP src1 for active elements (one repeat)"),
    InstrDef("vcmpv", (("dst", "bits"), ("src0", "vec"), ("src1", "vec")), "V", "vcmpv",
             "vcmpv", has_op=True, typed=True, types="compare", strides="binary",
             keys=("repeat",), doc="result bits to UB, contiguous; MASK ignored"),
    InstrDef("vcmpvs", (("dst", "bits"), ("src", "vec"), ("scalar", "scalar")), "V", "vcmpvs",
             "vcmpvs", has_op=True, typed=True, types="compare", strides="unary",
             keys=("repeat",), doc="result bits of src OP SCALAR to UB; MASK ignored"),
    # --- other vector instructions (§6.4)
    InstrDef("vector_dup", (("dst", "vec"), ("scalar", "scalar")), "V", "dup", "dup",
             typed=True, types="move", strides="unary", keys=("repeat",), doc="dst = SCALAR"),
    _binary("vadd", "dst = src0 + src1"), _binary("vsub", "dst = src0 - src1"),
    _binary("vmul", "dst = src0 * src1"), _binary("vmax", "dst = max(src0, src1)"),
    _binary("vmin", "dst = min(src0, src1)"),
    _scalar_op("vadds", "dst = src + SCALAR"), _scalar_op("vmuls", "dst = src * SCALAR"),
    _scalar_op("vmaxs", "dst = max(src, SCALAR)"), _scalar_op("vmins", "dst = min(src, SCALAR)"),
    InstrDef("vcopy", (("dst", "vec"), ("src", "vec")), "V", "vcopy", "copy", typed=True,
             types="move", strides="unary", keys=("repeat",), doc="dst = src (bit copy)"),
    # --- DMA (§6.5)
    InstrDef("copy_gm_to_ub", (("dst", "ub"), ("src", "gm")), "MTE2", "dma", "mte2",
             keys=_DMA, doc="GM → UB, nburst bursts of burst blocks"),
    InstrDef("copy_ub_to_gm", (("dst", "gm"), ("src", "ub")), "MTE3", "dma", "mte3",
             keys=_DMA, doc="UB → GM"),
    InstrDef("copy_ub_to_ub", (("dst", "ub"), ("src", "ub")), "V", "dma", "copy",
             keys=_DMA, doc="UB → UB on the vector pipe"),
    # --- synchronisation (§6.6)
    InstrDef("set_flag", (("src", "pipe"), ("dst", "pipe"), ("id", "event")), "flag",
             "set_flag", doc="fires when every earlier SRC instruction has completed"),
    InstrDef("wait_flag", (("src", "pipe"), ("dst", "pipe"), ("id", "event")), "flag",
             "wait_flag", doc="blocks DST until the flag is set, then clears it"),
    InstrDef("pipe_barrier", (("pipe", "bpipe"),), "flag", "barrier",
             doc="later instructions of PIPE wait until earlier ones complete"),
    # --- scalar unit (§7)
    InstrDef("li", (("d", "xreg"), ("imm", "imm")), "S", "li", level="scalar", doc="xD = IMM"),
    InstrDef("mov", (("d", "xreg"), ("a", "xreg")), "S", "mov", level="scalar", doc="xD = xS"),
    _alu("add", "xD = xA + B"), _alu("sub", "xD = xA - B"), _alu("mul", "xD = xA * B"),
    _alu("and", "xD = xA & B"), _alu("or", "xD = xA | B"), _alu("xor", "xD = xA ^ B"),
    _alu("shl", "xD = xA << (B & 63)"), _alu("shr", "xD = xA >> (B & 63), logical"),
    InstrDef("addr", (("d", "xreg"), ("elem", "elem")), "S", "addr", level="scalar",
             doc="xD = byte address of a UB tensor element"),
    _branch("beq", "branch if xA == B"), _branch("bne", "branch if xA != B"),
    _branch("blt", "branch if xA < B (signed)"), _branch("bge", "branch if xA >= B (signed)"),
    _branch("ble", "branch if xA <= B (signed)"), _branch("bgt", "branch if xA > B (signed)"),
    InstrDef("jmp", (("target", "label"),), "S", "jmp", level="scalar", doc="jump"),
    InstrDef("halt", (), "S", "halt", level="scalar", doc="stop"),
    # --- API level (§8)
    InstrDef("select", (("dst", "vec"), ("sel", "bits"), ("src0", "scalar_or_vec"),
                        ("src1", "scalar_or_vec")), "V", "api_select", level="api",
             typed=True, types="select", strides="binary",
             keys=("mode", "count", "repeat") + _APIMASK, min_operands=3,
             doc="AscendC Select: first-n (count=), high-dimensional (repeat= + mask), no-mask"),
    InstrDef("compare", (("dst", "vec_or_cmpmask"), ("src0", "vec"), ("src1", "vec")), "V",
             "api_compare", level="api", has_op=True, typed=True, types="compare",
             strides="binary", keys=("count", "repeat") + _APIMASK,
             doc="AscendC Compare: to UB bits (count= or repeat=) or to CMPMASK"),
    InstrDef("compares", (("dst", "bits"), ("src", "vec"), ("scalar", "scalar")), "V",
             "api_compares", level="api", has_op=True, typed=True, types="compare",
             strides="unary", keys=("count", "repeat") + _APIMASK,
             doc="AscendC Compares: src OP SCALAR to UB bits"),
    InstrDef("duplicate", (("dst", "vec"), ("scalar", "scalar")), "V", "api_duplicate",
             level="api", typed=True, types="move", keys=("count",),
             doc="AscendC Duplicate, first-n form"),
    InstrDef("set_mask", (("len", "value"),), "S", "api_set_mask", level="api", typed=True,
             doc="set_vector_mask by the contiguous rule"),
    InstrDef("get_cmp_mask", (("dst", "cmpaddr"),), "V", "api_get_cmp_mask", level="api",
             doc="AscendC GetCmpMask → get_cmpmask"),
    InstrDef("set_cmp_mask", (("src", "cmpaddr"),), "V", "api_set_cmp_mask", level="api",
             doc="AscendC SetCmpMask → set_cmpmask"),
)}
