"""`pipev sweep PROGRAM --param NAME=V1,V2,... --out results.csv`: the command line of the
sweep (registered on pipev's group by simulator/cli.py)."""

from __future__ import annotations

import sys

import click

from simulator.commands import CHECKS, _parse_pairs


@click.command("sweep", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("program", type=click.Path(exists=True))
@click.argument("argv", nargs=-1, metavar="[-- ARGS]...")
@click.option("--param", "axes", multiple=True, metavar="NAME=V1,V2,...",
              help="a swept parameter (.param of .vasm, a TIK script's module-level constant, "
              "-D macro of C++); LO..HI:STEP ranges")
@click.option("--grid", "mode", flag_value="grid", default=True,
              help="every combination of the values (default)")
@click.option("--zip", "mode", flag_value="zip", help="the k-th values of every axis together")
@click.option("--input", "inputs", multiple=True, metavar="NAME=FILE.npy",
              help="a GM input tensor, the same for every variant")
@click.option("--chip", "chips", multiple=True, metavar="NAME",
              help="chip profile; given more than once, an axis of the sweep")
@click.option("--block-dim", "block_dims", multiple=True, type=click.IntRange(1, 65535),
              help="cores (blocks) the kernel runs on; given more than once, an axis")
@click.option("--kernel", metavar="NAME", help="C++: the kernel to launch (kernel-only mode; "
              "without it, the program's host main runs)")
@click.option("--arg", "kernel_args", multiple=True, metavar="NAME=FILE.npy|out:T[N]",
              help="C++ kernel-only: the next kernel parameter")
@click.option("-D", "defines", multiple=True, metavar="NAME=V",
              help="a parameter fixed for every variant (a .param, a TIK constant, a C++ "
              "macro); no column of its own")
@click.option("-I", "includes", multiple=True, metavar="DIR",
              type=click.Path(exists=True, file_okay=False), help="C++: an include directory")
@click.option("--checks", type=CHECKS, default="error", show_default=True)
@click.option("--max-steps", type=click.IntRange(1), default=10_000_000, show_default=True)
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False),
              help="the results table: .csv, .jsonl or .parquet")
@click.option("--executor", default="local", show_default=True,
              metavar="local|dask://HOST:PORT", help="where the variants run")
@click.option("--jobs", type=click.IntRange(1), default=None,
              help="local worker processes  [default: one per core]")
@click.option("--cache", "cache_dir", type=click.Path(file_okay=False), default=None,
              help="the row cache directory  [default: ~/.cache/pipev/sweep]")
@click.option("--no-cache", is_flag=True, help="run every variant (the cache is not read or "
              "written)")
@click.option("--plot", type=click.Path(dir_okay=False),
              help="plot the objective against each parameter: .png, .svg, .pdf or .html")
@click.option("--expect", "expects", multiple=True, metavar="NAME=FILE.npy",
              help="mark rows whose output NAME differs from FILE.npy")
@click.option("--objective", default="cycles", show_default=True, metavar="COLUMN[:max]",
              help="the column that ranks variants (smallest best; :max for largest)")
@click.option("--quiet", is_flag=True, help="print no progress and no summary")
def sweep_command(program, argv, axes, mode, inputs, chips, block_dims, kernel, kernel_args,
                  defines, includes, checks, max_steps, out, executor, jobs, cache_dir,
                  no_cache, plot, expects, objective, quiet) -> None:
    """Run every variant of PROGRAM and write one row per variant to --out; ARGS after `--`
    are the program's own (a C++ host main's argv, a TIK script's sys.argv). PROGRAM may be a
    C++ sample directory, as `pipev run DIR` takes it (a -D or swept macro is also a CMake
    variable there)."""
    from simulator.sweep import plot as plotting
    from simulator.sweep import space, table
    from simulator.sweep.api import SweepError, sweep
    from simulator.sweep.progress import ProgressBar

    try:
        params = dict(space.parse_axis(a) for a in axes)
        table.check_format(out)
        table.check_destination(out, "--out")
        table.parse_objective(objective)
        if plot:
            plotting.check_format(plot)
            table.check_destination(plot, "--plot")
    except (space.SpaceError, table.TableError, plotting.PlotError) as e:
        raise click.UsageError(str(e)) from None
    if len(params) != len(axes):
        raise click.UsageError("--param: a name is given twice")
    bar = None
    if not quiet and sys.stderr.isatty():
        bar = ProgressBar(0)
    try:
        result = sweep(program, params, mode=mode, inputs=_parse_pairs("--input", inputs),
                       chip=list(chips) or None, block_dim=list(block_dims) or None,
                       checks=checks, max_steps=max_steps, kernel=kernel, args=kernel_args,
                       includes=includes, defines=_define_pairs(defines), argv=argv,
                       executor=executor, jobs=jobs,
                       cache=False if no_cache else (cache_dir or True),
                       expect=_parse_pairs("--expect", expects),
                       on_row=bar.row if bar else None, on_tick=bar.draw if bar else None,
                       on_start=_starter(bar))
    except SweepError as e:
        if bar:
            bar.close()
        if e.usage:
            raise click.UsageError(str(e)) from None
        click.echo(str(e), err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        if bar:
            bar.close()
        click.echo("interrupted before any variant finished", err=True)
        sys.exit(130)
    if bar:
        bar.close()
    try:
        _finish(result, out, plot, objective, quiet)
    except KeyboardInterrupt:  # a second Ctrl-C while writing: the table is written or not
        sys.exit(130)


def _define_pairs(items) -> dict[str, str]:
    """-D NAME=V options -> {NAME: V} (the value as text: each front end reads its own)."""
    pairs = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise click.UsageError(f"-D takes NAME=V, got '{item}'")
        if name.strip() in pairs:
            raise click.UsageError(f"-D {name.strip()} is given twice")
        pairs[name.strip()] = value.strip()
    return pairs


def _starter(bar):
    def start(total: int) -> None:
        if bar is not None:
            bar.total = total
            bar.draw()
    return start


def _finish(result, out: str, plot: str | None, objective: str, quiet: bool) -> None:
    from simulator.sweep import table

    try:
        result.write(out)
    except OSError as e:
        click.echo(f"error: cannot write {out}: {e.strerror or e}", err=True)
        sys.exit(1)
    if result.interrupted:
        click.echo(f"interrupted: {len(result.rows)} of {result.total} variants finished, "
                   f"written to {out}; the same command resumes (the cache keeps them)",
                   err=True)
        sys.exit(130)
    if plot:
        try:
            result.plot(plot, objective)
        except OSError as e:  # checked up front; the folder changed during the sweep
            click.echo(f"error: cannot write {plot}: {e.strerror or e}", err=True)
            sys.exit(1)
    if quiet:
        return
    ran = len(result.rows) - result.cached
    rate = f" ({ran / result.seconds:.1f} variants/s run)" if ran and result.seconds > 0 else ""
    counts = table.tally(result.rows)
    click.echo(f"{result.total} variants: {table.tally_words(counts)}, {result.cached} from the "
               f"cache; {result.seconds:.1f} s{rate} -> {out}", err=True)
    error = next((r for r in result.rows if r.get("status") != "ok"), None)
    if error is not None:
        click.echo(f"  first error ({_label(error, result.params)}): {error['error']}",
                   err=True)
    top = result.best(objective)
    column = objective.partition(":")[0]
    if top is not None:
        click.echo(f"best by {column}: {_label(top, result.params)}: {column} {top[column]}"
                   + (f" ({top['time_us']:.3f} us)" if column == "cycles" else ""), err=True)
    elif counts["differs"] or counts["no work"]:
        click.echo("  no best variant: none ran, did work and matched --expect", err=True)
    elif result.rows and column not in result.columns:
        click.echo(f"  no column '{column}' to rank by (columns: "
                   f"{', '.join(result.columns)})", err=True)
    if plot:
        click.echo(f"plot -> {plot}", err=True)


def _label(row: dict, params: list[str]) -> str:
    return " ".join(f"{p}={row[p]}" for p in params) or "the program"
