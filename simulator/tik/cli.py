"""The TIK front end's commands: `pipev run|asm|check|debug SCRIPT.py` (the same options as for
a `.vasm` program: the script is executed and the kernel its BuildCCE declares is the program)
and `pipev python SCRIPT.py [ARGS]` / `-m MODULE` / a pytest file, with TIK importable.

A TIK usage error is a diagnostic at the script's line (exit 1); an exception in the user's own
Python is their traceback, from their script's frame on (exit 1).
"""

from __future__ import annotations

import os
import re
import runpy
import sys
import traceback
from pathlib import Path

import click

from isa.diagnostics import Diagnostic, DiagnosticError
from simulator.tik import SHIM

COMMANDS = ("run", "asm", "check", "debug")
PYTEST_FILE = re.compile(r"(test_.*|.*_test)\.py\Z")


class ScriptFailed(Exception):
    """The user's script raised: its traceback has been printed."""


def command_for(group: click.Group, args: list[str], program: str | None):
    """(name, command, args) when ARGS are `run|asm|check|debug SCRIPT.py ...`, else None."""
    if not args or args[0] not in COMMANDS or program is None or \
            not program.lower().endswith(".py"):
        return None
    base = group.commands[args[0]]
    cmd = click.Command(args[0], params=base.params, callback=CALLBACKS[args[0]],
                        help=f"{base.help} (a TIK script: its BuildCCE kernel)",
                        context_settings=base.context_settings)
    return args[0], cmd, args[1:]


# -- running a script with TIK importable -----------------------------------------------------
def configure(chip: str | None, checks: str) -> None:
    """Make `tbe.tik`, `te.tik` and `tik` importable here and in the script's subprocesses,
    with the command's --chip, --checks and --no-source."""
    from simulator.commands import show_source
    from simulator.tik import tik

    if SHIM not in sys.path:
        sys.path.insert(0, SHIM)
    parts = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    if SHIM not in parts:
        os.environ["PYTHONPATH"] = os.pathsep.join([SHIM, *parts])
    quote = show_source()
    tik.SETTINGS.update(chip=chip, checks=checks, show_source=quote)
    for key, value in (("PIPEV_CHIP", chip), ("PIPEV_CHECKS", checks)):
        if value:
            os.environ[key] = value
    if quote:  # this command's choice, not an earlier one's
        os.environ.pop("PIPEV_NO_SOURCE", None)
    else:
        os.environ["PIPEV_NO_SOURCE"] = "1"


def execute_script(path: str, argv: list[str]) -> None:
    """Run PATH as __main__ with ARGV. DiagnosticError passes through (pipev's diagnostics);
    any other exception is printed as the user's traceback and becomes ScriptFailed."""
    old_argv, old_path = sys.argv, list(sys.path)
    sys.argv = [path, *argv]
    sys.path.insert(0, str(Path(path).resolve().parent))
    try:
        runpy.run_path(path, run_name="__main__")
    except (DiagnosticError, SystemExit, KeyboardInterrupt):
        raise
    except BaseException as e:
        _print_user_traceback(e, path)
        raise ScriptFailed from None
    finally:
        sys.argv, sys.path[:] = old_argv, old_path


def _print_user_traceback(e: BaseException, path: str) -> None:
    """The traceback from the user's script's first frame on (runpy and pipev left out)."""
    tb = e.__traceback__
    target = str(Path(path).resolve())
    while tb is not None and str(Path(tb.tb_frame.f_code.co_filename).resolve()) != target:
        tb = tb.tb_next
    traceback.print_exception(type(e), e, tb or e.__traceback__)


def kernel_of(script: str, chip: str | None, checks: str):
    """Execute SCRIPT and return the Program of the last kernel it built; exit 1 on errors."""
    from simulator.tik import tik

    configure(chip, checks)
    first = len(tik.BUILT)
    try:
        execute_script(script, [])
    except DiagnosticError as e:
        _emit(e.diagnostics)
        sys.exit(1)
    except ScriptFailed:
        sys.exit(1)
    built = tik.BUILT[first:]
    if not built:
        _emit([Diagnostic("error", script, 1, 1, "the script builds no kernel (it never calls "
                          "tik_instance.BuildCCE)")])
        sys.exit(1)
    return built[-1].program


def run_python(args: list[str], chip: str | None, checks: str) -> int:
    """`pipev python SCRIPT [ARGS]`, `-m MODULE [ARGS]`, or a pytest file: the exit status."""
    configure(chip, checks)
    try:
        if args[0] == "-m":
            if len(args) < 2:
                raise click.UsageError("-m needs a module name")
            sys.argv = [args[1], *args[2:]]
            sys.path.insert(0, os.getcwd())
            runpy.run_module(args[1], run_name="__main__", alter_sys=True)
            return 0
        script = args[0]
        if not Path(script).is_file():
            raise click.UsageError(f"no such script: {script}")
        if PYTEST_FILE.match(Path(script).name):
            import pytest

            return int(pytest.main([script, *args[1:]]))
        execute_script(script, args[1:])
        return 0
    except DiagnosticError as e:
        _emit(e.diagnostics)
        return 1
    except ScriptFailed:
        return 1
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)


def _emit(diags) -> None:
    from simulator.commands import _emit as emit  # the source line and caret, as for .vasm

    emit(diags)


# -- the commands -------------------------------------------------------------------------------
def _no_defines(defines) -> None:
    if defines:
        raise click.UsageError("-D sets a .vasm program's .param; a TIK script has none")


def _run(program, chip, inputs, output_dir, trace, trace_format, checks, max_steps, as_json,
         quiet, block_dim=None, trace_core=None, defines=(), werror=False, expects=(),
         expect_ulp=0, trace_time="cycles", **_) -> None:
    from simulator.commands import _parse_inputs, _resolve_chip, execute, trace_format_of

    _no_defines(defines)
    _resolve_chip(chip)
    supplied = _parse_inputs(inputs)
    if trace_core is not None and trace_format_of(trace, trace_format) != "text":
        raise click.UsageError("--core K selects the core of a text timeline (--trace F.txt)")
    execute(kernel_of(program, chip, checks), None, supplied, output_dir, trace, trace_format,
            checks, max_steps, as_json, quiet, werror=werror, expects=expects,
            expect_ulp=expect_ulp, trace_time=trace_time, block_dim=block_dim,
            trace_core=trace_core)


def _asm(program, chip, as_json, defines=(), **_) -> None:
    import json

    from isa.listing import format_listing, listing
    from simulator.commands import _resolve_chip

    _no_defines(defines)
    _resolve_chip(chip)
    prog = kernel_of(program, chip, "error")
    _emit(prog.warnings)
    if as_json:
        click.echo(json.dumps({"chip": prog.chip.name, "statements": listing(prog)}))
    else:
        click.echo(format_listing(prog))


def _check(program, chip, checks="error", max_steps=10_000_000, werror=False, defines=(),
           **_) -> None:
    from simulator.commands import _resolve_chip, check_and_report

    _no_defines(defines)
    _resolve_chip(chip)
    check_and_report(kernel_of(program, chip, checks), program, checks, max_steps, werror)


def _debug(program, chip, inputs, commands, ex, batch, output_dir, werror, checks,
           max_steps, block_dim=None, defines=(), **_) -> None:
    from simulator.commands import _parse_inputs, _resolve_chip, show_source
    from simulator.debugger import debug

    _no_defines(defines)
    _resolve_chip(chip)
    supplied = _parse_inputs(inputs)
    prog = kernel_of(program, chip, checks)
    sys.exit(debug(prog, inputs=supplied, commands=commands, checks=checks,
                   max_steps=max_steps, ex=ex, batch=batch, output_dir=output_dir,
                   werror=werror, block_dim=block_dim, show_source=show_source()))


CALLBACKS = {"run": _run, "asm": _asm, "check": _check, "debug": _debug}
