"""What the timing model tells the trace writers about each executed instruction.

The timing model is an observer; after it has handled an event, `model.last` is the
InstrTiming of that event. Trace writers are attached after the model and read it.
"""

from __future__ import annotations

import attrs


@attrs.frozen(slots=True)
class RepeatTiming:
    index: int
    start: int
    end: int
    bank_beats: int


@attrs.frozen(slots=True)
class InstrTiming:
    pipe: str  # S, V, MTE2, MTE3
    issue: int  # cycle S issued (or executed) it
    start: int  # cycle its queue started it (after waiting for the pipe / a flag)
    end: int  # cycle it completed
    busy: int  # cycles the pipe was busy with it (a wait_flag: only its last cycle)
    wait_flag: int = 0  # cycles spent waiting for a flag (wait_flag only)
    wait_pipe: int = 0  # cycles between issue and start spent waiting for the pipe
    head: int = 0  # head cycles before the first repeat
    repeats: tuple[RepeatTiming, ...] = ()
    fire: int | None = None  # set_flag: the cycle the flag fires
