"""pipev's Python API: run kernels, watch them, debug them.

    import pipev
    result = pipev.run("kernel.vasm", inputs={"a": a}, observers=[MyObserver()])
    result.outputs["out"], result.cycles, result.pipes, result.stalls, result.hot_lines

- `run(program, ...)` -> RunResult: assemble (a path, a Program, or program text) and run; a
  path's suffix picks its language as on the command line: `.vasm`, a TIK script (`.py`: the
  kernel its BuildCCE declares), an AscendC program (`.cpp`/`.asc`: its host main with
  `argv=`, or `kernel=NAME, kernel_args={...}`; compiled and run in a worker process).
  RunResult's figures are cycles of the chip clock (`time_us`: microseconds at it); a trace's
  time is cycles, or picoseconds with `trace_time="real"`.
- `assemble(text, path=None, chip=None, params=None)` -> Program (`params={"N": 64}` overrides
  `.param N = …`, as `-D N=64` does; `run` and `debug` take `params=` too).
- `Stream(chip, ...)`: a run fed one statement at a time (front ends, producers that branch on
  the machine state); `issue`, `declare_gm`, `declare_ub`, `finish`, `save_vasm`.
- `debug(program, ...)` -> Debugger: the step debugger as an object: `execute("step")` ->
  list[str], the reply's lines as `pipev debug` prints them (a command's error is its one
  line; it never raises for a bad command); `evaluate("z[0:8] * 2")` -> the value (a numpy
  array or an int).
- `Observer` / `Event` / `RunInfo`: the observer contract (docs/observers.md); `Planned`,
  `ObserverPlan`, `Booked`, `Varying`, `Batch`: its opt-in plans, which keep a run on the fast
  loop.
- `sweep(program, params, executor=...)` -> SweepResult: every variant (docs/sweep.md).
- `chips()`: the chip profiles.
- `InstructionSet` / `instruction_set()`: the instructions a run knows, pipev's own unless
  `isa=` gives an extension (`instruction_set().extended(...)`: docs/decisions.md).
Errors raise `DiagnosticError`, the one base to catch, whose `.diagnostics` (a list of
`Diagnostic`: severity, path, line, column, message) say FILE:LINE:COL; its subclasses are
`AssemblyError` (the program does not assemble, a TIK script fails or builds no kernel, a C++
program does not compile: `simulator.ascendc.api.CompileError`, with the compiler's `.output`)
and `SimulationError` (the run failed: a check, a fault, a crash of a C++ kernel; `.partial`
the machine where it stopped, when there is one). Bad arguments (an unknown `checks=` mode, a
`block_dim` out of range) are ValueError.
"""

from __future__ import annotations

from pathlib import Path

from isa import assemble
from isa.chip import Chip, chip_names, get_chip
from isa.diagnostics import AssemblyError, Diagnostic, DiagnosticError
from isa.program import Program
from simulator.debugger import Debugger
from simulator.errors import SimulationError
from simulator.events import Event, Observer, RunInfo
from simulator.languages import run
from simulator.plans import Batch, Booked, ObserverPlan, Planned, Varying
from simulator.run import RunResult
from simulator.semantics import BUILTIN, InstructionSet
from simulator.stream import Stream

__all__ = ["run", "assemble", "debug", "chips", "sweep", "SweepResult", "SweepError", "Stream",
           "Observer", "Event", "RunInfo", "Planned", "ObserverPlan", "Booked", "Varying", "Batch",
           "RunResult",
           "Debugger", "Program", "Chip", "Diagnostic", "DiagnosticError", "InstructionSet",
           "instruction_set",
           "SimulationError", "AssemblyError"]


def chips() -> list[Chip]:
    """Every chip profile pipev ships, by name."""
    return [get_chip(name) for name in chip_names()]


def instruction_set() -> InstructionSet:
    """pipev's own instruction set (extend it with `.extended(...)`; it never changes)."""
    return BUILTIN


def debug(program: Program | str | Path, *, chip: Chip | str | None = None, inputs=None,
          checks: str = "error", max_steps: int = 10_000_000,
          block_dim: int | None = None, params=None, show_source: bool = True,
          isa: InstructionSet | None = None) -> Debugger:
    """A debugging session on PROGRAM, at its first instruction (of core 0 when it runs
    BLOCK_DIM, or its .block_dim, cores; PARAMS: `.param` overrides; ISA: the instruction set,
    as for `run`). Its replies quote a diagnostic's source line as `pipev debug` does (not with
    SHOW_SOURCE=False)."""
    return Debugger(program, chip=chip, inputs=inputs, checks=checks, max_steps=max_steps,
                    block_dim=block_dim, params=params, show_source=show_source, isa=isa)


def sweep(program: str | Path, params=None, **options):
    """Every variant of PROGRAM, run as `pipev run -D ...` would, on local worker processes
    (default), a Dask scheduler (`executor="dask://HOST:PORT"`) or any concurrent.futures
    executor; cached and resumable. Returns a SweepResult (`rows`, `best()`, `write()`,
    `plot()`); see simulator.sweep.api for every option and docs/sweep.md."""
    from simulator.sweep import sweep as run_sweep

    return run_sweep(program, params, **options)


def __getattr__(name: str):
    if name in ("SweepResult", "SweepError"):  # imported on first use: `import pipev` stays fast
        import simulator.sweep

        return getattr(simulator.sweep, name)
    raise AttributeError(f"module 'pipev' has no attribute {name!r}")
