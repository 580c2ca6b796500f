"""The streaming entry (public: `pipev.Stream`): a run fed one statement at a time by a producer
that decides what comes next from the machine state — a C++ kernel running natively, a TIK
script, a test. The same checks, timing, traces and observers apply as to an assembled program.

Each statement is `.vasm` text (API or hardware level) issued at the caller's FILE:LINE:COL and
assembled once per (file, line, text); values that change from call to call are written as
registers (`x[x1]`, `count=x2`) and passed in `regs`, loaded without modelling `li`; a producer
calling from fixed call sites may keep one issuer per site (`site`). The executed
stream can be saved as a straight-line `.vasm` program (`vasm_text` / `save_vasm`) with the
registers replaced by their values; it replays with the same bytes and cycles.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import numpy as np

from isa.assembler import assemble_statement
from isa.chip import Chip, ChipError, get_chip
from isa.decode import ScalarAccess
from isa.diagnostics import AssemblyError, Diagnostic
from isa.families import HOST_ACCESS
from isa.families import REGISTER as MASK_WRITER
from isa.masks import MaskError, mask_after
from isa.program import Instruction, RegExpr, Tensor
from isa.table import InstrDef
from isa.types import lookup, to_npy
from simulator import scratch_use
from simulator.errors import SimulationError
from simulator.events import Event, Observer
from simulator.hazards import HazardChecks
from simulator.machine import Machine
from simulator.problems import Fault
from simulator.run import Run, RunResult, check_mode
from simulator.semantics import BUILTIN, InstructionSet
from simulator.sources import StreamSource

HOST_DEFN = InstrDef("host_access", (), HOST_ACCESS, level="host",
                     doc="the producer's scalar code reads or writes UB")


class HostAccess:
    """The UB bytes a producer's scalar code touched (an Event's op)."""

    def __init__(self, addr: int, nbytes: int, write: bool):
        self.addr, self.nbytes, self.write = addr, nbytes, write

    def ub_ranges(self) -> list:
        return [("UB", self.addr, self.addr + self.nbytes, None, self.write)]


REGISTER = re.compile(r"(?<![A-Za-z0-9_.])x([0-9]|[12][0-9]|3[01])(?![A-Za-z0-9_])")
M64 = (1 << 64) - 1


class Stream:
    def __init__(self, chip: Chip | str = "ascend910b", *, checks: str = "error",
                 observers: Sequence[Observer] = (), trace: str | Path | None = None,
                 trace_format: str = "jsonl", timing: bool = True,
                 max_steps: int = 10_000_000, name: str = "<stream>",
                 block: tuple[int, int] = (0, 1), origin: int = 0, gm_bandwidth=None,
                 internal: Sequence[Observer] = (), isa: InstructionSet | None = None,
                 record_gm: bool = True, writer: Observer | None = None,
                 register_notes: bool = True, scratch_on_use: bool = False,
                 fast: bool = True):
        """BLOCK (block_idx, block_num), ORIGIN, GM_BANDWIDTH and INTERNAL: one core of a
        multi-core launch (simulator/cores.py Schedule gives them). ISA: the instruction set
        statements are assembled and run with (None: pipev's own). RECORD_GM: keep each GM
        tensor's bytes as the stream first found them, the replay's inputs (`save_vasm`);
        without it a replay starts from GM as it is when saved, and the stream keeps no copy
        of GM (a launch of many cores over large buffers). WRITER: the launch's trace writer
        as this core sees it (simulator/cores.py Lane; the launch finishes it), instead of a
        TRACE of its own. REGISTER_NOTES: diagnostics name the registers behind a value
        (`(x1 = 0)`); off for a front end whose registers are its own, not the user's (the C++
        headers'), and then a `save_vasm` replay, whose statements hold values, says the same
        words. SCRATCH_ON_USE: UB tensors may take pipev's scratch area; a
        statement whose expansion then needs it is an error (simulator/scratch_use.py),
        instead of a warning when the tensor is declared. FAST: statements repeat through
        the fast loop's plans (simulator/fused.py) when every observer offers them; False runs
        every instruction through the reference path (the differential tests compare both)."""
        check_mode(checks)
        try:
            self.chip = get_chip(chip)
        except ChipError as e:
            raise SimulationError([Diagnostic("error", name, 1, 1, str(e))]) from None
        self.name = name
        self.checks = checks
        self.isa = isa if isa is not None else BUILTIN
        self.machine = Machine(self.chip, {}, block=block)
        self.source = StreamSource(name)
        self.tensors: dict[str, Tensor] = {}
        self._statements: dict[tuple[str, int, str], list[Instruction]] = {}
        self._generation = 0  # moves on when `_statements` is emptied (`site`)
        # text, file, line, col, regs, the hardware instructions the statement expanded to
        # (None: record_error's), and whether the machine was in counter mode before it
        self._log: list[tuple[str, str, int, int, tuple[int, ...], list | None, bool]] = []
        self._issued = 0
        self._replays: dict[tuple, bool] = {}  # see _same_expansion
        self._keyed: dict[str, tuple[int, ...]] = {}
        self._gm_initial: dict[str, bytes] = {}
        # GM buffer -> its data bytes (the producer's allocations: see vasm_text's data(N))
        self.data_bytes: dict[str, int] = {}
        self._record_gm = record_gm
        self.failed = False
        self.run = Run(self.machine, self.source, checks=checks, trace=trace,
                       trace_format=trace_format, max_steps=max_steps, observers=observers,
                       timing=timing, internal=internal, core=block[0], origin=origin,
                       gm_bandwidth=gm_bandwidth, isa=self.isa, writer=writer, fast=fast)
        self.executor = self.run.executor
        # the fast loop's `issue` (plans for statements that repeat), or None: `step` each
        self._fast = self.run.loop if self.run.loop is not self.executor else None
        self.executor.policy.register_notes = register_notes
        self.hazards = next((ob for ob in self.executor.observers
                             if isinstance(ob, HazardChecks)), None)
        self._host: dict[tuple, Instruction] = {}
        self._scratch_warned: set[int] = set()  # UB addresses warned about (declare_ub)
        self._scratch_on_use = scratch_on_use
        self._scratch_spans: dict[tuple, tuple[int, int] | None] = {}  # statement -> its use
        self._declared_in: dict[str, str] = {}  # UB tensor -> the file that declared it
        self.executor.start()

    # -- memory ------------------------------------------------------------------------------
    @property
    def ub(self) -> np.ndarray:
        """The machine's Unified Buffer (uint8, writable): hand its address to host code."""
        return self.machine.ub

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return self.run.diagnostics

    def declare_gm(self, name: str, dtype: str, buffer: np.ndarray, *, file: str = "",
                   line: int = 0) -> None:
        """A GM tensor over BUFFER (uint8, typically a view of host memory: DMA reads and writes
        it in place)."""
        t = self._type(dtype, file, line)
        buf = np.asarray(buffer)
        if buf.dtype != np.uint8 or buf.ndim != 1:
            buf = buf.reshape(-1).view(np.uint8)
        count = buf.size * 2 if t.nibble else buf.size // t.size  # s4: two elements a byte
        self._declare(Tensor(name, "gm", t, count, line, 1, role="inout"))
        self.machine.gm[name] = buf
        self._gm_initial.pop(name, None)

    def declare_ub(self, name: str, dtype: str, count: int, addr: int, *, file: str = "",
                   line: int = 0) -> None:
        """A typed UB tensor of COUNT elements at byte ADDR (tensors may alias): statements name
        it, and the footprint checks keep accesses inside it."""
        t = self._type(dtype, file, line)
        if addr < 0 or addr % 32 or addr + t.nbytes(count) > self.chip.ub_bytes:
            raise SimulationError([Diagnostic(
                "error", file or self.name, line, 1,
                f"UB tensor '{name}' ({count} x {t.name} at {addr:#x}) must be 32-byte aligned "
                f"and inside UB ({self.chip.ub_bytes} bytes)")])
        self._declared_in[name] = file or self.name
        why = None if self._scratch_on_use else \
            self.chip.scratch_overlap(name, addr, t.nbytes(count))
        if why and addr not in self._scratch_warned:
            # the API expansions write the scratch area without asking: say so once per buffer
            # (its typed views share the address), as the .vasm front end does
            self._scratch_warned.add(addr)
            self.diagnostics.append(Diagnostic("warning", file or self.name, line, 1, why))
        self._declare(Tensor(name, "ub", t, count, line, 1, addr=addr, explicit=True))

    def _type(self, dtype: str, file: str, line: int):
        t = lookup(dtype)
        if t is None:
            raise SimulationError([Diagnostic("error", file or self.name, line, 1,
                                              f"unknown type '{dtype}'")])
        return t

    def _declare(self, tensor: Tensor) -> None:
        old = self.tensors.get(tensor.name)
        if old is not None and (old.space, old.dtype, old.count, old.addr) != \
                (tensor.space, tensor.dtype, tensor.count, tensor.addr):
            self._statements.clear()  # assembled statements name the old tensor
            self._generation += 1  # (and `site`'s issuers hold them)
            if self._fast is not None:
                self._fast.forget()  # and so may the plans made for their texts
        self.tensors[tensor.name] = tensor

    # -- statements --------------------------------------------------------------------------
    def issue(self, text: str, *, file: str = "", line: int = 0, col: int = 0,
              regs: Sequence[int] | Mapping[int, int] = ()) -> None:
        """Run one statement. REGS: a sequence (regs[k] -> x(k+1)) or {register: value}.
        Raises SimulationError (AssemblyError for bad text) at FILE:LINE:COL."""
        if self.failed:
            raise SimulationError(self.diagnostics)
        file = file or self.name
        key = (file, line, text)
        hw = self._statements.get(key)
        if hw is None:
            hw = self._statement(text, file, line, col)
        if self._scratch_on_use and self._scratch_spans.get(key, True) is not None:
            self._check_scratch(key, hw, file, line, col)
        if self._record_gm:
            values = self._load(regs)
            if len(self._gm_initial) < len(self.machine.gm):
                self._snapshot_gm()
            self._note(text, file, line, col, values, hw, bool(self.machine.counter))
        else:  # no log kept (`_note`): the values go to the registers, the count moves
            if regs.__class__ is tuple:
                x = self.machine.x
                reg = 0
                for value in regs:
                    reg += 1
                    x[reg] = int(value) & M64
            else:
                self._load(regs)
            self._issued += 1
        self._execute(hw)

    def site(self, text: str, *, file: str = "", line: int = 0,
             col: int = 0) -> Callable[[tuple[int, ...]], None]:
        """issuer(words): `issue(text, file=FILE, line=LINE, col=COL, regs=words)`, for a
        producer that issues TEXT from one call site again and again with WORDS, its registers
        x1.. as 64-bit words already (ints in 0..2**64-1): the C++ bridge keeps one per call
        site. The statement is looked up (or assembled) at the first call, again after a
        redeclaration emptied the statements; its scratch check runs at each call when its
        expansion uses the scratch area. A subclass's own `issue`, or a stream that records
        (`record_gm`: a log entry a call), gets every call through `issue`."""
        if type(self).issue is not Stream.issue or self._record_gm:
            return lambda words: self.issue(text, file=file, line=line, col=col, regs=words)
        file = file or self.name
        key, x = (file, line, text), self.machine.x
        held: list = [None, -1, False]  # the statement, its generation, its scratch check

        def issuer(words: tuple[int, ...]) -> None:
            if self.failed:
                raise SimulationError(self.diagnostics)
            hw = held[0]
            if held[1] != self._generation:
                hw = self._statement(text, file, line, col)  # (assembled at most once)
                held[:] = hw, self._generation, self._scratch_on_use and \
                    self._scratch_span(key, hw) is not None
            if held[2]:
                self._check_scratch(key, hw, file, line, col)
            x[1:len(words) + 1] = words
            self._issued += 1
            self._execute(hw)
        return issuer

    def _execute(self, hw: list[Instruction]) -> None:
        """Run a statement's instructions HW (their registers loaded): through the fast loop's
        plans, else each by the reference path."""
        try:
            if self._fast is not None:
                self._fast.issue(hw)
            else:
                self.source.push(hw)
                while self.source.queue:
                    self.executor.step()
        except Fault:
            self.source.queue.clear()
            self._stop()
            raise SimulationError(self.diagnostics, partial=self.machine) from None

    def _stop(self) -> None:
        """The run failed: the plans' counts so far to their owners (as the reference path
        keeps them), the trace closed."""
        self.failed = True
        if self._fast is not None:
            self._fast.settle()
        self.run.close_trace_after_error()

    def _statement(self, text: str, file: str, line: int, col: int) -> list[Instruction]:
        key = (file, line, text)
        hw = self._statements.get(key)
        if hw is None:
            pc = len(self.source.statements)
            try:
                stmt, warnings = assemble_statement(text, file, line, col, pc, self.chip,
                                                    self.tensors, self.checks,
                                                    table=self.isa)
            except AssemblyError:
                self._stop()
                raise
            self.diagnostics.extend(warnings)
            self.source.statements.append(stmt.source)
            hw = self._statements[key] = list(stmt.hw)
        return hw

    def _check_scratch(self, key: tuple, hw: list[Instruction], file: str, line: int,
                       col: int) -> None:
        """An error at the call when its expansion's temporaries overlap a UB tensor."""
        span = self._scratch_span(key, hw)
        if span is None:
            return
        tensor = scratch_use.overlapping(span, self.tensors)
        if tensor is None:
            return
        self._stop()
        self.diagnostics.append(Diagnostic("error", file, line, col or 1, scratch_use.message(
            span, tensor, self._declared_in.get(tensor.name, file))))
        raise SimulationError(self.diagnostics)

    def _scratch_span(self, key: tuple, hw: list[Instruction]) -> tuple[int, int] | None:
        """The scratch bytes the statement KEY's expansion HW uses, or None."""
        if key not in self._scratch_spans:
            self._scratch_spans[key] = scratch_use.scratch_span(hw, self.chip.scratch_base)
        return self._scratch_spans[key]

    def _load(self, regs: Sequence[int] | Mapping[int, int]) -> tuple[int, ...]:
        x = self.machine.x
        items = enumerate(regs, 1) if regs.__class__ is tuple else \
            regs.items() if isinstance(regs, Mapping) else enumerate(regs, 1)
        for reg, value in items:
            x[reg] = int(value) & M64
        return tuple(x)

    def record_error(self, diagnostic: Diagnostic) -> None:
        """The producer stopped the run with DIAGNOSTIC (an error of its own, e.g. an AscendC
        queue misuse the headers found): the saved program ends with a `fail` statement
        at its position, so a replay ends with the same error."""
        message = diagnostic.message.replace('"', "'").replace("\n", " ")
        self._note(f'fail "{message}"', diagnostic.path, diagnostic.line, diagnostic.column,
                   (), None, False)

    def _snapshot_gm(self) -> None:
        """Each GM tensor's bytes as the first statement after its declaration finds them (the
        replay's inputs)."""
        if self._record_gm and len(self._gm_initial) < len(self.machine.gm):
            for name, buf in self.machine.gm.items():
                if name not in self._gm_initial:
                    self._gm_initial[name] = buf.tobytes()

    def _host_instruction(self, write: bool, file: str, line: int, col: int,
                          memory: str) -> Instruction:
        """The stand-in instruction of the producer's GetValue / SetValue at FILE:LINE:COL
        (one per place and MEMORY), which the checks' diagnostics point at."""
        key = (file, line, col, bool(write), memory)
        instr = self._host.get(key)
        if instr is None:
            text = "SetValue" if write else "GetValue"
            instr = self._host[key] = Instruction.of(
                HOST_DEFN, None, None, {}, {}, {}, -1, line, max(col, 1), text, file=file,
                col_fixed=True)
        return instr

    def host_access(self, addr: int, nbytes: int, write: bool, *, file: str = "",
                    line: int = 0, col: int = 1) -> None:
        """The producer's own scalar code read (or wrote) UB bytes [addr, addr + nbytes) — a
        C++ kernel's GetValue / SetValue. Not timed; the init and race checks see it as an
        access by S, so a missing V→S (or MTE2→S) sync before it is reported."""
        if self.hazards is None or nbytes <= 0:
            return
        instr = self._host_instruction(write, file or self.name, line, col, "ub")
        ev = Event(self.executor.steps, instr, "S", HostAccess(addr, nbytes, bool(write)), 1,
                   None, False, self.machine.mask, self.machine.counter, self.machine.mask,
                   self.machine.counter, b"", self.source)
        self.hazards.on_event(ev)

    def host_gm_access(self, tensor: str, offset: int, nbytes: int, write: bool, *,
                       file: str = "", line: int = 0, col: int = 1) -> None:
        """The producer's own scalar code read (or wrote) NBYTES bytes at byte OFFSET of GM
        tensor TENSOR — a C++ kernel's GlobalTensor GetValue / SetValue. Not timed; the
        cross-core race check of a launch sees it as the scalar unit's access to GM."""
        from simulator.crosscore import CrossCoreRaces

        if self._record_gm and nbytes > 0:
            self._record_gm_access(tensor, offset, nbytes, write, file or self.name, line, col)
        races = [ob for ob in self.executor.observers if isinstance(ob, CrossCoreRaces)]
        if not races or nbytes <= 0:
            return
        instr = self._host_instruction(write, file or self.name, line, col, "gm")
        ev = Event(self.executor.steps, instr, "S",
                   ScalarAccess(instr, offset, nbytes, bool(write), tensor), 1, None, False,
                   self.machine.mask, self.machine.counter, self.machine.mask,
                   self.machine.counter, b"", self.source)
        ev.core = self.executor.core
        for ob in races:
            ob.on_event(ev)

    def _record_gm_access(self, tensor: str, offset: int, nbytes: int, write: bool, file: str,
                          line: int, col: int) -> None:
        """The recording carries a GetValue / SetValue of GM as the scalar unit's `ld` / `st`
        of the element (a store after `li` of the bytes it wrote: the producer calls after
        writing), so that a replay writes what the run wrote and its race check sees the
        access. Only where the chip's scalar unit reaches GM (ld/st of GM assemble) and at an
        offset that is a whole element of the tensor's type; elsewhere the replay lacks it, as
        it lacked every one before (docs/decisions.md)."""
        t = self.tensors.get(tensor)
        if t is None or not self.chip.scalar_gm or offset % t.dtype.size or \
                nbytes not in (1, 2, 4, 8):
            return
        mnemonic_t = t.dtype.name if t.dtype.size == nbytes else f"u{8 * nbytes}"
        elem = f"{tensor}[{offset // t.dtype.size}]"
        if write:
            data = self.machine.gm[tensor][offset:offset + nbytes].tobytes()
            value = int.from_bytes(data, "little")
            texts = [f"li x31, {value:#x}", f"st.{mnemonic_t} x31, {elem}"]
        else:
            texts = [f"ld.{mnemonic_t} x31, {elem}"]
        if self._record_gm and len(self._gm_initial) < len(self.machine.gm):
            self._snapshot_gm()
        for text in texts:
            self._note(text, file, line, col, (), None, False)

    # -- other cores -------------------------------------------------------------------------
    def clock(self) -> int:
        """The cycle S issues its next statement at (0 without timing): after a `pipe_barrier
        ALL`, when the core's pipes have drained."""
        model = self.run.model
        if model is None:
            return 0
        if self._fast is not None:
            self._fast.settle()
        return model.s_time

    def wait_until(self, cycle: int, cause: str) -> int:
        """The core waits for something outside it (the launch's other cores at a SyncAll): S
        issues nothing before CYCLE; the cycles waited are the run's stall CAUSE (a cause only
        such a wait has: a run without one reports what it did before). Returns them."""
        model = self.run.model
        if model is None or self.failed:
            return 0
        if self._fast is not None:
            self._fast.settle()
        wait = model.hold_until(cycle, cause)
        stalls = self.run.stats.stalls
        stalls[cause] = stalls.get(cause, 0) + wait
        return wait

    # -- the end -----------------------------------------------------------------------------
    def finish(self, outputs: bool = True) -> RunResult:
        """End the run (the "flag still set" warnings, the trace's summary) and return its
        result; outputs are every GM tensor's final contents (a copy of each; none when
        OUTPUTS is false: a core of a launch whose later cores go on with the same GM)."""
        if self.failed:
            raise SimulationError(self.diagnostics)
        if self._fast is not None:
            self._fast.settle()
        self.executor.finish()
        self.run.close()
        if not outputs:
            return self.run.result(None, {})
        final = {n: to_npy(t.dtype, self.machine.gm[n].copy()).copy()
                 for n, t in self.tensors.items() if t.space == "gm"}
        return self.run.result(None, final)

    def vasm_text(self, gm_file: str = "{name}.npy") -> str:
        """The executed stream as a straight-line program: declarations, then every statement
        with its registers replaced by their values, after a `.loc FILE LINE [COL]` naming the
        caller's position whenever it changes (so a replay's diagnostics, traces and hot lines
        name the producer's lines). GM inputs come from .npy files named by GM_FILE (see
        `save_vasm`)."""
        out = [f"; pipev: the stream {self.name} as executed (straight-line replay)",
               f".chip {self.chip.name}"]
        for t in self.tensors.values():
            if t.space == "gm" and t.count == 0:
                continue  # an empty buffer (a workspace of 0 bytes): nothing can touch it
            if t.space == "gm":
                init = gm_file.format(name=t.name)
                data = self.data_bytes.get(t.name, 0)  # an allocation's data before its slack
                data = f" data({data})" if 0 < data < t.nbytes else ""
                out.append(f'.gm {t.name} {t.dtype.name}[{t.count}] inout{data} '
                           f'= file("{init}")')
            else:
                out.append(f".ub {t.name} {t.dtype.name}[{t.count}] @{t.addr:#x}")
        at = None
        # the recording's statement index where each issued statement begins (one issued
        # statement may replay as several), and the count after the last: `recorded_pcs`
        starts, pc = [], 0
        for text, file, line, col, regs, hw, counter in self._log:
            if (file, line, col) != at:
                at = (file, line, col)
                out.append(f'.loc "{file}" {line}' + (f" {col}" if col > 0 else ""))
            lines = self._replay_lines(text, file, line, regs, hw, counter)
            starts.append(pc)
            pc += len(lines)
            out.extend(f"    {s}" for s in lines)
        self.recorded_pcs = [*starts, pc]
        return "\n".join(out) + "\n"

    def _note(self, *entry) -> None:
        """One statement of the executed stream: counted, and kept for `vasm_text` when this
        stream records (a run without --save-vasm keeps no log: a long C++ kernel issues
        millions of statements)."""
        self._issued += 1
        if self._record_gm:
            self._log.append(entry)

    @property
    def issued(self) -> int:
        """Statements issued so far (an index into `recorded_pcs` once recorded)."""
        return self._issued

    def _replay_lines(self, text: str, file: str, line: int, regs: tuple[int, ...],
                      hw: list[Instruction] | None, counter: bool) -> list[str]:
        """The statement TEXT as it ran with REGS, for the replay: its registers replaced by
        their values when that text expands to the same hardware instructions (an API expansion
        may choose another sequence for a constant than for a register: compare's count= is one
        counter-mode instruction for a register, whole repeats for a constant), else the
        hardware instructions HW that ran, each with its registers replaced."""
        if hw is None:  # record_error's statement
            return [text]
        if self._same_expansion(text, file, line, regs, hw, counter):
            return [substitute(text, regs)]
        return [substitute(h.text, regs) for h in hw]

    def _same_expansion(self, text: str, file: str, line: int, regs: tuple[int, ...],
                        hw: list[Instruction], counter: bool) -> bool:
        """Whether TEXT with REGS' values expands as HW did. Asked once per statement and
        values of its registers outside brackets: an element index moves an operand and never
        changes which instructions a statement expands to (a loop over tiles stays one check)."""
        used = self._keyed.get(text)
        if used is None:
            used = self._keyed[text] = keyed_registers(text)
        key = (file, line, text, counter, tuple(regs[r] for r in used))
        same = self._replays.get(key)
        if same is None:
            try:
                stmt, _ = assemble_statement(substitute(text, regs), file, line, 0, 0, self.chip,
                                             self.tensors, "off", table=self.isa)
                same = shape(stmt.hw, (), counter) == shape(hw, regs, counter)
            except AssemblyError:
                same = False
            self._replays[key] = same
        return same

    def save_vasm(self, path: str | Path) -> list[Path]:
        """Write the replay program and its GM input files beside it; return the paths."""
        path = Path(path)
        stem = path.stem
        written = []
        for name, t in self.tensors.items():
            if t.space != "gm" or t.count == 0:
                continue
            data = self._gm_initial.get(name) or self.machine.gm[name].tobytes()
            npy = path.with_name(f"{stem}.{name}.npy")
            arr = to_npy(t.dtype, np.frombuffer(data, np.uint8).copy())
            np.save(npy, arr, allow_pickle=False)
            written.append(npy)
        path.write_text(self.vasm_text(gm_file=f"{stem}.{{name}}.npy"), encoding="utf-8")
        return [path, *written]


def substitute(text: str, regs: tuple[int, ...]) -> str:
    """TEXT with every register xN replaced by its value: a register is a 64-bit word (an
    index, a count, a mask word), so a value with bit 63 set is written as the unsigned word
    in hex (a mask word 0xffff0000ffff0000), never as a negative number no key accepts."""
    def value(m: re.Match) -> str:
        v = regs[int(m.group(1))]
        return f"({v:#x})" if v >> 63 else f"({v})"
    return REGISTER.sub(value, text)


def keyed_registers(text: str) -> tuple[int, ...]:
    """The registers TEXT reads outside square brackets (keys, positional values), not as an
    element index."""
    out = []
    for m in REGISTER.finditer(text):
        before = text[:m.start()]
        if before.count("[") <= before.count("]"):
            out.append(int(m.group(1)))
    return tuple(dict.fromkeys(out))


def _resolved(v, regs: tuple[int, ...]):
    """V, or the value of register expression V with REGS."""
    if isinstance(v, RegExpr):
        return (regs[v.reg] * v.scale + v.offset) & M64
    return v


def shape(hw: list[Instruction], regs: tuple[int, ...], counter: bool = False) -> tuple:
    """What a replay must keep of a statement's hardware instructions: which instructions, in
    order, with their repeat count and mode (registers read with REGS); an instruction writing
    MASK or the mask mode by what it leaves there (`set_mask.f16 x1` with x1 = 60 and
    `set_vector_mask 0, 0x0fffffffffffffff` are the same step in normal mode). COUNTER: the
    mask mode before the statement (in counter mode `set_mask.T LEN` sets a count)."""
    out = []
    state: tuple = (("?", "?"), counter)  # MASK and the mask mode as the statement found them
    for h in hw:
        if h.defn.family.kind == MASK_WRITER:
            try:
                state = mask_after(h, *state, lambda role, h=h: _resolved(
                    h.operands[role].value, regs))
            except MaskError:
                return ("invalid",)
            out.append(("mask", state))
            continue
        out.append((h.defn.name, h.op, h.dtype, _resolved(h.fields.get("repeat"), regs),
                    _resolved(h.fields.get("mode"), regs)))
    return tuple(out)
