"""IEEE 1364 value-change dump (ISA.md §11, `vcd`), written with pyvcd; opens in GTKWave.

One time unit is one cycle. Signals: MASK_HI, MASK_LO, CMPMASK, mask_mode (0 norm, 1 count) and,
per pipe, `busy` (executing; for S also issuing to a queue), `wait` (waiting for a flag) and `pc`
(the statement it executes or issues, x when idle). Events arrive in issue order but the pipes
run in parallel, so changes wait in a small heap until no later event can precede them: every
change of an instruction lies at or after its issue cycle and S issues in order, so all changes
up to the latest issue cycle are final. The queue depth bounds what waits there. A launch of
several cores has one scope per core; their times all start near 0, so the changes of every core
but the last wait in the heap until the last core runs (memory grows with the launch).
"""

from __future__ import annotations

import heapq

from vcd import VCDWriter

from isa.diagnostics import Diagnostic
from isa.families import REGISTER
from isa.table import PIPES
from simulator.events import Event
from simulator.timing.records import InstrTiming
from simulator.trace.base import TraceWriter

ONES = (1 << 64) - 1


class VcdWriter(TraceWriter):
    def __init__(self, path, chip, name, timed, cores=1):
        self._heap: list[tuple[int, int, object, object]] = []
        self._seq = 0
        self._issue = 0
        self._regs: dict[str, int] = {"hi": ONES, "lo": ONES, "mode": 0, "cmp": 0}
        super().__init__(path, chip, name, timed, cores)

    def header(self) -> None:
        chip = self.chip
        self._issue = self.issue_cycles
        self.vcd = VCDWriter(
            self.f, timescale="1 ns", version="pipev",
            comment=f"pipev trace of {self.name} on {chip.name}: one time unit is one "
                    f"cycle of the {chip.clock_mhz:g} MHz clock (1 ns stands for 1 cycle)")
        # one scope per core of a launch (pipev.core0, pipev.core1, ...; pipev for one core)
        scopes = ["pipev"] if self.cores == 1 else [f"pipev.core{k}" for k in range(self.cores)]
        self._signals = [self._register(scope) for scope in scopes]
        self._use(0)

    def _register(self, scope: str) -> tuple:
        reg = self.vcd.register_var
        return (reg(scope, "MASK_HI", "reg", 64, init=ONES),
                reg(scope, "MASK_LO", "reg", 64, init=ONES),
                reg(scope, "CMPMASK", "reg", self.chip.cmpmask_bits, init=0),
                reg(scope, "mask_mode", "wire", 1, init=0),
                {p: reg(f"{scope}.{p}", "busy", "wire", 1, init=0) for p in PIPES},
                {p: reg(f"{scope}.{p}", "wait", "wire", 1, init=0) for p in PIPES},
                {p: reg(f"{scope}.{p}", "pc", "integer", 32, init="x") for p in PIPES})

    def _use(self, core: int) -> None:
        """Write core CORE's signals from now on (cores run one after another)."""
        (self.v_hi, self.v_lo, self.v_cmp, self.v_mode, self.v_busy, self.v_wait,
         self.v_pc) = self._signals[core]
        self._regs = {"hi": ONES, "lo": ONES, "mode": 0, "cmp": 0}

    def on_start(self, run) -> None:
        super().on_start(run)
        if self.core < len(self._signals):
            self._use(self.core)

    def _push(self, cycle: int, var, value) -> None:
        self._seq += 1
        heapq.heappush(self._heap, (cycle, self._seq, var, value))

    def _flush(self, upto: int | None) -> None:
        """Write every change at or before cycle UPTO (all when None), in time order."""
        heap, change = self._heap, self.vcd.change
        while heap and (upto is None or heap[0][0] <= upto):
            cycle = heap[0][0]
            latest: dict = {}
            while heap and heap[0][0] == cycle:
                _, _, var, value = heapq.heappop(heap)
                latest[var] = value  # the last change at a cycle wins
            for var, value in latest.items():
                change(var, cycle, value)

    def event(self, ev: Event, t: InstrTiming) -> None:
        pipe = ev.pipe if ev.pipe in self.v_busy else "S"
        family = ev.instr.defn.family
        if family.kind == REGISTER:
            self._registers(ev, t.end)
        elif family.writes_cmpmask:
            cmp = ev.cmpmask
            if cmp != self._regs["cmp"]:
                self._regs["cmp"] = cmp
                self._push(t.end, self.v_cmp, cmp)
        if pipe != "S" and self._issue:  # S is busy issuing it
            self._push(t.issue, self.v_busy["S"], 1)
            self._push(t.issue, self.v_pc["S"], ev.instr.pc)
            self._push(t.issue + self._issue, self.v_busy["S"], 0)
            self._push(t.issue + self._issue, self.v_pc["S"], "x")
        if t.end > t.start:
            run = min(t.start + t.wait_flag, t.end)
            if run > t.start:
                self._push(t.start, self.v_wait[pipe], 1)
                self._push(run, self.v_wait[pipe], 0)
            self._push(t.start, self.v_pc[pipe], ev.instr.pc)
            if t.end > run:
                self._push(run, self.v_busy[pipe], 1)
                self._push(t.end, self.v_busy[pipe], 0)
            self._push(t.end, self.v_pc[pipe], "x")
        if ev.core >= self.cores - 1:  # a later core's changes may come earlier in time
            self._flush(t.issue)

    def _registers(self, ev: Event, cycle: int) -> None:
        regs = self._regs
        (hi, lo), mode = ev.mask_after, int(ev.counter_after)
        for key, var, value in (("hi", self.v_hi, hi), ("lo", self.v_lo, lo),
                                ("mode", self.v_mode, mode)):
            if regs[key] != value:
                regs[key] = value
                self._push(cycle, var, value)

    def finish(self, summary: dict) -> None:
        self._flush(None)
        self.vcd.flush()
        self.f.write(f"$comment summary: {summary['cycles']} cycles, "
                     f"{summary['instructions']} instructions, {summary['uops']} micro-ops "
                     "$end\n")

    def error(self, diagnostic: Diagnostic, pc: int | None) -> None:
        self._flush(None)
        self.vcd.flush()
        text = str(diagnostic).replace("$end", "$ end")
        self.f.write(f"$comment error: {text} $end\n")

    def footer(self) -> None:
        self._flush(None)
        self.vcd.close(self.max_cycle)
