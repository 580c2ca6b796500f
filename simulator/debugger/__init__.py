"""`pipev debug` (docs/format.md §13): a step debugger observing the one executor — no second
interpreter. `Session` holds the run and its undo log, `Commands` the command language, `Repl`
the prompt. `debug()` is what the CLI calls."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TextIO

from isa.chip import Chip
from isa.diagnostics import DiagnosticError
from isa.program import Program, at_loc_lines

from .commands import CommandError, Commands
from .expr import parse as parse_expr
from .repl import PROMPT, Repl, terminal_reader
from .session import Session

__all__ = ["Session", "Commands", "CommandError", "Repl", "PROMPT", "debug", "Debugger"]


class Debugger:
    """The debugger as an object (`pipev.debug`): the commands of `pipev debug`, their replies
    as lines (a program error with its source line and caret unless SHOW_SOURCE is False), and
    the machine at the current point."""

    def __init__(self, program, *, chip=None, inputs: Mapping | None = None,
                 checks: str = "error", max_steps: int = 10_000_000,
                 block_dim: int | None = None, params: Mapping | None = None,
                 show_source: bool = True, isa=None):
        from simulator.run import check_mode, load_program

        check_mode(checks)
        if chip is not None and not isinstance(chip, Chip):
            from isa.chip import get_chip

            chip = get_chip(chip)
        session = Session(load_program(program, chip, checks, params, isa), inputs, checks,
                          max_steps, block_dim=block_dim)
        self.commands = Commands(session, show_source)

    @property
    def session(self) -> Session:
        """The session the commands act on."""
        return self.commands.s

    def execute(self, command: str) -> list[str]:
        """One debugger command (`step`, `break 16`, `print z[0:8]`, `back`, …); its reply as
        lines of text, as `pipev debug` prints them (a bad command's reply is its one error
        line: it never raises for one)."""
        try:
            return self.commands.execute(command)
        except CommandError as e:
            return [str(e)]

    def evaluate(self, expression: str):
        """The value of a debugger expression at the current point: `z[0:8]` (a numpy array),
        `$x1` (an int), `$cmpmask & 0xff`, ... Raises CommandError when it cannot be
        evaluated."""
        from .expr import ExprError

        try:
            value = self.commands.eval(parse_expr(expression))
        except ExprError as e:
            raise CommandError(str(e)) from None
        return value.copy() if hasattr(value, "copy") else value

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
          err: TextIO | None = None, ex: Sequence[str] = (), batch: bool = False,
          output_dir: str | Path | None = None, werror: bool = False,
          block_dim: int | None = None, params: Mapping | None = None,
          show_source: bool = True, load_reported: bool = False, isa=None,
          recorded_core: tuple[int, int] | None = None,
          recordings: Sequence[Path] = ()) -> int:
    """Run a debugging session; the exit status: 0, or 1 when the program cannot be loaded,
    under --batch when a command failed, under --werror when the run warned, or when the
    outputs cannot be written.

    EX: commands run first (gdb's -ex), echoed; then the COMMANDS file, then — unless BATCH —
    the terminal or STDIN. OUTPUT_DIR: where the outputs go once the program has finished.
    PARAMS: `.param` overrides (-D). SHOW_SOURCE: diagnostics quote their source line (not
    under --no-source). LOAD_REPORTED: a program that cannot be loaded was already reported (a C++
    recording of a run that failed): its diagnostics are not written again. ISA: the instruction
    set a path is assembled with (None: pipev's own). RECORDED_CORE: (K, N) when the program is
    the recording of core K of a launch of N cores (`pipev debug k.cpp --core K`), which the
    session names so; RECORDINGS: then the N cores' recordings in block order, which `core K`
    switches between."""
    from simulator.render import render_lines
    from simulator.run import load_program

    stdin = stdin or sys.stdin
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        program = at_loc_lines(load_program(program_path if isinstance(program_path, Program)
                                            else Path(program_path), chip, checks, params,
                                            isa))
        session = Session(program, inputs, checks, max_steps, werror=werror,
                          block_dim=block_dim, views=_views(program_path))
        session.recorded_core = recorded_core
    except DiagnosticError as e:
        if not load_reported:
            err.writelines(f"{line}\n" for line in render_lines(e.diagnostics, show_source))
        return 1
    scripted: list[str] = list(ex)
    if commands is not None:
        try:
            text = Path(commands).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            err.write(f"{commands}:1:1: error: cannot read the command file: "
                      f"{getattr(e, 'strerror', None) or e}\n")
            return 1
        scripted.extend(text.splitlines())
    switch = None
    if recorded_core is not None and len(recordings) == recorded_core[1]:
        def switch(core: int) -> Session:
            return _recorded_session(recordings[core], (core, len(recordings)), chip, checks,
                                     max_steps, werror)
    cmds = Commands(session, show_source, switch)
    interactive = not batch and commands is None and stdin.isatty()
    reader = terminal_reader(cmds) if interactive else input
    repl = Repl(cmds, out, reader)
    n_hw = len(session.flat)
    cores = f", {session.n} cores (`core K`, `info cores`)" if session.n > 1 else ""
    if recorded_core is not None:
        cores = f", the recording of core {recorded_core[0]} of the launch's {recorded_core[1]}"
        if switch is not None:
            cores += " (`core K` inspects core K's, `info cores`)"
    repl.write([f"pipev debug: {program.path} on {program.chip.name}, "
                f"{len(program.statements)} statements ({n_hw} hardware instructions){cores}; "
                "`help` lists the commands",
                *cmds.diagnostics(session.new_diagnostics()), *cmds.where()])
    ended = False
    if scripted:
        ended = not repl.loop(iter(scripted), at_end=batch or commands is not None)
    if not ended and not batch and commands is None:
        repl.loop(None if interactive else iter(stdin))
    rc = 1 if batch and repl.failed else 0
    session = cmds.s  # `core K` of a recorded launch changes it
    if session.promoted:
        err.write(f"{program.path}: error: the run warned and --werror makes warnings errors\n")
        rc = 1
    if output_dir is not None and rc == 0:
        rc = _write_outputs(session, Path(output_dir), err)
    return rc


def _recorded_session(path: Path, core: tuple[int, int], chip: Chip | None, checks: str,
                      max_steps: int, werror: bool) -> Session:
    """A session of core CORE's recording of a C++ launch (`core K`); ValueError saying why
    it cannot be loaded."""
    from simulator.render import render_lines
    from simulator.run import load_program

    try:
        program = at_loc_lines(load_program(Path(path), chip, checks, None, None))
    except DiagnosticError as e:
        raise ValueError(f"core {core[0]}'s recording does not load: "
                         f"{render_lines(e.diagnostics, False)[0]}") from None
    session = Session(program, None, checks, max_steps, werror=werror, views=_views(path))
    session.recorded_core = core
    return session


def _views(path) -> list:
    """The GlobalTensor views beside a C++ recording at PATH (none for other programs)."""
    if isinstance(path, Program) or not str(path).endswith(".vasm"):
        return []
    from simulator.ascendc.views import load_views

    return load_views(path)


def _write_outputs(session: Session, directory: Path, err: TextIO) -> int:
    """The finished program's outputs (the newest point's GM), as `pipev run` writes them."""
    from simulator.outputs import write_outputs
    from simulator.run import outputs_of

    path = session.program.path
    if not session.ex.done or session.fault is not None:
        err.write(f"{path}: note: no outputs written to {directory}: the program did not "
                  "finish in this session\n")
        return 0
    session.sync(session.hist.end)
    try:
        written = write_outputs(directory, outputs_of(session.program, session.machine))
    except OSError as e:
        err.write(f"{path}:1:1: error: cannot write outputs to {directory}: "
                  f"{e.strerror or e}; no output was changed\n")
        return 1
    finally:
        session.sync()
    for name, where in written.items():
        err.write(f"wrote {name} to {where}\n")
    return 0
