"""The ctypes side of `include/pipev_bridge.h`: the callback table the compiled kernel calls, each
callback mapped onto pipev's streaming entry (`simulator.stream.Stream`).

One `Session` serves one program run (in the worker process). It keeps the GM buffers the
program declared (numpy views over the host memory, no copies: pipev's DMA reads and writes the
program's own bytes), opens one Stream per core of each kernel launch (cores of a launch run one
after another over the shared GM; a SyncAll parks a core's stream while the others run up to
it), gives C the machine's UB as `bridge->ub`, and turns every failure inside a callback into a
nonzero return plus a recorded diagnostic: a Python exception in a ctypes callback would
otherwise be printed and swallowed. After the first error the session
is stopped and every callback returns nonzero at once.
"""

from __future__ import annotations

import ctypes
import functools
import struct
from collections import deque
from collections.abc import Callable
from pathlib import Path

import attrs
import numpy as np

from isa.assembler import MAX_BLOCK_DIM  # the largest launch, as .block_dim and --block-dim
from isa.chip import Chip
from isa.diagnostics import Diagnostic, DiagnosticError
from isa.types import lookup
from simulator.ascendc.source import SourceLines
from simulator.ascendc.views import GmView, Namer, save_views
from simulator.cores import summed
from simulator.launch_recording import combined, launch_path

c_char_p, c_int, c_uint64, c_uint32 = ctypes.c_char_p, ctypes.c_int, ctypes.c_uint64, \
    ctypes.c_uint32

# (REGS arrives as its address: `_regs` reads it through a view kept per address)
ISSUE = ctypes.CFUNCTYPE(c_int, c_char_p, c_int, c_int, c_char_p, ctypes.c_void_p, c_int)
REGS = 31  # x1..x31: the most registers a statement gives (the headers' Stmt holds 31)
REG_VIEWS = 64  # addresses of register arrays whose views are kept (the headers' stack frames)
WORDS = tuple(struct.Struct(f"{n}Q") for n in range(REGS + 1))  # N native uint64s (`_regs`)
SITES = 65536  # (call site, text) pairs whose issuers are kept (`Session._issuer`)
UB_TENSOR = ctypes.CFUNCTYPE(c_int, c_char_p, c_int, c_char_p, c_char_p, c_uint64, c_uint64)
GM_BUFFER = ctypes.CFUNCTYPE(c_int, c_char_p, c_int, c_char_p, c_char_p, ctypes.c_void_p,
                             c_uint64)
HOST_ACCESS = ctypes.CFUNCTYPE(c_int, c_char_p, c_int, c_uint64, c_uint64, c_int)
MESSAGE = ctypes.CFUNCTYPE(c_int, c_char_p, c_int, c_int, c_int, c_char_p)
LAUNCH = ctypes.CFUNCTYPE(c_int, c_char_p, c_int, c_char_p, c_uint32)
LAUNCH_END = ctypes.CFUNCTYPE(c_int)
SPECIAL = ctypes.CFUNCTYPE(c_int, c_char_p, ctypes.POINTER(c_uint64))
SYSTEM_CYCLE = ctypes.CFUNCTYPE(ctypes.c_int64)
GM_DATA = ctypes.CFUNCTYPE(c_int, c_char_p, c_uint64)
GM_TENSOR = ctypes.CFUNCTYPE(c_int, c_char_p, c_int, c_char_p, ctypes.c_void_p, c_uint64)
GM_ACCESS = ctypes.CFUNCTYPE(c_int, c_char_p, c_int, c_char_p, c_uint64, c_uint64, c_int)
SYNC_ALL = ctypes.CFUNCTYPE(c_int, c_char_p, c_int)
SWITCH_CORE = ctypes.CFUNCTYPE(c_int, c_uint32)
CHIP_FACTS = ("chip.vector_cores",)  # the profile's facts `special` answers (platform_ascendc.h)
SYSTEM_COUNTER_MHZ = 50  # GetSystemCycle counts at 50 MHz (the API documentation's time base)


class PipevBridge(ctypes.Structure):
    """`struct pipev_bridge` (pipev_bridge.h), field for field."""

    _fields_ = [
        ("issue", ISSUE),
        ("ub_tensor", UB_TENSOR),
        ("gm_buffer", GM_BUFFER),
        ("host_access", HOST_ACCESS),
        ("message", MESSAGE),
        ("launch", LAUNCH),
        ("launch_end", LAUNCH_END),
        ("ub", ctypes.c_void_p),
        ("ub_bytes", c_uint64),
        ("scratch_bytes", c_uint64),
        ("npu_arch", ctypes.c_int32),
        ("block_idx", c_uint32),
        ("block_num", c_uint32),
        ("counter_mode", ctypes.c_int32),
        ("event_ids", ctypes.c_int32),
        ("special", SPECIAL),
        ("system_cycle", SYSTEM_CYCLE),
        ("gm_data", GM_DATA),
        ("gm_tensor", GM_TENSOR),
        ("gm_access", GM_ACCESS),
        ("spill_bytes", c_uint64),
        ("sync_all", SYNC_ALL),
        ("switch_core", SWITCH_CORE),
    ]


SEVERITIES = {0: "note", 1: "warning", 2: "error"}
# what a core's recording says at a SyncAll of a launch of several cores, where its replay ends
REPLAY_ENDS = ("SyncAll: the replay of one core's recording ends here: at the barrier the "
               "launch's other cores change GM, which the recording does not hold (run the "
               "program itself to go on)")


@attrs.define
class CoreResult:
    """One finished core of a launch: its figures only (a launch of many cores keeps no core's
    outputs or machine)."""

    core: int
    figures: object = None  # simulator.result.CoreResult (None from a stand-in stream)
    result: object = None  # its Stream's RunResult: the launch's latest core's only


@attrs.define
class Parked:
    """A core a SyncAll suspended while another runs: its stream, and its GlobalTensor views and
    their namer (`Session._views`, `_namer`) until it runs again."""

    stream: object
    views: list
    namer: Namer


@attrs.define
class Launch:
    """One `<<<>>>` launch: where, what, and the figures of each core that finished."""

    index: int
    file: str
    line: int
    kernel: str
    block_dim: int
    cores: list[CoreResult] = attrs.Factory(list)
    ok: bool = True
    schedule: object = None  # simulator.cores.Schedule of a launch of several cores
    placed: dict[int, tuple[int, int, int]] = attrs.Factory(dict)  # core -> slot, wave, start
    # cross-core race warnings, reported merged when the launch ends (one per core pair else)
    races: list[Diagnostic] = attrs.Factory(list)
    stats: object = None  # simulator.stats.Statistics summed over the cores (hot lines)
    reported: list[Diagnostic] = attrs.Factory(list)  # the diagnostics of the launch
    writer: object = None  # the trace writer of a launch of several cores: one file for all
    observers: list = attrs.Factory(list)  # the launch's own observers, on each of its cores

    # SyncAll (include/pipev/cores.h): the cores at the barrier -> the cycle each arrived; the
    # cores a SyncAll suspended and not yet resumed; those not running -> what they keep
    arrivals: dict[int, int] = attrs.Factory(dict)
    suspended: set[int] = attrs.Factory(set)
    parked: dict[int, Parked] = attrs.Factory(dict)

    @property
    def last(self):
        """The latest core's RunResult (the launch's last once it ended: GM, its outputs, as
        the launch left it), or None."""
        return self.cores[-1].result if self.cores else None

    def add_core(self, core: int, result, stats, gm_wait: int) -> None:
        if self.cores:  # an earlier core's machine (UB) is not kept alive through its result
            self.cores[-1].result = None
        end = getattr(result, "cycles", None)
        if end is None:  # a stand-in stream's result
            self.cores.append(CoreResult(core, None, result))
            return
        from simulator.result import CoreResult as Figures

        slot, wave, start = self.placed.get(core, (0, 0, 0))
        self.cores.append(CoreResult(core, Figures(
            core, slot, wave, start, end, dict(result.pipes), dict(result.stalls),
            result.instructions, result.uops, gm_wait), result))
        if stats is not None and result.stalls:  # timed: the launch's hot lines
            if self.stats is None:
                from simulator.stats import Statistics

                self.stats = Statistics()
                self.stats.path, self.stats.lines = stats.path, stats.lines
            self.stats.add(stats)

    def result(self):
        """The launch's RunResult, as a `.vasm` launch's (simulator/cores.py): cycles until the
        last core ends; instructions, micro-ops, busy cycles and stalls summed over the cores;
        hot lines merged; `cores` each core's figures. None when no core finished."""
        last = self.last
        if last is None or self.block_dim == 1 or not hasattr(last, "cycles"):
            return last
        cores = tuple(sorted((c.figures for c in self.cores), key=lambda f: f.block))
        cycles = max(f.end for f in cores)
        timed = bool(last.stalls)
        return attrs.evolve(
            last, cycles=cycles, time_us=cycles / last.chip.clock_mhz,
            pipes=summed(f.pipes for f in cores), instructions=sum(f.instructions for f in cores),
            uops=sum(f.uops for f in cores),
            stalls=summed(f.stalls for f in cores) if timed else {},
            hot_lines=self.stats.hot_lines() if timed and self.stats is not None else [],
            diagnostics=list(self.reported), cores=cores, path=f"{self.file}:{self.line} "
            f"{self.kernel}<<<{self.block_dim}>>>",
            vector_cores=getattr(self.schedule, "slots", 1))


def numbered(path: str | None, launch: int, core: int) -> str | None:
    """The file for LAUNCH's CORE: PATH itself for the first core of the first launch, else
    `STEM.LAUNCH[.CORE]SUFFIX` next to it (trace.json, trace.1.json, trace.0.1.json)."""
    if path is None or (launch == 0 and core == 0):
        return path
    p = Path(path)
    tag = f".{launch}" + (f".{core}" if core else "")
    return str(p.with_name(p.stem + tag + p.suffix))


def gm_view(host: int, nbytes: int) -> np.ndarray:
    """A writable uint8 numpy view of NBYTES of host memory at address HOST (no copy)."""
    if nbytes == 0:
        return np.zeros(0, np.uint8)
    buf = (ctypes.c_uint8 * nbytes).from_address(host)
    return np.frombuffer(buf, np.uint8)


def _guarded(name: str, when_stopped=None):
    """Wrap a callback: any exception becomes a diagnostic and a nonzero return; a stopped
    session answers nonzero at once (after WHEN_STOPPED(self), if given)."""

    def wrap(fn):
        @functools.wraps(fn)
        def call(self, *args):
            if self.stopped:
                if when_stopped is not None:
                    when_stopped(self)
                return 1
            try:
                return fn(self, *args) or 0
            except BaseException as e:  # noqa: BLE001 - ctypes would swallow it
                return self._callback_failed(name, args, e)

        return call

    return wrap


class Session:
    """The bridge table and the state behind it, for one run of a compiled program."""

    def __init__(self, chip: Chip, *, source: str, checks: str = "error", timing: bool = True,
                 max_steps: int = 10_000_000, trace: str | None = None,
                 trace_format: str = "jsonl", save_vasm: str | None = None,
                 emit: Callable[[Diagnostic], None] = lambda d: None,
                 on_launch_end: Callable[[Launch], None] = lambda launch: None,
                 on_print: Callable[[str], None] = lambda text: None,
                 status=None, stream_factory=None,
                 launch_observers: Callable[[], list] = list):
        """LAUNCH_OBSERVERS: a launch's own observers (e.g. `--view`'s), made at each launch
        and given to every core of it."""
        self.chip = chip
        self.launch_observers = launch_observers
        self.source = source
        self.options = {"checks": checks, "timing": timing, "max_steps": max_steps,
                        "trace_format": trace_format}
        self.trace = trace
        self.save_vasm = save_vasm
        self.emit = emit
        self.on_launch_end = on_launch_end
        self.on_print = on_print
        self.status = status
        if stream_factory is None:
            from simulator.stream import Stream

            # GM's bytes as each core found them are kept only for a recording (--save-vasm);
            # the headers' registers are theirs, not the kernel's: diagnostics do not name
            # them (and so say what a replay of the recording says); kernels may InitBuffer
            # all of UB, pipev's scratch is checked when an API uses it
            stream_factory = functools.partial(Stream, record_gm=save_vasm is not None,
                                               register_notes=False, scratch_on_use=True)
        self.stream_factory = stream_factory
        # name → (type, view, file, line): GM buffers for every launch, and for this launch
        self.gm: dict[str, tuple[str, np.ndarray, str, int]] = {}
        self.launch_gm: dict[str, tuple[str, np.ndarray, str, int]] = {}
        self.stream = None
        # the cores before this one: C may still hold a pointer into their UB (a `__ubuf__`
        # array taken before the next core's first call); two, not every core of the launch
        self._finished: deque = deque(maxlen=2)
        self._launch_texts: dict[int, dict[int, str]] = {}  # --save-vasm: launch → core → text
        self.launch: Launch | None = None
        self.core = 0
        self.launches: list[Launch] = []
        self.stopped = False
        self.failed = False
        # set by the worker of a host program: ends the program after its first error (the
        # session's report made, the process ended); None in kernel-only runs
        self.end_program: Callable[[], None] | None = None
        self.diagnostics: list[Diagnostic] = []
        self._reported: set[Diagnostic] = set()  # self.diagnostics, to look up
        self._strings: dict[bytes, str] = {}
        self._source = SourceLines()  # source lines, for call columns
        self._columns: dict[tuple[str, int], int] = {}  # (file, line) -> its call column
        # (file, line, col, text) of an issue call, as C gives them -> the running core's
        # issuer of that statement (`_issuer`; emptied when another core's stream opens)
        self._sites: dict[tuple[bytes, int, int, bytes], Callable] = {}
        self._reg_views: dict[int, memoryview] = {}  # an address -> its registers' bytes
        self.struct = PipevBridge()
        # the CFUNCTYPE objects must live as long as C may call them
        self._callbacks = (ISSUE(self._issue), UB_TENSOR(self._ub_tensor),
                           GM_BUFFER(self._gm_buffer), HOST_ACCESS(self._host_access),
                           MESSAGE(self._message), LAUNCH(self._launch),
                           LAUNCH_END(self._launch_end), SPECIAL(self._special),
                           SYSTEM_CYCLE(self._system_cycle), GM_DATA(self._gm_data),
                           GM_ACCESS(self._gm_access))
        for (field, _), cb in zip(PipevBridge._fields_, self._callbacks[:-4], strict=False):
            setattr(self.struct, field, cb)
        self.struct.special, self.struct.system_cycle, self.struct.gm_data, \
            self.struct.gm_access = self._callbacks[-4:]
        self._data_bytes: dict[str, int] = {}  # GM buffer -> its data bytes (gm_data)
        self._gm_tensor_cb = GM_TENSOR(self._gm_tensor)
        self.struct.gm_tensor = self._gm_tensor_cb
        self._core_cbs = (SYNC_ALL(self._sync_all), SWITCH_CORE(self._switch_core))
        self.struct.sync_all, self.struct.switch_core = self._core_cbs
        self._views: list = []  # the running core's GlobalTensor views (views.py)
        self._namer = Namer()
        self.struct.ub = None
        self.struct.ub_bytes = chip.ub_bytes
        self.struct.scratch_bytes = chip.scratch_bytes
        self.struct.spill_bytes = chip.spill_reserve_bytes
        self.struct.npu_arch = chip.npu_arch
        self.struct.block_idx = 0
        self.struct.block_num = 1
        self.struct.counter_mode = int(chip.counter_mode)
        self.struct.event_ids = chip.event_ids

    # -- helpers -----------------------------------------------------------------------------
    def _s(self, raw: bytes | None) -> str:
        if raw is None:
            return ""
        s = self._strings.get(raw)
        if s is None:
            s = self._strings[raw] = raw.decode("utf-8", "replace")
        return s

    def _column(self, file: str, line: int, col: int) -> int:
        """COL, or when the headers could not know it (0: GCC has no __builtin_COLUMN) the
        column of the first character of FILE's LINE, where the call's statement begins."""
        if col > 0 or line < 1:
            return col
        got = self._columns.get((file, line))
        if got is None:  # once per line: a loop's lines are asked again at every statement
            text = self._source.line(file, line)
            got = self._columns[(file, line)] = \
                len(text) - len(text.lstrip()) + 1 if text.strip() else 0
        return got

    def _callback_failed(self, name: str, args: tuple, e: BaseException) -> int:
        """Callback NAME (called with ARGS) raised E: its diagnostics, or an internal error at
        the call's position; the session stops. 1, the callback's answer."""
        if isinstance(e, DiagnosticError):
            self.fail(e.diagnostics)
            return 1
        file, line = self._where(args)
        self.fail([Diagnostic("error", file, line, 1, f"internal error in pipev's {name} "
                              f"callback: {type(e).__name__}: {e}")])
        return 1

    def _where(self, args) -> tuple[str, int]:
        if len(args) >= 2 and isinstance(args[0], bytes) and isinstance(args[1], int):
            return self._s(args[0]), args[1]
        if self.launch is not None:
            return self.launch.file, self.launch.line
        return self.source, 1

    def _mark(self, file: bytes, line: int, col: int = 0) -> None:
        if self.status is not None:
            self.status.call_site(file, line, col)

    def fail(self, diagnostics: list[Diagnostic]) -> None:
        """Record and report the diagnostics of an error; the session stops."""
        self.stopped = True  # first: a reporter that fails the session on a warning it
        self.failed = True   # makes an error (--werror) sees it failed already
        for d in diagnostics:
            self._report(d)
        if self.launch is not None:
            self.launch.ok = False
        stream = self.stream
        self._running(None)
        if stream is not None:
            record = getattr(stream, "record_error", None)  # a test's stand-in may lack it
            if record is not None and not stream.failed:  # an error of the headers or the
                first = next((d for d in diagnostics if d.severity == "error"), None)
                if first is not None:  # bridge: the replay ends with it too
                    record(first)
            try:
                self._save_vasm(stream)
            except DiagnosticError as e:
                for d in e.diagnostics:
                    self._record(d)
        if self.status is not None:
            self.status.set_failed()
        if self.launch is None:  # outside a launch: the program ends now
            self._end_if_failed()

    def _end_if_failed(self) -> None:
        """A failed run ends the program here (`end_program`), at the end of the launch that
        failed or at an error outside any launch."""
        end = self.end_program
        if self.failed and end is not None:
            self.end_program = None
            end()

    def _error(self, file: str, line: int, message: str, col: int = 0) -> int:
        self.fail([Diagnostic("error", file, line, col or 1, message)])
        return 1

    def _current(self, file: bytes, line: int):
        """The Stream of the running core (a new core starts when C changed block_idx), or
        None with an error when no launch is running."""
        if self.launch is None:
            self._error(self._s(file), line, "an AscendC API call outside a kernel launch "
                        "(launch the kernel with <<<...>>> or pipev::launch)")
            return None
        if self.struct.block_idx != self.core:
            self._next_core(int(self.struct.block_idx))
            if self.stopped:
                return None
        return self.stream

    # -- cores -------------------------------------------------------------------------------
    def _open_core(self, core: int) -> None:
        launch = self.launch
        assert launch is not None
        self.core = core
        name = f"{launch.file}:{launch.line} {launch.kernel}" + \
            (f" core {core}" if launch.block_dim > 1 else "")
        extra: dict = {"trace": numbered(self.trace, launch.index, 0)}
        if launch.observers:
            extra["observers"] = launch.observers
        if launch.block_dim > 1:  # one core of several: when and where it runs, what it shares
            start, slot, wave = launch.schedule.begin()
            launch.placed[core] = (slot, wave, start)
            extra.update(block=(core, launch.block_dim), origin=start,
                         gm_bandwidth=launch.schedule.ledger,
                         internal=launch.schedule.observers())
            if launch.writer is not None:  # the launch's one trace, a process per core
                from simulator.cores import Lane

                extra.update(trace=None, writer=Lane(launch.writer))
        stream = self.stream_factory(self.chip, name=name, **self.options, **extra)
        self._views = []
        self._namer.reset()
        if hasattr(stream, "data_bytes"):  # the recording marks each allocation's data
            stream.data_bytes = self._data_bytes
        for gm_name, (dtype, view, file, line) in {**self.gm, **self.launch_gm}.items():
            stream.declare_gm(gm_name, dtype, view, file=file, line=line)
        self._show(core, stream)

    def _show(self, core: int, stream) -> None:
        """CORE, with STREAM, is the running core: C sees its UB and block_idx."""
        self.core = core
        self._running(stream)
        ub = stream.ub
        self.struct.ub = ub.ctypes.data
        self.struct.ub_bytes = ub.size
        self.struct.block_idx = core

    def _park(self) -> None:
        """The running core waits at a SyncAll while another runs: its stream stays open; its
        transfers so far take their share of GM bandwidth from the cores that run next."""
        launch = self.launch
        launch.parked[self.core] = Parked(self.stream, self._views, self._namer)
        self._views, self._namer = [], Namer()
        if launch.schedule.ledger is not None:
            launch.schedule.ledger.commit()
        self._running(None)

    def _resume(self, core: int, parked: Parked) -> None:
        self._views, self._namer = parked.views, parked.namer
        self._show(core, parked.stream)

    def _running(self, stream) -> None:
        """STREAM (or None) is the running core's from now: the call sites' issuers were the
        last one's."""
        self.stream = stream
        self._sites.clear()

    def _close_core(self, final: bool = False) -> None:
        """End the running core; FINAL: the launch's last, whose result keeps GM's final
        contents (earlier cores' copies would only be dropped: GM is one for all)."""
        stream, launch = self.stream, self.launch
        if stream is None or launch is None:
            return
        self._running(None)
        self._finished.append(stream)
        try:
            result = stream.finish() if final else stream.finish(outputs=False)
        finally:
            self._save_vasm(stream)
        _data_only(getattr(result, "outputs", None), self._data_bytes)
        run = getattr(stream, "run", None)
        launch.add_core(self.core, result, getattr(run, "stats", None),
                        getattr(getattr(run, "model", None), "gm_wait", 0))
        if self.core in launch.placed:
            launch.schedule.end(launch.placed[self.core][0], getattr(result, "cycles", 0))
        races = launch.schedule.races if launch.schedule is not None else None
        for d in getattr(result, "diagnostics", ()):
            if races is not None and d.severity != "error" and races.race_of(d.message):
                launch.races.append(d)
            else:
                self._report(d)

    def _report(self, d: Diagnostic) -> None:
        """Record and emit D unless it was already (cores repeat each other's warnings)."""
        if d not in self._reported:
            self._record(d)

    def _record(self, d: Diagnostic) -> None:
        if self.launch is not None:
            self.launch.reported.append(d)
        self._reported.add(d)
        self.diagnostics.append(d)
        self.emit(d)

    def _report_races(self, launch: Launch) -> None:
        if launch.races:
            for d in launch.schedule.races.merged(launch.races):
                self._report(d)
            launch.races.clear()

    def _save_vasm(self, stream) -> None:
        """--save-vasm: the core's statements as a straight-line .vasm program with its GM
        inputs beside it (Stream.save_vasm), also after an error (the replay reproduces it)."""
        target = numbered(self.save_vasm, self.launch.index, self.core) if self.launch else None
        if target is None:
            return
        try:
            stream.save_vasm(target)
            self._save_views(stream, target)
            self._save_launch_vasm(stream)
        except OSError as e:
            raise DiagnosticError([Diagnostic("error", self.launch.file, self.launch.line, 1,
                                              f"cannot write --save-vasm {target}: "
                                              f"{e.strerror or e}")]) from None

    def _save_launch_vasm(self, stream) -> None:
        """A launch of several cores: its cores' recordings also as one program
        (launch_recording.py), written when its last core is saved."""
        launch = self.launch
        if launch.block_dim < 2 or not hasattr(stream, "vasm_text"):
            return
        first = Path(numbered(self.save_vasm, launch.index, 0))
        texts = self._launch_texts.setdefault(launch.index, {})
        texts[self.core] = stream.vasm_text(gm_file=f"{first.stem}.{{name}}.npy")
        if self.core == launch.block_dim - 1 or not launch.ok:
            del self._launch_texts[launch.index]  # written once, then dropped
            cores = [texts[k] for k in sorted(texts)]
            if sorted(texts) == list(range(len(texts))):
                launch_path(self.save_vasm, launch.index).write_text(
                    combined(cores, launch.kernel), encoding="utf-8")

    def _save_views(self, stream, target: str) -> None:
        """The core's GlobalTensor views beside its recording, each at the recording's
        statement index (views.py)."""
        starts = getattr(stream, "recorded_pcs", None)
        if not starts:
            return
        save_views(target, [attrs.evolve(v, pc=starts[min(v.pc, len(starts) - 1)])
                            for v in self._views])

    def _next_core(self, core: int) -> None:
        launch = self.launch
        if not 0 <= core < launch.block_dim:
            self._error(launch.file, launch.line, f"block_idx {core} is outside the launch's "
                        f"block_dim {launch.block_dim}")
            return
        try:
            self._close_core()
            self._open_core(core)
        except DiagnosticError as e:
            self.fail(e.diagnostics)

    # -- the callbacks -----------------------------------------------------------------------
    def _issue(self, file, line, col, text, regs, nregs):
        """(`_guarded` written out: the callback C calls most, once per API call)"""
        if self.stopped:
            return 1
        try:
            if self.status is not None:
                self.status.call_site(file, line, col)
            stream = self.stream
            if self.launch is None or self.struct.block_idx != self.core or stream is None:
                stream = self._current(file, line)
                if stream is None:
                    return 1
            site = (file, line, col, text)
            issuer = self._sites.get(site)
            if issuer is None:
                issuer = self._issuer(stream, site)
            issuer(self._regs(regs, nregs) if nregs > 0 else ())
            return 0
        except BaseException as e:  # noqa: BLE001 - ctypes would swallow it
            return self._callback_failed("issue", (file, line, col, text, regs, nregs), e)

    def _issuer(self, stream, site: tuple[bytes, int, int, bytes]) -> Callable:
        """The running core's issuer of SITE's statement (`Stream.site`; a stand-in stream's
        `issue`), kept for its later calls: its strings and column worked out once."""
        if len(self._sites) >= SITES:  # (texts with their values in them)
            self._sites.clear()
        file, line, col, text = site
        f, t = self._s(file), self._s(text)
        col = self._column(f, line, col)
        make = getattr(stream, "site", None)
        issuer = self._sites[site] = make(t, file=f, line=line, col=col) if make else \
            lambda words: stream.issue(t, file=f, line=line, col=col, regs=words)
        return issuer

    def _regs(self, addr: int, n: int) -> tuple[int, ...]:
        """The N uint64 values at ADDR: unpacked from a view of the array kept per address (a
        statement's registers sit in the headers' stack frame, the same few addresses each
        call; the view reads them in place, without a ctypes object or a slice a call)."""
        if n > REGS:  # (the headers never give more)
            return tuple((c_uint64 * n).from_address(addr))
        view = self._reg_views.get(addr)
        if view is None:
            if len(self._reg_views) >= REG_VIEWS:
                self._reg_views.clear()
            view = self._reg_views[addr] = \
                memoryview((c_uint64 * REGS).from_address(addr)).cast("B")
        return WORDS[n].unpack_from(view)

    def _system_cycle(self) -> int:
        """The running core's S-pipe time in 50 MHz ticks (GetSystemCycle), 0 outside a
        launch."""
        if self.launch is None:
            return 0
        stream = self._current(b"", 0)  # a new core's clock when C moved to the next block
        timing = getattr(getattr(stream, "executor", None), "timing", None)
        if timing is None:
            return 0
        return int(timing.s_time * SYSTEM_COUNTER_MHZ // self.chip.clock_mhz)

    def _gm_data(self, name: bytes, nbytes: int) -> int:
        """GM buffer NAME's first NBYTES are the program's data (the rest: the slack)."""
        self._data_bytes[self._s(name)] = int(nbytes)
        return 0

    @_guarded("gm_tensor")
    def _gm_tensor(self, file, line, type_, host, count):
        """The kernel set a GlobalTensor<TYPE> over COUNT elements at HOST: kept for the
        recording's views (the debugger's GM types and names); nothing is issued."""
        self._mark(file, line)
        stream = self._current(file, line)
        if stream is None:
            return 1
        place = self._gm_place(host or 0)
        if place is None:  # not in a buffer: a DMA through it is what reports it
            return 0
        f = self._s(file)
        self._views.append(GmView(self._namer.name(f, line), self._s(type_) or None, *place,
                                  int(count), getattr(stream, "issued", 0), f, line))
        return 0

    def _gm_place(self, host: int) -> tuple[str, int] | None:
        """(GM buffer, byte offset) of host address HOST."""
        for name, (_, view, _, _) in {**self.gm, **self.launch_gm}.items():
            base = view.ctypes.data if view.size else 0
            if view.size and base <= host < base + view.size:
                return name, host - base
        return None

    @_guarded("ub_tensor")
    def _ub_tensor(self, file, line, name, type_, addr, count):
        self._mark(file, line)
        stream = self._current(file, line)
        if stream is None:
            return 1
        dtype = lookup(self._s(type_))
        if dtype is None:
            return self._error(self._s(file), line, f"UB tensor {self._s(name)}: unknown type "
                               f"'{self._s(type_)}'")
        stream.declare_ub(self._s(name), dtype.name, count, addr, file=self._s(file), line=line)
        return 0

    @_guarded("gm_buffer")
    def _gm_buffer(self, file, line, name, type_, host, nbytes):
        self._mark(file, line)
        f, n = self._s(file), self._s(name)
        dtype = lookup(self._s(type_))
        if dtype is None:
            return self._error(f, line, f"GM buffer {n}: unknown type '{self._s(type_)}'")
        if not host and nbytes:
            return self._error(f, line, f"GM buffer {n}: a null pointer for {nbytes} bytes")
        self.declare_gm(n, dtype.name, gm_view(host or 0, nbytes), file=f, line=line)
        return 0

    def declare_gm(self, name: str, dtype: str, view: np.ndarray, *, file: str,
                   line: int) -> None:
        """A GM buffer. Declared during a launch (the headers declare GmAlloc buffers at each
        launch, and SetGlobalBuffer views) it lasts for that launch, since the host may free it
        afterwards; declared outside (kernel-only arguments) it is declared to every launch."""
        if self.launch is None:
            self.gm[name] = (dtype, view, file, line)
            return
        self.launch_gm[name] = (dtype, view, file, line)
        if self.stream is not None:
            self.stream.declare_gm(name, dtype, view, file=file, line=line)

    @_guarded("host_access")
    def _host_access(self, file, line, addr, nbytes, write):
        self._mark(file, line)
        stream = self._current(file, line)
        if stream is None:
            return 1
        report = getattr(stream, "host_access", None)  # not in Stream yet: the race checks
        if report is not None:                          # of scalar UB accesses come with it
            f = self._s(file)  # the call's column: where its statement begins
            report(addr, nbytes, bool(write), file=f, line=line, col=self._column(f, line, 0))
        return 0

    @_guarded("gm_access")
    def _gm_access(self, file, line, name, offset, nbytes, write):
        """GlobalTensor GetValue / SetValue: the cross-core race check sees the access."""
        self._mark(file, line)
        stream = self._current(file, line)
        if stream is None:
            return 1
        f = self._s(file)
        stream.host_gm_access(self._s(name), offset, nbytes, bool(write), file=f, line=line,
                              col=self._column(f, line, 0))
        return 0

    @_guarded("sync_all")
    def _sync_all(self, file, line):
        """The running core reached a SyncAll, its pipes drained (include/pipev/cores.h): it
        waits there; the last core to arrive releases them all (`_release`). Its recording ends
        there: a replay of one core cannot know what the others write at the barrier."""
        self._mark(file, line)
        stream = self._current(file, line)
        if stream is None:
            return 1
        launch, f = self.launch, self._s(file)
        col = self._column(f, line, 0)
        slots = launch.schedule.slots
        if slots < launch.block_dim:  # waves: every core must be resident at once
            return self._error(f, line, f"SyncAll: the launch's {launch.block_dim} cores do not "
                               f"fit on {self.chip.name}'s {slots} vector cores at once (they run "
                               "in waves): a core waiting here would wait for cores that start "
                               "only when it ends (on the device the launch hangs); launch at "
                               f"most {slots} cores", col)
        if self.options["timing"] and "sync_all" not in self._timing().t:
            return self._error(f, line, f"SyncAll: the chip profile {self.chip.name} has no "
                               "[timing] sync_all (the cycles from the last core's arrival until "
                               "every core goes on): add it to the profile, or run without "
                               "timing", col)
        self._arrive(launch, stream, Diagnostic("error", f, line, col or 1, REPLAY_ENDS))
        return 0

    def _timing(self):
        from simulator.timing.config import config_of

        return config_of(self.chip)

    def _arrive(self, launch: Launch, stream, replay_ends: Diagnostic) -> None:
        """The running core's STREAM waits at the SyncAll from its clock on; its recording ends
        with REPLAY_ENDS there. The last core to arrive releases them all."""
        record = getattr(stream, "record_error", None)
        if record is not None:
            record(replay_ends)
        launch.suspended.add(self.core)
        clock = getattr(stream, "clock", None)
        launch.arrivals[self.core] = clock() if clock is not None else 0
        if len(launch.arrivals) == launch.block_dim:
            self._release(launch)

    def _release(self, launch: Launch) -> None:
        """Every core of LAUNCH arrived at the SyncAll: each goes on at the latest arrival plus
        the chip's barrier cost (its [timing] sync_all), the cycles until then its stall
        `sync_all`; for the race check, GM accesses before the barrier are ordered before those
        after it."""
        resume = 0
        if self.options["timing"]:
            resume = max(launch.arrivals.values()) + self._timing().t["sync_all"]
        for core in launch.arrivals:
            stream = self.stream if core == self.core else launch.parked[core].stream
            wait = getattr(stream, "wait_until", None)
            if wait is not None:
                wait(resume, "sync_all")
        launch.arrivals.clear()
        races = launch.schedule.races
        if races is not None:
            races.barrier()

    @_guarded("switch_core")
    def _switch_core(self, core):
        """C runs CORE from now (include/pipev/cores.h): the running core is parked when a
        SyncAll suspended it, else it ended and is finished; CORE resumes, or starts."""
        launch = self.launch
        if launch is None:
            return self._error(self.source, 1, "a core switch outside a kernel launch")
        try:
            if self.core in launch.suspended:
                self._park()
            else:
                self._close_core()
            parked = launch.parked.pop(core, None)
            if parked is None:
                self._open_core(core)
            else:
                self._resume(core, parked)
        except DiagnosticError as e:
            self.fail(e.diagnostics)
            return 1
        launch.suspended.discard(core)
        return 0

    @_guarded("special")
    def _special(self, name, value):
        """A special register of the running core (0 before anything set it), or a chip fact
        the host's platform object asks for (`chip.vector_cores`: tiling/platform)."""
        key = self._s(name)
        if key in CHIP_FACTS:
            value[0] = getattr(self.chip, key.removeprefix("chip."))
            return 0
        stream = self.stream
        value[0] = stream.machine.special.get(key, 0) if stream is not None else 0
        return 0

    @_guarded("message")
    def _message(self, file, line, col, severity, text):
        self._mark(file, line, col)
        if severity < 0:
            self.on_print(self._s(text))
            return 0
        sev = SEVERITIES.get(severity, "error")
        f = self._s(file)
        d = Diagnostic(sev, f, line, self._column(f, line, col) or 1, self._s(text))
        if sev == "error":
            self.fail([d])
            return 1
        self._record(d)
        return 0

    @_guarded("launch")
    def _launch(self, file, line, kernel, block_dim):
        self._mark(file, line)
        f = self._s(file)
        if self.launch is not None:
            return self._error(f, line, f"kernel {self._s(kernel)} launched while "
                               f"{self.launch.kernel} (launched at {self.launch.file}:"
                               f"{self.launch.line}) is still running")
        if not 1 <= block_dim <= MAX_BLOCK_DIM:
            return self._error(f, line, f"kernel {self._s(kernel)} launched with blockDim "
                               f"{block_dim} (1..{MAX_BLOCK_DIM}, as --block-dim)")
        self.launch = Launch(len(self.launches), f, line, self._s(kernel), int(block_dim))
        self.launch.observers = self.launch_observers()
        if block_dim > 1:
            from simulator.cores import Schedule

            self.launch.schedule = Schedule(self.chip, int(block_dim),
                                            self.options["timing"], self.options["checks"])
            self.launch.writer = self._launch_writer(self.launch)
        self.launches.append(self.launch)
        if self.status is not None:
            self.status.launch_began(file, line)
        self.struct.block_num = block_dim
        self._open_core(0)
        return 0

    def _launch_writer(self, launch: Launch):
        """The one trace file of a launch of several cores (None without --trace), as a
        `.vasm` launch writes it: every event says its core (a Chrome trace: a process per
        core); the launch's summary ends it."""
        if self.trace is None:
            return None
        from simulator.trace import open_writer

        return open_writer(self.options["trace_format"],
                           Path(numbered(self.trace, launch.index, 0)), self.chip,
                           f"{launch.file}:{launch.line} {launch.kernel}",
                           self.options["timing"], cores=launch.block_dim)

    def _close_writer(self, launch: Launch, ok: bool) -> None:
        """Finish the launch's trace with its summary (also after an error: the user debugs
        with it); a trace that cannot be written fails the run."""
        writer, launch.writer = launch.writer, None
        if writer is None:
            return
        result = launch.result() if ok else None
        if result is not None and hasattr(result, "cycles"):
            from simulator.summary import summary_dict

            writer.on_finish(summary_dict(result))
        try:
            writer.close(ok=True)
        except DiagnosticError as e:
            self.fail(e.diagnostics)

    def _end_stopped(self) -> None:
        if self.launch is not None:
            self._close_writer(self.launch, ok=False)
            self._report_races(self.launch)
            self.launch.parked.clear()  # (cores a SyncAll suspended when the run stopped)
        self.launch = None
        self._finished.clear()
        self.launch_gm.clear()
        self.struct.ub = None
        if self.status is not None:
            self.status.launch_ended()
        self._end_if_failed()

    @_guarded("launch_end", when_stopped=_end_stopped)
    def _launch_end(self):
        launch = self.launch
        if launch is None:
            return self._error(self.source, 1, "a kernel launch ended that never began")
        try:
            self._close_core(final=True)
            self._report_races(launch)
            self._close_writer(launch, ok=True)
        finally:
            self._end_stopped()
        self.on_launch_end(launch)
        return 0

    def close(self) -> None:
        """The program returned: a launch still open is an error (its kernel never ended)."""
        if self.launch is not None and not self.stopped:
            self._error(self.launch.file, self.launch.line, f"kernel {self.launch.kernel}: "
                        "the launch never ended (launch_end was not called)")


def _data_only(outputs: dict | None, data_bytes: dict[str, int]) -> None:
    """OUTPUTS' GM buffers cut to their data bytes: the runtime's slack after an allocation's
    data is readable by kernels but is no output of the program."""
    if not outputs:
        return
    for name, nbytes in data_bytes.items():
        arr = outputs.get(name)
        if arr is not None and arr.nbytes > nbytes:
            outputs[name] = arr.reshape(-1).view(np.uint8)[:nbytes].view(arr.dtype) \
                if nbytes % arr.itemsize == 0 else arr.reshape(-1).view(np.uint8)[:nbytes]
