"""`pipev.run("kernel.cpp", ...)`: a C++ program run from Python, returning a RunResult.

The program runs as `pipev run` runs it — compiled (cached), in a worker process in the current
directory (a crash or an `exit()` in the kernel ends only the worker) — and the worker leaves
its result in a file this process reads: each launch's RunResult, the outputs (a kernel-only
run's `out:` buffers; a host program's GM buffers, as bytes, as the last launch that used them
left them), every diagnostic and the program's exit status. Nothing is printed but what the
program itself prints.
"""

from __future__ import annotations

import pickle
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

import attrs
import numpy as np

from isa.diagnostics import AssemblyError, Diagnostic
from simulator.errors import SimulationError
from simulator.result import RunResult


class CompileError(AssemblyError):
    """The C++ program did not compile: `.output` is the compiler's text, `.diagnostics` its
    `FILE:LINE:COL: error:` lines (or one at the program's first line)."""

    def __init__(self, diagnostics: list[Diagnostic], output: str = ""):
        super().__init__(diagnostics)
        self.output = output


def run_cpp(path: str | Path, *, chip=None, params: Mapping | None = None,
            includes: Sequence[str] = (), argv: Sequence[str] = (), kernel: str | None = None,
            kernel_args: Mapping | None = None, block_dim: int | None = None,
            checks: str = "error", max_steps: int = 10_000_000, trace: str | Path | None = None,
            trace_format: str | None = None, timing: bool = True) -> RunResult:
    """Compile and run PATH; see `pipev.run`. Raises CompileError, or SimulationError with
    every diagnostic of a run that failed (a crash is one at the kernel's last call)."""
    from isa.chip import ChipError, get_chip
    from simulator.ascendc.build import BuildError, compile_source
    from simulator.ascendc.driver import run_worker
    from simulator.trace import format_for

    path = str(path)
    try:
        chip_obj = get_chip(chip)
    except ChipError as e:
        raise SimulationError([Diagnostic("error", path, 1, 1, str(e))]) from None
    defines = tuple(f"{k}={v}" if v is not None else str(k)
                    for k, v in (params or {}).items())
    try:
        build = compile_source(path, npu_arch=chip_obj.npu_arch,
                               cce_aicore=chip_obj.cce_aicore, defines=defines,
                               includes=tuple(map(str, includes)), kernel=kernel)
    except BuildError as e:
        raise CompileError([e.diagnostic or _first_error(e.text, path)], e.text) from None
    with tempfile.TemporaryDirectory(prefix="pipev-api-") as tmp:
        specs = _kernel_args(kernel_args or {}, Path(tmp)) if kernel is not None else []
        result_file = Path(tmp) / "result.pickle"
        config = {"so": str(build.shared_object), "source": path, "argv": list(argv),
                  "chip": chip_obj.path or chip_obj.name, "checks": checks,
                  "max_steps": max_steps, "timing": timing,
                  "trace": str(trace) if trace is not None else None,
                  "trace_format": format_for(trace, trace_format) if trace else "jsonl",
                  "quiet": True, "kernel": kernel, "block_dim": block_dim or 1,
                  "args": specs, "result": str(result_file), "show_source": False,
                  "json": False}
        rc = run_worker(config)
        if not result_file.is_file():  # the worker died (a crash, an exit inside a kernel)
            raise SimulationError([Diagnostic("error", path, 1, 1, "the program ended without "
                                              f"a result (exit status {rc}): run it with "
                                              "`pipev run` to see where")])
        payload = pickle.loads(result_file.read_bytes())
    if not payload["ok"]:
        raise SimulationError(payload["diagnostics"])
    return _combined(path, payload)


def _kernel_args(items: Mapping, tmp: Path) -> list[dict]:
    """KERNEL_ARGS (name → array, FILE.npy/FILE.bin path, or "out:TYPE[COUNT]"), in parameter
    order, as the worker's --arg specs (arrays saved as .npy files in TMP)."""
    from simulator.ascendc.kernel_args import parse_arg

    specs = []
    for name, value in items.items():
        if isinstance(value, np.ndarray):
            file = tmp / f"{name}.npy"
            np.save(file, value, allow_pickle=False)
            value = str(file)
        try:
            specs.append(parse_arg(f"{name}={value}").to_json())
        except ValueError as e:
            raise ValueError(str(e).replace("--arg", "kernel_args")) from None
    return specs


def _first_error(text: str, path: str) -> Diagnostic:
    """The compiler's first `FILE:LINE:COL: error: MESSAGE` line as a diagnostic."""
    import re

    m = re.search(r"^(.+?):(\d+):(\d+): (?:fatal )?error: (.*)$", text, re.M)
    if m is None:
        return Diagnostic("error", path, 1, 1, text.strip().splitlines()[0] if text.strip()
                          else "the program did not compile")
    return Diagnostic("error", m[1], int(m[2]), int(m[3]), m[4])


def _combined(path: str, payload: dict) -> RunResult:
    """The program's RunResult: its one launch's, or its launches one after another (cycles,
    counts, busy cycles and stalls summed; `launches` each one's); the outputs and every
    diagnostic of the program; its exit status."""
    from simulator.cores import summed

    launches = payload["launches"]
    extra = {"outputs": payload["outputs"], "diagnostics": payload["diagnostics"],
             "exit_status": payload["exit_status"], "launches": tuple(launches)}
    if len(launches) == 1:
        return attrs.evolve(launches[0], **extra)
    chip = payload["chip"]
    cycles = sum(r.cycles for r in launches)
    empty = np.zeros(chip.ub_bytes, np.uint8)
    return RunResult(None, extra.pop("outputs"), cycles, cycles / chip.clock_mhz,
                     summed(r.pipes for r in launches), extra.pop("diagnostics"),
                     launches[-1].ub if launches else empty,
                     sum(r.instructions for r in launches), sum(r.uops for r in launches),
                     summed(r.stalls for r in launches), [], chip, path, **extra)
