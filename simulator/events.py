"""The observer contract (public: `pipev.Observer`, `pipev.Event`): what the executor tells
whoever watches a run. Timing, trace writers, statistics, hazard checks, the debugger and users'
own observers all subscribe the same way and see nothing but these objects.

An `Event` is one executed hardware instruction. Its documented attributes are everything an
analysis needs; the timing model, which always runs first, publishes its figures into the event
(`issue`, `start`, `end`, `busy`, `beats`) before any other observer sees it. With timing off
those are None. Nothing is built when nobody listens.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from isa.decode import DmaOp, VectorOp
from isa.nddma import NdDmaOp
from simulator.plans import FamilyFacts, ObserverPlan, Planned

if TYPE_CHECKING:  # pragma: no cover
    from isa.chip import Chip
    from isa.diagnostics import Diagnostic
    from isa.program import Instruction
    from simulator.instr_timing import InstrTiming


def _timed(field: str, doc: str) -> property:
    """An event attribute read from the timing model's record (None with timing off)."""
    def get(ev: Event) -> int | None:
        t = ev.timing
        return getattr(t, field) if t is not None else None
    return property(get, doc=doc)


class Event(FamilyFacts):
    """One executed hardware instruction.

    Attributes: `seq` (0-based position in the executed stream), `file`, `line`, `col` (the
    source statement's position), `mnemonic` (the hardware instruction, e.g. `vsel.f32`),
    `statement` (the source statement it came from), `text` (the instruction's canonical text),
    `pipe` (S, V, MTE2, MTE3), `kind` (the family's kind: vector, dma, cmpmask_move, register,
    set_flag, wait_flag, barrier, scalar, control), `repeats` (micro-ops), `reads` / `writes`
    (UB byte ranges as `(start, end)` pairs, end exclusive; CMPMASK moves included),
    `gm_reads` / `gm_writes` (`(tensor, start, end)` of DMA), `reads_cmpmask` /
    `writes_cmpmask`, `mask` (MASK_HI, MASK_LO) and `mask_mode` (`norm` / `count`) at issue,
    `mask_after` / `mask_mode_after`, `cmpmask` (CMPMASK after it, as an int), `flag` ((src, dst,
    id) of set_flag / wait_flag), `taken` (a taken branch), `core` (the block of a multi-core
    launch that executed it, 0..N-1), and with timing on `issue`, `start`,
    `end`, `busy` (the cycles it occupied its pipe; a wait counts only its last cycle),
    `issue_busy` (the cycles S spent issuing it) and `beats` (per-repeat cycles), all None with
    timing off. `op` is the decoded operation
    (VectorOp, DmaOp, CmpmaskMove or None) for pipev's own observers.
    """

    __slots__ = ("seq", "instr", "pipe", "op", "repeats", "flag", "taken", "mask", "counter",
                 "mask_after", "counter_after", "_cmpmask", "timing", "_source", "_ranges",
                 "core")

    def __init__(self, seq: int, instr: Instruction, pipe: str, op: Any, repeats: int, flag,
                 taken: bool, mask: tuple[int, int], counter: bool,
                 mask_after: tuple[int, int], counter_after: bool, cmpmask: bytes, source):
        self.seq = seq
        self.instr = instr
        self.pipe = pipe
        self.op = op
        self.repeats = repeats
        self.flag = flag
        self.taken = taken
        self.mask = mask
        self.counter = counter
        self.mask_after = mask_after
        self.counter_after = counter_after
        self._cmpmask = cmpmask
        self.timing: InstrTiming | None = None
        self._source = source
        self._ranges = None
        self.core = 0  # the block (core) of a launch that executed it

    # -- where it came from ------------------------------------------------------------------
    @property
    def file(self) -> str:
        return self.instr.file or self._source.path

    @property
    def line(self) -> int:
        return self.instr.line

    @property
    def col(self) -> int:
        return self.instr.col

    @property
    def mnemonic(self) -> str:
        return self.instr.head

    @property
    def text(self) -> str:
        return self.instr.text

    @property
    def statement(self) -> str:
        return self._source.statement_text(self.instr)

    # -- what it did -------------------------------------------------------------------------
    @property
    def vop(self):
        """The VectorOp of a vector instruction, else None."""
        op = self.op
        return op if op.__class__ is VectorOp else None

    @property
    def dma(self):
        op = self.op
        return op if op.__class__ is DmaOp or op.__class__ is NdDmaOp else None

    def ub_ranges(self) -> tuple:
        """(role, start, end, index array or None, write) of every UB operand, computed once
        per decoding."""
        if self._ranges is None:
            op = self.op
            self._ranges = op.ub_ranges() if op is not None else ()
        return self._ranges

    def compact(self) -> None:
        """Drop what was computed lazily (the byte ranges, which may hold per-byte index
        arrays): for observers that keep events after the run moved on (the debugger's log)."""
        self._ranges = None

    @property
    def reads(self) -> list[tuple[int, int]]:
        return _spans(r for r in self.ub_ranges() if not r[4])

    @property
    def writes(self) -> list[tuple[int, int]]:
        return _spans(r for r in self.ub_ranges() if r[4])

    @property
    def gm_reads(self) -> list[tuple[str, int, int]]:
        return self._gm(False)

    @property
    def gm_writes(self) -> list[tuple[str, int, int]]:
        return self._gm(True)

    def _gm(self, write: bool) -> list[tuple[str, int, int]]:
        op = self.dma
        if op is None:
            return []
        role = "dst" if write else "src"
        space = op.space_of(role)
        if space is None:
            return []
        return [(space, a, a + n) for a, n in op.runs(role)]

    @property
    def mask_mode(self) -> str:
        return "count" if self.counter else "norm"

    @property
    def mask_mode_after(self) -> str:
        return "count" if self.counter_after else "norm"

    @property
    def cmpmask(self) -> int:
        return int.from_bytes(self._cmpmask, "little")

    # -- timing, published by the timing model (None with timing off) ------------------------
    issue = _timed("issue", "cycle S issued it")
    start = _timed("start", "cycle its pipe started it")
    end = _timed("end", "cycle it completed")
    busy = _timed("busy", "cycles it occupied its pipe (a wait counts only its last cycle)")
    issue_busy = _timed("issue_cost", "cycles S spent issuing it into its queue (0 for S's own)")

    @property
    def beats(self) -> list[int] | None:
        t = self.timing
        if t is None:
            return None
        return [int(b) for b in t.beats] if t.beats is not None else []

    def __repr__(self) -> str:
        return f"<Event {self.seq} {self.file}:{self.line} {self.text} on {self.pipe}>"


def _spans(ranges) -> list[tuple[int, int]]:
    out = []
    for _, lo, hi, idx, _ in ranges:
        if idx is None:
            out.append((lo, hi))
            continue
        cut = np.flatnonzero(np.diff(idx) != 1) + 1
        starts = idx[np.concatenate(([0], cut))]
        ends = idx[np.concatenate((cut - 1, [idx.size - 1]))] + 1
        out.extend(zip(starts.tolist(), ends.tolist(), strict=True))
    return out


class RunInfo:
    """What an observer learns when a run starts: the chip, the program (None for a stream),
    the core (block) of a launch it runs, UB's size, the UB ranges written before the first
    instruction, and `warn`, the way an observer reports a finding as a diagnostic at an event's
    source line."""

    def __init__(self, chip: Chip, path: str, program, initialised, warn, lines=(),
                 core: int = 0):
        self.chip = chip
        self.core = core  # the block of a multi-core launch this run is
        self.path = path
        self.program = program
        self.ub_bytes = chip.ub_bytes
        self.initialised: list[tuple[int, int]] = list(initialised)
        self.lines: tuple[str, ...] = tuple(lines)
        self._warn = warn

    def warn(self, event: Event, message: str, role: str | None = None,
             once: str | None = None) -> None:
        """Report MESSAGE as a warning at EVENT's statement (at ROLE's column when given);
        ONCE names a rule that warns once per statement."""
        self._warn(event.instr, message, role, once)


class Observer:
    """Base class: override what you need. Called by the executor only, in this order:
    `on_start` once, `on_event` after each hardware instruction took effect (`on_repeat` after
    each repeat when the run goes repeat by repeat), then `on_finish` or `on_error` once.

    Two hooks serve the debugger and are part of the contract: an observer whose
    `wants_repeats` is true makes vector instructions run repeat by repeat (a class attribute,
    or a property the executor asks before each vector instruction: the debugger wants repeats
    only while stepping inside an instruction), and `before_write(instr, op, repeat)` (when
    overridden) runs just before each write to memory — op being the decoded operation, repeat
    the repeat or None for all of them.

    One hook is opt-in, for speed: `plan(planned)` (simulator/plans.py). An observer that
    overrides it may let the run's fast loop repeat an instruction without building its event:
    given the `Planned` execution, it returns an `ObserverPlan` — `each(instr, busy, taken)` after
    every execution the plan covers and `settle(booked)` once when the loop ends, either None
    when there is nothing to do — or None to decline (the loop then issues that instruction
    through the reference path, events and all). A plan must leave the observer exactly as
    `on_event` would have for the same executions. The base class declines; so an observer
    that does not override `plan` (a trace writer, the debugger, most of yours) keeps the run
    on the reference loop. `plans_runs` (a class attribute, False unless set) says its `plan`
    takes a `Planned` of several instructions an execution (`Planned.run` > 1); the fast loop
    asks only observers that say so.
    """

    wants_repeats = False
    plans_runs = False

    def on_start(self, run: RunInfo) -> None:
        """Called once before the first instruction."""

    def on_event(self, event: Event) -> None:
        """Called after each hardware instruction took effect."""

    def on_repeat(self, event: Event, repeat: int) -> None:
        """Called after each repeat, only while the run goes repeat by repeat."""

    def before_write(self, instr: Instruction, op, repeat: int | None) -> None:
        """Called before a write to memory (only when overridden)."""

    def plan(self, planned: Planned) -> ObserverPlan | None:
        """Opt-in: this observer's part of repeating PLANNED without events, or None to
        decline (see the class doc and simulator/plans.py)."""
        return None

    def on_finish(self, summary: dict) -> None:
        """Called once when the run ended normally, with the run summary (`pipev run --json`)."""

    def on_error(self, diagnostic: Diagnostic, instr: Instruction | None) -> None:
        """Called once when the run stops on an error, with the instruction at fault."""
