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


def did_you_mean(name: str, candidates, case_sensitive: bool = True) -> str:
    """`; did you mean 'X'?` naming the nearest of CANDIDATES (difflib's ratio), or ''."""
    from difflib import get_close_matches

    pool = list(candidates)
    if not case_sensitive:
        lowered = {c.lower(): c for c in pool}
        near = get_close_matches(name.lower(), list(lowered), 1, 0.6)
        return f"; did you mean '{lowered[near[0]]}'?" if near else ""
    near = get_close_matches(name, pool, 1, 0.6)
    return f"; did you mean '{near[0]}'?" if near else ""
