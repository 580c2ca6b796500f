"""What the `pipev` commands share (options, inputs, the run-and-report step, diagnostics on
stderr), apart from the command group itself so the front ends' commands (simulator/ascendc,
simulator/tik) can use them without importing the CLI that dispatches to them."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from simulator.events import Observer
from simulator.trace import FORMATS as TRACE_FORMATS

CHECKS = click.Choice(["error", "warn", "off"])
FORMATS = click.Choice(list(TRACE_FORMATS))


def _chip_option(f):
    return click.option("--chip", metavar="NAME", help="chip profile (see `pipev chips`); "
                        "overrides .chip")(f)


def no_source_option(f):
    """--no-source: diagnostics without the quoted source line (on every command that prints
    them; `pipev --no-source CMD` too)."""
    return click.option("--no-source", is_flag=True, expose_value=False, callback=_no_source,
                        help="print diagnostics without the source line and caret")(f)


def _program_arg(f):
    f = no_source_option(f)
    f = click.option("--isa", metavar="MODULE:NAME", expose_value=False, callback=_load_isa,
                     help="assemble and run with the instruction set NAME of MODULE (a module "
                     "or a .py file): an extension of pipev's own (docs/decisions.md)")(f)
    f = click.option("-D", "defines", multiple=True, metavar="NAME=VALUE",
                     help="a .vasm program: override its `.param NAME = …` (an integer "
                     "expression); a TIK script: set its module-level constant NAME; C++: "
                     "define macro NAME[=VALUE] for the compiler")(f)
    return click.argument("program", type=click.Path(exists=True, dir_okay=False))(f)


def _load_isa(ctx: click.Context, _param, spec: str | None) -> None:
    """--isa MODULE:NAME: the InstructionSet the command's program is assembled with (kept in
    the command's context: chosen_isa)."""
    if spec is None:
        return
    import importlib
    import importlib.util

    from simulator.semantics import InstructionSet

    module, sep, name = spec.rpartition(":")
    if not sep or not module or not name:
        raise click.BadParameter(f"takes MODULE:NAME, got '{spec}'")
    try:
        if module.endswith(".py"):
            loader = importlib.util.spec_from_file_location(Path(module).stem, module)
            mod = importlib.util.module_from_spec(loader)
            loader.loader.exec_module(mod)
        else:
            mod = importlib.import_module(module)
    except (ImportError, OSError) as e:
        raise click.BadParameter(f"cannot load {module}: {e}") from None
    isa = getattr(mod, name, None)
    if not isinstance(isa, InstructionSet):
        raise click.BadParameter(f"{module} has no InstructionSet named {name}")
    ctx.meta["pipev.isa"] = isa


def chosen_isa():
    """The instruction set --isa chose for this command (None: pipev's own)."""
    ctx = click.get_current_context(silent=True)
    return ctx.meta.get("pipev.isa") if ctx is not None else None


def _parse_defines(items) -> dict[str, int]:
    """-D NAME=VALUE options → {NAME: VALUE}; a malformed one is a usage error."""
    from isa.lexer import NAME_RE, LexError, parse_int

    out = {}
    for item in items:
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or not NAME_RE.match(name):
            raise click.UsageError(f"-D takes NAME=VALUE, got '{item}'")
        try:
            out[name] = parse_int(value.strip())
        except LexError:
            raise click.UsageError(f"-D {name}: the value must be an integer expression, got "
                                   f"'{value.strip()}'") from None
    return out


def _resolve_chip(name: str | None):
    if name is None:
        return None
    from isa.chip import ChipError, get_chip

    try:
        return get_chip(name)
    except ChipError as e:
        raise click.UsageError(str(e)) from None


def _parse_inputs(items) -> dict[str, str]:
    """--input NAME=FILE.npy options → {NAME: FILE}."""
    return _parse_pairs("--input", items)


def _parse_pairs(option: str, items) -> dict[str, str]:
    """OPTION NAME=FILE.npy options → {NAME: FILE}."""
    supplied = {}
    for item in items:
        name, sep, path = item.partition("=")
        if not sep or not name or not path:
            raise click.UsageError(f"{option} takes NAME=FILE.npy, got '{item}'")
        supplied[name] = path
    return supplied


def _emit(diags) -> None:
    if not diags:
        return
    from simulator.render import render

    show = show_source()
    for d in diags:
        click.echo(render(d, show_source=show), err=True)


def show_source() -> bool:
    """Whether diagnostics quote their source line: not under --no-source."""
    ctx = click.get_current_context(silent=True)
    return ctx is None or not ctx.meta.get("pipev.no_source")


def _no_source(ctx, param, value) -> None:
    """--no-source (on the group or a command): diagnostics without the quoted line."""
    if value:
        ctx.meta["pipev.no_source"] = True


def _werror_option(f):
    return click.option("--werror", is_flag=True,
                        help="treat warnings as errors: exit 1 (and write nothing)")(f)


def _warnings(diags) -> list:
    return [d for d in diags if d.severity == "warning"]


def _werror_failure(warned: list, outputs: bool = True) -> str:
    """The --werror verdict, at the first warning's position."""
    first, n = warned[0], len(warned)
    tail = "; no output was written" if outputs else ""
    return (f"{first.path}:{first.line}:{first.column}: error: {n} warning"
            f"{'s' if n != 1 else ''} treated as error{'s' if n != 1 else ''} (--werror){tail}")


def trace_format_of(trace, trace_format) -> str | None:
    """The format of TRACE: TRACE_FORMAT, else its extension's (None without a trace; a usage
    error for an unknown extension)."""
    if trace is None:
        return None
    from simulator.trace import format_for

    try:
        return format_for(trace, trace_format)
    except ValueError as e:
        raise click.UsageError(str(e)) from None


def _timeline_options(trace, trace_format, width, window) -> dict:
    """--timeline-width / --timeline-range as the text writer's options (usage errors for
    another format or a malformed range)."""
    if width is None and window is None:
        return {}
    if trace_format_of(trace, trace_format) != "text":
        raise click.UsageError("--timeline-width and --timeline-range shape the text timeline: "
                               "give --trace FILE.txt")
    options: dict = {} if width is None else {"width": width}
    if window is not None:
        start, sep, end = window.partition(":")
        try:
            a, b = int(start), int(end)
        except ValueError:
            a = b = -1
        if not sep or not 0 <= a < b:
            raise click.UsageError(f"--timeline-range takes START:END cycles with 0 <= START < "
                                   f"END, got '{window}'")
        options["cycles"] = (a, b)
    return options


def execute(program, chip_obj, supplied, output_dir, trace, trace_format, checks, max_steps,
            as_json, quiet, *, werror: bool = False, expects=(), expect_ulp: int = 0,
            trace_time: str = "cycles", views=(), trace_options=None,
            block_dim: int | None = None, trace_core: int | None = None) -> None:
    """Run PROGRAM (a path, or a Program a front end built), compare --expect outputs, write
    the outputs, print the summary; exit 1 on any error (2 on a trace name without a known
    extension)."""
    from isa.diagnostics import DiagnosticError
    from simulator.run import load_program
    from simulator.run import run as run_program

    label = getattr(program, "path", program)
    if trace is not None:
        from simulator.trace import format_for

        try:
            trace_format = format_for(trace, trace_format)
        except ValueError as e:
            raise click.UsageError(str(e)) from None
    try:
        prog = load_program(program, chip_obj, checks)
    except DiagnosticError as e:
        _fail(e.diagnostics, as_json)
    if expects:  # simulator.expect is imported only then: start-up does without it
        from simulator.expect import check_outputs, load_expected

        expected, errors = load_expected(prog, _parse_pairs("--expect", expects))
        if errors:
            _fail(errors, as_json)
    progress = [] if quiet or as_json or not sys.stderr.isatty() else [Progress()]
    view = None
    if views:
        from simulator.views import Views

        view = Views()
    try:
        result = run_program(prog, inputs=supplied, checks=checks, trace=trace,
                             trace_format=trace_format, trace_time=trace_time,
                             trace_options=trace_options, max_steps=max_steps,
                             observers=[*progress, *([view] if view else [])],
                             block_dim=block_dim, trace_core=trace_core)
    except DiagnosticError as e:
        for p in progress:
            p.clear()
        _fail(e.diagnostics, as_json)
    except MemoryError:
        _fail([], as_json, f"{label}:1:1: error: out of memory: the program's tensors do "
              "not fit in this machine's memory")
    for p in progress:
        p.clear()
    warned = _warnings(result.diagnostics)
    if werror and warned:
        _fail(result.diagnostics, as_json, _werror_failure(warned))
    mismatches = check_outputs(prog, result.outputs, expected, expect_ulp) if expects else []
    from simulator.outputs import write_outputs

    try:
        paths = write_outputs(Path(output_dir), result.outputs)
    except OSError as e:
        _fail(result.diagnostics, as_json, _output_error(label, prog, output_dir, e))
    if mismatches:  # the run succeeded: its outputs are written, to be looked at
        _fail(result.diagnostics + mismatches, as_json)
    _emit(result.diagnostics)
    if quiet and not as_json:
        return
    from simulator.summary import summary_dict, summary_text
    from simulator.views import shown as view_text

    shown = {name: view_text(view, name, result) for name in dict.fromkeys(views)}
    if as_json:
        import json

        extra = {"views": shown} if shown else {}
        click.echo(json.dumps({"ok": True, **summary_dict(result, paths), **extra}))
    else:
        click.echo(summary_text(result, paths))
        for text in shown.values():
            click.echo(text)


def _fail(diags, as_json: bool, reason=None):
    """Report a failure (every diagnostic, then REASON: a line, or a Diagnostic rendered like
    the others) and exit 1: on stderr, or with --json as `{"ok": false, "diagnostics": [...],
    "reason": ...}` on stdout."""
    if as_json:
        import json

        click.echo(json.dumps(failure_object(diags, reason)))
    else:
        _emit(diags)
        if isinstance(reason, str):
            click.echo(reason, err=True)
        elif reason is not None:
            _emit([reason])
    sys.exit(1)


def failure_object(diags, reason=None) -> dict:
    """--json's report of a failed run: `{"ok": false, "diagnostics": [...], "reason": ...}`
    (a .vasm run's, and a C++ worker's)."""
    obj = {"ok": False, "diagnostics": [_diag_dict(d) for d in diags]}
    if reason:
        obj["reason"] = str(reason)
    return obj


def _diag_dict(d) -> dict:
    """A diagnostic in --json output: its fields, its one-line text, and the source line it
    points into (null when it cannot be read); never the rendered quote."""
    from simulator.render import quoted_line

    return {"severity": d.severity, "path": d.path, "line": d.line, "column": d.column,
            "message": d.message, "text": str(d), "source": quoted_line(d)}


def _output_error(path, program, output_dir, e: OSError):
    """The diagnostic of an output that cannot be written: at its .gm line when it is known
    (a Diagnostic, quoted), else a line at 1:1."""
    from isa.diagnostics import Diagnostic

    target = Path(e.filename) if e.filename else None
    tensor = program.tensors.get(target.stem) if target is not None else None
    why = f"{e.strerror or e}; no output was changed"
    if tensor is None:
        return f"{path}:1:1: error: cannot write outputs to {output_dir}: {why}"
    return Diagnostic("error", str(path), tensor.line, tensor.col,
                      f"cannot write output {target}: {why}")


class Progress(Observer):
    """A progress line on stderr (a terminal only) for runs longer than a second."""

    EVERY = 2048  # events between clock reads: the observer costs one increment per event

    def __init__(self) -> None:
        import time

        self.clock = time.monotonic
        self.start = self.clock()
        self.events = 0
        self.shown = False
        self.total = 0

    def on_start(self, run) -> None:
        self.total = len(run.program.statements) if run.program is not None else 0

    def on_event(self, event) -> None:
        self.events += 1
        if self.events % self.EVERY:
            return
        elapsed = self.clock() - self.start
        if elapsed < 1.0:
            return
        where = f", statement {event.instr.pc + 1}/{self.total}" if self.total else ""
        sys.stderr.write(f"\r  running: {self.events:,} instructions{where}, {elapsed:.1f} s ")
        sys.stderr.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
            self.shown = False


def check_and_report(prog, program, checks: str, max_steps: int, werror: bool) -> None:
    """`check` of an assembled program (also a front end's): run's diagnostics, the note, and
    `ok` or exit 1."""
    from isa.diagnostics import Diagnostic
    from simulator.static_check import MASK_ADDRESS_CHECKS, check_program

    result = check_program(prog, checks, max_steps)
    _emit(result.diagnostics)
    if result.undecided:
        lines = ", ".join(str(i.line) for i in result.undecided)
        first = result.undecided[0]
        _emit([Diagnostic(
            "note", first.file or prog.path, first.line, first.col,
            f"{result.undecided_checks} checks need run-time values: the select-mask address "
            f"of {len(result.undecided)} vsel mode 2 instruction(s) (line {lines}) comes from "
            f"CMPMASK loaded from input data ({', '.join(MASK_ADDRESS_CHECKS)}); `pipev run` "
            "decides them")])
    if not result.ok:
        sys.exit(1)
    warned = _warnings(result.diagnostics)
    if werror and warned:
        click.echo(_werror_failure(warned, outputs=False), err=True)
        sys.exit(1)
    click.echo(f"{program}: ok ({len(prog.statements)} statements, chip {prog.chip.name})",
               err=True)


def _assemble_or_exit(program, chip, checks: str = "error", quiet: bool = False,
                      as_json: bool = False, defines=()):
    """The assembled program; QUIET leaves its warnings to the run that reports them."""
    from isa.diagnostics import DiagnosticError
    from simulator.run import load_program

    chip_obj = _resolve_chip(chip)
    params = _parse_defines(defines)
    try:
        prog = load_program(Path(program), chip_obj, checks, params, chosen_isa())
    except DiagnosticError as e:
        _fail(e.diagnostics, as_json)
    except MemoryError:
        _fail([], as_json, f"{program}:1:1: error: out of memory: the program's tensors do "
              "not fit in this machine's memory")
    if not quiet:
        _emit(prog.warnings)
    return prog


def session_options(f):
    """The debugger's scripting options, shared by `debug` of every kind of program:
    --commands, --ex, --batch, --werror."""
    f = click.option("--werror", is_flag=True, help="treat warnings as errors: motion stops at "
                     "them and the session exits 1")(f)
    f = click.option("--batch", is_flag=True,
                     help="exit after the --ex and --commands commands (1 if one failed)")(f)
    f = click.option("--ex", "ex", multiple=True, metavar="CMD",
                     help="run debugger command CMD first (repeatable, in order; like gdb's "
                     "-ex)")(f)
    return click.option("--commands", type=click.Path(exists=True, dir_okay=False),
                        help="read debugger commands from FILE (echoed) and exit at its end")(f)



# what each command's --help says of the other languages (click keeps \b paragraphs as written)
_LANGUAGE_HEAD = ("\b\nPROGRAM's suffix picks its language: .vasm (any other suffix), a TIK "
                  "script (.py: the\nkernel its BuildCCE declares, every option above), or an "
                  "AscendC C++ program\n(.cpp .asc .cc .cxx; `pipev COMMAND FILE.cpp --help` "
                  "lists its options):")
_CPP = {
    "run": ("  -D NAME[=VALUE] a macro, -I DIR an include directory, -- ARGS its main's "
            "arguments\n  (run in the current directory); --kernel NAME --arg "
            "NAME=FILE.npy|FILE.bin|out:T[N]...\n  [--block-dim N] [--output-dir D]: one kernel "
            "of a file without main; --save-vasm F\n  records what it issued; --trace, "
            "--trace-format, --checks, --max-steps, --werror,\n  --expect, --expect-ulp, --view, "
            "--json, --quiet as above. Not --input, --trace-time,\n  --timeline-*, --core (the "
            "program reads its own inputs)."),
    "check": ("  compiled, then run as `pipev run` runs it, untimed, on its own inputs (its "
              "scalar\n  code decides what it issues): -D NAME[=VALUE], -I DIR, -- ARGS, "
              "--kernel/--arg/--block-dim\n  as for run; `ok` names what was checked, a "
              "program that launches no kernel is an error."),
    "asm": ("  run as `pipev check` runs it; each launch listed by C++ call site: the statements "
            "it\n  issued, how often, their hardware instructions. -D NAME[=VALUE], -I DIR, "
            "-- ARGS,\n  --kernel/--arg as for run."),
    "debug": ("  its run recorded, then debugged at its C++ lines: -D NAME[=VALUE], -I DIR, "
              "-- ARGS,\n  --launch N (which launch), --core K (which core of it), and the "
              "session options above."),
}


def languages_epilog(command: str) -> str:
    """The --help epilog of COMMAND: how it takes each language's program."""
    return f"{_LANGUAGE_HEAD}\n\n\b\nC++:\n{_CPP[command]}"
