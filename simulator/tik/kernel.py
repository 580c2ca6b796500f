"""The recording state of one `tik.Tik()` container, below everything that records into it:
the Scalars and Tensors (simulator/tik/values.py), the calls (call.py), the build (build.py)
and the debugger (debug.py) take a Kernel; tik.py's Tik is one, with the TIK API on top."""

from __future__ import annotations

from contextlib import contextmanager

from isa.chip import Chip
from isa.table import TABLE, Table
from simulator.tik.errors import Loc, TikError, caller
from simulator.tik.memo import Memo
from simulator.tik.nodes import Block, Life
from simulator.tik.regalloc import Registers


class Kernel:
    """The kernel being recorded: its chip and settings, the tree of recorded nodes, the
    registers and buffers in use, and (after BuildCCE) its program and inputs and outputs."""

    def __init__(self, loc: Loc, chip: Chip, checks: str, show_source: bool,
                 table: Table | None = None):
        self.chip = chip
        self.table = table if table is not None else TABLE  # the statements' instructions
        self.checks = checks
        self.show_source = show_source  # diagnostics of start_debug print their source line
        self.loc = loc
        self.root = Block()
        self.stack: list[Block] = [self.root]
        self.registers = Registers()
        self.tensors: dict = {}  # pipev name → root Tensor
        self.ub: list[tuple] = []  # placed UB buffers: (start, end, Tensor)
        # every UB range ever placed, freed ones included: a new_stmt_scope's tensor shares
        # bytes with later ones, which the synchronisation must order (see overlaps())
        self.placed: list[tuple[int, int, str]] = []
        self.scopes: list[tuple[list, list]] = []  # new_stmt_scope: (tensors, scalars) made in it
        self.lives: list[Life] = []  # the `with` scopes open now, innermost last
        self.labels = 0
        self.program = None
        self.inputs: list = []
        self.outputs: list = []
        self.kernel_name = ""
        self.block_dim = 1  # an outermost for_range(0, N, block_num=N) runs N cores
        self.notes: list = []  # warnings found while recording (the program carries them)
        # the for_range loops open now, innermost last: a serial loop (simulator/tik/jumps.py),
        # or None for a multi-core loop (tik_break / tik_continue may not leave one)
        self.loops: list = []
        self.runtime_ub: list = []  # UB tensors placed when the kernel runs (runtime_ub.py)
        # call sites' recordings replayed (simulator/tik/memo.py); the Recording of the
        # memoised call being recorded in full now
        self.memo = Memo(self)
        self.recording = None

    # -- diagnostics and recording -----------------------------------------------------------
    def error(self, message: str) -> TikError:
        return TikError.at(caller(), message)

    def record(self, node) -> None:
        if self.program is not None:
            raise TikError.at(node.loc, "the kernel was already built (BuildCCE): record "
                              "statements before it")
        self.stack[-1].nodes.append(node)
        registers = self.registers
        registers.stamps[id(node)] = registers.clock
        registers.clock += 1  # the Scalars' lifetimes are spans of this order

    @property
    def life(self) -> Life | None:
        """The scope what is made now lives in (None: the kernel's, which never ends)."""
        return self.lives[-1] if self.lives else None

    @contextmanager
    def living(self, what: str, loc: Loc):
        life = Life(what, loc)
        self.lives.append(life)
        try:
            yield life
        finally:
            self.lives.remove(life)
            life.ended = True

    def alive(self, value, loc: Loc, api: str) -> None:
        """VALUE (a Tensor or a Scalar) may be used here: its scope has not ended."""
        life = getattr(value, "life", None)
        if life is not None and life.ended:
            raise TikError.at(loc, f"{api}: {life.outside(value.name)}")

    @property
    def nested(self) -> bool:
        """Recording inside a for_range or if_scope."""
        return len(self.stack) > 1

    def overlaps(self) -> dict[str, frozenset[str]]:
        """For each UB buffer, the buffers sharing a byte with it (itself included): the
        storage the synchronisation tracks is bytes, not names."""
        out: dict[str, set[str]] = {name: {name} for _, _, name in self.placed}
        live: list[tuple[int, str]] = []  # (end, name) of ranges begun before this one
        for start, end, name in sorted(self.placed):
            live = [(e, n) for e, n in live if e > start]
            for _, other in live:
                out[name].add(other)
                out[other].add(name)
            live.append((end, name))
        return {name: frozenset(names) for name, names in out.items()}

    def _label(self) -> str:
        self.labels += 1
        return f"__tik{self.labels}"
