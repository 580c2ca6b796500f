"""A run of identical consecutive lines (isa/assembler.py `_split_lines`, `logical_lines`,
`classify_run`, `build_lines`; isa/program.py `copies`) is found once and taken through both
passes as one range of line numbers: the program is the one `Assembler(memo=False)` makes line by
line — statements, instructions, positions, labels, listing, diagnostics — whatever the run's
line is (a label, a warning, an error, a `.loc` before it, a line of a shape, several
instructions, blank, a comment, CR line ends) and wherever it stands."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import isa.assembler as asm
import simulator
from isa.assembler import Assembler, _split_lines, assemble
from isa.diagnostics import AssemblyError
from isa.program import Instruction, Statement, StatementRun
from tests.differential.test_assembly_memo import _outcome

HEAD = ".chip ascend910b\n.ub x f32[4096]\n.ub y f32[4096]\n.ub m u8[512]\n"


def _everything(text: str, memo: bool, checks: str) -> str:
    """`_outcome` (statements, instructions, listing, warnings or diagnostics) and the
    labels' statement indices."""
    out = _outcome(text, memo, checks)
    try:
        labels = Assembler(text, "<string>", None, checks, memo=memo).run().labels
    except AssemblyError:
        labels = None
    return f"{out}\n{labels!r}"


@pytest.fixture
def made(monkeypatch) -> list[int]:
    """The length of every run whose statements `copies` made."""
    lengths: list[int] = []
    real = asm.copies

    def spy(body, pcs, lines, *rest):
        lengths.append(len(pcs))
        return real(body, pcs, lines, *rest)

    monkeypatch.setattr(asm, "copies", spy)
    return lengths


PLAIN = "  vadd.f32 x, x, y, repeat=1\n"


@pytest.mark.parametrize("checks", ["error", "warn"])
@pytest.mark.parametrize(("body", "copied"), [
    (PLAIN * 40, [39]),
    # a label before, between and after runs: each names its statement's index
    ("top: " + PLAIN + PLAIN * 30 + "mid:\n" + PLAIN * 20 + "end: nop\n", [29, 20]),
    # runs of blank and comment lines between runs of statements; an empty last line
    (PLAIN * 20 + "\n" * 20 + " ; note\n" * 20 + PLAIN * 20 + "\n", [19, 20]),
    # CR line ends; the last line without its line end
    ("  vadd.f32 x, x, y, repeat=1\r\n" * 30 + "  vadd.f32 x, x, y, repeat=1", [29]),
    # a .loc before the second run: its statements carry the file's position (every line
    # built one by one, as any line in a program with a .loc)
    (PLAIN * 30 + '.loc "k.cpp" 7 3\n' + PLAIN * 30, []),
    # .end after a run: the run after it is not read
    (PLAIN * 30 + ".end\n" + PLAIN * 30, [29]),
    # lines of one shape: the first of each index rebased, its copies one run
    ("  vsel.f32 x[64], x[64], y[0], repeat=1\n" * 25 +
     "  vsel.f32 x[128], x[128], y[0], repeat=1\n" * 25, [24, 24]),
    # a run inside .rept (its lines are Srcs), then outside it
    (".rept 2\n" + PLAIN * 20 + ".endr\n" + PLAIN * 20, [20]),
    # a warning at every line (misaligned with --checks=warn): each line says it
    ("  vsel.f32 x[1], x, y\n" * 30, []),
    # a label repeated: defined twice at every copy (at most 20 errors)
    (("top: " + PLAIN) * 30, []),
    # an unknown mnemonic: an error at every line
    ("  nop.f32 x\n" * 30, []),
    # an API statement of several instructions: each line its own
    ("  select.f32 x, m, x, y, mode=2, count=64\n" * 30, []),
])
def test_a_run_of_identical_lines_changes_nothing(body, copied, checks, made):
    text = HEAD + body
    assert _everything(text, True, checks) == _everything(text, False, checks)
    made.clear()
    try:
        assemble(text, checks=checks)
    except AssemblyError:
        pass
    assert made == copied


def test_a_runs_statements_are_what_their_constructors_make():
    """A run's copies (made without __init__, `copies`) are the Statement and Instruction
    their constructors make, each at its pc and line, its instruction in `Program.flat`."""
    prog = assemble(HEAD + PLAIN * 30 + "  vadd.f32 x, x, x, repeat=1\n" + PLAIN * 30)
    assert [s.line for s in prog.statements] == [*range(5, 35), 35, *range(36, 66)]
    flat, starts = prog.flat()
    assert starts is None and len(flat) == 61
    for pc, stmt in enumerate(prog.statements):
        assert type(stmt) is Statement and type(stmt.hw[0]) is Instruction
        fields = {k: getattr(stmt, k) for k in Statement.FIELDS}
        assert repr(Statement(**fields)) == repr(stmt) and stmt.pc == pc
        (h,) = stmt.hw
        assert repr(Instruction(h.body, h.pc, h.line)) == repr(h)
        assert flat[pc] is h and h.pc == pc and h.line == stmt.line
    assert prog.statements[1].hw[0].body is prog.statements[59].hw[0].body


LINES = st.sampled_from(["a", "b", "", "\r", "a b"])


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.tuples(LINES, st.integers(1, 40)), max_size=12), st.booleans())
def test_split_lines_finds_each_run(groups, end):
    """The lines are `text.split` with one string per distinct text; the runs found are
    exactly the maximal runs of identical lines (or none, when a sample says they are not
    most of the text); a text of runs has them found."""
    text = "\n".join(line for line, k in groups for _ in range(k)) + ("\n" if end else "")
    lines, runs, scan = _split_lines(text, True)
    ref = text.split("\n")
    assert list(lines) == ref
    assert len({id(s) for s in lines}) == len(set(ref))
    maximal = {}
    i = 0
    while i < len(ref):
        k = 1
        while i + k < len(ref) and ref[i + k] == ref[i]:
            k += 1
        if k > 1:
            maximal[i], maximal[i + 1] = k, k - 1
        i += k
    assert runs in ({}, maximal)
    if runs:
        assert set(scan.split("\n")) == set(ref)
    else:
        assert scan == text
    if sum(k - 1 for k in maximal.values()) * 4 > len(ref) * 3:  # runs are most of it
        assert runs == maximal
    assert _split_lines(text, False) == (tuple(ref), {}, text)


def test_a_runs_statements_wait_until_asked_for():
    """A run reads only the program's instructions: a run of lines stands in the statement
    list as one `StatementRun` until `statements` is first read, then its statements are the
    ones the line-by-line assembler makes, around the instructions the run executed — also in
    a copy of the program made before (attrs.evolve)."""
    text = (".chip ascend910b\n.ub x f32[4096] = random(1)\n.ub y f32[4096] = random(2)\n"
            + "  vadd.f32 y, y, y, repeat=1\n" + PLAIN * 40)
    prog = assemble(text)
    kinds = [type(s) for s in prog._statements]
    assert kinds[-1] is StatementRun and len(kinds) < 5
    ran = simulator.run(prog)
    assert ran.program is prog and prog._runs  # the run made no statement
    copy = attrs.evolve(prog, path="copy")
    want = Assembler(text, "<string>", None, "error", memo=False).run()
    flat = prog.flat()[0]
    assert repr(prog.statements) == repr(want.statements) and not prog._runs
    assert [s.hw[0] for s in prog.statements] == flat and prog.statements is prog.statements
    assert repr(copy.statements) == repr(want.statements) and copy.path == "copy"
    assert repr(prog) == repr(attrs.evolve(want, path=prog.path))
