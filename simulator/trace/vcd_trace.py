"""IEEE 1364 value-change dump (docs/format.md §11, `vcd`), written with pyvcd; opens in GTKWave.

Time is real time of the chip clock: the timescale is 1 ps and a cycle is 10^6 / MHz ps,
rounded (the cycle count is in `$comment`). Scopes:

- `pipev.S`, `pipev.V`, `pipev.MTE2`, `pipev.MTE3`: `busy` (executing; for S also issuing to a
  queue), `wait` (waiting for a flag), `line` (the source line of the statement it executes, 0
  when idle) and `instr` (its text as `mnemonic(operands)`, with no spaces, which VCD strings
  cannot hold; `idle` when idle). `pipev.V` also has `MASK_HI`, `MASK_LO`
  and `mask_mode` (0 norm, 1 count) as the executing vector instruction captured them at issue —
  what it ran with, not what S has set since — and `CMPMASK` (changed when a V instruction that
  writes it completes).
- `pipev.registers`: MASK_HI, MASK_LO and mask_mode as S sets them.

A launch of several cores has these scopes under one scope per core (`pipev.core0`, ...).

Events arrive in issue order but the pipes run in parallel, so changes wait in a small heap
until no later event can precede them: every change of an instruction lies at or after its
issue cycle and S issues in order, so all changes up to the latest issue cycle are final. A
launch's cores all start near cycle 0, so the changes of every core but the last wait in the
heap until the last core runs (memory grows with the launch).
"""

from __future__ import annotations

import heapq

from vcd import VCDWriter

from isa.diagnostics import Diagnostic
from isa.families import REGISTER
from isa.table import PIPES
from simulator.events import Event
from simulator.instr_timing import InstrTiming
from simulator.trace.base import TraceWriter

ONES = (1 << 64) - 1
IDLE = "idle"


class VcdWriter(TraceWriter):
    def __init__(self, path, chip, name, timed, cores=1):
        self._heap: list[tuple[int, int, object, object]] = []
        self._seq = 0
        self._issue = 0
        self._regs: dict[str, int] = {"hi": ONES, "lo": ONES, "mode": 0, "cmp": 0}
        self._core_regs: dict[int, dict[str, int]] = {}  # each core's (`_use`)
        self._ps_per_cycle = 1_000_000 / float(chip.clock_mhz)
        super().__init__(path, chip, name, timed, cores)

    def header(self) -> None:
        chip = self.chip
        self._issue = self.issue_cycles
        self.vcd = VCDWriter(
            self.f, timescale="1 ps", version="pipev",
            comment=f"pipev trace of {self.name} on {chip.name}: real time of the "
                    f"{chip.clock_mhz:g} MHz clock, one cycle = {self._ps_per_cycle:.1f} ps")
        scopes = ["pipev"] if self.cores == 1 else [f"pipev.core{k}" for k in range(self.cores)]
        self._signals = [self._register(scope) for scope in scopes]
        self._use(0)

    def _register(self, top: str) -> tuple:
        reg = self.vcd.register_var
        return ({p: reg(f"{top}.{p}", "busy", "wire", 1, init=0) for p in PIPES},
                {p: reg(f"{top}.{p}", "wait", "wire", 1, init=0) for p in PIPES},
                {p: reg(f"{top}.{p}", "line", "integer", 32, init=0) for p in PIPES},
                {p: reg(f"{top}.{p}", "instr", "string", init=IDLE) for p in PIPES},
                (reg(f"{top}.V", "MASK_HI", "reg", 64, init=ONES),
                 reg(f"{top}.V", "MASK_LO", "reg", 64, init=ONES),
                 reg(f"{top}.V", "mask_mode", "wire", 1, init=0)),
                reg(f"{top}.V", "CMPMASK", "reg", self.chip.cmpmask_bits, init=0),
                reg(f"{top}.registers", "MASK_HI", "reg", 64, init=ONES),
                reg(f"{top}.registers", "MASK_LO", "reg", 64, init=ONES),
                reg(f"{top}.registers", "mask_mode", "wire", 1, init=0))

    def _use(self, core: int) -> None:
        """Write core CORE's signals from now on (cores run one after another, or by turns
        between SyncAlls: each keeps the register values it last wrote)."""
        (self.v_busy, self.v_wait, self.v_line, self.v_instr, self.v_exec, self.v_cmp,
         self.v_hi, self.v_lo, self.v_mode) = self._signals[core]
        self._regs = self._core_regs.setdefault(core, {"hi": ONES, "lo": ONES, "mode": 0,
                                                       "cmp": 0})

    def on_start(self, run) -> None:
        super().on_start(run)
        if self.core < len(self._signals):
            self._use(self.core)

    def resume(self, core: int) -> None:
        super().resume(core)
        if core < len(self._signals):
            self._use(core)

    def _ps(self, cycle: int) -> int:
        return round(cycle * self._ps_per_cycle)

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
            when = self._ps(cycle)
            for var, value in latest.items():
                change(var, when, value)

    def _occupy(self, pipe: str, start: int, end: int, ev: Event) -> None:
        """PIPE runs EV's statement from START to END (then is idle, unless another starts)."""
        self._push(start, self.v_line[pipe], ev.instr.line)
        self._push(start, self.v_instr[pipe], vcd_text(ev.instr.text))
        self._push(end, self.v_line[pipe], 0)
        self._push(end, self.v_instr[pipe], IDLE)

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
            self._push(t.issue + self._issue, self.v_busy["S"], 0)
            self._occupy("S", t.issue, t.issue + self._issue, ev)
        if t.end > t.start:
            run = min(t.start + t.wait_flag, t.end)
            if run > t.start:
                self._push(t.start, self.v_wait[pipe], 1)
                self._push(run, self.v_wait[pipe], 0)
            self._occupy(pipe, t.start, t.end, ev)
            if t.end > run:
                self._push(run, self.v_busy[pipe], 1)
                self._push(t.end, self.v_busy[pipe], 0)
            if pipe == "V" and ev.vop is not None:  # the MASK it executes with
                hi, lo = ev.mask
                for var, value in zip(self.v_exec, (hi, lo, int(ev.counter)), strict=True):
                    self._push(t.start, var, value)
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
        self.vcd.close(self._ps(self.max_cycle))


def vcd_text(text: str) -> str:
    """`vsel.f16 z, x, y, mode=2` → `vsel.f16(z,x,y,mode=2)`: a VCD string has no spaces."""
    head, _, rest = text.strip().partition(" ")
    rest = ",".join(p.strip() for p in rest.split(",")) if rest.strip() else ""
    return f"{head}({rest.replace(' ', '')})" if rest else head
