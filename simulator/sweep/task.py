"""One variant's run, as a worker executes it: `run_task(task) -> row`.

A task carries everything the run needs (the program text, the input arrays, the chip profile
itself), so a worker on another machine needs pipev installed and nothing else; a C++ kernel is
compiled where it runs, from the path it was given (a cluster needs a shared file system for
C++). `run_task` never raises for the variant's own failure: a program that does not assemble,
faults, or runs out of memory is a row with status "error" and its first diagnostic.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import attrs
import numpy as np

from isa.chip import Chip
from simulator.sweep.reads import PythonReads, from_log, python_reads, shim


@attrs.frozen
class CppKernel:
    """How a C++ program runs: kernel-only (`pipev run K.cpp --kernel NAME --arg ...`) or, with
    no kernel, its host main (`pipev run host.cpp`)."""

    kernel: str | None
    args: tuple[str, ...] = ()  # the --arg values, in order
    includes: tuple[str, ...] = ()  # -I directories
    cwd: str = ""  # where relative paths are read (the sweep's directory)
    env: tuple[tuple[str, str], ...] = ()  # the sweeping process's compiler settings


CPP_ENV = ("CXX", "PIPEV_CXXFLAGS", "PIPEV_CACHE_DIR")  # what a C++ variant's build reads


@attrs.frozen(eq=False)
class Task:
    index: int  # the variant's position in the sweep
    key: str  # the cache key (simulator.sweep.keys)
    path: str  # the program as the user named it (diagnostics say it)
    text: str  # the .vasm source or the TIK script ("" for C++: compiled from `path`)
    params: tuple[tuple[str, str], ...]  # .param overrides / TIK constants / -D macros
    chip: Chip | None = None
    block_dim: int | None = None
    inputs: tuple[tuple[str, np.ndarray], ...] = ()
    checks: str = "error"
    max_steps: int = 10_000_000
    cpp: CppKernel | None = None
    tik: bool = False  # `text` is a TIK script, its kernel the program
    argv: tuple[str, ...] = ()  # the program's own arguments (C++ host main, TIK script)


class VariantInterrupted(BaseException):
    """The variant's process was interrupted (Ctrl-C at a terminal reaches it too): no row, so
    nothing is cached and a resumed sweep runs it again."""


def output_hash(array: np.ndarray) -> str:
    """A short hash of an output's bytes: variants that must agree have equal hashes."""
    return hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()[:16]


def run_task(task: Task) -> dict:
    """The row of one variant: status, error, cycles, time_us, busy/utilisation per pipe,
    stall cycles by cause, a hash of each output, seconds (wall time of this run); and under
    "reads" the (path, sha256) of every file of the user's the run read (simulator/sweep/
    reads.py), None when they could not be recorded (the row is then not cached). The engine
    takes "reads" out of the row: the cache keeps them beside it."""
    t0 = time.perf_counter()
    try:
        row = _run_cpp(task) if task.cpp is not None else _run_program(task)
    except MemoryError:
        row = error_row(f"{task.path}:1:1: error: out of memory: the program's tensors do not "
                        "fit in this machine's memory")
    except Exception as e:  # a pipev bug must not end the sweep: the row says what happened
        row = error_row(f"{task.path}:1:1: error: internal error: {type(e).__name__}: {e}")
    row["seconds"] = round(time.perf_counter() - t0, 6)
    return row


def error_row(message: str) -> dict:
    return {"status": "error", "error": message}


FIGURES = ("cycles", "time_us", "instructions", "uops")  # every ok row has them
NUMBER_PREFIXES = ("busy_", "util_", "stall_")
MAX_NUMBER = 2**63 - 1  # what every table format holds (Parquet's int64)
MAX_TEXT = 1 << 16


def _number(value) -> bool:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return 0 <= value <= MAX_NUMBER  # NaN fails both comparisons; inf the second


def _cell(name, value) -> bool:
    """One (column, value) of a row as summary_row / error_row / run_task make them."""
    if not isinstance(name, str):
        return False
    if name in ("status", "error") or name.startswith("out_"):
        return isinstance(value, str) and len(value) <= MAX_TEXT
    if name in (*FIGURES, "seconds") or name.startswith(NUMBER_PREFIXES):
        return _number(value)
    if name == "warnings":
        return isinstance(value, int) and _number(value)
    return False


def valid_row(row) -> bool:
    """Whether ROW has the shape a run gives (a row read back from outside, e.g. the cache, is
    used only then): known columns with values of their type, finite and in range, an ok row
    with every figure, an error row with its message."""
    if not isinstance(row, dict) or not all(_cell(k, v) for k, v in row.items()):
        return False
    if row.get("status") == "ok":
        return "error" in row and all(f in row for f in FIGURES)
    return row.get("status") == "error" and "error" in row


def summary_row(summary: dict, outputs: dict[str, str]) -> dict:
    """A row from a `pipev run --json` summary and the outputs' hashes."""
    row = {"status": "ok", "error": "", "cycles": summary["cycles"],
           "time_us": summary["time_us"], "instructions": summary["instructions"],
           "uops": summary["uops"]}
    for pipe, figures in summary["pipes"].items():
        row[f"busy_{pipe}"] = figures["busy"]
        row[f"util_{pipe}"] = figures["utilisation"]
    for cause, cycles in summary.get("stalls", {}).items():
        row[f"stall_{cause}"] = cycles
    row["warnings"] = len(summary.get("warnings", ()))
    for name, digest in sorted(outputs.items()):
        row[f"out_{name}"] = digest
    return row


def _run_program(task: Task) -> dict:
    """A .vasm program assembled with the variant's .param values, or the kernel a TIK script
    builds with its constants overridden, run in this process as `pipev run` runs it."""
    from isa.diagnostics import DiagnosticError
    from simulator.run import run
    from simulator.summary import summary_dict

    reads = {"reads": []}  # a .vasm program reads what it names (keys.named_files)
    try:
        if task.tik:
            with PythonReads() as seen:
                try:
                    program = _tik_program(task)
                finally:
                    reads["reads"] = python_reads(seen, os.getcwd())
        else:
            program = _vasm_program(task)
        result = run(program, inputs=dict(task.inputs), checks=task.checks,
                     max_steps=task.max_steps, block_dim=task.block_dim)
    except DiagnosticError as e:
        first = next((d for d in e.diagnostics if d.severity == "error"), None)
        return {**error_row(str(first or e.diagnostics[0])), **reads}
    outputs = {name: output_hash(arr) for name, arr in result.outputs.items()}
    return {**summary_row(summary_dict(result), outputs), **reads}


def _vasm_program(task: Task):
    from simulator.sweep.params import assemble_with

    return assemble_with(task.text, task.path, task.chip, task.checks, dict(task.params))


def _tik_program(task: Task):
    from simulator.tik.script import build

    return build(task.path, task.text, dict(task.params), task.chip, task.checks, task.argv)


def cpp_command(task: Task, output_dir: str) -> list[str]:
    """The `pipev run K.cpp [--kernel ...] --json` command line of a C++ variant."""
    cpp = task.cpp
    argv = [sys.executable, "-m", "simulator.cli", "run", task.path, "--json", "--checks",
            task.checks, "--max-steps", str(task.max_steps)]
    if cpp.kernel is not None:
        argv += ["--kernel", cpp.kernel, "--output-dir", output_dir]
    for a in cpp.args:
        argv += ["--arg", a]
    for name, value in task.params:
        argv += ["-D", f"{name}={value}"]
    for d in cpp.includes:
        argv += ["-I", d]
    if task.chip is not None:
        argv += ["--chip", task.chip.path or task.chip.name]
    if task.block_dim is not None:
        argv += ["--block-dim", str(task.block_dim)]
    return argv + (["--", *task.argv] if task.argv else [])


def _run_cpp(task: Task) -> dict:
    """Compile and run the program as `pipev run` does, in its own process (a crashing kernel
    takes only that process down); a kernel-only run's outputs land in a directory of its own,
    a host main's GM buffers are hashed by the run (`gm` in its summary)."""
    with tempfile.TemporaryDirectory(prefix="pipev-sweep-") as out_dir:
        env = _worker_env(task.cpp.env)
        log = _record_reads(env, Path(out_dir))
        rc, stdout, stderr = _execute(cpp_command(task, out_dir), task.cpp.cwd or os.getcwd(),
                                      env, Path(out_dir))
        reads = {"reads": None if log is None else from_log(log, task.cpp.cwd or os.getcwd())}
        if rc in (130, -signal.SIGINT):
            raise VariantInterrupted(task.path)
        if rc != 0:
            return {**error_row(_first_error(stderr, task.path, rc)), **reads}
        try:
            summary = json.loads(stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            return {**error_row(f"{task.path}:1:1: error: the run printed no summary"),
                    **reads}
        if "gm" in summary:
            outputs = dict(summary["gm"])
        else:
            outputs = {Path(p).stem: output_hash(np.load(p, allow_pickle=False))
                       for p in summary.get("outputs", {}).values()}
    return {**summary_row(summary, outputs), **reads}


# C++ variants run in a warm runner (simulator/sweep/cppwarm.py); False: each in a `pipev run`
# process of its own, as before (what the warm runner is tested against)
WARM = True


def _execute(argv: list[str], cwd: str, env: dict[str, str], folder: Path
             ) -> tuple[int, str, str]:
    """Run ARGV (`python -m simulator.cli run ...`) in CWD with ENV: (exit status, stdout,
    stderr). In this process's warm runner when it has one (a runner that died: the cold
    way)."""
    if WARM:
        from simulator.sweep.cppwarm import runner

        out, err = folder / "stdout.txt", folder / "stderr.txt"
        rc = runner(env).run(argv[1:], cwd, env, out, err)
        if rc is not None:
            return rc, _text(out), _text(err)
    proc = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, errors="replace",
                          env=env)
    return proc.returncode, proc.stdout, proc.stderr


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _record_reads(env: dict[str, str], folder: Path) -> Path | None:
    """Have the run note the files it opens (simulator/sweep/reads.py) in a log in FOLDER:
    ENV preloads the library; None when it cannot be built (the row is then not cached)."""
    from simulator.ascendc.build import BuildError, cache_root, find_compiler

    try:
        lib = shim(find_compiler(env), cache_root(env))
    except BuildError:
        return None
    if lib is None:
        return None
    log = folder / "reads.log"
    log.touch()
    env["LD_PRELOAD"] = f"{lib} {env.get('LD_PRELOAD', '')}".strip()
    env["PIPEV_READS_LOG"] = str(log)
    return log


def _worker_env(given: tuple[tuple[str, str], ...]) -> dict[str, str]:
    env = {**os.environ, **dict(given)}
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def _first_error(stderr: str, path: str, rc: int) -> str:
    """The run's first error diagnostic; else its exit status and last line of output (a host
    main that returned nonzero: its own output is on stderr under --json)."""
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    first = next((ln for ln in lines if ": error:" in ln or ln.startswith("error:")), None)
    if first is not None:
        return first
    return f"{path}:1:1: error: the run failed (exit status {rc})" + \
        (f": {lines[-1].strip()}" if lines else "")
