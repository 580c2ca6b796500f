"""The run's statistics: one observer whose counts feed both RunResult and every trace's
summary — instructions, micro-ops, busy cycles per pipe, stall cycles by cause and the source
lines with the most busy cycles (hot lines). Cycle figures come from the timing model's records
published in the events; with timing off they stay zero."""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Callable

from isa.lexer import strip_comment
from isa.table import PIPES
from simulator.events import Event, Observer, RunInfo

STALLS = ("flag_wait", "queue_full", "bank_conflict", "barrier")
HOT_LINES = 3


class Statistics(Observer):
    def __init__(self):
        self.instructions = 0
        self.uops = 0
        self.busy = dict.fromkeys(PIPES, 0)
        self.stalls = dict.fromkeys(STALLS, 0)
        self.line_cycles: dict[tuple[str, int], int] = defaultdict(int)
        # a streamed statement's first event, for its text (program lines come from the source;
        # holding every line's event would keep them all alive)
        self.line_event: dict[tuple[str, int], Event] = {}
        self.path = ""
        self.lines: tuple[str, ...] = ()

    def on_start(self, run: RunInfo) -> None:
        self.path, self.lines = run.path, run.lines

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
        self.line_busy(ev.instr, t.busy, lambda _: ev)
        if t.wait_flag:
            self.stalls["flag_wait"] += t.wait_flag
        if t.bank_extra:
            self.stalls["bank_conflict"] += t.bank_extra
        if t.wait_issue:
            self.stalls["barrier" if t.pipe == "S" else "queue_full"] += t.wait_issue

    def line_busy(self, instr, busy: int, event_of: Callable[[object], Event]) -> None:
        """BUSY cycles to INSTR's source line; a streamed (.loc) line keeps its first event,
        event_of(instr), for its text (the fused path builds events only for that)."""
        key = (instr.file, instr.line)
        cycles = self.line_cycles
        if instr.file and key not in cycles:
            self.line_event[key] = event_of(instr)
        cycles[key] += busy

    def _text(self, file: str, line: int) -> str:
        if file:
            return self.line_event[(file, line)].statement
        return strip_comment(self.lines[line - 1]).strip() if 0 < line <= len(self.lines) else ""

    def hot_lines(self) -> list[dict]:
        """The three source lines with the most busy cycles: file, line, text, cycles."""
        hot = heapq.nsmallest(HOT_LINES, self.line_cycles.items(),
                              key=lambda kv: (-kv[1], kv[0]))
        return [{"file": f or self.path, "line": ln, "text": self._text(f, ln),
                 "cycles": c} for (f, ln), c in hot if c > 0]
