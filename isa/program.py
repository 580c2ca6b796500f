"""The assembled program: tensors, statements and hardware instructions with source spans."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import numpy as np

from isa.chip import Chip
from isa.lexer import register_name
from isa.table import InstrDef
from isa.types import DType


@attrs.frozen
class RegExpr:
    """A value read from a scalar register at issue: x[reg] * scale + offset (modulo 2^64)."""

    reg: int
    scale: int = 1
    offset: int = 0

    def __str__(self) -> str:
        name = register_name(self.reg)
        s = name if self.scale == 1 else f"{name}*{self.scale}"
        if self.offset:
            s += f"{self.offset:+d}"
        return s


Value = int | RegExpr


@attrs.frozen(eq=False)
class Tensor:
    name: str
    space: str  # "gm" | "ub"
    dtype: DType
    count: int
    line: int
    col: int
    role: str = ""  # gm: input | output | inout | const
    addr: int = 0  # ub: byte address
    explicit: bool = False  # ub: placed with @ADDR
    init: Any = None  # Init or None

    @property
    def nbytes(self) -> int:
        return self.count * self.dtype.size


@attrs.frozen
class Init:
    """An INIT form; `data` is the raw bytes it evaluated to (None for an input without default)."""

    kind: str
    data: np.ndarray | None = attrs.field(eq=False, default=None)


@attrs.frozen
class Operand:
    """One positional operand, resolved.

    kind: mem (a UB address, or a GM byte offset when space == "gm"), scalar (raw bytes of one
    element of T), int, reg, label, pipe, word.
    """

    kind: str
    col: int
    text: str
    space: str = "ub"
    addr: Value = 0
    tensor: Tensor | None = None
    value: Any = None

    @property
    def is_static(self) -> bool:
        return not isinstance(self.addr, RegExpr) and not isinstance(self.value, RegExpr)


@attrs.frozen(eq=False)
class Instruction:
    """A hardware-level instruction (after API expansion), as the executor sees it."""

    defn: InstrDef
    op: str | None
    dtype: DType | None
    operands: dict[str, Operand]
    fields: dict[str, Value]
    cols: dict[str, int]  # column of each keyword field / operand role, for diagnostics
    pc: int  # index of the source statement
    line: int
    col: int  # column of the mnemonic
    text: str  # canonical listing text
    notes: tuple[str, ...] = ()
    # no register operand or field: decoded values are the same at every execution
    is_static: bool = attrs.field(
        default=attrs.Factory(lambda self: all(o.is_static for o in self.operands.values())
                              and not any(isinstance(v, RegExpr) for v in self.fields.values()),
                              takes_self=True))
    file: str = ""  # the source file, when not the program's own (a streamed statement)
    col_fixed: bool = False  # diagnostics name `col` (the caller's), not an operand's column
    src_dtype: DType | None = None  # the source type of a two-type instruction (vconv.DST.SRC)

    def at(self, pc: int, line: int) -> Instruction:
        """The same instruction at another statement (identical lines share one build)."""
        return Instruction(self.defn, self.op, self.dtype, self.operands, self.fields, self.cols,
                           pc, line, self.col, self.text, self.notes, self.is_static,
                           self.file, self.col_fixed, self.src_dtype)

    def operand_type(self, role: str) -> DType | None:
        """The element type of operand ROLE, as the family says."""
        if self.dtype is None:
            return None
        return self.defn.family.operand_type(role, self.dtype, self.src_dtype)

    @property
    def name(self) -> str:
        return self.defn.name

    @property
    def head(self) -> str:
        """The mnemonic with its modifiers, e.g. `vcmpv.lt.f32`: how diagnostics name it."""
        return self.text.split(" ", 1)[0]


@attrs.frozen(eq=False)
class Statement:
    """A source statement and the hardware instructions it decodes into."""

    pc: int
    line: int
    col: int
    source: str
    defn: InstrDef
    hw: tuple[Instruction, ...]
    rept: int | None = None  # .rept iteration, for diagnostics
    notes: tuple[str, ...] = ()


@attrs.frozen(eq=False)
class Program:
    path: str
    chip: Chip
    chip_from_text: str | None
    tensors: dict[str, Tensor]
    statements: tuple[Statement, ...]
    labels: dict[str, int]  # label → pc
    lines: tuple[str, ...]  # the source lines, for listings and the debugger
    warnings: tuple = ()  # Diagnostics from assembly
    block_dim: int = 1  # cores the launch runs (.block_dim N)
    block_dim_at: tuple[int, int] | None = None  # (line, col) of .block_dim, when given
    params: dict = attrs.field(factory=dict)  # `.param` name → value (after any override)

    @property
    def gm(self) -> dict[str, Tensor]:
        return {n: t for n, t in self.tensors.items() if t.space == "gm"}

    @property
    def ub(self) -> dict[str, Tensor]:
        return {n: t for n, t in self.tensors.items() if t.space == "ub"}


def at_loc_lines(program: Program) -> Program:
    """PROGRAM as the one file its `.loc` directives name sees it (a C++ recording): that file's
    path and lines, each statement at its `.loc` line, so a debugger's listing, `break LINE` and
    positions are the file's. Unchanged when no `.loc` names a file, when they name several or
    leave statements out, or when the file cannot be read."""
    files = {h.file for st in program.statements for h in st.hw}
    if len(files) != 1 or "" in files:
        return program
    file = files.pop()
    try:
        lines = Path(file).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return program
    statements = tuple(attrs.evolve(st, line=st.hw[0].line, col=st.hw[0].col) if st.hw else st
                       for st in program.statements)
    return attrs.evolve(program, path=file, lines=tuple(lines), statements=statements)
