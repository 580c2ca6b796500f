"""What every trace writer shares (docs/format.md §11): a temporary file in the target directory
renamed into place at close, the cycle figures of an event (zeros without a timing model),
per-repeat row addresses and active bits, and the run summary.

A writer is an ordinary observer: the timing model's figures arrive in each event
(`event.timing`), the summary with `on_finish`. Writers stream: nothing grows with program
length.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path
from typing import IO, TYPE_CHECKING

import numpy as np

from isa.chip import Chip
from isa.decode import Access, VectorOp
from isa.diagnostics import Diagnostic
from simulator.errors import SimulationError
from simulator.events import Event, Observer, RunInfo
from simulator.instr_timing import InstrTiming, RepeatTiming

if TYPE_CHECKING:  # pragma: no cover
    from isa.program import Instruction

SEP = (",", ":")  # compact JSON
ZERO_REPEAT = RepeatTiming(0, 0, 0, 0)


def trace_error(name: str, path: Path, why: str) -> SimulationError:
    """The clean error the CLI prints (exit 1) for a trace that cannot be written."""
    return SimulationError([Diagnostic("error", name, 1, 1,
                                       f"cannot write trace {path}: {why}")])


def _file_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _why(e: OSError) -> str:
    return e.strerror or str(e)


class TraceWriter(Observer):
    """Base of the four writers: override `header`, `event`, `finish`, `error`, `footer`."""

    def __init__(self, path: Path, chip: Chip, name: str, timed: bool, cores: int = 1):
        self.path = Path(path)
        self.cores = cores  # the launch's cores: events arrive core after core
        self.core = 0
        self.name = name  # the program's path, as diagnostics name it
        self.timed = timed
        self.chip = chip
        self.lines: tuple[str, ...] = ()
        self.instructions = 0
        self.uops = 0
        self.max_cycle = 0
        self._broken: OSError | None = None
        self._closed = False
        self.tmp, self.f = self.temp_file(self.path, "")
        try:
            self.header()
        except BaseException as e:
            self.f.close()
            self.tmp.unlink(missing_ok=True)
            self.cleanup()
            if isinstance(e, OSError):
                raise trace_error(name, self.path, _why(e)) from None
            raise

    # -- files ---------------------------------------------------------------------------------
    def temp_file(self, path: Path, tag: str) -> tuple[Path, IO]:
        """A new temporary file beside PATH (so the final rename stays on one file system)."""
        if path.is_dir():
            raise trace_error(self.name, path, "it is a directory")
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{tag}", suffix=".tmp",
                                       dir=path.parent if str(path.parent) else ".")
        except OSError as e:
            raise trace_error(self.name, path, _why(e)) from None
        os.chmod(tmp, _file_mode())  # mkstemp makes 0600; a trace is an ordinary file
        return Path(tmp), os.fdopen(fd, "w", encoding="utf-8", newline="\n")

    def _guard(self, fn, *args) -> None:
        """Run a writing step; an I/O error stops the writing and is reported at close."""
        if self._broken is not None:
            return
        try:
            fn(*args)
        except OSError as e:
            self._broken = e

    def close(self, ok: bool = True) -> None:
        """Finish the file and rename it into place (ok=False discards it)."""
        if self._closed:
            return
        self._closed = True
        if ok:
            self._guard(self.footer)
        try:
            self.f.close()
        except OSError as e:
            self._broken = self._broken or e
        self.cleanup()
        if not ok:
            self.tmp.unlink(missing_ok=True)
            return
        if self._broken is None:
            try:
                os.replace(self.tmp, self.path)
                return
            except OSError as e:
                self._broken = e
        self.tmp.unlink(missing_ok=True)
        raise trace_error(self.name, self.path, _why(self._broken))

    def cleanup(self) -> None:
        """Remove helper files (the text timeline's spool)."""

    # -- observer ------------------------------------------------------------------------------
    def on_start(self, run: RunInfo) -> None:
        self.lines = run.lines
        self.core = run.core  # the core now running (a launch's cores start one by one)

    def resume(self, core: int) -> None:
        """CORE, started earlier, writes again (a SyncAll let another core run meanwhile)."""
        self.core = core

    def on_event(self, event: Event) -> None:
        t = self.timing(event)
        self.instructions += 1
        self.uops += event.repeats
        if t.end > self.max_cycle:
            self.max_cycle = t.end
        self._guard(self.event, event, t)

    def on_finish(self, summary: dict) -> None:
        self._guard(self.finish, summary)

    def on_error(self, diagnostic: Diagnostic, instr: Instruction | None) -> None:
        self._guard(self.error, diagnostic, instr.pc if instr is not None else None)

    # -- what subclasses write -----------------------------------------------------------------
    def header(self) -> None:
        """Written when the file is opened."""

    def event(self, event: Event, t: InstrTiming) -> None:
        raise NotImplementedError

    def finish(self, summary: dict) -> None:
        """The program ended normally."""

    def error(self, diagnostic: Diagnostic, pc: int | None) -> None:
        """The run stopped on DIAGNOSTIC (at statement PC)."""

    def footer(self) -> None:
        """Written at close, whatever happened."""

    # -- helpers -------------------------------------------------------------------------------
    def timing(self, event: Event) -> InstrTiming:
        """The timing model's record of EVENT, or zeros when no model runs."""
        t = event.timing
        return t if t is not None else InstrTiming(event.pipe, 0, 0, 0, 0)

    def source_line(self, event: Event) -> str:
        """The source line an event came from, as written (its statement, for a stream)."""
        instr = event.instr
        if not instr.file and 0 < instr.line <= len(self.lines):
            return self.lines[instr.line - 1].strip()
        return event.statement

    @property
    def issue_cycles(self) -> int:
        """Cycles S spends issuing a queued instruction (0 without a timing model)."""
        if not self.timed:
            return 0
        return int(self.chip.timing.get("scalar_issue", 0))

    @property
    def freq_mhz(self) -> float:
        return float(self.chip.clock_mhz)


def repeat_timing(t: InstrTiming, i: int) -> RepeatTiming:
    """Repeat I's record (zeros when the model gave none)."""
    reps = t.repeats
    if i < len(reps) and reps[i].index == i:
        return reps[i]
    for r in reps:
        if r.index == i:
            return r
    return ZERO_REPEAT


# -- per-repeat rows and active bits ---------------------------------------------------------
_ROWS: OrderedDict = OrderedDict()
_ROWS_MAX = 512


def repeat_rows(vop: VectorOp) -> list[dict[str, list[int]]]:
    """Per repeat, each operand's 32-byte row addresses (docs/format.md §11 `addr`); for bit-stream
    operands (vcmpv dst, vsel mask) the first byte address read or written. Vectorised per
    operand; cached by access pattern because loops and unrolled kernels repeat them (also
    register-addressed ones, whose decodings differ)."""
    per_op = [(acc.role, _rows_of(vop, acc)) for acc in vop.operands]
    return [{role: rows[i] for role, rows in per_op} for i in range(vop.repeats)]


def _rows_of(vop: VectorOp, acc: Access) -> list[list[int]]:
    full = vop.touches_all(acc)
    key = (acc, vop.repeats, vop.n, full, vop.last, None if full else vop.row.tobytes())
    hit = _ROWS.get(key)
    if hit is not None:
        _ROWS.move_to_end(key)
        return hit
    if acc.kind == "bits":
        rows = [[acc.start(i)] for i in range(vop.repeats)]
    else:
        addrs = vop.byte_addrs(acc) & ~31
        if not full:
            addrs = np.where(vop.active, addrs, -1)
        s = np.sort(addrs, axis=1)
        keep = np.empty(s.shape, bool)
        keep[:, 0] = True
        keep[:, 1:] = s[:, 1:] != s[:, :-1]
        keep &= s >= 0
        rows = [r[k].tolist() for r, k in zip(s, keep, strict=True)]
    _ROWS[key] = rows
    if len(_ROWS) > _ROWS_MAX:
        _ROWS.popitem(last=False)
    return rows


def active_bits(vop: VectorOp) -> list[int]:
    """Per repeat, the active-element bits (bit k = element k)."""
    if vop.repeats == 0:
        return []
    full = _bits(vop.row)
    out = [full] * vop.repeats
    if vop.last < vop.n:
        out[-1] = full & ((1 << vop.last) - 1)
    return out


def _bits(row: np.ndarray) -> int:
    return int.from_bytes(np.packbits(row, bitorder="little").tobytes(), "little")


@lru_cache(maxsize=4096)
def jstr(text: str) -> str:
    """TEXT as a JSON string literal (cached: loops and unrolled code repeat their texts)."""
    return json.dumps(text)
