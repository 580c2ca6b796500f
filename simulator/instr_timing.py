"""The timing figures an executed instruction's event carries (`event.timing`), published by
the timing model (simulator/timing). Below both the event contract and the model: events refer to
the record without depending on the model that fills it.

Per-repeat records are built lazily from the per-repeat bank beats: a 255-repeat instruction
costs one InstrTiming unless somebody reads `.repeats` (docs/performance.md: no objects per micro-op
on the hot path).
"""

from __future__ import annotations

import attrs
import numpy as np


@attrs.frozen(slots=True)
class RepeatTiming:
    index: int
    start: int
    end: int
    bank_beats: int


@attrs.define(slots=True, eq=False)
class InstrTiming:
    """Treat as read-only (it is not frozen only because frozen attrs classes are three times
    slower to build, and one is built per executed instruction)."""

    pipe: str  # S, V, MTE2, MTE3
    issue: int  # cycle S issued (or executed) it
    start: int  # cycle its queue started it (after waiting for the pipe / a flag)
    end: int  # cycle it completed
    busy: int  # cycles the pipe was busy with it (a wait_flag: only its last cycle)
    wait_flag: int = 0  # cycles spent waiting for a flag (wait_flag only)
    wait_pipe: int = 0  # cycles between issue and start spent waiting for the pipe
    head: int = 0  # head cycles before the first repeat
    # Given explicitly (`repeats=`) or built on first read from `beats` (see `repeats`).
    _repeats: tuple[RepeatTiming, ...] = attrs.field(default=(), eq=False, repr=False)
    fire: int | None = None  # set_flag: the cycle the flag fires
    wait_issue: int = 0  # cycles S stalled before issuing it (queue full, pipe_barrier ALL)
    # Vector instructions: bank beats of each repeat (docs/timing.md §T2-3) and the min_cycles /
    # partial-block padding that extends the last repeat.
    beats: np.ndarray | None = attrs.field(default=None, eq=False, repr=False)
    pad: int = 0
    bank_extra: int = 0  # cycles bank conflicts added to this instruction
    issue_cost: int = 0  # cycles S spent issuing it into its queue (0 for S's own)
    gm_wait: int = 0  # cycles other cores' GM transfers added to this one (a launch's cores)

    @property
    def repeats(self) -> tuple[RepeatTiming, ...]:
        """One record per repeat: head lies before the first, padding extends the last."""
        if self._repeats or self.beats is None or not len(self.beats):
            return self._repeats
        beats = [int(b) for b in self.beats]
        out, t = [], self.start + self.head
        for i, b in enumerate(beats):
            end = t + b + (self.pad if i == len(beats) - 1 else 0)
            out.append(RepeatTiming(i, t, end, b))
            t += b
        built = tuple(out)
        self._repeats = built
        return built
