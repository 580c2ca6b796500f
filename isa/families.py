"""Instruction families: one record per family answers every question the rest of pipev asks
about an instruction's shape (docs/machine.md §5–§8) — which pipe issues it, which operand is data,
select mask, scalar or CMPMASK address, whether it writes bits or ignores MASK, whether it reads or
writes CMPMASK, its timing cost class, the type of each operand, the chip capability it needs and
the operand rules the assembler checks.

Decode, listing, executor, checks, timing, hazard checks, traces and the debugger ask the family;
nothing outside `isa/` and `simulator/semantics/` branches on a mnemonic or a family name.
Adding an instruction of a new shape is a new record (a subclass where a field decides the
shape, as vsel's mode does) plus its semantics, in an instruction set handed to the run (here for
pipev's own; `InstructionSet.extended` for anyone else's: docs/decisions.md).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import attrs

from isa.types import ROUND_MODES, TYPES, DType

# the chip-aware methods take an isa.chip.Chip, typed Any: the chip module reads the table,
# which reads these records
AnyChip = Any

BITS = TYPES["u8"]
# operand roles no access is decoded for: the scalar (read at issue) and a guard, a scalar
# element the destination must not overlap (docs/semantics.md §8.1), checked at run time
NOT_ACCESSED = ("scalar", "guard")

# What a family is, for the generic parts of the machine (the executor's loop and the observers):
VECTOR = "vector"  # repeat-driven vector instruction on V (decoded into a VectorOp)
CMPMASK_MOVE = "cmpmask_move"  # CMPMASK <-> UB
DMA = "dma"  # a copy between UB and GM, or within UB (DmaOp)
REGISTER = "register"  # writes MASK or the mask mode (S)
SET_FLAG, WAIT_FLAG, BARRIER = "set_flag", "wait_flag", "barrier"
LOCK, UNLOCK = "mutex_lock", "mutex_unlock"  # ascend950's Mutex (#34): a pipe takes / frees an id
SCALAR = "scalar"  # the scalar unit: ALU, li, mov, addr, nop
CONTROL = "control"  # branches, jumps, halt
API = "api"  # an API statement: expands into hardware instructions, never executed itself
HOST = "host"  # a front end's scalar code touching UB directly (GetValue / SetValue): untimed
SYNC_KINDS = (SET_FLAG, WAIT_FLAG, BARRIER, LOCK, UNLOCK)


class Requirement(NamedTuple):
    """A chip capability a family needs: a boolean field of isa.chip.Chip, and the error the
    assembler reports on a chip without it ({name}: the mnemonic, {chip}: the chip's name)."""

    capability: str
    message: str


class Operand(NamedTuple):
    """How one operand of a decoded vector instruction is accessed.

    `role` names it in decodings, checks and events (`sel` is the select mask); `source` is the
    instruction operand its address comes from (None: from CMPMASK[31:0]); `kind` is `vector`
    (block/repeat strides), `bits` (a contiguous bit stream) or `packed` (`count` elements of
    its type a repeat, repeats back to back: a per-repeat reduction's destination)."""

    role: str
    source: str | None
    kind: str = "vector"
    write: bool = False
    count: int = 0  # packed: elements a repeat


@attrs.frozen
class Family:
    """One family's record. Its fields are every family's (a field only some families use says
    which); a subclass adds behaviour, never fields, so it is a plain subclass (each attrs class
    costs start-up: ~0.5 ms to generate its methods)."""

    name: str
    kind: str
    pipe: str = "S"  # issuing pipe; the sync families take it from their operands
    cost: str = ""  # timing cost class (simulator/timing reads the profile row of this name)
    bit_output: bool = False  # dst is a contiguous bit stream, sources read whole, MASK ignored
    one_repeat: bool = False  # exactly one repeat whatever `repeat` says (vcmp)
    writes_cmpmask: bool = False
    reads_cmpmask: bool = False
    cmpmask_role: str = ""  # CMPMASK moves: the operand holding the UB address ("src"/"dst")
    sets_mask_mode: bool | None = None  # mask-mode families: the mode they set (True: counter)
    needs_burst: bool = False  # DMA: `burst=` has no default
    byte_bursts: bool = False  # padded DMA: `len=` bytes a burst (no default), GM gaps in bytes
    pipe_operand: str = ""  # sync families: src (set_flag), dst (wait_flag), pipe (pipe_barrier)
    requires: Requirement | None = None  # the chip capability it needs (None: every chip)
    distinct_pipes: tuple[str, ...] = ()  # operands that must name different pipes
    listed_keys: tuple[str, ...] = ()  # keys the listing shows at their default when unset
    # operands laid out packed: (role, elements a repeat), e.g. (("dst", 1),) for a reduction
    # writing one element a repeat back to back (no strides of their own, MASK aside)
    packed: tuple[tuple[str, int], ...] = ()
    # normal mode ignores MASK (every element of a repeat active); in counter mode each of
    # `repeat` repeats takes MASK_LO elements (GatherMask's counter mode on A2/A3)
    counter_per_repeat: bool = False
    mask_ignored: bool = False  # MASK is not applied: every element of `repeat` repeats active
    # operands whose bytes decide which bytes the instruction touches (GatherMask's pattern):
    # `check` cannot decide the rest of its checks without the data
    data_roles: tuple[str, ...] = ()
    # writes a scalar register from memory or a register data set (a load, GetRsvdCnt): what
    # the loop probe (simulator/runaway.py) needs to know to tell a loop's next pass from data
    reads_state: bool = False
    modes: dict[int, SelectMode] = attrs.field(factory=dict, eq=False, hash=False)  # vsel's

    # -- operands -----------------------------------------------------------------------------
    def operands(self, roles: tuple[str, ...], fields: dict, t: DType | None = None
                 ) -> tuple[Operand, ...]:
        """The accesses of a vector instruction with these operand roles and fields (and type
        T, where a packed operand's elements a repeat depend on it)."""
        out = []
        packed = self.packed_counts(fields, t)
        for role in roles:
            if role in NOT_ACCESSED:
                continue
            if role in packed:
                out.append(Operand(role, role, "packed", role == "dst", packed[role]))
                continue
            kind = "bits" if self.bit_output and role == "dst" else "vector"
            out.append(Operand(role, role, kind, role == "dst"))
        return tuple(out)

    def packed_counts(self, fields: dict, t: DType | None) -> dict[str, int]:
        """Each packed operand's elements a repeat."""
        return dict(self.packed)

    def operand_kind(self, role: str, kind: str, fields: dict, chip: AnyChip) -> str:
        """The assembler's operand kind for ROLE (the table's, unless fields change it)."""
        return kind

    def operand_align(self, role: str, fields: dict, t: DType | None) -> int:
        """The byte alignment operand ROLE's address needs (every vector operand's 32)."""
        return 32

    def operand_type(self, role: str, t: DType, src: DType | None = None) -> DType:
        """The element type of operand ROLE when the instruction's type is T (and its source
        type SRC, for families with two)."""
        return BITS if self.bit_output and role == "dst" else t

    def repeat_elements(self, t: DType, src: DType | None = None) -> int:
        """Elements one repeat processes: 256 bytes of the instruction's (widest) type."""
        return t.per_repeat

    def default_strides(self, names: tuple[str, ...], default: tuple[int, ...], t: DType,
                        src: DType | None = None) -> tuple[int, ...]:
        """The stride fields an instruction gets when the text gives none."""
        return default

    def full_roles(self) -> tuple[str, ...]:
        """Operands read in full whatever MASK says (the sources of bit-output compares)."""
        return ("src0", "src1", "src") if self.bit_output else ()

    def sel_column_source(self, fields: dict) -> str | None:
        """The instruction operand whose column points at the select mask (None: the
        mnemonic's)."""
        return None

    def cmpmask_reads(self, fields: dict) -> bool:
        return self.reads_cmpmask

    def cmpmask_addr(self, fields: dict) -> bool:
        """Whether the select mask's address comes from CMPMASK[31:0]."""
        return False

    def cost_class(self, fields: dict, t: DType | None = None) -> str:
        """The timing cost class of an instruction with these fields (and element type T)."""
        return self.cost

    def reads_before_writing(self) -> bool:
        """Whether a repeat reads all its sources before it writes: its destination may then
        overlap its own sources partially (a reduction's result over its input)."""
        return False

    def reads_by_element(self, role: str) -> bool:
        """Whether source ROLE is read element by element at addresses of its own (a gather's
        source): within a repeat its reads may then meet the destination anywhere but where an
        earlier element of the repeat wrote (`simulator/checks.py` `_earlier_element`)."""
        return False

    def chip_problem(self, name: str, chip: AnyChip, fields: dict, t: DType | None
                     ) -> tuple[str, str] | None:
        """Why CHIP cannot run instruction NAME with these fields and type, and
        the key the problem is about ("": the mnemonic); None when it can."""
        r = self.requires
        if r is not None and not getattr(chip, r.capability):
            return r.message.format(name=name, chip=chip.name), ""
        return None

    def cost_classes(self) -> tuple[str, ...]:
        return (self.cost,) if self.cost else ()

    def block_stride(self, role: str, fields: dict) -> int:
        """Operand ROLE's block stride (its `ROLE_blk` field, 1 by default)."""
        return fields.get(f"{role}_blk", 1)

    def repeat_stride(self, role: str, fields: dict, n: int) -> int:
        """Operand ROLE's repeat stride in blocks (its `ROLE_rep` field, 8 by default) when a
        repeat has N elements."""
        return fields.get(f"{role}_rep", 8)

    def repeat_accumulator(self, vop: Any) -> str | None:
        """The source that may read what the previous repeat wrote (a documented exception to
        the overlap rules, run repeat by repeat), or None."""
        return None

    def issuing_pipe(self, instr: Any) -> str:
        """The pipe an instruction (isa.program.Instruction) of this family occupies."""
        return self.pipe


# -- issue 28 (28b): gathers and layout shapes ---------------------------------------------------
class GatherMaskFamily(Family):
    """vreducev2 (AscendC GatherMask): the elements of src0 whose pattern bit is set, written
    back to back from dst (`compact`: how many is known only with the pattern's bits, at
    issue); the pattern is built in (`pattern=1..7`, no src1) or a bit row of src1 a repeat
    (`pattern=0`: n/8 bytes, repeats src1_rep blocks apart: `bitrows`). MASK is ignored in
    normal mode; in counter mode a repeat is MASK_LO elements, however many blocks they span
    (`counter_per_repeat`; docs/semantics.md, GatherMask)."""

    __slots__ = ()

    def operands(self, roles: tuple[str, ...], fields: dict, t: DType | None = None
                 ) -> tuple[Operand, ...]:
        out = []
        for role in roles:
            if role == "dst":
                out.append(Operand("dst", "dst", "compact", True))
            elif role == "src1":
                if fields.get("pattern", 0) == 0:
                    out.append(Operand("src1", "src1", "bitrows"))
            elif role not in NOT_ACCESSED:
                out.append(Operand(role, role, "vector"))
        return tuple(out)

    def operand_type(self, role: str, t: DType, src: DType | None = None) -> DType:
        return BITS if role == "src1" else t


class SelectMode(NamedTuple):
    """One vsel mode: where the select bits come from and what src1 is (docs/semantics.md §6.2)."""

    sel: str  # cmpmask (bits in CMPMASK), src1 (bits at src1's address), cmpmask_addr
    scalar_src1: bool  # src1 is the scalar held in CMPMASK's low bytes
    cost: str


class SelectFamily(Family):
    """vsel: the mode field decides which operand is the select mask and what src1 is (`modes`)."""

    __slots__ = ()

    def mode(self, fields: dict) -> SelectMode:
        return self.modes[fields.get("mode", 0)]

    def operands(self, roles: tuple[str, ...], fields: dict, t: DType | None = None
                 ) -> tuple[Operand, ...]:
        m = self.mode(fields)
        out = []
        for role in roles:
            if role in NOT_ACCESSED:
                continue
            if role == "src1" and m.sel == "src1":
                out.append(Operand("sel", "src1", "bits"))
            else:
                out.append(Operand(role, role, "vector", role == "dst"))
        if m.sel == "cmpmask_addr":
            out.append(Operand("sel", None, "bits"))
        return tuple(out)

    def operand_kind(self, role: str, kind: str, fields: dict, chip: AnyChip) -> str:
        """Mode 1: src1 is the select mask (on a chip without the mode, the table's kind: the
        chip check reports the mode)."""
        mode = fields.get("mode", 0)
        if mode in chip.vsel_modes and role == "src1" and self.modes[mode].sel == "src1":
            return "bits"
        return kind

    def operand_type(self, role: str, t: DType, src: DType | None = None) -> DType:
        return BITS if role == "sel" else t

    def sel_column_source(self, fields: dict) -> str | None:
        return "src1" if self.modes[fields.get("mode", 0)].sel == "src1" else None

    def cmpmask_reads(self, fields: dict) -> bool:
        return True  # mode 0 bits, mode 1 scalar, mode 2 the mask address

    # the next three run once per executed vsel: the lookup is written out
    def cmpmask_addr(self, fields: dict) -> bool:
        return self.modes[fields.get("mode", 0)].sel == "cmpmask_addr"

    def scalar_src1(self, fields: dict) -> bool:
        return self.modes[fields.get("mode", 0)].scalar_src1

    def cost_class(self, fields: dict, t: DType | None = None) -> str:
        return self.modes[fields.get("mode", 0)].cost

    def cost_classes(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(m.cost for m in self.modes.values()))

    def chip_problem(self, name: str, chip: AnyChip, fields: dict, t: DType | None
                     ) -> tuple[str, str] | None:
        """The chip's modes and its CMPMASK width (8-bit mode 0) decide."""
        mode = fields.get("mode", 0)
        problem = chip.select_mode_problem(name, mode, t.size, t.name)
        if problem is None:
            return None
        return problem, "mode" if mode not in chip.vsel_modes else ""


class ConvFamily(Family):
    """vconv: source and destination of their own types, possibly of different sizes. A repeat
    covers 256 bytes of the wider operand (N = 256 / the wider size; MASK bit k enables element
    k of both); each operand's blocks hold 32 bytes of its own type, so the narrower operand
    reads or writes fewer blocks per repeat (docs/machine.md §5, docs/decisions.md)."""

    __slots__ = ()

    def operand_type(self, role: str, t: DType, src: DType | None = None) -> DType:
        return src if role == "src" and src is not None else t

    def repeat_elements(self, t: DType, src: DType | None = None) -> int:
        return 256 // max(t.size, src.size if src is not None else t.size)

    def default_strides(self, names: tuple[str, ...], default: tuple[int, ...], t: DType,
                        src: DType | None = None) -> tuple[int, ...]:
        """Contiguous by default: each operand's repeat stride is the blocks it covers."""
        n = self.repeat_elements(t, src)
        out = []
        for name, d in zip(names, default, strict=True):
            role, what = name.rsplit("_", 1)
            out.append(n * self.operand_type(role, t, src).bits // 256 if what == "rep" else d)
        return tuple(out)


class SyncFamily(Family):
    """set_flag / wait_flag / pipe_barrier: the pipe is an operand (`pipe_operand`)."""

    __slots__ = ()

    def issuing_pipe(self, instr: Any) -> str:
        p = instr.operands[self.pipe_operand].value
        return "S" if p == "ALL" else p


# -- reductions (issue 28, group 28a) ------------------------------------------------------------
# vcmax/vcmin's order field (AscendC ReduceOrder, the CCE intrinsics' Order_t 2'b00..2'b11)
REDUCE_ORDERS = ("value_index", "index_value", "only_value", "only_index")
REDUCE_TYPES = ("f16", "f32")  # the element types the reductions' cost classes are kept for


class ReduceFamily(Family):
    """The reductions: dst is packed, one repeat's result back to back with the next unless
    `dst_rep` (in units of one repeat's result, as the vendor counts it) says otherwise; a
    repeat's result is `packed` elements, or for vcmax/vcmin (`orders`) what the order field
    asks for: value and index (two elements, the index's raw bits in an element of the type),
    the value alone, or the index alone as a u32. dst needs the alignment of one result (at
    most 32 bytes). The cost class is per element type: the vendor's throughputs differ by
    type (`{cost}_{type}`, vector_throughput.csv)."""

    __slots__ = ()

    def packed_counts(self, fields: dict, t: DType | None) -> dict[str, int]:
        (role, n), = self.packed
        if t is None:
            return {role: n}
        if self.orders:
            order = REDUCE_ORDERS[fields.get("order", 0)]
            n = 4 // t.size if order == "only_index" else 1 if order == "only_value" else 2
        elif n == 0:  # pairs: half a repeat's bytes
            n = 128 // t.size
        return {role: n}

    def operand_align(self, role: str, fields: dict, t: DType | None) -> int:
        counts = self.packed_counts(fields, t)
        if role not in counts or t is None:
            return 32
        return min(32, counts[role] * t.size)

    def cost_class(self, fields: dict, t: DType | None = None) -> str:
        return f"{self.cost}_{t.name if t is not None else REDUCE_TYPES[0]}"

    def cost_classes(self) -> tuple[str, ...]:
        return tuple(f"{self.cost}_{t}" for t in REDUCE_TYPES)

    def reads_before_writing(self) -> bool:
        return True

    @property
    def orders(self) -> bool:
        """vcmax/vcmin: the result's layout follows the order field."""
        return "order" in self.listed_keys


def _reduce(name: str, cost: str, count: int, **kw) -> ReduceFamily:
    return ReduceFamily(name, VECTOR, "V", cost, packed=(("dst", count),), **kw)


# whole-repeat (ReduceRepeat), per block (ReduceDataBlock), pairs (ReducePairElem)
VCMAX = _reduce("vcmax", "reduce_repeat", 2, listed_keys=("order",))
VCMIN = _reduce("vcmin", "reduce_repeat", 2, listed_keys=("order",))
VCADD = _reduce("vcadd", "reduce_repeat", 1)
VCGMAX = _reduce("vcgmax", "reduce_block", 8)
VCGMIN = _reduce("vcgmin", "reduce_block", 8)
VCGADD = _reduce("vcgadd", "reduce_block", 8)
# a repeat's pairs: N/2 elements (64 f16, 32 f32, 128 bytes), given per type by the body's count
VCPADD = _reduce("vcpadd", "reduce_pair", 0)


def _vector(name: str, cost: str | None = None, **kw) -> Family:
    return Family(name, VECTOR, "V", cost or name, **kw)


VSEL = SelectFamily("vsel", VECTOR, "V", "vsel", reads_cmpmask=True, listed_keys=("mode",),
                    modes={0: SelectMode("cmpmask", False, "vsel"),
                           1: SelectMode("src1", True, "vsel_scalar"),
                           2: SelectMode("cmpmask_addr", False, "vsel")})
VCMP = _vector("vcmp", one_repeat=True, writes_cmpmask=True, requires=Requirement(
    "compare_to_cmpmask", "{name} (compare to CMPMASK) is not supported on {chip} (supports "
    "compares to UB bits only: vcmpv, vcmpvs)"))
VCMPV = _vector("vcmpv", bit_output=True)
VCMPVS = _vector("vcmpvs", bit_output=True)
DUP = _vector("dup")
class AccumulatingBinaryFamily(Family):
    """vadd vsub vmul vmax vmin vand vor (#27a): the vendor's overlap exception — dst may be
    src1 when both have repeat stride 0 (and the same block stride), for f16, f32 and s32, src0
    overlapping neither: each repeat then reads the dst the repeat before wrote (an
    accumulation; TIK's two-source "general definition" page)."""

    __slots__ = ()

    def repeat_accumulator(self, vop: Any) -> str | None:
        if vop.t.name not in ("f16", "f32", "s32") or vop.repeats < 2:
            return None
        dst, src1 = vop.access("dst"), vop.access("src1")
        if dst is None or src1 is None:
            return None
        same = (dst.base, dst.blk, dst.rep) == (src1.base, src1.blk, src1.rep)
        return "src1" if same and dst.rep == 0 else None


BINARY = AccumulatingBinaryFamily("binary", VECTOR, "V", "binary")
ADD_RELU = _vector("binary")  # vaddrelu vsubrelu (#27a): the binary body, no overlap exception
UNARY_SCALAR = _vector("unary_scalar")
VCOPY = _vector("vcopy", "copy")
UNARY = _vector("unary")  # vabs, vnot: one source, bits in, bits out
VCONV = ConvFamily("vconv", VECTOR, "V", "conv")
SET_CMPMASK = Family("set_cmpmask", CMPMASK_MOVE, "V", "cmpmask_move", writes_cmpmask=True,
                     cmpmask_role="src")
GET_CMPMASK = Family("get_cmpmask", CMPMASK_MOVE, "V", "cmpmask_move", reads_cmpmask=True,
                     cmpmask_role="dst")
DMA_GM_TO_UB = Family("dma", DMA, "MTE2", "mte2", needs_burst=True)
DMA_UB_TO_GM = Family("dma", DMA, "MTE3", "mte3", needs_burst=True)
DMA_UB_TO_UB = Family("dma", DMA, "V", "copy", needs_burst=True)
# DataCopyPad: byte-granular bursts (len= bytes), padding on the UB side (GM → UB)
DMA_PAD_GM_TO_UB = Family("dma_pad", DMA, "MTE2", "mte2", byte_bursts=True)
DMA_PAD_UB_TO_GM = Family("dma_pad", DMA, "MTE3", "mte3", byte_bursts=True)
# #34: ascend950's NDDMA: five nested loops of element strides and padding (isa/nddma.py)
DMA_ND_GM_TO_UB = Family("dma_nd", DMA, "MTE2", "mte2")
SET_MASK = Family("set_mask", REGISTER)
SET_ATOMIC = Family("set_atomic", SCALAR)  # GM atomics (issue #27): S state the MTE3 copies read
API_SET_MASK = Family("api_set_mask", REGISTER)
MASK_COUNT = Family("mask_mode", REGISTER, sets_mask_mode=True, requires=Requirement(
    "counter_mode", "counter mode is not supported on {chip} (supports normal mask mode only)"))
MASK_NORM = Family("mask_mode", REGISTER, sets_mask_mode=False)
SET_FLAG_F = SyncFamily("set_flag", SET_FLAG, pipe_operand="src", distinct_pipes=("src", "dst"))
WAIT_FLAG_F = SyncFamily("wait_flag", WAIT_FLAG, pipe_operand="dst", distinct_pipes=("src", "dst"))
BARRIER_F = SyncFamily("barrier", BARRIER, pipe_operand="pipe")
_MUTEX = Requirement("reg_vector", "Mutex Lock/Unlock is not supported on {chip} (an Ascend 950 "
                     "synchronisation)")
LOCK_F = SyncFamily("mutex_lock", LOCK, pipe_operand="pipe", requires=_MUTEX)
UNLOCK_F = SyncFamily("mutex_unlock", UNLOCK, pipe_operand="pipe", requires=_MUTEX)
NOP = Family("nop", SCALAR)
LI = Family("li", SCALAR)
MOV = Family("mov", SCALAR)
ALU = Family("alu", SCALAR)
ADDR = Family("addr", SCALAR)
BRANCH = Family("branch", CONTROL)
JMP = Family("jmp", CONTROL)
HALT = Family("halt", CONTROL)
FAIL = Family("fail", CONTROL)


# issue 28 (28b): gathers and layout shapes
VREDUCEV2 = GatherMaskFamily("vreducev2", VECTOR, "V", "gathermask", counter_per_repeat=True,
                             mask_ignored=True, listed_keys=("pattern",),
                             data_roles=("src1",))
GET_RSVD_CNT = Family("get_rsvd_cnt", SCALAR, reads_state=True)
# the whole-repeat reductions' registers
GET_REDUCE_SPR = Family("get_reduce_spr", SCALAR, reads_state=True)

class BrcbFamily(Family):
    """vbrcb (AscendC Brcb): 8 elements of src a repeat (packed), each filling one 32-byte
    block of dst; MASK is not considered; a dst block stride of 0 is taken as 1 (the page)."""

    __slots__ = ()

    def block_stride(self, role: str, fields: dict) -> int:
        return fields.get(f"{role}_blk", 1) or 1


VBRCB = BrcbFamily("vbrcb", VECTOR, "V", "brcb", packed=(("src", 8),), mask_ignored=True)
VCI = _vector("vci", "dup")  # CreateVecIndex: Duplicate's throughput (vector_throughput.csv)


class TransposeFamily(Family):
    """vtranspose (AscendC Transpose, 16 x 16 of 2-byte elements): one repeat of 256 elements,
    both operands 512 bytes back to back (`packed`), MASK not considered."""

    __slots__ = ()

    def repeat_elements(self, t: DType, src: DType | None = None) -> int:
        return 256


class TransData5HDFamily(Family):
    """vnchwconv (AscendC TransDataTo5HD): 16 source blocks, at the 16 UB addresses a u64 list
    holds (src_list), transposed into the 16 destination blocks dst_list holds. The lists are
    read whole every repeat (`addrlist`); the data are `indexed` by the addresses read at issue
    (simulator/semantics/gather.py). A repeat: 16 x K elements (K = 16 two-byte, 8 four-byte,
    16 one-byte from one half of each block); MASK not considered."""

    __slots__ = ()

    def operands(self, roles: tuple[str, ...], fields: dict, t: DType | None = None
                 ) -> tuple[Operand, ...]:
        return (Operand("dst_list", "dst_list", "addrlist"),
                Operand("src_list", "src_list", "addrlist"),
                Operand("dst", "dst_list", "indexed", True),
                Operand("src", "src_list", "indexed"))

    def repeat_elements(self, t: DType, src: DType | None = None) -> int:
        return 128 if t.size == 4 else 256

    def operand_type(self, role: str, t: DType, src: DType | None = None) -> DType:
        return TYPES["u64"] if role.endswith("_list") else t

    def cost_class(self, fields: dict, t: DType | None = None) -> str:
        return "trans5hd_b8" if t is not None and t.size == 1 else "trans5hd"

    def cost_classes(self) -> tuple[str, ...]:
        return ("trans5hd", "trans5hd_b8")


VNCHWCONV = TransData5HDFamily("vnchwconv", VECTOR, "V", "trans5hd", mask_ignored=True,
                               data_roles=("dst_list", "src_list"))


class TransData5HDVaFamily(TransData5HDFamily):
    """vnchwconv_va (the C API's asc_transto5hd_b8/b16/b32, AscendC TransDataTo5HD's address-array
    forms): vnchwconv with its 16 + 16 block addresses in the VA registers set_va wrote (dst in
    VA d and d+1, src in VA s and s+1), read at issue; no list operands in UB."""

    __slots__ = ()

    def operands(self, roles: tuple[str, ...], fields: dict, t: DType | None = None
                 ) -> tuple[Operand, ...]:
        return (Operand("dst", "dst", "indexed", True), Operand("src", "src", "indexed"))


VNCHWCONV_VA = TransData5HDVaFamily("vnchwconv_va", VECTOR, "V", "trans5hd", mask_ignored=True)
# a VA register = 8 UB addresses (asc_set_va_reg); issued to V, as the C API page says (PIPE_V)
SET_VA = Family("set_va", SCALAR, "V", "set_va")
VTRANSPOSE = TransposeFamily("vtranspose", VECTOR, "V", "transpose", one_repeat=True,
                             mask_ignored=True, packed=(("dst", 256), ("src", 256)))


class GatherFamily(Family):
    """vgather (AscendC Gather): dst element k of repeat i is the src element at
    src + offset[i·N + k] bytes, the offsets a u32 tensor read N a repeat (back to back, as
    MASK says: a vector operand of N u32 a repeat); src is
    `indexed` — its addresses are data, attached at issue (simulator/semantics/gather.py).
    Timed per element width: Gather's throughput is in elements a cycle."""

    __slots__ = ()

    def operands(self, roles: tuple[str, ...], fields: dict, t: DType | None = None
                 ) -> tuple[Operand, ...]:
        kinds = {"dst": "vector", "offset": "vector", "src": "indexed"}
        return tuple(Operand(r, r, kinds[r], r == "dst") for r in roles if r in kinds)

    def repeat_stride(self, role: str, fields: dict, n: int) -> int:
        """The offsets run on back to back: a repeat's N u32 are N/8 blocks."""
        return n * 4 // 32 if role == "offset" else fields.get(f"{role}_rep", 8)

    def operand_type(self, role: str, t: DType, src: DType | None = None) -> DType:
        return TYPES["u32"] if role == "offset" else t

    def cost_class(self, fields: dict, t: DType | None = None) -> str:
        return "gather_b16" if t is not None and t.size == 2 else "gather_b32"

    def cost_classes(self) -> tuple[str, ...]:
        return ("gather_b16", "gather_b32")

    def reads_by_element(self, role: str) -> bool:
        return role == "src"


VGATHER = GatherFamily("vgather", VECTOR, "V", "gather_b32", data_roles=("offset",))


class GatherbFamily(Family):
    """vgatherb (AscendC Gatherb, the C API's asc_gather_datablock): dst block j of repeat i is
    the 32-byte block at src + offset[8i + j] (offset: u32 bytes, 8 a repeat, back to back:
    `packed`); src is `indexed` by the offsets read at issue; dst's block stride 0 is taken as 1
    (the page); MASK is not considered (the page's reference code has none)."""

    __slots__ = ()

    def operands(self, roles: tuple[str, ...], fields: dict, t: DType | None = None
                 ) -> tuple[Operand, ...]:
        return (Operand("dst", "dst", "vector", True), Operand("offset", "offset", "packed",
                                                                False, 8),
                Operand("src", "src", "indexed"))

    def operand_type(self, role: str, t: DType, src: DType | None = None) -> DType:
        return TYPES["u32"] if role == "offset" else t

    def block_stride(self, role: str, fields: dict) -> int:
        return fields.get(f"{role}_blk", 1) or 1


VGATHERB = GatherbFamily("vgatherb", VECTOR, "V", "gatherb", mask_ignored=True,
                         data_roles=("offset",))


# -- #27a element-wise compute (arithmetic, transcendentals, shifts) -------------------------
class WidthCostFamily(Family):
    """A vector family whose cost depends on the element width: the vendor's throughput table
    gives the same elements a cycle for 16- and 32-bit types (Exp, Ln, Sqrt, Div: 32), so a
    repeat of twice the elements takes twice the cycles; the classes are COST_16 and COST_32
    (docs/timing.md)."""

    __slots__ = ()

    def cost_class(self, fields: dict, t: DType | None = None) -> str:
        return f"{self.cost}_{8 * t.size if t is not None and t.size <= 2 else 32}"

    def cost_classes(self) -> tuple[str, ...]:
        return (f"{self.cost}_16", f"{self.cost}_32")


# vexp vln vsqrt: numeric one-source functions at 32 elements a cycle
MATH_SLOW = WidthCostFamily("math_unary", VECTOR, "V", "transcendental")
# vrec vrsqrt vrelu: numeric one-source functions at full rate (the unary class)
MATH_UNARY = _vector("math_unary", "unary")
VDIV = WidthCostFamily("binary", VECTOR, "V", "div")  # vdiv: the binary body, 32 elements a cycle


class AccumulateFamily(Family):
    """vaxpy vmla vmadd vmaddrelu: dst is read as well as written — the old dst is operand
    `acc`, at dst's address with dst's strides (so hazards, uninitialised reads and the bank
    model see the read)."""

    __slots__ = ()

    def operands(self, roles: tuple[str, ...], fields: dict, t: DType | None = None
                 ) -> tuple[Operand, ...]:
        return (*super().operands(roles, fields, t), Operand("acc", "dst"))

    # #27: the mixed forms (vaxpy.f32.f16, vmla.f32.f16): sources and scalar of type SRC, dst
    # and acc of T; as vconv, a repeat covers 256 bytes of the wider type (64 elements) and
    # each operand moves in its own type
    def operand_type(self, role: str, t: DType, src: DType | None = None) -> DType:
        return src if src is not None and role in ("src", "src0", "src1", "scalar") else t

    def repeat_elements(self, t: DType, src: DType | None = None) -> int:
        return 256 // max(t.size, src.size) if src is not None else t.per_repeat

    def default_strides(self, names: tuple[str, ...], default: tuple[int, ...], t: DType,
                        src: DType | None = None) -> tuple[int, ...]:
        if src is None:
            return default
        return ConvFamily.default_strides(self, names, default, t, src)  # type: ignore[arg-type]


ACCUMULATE = AccumulateFamily("accumulate", VECTOR, "V", "fma")  # three streams: src0 src1 dst
AXPY = AccumulateFamily("accumulate", VECTOR, "V", "binary")  # two streams: src and dst


# #29 scalar unit: division, UB loads and stores, float registers (docs/semantics.md §7.1)
class FloatScalarFamily(Family):
    """A scalar-unit instruction on float registers: its type is a float type (the register
    holds that type's bits)."""

    def chip_problem(self, name: str, chip: AnyChip, fields: dict, t: DType | None
                     ) -> tuple[str, str] | None:
        if t is None or not t.is_float or t.size not in (2, 4):
            return (f"{name} takes a float register type (f16, bf16, f32), got "
                    f"{t.name if t is not None else 'none'}"), ""
        if fields.get("round") == len(ROUND_MODES) - 1:  # hybrid: the reg Cast to hifloat8's
            return f"{name} takes round modes {', '.join(ROUND_MODES[:-1])}, not hybrid", "round"
        return None


DIV = Family("div", SCALAR)
SCALAR_LOAD = Family("scalar_load", SCALAR, reads_state=True)
SCALAR_STORE = Family("scalar_store", SCALAR)
FALU = FloatScalarFamily("falu", SCALAR)
FCONV = FloatScalarFamily("fconv", SCALAR)
FUNARY = FloatScalarFamily("funary", SCALAR)
SMISC = Family("smisc", SCALAR)  # max, min, abs, leading zeros, population count


HOST_ACCESS = Family("host_access", HOST)
API_CAST = ConvFamily("api_cast", API, "V")  # its operands are typed as vconv's


def api(name: str) -> Family:
    """An API statement's family: it only names the expansion (isa/api.py)."""
    return Family(name, API, "V")


# -- #27: vshr's roundEn, which some chips take only as false
class ShiftRightFamily(Family):
    """vshr: unary_scalar's shape; `round_en=1` needs a chip whose [types] shift_round list is
    not empty (the ShiftRight page: 200I/500 A2 and ascend950 take only false). It rounds the
    types listed (int16_t, int32_t) and, as the page says, has no effect on the others."""

    __slots__ = ()

    def chip_problem(self, name: str, chip: AnyChip, fields: dict, t: DType | None
                     ) -> tuple[str, str] | None:
        if not fields.get("round_en") or t is None:
            return None
        allowed = chip.types.get("shift_round", ())
        if allowed:
            return None
        return (f"{name}.{t.name} round_en=1 is not supported on {chip.name} (rounding shifts: "
                f"{', '.join(allowed) or 'none'})"), "round_en"


SHIFT_RIGHT = ShiftRightFamily("unary_scalar", VECTOR, "V", "unary_scalar")


# -- #27 (h27): the binary composites with a conversion: AddReluCast, SubReluCast, MulCast
class BinaryConvFamily(ConvFamily):
    """vaddreluconv vsubreluconv vmulconv: two sources of type SRC, the result converted to
    DST. As vconv, a repeat covers 256 bytes of the wider type; each operand's blocks hold 32
    bytes of its own type (the AddReluCast page: f16 sources at repeat stride 8 give an s8
    destination at 4)."""

    __slots__ = ()

    def operand_type(self, role: str, t: DType, src: DType | None = None) -> DType:
        return src if role in ("src0", "src1") and src is not None else t


# cost: Cast's class — vector_throughput.csv gives AddReluCast/SubReluCast/MulCast one repeat
# (256 bytes of the wider type) a cycle, as every Cast pair (docs/timing.md)
BINARY_CONV = BinaryConvFamily("binary_conv", VECTOR, "V", "conv")
# -- #27 (h27c): ascend950's tensor-count shifts, each element by the signed count at its place
# in src1 (the same width as T); the binary shape and the binary cost class (no published figure
# of its own: docs/timing.md)
SHIFT_TENSOR = _vector("shift_tensor", "binary")
API_BINARY_CAST = BinaryConvFamily("api_binary_cast", API, "V")  # typed as its instruction's


# -- #27/#29 (h27dq): CastDequant's hardware forms and the DEQSCALE register ---------------------
class DeqB8Family(ConvFamily):
    """vconv_deqs162b8h/l, vconv_vdeqs162b8h/l (CastDequant int16_t → int8_t/uint8_t): a repeat
    is 128 s16 elements (8 source blocks); the destination has as many 32-byte blocks as the
    source, each source block's 16 results filling one half of its destination block (h: bytes
    16..31, l: 0..15; the other half is left as it was). Both repeat strides default to 8 (the
    CastDequant page's {1, 1, 8, 8}). The issue lays the destination out (semantics/dequant.py)."""

    __slots__ = ()

    def default_strides(self, names: tuple[str, ...], default: tuple[int, ...], t: DType,
                        src: DType | None = None) -> tuple[int, ...]:
        return tuple(8 if name.endswith("_rep") else d
                     for name, d in zip(names, default, strict=True))


# cost: Cast's class — vector_throughput.csv gives CastDequant int16_t → b8 128 elements a cycle
# and int32_t → half 64: one repeat a cycle, as every Cast pair (docs/timing.md)
VCONV_DEQ = ConvFamily("vconv_deq", VECTOR, "V", "conv")  # s32 → f16 × DEQSCALE's half scale
VCONV_DEQ_B8 = DeqB8Family("vconv_deq_b8", VECTOR, "V", "conv")
# DEQSCALE = a 64-bit value (set_deqscale; the C API page: PIPE_V), machine state as VA0..VA7
SET_DEQSCALE = Family("set_deqscale", SCALAR, "V", "set_deqscale")
SET_CTRL = Family("set_ctrl", SCALAR)  # issue 34: CTRL[HI:LO] (isa/ctrl.py)
API_CAST_DEQUANT = DeqB8Family("api_cast_dequant", API, "V")  # CastDequant (isa/api.py)
API_SET_DEQ_SCALE = Family("api_set_deq_scale", API, "V")  # SetDeqScale's three forms
