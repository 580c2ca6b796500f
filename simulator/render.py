"""A diagnostic as the command line prints it: the FILE:LINE:COL line, then (like clang and
rustc) the source line it points into and a caret under the column. The core's Diagnostic is
one line; quoting the source is the command line's business."""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

from isa.diagnostics import Diagnostic

MAX_QUOTED = 160  # longer lines are cut around the column


@lru_cache(maxsize=16)
def _lines(path: str) -> tuple[str, ...]:
    try:
        return tuple(Path(path).read_bytes().decode("utf-8-sig", "replace").split("\n"))
    except OSError:
        return ()


def source_line(path: str, line: int) -> str | None:
    """Line LINE of PATH as it can be printed: control and line-separator characters (which a
    terminal would act on, or a reader would split at) shown as U+FFFD, one for one."""
    lines = _lines(path)
    if not 1 <= line <= len(lines):
        return None
    return "".join("\ufffd" if c != "\t" and unicodedata.category(c) in
                   ("Cc", "Cf", "Zl", "Zp", "Cs") else c for c in lines[line - 1].rstrip("\r"))


def _about_an_option(d: Diagnostic) -> bool:
    """A command-line option's problem with no place in the text (`-D X` the program does not
    declare, at 1:1): quoting line 1 would point at nothing."""
    return (d.line, d.column) == (1, 1) and d.message.startswith("-")


def render(d: Diagnostic, show_source: bool = True) -> str:
    head = str(d)
    if not show_source or d.line < 1 or _about_an_option(d):
        return head
    text = source_line(d.path, d.line)
    if text is None or not text.strip():
        return head
    col = max(1, min(d.column, len(text) + 1))
    start = 0
    if len(text) > MAX_QUOTED:  # keep the column in view
        start = max(0, min(col - MAX_QUOTED // 2, len(text) - MAX_QUOTED))
        text = text[start:start + MAX_QUOTED]
    # the caret's padding copies the line's tabs so it lands under the column in any terminal
    pad = "".join(c if c == "\t" else " " for c in text[:col - 1 - start])
    gutter = f"{d.line:>5} | "
    return f"{head}\n{gutter}{text}\n{' ' * (len(gutter) - 2)}| {pad}^"
