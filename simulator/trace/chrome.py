"""Chrome Trace Event JSON (docs/format.md §11, `chrome`): opens in Perfetto, chrome://tracing,
speedscope and MindStudio Insight.

Core (block) K of a launch is process K + 1 ("core K"; viewers treat pid 0 as the idle
process); each pipe is one thread. An instruction is an `X` slice (category `instr`) on
its pipe; its head, its wait for a flag and its repeats are `X` slices nested inside it. S also
shows the cycles it spends issuing each queued instruction (`issue`) and its stalls (`stall`).
A flow (`s` → `f`) links each set_flag to the wait_flag it releases.

Timestamps are integers: by default 1 unit (which viewers label µs) is 1 cycle, as `otherData`
and the process name say, so nesting and sibling order are exact — viewers drop or re-parent
slices whose float end lands an ulp past the next one's start. `time="real"` writes integer
picoseconds of the chip clock instead (1 unit shown as µs is 1 ps): fractional µs are exact in
no viewer (Perfetto truncates each µs figure to ns on its own, speedscope adds floats).
"""

from __future__ import annotations

import json

from isa.diagnostics import Diagnostic
from isa.families import SET_FLAG, SYNC_KINDS
from isa.program import Instruction
from isa.table import PIPES
from simulator.events import Event
from simulator.instr_timing import InstrTiming
from simulator.trace.base import SEP, TraceWriter, jstr, repeat_timing
from simulator.trace.jsonl import VERSION

TIDS = {p: k + 1 for k, p in enumerate(PIPES)}


PID = 1  # core K is pid K + 1: viewers treat pid 0 as the idle/swapper process


class ChromeWriter(TraceWriter):
    def __init__(self, path, chip, name, timed, cores=1, time: str = "cycles"):
        if time not in ("cycles", "real"):
            raise ValueError(f"chrome trace time must be cycles or real, not {time!r}")
        self.real = time == "real"
        self._error_tid = TIDS["S"]
        self._first = True
        self._flows: dict[tuple, tuple[str, int]] = {}  # (core, flag) set, not yet waited
        self._next_flow = 0
        self._tail: dict[str, object] = {}
        self._args: dict[Instruction, tuple[str, str]] = {}  # slice name, constant args
        self._scale = 1_000_000 / float(chip.clock_mhz)  # picoseconds per cycle
        super().__init__(path, chip, name, timed, cores)

    # -- time ----------------------------------------------------------------------------------
    def _ts(self, cycle: int) -> int:
        """The timestamp of CYCLE: the cycle itself, or in real time its rounded picosecond."""
        return round(cycle * self._scale) if self.real else cycle

    def _slice(self, name: str, cat: str, pipe: str, start: int, end: int, args: str) -> str:
        a = self._ts(start)
        b = self._ts(end) if end > start else a
        return (f'{{"name":{name},"cat":"{cat}","ph":"X","pid":{self.pid},"tid":{TIDS[pipe]},'
                f'"ts":{a},"dur":{b - a},"args":{{{args}}}}}')

    def _emit(self, items: list[str]) -> None:
        if not items:
            return
        sep = "\n" if self._first else ",\n"
        self._first = False
        self.f.write(sep + ",\n".join(items))

    # -- writer --------------------------------------------------------------------------------
    def header(self) -> None:
        self._other = {"format": "pipev-trace", "version": VERSION, "chip": self.chip.name,
                       "freq_mhz": self.freq_mhz, "program": self.name,
                       "time_unit": "ps" if self.real else "cycle",
                       "time_note": ("1 time unit (shown as 1 us) is 1 ps of real time "
                                     f"({1e6 / self.freq_mhz:.4g} ps a cycle of the "
                                     f"{self.freq_mhz:g} MHz clock)") if self.real else
                       (f"1 time unit (shown as 1 us) is 1 cycle of the {self.freq_mhz:g} MHz "
                        f"clock ({1000 / self.freq_mhz:.4g} ns)")}
        # no displayTimeUnit: the unit is µs to viewers whatever pipev means by it
        self.f.write('{"traceEvents":[')
        self._processes: set[int] = set()
        self._issue = self.issue_cycles

    @property
    def pid(self) -> int:
        return PID + self.core

    def _process(self, core: int) -> None:
        """Core CORE is process CORE + 1 ("core N"), with one thread per pipe."""
        if core in self._processes:
            return
        self._processes.add(core)
        pid = PID + core
        unit = f"; 1 us on the axis = 1 {'ps' if self.real else 'cycle'}"
        meta = [json.dumps({"name": "process_name", "ph": "M", "pid": pid,
                            "args": {"name": f"core {core} ({self.chip.name}, "
                                             f"{self.freq_mhz:g} MHz{unit})"}},
                           separators=SEP),
                json.dumps({"name": "process_sort_index", "ph": "M", "pid": pid,
                            "args": {"sort_index": core}}, separators=SEP)]
        for pipe, tid in TIDS.items():
            meta.append(json.dumps({"name": "thread_name", "ph": "M", "pid": pid, "tid": tid,
                                    "args": {"name": pipe}}, separators=SEP))
            meta.append(json.dumps({"name": "thread_sort_index", "ph": "M", "pid": pid,
                                    "tid": tid, "args": {"sort_index": tid}}, separators=SEP))
        self._emit(meta)

    def on_start(self, run) -> None:
        super().on_start(run)
        self._guard(self._process, self.core)

    def _names(self, ev: Event) -> tuple[str, str]:
        """The slice name and the constant part of its args, cached per instruction."""
        instr = ev.instr
        hit = self._args.get(instr)
        if hit is not None:
            return hit
        if len(self._args) > 1 << 16:
            self._args.clear()
        head = instr.text if instr.defn.family.kind in SYNC_KINDS else instr.head
        where = f',"file":{jstr(instr.file)}' if instr.file else ""
        args = (f'"pc":{instr.pc},"line":{instr.line}{where},"text":{jstr(instr.text)},'
                f'"source":{jstr(self.source_line(ev))}')
        hit = self._args[instr] = (jstr(head), args)
        return hit

    def event(self, ev: Event, t: InstrTiming) -> None:
        name, args = self._names(ev)
        pipe = ev.pipe if ev.pipe in TIDS else "S"
        uops = ev.vop.repeats if ev.vop is not None else 1
        cyc = (f'"issue":{t.issue},"start":{t.start},"end":{t.end},"busy":{t.busy},'
               f'"wait_pipe":{t.wait_pipe},"wait_flag":{t.wait_flag},"uops":{uops}')
        out = [self._slice(name, "instr", pipe, t.start, t.end, f"{args},{cyc}")]
        if pipe != "S":
            out.extend(self._issue_slices(ev, t, name))
        elif getattr(t, "wait_issue", 0) > 0:  # pipe_barrier ALL: S waited for the queues
            out.append(self._slice('"stall: queues draining"', "stall", "S",
                                   t.start - t.wait_issue, t.start,
                                   f'"pc":{ev.instr.pc},"line":{ev.instr.line},'
                                   f'"cycles":{t.wait_issue}'))
        if t.wait_flag > 0:
            src, dst, eid = ev.flag or ("?", "?", 0)
            out.append(self._slice(json.dumps(f"wait for flag {src}->{dst} {eid}"), "wait_flag",
                                   pipe, t.start, min(t.start + t.wait_flag, t.end),
                                   f'"cycles":{t.wait_flag},"line":{ev.instr.line}'))
        if t.head > 0:
            out.append(self._slice('"head"', "head", pipe, t.start, min(t.start + t.head, t.end),
                                   f'"cycles":{t.head},"line":{ev.instr.line}'))
        if ev.vop is not None:
            for i in range(ev.vop.repeats):
                r = repeat_timing(t, i)
                out.append(self._slice(f'"repeat {i}"', "repeat", pipe, r.start,
                                       min(max(r.end, r.start), t.end),
                                       f'"repeat":{i},"start":{r.start},"end":{r.end},'
                                       f'"bank_beats":{r.bank_beats},"line":{ev.instr.line}'))
        if ev.flag is not None:
            out.extend(self._flow(ev, pipe, t))
        self._emit(out)

    def _issue_slices(self, ev: Event, t: InstrTiming, name: str) -> list[str]:
        """On S: the cycles spent issuing a queued instruction, and any stall before that
        while its queue was full."""
        out = []
        line = f'"pc":{ev.instr.pc},"line":{ev.instr.line},"to":"{ev.pipe}"'
        stall = getattr(t, "wait_issue", 0)
        if stall > 0:
            out.append(self._slice('"stall: queue full"', "stall", "S", t.issue - stall,
                                   t.issue, f'{line},"cycles":{stall}'))
        if self._issue:
            out.append(self._slice(name, "issue", "S", t.issue, t.issue + self._issue, line))
        return out

    def _flow(self, ev: Event, pipe: str, t: InstrTiming) -> list[str]:
        """An arrow from a set_flag's slice to the wait_flag it releases. Both ends are written
        when the wait comes, so a flag that is never waited for leaves no half arrow."""
        key = (ev.core, *ev.flag)
        if ev.kind == SET_FLAG:  # remember where it starts; the first set is the one waited
            if key not in self._flows:
                self._flows[key] = (self._ts(t.start), TIDS[pipe])
            return []
        start = self._flows.pop(key, None)
        if start is None:
            return []
        self._next_flow += 1
        fid, label = self._next_flow, json.dumps(f"flag {key[1]}->{key[2]} {key[3]}")
        # the end binds (bp:"e") to the innermost slice enclosing it: `released`, nested in
        # the wait_flag from the cycle the flag released it, so the arrow points forwards.
        # Without bp the "next slice" rule is ambiguous at equal ts: Perfetto skips a slice
        # that begins at the flow's own ts and binds the instruction after the wait.
        release = min(t.start + t.wait_flag, t.end)
        ts = self._ts(release)
        return [f'{{"name":{label},"cat":"flag","ph":"s","id":{fid},"pid":{self.pid},'
                f'"tid":{start[1]},"ts":{start[0]}}}',
                f'{{"name":{label},"cat":"flag","ph":"f","id":{fid},'
                f'"pid":{self.pid},"tid":{TIDS[pipe]},"ts":{ts},"bp":"e"}}',
                self._slice('"released"', "released", pipe, release, t.end,
                            f'"line":{ev.instr.line},"flag":{label}')]

    def finish(self, summary: dict) -> None:
        self._tail["pipevSummary"] = summary

    def on_error(self, diagnostic: Diagnostic, instr: Instruction | None) -> None:
        if instr is not None:  # the marker goes on the thread of the pipe at fault
            self._error_tid = TIDS.get(instr.defn.family.issuing_pipe(instr), TIDS["S"])
        super().on_error(diagnostic, instr)

    def error(self, diagnostic: Diagnostic, pc: int | None) -> None:
        err = {"message": diagnostic.message, "pc": pc, "line": diagnostic.line,
               "col": diagnostic.column, "diagnostic": str(diagnostic)}
        self._tail["pipevError"] = err
        ts = self._ts(self.max_cycle)
        self._emit([f'{{"name":"error","cat":"error","ph":"i","s":"t","pid":{self.pid},'
                    f'"tid":{self._error_tid},"ts":{ts},'
                    f'"args":{json.dumps(err, separators=SEP)}}}'])

    def footer(self) -> None:
        other = {**self._other, **self._tail}  # pipev's own keys live under otherData
        self.f.write(f'\n],"otherData":{json.dumps(other, separators=SEP)}}}\n')
