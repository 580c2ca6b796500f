"""set_flag / wait_flag / pipe_barrier and ascend950's Mutex lock / unlock (docs/semantics.md §6.6).
Functionally the machine runs in program order, so a flag or a mutex is only bookkeeping: which
flags are set and which mutexes locked, the deadlock rule and the Mutex page's pairing rule."""

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


# -- ascend950's Mutex (#34): Lock<PIPE>(id) / Unlock<PIPE>(id), strictly in pairs on one pipe --
def mutex_lock(ex: Context, instr: Instruction) -> Issued:
    pipe, mid = instr.operands["pipe"].value, instr.operands["id"].value
    held = ex.m.mutexes.get(mid)
    if held is not None:
        ex.warn(instr, Problem("mutex", f"mutex {mid} is locked again before its Unlock (locked "
                               f"by {held[0]} at line {held[1].line}): Lock and Unlock of an id "
                               "must alternate, else the hardware's behaviour is unpredictable"))
    return Issued(pipe, None, _lock, (mid, pipe, instr), flag=mid)


def _lock(m: Machine, _op, arg, _lo, _hi) -> None:
    mid, pipe, instr = arg
    m.mutexes[mid] = (pipe, instr)


def mutex_unlock(ex: Context, instr: Instruction) -> Issued:
    pipe, mid = instr.operands["pipe"].value, instr.operands["id"].value
    held = ex.m.mutexes.get(mid)
    if held is None or held[0] != pipe:
        what = "is not locked" if held is None else f"is locked by {held[0]} (line {held[1].line})"
        ex.warn(instr, Problem("mutex", f"Unlock<{pipe}> of mutex {mid}, which {what}: an Unlock "
                               "follows its own pipe's Lock of the id, else the hardware's "
                               "behaviour is unpredictable"))
    return Issued(pipe, None, _unlock, mid, flag=mid)


def _unlock(m: Machine, _op, mid, _lo, _hi) -> None:
    m.mutexes.pop(mid, None)
