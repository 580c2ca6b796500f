"""The assembled program: tensors, statements and hardware instructions with source spans."""

from __future__ import annotations

from itertools import repeat
from operator import attrgetter
from pathlib import Path
from typing import Any, NamedTuple

import attrs
import numpy as np

from isa.chip import Chip
from isa.lexer import register_name
from isa.table import TABLE, InstrDef, Table
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


@attrs.define(eq=False)
class Tensor:
    """A declared tensor. Nothing assigns to one after it is made (not attrs-frozen, as
    `Body`: a frozen instance sets each of its thirteen fields through `object.__setattr__`,
    ~15k instructions a tensor, and an assembly makes two a declaration)."""

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
    dynamic: bool = False  # gm: declared at a maximum shape, bound at run time (#29)
    data_bytes: int = 0  # gm: outputs hold the first data_bytes bytes (0: all); `data(N)`
    alias_of: str = ""  # gm: the GM tensor whose bytes this one views (TIK reinterpret_cast_to)

    @property
    def nbytes(self) -> int:
        return self.dtype.nbytes(self.count)


@attrs.frozen
class Init:
    """An INIT form; `data` is the raw bytes it evaluated to (None for an input without default)."""

    kind: str
    data: np.ndarray | None = attrs.field(eq=False, default=None)


@attrs.define(unsafe_hash=True)
class Operand:
    """One positional operand, resolved; hashed and compared by value. Nothing assigns to one
    after it is made (not attrs-frozen, as `Body`: a distinct line of an unrolled kernel makes
    new ones).

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


@attrs.define(eq=False)
class Body:
    """A hardware-level instruction (after API expansion) as written: everything but where it
    stands. Lines of identical text share one, so a long program keeps one per distinct line.
    Nothing assigns to one after it is made (not attrs-frozen: a frozen instance's fourteen
    fields are set through `object.__setattr__`, 1.5 µs a body, which a distinct line of an
    unrolled kernel paid twice over its whole assembly; docs/decisions.md)."""

    defn: InstrDef
    op: str | None
    dtype: DType | None
    operands: dict[str, Operand]
    fields: dict[str, Value]
    cols: dict[str, int]  # column of each keyword field / operand role, for diagnostics
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
    # the body of the line this one's build was rebased from (isa/rebase.py: the same statement
    # but for tensor indices), None when built in full: the fast loop's plan for the shape. Set
    # by the rebasing alone (not an argument: a body evolved into another is built afresh)
    shape: Body | None = attrs.field(default=None, init=False, repr=False)

    def moved(self, operands: dict[str, Operand], text: str) -> Body:
        """This body with other OPERANDS (static, as its own) and TEXT, its `shape` this one:
        a line rebased from it (isa/rebase.py)."""
        return self._copy(operands, text, self)

    def with_operands(self, operands: dict[str, Operand]) -> Body:
        """This body with other OPERANDS (the same but for their tensor objects: a build kept
        across programs, isa/assembler.py `_BUILDS`), its `shape` None, as a body built in
        full has."""
        return self._copy(operands, self.text, None)

    def _copy(self, operands: dict[str, Operand], text: str, shape: Body | None) -> Body:
        """This body with OPERANDS, TEXT and SHAPE, made by plain stores without the
        constructor's argument handling (a distinct line of an unrolled kernel makes one; a
        test requires every field here)."""
        b = _new(Body)
        b.defn, b.op, b.dtype, b.operands = self.defn, self.op, self.dtype, operands
        b.fields, b.cols, b.col, b.text = self.fields, self.cols, self.col, text
        b.notes, b.is_static, b.file = self.notes, self.is_static, self.file
        b.col_fixed, b.src_dtype, b.shape = self.col_fixed, self.src_dtype, shape
        return b


class Instruction:
    """A hardware-level instruction at its statement, as the executor sees it: the shared
    `Body` plus the statement's index (pc) and source line; each of the body's fields (defn,
    op, dtype, operands, fields, cols, col, text, notes, is_static, file, col_fixed, src_dtype)
    reads as the instruction's own. Nothing assigns to one after it is made (a plain slotted
    object: an attrs instance per line cost 1.7 µs and 160 bytes)."""

    __slots__ = ("body", "pc", "line")

    def __init__(self, body: Body, pc: int, line: int):
        self.body, self.pc, self.line = body, pc, line

    @classmethod
    def of(cls, defn: InstrDef, op: str | None, dtype: DType | None,
           operands: dict[str, Operand], fields: dict[str, Value], cols: dict[str, int],
           pc: int, line: int, col: int, text: str, notes: tuple[str, ...] = (),
           **rest) -> Instruction:
        """A new instruction from its parts (REST: Body's keyword fields)."""
        return cls(Body(defn, op, dtype, operands, fields, cols, col, text, notes, **rest),
                   pc, line)

    def at(self, pc: int, line: int) -> Instruction:
        """The same instruction at another statement (identical lines share one body)."""
        return Instruction(self.body, pc, line)

    def evolve(self, **changes) -> Instruction:
        """A copy with CHANGES: pc and line, and any of Body's fields."""
        pc, line = changes.pop("pc", self.pc), changes.pop("line", self.line)
        body = attrs.evolve(self.body, **changes) if changes else self.body
        return Instruction(body, pc, line)

    def __repr__(self) -> str:  # every field: tests compare programs by their reprs
        return f"Instruction(pc={self.pc!r}, line={self.line!r}, body={self.body!r})"

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


# an instruction reads every Body field as its own attribute (`instr.text`, `instr.fields`)
for _name in attrs.fields_dict(Body):
    setattr(Instruction, _name, property(attrgetter(f"body.{_name}"), doc=f"The body's {_name}."))


class Statement:
    """A source statement and the hardware instructions it decodes into (a plain slotted
    object, made once per line and never assigned to)."""

    __slots__ = ("pc", "line", "col", "source", "defn", "_hw", "rept", "notes")
    FIELDS = ("pc", "line", "col", "source", "defn", "hw", "rept", "notes")

    def __init__(self, pc: int, line: int, col: int, source: str, defn: InstrDef,
                 hw: tuple[Instruction, ...], rept: int | None = None,
                 notes: tuple[str, ...] = ()):
        self.pc, self.line, self.col, self.source, self.defn = pc, line, col, source, defn
        # most statements are one instruction, kept without a tuple (48 bytes a line)
        self._hw = hw[0] if len(hw) == 1 else hw
        self.rept = rept  # .rept iteration, for diagnostics
        self.notes = notes

    @property
    def hw(self) -> tuple[Instruction, ...]:
        hw = self._hw
        return hw if type(hw) is tuple else (hw,)

    def evolve(self, **changes) -> Statement:
        """A copy with CHANGES (any of the fields)."""
        now = {k: getattr(self, k) for k in self.FIELDS}
        return Statement(**{**now, **changes})

    def __repr__(self) -> str:  # every field, as attrs writes it
        inner = ", ".join(f"{k}={getattr(self, k)!r}" for k in self.FIELDS)
        return f"Statement({inner})"


def one_statement(body: Body, pc: int, line: int, col: int, source: str, defn: InstrDef,
                  rept: int | None = None, notes: tuple[str, ...] = ()
                  ) -> Statement:
    """`Statement(pc, line, col, source, defn, (Instruction(body, pc, line),), rept, notes)`,
    both made without calling their classes (whose argument handling was half of the build of
    a TIK loop's replayed call, simulator/tik/build.py, and of an assembled line's copy)."""
    instr = _new(Instruction)
    instr.body = body
    instr.pc = pc
    instr.line = line
    return around(instr, col, source, defn, rept, notes)


def around(instr: Instruction, col: int, source: str, defn: InstrDef, rept: int | None,
           notes: tuple[str, ...]) -> Statement:
    """`Statement(instr.pc, instr.line, col, source, defn, (INSTR,), rept, notes)`, made
    without calling its class (`one_statement`)."""
    s = _new(Statement)
    s.pc = instr.pc
    s.line = instr.line
    s.col = col
    s.source = source
    s.defn = defn
    s._hw = instr
    s.rept = rept
    s.notes = notes
    return s


def copies(body: Body, pcs: range, lines: range) -> list[Instruction]:
    """The instructions of a run of identical one-instruction lines at PCS and LINES (each
    `Instruction(body, pc, line)`), allocated at C level and filled in one loop; their
    statements wait in a `StatementRun`."""
    instrs = list(map(_new, repeat(Instruction, len(pcs))))
    for i, pc, line in zip(instrs, pcs, lines, strict=True):
        i.body = body
        i.pc = pc
        i.line = line
    return instrs


class StatementRun:
    """A run of identical one-instruction lines (`copies`) where a program's statements would
    list one Statement a line: each is made around its instruction (`around`) when the
    program's `statements` are first asked for. A run reads its instructions alone
    (`Program.flat`): a program assembled and run end to end never makes them (a line's
    Statement was a third of assembling a repeated line, and every one was traversed again
    by the collection at the run's end)."""

    __slots__ = ("hw", "col", "source", "defn", "notes")

    def __init__(self, hw: list[Instruction], col: int, source: str, defn: InstrDef,
                 notes: tuple[str, ...]):
        self.hw, self.col, self.source, self.defn, self.notes = hw, col, source, defn, notes

    def statements(self) -> list[Statement]:
        col, source, defn, notes = self.col, self.source, self.defn, self.notes
        return [around(i, col, source, defn, None, notes) for i in self.hw]


def _expanded(statements: tuple) -> tuple[Statement, ...]:
    """STATEMENTS with every `StatementRun` in it replaced by its statements."""
    out: list[Statement] = []
    for s in statements:
        if type(s) is StatementRun:
            out.extend(s.statements())
        else:
            out.append(s)
    return tuple(out)


def _statements_repr(statements: tuple) -> str:
    return repr(_expanded(statements))


_new = object.__new__


class ScalarHome(NamedTuple):
    """Where a TIK Scalar lives (#29): register x`reg`, or, spilled (reg -1), the int64 at UB
    byte `addr`; alive in statements [first, end). The debugger prints it by NAME."""

    name: str
    dtype: DType
    first: int
    end: int
    reg: int
    addr: int


@attrs.define(eq=False)
class Program:
    """An assembled program. Nothing assigns to one after it is made but `flat`'s answer
    (not attrs-frozen, as `Tensor`: one a run, end to end)."""

    path: str
    chip: Chip
    chip_from_text: str | None
    tensors: dict[str, Tensor]
    # the statements (`statements`), where RUNS says so with `StatementRun`s standing for
    # lines whose Statement objects are made when first asked for
    _statements: tuple = attrs.field(alias="statements", repr=_statements_repr)
    labels: dict[str, int]  # label → pc
    lines: tuple[str, ...]  # the source lines, for listings and the debugger
    warnings: tuple = ()  # Diagnostics from assembly
    block_dim: int = 1  # cores the launch runs (.block_dim N)
    block_dim_at: tuple[int, int] | None = None  # (line, col) of .block_dim, when given
    params: dict = attrs.field(factory=dict)  # `.param` name → value (after any override)
    # the instructions it was assembled with (a run takes their semantics from it)
    table: Table = attrs.field(default=TABLE, eq=False, repr=False)
    scalars: tuple[ScalarHome, ...] = ()  # a TIK kernel's Scalars, for the debugger (#29)
    _runs: bool = attrs.field(default=False, alias="runs", eq=False, repr=False)
    # flat(), worked out once (not an init argument: an evolved program works out its own)
    _flat: tuple | None = attrs.field(default=None, init=False, eq=False, repr=False)
    # the assembler's number for everything a statement's build reads besides its text
    # (isa/assembler.py `build_context`; not an init argument: an evolved program has none)
    _context: int | None = attrs.field(default=None, init=False, eq=False, repr=False)

    @property
    def statements(self) -> tuple[Statement, ...]:
        """Every source statement in order (a run's made now, the first time: `StatementRun`)."""
        if self._runs:
            self._statements, self._runs = _expanded(self._statements), False
        return self._statements

    def flat(self) -> tuple[list[Instruction], list[int] | None]:
        """`flatten(self.statements)`, worked out once for every run of the program. Not to
        be changed."""
        if self._flat is None:
            object.__setattr__(self, "_flat", flatten(self.statements))
        return self._flat

    def preset_flat(self, flat: list[Instruction]) -> None:
        """Give `flat()` its answer for a program of one instruction a statement: FLAT,
        every statement's instruction in order (the assembler lists them as it builds)."""
        object.__setattr__(self, "_flat", (flat, None))

    @property
    def context(self) -> int | None:
        """The assembler's number for this program's content but its statements' texts and
        INIT bytes (chip, checks, table, labels, parameters, tensor declarations: isa/
        assembler.py `build_context`): two programs of one number build a text alike. None
        when not known (assembled without memo, or made otherwise)."""
        return self._context

    def preset_context(self, context: int) -> None:
        object.__setattr__(self, "_context", context)

    @property
    def gm(self) -> dict[str, Tensor]:
        return {n: t for n, t in self.tensors.items() if t.space == "gm"}

    @property
    def ub(self) -> dict[str, Tensor]:
        return {n: t for n, t in self.tensors.items() if t.space == "ub"}


def flatten(statements: tuple[Statement, ...]) -> tuple[list[Instruction], list[int] | None]:
    """(every statement's instructions in order, each statement's first index in that list or
    None when every statement is one instruction)"""
    flat: list[Instruction] = []
    starts: list[int] = []
    single = True
    add, extend, start = flat.append, flat.extend, starts.append
    for s in statements:
        start(len(flat))
        hw = s._hw
        if type(hw) is tuple:  # never one instruction: that is kept bare
            extend(hw)
            single = False
        else:
            add(hw)
    return flat, None if single else starts


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
    statements = tuple(st.evolve(line=st.hw[0].line, col=st.hw[0].col) if st.hw else st
                       for st in program.statements)
    return attrs.evolve(program, path=file, lines=tuple(lines), statements=statements)
