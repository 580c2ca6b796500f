"""`run` for a program in any language pipev reads (the Python API's `pipev.run`): a path's
suffix picks its front end (simulator/front_ends.py) — AscendC C++ through simulator/ascendc, a TIK
script through simulator/tik — and a .vasm program, text or Program runs as simulator/run.py runs
it. It sits above the front ends so that the core's run never imports them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from isa.chip import Chip
from isa.program import Program
from simulator.events import Observer
from simulator.result import RunResult
from simulator.run import check_mode
from simulator.run import run as run_program
from simulator.semantics import InstructionSet

__all__ = ["run"]


def run(program_or_path: Program | str | Path, *, chip: Chip | str | None = None,
        inputs: Mapping | None = None, checks: str = "error", trace: str | Path | None = None,
        trace_format: str | None = None, max_steps: int = 10_000_000,
        observers: Sequence[Observer] = (), timing: bool = True,
        block_dim: int | None = None, trace_core: int | None = None,
        params: Mapping[str, int] | None = None, trace_time: str = "cycles",
        trace_options: Mapping | None = None, fast: bool = True,
        isa: InstructionSet | None = None, argv: Sequence[str] = (),
        includes: Sequence[str] = (), kernel: str | None = None,
        kernel_args: Mapping | None = None) -> RunResult:
    """Assemble (if needed) and run a program on BLOCK_DIM cores (None: the program's
    `.block_dim`, else 1; simulator/cores.py); TRACE_CORE: a text trace shows that core
    alone. PARAMS overrides `.param` values by name. The trace's format follows TRACE's
    extension (.jsonl, .json: Chrome, .vcd, .txt) unless TRACE_FORMAT says; TRACE_TIME: below;
    TRACE_OPTIONS go to the writer (text:
    `width`, `cycles=(START, END)`). FAST=False runs every instruction through the reference
    loop (the same results, slower: what the fast loop is tested against). ISA: the
    instruction set a path or text is assembled and run with (None: pipev's own,
    simulator.semantics.BUILTIN; docs/decisions.md says how to extend it); a Program runs with
    the one it was assembled with.

    A path's suffix says its language (simulator/front_ends.py), as on the command line:
    - `.vasm` (any other suffix): assembled; PARAMS set `.param` values.
    - `.py`: a TIK script, executed; the kernel its (last) `BuildCCE` declares runs with
      INPUTS; PARAMS set its module-level constants (as `-D`).
    - `.cpp`/`.asc`/`.cc`/`.cxx`: an AscendC program, compiled (cached) and run in a worker
      process in the current directory: its host `main` with ARGV, or with KERNEL the kernel
      of a file without a main, its parameters bound in order to KERNEL_ARGS (name -> a numpy
      array, a FILE.npy/FILE.bin path, or "out:TYPE[COUNT]") on BLOCK_DIM cores. PARAMS are
      macros (`-D NAME=VALUE`), INCLUDES `-I` directories. The result is the program's: one
      launch's, or its launches summed with each in `launches`; `outputs` are the `out:`
      buffers, or a host program's GM buffers (bytes) as the last launch left them;
      `exit_status` is main's. OBSERVERS, INPUTS and ISA do not reach the worker process.

    The trace's time unit: cycles, or with TRACE_TIME="real" picoseconds of the chip clock
    (Chrome trace timestamps, as `pipev run --trace-time real` writes them). Results are in
    cycles (`time_us`: microseconds at the chip's clock). Raises a DiagnosticError carrying
    every diagnostic: AssemblyError (the program does not assemble, the script builds no
    kernel or fails, the C++ does not compile: simulator.ascendc.api.CompileError) or
    SimulationError (the run failed). Prints nothing (a C++ or TIK program's own output is
    its own) and writes only the trace file."""
    from simulator.front_ends import front_end_for

    language = front_end_for(str(program_or_path)) if isinstance(program_or_path, (str, Path)) \
        and "\n" not in str(program_or_path) else "vasm"
    if language == "cpp":
        if observers or inputs or isa is not None or trace_core is not None or \
                trace_time != "cycles" or trace_options:
            raise ValueError("a C++ program runs in a worker process: observers, inputs, isa, "
                             "trace_core, trace_time and trace_options do not reach it "
                             "(kernel-only inputs: kernel_args)")
        from simulator.ascendc.api import run_cpp

        return run_cpp(program_or_path, chip=chip, params=params, includes=includes,
                       argv=argv, kernel=kernel, kernel_args=kernel_args,
                       block_dim=block_dim, checks=checks, max_steps=max_steps, trace=trace,
                       trace_format=trace_format, timing=timing)
    if argv or includes or kernel is not None or kernel_args:
        raise ValueError("argv, includes, kernel and kernel_args are for C++ programs")
    if language == "tik":
        program_or_path = _tik_kernel(str(program_or_path), chip, checks, params)
        params = None
    return run_program(program_or_path, chip=chip, inputs=inputs, checks=checks, trace=trace,
                       trace_format=trace_format, max_steps=max_steps, observers=observers,
                       timing=timing, block_dim=block_dim, trace_core=trace_core,
                       params=params, trace_time=trace_time, trace_options=trace_options,
                       fast=fast, isa=isa)


def _tik_kernel(path: str, chip, checks: str, params: Mapping | None) -> Program:
    """The kernel a TIK script builds (its constants set by PARAMS); AssemblyError for a
    script that fails or builds none (at its line)."""
    from isa.diagnostics import AssemblyError, DiagnosticError
    from simulator.tik.script import build, read_script

    check_mode(checks)
    try:
        return build(path, read_script(path), {k: str(v) for k, v in (params or {}).items()},
                     chip, checks)
    except AssemblyError:
        raise
    except DiagnosticError as e:
        raise AssemblyError(e.diagnostics) from None
