"""`pipev debug` (ISA.md §13): a step debugger observing the one executor — no second
interpreter. `Session` holds the run and its undo log, `Commands` the command language, `Repl`
the prompt. `debug()` is what the CLI calls."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TextIO

from isa.chip import Chip
from isa.diagnostics import DiagnosticError
from isa.program import Program, at_loc_lines

from .commands import CommandError, Commands
from .repl import PROMPT, Repl
from .session import Session

__all__ = ["Session", "Commands", "CommandError", "Repl", "PROMPT", "debug", "Debugger"]


class Debugger:
    """The debugger as an object (`pipev.debug`): the commands of `pipev debug`, their replies
    as lines, and the machine at the current point."""

    def __init__(self, program, *, chip=None, inputs: Mapping | None = None,
                 checks: str = "error", max_steps: int = 10_000_000,
                 params: Mapping | None = None):
        from simulator.run import check_mode, load_program

        check_mode(checks)
        if chip is not None and not isinstance(chip, Chip):
            from isa.chip import get_chip

            chip = get_chip(chip)
        self.session = Session(load_program(program, chip, checks, params), inputs, checks,
                               max_steps)
        self.commands = Commands(self.session)

    def execute(self, command: str) -> list[str]:
        """One debugger command (`step`, `break 16`, `print z[0:8]`, `back`, …); its reply."""
        try:
            return self.commands.execute(command)
        except CommandError as e:
            return [str(e)]

    @property
    def ub(self):
        """UB at the current point (read-only)."""
        self.session.sync()
        view = self.session.machine.ub.view()
        view.setflags(write=False)
        return view

    @property
    def registers(self) -> tuple[int, ...]:
        self.session.sync()
        return tuple(self.session.machine.x)

    @property
    def cycle(self) -> int:
        return self.session.cycle()

    @property
    def finished(self) -> bool:
        return self.session.finished


def debug(program_path: str | Path | Program, *, chip: Chip | None = None,
          inputs: Mapping | None = None, commands: str | Path | None = None, checks: str = "error",
          max_steps: int = 10_000_000, stdin: TextIO | None = None, out: TextIO | None = None,
          err: TextIO | None = None, werror: bool = False,
          params: Mapping | None = None) -> int:
    """Run a debugging session; the exit status (0, or 1 when the program cannot be loaded or,
    with WERROR, when the session reported a warning)."""
    from simulator.run import load_program

    stdin = stdin or sys.stdin
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        program = at_loc_lines(load_program(program_path if isinstance(program_path, Program)
                                            else Path(program_path), chip, checks, params))
        session = Session(program, inputs, checks, max_steps)
    except DiagnosticError as e:
        for d in e.diagnostics:
            err.write(f"{d}\n")
        return 1
    lines = None
    if commands is not None:
        try:
            text = Path(commands).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            err.write(f"{commands}:1:1: error: cannot read the command file: "
                      f"{getattr(e, 'strerror', None) or e}\n")
            return 1
        lines = iter(text.splitlines())
    elif not stdin.isatty():
        lines = iter(stdin)
    cmds = Commands(session)
    repl = Repl(cmds, out)
    n_hw = len(session.flat)
    repl.write([f"pipev debug: {program.path} on {program.chip.name}, "
                f"{len(program.statements)} statements ({n_hw} hardware instructions); "
                "`help` lists the commands",
                *[str(d) for d in session.new_diagnostics()], *cmds.where()])
    if lines is None:
        _readline()
    repl.loop(lines)
    warned = [d for d in session.ex.diagnostics if d.severity == "warning"]
    if werror and warned:
        n = len(warned)
        err.write(f"{warned[0].path}:{warned[0].line}:{warned[0].column}: error: {n} warning"
                  f"{'s' if n != 1 else ''} treated as error{'s' if n != 1 else ''} "
                  "(--werror)\n")
        return 1
    return 0


def _readline() -> None:
    """Line editing and history at a terminal, where the platform has it."""
    try:
        import readline  # noqa: F401
    except ImportError:  # pragma: no cover
        pass
