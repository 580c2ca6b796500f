"""The instruction table: one record per mnemonic. Assembler, listing, decoder and the generated
ISA reference all read it (docs/semantics.md §6–§8)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import NamedTuple

from isa import families as F
from isa import regvec as RV
from isa import regvec_convert as RVC
from isa import regvec_data as RVD
from isa.families import Family
from isa.types import ROUND_MODES

COMPARE_OPS = ("eq", "ne", "lt", "gt", "le", "ge")
PIPES = ("S", "V", "MTE2", "MTE3")
BARRIER_PIPES = ("V", "MTE2", "MTE3", "ALL")

BINARY_STRIDES = ("dst_blk", "src0_blk", "src1_blk", "dst_rep", "src0_rep", "src1_rep")
UNARY_STRIDES = ("dst_blk", "src_blk", "dst_rep", "src_rep")
BINARY_DEFAULT = (1, 1, 1, 8, 8, 8)
UNARY_DEFAULT = (1, 1, 8, 8)
U64 = (1 << 64) - 1
ND_DIMS = 5  # NDDMA's loops (#34)
ATOMIC_OPS = ("none", "add", "max", "min")  # set_atomic: what a UB → GM copy does to GM


class Key(NamedTuple):
    """A keyword field: its range, default and whether a register may supply it (docs/semantics.md
    §7). A NamedTuple: built only here, at import, where an attrs class costs start-up."""

    name: str
    lo: int
    hi: int
    default: int | None = None
    register: bool = False
    doc: str = ""
    words: tuple[str, ...] = ()  # a word-valued key (round=rint): the value is the word's index
    scalar: bool = False  # a scalar of the instruction's type (pad_value=1.5): its raw bits


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
    Key("round", 0, len(ROUND_MODES) - 1, 0, False, "round mode: " + " ".join(ROUND_MODES),
        words=ROUND_MODES),
    Key("len", 1, (1 << 21) - 1, None, True, "padded DMA burst length in bytes"),
    Key("left_pad", 0, 32, 0, True, "padded DMA: elements of pad_value before each burst"),
    Key("right_pad", 0, 32, 0, True, "padded DMA: elements of pad_value after each burst"),
    Key("compact", 0, 1, 0, False, "padded DMA GM → UB, ascend950's PaddingMode::Compact: the "
        "bursts packed back to back in UB, pad_value after the last one up to a 32-byte "
        "boundary (left_pad, right_pad and dst_gap not in effect)"),
    Key("pad_value", 0, U64, None, False, "padded DMA: the padding element, a scalar of T "
        "(none: the left padding is not written, the bytes after the data repeat its first "
        "element)", scalar=True),
    # GM atomics (issue #27): the operation UB → GM copies apply (none: keep the one in force)
    Key("atomic", 0, len(ATOMIC_OPS) - 1, None, False, "GM atomic operation: "
        + " ".join(ATOMIC_OPS), words=ATOMIC_OPS),
    # issue 28 (28b): gathers and layout shapes
    Key("pattern", 0, 7, 0, False, "GatherMask pattern: 0 the bits of src1, 1-7 built in "
        "(1 even, 2 odd elements, 3-6 element 0-3 of each four, 7 all)"),
    Key("base", 0, (1 << 32) - 1, 0, False, "Gather: bytes added to src's address"),
    Key("dst_high", 0, 1, 0, False, "TransDataTo5HD 8-bit: write the high half of each block"),
    Key("src_high", 0, 1, 0, False, "TransDataTo5HD 8-bit: read the high half of each block"),
    # #27/#29 (h27dq): CastDequant's template flags (AscendC's defaults: true, true) and
    # SetDeqScale(float scale, int16_t offset, bool signMode)'s last two
    Key("half_block", 0, 1, 1, False, "CastDequant b8: 1 the results in each block's high half"),
    Key("vec_deq", 0, 1, 1, False, "CastDequant b8: 1 the 16 parameter words of the vdeq table"),
    Key("deq_offset", -256, 255, 0, False, "SetDeqScale: the s9 offset (int16_t: its 9 low "
        "bits)"),
    Key("sign", 0, 1, 0, False, "SetDeqScale: signMode (1: int8_t results, 0: uint8_t)"),
    *(Key(s, 0, 255, None, False, "block/repeat stride in 32-byte blocks")
      for s in sorted(set(BINARY_STRIDES + UNARY_STRIDES))),
    Key("order", 0, len(F.REDUCE_ORDERS) - 1, 0, False, "vcmax/vcmin result: "
        + " ".join(F.REDUCE_ORDERS) + " (AscendC ReduceOrder)", words=F.REDUCE_ORDERS),
    Key("repeats", 0, (1 << 31) - 1, None, False, "ReduceMax/Min/Sum repeats (any number: "
        "the expansion chunks them)"),
    Key("index", 0, 1, 0, False, "ReduceMax/Min: 1 also returns the index (calIndex)"),
    Key("runs", 0, 1, 0, False, "ReduceSum repeats=: 1 is TIK vec_reduce_add's order (A2/A3: "
        "the repeat sums in order within runs of 255, the runs' sums by a tree)"),
    Key("tmp_a", 0, 31, None, True, "ReduceMax/Min index=1: a scalar register the index walk "
        "may use"),
    Key("tmp_b", 0, 31, None, True, "ReduceMax/Min index=1: a second scalar register"),
    # #27: AscendC ShiftRight's roundEn (the high-dimensional forms)
    Key("round_en", 0, 1, 0, False, "vshr: 1 adds the last bit shifted out (s16/s32; AscendC "
        "ShiftRight roundEn)"),
    # issue 28 item 5: Transpose's TransposeParamsExt shape (uint16_t fields)
    *(Key(f"{d}size", 0, 65535, 0, False, f"Transpose NCHW <-> NHWC: the {d.upper()} axis "
          "length") for d in "nchw"),
    # #34: ascend950's NDDMA (copy_gm_to_ub_nd): loop K's size, strides and padding, in elements
    *(k for d in range(ND_DIMS) for k in (
        Key(f"size{d}", 1, (1 << 20) - 1, 1, True, f"NDDMA: loop {d}'s data elements"),
        Key(f"src_stride{d}", 0, (1 << 40) - 1, 0, True, f"NDDMA: loop {d}'s source stride in "
            "elements"),
        Key(f"dst_stride{d}", 0, (1 << 20) - 1, 0, True, f"NDDMA: loop {d}'s destination stride "
            "in elements"),
        Key(f"lp{d}", 0, 255, 0, True, f"NDDMA: loop {d}'s left padding in elements"),
        Key(f"rp{d}", 0, 255, 0, True, f"NDDMA: loop {d}'s right padding in elements"))),
    Key("nearest", 0, 1, 0, False, "NDDMA: 1 pads with each loop's nearest element, 0 with "
        "pad_value"),
)}
UNARY_BLK_MAX = 65535


class StrideLayout(NamedTuple):
    """The stride fields of a shape of vector instruction: their names in `stride=` order (each
    a KEYS entry), their defaults, and the largest block stride the encoding holds."""

    name: str
    names: tuple[str, ...]
    default: tuple[int, ...]
    blk_max: int = 255
    rep_max: int = 255  # the largest repeat stride (TransDataTo5HD's: 16 bits)


# the reductions: dst_rep counts whole results of a repeat (a reduction's packed dst), the
# source's strides are the unary ones
REDUCE_STRIDES = ("dst_rep", "src_blk", "src_rep")
REDUCE_DEFAULT = (1, 1, 8)
LAYOUTS: dict[str, StrideLayout] = {s.name: s for s in (
    StrideLayout("binary", BINARY_STRIDES, BINARY_DEFAULT),
    StrideLayout("unary", UNARY_STRIDES, UNARY_DEFAULT, UNARY_BLK_MAX),
    StrideLayout("reduce", REDUCE_STRIDES, REDUCE_DEFAULT),
    # issue 28 (28b): GatherMask's src0 block/repeat strides and its pattern rows' stride
    StrideLayout("gathermask", ("src0_blk", "src0_rep", "src1_rep"), (1, 8, 1)),
    StrideLayout("brcb", ("dst_blk", "dst_rep"), (1, 8), UNARY_BLK_MAX),
    StrideLayout("gather", ("dst_rep",), (8,)),
    StrideLayout("trans5hd", ("dst_rep", "src_rep"), (0, 0), rep_max=65535),
    StrideLayout("gatherb", ("dst_blk", "dst_rep"), (1, 8)),  # issue 28: Gatherb's dst
)}


class InstrDef(NamedTuple):
    """One mnemonic. `operands` are (role, kind) pairs; kinds are checked by the assembler.

    kinds: vec (UB vector operand), bits (UB bit-mask operand), cmpaddr (16-byte aligned UB),
    ub / gm (DMA ends), scalar (immediate of T), value (integer or register), pipe, bpipe,
    event, xreg, xsrc (register or immediate), label, elem (UB tensor element), selem (a UB
    element, or a GM one on chips with scalar_gm), len,
    vec_or_cmpmask, scalar_or_vec (950 flexible scalar position), elemaddr (a gather's
    source: element-aligned).
    """

    name: str
    operands: tuple[tuple[str, str], ...]
    family: Family  # the shape: pipe, operand roles, cost class, semantics (isa/families.py)
    level: str = "hw"  # hw | api | scalar
    has_op: bool = False
    typed: bool = False
    src_typed: bool = False  # two type modifiers, DST.SRC (vconv.f16.f32)
    types: str = ""  # chip type family key ("select", "compare", "arith", "move")
    strides: str | StrideLayout = ""  # a LAYOUTS name (binary, unary), a StrideLayout, or none
    keys: tuple[str, ...] = ()
    min_operands: int | None = None
    doc: str = ""
    hw: str = ""  # an API statement's hardware instruction, where its expansion is one (isa/api.py)
    # a chip [types] key of DST.SRC pairs the row also takes with a second type modifier (#27:
    # Axpy / MulAddDst half → float, `vaxpy.f32.f16`); "" for rows of one type
    src_pairs: str = ""

    @property
    def pipe(self) -> str:
        return self.family.pipe

    @property
    def role_names(self) -> tuple[str, ...]:
        return tuple(r for r, _ in self.operands)

    @property
    def stride_layout(self) -> StrideLayout | None:
        s = self.strides
        return LAYOUTS.get(s) if isinstance(s, str) else s

    @property
    def stride_names(self) -> tuple[str, ...]:
        layout = self.stride_layout
        return layout.names if layout is not None else ()

    @property
    def stride_default(self) -> tuple[int, ...]:
        layout = self.stride_layout
        return layout.default if layout is not None else ()

    @property
    def allowed_keys(self) -> frozenset[str]:
        extra = ("stride",) + self.stride_names if self.strides else ()
        return frozenset(self.keys + extra)


_VEC3 = (("dst", "vec"), ("src0", "vec"), ("src1", "vec"))
_VS = (("dst", "vec"), ("src", "vec"), ("scalar", "scalar"))
_DMA = ("nburst", "burst", "src_gap", "dst_gap")
_APIMASK = ("mask", "mask_lo", "mask_hi")
_VEC2 = (("dst", "vec"), ("src", "vec"))
_PAD_IN = ("nburst", "len", "src_gap", "dst_gap", "left_pad", "right_pad", "pad_value",
           "compact")
_PAD_OUT = ("nburst", "len", "src_gap", "dst_gap")
# NDDMA's loop keys (#34), loop by loop
ND_KEYS = tuple(f"{k}{d}" for d in range(ND_DIMS) for k in ("size", "src_stride", "dst_stride",
                                                            "lp", "rp")) + ("nearest",)
_ND = ND_KEYS + ("pad_value",)
_FLEX = (("dst", "vec"), ("src0", "scalar_or_vec"), ("src1", "scalar_or_vec"))  # #27: Ands …


def _binary(name: str, doc: str, types: str = "arith") -> InstrDef:
    return InstrDef(name, _VEC3, F.BINARY, typed=True, types=types,
                    strides="binary", keys=("repeat",), doc=doc)


def _unary(name: str, types: str, doc: str) -> InstrDef:
    return InstrDef(name, _VEC2, F.UNARY, typed=True, types=types, strides="unary",
                    keys=("repeat",), doc=doc)


def _api_elementwise(name: str, operands, family: str, types: str, strides: str,
                     doc: str, hw: str = "") -> InstrDef:
    """An elementwise API statement: its hardware instruction is HW, by default the mnemonic
    with a v."""
    return InstrDef(name, operands, F.api(family), level="api", typed=True, types=types,
                    strides=strides, keys=("count", "repeat") + _APIMASK, doc=doc,
                    hw=hw or f"v{name}")


def _scalar_op(name: str, doc: str) -> InstrDef:
    return InstrDef(name, _VS, F.UNARY_SCALAR, typed=True, types="arith",
                    strides="unary", keys=("repeat",), doc=doc)


def _alu(name: str, doc: str) -> InstrDef:
    return InstrDef(name, (("d", "xreg"), ("a", "xreg"), ("b", "xsrc")), F.ALU,
                    level="scalar", doc=doc)


_ALU3 = (("d", "xreg"), ("a", "xreg"), ("b", "xsrc"))


def _branch(name: str, doc: str) -> InstrDef:
    return InstrDef(name, (("a", "xreg"), ("b", "xsrc"), ("target", "label")), F.BRANCH,
                    level="scalar", doc=doc)


INSTRUCTIONS: dict[str, InstrDef] = {d.name: d for d in (
    # --- registers and control (§6.1)
    InstrDef("set_vector_mask", (("hi", "value"), ("lo", "value")), F.SET_MASK,
             doc="MASK_HI = HI, MASK_LO = LO"),
    InstrDef("set_mask_count", (), F.MASK_COUNT, doc="CTRL.mask_mode = count"),
    InstrDef("set_mask_norm", (), F.MASK_NORM, doc="CTRL.mask_mode = norm"),
    # GM atomics (issue #27)
    InstrDef("set_atomic", (), F.SET_ATOMIC, typed=True, types="atomic", keys=("atomic",),
             doc="UB → GM copies that follow combine each element of T with GM's (atomic=add, "
             "max, min) or overwrite it (atomic=none); without atomic= only the type changes"),
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
    _binary("vand", "dst = src0 & src1 (bitwise)", "bitwise"),
    _binary("vor", "dst = src0 | src1 (bitwise)", "bitwise"),
    # #27 (h27c): ascend950's tensor-count shifts (ShiftLeft/ShiftRight with a LocalTensor count)
    InstrDef("vshlv", _VEC3, F.SHIFT_TENSOR, typed=True, types="shift_tensor", strides="binary",
             keys=("repeat",), doc="dst = src0 << src1, src1 a signed count of T's width, per "
             "element (signed T: the sign bit stays; counts <0 or >= the width: every bit out)"),
    InstrDef("vshrv", _VEC3, F.SHIFT_TENSOR, typed=True, types="shift_tensor", strides="binary",
             keys=("repeat",), doc="dst = src0 >> src1, src1 a signed count of T's width, per "
             "element, arithmetic for signed T (counts <0 or >= the width: every bit out, the "
             "sign fills)"),
    _unary("vnot", "bitwise", "dst = ~src (bitwise)"),
    _unary("vabs", "abs", "dst = |src|: the sign bit cleared (NaN payloads kept)"),
    InstrDef("vconv", _VEC2, F.VCONV, typed=True, src_typed=True, types="conv",
             strides="unary", keys=("repeat", "round"),
             doc="dst = src converted from SRC to DST in the round mode; a repeat covers 256 "
             "bytes of the wider operand, each operand's strides count its own 32-byte blocks"),
    # --- DMA (§6.5)
    InstrDef("copy_gm_to_ub", (("dst", "ub"), ("src", "gm")), F.DMA_GM_TO_UB,
             keys=_DMA, doc="GM → UB, nburst bursts of burst blocks"),
    InstrDef("copy_ub_to_gm", (("dst", "gm"), ("src", "ub")), F.DMA_UB_TO_GM,
             keys=_DMA, doc="UB → GM"),
    InstrDef("copy_ub_to_ub", (("dst", "ub"), ("src", "ub")), F.DMA_UB_TO_UB,
             keys=_DMA, doc="UB → UB on the vector pipe"),
    InstrDef("copy_gm_to_ub_pad", (("dst", "ub"), ("src", "gm")), F.DMA_PAD_GM_TO_UB,
             typed=True, types="pad", keys=_PAD_IN,
             doc="GM → UB byte-granular (AscendC DataCopyPad): each of nburst bursts reads len "
             "bytes of GM (bursts len + src_gap bytes apart) and writes left_pad elements of "
             "pad_value, the data, then right_pad elements; the next burst starts at the next "
             "32-byte block plus dst_gap blocks (compact=1: right after the previous one)"),
    InstrDef("copy_ub_to_gm_pad", (("dst", "gm"), ("src", "ub")), F.DMA_PAD_UB_TO_GM,
             typed=True, types="pad", keys=_PAD_OUT,
             doc="UB → GM byte-granular (AscendC DataCopyPad): each burst writes len bytes to "
             "GM (bursts len + dst_gap bytes apart); in UB the next burst starts at the next "
             "32-byte block plus src_gap blocks"),
    # #34: ascend950's multi-dimensional DMA (DataCopy with NdDmaParams, asc_ndim_copy_gm2ub)
    InstrDef("copy_gm_to_ub_nd", (("dst", "ub"), ("src", "gm")), F.DMA_ND_GM_TO_UB,
             typed=True, types="nddma", keys=_ND,
             doc="GM → UB in up to 5 nested loops (NDDMA, loop 0 innermost): loop k runs lpK + "
             "sizeK + rpK positions; position i writes dst element sum(i_k·dst_strideK) with "
             "src element sum((i_k - lpK)·src_strideK), or on the padding pad_value (nearest=1: "
             "each loop's index clamped into its data); strides in elements"),
    # --- synchronisation (§6.6)
    InstrDef("set_flag", (("src", "pipe"), ("dst", "pipe"), ("id", "event")), F.SET_FLAG_F,
             doc="fires when every earlier SRC instruction has completed"),
    InstrDef("wait_flag", (("src", "pipe"), ("dst", "pipe"), ("id", "event")), F.WAIT_FLAG_F,
             doc="blocks DST until the flag is set, then clears it"),
    InstrDef("pipe_barrier", (("pipe", "bpipe"),), F.BARRIER_F,
             doc="later instructions of PIPE wait until earlier ones complete"),
    InstrDef("mutex_lock", (("pipe", "pipe"), ("id", "mutex")), F.LOCK_F,
             doc="Ascend 950 Mutex::Lock: later PIPE instructions wait until the mutex ID's "
             "last unlock by another pipe has fired (no wait when PIPE unlocked it last)"),
    InstrDef("mutex_unlock", (("pipe", "pipe"), ("id", "mutex")), F.UNLOCK_F,
             doc="Ascend 950 Mutex::Unlock: fires when every earlier PIPE instruction has "
             "completed, freeing the mutex ID for the next pipe that locks it"),
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
    # --- #29 scalar unit: division, UB loads/stores, float registers (§7.1)
    InstrDef("div", _ALU3, F.DIV, level="scalar",
             doc="xD = xA / B, signed, truncated toward zero (B = 0: a run-time error)"),
    InstrDef("rem", _ALU3, F.DIV, level="scalar",
             doc="xD = xA - (xA / B) * B, signed: the sign of xA (B = 0: a run-time error)"),
    InstrDef("ld", (("d", "xreg"), ("elem", "selem")), F.SCALAR_LOAD, level="scalar",
             typed=True, doc="xD = the UB (or, where the chip allows, GM) element: integer "
             "types sign/zero-extended, float types their bits"),
    InstrDef("st", (("s", "xreg"), ("elem", "selem")), F.SCALAR_STORE, level="scalar",
             typed=True, doc="the UB (or GM) element = the low bytes of xS"),
    *(InstrDef(f"f{op}", (("d", "xreg"), ("a", "xreg"), ("b", "xreg")), F.FALU,
               level="scalar", typed=True, doc=f"xD = xA {sym} xB in float type T")
      for op, sym in (("add", "+"), ("sub", "-"), ("mul", "*"), ("div", "/"),
                      ("max", "max"), ("min", "min"))),
    InstrDef("smax", _ALU3, F.SMISC, level="scalar", doc="xD = max(xA, B), signed"),
    InstrDef("smin", _ALU3, F.SMISC, level="scalar", doc="xD = min(xA, B), signed"),
    InstrDef("sabs", (("d", "xreg"), ("a", "xreg")), F.SMISC, level="scalar",
             doc="xD = |xA|, signed (|-2^63| wraps to -2^63)"),
    InstrDef("clz", (("d", "xreg"), ("a", "xreg")), F.SMISC, level="scalar",
             doc="xD = the leading zero bits of xA (64 when xA is 0)"),
    InstrDef("popcnt", (("d", "xreg"), ("a", "xreg")), F.SMISC, level="scalar",
             doc="xD = the one bits of xA"),
    InstrDef("fsqrt", (("d", "xreg"), ("a", "xreg")), F.FUNARY, level="scalar", typed=True,
             doc="xD = sqrt(xA) in float type T (correctly rounded; negative: NaN)"),
    InstrDef("fabs", (("d", "xreg"), ("a", "xreg")), F.FUNARY, level="scalar", typed=True,
             doc="xD = |xA| in float type T (the sign bit cleared)"),
    InstrDef("itof", (("d", "xreg"), ("a", "xreg")), F.FCONV, level="scalar", typed=True,
             keys=("round",), doc="xD = signed xA as float type T (round= mode, default rint)"),
    InstrDef("ftoi", (("d", "xreg"), ("a", "xreg")), F.FCONV, level="scalar", typed=True,
             keys=("round",), doc="xD = float xA of type T as a signed 64-bit integer "
             "(round= mode, default trunc; saturating, NaN → 0)"),
    InstrDef("ftof", (("d", "xreg"), ("a", "xreg")), F.FCONV, level="scalar", typed=True,
             keys=("round",), doc="xD = xA as float type T: f32 bits → f16/bf16 (round=), "
             "f16 bits → f32 (exact)"),
    # ---
    InstrDef("jmp", (("target", "label"),), F.JMP, level="scalar", doc="jump"),
    InstrDef("halt", (), F.HALT, level="scalar", doc="stop"),
    InstrDef("fail", (("message", "text"),), F.FAIL, level="scalar",
             doc="stop the run with the error MESSAGE (a recording ends with the error its "
                 "front end raised, e.g. an AscendC queue misuse)"),
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
             level="api", typed=True, types="move", strides="unary",
             keys=("count", "repeat") + _APIMASK,
             doc="AscendC Duplicate: first-n (count=) or high-dimensional (repeat= + mask) → "
             "vector_dup", hw="vector_dup"),
    InstrDef("set_mask", (("len", "value"),), F.API_SET_MASK, level="api", typed=True,
             doc="set_vector_mask by the contiguous rule"),
    InstrDef("cast", _VEC2, F.API_CAST, level="api", typed=True, src_typed=True,
             types="conv", strides="unary", keys=("count", "repeat", "round") + _APIMASK,
             doc="AscendC Cast: first-n (count=) or high-dimensional (repeat= + mask) → vconv"),
    _api_elementwise("abs", _VEC2, "api_unary", "abs", "unary", "AscendC Abs → vabs"),
    _api_elementwise("not", _VEC2, "api_unary", "bitwise", "unary", "AscendC Not → vnot"),
    _api_elementwise("copy", _VEC2, "api_unary", "move", "unary",
                     "AscendC Copy: UB to UB, first-n (count=) or high-dimensional (repeat= + "
                     "mask) → vcopy"),
    # --- issue 28 (28b): gathers and layout shapes
    InstrDef("vreducev2", (("dst", "vec"), ("src0", "vec"), ("src1", "bits")), F.VREDUCEV2,
             typed=True, types="gather", strides="gathermask", keys=("repeat", "pattern"),
             min_operands=2,
             doc="GatherMask: the src0 elements whose pattern bit is set, back to back from dst; "
             "pattern=0 takes a row of src1's bits a repeat (src1_rep blocks apart), 1-7 a "
             "built-in pattern (no src1); MASK ignored in normal mode, counter mode counts "
             "elements; RSVD_CNT = the elements written"),
    InstrDef("get_reduce_max_min", (("v", "xreg"), ("i", "xreg")), F.GET_REDUCE_SPR,
             level="scalar", doc="xV = the raw bits of the extreme the last vcmax/vcmin found "
             "over all its repeats, xI = its position i·N + k (GetReduceRepeatMaxMinSpr)"),
    InstrDef("get_reduce_sum", (("d", "xreg"),), F.GET_REDUCE_SPR, level="scalar",
             doc="xD = the raw bits of the last vcadd's repeat sums added in order "
             "(GetReduceRepeatSumSpr)"),
    InstrDef("get_rsvd_cnt", (("d", "xreg"),), F.GET_RSVD_CNT, level="scalar",
             doc="xD = RSVD_CNT, the elements the last vreducev2 wrote (GetRsvdCnt)"),
    InstrDef("gather_mask", (("dst", "vec"), ("src0", "vec"), ("src1", "bits")),
             F.api("api_gather_mask"), level="api", typed=True, types="gather",
             strides="gathermask", keys=("count", "repeat", "pattern"), min_operands=2,
             doc="AscendC GatherMask: repeat= (reduceMode false: MASK ignored) or count= "
             "(reduceMode true: counter mode, COUNT elements) → vreducev2", hw="vreducev2"),
    InstrDef("vbrcb", _VEC2, F.VBRCB, typed=True, types="brcb", strides="brcb",
             keys=("repeat",),
             doc="Brcb: repeat i reads src elements 8i..8i+7 and fills dst block j of the repeat "
             "with element 8i+j; MASK not considered; dst_blk 0 is taken as 1"),
    InstrDef("brcb", _VEC2, F.api("api_brcb"), level="api", typed=True, types="brcb",
             strides="brcb", keys=("repeat",), hw="vbrcb",
             doc="AscendC Brcb / asc_brcb → vbrcb"),
    InstrDef("vci", (("dst", "vec"), ("scalar", "scalar")), F.VCI, typed=True, types="vci",
             strides="unary", keys=("repeat",),
             doc="CreateVecIndex: active element k of repeat i = SCALAR + i·N + k (rounded once "
             "to T; integers wrap)"),
    InstrDef("create_vec_index", (("dst", "vec"), ("scalar", "scalar")),
             F.api("api_create_vec_index"), level="api", typed=True, types="vci",
             strides="unary", keys=("count", "repeat") + _APIMASK, hw="vci",
             doc="AscendC CreateVecIndex: first-n (count=) or high-dimensional (repeat= + mask) "
             "→ vci"),
    InstrDef("vgather", (("dst", "vec"), ("src", "elemaddr"), ("offset", "vec")), F.VGATHER,
             typed=True, types="vgather", strides="gather", keys=("repeat",),
             doc="Gather: active element k of repeat i = the element at src + offset[i·N + k] "
             "bytes (offset: u32, N a repeat, back to back); dst_rep in blocks"),
    InstrDef("gather", (("dst", "vec"), ("src", "vec"), ("offset", "vec")),
             F.api("api_gather"), level="api", typed=True, types="vgather", strides="gather",
             keys=("count", "repeat", "base") + _APIMASK, hw="vgather",
             doc="AscendC Gather: first-n (count=) or high-dimensional (repeat= + mask); base= "
             "bytes added to src → vgather"),
    InstrDef("vtranspose", _VEC2, F.VTRANSPOSE, typed=True, types="transpose",
             doc="Transpose: dst = the 16 x 16 matrix of 2-byte elements at src, transposed "
             "(512 bytes each; dst may be src); MASK not considered"),
    InstrDef("transpose", _VEC2, F.api("api_transpose"), level="api", typed=True,
             types="transpose", keys=("repeat", "dst_rep", "src_rep"), hw="vtranspose",
             doc="AscendC Transpose / TIK vec_trans: REPEAT 16 x 16 transpositions, the "
             "matrices dst_rep / src_rep x 512 bytes apart (default 1) → vtranspose each"),
    InstrDef("vnchwconv", (("dst_list", "vec"), ("src_list", "vec")), F.VNCHWCONV, typed=True,
             types="trans5hd", strides="trans5hd", keys=("repeat", "dst_high", "src_high"),
             doc="TransDataTo5HD: the 16 blocks at src_list's addresses transposed into the 16 "
             "at dst_list's (u64 lists); repeat i moves them i x stride blocks on (repeat=1: "
             "one stride on, as the vendor page says)"),
    InstrDef("trans_data_5hd", (("dst_list", "vec"), ("src_list", "vec")),
             F.api("api_trans_data_5hd"), level="api", typed=True, types="trans5hd",
             strides="trans5hd", keys=("repeat", "dst_high", "src_high"), hw="vnchwconv",
             doc="AscendC TransDataTo5HD (address lists in UB) → vnchwconv"),
    # --- issue 28 item 5: Transpose's enhanced NCHW <-> NHWC forms
    InstrDef("transpose_nchw2nhwc", (("dst", "vec"), ("src", "vec"), ("tmp", "ub")),
             F.api("api_transpose_4d"), level="api", typed=True, types="transpose_4d",
             keys=("nsize", "csize", "hsize", "wsize"), hw="vgather",
             doc="AscendC Transpose TRANSPOSE_NCHW2NHWC: dst[n,h,w,c] = src[n,c,h,w]; tmp: "
             "(c + 2) x 512 bytes (8-bit: x 1024) → vector_dup (offsets) + vgather, 64 "
             "elements at a time (8-bit: 128, a vgather.u16 and the bytes picked out)"),
    InstrDef("transpose_nhwc2nchw", (("dst", "vec"), ("src", "vec"), ("tmp", "ub")),
             F.api("api_transpose_4d"), level="api", typed=True, types="transpose_4d",
             keys=("nsize", "csize", "hsize", "wsize"), hw="vgather",
             doc="AscendC Transpose TRANSPOSE_NHWC2NCHW: dst[n,c,h,w] = src[n,h,w,c]; tmp: "
             "(2c + 1) x 512 bytes (8-bit: x 1024) → vector_dup (offsets) + vgather, 64 "
             "elements at a time (8-bit: 128, a vgather.u16 and the bytes picked out)"),
    # --- issue 28: Gatherb (whole blocks by byte offsets)
    InstrDef("vgatherb", (("dst", "vec"), ("src", "vec"), ("offset", "vec")), F.VGATHERB,
             typed=True, types="gatherb", strides="gatherb", keys=("repeat",),
             doc="Gatherb: dst block j of repeat i = the 32-byte block at src + offset[8i + j] "
             "bytes (offset: u32, 8 a repeat, back to back); dst_blk 0 taken as 1; MASK not "
             "considered"),
    InstrDef("gatherb", (("dst", "vec"), ("src", "vec"), ("offset", "vec")),
             F.api("api_gatherb"), level="api", typed=True, types="gatherb", strides="gatherb",
             keys=("repeat",), hw="vgatherb",
             doc="AscendC Gatherb / asc_gather_datablock → vgatherb"),
    # --- #27/#29 (h27dq): CastDequant's hardware forms and DEQSCALE (docs/semantics.md §6.4.4)
    InstrDef("set_deqscale", (("value", "deqsrc"),), F.SET_DEQSCALE, level="scalar",
             doc="DEQSCALE = VALUE (64 bits; SetDeqScale, asc_set_deq_scale): a half scale in "
             "[15:0] (vconv_deq), or an f32 scale [31:0], s9 offset [45:37], sign [46] "
             "(vconv_deqs162b8); VALUE a UB address (NAME[I], @ADDR): the 128-byte parameter "
             "table of vconv_vdeqs162b8, DEQSCALE = its address / 32"),
    # --- issue 34: CTRL (isa/ctrl.py; SetCtrlSpr / ResetCtrlSpr, asc_set_ctrl)
    InstrDef("set_ctrl", (("lo", "imm"), ("hi", "imm"), ("value", "xsrc")), F.SET_CTRL,
             level="scalar", doc="CTRL[HI:LO] = VALUE (SetCtrlSpr<LO, HI>; asc_set_ctrl: 0, "
             "63): the saturation modes Cast follows (docs/semantics.md §15.4)"),
    InstrDef("reset_ctrl", (("lo", "imm"), ("hi", "imm")), F.SET_CTRL, level="scalar",
             doc="CTRL[HI:LO] = its default (ResetCtrlSpr<LO, HI>)"),
    InstrDef("vconv_deq", _VEC2, F.VCONV_DEQ, typed=True, src_typed=True, types="deq",
             strides="unary", keys=("repeat",),
             doc="dst = f16(src × DEQSCALE's half scale), rounded to nearest even (Cast int32_t "
             "→ half, CastDequant int32_t → half); as vconv.f16.s32 otherwise"),
    *(InstrDef(f"vconv_{v}deqs162b8{h}", _VEC2, F.VCONV_DEQ_B8, typed=True, src_typed=True,
               types="deq_b8", strides="unary", keys=("repeat",),
               doc=f"dst = sat_b8(sat_s9(rint(f32(src × M{'_j' if v else ''}))) + "
               f"offset{'_j' if v else ''}) "
               + ("with the 16 (M_j, offset_j, sign_j) of the table DEQSCALE points at, j "
                  "the element's place in its block" if v else
                  "with DEQSCALE's M (f32, mantissa cut to 10 bits), offset and sign")
               + f"; each block's 16 results in the {'high' if h == 'h' else 'low'} half of "
               "its destination block (CastDequant halfBlock="
               f"{'true' if h == 'h' else 'false'})")
      for v in ("", "v") for h in ("h", "l")),
    InstrDef("set_deq_scale", (("scale", "scalar"),), F.API_SET_DEQ_SCALE, level="api",
             typed=True, types="deq_scale", keys=("deq_offset", "sign"),
             doc="AscendC SetDeqScale → set_deqscale: .f16 SCALE (Cast/CastDequant int32_t → "
             "half), .f32 SCALE, deq_offset=, sign= (CastDequant int16_t → b8), .u64 VDEQ (a UB "
             "tensor holding the 16 parameter words: its address / 32)"),
    InstrDef("cast_dequant", _VEC2, F.API_CAST_DEQUANT, level="api", typed=True, src_typed=True,
             types="deq_api", strides="unary",
             keys=("count", "repeat", "half_block", "vec_deq") + _APIMASK,
             doc="AscendC CastDequant<T, U, isVecDeq, halfBlock>: first-n (count=) or "
             "high-dimensional (repeat= + mask) → vconv_deq (int32_t → half) or "
             "vconv_(v)deqs162b8h/l (int16_t → int8_t/uint8_t)"),
    # --- issue 28: TransDataTo5HD's address registers (the C API's asc_set_va_reg)
    InstrDef("set_va", (("va", "vareg"),) + tuple((f"a{k}", "vaddr") for k in range(8)),
             F.SET_VA, level="scalar",
             doc="VA register VA = the 8 UB addresses A0..A7 (NAME[I] or @ADDR): the blocks a "
             "vnchwconv_va reads or writes (asc_set_va_reg; VA0..VA7)"),
    InstrDef("vnchwconv_va", (("dst", "vareg"), ("src", "vareg")), F.VNCHWCONV_VA, typed=True,
             types="trans5hd", strides="trans5hd", keys=("repeat", "dst_high", "src_high"),
             doc="TransDataTo5HD from address registers: the 16 blocks whose addresses VA src "
             "and src+1 hold transposed into the 16 of VA dst and dst+1 (asc_transto5hd_b8/b16/"
             "b32); otherwise as vnchwconv"),
    InstrDef("get_cmp_mask", (("dst", "cmpaddr"),), F.api("api_get_cmp_mask"), level="api",
             doc="AscendC GetCmpMask → get_cmpmask"),
    InstrDef("set_cmp_mask", (("src", "cmpaddr"),), F.api("api_set_cmp_mask"), level="api",
             doc="AscendC SetCmpMask → set_cmpmask"),
)}


# -- reductions (issue 28, group 28a): the hardware rows and the AscendC APIs' statements
def _reduction(hw: str, family: Family, api_name: str, what: str, vendor: str) -> tuple:
    keys = ("repeat", "order") if family.orders else ("repeat",)
    return (InstrDef(hw, _VEC2, family, typed=True, types="reduce", strides="reduce", keys=keys,
                     doc=what),
            InstrDef(api_name, _VEC2, F.api("api_reduce"), level="api", typed=True,
                     types="reduce", strides="reduce", keys=keys + _APIMASK + ("count",),
                     doc=f"AscendC {vendor}: repeat= with a mask (or MASK as it is) → {hw}; "
                     "count=N (the C API's first-n form): counter mode, default strides",
                     hw=hw))


for _d in (
    *_reduction("vcmax", F.VCMAX, "whole_reduce_max", "dst[i] = the largest active element of "
                "src repeat i and its index (order=)", "WholeReduceMax"),
    *_reduction("vcmin", F.VCMIN, "whole_reduce_min", "dst[i] = the smallest active element of "
                "src repeat i and its index (order=)", "WholeReduceMin"),
    *_reduction("vcadd", F.VCADD, "whole_reduce_sum", "dst[i] = the sum of src repeat i's "
                "active elements (a binary tree)", "WholeReduceSum"),
    *_reduction("vcgmax", F.VCGMAX, "block_reduce_max", "dst[8i+j] = the largest active element "
                "of block j of src repeat i", "BlockReduceMax"),
    *_reduction("vcgmin", F.VCGMIN, "block_reduce_min", "dst[8i+j] = the smallest active element"
                " of block j of src repeat i", "BlockReduceMin"),
    *_reduction("vcgadd", F.VCGADD, "block_reduce_sum", "dst[8i+j] = the sum of block j of src "
                "repeat i's active elements (a binary tree)", "BlockReduceSum"),
    *_reduction("vcpadd", F.VCPADD, "pair_reduce_sum", "dst[N/2·i+k] = src[2k] + src[2k+1] of "
                "repeat i (active elements)", "PairReduceSum"),
    # the composites: rounds of the whole-repeat reduction over a work tensor (semantics.md §8.4)
    *(InstrDef(name, (("dst", "vec"), ("src", "vec"), ("work", "vec")), F.api("api_reduce_all"),
               level="api", typed=True, types="reduce",
               strides=StrideLayout("reduce_all", ("src_rep",), (8,)),
               keys=("count", "repeats", "index", "tmp_a", "tmp_b", "runs") + _APIMASK, hw=hw,
               doc=f"AscendC {vendor}: count= (first n) or repeats= with a mask → rounds of "
               f"{hw} over work") for name, hw, vendor in (
        ("reduce_max", "vcmax", "ReduceMax"), ("reduce_min", "vcmin", "ReduceMin"),
        ("reduce_sum", "vcadd", "ReduceSum"))),
):
    INSTRUCTIONS[_d.name] = _d

# The arithmetic APIs as API statements, so that every front end issues them and their count
# and high-dimensional forms expand in isa/api.py alone.
for _d in (
    _api_elementwise("max", _VEC3, "api_binary", "arith", "binary", "AscendC Max → vmax"),
    _api_elementwise("min", _VEC3, "api_binary", "arith", "binary", "AscendC Min → vmin"),
    _api_elementwise("adds", _VS, "api_scalar", "arith", "unary", "AscendC Adds → vadds"),
    _api_elementwise("muls", _VS, "api_scalar", "arith", "unary", "AscendC Muls → vmuls"),
    _api_elementwise("maxs", _VS, "api_scalar", "arith", "unary", "AscendC Maxs → vmaxs"),
    _api_elementwise("mins", _VS, "api_scalar", "arith", "unary", "AscendC Mins → vmins"),
):
    INSTRUCTIONS[_d.name] = _d



# -- #27a element-wise compute: arithmetic, transcendentals, LeakyRelu and shifts --------------
def _math(name: str, family: Family, types: str, doc: str) -> InstrDef:
    return InstrDef(name, _VEC2, family, typed=True, types=types, strides="unary",
                    keys=("repeat",), doc=doc)


def _math_scalar(name: str, types: str, doc: str) -> InstrDef:
    return InstrDef(name, _VS, F.UNARY_SCALAR, typed=True, types=types, strides="unary",
                    keys=("repeat",), doc=doc)


_MODEL = " (correctly rounded model: silicon may differ in the last bits)"
for _d in (
    InstrDef("vdiv", _VEC3, F.VDIV, typed=True, types="math", strides="binary",
             keys=("repeat",), doc="dst = src0 / src1" + _MODEL),
    _math("vexp", F.MATH_SLOW, "math", "dst = e^src" + _MODEL),
    _math("vln", F.MATH_SLOW, "math", "dst = ln(src)" + _MODEL),
    _math("vsqrt", F.MATH_SLOW, "math", "dst = sqrt(src)" + _MODEL),
    _math("vrec", F.MATH_UNARY, "math", "dst = 1 / src" + _MODEL),
    _math("vrsqrt", F.MATH_UNARY, "math", "dst = 1 / sqrt(src)" + _MODEL),
    _math("vrelu", F.MATH_UNARY, "relu", "dst = src < 0 ? 0 : src (exact)"),
    _math_scalar("vlrelu", "math", "dst = src < 0 ? src * SCALAR : src (exact)"),
    _math_scalar("vshl", "shift", "dst = src << SCALAR (exact; counts of the width or more: 0)"),
    InstrDef("vshr", _VS, F.SHIFT_RIGHT, typed=True, types="shift", strides="unary",
             keys=("repeat", "round_en"), doc="dst = src >> SCALAR, arithmetic for signed types "
             "(exact); round_en=1 (s16, s32) adds the last bit shifted out"),
    _api_elementwise("exp", _VEC2, "api_unary", "math", "unary", "AscendC Exp → vexp"),
    _api_elementwise("ln", _VEC2, "api_unary", "math", "unary", "AscendC Ln → vln"),
    _api_elementwise("sqrt", _VEC2, "api_unary", "math", "unary", "AscendC Sqrt → vsqrt"),
    _api_elementwise("rsqrt", _VEC2, "api_unary", "math", "unary", "AscendC Rsqrt → vrsqrt"),
    _api_elementwise("reciprocal", _VEC2, "api_unary", "math", "unary",
                     "AscendC Reciprocal → vrec", hw="vrec"),
    _api_elementwise("relu", _VEC2, "api_unary", "relu", "unary", "AscendC Relu → vrelu"),
    _api_elementwise("leaky_relu", _VS, "api_scalar", "math", "unary",
                     "AscendC LeakyRelu → vlrelu", hw="vlrelu"),
    _api_elementwise("shift_left", _VS, "api_shift", "shift_api", "unary",
                     "AscendC ShiftLeft → vshl", hw="vshl"),
    _api_elementwise("shift_right", _VS, "api_shift", "shift_api", "unary",
                     "AscendC ShiftRight → vshr (round_en=1: roundEn, the C API's "
                     "asc_shiftright_round)", hw="vshr")._replace(
                         keys=("count", "repeat", *_APIMASK, "round_en")),
    _api_elementwise("subs", _VS, "api_subs", "arith", "unary",
                     "AscendC Subs, the C API's asc_sub_scalar → vadds of -SCALAR", hw="vadds"),
    # composites (same-type forms)
    InstrDef("vaddrelu", _VEC3, F.ADD_RELU, typed=True, types="addrelu", strides="binary",
             keys=("repeat",), doc="dst = relu(src0 + src1), the sum rounded in T (exact)"),
    InstrDef("vsubrelu", _VEC3, F.ADD_RELU, typed=True, types="addrelu", strides="binary",
             keys=("repeat",), doc="dst = relu(src0 - src1), the difference rounded in T "
             "(exact)"),
    InstrDef("vaxpy", _VS, F.AXPY, typed=True, types="math", strides="unary", keys=("repeat",),
             doc="dst = src * SCALAR + dst, each step rounded in T" + _MODEL + "; "
             "vaxpy.f32.f16: src and SCALAR f16, the product exact in f32, the sum rounded once",
             src_pairs="axpy_mixed"),
    InstrDef("vmla", _VEC3, F.ACCUMULATE, typed=True, types="math", strides="binary",
             keys=("repeat",), doc="dst = src0 * src1 + dst, each step rounded in T" + _MODEL
             + "; vmla.f32.f16: sources f16, the product exact in f32, the sum rounded once",
             src_pairs="mla_mixed"),
    InstrDef("vmadd", _VEC3, F.ACCUMULATE, typed=True, types="math", strides="binary",
             keys=("repeat",), doc="dst = src0 * dst + src1, each step rounded in T" + _MODEL),
    InstrDef("vmaddrelu", _VEC3, F.ACCUMULATE, typed=True, types="math", strides="binary",
             keys=("repeat",), doc="dst = relu(src0 * dst + src1), each step rounded in T"
             + _MODEL),
    _api_elementwise("add_relu", _VEC3, "api_binary", "addrelu", "binary",
                     "AscendC AddRelu → vaddrelu", hw="vaddrelu"),
    _api_elementwise("sub_relu", _VEC3, "api_binary", "addrelu", "binary",
                     "AscendC SubRelu → vsubrelu", hw="vsubrelu"),
    _api_elementwise("axpy", _VS, "api_scalar", "math", "unary",
                     "AscendC Axpy → vaxpy (axpy.f32.f16: half src, float dst)")._replace(
                         src_pairs="axpy_mixed"),
    _api_elementwise("mul_add_dst", _VEC3, "api_binary", "math", "binary",
                     "AscendC MulAddDst → vmla (mul_add_dst.f32.f16: half sources, float dst)",
                     hw="vmla")._replace(src_pairs="mla_mixed"),
    _api_elementwise("fused_mul_add", _VEC3, "api_binary", "math", "binary",
                     "AscendC FusedMulAdd → vmadd", hw="vmadd"),
    _api_elementwise("mul_add_relu", _VEC3, "api_binary", "math", "binary",
                     "AscendC MulAddRelu → vmaddrelu", hw="vmaddrelu"),
    # #27: ascend950's Ands / Ors / Divs, the scalar in either position (a value, a register or
    # scalar(NAME[I])): vector_dup of the scalar into scratch, then vand / vor / vdiv
    InstrDef("ands", _FLEX, F.api("api_flex_scalar"), level="api", typed=True, types="ands",
             strides="unary", keys=("count", "repeat") + _APIMASK, hw="vand",
             doc="AscendC Ands (ascend950): dst = src & s or s & src → vector_dup · vand"),
    InstrDef("ors", _FLEX, F.api("api_flex_scalar"), level="api", typed=True, types="ands",
             strides="unary", keys=("count", "repeat") + _APIMASK, hw="vor",
             doc="AscendC Ors (ascend950): dst = src | s or s | src → vector_dup · vor"),
    InstrDef("divs", _FLEX, F.api("api_flex_scalar"), level="api", typed=True, types="divs",
             strides="unary", keys=("count", "repeat") + _APIMASK, hw="vdiv",
             doc="AscendC Divs (ascend950): dst = src / s or s / src → vector_dup · vdiv"),
    # #27 (h27): the composites with a conversion, DST.SRC (their pairs: chip [types] relu_conv,
    # mul_conv); the conversion is CAST_NONE (RINT where inexact), saturating, as Cast's
    InstrDef("vaddreluconv", _VEC3, F.BINARY_CONV, typed=True, src_typed=True,
             types="relu_conv", strides="binary", keys=("repeat",),
             doc="dst = DST(relu(src0 + src1)): the sum rounded in SRC, converted as Cast "
             "round=none (exact)"),
    InstrDef("vsubreluconv", _VEC3, F.BINARY_CONV, typed=True, src_typed=True,
             types="relu_conv", strides="binary", keys=("repeat",),
             doc="dst = DST(relu(src0 - src1)): the difference rounded in SRC, converted as Cast "
             "round=none (exact)"),
    InstrDef("vmulconv", _VEC3, F.BINARY_CONV, typed=True, src_typed=True,
             types="mul_conv", strides="binary", keys=("repeat",),
             doc="dst = DST(src0 * src1): the product rounded in SRC, converted as Cast "
             "round=none (exact)"),
    InstrDef("add_relu_cast", _VEC3, F.API_BINARY_CAST, level="api", typed=True,
             src_typed=True, types="relu_conv", strides="binary",
             keys=("count", "repeat") + _APIMASK, hw="vaddreluconv",
             doc="AscendC AddReluCast → vaddreluconv.DST.SRC"),
    InstrDef("sub_relu_cast", _VEC3, F.API_BINARY_CAST, level="api", typed=True,
             src_typed=True, types="relu_conv", strides="binary",
             keys=("count", "repeat") + _APIMASK, hw="vsubreluconv",
             doc="AscendC SubReluCast → vsubreluconv.DST.SRC"),
    InstrDef("mul_cast", _VEC3, F.API_BINARY_CAST, level="api", typed=True, src_typed=True,
             types="mul_conv", strides="binary", keys=("count", "repeat") + _APIMASK,
             hw="vmulconv", doc="AscendC MulCast, the C API's asc_mul_cast_half2int8/uint8 → "
             "vmulconv.DST.SRC"),
):
    INSTRUCTIONS[_d.name] = _d

# Typed API forms whose mnemonic is also a scalar instruction: `and.s16 …` is AscendC And,
# `and x1, x2, 3` the scalar ALU (the assembler picks by the type modifier).
TYPED_FORMS: dict[str, InstrDef] = {d.name: d for d in (
    _api_elementwise("add", _VEC3, "api_binary", "arith", "binary", "AscendC Add → vadd"),
    _api_elementwise("sub", _VEC3, "api_binary", "arith", "binary", "AscendC Sub → vsub"),
    _api_elementwise("mul", _VEC3, "api_binary", "arith", "binary", "AscendC Mul → vmul"),
    _api_elementwise("and", _VEC3, "api_binary", "bitwise", "binary", "AscendC And → vand"),
    _api_elementwise("or", _VEC3, "api_binary", "bitwise", "binary", "AscendC Or → vor"),
)}


# #27a: AscendC Div's typed form (`div x1, x2, x3` is the scalar unit's division)
TYPED_FORMS["div"] = _api_elementwise("div", _VEC3, "api_binary", "math", "binary",
                                      "AscendC Div → vdiv")

# #32 class 4: the rounding advanced APIs (Floor, Ceil, Trunc, Rint, Round, Frac), count= only,
# built from vconv with a round mode (and vsub for Frac); WORK is the sharedTmpBuffer a half
# source needs (count × 4 bytes: the float copy), optional for a float Floor … Round
_ROUNDING = (("floor", "floor", "towards -inf"), ("ceil", "ceil", "towards +inf"),
             ("trunc", "trunc", "towards 0"), ("rint", "rint", "to nearest, ties to even"),
             ("round", "round", "to nearest, ties away from 0"))
for _name, _mode, _how in _ROUNDING:
    INSTRUCTIONS[_name] = InstrDef(
        _name, (*_VEC2, ("work", "vec")), F.api("api_rounding"), level="api", typed=True,
        types="math", keys=("count",), hw="vconv", min_operands=2,
        doc=f"AscendC {_name.capitalize()}: dst = src rounded to an integer {_how} (exact) → "
        f"vconv round={_mode} (half: through float in WORK)")
INSTRUCTIONS["frac"] = InstrDef(
    "frac", (*_VEC2, ("work", "vec")), F.api("api_rounding"), level="api", typed=True,
    types="math", keys=("count",), hw="vsub",
    doc="AscendC Frac: dst = src - trunc(src) (exact; ±inf: NaN) → vconv round=trunc into "
    "WORK, vsub")


# --- issue 34: ascend950's reg-based vector unit (isa/regvec.py; docs/semantics.md §15)
KEYS.update({k.name: k for k in (
    Key("post", -(1 << 31), (1 << 31) - 1, None, True, "post-update (PostLiteral "
        "POST_MODE_UPDATE): after the access the address register grows by POST elements"),
    Key("dist", 0, len(RV.DISTS) - 1, 0, False, "LoadAlign distribution (LoadDist): "
        + " ".join(RV.DISTS), words=RV.DISTS),
    Key("sdist", 0, len(RV.SDISTS) - 1, 0, False, "StoreAlign distribution (StoreDist): "
        + " ".join(RV.SDISTS), words=RV.SDISTS),
    Key("blk", 0, 65535, 1, True, "DataBlock stride: 32-byte blocks between the heads of "
        "neighbouring blocks (DataCopyMode DATA_BLOCK_COPY)"),
    Key("merge", 0, 1, 0, False, "MaskMergeMode: 0 zeroing (inactive elements 0), 1 merging "
        "(inactive elements keep dst)"),
)})
KEYS["algo"] = Key("algo", 0, len(RV.DIV_ALGOS) - 1, 0, False, "Div's DivSpecificMode "
                   "algo: " + " ".join(RV.DIV_ALGOS) + " (p0ulp, p1ulp: subnormals kept; the "
                   "others flush them)", words=RV.DIV_ALGOS)
KEYS["salgo"] = Key("salgo", 0, len(RV.SQRT_ALGOS) - 1, 0, False, "Sqrt's SqrtAlgo: "
                    + " ".join(RV.SQRT_ALGOS) + " (fast, p0ulp: f32 only, an input above 2^126 "
                    "gives 0; fast, p0ulp, p1ulp keep subnormals, the others flush them)",
                    words=RV.SQRT_ALGOS)
_V, _P, _A = ("vreg", "vreg"), ("preg", "preg"), ("addr", "raddr")


def _rv(name: str, operands: tuple, family: Family, doc: str, **kw) -> InstrDef:
    return InstrDef(name, operands, family, typed=kw.pop("typed", True), doc=doc, **kw)


_RB = (("d", "vreg"), ("a", "vreg"), ("b", "vreg"), ("m", "preg"))
_RU = (("d", "vreg"), ("a", "vreg"), ("m", "preg"))
_RS = (("d", "vreg"), ("a", "vreg"), ("scalar", "scalar"), ("m", "preg"))
# ShiftLeft / ShiftRight (the Reg pages): unsigned T logical, signed T arithmetic
_SHIFTS = (("shl", "<<", "ShiftLeft", "signed T keeps its sign bit; a count past the width "
            "gives 0"),
           ("shr", ">>", "ShiftRight", "a count past the width gives 0, or -1 for a negative "
            "signed element"))
for _d in (
    _rv("vf_begin", (("name", "text"),), RV.VF_BEGIN, "a vector function (__simd_vf__) starts: "
        "its registers hold nothing yet", typed=False),
    _rv("vf_end", (), RV.VF_END, "the vector function ends", typed=False),
    _rv("vmembar", (("src", "memtype"), ("dst", "memtype")), RV.MEMBAR, "LocalMemBar<SRC, DST>: "
        "DST's UB accesses in this vector function wait for SRC's before it (vst vld vall: the "
        "vector stores, loads, both; sst sld sall: the scalar ones)", typed=False),
    _rv("pset", (("d", "preg"), ("pattern", "pattern")), RV.PSET,
        "pD = MaskPattern PATTERN for elements of T (CreateMask)"),
    _rv("plt", (("d", "preg"), ("n", "xsrc")), RV.PLT, "pD = the first min(N, VL/size) "
        "elements of T; a register N then loses VL/size, not below 0 (UpdateMask)"),
    _rv("pmov", (("d", "preg"), ("a", "preg")), RV.PLOGIC, "pD = pA (a MaskReg copy)",
        typed=False),
    _rv("pnot", (("d", "preg"), ("a", "preg"), ("m", "preg")), RV.PLOGIC,
        "pD = ~pA & pM, bit by bit", typed=False),
    *(_rv(f"p{op}", (("d", "preg"), ("a", "preg"), ("b", "preg"), ("m", "preg")), RV.PLOGIC,
          f"pD = (pA {sym} pB) & pM, bit by bit", typed=False)
      for op, sym in (("and", "&"), ("or", "|"), ("xor", "^"))),
    _rv("vlds", (("d", "vreg"), _A), RV.VLOAD, "vD = the VL bytes at ADDR (LoadAlign; dist=brc: "
        "the element at ADDR in every lane; post=: ADDR's register += POST elements after)",
        keys=("dist", "post")),
    _rv("vsts", (_A, ("s", "vreg"), ("m", "preg")), RV.VSTORE, "the active elements of vS to "
        "ADDR (StoreAlign; sdist=first: element 0 only, pack/pack4: each element's low half / "
        "quarter; post=: ADDR's register += POST elements after)", keys=("sdist", "post")),
    _rv("vlds2", (("d", "vreg"), ("e", "vreg"), _A), RV.VLOAD2, "vD = the even, vE the odd "
        "elements of the 2·VL bytes at ADDR (LoadAlign DIST_DINTLV)", keys=("post",)),
    _rv("vsts2", (_A, ("s", "vreg"), ("t", "vreg")), RV.VSTORE2, "2·VL bytes to ADDR: vS[k] "
        "and vT[k] interleaved, whatever the mask (StoreAlign DIST_INTLV)", keys=("post",)),
    _rv("vldsb", (("d", "vreg"), _A, ("m", "preg")), RV.VLOADB, "block j of vD = the 32 bytes "
        "at ADDR + j·BLK·32 where pM enables an element of it, else 0 (LoadAlign "
        "DATA_BLOCK_COPY)", keys=("blk", "post")),
    _rv("vstsb", (_A, ("s", "vreg"), ("m", "preg")), RV.VSTOREB, "the active elements of block "
        "j of vS to ADDR + j·BLK·32 (StoreAlign DATA_BLOCK_COPY)", keys=("blk", "post")),
    _rv("plds", (("d", "preg"), _A), RV.PLOAD, "pD = the VL/8 bytes at ADDR (LoadAlign of a "
        "MaskReg)", keys=("post",), typed=False),
    _rv("psts", (_A, ("s", "preg")), RV.PSTORE, "the VL/8 bytes of pS to ADDR (StoreAlign of a "
        "MaskReg)", keys=("post",), typed=False),
    _rv("vrmov", (("d", "vreg"), ("a", "vreg")), RV.VRUN, "vD = vA (a RegTensor copy)"),
    _rv("vrcmp", (("d", "preg"), ("a", "vreg"), ("b", "vreg"), ("m", "preg")), RV.VRCMP,
        "pD bit of element k = vA[k] OP vB[k] where pM enables k, else 0 (Compare)",
        has_op=True),
    _rv("vrcmps", (("d", "preg"), ("a", "vreg"), ("scalar", "scalar"), ("m", "preg")), RV.VRCMP,
        "pD bit of element k = vA[k] OP SCALAR where pM enables k, else 0 (Compares)",
        has_op=True),
    _rv("vrsel", _RB, RV.VRSEL, "vD[k] = pM enables k ? vA[k] : vB[k] (Select)"),
    _rv("vrdup", (("d", "vreg"), ("scalar", "scalar"), ("m", "preg")), RV.VRDUP,
        "vD[k] = SCALAR where pM enables k (Duplicate; merge=)", keys=("merge",)),
    _rv("vrdupv", (("d", "vreg"), ("a", "vreg"), ("m", "preg")), RV.VRDUP,
        "vD[k] = vA[0] where pM enables k (Duplicate of a RegTensor's lowest element; merge=)",
        keys=("merge",)),
    *(_rv(f"vr{op}", _RB, RV.VRBIN, f"vD[k] = {doc} where pM enables k, else 0 ({api})",
          keys=("merge",))
      for op, doc, api in (
          ("add", "vA[k] + vB[k]", "Add"), ("sub", "vA[k] - vB[k]", "Sub"),
          ("mul", "vA[k] * vB[k]", "Mul"), ("max", "max(vA[k], vB[k])", "Max"),
          ("min", "min(vA[k], vB[k])", "Min"), ("and", "vA[k] & vB[k]", "And"),
          ("or", "vA[k] | vB[k]", "Or"), ("xor", "vA[k] ^ vB[k]", "Xor"))),
    *(_rv(f"vr{op}", _RU, RV.VRUN, f"vD[k] = {doc} where pM enables k, else 0 ({api})",
          keys=("merge",))
      for op, doc, api in (
          ("abs", "|vA[k]|", "Abs"), ("neg", "-vA[k]", "Neg"), ("relu", "max(vA[k], 0)", "Relu"),
          ("not", "~vA[k]", "Not"))),
    *(_rv(f"vr{op}", _RU, RV.VRMATH, f"vD[k] = {doc} where pM enables k, else 0 ({api}; "
          "correctly rounded model)") for op, doc, api in (
              ("exp", "e^vA[k]", "Exp"), ("ln", "ln(vA[k])", "Ln"))),
    # vrsqrt is Rsqrt's (#27a)
    _rv("vrsqt", _RU, RV.VRSQRT, "vD[k] = sqrt(vA[k]) where pM enables k, else 0 (Sqrt; "
        "correctly rounded model; salgo=: SqrtAlgo, subnormal inputs flushed to zero but for "
        "fast / p0ulp / p1ulp)", keys=("salgo",)),
    _rv("vrdiv", _RB, RV.VRMATHBIN, "vD[k] = vA[k] / vB[k] where pM enables k, else 0 (Div; "
        "floats correctly rounded, subnormal inputs and results flushed to zero but for "
        "algo=p0ulp / p1ulp; integers truncated)", keys=("algo",)),
    *(_rv(f"vred{op}", _RU, RV.VRREDUCE, f"vD[0] = {doc} of the elements pM enables{idx}, the "
          f"other elements 0 (Reduce {op.upper()})") for op, doc, idx in (
              ("sum", "the binary-tree sum", ""),
              ("max", "the largest", ", vD[1] = its first index (as T's bits)"),
              ("min", "the smallest", ", vD[1] = its first index (as T's bits)"))),
    *(_rv(f"vr{op}", _RS, RV.VRSCALAR, f"vD[k] = {doc} where pM enables k, else 0 ({api})",
          keys=("merge",))
      for op, doc, api in (
          ("adds", "vA[k] + SCALAR", "Adds"), ("muls", "vA[k] * SCALAR", "Muls"),
          ("maxs", "max(vA[k], SCALAR)", "Maxs"), ("mins", "min(vA[k], SCALAR)", "Mins"))),
    # the element-wise rows MaskMergeMode MERGING is not supported for (their pages)
    _rv("vrmadd", _RB, RV.VRFMA, "vD[k] = vD[k] * vA[k] + vB[k], rounded once (fused), where pM "
        "enables k, else 0 (MulDstAdd, asc_madd)"),
    _rv("vrlrelu", _RS, RV.VRSCALAR, "vD[k] = vA[k] > 0 ? vA[k] : vA[k] * SCALAR where pM "
        "enables k, else 0 (LeakyRelu)"),
    *(_rv(f"vr{op}", _RB, RV.VRBIN, f"vD[k] = vA[k] {sym} vB[k] where pM enables k, else 0 "
          f"({api}: vB read as signed; {rule})") for op, sym, api, rule in _SHIFTS),
    *(_rv(f"vr{op}s", _RS, RV.VRSCALAR, f"vD[k] = vA[k] {sym} SCALAR where pM enables k, else "
          f"0 ({api}s: SCALAR an int16; {rule})") for op, sym, api, rule in _SHIFTS),
):
    if _d.name in INSTRUCTIONS:  # a reg row must never replace a memory-based mnemonic
        raise ValueError(f"issue 34 row {_d.name} would replace an existing mnemonic")
    INSTRUCTIONS[_d.name] = _d

# --- issue 34 (h34a): the reg-based unit's conversions and relayouts (isa/regvec_convert.py)
KEYS.update({k.name: k for k in (
    Key("sat", 0, len(RVC.SAT_MODES) - 1, 0, False, "Cast's SatMode: " +
        " ".join(RVC.SAT_MODES) + " (auto: SatMode::UNKNOWN, run as sat)", words=RVC.SAT_MODES),
    Key("part", 0, len(RVC.PARTS) - 1, 0, False, "Cast's RegLayout: the part of a group of "
        "narrow elements read (widening) or written (narrowing): " + " ".join(RVC.PARTS),
        words=RVC.PARTS),
    Key("half", 0, 1, 0, False, "Pack / UnPack's HighLowPart: " + " ".join(RVC.HALVES),
        words=RVC.HALVES),
    Key("desc", 0, 1, 0, False, "Arange's IndexOrder: 0 increasing, 1 decreasing"),
)})
_RR = (("d", "vreg"), ("e", "vreg"), ("a", "vreg"), ("b", "vreg"))
for _d in (
    _rv("vrcvt", _RU, RVC.VRCVT, "vD = vA converted from SRC to DST where pM enables the source "
        "element (Cast; round=, sat=, part=: the RegLayout of the narrow side), else 0",
        src_typed=True, keys=("round", "sat", "part")),
    _rv("vrtrunc", _RU, RVC.VRTRUNC, "vD[k] = vA[k] rounded to an integral value in the round "
        "mode, in T, where pM enables k, else 0 (Truncate)", keys=("round",)),
    _rv("vrarange", (("d", "vreg"), ("scalar", "scalar")), RVC.VRARANGE,
        "vD[k] = SCALAR + k (desc=1: SCALAR + N-1-k), in T (Arange)", keys=("desc",)),
    _rv("vrintlv", _RR, RVC.VRRELAYOUT, "vD, vE = the elements of vA and vB interleaved: "
        "vA[0] vB[0] vA[1] vB[1] ... (Interleave)"),
    _rv("vrdintlv", _RR, RVC.VRRELAYOUT, "vD = the even, vE the odd elements of vA then vB "
        "(DeInterleave)"),
    _rv("vrpack", (("d", "vreg"), ("a", "vreg")), RVC.VRPACK, "the low DST bits of each element "
        "of vA (of SRC) into the low half of vD (half=highest: the high half), the other half 0 "
        "(Pack)", src_typed=True, keys=("half",)),
    _rv("pintlv", (("d", "preg"), ("e", "preg"), ("a", "preg"), ("b", "preg")), RVC.PRELAYOUT,
        "pD, pE = the size-bit groups of pA and pB interleaved (MaskReg Interleave<T>)"),
    _rv("pdintlv", (("d", "preg"), ("e", "preg"), ("a", "preg"), ("b", "preg")), RVC.PRELAYOUT,
        "pD = the even, pE the odd size-bit groups of pA then pB (MaskReg DeInterleave<T>)"),
    _rv("ppack", (("d", "preg"), ("a", "preg")), RVC.PRELAYOUT, "the even bits of pA into the "
        "low half of pD (half=highest: the high half), the other half 0 (MaskReg Pack)",
        typed=False, keys=("half",)),
    _rv("punpack", (("d", "preg"), ("a", "preg")), RVC.PRELAYOUT, "each bit of pA's low half "
        "(half=highest: high half) as two bits, the upper 0 (MaskReg UnPack)", typed=False,
        keys=("half",)),
    _rv("vrunpack", (("d", "vreg"), ("a", "vreg")), RVC.VRUNPACK, "vD = the low half of vA (of "
        "SRC; half=highest: the high half) widened to DST, signed types sign-extended (UnPack)",
        src_typed=True, keys=("half",)),
):
    if _d.name in INSTRUCTIONS:
        raise ValueError(f"issue 34 row {_d.name} would replace an existing mnemonic")
    INSTRUCTIONS[_d.name] = _d

# --- issue 34 (h34a): unaligned loads and stores, gathers, block reductions (isa/regvec_data.py)
KEYS["ar"] = Key("ar", 0, 1, 0, False, "Squeeze's GatherMaskMode: 1 STORE_REG (the kept "
                 "elements' bytes into AR for an AR-form StoreUnAlign)")
KEYS["cum"] = Key("cum", 0, 1, 0, False, "Histograms' HistogramsType: 0 FREQUENCY, 1 "
                  "ACCUMULATE")
KEYS["offset"] = Key("offset", 0, 31, 0, False, "MaskGenWithRegTensor's block: the 256/8·size-"
                     "byte block of the register whose bits make the mask")
_UL, _US = ("u", "ulreg"), ("u", "usreg")
for _d in (
    _rv("vldupre", (_UL, _A), RVD.VLDUPRE, "uU = ready for unaligned loads from ADDR "
        "(LoadUnAlignPre)", typed=False),
    _rv("vldu", (("d", "vreg"), _UL, _A), RVD.VLDU, "vD = the VL bytes at ADDR, any alignment, "
        "through uU (LoadUnAlign; post=)", keys=("post",)),
    _rv("vstu", (_A, ("s", "vreg"), _US, ("n", "xsrc")), RVD.VSTU, "the first N elements of vS "
        "to ADDR, any alignment: whole 32-byte blocks now, the last partial block kept in uU "
        "for the next vstu or vstupost (StoreUnAlign; post=)", keys=("post",)),
    _rv("vstupost", (_US, _A), RVD.VSTUPOST, "the bytes uU keeps to UB, ending at ADDR "
        "(StoreUnAlignPost)", typed=False, keys=("post",)),
    _rv("vsct", (_A, ("s", "vreg"), ("i", "vreg"), ("m", "preg")), RVD.VSCATTER,
        "element k of vS to ADDR + vI[k] elements where pM enables k (Scatter; indices of T's "
        "width, unsigned; 8-bit T: u16 indices, element 2k of vS to ADDR + vI[k], bit 2k of pM)"),
    _rv("vgth", (("d", "vreg"), _A, ("i", "vreg"), ("m", "preg")), RVD.VGATHER,
        "vD[k] = the element at ADDR + vI[k] elements where pM enables k, else 0 (Gather from "
        "UB)"),
    _rv("vgthw", (("d", "vreg"), _A, ("i", "vreg"), ("m", "preg")), RVD.VGATHERW,
        "vD[k] = the byte at ADDR + vI[k] (vI: u16) zero-extended to 16 bits where pM enables k "
        "(bit 2k), else 0 (Gather from UB of int8_t / uint8_t into int16_t / uint16_t)",
        src_typed=True),
    _rv("vgthb", (("d", "vreg"), _A, ("i", "vreg"), ("m", "preg")), RVD.VGATHERB,
        "block j of vD = the 32 bytes at ADDR + vI[j] bytes (vI: u32, 32-byte multiples, j < 8) "
        "where pM's bit 4j is set (the mask read as b32), else vD's block kept (GatherB)"),
    _rv("vrgather", (("d", "vreg"), ("a", "vreg"), ("i", "vreg")), RVD.VRGATHER,
        "vD[k] = vA[vI[k] mod N] (Gather within a register)"),
    *(_rv(f"vredblk{op}", _RU, RVD.VREDBLK, f"vD[j] = the {doc} of the elements pM enables in "
          f"32-byte block j of vA, j < 8, the other elements 0 (ReduceDataBlock {op.upper()})")
      for op, doc in (("sum", "binary-tree sum"), ("max", "largest"), ("min", "smallest"))),
    _rv("vredblkwsum", _RU, RVD.VREDBLKW, "vD[j] = the sum of the elements pM enables in "
        "32-byte block j of vA (16-bit SRC), as DST (32-bit: exact), j < 8, the other elements 0 "
        "(ReduceDataBlock SUM int16 → int32, uint16 → uint32)", src_typed=True),
    _rv("vredsumw", _RU, RVD.VREDW, "vD[0] = the sum of the 16-bit elements of vA pM enables, "
        "as DST (32-bit: exact), the other elements 0 (Reduce SUM int16 → int32, uint16 → "
        "uint32)", src_typed=True),
    _rv("vrexpsub", _RB, RVD.VREXPSUB, "vD[k] = e^(vA[k] - vB[k]) in f32 where pM enables the "
        "source element, else 0 (ExpSub; f16 sources: element 2k + part, widened exactly)",
        src_typed=True, keys=("part",)),
    _rv("vrpairsum", _RU, RVD.VRPAIR, "vD[k] = vA[2k] + vA[2k+1], disabled elements 0, for k < "
        "N/2, the other half 0 (PairReduceElem SUM)"),
    _rv("pgenv", (("d", "preg"), ("a", "vreg")), RVD.PGENV, "pD = the bits of block OFFSET of vA "
        "(16 bytes for 16-bit T, 8 for 32-bit), each repeated size times "
        "(MaskGenWithRegTensor)", keys=("offset",)),
    _rv("vrmovm", _RU, RVD.VRMOVM, "vD[k] = vA[k] where pM enables k, else unchanged (Move with a "
        "mask, MERGING)"),
    _rv("vrsqz", _RU, RVD.VRSQZ, "vD = the elements of vA pM enables, in order from element 0, "
        "the rest 0 (Squeeze; ar=1: STORE_REG, AR = their bytes)", keys=("ar",)),
    _rv("vrhist", _RU, RVD.VRHIST, "vD[n] += how many enabled elements of vA equal n (half="
        "highest: 128 + n); cum=1: are in [0, n] ([128, 128 + n]) (Histograms FREQUENCY / "
        "ACCUMULATE), modulo 2^16", src_typed=True, keys=("half", "cum")),
    _rv("vclrar", (), RVD.VCLRAR, "AR = 0 (ClearSpr<SpecialPurposeReg::AR>)", typed=False),
    _rv("vstuar", (_A, ("s", "vreg"), _US), RVD.VSTU, "the first AR bytes of vS, as vstu, at "
        "where the last vstuar through uU ended (the first: ADDR) (StoreUnAlign, AR form)"),
    _rv("vstupostar", (_US, _A), RVD.VSTUPOST, "the bytes uU keeps to UB, where they belong "
        "(StoreUnAlignPost after AR-form stores)", typed=False),
):
    if _d.name in INSTRUCTIONS:
        raise ValueError(f"issue 34 row {_d.name} would replace an existing mnemonic")
    INSTRUCTIONS[_d.name] = _d


class Table:
    """An instruction table: mnemonic → record, plus the typed API forms whose mnemonic is also
    a scalar instruction. `TABLE` is pipev's own; `extended` gives a new table with more rows
    (a made-up family in a test, a plug-in) and leaves this one as it is. The assembler reads
    the table it is given; a Program keeps the one it was assembled with."""

    __slots__ = ("instructions", "typed_forms", "keys")

    def __init__(self, instructions: Mapping[str, InstrDef],
                 typed_forms: Mapping[str, InstrDef] = MappingProxyType({}),
                 keys: Mapping[str, Key] = MappingProxyType(KEYS)):
        self.instructions = MappingProxyType(dict(instructions))
        self.typed_forms = MappingProxyType(dict(typed_forms))
        self.keys = MappingProxyType(dict(keys))  # the keyword fields rows may name

    def lookup_form(self, name: str, typed: bool) -> InstrDef | None:
        """The record of mnemonic NAME; TYPED: a type modifier follows it."""
        if typed and name in self.typed_forms:
            return self.typed_forms[name]
        return self.instructions.get(name)

    def all_defs(self) -> tuple[InstrDef, ...]:
        return tuple(self.instructions.values()) + tuple(self.typed_forms.values())

    def extended(self, *defs: InstrDef, keys: Iterable[Key] = ()) -> Table:
        """This table plus DEFS (a row of an existing mnemonic replaces it) and the keyword
        fields KEYS they name beyond this table's."""
        return Table(*self._extended_parts(defs, keys))

    def _extended_parts(self, defs: Iterable[InstrDef], keys: Iterable[Key]) -> tuple:
        return ({**self.instructions, **{d.name: d for d in defs}}, self.typed_forms,
                {**self.keys, **{k.name: k for k in keys}})

    def cost_classes(self) -> tuple[str, ...]:
        """The timing cost classes of everything issued to V."""
        return tuple(dict.fromkeys(c for d in self.instructions.values() if d.level != "api"
                                   and d.family.pipe == "V" for c in d.family.cost_classes()))

    def type_families(self) -> tuple[str, ...]:
        """The chip type-family keys the table names (InstrDef.types)."""
        return tuple(dict.fromkeys([*(d.types for d in self.all_defs()
                                      if d.types and d.types != "conv"),
                                    *(d.src_pairs for d in self.all_defs() if d.src_pairs)]))


TABLE = Table(INSTRUCTIONS, TYPED_FORMS)
INSTRUCTIONS = TABLE.instructions  # pipev's own rows, read-only: extend a Table instead
TYPED_FORMS = TABLE.typed_forms
KEYS = TABLE.keys


def lookup_form(name: str, typed: bool) -> InstrDef | None:
    """pipev's own record of mnemonic NAME (TABLE.lookup_form)."""
    return TABLE.lookup_form(name, typed)


def all_defs() -> tuple[InstrDef, ...]:
    return TABLE.all_defs()


def cost_classes() -> tuple[str, ...]:
    """The timing cost classes the chip profiles must define: pipev's own table's."""
    return TABLE.cost_classes()


def type_families() -> tuple[str, ...]:
    """The chip type-family keys pipev's own table names."""
    return TABLE.type_families()
