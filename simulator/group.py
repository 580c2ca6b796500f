"""pipev's click group: which module a command line goes to. `run`/`check`/`asm`/`debug` of a
C++ program go to simulator/ascendc, `run|asm|check|debug SCRIPT.py` to the TIK front end
(simulator/tik), and `sweep` to simulator/sweep; each is imported only when a command line
names it (or `--help` lists it), so a `.vasm` run starts without them."""

from __future__ import annotations

import functools
import importlib
import os
from pathlib import Path

import click

from simulator.front_ends import front_end_for

# options of either `run` or `debug` that take a value as the next argument
VALUE_OPTIONS = {"--chip", "--trace", "--trace-format", "--checks", "--max-steps", "--input",
                 "--output-dir", "--save-vasm", "--kernel", "--block-dim", "--arg", "-D", "-I",
                 "--commands", "--launch", "--core", "--ex", "--isa"}

# the C++ front end's commands (simulator/ascendc/cli.py): name -> attribute
CPP_COMMANDS = {"run": "run_cpp", "check": "check_cpp", "asm": "asm_cpp", "debug": "debug_cpp"}

# commands of their own packages: name -> (module, attribute)
LAZY_COMMANDS = {"sweep": ("simulator.sweep.cli", "sweep_command")}

# parameters (of any command) naming a file the command writes, and those naming files it
# reads: a path, or NAME=PATH items (`--input`, `--expect`, `--arg`)
OUTPUT_PARAMS = {"trace": "--trace", "save_vasm": "--save-vasm", "out": "--out", "plot": "--plot"}
INPUT_PARAMS = {"program": "the program", "inputs": "--input", "expects": "--expect",
                "kernel_args": "--arg", "commands": "--commands"}


def _read_files(params: dict) -> list[tuple[str, str]]:
    """(what, path) of every file PARAMS name as read."""
    found = []
    for name, what in INPUT_PARAMS.items():
        value = params.get(name)
        for item in (value,) if isinstance(value, str) else value or ():
            path = item.partition("=")[2] if name != "program" and name != "commands" \
                else item
            if path and not path.startswith("out:"):
                found.append((what, path))
    return found


def refuse_writing_inputs(params: dict) -> None:
    """A usage error when an output option names a file the command reads (the program's own
    file given to --save-vasm or --trace by a slip): writing it would destroy it, as a
    compiler refuses `g++ x.cpp -o x.cpp`."""
    reads = _read_files(params)
    for name, option in OUTPUT_PARAMS.items():
        out = params.get(name)
        if not out or not os.path.exists(out):
            continue
        for what, path in reads:
            try:
                same = os.path.samefile(out, path)
            except OSError:
                same = Path(out).resolve() == Path(path).resolve()
            if same:
                named = what if what == "the program" else f"the file of {what}"
                raise click.UsageError(f"{option} {out} is {named} ({path}): pipev would write "
                                       "over it; choose another file")


def guarded(command: click.Command) -> click.Command:
    """COMMAND, its callback first checking that no output option names a file it reads
    (refuse_writing_inputs); wrapped once."""
    inner = command.callback
    if inner is None or getattr(inner, "pipev_guarded", False):
        return command

    @functools.wraps(inner)
    def callback(*args, **params):
        refuse_writing_inputs(params)
        return inner(*args, **params)

    callback.pipev_guarded = True
    command.callback = callback
    return command


def program_of(args: list[str]) -> str | None:
    """The first positional argument of ARGS (before a `--`, skipping option values)."""
    skip = False
    for a in args:
        if skip:
            skip = False
            continue
        if a == "--":
            return None
        if a.startswith("-"):
            skip = a in VALUE_OPTIONS
            continue
        return a
    return None


def wants(args: list[str]) -> bool:
    """ARGS (after `run` or `debug`) name a C++ program (simulator/front_ends.py)."""
    program = program_of(args)
    return program is not None and front_end_for(program) == "cpp"


class PipevGroup(click.Group):
    """A click group whose `run`, `check`, `asm` and `debug` commands go to simulator/ascendc's
    for C++ programs (CPP_COMMANDS), to the TIK front end for Python scripts
    (simulator/tik/cli.py), and whose LAZY_COMMANDS are imported when first looked up."""

    def resolve_command(self, ctx, args):
        name, command, rest = self._resolve(ctx, args)
        return name, guarded(command) if command is not None else command, rest

    def _resolve(self, ctx, args):
        if args and args[0] in CPP_COMMANDS and wants(args[1:]):
            from simulator.ascendc import cli as cpp

            return args[0], getattr(cpp, CPP_COMMANDS[args[0]]), args[1:]
        program = program_of(args[1:])
        if program is not None and front_end_for(program) == "tik":
            from simulator.tik.cli import command_for

            tik = command_for(self, args, program)
            if tik is not None:
                return tik
        return super().resolve_command(ctx, args)

    def list_commands(self, ctx) -> list[str]:
        return sorted({*super().list_commands(ctx), *LAZY_COMMANDS})

    def get_command(self, ctx, name: str):
        if name in LAZY_COMMANDS and name not in self.commands:
            module, attribute = LAZY_COMMANDS[name]
            self.add_command(getattr(importlib.import_module(module), attribute), name)
        return super().get_command(ctx, name)
