"""The scalar unit (docs/semantics.md §7): li, mov, the ALU, addr, nop; branches, jmp and halt.
64-bit registers, two's complement, results modulo 2^64; branches compare signed."""

from __future__ import annotations

from collections.abc import Callable

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


# One body per family: effect_of(instr) -> effect(x), made once per instruction body, changes
# the register file X (`Machine.x`) as the instruction does and returns whether it is a taken
# branch. The family's issue applies it (a branch's at issue: where to go next is what it
# decides); the fast loop (simulator/fused.py) runs the same effect without issuing.
Effect = Callable[[list[int]], bool]
EFFECTS: dict[Callable, Callable[[Instruction], Effect]] = {}  # issue -> effect_of
_MADE: dict[object, Effect] = {}  # instruction body -> its effect
MADE_LIMIT = 1 << 14


def effect(instr: Instruction, effect_of: Callable[[Instruction], Effect]) -> Effect:
    """INSTR's effect (EFFECT_OF its family's), made once per instruction body (lines of
    identical text share one)."""
    made = _MADE.get(instr.body)
    if made is None:
        if len(_MADE) >= MADE_LIMIT:
            _MADE.clear()
        made = _MADE[instr.body] = effect_of(instr)
    return made


def _apply(m: Machine, _op, effect: Effect, _lo, _hi) -> None:
    effect(m.x)


def _writing(effect_of: Callable[[Instruction], Effect]) -> Callable:
    """The issue of a family that writes a register: its effect, applied as the body."""
    def issue(ex: Context, instr: Instruction) -> Issued:
        return Issued("S", None, _apply, effect(instr, effect_of))
    EFFECTS[issue] = effect_of
    return issue


def _branching(effect_of: Callable[[Instruction], Effect]) -> Callable:
    """The issue of a branch: its effect (a compare, no write) decides at issue."""
    def issue(ex: Context, instr: Instruction) -> Issued:
        if effect(instr, effect_of)(ex.m.x):
            return Issued("S", taken=True, jump=instr.operands["target"].value)
        return Issued("S")
    EFFECTS[issue] = effect_of
    return issue


def target_of(instr: Instruction) -> int | None:
    """The statement pc a taken branch of INSTR continues at (None: not a branch)."""
    o = instr.operands.get("target")
    return o.value if o is not None else None


def halt(ex: Context, instr: Instruction) -> Issued:
    return Issued("S", jump=HALT)


def _li(instr: Instruction):
    o = instr.operands
    d, value = o["d"].value, o["imm"].value & M64

    def effect(x: list[int]) -> bool:
        x[d] = value
        return False
    return effect


def _mov(instr: Instruction):
    o = instr.operands
    d, a = o["d"].value, o["a"].value

    def effect(x: list[int]) -> bool:
        x[d] = x[a]
        return False
    return effect


def _alu(instr: Instruction):
    o = instr.operands
    d, a, b, fn = o["d"].value, o["a"].value, o["b"].value, ALU[instr.name]
    if isinstance(b, RegExpr):  # `Context.int_operand`: the register's raw value
        breg = b.reg

        def effect(x: list[int]) -> bool:
            x[d] = fn(x[a], x[breg]) & M64
            return False
    else:
        def effect(x: list[int]) -> bool:
            x[d] = fn(x[a], b) & M64
            return False
    return effect


def _addr(instr: Instruction):
    o = instr.operands
    d, elem = o["d"].value, o["elem"].addr
    if not isinstance(elem, RegExpr):
        return _constant(d, elem & M64)
    reg, scale, offset = elem.reg, elem.scale, elem.offset

    def effect(x: list[int]) -> bool:  # `Context.value`: the register read signed
        v = x[reg]
        x[d] = ((v - (1 << 64) if v >> 63 else v) * scale + offset) & M64
        return False
    return effect


def _constant(d: int, value: int):
    def effect(x: list[int]) -> bool:
        x[d] = value
        return False
    return effect


def _nop(instr: Instruction):
    def effect(x: list[int]) -> bool:
        return False
    return effect


def _branch(instr: Instruction):
    o = instr.operands
    a, b, cmp = o["a"].value, o["b"].value, BRANCH[instr.name]
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
    return effect


def _jmp(instr: Instruction):
    def effect(x: list[int]) -> bool:
        return True
    return effect


li, mov, alu, addr = (_writing(f) for f in (_li, _mov, _alu, _addr))
branch, jmp = _branching(_branch), _branching(_jmp)


def nop(ex: Context, instr: Instruction) -> Issued:
    return Issued("S")  # its effect (`_nop`, the fast loop's) changes nothing: no body


EFFECTS[nop] = _nop
