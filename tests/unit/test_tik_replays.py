"""A Python loop's replayed calls (simulator/tik/memo.py) recorded as Replays nodes
(simulator/tik/nodes.py): a run of one site's calls is one node for the synchronisation pass
and the build, and gives the program (listing, flags, Scalars' homes), cycles, outputs and
trace the calls recorded in full one by one give; int-indexed views made from their root's
view class."""

import textwrap

import pytest

from isa.listing import format_listing
from simulator.run import run
from simulator.tik import memo
from simulator.tik.nodes import Replays
from simulator.tik.script import build

HEAD = """
from tbe import tik
t = tik.Tik()
g = t.Tensor("float16", (4096,), name="g", scope=tik.scope_gm)
a = t.Tensor("float16", (4096,), name="a", scope=tik.scope_ubuf)
b = t.Tensor("float16", (4096,), name="b", scope=tik.scope_ubuf)
d = t.Tensor("float16", (4096,), name="d", scope=tik.scope_ubuf)
m = t.Tensor("uint16", (256,), name="m", scope=tik.scope_ubuf)
t.vec_dup(128, a, 1.0, 32, 8)
t.vec_dup(128, b, 2.0, 32, 8)
t.vec_dup(128, d, 0.0, 32, 8)
t.vec_dup(128, m, 0, 2, 8)
"""
TAIL = """
t.BuildCCE(kernel_name="k", inputs=[], outputs=[g])
"""

# runs of replays with flags around them: a wait before a run's first call (MTE2 wrote a,
# MTE3 read d), a set after its last (MTE3 reads what the run wrote); inside a for_range
# (carried pairs); a Scalar declared between calls of a run; one call a run
FLAGGED = """
s = t.Scalar("int32", name="s", init_value=2)
for i in range(5):
    t.vec_add(128, d[i % 4 * 128], a[i % 4 * 128], b[i % 3 * 128], 1, 8, 8, 8)
t.data_move(g, d, 0, 1, 32, 0, 0)
t.data_move(a[512], g[512], 0, 1, 8, 0, 0)
for i in range(6):
    t.vec_add(128, d[i % 4 * 128], a[i % 4 * 128], b[i % 3 * 128], 1, 8, 8, 8)
    if i == 2:
        r = t.Scalar("int32", name="r")  # its life starts inside the run (nothing recorded)
r.set_as(s)
with t.for_range(0, 3) as k:
    t.data_move(a[k * 128], g[k * 128], 0, 1, 8, 0, 0)
    for i in range(4):
        t.vec_cmpv_lt(m[i * 16], a[i * 128], b[i * 128], 1, 8, 8)
    for i in range(3):
        t.vec_sel(128, 0, d[i * 128], m[i * 16], a[i * 128], b, 1, 8, 8, 8)
    t.data_move(g[k * 128], d[k * 128], 0, 1, 8, 0, 0)
for i in range(3):
    t.vec_muls(128, d[i * 128], d[i * 128], 0.5, 1, 8, 8)
t.data_move(g, d, 0, 1, 32, 0, 0)
"""


def program(tmp_path, body: str):
    path = tmp_path / "k.py"
    path.write_text(textwrap.dedent(HEAD) + textwrap.dedent(body) + textwrap.dedent(TAIL))
    return build(str(path), path.read_text(), {}, "ascend910b", "error")


def everything(prog, tmp_path) -> tuple:
    trace = tmp_path / "t.jsonl"
    result = run(prog, trace=str(trace))
    return (format_listing(prog), repr(prog.statements), prog.labels, prog.scalars,
            result.cycles, result.outputs["g"].tobytes(), trace.read_bytes())


def test_replays_give_the_full_recordings(tik_importable, tmp_path, monkeypatch):
    replayed = everything(program(tmp_path, FLAGGED), tmp_path)
    monkeypatch.setattr(memo, "MAX_KEYS", 0)  # nothing kept: every call an Op of its own
    full = everything(program(tmp_path, FLAGGED), tmp_path)
    assert replayed == full
    listing = replayed[0]
    assert "wait_flag" in listing and "set_flag" in listing  # the flags are there to place
    assert any(home.name == "r" for home in replayed[3])


def recorded_tree(tmp_path, monkeypatch, body: str):
    """The root block's nodes of the kernel BODY records (read as the build starts)."""
    import simulator.tik.build as tik_build

    seen = []
    real = tik_build.build

    def spy(tik):
        seen.append(list(tik.root.nodes))
        return real(tik)
    monkeypatch.setattr(tik_build, "build", spy)
    program(tmp_path, body)
    return seen[0]


def test_a_loops_calls_are_one_node(tik_importable, tmp_path, monkeypatch):
    nodes = recorded_tree(tmp_path, monkeypatch, """
        for i in range(10):
            t.vec_cmpv_lt(m[i % 4 * 16], a[i % 4 * 128], b[i * 128], 1, 8, 8)
        for i in range(3):
            t.vec_cmpv_lt(m[i * 16], a[i * 128], b[i * 128], 1, 8, 8)
            t.vec_sel(128, 0, d[i * 128], m[i * 16], a[i * 128], b, 1, 8, 8, 8)
        """)
    runs = [n for n in nodes if isinstance(n, Replays)]
    # the first call of each site is recorded in full (an Op); the first loop's other nine
    # are one node, each call's own offsets (in argument order) in it; the second loop's
    # sites alternate: a node each call
    assert [len(r.offsets) for r in runs] == [9, 1, 1, 1, 1]
    assert runs[0].offsets == [(k % 4 * 16, k % 4 * 128, k * 128) for k in range(1, 10)]
    assert runs[0].lines(2) == ["compare.lt.f16 m[48], a[384], b[384], repeat=1, "
                                "stride=1,1,1,8,8,8"]
    assert runs[1].entry is runs[3].entry and runs[1].entry is not runs[2].entry


# one site's calls: the loop's all replay the first (made before it), between two data moves
ADDS_BETWEEN_MOVES = """
def add(i):
    t.vec_add(128, d[i * 128], a[i * 128], b[i * 128], 1, 8, 8, 8)
add(4)
t.data_move(a, g, 0, 1, 32, 0, 0)
for i in range(4):
    add(i)
t.data_move(g, d, 0, 1, 32, 0, 0)
"""


def test_a_run_is_one_access_with_its_flags_outside(tik_importable, tmp_path, monkeypatch):
    """A wait goes before a run's first call, a set after its last, as for the calls one by
    one (the comparison above); here: where they are."""
    nodes = recorded_tree(tmp_path, monkeypatch, ADDS_BETWEEN_MOVES)
    assert [len(n.offsets) for n in nodes if isinstance(n, Replays)] == [4]
    prog = program(tmp_path, ADDS_BETWEEN_MOVES)
    texts = [[h.text for h in s.hw] for s in prog.statements]
    adds = [k for k, hw in enumerate(texts) if any(x.startswith("vadd") for x in hw)][1:]
    assert adds == list(range(adds[0], adds[0] + 4))
    first, last = texts[adds[0]], texts[adds[-1]]
    assert first[0].startswith("wait_flag MTE2, V") and "d[0]" in first[-1]
    assert last[-1].startswith("set_flag V, MTE3") and "d[384]" in last[-2]
    assert all(len(texts[k]) == 2 for k in adds[1:-1])  # the calls between: no flag


def test_views_share_their_class(tik_importable, tmp_path):
    from tbe import tik

    from simulator.tik.expr import Const
    from simulator.tik.values import Tensor

    t = tik.Tik()
    a = t.Tensor("float16", (64,), name="a", scope=tik.scope_ubuf)
    v, w = a[3], a[5]
    assert type(v) is type(w) and type(v) is not Tensor and isinstance(v, Tensor)
    assert (v.offset.value, w.offset.value, v.shape) == (3, 5, ())
    assert (v.at, w.at) == (3, 5) and type(v.offset) is Const  # the offset, as an int
    assert v.kind is w.kind and (v.kind.root, v.kind.dtype, v.kind.shape) == (a, "float16", ())
    full = Tensor(t, a.dtype, a.t, (), a.name, a.scope, a.pname, a.loc, a, v.offset)
    fields = {k: getattr(v, k) for k in vars(full)}
    assert fields == {**vars(full), "kind": v.kind}  # what a Tensor made in full holds
    two = t.Tensor("float16", (4, 16), name="two", scope=tik.scope_ubuf)
    flat = two[37]  # one index into two dimensions: the flat view's element
    assert flat.shape == () and flat.offset.value == 37 and flat.kind.root is two
    assert type(two[38]) is type(flat) and type(flat) is not type(v)
    one, other = two[0:4][3], two[8:12][1]  # slices (views made in full), then an int
    assert type(one) is type(other) and (one.offset.value, other.offset.value) == (3, 9)
    assert type(one) is not type(flat)  # one class per root and the shape indexed


@pytest.mark.parametrize("alias", [False, True])
def test_a_run_keeps_each_calls_offsets(tik_importable, tmp_path, monkeypatch, alias):
    """Offsets that repeat within a run are re-stamped from their first statement, new ones
    assembled: every statement at its own addresses."""
    src1 = "d[i % 3 * 128]" if alias else "b[i % 5 * 128]"
    body = f"""
        for i in range(15):
            t.vec_add(128, d[i % 3 * 128], a[i % 2 * 128], {src1}, 1, 8, 8, 8)
        t.data_move(g, d, 0, 1, 32, 0, 0)
        """
    replayed = program(tmp_path, body)
    monkeypatch.setattr(memo, "MAX_KEYS", 0)
    full = program(tmp_path, body)
    assert repr(replayed.statements) == repr(full.statements)
    texts = [h.text for s in replayed.statements for h in s.hw if h.text.startswith("vadd")]
    assert len(texts) == 15 and len(set(texts)) == (3 * 2 if alias else 15)


def test_a_loops_lines_cycles_as_the_reference_loop_counts_them(tik_importable, tmp_path):
    """Each call of a loop is an instruction of its own at the script's line: the fast loop's
    V plans find that line's slot by the line (simulator/fused.py), the reference loop by
    each instruction; the busy cycles per line agree."""
    (tmp_path / "helper.py").write_text(textwrap.dedent("""
        def sel(t, d, m, a, b, n):
            for i in range(n):
                t.vec_sel(128, 0, d[i % 4 * 128], m[i % 4 * 16], a[i % 4 * 128], b, 1, 8, 8, 8)
        """))
    prog = program(tmp_path, """
        import sys
        sys.path.insert(0, __file__.rsplit("/", 1)[0])
        from helper import sel
        for i in range(40):
            t.vec_cmpv_lt(m[i % 4 * 16], a[i % 4 * 128], b[i % 3 * 128], 1, 8, 8)
        sel(t, d, m, a, b, 30)
        t.data_move(g, d, 0, 1, 32, 0, 0)
        """)
    fast, reference = run(prog), run(prog, fast=False)
    assert fast.hot_lines == reference.hot_lines and fast.cycles == reference.cycles
    files = {h["file"].rsplit("/", 1)[-1] for h in fast.hot_lines}
    assert files == {"k.py", "helper.py"}


def test_one_view_twice_is_not_two_views_of_its_class(tik_importable, tmp_path, monkeypatch):
    """Views of one root and shape share a class (and kind): the key tells `v, v` from `v, w`
    by identity alone, and a replay of one must not stand for the other."""
    body = """
        for i in range(8):
            v = d[i * 128]
            w = v if i % 2 == 0 else d[i * 128 + 128]  # v itself, or another view of d
            t.vec_add(128, v, w, b[i * 128], 1, 8, 8, 8)
        t.data_move(g, d, 0, 1, 32, 0, 0)
        """
    replayed = everything(program(tmp_path, body), tmp_path)
    monkeypatch.setattr(memo, "MAX_KEYS", 0)
    assert replayed == everything(program(tmp_path, body), tmp_path)
    assert "vadd.f16 d[128], d[256], b[128]" in replayed[0]


def test_a_replayed_calls_statement_is_the_one_made_in_full(tik_importable, tmp_path):
    """`one_statement` (a replayed call's, made without calling the classes) holds what
    Statement and Instruction made in full hold."""
    from isa.program import Instruction, Statement, one_statement
    from simulator.tik.build import TIK_CALL

    prog = program(tmp_path, """
        t.vec_add(128, d, a, b, 1, 8, 8, 8)
        t.data_move(g, d, 0, 1, 32, 0, 0)
        """)
    body = next(h.body for s in prog.statements for h in s.hw if h.text.startswith("vadd"))
    fast = one_statement(body, 7, 9, 3, "t.vec_add(...)", TIK_CALL)
    full = Statement(7, 9, 3, "t.vec_add(...)", TIK_CALL, (Instruction(body, 7, 9),))
    assert repr(fast) == repr(full)
    assert [(h.pc, h.line, h.body) for h in fast.hw] == [(7, 9, body)]
