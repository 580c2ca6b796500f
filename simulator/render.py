"""A diagnostic as pipev shows it to a person: the FILE:LINE:COL line, then (like clang and
rustc) the source line it points into and a caret under the column. The core's Diagnostic is
one line; quoting the source is presentation, done here for every front end and command: `run`,
`check` and `asm` of .vasm, .cpp and .py programs, the C++ worker, TIK's start_debug and the
debugger's replies (docs/decisions.md, "One renderer quotes every diagnostic").

The quoted line is read from the diagnostic's own file (the user's .vasm, .cpp or .py): a file
that cannot be read (deleted, `<stream>`) gets no quote. `--json` output is never quoted."""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from isa.diagnostics import Diagnostic

MAX_QUOTED = 160  # longer lines are cut around the column


def _lines(path: str) -> tuple[str, ...]:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return ()
    return _read(path, st.st_mtime_ns, st.st_size)  # a rewritten file is read again


@lru_cache(maxsize=16)
def _read(path: str, mtime_ns: int, size: int) -> tuple[str, ...]:
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


def quoted_line(d: Diagnostic) -> str | None:
    """The source line D points into, as it can be printed; None when there is none to quote
    (an unreadable file, a blank line, an option's problem)."""
    if d.line < 1 or _about_an_option(d):
        return None
    text = source_line(d.path, d.line)
    return text if text is not None and text.strip() else None


def render(d: Diagnostic, show_source: bool = True) -> str:
    """D's line, then (SHOW_SOURCE) its source line and a caret under its column."""
    head = str(d)
    text = quoted_line(d) if show_source else None
    if text is None:
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


def render_lines(diags: Iterable[Diagnostic], show_source: bool = True) -> list[str]:
    """DIAGS rendered, as lines (the debugger's replies are lists of lines)."""
    return [line for d in diags for line in render(d, show_source).split("\n")]
