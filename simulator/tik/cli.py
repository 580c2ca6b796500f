"""The TIK front end's commands: `pipev run|asm|check|debug SCRIPT.py` (the same options as for
a `.vasm` program: the script is executed and the kernel its BuildCCE declares is the program)
and `pipev python SCRIPT.py [ARGS]` / `-m MODULE [ARGS]`, with TIK importable: `python
SCRIPT` as Python runs it (a test file too: pytest runs through `-m pytest`).

A TIK usage error is a diagnostic at the script's line (exit 1); an exception in the user's own
Python is their traceback, from their script's frame on (exit 1).
"""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path

import click

from isa.diagnostics import DiagnosticError
from simulator.front_ends import front_end_for
from simulator.tik import SHIM
from simulator.tik.script import ScriptFailed, execute_script, no_kernel, print_user_traceback

COMMANDS = ("run", "asm", "check", "debug")


def command_for(group: click.Group, args: list[str], program: str | None):
    """(name, command, args) when ARGS are `run|asm|check|debug SCRIPT.py ...`, else None."""
    if not args or args[0] not in COMMANDS or program is None or \
            front_end_for(program) != "tik":
        return None
    base = group.commands[args[0]]
    cmd = click.Command(args[0], params=base.params, callback=CALLBACKS[args[0]],
                        help=f"{base.help} (a TIK script: its BuildCCE kernel)",
                        context_settings=base.context_settings)
    return args[0], cmd, args[1:]


# -- running a script with TIK importable -----------------------------------------------------
def configure(chip: str | None, checks: str) -> None:
    """Make `tbe.tik`, `te.tik` and `tik` importable here and in the script's subprocesses,
    with the command's --chip, --checks and --no-source, and its --isa for the kernels built
    in this process."""
    from simulator.commands import chosen_isa, show_source
    from simulator.tik import tik

    if SHIM not in sys.path:
        sys.path.insert(0, SHIM)
    parts = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    if SHIM not in parts:
        os.environ["PYTHONPATH"] = os.pathsep.join([SHIM, *parts])
    quote = show_source()
    tik.SETTINGS.update(chip=chip, checks=checks, show_source=quote, isa=chosen_isa())
    for key, value in (("PIPEV_CHIP", chip), ("PIPEV_CHECKS", checks)):
        if value:
            os.environ[key] = value
    if quote:  # this command's choice, not an earlier one's
        os.environ.pop("PIPEV_NO_SOURCE", None)
    else:
        os.environ["PIPEV_NO_SOURCE"] = "1"


def kernel_of(script: str, chip: str | None, checks: str, defines=(), as_json: bool = False):
    """Execute SCRIPT, its parameters overridden by the -D NAME=VALUE items DEFINES, and return
    the Program of the last kernel it built; exit 1 on errors (AS_JSON: reported as `run
    --json` reports a failed run)."""
    from simulator.commands import _fail
    from simulator.tik import tik

    overrides = _defines(defines)
    configure(chip, checks)
    first = len(tik.BUILT)
    try:
        execute_script(script, [], overrides)
    except DiagnosticError as e:
        _fail(e.diagnostics, as_json)
    except ScriptFailed as e:
        print_user_traceback(e, script)
        sys.exit(1)
    built = tik.BUILT[first:]
    if not built:
        _fail([no_kernel(script)], as_json)
    return built[-1].program


def run_python(args: list[str], chip: str | None, checks: str) -> int:
    """`pipev python SCRIPT [ARGS]` or `-m MODULE [ARGS]`, as `python` runs them: the exit
    status. A module that is not installed (`-m pytest` without pytest) is one line naming
    the extra that brings it (simulator/extras.py)."""
    from simulator.extras import is_missing, missing_message

    configure(chip, checks)
    try:
        if args[0] == "-m":
            if len(args) < 2:
                raise click.UsageError("-m needs a module name")
            sys.path.insert(0, os.getcwd())
            if is_missing(args[1]):
                click.echo(missing_message(args[1]), err=True)
                return 1
            sys.argv = [args[1], *args[2:]]
            runpy.run_module(args[1], run_name="__main__", alter_sys=True)
            return 0
        script = args[0]
        if not Path(script).is_file():
            raise click.UsageError(f"no such script: {script}")
        execute_script(script, args[1:])
        return 0
    except DiagnosticError as e:
        _emit(e.diagnostics)
        return 1
    except ScriptFailed as e:
        print_user_traceback(e, args[0])
        return 1
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)


def _emit(diags) -> None:
    from simulator.commands import _emit as emit  # the source line and caret, as for .vasm

    emit(diags)


# -- the commands -------------------------------------------------------------------------------
def _defines(items) -> dict[str, str]:
    """-D NAME=VALUE items -> {NAME: VALUE text} (read as each parameter's type when the
    script runs: simulator/tik/params.py); a malformed one is a usage error."""
    from isa.lexer import NAME_RE

    out = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not NAME_RE.match(name.strip()):
            raise click.UsageError(f"-D takes NAME=VALUE, got '{item}'")
        out[name.strip()] = value
    return out


def _run(program, chip, inputs, output_dir, trace, trace_format, checks, max_steps, as_json,
         quiet, block_dim=None, trace_core=None, defines=(), werror=False, expects=(),
         expect_ulp=0, trace_time="cycles", views=(), timeline_width=None,
         timeline_range=None) -> None:
    from simulator.commands import (
        _parse_inputs,
        _resolve_chip,
        _timeline_options,
        execute,
        trace_format_of,
    )

    _resolve_chip(chip)
    supplied = _parse_inputs(inputs)
    if trace_core is not None and trace_format_of(trace, trace_format) != "text":
        raise click.UsageError("--core K selects the core of a text timeline (--trace F.txt)")
    options = _timeline_options(trace, trace_format, timeline_width, timeline_range)
    prog = kernel_of(program, chip, checks, defines, as_json)
    execute(prog, None, supplied, output_dir, trace, trace_format, checks, max_steps, as_json,
            quiet, werror=werror, expects=expects, expect_ulp=expect_ulp, trace_time=trace_time,
            block_dim=block_dim, trace_core=trace_core, views=views, trace_options=options)


def _asm(program, chip, as_json, defines=(), **_) -> None:
    import json

    from isa.listing import format_listing, listing
    from simulator.commands import _resolve_chip

    _resolve_chip(chip)
    prog = kernel_of(program, chip, "error", defines, as_json)
    _emit(prog.warnings)
    if as_json:
        click.echo(json.dumps({"chip": prog.chip.name, "statements": listing(prog)}))
    else:
        click.echo(format_listing(prog))


def _check(program, chip, checks="error", max_steps=10_000_000, werror=False, defines=(),
           **_) -> None:
    from simulator.commands import _resolve_chip, check_and_report

    _resolve_chip(chip)
    prog = kernel_of(program, chip, checks, defines)
    check_and_report(prog, program, checks, max_steps, werror)


def _debug(program, chip, inputs, commands, ex, batch, output_dir, werror, checks,
           max_steps, block_dim=None, defines=(), **_) -> None:
    from simulator.commands import _parse_inputs, _resolve_chip, show_source
    from simulator.debugger import debug

    _resolve_chip(chip)
    supplied = _parse_inputs(inputs)
    prog = kernel_of(program, chip, checks, defines)
    sys.exit(debug(prog, inputs=supplied, commands=commands, checks=checks,
                   max_steps=max_steps, ex=ex, batch=batch, output_dir=output_dir,
                   werror=werror, block_dim=block_dim, show_source=show_source()))


CALLBACKS = {"run": _run, "asm": _asm, "check": _check, "debug": _debug}
