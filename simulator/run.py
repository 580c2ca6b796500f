"""The Python API (ISA.md §12): `run(program_or_path, ...) -> RunResult`. Nothing prints."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import attrs
import numpy as np

from isa import assemble
from isa.chip import Chip, ChipError, get_chip
from isa.diagnostics import AssemblyError, Diagnostic
from isa.inits import load_npy
from isa.program import Program, Tensor
from isa.table import PIPES
from isa.types import from_npy, npy_count, to_npy
from simulator.errors import Fault, SimulationError
from simulator.events import Observer
from simulator.executor import Executor
from simulator.machine import Machine


@attrs.frozen(eq=False)
class RunResult:
    program: Program
    outputs: dict[str, np.ndarray]
    cycles: int
    time_us: float
    pipes: dict[str, int]
    diagnostics: list[Diagnostic]
    ub: np.ndarray
    instructions: int
    uops: int
    timing: object = None  # the timing model, when one ran

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity != "error"]


def load_program(program_or_path: Program | str | Path, chip: Chip | str | None = None,
                 checks: str = "error") -> Program:
    """A Program from a Program, a path, or program text (a string containing a newline)."""
    if isinstance(program_or_path, Program):
        return program_or_path
    if isinstance(program_or_path, str) and "\n" in program_or_path:
        return assemble(program_or_path, None, chip, checks)
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
    return assemble(text, str(path), chip, checks)


def _input_error(program: Program, tensor: Tensor | None, message: str) -> Diagnostic:
    line, col = (tensor.line, tensor.col) if tensor is not None else (1, 1)
    return Diagnostic("error", program.path, line, col, message)


def gm_arrays(program: Program, inputs: Mapping[str, np.ndarray | str | Path] | None
              ) -> dict[str, np.ndarray]:
    """Each GM tensor's initial bytes: supplied input, else its INIT, else zeros."""
    inputs = dict(inputs or {})
    errors: list[Diagnostic] = []
    gm: dict[str, np.ndarray] = {}
    for name in inputs:
        t = program.tensors.get(name)
        if t is None or t.space != "gm" or t.role not in ("input", "inout"):
            errors.append(_input_error(program, t if t is not None and t.space == "gm" else None,
                                       f"--input {name}: the program declares no GM input "
                                       f"'{name}'"))
    for name, t in program.gm.items():
        data = None
        if name in inputs and t.role in ("input", "inout"):
            data = _supplied(program, t, inputs[name], errors)
        elif t.init is not None and t.init.data is not None:
            data = t.init.data.copy()
        elif t.role in ("input", "inout") and (t.init is None):
            errors.append(_input_error(program, t, f"input '{name}' is required: give "
                                       f"--input {name}=FILE.npy ({t.dtype.name}[{t.count}])"))
        gm[name] = data if data is not None else np.zeros(t.nbytes, np.uint8)
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
                                   f"{list(arr.shape)}, expected {t.dtype.npy} for "
                                   f"{t.dtype.name}"))
        return None
    if npy_count(t.dtype, arr) != t.count:
        errors.append(_input_error(program, t, f"--input {t.name}: holds "
                                   f"{npy_count(t.dtype, arr)} elements, expected {t.count}"))
        return None
    return raw.copy()


def outputs_of(program: Program, machine: Machine) -> dict[str, np.ndarray]:
    return {name: to_npy(t.dtype, machine.gm[name].copy()).copy()
            for name, t in program.gm.items() if t.role in ("output", "inout")}


class _Counter(Observer):
    """Counts executed hardware instructions and micro-ops (repeats of vector instructions)."""

    def __init__(self):
        self.instructions = 0
        self.uops = 0

    def on_event(self, event) -> None:
        self.instructions += 1
        self.uops += event.vop.repeats if event.vop is not None else 1


def history_checks(checks: str) -> list[Observer]:
    """The §9.4 init and race checks as observers; --checks=off runs without them."""
    if checks == "off":
        return []
    from simulator.history import History

    return [History()]


def run(program_or_path: Program | str | Path, *, chip: Chip | str | None = None,
        inputs: Mapping | None = None, checks: str = "error", trace: str | Path | None = None,
        trace_format: str = "jsonl", max_steps: int = 10_000_000,
        observers: Sequence[Observer] = (), timing: bool = True) -> RunResult:
    """Assemble (if needed) and run a program. Raises SimulationError (or AssemblyError, its
    sibling) carrying every diagnostic; prints nothing and writes only the trace file."""
    if checks not in ("error", "warn", "off"):
        raise ValueError(f"checks must be error, warn or off, not {checks!r}")
    if chip is not None:
        try:
            chip = get_chip(chip)
        except ChipError as e:
            raise SimulationError([Diagnostic("error", str(program_or_path)[:200], 1, 1,
                                              str(e))]) from None
    program = load_program(program_or_path, chip, checks)
    gm = gm_arrays(program, inputs)
    machine = Machine(program, gm)
    counter = _Counter()
    obs: list[Observer] = []
    model = None
    if timing:
        from simulator.timing import TimingModel

        model = TimingModel(program.chip)
        obs.append(model)
    obs.append(counter)
    obs.extend(history_checks(checks))
    writer = None
    if trace is not None:
        from simulator.trace import open_writer

        writer = open_writer(trace_format, Path(trace), program, model)
        obs.append(writer)
    obs.extend(observers)
    ex = Executor(program, machine, checks, obs, max_steps)
    try:
        ex.run()
    except Fault:
        if writer is not None:  # the trace of a failed run is what the user debugs with
            try:
                writer.close(ok=True)
            except SimulationError as e:
                ex.diagnostics.extend(e.diagnostics)
        raise SimulationError(ex.diagnostics, partial=machine) from None
    except BaseException:
        if writer is not None:  # interrupted: leave no temporary file behind
            writer.close(ok=False)
        raise
    if writer is not None:
        writer.close(ok=True)
    clock = program.chip.clock_mhz
    cycles = model.total_cycles if model is not None else 0
    ub = machine.ub.view()
    ub.setflags(write=False)
    return RunResult(program, outputs_of(program, machine), cycles, cycles / clock,
                     model.busy if model is not None else dict.fromkeys(PIPES, 0),
                     ex.diagnostics, ub, counter.instructions, counter.uops, model)
