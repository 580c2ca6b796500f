"""set_flag / wait_flag / pipe_barrier (docs/semantics.md §6.6). Functionally the machine runs in
program order, so a flag is only bookkeeping: which flags are set, and the deadlock rule."""

from __future__ import annotations

from isa.families import SET_FLAG
from isa.program import Instruction
from simulator.machine import Machine
from simulator.problems import Fault, Problem
from simulator.semantics.context import Context
from simulator.semantics.issued import Issued


def flag_key(instr: Instruction) -> tuple[str, str, int]:
    o = instr.operands
    return o["src"].value, o["dst"].value, o["id"].value


def set_flag(ex: Context, instr: Instruction) -> Issued:
    key = flag_key(instr)
    if key in ex.m.flags:
        ex.warn(instr, Problem("flag", f"flag {key[0]}->{key[1]} id {key[2]} is already set"),
                once="flagset")
    return Issued(key[0], None, _set, (key, instr), flag=key)


def _set(m: Machine, _op, arg, _lo, _hi) -> None:
    key, instr = arg
    m.flags[key] = instr  # the set_flag, for the "still set" warning


def wait_flag(ex: Context, instr: Instruction) -> Issued:
    key = flag_key(instr)
    if key not in ex.m.flags:
        later = ex.source.ahead(lambda h: _sets(h) and flag_key(h) == key)
        if later is None:
            where = ""  # a stream cannot look ahead
        else:
            where = f"; the next set_flag of it is at line {later.line}" if later else \
                "; no set_flag of it follows"
        raise Fault(Problem("deadlock", f"deadlock: wait_flag {key[0]}, {key[1]}, {key[2]} has "
                            f"no earlier unconsumed set_flag{where}{_near_miss(ex, key)}"))
    return Issued(key[1], None, _clear, key, flag=key)


def _sets(instr: Instruction) -> bool:
    """Whether INSTR sets a flag (its family's kind says, not its mnemonic)."""
    return instr.defn.family.kind == SET_FLAG


def _near(a: tuple, b: tuple) -> bool:
    """Flags that differ in exactly one of source pipe, destination pipe and id."""
    return sum(x != y for x, y in zip(a, b, strict=True)) == 1


def _near_miss(ex: Context, key: tuple) -> str:
    """A set_flag the author probably meant: one still set (unconsumed), else one ahead, whose
    flag differs from KEY in one place."""
    for other, setter in ex.m.flags.items():
        if _near(other, key):
            return (f" (set_flag {', '.join(map(str, other))} at line {setter.line} is set and "
                    f"never waited for: did you mean wait_flag {', '.join(map(str, other))}?)")
    ahead = ex.source.ahead(lambda h: _sets(h) and _near(flag_key(h), key))
    if ahead:
        other = flag_key(ahead)
        return (f" (set_flag {', '.join(map(str, other))} at line {ahead.line} differs from it "
                "in one place)")
    return ""


def _clear(m: Machine, _op, key, _lo, _hi) -> None:
    del m.flags[key]


def barrier(ex: Context, instr: Instruction) -> Issued:
    return Issued(instr.defn.family.issuing_pipe(instr))
