"""pipev's click group: which module a command line goes to. `run`/`debug` of a C++ program go
to simulator/ascendc, `run|asm|check|debug SCRIPT.py` to the TIK front end (simulator/tik), and
`sweep` to simulator/sweep; each is imported only when a command line names it (or `--help`
lists it), so a `.vasm` run starts without them."""

from __future__ import annotations

import importlib

import click

from simulator.front_ends import front_end_for

# options of either `run` or `debug` that take a value as the next argument
VALUE_OPTIONS = {"--chip", "--trace", "--trace-format", "--checks", "--max-steps", "--input",
                 "--output-dir", "--save-vasm", "--kernel", "--block-dim", "--arg", "-D", "-I",
                 "--commands", "--launch", "--core", "--ex", "--isa"}

# commands of their own packages: name -> (module, attribute)
LAZY_COMMANDS = {"sweep": ("simulator.sweep.cli", "sweep_command")}


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
    """A click group whose `run` and `debug` commands go to `run_cpp` and `debug_cpp` for C++
    programs, whose run, asm, check and debug go to the TIK front end for Python scripts
    (simulator/tik/cli.py), and whose LAZY_COMMANDS are imported when first looked up."""

    def resolve_command(self, ctx, args):
        if args and args[0] in ("run", "debug") and wants(args[1:]):
            from simulator.ascendc import cli as cpp

            return args[0], cpp.run_cpp if args[0] == "run" else cpp.debug_cpp, args[1:]
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
