"""set_cmpmask / get_cmpmask (docs/semantics.md §6.1): CMPMASK <-> 16 (32 on ascend950) bytes of
UB."""

from __future__ import annotations

from isa.decode import CmpmaskMove
from isa.program import Instruction
from simulator.machine import Machine
from simulator.problems import Fault, Problem
from simulator.semantics.context import Context
from simulator.semantics.issued import Issued


def issue(ex: Context, instr: Instruction) -> Issued:
    addrs, _ = ex.resolve(instr)
    role = instr.defn.family.cmpmask_role
    addr = addrs[role]
    size = ex.m.cmpmask.size
    if addr % 16 and not instr.is_static:  # static ones: the assembler checked
        ex.check(instr, Problem("align", f"{instr.name} {role} address {addr:#x}",
                                " is not 16-byte aligned (CMPMASK moves must be 16-byte "
                                "aligned)", role=role, at_value=True))
    if not 0 <= addr <= ex.m.ub.size - size:
        raise Fault(Problem("bounds", f"{instr.name} touches bytes {addr:#x}..{addr + size - 1:#x}"
                            f" outside UB ({ex.m.ub.size} bytes)", role=role))
    t = instr.operands[role].tensor
    if t is not None and addr + size > t.addr + t.nbytes:
        ex.check(instr, Problem("footprint", f"{instr.name} {role} {t.name} needs "
                                f"{addr + size - t.addr} bytes, tensor has {t.nbytes}",
                                role=role))
    op = CmpmaskMove(instr, addr, size, to_ub=role == "dst")
    return Issued("V", op, move)


def move(m: Machine, op: CmpmaskMove, _arg, _lo, _hi) -> None:
    if op.to_ub:
        m.ub[op.addr:op.addr + op.size] = m.cmpmask
    else:
        m.cmpmask[:] = m.ub[op.addr:op.addr + op.size]
