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
    # most often the frame calling ours (caller's callers are all ours): a call site known
    # already is a user's frame (no other is kept), found without walking
    frame = sys._getframe(2)
    got = _LOCS.get((id(frame.f_code), frame.f_lasti))
    if got is not None and got[0] is frame.f_code:
        return got[1]
    frame = sys._getframe(1)
    while frame is not None and _ours(frame.f_code.co_filename):
        frame = frame.f_back
    if frame is None:  # pragma: no cover - called from inside the module only
        return Loc("<tik>", 1, 1)
    code, lasti = frame.f_code, frame.f_lasti
    # by the code object's identity: its hash reads its whole contents (the bytecode, the
    # constants: a script's module), and equal code objects of two files must name each its
    # own; the entry holds the code object, so its id is not reused while the entry lives
    key = (id(code), lasti)
    got = _LOCS.get(key)
    if got is None or got[0] is not code:  # a call site's first call (a Python loop's later
        # ones share its Loc)
        if len(_LOCS) >= 65536:
            _LOCS.clear()
        got = _LOCS[key] = (code, Loc(code.co_filename, frame.f_lineno, _column(code, lasti)))
    return got[1]


def user_site(frame) -> bool:
    """FRAME's call is one `caller()` answered with FRAME's own position (a user's frame:
    only those are kept)."""
    got = _LOCS.get((id(frame.f_code), frame.f_lasti))
    return got is not None and got[0] is frame.f_code


# code object -> its instructions' positions (`co_positions`), read once: a call's column is
# then a list index (inspect.getframeinfo reads the script's source at every call)
_POSITIONS: dict = {}
# (id of a code object, bytecode offset) -> (that code object, the Loc of the call there):
# one per call site
_LOCS: dict = {}


def _column(code, lasti: int) -> int:
    """The 1-based column where the call at bytecode offset LASTI of CODE begins, as
    `inspect.getframeinfo(frame).positions` gives it (1 when unknown)."""
    positions = _POSITIONS.get(code)
    if positions is None:
        if len(_POSITIONS) >= 4096:  # scripts exec'd again and again (a sweep's worker)
            _POSITIONS.clear()
        try:
            positions = _POSITIONS[code] = list(code.co_positions())
        except AttributeError:  # pragma: no cover - Python < 3.11
            positions = _POSITIONS[code] = []
    i = lasti // 2
    if lasti < 0 or i >= len(positions):
        return 1
    col = positions[i][2]
    return col + 1 if col is not None else 1


def api(method):
    """A public TIK method: arguments bound against its signature first, so a wrong arity or an
    unknown keyword is a diagnostic at the caller's line rather than a TypeError from inside."""
    sig = inspect.signature(method)
    name = method.__name__
    least, most = positional(sig)

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        if kwargs or not least <= len(args) <= most:
            try:
                sig.bind(self, *args, **kwargs)
            except TypeError as e:
                raise TikError.at(caller(), f"{name}(): {e}") from None
        return method(self, *args, **kwargs)

    return wrapper


def positional(sig: inspect.Signature) -> tuple[int, int]:
    """The numbers of positional arguments (self not counted) that bind to SIG without
    `bind`: a signature of plain parameters binds them when their number is in range (a Python
    loop's calls); (1, 0), none, for any other signature."""
    params = list(sig.parameters.values())
    if not all(p.kind is p.POSITIONAL_OR_KEYWORD for p in params):
        return 1, 0
    return sum(p.default is p.empty for p in params) - 1, len(params) - 1
