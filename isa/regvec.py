"""Issue 34: ascend950's register-based vector unit (docs/semantics.md §15, docs/machine.md §1.4).

On the 950 (`__NPU_ARCH__` 3510) vector data moves from UB into 256-byte vector registers
(AscendC `Reg::RegTensor`), is computed there under 256-bit predicate registers (`Reg::MaskReg`,
VL/8 bits: an element of b bytes is governed by bit b·k, the lowest of its b bits) and is stored
back. This module holds the facts of that unit the ISA needs: the register files' shape, the
MaskPattern names, the families of its instructions and the operand kinds of its registers. The
rows themselves are in isa/table.py; the semantics in simulator/semantics/regvec.py.
"""

from __future__ import annotations

import re

from isa.families import Family, Requirement
from isa.lexer import LexError
from isa.types import DType

VL = 256  # bytes of a vector register (RegTensor)
PL = VL // 8  # bytes of a mask register (MaskReg): one bit per byte of VL
VREGS = 32  # RegTensor registers (the vendor's RegTensor page: at most 32)
PREGS = 8  # MaskReg registers (the MaskReg page: at most 8)
# the compiler's spill slots past them (the C API's data-type page: RegTensors past 32, MaskRegs
# past 8 go to the 8 KB UB reserve): v32..v63 (256 bytes of the reserve each) and p8..p63 (32
# bytes each; the C++ face keeps their sum within the chip's reserve). An instruction naming one
# costs a reload per slot it reads and a spill per slot it writes (`spill_traffic`, docs/
# timing.md §T9); its values are the machine's like any register's
SPILL_VREGS = 32
FILE_VREGS = VREGS + SPILL_VREGS
FILE_PREGS = 64
REGVEC = "regvec"  # the family kind: an instruction of the reg-based unit (V)
# the chip's [reg_timing] rows
COST_CLASSES = ("vf", "mask", "load", "store", "compute", "math", "reduce", "convert",
                "gather")

# CreateMask's MaskPattern, in the enum's order (the C API's `Pat`, ALLF = 15)
PATTERNS = ("ALL", "VL1", "VL2", "VL3", "VL4", "VL8", "VL16", "VL32", "VL64", "VL128", "M3",
            "M4", "H", "Q")
ALLF = "ALLF"
PATTERN_VALUES = {**{p: i for i, p in enumerate(PATTERNS)}, ALLF: 15}
# LoadAlign's LoadDist (the LoadAlign page's table): name -> (UB bytes read, alignment, element
# bytes of the distribution: 0 = T's). norm: VL; brc: one element in every lane; us: VL/2, each
# element twice; ds: 2·VL, every other element; unpack: VL/2 of unsigned elements, each followed
# by a zero one (unpack4: VL/4, three zeros); blk: one 32-byte block in every block; e2b: VL/16
# (b16) or VL/8 (b32) bytes, each element broadcast to a 32-byte block
LOAD_DISTS: dict[str, tuple[int, int, int]] = {
    "norm": (VL, 32, 0), "brc_b8": (1, 1, 1), "brc_b16": (2, 2, 2), "brc_b32": (4, 4, 4),
    "us_b8": (VL // 2, 32, 1), "us_b16": (VL // 2, 32, 2), "ds_b8": (2 * VL, 32, 1),
    "ds_b16": (2 * VL, 32, 2), "unpack_b8": (VL // 2, 32, 1), "unpack_b16": (VL // 2, 32, 2),
    "unpack_b32": (VL // 2, 32, 4), "unpack4_b8": (VL // 4, 32, 1), "blk": (32, 32, 0),
    "e2b_b16": (VL // 16, VL // 16, 2), "e2b_b32": (VL // 8, VL // 8, 4)}
DISTS = tuple(LOAD_DISTS)
# StoreAlign's StoreDist: name -> (alignment, element bytes written per element of T: the low
# part kept); first: element 0 only, whatever the mask; pack: each element's low half, pack4:
# its low quarter, at consecutive positions (narrowed, the element's index kept)
STORE_DISTS: dict[str, int] = {"norm": 32, "first": 0, "pack": 32, "pack4": 32}
SDISTS = tuple(STORE_DISTS)

REG_RE = {"vreg": re.compile(r"^v([0-9]|[1-5][0-9]|6[0-3])$"),
          "preg": re.compile(r"^p([0-9]|[1-5][0-9]|6[0-3])$"),
          # h34a: UnalignRegForLoad ul0..ul3, UnalignRegForStore us0..us3 (at most 4 each)
          "ulreg": re.compile(r"^ul([0-3])$"), "usreg": re.compile(r"^us([0-3])$")}
REG_KINDS = ("vreg", "preg", "pattern", "memtype", "ulreg", "usreg")
UREGS = 4  # unaligned-load and unaligned-store registers (the UnalignReg page: at most 4 each)
# LocalMemBar's MemType, as .vasm words: vst VEC_STORE, vld VEC_LOAD, vall VEC_ALL, sst
# SCALAR_STORE, sld SCALAR_LOAD, sall SCALAR_ALL
MEMTYPES = ("vst", "vld", "sst", "sld", "vall", "sall")

NEEDS = Requirement("reg_vector", "{name} is an instruction of the reg-based vector unit, which "
                    "{chip} does not have (ascend950 only)")


def pattern_active(pattern: str, n: int) -> int:
    """How many of the first elements MaskPattern PATTERN enables among N (M3/M4: -3/-4, every
    third / fourth element from element 0)."""
    if pattern == "ALL":
        return n
    if pattern == ALLF:
        return 0
    if pattern.startswith("VL"):
        return min(int(pattern[2:]), n)
    if pattern in ("M3", "M4"):
        return -int(pattern[1])
    return n // 2 if pattern == "H" else n // 4


def spill_traffic(instr) -> tuple[int, int]:
    """(reloads, spills) of INSTR: its register operands in spill slots (v32..v63, p8..p63)
    that it reads, and that it writes (D, E)."""
    reads = writes = 0
    for role, kind in instr.defn.operands:
        first = VREGS if kind == "vreg" else PREGS if kind == "preg" else None
        if first is not None and role in instr.operands and instr.operands[role].value >= first:
            if role in ("d", "e"):
                writes += 1
            else:
                reads += 1
    return reads, writes


def reg_value(kind: str, text: str, off: int) -> int | str:
    """A register operand's number (v0..v63, p0..p63: past v31 and p7 spill slots) or a
    MaskPattern word."""
    if kind == "memtype":
        word = text.strip().lower()
        if word not in MEMTYPES:
            raise LexError(f"expected a MemType ({' '.join(MEMTYPES)}), got '{text}'", off)
        return word
    if kind == "pattern":
        word = text.strip().upper()
        if word not in PATTERN_VALUES:
            raise LexError(f"expected a MaskPattern ({' '.join(PATTERN_VALUES)}), got '{text}'",
                           off)
        return word
    m = REG_RE[kind].match(text.strip())
    if m is None:
        what = {"vreg": f"v0..v{FILE_VREGS - 1}", "preg": f"p0..p{FILE_PREGS - 1}",
                "ulreg": "ul0..ul3", "usreg": "us0..us3"}[kind]
        raise LexError(f"expected a register {what}, got '{text}'", off)
    return int(m.group(1))


_ALL = ("s8", "u8", "s16", "u16", "f16", "bf16", "s32", "u32", "f32", "s64", "u64")
_INTS = ("s8", "u8", "s16", "u16", "s32", "u32", "s64", "u64")
# ascend950's 8-bit floats and fp4 pairs (issue 34): loaded, stored and copied as bytes (the
# LoadAlign / StoreAlign / LoadUnAlign / StoreUnAlign pages list them), converted by Cast
_LOW8 = ("f8e4m3", "f8e5m2", "hif8", "f4e2m1", "f4e1m2")
# the element types of each mnemonic, from its Reg API page's data-type table (complex types
# aside); a mnemonic not listed takes _ALL
TYPES: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("vlds", "vsts", "vldu", "vstu", "vrmov"), _ALL + _LOW8 + ("s4",)),
    "vrmul": ("s16", "u16", "f16", "bf16", "s32", "u32", "f32", "s64", "u64"),
    "vrmuls": ("s16", "u16", "f16", "bf16", "s32", "u32", "f32", "s64", "u64"),
    "vrabs": ("s8", "s16", "f16", "bf16", "s32", "f32", "s64"),
    "vrneg": ("s8", "s16", "f16", "s32", "f32", "s64"),
    "vrrelu": ("f16", "s32", "f32", "s64"),
    **dict.fromkeys(("vrand", "vror", "vrxor", "vrnot"), _INTS),
    # LeakyRelu (half, float); ShiftLeft(s) / ShiftRight(s): the eight integer types
    "vrlrelu": ("f16", "f32"),
    **dict.fromkeys(("vrshl", "vrshr", "vrshls", "vrshrs"), _INTS),
    **dict.fromkeys(("vrexp", "vrln", "vrsqt"), ("f16", "f32")),
    # MulDstAdd (its page's table 3: half, bfloat16_t, float; the C API's asc_madd: half, float)
    "vrmadd": ("f16", "bf16", "f32"),
    # the Div page (DivAlgo INTRINSIC): integers truncate toward zero (semantics.md §15)
    "vrdiv": ("s16", "u16", "f16", "s32", "u32", "f32", "s64", "u64"),
    "vredsum": ("f16", "f32", "s32", "u32", "s64", "u64"),
    **dict.fromkeys(("vredmax", "vredmin"), ("s16", "u16", "f16", "s32", "u32", "f32", "s64",
                                             "u64")),
}


class RegFamily(Family):
    """An instruction of the reg-based unit: issued by S to V, ascend950 only; its cost class is
    a row of the profile's [reg_timing] table (timing.md §T9), not of [timing.classes]."""

    def cost_class(self, fields: dict, t: DType | None = None) -> str:
        return self.cost

    def cost_classes(self) -> tuple[str, ...]:
        return ()

    def chip_problem(self, name: str, chip, fields: dict, t: DType | None
                     ) -> tuple[str, str] | None:
        if not getattr(chip, "reg_vector", False):
            return NEEDS.message.format(name=name, chip=chip.name), ""
        types = TYPES.get(name, _ALL)
        if t is not None and t.name not in types:
            return f"{name}.{t.name} is not supported (supports {', '.join(types)})", ""
        return None


def _fam(name: str, cost: str) -> RegFamily:
    return RegFamily(name, REGVEC, "V", cost, requires=NEEDS)


VF_BEGIN = _fam("vf_begin", "vf")  # a VF starts: its registers are not yet written
VF_END = _fam("vf_end", "vf")
PSET = _fam("pset", "mask")  # CreateMask
PLT = _fam("plt", "mask")  # UpdateMask
PLOGIC = _fam("plogic", "mask")  # MaskReg Not / And / Or / Xor, Move
VLOAD = _fam("vload", "load")  # LoadAlign into a RegTensor
VLOAD2 = _fam("vload2", "load")  # LoadAlign into two RegTensors (DIST_DINTLV)
VLOADB = _fam("vloadb", "load")  # LoadAlign by DataBlocks (DataCopyMode DATA_BLOCK_COPY)
VSTORE2 = _fam("vstore2", "store")  # StoreAlign of two RegTensors (DIST_INTLV)
VSTOREB = _fam("vstoreb", "store")  # StoreAlign by DataBlocks
VSTORE = _fam("vstore", "store")  # StoreAlign from a RegTensor
PLOAD = _fam("pload", "load")  # LoadAlign into a MaskReg
PSTORE = _fam("pstore", "store")  # StoreAlign from a MaskReg
VRCMP = _fam("vrcmp", "compute")  # Compare / Compares into a MaskReg
VRSEL = _fam("vrsel", "compute")  # Select with a MaskReg
VRDUP = _fam("vrdup", "compute")  # Duplicate
VRBIN = _fam("vrbin", "compute")  # Add Sub Mul Max Min And Or Xor, ShiftLeft ShiftRight
VRUN = _fam("vrun", "compute")  # Abs Neg Relu Not, Move
VRSCALAR = _fam("vrscalar", "compute")  # Adds Muls Maxs Mins LeakyRelu ShiftLefts ShiftRights
MEMBAR = _fam("membar", "mask")  # LocalMemBar
VRREDUCE = _fam("vrreduce", "reduce")  # Reduce SUM / MAX / MIN
VRMATH = _fam("vrmath", "math")  # Exp Ln Sqrt
VRFMA = _fam("vrfma", "compute")  # MulDstAdd: vD read as well as written


# Div's DivSpecificMode algo (the Div page's DivAlgo, in its order): the 1-ulp modes run the
# instruction, the 0-ulp ones the difference-compensation sequence; every mode but p0ulp and
# p1ulp (the FTZ_FALSE ones) flushes subnormal inputs and results to zero. pipev's quotient is
# correctly rounded in every mode (docs/semantics.md §15, docs/decisions.md)
DIV_ALGOS = ("intrinsic", "diff", "p1ulp_ftz", "p0ulp_ftz", "p0ulp", "p1ulp")
DIV_KEEPS_SUBNORMALS = frozenset({"p0ulp", "p1ulp"})
# the types each mode takes (the Div page's data-type list; complex types aside)
DIV_ALGO_TYPES = {**dict.fromkeys(("intrinsic", "p1ulp_ftz"), TYPES["vrdiv"]),
                  **dict.fromkeys(("diff", "p0ulp_ftz", "p0ulp"), ("f32",)),
                  "p1ulp": ("f16", "f32")}


class DivFamily(RegFamily):
    """Div: its DivAlgo takes the types the page lists for it."""

    __slots__ = ()

    def chip_problem(self, name: str, chip, fields: dict, t: DType | None
                     ) -> tuple[str, str] | None:
        problem = super().chip_problem(name, chip, fields, t)
        algo = DIV_ALGOS[fields.get("algo", 0)]
        if problem is None and t is not None and t.name not in DIV_ALGO_TYPES[algo]:
            return (f"{name}.{t.name}: DivAlgo {algo} takes "
                    f"{', '.join(DIV_ALGO_TYPES[algo])}", "")
        return problem


VRMATHBIN = DivFamily("vrmathbin", REGVEC, "V", "math", requires=NEEDS)  # Div


# Sqrt's SqrtAlgo (the Reg Sqrt page's SqrtSpecificMode and the Memory Sqrt page's SqrtConfig, in
# the enum's order): fast and p0ulp (FAST_INVERSE, PRECISION_0ULP_FTZ_FALSE) are the fast-inverse
# algorithm, 0 ulp, f32 only, subnormals kept, an input above 2^126 giving 0 (the Memory page);
# p1ulp (PRECISION_1ULP_FTZ_FALSE) keeps subnormals; intrinsic and p1ulp_ftz flush them. pipev's
# root is correctly rounded in every mode (docs/semantics.md §15, docs/decisions.md)
SQRT_ALGOS = ("intrinsic", "fast", "p1ulp_ftz", "p0ulp", "p1ulp")
SQRT_KEEPS_SUBNORMALS = frozenset({"fast", "p0ulp", "p1ulp"})
SQRT_FAST = frozenset({"fast", "p0ulp"})
SQRT_FAST_LIMIT = 2.0 ** 126  # the Memory Sqrt page's 85070596800837026223494223584045301760


class SqrtFamily(RegFamily):
    """Sqrt: the fast-inverse SqrtAlgo modes take float only (the pages)."""

    __slots__ = ()

    def chip_problem(self, name: str, chip, fields: dict, t: DType | None
                     ) -> tuple[str, str] | None:
        problem = super().chip_problem(name, chip, fields, t)
        algo = SQRT_ALGOS[fields.get("salgo", 0)]
        if problem is None and t is not None and algo in SQRT_FAST and t.name != "f32":
            return f"{name}.{t.name}: SqrtAlgo {algo} (the fast-inverse algorithm) takes f32", ""
        return problem


VRSQRT = SqrtFamily("vrsqrt", REGVEC, "V", "math", requires=NEEDS)  # Sqrt
