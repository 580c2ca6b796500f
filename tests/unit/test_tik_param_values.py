"""simulator/tik/params.py: which module-level names are a TIK script's parameters, how a -D
value is read, and that the rewritten script keeps its line numbers."""

import ast

import pytest

from isa.diagnostics import DiagnosticError
from simulator.tik.params import BadValue, Param, compiled, declared, parse_value

SCRIPT = """\
'''doc'''
__version__ = "1"
N = 4096
TILE = 1 << 8
NAME: str = "k"
A, B = 1, 2
C = 1
C = 2
D = 3
D += 1
E = -1.5
SHAPE = (2, 128)
def f():
    return N
"""


def test_declared_are_single_literal_assignments():
    params = declared(ast.parse(SCRIPT))
    assert list(params) == ["N", "NAME", "E", "SHAPE"]
    assert params["N"] == Param("N", 4096, 3, 1)
    assert params["E"].default == -1.5 and params["SHAPE"].default == (2, 128)


@pytest.mark.parametrize("default, text, value", [
    (4096, "0x100", 256), (4096, "4 * 1024", 4096), (1.5, "2", 2.0), (True, "FALSE", False),
    ("float16", "float32", "float32"), ((2, 128), "(4, 64)", (4, 64)), (None, "[1, 2]", [1, 2]),
])
def test_values_are_read_as_the_default_type(default, text, value):
    got = parse_value(Param("P", default, 1, 1), text)
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize("default, text", [(4096, "big"), (1.5, "x"), (True, "yes"),
                                           ((2, 128), "[2, 128]"), (None, "os.system")])
def test_bad_values(default, text):
    with pytest.raises(BadValue):
        parse_value(Param("P", default, 1, 1), text)


def test_overrides_keep_line_numbers():
    code = compiled("import sys\nN = 4\n\nM = N * 2\nraise ValueError(M)\n", "k.py",
                    {"N": "21"})
    try:
        exec(code, {})
    except ValueError as e:
        assert e.args == (42,) and e.__traceback__.tb_next.tb_lineno == 5


def test_unknown_name_and_syntax_errors_are_diagnostics():
    with pytest.raises(DiagnosticError) as e:
        compiled("N = 1\n", "k.py", {"M": "2"})
    assert str(e.value.diagnostics[0]).startswith("k.py:1:1: error: -D M: the script declares "
                                                  "no parameter 'M' (its parameters, "
                                                  "module-level constants: N)")
    with pytest.raises(DiagnosticError) as e:
        compiled("N = (\n", "k.py", {})
    assert str(e.value.diagnostics[0]).startswith("k.py:1:")


@pytest.mark.parametrize("default, text", [
    (1.5, "inf"), (1.5, "-inf"), (1.5, "nan"), (1.5, "1e400"), ((2, 128), "(1e400, -1e400)"),
    (None, "{1: [2.5, 1e999], 'k': {3}}"), (None, "set()"), (None, "{-0.0: ()}"),
])
def test_overrides_are_the_values_themselves(default, text):
    """An override is substituted as the value it was read as, whether or not the value has a
    literal spelling (inf, nan and 1e400 have none: their repr is a name)."""
    want = parse_value(Param("P", default, 1, 1), text)
    scope: dict = {}
    exec(compiled(f"P = {default!r}\n", "k.py", {"P": text}), scope)
    assert repr(scope["P"]) == repr(want) and type(scope["P"]) is type(want)
