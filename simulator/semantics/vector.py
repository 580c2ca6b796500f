"""Issuing a repeat-driven vector instruction (docs/machine.md §5, §9.2–§9.3): decode with
MASK/CTRL at issue, the no-op and MASK rules, the checks, and the family's body from the
instruction set the run executes (instruction_set.py)."""

from __future__ import annotations

import numpy as np

from isa.decode import VectorOp, decode_vector
from isa.program import Instruction
from simulator import checks
from simulator.machine import RAW
from simulator.problems import Fault, Problem, fault
from simulator.semantics.context import Context, Semantics
from simulator.semantics.issued import Issued

M64 = (1 << 64) - 1


def issue(ex: Context, instr: Instruction) -> Issued:
    m = ex.m
    addrs, fields = ex.resolve(instr)
    fam = instr.defn.family
    sel = None
    if fam.cmpmask_addr(fields):  # vsel mode 2: the select mask's address is CMPMASK[31:0]
        sel = int(m.cmpmask[:4].view(np.uint32)[0])
        addrs = dict(addrs, sel=sel)
    vop = ex.decodings.get(instr, addrs, fields, m.mask, m.counter, sel)
    sequential = False
    if vop is None:
        vop = decode_vector(instr, addrs, fields, m.mask, m.counter)
        if _noop(ex, instr, vop, fields):
            return Issued("V", vop, uops=vop.repeats)
        diagnostics = ex.policy.diagnostics
        seen = len(diagnostics)
        extents: dict[str, tuple[int, int]] = {}
        sequential = _check(ex, instr, vop, extents)
        if not sequential and len(diagnostics) == seen:  # a clean pass: reusable
            ex.decodings.put(instr, addrs, fields, sel, vop, extents)
    r = vop.repeats
    return Issued("V", vop, ex.isa.bodies[fam.name], scalar_bytes(ex, instr), r, sequential,
                  uops=r)


def _noop(ex: Context, instr: Instruction, vop: VectorOp, fields: dict) -> bool:
    """The counter-mode and MASK rules; True when the instruction does nothing."""
    m, fam, chip = ex.m, instr.defn.family, ex.chip
    if m.counter:
        if vop.repeats > 255:
            raise Fault(_count_problem(instr, vop, m))
        if vop.repeats == 0:
            ex.warn(instr, Problem("noop", f"{instr.head} in counter mode with count 0 does "
                                   "nothing"), once="count0")
            return True
        return False
    # MASK's rules bind only instructions that apply it (vtranspose, vbrcb… ignore it)
    if not fam.bit_output and not fam.mask_ignored and vop.n > 128 and m.mask != (M64, M64):
        raise fault("mask", f"{instr.head}: an 8-bit instruction in normal mode needs MASK all "
                    f"ones (MASK is {m.mask_hi:#x}, {m.mask_lo:#x}); use counter mode")
    if fields.get("repeat", 1) == 0 and not fam.one_repeat:
        ex.warn(instr, Problem("noop", f"{instr.head} with repeat=0 does nothing",
                               col=instr.cols.get("repeat")), once="repeat0")
        return True
    if not fam.bit_output and not fam.mask_ignored and not vop.row.any():
        msg = f"{instr.head} with MASK = 0 does nothing"
        if chip.zero_mask == "error":
            raise fault("mask", msg + f" (an error on {chip.name})")
        ex.warn(instr, Problem("noop", msg), once="mask0")
        return True
    return False


def _count_problem(instr: Instruction, vop: VectorOp, m) -> Problem:
    """A counter-mode count beyond 255 repeats, naming the register it came from and, within
    one API statement, pointing at its count."""
    count = m.mask_lo & 0xFFFFFFFF
    text = f"counter mode count {count} needs {vop.repeats} repeats of {vop.n} elements " \
        "(at most 255)"
    source = m.mask_source
    if source is None:
        return Problem("range", text)
    setter, lo = source
    where = "" if setter.pc == instr.pc and setter.line == instr.line else \
        f", set at line {setter.line}"
    col = lo.col if not where else None
    return Problem("range", f"{text}; the count is {lo.value} = {count}{where}", col=col)


def _check(ex: Context, instr: Instruction, vop: VectorOp,
           extents: dict[str, tuple[int, int]] | None = None) -> bool:
    """The §9.2–9.3 checks; True when the repeats must run one by one. Each operand's byte
    extent goes to EXTENTS by role (the decodings' store reads them again)."""
    dynamic = not instr.is_static  # the assembler checked static alignment
    if extents is None:
        extents = {}
    fam = instr.defn.family
    for acc in vop.operands:
        align = fam.operand_align(acc.role, instr.fields, instr.dtype)
        extents[acc.role] = check_operand(ex, instr, vop, acc, align,
                                          dynamic or acc.role == "sel")
    guard = instr.operands.get("guard")
    if guard is not None:
        problem = checks.scalar_overlap(vop, guard, ex.value(guard.addr))
        if problem is not None:
            raise Fault(problem)
    accumulator = _accumulator(vop, extents)
    problem = checks.overlap(vop, extents, skip=accumulator)
    if problem is None:
        return accumulator is not None  # an accumulation runs repeat by repeat
    ex.check(instr, problem)
    return True


def check_operand(ex: Context, instr: Instruction, vop: VectorOp, acc, align: int,
                  unaligned_possible: bool) -> tuple[int, int]:
    """One operand's §9.2 checks — alignment (when the assembler could not settle it), the
    nibble mask of a sub-byte type, bounds (a fault), footprint — and its byte extent."""
    if unaligned_possible and acc.base % align:
        ex.check(instr, checks.alignment(vop, acc, align))
    if acc.nibble:
        ex.check(instr, checks.nibble_mask(vop, acc))
    ext = checks.extent(vop, acc)
    problem = checks.bounds(vop, acc, ex.m.ub.size, ext)
    if problem is not None:
        raise Fault(problem)
    ex.check(instr, checks.footprint(vop, acc, checks.tensor_of(instr, acc.role), ext))
    return ext


def _accumulator(vop: VectorOp, extents: dict) -> str | None:
    """The family's documented accumulating source (dst = src1 at repeat stride 0), when the
    other source overlaps neither (the exception's own condition)."""
    role = vop.family.repeat_accumulator(vop)
    if role is None:
        return None
    d_lo, d_hi = extents["dst"]
    for acc in vop.operands:
        if not acc.write and acc.role != role:
            lo, hi = extents[acc.role]
            if lo <= d_hi and d_lo <= hi and lo <= hi:
                return None
    return role


def scalar_bytes(ex: Context, instr: Instruction) -> np.ndarray | None:
    """The scalar operand's raw bits, read at issue (an immediate, a register, or a UB
    element)."""
    o = instr.operands.get("scalar")
    if o is None:
        return None
    t = instr.operand_type("scalar")  # a mixed form's scalar is of its source type (#27)
    value = o.value
    if isinstance(value, np.ndarray):
        return value.view(RAW[t.size])
    if value is not None and hasattr(value, "reg"):  # e.g. LOAD(2): the select-mask address
        v = ex.m.x[value.reg] * value.scale + value.offset
        return np.array([v & ((1 << (8 * t.size)) - 1)], dtype=RAW[t.size])
    addr = ex.value(o.addr)  # scalar(NAME[I]): read the element now
    if not 0 <= addr <= ex.m.ub.size - t.size:
        raise fault("bounds", f"scalar address {addr:#x}", tail=" is outside UB", at_value=True,
                    col=o.col)
    return ex.m.ub[addr:addr + t.size].copy().view(RAW[t.size])


def prepared(ex: Context, instr: Instruction) -> tuple[VectorOp, object, object] | None:
    """(decoding, body, scalar) of an instruction whose issue depends on nothing but its text
    and MASK/CTRL, once its checks passed cleanly at this MASK/CTRL (the decode cache holds it):
    a static instruction without a mode-2 mask address or a scalar read at issue from UB or a
    register. The fast loop (simulator/fused.py) runs these without issuing them again;
    None for anything else."""
    fam = instr.defn.family
    if not instr.is_static or fam.cmpmask_addr(instr.fields) or fam.name not in ex.isa.bodies:
        return None
    if not fixed_scalar(instr):
        return None
    m = ex.m
    vop = ex.decodings.get(instr, {}, instr.fields, m.mask, m.counter, None)
    if vop is None:
        return None
    return vop, body_of(vop, m.ub.size, ex.isa), scalar_bytes(ex, instr)


def body_of(vop: VectorOp, ub_bytes: int, isa: Semantics):
    """The body that runs VOP in ISA: the family's prepared for this decoding (all its repeats
    at once, worked out once per decoding), else the family's own."""
    fam = vop.family
    prepare = isa.prepare.get(fam.name)
    body = vop.derived(("prepared", ub_bytes), lambda v: prepare(v, ub_bytes)) \
        if prepare is not None else None
    return body or isa.bodies[fam.name]


def fixed_scalar(instr: Instruction) -> bool:
    """Whether INSTR's scalar operand (if any) is the same bytes at every execution (an
    immediate), not read at issue from UB or a register."""
    o = instr.operands.get("scalar")
    return o is None or isinstance(o.value, np.ndarray)
