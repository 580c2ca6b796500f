"""The debugger's model of a run: the one executor plus the undo log, a position in it, and the
breakpoints and watchpoints that stop motion (ISA.md §13).

Only the frontier (the newest point) is ever executed; every other point is reached by undoing
or redoing records, so the timing model sees each instruction exactly once and reverse motion is
exact. The machine is brought to the current position lazily (`sync`) before it is inspected.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import attrs

from isa.families import CONTROL
from isa.program import Instruction, Program
from simulator.machine import Machine
from simulator.problems import Fault
from simulator.run import Run, gm_arrays
from simulator.sources import ProgramSource

from .undo import Record, Recorder, UndoLog, redo, undo

HISTORY_BYTES = 256 << 20


@attrs.define
class Break:
    """A breakpoint (kind line|label|pc|cycle, `pcs` the statements it stops at) or a
    watchpoint (kind watch, bytes [lo, hi) of `space`: None = UB, else a GM tensor)."""

    num: int
    kind: str
    what: str  # how the user wrote it, for `info break`
    pcs: frozenset[int] = frozenset()
    cycle: int = 0
    space: str | None = None
    lo: int = 0
    hi: int = 0
    hits: int = 0
    temporary: bool = False
    dtype: object = None  # a watched tensor's type, to show its values


@attrs.frozen
class Stop:
    """Why motion stopped: a message (may be empty) and whether it is an error."""

    message: str = ""
    error: bool = False
    watched: tuple = ()  # (Break, Record) of the watchpoints that fired


class Session:
    def __init__(self, program: Program, inputs: Mapping | None = None, checks: str = "error",
                 max_steps: int = 10_000_000, history_bytes: int = HISTORY_BYTES):
        self.program = program
        self.inputs = dict(inputs or {})
        self.checks = checks
        self.max_steps = max_steps
        self.history_bytes = history_bytes
        self.breaks: dict[int, Break] = {}
        self.next_num = 1
        self.interrupted = False
        self.start()

    # -- building ----------------------------------------------------------------------------
    def start(self) -> None:
        """(Re)create machine, timing model and executor: point 0, nothing executed."""
        gm = gm_arrays(self.program, self.inputs)
        self.machine = Machine(self.program.chip, gm, self.program)
        self.recorder = Recorder(self.machine)
        self.source = ProgramSource(self.program)
        self.built = Run(self.machine, self.source, checks=self.checks, max_steps=self.max_steps,
                       warnings=self.program.warnings, internal=[self.recorder])  # as `pipev run`
        self.ex = self.built.executor
        self.model = self.built.model
        self.hist = UndoLog(self.history_bytes)
        self.pos = 0  # the user's point
        self.mpos = 0  # the point the machine is at
        self.fault: str | None = None
        self.uops = 0  # micro-ops executed (not replayed)
        self.shown = 0  # diagnostics already shown
        for b in self.breaks.values():
            b.hits = 0

    @property
    def flat(self) -> list[Instruction]:
        return self.source.flat

    @property
    def finished(self) -> bool:
        return self.pos == self.hist.end and self.ex.done

    def new_diagnostics(self) -> list:
        new = self.ex.diagnostics[self.shown:]
        self.shown = len(self.ex.diagnostics)
        return new

    # -- where we are ------------------------------------------------------------------------
    def index(self) -> int:
        """Flat index of the instruction next to run (or half done); len(flat) at the end."""
        return self.hist.index_at(self.pos)

    def record(self) -> Record | None:
        """The micro-op that took us to this point."""
        return self.hist[self.pos - 1] if self.pos > self.hist.first else None

    def inside(self) -> Record | None:
        """The last micro-op done when we are inside an instruction, else None."""
        return None if self.hist.boundary(self.pos) else self.hist[self.pos - 1]

    def cycle(self, p: int | None = None) -> int:
        p = self.pos if p is None else p
        return self.hist[p - 1].cycle if p > self.hist.first else 0

    def sync(self) -> None:
        """Bring the machine to the user's point."""
        while self.mpos > self.pos:
            self.mpos -= 1
            undo(self.machine, self.hist[self.mpos])
        while self.mpos < self.pos:
            redo(self.machine, self.hist[self.mpos])
            self.mpos += 1

    # -- executing at the frontier -----------------------------------------------------------
    def _execute(self) -> bool:
        """Run the next instruction of the executor; False at the end or on an error."""
        ex, src = self.ex, self.source
        if self.fault is not None or ex.done:
            return False
        if src.at_end():
            ex.finish()
            return False
        self.sync()  # only ever called at the newest point
        index = src.index
        self.recorder.begin(index)
        try:
            ev = ex.step()
        except Fault:
            self.recorder.abandon()
            self.fault = str(ex.diagnostics[-1])
            return False
        recs = self.recorder.end(src.flat[index], src.index)
        self._time(recs, ev)
        self.hist.extend(recs, keep_from=self.pos)
        self.mpos = self.hist.end
        self.uops += len(recs)
        return True

    def _time(self, recs: list[Record], ev) -> None:
        """Cycle figures from the timing model's record published in the event."""
        t = ev.timing if ev is not None else None
        prev = self.cycle(self.hist.end)
        total = self.model.total_cycles if self.model is not None else 0
        reps = t.repeats if t is not None else ()
        for rec in recs:
            end = getattr(t, "end", total) if t is not None else total
            if rec.repeat is not None and rec.repeat < len(reps):
                end = reps[rec.repeat].end
            rec.end = int(end)
            prev = rec.cycle = max(prev, rec.end)
        recs[-1].timing = t

    # -- motion ------------------------------------------------------------------------------
    def _forward(self) -> Record | None:
        if self.pos == self.hist.end and not self._execute():
            return None
        self.pos += 1
        return self.hist[self.pos - 1]

    def forward(self, done: Callable[[Record], bool]) -> Stop:
        """Move micro-op by micro-op until DONE says so, a break/watchpoint, the end, an
        error or an interrupt."""
        return self._move(self._step_forward, done)

    def _step_forward(self) -> tuple[Record | None, Stop | None]:
        rec = self._forward()
        if rec is None:
            return None, self._why_not_forward()
        return rec, self._hit(rec)

    def _move(self, advance: Callable[[], tuple[Record | None, Stop | None]],
              done: Callable[[Record], bool]) -> Stop:
        """Advance (either way) until a stop, DONE or an interrupt; then sync the machine."""
        self.interrupted = False
        try:
            while True:
                rec, stop = advance()
                if stop is not None:
                    return stop
                if done(rec):
                    return Stop()
                if self.interrupted:
                    return Stop("interrupted")
        finally:
            self.sync()

    def _why_not_forward(self) -> Stop:
        if self.fault is not None:
            return Stop(f"{self.fault}\nthe program stopped on this error; `back` steps back "
                        "from it, `run` restarts", error=True)
        return Stop(self.finish_message())

    def finish_message(self) -> str:
        return (f"program finished: {self.ex.steps} instructions, {self.uops} micro-ops, "
                f"cycle {self.cycle()}")

    def backward(self, done: Callable[[Record], bool]) -> Stop:
        """Move back micro-op by micro-op (undoing) until DONE, a break/watchpoint, the start of
        the history or an interrupt. DONE gets the record just undone."""
        return self._move(self._step_backward, done)

    def _step_backward(self) -> tuple[Record | None, Stop | None]:
        if self.pos == self.hist.first:
            where = "the start of the program" if self.hist.first == 0 else \
                "the oldest point still in the history"
            return None, Stop(f"reached {where}")
        self.pos -= 1
        rec = self.hist[self.pos]
        prev = self.record()
        hit = self._hit(prev) if prev is not None else None
        if hit is None and self.pos == self.hist.first:
            hit = self._bp_at_boundary()
        return rec, hit

    def steps_done(self, n: int, boundaries: bool) -> Callable[[Record], bool]:
        """A DONE predicate: after N micro-ops, or N instruction boundaries reached."""
        left = [n]

        def done(rec: Record) -> bool:
            if not boundaries or self.hist.boundary(self.pos):
                left[0] -= 1
            return left[0] <= 0
        return done

    def restart(self) -> None:
        self.start()

    # -- breakpoints and watchpoints ---------------------------------------------------------
    def add(self, **kw) -> Break:
        b = Break(self.next_num, **kw)
        self.next_num += 1
        self.breaks[b.num] = b
        return b

    def _hit(self, rec: Record) -> Stop | None:
        """A break/watchpoint that fires at the current point, REC the micro-op before it."""
        msgs, watched = [], []
        for b in list(self.breaks.values()):
            if b.kind == "watch":
                w = rec.touches(b.space, b.lo, b.hi)
                if w is not None:
                    msgs.append(self._fire(b, self._watch_message(b, rec, w)))
                    watched.append((b, rec))
            elif b.kind == "cycle":
                before = self.cycle(self.pos - 1)
                if rec.cycle >= b.cycle > before:
                    msgs.append(self._fire(b, f"breakpoint {b.num}: cycle {b.cycle} reached "
                                              f"(this micro-op ended at cycle {rec.end})"))
        bp = self._bp_at_boundary() if rec.completes else None
        if bp is not None:
            msgs.append(bp.message)
        return Stop("\n".join(msgs), watched=tuple(watched)) if msgs else None

    def watched_bytes(self, b: Break, rec: Record) -> tuple[bytes, bytes]:
        """The watched bytes before and after REC (the machine being right after it)."""
        self.sync()
        new = self.machine.space(b.space)[b.lo:b.hi].tobytes()
        old = bytearray(new)
        for w in rec.writes:
            if w.space == b.space:
                lo, hi = max(b.lo, w.addr), min(b.hi, w.end)
                if lo < hi:
                    old[lo - b.lo:hi - b.lo] = w.before[lo - w.addr:hi - w.addr]
        return bytes(old), new

    def _bp_at_boundary(self) -> Stop | None:
        k = self.index()
        if k >= len(self.flat):
            return None
        instr = self.flat[k]
        if self.source.pc_start.get(instr.pc) != k:
            return None  # inside an API statement's expansion
        msgs = []
        for b in list(self.breaks.values()):
            if instr.pc in b.pcs:
                if b.temporary:
                    del self.breaks[b.num]
                    msgs.append("")
                    continue
                msgs.append(self._fire(b, f"breakpoint {b.num}, {b.what}"))
        return Stop("\n".join(m for m in msgs if m)) if msgs else None

    def _fire(self, b: Break, message: str) -> str:
        b.hits += 1
        return message

    def _watch_message(self, b: Break, rec: Record, w) -> str:
        where = f"line {rec.instr.line} (pc {rec.instr.pc}) {rec.instr.text}"
        part = ""
        lo = max(b.lo, w.addr)
        if rec.repeat is not None:
            part = f", repeat {rec.repeat}, block {block_of(rec, lo)}"
        elif hasattr(rec.op, "nburst"):
            burst, blk = dma_block(rec.op, lo)
            part = f", burst {burst}, block {blk}"
        return f"watchpoint {b.num} ({b.what}) written by {where}{part}"

    # -- loops -------------------------------------------------------------------------------
    def loops(self) -> list[tuple[Instruction, int, int]]:
        """Every backward branch (a loop) with (branch, target pc, iterations counted so far):
        taken backward branches since the loop was last left or re-entered."""
        loops = {}
        for h in self.flat:
            if h.defn.family.kind == CONTROL and "target" in h.operands \
                    and h.operands["target"].value <= h.pc:
                loops[h.pc] = h
        counts = dict.fromkeys(loops, 0)
        for rec in self.hist.between(self.hist.first, self.pos):
            ev = rec.event
            if ev is None or rec.instr.pc not in loops or not rec.completes:
                continue
            pc = rec.instr.pc
            if ev.taken:
                counts[pc] += 1
                lo = loops[pc].operands["target"].value
                for inner in loops:  # an enclosing loop re-enters the loops inside it
                    if inner != pc and lo <= loops[inner].operands["target"].value \
                            and inner < pc:
                        counts[inner] = 0
            else:
                counts[pc] = 0
        return [(h, h.operands["target"].value, counts[pc]) for pc, h in loops.items()]


def block_of(rec: Record, addr: int) -> int:
    """Block j of repeat rec.repeat whose write covers byte ADDR (the first such element)."""
    vop = rec.op
    acc = vop.access("dst")
    i = rec.repeat
    if acc.kind == "bits":
        return (addr - (acc.base + i * (vop.n // 8))) // 32
    elem = acc.base + acc.offsets(vop.repeats)[i]
    hit = vop.active[i] & (elem <= addr) & (addr < elem + acc.size)
    k = int(hit.argmax()) if hit.any() else 0
    return k // (32 // acc.size)


def dma_block(op, addr: int) -> tuple[int, int]:
    off = addr - op.dst
    pitch = op.side("dst")[1]
    return off // pitch, off % pitch // 32


def statement_pcs(program: Program, line: int) -> tuple[int, frozenset[int]]:
    """The statements at LINE, or at the first line after it that has one."""
    lines = sorted({s.line for s in program.statements if s.line >= line})
    if not lines:
        return line, frozenset()
    at = lines[0]
    return at, frozenset(s.pc for s in program.statements if s.line == at)
