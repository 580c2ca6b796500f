"""The pipev machine: memory, registers, checks, semantics, executor, timing, traces, CLI."""

from isa.diagnostics import AssemblyError, Diagnostic
from simulator.errors import SimulationError
from simulator.languages import run
from simulator.run import RunResult

__all__ = ["run", "RunResult", "SimulationError", "AssemblyError", "Diagnostic"]
