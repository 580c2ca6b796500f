"""A launch of N cores (blocks) of one program, sharing GM (docs/cores.md).

Each block is one `Run`: its own Machine (UB, registers with `block_idx` and `block_num`, MASK,
CMPMASK, flags) and its own timing model, the GM arrays shared. Blocks run functionally one
after another in block order, so results are deterministic. In time, the first `vector_cores`
blocks start at cycle 0; each later block starts on the vector core that frees first (waves).
Their GM transfers share the chip's aggregate GM bandwidth (timing/bandwidth.py); a check
reports GM bytes two cores race on (crosscore.py). The launch's trace writer is one for all
blocks: every event carries its `core`.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from pathlib import Path

import attrs

from isa.diagnostics import Diagnostic
from isa.program import Program
from simulator import decodings
from simulator.builder import Run, gm_arrays, outputs_of
from simulator.errors import SimulationError
from simulator.events import Observer
from simulator.machine import Machine
from simulator.result import CoreResult, RunResult
from simulator.semantics import instruction_set_of
from simulator.sources import ProgramSource
from simulator.stats import Statistics
from simulator.summary import build_summary, core_dict, listed


class Lane(Observer):
    """The launch's trace writer as one core sees it: the launch, not each core, finishes it.
    Cores usually write one after another; a C++ kernel's SyncAll interleaves them, so a core
    that goes on after another wrote makes itself the writer's core again (`resume`)."""

    def __init__(self, writer: Observer):
        self.writer = writer
        self.wants_repeats = writer.wants_repeats
        self.core = 0

    def on_start(self, run) -> None:
        self.core = run.core
        self.writer.on_start(run)

    def _own(self) -> Observer:
        """The writer, its core this lane's (another core may have written since)."""
        if self.writer.core != self.core:
            self.writer.resume(self.core)
        return self.writer

    def on_event(self, event) -> None:
        self._own().on_event(event)

    def on_repeat(self, event, repeat) -> None:
        self._own().on_repeat(event, repeat)

    def on_error(self, diagnostic, instr) -> None:
        self._own().on_error(diagnostic, instr)


class Schedule:
    """Where and when each block of a launch runs, and what its cores share: the first
    `vector_cores` blocks start at cycle 0, each later one on the vector core that frees first
    (ties: the lowest); the GM bandwidth ledger; the cross-core race check."""

    def __init__(self, chip, n: int, timing: bool, checks: str,
                 gm_sizes: dict[str, int] | None = None):
        self.slots = min(n, chip.vector_cores)
        self.free = [(0, slot) for slot in range(self.slots)]  # (cycle it frees, vector core)
        self.waves = [0] * self.slots  # blocks each vector core has run so far
        self.ledger = self.races = None
        if n > 1:  # a launch of one core shares nothing (and imports neither)
            from simulator.crosscore import CrossCoreRaces
            from simulator.timing.bandwidth import GmBandwidth

            bandwidth = chip.gm_bytes_per_cycle
            self.ledger = GmBandwidth(bandwidth) if timing and bandwidth > 0 else None
            self.races = CrossCoreRaces(gm_sizes) if checks != "off" else None

    def begin(self) -> tuple[int, int, int]:
        """The next block's (start cycle, vector core, wave)."""
        start, slot = heapq.heappop(self.free)
        return start, slot, self.waves[slot]

    def end(self, slot: int, end: int) -> None:
        """The block on vector core SLOT finished at cycle END."""
        if self.ledger is not None:
            self.ledger.commit()
        heapq.heappush(self.free, (end, slot))
        self.waves[slot] += 1

    def observers(self) -> list[Observer]:
        return [self.races] if self.races is not None else []


class Launch:
    """Run PROGRAM on BLOCK_DIM cores (None: its `.block_dim`, else 1)."""

    def __init__(self, program: Program, inputs: Mapping | None = None, *,
                 block_dim: int | None = None, checks: str = "error",
                 trace: str | Path | None = None, trace_format: str | None = None,
                 max_steps: int = 10_000_000, observers: Sequence[Observer] = (),
                 timing: bool = True, trace_core: int | None = None,
                 trace_time: str = "cycles", trace_options: Mapping | None = None,
                 fast: bool = True):
        self.program, self.chip = program, program.chip
        self.isa = instruction_set_of(program.table)  # (what each core's run executes)
        self.fast = fast  # the run builder's choice of loop (`Run`)
        self.n = block_dim or program.block_dim
        if trace_core is not None and trace_core >= self.n:
            raise SimulationError([Diagnostic(
                "error", program.path, 1, 1, f"--core {trace_core}: the launch runs cores "
                f"0..{self.n - 1}")])
        self.checks, self.max_steps, self.timing = checks, max_steps, timing
        self.observers = list(observers)
        self.gm = gm_arrays(program, inputs)
        self.warnings = list(program.warnings)
        if block_dim is not None and program.block_dim_at is not None \
                and block_dim != program.block_dim:
            line, col = program.block_dim_at
            self.warnings.append(Diagnostic("note", program.path, line, col,
                                            f"--block-dim {block_dim} overrides .block_dim "
                                            f"{program.block_dim}"))
        # a dynamic tensor's (#29) owner maps grow with the accesses, not to its declared size
        self.schedule = Schedule(self.chip, self.n, timing, checks,
                                 {name: buf.size for name, buf in self.gm.items()
                                  if not program.tensors[name].dynamic})
        self.slots = self.schedule.slots
        self.writer = None
        if trace is not None:
            from simulator.trace import open_writer

            options = dict(trace_options or {})
            if trace_time != "cycles":
                options["time"] = trace_time
            self.writer = open_writer(trace_format, Path(trace), self.chip, program.path,
                                      timing, cores=self.n, **options)
            if trace_core is not None:
                self.writer.only_core = trace_core
        self.cores: list[CoreResult] = []
        self.stats: list[Statistics] = []
        self.per_core: list[list[Diagnostic]] = []
        self.last: Run | None = None

    # -- running -------------------------------------------------------------------------------
    def execute(self) -> RunResult:
        try:
            for block in range(self.n):
                start, slot, wave = self.schedule.begin()
                run = self._core(block, start)
                self._run_core(run, block)
                end = run.cycles() if self.timing else 0
                self.schedule.end(slot, end)
                self._record(run, block, slot, wave, start, end)
                if block < self.n - 1:  # (the last core's machine and timing make the result)
                    run.release()
        except BaseException:
            decodings.forget(self.program)  # (a failed run's store is not released)
            if self.writer is not None:
                self.writer.close(ok=False)
            raise
        result = self.result()
        self.last.release()
        self.last, self.stats = None, []
        if self.writer is not None:
            self.writer.on_finish(self.summary(result))
            try:
                self.writer.close(ok=True)
            except SimulationError as e:  # the trace could not be written: the run fails
                raise SimulationError(self.diagnostics() + e.diagnostics) from None
        return result

    def _core(self, block: int, start: int) -> Run:
        machine = Machine(self.chip, self.gm, self.program, (block, self.n))
        # the program's clean decodings, shared by its cores and its launches
        store = decodings.kept(self.program, self.checks, self.isa, machine.ub.size)
        return Run(machine, ProgramSource(self.program), checks=self.checks,
                   max_steps=self.max_steps, observers=self.observers, timing=self.timing,
                   warnings=self.warnings if block == 0 else (),
                   internal=self.schedule.observers(), core=block, origin=start,
                   gm_bandwidth=self.schedule.ledger,
                   writer=Lane(self.writer) if self.writer is not None else None,
                   fast=self.fast, isa=self.isa, decodings=store)

    def _run_core(self, run: Run, block: int) -> None:
        try:
            run.execute()
        except SimulationError as e:
            self.per_core.append(list(run.diagnostics))
            diagnostics = self.diagnostics()
            if self.writer is not None:
                try:
                    self.writer.close(ok=True)  # the user debugs with the trace
                except SimulationError as err:
                    diagnostics += err.diagnostics
            raise SimulationError(diagnostics, partial=e.partial) from None

    def _record(self, run: Run, block: int, slot: int, wave: int, start: int, end: int
                ) -> None:
        stats = run.stats
        stalls = dict(stats.stalls) if self.timing else {}
        self.cores.append(CoreResult(block, slot, wave, start, end, dict(stats.busy), stalls,
                                     stats.instructions,
                                     stats.uops, getattr(run.model, "gm_wait", 0)))
        self.stats.append(stats)
        self.per_core.append(list(run.diagnostics))
        self.last = run

    # -- the launch's figures ------------------------------------------------------------------
    def diagnostics(self) -> list[Diagnostic]:
        """Every core's diagnostics, one of each: on a launch of several cores, a diagnostic
        seen on some of them says on which (a cross-core race names its cores itself)."""
        seen: dict[Diagnostic, list[int]] = {}
        for core, diags in enumerate(self.per_core):
            for d in diags:
                cores = seen.setdefault(d, [])
                if not cores or cores[-1] != core:  # cores come in order: no search
                    cores.append(core)
        if self.n == 1:
            return list(self.per_core[0]) if self.per_core else []
        races = self.schedule.races
        out = []
        for d, cores in seen.items():
            if d.severity != "note" and (races is None or races.race_of(d.message) is None):
                d = attrs.evolve(d, message=d.message + _on_cores(cores, self.n))
            out.append(d)
        return races.merged(out) if races is not None else out

    def result(self) -> RunResult:
        run = self.last
        assert run is not None
        cycles = max((c.end for c in self.cores), default=0)
        busy = summed(c.pipes for c in self.cores)
        stalls = summed(c.stalls for c in self.cores) if self.timing else {}
        hot = merged_hot_lines(self.stats) if self.timing else []
        ub = run.machine.ub.view()
        ub.setflags(write=False)
        return RunResult(self.program, outputs_of(self.program, run.machine), cycles,
                         cycles / self.chip.clock_mhz, busy, self.diagnostics(), ub,
                         sum(c.instructions for c in self.cores),
                         sum(c.uops for c in self.cores), stalls, hot, self.chip,
                         self.program.path, run.model.snapshot() if run.model else None,
                         tuple(run.machine.x[:32]), tuple(self.cores), self.slots)

    def summary(self, result: RunResult) -> dict:
        timed = self.timing
        return build_summary(self.chip, result.cycles, result.pipes, result.instructions,
                             result.uops, result.warnings, None,
                             result.stalls if timed else None,
                             result.hot_lines if timed else None,
                             [core_dict(c) for c in self.cores] if self.n > 1 else None,
                             self.slots)


def _on_cores(cores: list[int], n: int) -> str:
    if len(cores) == n:
        return f" (all {n} cores)"
    if len(cores) == 1:
        return f" (core {cores[0]})"
    return f" (cores {listed(cores)})"


def summed(dicts) -> dict[str, int]:
    """The per-key sums of DICTS (each core's pipe or stall figures, for the whole launch)."""
    out: dict[str, int] = {}
    for d in dicts:
        for k, v in d.items():
            out[k] = out.get(k, 0) + v
    return out


def merged_hot_lines(stats: list[Statistics]) -> list[dict]:
    """The hot lines of the whole launch: each line's busy cycles summed over the cores."""
    if len(stats) == 1:
        return stats[0].hot_lines()
    total = Statistics()
    total.path, total.lines = stats[0].path, stats[0].lines
    for s in stats:
        total.add(s)
    return total.hot_lines()
