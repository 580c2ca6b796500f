"""Where a sweep's parameters meet a .vasm program: `.param NAME = VALUE` declarations,
overridden as `pipev run -D NAME=VALUE` overrides them."""

from __future__ import annotations

from isa import assemble
from isa.assembler import PARAM_RE
from isa.chip import Chip
from isa.lexer import LexError, parse_int
from isa.program import Program


def declared(text: str) -> list[str]:
    """The names a program's `.param` lines declare, in order."""
    names = []
    for line in text.splitlines():
        m = PARAM_RE.match(line.split(";", 1)[0])
        if m is not None and m.group(1):
            names.append(m.group(1))
    return names


def check_values(axes: dict[str, list[str]], text: str, path: str) -> str | None:
    """Why these axes cannot sweep this program (an undeclared name, a value that is not an
    integer expression, as `-D` takes), or None."""
    names = declared(text)
    for name, values in axes.items():
        if name not in names:
            known = ", ".join(names) or "none"
            return (f"--param {name}: {path} declares no `.param {name}` (its parameters: "
                    f"{known})")
        for value in values:
            try:
                parse_int(value)
            except LexError:
                return (f"--param {name}: the value must be an integer expression, got "
                        f"'{value}'")
    return None


def assemble_with(text: str, path: str, chip: Chip | None, checks: str,
                  params: dict[str, str]) -> Program:
    """The program with PARAMS overriding its `.param` values; raises AssemblyError."""
    values = {name: parse_int(value) for name, value in params.items()}
    return assemble(text, path, chip, checks, params=values)
