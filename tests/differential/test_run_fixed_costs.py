"""A run's fixed costs (#33 item 3, run-fixed): what a run sets up or works out once, made
only when something reads it, gives what making it at once gave.

- The decodings' shape entries (simulator/decodings.py `put`): a static decoding is kept by its
  text at once and for lines of its shape when a lookup next reads `_shapes` or `_apart`, from
  the extents the checks found: the entries are those made at once from extents worked out
  again, and a line of that shape takes the rebased decoding.
- A program's clean decodings kept for its next run and its other cores (simulator/decodings.py
  `kept`): random programs of a few shapes (test_rebased_lines's), run again and on several
  cores, give what runs with a store of their own give — UB, outputs, diagnostics, cycles,
  statistics, registers, JSONL trace; a run under --checks=warn keeps nothing (a statement
  warns once, so its next execution finds it clean); a store keeps only what a decoding alone
  gives, bounded.
- The hazard checks' writer record (simulator/hazards.py `on_start`): INIT's bytes are filled
  when the record is first used, before what uses it, so it holds what filling them at the
  start held; a run whose reads all lie within INIT never makes it.
"""

from __future__ import annotations

import gc
import types
from collections import OrderedDict

import attrs
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import isa
import simulator
from simulator import checks as checks_module
from simulator import decodings as decodings_module
from simulator.decodings import Decodings
from simulator.errors import SimulationError
from simulator.footprints import Record, span_footprint
from simulator.machine import Machine
from tests.differential.test_rebased_lines import COUNT, SETTINGS, rebased_programs

HEADER = (".chip ascend910b\n.ub x f32[4096] = random(1)\n.ub y f32[4096] = random(2)\n"
          ".ub d u8[4096] = random(3)\n")
# lines of a few structures, each repeated, then moved (an unrolled kernel's next tiles)
LINES = ("vadd.f32 x[{a}], x[{a}], y[{b}], repeat=2",
         "vcmpv.lt.f32 d[{c}], x[{a}], y[{b}], repeat=2",
         "vadd.f32 x[{a}], y[{b}], y[{b}], repeat=1, stride=1,1,1,8,8,8")


def _program(moves: list[int]) -> str:
    body = []
    for k in moves:
        for line in LINES:
            text = "    " + line.format(a=64 * k, b=64 * (k + 1), c=32 * k) + "\n"
            body.append(text * 2)
    return HEADER + "".join(body)


def _entries(decodings: Decodings) -> tuple:
    """What the decodings hold for lines of a shape: `_shapes` and `_apart`, their decodings
    by their operands."""
    def vop_key(vop) -> tuple:
        return tuple((a.role, a.base) for a in vop.operands), vop.instr.text

    def key(k: tuple) -> str:  # (a static key's fields by identity: one program's own)
        return repr(k[:5] + k[6:] if type(k[0]) is int else k)

    shapes = sorted((key(k), vop_key(v[0]), v[1:4]) for k, v in decodings._shapes.items())
    apart = sorted((key(k), [(vop_key(v), spans, ov) for v, spans, ov in e])
                   for k, e in decodings._apart.items())
    return shapes, apart


def _at_release(monkeypatch, look) -> list:
    """What LOOK(store) finds in each store of decodings just before a run lets go of it
    (its waiting shape entries made first), in order."""
    seen = []
    release = Decodings.release

    def keep(self):
        self._shape_all()
        seen.append(look(self))
        release(self)
    monkeypatch.setattr(Decodings, "release", keep)
    return seen


def _run_keeping(program, monkeypatch, eager: bool) -> tuple:
    """Run PROGRAM; the decodings' entries just before the run lets go of them. EAGER: every
    put makes its shape entries at once from extents worked out again (the old store)."""
    seen = _at_release(monkeypatch, _entries)
    if eager:
        put = Decodings.put

        def put_now(self, instr, addrs, fields, sel, vop, extents=None):
            put(self, instr, addrs, fields, sel, vop, None)
            self._shape_all()
        monkeypatch.setattr(Decodings, "put", put_now)
    result = simulator.run(program)
    monkeypatch.undo()
    return seen[0], bytes(result.ub), result.cycles, result.diagnostics


@pytest.mark.parametrize("moves", [[0, 1, 2], [3, 0, 5, 1], [0, 0, 30, 1]])
def test_shape_entries_made_when_read_are_those_made_at_once(monkeypatch, moves):
    program = isa.assemble(_program(moves))
    lazy = _run_keeping(program, monkeypatch, eager=False)
    eager = _run_keeping(program, monkeypatch, eager=True)
    assert lazy == eager
    assert lazy[0][0] and lazy[0][1]  # entries were made: the comparison compares something


def test_a_moved_line_takes_the_rebased_decoding(monkeypatch):
    """A line of a shape put before (its entries waiting) is rebased, not decoded afresh."""
    got = []
    rebased = Decodings._static_rebased

    def spy(self, *a):
        out = rebased(self, *a)
        got.append(out is not None)
        return out
    monkeypatch.setattr(Decodings, "_static_rebased", spy)
    simulator.run(_program([0, 1, 2, 3]))
    assert sum(got) >= 9  # three structures, moved three times


def test_a_repeated_text_makes_no_shape_entries(monkeypatch):
    """A run whose static lines all repeat one text never reads the entries: none are made,
    and the checks' extents were not worked out again."""
    calls = []
    extent = checks_module.extent

    def counted(vop, acc):
        calls.append(acc.role)
        return extent(vop, acc)
    monkeypatch.setattr(checks_module, "extent", counted)
    held = []
    release = Decodings.release

    def keep(self):
        held.append((len(self._shapes), len(self._apart), len(self._unshaped)))
        release(self)
    monkeypatch.setattr(Decodings, "release", keep)
    simulator.run(HEADER + "    vcmpv.lt.f32 d, x, y, repeat=16\n" * 5)
    assert held == [(0, 0, 1)]
    assert sorted(calls) == ["dst", "src0", "src1"]  # once each, by the checks


INITS = [(0, 100), (200, 264), (300, 301)]


def _then(record: Record) -> None:
    for lo, hi in INITS:
        record.fill(span_footprint(lo, hi), 0)


def _eager() -> Record:
    record = Record(512, -1)
    _then(record)
    return record


@pytest.mark.parametrize("first", ["fill", "values", "may_hold", "block", "fill_each"])
def test_a_record_filled_at_its_first_use_holds_what_filling_at_once_held(first):
    """Whatever uses the record first, THEN's fills come before it (a fill over INIT's
    bytes wins; a query sees them), once."""
    calls = []

    def then(record):
        calls.append(1)
        _then(record)
    lazy, eager = Record(512, -1, then), _eager()
    assert not lazy.made and not calls
    for record in (lazy, eager):
        if first == "fill":
            record.fill(span_footprint(50, 300), 7)
        elif first == "values":
            assert record.values(90, 210, None).tolist() == [0] * 10 + [-1] * 100 + [0] * 10
        elif first == "may_hold":
            assert record.may_hold(span_footprint(96, 104), lambda v: v < 0)
        elif first == "block":
            assert record.block[0] == 0 and record.block[4] == -1
        else:
            record.fill_each(np.array([1, 2], np.int64), np.array([5, 6], np.int32))
        record.fill(span_footprint(290, 310), 3)
    assert calls == [1] and lazy.made
    assert (lazy.values(0, 512, None) == eager.values(0, 512, None)).all()
    lazy.fill(span_footprint(0, 64), 9)
    assert calls == [1]


def test_a_read_outside_init_warns_as_before():
    """The writer's record made by the init check of reads past INIT's bytes (one written by
    the line before, its fill waiting; one never written): the warning of a record filled at
    the start, at the same byte."""
    text = (".chip ascend910b\n.ub a f32[64] = random(1)\n.ub b f32[64]\n.ub d f32[64]\n"
            "    vadd.f32 d, a, a\n    vadd.f32 a, d, b\n")
    got = simulator.run(text, checks="warn")
    assert [str(d) for d in got.diagnostics] == [
        "<string>:6:20: warning: vadd.f32 src1 b reads byte 0x100, which was never written "
        "(uninitialised UB: no INIT, DMA or instruction wrote it before this read)"]


def _outcome(program, checks: str, trace, block_dim: int = 1) -> tuple:
    try:
        r = simulator.run(program, checks=checks, trace=trace, block_dim=block_dim)
    except (SimulationError, isa.AssemblyError) as e:
        return ("error", e.diagnostics)
    outputs = {k: (v.dtype.str, v.shape, v.tobytes()) for k, v in r.outputs.items()}
    return ("ok", bytes(r.ub), outputs, r.diagnostics, r.cycles, r.pipes, r.instructions,
            r.uops, r.stalls, r.hot_lines, r.timing, r.registers, r.cores, trace.read_text())


def _own_store(program, checks_mode, isa_, ub_bytes):
    return Decodings(ub_bytes)


@SETTINGS
@given(rebased_programs(), st.sampled_from(["error", "off", "warn"]))
def test_runs_sharing_a_programs_decodings_equal_runs_with_their_own(tmp_path_factory, text,
                                                                     checks):
    tmp = tmp_path_factory.mktemp("kept")
    try:
        program = isa.assemble(text, checks=checks)
    except isa.AssemblyError:
        return
    # each run with a store of its own, then the same runs sharing the program's: again, on
    # three cores, under other checks (whose store is another), then as at first
    other = "error" if checks == "off" else "off"
    runs = [(checks, 1), (checks, 1), (checks, 3), (other, 1), (checks, 1)]
    real = decodings_module.kept
    decodings_module.kept = _own_store
    try:
        want = [_outcome(program, c, tmp / "a.jsonl", n) for c, n in runs]
    finally:
        decodings_module.kept = real
    got = [_outcome(program, c, tmp / "b.jsonl", n) for c, n in runs]
    for k, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g == w, f"run {k} differs\n{text}"


LOOP = """.chip ascend910b
.ub x f32[256] = random(1)
.ub y f32[256]
    li x1, 0
top:
    vadd.f32 y[224], x, x, repeat=1
    vmul.f32 y, x, x, repeat=1
    add x1, x1, 1
    blt x1, 2, top
"""


def test_the_next_run_finds_the_decodings_stored():
    """A program's second run decodes nothing afresh (its clean decodings are kept); its first
    under --checks=warn does: a statement that warned is clean at its next execution (the
    warning is once per statement), which must not make it clean for the next run."""
    calls = []
    real = decodings_module.Decodings.put

    def put(self, instr, *a):
        calls.append(instr.text)
        real(self, instr, *a)
    program = isa.assemble(LOOP)
    try:
        decodings_module.Decodings.put = put
        outcomes = [simulator.run(program, checks="warn").diagnostics for _ in range(2)]
        counts = [len(calls)]
        simulator.run(program, checks="off")
        counts.append(len(calls))
        simulator.run(program, checks="off")
        counts.append(len(calls))
    finally:
        decodings_module.Decodings.put = real
    assert outcomes[0] == outcomes[1] and len(outcomes[0]) == 1  # the footprint warning
    assert counts == [4, 6, 6]  # warn: the clean statement's first execution and the other's
    # second, each run; off: both statements' first executions, in the first run only


def test_a_kept_store_keeps_what_a_decoding_alone_gives(monkeypatch):
    """After a run, the kept decodings' memos hold only `PURE` entries, ranges without byte
    arrays; a store holding more than KEPT_LIMIT decodings starts the next run empty; a store
    a run still has is not shared; a failed launch drops the program's stores."""
    program = isa.assemble(HEADER + "    vcmpv.lt.f32 d, x, y, repeat=16\n"
                           "    vadd.f32 x, y, y, repeat=2, stride=1,1,1,8,16,16\n" * 2 +
                           "    set_vector_mask 0x0, 0xff\n    vadd.f32 x, y, y, repeat=2\n")
    UB = program.chip.ub_bytes
    simulator.run(program)
    store = decodings_module.kept(program, "error", simulator.semantics.BUILTIN, UB)
    assert store.keep and store.busy
    assert decodings_module.kept(program, "error", simulator.semantics.BUILTIN,
                                 UB) is not store  # (busy: one of its own)
    vops = {id(v): v for v in store._stored()}.values()  # (a shape entry holds a static one)
    assert len(vops) == 3
    held = sum(map(len, store._static.values())) + len(store._shapes) + \
        sum(len(entry[-1]) for entry in store._shapes.values())
    assert store._within(held) and not store._within(held - 1)
    for vop in vops:  # the bytes of whole blocks asked for (a race check's look)
        for _, _, _, idx, _ in vop.ub_ranges():
            if type(idx) is isa.decode.BlockBytes:
                idx.bytes()
    store.release()
    kinds = []
    for vop in vops:
        assert all(map(decodings_module.pure, vop.memo))
        ranges = vop.memo.get("ranges")
        kinds.append(ranges is not None)
        for _, _, _, idx, _ in ranges or ():
            assert idx is None or type(idx) is isa.decode.BlockBytes and idx._bytes is None
    assert sorted(kinds) == [False, True, True]  # the masked line's bytes are not kept
    monkeypatch.setattr(decodings_module, "KEPT_LIMIT", 2)
    simulator.run(program)
    store = decodings_module.kept(program, "error", simulator.semantics.BUILTIN, UB)
    assert not list(store._stored())
    store.release()
    monkeypatch.setattr(decodings_module, "KEPT_LIMIT", 256)
    simulator.run(program)
    assert decodings_module._KEPT.get(program)
    with pytest.raises(SimulationError):
        simulator.run(program, max_steps=1)
    assert decodings_module._KEPT.get(program) is None


def test_a_programs_store_goes_with_it():
    """The store refers to nothing that keeps its program alive: once the program and the
    run's result are gone, so is the store (no collection needed)."""
    program = isa.assemble(HEADER + "    vcmpv.lt.f32 d, x, y, repeat=16\n" * 2)
    gc.disable()
    try:
        simulator.run(program)
        assert program in decodings_module._KEPT
        kept = len(decodings_module._KEPT)
        del program
        assert len(decodings_module._KEPT) == kept - 1
    finally:
        gc.enable()


# -- a program assembled again (e2e-keep) --------------------------------------------------------
def _variants(text: str) -> dict[str, str]:
    """TEXT's content assembled again: the same text; other INIT bytes; its statements on
    other lines (two blank lines before them); and another content: z declared longer (its
    footprint rule's bound moves, and m with it)."""
    head, body = text.split("    ", 1)
    return {"same": text,
            "init": text.replace("random(1)", "random(7)").replace("random(3)", "random(8)"),
            "lines": head + "\n\n    " + body,
            "declared": text.replace(f".ub z f32[{COUNT}]", f".ub z f32[{COUNT + 64}]")
                            .replace(f".ub z f16[{COUNT}]", f".ub z f16[{COUNT + 64}]")}


def _running(text: str, checks: str) -> str:
    """TEXT up to the first line whose run fails under CHECKS (a failed launch keeps
    nothing: most random programs have such a line)."""
    for _ in range(8):
        try:
            simulator.run(text, checks=checks, timing=False)
        except isa.AssemblyError:
            return text
        except SimulationError as e:
            line = min(d.line for d in e.diagnostics if d.severity == "error")
            text = "".join(text.splitlines(keepends=True)[:line - 1])
            continue
        return text
    return text


@SETTINGS
@given(rebased_programs(), st.sampled_from(["error", "off", "warn"]))
def test_programs_assembled_again_equal_runs_with_their_own(tmp_path_factory, text, checks):
    """A text assembled again for every run (a new Program each: `simulator.run(text)`) takes
    the decodings the last run of its content kept (`_CONTENTS`): each run equals a run with a
    store of its own — with other INIT bytes, its statements on other lines, on three cores,
    under other checks, and for another content (which takes none)."""
    tmp = tmp_path_factory.mktemp("again")
    other = "error" if checks == "off" else "off"
    v = _variants(_running(text, checks))
    runs = [(v["same"], checks, 1), (v["init"], checks, 1), (v["lines"], checks, 3),
            (v["same"], other, 1), (v["declared"], checks, 1), (v["lines"], checks, 1),
            (v["init"], checks, 1)]
    real = decodings_module.kept
    decodings_module.kept = _own_store
    try:
        want = [_outcome(t, c, tmp / "a.jsonl", n) for t, c, n in runs]
    finally:
        decodings_module.kept = real
    got = [_outcome(t, c, tmp / "b.jsonl", n) for t, c, n in runs]
    for k, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g == w, f"run {k} differs\n{runs[k][0]}"


UNKNOWN = """.chip ascend910b
.ub x f32[64] = fill(0)
.ub d f32[64]
    vrec.f32 d, x
    vadd.f32 d, d, d
"""


def _adopted(monkeypatch) -> list[str]:
    """The texts whose decodings a run takes from its content's (`_adopt`), as it takes them."""
    taken: list[str] = []
    real = Decodings._adopt

    def adopt(self, instr, key):
        vop = real(self, instr, key)
        if vop is not None:
            taken.append(instr.text)
        return vop
    monkeypatch.setattr(Decodings, "_adopt", adopt)
    return taken


def test_a_decoding_taken_is_the_statements_of_the_program_running(monkeypatch):
    """A decoding taken from another program of the same content is made the running
    statement's: the warning a decoding's statement carries (results the docs call unknown,
    counted by decoding) names this program's line, not the line it had where it was made."""
    monkeypatch.setattr(decodings_module, "_CONTENTS", OrderedDict())
    taken = _adopted(monkeypatch)
    first = simulator.run(UNKNOWN)
    moved = UNKNOWN.replace("    vrec", "\n\n    vrec")
    assert isa.assemble(moved).context == isa.assemble(UNKNOWN).context
    got = simulator.run(moved)
    assert [t.split()[0] for t in taken] == ["vrec.f32", "vadd.f32"]
    assert [d.line for d in first.diagnostics] == [4]
    assert [d.line for d in got.diagnostics] == [6]
    assert got.cycles == first.cycles and got.hot_lines != first.hot_lines


def test_another_content_takes_nothing(monkeypatch):
    """The same content with other INIT bytes takes the decodings; programs of another content
    — a tensor declared otherwise, a parameter more, another chip, other checks at assembly —
    take none. A failed launch drops its content's decodings."""
    monkeypatch.setattr(decodings_module, "_CONTENTS", OrderedDict())
    taken = _adopted(monkeypatch)
    simulator.run(UNKNOWN)
    assert taken == []
    simulator.run(UNKNOWN.replace("fill(0)", "fill(2)"))
    assert len(taken) == 2
    with pytest.raises(SimulationError):
        simulator.run(UNKNOWN, max_steps=1)
    n = len(taken)
    simulator.run(UNKNOWN)
    assert len(taken) == n
    for other in (UNKNOWN.replace("d f32[64]", "d f32[128]"),
                  UNKNOWN.replace(".ub d", ".param n = 1\n.ub d"),
                  UNKNOWN.replace("ascend910b", "ascend310p")):
        simulator.run(other)
    simulator.run(UNKNOWN, checks="off")
    assert len(taken) == n


def _reachable(root) -> list:
    """Every object ROOT refers to, directly or not (modules and types not followed)."""
    seen, todo, out = {id(root)}, [root], []
    while todo:
        for o in gc.get_referents(todo.pop()):
            if id(o) not in seen and not isinstance(o, (type, types.ModuleType)):
                seen.add(id(o))
                out.append(o)
                todo.append(o)
    return out


def test_a_contents_decodings_hold_no_program(monkeypatch):
    """What a content keeps refers to no statement, tensor (INIT's bytes), program or machine
    of the run that kept it: decodings without their statements and their PURE entries; at
    most CONTENTS_KEPT contents, the last used kept."""
    monkeypatch.setattr(decodings_module, "CONTENTS_KEPT", 2)
    monkeypatch.setattr(decodings_module, "_CONTENTS", OrderedDict())
    texts = [UNKNOWN.replace("d f32[64]", f"d f32[{64 + 8 * k}]") for k in range(3)]
    simulator.run(texts[0])
    (_, _, kept), = decodings_module._CONTENTS.values()
    held = _reachable(kept)
    assert any(isinstance(o, isa.decode.Access) for o in held)
    assert not [o for o in held if isinstance(o, (isa.program.Instruction, isa.program.Tensor,
                                                  isa.program.Program, Machine))]
    for by_mask in kept.values():
        for entry in by_mask.values():
            assert all(map(decodings_module.pure, entry[-1]))
    key = {texts[0]: next(reversed(decodings_module._CONTENTS))}
    for text in texts[1:] + texts[:1]:
        simulator.run(text)
        key[text] = next(reversed(decodings_module._CONTENTS))
    assert list(decodings_module._CONTENTS) == [key[texts[2]], key[texts[0]]]
    assert len(set(key.values())) == 3


def test_a_scratch_tensors_decoding_is_not_taken(monkeypatch):
    """A statement naming a tensor that is not its program's declared one of that name (an
    API statement's scratch) neither exports its decoding nor takes one."""
    program = isa.assemble(UNKNOWN)
    store = Decodings(program.chip.ub_bytes, keep=True)
    store._from_content(program, (program.context, "error", None, program.chip.ub_bytes))
    instr = program.statements[0].instructions[0] if hasattr(
        program.statements[0], "instructions") else program.flat()[0][0]
    assert store._declared(instr)
    scratch = attrs.evolve(program.tensors["x"])
    monkeypatch.setitem(store._tensors, "x", scratch)
    assert not store._declared(instr)


def _serving(decodings: Decodings) -> tuple:
    """What the entries for lines of a shape serve (which decoding stands for a shape does
    not matter: a line is its decoding moved): each `_shapes` key's operands relative to its
    first, its first bases; each `_apart` key's spans and overlaps."""
    def key(k: tuple) -> str:  # (a static key's fields by identity: one program's own)
        return repr(k[:5] + k[6:] if type(k[0]) is int else k)

    shapes = sorted((key(k), tuple(a.base - v[1] for a in v[0].operands), v[2:4])
                    for k, v in decodings._shapes.items())
    apart = sorted((key(k), sorted({(spans, ov) for _, spans, ov in e}))
                   for k, e in decodings._apart.items())
    return shapes, apart


@pytest.mark.parametrize("moves", [[0, 1, 2], [3, 0, 5, 1], [0, 0, 30, 1]])
def test_decodings_taken_make_the_shape_entries_decodings_made_make(monkeypatch, moves):
    """A program assembled again takes its decodings from its content's, and leaves entries
    for lines of their shapes (`_shapes`, `_apart`) serving what a run from an empty store
    left: an unrolled kernel assembled again still rebases and batches its lines."""
    monkeypatch.setattr(decodings_module, "_CONTENTS", OrderedDict())
    seen = _at_release(monkeypatch, _serving)
    text = _program(moves)
    first = simulator.run(text)
    taken = _adopted(monkeypatch)
    again = simulator.run(text)
    assert len(taken) >= 6
    assert seen[1] == seen[0] and seen[0][0] and seen[0][1]
    assert bytes(again.ub) == bytes(first.ub)
