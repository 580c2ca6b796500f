"""The run's statistics: one observer whose counts feed both RunResult and every trace's
summary — instructions, micro-ops, busy cycles per pipe, stall cycles by cause and the source
lines with the most busy cycles (hot lines). Cycle figures come from the timing model's records
published in the events; with timing off they stay zero.

A line of the program's own is a slot of one int64 array indexed by line number (8 bytes a
line, however often it runs: a dict keyed by (file, line) cost ~110 bytes per executed line); a
statement of another file (a stream's or a .loc line) is keyed by (file, line)."""

from __future__ import annotations

import heapq
from array import array
from collections import defaultdict
from collections.abc import Callable

import numpy as np

from isa.lexer import strip_comment
from isa.table import PIPES
from simulator.events import Event, Observer, RunInfo
from simulator.plans import Booked, ObserverPlan, Planned

STALLS = ("flag_wait", "queue_full", "bank_conflict", "barrier")
HOT_LINES = 3
GROW = 4096  # lines past the program's own that the array may hold (a stream's file "" lines)


class Statistics(Observer):
    plans_runs = True  # (its plan counts a run's instructions by `Booked.executions`)

    def __init__(self):
        self.instructions = 0
        self.uops = 0
        self.busy = dict.fromkeys(PIPES, 0)
        self.stalls = dict.fromkeys(STALLS, 0)
        # busy cycles of the program's own line k (file ""): own[k]; grown in place, so
        # whoever holds it keeps the same array
        self.own = array("q")
        self.limit = GROW  # the array holds lines [0, limit)
        self.line_cycles: dict[tuple[str, int], int] = defaultdict(int)  # other files' lines
        # a streamed statement's first event, for its text (program lines come from the source;
        # holding every line's event would keep them all alive)
        self.line_event: dict[tuple[str, int], Event] = {}
        self.path = ""
        self.lines: tuple[str, ...] = ()

    def on_start(self, run: RunInfo) -> None:
        self.path, self.lines = run.path, run.lines
        self.limit = len(self.lines) + 1 + GROW
        self._grow(len(self.lines))

    def on_event(self, ev: Event) -> None:
        self.instructions += 1
        self.uops += ev.repeats
        t = ev.timing
        if t is None:
            return
        busy = self.busy
        busy[t.pipe] += t.busy
        if t.issue_cost:
            busy["S"] += t.issue_cost
        instr = ev.instr
        if instr.file or not self.own_line(instr.line, t.busy):
            self.line_busy(instr, t.busy, lambda _: ev)
        if t.wait_flag:
            self.stalls["flag_wait"] += t.wait_flag
        if t.bank_extra:
            self.stalls["bank_conflict"] += t.bank_extra
        if t.wait_issue:
            self.stalls["barrier" if t.pipe == "S" else "queue_full"] += t.wait_issue

    def plan(self, planned: Planned) -> ObserverPlan | None:
        """`on_event` for PLANNED's executions (simulator/plans.py): with timing, each adds its
        busy cycles to its line (the program's own lines through the plan's per-line sink);
        the counts and the other sums wait for the settle. A subclass that counts differently
        declines."""
        if type(self).on_event is not Statistics.on_event:
            return None
        pipe, r, timed = planned.pipe, planned.repeats, planned.timed

        def settle(done: Booked) -> None:
            n = done.executions
            self.instructions += n
            self.uops += n * r
            if timed and n:
                self.busy[pipe] += done.busy
                self.busy["S"] += done.issue_cost
                self.stalls["barrier" if pipe == "S" else "queue_full"] += done.wait_issue
                self.stalls["bank_conflict"] += done.bank_extra
        if not timed:
            return ObserverPlan(None, settle)
        line_busy, event = self.line_busy, planned.event
        cycles = self.line_cycles

        last = last_key = None  # the last instruction found here and its line's key

        def elsewhere(instr, busy: int, taken: bool) -> None:
            nonlocal last, last_key
            if instr is last:  # a stream's statement issues the same instructions again
                cycles[last_key] += busy
                return
            file = instr.body.file  # (the body's field once: a stream's every instruction)
            if file:  # a streamed line seen before: `line_busy`'s last step alone
                key = (file, instr.line)
                if key in cycles:  # (a streamed line's key stays: only own lines move)
                    last, last_key = instr, key
                    cycles[key] += busy
                    return
            line_busy(instr, busy, lambda i: event(i, taken))

        def slot(instr) -> tuple[dict, tuple[str, int]] | None:
            key = (instr.body.file, instr.line)
            return (cycles, key) if key[0] and key in cycles else None
        # the program's own lines go straight to own[line] (the loop adds them: `lines`); a
        # plan's instructions share their body, so their file
        return ObserverPlan(elsewhere, settle, (self.own, self.own_slots(planned.instr.file)),
                            slot)

    def own_line(self, line: int, busy: int) -> bool:
        """BUSY cycles to the program's own LINE; False for a line the array does not hold
        (outside [0, limit): a stray number must not allocate), which the dict then holds —
        always the same place for a line, limit being fixed when the run starts."""
        own = self.own
        if not 0 <= line < len(own):
            if not 0 <= line < self.limit:
                return False
            self._grow(line)
        own[line] += busy
        return True

    def own_slots(self, file: str) -> int:
        """The slots of `own` a caller may add a line's busy cycles to directly (lines 1 up to
        it: the array only grows): all of them for the program's own lines (FILE ""), none for
        another file's."""
        return len(self.own) if not file else 0

    def _grow(self, line: int) -> None:
        """Slots up to LINE (in place)."""
        if line >= len(self.own):
            self.own.frombytes(bytes(8 * (line + 1 - len(self.own))))

    def line_busy(self, instr, busy: int, event_of: Callable[[object], Event]) -> None:
        """BUSY cycles to INSTR's source line; a streamed (.loc) line keeps its first event,
        event_of(instr), for its text (a plan builds events only for that)."""
        if not instr.file and self.own_line(instr.line, busy):
            return
        key = (instr.file, instr.line)
        cycles = self.line_cycles
        if instr.file and key not in cycles:
            self.line_event[key] = event_of(instr)
        cycles[key] += busy

    def add(self, other: Statistics) -> None:
        """OTHER's per-line cycles added to these (a launch's hot lines over its cores)."""
        if other.limit > self.limit:  # lines the array now holds move there (one place a line)
            self.limit = other.limit
            for key in [k for k in self.line_cycles if not k[0] and 0 <= k[1] < self.limit]:
                self.own_line(key[1], self.line_cycles.pop(key))
        if len(other.own):  # other.own holds lines below other.limit <= self.limit
            self._grow(len(other.own) - 1)
            np.frombuffer(self.own, np.int64)[:len(other.own)] += np.frombuffer(other.own,
                                                                                 np.int64)
        for (f, ln), c in other.line_cycles.items():
            if f or not self.own_line(ln, c):
                self.line_cycles[(f, ln)] += c
        for key, ev in other.line_event.items():
            self.line_event.setdefault(key, ev)

    def _text(self, file: str, line: int) -> str:
        if file:
            return self.line_event[(file, line)].statement
        return strip_comment(self.lines[line - 1]).strip() if 0 < line <= len(self.lines) else ""

    def hot_lines(self) -> list[dict]:
        """The three source lines with the most busy cycles: file, line, text, cycles."""
        candidates = self._own_hottest()
        if self.line_cycles:
            candidates.extend(self.line_cycles.items())
        hot = heapq.nsmallest(HOT_LINES, candidates, key=lambda kv: (-kv[1], kv[0]))
        return [{"file": f or self.path, "line": ln, "text": self._text(f, ln),
                 "cycles": c} for (f, ln), c in hot if c > 0]

    def _own_hottest(self) -> list[tuple[tuple[str, int], int]]:
        """The program's own HOT_LINES hottest lines with busy cycles, ties to the lower line
        (argmax takes the first of equal values): with every other file's line, a superset
        of the hot lines, without a Python object per program line. (Three argmaxes over a
        copy: a third of the numpy calls a partition and its tie rule took.)"""
        out: list[tuple[tuple[str, int], int]] = []
        if not len(self.own):
            return out
        own = np.array(self.own, np.int64)
        for _ in range(HOT_LINES):
            k = int(own.argmax())
            cycles = int(own[k])
            if cycles <= 0:
                break
            out.append((("", k), cycles))
            own[k] = 0
        return out
