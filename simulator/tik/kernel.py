"""The recording state of one `tik.Tik()` container, below everything that records into it:
the Scalars and Tensors (simulator/tik/values.py), the calls (call.py), the build (build.py)
and the debugger (debug.py) take a Kernel; tik.py's Tik is one, with the TIK API on top."""

from __future__ import annotations

from isa.chip import Chip
from isa.table import TABLE, Table
from simulator.tik.errors import Loc, TikError, caller
from simulator.tik.nodes import Block


class Registers:
    """x1..x23 hold integer Scalars (x24..x31 are the expressions' scratch)."""

    def __init__(self) -> None:
        self.free = list(range(1, 24))

    def take(self, loc: Loc, name: str) -> int:
        if not self.free:
            raise TikError.at(loc, f"Scalar '{name}': more than 23 integer Scalars are alive "
                              "(pipev keeps them in registers x1..x23)")
        return self.free.pop(0)

    def give_back(self, reg: int) -> None:
        if reg not in self.free:
            self.free.append(reg)
            self.free.sort()


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
        self.scopes: list[tuple[list, list]] = []  # new_stmt_scope: (tensors, scalars) made in it
        self.labels = 0
        self.program = None
        self.inputs: list = []
        self.outputs: list = []
        self.kernel_name = ""
        self.block_dim = 1  # an outermost for_range(0, N, block_num=N) runs N cores

    # -- diagnostics and recording -----------------------------------------------------------
    def error(self, message: str) -> TikError:
        return TikError.at(caller(), message)

    def record(self, node) -> None:
        if self.program is not None:
            raise TikError.at(node.loc, "the kernel was already built (BuildCCE): record "
                              "statements before it")
        self.stack[-1].nodes.append(node)

    @property
    def nested(self) -> bool:
        """Recording inside a for_range or if_scope."""
        return len(self.stack) > 1

    def _label(self) -> str:
        self.labels += 1
        return f"__tik{self.labels}"
