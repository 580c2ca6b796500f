"""`sweep(program, params, ...)`: every variant of a program run as `pipev run` would, on a
pool of workers, with a cache; the rows, the best one, the table and the plot."""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import attrs
import numpy as np

from isa.chip import Chip, ChipError, get_chip
from simulator.front_ends import front_end_for
from simulator.sweep import keys, space, table
from simulator.sweep.cache import Cache, default_dir
from simulator.sweep.engine import Engine
from simulator.sweep.executors import SweepSetupError, make_pool
from simulator.sweep.task import CPP_ENV, CppKernel, Task, output_hash

RESERVED = {"chip", "block_dim"}  # axes of their own (--chip, --block-dim)


class SweepError(Exception):
    """The sweep cannot start: `.usage` for a malformed request (exit 2), else exit 1."""

    def __init__(self, message: str, usage: bool = False):
        super().__init__(message)
        self.usage = usage


@attrs.define
class SweepResult:
    rows: list[dict]  # one per finished variant, in the sweep's order
    params: list[str]  # the swept axes (table columns first)
    total: int  # variants in the sweep
    cached: int  # rows served from the cache
    seconds: float
    interrupted: bool = False

    @property
    def columns(self) -> list[str]:
        return table.columns(self.rows, self.params)

    @property
    def failed(self) -> int:
        return sum(r.get("status") != "ok" for r in self.rows)

    def best(self, objective: str = "cycles") -> dict | None:
        return table.best(self.rows, objective)

    def write(self, path: str | Path) -> None:
        table.write(path, self.rows, self.columns)

    def plot(self, path: str | Path, objective: str = "cycles") -> None:
        from simulator.sweep.plot import plot

        plot(path, self.rows, self.params, objective, self.columns)


def sweep(program: str | Path, params: Mapping[str, Sequence] | None = None, *,
          mode: str = "grid", inputs: Mapping[str, str | Path | np.ndarray] | None = None,
          chip: str | Chip | Sequence[str | Chip] | None = None,
          block_dim: int | Sequence[int] | None = None, checks: str = "error",
          max_steps: int = 10_000_000, kernel: str | None = None, args: Sequence[str] = (),
          includes: Sequence[str] = (), defines: Mapping[str, str] | None = None,
          argv: Sequence[str] = (), executor=None, jobs: int | None = None,
          cache: bool | str | Path = True,
          expect: Mapping[str, str | Path | np.ndarray] | None = None,
          on_row: Callable[[dict, bool], None] | None = None,
          on_tick: Callable[[], None] | None = None,
          on_start: Callable[[int], None] | None = None) -> SweepResult:
    """Run every variant of PROGRAM: PARAMS maps each parameter (a `.param` name, a TIK
    script's module-level constant, a C++ `-D` macro) to its values, combined as a grid (every
    combination) or zipped; CHIP and BLOCK_DIM may be lists (more axes). DEFINES: parameters
    fixed for every variant (`-D NAME=V`, no column of their own); ARGV: the program's own
    arguments (`-- ARGS`: a C++ host main's argv, a TIK script's sys.argv). EXECUTOR: None or
    "local" (JOBS processes), "dask://HOST:PORT", or any concurrent.futures-style executor.
    CACHE: True (the user cache), a directory, or False. ON_START(total), ON_ROW(row, cached)
    and ON_TICK() report progress. Raises SweepError when the sweep cannot start; a failing
    variant is a row; Ctrl-C returns the rows finished so far (`interrupted`)."""
    t0 = time.perf_counter()
    path = str(program)
    if checks not in ("error", "warn", "off"):
        raise SweepError(f"checks must be error, warn or off, not {checks!r}", usage=True)
    axes, fixed = _axes(params or {}, chip, block_dim)
    try:
        variants = space.expand(axes, mode) if axes else [{}]
    except space.SpaceError as e:
        raise SweepError(str(e), usage=True) from None
    fixed_params = _defines(defines or {}, axes)
    build = _task_builder(path, inputs, checks, max_steps, kernel, args, includes, axes,
                          fixed, fixed_params, tuple(str(a) for a in argv))
    tasks = [build(k, v) for k, v in enumerate(variants)]
    expected = _expected(expect)
    store = _cache(cache)
    try:
        pool = make_pool(executor, jobs)
    except SweepSetupError as e:
        raise SweepError(str(e)) from None
    engine = Engine(pool, store, on_row=on_row, on_tick=on_tick)
    if on_start is not None:
        on_start(len(tasks))
    try:
        outcome = engine.run(tasks)
    except BaseException:
        pool.close(cancel=True)
        raise
    if not outcome.interrupted:  # an interrupted engine has stopped its pool already
        pool.close()
    rows = []
    for task, variant in zip(tasks, variants, strict=True):
        row = outcome.rows.get(task.index)
        if row is None:
            continue
        rows.append(_table_row(variant, row, task, task.index in outcome.cached, expected))
    return SweepResult(rows, list(axes), len(tasks), len(outcome.cached),
                       time.perf_counter() - t0, outcome.interrupted)


def _axes(params: Mapping[str, Sequence], chip, block_dim) -> tuple[dict[str, list], dict]:
    """The swept axes, and the chip / block dim given once (not an axis)."""
    axes: dict[str, list] = {}
    for name, values in params.items():
        if not space.NAME.fullmatch(name) or name in RESERVED:
            raise SweepError(f"parameter name '{name}' is not allowed (an identifier; chip and "
                             "block_dim are --chip and --block-dim)", usage=True)
        if table.result_column(name):
            raise SweepError(f"parameter name '{name}' is a column of the results table, "
                             "which the run fills: rename the parameter (status, error, "
                             "expect, cycles, time_us, instructions, "
                             "uops, warnings, seconds, cached, key and busy_/util_/stall_/out_ "
                             "names are the table's)", usage=True)
        values = [values] if isinstance(values, (str, int)) else values
        if hasattr(values, "__len__") and len(values) > space.MAX_VARIANTS:  # before a copy
            raise SweepError(f"--param {name}: {len(values):,} values; a sweep runs at most "
                             f"{space.MAX_VARIANTS:,} variants", usage=True)
        axes[name] = [str(v) for v in itertools.islice(values, space.MAX_VARIANTS + 1)]
    chips = [] if chip is None else [chip] if isinstance(chip, (str, Chip, Path)) else list(chip)
    if len(chips) > 1:
        axes["chip"] = chips
    dims = [] if block_dim is None else [block_dim] if isinstance(block_dim, int) \
        else list(block_dim)
    if len(dims) > 1:
        axes["block_dim"] = [int(d) for d in dims]
    fixed = {"chip": chips[0] if len(chips) == 1 else None,
             "block_dim": int(dims[0]) if len(dims) == 1 else None}
    return axes, fixed


def _defines(defines: Mapping[str, str], axes: dict) -> dict[str, str]:
    """`-D NAME=V`: parameters every variant takes, never also an axis."""
    for name in defines:
        if not space.NAME.fullmatch(name) or name in RESERVED:
            raise SweepError(f"-D {name}: a parameter name is an identifier (chip and "
                             "block_dim are --chip and --block-dim)", usage=True)
        if name in axes:
            raise SweepError(f"{name} is both fixed (-D) and swept (--param)", usage=True)
    return {name: str(value) for name, value in defines.items()}


def _chip(value) -> Chip:
    try:
        return get_chip(value)
    except ChipError as e:
        raise SweepError(str(e), usage=True) from None


@attrs.frozen
class _Source:
    """What every variant of the program shares: its text (.vasm), the C++ kernel call, and
    the parts of the cache key that do not vary."""

    text: str
    key: dict
    cpp: CppKernel | None
    options: dict
    tik: bool = False


def project_files(path: str, includes: Sequence[str], defines: Mapping[str, str]
                  ) -> list[tuple[str, str]]:
    """The files a sample directory's run compiles from, with their hashes, as `pipev run DIR
    -D NAME=VALUE...` reads its CMakeLists.txt (the -D values are CMake variables too, so a
    swept one may pick other sources): its CMake files, and the sources and the quoted
    #include files they reach."""
    from simulator.ascendc.cmake import CMakeError, read_project

    try:
        project = read_project(path, {k: str(v) for k, v in defines.items()})
    except CMakeError as e:
        raise SweepError(str(e), usage=True) from None
    found: dict[str, str] = {}
    for lists in project.lists:
        found.update(keys.included_files(Path(lists)))
    dirs = (*includes, *project.includes)
    for source in project.sources:
        found.update(keys.included_files(Path(source), tuple(dirs)))
    return sorted(found.items())


def _cpp_source(path: str, inputs, kernel: str | None, args: Sequence[str],
                includes: Sequence[str], fixed: dict, axes: dict,
                fixed_defines: Mapping[str, str] | None = None) -> _Source:
    """A C++ program: kernel-only (--kernel NAME and its --arg values) or a host main (its
    <<<>>> launches, the program's own inputs); every variant is compiled with its -D macros."""
    if inputs:
        raise SweepError("a C++ kernel takes its inputs as --arg NAME=FILE.npy (kernel-only) or "
                         "reads them itself (a host main), not --input", usage=True)
    if kernel is None and args:
        raise SweepError("--arg needs --kernel NAME (kernel-only mode); a host main passes "
                         "its kernels' arguments itself", usage=True)
    if kernel is None and (fixed["block_dim"] is not None or "block_dim" in axes):
        raise SweepError("--block-dim needs --kernel NAME (kernel-only mode); a host main "
                         "chooses blockDim in its <<<>>> launches (sweep a -D macro there)",
                         usage=True)
    env = tuple((k, os.environ[k]) for k in CPP_ENV if k in os.environ)
    cpp = CppKernel(kernel, tuple(args), tuple(includes), str(Path.cwd()), env)
    if Path(path).is_dir():  # a sample directory: its files are a variant's (project_files)
        project_files(path, includes, fixed_defines)
        files: list = []
    else:
        files = keys.included_files(Path(path), tuple(includes))
    # the data files it reads are recorded as it runs (simulator/sweep/reads.py): the cache
    # serves a row only while they are unchanged (a name built at run time is seen too)
    key = {"kind": "cpp", "files": files, "path": path}
    options = {"kernel": kernel, "args": [_arg_digest(a) for a in args],
               "compiler": [(k, v) for k, v in env if k != "PIPEV_CACHE_DIR"]}
    return _Source("", key, cpp, options)


def _vasm_source(path: str, axes: dict, kernel: str | None, args: Sequence[str]) -> _Source:
    from simulator.sweep.params import check_values

    if kernel is not None or args:
        raise SweepError("--kernel and --arg are for C++ kernels", usage=True)
    try:
        text = Path(path).read_bytes().decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        raise SweepError(f"{path}:1:1: error: cannot read program: "
                         f"{getattr(e, 'strerror', None) or e}") from None
    why = check_values({k: v for k, v in axes.items() if k not in RESERVED}, text, path)
    if why is not None:
        raise SweepError(why, usage=True)
    reads = keys.named_files([text], [Path(path).parent])  # file("..."), .chip X.toml
    return _Source(text, {"kind": "vasm", "text": text, "reads": reads}, None, {})


def _tik_source(path: str, axes: dict, kernel: str | None, args: Sequence[str]) -> _Source:
    """A TIK script: its module-level constants are the parameters (simulator/tik/params.py);
    every variant executes the script's text, which is also its key."""
    from isa.diagnostics import DiagnosticError
    from simulator.tik import params as tik_params
    from simulator.tik.script import read_script

    if kernel is not None or args:
        raise SweepError("--kernel and --arg are for C++ kernels", usage=True)
    try:
        text = read_script(path)
        declared = tik_params.declared(tik_params.parse(text, path))
    except DiagnosticError as e:
        raise SweepError(str(e.diagnostics[0])) from None
    for name, values in axes.items():
        for value in values if name not in RESERVED else ():
            why = tik_params.problem(declared, name, value)
            if why is not None:
                raise SweepError(f"--param {name}: {path}: {why}", usage=True)
    # the files it reads are recorded as it runs (simulator/sweep/reads.py), as for C++
    return _Source(text, {"kind": "tik", "text": text}, None, {}, tik=True)


def _text(path: str) -> str:
    try:
        return Path(path).read_bytes().decode("utf-8", "replace")
    except OSError:
        return ""


def _task_builder(path: str, inputs, checks: str, max_steps: int, kernel: str | None,
                  args: Sequence[str], includes: Sequence[str], axes: dict, fixed: dict,
                  defines: dict[str, str] | None = None, argv: tuple[str, ...] = ()):
    """A function (index, variant) -> Task, with what every variant shares read once."""
    front_end = front_end_for(path)
    defines = defines or {}
    checked = {**axes, **{name: [value] for name, value in defines.items()}}
    if front_end == "cpp":
        source = _cpp_source(path, inputs, kernel, args, includes, fixed, axes, defines)
    elif front_end == "tik":
        source = _tik_source(path, checked, kernel, args)
    else:
        if argv:
            raise SweepError("-- ARGS are a C++ host main's or a TIK script's own arguments; a "
                             ".vasm program takes none", usage=True)
        source = _vasm_source(path, checked, kernel, args)
    arrays = _load_inputs(inputs)
    digests = {n: keys.array_digest(a) for n, a in arrays.items()}
    options = {"checks": checks, "max_steps": max_steps, "argv": list(argv), **source.options}
    if source.cpp or source.tik:  # their reads resolve against it: another folder's row and
        options["cwd"] = os.getcwd()  # its recorded reads are not this folder's (#30 item 4)
    chips: dict[str, tuple[Chip, str]] = {}  # name or path -> (profile, its text)
    read: dict[tuple, list] = {}  # a sample directory's files, per variant's -D values

    def _project_files(params: dict) -> list:
        at = tuple(sorted(params.items()))
        if at not in read:
            read[at] = project_files(path, includes, params)
        return read[at]

    def build(index: int, variant: dict) -> Task:
        chip, chip_text = _chip_of(variant.get("chip", fixed["chip"]), chips)
        dim = variant.get("block_dim", fixed["block_dim"])
        params = (*defines.items(),
                  *((k, v) for k, v in variant.items() if k not in RESERVED))
        program = source.key
        if source.cpp and Path(path).is_dir():  # the files this variant's CMake read names
            program = {**program, "files": _project_files(dict(params))}
        key = keys.variant_key(program, dict(params), digests, chip_text, dim, options)
        return Task(index, key, path, source.text, params, chip, dim, tuple(arrays.items()),
                    checks, max_steps, source.cpp, source.tik, argv)

    return build


def _chip_of(value, chips: dict) -> tuple[Chip | None, str]:
    """The profile VALUE names (None: the program's own .chip) and its text for the key."""
    if value is None:
        return None, ""
    name = str(value.path or value.name) if isinstance(value, Chip) else str(value)
    if name not in chips:
        chip = _chip(value)
        text = Path(chip.path).read_text(encoding="utf-8") if chip.path else chip.name
        chips[name] = (chip, text)
    return chips[name]


def _arg_digest(arg: str) -> str:
    name, _, value = arg.partition("=")
    if value.endswith((".npy", ".bin")):
        digest = keys.file_digest(Path(value))
        if digest is not None:
            return f"{name}={digest}"
    return arg  # not a file argument, or one the run reports as unreadable


def _load_inputs(inputs, option: str = "--input") -> dict[str, np.ndarray]:
    from isa.inits import load_npy

    arrays = {}
    for name, value in (inputs or {}).items():
        if isinstance(value, (str, Path)):
            arr, why = load_npy(Path(value))
            if arr is None:
                raise SweepError(f"error: {option} {name}: {why}")
            arrays[name] = arr
        else:
            arrays[name] = np.asarray(value)
    return arrays


def _expected(expect) -> dict[str, str]:
    return {name: output_hash(arr) for name, arr in _load_inputs(expect, "--expect").items()}


def _cache(cache) -> Cache | None:
    if cache is False or cache is None:
        return None
    return Cache(default_dir() if cache is True else cache)


def _table_row(variant: dict, row: dict, task: Task, cached: bool,
               expected: dict[str, str]) -> dict:
    out = {name: space.typed(v) if not isinstance(v, Chip) else v.name
           for name, v in variant.items()}
    out.update(row)
    if expected and row.get("status") == "ok":
        differs = [n for n, digest in expected.items() if row.get(f"out_{n}") != digest]
        out["expect"] = "differs: " + ", ".join(differs) if differs else "match"
    out["cached"] = cached
    out["key"] = task.key[:16]
    return out
