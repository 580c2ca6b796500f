"""`pipev` command line (docs/format.md §12): the only module that knows click, and one of the two
that print (with the debugger's REPL)."""

from __future__ import annotations

import sys

import click

from simulator.commands import (  # noqa: F401  (Progress, execute: used by front ends, tests)
    CHECKS,
    FORMATS,
    Progress,
    _assemble_or_exit,
    _chip_option,
    _emit,
    _fail,
    _no_source,
    _output_error,
    _parse_defines,
    _parse_inputs,
    _parse_pairs,
    _program_arg,
    _resolve_chip,
    _timeline_options,
    _warnings,
    _werror_failure,
    _werror_option,
    check_and_report,
    chosen_isa,
    execute,
    languages_epilog,
    no_source_option,
    session_options,
    show_source,
    trace_format_of,
)
from simulator.group import PipevGroup  # `run FILE.cpp` goes to simulator.ascendc, ...


@click.group(cls=PipevGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pipev")
@click.option("--no-source", is_flag=True, expose_value=False, callback=_no_source,
              is_eager=True, help="print diagnostics without the source line and caret")
def main() -> None:
    """pipev: a cycle-approximate simulator of the Ascend AI Core vector pipeline."""


@main.command(epilog=languages_epilog("run"))
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
              show_default=True, help="Chrome trace timestamps: 1 unit = 1 cycle, or 1 ps of "
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
        if trace_format_of(trace, trace_format) != "text":
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


@main.command(epilog=languages_epilog("asm"))
@_program_arg
@_chip_option
@click.option("--json", "as_json", is_flag=True, help="the listing as JSON")
def asm(program, defines, chip, as_json) -> None:
    """Print the listing: each source line with its hardware instructions and micro-ops."""
    import json

    from isa.listing import format_listing, listing
    from isa.program import at_loc_lines

    # a C++ recording: at its C++ lines
    prog = at_loc_lines(_assemble_or_exit(program, chip, defines=defines))
    if as_json:
        click.echo(json.dumps({"chip": prog.chip.name, "statements": listing(prog)}))
    else:
        click.echo(format_listing(prog))


@main.command(epilog=languages_epilog("check"))
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


@main.command(epilog=languages_epilog("debug"))
@_program_arg
@_chip_option
@click.option("--input", "inputs", multiple=True, metavar="NAME=FILE.npy",
              help="supply a GM input tensor")
@session_options
@click.option("--output-dir", type=click.Path(file_okay=False),
              help="write the outputs here once the program has finished in the session")
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
                           params=_parse_defines(defines), show_source=show_source(),
                           isa=chosen_isa()))


@main.command("python", context_settings={"ignore_unknown_options": True,
                                         "allow_interspersed_args": False})
@no_source_option
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


if __name__ == "__main__":  # pragma: no cover
    main()
