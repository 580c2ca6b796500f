"""Where a TIK call came from, and the diagnostics TIK misuse gives there.

Every TIK call is reported at the script's own FILE:LINE:COL: the first frame on the stack that is
not pipev's TIK module (a kernel may be built by helper functions in other files: the frame that
called into `tik` is the one a kernel author wrote).
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import linecache
import sys
from pathlib import Path

import attrs

from isa.diagnostics import Diagnostic, DiagnosticError

HERE = str(Path(__file__).resolve().parent)
CONTEXTLIB = str(Path(contextlib.__file__).resolve())  # for_range / if_scope are context managers


@attrs.frozen
class Loc:
    """A position in the user's script, and the text of its line (for listings)."""

    file: str
    line: int
    col: int

    @property
    def source(self) -> str:
        return linecache.getline(self.file, self.line).strip()


class TikError(DiagnosticError):
    """A TIK usage error, reported at the script's line (exit 1, no traceback)."""

    @classmethod
    def at(cls, loc: Loc, message: str) -> TikError:
        return cls([Diagnostic("error", loc.file, loc.line, loc.col, message)])


class UnknownCall(TikError, AttributeError):
    """A TIK call pipev does not model: a diagnostic at the script's line when uncaught, an
    AttributeError to `hasattr` and `getattr(..., default)`."""


@functools.lru_cache(maxsize=256)
def _ours(filename: str) -> bool:
    path = str(Path(filename).resolve())
    return path.startswith(HERE) or path == CONTEXTLIB


def caller() -> Loc:
    """The user's position: the innermost frame outside simulator/tik."""
    frame = sys._getframe(1)
    while frame is not None and _ours(frame.f_code.co_filename):
        frame = frame.f_back
    if frame is None:  # pragma: no cover - called from inside the module only
        return Loc("<tik>", 1, 1)
    col = 1
    try:
        positions = inspect.getframeinfo(frame).positions
        if positions is not None and positions.col_offset is not None:
            col = positions.col_offset + 1
    except (AttributeError, IndexError):  # pragma: no cover - Python < 3.11
        pass
    return Loc(frame.f_code.co_filename, frame.f_lineno, col)


def api(method):
    """A public TIK method: arguments bound against its signature first, so a wrong arity or an
    unknown keyword is a diagnostic at the caller's line rather than a TypeError from inside."""
    sig = inspect.signature(method)
    name = method.__name__

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            sig.bind(self, *args, **kwargs)
        except TypeError as e:
            raise TikError.at(caller(), f"{name}(): {e}") from None
        return method(self, *args, **kwargs)

    return wrapper
