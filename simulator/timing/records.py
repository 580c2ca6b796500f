"""The timing model's state as it reports it (the debugger's `info pipes`, RunResult.timing).
The per-instruction record the model publishes in events is simulator/instr_timing.py."""

from __future__ import annotations

import attrs

from simulator.instr_timing import InstrTiming, RepeatTiming  # the model publishes these

__all__ = ["InstrTiming", "RepeatTiming", "QueueState", "TimingSnapshot"]


@attrs.frozen
class QueueState:
    """One queue at a point of the run: end cycles of what it still holds, and when it drains."""

    inflight: tuple[int, ...]
    last_end: int
    drain_end: int


@attrs.frozen
class TimingSnapshot:
    """The model's state, typed (the debugger's `info pipes`)."""

    s_time: int
    total_cycles: int
    busy: dict[str, int]
    stalls: dict[str, int]
    queues: dict[str, QueueState]
    flags: dict[tuple[str, str, int], int]  # set flags -> the cycle they fire
