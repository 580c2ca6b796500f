"""`pipev check`: every check decidable without the input data, with `run`'s messages.

In a `.vasm` program nothing that decides a check depends on the data: registers are set by
`li`/`mov`/ALU/`addr` only (no instruction loads a register from memory), so branches, `.rept`,
addresses, masks, repeats and flags are the same whatever the inputs hold. The one exception is
the select-mask address of `vsel` mode 2, which is CMPMASK[31:0] — a value a kernel may have
loaded from data. So `check` runs the program (timing off) with every input that has no
constant INIT replaced by zeros, while `DataDependence` follows which UB bytes and whether
CMPMASK derive from input data; the diagnostics of a mode-2 `vsel` whose CMPMASK does are left
out and counted instead (`note: N checks need run-time values`).
"""

from __future__ import annotations

import attrs
import numpy as np

from isa.diagnostics import Diagnostic
from isa.program import Instruction, Program
from isa.types import to_npy
from simulator.errors import SimulationError
from simulator.events import Event, Observer, RunInfo

# the checks of one select-mask address that a data-derived CMPMASK leaves open
MASK_ADDRESS_CHECKS = ("alignment", "bounds", "init", "race")


@attrs.frozen
class CheckResult:
    diagnostics: tuple[Diagnostic, ...]
    undecided: tuple[Instruction, ...]  # mode-2 vsels whose mask address comes from data

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)

    @property
    def undecided_checks(self) -> int:
        return len(self.undecided) * len(MASK_ADDRESS_CHECKS)


class DataDependence(Observer):
    """Which UB bytes, GM bytes and whether CMPMASK hold values derived from input data
    (conservatively: an instruction that reads any such byte writes only such bytes)."""

    def __init__(self, program: Program):
        self.gm = {name: np.full(_bound(t), True, bool) if t.role in ("input", "inout")
                   else np.zeros(t.nbytes, bool)  # a dynamic output: zeroed pages, lazily
                   for name, t in program.gm.items()}
        self.cmpmask = False
        self.undecided: dict[int, Instruction] = {}  # id → instruction

    def on_start(self, run: RunInfo) -> None:
        self.ub = np.zeros(run.ub_bytes, bool)

    def _read(self, ev: Event) -> bool:
        ub = self.ub
        if any(ub[lo:hi].any() if idx is None else ub[idx].any()
               for _, lo, hi, idx, write in ev.ub_ranges() if not write):
            return True
        if any(self.gm[name][lo:hi].any() for name, lo, hi in ev.gm_reads):
            return True
        return self.cmpmask and ev.reads_cmpmask

    def on_event(self, ev: Event) -> None:
        ranges = ev.ub_ranges()
        if not ranges and not ev.writes_cmpmask and not ev.gm_writes:
            return
        tainted = self._read(ev)
        for _, lo, hi, idx, write in ranges:
            if write:
                if idx is None:
                    self.ub[lo:hi] = tainted
                else:
                    self.ub[idx] = tainted
        for name, lo, hi in ev.gm_writes:
            self.gm[name][lo:hi] = tainted
        if ev.writes_cmpmask:  # a compare keeps the bits it does not write: taint accumulates
            self.cmpmask = tainted or (self.cmpmask and ev.kind != "cmpmask_move")

    def before_write(self, instr: Instruction, op, repeat) -> None:
        """Before the instruction takes effect: a mode-2 vsel's address is read now."""
        if self.cmpmask and instr.defn.family.cmpmask_addr(instr.fields):
            self.undecided.setdefault(id(instr), instr)

    def on_error(self, diagnostic, instr: Instruction | None) -> None:
        if instr is not None and self.cmpmask and instr.defn.family.cmpmask_addr(instr.fields):
            self.undecided.setdefault(id(instr), instr)


# a dynamic input (declared at a maximum shape, #29) is checked bound to this many bytes
DYNAMIC_CHECK_BYTES = 1 << 20


def _bound(t) -> int:
    """The bytes a GM tensor has in the check: a dynamic one's bound, else all of it."""
    if not t.dynamic:
        return t.nbytes
    return min(t.nbytes, DYNAMIC_CHECK_BYTES) // t.dtype.size * t.dtype.size


def zero_inputs(program: Program) -> dict[str, np.ndarray]:
    """Zeros for every GM input without a constant INIT (the data `check` does not need)."""
    return {name: to_npy(t.dtype, np.zeros(_bound(t), np.uint8))
            for name, t in program.gm.items()
            if t.role in ("input", "inout") and (t.init is None or t.init.data is None)}


def check_program(program: Program, checks: str = "error",
                  max_steps: int = 10_000_000) -> CheckResult:
    """Run PROGRAM's checks on zero data; diagnostics that depend on the data are left out."""
    from simulator.run import Run

    dep = DataDependence(program)
    r = Run.of_program(program, zero_inputs(program), checks=checks, timing=False,
                       max_steps=max_steps, internal=[dep])
    try:
        r.execute()
    except SimulationError:
        pass
    undecided = tuple(dep.undecided.values())
    skip = {(i.file or program.path, i.line) for i in undecided}
    diags = tuple(d for d in r.diagnostics if (d.path, d.line) not in skip)
    return CheckResult(diags, undecided)
