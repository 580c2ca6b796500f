"""The scalar unit (docs/semantics.md §7): li, mov, the ALU, addr, nop; branches, jmp and halt.
64-bit registers, two's complement, results modulo 2^64; branches compare signed."""

from __future__ import annotations

from isa.program import Instruction
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
