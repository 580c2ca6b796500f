"""`pipev run FILE.cpp|FILE.asc`: compile an AscendC program and co-simulate it; `pipev check`
and `pipev asm`: run it untimed and report its checks or list it at its C++ lines; `pipev debug
FILE.cpp`: record its run, then debug the recording.

    pipev run FILE.cpp [MORE.cpp]... | DIR [-D NAME[=VALUE]]... [-I DIR]... [--chip C] [--trace F]
                       [--trace-format F] [--checks C] [--werror] [--save-vasm F] [--json]
                       [-- ARGS...]
    pipev run kernel.cpp --kernel NAME [--block-dim N] --arg NAME=FILE.npy|FILE.bin|out:T[N]...
                       [--output-dir D] [--json]
    pipev debug FILE.cpp [-D ...] [-I ...] [--chip C] [--launch N] [--core K] [--commands F]
                         [-- ARGS...]

    pipev check FILE.cpp [-D ...] [-I ...] [--kernel NAME --arg ...] [-- ARGS...]
    pipev asm FILE.cpp [-D ...] [-I ...] [--kernel NAME --arg ...] [--json] [-- ARGS...]

The first form runs the file's host `main` with ARGS in the current directory (its `<<<>>>`
launches run on pipev); the second launches kernel NAME of a file that has only kernels.
pipev's group (simulator/group.py) hands `run`, `check`, `asm` and `debug` over to the commands
here when the program is a C++ file (`wants`); this module is imported only then.
"""

from __future__ import annotations

import sys

import click

from simulator.commands import no_source_option, session_options, show_source, trace_format_of
from simulator.trace import FORMATS as TRACE_FORMATS


def _compile_args(f):
    """PROGRAM [ARGS]... with the compiler's -D and -I: shared by the C++ commands."""
    f = click.option("-I", "includes", multiple=True, metavar="DIR",
                     type=click.Path(exists=True, file_okay=False),
                     help="add an include directory")(f)
    f = click.option("-D", "defines", multiple=True, metavar="NAME[=VALUE]",
                     help="define a macro for the compiler (as g++ -D)")(f)
    f = click.argument("args", nargs=-1, type=click.UNPROCESSED)(f)
    return click.argument("program", type=click.Path(exists=True))(f)


class _SourcesCommand(click.Command):
    """Notes how many positional arguments came before a `--` (click drops it): those that
    name C++ files are more translation units, the rest are the program's ARGS."""

    def parse_args(self, ctx, args):
        before = args[:args.index("--")] if "--" in args else args
        ctx.meta["pipev_before_dashes"] = list(before)  # click consumes ARGS
        return super().parse_args(ctx, args)


def _sources(program: str, args: tuple[str, ...], includes: tuple[str, ...],
             defines: tuple[str, ...]):
    """(sources, program ARGS, -I, -D, each source's own -D): `pipev run main.cpp kernel.cpp
    [-- ARGS]` compiles both files; `pipev run DIR` the sources its CMakeLists.txt names, each
    with its target's definitions (ascendc/cmake.py)."""
    from pathlib import Path

    from simulator.front_ends import front_end_for

    if Path(program).is_dir():
        from simulator.ascendc.cmake import CMakeError, read_project

        given = dict(d.partition("=")[::2] for d in defines)  # also cmake's -D NAME=VALUE
        try:
            project = read_project(program, given)
        except CMakeError as e:
            raise click.UsageError(str(e)) from None
        if project.npu_arch is not None:  # the chip its CMake builds for (no --chip given)
            click.get_current_context().meta["pipev_project_arch"] = project.npu_arch
        return (list(project.sources), list(args), (*includes, *project.includes),
                (*project.defines, *defines), dict(project.unit_defines))
    before = click.get_current_context().meta.get("pipev_before_dashes", [])
    sources, rest = [program], list(args)
    while rest and rest[0] in before and front_end_for(rest[0]) == "cpp" \
            and Path(rest[0]).is_file():
        sources.append(rest.pop(0))
    return sources, rest, includes, defines, {}


def _kernel_only(f):
    """The kernel-only options (a file without a host main), shared by run, check and asm."""
    f = click.option("--arg", "kernel_args", multiple=True,
                     metavar="NAME=FILE.npy|FILE.bin|out:T[N]",
                     help="kernel-only: the next kernel parameter")(f)
    f = click.option("--block-dim", type=click.IntRange(1, 65535), default=None,
                     help="kernel-only: blockDim of the launch (default 1)")(f)
    return click.option("--kernel", metavar="NAME", help="kernel-only mode: launch kernel NAME "
                        "of a file without a host main")(f)


def _chip_checks(f):
    f = click.option("--max-steps", type=click.IntRange(1), default=10_000_000,
                     show_default=True, help="hardware instructions per core at most")(f)
    f = click.option("--checks", type=click.Choice(["error", "warn", "off"]), default="error",
                     show_default=True, help="alignment/footprint/overlap rules as errors, "
                     "warnings or off")(f)
    return click.option("--chip", metavar="NAME", help="chip profile (see `pipev chips`); sets "
                        "__NPU_ARCH__")(f)


@click.command("run", cls=_SourcesCommand,
               context_settings={"help_option_names": ["-h", "--help"]})
@_compile_args
@_chip_checks
@click.option("--trace", type=click.Path(dir_okay=False), help="write a trace file per "
              "launch (F, then F.1 ...; a launch of several cores: one file, a process per "
              "core); its format follows the extension: .jsonl, .json (Chrome/Perfetto), "
              ".vcd, .txt")
@click.option("--trace-format", type=click.Choice(list(TRACE_FORMATS)), default=None,
              help="the trace format whatever the extension says (.jsonl, .json: Chrome, "
              ".vcd, .txt)")
@click.option("--werror", is_flag=True, help="treat pipev's warnings as errors (exit 1)")
@click.option("--expect", "expects", multiple=True, metavar="NAME=FILE.npy",
              help="compare output NAME (a kernel-only out: argument, or a host program's GM "
              "buffer such as gm_z, read as FILE's element type) bit for bit; a mismatch "
              "exits 1")
@click.option("--expect-ulp", type=click.IntRange(0), default=0, show_default=True,
              metavar="N", help="let float outputs differ by up to N units in the last place")
@click.option("--view", "views", multiple=True, type=click.Choice(["resources", "bottleneck"]),
              help="after each launch's summary: busy cycles per pipe per C++ line "
              "(resources), or the chain of waits that set the total (bottleneck)")
@click.option("--save-vasm", type=click.Path(dir_okay=False), help="save the executed "
              "statements as a straight-line .vasm program (one per launch and core)")
@click.option("--quiet", is_flag=True, help="print no summary")
@_kernel_only
@click.option("--output-dir", type=click.Path(file_okay=False), default=None,
              help="kernel-only: where out: arguments are saved  [default: pipev-out]")
@click.option("--json", "as_json", is_flag=True, help="print the summary as one JSON object "
              "(a host main's own output goes to stderr)")
@no_source_option
def run_cpp(program, args, defines, includes, chip, trace, trace_format, checks, max_steps,
            werror, expects, expect_ulp, views, save_vasm, quiet, kernel, block_dim,
            kernel_args, output_dir, as_json) -> None:
    """Compile the AscendC program PROGRAM (.cpp/.asc; more files: more translation units; a
    directory: the sources its CMakeLists.txt names) and run it on pipev: its host main with
    ARGS (after --) in the current directory, or with --kernel one kernel of a file without a
    main (docs/ascendc.md)."""
    from simulator.commands import _parse_pairs

    trace_format = trace_format_of(trace, trace_format) or trace_format or "jsonl"
    sys.exit(_run_worker(program, args, defines, includes, chip, kernel, kernel_args,
                         block_dim, output_dir, checks=checks, max_steps=max_steps,
                         trace=trace, trace_format=trace_format, save_vasm=save_vasm,
                         werror=werror, quiet=quiet, json=as_json,
                         expects=_parse_pairs("--expect", expects), expect_ulp=expect_ulp,
                         views=list(views)))


@click.command("check", cls=_SourcesCommand,
               context_settings={"help_option_names": ["-h", "--help"]})
@_compile_args
@_chip_checks
@click.option("--werror", is_flag=True, help="treat pipev's warnings as errors (exit 1)")
@_kernel_only
@no_source_option
def check_cpp(program, args, defines, includes, chip, checks, max_steps, werror, kernel,
              block_dim, kernel_args) -> None:
    """Check the AscendC program PROGRAM: compile it (the compiler's errors), then run it as
    `pipev run` does, untimed, on its own inputs (its host main with ARGS, or --kernel with
    --arg), with every check of a run (alignment, bounds, footprints, overlaps, flags, init
    reads, races, the headers' queue rules). A C++ kernel's statements come from its scalar
    code, which may read its data: so `check` runs the program rather than checking it
    without data. Prints `ok` naming what was checked; a program that launches no kernel is
    an error (nothing was checked). pipev writes no outputs; the program's own file writes
    happen as in a run."""
    sys.exit(_run_worker(program, args, defines, includes, chip, kernel, kernel_args,
                         block_dim, None, checks=checks, max_steps=max_steps, werror=werror,
                         quiet=True, mode="check", timing=False))


@click.command("asm", cls=_SourcesCommand,
               context_settings={"help_option_names": ["-h", "--help"]})
@_compile_args
@_chip_checks
@_kernel_only
@click.option("--json", "as_json", is_flag=True, help="the listing as JSON")
@no_source_option
def asm_cpp(program, args, defines, includes, chip, checks, max_steps, kernel, block_dim,
            kernel_args, as_json) -> None:
    """List the AscendC program PROGRAM at its C++ lines: it runs as `pipev check` runs it
    (untimed, on its own inputs: its scalar code decides what it issues), and each launch is
    listed call site by call site — the C++ line, the statements it issued (registers x1…
    hold what changes between calls), how often each ran, their hardware instructions and
    pipes. The program's own output goes to stderr."""
    sys.exit(_run_worker(program, args, defines, includes, chip, kernel, kernel_args,
                         block_dim, None, checks=checks, max_steps=max_steps, quiet=True,
                         mode="asm", timing=False, asm_json=as_json))


def _run_worker(program, args, defines, includes, chip, kernel, kernel_args, block_dim,
                output_dir, **options) -> int:
    """Compile PROGRAM and run it in the worker with OPTIONS (its config); the exit status."""
    from simulator.ascendc.build import BuildError, compile_sources
    from simulator.ascendc.driver import run_worker

    if kernel is None:
        for flag, given in (("--arg", kernel_args), ("--block-dim", block_dim),
                            ("--output-dir", output_dir)):
            if given:
                raise click.UsageError(f"{flag} needs --kernel NAME (kernel-only mode); a "
                                       "program with a host main writes its own outputs")
    sources, args, includes, defines, unit_defines = _sources(program, args, includes, defines)
    if kernel is not None and args:
        raise click.UsageError("program ARGS are for a host main; with --kernel give --arg")
    program = sources[0]
    specs = _parse_args(kernel_args)
    chip_obj = _chip(chip or _project_chip())
    if not chip_obj.npu_arch:
        click.echo(f"error: chip {chip_obj.name} gives no npu_arch in its profile "
                   f"({chip_obj.path}): add `npu_arch = N` (its __NPU_ARCH__)", err=True)
        return 1
    try:
        build = compile_sources(tuple(sources), npu_arch=chip_obj.npu_arch,
                                cce_aicore=chip_obj.cce_aicore,
                                defines=tuple(defines), includes=tuple(includes), kernel=kernel,
                                unit_defines=unit_defines)
    except BuildError as e:
        _build_failed(e)
    if build.compiler_output:
        click.echo(build.compiler_output, err=True)
    config = {"so": str(build.shared_object), "source": program, "argv": list(args),
              "chip": chip_obj.path or chip_obj.name, "kernel": kernel,
              "block_dim": block_dim or 1, "args": [s.to_json() for s in specs],
              "output_dir": output_dir, **options}
    config["show_source"] = show_source() and not options.get("json")
    return run_worker(config)


@click.command("debug", cls=_SourcesCommand,
               context_settings={"help_option_names": ["-h", "--help"]})
@_compile_args
@click.option("--chip", metavar="NAME", help="chip profile (see `pipev chips`)")
@click.option("--launch", "launch_index", type=click.IntRange(0), default=0, show_default=True,
              help="which kernel launch to debug (0 = the first)")
@click.option("--core", "core", type=click.IntRange(0), default=0, show_default=True,
              help="which core (block) of a multi-core launch to debug")
@session_options
@click.option("--checks", type=click.Choice(["error", "warn", "off"]), default="error",
              show_default=True)
@click.option("--max-steps", type=click.IntRange(1), default=10_000_000, show_default=True)
@no_source_option
def debug_cpp(program, args, defines, includes, chip, launch_index, core, commands, ex, batch,
              werror, checks, max_steps) -> None:
    """Record the AscendC program PROGRAM's run, then debug a launch at its C++ lines (the
    recording's `.loc` lines: see `at_loc_lines`)."""
    import tempfile
    from pathlib import Path

    from simulator.ascendc.build import BuildError, compile_sources
    from simulator.ascendc.driver import run_worker
    from simulator.debugger import debug as debug_session

    sources, args, includes, defines, unit_defines = _sources(program, args, includes, defines)
    chip_obj = _chip(chip or _project_chip())
    program = sources[0]
    try:
        build = compile_sources(tuple(sources), npu_arch=chip_obj.npu_arch,
                                cce_aicore=chip_obj.cce_aicore,
                                defines=tuple(defines), includes=tuple(includes),
                                unit_defines=unit_defines)
    except BuildError as e:
        _build_failed(e)
    with tempfile.TemporaryDirectory(prefix="pipev-debug-") as tmp:
        config = {"so": str(build.shared_object), "source": program, "argv": list(args),
                  "chip": chip_obj.path or chip_obj.name, "checks": checks,
                  "max_steps": max_steps, "save_vasm": str(Path(tmp) / "rec.vasm"),
                  "quiet": True, "block_dim": 1, "args": [], "show_source": show_source()}
        rc = run_worker(config)
        # each core's recording of each launch: rec.vasm, rec.0.1.vasm, rec.1.vasm, ... (its GM
        # as that core found it: a core debugs alone)
        from simulator.ascendc.bridge import numbered

        path = Path(numbered(str(Path(tmp) / "rec.vasm"), launch_index, core))
        if not path.is_file():
            what = f"kernel launch {launch_index}" + (f" core {core}" if core else "")
            click.echo(f"{program}:1:1: error: the run made no {what} to "
                       "debug" + (f" (it exited with status {rc})" if rc else ""), err=True)
            sys.exit(1)
        # a run that failed a check has said so at its C++ line: the recording then fails to
        # load on the same statement, which is not said a second time
        cores = 1  # the launch's: one recording per core, `core K` switches between them
        while Path(numbered(str(Path(tmp) / "rec.vasm"), launch_index, cores)).is_file():
            cores += 1
        recordings = [Path(numbered(str(Path(tmp) / "rec.vasm"), launch_index, k))
                      for k in range(cores)]
        sys.exit(debug_session(path, chip=chip_obj, commands=commands, checks=checks,
                               max_steps=max_steps, ex=ex, batch=batch, werror=werror,
                               show_source=show_source(), load_reported=rc != 0,
                               recorded_core=(core, cores) if cores > 1 else None,
                               recordings=recordings if cores > 1 else ()))


def _build_failed(e) -> None:
    """A failed build's report (pipev's own diagnostic with its source line) and exit 1."""
    if e.diagnostic is None:
        click.echo(e.text, err=True)
    else:
        from simulator.commands import _emit

        _emit([e.diagnostic])
    sys.exit(1)


def _parse_args(items) -> list:
    if not items:
        return []
    from simulator.ascendc.kernel_args import parse_arg

    specs = []
    for item in items:
        try:
            specs.append(parse_arg(item))
        except ValueError as e:
            raise click.UsageError(str(e)) from None
    names = [s.name for s in specs]
    dup = next((n for n in names if names.count(n) > 1), None)
    if dup is not None:
        raise click.UsageError(f"--arg {dup} is given twice (each parameter needs its own name)")
    return specs


def _project_chip() -> str | None:
    """The profile whose npu_arch a sample directory's CMAKE_ASC_ARCHITECTURES names."""
    from isa.chip import chip_names, get_chip

    arch = click.get_current_context().meta.get("pipev_project_arch")
    if arch is None:
        return None
    return next((n for n in chip_names() if get_chip(n).npu_arch == arch), None)


def _chip(name):
    from isa.chip import ChipError, get_chip

    try:
        return get_chip(name)
    except ChipError as e:
        raise click.UsageError(str(e)) from None
