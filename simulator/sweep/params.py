"""Where a sweep's parameters meet a .vasm program: `.param NAME = VALUE` declarations
overridden as `-D NAME=VALUE` would (the assembler's `params`)."""

from __future__ import annotations

from isa import assemble
from isa.chip import Chip
from isa.program import Program


def assemble_with(text: str, path: str, chip: Chip | None, checks: str,
                  params: dict[str, str]) -> Program:
    """The program with PARAMS overriding its `.param` values; raises AssemblyError."""
    return assemble(text, path, chip, checks, params=params)
