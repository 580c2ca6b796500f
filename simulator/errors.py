"""Runtime faults and the error the Python API raises."""

from __future__ import annotations

from isa.diagnostics import Diagnostic, DiagnosticError


class Fault(Exception):
    """A runtime error inside one instruction: message, column offset and where it arose."""

    def __init__(self, message: str, col: int | None = None):
        super().__init__(message)
        self.message = message
        self.col = col


class SimulationError(DiagnosticError):
    """A run stopped on an error; `.diagnostics` holds every diagnostic of the run."""

    def __init__(self, diagnostics: list[Diagnostic], partial=None):
        super().__init__(diagnostics)
        self.partial = partial


class UsageError(Exception):
    """Command-line usage (exit 2): unknown chip, missing program path."""
