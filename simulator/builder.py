"""Building a run (docs/format.md §12): load a program and its GM inputs, and the one run builder
(`Run`) that `run`, `debug`, the stream, the front ends and each core of a launch use."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from isa import assemble
from isa.chip import Chip
from isa.diagnostics import AssemblyError, Diagnostic, did_you_mean
from isa.inits import load_npy
from isa.program import Program, Tensor
from isa.types import from_npy, npy_count, npy_what, to_npy
from simulator.decodings import Decodings
from simulator.errors import SimulationError
from simulator.events import Observer
from simulator.executor import Executor
from simulator.fused import FastLoop, offered
from simulator.gcpace import paced_collections
from simulator.machine import Machine
from simulator.problems import Fault
from simulator.result import RunResult
from simulator.semantics import BUILTIN, InstructionSet, instruction_set_of
from simulator.sources import ProgramSource
from simulator.stats import Statistics
from simulator.summary import build_summary


def load_program(program_or_path: Program | str | Path, chip: Chip | str | None = None,
                 checks: str = "error", params: Mapping[str, int] | None = None,
                 isa: InstructionSet | None = None) -> Program:
    """A Program from a Program, a path, or program text (a string containing a newline)
    assembled with ISA's instructions (None: pipev's own); PARAMS overrides its `.param`
    values (an assembled Program takes neither)."""
    if isinstance(program_or_path, Program):
        if params:
            raise ValueError("params apply when assembling: pass the path or the text")
        if isa is not None and instruction_set_of(program_or_path.table) is not isa:
            raise ValueError("isa applies when assembling: the program was assembled with "
                             "another instruction set")
        return program_or_path
    if isa is None:
        isa = BUILTIN
    if isinstance(program_or_path, str) and "\n" in program_or_path:
        return assemble(program_or_path, None, chip, checks, params, isa)
    path = Path(program_or_path)
    try:
        text = path.read_bytes().decode("utf-8-sig")  # a leading BOM is not text
    except UnicodeDecodeError as e:
        raise AssemblyError([Diagnostic("error", str(path), 1, 1,
                                        f"the program is not UTF-8 text ({e.reason} at byte "
                                        f"{e.start})")]) from None
    except OSError as e:
        raise AssemblyError([Diagnostic("error", str(path), 1, 1,
                                        f"cannot read program: {e.strerror}")]) from None
    return assemble(text, str(path), chip, checks, params, isa)


def _input_error(program: Program, tensor: Tensor | None, message: str) -> Diagnostic:
    line, col = (tensor.line, tensor.col) if tensor is not None else (1, 1)
    return Diagnostic("error", program.path, line, col, message)


def gm_arrays(program: Program, inputs: Mapping[str, np.ndarray | str | Path] | None
              ) -> dict[str, np.ndarray]:
    """Each GM tensor's initial bytes: supplied input, else its INIT, else zeros."""
    inputs = dict(inputs or {})
    errors: list[Diagnostic] = []
    gm: dict[str, np.ndarray] = {}
    tensors = program.gm  # (a dict made at each read)
    declared = [n for n, t in tensors.items() if t.role in ("input", "inout")]
    listed = f"its inputs: {', '.join(declared)}" if declared else "it declares no inputs"
    for name in inputs:
        t = program.tensors.get(name)
        if t is None:
            errors.append(_input_error(program, None, f"--input {name}: the program declares "
                                       f"no GM input '{name}' ({listed})"
                                       f"{did_you_mean(name, declared)}"))
        elif t.space != "gm":
            errors.append(_input_error(program, t, f"--input {name}: '{name}' is a UB tensor; "
                                       f"--input supplies GM inputs ({listed})"))
        elif t.role not in ("input", "inout"):
            what = "an output" if t.role == "output" else "constant data"
            errors.append(_input_error(program, t, f"--input {name}: '{name}' is {what}, not "
                                       f"an input (declare it `input` or `inout` to supply it; "
                                       f"{listed})"))
    for name, t in tensors.items():
        if t.alias_of:  # another tensor's bytes (below)
            continue
        data = None
        if name in inputs and t.role in ("input", "inout"):
            data = _supplied(program, t, inputs[name], errors)
        elif t.init is not None and t.init.data is not None:
            data = t.init.data.copy()
        elif t.role in ("input", "inout") and (t.init is None):
            errors.append(_input_error(program, t, f"input '{name}' is required: give "
                                       f"--input {name}=FILE.npy ({t.dtype.name}[{t.count}])"))
        gm[name] = data if data is not None else np.zeros(t.nbytes, np.uint8)
    for name, t in tensors.items():
        if t.alias_of:  # the same array: a write through either name is the other's
            gm[name] = gm[t.alias_of]
    if errors:
        raise SimulationError(errors)
    return gm


def _supplied(program: Program, t: Tensor, value, errors: list) -> np.ndarray | None:
    if isinstance(value, (str, Path)):
        arr, why = load_npy(Path(value))
        if arr is None:
            errors.append(_input_error(program, t, f"--input {t.name}: {why}"))
            return None
    else:
        arr = np.asarray(value)
    raw = from_npy(t.dtype, arr) if arr.dtype != object else None
    if raw is None:
        errors.append(_input_error(program, t, f"--input {t.name}: holds {arr.dtype}"
                                   f"{list(arr.shape)}, expected {npy_what(t.dtype)} for "
                                   f"{t.dtype.name}"))
        return None
    if t.dynamic and npy_count(t.dtype, arr) <= t.count:
        # bound at run time: accesses are checked against what is given as the runtime
        # allocates it (aclrtMalloc's rule, docs/decisions.md "GM slack"): rounded up to 32
        # bytes plus 32 more, zeros (a DMA's rounded-up last blocks may read past the data)
        return np.concatenate([raw.reshape(-1), np.zeros(-raw.size % 32 + 32, np.uint8)])
    if npy_count(t.dtype, arr) != t.count:
        errors.append(_input_error(program, t, f"--input {t.name}: holds "
                                   f"{npy_count(t.dtype, arr)} elements, expected {t.count}"))
        return None
    return raw.copy()


def outputs_of(program: Program, machine: Machine) -> dict[str, np.ndarray]:
    return {name: to_npy(t.dtype, _written(t, machine.gm[name]).copy()).copy()
            for name, t in program.gm.items() if t.role in ("output", "inout")}


def _written(t: Tensor, buf: np.ndarray) -> np.ndarray:
    """A dynamic tensor's bytes up to its last non-zero element (its backing is the OS's
    lazily zeroed pages: only what the kernel touched costs memory); others whole."""
    if t.data_bytes:  # data(N): the rest is an allocation's slack, no output's bytes
        return buf[:t.data_bytes]
    if not t.dynamic:
        return buf
    step, end = 1 << 26, buf.size
    while end > 0:
        nz = np.flatnonzero(buf[max(0, end - step):end])
        if nz.size:
            last = max(0, end - step) + int(nz[-1]) + 1
            return buf[:-(-last // t.dtype.size) * t.dtype.size]
        end -= step
    return buf[:0]


def history_checks(checks: str) -> list[Observer]:
    """The §9.4 init and race checks as observers; --checks=off runs without them."""
    if checks == "off":
        return []
    from simulator.hazards import HazardChecks

    return [HazardChecks()]


class Run:
    """One run, built the same way for `run`, `debug`, the streaming entry and the front ends:
    a machine, a source, the timing stage, the statistics, the hazard checks, a trace writer
    and the caller's observers, around one executor."""

    def __init__(self, machine: Machine, source, *, checks: str = "error",
                 trace: str | Path | None = None, trace_format: str | None = None,
                 trace_time: str = "cycles", trace_options: Mapping | None = None,
                 max_steps: int = 10_000_000, observers: Sequence[Observer] = (),
                 timing: bool = True, warnings: Sequence[Diagnostic] = (),
                 internal: Sequence[Observer] = (), core: int = 0, origin: int = 0,
                 gm_bandwidth=None, writer: Observer | None = None, fast: bool = True,
                 isa: InstructionSet | None = None, decodings: Decodings | None = None):
        """A core of a multi-core launch (simulator/cores.py) passes CORE (its block), ORIGIN
        (the cycle it starts), the launch's shared GM_BANDWIDTH ledger and the launch's trace
        WRITER (which the launch closes). FAST: run the fast loop (simulator/fused.py) when
        the source and every observer allow it; False runs the reference loop alone (the fast
        loop's conformance tests and benchmarks compare the two). ISA: the instruction set it
        executes (None: the one the source's program was assembled with). DECODINGS: the
        store of decodings the executor uses (a launch's: `decodings.kept`), else its own."""
        chip = machine.chip
        self.machine, self.source, self.chip = machine, source, chip
        self.model = None
        if timing:
            from simulator.timing import TimingModel

            shared = origin != 0 or gm_bandwidth is not None  # a later core of a launch
            self.model = TimingModel(chip, origin, gm_bandwidth) if shared else \
                TimingModel(chip)
        self.origin = origin
        self.stats = Statistics()
        self._checks = history_checks(checks)  # the run's own (`release` lets go of them)
        obs: list[Observer] = [self.stats, *self._checks, *internal]
        self.writer = None
        if writer is not None:
            obs.append(writer)
        elif trace is not None:
            from simulator.trace import open_writer

            options = dict(trace_options or {})
            if trace_time != "cycles":
                options["time"] = trace_time
            self.writer = open_writer(trace_format, Path(trace), chip, source.path,
                                      self.model is not None, **options)
            obs.append(self.writer)
        obs.extend(observers)
        if isa is None:
            program = source.program
            isa = instruction_set_of(program.table) if program is not None else BUILTIN
        self.executor = Executor(machine, source, checks, obs, self.model, max_steps, warnings,
                                 core, isa, decodings)
        self.executor.summarize = self.summary
        # the loop that drives the executor: the fast one when every observer offers plans
        self.loop = FastLoop(self.executor) if fast and offered(source, self.model, obs) \
            else self.executor

    @classmethod
    def of_program(cls, program: Program, inputs: Mapping | None = None, **kw) -> Run:
        """The run of an assembled program (its GM inputs or INITs loaded)."""
        machine = Machine(program.chip, gm_arrays(program, inputs), program)
        return cls(machine, ProgramSource(program), warnings=program.warnings, **kw)

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return self.executor.diagnostics

    def execute(self) -> None:
        """Run to the end; on an error the trace is kept (the user debugs with it) and
        SimulationError carries every diagnostic."""
        try:
            with paced_collections():
                self.loop.run()
        except Fault:
            self.close_trace_after_error()
            raise SimulationError(self.diagnostics, partial=self.machine) from None
        except BaseException:
            self.close(ok=False)
            raise
        self.close()

    def release(self) -> None:
        """Let go of what the finished run built, its results taken (a launch's: once its
        RunResult is made). The executor, its loop and plans and the decodings (whose memos
        hold bodies and hazard steps) refer to one another through bound methods and closures
        kept in their own tables: left so, the run, its decodings and the program its result
        holds wait for the cycle collector, whose pass over them outweighed freeing them here
        (docs/decisions.md). So the decodings' memos and the checks' logs of instructions are
        emptied (each part's own `release`), then the executor's and the loop's attributes.
        The timing stage, the statistics (a launch sums every core's) and the observers keep
        what they hold (their figures stay readable). Not to be run after."""
        for part in {id(p): p for p in (*self._checks, self.model, self.executor,
                                        self.loop)}.values():  # (the loop may be the executor)
            own = getattr(part, "release", None)
            if own is not None:
                own()
        for part in {id(p): p for p in (self.loop, self.executor)}.values():
            vars(part).clear()  # (one object when the loop is the executor: no plans)
        vars(self).clear()

    def close_trace_after_error(self) -> None:
        if self.writer is not None:
            try:
                self.writer.close(ok=True)
            except SimulationError as e:
                self.diagnostics.extend(e.diagnostics)

    def close(self, ok: bool = True) -> None:
        """Finish the trace (ok=False: discard it, e.g. when interrupted)."""
        if self.writer is not None:
            self.writer.close(ok=ok)

    def cycles(self) -> int:
        return self.model.total_cycles if self.model is not None else 0

    def summary(self, outputs: dict[str, str] | None = None) -> dict:
        """The `run --json` object and every trace's summary."""
        return build_summary(self.chip, self.cycles(), self.stats.busy, self.stats.instructions,
                             self.stats.uops, [d for d in self.diagnostics
                                               if d.severity != "error"], outputs,
                             self.stats.stalls if self.model is not None else None,
                             self.stats.hot_lines() if self.model is not None else None)

    def result(self, program: Program | None, outputs: dict[str, np.ndarray]) -> RunResult:
        cycles = self.cycles()
        ub = self.machine.ub.view()
        ub.setflags(write=False)
        timed = self.model is not None
        return RunResult(program, outputs, cycles, cycles / self.chip.clock_mhz,
                         dict(self.stats.busy), self.diagnostics, ub, self.stats.instructions,
                         self.stats.uops, dict(self.stats.stalls) if timed else {},
                         self.stats.hot_lines() if timed else [], self.chip, self.source.path,
                         self.model.snapshot() if timed else None, tuple(self.machine.x[:32]))


def check_mode(checks: str) -> None:
    if checks not in ("error", "warn", "off"):
        raise ValueError(f"checks must be error, warn or off, not {checks!r}")
