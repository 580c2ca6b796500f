"""Lexical pieces of the .vasm format (docs/format.md §4): comments, operand splitting, numbers and
constant integer expressions. Every function works on one logical line and reports 0-based
offsets, which the assembler maps back to LINE:COL."""

from __future__ import annotations

import ast
import math
import re
import warnings
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from types import MappingProxyType

NAME = r"[A-Za-z_][A-Za-z0-9_]*"
NAME_RE = re.compile(NAME + r"\Z")
INT_RE = re.compile(r"[+-]?(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|[0-9][0-9_]*)\Z")
FLOAT_RE = re.compile(
    r"[+-]?(?:(?:[0-9][0-9_]*)?\.?[0-9_]*(?:[eE][+-]?[0-9]+)?|inf|infinity|nan)\Z", re.I)
REG = r"(?:[xX]([0-9]|[12][0-9]|3[01])|(block_idx|block_num))"
REG_RE = re.compile(REG + r"\Z")
REG_EXPR_RE = re.compile(REG + r"\s*(?:([+-])\s*(.+))?\Z")
# the read-only registers of a multi-core launch: which core (block) runs, and how many
BLOCK_IDX, BLOCK_NUM = 32, 33
READ_ONLY = {BLOCK_IDX: "block_idx", BLOCK_NUM: "block_num"}
REGISTERS = 34  # x0..x31, block_idx, block_num
COMMENT_RE = re.compile(r"[;#]")
KEY_RE = re.compile(r"(" + NAME + r")\s*=\s*(.*)\Z", re.S)
LIMIT = 1 << 200  # constant expressions beyond this are certainly out of every range
LITERAL_DIGITS = 1000  # a literal may be larger (a 400-digit fill overflows f16, and says so)
LITERAL_BITS = 3322  # about 1000 decimal digits


# the `.param` values of the program being assembled (names usable in constant expressions)
_PARAMS: ContextVar[Mapping[str, int]] = ContextVar("pipev_params",
                                                   default=MappingProxyType({}))


@contextmanager
def parameters(values: Mapping[str, int]) -> Iterator[None]:
    """Constant expressions evaluated inside see VALUES' names."""
    token = _PARAMS.set(values)
    try:
        yield
    finally:
        _PARAMS.reset(token)


def is_parameter(name: str) -> bool:
    return name in _PARAMS.get()


class LexError(Exception):
    """A malformed token; `offset` is its 0-based position in the line."""

    def __init__(self, message: str, offset: int = 0):
        super().__init__(message)
        self.message = message
        self.offset = offset


def strip_comment(line: str) -> str:
    """The line without its `;` or `#` comment (a quoted string may contain either)."""
    if '"' not in line:
        m = COMMENT_RE.search(line)
        return line[:m.start()] if m else line
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch in ";#" and not quoted:
            return line[:i]
    return line


def split_top(text: str, offset: int = 0) -> list[tuple[str, int]]:
    """Split at commas outside brackets and quotes → [(piece stripped, 0-based offset)]."""
    pieces: list[tuple[str, int]] = []
    depth, quoted, start = 0, False, 0
    for i, ch in enumerate(text):
        if ch == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            pieces.append(_strip_piece(text, start, i, offset))
            start = i + 1
    if quoted:
        raise LexError("unterminated string", offset + text.index('"'))
    if depth > 0:
        raise LexError("unbalanced brackets", offset + _last_open(text))
    pieces.append(_strip_piece(text, start, len(text), offset))
    return pieces


def _last_open(text: str) -> int:
    depth, pos = 0, 0
    for i, ch in enumerate(text):
        if ch in "([":
            if depth == 0:
                pos = i
            depth += 1
        elif ch in ")]":
            depth -= 1
    return pos


def _strip_piece(text: str, a: int, b: int, offset: int) -> tuple[str, int]:
    piece = text[a:b]
    lead = len(piece) - len(piece.lstrip())
    return piece.strip(), offset + a + lead


_ALLOWED_BIN = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
                ast.Mult: lambda a, b: a * b, ast.FloorDiv: lambda a, b: a // b,
                ast.Mod: lambda a, b: a % b}


def parse_int(text: str, offset: int = 0) -> int:
    """A decimal/hex/binary integer or a constant expression with + - * // % ( )."""
    if INT_RE.match(text):
        return _literal(text, offset)
    if not text or len(text) > 1000:
        raise LexError("expected an integer", offset)
    try:
        with warnings.catch_warnings():  # e.g. "1if": a SyntaxWarning is not our diagnostic
            warnings.simplefilter("ignore")
            tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise LexError(f"expected an integer, got '{text}'", offset) from None
    return _eval(tree.body, text, offset)


def _literal(text: str, offset: int) -> int:
    """An integer literal of at most ~1000 digits: beyond that it is out of every range, and
    Python refuses to turn more than 4300 decimal digits into an int (or back, in a message)."""
    digits = text.lstrip("+-").replace("_", "")
    if digits[:2].lower() not in ("0x", "0b") and len(digits.lstrip("0")) > LITERAL_DIGITS:
        raise LexError(f"integer '{text}' is too large (beyond every field's range)", offset)
    try:
        v = int(text.replace("_", ""), 0) if not _leading_zero(text) else int(text, 10)
    except ValueError:
        raise LexError(f"malformed integer '{text}'", offset) from None
    if v.bit_length() > LITERAL_BITS:
        raise LexError(f"integer '{text}' is too large (beyond every field's range)", offset)
    return v


def _leading_zero(text: str) -> bool:
    t = text.lstrip("+-")
    return len(t) > 1 and t[0] == "0" and t[1].isdigit()


def _eval(root: ast.AST, text: str, offset: int) -> int:
    """Evaluate the expression tree without recursion: a 990-deep `-----0` must not exhaust
    Python's stack. Post-order over an explicit stack; `values` holds finished operands."""
    stack: list[tuple[ast.AST, bool]] = [(root, False)]
    values: list[int] = []
    while stack:
        node, ready = stack.pop()
        if isinstance(node, ast.Constant) and type(node.value) is int:
            if abs(node.value) > LIMIT:
                raise LexError(f"'{text}' is too large", offset)
            values.append(node.value)
        elif isinstance(node, ast.Name):
            values.append(_parameter(node.id, text, offset))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            if not ready:
                stack += [(node, True), (node.operand, False)]
            elif isinstance(node.op, ast.USub):
                values.append(-values.pop())
        elif isinstance(node, ast.BinOp) and type(node.op) in _ALLOWED_BIN:
            if not ready:
                stack += [(node, True), (node.right, False), (node.left, False)]
                continue
            b, a = values.pop(), values.pop()
            values.append(_binop(node.op, a, b, text, offset))
        else:
            raise LexError(f"expected an integer expression, got '{text}'", offset)
    return values[0]


def _parameter(name: str, text: str, offset: int) -> int:
    params = _PARAMS.get()
    if name in params:
        return params[name]
    if REG_RE.match(name):  # a register where only a constant can stand
        raise LexError(f"expected an integer expression, got '{text}'", offset)
    from difflib import get_close_matches  # here: start-up does without difflib

    near = get_close_matches(name, list(params), 1)
    hint = f"; did you mean '{near[0]}'?" if near else \
        " (declare it with `.param NAME = VALUE`)" if not params else ""
    where = f" in '{text}'" if text.strip() != name else ""
    raise LexError(f"unknown parameter '{name}'{where}{hint}", offset + max(text.find(name), 0))


def _binop(op: ast.operator, a: int, b: int, text: str, offset: int) -> int:
    if isinstance(op, (ast.FloorDiv, ast.Mod)) and b == 0:
        raise LexError(f"division by zero in '{text}'", offset)
    v = _ALLOWED_BIN[type(op)](a, b)
    if abs(v) > LIMIT:
        raise LexError(f"'{text}' is too large", offset)
    return v


def parse_number(text: str, offset: int = 0) -> int | float | complex:
    """A scalar literal: integer (or integer expression), float, inf, nan, or (RE, IM)."""
    t = text.strip()
    if t.startswith("(") and t.endswith(")") and "," in t:
        inner = split_top(t[1:-1], offset + 1)
        if len(inner) != 2:
            raise LexError(f"a complex value is (RE, IM), got '{text}'", offset)
        try:
            re_, im = (float(parse_number(p, o).real) for p, o in inner)
        except OverflowError:  # an integer part beyond every float
            raise LexError(f"{text} is too large for a complex value", offset) from None
        return complex(re_, im)
    if INT_RE.match(t):
        return parse_int(t, offset)
    if FLOAT_RE.match(t) and any(c.isdigit() for c in t) or t.lower().lstrip("+-") in (
            "inf", "infinity", "nan"):
        try:
            v = float(t)
        except ValueError:
            raise LexError(f"malformed number '{text}'", offset) from None
        if math.isinf(v) and t.lower().lstrip("+-") not in ("inf", "infinity"):
            raise LexError(f"{t} is too large: it overflows to infinity (write inf for "
                           "infinity)", offset)
        return v
    return parse_int(t, offset)


def parse_register(text: str) -> int | None:
    """`x0`..`x31` → 0..31; `block_idx`, `block_num` → 32, 33; else None."""
    m = REG_RE.match(text)
    return _reg_index(m) if m else None


def _reg_index(m: re.Match) -> int:
    if m.group(1) is not None:
        return int(m.group(1))
    return BLOCK_IDX if m.group(2) == "block_idx" else BLOCK_NUM


def register_name(reg: int) -> str:
    return READ_ONLY.get(reg, f"x{reg}")


def parse_reg_expr(text: str, offset: int = 0) -> tuple[int, int] | None:
    """`xN`, `xN+EXPR` or `xN-EXPR` → (N, signed offset); None when it is not a register."""
    m = REG_EXPR_RE.match(text.strip())
    if not m:
        return None
    reg, sign, rest = _reg_index(m), m.group(3), m.group(4)
    if not sign:
        return reg, 0
    v = parse_int(rest.strip(), offset + text.index(rest))
    return reg, (-v if sign == "-" else v)
