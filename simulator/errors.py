"""The errors the Python API raises (run-time faults are simulator.problems.Fault)."""

from __future__ import annotations

from isa.diagnostics import Diagnostic, DiagnosticError


class SimulationError(DiagnosticError):
    """A run stopped on an error; `.diagnostics` holds every diagnostic of the run."""

    def __init__(self, diagnostics: list[Diagnostic], partial=None):
        super().__init__(diagnostics)
        self.partial = partial


class UsageError(Exception):
    """Command-line usage (exit 2): unknown chip, missing program path."""
