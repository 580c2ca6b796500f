"""What the executor tells its observers. The executor never knows who listens: timing, trace
writers, history checks and the debugger all subscribe the same way."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from isa.decode import DmaOp, VectorOp
from isa.program import Instruction

if TYPE_CHECKING:  # pragma: no cover
    from isa.diagnostics import Diagnostic
    from simulator.executor import Executor


@attrs.frozen(slots=True)
class Event:
    """One executed hardware instruction. The machine state after it is on the executor."""

    index: int  # position in the flat hardware instruction list
    instr: Instruction
    pipe: str  # S, V, MTE2, MTE3
    vop: VectorOp | None = None
    dma: DmaOp | None = None
    taken: bool = False  # a branch that was taken
    flag: tuple[str, str, int] | None = None
    mask: tuple[int, int] = (0, 0)  # MASK at issue
    counter: bool = False  # mask mode at issue


class Observer:
    """Base class: override what you need. Every method is called by the executor only."""

    def attach(self, executor: Executor) -> None:
        """Called once before the first instruction."""

    def on_event(self, event: Event) -> None:
        """Called after each hardware instruction took effect."""

    def on_repeat(self, event: Event, repeat: int) -> None:
        """Called after each repeat, only while the executor runs repeat by repeat."""

    def on_finish(self, executor: Executor) -> None:
        """Called once when the program ended normally."""

    def on_error(self, executor: Executor, diagnostic: Diagnostic) -> None:
        """Called once when the run stops on an error."""
