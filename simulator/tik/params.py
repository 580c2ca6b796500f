"""A TIK script's parameters: its module-level constants, overridden by `-D NAME=VALUE`.

A parameter is a name the script assigns exactly once at module level, to a literal
(`TILE = 1024`, `DTYPE = "float16"`, `SHAPE = (64, 128)`): what a TIK author already writes at
the top of a kernel file and passes on to the builder (`def maximum_kernel(n=N)`). `-D TILE=256`
replaces that literal before the script runs, so everything computed from it (`BLOCKS = TILE *
2 // 32`, a builder's defaults) follows, and the script stays a plain Python file that runs
unchanged elsewhere. The value is read as the default's type: an integer expression for an
int (as `.param` takes), a number for a float, true/false for a bool, the text itself for a
str, a Python literal for anything else (docs/decisions.md).
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from difflib import get_close_matches

import attrs

from isa.diagnostics import Diagnostic, DiagnosticError
from isa.lexer import LexError, parse_int


class BadValue(Exception):
    """A -D value that does not fit its parameter (the message says why)."""


@attrs.frozen
class Param:
    name: str
    default: object
    line: int
    col: int


def _literal_value(node: ast.expr) -> tuple[bool, object]:
    try:
        return True, ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False, None


def _targets(node: ast.stmt) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        return node.targets
    if isinstance(node, (ast.AnnAssign, ast.AugAssign)):
        return [node.target]
    return []


def _names(target: ast.expr):
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, (ast.Tuple, ast.List)):
        for t in target.elts:
            yield from _names(t)
    elif isinstance(target, ast.Starred):
        yield from _names(target.value)


def declared(tree: ast.Module) -> dict[str, Param]:
    """The script's parameters, in the order it assigns them."""
    counts: dict[str, int] = {}
    found: dict[str, Param] = {}
    for node in tree.body:
        targets = _targets(node)
        for target in targets:
            for name in _names(target):
                counts[name] = counts.get(name, 0) + 1
        value = getattr(node, "value", None)
        if isinstance(node, ast.AugAssign) or value is None or len(targets) != 1 or \
                not isinstance(targets[0], ast.Name) or targets[0].id.startswith("__"):
            continue
        ok, default = _literal_value(value)
        if ok:
            found.setdefault(targets[0].id, Param(targets[0].id, default, node.lineno,
                                                  node.col_offset + 1))
    return {n: p for n, p in found.items() if counts[n] == 1}


def parse_value(param: Param, text: str) -> object:
    """TEXT read as PARAM's type; raises BadValue saying what was expected."""
    default = param.default
    if isinstance(default, bool):
        word = text.strip().lower()
        if word in ("true", "1"):
            return True
        if word in ("false", "0"):
            return False
        raise BadValue(f"the value must be true or false (the default is {default!r}), got "
                          f"'{text}'")
    if isinstance(default, int):
        try:
            return parse_int(text.strip())
        except LexError:
            raise BadValue(f"the value must be an integer expression (the default is "
                              f"{default!r}), got '{text}'") from None
    if isinstance(default, float):
        try:
            return float(text)
        except ValueError:
            raise BadValue(f"the value must be a number (the default is {default!r}), got "
                              f"'{text}'") from None
    if isinstance(default, str):
        return text
    try:
        value = ast.literal_eval(text.strip())
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        value = _NOT_A_LITERAL
    if value is _NOT_A_LITERAL or (default is not None and type(value) is not type(default)):
        what = "a Python literal" if default is None else \
            f"a {type(default).__name__} literal like the default {default!r}"
        raise BadValue(f"the value must be {what}, got '{text}'")
    return value


_NOT_A_LITERAL = object()


def problem(params: Mapping[str, Param], name: str, text: str) -> str | None:
    """Why -D NAME=TEXT cannot override one of PARAMS (an unknown name, a bad value), or None."""
    param = params.get(name)
    if param is None:
        near = get_close_matches(name, list(params), 1)
        listed = ", ".join(params) or "none"
        return (f"the script declares no parameter '{name}' (its parameters, module-level "
                f"constants: {listed})" + (f"; did you mean '{near[0]}'?" if near else ""))
    try:
        parse_value(param, text)
    except BadValue as e:
        return str(e)
    return None


def parse(text: str, path: str) -> ast.Module:
    """The script's syntax tree; a syntax error is a diagnostic at its line."""
    try:
        return ast.parse(text, path)
    except SyntaxError as e:
        raise DiagnosticError([Diagnostic("error", path, e.lineno or 1, e.offset or 1,
                                          f"syntax error: {e.msg}")]) from None
    except (ValueError, MemoryError, RecursionError) as e:
        raise DiagnosticError([Diagnostic("error", path, 1, 1, f"cannot parse the script: "
                                          f"{e}")]) from None


def compiled(text: str, path: str, given: Mapping[str, str]):
    """The script's code object with GIVEN (name -> -D text) replacing its parameters'
    literals (each at its own line, so diagnostics and tracebacks name the script's lines);
    raises DiagnosticError for an unknown name or a bad value (at the script's 1:1, as .vasm
    reports an unknown -D)."""
    tree = parse(text, path)
    if given:
        params = declared(tree)
        for name, value in given.items():
            why = problem(params, name, value)
            if why is not None:
                raise DiagnosticError([Diagnostic("error", path, 1, 1, f"-D {name}: {why}")])
        values = {n: parse_value(params[n], t) for n, t in given.items()}
        for node in tree.body:
            targets = _targets(node)
            if len(targets) == 1 and isinstance(targets[0], ast.Name) and \
                    targets[0].id in values and not isinstance(node, ast.AugAssign):
                node.value = _expression(values[targets[0].id], node.value)
    return compile(tree, path, "exec", dont_inherit=True)


def _expression(value: object, where: ast.expr) -> ast.expr:
    """VALUE as an expression node at WHERE's position: built from the value itself, not from
    its repr (`inf`, `nan` and a float that overflowed, 1e400, have no literal spelling)."""
    node = _node(value)
    for child in ast.walk(node):
        ast.copy_location(child, where)
        if hasattr(child, "end_lineno"):
            child.end_lineno, child.end_col_offset = where.end_lineno, where.end_col_offset
    return node


def _node(value: object) -> ast.expr:
    """The expression of a value ast.literal_eval gave (containers element by element)."""
    if isinstance(value, (tuple, list, set)):
        kind = {tuple: ast.Tuple, list: ast.List, set: ast.Set}[type(value)]
        elts = [_node(v) for v in value]
        if kind is ast.Set:
            return ast.Set(elts) if elts else ast.Call(ast.Name("set", ast.Load()), [], [])
        return kind(elts, ast.Load())
    if isinstance(value, dict):
        return ast.Dict([_node(k) for k in value], [_node(v) for v in value.values()])
    return ast.Constant(value)
