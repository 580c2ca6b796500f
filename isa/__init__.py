"""The pipev ISA: data types, the instruction table, the assembler and the decoder."""

from isa.assembler import assemble
from isa.chip import Chip, ChipError, chip_names, get_chip
from isa.diagnostics import AssemblyError, Diagnostic, DiagnosticError
from isa.program import Instruction, Program, Statement, Tensor

__all__ = ["assemble", "Chip", "ChipError", "chip_names", "get_chip", "AssemblyError",
           "Diagnostic", "DiagnosticError", "Instruction", "Program", "Statement", "Tensor"]
