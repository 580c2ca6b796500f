"""An llvm-mca-style timeline (docs/format.md §11, `text`): one row per executed instruction, one
column per bucket of cycles.

The bucket size depends on the run's last cycle, known only at the end, so each instruction's
figures go to a spool file beside the trace as the run goes; the rows are drawn from the spool
at close. Memory stays flat however long the program runs.
"""

from __future__ import annotations

from isa.diagnostics import Diagnostic
from simulator.events import Event
from simulator.instr_timing import InstrTiming
from simulator.trace.base import TraceWriter

COLUMNS = 60  # timeline columns at most: rows stay within ~120 characters
WIDTH = 120
LEGEND = ("legend: I issued   . waiting for the pipe   w waiting for a flag   = executing\n"
          "        (a column spanning several cycles shows the strongest: = over w over I "
          "over .)")


def bucket_size(last_cycle: int, columns: int = COLUMNS) -> int:
    """Cycles per column so that cycles 0..last_cycle fit in COLUMNS columns."""
    return max(1, -(-(last_cycle + 1) // columns))


def timeline_row(issue: int, start: int, end: int, wait: int, bucket: int, ncols: int) -> str:
    """One row of the timeline: each state paints its columns, stronger states last."""
    row = [" "] * ncols

    def paint(a: int, b: int, ch: str) -> None:  # cycles [a, b)
        if b > a:
            lo, hi = a // bucket, min((b - 1) // bucket, ncols - 1)
            row[lo:hi + 1] = ch * (hi - lo + 1)

    run = min(start + wait, end)
    paint(issue + 1, start, ".")
    paint(issue, issue + 1, "I")
    paint(start, run, "w")
    paint(run, end, "=")
    return "".join(row)


def _clipped_row(issue: int, start: int, end: int, wait: int, first: int, last: int,
                 bucket: int, ncols: int) -> str:
    """timeline_row over cycles FIRST..LAST: states outside the window are cut off."""
    if first == 0 and end <= last + 1:
        return timeline_row(issue, start, end, wait, bucket, ncols)
    lo, hi = first, last + 1

    def clip(c: int) -> int:
        return min(max(c, lo), hi) - lo

    run = min(start + wait, end)
    row = [" "] * ncols
    for a, b, ch in ((issue + 1, start, "."), (issue, issue + 1, "I"), (start, run, "w"),
                     (run, end, "=")):
        a, b = clip(a), clip(b)
        if b > a:
            ca, cb = a // bucket, min((b - 1) // bucket, ncols - 1)
            row[ca:cb + 1] = ch * (cb - ca + 1)
    return "".join(row)


class TextWriter(TraceWriter):
    only_core: int | None = None  # --core K: the timeline of that core alone

    def __init__(self, path, chip, name, timed, cores: int = 1, width: int = COLUMNS,
                 cycles: tuple[int, int] | None = None):
        if width < 1:
            raise ValueError("the timeline needs at least one column")
        if cycles is not None and not 0 <= cycles[0] < cycles[1]:
            raise ValueError("the timeline range is START:END with 0 <= START < END")
        self.columns = width
        self.window = cycles  # [START, END) cycles shown; None: the whole run
        super().__init__(path, chip, name, timed, cores)

    def header(self) -> None:
        self.spool_path, self.spool = self.temp_file(self.path, "spool.")

    def event(self, ev: Event, t: InstrTiming) -> None:
        if self.only_core is not None and ev.core != self.only_core:
            return
        text = ev.instr.text.replace("\n", " ")
        self.spool.write(f"{t.issue} {t.start} {t.end} {t.wait_flag} {ev.pipe} {ev.instr.line} "
                         f"{ev.core}\t{text}\n")

    def finish(self, summary: dict) -> None:
        self._end = (f"summary: {summary['cycles']} cycles ({summary['time_us']} us), "
                     f"{summary['instructions']} instructions, {summary['uops']} micro-ops; "
                     "busy " + ", ".join(f"{p} {v['busy']}" for p, v in summary["pipes"].items()))

    def error(self, diagnostic: Diagnostic, pc: int | None) -> None:
        self._end = f"error: {diagnostic}"

    def footer(self) -> None:
        self.spool.close()
        first, last = 0, self.max_cycle
        if self.window is not None:
            first, last = self.window[0], max(self.window[0], min(self.window[1], last + 1) - 1)
        bucket = bucket_size(last - first, self.columns)
        ncols = (last - first) // bucket + 1
        f = self.f
        f.write(f"pipev timeline: {self.name} on {self.chip.name} "
                f"({self.chip.clock_mhz:g} MHz)\n")
        note = "" if self.timed else " (timing off: every figure is 0)"
        shown = "" if self.window is None else " (of the run's 0.." + f"{self.max_cycle})"
        f.write(f"{self.instructions} instructions, cycles {first}..{last}{shown}, "
                f"1 column = {bucket} cycle{'s' if bucket > 1 else ''}{note}\n{LEGEND}\n\n")
        ruler = "".join(str(k % 10) for k in range(ncols))
        marks = "".join("|" if k % 10 == 0 else " " for k in range(ncols))
        prefix = f"{'#':>6} {'line':>5} {'pipe':<4} "
        base = f"{first} + " if first else ""
        f.write(f"{'':>{len(prefix)}} {marks}  column k starts at cycle {base}k*{bucket}\n")
        f.write(f"{prefix}[{ruler}] instruction\n")
        room = max(20, WIDTH - len(prefix) - ncols - 3)
        shown = None
        with open(self.spool_path, encoding="utf-8") as spool:
            for k, line in enumerate(spool):
                nums, _, text = line.rstrip("\n").partition("\t")
                issue, start, end, wait, pipe, src, core = nums.split(" ")
                a, b, c, w = int(issue), int(start), int(end), int(wait)
                if self.window is not None and (a > last or max(c, a + 1) <= first):
                    continue  # entirely outside the range shown
                if self.cores > 1 and core != shown:  # cores come one after another
                    shown = core
                    f.write(f"{'':>{len(prefix)}} core {core}\n")
                row = _clipped_row(a, b, c, w, first, last, bucket, ncols)
                if len(text) > room:
                    text = text[:room - 3] + "..."
                f.write(f"{k:>6} {src:>5} {pipe:<4} [{row}] {text}\n")
        end = getattr(self, "_end", None)
        if end:
            f.write(f"\n{end}\n")

    def cleanup(self) -> None:
        spool = getattr(self, "spool", None)
        if spool is None:
            return
        try:
            spool.close()
        except OSError:
            pass
        self.spool_path.unlink(missing_ok=True)
