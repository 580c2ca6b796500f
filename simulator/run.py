"""The core's run (docs/format.md §12): `run(program_or_path, ...) -> RunResult` of a .vasm
path or text, or a Program. Nothing prints. The Python API's `pipev.run`, which takes every
language, is simulator/languages.py's. The run builder and its helpers are simulator/builder.py
(named here too, for callers that import them from this module)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from isa.chip import Chip, ChipError, get_chip
from isa.diagnostics import Diagnostic
from isa.program import Program
from simulator.builder import (  # noqa: F401  (the builder's names, as they were imported)
    Run,
    check_mode,
    gm_arrays,
    history_checks,
    load_program,
    outputs_of,
)
from simulator.errors import SimulationError
from simulator.events import Observer
from simulator.gcpace import paced_collections
from simulator.result import RunResult
from simulator.semantics import InstructionSet

__all__ = ["run", "RunResult", "Run", "check_mode", "gm_arrays", "history_checks",
           "load_program", "outputs_of"]


def run(program_or_path: Program | str | Path, *, chip: Chip | str | None = None,
        inputs: Mapping | None = None, checks: str = "error", trace: str | Path | None = None,
        trace_format: str | None = None, max_steps: int = 10_000_000,
        observers: Sequence[Observer] = (), timing: bool = True,
        block_dim: int | None = None, trace_core: int | None = None,
        params: Mapping[str, int] | None = None, trace_time: str = "cycles",
        trace_options: Mapping | None = None, fast: bool = True,
        isa: InstructionSet | None = None) -> RunResult:
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

    A path or text is `.vasm`; a Program runs as it was assembled. `simulator.languages.run`
    (pipev.run) takes a path in any language and runs a .vasm program or TIK kernel here.

    The trace's time unit: cycles, or with TRACE_TIME="real" picoseconds of the chip clock
    (Chrome trace timestamps, as `pipev run --trace-time real` writes them). Results are in
    cycles (`time_us`: microseconds at the chip's clock). Raises a DiagnosticError carrying
    every diagnostic: AssemblyError (the program does not assemble) or SimulationError
    (the run failed). Prints nothing and writes only the trace file."""
    check_mode(checks)
    if block_dim is not None and not (type(block_dim) is int and 1 <= block_dim <= 65535):
        raise ValueError(f"block_dim must be an integer in 1..65535, not {block_dim!r}")
    if chip is not None:
        try:
            chip = get_chip(chip)
        except ChipError as e:
            raise SimulationError([Diagnostic("error", str(program_or_path)[:200], 1, 1,
                                              str(e))]) from None
    from simulator.cores import Launch

    # paced from assembly until every core's run is released (simulator/gcpace.py; a
    # launch releases them): the caller's pacing comes back when what the runs built is gone,
    # not while all of it is young and in cycles (a collection that found nothing: 50 ms
    # after 4,000 distinct lines)
    with paced_collections():
        program = load_program(program_or_path, chip, checks, params, isa)
        return Launch(program, inputs, block_dim=block_dim, checks=checks, trace=trace,
                      trace_format=trace_format, max_steps=max_steps, observers=observers,
                      timing=timing, trace_core=trace_core, trace_time=trace_time,
                      trace_options=trace_options, fast=fast).execute()


