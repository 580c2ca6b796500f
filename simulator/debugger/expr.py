"""Debugger expressions (`print`, `display`, `set var`, `break ... if`, `condition`): tensors,
their elements and slices, registers and arithmetic, in Python's expression syntax.

`$x0`…`$x31` (signed 64-bit), `$mask` (128 bits), `$mask_lo`, `$mask_hi`, `$mode` ("norm" or
"count"), `$cmpmask` (all its bits), `$pc`, `$cycle`, `$block_idx` and `$block_num` (the core
inspected, the launch's cores); a tensor name (the kernel's variable names too: names.py) is its
values (numpy, of the tensor's type), `z[3]` an element, `z[0:8]` a slice. Only literals, names,
subscripts, arithmetic, bit operations, comparisons and `and`/`or`/`not` are accepted: the text
is parsed with `ast` and walked here, never handed to `eval`.
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from isa.types import DType

# the debugger's Session (session.py imports this module to evaluate register watches)
Session = Any

REGISTER = re.compile(r"\$([A-Za-z_]\w*)")
PREFIX = "__reg_"
X_REGS = tuple(f"$x{i}" for i in range(32))
REGISTERS = (*X_REGS, "$mask", "$mask_lo", "$mask_hi", "$mode", "$cmpmask", "$pc", "$cycle",
             "$block_idx", "$block_num")
WATCHABLE = (*X_REGS, "$mask", "$mask_lo", "$mask_hi", "$mode", "$cmpmask")
M64 = (1 << 64) - 1

BINARY: dict[type, Callable] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
    ast.Pow: operator.pow, ast.LShift: operator.lshift, ast.RShift: operator.rshift,
    ast.BitAnd: operator.and_, ast.BitOr: operator.or_, ast.BitXor: operator.xor,
}
UNARY: dict[type, Callable] = {ast.USub: operator.neg, ast.UAdd: operator.pos,
                               ast.Invert: operator.invert, ast.Not: operator.not_}
COMPARE: dict[type, Callable] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge,
}


class ExprError(Exception):
    """An expression that cannot be parsed or evaluated: one line saying why."""


def _signed(v: int) -> int:
    return v - (1 << 64) if v >> 63 else v


def regs_value(name: str, regs) -> object:
    """A register's value in an undo record's snapshot (MASK_HI, MASK_LO, counter, CMPMASK
    bytes, flags, x)."""
    if name in X_REGS:
        return _signed(regs[5][int(name[2:])])
    return {"$mask": lambda: regs[0] << 64 | regs[1], "$mask_lo": lambda: regs[1],
            "$mask_hi": lambda: regs[0], "$mode": lambda: "count" if regs[2] else "norm",
            "$cmpmask": lambda: int.from_bytes(regs[3], "little")}[name]()


def register_bits(name: str, session: Session) -> int:
    """How many bits a register has (for /x and /t)."""
    if name == "$mask":
        return 128
    if name == "$cmpmask":
        return session.machine.cmpmask.size * 8
    return 64


def parse(text: str) -> ast.expr:
    """TEXT as an expression tree ($NAME spelled as Python names); ExprError when it is not
    one."""
    src = REGISTER.sub(lambda m: PREFIX + m.group(1), text.strip())
    if not src:
        raise ExprError("an expression is needed")
    try:
        tree = ast.parse(src, mode="eval")
    except SyntaxError:
        raise ExprError(f"cannot parse '{text.strip()}'") from None
    return tree.body


def show(node: ast.AST) -> str:
    """An expression as the user writes it."""
    return ast.unparse(node).replace(PREFIX, "$")


class Evaluator:
    """Evaluates expression trees against the session's machine at the current point."""

    def __init__(self, session: Session):
        self.s = session

    def __call__(self, node: ast.AST):
        self.s.sync()
        try:
            return self._eval(node)
        except ExprError:
            raise
        except (ArithmeticError, ValueError, TypeError, IndexError, OverflowError) as e:
            raise ExprError(f"{show(node)}: {e}") from None

    def condition(self, text: str) -> Callable[[], bool]:
        """A breakpoint condition: true when the expression is (an error counts as true, so
        the user sees it at the stop, as gdb does)."""
        tree = parse(text)
        self._check_names(tree)

        def test() -> bool:
            try:
                v = self(tree)
            except ExprError:
                return True
            return bool(np.all(v))
        return test

    def _check_names(self, tree: ast.AST) -> None:
        for n in ast.walk(tree):
            if isinstance(n, ast.Name):
                self.name(n.id)

    # -- nodes -------------------------------------------------------------------------------
    def _eval(self, node: ast.AST):
        ev = self._eval
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float | str):
            return node.value
        if isinstance(node, ast.Name):
            return self.name(node.id)
        if isinstance(node, ast.Subscript):
            return self._subscript(ev(node.value), node.slice)
        if isinstance(node, ast.BinOp) and type(node.op) in BINARY:
            return BINARY[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.UnaryOp) and type(node.op) in UNARY:
            v = ev(node.operand)
            if isinstance(node.op, ast.Not):
                return np.logical_not(v) if isinstance(v, np.ndarray) else not v
            return UNARY[type(node.op)](v)
        if isinstance(node, ast.Compare):
            left, result = ev(node.left), True
            for op, right in zip(node.ops, node.comparators, strict=True):
                if type(op) not in COMPARE:
                    raise ExprError(f"'{show(node)}': unsupported comparison")
                r = ev(right)
                result = result & COMPARE[type(op)](left, r)
                left = r
            return result
        if isinstance(node, ast.BoolOp):
            values = [ev(v) for v in node.values]
            join = np.logical_and if isinstance(node.op, ast.And) else np.logical_or
            out = values[0]
            for v in values[1:]:
                out = join(out, v)
            return out
        raise ExprError(f"'{show(node)}' is not supported in an expression")

    def _subscript(self, value, index: ast.AST):
        if not isinstance(value, np.ndarray):
            raise ExprError("only a tensor can be indexed")
        if isinstance(index, ast.Slice):
            parts = [None if p is None else self._int(self._eval(p))
                     for p in (index.lower, index.upper, index.step)]
            return value[slice(*parts)]
        i = self._int(self._eval(index))
        if not -len(value) <= i < len(value):
            raise ExprError(f"index {i} is outside the tensor (0..{len(value) - 1})")
        return value[i]

    @staticmethod
    def _int(v) -> int:
        if isinstance(v, int | np.integer):
            return int(v)
        what = f"an array of {v.size}" if isinstance(v, np.ndarray) else repr(v)
        raise ExprError(f"an index must be an integer, not {what}")

    # -- names -------------------------------------------------------------------------------
    def name(self, ident: str):
        if ident.startswith(PREFIX):
            return self.register("$" + ident[len(PREFIX):])
        t = self.s.tensor(ident)
        if t is None:
            scalar = scalar_value(self.s, ident)  # a TIK Scalar, in its register or spilled
            if scalar is not None:
                return scalar
            reg = self.s.names.register(ident, self.s.pc())  # a RegTensor / MaskReg (#34)
            if reg is not None:
                return self.register(reg)
            raise ExprError(f"no tensor '{ident}' (tensors: "
                            f"{', '.join(self.s.names.names()) or 'none'}; registers are "
                            "written $x1, $cmpmask, ...)")
        return tensor_values(self.s, t)

    def register(self, name: str):
        s, m = self.s, self.s.machine
        if name in X_REGS:
            return m.signed(int(name[2:]))
        if name == "$pc":
            k = s.index()
            return s.flat[k].pc if k < len(s.flat) else len(s.program.statements)
        if name == "$cycle":
            return s.cycle()
        if name in ("$block_idx", "$block_num"):
            return s.block()[name == "$block_num"]
        if name in WATCHABLE:
            return regs_value(name, (m.mask_hi, m.mask_lo, m.counter, m.cmpmask.tobytes(),
                                     (), ()))
        if name == "$deqscale":  # #27/#29: DEQSCALE (set_deqscale; machine state)
            value = m.special.get("deqscale")
            if value is None:
                raise ExprError("$deqscale has not been written (no set_deqscale has run)")
            return value
        if name == "$ctrl":  # issue 34: CTRL (set_ctrl / reset_ctrl; machine state)
            return m.special["ctrl"]
        reg = reg_file_value(name, m)  # issue 34: $v0..$v31 ($v0_f32: as f32), $p0..$p7
        if reg is not None:
            return reg
        raise ExprError(f"no register '{name}' (registers: $x0..$x31, " +
                        ", ".join(REGISTERS[32:]) + ", $deqscale, $ctrl)")


_NUM = r"([0-9]|[1-5][0-9]|6[0-3])"  # 0..63: the registers and the spill slots past them
REG_FILE = re.compile(rf"^\$(v){_NUM}(?:_(\w+))?$|^\$(p){_NUM}$")


def reg_file_value(name: str, m) -> object:
    """The reg-based unit's registers (ascend950): `$vN` its 256 bytes, `$vN_T` its elements of
    type T, `$pN` the MaskReg's 256 bits as an integer (bit b·k: element k of b bytes); None
    when NAME is none of them."""
    from isa.types import TYPES

    g = REG_FILE.match(name)
    if g is None or m.regs is None:
        return None
    if g.group(4):
        return int.from_bytes(m.regs.p[int(g.group(5))].tobytes(), "little")
    raw = m.regs.v[int(g.group(2))]
    if g.group(3) is None:
        return raw.copy()
    t = TYPES.get(g.group(3))
    if t is None:
        raise ExprError(f"no type '{g.group(3)}' ({name}: write $v0_f32, $v1_s16, ...)")
    return values(t, raw.view(t.raw).copy())


def scalar_value(s: Session, name: str):
    """TIK Scalar NAME's value here (program.scalars: its register, or its int64 spill slot in
    UB; the innermost alive of that name), None when the program has no Scalar NAME. An
    integer Scalar is its 64-bit register, signed; a float one its type's low bytes."""
    homes = [h for h in s.program.scalars if h.name == name]
    if not homes:
        return None
    pc = s.pc()
    alive = [h for h in homes if h.first <= pc < h.end]
    if not alive:
        raise ExprError(f"Scalar '{name}' is not alive here (statement {pc}): its scope has "
                        "ended or not begun")
    h = max(alive, key=lambda h: h.first)
    if h.reg >= 0:
        word = int(s.machine.x[h.reg]) & ((1 << 64) - 1)
    else:
        word = int(s.machine.space(None)[h.addr:h.addr + 8].view(np.uint64)[0])
    if h.dtype.is_int:
        return word - (1 << 64) if word >> 63 else word
    raw = np.array([word & ((1 << 8 * h.dtype.size) - 1)], np.uint64)
    return values(h.dtype, raw.astype(h.dtype.raw))[0]


def tensor_values(s: Session, t) -> np.ndarray:
    """A tensor's values at the current point (a read-only view)."""
    space, base = s.names.place(t)
    mem = s.machine.space(space)
    arr = values(t.dtype, mem[base:base + t.nbytes])
    arr.setflags(write=False)
    return arr


def values(t: DType, raw: np.ndarray) -> np.ndarray:
    """Raw bytes → the values numpy prints (c32 as complex64, bf16 as bfloat16)."""
    raw = np.ascontiguousarray(raw)
    if t.nibble:  # s4: two elements a byte, low half first
        from isa.types import unpack_s4

        return unpack_s4(raw.view(np.uint8))
    if t.name == "c32":
        pairs = raw.view(np.float16).reshape(-1, 2).astype(np.float32)
        return pairs[:, 0] + 1j * pairs[:, 1]
    return raw.view(t.numeric)
