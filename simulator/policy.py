"""One place for the --checks policy and the words of run-time diagnostics (docs/semantics.md §7,
§9.1): a Problem becomes an error, a warning (once per statement and rule) or nothing, at the
statement's FILE:LINE:COL, naming the registers behind a value and the .rept iteration."""

from __future__ import annotations

from typing import TYPE_CHECKING

from isa.diagnostics import Diagnostic
from isa.lexer import register_name
from isa.program import Instruction, RegExpr
from simulator.problems import POLICY_RULES, Fault, Problem

if TYPE_CHECKING:  # pragma: no cover
    from simulator.machine import Machine


class Policy:
    def __init__(self, checks: str, machine: Machine, source, diagnostics=()):
        self.checks = checks
        self.m = machine
        self.source = source
        self.diagnostics: list[Diagnostic] = list(diagnostics)
        self._warned: set[tuple] = set()
        self.register_notes = True  # name the registers behind a value (see Stream)

    @property
    def count(self) -> int:
        return len(self.diagnostics)

    def check(self, instr: Instruction, problem: Problem | None) -> None:
        """A rule --checks governs: error (raises Fault), warning (once per statement) or
        nothing. Other rules are always errors."""
        if problem is None:
            return
        if problem.rule not in POLICY_RULES or self.checks == "error":
            raise Fault(problem)
        if self.checks == "warn":
            self.report("warning", instr, problem, once=problem.rule)

    def warn_per_line(self, instr: Instruction, problem: Problem) -> None:
        """A warning once per source line and rule, however many statements the line issues
        (a C++ loop's iterations)."""
        key = (instr.file, instr.line, problem.rule)
        if key not in self._warned:
            self._warned.add(key)
            self.diagnostics.append(self.diagnostic("warning", instr, problem))

    def report(self, severity: str, instr: Instruction, problem: Problem,
               once: str | None = None) -> Diagnostic | None:
        if once is not None:
            key = (instr.pc, instr.line, instr.file, once)
            if key in self._warned:
                return None
            self._warned.add(key)
        d = self.diagnostic(severity, instr, problem)
        self.diagnostics.append(d)
        return d

    def diagnostic(self, severity: str, instr: Instruction, problem: Problem) -> Diagnostic:
        col = _offset(instr, problem)
        regs = "" if instr.is_static or not self.register_notes else \
            self._registers(instr, col)
        message = problem.text(regs)
        rept = self.source.rept(instr)
        if rept is not None:
            message += f" (in .rept iteration {rept})"
        column = instr.col if instr.col_fixed or col is None else col + 1
        return Diagnostic(severity, instr.file or self.source.path, instr.line, column, message)

    def _registers(self, instr: Instruction, col: int | None) -> str:
        """`x3 = 0x1010, x5 = 2`: the registers behind the operand or field at COL (all of the
        instruction's when none is there), with their values now, i.e. at issue."""
        items = [(o.col, v, o.kind == "mem" and v.scale == 1) for o in instr.operands.values()
                 for v in (o.addr, o.value) if isinstance(v, RegExpr)]
        items += [(instr.cols.get(k), v, False) for k, v in instr.fields.items()
                  if isinstance(v, RegExpr)]
        seen: dict[int, str] = {}
        for _, rx, as_hex in [it for it in items if it[0] == col] or items:
            v = self.m.signed(rx.reg)
            seen.setdefault(rx.reg, f"{register_name(rx.reg)} = {_fmt(v, as_hex)}")
        return ", ".join(seen.values())


def _offset(instr: Instruction, problem: Problem) -> int | None:
    """The column offset of the operand or field at fault (None: the mnemonic)."""
    if problem.col is not None:
        return problem.col
    role = problem.role
    if role is None:
        return None
    if role == "sel":
        role = instr.defn.family.sel_column_source(instr.fields)
        if role is None:
            return None
    return instr.cols.get(role)


def _fmt(v: int, as_hex: bool) -> str:
    if not as_hex:
        return str(v)
    return f"-{-v:#x}" if v < 0 else f"{v:#x}"
