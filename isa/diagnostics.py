"""Diagnostics in the one format every tool prints (ISA.md §9.1)."""

from __future__ import annotations

import attrs


@attrs.frozen
class Diagnostic:
    severity: str  # "error" | "warning" | "note"
    path: str
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}: {self.severity}: {self.message}"


class DiagnosticError(Exception):
    """Raised with the diagnostics that stopped the work; `.diagnostics` holds them all."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(str(d) for d in self.diagnostics))


class AssemblyError(DiagnosticError):
    """The program text has static errors."""
