"""The assembler's memo (a repeated line's text read, classified and built once, the build shared
by every line of identical text) changes nothing: with and without it, random programs assemble
to the same statements, instructions, positions, listing and diagnostics, also when their lines
repeat, come from `.rept` or carry warnings; the instruction list the executor takes from the
program (`Program.flat`) is exactly the statements' instructions in order."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from isa.assembler import Assembler, assemble
from isa.diagnostics import AssemblyError
from isa.listing import format_listing, listing
from isa.program import flatten
from tests.differential.test_random_programs import programs

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _outcome(text: str, memo: bool, checks: str = "error", listed: bool = True) -> str:
    """Everything assembly says about TEXT, as text: each statement and instruction (every
    field, positions included), the listing (when LISTED) and the warnings, or the
    diagnostics."""
    try:
        prog = Assembler(text, "<string>", None, checks, memo=memo).run() if not memo else \
            assemble(text, checks=checks)
    except AssemblyError as e:
        return "\n".join(map(str, e.diagnostics))
    flat, starts = prog.flat()  # worked out once, then kept: exactly what flatten makes
    ref_flat, ref_starts = flatten(prog.statements)
    assert starts == ref_starts and len(flat) == len(ref_flat)
    assert all(a is b for a, b in zip(flat, ref_flat, strict=True))
    parts = [repr(s) for s in prog.statements]
    if listed:
        parts.append(json.dumps(listing(prog)))
        parts.append(format_listing(prog))
    parts.extend(map(str, prog.warnings))
    return "\n".join(parts)


def _variants(text: str) -> list[str]:
    """TEXT, its statement lines written three times over, and its statements in a .rept."""
    lines = text.splitlines()
    decls = [ln for ln in lines if ln.startswith(".")]
    body = [ln for ln in lines if not ln.startswith(".")]
    tripled = [ln for ln in body for _ in range(3)]
    return [text, "\n".join([*decls, *tripled, *body]) + "\n",
            "\n".join([*decls, ".rept 3", *body, ".endr"]) + "\n"]


def _same(text: str, checks: str = "error", listed: bool = True) -> None:
    for variant in _variants(text):
        assert _outcome(variant, True, checks, listed) == \
            _outcome(variant, False, checks, listed), variant


@SETTINGS
@given(programs())
def test_memo_changes_nothing_on_random_programs(text):
    # no listing: a counter-mode MASK can ask it for millions of repeats (the statements'
    # every field is compared; the explicit cases below compare listings)
    _same(text, listed=False)


@SETTINGS
@given(programs(overlap=True), st.sampled_from(["error", "warn", "off"]))
def test_memo_changes_nothing_with_warnings_and_errors(text, checks):
    _same(text, checks, listed=False)


@pytest.mark.parametrize("body", [
    "vsel.f32 x, x, y, repeat=1, mode=0",
    "vsel.f32 x[1], x, y ; misaligned: the same error on every line",
    "select.f32 x, m, x, y, mode=2, count=64",
    "vadd.f32 x, x, y, repeat=1\n  vadd.f32 x, x, y, repeat=1",  # another column
])
def test_memo_keeps_each_lines_position(body):
    """Lines of equal text in other places, also `.rept` copies, position their own
    diagnostics and instructions."""
    text = ".chip ascend910b\n.ub x f32[256]\n.ub y f32[256]\n.ub m u8[64]\n" + \
        f"{body}\n" * 3 + ".rept 2\n" + f"{body}\n" + ".endr\n"
    for checks in ("error", "warn"):
        assert _outcome(text, True, checks) == _outcome(text, False, checks)


@pytest.mark.parametrize("checks", ["error", "warn"])
def test_memo_keeps_rept_substitutions_apart(checks):
    """`{i}` lines: equal text only where the iteration, and so the columns, agree."""
    text = (".chip ascend910b\n.ub x f32[1024]\n.ub y f32[1024]\n"
            ".rept 2\n.rept 3\n"
            "  vadds.f32 x[{i}*64], y[{i} * 64], 1.0, repeat=1\n"
            "  vadds.f32 x[{i}*8], y, {i}.5, repeat=1 ; misaligned from {i} = 1\n"
            "  vadds.f32 x[{i}*100], y, 1.0, repeat={i}\n"
            ".endr\n.endr\n")
    assert _outcome(text, True, checks) == _outcome(text, False, checks)


@pytest.mark.parametrize("checks", ["error", "warn"])
@pytest.mark.parametrize("text", [
    # a repeated labelled line: the label is defined twice, at the second copy
    "top: vadd.f32 x, x, y, repeat=1\ntop: vadd.f32 x, x, y, repeat=1\n",
    # repeated blank and comment-only lines between repeated statements
    "vadd.f32 x, x, y, repeat=1\n\n ; note\nvadd.f32 x, x, y, repeat=1\n\n ; note\n",
    # a repeated line after .loc (its instructions carry the file's position), then before
    "vadd.f32 x, x, y, repeat=1\n.loc \"k.cpp\" 7 3\nvadd.f32 x, x, y, repeat=1\n"
    "vadd.f32 x, x, y, repeat=1\n",
    # a repeated line with a warning, a repeated erroneous line, repeats in and out of .rept
    "vsel.f32 x[1], x, y\nvsel.f32 x[1], x, y\n.rept 2\nvsel.f32 x[1], x, y\n.endr\n"
    "vsel.f32 x[1], x, y\n",
    "nop.f32 x\nnop.f32 x\n",
    # repeats after .end are not read
    "vadd.f32 x, x, y, repeat=1\n.end\nvadd.f32 x, x, y, repeat=1\n",
])
def test_a_repeated_line_as_its_number_changes_nothing(text, checks):
    """A repeated directive-free line outside .rept passes the assembler as its line number
    (isa/assembler.py `logical_lines`): labels, blank lines, .loc, diagnostics and .end see it
    as they see its first copy."""
    full = ".chip ascend910b\n.ub x f32[256]\n.ub y f32[256]\n" + text
    assert _outcome(full, True, checks) == _outcome(full, False, checks)


def test_a_line_copy_is_the_statement_its_constructor_makes():
    """The copies of a built line (made without their classes' __init__, every field set by
    the assembler) are the Statement and Instruction their constructors make from the same
    fields, in and out of .rept, also as a repeated line's number."""
    from isa.program import Instruction, Statement

    body = "vadd.f32 x, x, y, repeat=1\n"
    text = ".chip ascend910b\n.ub x f32[256]\n.ub y f32[256]\n" + body * 3 + \
        ".rept 2\n" + body + ".endr\n" + body
    prog = assemble(text)
    assert len(prog.statements) == 6
    for stmt in prog.statements:
        fields = {k: getattr(stmt, k) for k in Statement.FIELDS}
        made = Statement(**fields)
        assert type(stmt) is Statement and type(stmt.hw[0]) is Instruction
        assert repr(made) == repr(stmt) and made.hw == stmt.hw
        (h,) = stmt.hw
        assert repr(Instruction(h.body, h.pc, h.line)) == repr(h)
    assert [s.rept for s in prog.statements] == [None, None, None, 0, 1, None]
    assert [s.line for s in prog.statements] == [4, 5, 6, 8, 8, 10]


def _header_outcome(text: str, memo: bool, params: dict | None = None) -> str:
    """`_outcome` plus every tensor's fields and INIT bytes."""
    try:
        prog = Assembler(text, "<string>", None, "error", params, memo=memo).run()
    except AssemblyError as e:
        return "\n".join(map(str, e.diagnostics))
    parts = [_outcome(text, memo)]
    for t in prog.tensors.values():
        init = None if t.init is None else \
            (t.init.kind, None if t.init.data is None else t.init.data.tobytes())
        parts.append(repr((t.name, t.space, t.dtype.name, t.count, t.line, t.col, t.role,
                           t.addr, t.explicit, init)))
    return "\n".join(parts)


@pytest.mark.parametrize("params", [None, {"N": 4}, {"N": 6}])
@pytest.mark.parametrize("header", [
    ".ub x f32[N*8] = random(1)\n.ub y f16[64] = random(2, -1, 1)\n.gm o f32[N*8] output\n",
    ".ub x s4[32] = random(5)\n.ub y s32[8] = random(3, 0, 9)\n.gm i u8[32] input\n",
    ".ub x f32[8]\n.ub x f32[8]\n",  # declared twice (a hit on its second line's text)
    ".ub x f32[8] = random(1)\n.ub y f32[8] = random(1)\n.ub x f32[8] = random(1)\n",
    ".ub x f32[8] = random(1)\n.ub y f32[16] = random(1)\n.ub z s32[8] = random(1)\n",
    ".ub x f32[8]\n.ub y q32[8]\n.ub z f32[0] = random(1)\n.ub w f32[8] = random(-1)\n",
    ".ub x f32[8] = [1, 2]\n.ub y f32[4] = arange(3)\n.ub z f32[8] = random(2)\n",
])
def test_a_header_assembled_again_is_assembled_the_same(header, params):
    """A `.gm`/`.ub` line's declaration and a `random` INIT's bytes are kept by their text
    (and the parameters' values) across programs: each assembly of a header — the first,
    one after it that finds them kept, and one with the memo off — declares the same tensors
    with the same bytes and says the same (a tensor declared twice, bad types, counts, seeds;
    `.param` overrides)."""
    text = f".param N = 2\n{header}vadd.f32 x, x, x\n"
    off = _header_outcome(text, False, params)
    assert _header_outcome(text, True, params) == off
    assert _header_outcome(text, True, params) == off  # (kept now)
    assert _header_outcome(text.replace(".param N = 2", ".param N = 3"), True, params) == \
        _header_outcome(text.replace(".param N = 2", ".param N = 3"), False, params)


def test_kept_inits_are_bounded(monkeypatch):
    """Kept INIT bytes stay within EVALUATED_BYTES (then they start afresh), and one INIT
    above a quarter of it is not kept."""
    import isa.assembler as asm
    monkeypatch.setattr(asm, "EVALUATED_BYTES", 1024)
    monkeypatch.setattr(asm, "_EVALUATED", {})
    monkeypatch.setattr(asm, "_EVALUATED_HELD", [0])
    assemble(".ub a f32[32] = random(1)\n.ub b f32[128] = random(2)\nvadd.f32 a, a, a\n")
    assert [key[2] for key in asm._EVALUATED] == [32]  # (b's 512 bytes: above 256)
    for seed in range(3, 12):
        assemble(f".ub a f32[48] = random({seed})\nvadd.f32 a, a, a\n")
        held = asm._EVALUATED_HELD[0]
        assert held == sum(i.data.nbytes for i in asm._EVALUATED.values()) <= 1024
    assert 0 < len(asm._EVALUATED) < 10


@pytest.mark.parametrize("checks", ["error", "warn"])
@pytest.mark.parametrize("body", [
    "vcmpv.lt.f32 d, x, y, repeat=2\nvadd.f32 x, x, y, repeat=1\n",
    "vsel.f32 x[1], x, y ; misaligned: an error, or a warning at each assembly\n",
    "select.f32 x, d, x, y, mode=2, count=64\n",  # an API statement: several instructions
    "top: vadd.f32 x, x, y, repeat=1\n  bne x1, 0, top\n  jmp top\n",  # label operands
    "vadds.f32 x, y, 1.5, repeat=N\n",  # a parameter in a field
])
def test_a_line_built_by_an_earlier_program_is_built_the_same(body, checks, monkeypatch):
    """A one-line statement's build is kept across programs by its text and everything else
    it reads (isa/assembler.py `build_context`): an assembly that takes it — the same program
    again, or one whose header, labels, parameters or chip differ — makes what the memo-off
    assembler makes, its operands naming the new program's own tensors."""
    head = ".param N = 2\n.ub x f32[512]\n.ub y f32[512]\n.ub d u8[128]\n"
    variants = [head + body, head + body,
                head.replace("f32[512]\n.ub d", "f32[1024]\n.ub d") + body,  # y moved
                head.replace("N = 2", "N = 3") + body,
                head.replace(".ub y f32[512]", ".ub y f32[512] @0x2000") + body,
                head.replace(".ub y f32[512]", ".ub y f32[512] @0x4000") + body,
                "\n" + head + body,  # every declaration a line lower
                head + "  nop\n" + body,  # the label a statement later
                ".chip ascend950\n" + head + body]
    taken: list[str] = []
    kept = Assembler.kept_build

    def spy(self, text, pc, line):
        got = kept(self, text, pc, line)
        if got is not None:
            taken.append(text)
        return got

    monkeypatch.setattr(Assembler, "kept_build", spy)
    for chip in ("ascend910b", "ascend950"):  # the same text, the chip given apart
        def statements(memo: bool, chip: str = chip) -> str:
            try:
                prog = Assembler(head + body, "<string>", chip, checks, memo=memo).run()
            except AssemblyError as e:
                return "\n".join(map(str, e.diagnostics))
            return "\n".join(map(repr, prog.statements))
        assert statements(True) == statements(False)
    for text in variants:
        assert _outcome(text, True, checks) == _outcome(text, False, checks), text
        try:
            prog = assemble(text, checks=checks)
        except AssemblyError:
            continue
        for stmt in prog.statements:
            for h in stmt.hw:
                assert h.pc == stmt.pc and h.line == stmt.line
                for o in h.operands.values():
                    if o.tensor is not None and o.tensor.name in prog.tensors:
                        assert o.tensor is prog.tensors[o.tensor.name]
    assert taken  # (the same program again takes its lines' builds)


def test_kept_builds_hold_no_tensor_and_are_bounded(monkeypatch):
    """A kept build holds no program's tensors (a program's INIT bytes are not kept alive by
    it), and at most BUILDS_LIMIT builds are kept (then they start afresh)."""
    import isa.assembler as asm
    monkeypatch.setattr(asm, "BUILDS_LIMIT", 4)
    monkeypatch.setattr(asm, "_BUILDS", {})
    for k in range(10):
        assemble(f".ub x f32[512] = fill({k})\nvadds.f32 x, x, {k}.5, repeat=1\n")
        assert 1 <= len(asm._BUILDS) <= 4
    for built, _chip, _table, names in asm._BUILDS.values():
        assert names == ((("dst", "x"), ("src", "x")),)  # (per instruction: role, tensor)
        assert all(o.tensor is None for h in built.hw for o in h.operands.values())
    taken = []
    kept = Assembler.kept_build
    monkeypatch.setattr(Assembler, "kept_build",
                        lambda self, *a: taken.append(a) or kept(self, *a))
    for k in (8, 9):  # (9: kept by the loop above)
        off = Assembler(f".ub x f32[512] = fill({k})\nvadds.f32 x, x, {k}.5, repeat=1\n",
                        "<string>", None, "error", memo=False).run()
        assert len(asm._BUILDS) == 2 and off.statements  # (memo off: none kept, none taken)
    assert not taken


def test_an_assembly_keeps_its_first_builds_only(monkeypatch):
    """An assembly looks for and keeps its first KEEP_BUILDS builds only (a program of
    distinct lines does not pay the keeping at every line); a program assembled again finds
    those and keeps the next ones, and each assembly makes what the memo-off one makes."""
    import isa.assembler as asm
    monkeypatch.setattr(asm, "KEEP_BUILDS", 2)
    monkeypatch.setattr(asm, "_BUILDS", {})
    text = ".ub x f32[512]\n" + "".join(f"vadds.f32 x, x, {k}.5, repeat=1\n" for k in range(5))
    for kept in (2, 4, 5, 5):
        assert _outcome(text, True) == _outcome(text, False)
        assert len(asm._BUILDS) == kept
