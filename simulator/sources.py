"""Where the executor's instructions come from. A source hands out hardware instructions one at
a time and says where each came from; the executor never knows which kind it has.

- ProgramSource: an assembled program — its flat instruction list, labels and branches.
- StreamSource: statements pushed one at a time by a producer that decides what comes next
  from the machine state (simulator/stream.py: a C++ kernel, a TIK script, a test).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from isa.program import Instruction, Program
from simulator.semantics.issued import HALT


class ProgramSource:
    def __init__(self, program: Program):
        self.program = program
        self.path = program.path
        self.lines = program.lines
        # pc_start: label target (statement pc) -> flat index; a statement that expands to
        # nothing (e.g. `select count=0`) maps to the next instruction, a label at the end to
        # len(flat). None when every statement is one instruction (the index is the pc)
        self.flat, self.pc_start = program.flat()
        self.index = 0  # the flat index of the next instruction (a loop may move it: fused.py)

    def fetch(self) -> Instruction | None:
        try:
            return self.flat[self.index]
        except IndexError:  # past the end (cheaper than testing the length every time)
            return None

    def advance(self, jump: int | None) -> None:
        if jump is None:
            self.index += 1
        elif jump == HALT:
            self.index = len(self.flat)
        else:
            self.index = self.start_of(jump)

    def start_of(self, pc: int) -> int:
        """The flat index of statement PC's first instruction (len(flat) past the end)."""
        if not 0 <= pc < len(self.program.statements):
            return len(self.flat)
        return pc if self.pc_start is None else self.pc_start[pc]

    def at_end(self) -> bool:
        return self.index >= len(self.flat)

    def ahead(self, pred: Callable[[Instruction], bool]) -> Instruction | bool:
        """The next instruction after the current one for which PRED holds, else False."""
        return next((h for h in self.flat[self.index + 1:] if pred(h)), False)

    def rept(self, instr: Instruction) -> int | None:
        return self.program.statements[instr.pc].rept

    def statement_text(self, instr: Instruction) -> str:
        return self.program.statements[instr.pc].source

    def initialised(self) -> list[tuple[int, int]]:
        """UB ranges the program's INITs write before the first instruction."""
        return [(t.addr, t.addr + t.nbytes) for t in self.program.ub.values()
                if t.init is not None and t.init.data is not None]


class StreamSource:
    """Hardware instructions queued by the streaming entry; `at_end` never holds, so the run
    finishes only when the producer says so."""

    program = None

    def __init__(self, path: str):
        self.path = path
        self.lines: tuple[str, ...] = ()
        self.queue: deque[Instruction] = deque()
        self.statements: list[str] = []  # statement pc -> its text
        self.index = 0  # instructions executed

    def push(self, instrs) -> None:
        self.queue.extend(instrs)

    def fetch(self) -> Instruction | None:
        return self.queue[0] if self.queue else None

    def advance(self, jump: int | None) -> None:
        self.queue.popleft()
        self.index += 1

    def at_end(self) -> bool:
        return False

    def ahead(self, pred) -> None:
        return None  # a stream cannot look ahead

    def rept(self, instr: Instruction) -> None:
        return None

    def statement_text(self, instr: Instruction) -> str:
        return self.statements[instr.pc]

    def initialised(self) -> list[tuple[int, int]]:
        return []
