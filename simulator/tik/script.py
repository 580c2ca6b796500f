"""Executing a TIK script as `__main__`, with its parameters overridden (simulator/tik/params.py),
and taking the kernel it builds: what `pipev run|asm|check|debug SCRIPT.py` and the sweep's
workers share."""

from __future__ import annotations

import builtins
import contextlib
import importlib.util
import sys
import threading
import traceback
import types
from collections.abc import Mapping, Sequence
from pathlib import Path

from isa.diagnostics import Diagnostic, DiagnosticError
from simulator.gcpace import paced_collections
from simulator.tik import SHIM
from simulator.tik.params import compiled

SHIM_PACKAGES = ("tbe", "te", "tik", "impl", "topi")
BUILD_LOCK = threading.Lock()  # the TIK settings, BUILT, sys.argv and __main__ are per process


class ScriptFailed(Exception):
    """The user's script raised: `.error` is the exception, `.line` its innermost script line."""

    def __init__(self, error: BaseException, line: int):
        super().__init__(str(error))
        self.error = error
        self.line = line


def read_script(path: str) -> str:
    """The script's text (its coding declaration honoured); a DiagnosticError when unreadable."""
    try:
        return importlib.util.decode_source(Path(path).read_bytes())
    except (OSError, UnicodeDecodeError, SyntaxError) as e:
        raise DiagnosticError([Diagnostic("error", path, 1, 1, "cannot read the script: "
                                          f"{getattr(e, 'strerror', None) or e}")]) from None


def execute_script(path: str, argv: list[str], defines: Mapping[str, str] | None = None,
                   text: str | None = None) -> None:
    """Run PATH (or TEXT, the script read elsewhere) as __main__ with ARGV, its parameters
    overridden by DEFINES (name -> -D text). DiagnosticError passes through (pipev's
    diagnostics, an unknown -D name); any other exception becomes ScriptFailed."""
    code = compiled(read_script(path) if text is None else text, path, defines or {})
    module = types.ModuleType("__main__")
    module.__dict__.update(__file__=path, __cached__=None, __loader__=None, __package__="",
                           __spec__=None, __builtins__=builtins)
    old_argv, old_path, old_main = sys.argv, list(sys.path), sys.modules.get("__main__")
    sys.argv = [path, *argv]
    sys.path.insert(0, str(Path(path).resolve().parent))
    sys.modules["__main__"] = module
    try:
        exec(code, module.__dict__)
    except (DiagnosticError, SystemExit, KeyboardInterrupt):
        raise
    except BaseException as e:
        raise ScriptFailed(e, _script_line(e, path)) from e
    finally:
        sys.argv, sys.path[:] = old_argv, old_path
        if old_main is not None:
            sys.modules["__main__"] = old_main


def _script_frames(e: BaseException, path: str):
    """The traceback from the script's first frame on (runpy and pipev left out)."""
    tb = e.__traceback__
    target = str(Path(path).resolve())
    while tb is not None and str(Path(tb.tb_frame.f_code.co_filename).resolve()) != target:
        tb = tb.tb_next
    return tb


def _script_line(e: BaseException, path: str) -> int:
    """The innermost line of the script itself in E's traceback (1 when it has none)."""
    target, line = str(Path(path).resolve()), 1
    tb = e.__traceback__
    while tb is not None:
        if str(Path(tb.tb_frame.f_code.co_filename).resolve()) == target:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def print_user_traceback(failed: ScriptFailed, path: str) -> None:
    e = failed.error
    traceback.print_exception(type(e), e, _script_frames(e, path) or e.__traceback__)


def build(path: str, text: str, defines: Mapping[str, str], chip, checks: str,
          argv: Sequence[str] = ()):
    """The Program of the last kernel the script builds with CHIP (a Chip, a name or None) and
    CHECKS, its sys.argv[1:] ARGV; every failure is a DiagnosticError with one diagnostic at
    the script's line (an exception in the script: `the script raised T: message`), for
    callers that report one line (the sweep's rows)."""
    from simulator.tik import tik

    # the script's calls keep every statement they record until the kernel is built: the
    # collector paced as a run's (simulator/gcpace.py), not traversing that growing heap
    # every 700 new objects (a fifth of a Python-unrolled kernel's build)
    with BUILD_LOCK, _shim_importable(), paced_collections():
        saved = dict(tik.SETTINGS)
        tik.SETTINGS.update(chip=chip, checks=checks)
        first = len(tik.BUILT)
        try:
            execute_script(path, list(argv), defines, text)
        except ScriptFailed as e:
            raise DiagnosticError([Diagnostic(
                "error", path, e.line, 1, f"the script raised {type(e.error).__name__}: "
                f"{e.error}")]) from None
        except SystemExit as e:
            raise DiagnosticError([Diagnostic("error", path, 1, 1, "the script called "
                                              f"sys.exit({e.code!r})")]) from None
        finally:
            tik.SETTINGS.clear()
            tik.SETTINGS.update(saved)
        built = tik.BUILT[first:]
        del tik.BUILT[first:]  # a long-lived worker builds thousands: keep none
    if not built:
        raise DiagnosticError([no_kernel(path)])
    return built[-1].program


@contextlib.contextmanager
def _shim_importable():
    """`tbe.tik`, `te.tik` and `tik` importable for the script, and gone again after it: a
    sweep run in the caller's own process (a thread executor) leaves nothing that could shadow
    a real CANN."""
    old_path = list(sys.path)
    old_modules = {m for m in sys.modules if m.split(".")[0] in SHIM_PACKAGES}
    sys.path.insert(0, SHIM)
    try:
        yield
    finally:
        sys.path[:] = old_path
        for m in [m for m in sys.modules if m.split(".")[0] in SHIM_PACKAGES]:
            if m not in old_modules:
                del sys.modules[m]


def no_kernel(path: str) -> Diagnostic:
    return Diagnostic("error", path, 1, 1, "the script builds no kernel (it never calls "
                      "tik_instance.BuildCCE)")
