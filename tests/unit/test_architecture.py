"""The architecture's promises (issue 12): instruction facts live in the table and the family
records; a user's observer sees everything through the public event contract; a streamed run
equals the assembled program and its saved `.vasm` replays identically; `import pipev` is the
Python API."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import numpy as np
import pytest

import pipev
from isa import table
from isa.families import VECTOR, Family
from isa.listing import listing
from isa.table import INSTRUCTIONS, InstrDef
from simulator.semantics import arith
from simulator.semantics.common import load, numeric, store

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "simulator"


# -- instruction facts in one place ------------------------------------------------------------
def test_no_module_outside_isa_and_semantics_branches_on_a_mnemonic():
    """Executor, checks, timing, hazards, traces, debugger and CLI ask the family records."""
    names = "|".join(sorted({d.name for d in INSTRUCTIONS.values()} |
                            {d.family.name for d in INSTRUCTIONS.values()}, key=len,
                            reverse=True))
    branch = re.compile(rf"""(\.name|\.head|family)\s*(==|!=|in)\s*\(?\s*["']({names})["']""")
    offenders = []
    for path in SRC.rglob("*.py"):
        if "semantics" in path.parts:
            continue
        for k, line in enumerate(path.read_text().splitlines(), 1):
            if branch.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{k}: {line.strip()}")
    assert offenders == []


# where instruction facts are declared (the table, the family records) and the API statements'
# expansions (isa/api.py: an API statement's body, as a semantics module is a family's)
ISA_RECORDS = ("table.py", "families.py", "api.py")


def test_no_module_of_isa_outside_the_records_branches_on_a_mnemonic():
    """The assembler, operand rules, decoder, listing and reference read the family records: a
    chip requirement, an operand rule or a listing rule is a field, not `name == "vsel"`."""
    names = "|".join(sorted({d.name for d in table.all_defs()} |
                            {d.family.name for d in table.all_defs()}, key=len, reverse=True))
    branch = re.compile(rf"""(?:==|!=|\bin)\s*\(?\s*["']({names})["']"""
                        r"""|startswith\(\s*\(?\s*["']v""")
    offenders = []
    for path in (ROOT / "isa").rglob("*.py"):
        if path.name in ISA_RECORDS:
            continue
        for k, line in enumerate(path.read_text().splitlines(), 1):
            if branch.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{k}: {line.strip()}")
    assert offenders == []


def test_isa_never_imports_simulator_and_semantics_never_import_observers():
    for path in (ROOT / "isa").rglob("*.py"):
        assert "simulator" not in re.findall(r"^\s*(?:from|import) (\w+)", path.read_text(),
                                             re.M), path
    for path in (SRC / "semantics").glob("*.py"):
        text = path.read_text()
        for layer in ("timing", "trace", "debugger", "hazards", "stats"):
            assert f"simulator.{layer}" not in text, (path, layer)


# -- one address formula -----------------------------------------------------------------------
FORMULA = {ROOT / "isa" / "decode.py", ROOT / "isa" / "addressing.py"}
STRIDES = {"blk", "rep", "step", "repeat_bytes"}  # an Access's stride fields and derived sizes


def _arithmetic(tree: ast.AST) -> list[list[ast.AST]]:
    """The nodes of each outermost arithmetic expression, not descending into calls (a call's
    arguments are handed to it, not computed with)."""
    found = []

    def nodes(node):
        yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, ast.Call):
                yield from nodes(child)

    def visit(node, inside: bool):
        arith = isinstance(node, ast.BinOp | ast.AugAssign)
        if arith and not inside:
            found.append(list(nodes(node)))
        for child in ast.iter_child_nodes(node):
            visit(child, inside or arith)

    visit(tree, False)
    return found


def _address_formula_copies(path: Path, root: Path = ROOT) -> list[str]:
    """What in PATH re-derives an address from an operand's fields: arithmetic with a stride
    field (`acc.rep * 32`), an operand's base plus a product (`sel.base + lo * nb`), the
    literal 256 as a repeat's bytes (outside the front ends, whose API counts are the ISA's
    business), or an `Access` built field by field (the decodings cache's copy dropped
    `count`)."""
    tree = ast.parse(path.read_text())
    where = path.relative_to(root)
    front = where.parts[0] == "isa" or {"tik", "ascendc"} & set(where.parts)
    out = []
    for expr in _arithmetic(tree):
        names = {n.attr for n in expr if isinstance(n, ast.Attribute)}
        ops = [n for n in expr if isinstance(n, ast.BinOp)]
        if names & STRIDES:
            out.append(f"stride fields {sorted(names & STRIDES)}")
        elif "base" in names and any(isinstance(n.op, ast.Mult | ast.LShift) for n in ops):
            out.append("an operand's base plus a product")
        elif not front and any(not isinstance(n.op, ast.LShift | ast.RShift) and
                               256 in (getattr(n.left, "value", None),
                                       getattr(n.right, "value", None)) for n in ops):
            out.append("256 bytes a repeat")
        else:
            continue
        out[-1] = f"{where}:{expr[0].lineno}: {out[-1]}: {ast.unparse(expr[0])}"
    out += [f"{where}:{n.lineno}: builds an Access" for n in ast.walk(tree)
            if isinstance(n, ast.Call) and "Access" in (getattr(n.func, "id", None),
                                                        getattr(n.func, "attr", None))]
    return out


def test_only_the_access_record_turns_fields_into_addresses():
    """isa/decode.py's `Access` (over isa/addressing.py's tables) is the one address formula:
    checks, bulk plans, banks, the undo log, the debugger and the decodings cache ask it."""
    offenders = [hit for top in ("isa", "simulator", "pipev")
                 for path in sorted((ROOT / top).rglob("*.py")) if path not in FORMULA
                 for hit in _address_formula_copies(path)]
    assert offenders == []


def test_the_formula_check_finds_each_kind_of_copy(tmp_path):
    """Not vacuous: each way the formula was re-derived before is caught."""
    copies = {"acc.base + lo * acc.rep * 32": "stride fields ['rep']",
              "shape = (hi - lo, acc.repeat_bytes // 32, 32 // size)": "stride fields",
              "a = sel.base + lo * nb": "an operand's base plus a product",
              "off += k * 256": "256 bytes a repeat",
              "x = Access(a.role, a.base + shift, a.kind, a.size)": "builds an Access"}
    (tmp_path / "simulator").mkdir()
    for k, (line, why) in enumerate(copies.items()):
        path = tmp_path / "simulator" / f"m{k}.py"
        path.write_text(f"def f(acc, sel, lo, hi, nb, k, size, a, shift, off):\n    {line}\n")
        found = _address_formula_copies(path, tmp_path)
        assert len(found) == 1 and why in found[0], (line, found)


@pytest.fixture
def made_up():
    """A new binary instruction (one table row, its family, one semantics line) and a new
    family (its record and its body), in an instruction set built from the test: pipev's own
    stays as it was."""
    absd = Family("absd", VECTOR, "V", "binary")  # timed as the binary family

    avg = Family("average", VECTOR, "V", "binary")  # a new shape: its record...

    def average(m, vop, scalar, lo, hi):  # ...and its semantics
        a = numeric(load(m, vop, vop.access("src0"), lo, hi), vop)
        b = numeric(load(m, vop, vop.access("src1"), lo, hi), vop)
        store(m, vop, vop.access("dst"), ((a + b) / 2).astype(vop.t.numeric), lo, hi)

    return pipev.instruction_set().extended(
        InstrDef("vabsd", table._VEC3, absd, typed=True, types="arith", strides="binary",
                 keys=("repeat",), doc="dst = |src0 - src1|"),
        InstrDef("vavg", table._VEC3, avg, typed=True, types="arith", strides="binary",
                 keys=("repeat",), doc="dst = (src0 + src1) / 2"),
        vector={"absd": arith.binary_of(lambda a, b: np.abs(a - b)),  # the one semantics line
                "average": average})


MADE_UP = """\
.chip ascend910b
.ub a f32[128] = random(1)
.ub b f32[128] = random(2)
.ub d f32[128]
.ub e f32[128]
    vabsd.f32 d, a, b, repeat=2
    vavg.f32  e, a, b, repeat=1, stride=1,1,1,8,8,8
"""


def test_a_made_up_instruction_and_family_work_everywhere(made_up, tmp_path):
    result = pipev.run(MADE_UP, trace=tmp_path / "t.jsonl", isa=made_up)
    a = np.random.default_rng(1).uniform(-100, 100, 128).astype(np.float32)
    b = np.random.default_rng(2).uniform(-100, 100, 128).astype(np.float32)
    p = result.program
    ub = result.ub
    d, e = p.tensors["d"], p.tensors["e"]
    assert ub[d.addr:d.addr + 512].tobytes() == np.abs(a - b).tobytes()
    assert ub[e.addr:e.addr + 256].tobytes() == ((a[:64] + b[:64]) / 2).astype(
        np.float32).tobytes()
    assert result.pipes["V"] > 0  # timed by the family's cost class
    rows = listing(p)
    assert [len(h["uops"]) for s in rows for h in s["hw"]] == [2, 1]
    events = [json.loads(x) for x in (tmp_path / "t.jsonl").read_text().splitlines()]
    assert [e["text"].split()[0] for e in events if e.get("ev") == "instr"] == ["vabsd.f32",
                                                                              "vavg.f32"]


def test_an_extended_instruction_set_is_an_object_pipevs_own_stays_as_it_was(made_up):
    assert "vabsd" in made_up.instructions
    assert "vabsd" not in pipev.instruction_set().instructions
    with pytest.raises(pipev.AssemblyError, match="unknown mnemonic 'vabsd'"):
        pipev.run(MADE_UP)
    program = pipev.assemble(MADE_UP, table=made_up)
    assert pipev.run(program).pipes["V"] > 0  # a Program runs with the set it was built with
    with pytest.raises(ValueError, match="isa applies when assembling"):
        pipev.run(program, isa=pipev.instruction_set())
    d = pipev.debug(MADE_UP, isa=made_up)
    assert d.execute("step") == ["<string>:7: vavg.f32  e, a, b, repeat=1, "
                                 "stride=1,1,1,8,8,8", "  pc 1  cycle 4"]
    s = pipev.Stream(isa=made_up)
    s.declare_ub("a", "f32", 64, 0)
    s.declare_ub("d", "f32", 64, 256)
    s.issue("vector_dup.f32 a, -2.0, repeat=1")
    s.issue("vabsd.f32 d, a, d, repeat=1")
    assert s.finish().ub[256:512].view(np.float32).tolist() == [2.0] * 64
    rows = InstrDef("vfoo", table._VEC3, Family("foo", VECTOR, "V", "binary"))
    with pytest.raises(ValueError, match=r"no semantics for vfoo \(family foo\)"):
        pipev.instruction_set().extended(rows)


def test_a_made_up_keyword_field_is_ranged_defaulted_and_listed(made_up):
    def shifted(m, vop, scalar, lo, hi):  # dst = src << shift, on the raw elements
        raw = load(m, vop, vop.access("src"), lo, hi).view(vop.t.raw)
        store(m, vop, vop.access("dst"), raw << vop.t.raw.type(vop.instr.fields["shift"]),
              lo, hi)

    isa = made_up.extended(
        InstrDef("vshl", (("dst", "vec"), ("src", "vec")), Family("shl", VECTOR, "V", "unary"),
                 typed=True, types="arith", strides="unary", keys=("repeat", "shift")),
        keys=[table.Key("shift", 0, 7, 1, False, "bits to shift left")],
        vector={"shl": shifted})
    text = ".ub a s16[128] = fill(3)\n.ub d s16[128]\n    vshl.s16 d, a, shift=SHIFT\n"
    program = pipev.assemble(text.replace("shift=SHIFT", "repeat=1"), table=isa)
    assert program.statements[0].hw[0].text == "vshl.s16 d, a, repeat=1, shift=1"
    result = pipev.run(text.replace("SHIFT", "3"), isa=isa)
    d = result.program.tensors["d"]
    assert result.ub[d.addr:d.addr + 256].view(np.int16).tolist() == [24] * 128
    with pytest.raises(pipev.AssemblyError, match=r"shift=9 is out of range \(0\.\.7\)"):
        pipev.assemble(text.replace("SHIFT", "9"), table=isa)
    assert "shift" not in pipev.instruction_set().keys


ISA_MODULE = """\
import numpy as np
import pipev
from isa.families import VECTOR, Family
from isa.table import InstrDef
from simulator.semantics.arith import binary_of

ABSD = pipev.instruction_set().extended(
    InstrDef("vabsd", (("dst", "vec"), ("src0", "vec"), ("src1", "vec")),
             Family("absd", VECTOR, "V", "binary"), typed=True, types="arith",
             strides="binary", keys=("repeat",), doc="dst = |src0 - src1|"),
    vector={"absd": binary_of(lambda a, b: np.abs(a - b))})
"""


def test_the_cli_takes_an_instruction_set_by_name(tmp_path):
    from click.testing import CliRunner

    from simulator.cli import main

    (tmp_path / "my_isa.py").write_text(ISA_MODULE)
    program = tmp_path / "p.vasm"
    program.write_text(".ub a f32[64] = fill(-3.0)\n.ub b f32[64] = fill(1.0)\n"
                       ".gm out f32[64] output\n.ub d f32[64]\n"
                       "    vabsd.f32 d, a, b, repeat=1\n"
                       "    set_flag V, MTE3, 0\n    wait_flag V, MTE3, 0\n"
                       "    copy_ub_to_gm out, d, nburst=1, burst=8\n")
    isa = f"--isa={tmp_path / 'my_isa.py'}:ABSD"
    ran = CliRunner().invoke(main, ["run", isa, str(program), "--quiet",
                                    "--output-dir", str(tmp_path / "out")])
    assert ran.exit_code == 0, ran.output
    assert np.load(tmp_path / "out" / "out.npy").tolist() == [4.0] * 64
    listed = CliRunner().invoke(main, ["asm", isa, str(program)])
    assert "vabsd.f32 d, a, b, repeat=1" in listed.output
    without = CliRunner().invoke(main, ["run", str(program)])
    assert without.exit_code == 1 and "unknown mnemonic 'vabsd'" in without.output
    wrong = CliRunner().invoke(main, ["run", f"--isa={tmp_path / 'my_isa.py'}:NOPE",
                                      str(program)])
    assert wrong.exit_code == 2 and "has no InstructionSet named NOPE" in wrong.output


# -- the observer contract ---------------------------------------------------------------------
class PipeBusy(pipev.Observer):
    """Per-pipe busy cycles, from nothing but the events."""

    def __init__(self):
        self.busy = {p: 0 for p in ("S", "V", "MTE2", "MTE3")}

    def on_event(self, ev):
        self.busy[ev.pipe] += ev.busy
        self.busy["S"] += ev.issue_busy


class WriteMap(pipev.Observer):
    """Which UB bytes the run wrote."""

    def on_start(self, run):
        self.written = np.zeros(run.ub_bytes, bool)

    def on_event(self, ev):
        for start, end in ev.writes:
            self.written[start:end] = True


OBSERVED = """\
.chip ascend910b
.gm  src  f32[1024] input = random(7, 1, 2)
.gm  dst  f32[1024] output
.ub  all  u8[12800] @0x0 = fill(FILL)   ; every tensor's bytes start as FILL
.ub  x    f32[1024] @0x0
.ub  y    f32[1024] @0x1000
.ub  m    u8[128] @0x2000
.ub  cm   u8[32] @0x2080
.ub  z    f32[1024] @0x20a0
.ub  w    f32[64] @0x30a0
    copy_gm_to_ub x, src, nburst=1, burst=128
    set_flag MTE2, V, 0
    wait_flag MTE2, V, 0
    vadds.f32 y, x, 3.0, repeat=16
    compare.gt.f32 m, y, x, count=1024       ; every bit 1
    vcmp.gt.f32 y, x                          ; CMPMASK all ones
    get_cmpmask cm
    set_cmpmask m
    vsel.f32 z, y, x, repeat=16, stride=1,1,1,8,8,8
    vector_dup.f32 w, 7.0, repeat=1, stride=1,1,8,8
    copy_ub_to_ub x[512], z, nburst=4, burst=8, src_gap=8, dst_gap=8
    set_flag V, MTE3, 0
    wait_flag V, MTE3, 0
    copy_ub_to_gm dst, z, nburst=1, burst=128
"""


def test_a_users_observers_see_busy_cycles_and_ub_writes():
    """Run twice with different initial bytes: a byte the run writes ends the same in both, so
    it changed in at least one run; a byte it does not write keeps each run's initial value."""
    changed = []
    for fill in (0x55, 0xAA):
        busy, writes = PipeBusy(), WriteMap()
        result = pipev.run(OBSERVED.replace("FILL", str(fill)), observers=[busy, writes],
                           checks="warn")
        assert busy.busy == result.pipes
        initial = np.zeros(result.ub.size, np.uint8)
        initial[:12800] = fill
        changed.append(np.frombuffer(bytes(result.ub), np.uint8) != initial)
    assert np.array_equal(writes.written, changed[0] | changed[1])
    assert writes.written.sum() > 3 * 4096
    assert result.stalls["flag_wait"] > 0 and result.hot_lines[0]["line"] > 0


def test_event_attributes_are_documented_and_filled():
    seen = []

    class Keep(pipev.Observer):
        def on_event(self, ev):
            seen.append(ev)

    pipev.run(OBSERVED.replace("FILL", "1"), observers=[Keep()])
    ev = next(e for e in seen if e.mnemonic == "vsel.f32")
    assert (ev.pipe, ev.kind, ev.repeats, ev.line) == ("V", "vector", 16, 19)
    assert ev.statement.startswith("vsel.f32 z, y, x")
    assert ev.reads_cmpmask and not ev.writes_cmpmask and ev.mask_mode == "norm"
    assert ev.end > ev.start >= ev.issue and len(ev.beats) == 16
    moves = [e for e in seen if e.kind == "cmpmask_move"]
    assert [bool(e.writes) for e in moves] == [True, False]  # get_cmpmask writes UB
    dma = next(e for e in seen if e.mnemonic == "copy_gm_to_ub")
    assert dma.gm_reads == [("src", 0, 4096)] and dma.writes == [(0, 4096)]
    untimed = []

    class Keep2(pipev.Observer):
        def on_event(self, ev):
            untimed.append((ev.start, ev.busy))

    pipev.run(OBSERVED.replace("FILL", "1"), observers=[Keep2()], timing=False)
    assert set(untimed) == {(None, None)}


# -- the streaming entry -------------------------------------------------------------------------
STREAM_DECLS = """\
.chip ascend910b
.gm  a    f32[512] inout = file("a.npy")
.gm  out  f32[512] inout = file("out.npy")
.ub  x    f32[512] @0x0
.ub  m    u8[64] @0x800
.ub  z    f32[512] @0x1000
"""


def producer(stream_issue, read_ub):
    """A kernel that decides what to issue from UB contents: the compare's bits."""
    issue = stream_issue
    issue("copy_gm_to_ub x, a, nburst=1, burst=64", 7)
    issue("set_flag MTE2, V, 0", 8)
    issue("wait_flag MTE2, V, 0", 9)
    issue("compares.gt.f32 m, x, 0.0, count=512", 10)
    issue("set_flag V, S, 0", 11)
    issue("wait_flag V, S, 0", 12)
    positives = int(np.unpackbits(read_ub(0x800, 64)).sum())
    if positives > 256:  # branch on the data
        issue("vmuls.f32 z, x, 2.0, repeat=8", 13)
    else:
        issue("vector_dup.f32 z, -1.0, repeat=8", 13)
    issue("set_flag V, MTE3, 0", 14)
    issue("wait_flag V, MTE3, 0", 15)
    issue("copy_ub_to_gm out, z, nburst=1, burst=64", 16)
    return positives


@pytest.mark.parametrize("seed", [3, 4])
def test_a_streamed_run_equals_the_assembled_program(tmp_path, monkeypatch, seed):
    monkeypatch.chdir(tmp_path)  # both runs name the program prog.vasm
    a = np.random.default_rng(seed).uniform(-1 + (seed - 3.5), 1 + (seed - 3.5),
                                            512).astype(np.float32)
    out = np.zeros(512, np.float32)
    s = pipev.Stream("ascend910b", name="prog.vasm", trace=tmp_path / "stream.jsonl")
    s.declare_gm("a", "f32", a.view(np.uint8))
    s.declare_gm("out", "f32", out.view(np.uint8))
    s.declare_ub("x", "f32", 512, 0)
    s.declare_ub("m", "u8", 64, 0x800)
    s.declare_ub("z", "f32", 512, 0x1000)
    texts = []

    def issue(text, line):
        texts.append(text)
        s.issue(text, file="prog.vasm", line=line)

    positives = producer(issue, lambda addr, n: s.ub[addr:addr + n])
    streamed = s.finish()
    want = a * 2 if positives > 256 else np.full(512, -1, np.float32)
    assert out.tobytes() == want.tobytes()  # host memory, written in place
    # the same statements as an assembled program, at the same lines
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "out.npy", np.zeros(512, np.float32))
    Path("prog.vasm").write_text(STREAM_DECLS + "".join(f"    {t}\n" for t in texts))
    assembled = pipev.run("prog.vasm", trace=tmp_path / "prog.jsonl")
    assert assembled.outputs["out"].tobytes() == out.tobytes()
    assert (streamed.cycles, streamed.pipes, streamed.stalls) == \
        (assembled.cycles, assembled.pipes, assembled.stalls)
    assert _events(tmp_path / "stream.jsonl") == _events(tmp_path / "prog.jsonl")
    # the saved straight-line program replays the same bytes and cycles
    s.save_vasm(tmp_path / "replay.vasm")
    replay = pipev.run(tmp_path / "replay.vasm")
    assert replay.outputs["out"].tobytes() == out.tobytes()
    assert (replay.cycles, replay.pipes) == (streamed.cycles, streamed.pipes)


def _events(path: Path) -> list[dict]:
    """A trace's events without the header (which names the program) and without the file a
    streamed statement's events name (the assembled program's are its own)."""
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    return [{k: v for k, v in e.items() if k != "file"} for e in lines
            if e.get("ev") not in (None, "summary")] + \
        [{k: v for k, v in lines[-1].items() if k != "outputs"}]


def test_stream_registers_diagnostics_at_the_callers_line_and_replay(tmp_path):
    s = pipev.Stream("ascend910b", name="kernel.cpp")
    s.declare_ub("x", "f32", 256, 0)
    s.declare_ub("y", "f32", 256, 1024)
    for k in range(4):  # one call site, four register values: assembled once
        s.issue("vadds.f32 y[x1], x[x1], raw(0x3f800000), repeat=1", file="kernel.cpp",
                line=40, col=9, regs=[64 * k])
    assert len(s.source.statements) == 1
    with pytest.raises(pipev.SimulationError) as e:
        s.issue("vadds.f32 y[x1], x, 1.0, repeat=1", file="kernel.cpp", line=44, col=9,
                regs=[1])
    d = e.value.diagnostics[-1]
    assert str(d).startswith("kernel.cpp:44:9: error: vadds.f32 dst y address 0x404 (x1 = 1) "
                             "is not 32-byte aligned")
    with pytest.raises(pipev.SimulationError):  # a failed stream stays failed
        s.finish()


def test_stream_replay_substitutes_register_values(tmp_path):
    s = pipev.Stream("ascend910b", name="k")
    s.declare_ub("x", "f32", 256, 0)
    s.issue("vector_dup.f32 x[x1], raw(0x40000000), repeat=x2", regs=[64, 2])
    text = s.vasm_text()
    assert "vector_dup.f32 x[(64)], raw(0x40000000), repeat=(2)" in text
    first = s.finish()
    s.save_vasm(tmp_path / "r.vasm")
    again = pipev.run(tmp_path / "r.vasm")
    assert bytes(again.ub) == bytes(first.ub) and again.cycles == first.cycles


# -- import pipev ----------------------------------------------------------------------------------
def test_pipev_is_the_python_api():
    assert {c.name for c in pipev.chips()} >= {"ascend910b", "ascend950"}
    prog = pipev.assemble((ROOT / "programs/tutorial/maximum.vasm").read_text())
    r = pipev.run(prog)
    assert isinstance(r, pipev.RunResult) and r.cycles == 664 and r.hot_lines[0]["line"] == 11
    d = pipev.debug(ROOT / "programs/tutorial/maximum.vasm")
    assert d.execute("break 16") == ["breakpoint 1 at line 16, pc 5"]
    d.execute("continue")
    assert d.execute("print m[0:4]") == ["m[0:4] = [203  45 152 117]"]
    assert not d.finished and d.cycle > 0


def test_host_reads_and_writes_of_ub_meet_the_race_checks():
    def run(sync: bool) -> list[str]:
        a = np.arange(64, dtype=np.float32)
        s = pipev.Stream(name="k.cpp")
        s.declare_gm("a", "f32", a.view(np.uint8))
        s.declare_ub("x", "f32", 64, 0)
        s.issue("copy_gm_to_ub x, a, nburst=1, burst=8", file="k.cpp", line=5)
        if sync:
            s.issue("set_flag MTE2, S, 0", file="k.cpp", line=6)
            s.issue("wait_flag MTE2, S, 0", file="k.cpp", line=6)
        s.host_access(16, 4, False, file="k.cpp", line=7)  # GetValue
        s.host_access(32, 4, True, file="k.cpp", line=8)  # SetValue
        s.issue("set_flag MTE2, V, 0", file="k.cpp", line=9)
        s.issue("wait_flag MTE2, V, 0", file="k.cpp", line=9)
        s.issue("vadds.f32 x, x, 1.0, repeat=1, stride=1,1,8,8", file="k.cpp", line=10)
        return [str(d) for d in s.finish().diagnostics]

    assert run(sync=True) == []  # the host write is ordered before what S issues next
    assert run(sync=False) == [
        "k.cpp:7:1: warning: race: GetValue on S reads UB byte 0x10, which copy_gm_to_ub on "
        "MTE2 at line 5 wrote, with no set_flag/wait_flag or pipe_barrier ordering them "
        "(read-after-write)",
        "k.cpp:8:1: warning: race: SetValue on S writes UB byte 0x20, which copy_gm_to_ub on "
        "MTE2 at line 5 wrote, with no set_flag/wait_flag or pipe_barrier ordering them "
        "(write-after-write)"]


# -- .loc FILE LINE [COL] --------------------------------------------------------------------------
LOC_PROGRAM = """.chip ascend910b
.ub x f32[256]
.ub y f32[256]
.loc "my kernel.cpp" 40 9
    vector_dup.f32 x, 1.0, repeat=4
    vadds.f32 y, x, 1.0, repeat=4
.loc kernel.cpp 44
    vadds.f32 y[1], x, 1.0, repeat=1
"""


def test_loc_attributes_the_statements_after_it(tmp_path):
    prog = pipev.assemble(LOC_PROGRAM.rsplit(".loc kernel.cpp", 1)[0])
    assert [(h.file, h.line, h.col) for st in prog.statements for h in st.hw] == \
        [("my kernel.cpp", 40, 9)] * 2
    assert [st.line for st in prog.statements] == [5, 6]  # the statements' own lines stay
    path = tmp_path / "rec.vasm"
    path.write_text(LOC_PROGRAM)
    with pytest.raises(pipev.AssemblyError) as e:  # a replayed failure names the C++ line
        pipev.run(path)
    assert str(e.value.diagnostics[-1]).startswith("kernel.cpp:44:1: error: vadds.f32 dst "
                                                   "address 0x404 is not 32-byte aligned")


@pytest.mark.parametrize("bad", [".loc", ".loc k.cpp", ".loc k.cpp x", ".loc k.cpp 4 5 6"])
def test_loc_needs_a_file_and_a_line(bad):
    with pytest.raises(pipev.AssemblyError) as e:
        pipev.assemble(f".ub x f32[64]\n{bad}\n    vector_dup.f32 x, 1.0, repeat=1\n")
    assert "expected '.loc FILE LINE [COL]'" in str(e.value)


# -- the fast loop inside the observer contract ------------------------------------------------
def _private_uses(path: Path) -> list[str]:
    """Where PATH imports a private name of another module or reads a private attribute of an
    object other than its own (`self`): `_name`, not a dunder."""
    import ast

    def private(name: str) -> bool:
        return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))

    tree, out = ast.parse(path.read_text()), []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            out += [f"{node.lineno}: from {node.module} import {a.name}" for a in node.names
                    if private(a.name) or any(private(p) for p in (node.module or "").split("."))]
        elif isinstance(node, ast.Import):
            out += [f"{node.lineno}: import {a.name}" for a in node.names
                    if any(private(p) for p in a.name.split("."))]
        elif isinstance(node, ast.Attribute) and private(node.attr):
            if not (isinstance(node.value, ast.Name) and node.value.id == "self"):
                out.append(f"{node.lineno}: .{node.attr}")
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) in (
                "getattr", "setattr", "hasattr") and len(node.args) > 1 \
                and isinstance(node.args[1], ast.Constant) and private(str(node.args[1].value)):
            out.append(f"{node.lineno}: {node.func.id}(..., {node.args[1].value!r})")
    return out


def test_the_fast_loop_reads_only_what_other_modules_make_public():
    """simulator/fused.py drives the executor and asks the timing stage and the observers for
    their plans through public names only (docs/observers.md, "Plans"); the executor does not
    import it (the run builder chooses the loop), so the two form no import circle."""
    assert _private_uses(SRC / "fused.py") == []
    executor = (SRC / "executor.py").read_text()
    assert not re.search(r"^\s*(from|import)\s+simulator\.fused", executor, re.M)
    assert "fused" not in re.findall(r"^\s*from simulator import ([\w, ]+)", executor, re.M)


def test_the_private_use_check_finds_private_names(tmp_path):
    """The check above is not vacuous: it finds each kind of private use."""
    path = tmp_path / "probe.py"
    path.write_text("from a.b import _c\nimport a._d\nx = y._z\nself._own = getattr(y, '_w')\n"
                    "ok = y.__class__\n")
    found = _private_uses(path)
    assert [f.split(":")[0] for f in found] == ["1", "2", "3", "4"], found
