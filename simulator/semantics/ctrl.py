"""Issue 34: SetCtrlSpr / ResetCtrlSpr (`set_ctrl`, `reset_ctrl`): CTRL, machine state
(`Machine.special["ctrl"]`, isa/ctrl.py), written in program order at issue on S, so the
conversions after it read the new bits (docs/semantics.md §15.4)."""

from __future__ import annotations

from isa import ctrl
from isa.program import Instruction
from simulator.machine import Machine
from simulator.problems import Fault, Problem
from simulator.semantics.context import Context
from simulator.semantics.issued import Issued

KEY = "ctrl"  # Machine.special's key of CTRL (a machine starts with isa.ctrl.LAUNCH there)


def value(m: Machine) -> int:
    """M's CTRL now."""
    return m.special[KEY]


def _bits(ex: Context, instr: Instruction) -> tuple[int, int]:
    lo, hi = ex.int_operand(instr, "lo"), ex.int_operand(instr, "hi")
    if not 0 <= lo <= hi < ctrl.BITS:
        raise Fault(Problem("operand", f"{instr.head}: bits [{hi}:{lo}]",
                            f" are not a range of CTRL's {ctrl.BITS} (0 <= start <= end <= 63)",
                            role="lo"))
    return lo, hi


def set_ctrl(ex: Context, instr: Instruction) -> Issued:
    """CTRL[HI:LO] = VALUE (SetCtrlSpr: a value wider than the range is refused)."""
    lo, hi = _bits(ex, instr)
    if instr.name == "reset_ctrl":
        return Issued("S", None, _write, (lo, hi, ctrl.field(ctrl.DEFAULT, lo, hi)))
    value = ex.int_operand(instr, "value")
    if value >> (hi - lo + 1):
        raise Fault(Problem("operand", f"{instr.head}: {value:#x}",
                            f" does not fit in CTRL[{hi}:{lo}] ({hi - lo + 1} bits)",
                            role="value", at_value=True))
    return Issued("S", None, _write, (lo, hi, value))


def _write(m: Machine, _op, arg, _lo, _hi) -> None:
    lo, hi, value = arg
    m.special[KEY] = ctrl.with_field(m.special[KEY], lo, hi, value)


ISSUE = {"set_ctrl": set_ctrl}
