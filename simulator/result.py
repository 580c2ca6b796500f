"""What a run produced (the Python API's `RunResult`)."""

from __future__ import annotations

import attrs
import numpy as np

from isa.chip import Chip
from isa.diagnostics import Diagnostic
from isa.program import Program
from simulator.timing.records import TimingSnapshot


@attrs.frozen(eq=False)
class RunResult:
    """What a run produced: outputs (GM output tensors as arrays), cycles and pipe busy cycles
    (a model: zero with timing off), stalls by cause, hot lines, diagnostics, the final UB."""

    program: Program | None  # None for a streamed run
    outputs: dict[str, np.ndarray]
    cycles: int
    time_us: float
    pipes: dict[str, int]
    diagnostics: list[Diagnostic]
    ub: np.ndarray
    instructions: int
    uops: int
    stalls: dict[str, int] = attrs.field(factory=dict)
    hot_lines: list[dict] = attrs.field(factory=list)
    chip: Chip | None = None
    path: str = ""
    timing: TimingSnapshot | None = None  # the timing model's final state, when one ran
    registers: tuple[int, ...] = ()  # x0..x31 at the end

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity != "error"]
