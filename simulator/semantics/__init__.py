"""Instruction semantics: one small function per family over shared helpers (common.py).

An instruction set's `issue[family name](executor, instr)` decodes and checks one hardware
instruction and returns an `Issued` (the body that takes effect and what the event reports).
Vector families share one issuing path (vector.py) and differ only in their body,
fn(machine, vop, scalar, lo, hi), which executes repeats [lo, hi). Bodies compute results and
nothing else. `BUILTIN` is pipev's own instruction set; a new instruction shape is a family
record (isa/families.py) and its semantics in `BUILTIN.extended(...)`, handed to the run.
"""

from isa.table import INSTRUCTIONS, KEYS, TABLE, TYPED_FORMS
from simulator.semantics import (
    atomic,
    cmpmask,
    ctrl,
    dequant,
    dma,
    gather,
    nddma,
    registers,
    regvec,
    regvec_convert,
    regvec_data,
    scalar,
    scalar_unit,
    sync,
)
from simulator.semantics.arith import PREPARE as ARITH_PREPARED
from simulator.semantics.arith import binary, unary, unary_scalar
from simulator.semantics.compare import prepare_vcmpv, vcmp, vcmpv, vcmpvs
from simulator.semantics.composite import accumulate
from simulator.semantics.instruction_set import InstructionSet
from simulator.semantics.issued import HALT, Issued
from simulator.semantics.layout import brcb, vci, vtranspose
from simulator.semantics.math import math_unary, prepare_math_unary
from simulator.semantics.move import dup, vcopy
from simulator.semantics.reduce import BODIES as REDUCE_BODIES
from simulator.semantics.select import prepare_vsel, vsel
from simulator.semantics.shift_tensor import shift_tensor


def vconv(machine, vop, scalar, lo: int, hi: int) -> None:
    """vconv's body (semantics/convert.py), imported at the first conversion: a run without
    one does without its tables."""
    from simulator.semantics.vconv import vconv as body

    body(machine, vop, scalar, lo, hi)


def binary_conv(machine, vop, scalar, lo: int, hi: int) -> None:
    """vaddreluconv vsubreluconv vmulconv (#27, semantics/binary_conv.py), imported at first use
    as vconv is."""
    from simulator.semantics.binary_conv import binary_conv as body

    body(machine, vop, scalar, lo, hi)


def _builtin() -> InstructionSet:
    return InstructionSet(INSTRUCTIONS, TYPED_FORMS, KEYS, issue={
        "set_cmpmask": cmpmask.issue, "get_cmpmask": cmpmask.issue, "dma": dma.issue,
        "dma_pad": dma.issue_pad, "dma_nd": nddma.issue,  # #34: ascend950's NDDMA
        "set_mask": registers.issue, "api_set_mask": registers.issue,
        "mask_mode": registers.issue,
        "set_flag": sync.set_flag, "wait_flag": sync.wait_flag, "barrier": sync.barrier,
        "mutex_lock": sync.mutex_lock, "mutex_unlock": sync.mutex_unlock,  # #34: 950's Mutex
        "li": scalar.li, "mov": scalar.mov, "alu": scalar.alu, "addr": scalar.addr,
        "nop": scalar.nop, "branch": scalar.branch, "jmp": scalar.jmp, "halt": scalar.halt,
        "fail": scalar.fail,
        **scalar_unit.ISSUE,  # #29 scalar unit: division, UB loads/stores, float registers
        # issue 28 (28b): gathers and layout shapes
        "vreducev2": gather.issue, "get_rsvd_cnt": gather.get_rsvd_cnt,
        "vgather": gather.issue_gather, "vnchwconv": gather.issue_trans5hd,
        "vnchwconv_va": gather.issue_trans5hd_va, "set_va": gather.set_va,
        "vgatherb": gather.issue_gatherb, "get_reduce_spr": gather.get_reduce_spr,
        "set_atomic": atomic.issue,  # GM atomics (issue #27)
        # #27/#29 (h27dq): DEQSCALE and CastDequant's hardware forms
        "set_deqscale": dequant.set_deqscale, "vconv_deq": dequant.issue_deq,
        "vconv_deq_b8": dequant.issue_deq_b8,
        **regvec.ISSUE,  # issue 34: ascend950's reg-based vector unit
        **regvec_convert.ISSUE,  # issue 34 (h34a): its conversions and relayouts
        **regvec_data.ISSUE,  # issue 34 (h34a): unaligned accesses, gathers, block reductions
        **ctrl.ISSUE,  # issue 34: SetCtrlSpr / ResetCtrlSpr
    }, bodies={
        "vsel": vsel, "vcmp": vcmp, "vcmpv": vcmpv, "vcmpvs": vcmpvs, "dup": dup,
        "binary": binary, "unary_scalar": unary_scalar, "vcopy": vcopy, "unary": unary,
        "vconv": vconv,
        "math_unary": math_unary,  # #27a: vexp vln vsqrt vrec vrsqrt vrelu
        "accumulate": accumulate,  # #27a: vaxpy vmla vmadd vmaddrelu
        "binary_conv": binary_conv,  # #27: vaddreluconv vsubreluconv vmulconv
        "shift_tensor": shift_tensor,  # #27 (h27c): vshlv vshrv
        **REDUCE_BODIES,  # the reductions (issue 28, group 28a)
        "vbrcb": brcb, "vci": vci, "vtranspose": vtranspose,  # issue 28 (28b)
    }, prepare={**ARITH_PREPARED, "vsel": prepare_vsel,
                "vcmpv": prepare_vcmpv, "vcmpvs": prepare_vcmpv,
                "math_unary": prepare_math_unary})  # #27a: math_unary


BUILTIN = _builtin()


def instruction_set_of(table) -> InstructionSet:
    """The instruction set a program assembled with TABLE runs with: the table itself when it
    is an InstructionSet, BUILTIN for pipev's own table."""
    if isinstance(table, InstructionSet):
        return table
    if table is TABLE:
        return BUILTIN
    raise ValueError("the program was assembled with a table that has no semantics: assemble "
                     "it with an InstructionSet (simulator.semantics.BUILTIN.extended)")


__all__ = ["BUILTIN", "InstructionSet", "Issued", "HALT", "instruction_set_of"]
