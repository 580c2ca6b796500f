"""Lines that differ only in their tensor indices (#33 item 1), against the path that builds and
decodes each line afresh.

Two shortcuts are compared with the slow path on random programs of a few statement shapes,
each written many times at random indices (aligned, misaligned, beyond the tensor, overlapping
another operand), under every check mode, with MASK, counter mode and CMPMASK changing:
- assembly: a line takes the build of a line of its shape, rebased (isa/rebase.py), against
  `Assembler(memo=False)`, which builds every line: identical statements, instructions (every
  field), listings and diagnostics;
- execution: a static line not seen before takes the decoding of a line of its shape laid out
  alike, rebased (simulator/decodings.py `_static_rebased`), against a run with neither
  shortcut: identical UB bytes, outputs, diagnostics, cycles, statistics, registers and JSONL
  trace, on the fast loop and the reference loop.
Each comparison is shown to fail when the shortcut keeps an address unmoved.
"""

from __future__ import annotations

import json
from contextlib import contextmanager

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import isa.assembler
import isa.decode
import isa.rebase
import simulator
from isa.assembler import Assembler, assemble, assemble_statement
from isa.diagnostics import AssemblyError
from isa.listing import format_listing, listing
from isa.rebase import Shapes
from simulator.decodings import Decodings
from simulator.errors import SimulationError

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SIZE = {"f32": 4, "f16": 2}
COUNT = 2048  # elements of each data tensor
SHAPES = (
    "vsel.{t} {d}, {a}, {b}, repeat={r}, mode=0",
    "vsel.{t} {d}, {a}, {m}, repeat={r}, mode=1",
    "vadd.{t} {d}, {a}, {b}, repeat={r}",
    "vadd.{t} {d}, {a}, {b}, repeat={r}, stride=1,1,1,8,4,8",
    "vadds.{t} {d}, {a}, 2.5, repeat={r}",
    "vcmpv.lt.{t} {m}, {a}, {b}, repeat={r}",
    "vcmp.lt.{t} {a}, {b}",
)
STATE = ("set_vector_mask 0xffffffffffffffff, 0xffffffffffffffff", "set_vector_mask 0x0, 0xff",
         "set_mask_count\n    set_vector_mask 0, 40\n    set_mask_norm", "set_cmpmask m[{k}]")


@st.composite
def rebased_programs(draw) -> str:
    """A program of a few shapes, each line at random places: often a line written before
    with every operand moved by one shift (an unrolled loop's next tile), else fresh indices;
    mostly whole blocks, sometimes off a block, past the tensor's end or onto another
    operand."""
    t = draw(st.sampled_from(tuple(SIZE)))
    size = {"x": SIZE[t], "y": SIZE[t], "z": SIZE[t], "m": 1}
    nbytes = {"x": COUNT * SIZE[t], "y": COUNT * SIZE[t], "z": COUNT * SIZE[t], "m": 512}
    shapes = draw(st.lists(st.sampled_from(SHAPES), min_size=1, max_size=3))

    def place(tensor: str) -> int:
        """A byte offset into TENSOR."""
        kind = draw(st.integers(0, 199))
        top = nbytes[tensor] - (512 if tensor != "m" else 64)
        at = draw(st.integers(0, top // 32)) * 32
        if kind < 2:  # off a block: the alignment rule
            at += draw(st.integers(1, 31))
        elif kind < 10:  # near the end: the footprint and bounds rules
            at = nbytes[tensor] - draw(st.integers(1, 12)) * 32
        elif kind == 10:  # past the end: the assembler's index rule
            at = nbytes[tensor] + draw(st.sampled_from((0, 32, 4096)))
        return at

    def ref(tensor: str, at: int) -> str:
        return f"{tensor}[{at // size[tensor]}]"

    written: list[tuple[str, int, dict]] = []  # (shape, repeat, operand -> (tensor, offset))
    body = ["set_cmpmask m"]
    for _ in range(draw(st.integers(4, 24))):
        if draw(st.integers(0, 7)) == 0:
            body.append(draw(st.sampled_from(STATE)).format(k=draw(st.integers(0, 15)) * 32))
            continue
        if written and draw(st.integers(0, 2)):  # an earlier line, every operand moved alike
            shape, r, ops = draw(st.sampled_from(written))
            shift = draw(st.integers(-8, 8)) * 32 + (draw(st.integers(1, 3)) * size["x"] if
                                                      draw(st.integers(0, 39)) == 0 else 0)
            ops = {k: (tn, at + shift) for k, (tn, at) in ops.items()}
            if any(at < 0 or at % size[tn] for tn, at in ops.values()):
                continue
        else:
            shape, r = draw(st.sampled_from(shapes)), draw(st.sampled_from((1, 1, 2, 3)))
            ops = {"d": draw(st.sampled_from(("x", "z"))), "a": draw(st.sampled_from(("x", "y"))),
                   "b": "y", "m": "m"}
            ops = {k: (tn, place(tn)) for k, tn in ops.items()}
            if draw(st.integers(0, 5)) == 0:  # the destination onto a source: the overlap rule
                ops["d"] = ops["a"]
        written.append((shape, r, ops))
        line = shape.format(t=t, r=r,
                            **{k: ref(tn, at) for k, (tn, at) in ops.items()})
        body.extend([line] * draw(st.sampled_from((1, 1, 2))))
    return (f".chip ascend910b\n.ub x {t}[{COUNT}] = random(1)\n.ub y {t}[{COUNT}] = random(2)\n"
            f".ub z {t}[{COUNT}]\n.ub m u8[512] = random(3)\n"
            + "".join(f"    {ln}\n" for ln in body))


@contextmanager
def slow_path():
    """Neither shortcut: every line built in full, every static decoding made afresh."""
    shape_of, find, rebased = isa.assembler.shape_of, Shapes.find, Decodings._static_rebased
    isa.assembler.shape_of = lambda text: None
    Shapes.find = lambda self, text: None
    Decodings._static_rebased = lambda self, *a: None
    try:
        yield
    finally:
        isa.assembler.shape_of, Shapes.find, Decodings._static_rebased = shape_of, find, rebased


def assembled(text: str, checks: str, memo: bool) -> str:
    """Everything assembly says about TEXT: statements (every field), listing, warnings, or
    the diagnostics."""
    try:
        prog = assemble(text, checks=checks) if memo else \
            Assembler(text, "<string>", None, checks, memo=False).run()
    except AssemblyError as e:
        return "\n".join(map(str, e.diagnostics))
    return "\n".join([*map(repr, prog.statements), json.dumps(listing(prog)),
                      format_listing(prog), *map(str, prog.warnings)])


def ran(text: str, checks: str, fast: bool, trace) -> tuple:
    # every run decodes or rebases its lines itself, not taking what an earlier run of the
    # same content kept (simulator/decodings.py `_CONTENTS`; test_run_fixed_costs tests that)
    simulator.decodings._CONTENTS.clear()
    try:
        r = simulator.run(text, checks=checks, fast=fast, trace=trace)
    except AssemblyError as e:
        return ("assembly", e.diagnostics)
    except SimulationError as e:
        ub = bytes(e.partial.ub) if getattr(e, "partial", None) is not None else None
        return ("error", e.diagnostics, ub)
    outputs = {k: (v.dtype.str, v.shape, v.tobytes()) for k, v in r.outputs.items()}
    return ("ok", bytes(r.ub), outputs, r.diagnostics, r.cycles, r.pipes, r.instructions,
            r.uops, r.stalls, r.hot_lines, r.timing, r.registers, trace.read_text())


def same_both_ways(text: str, checks: str, tmp_path) -> None:
    assert assembled(text, checks, True) == assembled(text, checks, False), text
    for fast in (True, False):
        got = ran(text, checks, fast, tmp_path / "new.jsonl")
        with slow_path():
            want = ran(text, checks, fast, tmp_path / "old.jsonl")
        assert got[0] == want[0], f"{got[0]} against {want[0]}\n{text}"
        for k, (g, w) in enumerate(zip(got, want, strict=True)):
            assert g == w, f"field {k} differs (fast={fast}):\n{g!r}\n{w!r}\n{text}"


@SETTINGS
@given(rebased_programs(), st.sampled_from(["error", "warn", "off"]))
def test_rebased_lines_equal_lines_built_and_decoded_afresh(tmp_path_factory, text, checks):
    same_both_ways(text, checks, tmp_path_factory.mktemp("rebased"))


UNROLLED = (".chip ascend910b\n.ub x f32[4096] = random(1)\n.ub y f32[4096] = random(2)\n"
            ".ub m u8[512] = random(3)\n    set_cmpmask m\n"
            + "".join(f"    vsel.f32 x[{64 * (i % 7)}], x[{64 * (i % 7)}], y[{64 * (i // 7)}], "
                      "repeat=1, mode=0\n    vadd.f32 y[{0}], x[{0}], y[{0}], repeat=1\n"
                      .replace("{0}", str(64 * i)) for i in range(40)))


@pytest.mark.parametrize("checks", ["error", "warn"])
def test_an_unrolled_kernel_takes_both_shortcuts(monkeypatch, tmp_path, checks):
    """The directed case the benchmark measures: both shortcuts are taken, and agree."""
    made, rebased = [], []
    real_template, real_rebased = isa.rebase.Template.body_for, Decodings._static_rebased

    def template_spy(self, *a):
        got = real_template(self, *a)
        made.append(got is not None)
        return got

    def decoding_spy(self, *a):
        got = real_rebased(self, *a)
        rebased.append(got is not None)
        return got
    monkeypatch.setattr(isa.rebase.Template, "body_for", template_spy)
    monkeypatch.setattr(Decodings, "_static_rebased", decoding_spy)
    same_both_ways(UNROLLED, checks, tmp_path)
    assert sum(made) >= 70 and sum(rebased) >= 40


def test_a_build_with_an_address_left_unmoved_is_caught(monkeypatch):
    """The assembly comparison fails when the rebased build keeps the template's address."""
    real = isa.rebase.Template.body_for

    def stale(self, *a):
        got = real(self, *a)
        if got is None:
            return None
        ops = dict(got.operands)
        role = self.slots[-1][0]
        ops[role] = isa.program.Operand(*(getattr(ops[role], f) for f in (
            "kind", "col", "text", "space")), self.body.operands[role].addr, ops[role].tensor)
        return attrs.evolve(got, operands=ops)
    monkeypatch.setattr(isa.rebase.Template, "body_for", stale)
    assert assembled(UNROLLED, "error", True) != assembled(UNROLLED, "error", False)


def test_a_decoding_with_an_address_left_unmoved_is_caught(monkeypatch, tmp_path):
    """The run comparison fails when a rebased decoding keeps the shape's first address."""
    monkeypatch.setattr(isa.decode.Access, "rebased", lambda self, base: self)
    with pytest.raises(AssertionError):
        same_both_ways(UNROLLED, "error", tmp_path)


def statements(text: str, tensors: dict, chip, checks: str) -> list[str]:
    """Each statement line of TEXT through `assemble_statement` (a front end's entry), at one
    file position, as text: the statement (every field) and its warnings, or the errors."""
    out = []
    for pc, ln in enumerate(ln.strip() for ln in text.splitlines()[5:]):
        try:
            stmt, warnings = assemble_statement(ln, "k.py", 7, 5, pc, chip, tensors, checks)
            out.append(repr(stmt) + "".join(map(str, warnings)))
        except AssemblyError as e:
            out.append("\n".join(map(str, e.diagnostics)))
    return out


@SETTINGS
@given(rebased_programs(), st.sampled_from(["error", "warn"]))
def test_front_end_statements_rebased_equal_statements_built_afresh(text, checks):
    """`assemble_statement` (TIK, a stream) takes the build of a statement of the same shape
    at the same position, rebased: identical to building each."""
    prog = assemble(text.split("    ")[0], checks="off")  # the declarations
    tensors, chip = dict(prog.tensors), prog.chip
    got = statements(text, tensors, chip, checks)
    with slow_path():
        want = statements(text, tensors, chip, checks)
    assert got == want


def test_a_front_end_statement_follows_a_tensor_declared_again():
    """A template holds its tensors' addresses: a name declared again (the same dict, or a
    new one) is built afresh."""
    prog = assemble(".chip ascend910b\n.ub x f32[1024]\n.ub y f32[1024] @0x1000\n"
                    ".ub y2 f32[1024] @0x2000\n    nop\n")
    tensors = dict(prog.tensors)
    line = "vadd.f32 x[{}], x[{}], y[{}], repeat=1"
    first, _ = assemble_statement(line.format(64, 64, 64), "k.py", 3, 1, 0, prog.chip, tensors)
    assert first.hw[0].operands["src1"].addr == 0x1000 + 256
    tensors["y"] = prog.tensors["y2"]  # declared again, elsewhere
    again, _ = assemble_statement(line.format(128, 128, 128), "k.py", 3, 1, 1, prog.chip,
                                  tensors)
    assert again.hw[0].operands["src1"].addr == 0x2000 + 512
    other = {**tensors, "y": prog.tensors["y"]}
    third, _ = assemble_statement(line.format(8, 8, 8), "k.py", 3, 1, 2, prog.chip, other)
    assert third.hw[0].operands["src1"].addr == 0x1000 + 32
