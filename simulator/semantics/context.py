"""What a family's semantics may ask of the machine that runs it (the executor implements it):
the machine state, operand resolution at issue, the decode cache, the check policy, the
source for look-ahead and the instruction set. Semantics know nothing else of the executor."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

from isa.chip import Chip
from isa.program import Instruction
from simulator.decodings import Decodings
from simulator.machine import Machine
from simulator.policy import Policy
from simulator.problems import Problem


class Semantics(Protocol):
    """What the issuing paths read of the run's instruction set (instruction_set.py)."""

    issue: Mapping[str, Callable]
    bodies: Mapping[str, Callable]
    prepare: Mapping[str, Callable]


class Context(Protocol):
    m: Machine
    chip: Chip
    decodings: Decodings
    policy: Policy
    source: object  # has ahead(pred): the next matching instruction, False, or None (a stream)
    isa: Semantics  # the instruction set the run executes (its families' semantics)

    def resolve(self, instr: Instruction) -> tuple[dict[str, int], dict[str, int]]: ...

    def check(self, instr: Instruction, problem: Problem | None) -> None: ...

    def warn(self, instr: Instruction, problem: Problem, once: str | None = None) -> None: ...

    def value(self, v) -> int: ...

    def int_operand(self, instr: Instruction, role: str) -> int: ...
