"""The pipev ISA: data types, the instruction table, the assembler and the decoder."""

# numpy and attrs first, near the top of the import chain (every chain of pipev's imports
# starts at this package): imported at the end of a long chain of nested imports, numpy's import
# code can run across a boundary of CPython's 16 KB frame-stack chunks, and CPython 3.11 maps and
# unmaps a chunk at every crossing (800 mmap/munmap pairs for `pipev run`: docs/decisions.md)
import attrs  # noqa: F401
import numpy  # noqa: F401

from isa.assembler import assemble
from isa.chip import Chip, ChipError, chip_names, get_chip
from isa.diagnostics import AssemblyError, Diagnostic, DiagnosticError
from isa.program import Instruction, Program, Statement, Tensor

__all__ = ["assemble", "Chip", "ChipError", "chip_names", "get_chip", "AssemblyError",
           "Diagnostic", "DiagnosticError", "Instruction", "Program", "Statement", "Tensor"]
