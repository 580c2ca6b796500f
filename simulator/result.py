"""What a run produced (the Python API's `RunResult`)."""

from __future__ import annotations

import attrs
import numpy as np

from isa.chip import Chip
from isa.diagnostics import Diagnostic
from isa.program import Program
from simulator.timing.records import TimingSnapshot


@attrs.frozen
class CoreResult:
    """One core (block) of a launch: where and when it ran, and its own figures."""

    block: int  # block_idx
    slot: int  # the vector core it ran on (blocks beyond vector_cores reuse a freed one)
    wave: int  # 0 for the first vector_cores blocks, then 1, 2, ...
    start: int  # the cycle it started (0 in the first wave)
    end: int  # the cycle it finished
    pipes: dict[str, int] = attrs.field(eq=False)
    stalls: dict[str, int] = attrs.field(eq=False)
    instructions: int = 0
    uops: int = 0
    gm_wait: int = 0  # cycles the shared GM bandwidth added to its transfers

    @property
    def cycles(self) -> int:
        return self.end - self.start


@attrs.frozen(eq=False)
class RunResult:
    """What a run produced: outputs (GM output tensors as arrays), cycles and pipe busy cycles
    (a model: zero with timing off), stalls by cause, hot lines, diagnostics, the final UB.
    For a launch of N cores the figures are the whole launch's (cycles: the slowest core's end;
    busy, stalls and counts: summed over cores; UB: the last core's) and `cores` has each.
    Units: cycles of the chip's clock (`time_us` = cycles / clock MHz), busy and stall
    cycles likewise; outputs are numpy arrays of the tensors' element types."""

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
    registers: tuple[int, ...] = ()  # x0..x31 at the end (of the last core)
    cores: tuple[CoreResult, ...] = ()  # per core of the launch, in block order
    vector_cores: int = 1  # the cores the launch ran on at once
    # a C++ program's (pipev.run of .cpp/.asc): each kernel launch's own result, in order
    # (the figures above are theirs summed: launches run one after another; empty for .vasm
    # and TIK, whose run is one launch), and its exit status (None: not a host program's)
    launches: tuple[RunResult, ...] = ()
    exit_status: int | None = None

    @property
    def block_dim(self) -> int:
        return max(1, len(self.cores))

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity != "error"]
