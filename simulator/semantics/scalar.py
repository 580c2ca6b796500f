"""The scalar unit (docs/semantics.md §7): li, mov, the ALU, addr, nop; branches, jmp and halt.
64-bit registers, two's complement, results modulo 2^64; branches compare signed."""

from __future__ import annotations

from isa.program import Instruction, RegExpr
from simulator.machine import Machine
from simulator.semantics.context import Context
from simulator.semantics.issued import HALT, Issued

M64 = (1 << 64) - 1
ALU = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
       "and": lambda a, b: a & b, "or": lambda a, b: a | b, "xor": lambda a, b: a ^ b,
       "shl": lambda a, b: a << (b & 63), "shr": lambda a, b: a >> (b & 63)}
BRANCH = {"beq": lambda a, b: a == b, "bne": lambda a, b: a != b, "blt": lambda a, b: a < b,
          "bge": lambda a, b: a >= b, "ble": lambda a, b: a <= b, "bgt": lambda a, b: a > b}


def signed(v: int) -> int:
    return v - (1 << 64) if v >> 63 else v


def _write(m: Machine, _op, arg, _lo, _hi) -> None:
    reg, value = arg
    m.x[reg] = value


def li(ex: Context, instr: Instruction) -> Issued:
    o = instr.operands
    return Issued("S", None, _write, (o["d"].value, o["imm"].value & M64))


def mov(ex: Context, instr: Instruction) -> Issued:
    o = instr.operands
    return Issued("S", None, _write, (o["d"].value, ex.m.x[o["a"].value]))


def alu(ex: Context, instr: Instruction) -> Issued:
    o = instr.operands
    value = ALU[instr.name](ex.m.x[o["a"].value], ex.int_operand(instr, "b")) & M64
    return Issued("S", None, _write, (o["d"].value, value))


def addr(ex: Context, instr: Instruction) -> Issued:
    o = instr.operands
    return Issued("S", None, _write, (o["d"].value, ex.value(o["elem"].addr) & M64))


def nop(ex: Context, instr: Instruction) -> Issued:
    return Issued("S")


def branch(ex: Context, instr: Instruction) -> Issued:
    a = signed(ex.m.x[instr.operands["a"].value])
    b = signed(ex.int_operand(instr, "b") & M64)
    taken = BRANCH[instr.name](a, b)
    return Issued("S", taken=taken, jump=instr.operands["target"].value if taken else None)


def jmp(ex: Context, instr: Instruction) -> Issued:
    return Issued("S", taken=True, jump=instr.operands["target"].value)


def halt(ex: Context, instr: Instruction) -> Issued:
    return Issued("S", jump=HALT)


# -- prepared effects (the fused executor's: simulator/fused.py) --------------------------------
# issue function -> prepare(instr): (effect, target) of an instruction of that family, bound once
# per text: effect(x) makes the change on the register file X (`Machine.x`) exactly as the
# family's issue and body do, and returns whether a branch is taken; target is the statement pc
# a taken branch continues at (None for the others). halt has none (it runs once).

def _prepare_li(instr: Instruction):
    o = instr.operands
    d, value = o["d"].value, o["imm"].value & M64

    def effect(x: list[int]) -> None:
        x[d] = value
    return effect, None


def _prepare_mov(instr: Instruction):
    o = instr.operands
    d, a = o["d"].value, o["a"].value

    def effect(x: list[int]) -> None:
        x[d] = x[a]
    return effect, None


def _prepare_alu(instr: Instruction):
    o = instr.operands
    d, a, b, fn = o["d"].value, o["a"].value, o["b"].value, ALU[instr.name]
    if isinstance(b, RegExpr):  # `Context.int_operand`: the register's raw value
        breg = b.reg

        def effect(x: list[int]) -> None:
            x[d] = fn(x[a], x[breg]) & M64
    else:
        def effect(x: list[int]) -> None:
            x[d] = fn(x[a], b) & M64
    return effect, None


def _prepare_addr(instr: Instruction):
    o = instr.operands
    d, elem = o["d"].value, o["elem"].addr
    if not isinstance(elem, RegExpr):
        return _prepare_constant(d, elem & M64)
    reg, scale, offset = elem.reg, elem.scale, elem.offset

    def effect(x: list[int]) -> None:  # `Context.value`: the register read signed
        v = x[reg]
        x[d] = ((v - (1 << 64) if v >> 63 else v) * scale + offset) & M64
    return effect, None


def _prepare_constant(d: int, value: int):
    def effect(x: list[int]) -> None:
        x[d] = value
    return effect, None


def _prepare_nop(instr: Instruction):
    def effect(x: list[int]) -> None:
        return None
    return effect, None


def _prepare_branch(instr: Instruction):
    o = instr.operands
    a, b, cmp, target = o["a"].value, o["b"].value, BRANCH[instr.name], o["target"].value
    if isinstance(b, RegExpr):
        breg = b.reg

        def effect(x: list[int]) -> bool:
            va, vb = x[a], x[breg]
            return cmp(va - (1 << 64) if va >> 63 else va, vb - (1 << 64) if vb >> 63 else vb)
    else:
        b = signed(b & M64)

        def effect(x: list[int]) -> bool:
            va = x[a]
            return cmp(va - (1 << 64) if va >> 63 else va, b)
    return effect, target


def _prepare_jmp(instr: Instruction):
    def effect(x: list[int]) -> bool:
        return True
    return effect, instr.operands["target"].value


PREPARE = {li: _prepare_li, mov: _prepare_mov, alu: _prepare_alu, addr: _prepare_addr,
           nop: _prepare_nop, branch: _prepare_branch, jmp: _prepare_jmp}
