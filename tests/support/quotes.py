"""The CLI quotes each diagnostic's source line and a caret under it (simulator/render.py).
Tests that read diagnostics line by line drop those quotes, after checking that each one
follows a diagnostic."""

from __future__ import annotations

import re

QUOTE = re.compile(r"^ *\d+ \| |^ +\| ")
DIAG = re.compile(r"^.+:\d+:\d+: (error|warning|note): ")


def is_quote(line: str) -> bool:
    return bool(QUOTE.match(line))


def diagnostic_lines(lines: list[str]) -> list[str]:
    """LINES without the quoted source lines and carets (each must follow a diagnostic or the
    quote line before it)."""
    out = []
    prev_diag = False
    for ln in lines:
        if is_quote(ln):
            assert prev_diag, f"a source quote that follows no diagnostic: {ln!r}"
            continue
        out.append(ln)
        prev_diag = bool(DIAG.match(ln))
    return out
