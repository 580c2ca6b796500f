"""`pipev` command line (docs/format.md §12): the only module that knows click, and one of the two
that print (with the debugger's REPL)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from simulator.ascendc.cli import CppAwareGroup  # `run FILE.cpp` goes to simulator.ascendc
from simulator.events import Observer
from simulator.trace import FORMATS as TRACE_FORMATS

CHECKS = click.Choice(["error", "warn", "off"])
FORMATS = click.Choice(list(TRACE_FORMATS))


def _chip_option(f):
    return click.option("--chip", metavar="NAME", help="chip profile (see `pipev chips`); "
                        "overrides .chip")(f)


def _program_arg(f):
    f = click.option("--no-source", is_flag=True, expose_value=False, callback=_no_source,
                     help="print diagnostics without the source line and caret")(f)
    f = click.option("-D", "defines", multiple=True, metavar="NAME=VALUE",
                     help="override the program's `.param NAME = …` (an integer expression)")(f)
    return click.argument("program", type=click.Path(exists=True, dir_okay=False))(f)


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
    from simulator.render import render

    ctx = click.get_current_context(silent=True)
    show = ctx is None or not ctx.meta.get("pipev.no_source")
    for d in diags:
        click.echo(render(d, show_source=show), err=True)


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


@click.group(cls=CppAwareGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pipev")
@click.option("--no-source", is_flag=True, expose_value=False, callback=_no_source,
              is_eager=True, help="print diagnostics without the source line and caret")
def main() -> None:
    """pipev: a cycle-approximate simulator of the Ascend AI Core vector pipeline."""


@main.command()
@_program_arg
@_chip_option
@click.option("--input", "inputs", multiple=True, metavar="NAME=FILE.npy",
              help="supply a GM input tensor")
@click.option("--output-dir", default="pipev-out", show_default=True,
              type=click.Path(file_okay=False), help="where output tensors are written")
@click.option("--trace", type=click.Path(dir_okay=False), help="write a trace file; its "
              "format follows the extension: .jsonl, .json (Chrome/Perfetto), .vcd, .txt")
@click.option("--trace-format", type=FORMATS, default=None,
              help="the trace format whatever the extension says")
@click.option("--trace-time", type=click.Choice(["cycles", "real"]), default="cycles",
              show_default=True, help="Chrome trace timestamps: 1 unit = 1 cycle, or µs of "
              "the chip clock")
@click.option("--timeline-width", type=click.IntRange(1, 10_000), default=None, metavar="N",
              help="text timeline: at most N columns (default 60)")
@click.option("--timeline-range", default=None, metavar="START:END",
              help="text timeline: only cycles START to END")
@click.option("--checks", type=CHECKS, default="error", show_default=True,
              help="alignment/footprint/overlap rules as errors, warnings or off")
@click.option("--max-steps", type=click.IntRange(1), default=10_000_000, show_default=True)
@_werror_option
@click.option("--expect", "expects", multiple=True, metavar="NAME=FILE.npy",
              help="compare output NAME with FILE bit for bit; a mismatch exits 1")
@click.option("--expect-ulp", type=click.IntRange(0), default=0, show_default=True,
              metavar="N", help="let float outputs differ by up to N units in the last place")
@click.option("--json", "as_json", is_flag=True, help="print the summary (or, on a failure, "
              "the diagnostics) as one JSON object")
@click.option("--quiet", is_flag=True, help="print no summary")
@click.option("--block-dim", type=click.IntRange(1, 65535), default=None, metavar="N",
              help="run N cores (blocks); overrides .block_dim")
@click.option("--core", "trace_core", type=click.IntRange(0, 65534), default=None,
              metavar="K", help="the text timeline of core K only")
@click.option("--view", "views", multiple=True, type=click.Choice(["resources", "bottleneck"]),
              help="after the summary: busy cycles per pipe per source line (resources), or "
              "the chain of waits that set the total (bottleneck)")
def run(program, defines, chip, inputs, output_dir, trace, trace_format, trace_time,
        timeline_width, timeline_range, checks, max_steps, werror, expects, expect_ulp,
        as_json, quiet, block_dim, trace_core, views) -> None:
    """Assemble and run PROGRAM; write its outputs as .npy files."""
    if trace_core is not None:
        from simulator.trace import format_for

        try:
            fmt = format_for(trace, trace_format) if trace is not None else None
        except ValueError as e:
            raise click.UsageError(str(e)) from None
        if fmt != "text":
            raise click.UsageError("--core K selects the core of a text timeline (--trace "
                                   "F.txt)")
    supplied = _parse_inputs(inputs)
    options = _timeline_options(trace, trace_format, timeline_width, timeline_range)
    prog = _assemble_or_exit(program, chip, checks, quiet=True, as_json=as_json,
                             defines=defines)
    execute(prog, None, supplied, output_dir, trace, trace_format, checks, max_steps, as_json,
            quiet, werror=werror, expects=expects, expect_ulp=expect_ulp,
            trace_time=trace_time, views=views, trace_options=options, block_dim=block_dim,
            trace_core=trace_core)


def _timeline_options(trace, trace_format, width, window) -> dict:
    """--timeline-width / --timeline-range as the text writer's options (usage errors for
    another format or a malformed range)."""
    if width is None and window is None:
        return {}
    from simulator.trace import format_for

    try:
        fmt = format_for(trace, trace_format) if trace is not None else None
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    if fmt != "text":
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
    from simulator.expect import check_outputs, load_expected
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
    mismatches = check_outputs(prog, result.outputs, expected, expect_ulp)
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

    shown = {name: getattr(view, name)(result.cycles) for name in dict.fromkeys(views)}
    if as_json:
        extra = {"views": shown} if shown else {}
        click.echo(json.dumps({"ok": True, **summary_dict(result, paths), **extra}))
    else:
        click.echo(summary_text(result, paths))
        for text in shown.values():
            click.echo(text)


def _fail(diags, as_json: bool, reason: str | None = None):
    """Report a failure (every diagnostic, then REASON) and exit 1: on stderr, or with --json
    as `{"ok": false, "diagnostics": [...], "reason": ...}` on stdout."""
    if as_json:
        obj = {"ok": False, "diagnostics": [_diag_dict(d) for d in diags]}
        if reason:
            obj["reason"] = reason
        click.echo(json.dumps(obj))
    else:
        _emit(diags)
        if reason:
            click.echo(reason, err=True)
    sys.exit(1)


def _diag_dict(d) -> dict:
    return {"severity": d.severity, "path": d.path, "line": d.line, "column": d.column,
            "message": d.message, "text": str(d)}


def _output_error(path, program, output_dir, e: OSError) -> str:
    """The diagnostic of an output that cannot be written: at its .gm line when it is known."""
    target = Path(e.filename) if e.filename else None
    tensor = program.tensors.get(target.stem) if target is not None else None
    where = f"{tensor.line}:{tensor.col}" if tensor is not None else "1:1"
    what = f"output {target}" if tensor is not None else f"outputs to {output_dir}"
    return (f"{path}:{where}: error: cannot write {what}: {e.strerror or e}; no output was "
            "changed")


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


@main.command()
@_program_arg
@_chip_option
@click.option("--json", "as_json", is_flag=True, help="the listing as JSON")
def asm(program, defines, chip, as_json) -> None:
    """Print the listing: each source line with its hardware instructions and micro-ops."""
    from isa.listing import format_listing, listing
    from isa.program import at_loc_lines

    # a C++ recording: at its C++ lines
    prog = at_loc_lines(_assemble_or_exit(program, chip, defines=defines))
    if as_json:
        click.echo(json.dumps({"chip": prog.chip.name, "statements": listing(prog)}))
    else:
        click.echo(format_listing(prog))


@main.command()
@_program_arg
@_chip_option
@click.option("--checks", type=CHECKS, default="error", show_default=True,
              help="alignment/footprint/overlap rules as errors, warnings or off")
@click.option("--max-steps", type=click.IntRange(1), default=10_000_000, show_default=True)
@_werror_option
def check(program, defines, chip, checks, max_steps, werror) -> None:
    """Run every check that needs no input data: syntax, types, chip rules, field ranges,
    alignment, bounds, footprints, overlaps, deadlocks, init reads and races, with `run`'s
    messages (the program runs on zero data, without timing); exit 0 when there is no error."""
    prog = _assemble_or_exit(program, chip, checks, quiet=True, defines=defines)
    check_and_report(prog, program, checks, max_steps, werror)


def check_and_report(prog, program, checks: str, max_steps: int, werror: bool) -> None:
    """`check` of an assembled program (also a front end's): run's diagnostics, the note, and
    `ok` or exit 1."""
    from simulator.static_check import MASK_ADDRESS_CHECKS, check_program

    result = check_program(prog, checks, max_steps)
    _emit(result.diagnostics)
    if result.undecided:
        lines = ", ".join(str(i.line) for i in result.undecided)
        first = result.undecided[0]
        click.echo(f"{first.file or prog.path}:{first.line}:{first.col}: note: "
                   f"{result.undecided_checks} checks need run-time values: "
                   f"the select-mask address of {len(result.undecided)} vsel mode 2 "
                   f"instruction(s) (line {lines}) comes from CMPMASK loaded from input data "
                   f"({', '.join(MASK_ADDRESS_CHECKS)}); `pipev run` decides them", err=True)
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
        prog = load_program(Path(program), chip_obj, checks, params)
    except DiagnosticError as e:
        _fail(e.diagnostics, as_json)
    except MemoryError:
        _fail([], as_json, f"{program}:1:1: error: out of memory: the program's tensors do "
              "not fit in this machine's memory")
    if not quiet:
        _emit(prog.warnings)
    return prog


@main.command("isa")
@click.argument("mnemonic", required=False)
def isa_reference(mnemonic) -> None:
    """Print the ISA reference (one MNEMONIC, or all), generated from the instruction table."""
    from isa.reference import document, entry
    from isa.table import lookup_form

    if mnemonic is None:
        click.echo(document())
        return
    parts = mnemonic.lower().split(".")
    d = lookup_form(parts[0], len(parts) > 1)
    if d is None:
        raise click.UsageError(f"unknown mnemonic '{mnemonic}' (see `pipev isa`)")
    click.echo(entry(d))


@main.command()
@_program_arg
@_chip_option
@click.option("--input", "inputs", multiple=True, metavar="NAME=FILE.npy",
              help="supply a GM input tensor")
@click.option("--commands", type=click.Path(exists=True, dir_okay=False),
              help="read debugger commands from FILE (echoed) and exit at its end")
@click.option("--ex", "ex", multiple=True, metavar="CMD",
              help="run debugger command CMD first (repeatable, in order; like gdb's -ex)")
@click.option("--batch", is_flag=True,
              help="exit after the --ex and --commands commands (1 if one failed)")
@click.option("--output-dir", type=click.Path(file_okay=False),
              help="write the outputs here once the program has finished in the session")
@click.option("--werror", is_flag=True,
              help="treat warnings as errors: motion stops at them and the session exits 1")
@click.option("--checks", type=CHECKS, default="error", show_default=True,
              help="alignment/footprint/overlap rules as errors, warnings or off")
@click.option("--max-steps", type=click.IntRange(1), default=10_000_000, show_default=True)
@click.option("--block-dim", type=click.IntRange(1, 65535), default=None, metavar="N",
              help="run N cores (blocks); overrides .block_dim")
def debug(program, defines, chip, inputs, commands, ex, batch, output_dir, werror, checks,
          max_steps, block_dim) -> None:
    """Step through PROGRAM at the (pipev) prompt (docs/format.md §13); `help` lists the
    commands."""
    from simulator.debugger import debug as debug_session

    chip_obj = _resolve_chip(chip)
    supplied = _parse_inputs(inputs)
    sys.exit(debug_session(program, chip=chip_obj, inputs=supplied, commands=commands,
                           checks=checks, max_steps=max_steps, ex=ex, batch=batch,
                           output_dir=output_dir, werror=werror, block_dim=block_dim,
                           params=_parse_defines(defines)))


@main.command("python", context_settings={"ignore_unknown_options": True,
                                         "allow_interspersed_args": False})
@_chip_option
@click.option("--checks", type=CHECKS, default="error", show_default=True,
              help="the checks of the kernels the script runs")
@click.argument("args", nargs=-1, required=True, type=click.UNPROCESSED,
                metavar="SCRIPT [ARGS]...")
def python(chip, checks, args) -> None:
    """Run a Python SCRIPT [ARGS] (or -m MODULE, or a pytest file) with TIK importable
    (`from tbe import tik`): start_debug tests run on pipev unchanged."""
    from simulator.tik.cli import run_python

    _resolve_chip(chip)
    sys.exit(run_python(list(args), chip, checks))


@main.command()
def chips() -> None:
    """List the chip profiles and their key figures."""
    from isa.chip import chip_names, get_chip

    click.echo(f"{'chip':<11} {'UB bytes':>8} {'MHz':>5} {'vsel':<6} {'counter':<7} "
               f"{'cmp->CMPMASK':<12} {'CMPMASK':>7} {'events':>6} {'banks':<5}  types")
    for name in chip_names():
        c = get_chip(name)
        eq_only = c.types.get("compare_eq_only", ())
        compare = " ".join(t + (" (eq)" if t in eq_only else "") for t in c.types["compare"])
        click.echo(f"{c.name:<11} {c.ub_bytes:>8} {c.clock_mhz:>5g} "
                   f"{','.join(map(str, c.vsel_modes)):<6} {'yes' if c.counter_mode else 'no':<7} "
                   f"{'yes' if c.compare_to_cmpmask else 'no':<12} {c.cmpmask_bits:>7} "
                   f"{c.event_ids:>6} {c.bank.get('model', 'none'):<5}  "
                   f"select: {' '.join(c.types.get('select', ()))}; compare: {compare}")


from simulator.sweep.cli import sweep_command  # noqa: E402  (the sweep's own package)

main.add_command(sweep_command)

if __name__ == "__main__":  # pragma: no cover
    main()
