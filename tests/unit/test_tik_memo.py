"""A call site's recording kept and replayed (simulator/tik/memo.py): a Python loop's calls
give the program, results and diagnostics they give recorded in full every time, whatever
changes from one call to the next at one site (the method, a tensor's dtype, a new tensor,
a mask, a Scalar, a float's sign, for_range or not), and errors at a later iteration are at
the call's own line."""

import textwrap

import numpy as np
import pytest

from isa.diagnostics import DiagnosticError
from isa.listing import format_listing
from simulator.run import run
from simulator.tik import memo
from simulator.tik.script import build

HEAD = """
from tbe import tik
t = tik.Tik()
a = t.Tensor("float16", (4096,), name="a", scope=tik.scope_ubuf)
b = t.Tensor("float16", (4096,), name="b", scope=tik.scope_ubuf)
d = t.Tensor("float16", (4096,), name="d", scope=tik.scope_ubuf)
m = t.Tensor("uint16", (256,), name="m", scope=tik.scope_ubuf)
f = t.Tensor("float32", (2048,), name="f", scope=tik.scope_ubuf)
g = t.Tensor("float32", (2048,), name="g", scope=tik.scope_ubuf)
out = t.Tensor("float16", (4096,), name="out", scope=tik.scope_gm)
t.vec_dup(128, a, 1.0, 32, 8)
t.vec_dup(128, b, 2.0, 32, 8)
t.vec_dup(64, f, 0.5, 32, 8)
t.vec_dup(64, g, -0.5, 32, 8)
t.vec_dup(128, m, 0, 2, 8)
"""
TAIL = """
t.data_move(out, d, 0, 1, 256, 0, 0)
t.BuildCCE(kernel_name="k", inputs=[], outputs=[out])
"""

# one call site each, what it is given changing from one iteration to the next
VARYING = """
s = t.Scalar("float16", name="s", init_value=1.5)
d2 = t.Tensor("float16", (4, 128), name="d2", scope=tik.scope_ubuf)
t.vec_dup(128, d2, 3.0, 4, 8)
masks = [128, 64, [0, 0x5555555555555555], [0, 0xFFFF0000FFFF]]
sources = [(a, b), (f, g)]
def sel(k, mask, src1, mode):
    t.vec_sel(mask, mode, d[k * 128], m[k * 16], a[k * 128], src1, 1, 8, 8, 8)
for i in range(12):
    x, y = sources[i % 2]  # another dtype at the same site
    t.vec_cmpv_lt(m[i * 16], x[i * 64], y[i * 64], 1 + i % 2, 8, 8)
    sel(i, masks[i % 4], b[i * 128], 0)  # the mask changes
    sel(i, 128, [0.0, -0.0, 1, 1.0, s][i % 5], 1)  # a float's sign, an int, a Scalar
    if i == 6:
        s.set_as(2.5)
    with t.new_stmt_scope():
        z = t.Tensor("float16", (256,), name="z", scope=tik.scope_ubuf)  # a new tensor
        t.vec_dup(128, z, float(i), 2, 8)
        t.vec_cmpv_gt(m[i * 16], z, a[i * 128], 1, 8, 8)
    sel(i, 128, b[i * 128], 2)
    getattr(t, ["vec_cmpv_lt", "vec_cmpv_eq"][i % 2])(m[16], a[128], b[128], 1, 8, 8)
    t.vec_add(128 - i, d[i * 128], a[i * 128], b, 1, 8, 8, 8)  # binding rows
    t.vec_muls(64, f[i * 64], g[i * 64], [0.5, -0.0, 2, s][i % 4], 1, 8, 8)
    t.vec_adds(128, d[i * 128], a[i * 128], [0.0, -0.0, 1.0][i % 3], 1, 8, 8)  # a site's own
    t.vec_conv(64, "round" if i % 3 else "", d[i * 64], f[i * 64], 1, 4, 8)
    t.vec_add(128, d2[i % 2 * 128], d2[i % 2 + 1, 0], d2[i % 2 * 128 + 256], 1, 8, 8, 8)  # 2-D
    v = d[i * 128]
    t.vec_add(128, v, v if i % 2 == 0 else a[i * 128 + 128], b[i * 128], 1, 8, 8, 8)  # `v, v`
    t.vec_adds(128, d, d, 1.0, 1, 8, 8)  # one whole tensor twice
    p, q = d[i * 128], a[i * 128]
    t.vec_add(128, p, q, [p, q][i % 2], 1, 8, 8, 8)  # which one is given twice
with t.for_range(0, 2) as k:  # the same sites inside a for_range
    sel(0, 128, b[128], 0)
    sel(1, 64, 0.25, 1)
    t.vec_cmpv_lt(m[16], f[64], g[64], 2, 8, 8)
"""


def program(tmp_path, body: str, name: str = "k.py"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(HEAD) + textwrap.dedent(body) + textwrap.dedent(TAIL))
    return build(str(path), path.read_text(), {}, "ascend910b", "error")


def listing_and_output(prog) -> tuple[str, bytes]:
    result = run(prog)
    return format_listing(prog), result.outputs["out"].tobytes()


def test_replayed_calls_are_the_full_recordings(tik_importable, tmp_path, monkeypatch):
    replayed = program(tmp_path, VARYING)
    monkeypatch.setattr(memo, "MAX_KEYS", 0)  # nothing kept: every call recorded in full
    full = program(tmp_path, VARYING)
    assert listing_and_output(replayed) == listing_and_output(full)
    texts = [h.text for s in full.statements for h in s.hw]
    assert "-0.0" in " ".join(texts) and "0.0," in " ".join(texts)  # both signs there


def test_calls_are_replayed(tik_importable, tmp_path, monkeypatch):
    """The memo is used: a loop's calls past the first from one site record nothing in full."""
    recorded = []
    full = memo._record
    monkeypatch.setattr(memo, "_record", lambda *a: recorded.append(1) or full(*a))
    program(tmp_path, """
        d2 = t.Tensor("float16", (32, 128), name="d2", scope=tik.scope_ubuf)
        for i in range(16):
            t.vec_cmpv_lt(m[i * 16], a[i * 128], b[i * 128], 1, 8, 8)
            t.vec_sel(128, 0, d[i * 128], m[i * 16], a[i * 128], b, 1, 8, 8, 8)
            t.vec_adds(128, d2[i * 128], d2[i * 256], 1.0, 1, 8, 8)  # a 2-D tensor's flat views
            t.vec_adds(128, d, d, 1.0, 1, 8, 8)  # one object twice
        """)
    assert len(recorded) == 4


def error(tmp_path, body: str) -> tuple[int, int, str]:
    with pytest.raises(DiagnosticError) as e:
        program(tmp_path, body)
    first = e.value.diagnostics[0]
    return first.line, first.column, first.message


CALL_LINE = len(textwrap.dedent(HEAD).splitlines()) + 3  # a body's third line (after "\n", a head)


@pytest.mark.parametrize("call, message", [
    ("t.vec_cmpv_lt(m[i * 16], a[i * 128], b[i * 128], 300 if i == 2 else 1, 8, 8)",
     "repeat_times 300 is out of range [1, 255]"),
    ("t.vec_cmpv_lt(m[i * 8], a[i * 128], b[i * 128], 1, 8, 8)",  # i == 1: 16 bytes in
     "is not 32-byte aligned"),
    ("t.vec_sel(128, 0, d[i * 128], m[i * 16], a[i * 128], b if i < 2 else f, 1, 8, 8, 8)",
     "src1 'f' is float32"),
    ("t.vec_sel(128, 1, d[i * 128], m[i * 16], a[i * 128], True if i == 2 else 1, 1, 8, 8, 8)",
     "src1 must be a number or a Scalar, got bool True"),  # True == 1, but not to TIK
])
def test_an_error_at_a_later_iteration_is_at_the_call(tik_importable, tmp_path, call, message):
    line, col, got = error(tmp_path, f"""
        for i in range(3):
            {call}
        """)
    assert (line, col) == (CALL_LINE, 5)
    assert message in got


def test_a_tensor_whose_scope_ended_at_a_replayed_site(tik_importable, tmp_path):
    line, col, got = error(tmp_path, """
        def cmp(src):
            t.vec_cmpv_lt(m[0], src[0], b[0], 1, 8, 8)
        with t.new_stmt_scope():
            x = t.Tensor("float16", (256,), name="x", scope=tik.scope_ubuf)
            cmp(x)
            cmp(x)
        cmp(x)
        """)
    assert (line, col) == (CALL_LINE, 5)
    assert "'x' is used outside its new_stmt_scope" in got


def test_results_of_a_replayed_loop(tik_importable, tmp_path):
    prog = program(tmp_path, """
        t.vec_dup(128, d, 0.0, 32, 8)
        for i in range(4):
            t.vec_cmpv_lt(m[i * 16], a[i * 128], b[i * 128] if i % 2 else a[i * 128], 1, 8, 8)
            t.vec_sel(128, 0, d[i * 128], m[i * 16], a[i * 128], b[i * 128], 1, 8, 8, 8)
        """)
    got = run(prog).outputs["out"][:512].reshape(4, 128)
    want = np.where(np.arange(4)[:, None] % 2 == 1, 1.0, 2.0).repeat(128, 1)
    assert got.tobytes() == want.astype(np.float16).tobytes()


def test_a_sites_later_calls_are_checked_without_the_key(tik_importable, tmp_path,
                                                          monkeypatch):
    """A site's first replay makes its Entry's check; the calls after it are checked by that
    alone (memo.checker), not keyed."""
    keyed = []
    full = memo.key
    monkeypatch.setattr(memo, "key", lambda *a: keyed.append(1) or full(*a))
    program(tmp_path, """
        for i in range(16):
            t.vec_cmpv_lt(m[i * 16], a[i * 128], b[i * 128], 1, 8, 8)
            t.vec_sel(128, 0, d[i * 128], m[i * 16], a[i * 128], b, 1, 8, 8, 8)
            t.vec_adds(128, d[i * 128], d[i * 128], -0.0, 1, 8, 8)  # two views, one class
        """)
    assert len(keyed) == 3 * 2  # each site: its recording, its first replay


def test_a_check_passes_what_has_the_key(tik_importable):
    """`checker` of a call's arguments passes another call's when the key would be the same
    (giving the tensors' offsets), else not; no check where the key cannot be checked so."""
    from tbe import tik

    t = tik.Tik()
    x = t.Tensor("float16", (256,), name="x", scope=tik.scope_ubuf)
    y = t.Tensor("float16", (256,), name="y", scope=tik.scope_ubuf)
    mask = t.Tensor("uint16", (16,), name="mask", scope=tik.scope_ubuf)
    check = memo.checker((x[0], y[128], x[128], y, 1, 0.0, "round", None, True))
    assert check((x[16], y[0], x[32], y, 1, 0.0, "round", None, True)) == (16, 0, 32, 0)
    for k, other in [(0, y[0]), (0, x), (3, y[0]), (4, 2), (4, True), (5, -0.0), (5, 0),
                     (6, "floor"), (7, 0), (8, 1)]:
        args = [x[16], y[0], x[32], y, 1, 0.0, "round", None, True]
        args[k] = other
        assert check(tuple(args)) is None, (k, other)
    v = x[16]
    assert check((v, y[0], v, y, 1, 0.0, "round", None, True)) is None  # one view twice
    assert check((x[16], y[0], x[32], y, 1, 0.0, "round", None)) is None  # one fewer
    assert memo.checker((x[0], [0, 1])) is None  # a list: keyed every call
    assert memo.checker((v, v)) is None  # one view twice: keyed every call
    assert memo.checker((mask, x, x)) is None
    assert memo.checker((x[0], mask[0]))((x[8], mask[16])) == (8, 16)
    part = x[128:256]  # a view made in full: by identity, its offset its own
    assert memo.checker((part, x[0]))((part, x[8])) == (128, 8)
    assert memo.checker((part, x[0]))((x[128:256], x[8])) is None


def test_a_call_after_the_build_at_a_replayed_site(tik_importable, tmp_path):
    line, col, got = error(tmp_path, """
        for i in range(4):
            t.vec_cmpv_lt(m[i * 16], a[i * 128], b[i * 128], 1, 8, 8)
            if i == 2:
                t.BuildCCE(kernel_name="k", inputs=[], outputs=[out])
        """)
    assert (line, col) == (CALL_LINE, 5)
    assert "already built" in got


def test_a_site_inside_a_for_range_is_keyed_apart(tik_importable, tmp_path, monkeypatch):
    """Nested or not is part of the key: a site's Entry from outside a for_range is not
    replayed inside one, its last Entry's check notwithstanding."""
    recorded = []
    full = memo._record
    monkeypatch.setattr(memo, "_record", lambda *a: recorded.append(1) or full(*a))
    program(tmp_path, """
        def cmp(k):
            t.vec_cmpv_lt(m[k * 16], a[k * 128], b[k * 128], 1, 8, 8)
        for i in range(3):
            cmp(i)
        with t.for_range(0, 2):
            for i in range(3):
                cmp(i)
        """)
    assert len(recorded) == 2


def test_two_functions_calls_at_one_offset(tik_importable, tmp_path):
    """Two functions' calls at one bytecode offset are two sites (the code object tells)."""
    prog = program(tmp_path, """
        def one(k):
            t.vec_cmpv_lt(m[k * 16], a[k * 128], b[k * 128], 1, 8, 8)
        def two(k):
            t.vec_cmpv_lt(m[k * 16], a[k * 128], b[k * 128], 1, 8, 8)
        for i in range(4):
            one(i)
            two(i)
        """)
    lines = [s.line for s in prog.statements if s.hw[-1].text.startswith("vcmpv")]
    assert lines == [CALL_LINE, CALL_LINE + 2] * 4
