"""The debugger's model of a run: the one executor plus the undo log, a position in it, and the
breakpoints and watchpoints that stop motion (docs/format.md §13).

Only the frontier (the newest point) is ever executed; every other point is reached by undoing
or redoing records, so the timing model sees each instruction exactly once and reverse motion is
exact. The machine is brought to the current position lazily (`sync`) before it is inspected.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import attrs
import numpy as np

from isa.diagnostics import Diagnostic
from isa.families import CONTROL
from isa.program import Instruction, Program
from simulator.cores import Schedule
from simulator.gcpace import paced_collections
from simulator.machine import Machine
from simulator.problems import Fault
from simulator.run import Run, gm_arrays
from simulator.sources import ProgramSource

from .names import KernelNames
from .undo import Record, Recorder, UndoLog, Write, redo, snapshot, split_record, undo

HISTORY_BYTES = 256 << 20
# Motion collects the youngest generation every this many new objects (simulator/gcpace.py):
# the records it makes are a few small objects each and all live on (the log keeps them), so
# collecting them as often as a run's would traverse them again and again (at a run's pace,
# `continue` over 20,000 one-repeat lines varied from 69 to 300 ms; at this one, 73 to 80 ms)
MOTION_THRESHOLD = 100_000


def never(rec: Record) -> bool:
    """The DONE predicate of `continue`: motion stops only at a break/watchpoint, an error,
    the end or an interrupt."""
    return False


@attrs.define
class Break:
    """A breakpoint (kind line|label|pc|cycle, `pcs` the statements it stops at), a watchpoint
    on bytes (kind watch, bytes [lo, hi) of `space`: None = UB, else a GM tensor) or on a
    register (kind regwatch, `reg` its name as expressions spell it: `$cmpmask`)."""

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
    core: int | None = None  # the core (block) it applies to; None: every core
    reg: str | None = None
    enabled: bool = True
    condition: str | None = None  # stop only when this expression is true (its text)
    test: Callable[[], bool] | None = None  # the condition, compiled
    ignore: int = 0  # crossings still to pass without stopping (`ignore N COUNT`)

    @property
    def is_watch(self) -> bool:
        return self.kind in ("watch", "regwatch")


@attrs.frozen
class Stop:
    """Why motion stopped: a message (may be empty) and whether it is an error."""

    message: str = ""
    error: bool = False
    watched: tuple = ()  # (Break, Record) of the watchpoints that fired
    fault: Diagnostic | None = None  # the program error motion stopped at


class Session:
    def __init__(self, program: Program, inputs: Mapping | None = None, checks: str = "error",
                 max_steps: int = 10_000_000, history_bytes: int = HISTORY_BYTES,
                 werror: bool = False, block_dim: int | None = None, views=(),
                 fast: bool = True):
        """VIEWS: a C++ recording's GlobalTensor views (its kernel's GM types and names).
        FAST: `go` (continue) may take the run's plans (debugger/fast.py); False keeps every
        motion on the reference path (what the fast path is tested against)."""
        self.program = program
        self.fast = fast
        self.n = block_dim or program.block_dim  # the launch's cores, debugged one by one
        self.recorded_core: tuple[int, int] | None = None  # (K, N): see debugger.debug
        self.names = KernelNames(program, views)
        self.werror = werror  # a warning stops motion like an error and fails the session
        self.promoted = False  # a warning was made an error (`pipev debug --werror` exits 1)
        self.warned = False  # the instruction just executed warned (under werror)
        self.inputs = dict(inputs or {})
        self.checks = checks
        self.max_steps = max_steps
        self.history_bytes = history_bytes
        self.breaks: dict[int, Break] = {}
        self.next_num = 1
        self.interrupted = False
        self.by_repeat = False  # motion by micro-ops: vector instructions are split into repeats
        self.undone: list[str] = []  # the `set var`s the last backward motion undid
        self._fast = None  # the running core's DebugLoop (`go`)
        self.start()

    # -- building ----------------------------------------------------------------------------
    def start(self) -> None:
        """(Re)create machine, timing model and executor of core 0: point 0, nothing
        executed."""
        self.gm = gm_arrays(self.program, self.inputs)
        self.schedule = Schedule(self.program.chip, self.n, True, self.checks,
                                 {name: buf.size for name, buf in self.gm.items()})
        self.ends: dict[int, int] = {}  # finished cores -> their end cycle
        self.earlier: list = []  # finished cores' diagnostics
        self._start_core(0)
        for b in self.breaks.values():
            b.hits = 0

    def _start_core(self, core: int) -> None:
        """Core CORE's machine over the launch's GM, its own executor and history."""
        self.core = core
        origin, self.slot, _ = self.schedule.begin()
        self.machine = Machine(self.program.chip, self.gm, self.program, (core, self.n))
        self.recorder = Recorder(self.machine)
        self.source = ProgramSource(self.program)
        self.built = Run(self.machine, self.source, checks=self.checks, max_steps=self.max_steps,
                         warnings=self.program.warnings if core == 0 else (),
                         internal=[self.recorder, *self.schedule.observers()], core=core,
                         origin=origin, gm_bandwidth=self.schedule.ledger)  # as `pipev run`
        self.origin = origin
        self.ex = self.built.executor
        self.recorder.executor = self.ex
        self.model = self.built.model
        self.hist = UndoLog(self.history_bytes)
        self.pos = 0  # the user's point
        self.mpos = 0  # the point the machine is at
        self.fault: Diagnostic | None = None  # the error the run stopped on
        self.uops = 0  # micro-ops executed (not replayed)
        self.shown = 0  # diagnostics already shown

    def _next_core(self) -> bool:
        """The running core finished: start the next one (False when there is none)."""
        if self.fault is not None or not self.ex.done or self.core + 1 >= self.n:
            return False
        end = self.model.total_cycles if self.model is not None else 0
        self.ends[self.core] = end
        self.schedule.end(self.slot, end)
        self.earlier.extend(self.ex.diagnostics[self.shown:])
        self._start_core(self.core + 1)
        return True

    def switch(self, core: int) -> str | None:
        """Inspect core CORE: run the cores before it to their end (restarting the launch to
        reach an earlier one), breakpoints aside; stop before its first instruction. Returns
        why it cannot, or None."""
        if not 0 <= core < self.n:
            return f"core {core} does not exist (the launch runs cores 0..{self.n - 1})"
        if core == self.core:
            return None
        if core < self.core:
            self.start()
        self.pos = self.hist.end
        while self.core < core:
            while self._execute():
                self.pos = self.hist.end
            self.pos = self.hist.end
            if not self._next_core():
                self.sync()
                return f"core {self.core} stopped on an error before core {core} could start"
        self.sync()
        return None

    @property
    def flat(self) -> list[Instruction]:
        return self.source.flat

    @property
    def finished(self) -> bool:
        return self.pos == self.hist.end and self.ex.done

    def new_diagnostics(self) -> list:
        new = self.earlier + self.ex.diagnostics[self.shown:]
        self.earlier = []
        self.shown = len(self.ex.diagnostics)
        if self.werror:
            new = [attrs.evolve(d, severity="error") if d.severity == "warning" else d
                   for d in new]
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

    def pc(self) -> int:
        """The statement being run or next to run (len(statements) at the end)."""
        inside = self.inside()
        if inside is not None:
            return inside.instr.pc
        k = self.index()
        return self.flat[k].pc if k < len(self.flat) else len(self.program.statements)

    def line_start(self) -> bool:
        """Whether the next instruction starts a run of a source line's statements, as gdb's
        `next` and `reverse-next` stop: the first of its statement's instructions, after an
        instruction of another line (or of the same line's same or a later call: a loop came
        round) or at the start."""
        if not self.hist.boundary(self.pos):
            return False
        k = self.index()
        if k >= len(self.flat) or self.source.start_of(self.flat[k].pc) != k:
            return False
        p = self.pos
        while p > self.hist.first and self.hist[p - 1].label is not None:
            p -= 1  # a `set var` is no instruction
        if p == self.hist.first:
            return True
        a = self.program.statements[self.hist[p - 1].instr.pc]
        b = self.program.statements[self.flat[k].pc]
        return a.line != b.line or b.col <= a.col

    def lines_done(self, n: int) -> Callable[[Record], bool]:
        """A DONE predicate: after N starts of a source line reached (`next`, `reverse-next`)."""
        left = [n]

        def done(rec: Record) -> bool:
            if self.line_start():
                left[0] -= 1
            return left[0] <= 0
        return done

    def block(self) -> tuple[int, int]:
        """($block_idx, $block_num) of the core inspected: in a launch of several cores, or
        the launch's core a C++ recording holds."""
        return self.recorded_core or (self.core, self.n)

    def tensor(self, name: str):
        """The tensor NAME means here (the kernel's own names too: names.py), or None."""
        return self.names.tensor(name, self.pc())

    def cycle(self, p: int | None = None) -> int:
        p = self.pos if p is None else p
        return self.hist[p - 1].cycle if p > self.hist.first else self.origin

    def sync(self, target: int | None = None) -> None:
        """Bring the machine to the user's point (or to point TARGET)."""
        target = self.pos if target is None else target
        if self.mpos != target:
            self.recorder.stale = True
        while self.mpos > target:
            self.mpos -= 1
            undo(self.machine, self.hist[self.mpos])
        while self.mpos < target:
            redo(self.machine, self.hist[self.mpos])
            self.mpos += 1

    def split(self, p: int) -> None:
        """Replace bulk record P by one record per repeat (re-running its body from its
        pre-state); points after it move on by the repeats added."""
        rec = self.hist[p]
        self.sync(p)
        subs = split_record(self.machine, rec, self.cycle(p))
        self.hist.replace(p, subs)
        self.mpos = p + len(subs)
        self.recorder.stale = True
        if self.pos > p:
            self.pos += len(subs) - 1

    def at_newest(self) -> bool:
        """At the newest point, or only the user's own writes (`set var`, undone) lie ahead:
        then they are dropped, and this point is the newest."""
        ahead = list(self.hist.between(self.pos, self.hist.end))
        if any(r.label is None for r in ahead):
            return False
        if ahead:
            self.sync()
            self.hist.truncate(self.pos)
            self.mpos = self.pos
        return True

    def assign(self, label: str, space: str | None, addr: int, data: bytes | None,
               reg: int | None = None, value: int = 0) -> None:
        """`set var`: write DATA at ADDR of SPACE (or VALUE into x register REG) as one record
        of the undo log, so `back` undoes it. Only at the newest point: the executor is there."""
        self.sync()
        m = self.machine
        before = snapshot(m, self.recorder.regs)
        writes = []
        if data is not None:
            mem = m.space(space)
            writes.append(Write(space, addr, mem[addr:addr + len(data)].tobytes(), data))
            mem[addr:addr + len(data)] = np.frombuffer(data, np.uint8)
        if reg is not None:
            m.x[reg] = value & ((1 << 64) - 1)
        after = snapshot(m, before)
        k = self.index()
        instr = self.flat[min(k, len(self.flat) - 1)]
        rec = Record(k, instr, None, 0, None, writes, before, after, True, k, label=label)
        rec.end = rec.cycle = self.cycle()
        self.hist.extend([rec], keep_from=self.pos)
        self.pos = self.mpos = self.hist.end
        self.recorder.regs = after

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
        self.recorder.split = self.by_repeat
        self.recorder.begin(index)
        seen = len(ex.diagnostics)
        try:
            ev = ex.step()
        except Fault:
            self.recorder.abandon()
            self.fault = ex.diagnostics[-1]
            return False
        if self.werror and any(d.severity == "warning" for d in ex.diagnostics[seen:]):
            self.promoted = self.warned = True
        if ev is not None:
            ev.compact()  # the log keeps the event: not its per-byte ranges
        recs = self.recorder.end(src.flat[index], src.index)
        self._time(recs, ev)
        self.hist.extend(recs, keep_from=self.pos)
        self.mpos = self.hist.end
        self.uops += ev.repeats if ev is not None else len(recs)
        return True

    def _time(self, recs: list[Record], ev) -> None:
        """Cycle figures from the timing model's record published in the event (per-repeat
        ones only for an instruction split into repeats: building them costs)."""
        t = ev.timing if ev is not None else None
        prev = self.cycle(self.hist.end)
        end = self.model.total_cycles if self.model is not None else 0
        if t is not None:
            end = t.end
        reps = t.repeats if t is not None and len(recs) > 1 else ()
        for rec in recs:
            rec.end = int(reps[rec.repeat].end if rec.repeat is not None and
                          rec.repeat < len(reps) else end)
            prev = rec.cycle = max(prev, rec.end)
        recs[-1].timing = t

    # -- motion ------------------------------------------------------------------------------
    def _forward(self) -> Record | None:
        if self.pos == self.hist.end:
            if not self._execute():
                if not self._next_core() or not self._execute():  # on into the next core
                    return None
        elif self.by_repeat and self.hist[self.pos].bulk:
            self.split(self.pos)
        self.pos += 1
        return self.hist[self.pos - 1]

    def forward(self, done: Callable[[Record], bool], by_repeat: bool = False) -> Stop:
        """Move record by record until DONE says so, a break/watchpoint, the end, an error or
        an interrupt (BY_REPEAT: micro-op by micro-op)."""
        return self._move(self._step_forward, done, by_repeat)

    def go(self) -> Stop:
        """Move forward until a break/watchpoint, the end, an error or an interrupt (`continue`,
        `run`, `until`/`advance` to a location): through the run's plans wherever nothing can
        fire there (debugger/fast.py), recording every instruction as the reference path
        does; so what a later backward motion sees is the same."""
        loop = self._fast_loop()
        if loop is None:
            return self.forward(never)
        try:
            return self._move(lambda: self._step_fast(loop), never)
        finally:
            loop.settle()

    def _fast_loop(self):
        """The fast loop of the running core's executor (made once per executor), or None when
        this motion must take the reference path (`DebugLoop.can_run`)."""
        from .fast import DebugLoop

        if not self.fast:
            return None
        loop = self._fast
        if loop is None or loop.ex is not self.ex:
            loop = self._fast = DebugLoop(self)
        return loop if loop.can_run() else None

    def _step_fast(self, loop) -> tuple[Record | None, Stop | None]:
        """A stretch of planned executions, or else one step of the reference path (which
        teaches the loop that instruction's plan)."""
        if self.pos == self.hist.end and self.fault is None and not self.ex.done:
            self.sync()
            if self.recorder.stale:
                self.recorder.regs = snapshot(self.machine, self.recorder.regs)
                self.recorder.stale = False
            if loop.run_plans(loop.arm()):
                if self.fault is not None:
                    return None, self._why_not_forward()
                rec = self.hist[self.pos - 1]
                return rec, self._bp_at_boundary()  # all else was checked per plan
            if self.source.at_end():
                loop.settle()  # the executor's finish reads what the plans counted
            m, k = self.machine, self.source.index
            state = (m.mask_hi, m.mask_lo, m.counter)
            rec, stop = self._step_forward()
            if rec is not None and loop.ex is self.ex and rec.index == k < len(self.flat):
                loop.learn_after(self.flat[k], state)
            return rec, stop
        return self._step_forward()

    def _step_forward(self) -> tuple[Record | None, Stop | None]:
        rec = self._forward()
        if rec is None:
            return None, self._why_not_forward()
        hit = self._hit(rec)
        if self.warned and self.pos == self.hist.end:
            self.warned = False
            note = "stopped: --werror makes that warning an error (`continue` goes on)"
            return rec, Stop("\n".join(m for m in (hit.message if hit else "", note) if m),
                             error=True, watched=hit.watched if hit else ())
        return rec, hit

    def _move(self, advance: Callable[[], tuple[Record | None, Stop | None]],
              done: Callable[[Record], bool], by_repeat: bool = False) -> Stop:
        """Advance (either way) until a stop, DONE or an interrupt; then sync the machine.
        BY_REPEAT: every repeat of a vector instruction is a point of its own."""
        self.interrupted = False
        self.by_repeat = by_repeat
        try:
            with paced_collections(MOTION_THRESHOLD):
                while True:
                    rec, stop = advance()
                    if stop is not None:
                        return stop
                    if done(rec):
                        return Stop()
                    if self.interrupted:
                        return Stop("interrupted")
        finally:
            self.by_repeat = False
            self.sync()

    def _why_not_forward(self) -> Stop:
        if self.fault is not None:
            return Stop("the program stopped on this error; `back` steps back from it, `run` "
                        "restarts", error=True, fault=self.fault)
        return Stop(self.finish_message())

    def finish_message(self) -> str:
        if self.n > 1:
            last = max([*self.ends.values(), self.cycle()])
            return (f"program finished on all {self.n} cores: core {self.core} ran "
                    f"{self.ex.steps} instructions, {self.uops} micro-ops, to cycle "
                    f"{self.cycle()}; the launch ends at cycle {last}")
        return (f"program finished: {self.ex.steps} instructions, {self.uops} micro-ops, "
                f"cycle {self.cycle()}")

    def backward(self, done: Callable[[Record], bool], by_repeat: bool = False) -> Stop:
        """Move back record by record (undoing) until DONE, a break/watchpoint, the start of
        the history or an interrupt. DONE gets the record just undone. The user's writes it
        undid are named in `undone`; those at the end of the history are dropped (nothing ran
        after them: going forward again does not repeat them)."""
        self.undone = []
        stop = self._move(self._step_backward, done, by_repeat)
        self.at_newest()
        return stop

    def _step_backward(self) -> tuple[Record | None, Stop | None]:
        if self.pos == self.hist.first:
            where = "the start of the program" if self.hist.first == 0 else \
                "the oldest point still in the history"
            if self.core and self.hist.first == 0:
                where = (f"the start of core {self.core} (`core K` goes to an earlier core)")
            return None, Stop(f"reached {where}")
        if self.by_repeat and self.hist[self.pos - 1].bulk:
            self.split(self.pos - 1)
        self.pos -= 1
        rec = self.hist[self.pos]
        if rec.label is not None:  # a `set var` undone: no instruction, nothing to stop at
            self.undone.append(rec.label)
            return rec, None
        prev = self.record()
        hit = self._hit(prev, forward=False) if prev is not None else None
        if hit is None and self.pos == self.hist.first:
            hit = self._bp_at_boundary()
        return rec, hit

    def boundary_done(self, stop_at: Callable[[], bool]) -> Callable[[Record], bool]:
        """A DONE predicate: at the first instruction boundary where STOP_AT() holds."""
        return lambda rec: self.hist.boundary(self.pos) and stop_at()

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

    def _hit(self, rec: Record, forward: bool = True) -> Stop | None:
        """A break/watchpoint that fires at the current point, REC the micro-op before it. A
        bulk record that fires a byte watch or a cycle breakpoint is split first, so the stop
        is right after the repeat that did it (moving forward: its first repeat is checked,
        the others are stepped through; backward: its last)."""
        if not self.breaks:
            return None
        if rec.bulk and self._fires_inside(rec):
            p = self.pos - 1
            self.split(p)
            if forward:
                self.pos = p + 1
            return self._hit(self.hist[self.pos - 1], forward)
        msgs, watched = [], []
        for b in list(self.breaks.values()):
            if not b.enabled or (b.core is not None and b.core != self.block()[0]):
                continue
            if b.kind == "watch":
                w = rec.touches(b.space, b.lo, b.hi)
                if w is not None and self._passes(b):
                    msgs.append(self._fire(b, self._watch_message(b, rec, w)))
                    watched.append((b, rec))
            elif b.kind == "regwatch":
                old, new = self.reg_value(b.reg, rec.regs_before), \
                    self.reg_value(b.reg, rec.regs_after)
                if old != new and self._passes(b):
                    msgs.append(self._fire(b, f"watchpoint {b.num} ({b.what}) changed by "
                                              f"{self._writer(rec)}"))
                    watched.append((b, rec))
            elif b.kind == "cycle":
                before = self.cycle(self.pos - 1)
                if rec.cycle >= b.cycle > before and self._passes(b):
                    msgs.append(self._fire(b, f"breakpoint {b.num}: cycle {b.cycle} reached "
                                              f"(this micro-op ended at cycle {rec.end})"))
        bp = self._bp_at_boundary() if rec.completes else None
        if bp is not None:
            msgs.append(bp.message)
        return Stop("\n".join(msgs), watched=tuple(watched)) if msgs else None

    def _fires_inside(self, rec: Record) -> bool:
        """Whether a byte watch or cycle breakpoint fires on bulk record REC."""
        before = self.cycle(self.pos - 1)
        return any(b.enabled and (
            b.kind == "watch" and rec.touches(b.space, b.lo, b.hi) is not None
            or b.kind == "cycle" and rec.cycle >= b.cycle > before)
            for b in self.breaks.values())

    def _passes(self, b: Break) -> bool:
        """A crossing of B: stops when its condition holds and no ignore count is left."""
        if b.test is not None:
            self.sync()
            if not b.test():
                return False
        if b.ignore > 0:
            b.ignore -= 1
            b.hits += 1
            return False
        return True

    @staticmethod
    def reg_value(name: str, regs) -> object:
        """A watched register's value in a record's register snapshot."""
        from .expr import regs_value

        return regs_value(name, regs)

    def _writer(self, rec: Record) -> str:
        if rec.label is not None:
            return rec.label
        where = f"line {rec.instr.line} (pc {rec.instr.pc}) {rec.instr.text}"
        return where + (f", repeat {rec.repeat}" if rec.repeat is not None else "")

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
        if not self.breaks:
            return None
        k = self.index()
        if k >= len(self.flat):
            return None
        instr = self.flat[k]
        if self.source.start_of(instr.pc) != k:
            return None  # inside an API statement's expansion
        msgs = []
        for b in list(self.breaks.values()):
            if instr.pc in b.pcs and b.enabled and b.core in (None, self.block()[0]) \
                    and self._passes(b):
                if b.temporary:
                    del self.breaks[b.num]
                    if b.kind == "motion":  # until/advance: their own, silent
                        msgs.append("")
                        continue
                    msgs.append(f"temporary breakpoint {b.num}, {b.what}")
                    continue
                msgs.append(self._fire(b, f"breakpoint {b.num}, {b.what}"))
        return Stop("\n".join(m for m in msgs if m)) if msgs else None

    def _fire(self, b: Break, message: str) -> str:
        b.hits += 1
        return message

    def _watch_message(self, b: Break, rec: Record, w) -> str:
        if rec.label is not None:
            return f"watchpoint {b.num} ({b.what}) written by {rec.label}"
        where = f"line {rec.instr.line} (pc {rec.instr.pc}) {rec.instr.text}"
        part = ""
        lo = max(b.lo, w.addr)
        if rec.repeat is not None:
            part = f", repeat {rec.repeat}, block {block_of(rec, lo)}"
        elif hasattr(rec.op, "nburst") and rec.op.side("dst")[1]:  # NDDMA: no bursts
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
    if acc.kind != "vector":  # touched whole (a bit stream, a packed operand)
        return acc.block_at(i, addr)
    elem = acc.addresses(vop.repeats)[i]
    hit = vop.active[i] & (elem <= addr) & (addr < elem + acc.size)
    k = int(hit.argmax()) if hit.any() else 0
    return acc.locate(k)[1]  # element k of the repeat


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
