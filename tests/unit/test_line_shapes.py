"""A distinct line's assembly (#33 item 1): its shape found by one cut of its digit class
(isa/rebase.py `Shapes`), carried to the second pass as a record and rebased into a body made by
plain stores (`Body.moved`). Directed cases beside the random ones of
tests/differential/test_rebased_lines.py: lines of one class but another shape never share a
template, a repeated line shares its first copy's body, and every way off the record path
(comments, labels, `.loc`, leading zeros, non-ASCII text) assembles as building each line."""

from __future__ import annotations

import attrs
import pytest

import isa.rebase
from isa.assembler import Assembler, assemble
from isa.diagnostics import AssemblyError
from isa.program import Body
from isa.rebase import Shapes

HEAD = (".chip ascend910b\n.ub x f32[4096] = random(1)\n.ub y f32[4096] = random(2)\n"
        ".ub m u8[512] = random(3)\n    set_cmpmask m\n")


def _both(text: str) -> tuple[str, str]:
    """TEXT's statements (every field) and warnings, or its diagnostics: assembled, and with
    every line built in full."""
    def said(memo: bool) -> str:
        try:
            prog = assemble(text) if memo else Assembler(text, "<string>", None, "error",
                                                         memo=False).run()
        except AssemblyError as e:
            return "\n".join(map(str, e.diagnostics))
        return "\n".join([*map(repr, prog.statements), *map(str, prog.warnings)])
    return said(True), said(False)


def test_lines_alike_but_for_indices_share_a_shape_and_others_do_not():
    shapes = Shapes()
    a, da = shapes.find("    vadd.f32 x[64], x[64], y[0], repeat=1")
    b, db = shapes.find("    vadd.f32 x[128], x[96], y[7], repeat=1")  # other widths
    c, dc = shapes.find("    vadd.f32 x[96], x[32], y[5], repeat=1")
    assert da == ("64", "64", "0") and dc == ("96", "32", "5") and c is a and b is not a
    # one digit class (every digit zeroed), another shape: a type, a field, a register
    for other in ("    vadd.f16 x[96], x[32], y[5], repeat=1",
                  "    vadd.f32 x[96], x[32], y[5], repeat=2"):
        assert shapes.find(other)[0] is not a
    assert shapes.find("    vadd.f32 x[x1], x[x1], y[x1]") is None  # no plain index
    assert shapes.find("    set_cmpmask m") is None
    assert shapes.find("    vadd.f32 x[64], x[64], y[0] ; é") is None  # not ASCII


@pytest.mark.parametrize("field", [f.name for f in attrs.fields(Body)])
def test_a_moved_body_is_its_body_but_for_operands_and_text(field):
    """`Body.moved` sets every field (a field added to Body and left out here fails)."""
    prog = assemble(HEAD + "    vsel.f32 x[0], x[0], y[0]\n")
    body = prog.statements[1].hw[0].body
    ops = {role: attrs.evolve(o, addr=o.addr + 64) for role, o in body.operands.items()}
    got = body.moved(ops, "vsel.f32 x[16], x[16], y[16]")
    want = {"operands": ops, "text": "vsel.f32 x[16], x[16], y[16]", "shape": body}
    assert getattr(got, field) is want.get(field, getattr(body, field))


@pytest.mark.parametrize("field", [f.name for f in attrs.fields(Body)])
def test_a_body_with_other_operands_is_its_body_but_for_them(field):
    """`Body.with_operands` (a build kept across programs) sets every field: each field of
    the body a distinct object, each the same in the new body but its operands (the new ones)
    and its shape (None, as a body built in full has)."""
    prog = assemble(HEAD + "    vsel.f32 x[0], x[0], y[0]\n")
    body = prog.statements[1].hw[0].body
    marks = {f.name: object() for f in attrs.fields(Body)}
    for name, mark in marks.items():
        setattr(body, name, mark)
    ops = {"dst": object()}
    got = body.with_operands(ops)
    assert getattr(got, field) is {"operands": ops, "shape": None}.get(field, marks[field])


def test_lines_of_one_class_and_two_shapes_each_take_their_own_template(monkeypatch):
    """`repeat=1` and `repeat=2` lines interleaved (one digit class): every line after the
    first of each shape is rebased, each from its own shape's build."""
    taken = []
    real = isa.rebase.Template.body_for

    def spy(self, *a):
        got = real(self, *a)
        taken.append(got is not None)
        return got
    monkeypatch.setattr(isa.rebase.Template, "body_for", spy)
    text = HEAD + "".join(f"    vadd.f32 x[{64 * i}], x[{64 * i}], y[{64 * i}], repeat={r}\n"
                          for i in range(20, 40) for r in (1, 2))
    got, want = _both(text)
    assert got == want and sum(taken) >= 36


def test_a_repeated_line_of_a_shape_shares_its_first_copys_body():
    line = "    vsel.f32 x[{0}], x[{0}], y[{0}]\n"
    text = HEAD + "".join(line.format(64 * i) for i in range(6)) + line.format(320) * 3
    prog = assemble(text)
    first = prog.statements[6].hw[0].body
    assert first.shape is not None  # rebased
    assert all(s.hw[0].body is first for s in prog.statements[7:])
    assert _both(text)[0] == _both(text)[1]


@pytest.mark.parametrize("line", [
    "    vsel.f32 x[{0}], x[{0}], y[{0}] ; a comment",
    "    vsel.f32 x[{0}], x[{0}], y[{0}]\r",
    "    vsel.f32 x[{0}], x[{0}], y[0{0}]",  # a leading zero: no plain index
    "    vsel.f32 x[{0}], x[{0}], y[{0}]  # é",
    "    vsel.f32 x[{0}], x[{0}], y[{0}]\n.loc \"k.cpp\" 12 3",
    "    vsel.f32 x[{0}], x[{0}], y[{0}]\nL{0}: vsel.f32 x[{0}], x[{0}], y[{0}]",
    "    vsel.f32 x[{0}], x[{0}], y[{0}], repeat=9",  # beyond UB on later lines
    "    vsel.f32 x[{0}], x[{0}], y[{0}]\n    vsel.f32 x[{0}], x[{0}], y[{0}]",
])
def test_every_way_off_the_record_path_assembles_as_built_in_full(line):
    text = HEAD + "".join(line.format(8 * i) + "\n" for i in range(12))
    got, want = _both(text)
    assert got == want


def test_a_class_cut_is_kept_across_assemblies_its_shapes_are_not(monkeypatch):
    """A digit class's cut is kept across assemblies (isa/rebase.py `_CUTS`, bounded), while
    its shapes — which hold an assembly's templates and tensors — are each assembly's own."""
    monkeypatch.setattr(isa.rebase, "_CUTS", {})
    monkeypatch.setattr(isa.rebase, "CUTS_LIMIT", 2)
    a, b = Shapes(), Shapes()
    line = "vsel.f32 x[64], x[64], y[0]"
    (sa, da), (sb, db) = a.find(line), b.find(line)
    assert sa is not sb and da == db == ("64", "64", "0")
    assert a.classes[next(iter(a.classes))][0] is b.classes[next(iter(b.classes))][0]
    for k in range(1, 6):
        Shapes().find("x" * k + "[1]")
        assert 1 <= len(isa.rebase._CUTS) <= 2
    assert Shapes().find("vadd.f32 x, x, y") is None
