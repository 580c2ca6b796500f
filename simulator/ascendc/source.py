"""The C++ source lines the front end quotes or reads names from, each file read once."""

from __future__ import annotations

from pathlib import Path


class SourceLines:
    """FILE's lines as read at first use ([] when it cannot be read): call columns, the
    variable a call names and the listing's quoted statements come from the text."""

    def __init__(self):
        self._files: dict[str, list[str]] = {}

    def lines(self, file: str) -> list[str]:
        lines = self._files.get(file)
        if lines is None:
            try:
                lines = Path(file).read_text(encoding="utf-8", errors="replace").splitlines()
            except OSError:
                lines = []
            self._files[file] = lines
        return lines

    def line(self, file: str, line: int) -> str:
        """LINE (1-based) of FILE, '' past its end or when it cannot be read."""
        lines = self.lines(file)
        return lines[line - 1] if 0 < line <= len(lines) else ""
