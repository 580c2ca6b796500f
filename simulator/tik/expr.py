"""TIK Scalars and expressions: integer values the scalar unit computes (docs/semantics.md §7).

An `Expr` is a tree over integers and Scalars; `lower` turns it into `li`/`add`/`mul`/... on
scratch registers when a statement needs its value, or folds it when it is constant. Integer
Scalars live in x registers; float Scalars are constants (the scalar unit has no float ALU), so
their value is the one given at record time.
"""

from __future__ import annotations

import operator
from collections.abc import Callable

from isa.diagnostics import Diagnostic
from simulator.semantics.scalar_unit import DIVIDE
from simulator.tik.errors import TikError, caller

# `//` and `%` fold as the scalar unit's div/rem compute them (C's: truncated toward zero,
# the remainder with the dividend's sign), so a folded and a run-time value agree
FOLD: dict[str, Callable[[int, int], int]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "//": DIVIDE["div"],
    "%": DIVIDE["rem"], "<<": operator.lshift, ">>": operator.rshift, "&": operator.and_,
    "|": operator.or_, "^": operator.xor}
ALU = {"+": "add", "-": "sub", "*": "mul", "<<": "shl", ">>": "shr", "&": "and", "|": "or",
       "^": "xor"}
IDENTITY = {"+": 0, "-": 0, "*": 1, "<<": 0, ">>": 0, "|": 0, "^": 0}
COMMUTATIVE = {"+", "*", "&", "|", "^"}
BRANCH = {"<": "blt", ">=": "bge", ">": "bgt", "<=": "ble", "==": "beq", "!=": "bne"}
NEGATE = {"<": ">=", ">=": "<", ">": "<=", "<=": ">", "==": "!=", "!=": "=="}
MIRROR = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}


class LowerError(Exception):
    """An expression the scalar unit cannot compute (the caller words it at its line)."""


class Expr:
    """An integer expression; arithmetic and comparisons build trees."""

    __slots__ = ()  # (a Const is its value alone: every int-indexed view has one)
    __hash__ = object.__hash__
    need = 0  # scratch registers computing it takes (a constant, a register: none)

    ftype = None  # a float expression's type (a float Scalar's); None: an integer one

    def _bin(self, op: str, other, swap: bool = False) -> Expr:
        other = as_expr(other)
        a, b = (other, self) if swap else (self, other)
        if a.ftype is not None or b.ftype is not None or isinstance(other, FConst) \
                or op == "/":
            return FBinOp(op, a, b)
        return BinOp(op, a, b)

    def __truediv__(self, o): return self._bin("/", o)
    def __rtruediv__(self, o): return self._bin("/", o, True)
    def __add__(self, o): return self._bin("+", o)
    def __radd__(self, o): return self._bin("+", o, True)
    def __sub__(self, o): return self._bin("-", o)
    def __rsub__(self, o): return self._bin("-", o, True)
    def __mul__(self, o): return self._bin("*", o)
    def __rmul__(self, o): return self._bin("*", o, True)
    def __floordiv__(self, o): return self._bin("//", o)
    def __rfloordiv__(self, o): return self._bin("//", o, True)
    def __mod__(self, o): return self._bin("%", o)
    def __lshift__(self, o): return self._bin("<<", o)
    def __rshift__(self, o): return self._bin(">>", o)
    def __and__(self, o): return self._bin("&", o)
    def __rand__(self, o): return self._bin("&", o, True)
    def __or__(self, o): return self._bin("|", o)
    def __ror__(self, o): return self._bin("|", o, True)
    def __xor__(self, o): return self._bin("^", o)
    def __lt__(self, o): return Cond("<", self, as_expr(o))
    def __le__(self, o): return Cond("<=", self, as_expr(o))
    def __gt__(self, o): return Cond(">", self, as_expr(o))
    def __ge__(self, o): return Cond(">=", self, as_expr(o))
    def __eq__(self, o): return Cond("==", self, as_expr(o))  # type: ignore[override]
    def __ne__(self, o): return Cond("!=", self, as_expr(o))  # type: ignore[override]

    def __bool__(self) -> bool:
        raise TikError.at(caller(), "a TIK Scalar or Expr has no Python truth value while the "
                          "kernel is built: use tik_instance.if_scope(...)")

    def __index__(self) -> int:
        v = self.constant()
        if v is None:
            raise TikError.at(caller(), "this Scalar or Expr is only known when the kernel "
                              "runs, not as a Python int: use tik_instance.for_range")
        return v

    def constant(self) -> int | None:
        """The value when it is known before running, else None."""
        return None


class Const(Expr):
    __slots__ = ("value",)

    def __init__(self, value: int):
        self.value = int(value)

    def constant(self) -> int:
        return self.value


class BinOp(Expr):
    def __init__(self, op: str, a: Expr, b: Expr):
        self.op, self.a, self.b = op, a, b
        # folded once, here, from the operands' folds: a tree a Python loop builds may be
        # thousands of operators deep, and nothing may recurse over it
        self._value: int | None = None
        self._error: str | None = None
        va = vb = None
        try:
            va, vb = a.constant(), b.constant()
            if va is not None and vb is not None:
                self._value = FOLD[op](va, vb)
        except LowerError as e:
            self._error = str(e)
        except ZeroDivisionError:
            self._error = f"division by zero in a TIK expression ({va} {op} 0)"
        if self._value is None and self._error is None:
            # scratch registers to compute it, the operand needing more first (Sethi-Ullman);
            # an operand computed first holds one register while the other is computed
            na, nb = a.need, b.need
            self.need = max(1, min(max(na, min(na, 1) + nb), max(nb, min(nb, 1) + na)))

    def constant(self) -> int | None:
        if self._error is not None:
            raise LowerError(self._error)
        return self._value


class FConst(Expr):
    """A Python float in an expression of float Scalars."""

    def __init__(self, value: float):
        self.value = float(value)

    def constant(self) -> None:
        return None


FLOAT_ALU = {"+": "fadd", "-": "fsub", "*": "fmul", "/": "fdiv"}


class FBinOp(Expr):
    """An operator over float Scalars (and numbers, and integer expressions converted): the
    scalar unit's float ALU in the type of the Scalar it is assigned to (docs/tik.md)."""

    def __init__(self, op: str, a: Expr, b: Expr):
        self.op, self.a, self.b = op, a, b
        self.ftype = a.ftype or b.ftype
        self.need = 2

    def constant(self) -> None:
        if self.op not in FLOAT_ALU:
            raise LowerError(f"'{self.op}' is not an operator of float Scalars (+ - * /)")
        return None


class Cond:
    """A comparison for if_scope: `a OP b`, signed."""

    def __init__(self, op: str, a: Expr, b: Expr):
        self.op, self.a, self.b = op, a, b

    def __bool__(self) -> bool:
        """A Python `if` on a condition, decided while the kernel is built. TIK's expressions
        answer as TVM's do: `==` and `!=` by whether the two sides are the same expression
        object (so `if core_index == n - 1:` is False, its else branch recorded for every
        core: a latent bug, warned at the line); the other comparisons have no truth value."""
        loc = caller()
        try:
            ca, cb = self.a.constant(), self.b.constant()
        except LowerError:
            ca = cb = None
        if ca is not None and cb is not None:
            return bool(FOLD_CMP[self.op](ca, cb))
        if self.op not in ("==", "!="):
            raise TikError.at(loc, "a TIK condition has no Python truth value while the "
                              "kernel is built: use tik_instance.if_scope(...)")
        same = self.a is self.b
        value = same if self.op == "==" else not same
        tik = _kernel_of(self.a) or _kernel_of(self.b)
        if tik is not None and not any((d.path, d.line, d.column) == (loc.file, loc.line, loc.col)
                                       for d in tik.notes):  # once a line (Python loops)
            tik.notes.append(Diagnostic(
                "warning", loc.file, loc.line, loc.col,
                f"a Python `if` on a TIK `{self.op}` is decided when the kernel is built, not "
                f"when it runs: {value}, as TIK's expressions answer (the two sides are "
                f"{'the same' if same else 'different'} expression objects), so the "
                f"{'if' if value else 'else'} branch is recorded whatever the values; "
                "tik_instance.if_scope(...) decides at run time"))
        return value


def _kernel_of(e: Expr):
    """The Tik a Scalar of E belongs to (None: E holds none)."""
    work = [e]
    while work:
        x = work.pop()
        tik = getattr(x, "tik", None)
        if tik is not None:
            return tik
        if isinstance(x, BinOp):
            work += [x.a, x.b]
    return None


class Junction:
    """tik.all(...) / tik.any(...): conditions joined for if_scope."""

    def __init__(self, op: str, conds: tuple):
        self.op, self.conds = op, conds

    def __bool__(self) -> bool:
        raise TikError.at(caller(), "a TIK condition has no Python truth value while the kernel "
                          "is built: use tik_instance.if_scope(...)")


class RegisterRef(Expr):
    """A value held in register x`reg` (a Scalar's home)."""

    reg: int
    name = ""
    life = None  # the scope it was made in; a use after it ended is an error


def as_expr(v) -> Expr:
    if isinstance(v, Expr):
        return v
    if isinstance(v, float):
        return FConst(v)
    if isinstance(v, bool) or not isinstance(v, int):
        try:
            import numpy as np

            if isinstance(v, np.integer):
                return Const(int(v))
            if isinstance(v, np.floating):
                return FConst(float(v))
        except ImportError:  # pragma: no cover
            pass
        raise LowerError(f"expected an integer, a Scalar or an Expr, got {type(v).__name__} "
                         f"{v!r}")
    return Const(v)


class Lowering:
    """Emits scalar-unit statements computing expressions into scratch registers."""

    def __init__(self, lines: list[str], temps: list[int]):
        self.lines = lines
        self.free = list(temps)

    def temp(self) -> int:
        if not self.free:
            raise LowerError("the expression needs more scratch registers than pipev keeps "
                             "(8): split it over Scalars")
        return self.free.pop(0)

    def _release(self, r) -> None:
        """An operand's scratch register, free again once its operator has read it (a
        Scalar's own register is never scratch; a result handed to the caller stays held
        until its statement is emitted)."""
        if isinstance(r, _Reg) and r.temp and r.reg not in self.free:
            self.free.append(r.reg)
            self.free.sort()

    def _target(self, a, b) -> int:
        """The register an operator writes: an operand's scratch register when it has one
        (the ALU reads its sources before it writes), else a fresh one."""
        for r in (a, b):
            if isinstance(r, _Reg) and r.temp:
                self._release(a if r is b else b)
                return r.reg
        self._release(b)
        return self.temp()

    def value(self, e: Expr) -> int | str:
        """E as an immediate (int) or a register name `xN`."""
        r = self.lower(e)
        return r if isinstance(r, int) else f"x{r.reg}"

    def into(self, reg: int, e: Expr) -> None:
        """xREG = E."""
        r = self.lower(e)
        if isinstance(r, int):
            self.lines.append(f"li x{reg}, {r}")
        elif r.reg != reg:
            self.lines.append(f"mov x{reg}, x{r.reg}")

    def affine(self, e: Expr) -> tuple[int | None, int]:
        """E as (register or None) + constant: `NAME[xN+C]` operands fold the constant."""
        k = 0
        while True:  # a loop, not recursion: E may be thousands of operators deep
            c = e.constant()
            if c is not None:
                return None, k + c
            if isinstance(e, BinOp) and e.op in ("+", "-"):
                bc = e.b.constant()
                if bc is not None:
                    k, e = k + (bc if e.op == "+" else -bc), e.a
                    continue
                ac = e.a.constant()
                if ac is not None and e.op == "+":
                    k, e = k + ac, e.b
                    continue
            r = self.lower(e)
            return r.reg, k

    def lower(self, e: Expr) -> int | _Reg:
        """E's value: an int when it folds, else a register. Post-order over an explicit stack
        (no recursion, whatever E's depth), the operand needing more registers first."""
        values: list = []
        work: list = [e]  # Exprs to evaluate, and (op, swapped) once both operands are done
        while work:
            item = work.pop()
            if isinstance(item, tuple):
                second, first = values.pop(), values.pop()
                op, swapped = item
                values.append(self._apply(op, *((second, first) if swapped else
                                                 (first, second))))
                continue
            if isinstance(item, (FBinOp, FConst)) or item.ftype is not None:
                raise LowerError("a float Scalar's value where the scalar unit needs an "
                                 "integer (an index, a count, an integer Scalar): use "
                                 "scalar_conv")
            c = item.constant()
            if c is not None:
                values.append(c)
            elif isinstance(item, RegisterRef):
                if item.life is not None and item.life.ended:
                    raise LowerError(item.life.outside(item.name))
                values.append(_Reg(item.reg))
            else:
                assert isinstance(item, BinOp)
                swapped = item.b.need > item.a.need
                first, second = (item.b, item.a) if swapped else (item.a, item.b)
                work += [(item.op, swapped), second, first]
        return values[0]

    def _apply(self, op: str, a, b) -> int | _Reg:
        """A OP B, the operands computed."""
        if isinstance(a, int) and op in COMMUTATIVE:
            a, b = b, a
        if op in ("//", "%"):
            return self._divide(op, a, b)
        if b == IDENTITY.get(op):  # x + 0, x * 1, x << 0 ...: no instruction
            return a
        if isinstance(a, int):  # a constant left operand of - << >>: li into a fresh register
            t = self.temp()
            self.lines.append(f"li x{t}, {a}")
            a = _Reg(t, temp=True)
        t = self._target(a, b)
        bt = b if isinstance(b, int) else f"x{b.reg}"
        self.lines.append(f"{ALU[op]} x{t}, x{a.reg}, {bt}")
        return _Reg(t, temp=True)

    def _divide(self, op: str, a, b) -> _Reg:
        """`//` and `%` by any divisor, a power of two too, are div/rem: C's division, right
        for a negative dividend, where a logical shr/and would not be (one S instruction
        either way, so no cycles move)."""
        if b == 0:
            raise LowerError(f"division by zero in a TIK expression ('{op}' by 0)")
        if isinstance(a, int):  # a constant dividend: li into a fresh register
            t = self.temp()
            self.lines.append(f"li x{t}, {a}")
            a = _Reg(t, temp=True)
        t = self._target(a, b)
        bt = b if isinstance(b, int) else f"x{b.reg}"
        self.lines.append(f"{'div' if op == '//' else 'rem'} x{t}, x{a.reg}, {bt}")
        return _Reg(t, temp=True)

    # -- float expressions -------------------------------------------------------------------
    def float_into(self, reg: int, e: Expr, t) -> None:
        """xREG = E computed in float type T (t: an isa DType)."""
        r = self._float(e, t)
        if r.reg != reg:
            self.lines.append(f"mov x{reg}, x{r.reg}")
        self._release(r)

    def _float(self, e: Expr, t) -> _Reg:
        """E's value in float type T in a register (float trees are shallow: recursion)."""
        if isinstance(e, FConst):
            r = self.temp()
            self.lines.append(f"li x{r}, {float_bits(e.value, t):#x}")
            return _Reg(r, temp=True)
        if isinstance(e, FBinOp):
            e.constant()
            a = self._float(e.a, t)
            b = self._float(e.b, t)
            d = self._target(a, b)
            self.lines.append(f"{FLOAT_ALU[e.op]}.{t.name} x{d}, x{a.reg}, x{b.reg}")
            return _Reg(d, temp=True)
        if e.ftype is not None:  # a float Scalar
            if isinstance(e, RegisterRef) and e.life is not None and e.life.ended:
                raise LowerError(e.life.outside(e.name))
            if e.ftype.name == t.name:
                return _Reg(e.reg)
            r = self.temp()  # another float type: converted (f32 ↔ f16/bf16)
            if t.size == 2 and e.ftype.size == 4:
                self.lines.append(f"ftof.{t.name} x{r}, x{e.reg}")
            elif t.size == 4 and e.ftype.size == 2:
                self.lines.append(f"ftof.f32 x{r}, x{e.reg}")
            else:
                raise LowerError(f"cannot convert {e.ftype.name} to {t.name} on the scalar "
                                 "unit")
            return _Reg(r, temp=True)
        v = self.lower(e)  # an integer expression: converted
        if isinstance(v, int):
            r = self.temp()
            self.lines.append(f"li x{r}, {float_bits(float(v), t):#x}")
            return _Reg(r, temp=True)
        r = self._target(v, 0)
        self.lines.append(f"itof.{t.name} x{r}, x{v.reg}")
        return _Reg(r, temp=True)

    def branch_unless(self, cond, label: str, then: str | None = None) -> bool:
        """Branch to LABEL when COND is false. Returns False when COND is constant and true
        (no branch needed); a constant false condition jumps. tik.all: each condition in
        turn; tik.any: each but the last branches to THEN (the body's label) when it holds."""
        if isinstance(cond, Junction):
            parts = list(cond.conds)
            if cond.op == "all":
                return any([self.branch_unless(c, label) for c in parts])
            if then is None or any(isinstance(c, Junction) for c in parts):
                raise LowerError("tik.any takes comparisons (not tik.all/tik.any) and only "
                                 "as an if_scope condition")
            for c in parts[:-1]:
                self.branch_unless(_negated(c), then)
            return self.branch_unless(parts[-1], label) or len(parts) > 1
        if not isinstance(cond, Cond):
            value = int(cond) if isinstance(cond, bool) else cond
            cond = Cond("!=", as_expr(value), Const(0))
        op = NEGATE[cond.op]
        a, b = self.lower(cond.a), self.lower(cond.b)
        if isinstance(a, int) and isinstance(b, int):
            if FOLD_CMP[cond.op](a, b):
                return False
            self.lines.append(f"jmp {label}")
            return True
        if isinstance(a, int):
            a, b, op = b, a, MIRROR[op]
        bt = b if isinstance(b, int) else f"x{b.reg}"
        self.lines.append(f"{BRANCH[op]} x{a.reg}, {bt}, {label}")
        return True


class _Reg:
    __slots__ = ("reg", "temp")

    def __init__(self, reg: int, temp: bool = False):
        self.reg = reg
        self.temp = temp  # a scratch register holding an intermediate value


FOLD_CMP = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
            "==": operator.eq, "!=": operator.ne}


def _negated(cond) -> Cond:
    if not isinstance(cond, Cond):
        value = int(cond) if isinstance(cond, bool) else cond
        return Cond("==", as_expr(value), Const(0))
    return Cond(NEGATE[cond.op], cond.a, cond.b)


def float_bits(value: float, t) -> int:
    """VALUE rounded to float type T (nearest, ties to even), as its bits."""
    import numpy as np

    with np.errstate(over="ignore"):
        return int(np.array([value], dtype=t.numeric).view(t.raw)[0])
