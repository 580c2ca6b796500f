"""The TIK front end in-process: the vec_sel page's examples bit-exact, for_range as one loop,
if/else, the synchronisation it inserts (no races, pipes overlapping), and misuse reported at the
script's own line."""

import runpy
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from isa.diagnostics import DiagnosticError
from isa.listing import format_listing
from pipev import Observer
from simulator.tik.errors import TikError

ROOT = Path(__file__).resolve().parents[2]
TIK = ROOT / "programs" / "tik"
HEAD = "from tbe import tik\ntik_instance = tik.Tik()\n"


def script(tmp_path, *parts: str) -> Path:
    path = tmp_path / "kernel.py"
    path.write_text(HEAD + "".join(textwrap.dedent(p).strip("\n") + "\n" for p in parts))
    return path


def build(tmp_path, *parts: str):
    return runpy.run_path(str(script(tmp_path, *parts)))["tik_instance"]


def error_of(tmp_path, *parts: str) -> tuple[int, int, str]:
    """(line, column, message) of the first error building and running the kernel gives."""
    with pytest.raises(DiagnosticError) as e:
        tik_instance = build(tmp_path, *parts)
        inputs = {t.name: np.zeros(t.shape, t.t.npy) for t in tik_instance.inputs}
        tik_instance.tikdb.start_debug(inputs, interactive=False)
    d = next(d for d in e.value.diagnostics if d.severity == "error")
    assert d.path.endswith("kernel.py")
    return d.line, d.column, d.message


VECTOR = """
x_gm = tik_instance.Tensor("float16", (256,), name="x_gm", scope=tik.scope_gm)
z_gm = tik_instance.Tensor("float16", (256,), name="z_gm", scope=tik.scope_gm)
x = tik_instance.Tensor("float16", (256,), name="x", scope=tik.scope_ubuf)
z = tik_instance.Tensor("float16", (256,), name="z", scope=tik.scope_ubuf)
tik_instance.data_move(x, x_gm, 0, 1, 16, 0, 0)
"""
BUILD = """
tik_instance.data_move(z_gm, z, 0, 1, 16, 0, 0)
tik_instance.BuildCCE(kernel_name="k", inputs=[x_gm], outputs=[z_gm])
"""


# -- the page's examples -----------------------------------------------------------------------
def test_page_examples_bit_exact(tik_importable):
    sys.path.insert(0, str(TIK))
    try:
        import test_examples
    finally:
        sys.path.remove(str(TIK))
    for name in test_examples.SCRIPTS:
        test_examples.test_vec_sel_page_example(name)
    test_examples.test_tiled_maximum_matches_numpy()
    test_examples.test_masked_row_max_matches_numpy()


def test_tiled_kernel_is_one_loop(tik_importable):
    tik_instance = runpy.run_path(str(TIK / "tiled_maximum.py"), run_name="__main__")
    program = runpy.run_path(str(TIK / "tiled_maximum.py"))["maximum_kernel"]().program
    listing = format_listing(program)
    assert listing.count("copy_gm_to_ub") == 4  # ping and pong, x and y: not 4 iterations' worth
    assert listing.count("-> blt ") == 1
    del tik_instance


def test_for_range_scalar_offsets_and_if_else(tik_importable, tmp_path):
    tik_instance = build(tmp_path, """
        out_gm = tik_instance.Tensor("int32", (4, 64), name="out_gm", scope=tik.scope_gm)
        out = tik_instance.Tensor("int32", (256,), name="out", scope=tik.scope_ubuf)
        limit = tik_instance.Scalar("int32", name="limit", init_value=2)
        with tik_instance.for_range(0, 4) as i:
            with tik_instance.if_scope(i < limit):
                tik_instance.vec_dup(64, out[i * 64], 7, 1, 8)
            with tik_instance.else_scope():
                tik_instance.vec_dup(64, out[i * 64:], -3, 1, 8)
        tik_instance.data_move(out_gm, out, 0, 1, 32, 0, 0)
        tik_instance.BuildCCE(kernel_name="k", inputs=[], outputs=[out_gm])
    """)
    out, = tik_instance.tikdb.start_debug({}, interactive=False)
    expected = np.repeat(np.array([7, 7, -3, -3], np.int32), 64).reshape(4, 64)
    assert out.tobytes() == expected.tobytes()
    assert format_listing(tik_instance.program).count("vector_dup.s32") == 2


def test_page_mask_forms(tik_importable, tmp_path):
    """mask as [mask_h, mask_l] and as a length; masked-off elements keep their value."""
    tik_instance = build(tmp_path, VECTOR, """
        tik_instance.vec_dup(128, z, 1.0, 2, 8)
        tik_instance.vec_adds([0, 0b1011], z, x, 10.0, 1, 8, 8)
        tik_instance.vec_muls(3, z[128], x[128], 2.0, 1, 8, 8)
    """, BUILD)
    x = np.arange(256, dtype=np.float16)
    z, = tik_instance.tikdb.start_debug({"x_gm": x}, interactive=False)
    expected = np.ones(256, np.float16)
    expected[[0, 1, 3]] = x[[0, 1, 3]] + np.float16(10)
    expected[128:131] = x[128:131] * np.float16(2)
    assert z.tobytes() == expected.tobytes()


# -- synchronisation ---------------------------------------------------------------------------
class Intervals(Observer):
    """Busy intervals per pipe, from the events' timing."""

    def __init__(self):
        self.by_pipe = {}

    def on_event(self, ev):
        if ev.kind in ("vector", "dma") and ev.end is not None:
            self.by_pipe.setdefault(ev.pipe, []).append((ev.start, ev.end))

    def overlap(self, a: str, b: str) -> bool:
        return any(s1 < e2 and s2 < e1 for s1, e1 in self.by_pipe[a]
                   for s2, e2 in self.by_pipe[b])


def test_inserted_sync_overlaps_pipes_without_races(tik_importable):
    import pipev

    kernel = runpy.run_path(str(TIK / "tiled_maximum.py"))["maximum_kernel"]()
    rng = np.random.default_rng(3)
    x, y = (rng.uniform(-9, 9, 8192).astype(np.float16) for _ in range(2))
    watch = Intervals()
    result = pipev.run(kernel.program, inputs={"x_gm": x, "y_gm": y}, observers=[watch])
    assert result.outputs["z_gm"].tobytes() == np.maximum(x, y).tobytes()
    assert not [d for d in result.diagnostics if "race" in d.message or "flag" in d.message]
    # the next tile loads while this one is computed and the last one is stored
    assert watch.overlap("MTE2", "V") and watch.overlap("MTE2", "MTE3")
    assert result.cycles < result.pipes["MTE2"] + result.pipes["V"] + result.pipes["MTE3"]
    hw = [h.text for s in kernel.program.statements for h in s.hw]
    assert hw.count("set_flag V, MTE2, 0") == 2  # carried: primed before the loop, set in it


def test_sync_pairs_follow_reads_and_writes(tik_importable, tmp_path):
    tik_instance = build(tmp_path, VECTOR, """
        tik_instance.vec_adds(128, z, x, 1.0, 2, 8, 8)
    """, BUILD)
    hw = [h.text for s in tik_instance.program.statements for h in s.hw]
    assert hw.index("set_flag MTE2, V, 0") < hw.index("wait_flag MTE2, V, 0")
    assert hw.index("set_flag V, MTE3, 0") < hw.index("wait_flag V, MTE3, 0")
    assert not any("MTE2, MTE3" in t for t in hw)  # x_gm → x and z → z_gm never conflict


@pytest.mark.parametrize("loop", [False, True])
def test_sync_orders_ub_reused_across_stmt_scopes(tik_importable, tmp_path, loop):
    """t and u share UB bytes (t's scope ended): u's writer waits for t's load and store, also
    when the scopes are a loop's body (iteration i+1's t after iteration i's u)."""
    scopes = textwrap.dedent("""
        with tik_instance.new_stmt_scope():
            t = tik_instance.Tensor("float16", (128,), name="t", scope=tik.scope_ubuf)
            tik_instance.data_move(t, src_gm, 0, 1, 8, 0, 0)
            tik_instance.data_move(dst_gm, t, 0, 1, 8, 0, 0)
        with tik_instance.new_stmt_scope():
            u = tik_instance.Tensor("float16", (128,), name="u", scope=tik.scope_ubuf)
            tik_instance.vec_dup(128, u, 7.0, 1, 8)
            tik_instance.data_move(dst2_gm, u, 0, 1, 8, 0, 0)
    """)
    if loop:
        scopes = "with tik_instance.for_range(0, 3) as i:\n" + textwrap.indent(scopes, "    ")
    tik_instance = build(tmp_path, """
        src_gm = tik_instance.Tensor("float16", (128,), name="src_gm", scope=tik.scope_gm)
        dst_gm = tik_instance.Tensor("float16", (128,), name="dst_gm", scope=tik.scope_gm)
        dst2_gm = tik_instance.Tensor("float16", (128,), name="dst2_gm", scope=tik.scope_gm)
    """, scopes, """
        tik_instance.BuildCCE(kernel_name="k", inputs=[src_gm], outputs=[dst_gm, dst2_gm])
    """)
    assert tik_instance.tensors["t"].addr == tik_instance.tensors["u"].addr
    src = np.arange(128).astype(np.float16)
    dst, dst2 = tik_instance.tikdb.start_debug({"src_gm": src}, interactive=False)
    assert dst.tobytes() == src.tobytes() and (dst2 == 7).all()
    assert not tik_instance.tikdb.result.diagnostics
    hw = [h.text for s in tik_instance.program.statements for h in s.hw]
    dup = next(k for k, text in enumerate(hw) if text.startswith("vector_dup"))
    assert any(text.startswith("wait_flag MTE3, V") for text in hw[:dup])
    assert any(text.startswith("wait_flag MTE2, V") for text in hw[:dup])


# -- misuse at the script's line ---------------------------------------------------------------
def test_wrong_arity_is_at_the_call(tik_importable, tmp_path):
    line, col, msg = error_of(tmp_path, VECTOR, "tik_instance.vec_adds(128, z, x, 1.0, 2, 8)\n")
    assert (line, col) == (8, 1) and "vec_adds()" in msg and "src_rep_stride" in msg


def test_wrong_arity_of_a_scope_is_at_the_call(tik_importable, tmp_path):
    line, col, msg = error_of(tmp_path, "with tik_instance.for_range(0) as i:\n    pass\n")
    assert (line, col) == (3, 6) and "for_range(): missing a required argument: 'endt'" in msg
    line, col, msg = error_of(tmp_path, "with tik_instance.new_stmt_scope(1, 2):\n    pass\n")
    assert (line, col) == (3, 6) and "new_stmt_scope(): too many positional" in msg


def test_unknown_dtype(tik_importable, tmp_path):
    line, _, msg = error_of(tmp_path, 'a = tik_instance.Tensor("float17", (16,), name="a", '
                                      'scope=tik.scope_ubuf)\n')
    assert line == 3 and "unknown dtype 'float17'" in msg


def test_misaligned_operand(tik_importable, tmp_path):
    line, col, msg = error_of(tmp_path, VECTOR, "tik_instance.vec_adds(128, z, x[8], 1.0, 1, 8, "
                                                 "8)\n", BUILD)
    assert (line, col) == (8, 1)
    assert msg.startswith("vec_adds:") and "not 32-byte aligned" in msg


def test_partial_overlap(tik_importable, tmp_path):
    line, _, msg = error_of(tmp_path, VECTOR, "tik_instance.vec_add(128, x[16], x, x, 1, 8, 8, 8)"
                                               "\n", BUILD)
    assert line == 8 and "overlap partially" in msg


def test_dtype_mismatch_and_scope(tik_importable, tmp_path):
    line, _, msg = error_of(tmp_path, VECTOR, """
        w = tik_instance.Tensor("float32", (64,), name="w", scope=tik.scope_ubuf)
        tik_instance.vec_add(64, w, x, x, 1, 8, 8, 8)
    """)
    assert line == 9 and "same dtype" in msg
    _, _, msg = error_of(tmp_path, VECTOR, "tik_instance.vec_dup(128, x_gm, 0, 1, 8)\n")
    assert "scope_ubuf" in msg


def test_start_debug_feed_dict_checked(tik_importable, tmp_path):
    tik_instance = build(tmp_path, VECTOR + BUILD)
    with pytest.raises(TikError, match="gives no value for input 'x_gm'"):
        tik_instance.tikdb.start_debug({}, interactive=False)
    with pytest.raises(TikError, match="float32 of shape"):
        tik_instance.tikdb.start_debug({"x_gm": np.zeros(256, np.float32)}, interactive=False)


# -- the rest of the instruction set ----------------------------------------------------------
PAIR = """
a_gm = tik_instance.Tensor("float16", (256,), name="a_gm", scope=tik.scope_gm)
b_gm = tik_instance.Tensor("float16", (256,), name="b_gm", scope=tik.scope_gm)
z_gm = tik_instance.Tensor("float16", (256,), name="z_gm", scope=tik.scope_gm)
m_gm = tik_instance.Tensor("uint16", (16,), name="m_gm", scope=tik.scope_gm)
a = tik_instance.Tensor("float16", (256,), name="a", scope=tik.scope_ubuf)
b = tik_instance.Tensor("float16", (256,), name="b", scope=tik.scope_ubuf)
z = tik_instance.Tensor("float16", (256,), name="z", scope=tik.scope_ubuf)
m = tik_instance.Tensor("uint16", (16,), name="m", scope=tik.scope_ubuf)
tik_instance.data_move(a, a_gm, 0, 1, 16, 0, 0)
tik_instance.data_move(b, b_gm, 0, 1, 16, 0, 0)
"""
PAIR_OUT = """
tik_instance.data_move(z_gm, z, 0, 1, 16, 0, 0)
tik_instance.data_move(m_gm, m, 0, 1, 1, 0, 0)
tik_instance.BuildCCE(kernel_name="k", inputs=[a_gm, b_gm], outputs=[z_gm, m_gm])
"""


def pair_data():
    rng = np.random.default_rng(11)
    a = rng.uniform(-50, 50, 256).astype(np.float16)
    b = rng.uniform(-50, 50, 256).astype(np.float16)
    b[::7] = a[::7]  # some equal elements
    return a, b


def run_pair(tmp_path, body: str):
    a, b = pair_data()
    tik_instance = build(tmp_path, PAIR, body, PAIR_OUT)
    z, m = tik_instance.tikdb.start_debug({"a_gm": a, "b_gm": b}, interactive=False)
    return a, b, z, m, tik_instance


def bits(values, n: int) -> np.ndarray:
    return np.unpackbits(np.asarray(values).view(np.uint8), bitorder="little")[:n].astype(bool)


def test_vec_cmp_to_cmpmask_and_back(tik_importable, tmp_path):
    a, b, z, m, _ = run_pair(tmp_path, """
        cmp = tik_instance.vec_cmp_lt(128, a, b, 1, 1)
        tik_instance.vec_sel(128, 0, z, cmp, a, b, 2, 8, 8, 8)
        tik_instance.mov_cmpmask_to_tensor(m, cmp)
    """)
    lt = a[:128] < b[:128]
    assert bits(m, 128).tolist() == lt.tolist()
    assert z.tobytes() == np.where(np.tile(lt, 2), a, b).tobytes()


def test_mov_tensor_to_cmpmask(tik_importable, tmp_path):
    a, b, z, m, _ = run_pair(tmp_path, """
        tik_instance.vec_cmpv_eq(m, a, b, 1, 8, 8)
        mask = tik_instance.mov_tensor_to_cmpmask(m)
        tik_instance.vec_sel(64, 0, z, mask, a, b, 4, 4, 4, 4)
    """)
    eq = bits(m, 128)
    assert eq.tolist() == (a[:128] == b[:128]).tolist()
    want = np.zeros(256, np.float16)  # never written: the machine's zero
    for r in range(4):  # mask 64, repeat strides of 4 blocks: 64 elements per repeat
        s = slice(64 * r, 64 * r + 64)
        want[s] = np.where(eq[:64], a[s], b[s])
    assert z.tobytes() == want.tobytes()


@pytest.mark.parametrize("name, fn", [("vec_add", np.add), ("vec_sub", np.subtract),
                                      ("vec_mul", np.multiply), ("vec_max", np.maximum),
                                      ("vec_min", np.minimum)])
def test_binary(tik_importable, tmp_path, name, fn):
    a, b, z, _, _ = run_pair(tmp_path, f"tik_instance.{name}(128, z, a, b, 2, 8, 8, 8)\n")
    assert z.tobytes() == fn(a, b).tobytes()


@pytest.mark.parametrize("name, fn", [("vec_adds", np.add), ("vec_muls", np.multiply),
                                      ("vec_maxs", np.maximum), ("vec_mins", np.minimum)])
def test_with_scalar(tik_importable, tmp_path, name, fn):
    a, _, z, _, _ = run_pair(tmp_path, f"""
        s = tik_instance.Scalar("float16", init_value=-2.5)
        tik_instance.{name}(128, z, a, s, 2, 8, 8)
    """)
    assert z.tobytes() == fn(a, np.float16(-2.5)).tobytes()


def test_tik2_whole_tensor_instructions(tik_importable, tmp_path):
    a, b, z, m, _ = run_pair(tmp_path, """
        w = tik_instance.Tensor("float16", (256,), name="w", scope=tik.scope_ubuf)
        tik_instance.h_max(w, a, b)
        tik_instance.h_sub(w, w, 1.5)
        tik_instance.h_cmpv(m, a, b, "GE")
        tik_instance.h_sel(z, w, a, m)
    """)
    ge = a >= b
    w = np.maximum(a, b) - np.float16(1.5)
    assert bits(m, 256).tolist() == ge.tolist()
    assert z.tobytes() == np.where(ge, w, a).tobytes()


def test_vector_dup_block_stride_and_reinterpret(tik_importable, tmp_path):
    _, _, z, m, _ = run_pair(tmp_path, """
        tik_instance.vec_dup(128, z, 0.0, 2, 8)
        tik_instance.vector_dup(32, z, 3.0, 1, 2, 8)
        bits16 = m.reinterpret_cast_to("int16")
        tik_instance.vec_dup(16, bits16, -1, 1, 8)
    """)
    want = np.zeros(256, np.float16)
    want[0:16] = want[32:48] = 3.0  # mask 32: two blocks, block stride 2
    assert z.tobytes() == want.tobytes()
    assert m.tobytes() == b"\xff" * 32


def test_new_stmt_scope_frees_ub(tik_importable, tmp_path):
    tik_instance = build(tmp_path, """
        with tik_instance.new_stmt_scope():
            big = tik_instance.Tensor("float16", (40000,), name="big", scope=tik.scope_ubuf)
        again = tik_instance.Tensor("float16", (40000,), name="again", scope=tik.scope_ubuf)
    """)
    assert tik_instance.tensors["again"].addr == tik_instance.tensors["big"].addr == 0


def test_interactive_start_debug_opens_the_debugger(tik_importable, tmp_path, monkeypatch,
                                                    capsys):
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("step\nregs\ncontinue\nquit\n"))
    a, b = pair_data()
    tik_instance = build(tmp_path, PAIR, "tik_instance.vec_max(128, z, a, b, 2, 8, 8, 8)\n",
                         PAIR_OUT)
    z, _ = tik_instance.tikdb.start_debug({"a_gm": a, "b_gm": b}, interactive=True)
    out = capsys.readouterr().out
    assert "(pipev) step" in out and "kernel.py:" in out
    assert z.tobytes() == np.maximum(a, b).tobytes()


def test_scalar_misuse(tik_importable, tmp_path):
    # #29: a Scalar known only at run time is a register operand now; a float one for an
    # integer vector is still an error
    line, _, msg = error_of(tmp_path, VECTOR, """
        n = tik_instance.Scalar("float32", init_value=3.0)
        s16 = tik_instance.Tensor("int16", (128,), name="s16", scope=tik.scope_ubuf)
        with tik_instance.for_range(0, 2) as i:
            n.set_as(n + 1.0)
        tik_instance.vec_dup(128, s16, n, 1, 8)
    """)
    assert line == 12 and "float Scalar 'reg_buf' for a s16 operand" in msg
    line, _, msg = error_of(tmp_path, """
        f = tik_instance.Scalar("float16", init_value=1.0)
        g = tik_instance.Scalar("int32")
        g.set_as(f * 2)
    """)
    assert line == 5 and "float Scalar" in msg
    line, _, msg = error_of(tmp_path, """
        g = tik_instance.Scalar("int32", init_value=5)
        h = tik_instance.Scalar("int32")
        h.set_as(g // 0)
    """)
    assert line == 5 and "division by zero" in msg  # #29: any other divisor is `div`


def test_elif_chain(tik_importable, tmp_path):
    tik_instance = build(tmp_path, """
        out_gm = tik_instance.Tensor("int32", (256,), name="out_gm", scope=tik.scope_gm)
        out = tik_instance.Tensor("int32", (256,), name="out", scope=tik.scope_ubuf)
        with tik_instance.for_range(0, 4) as i:
            with tik_instance.if_scope(i == 0):
                tik_instance.vec_dup(64, out[i * 64:], 10, 1, 8)
            with tik_instance.elif_scope(i == 2):
                tik_instance.vec_dup(64, out[i * 64:], 20, 1, 8)
            with tik_instance.elif_scope(i > 2):
                tik_instance.vec_dup(64, out[i * 64:], 30, 1, 8)
            with tik_instance.else_scope():
                tik_instance.vec_dup(64, out[i * 64:], 40, 1, 8)
        tik_instance.data_move(out_gm, out, 0, 1, 32, 0, 0)
        tik_instance.BuildCCE(kernel_name="k", inputs=[], outputs=[out_gm])
    """)
    out, = tik_instance.tikdb.start_debug({}, interactive=False)
    assert out.tobytes() == np.repeat(np.array([10, 40, 20, 30], np.int32), 64).tobytes()
    line, _, msg = error_of(tmp_path, "with tik_instance.else_scope():\n    pass\n")
    assert line == 3 and "must follow an if_scope" in msg


def test_constant_conditions_and_gm_reinterpret(tik_importable, tmp_path):
    tik_instance = build(tmp_path, """
        out_gm = tik_instance.Tensor("int32", (64,), name="out_gm", scope=tik.scope_gm)
        out = tik_instance.Tensor("int32", (64,), name="out", scope=tik.scope_ubuf)
        tik_instance.vec_dup(64, out, 1, 1, 8)
        with tik_instance.if_scope(False):
            tik_instance.vec_dup(64, out, 2, 1, 8)
        with tik_instance.if_scope(3 > 2):
            tik_instance.vec_adds(64, out, out, 5, 1, 8, 8)
        tik_instance.data_move(out_gm, out, 0, 1, 8, 0, 0)
        tik_instance.BuildCCE(kernel_name="k", inputs=[], outputs=[out_gm])
    """)
    out, = tik_instance.tikdb.start_debug({}, interactive=False)
    assert out.tolist() == [6] * 64
    line, _, msg = error_of(tmp_path, """
        g = tik_instance.Tensor("int32", (63,), name="g", scope=tik.scope_gm)
        h = g.reinterpret_cast_to("int64")
    """)  # a GM view is the same bytes; 63 int32 are not whole int64 (TIK's page)
    assert line == 4 and "252 bytes are not whole int64" in msg


@pytest.mark.parametrize("rows", [0, 1, 3])
def test_nested_loops_sync_without_races(tik_importable, tmp_path, rows):
    """Outer loop over rows (a Scalar count, 0 included: the carried flags' prime and drain
    balance), inner loop over tiles with one buffer: every placement kind, no race, numpy."""
    tik_instance = build(tmp_path, f"""
        x_gm = tik_instance.Tensor("float32", (3, 256), name="x_gm", scope=tik.scope_gm)
        z_gm = tik_instance.Tensor("float32", (3, 256), name="z_gm", scope=tik.scope_gm)
        x = tik_instance.Tensor("float32", (64,), name="x", scope=tik.scope_ubuf)
        z = tik_instance.Tensor("float32", (64,), name="z", scope=tik.scope_ubuf)
        bias = tik_instance.Tensor("float32", (64,), name="bias", scope=tik.scope_ubuf)
        rows = tik_instance.Scalar("int32", name="rows", init_value={rows})
        tik_instance.data_move(bias, x_gm, 0, 1, 8, 0, 0)
        with tik_instance.for_range(0, rows) as r:
            with tik_instance.for_range(0, 4) as t:
                tik_instance.data_move(x, x_gm[r, t * 64], 0, 1, 8, 0, 0)
                tik_instance.vec_add(64, z, x, bias, 1, 8, 8, 8)
                tik_instance.vec_muls(64, z, z, 2.0, 1, 8, 8)
                tik_instance.data_move(z_gm[r, t * 64], z, 0, 1, 8, 0, 0)
        tik_instance.BuildCCE(kernel_name="k", inputs=[x_gm], outputs=[z_gm])
    """)
    x = np.random.default_rng(rows).uniform(-10, 10, (3, 256)).astype(np.float32)
    z, = tik_instance.tikdb.start_debug({"x_gm": x}, interactive=False)
    want = np.zeros((3, 256), np.float32)
    want[:rows] = (x[:rows] + np.tile(x[0, :64], 4)) * np.float32(2)
    assert z.tobytes() == want.tobytes()
    assert not tik_instance.tikdb.result.diagnostics


def test_expressions_free_their_scratch_registers(tik_importable, tmp_path):
    """An operator's operands free their scratch registers: four loop variables in one offset,
    used twice in a call (two registers at a time, not one per operator), and a nine-operator
    chain over a Scalar (one register)."""
    tik_instance = build(tmp_path, """
        src_gm = tik_instance.Tensor("float16", (4096,), name="src_gm", scope=tik.scope_gm)
        dst_gm = tik_instance.Tensor("float16", (4096,), name="dst_gm", scope=tik.scope_gm)
        ub = tik_instance.Tensor("float16", (4096,), name="ub", scope=tik.scope_ubuf)
        tik_instance.data_move(ub, src_gm, 0, 1, 256, 0, 0)
        s = tik_instance.Scalar("int32", name="s", init_value=1)
        with tik_instance.for_range(0, 2) as a:
            with tik_instance.for_range(0, 2) as b:
                with tik_instance.for_range(0, 2) as c:
                    with tik_instance.for_range(0, 2) as d:
                        off = a * 2048 + b * 1024 + c * 512 + d * 256 + 128
                        tik_instance.vec_abs(128, ub[off], ub[off], 1, 8, 8)
        tik_instance.vec_muls(128, ub, ub, 2.0, s + 1 + 1 + 1 + 1 + 1 + 1 + 1 - 7 + 1, 8, 8)
        tik_instance.data_move(dst_gm, ub, 0, 1, 256, 0, 0)
        tik_instance.BuildCCE(kernel_name="k", inputs=[src_gm], outputs=[dst_gm])
    """)
    x = (np.arange(4096) % 200 - 100).astype(np.float16)
    out, = tik_instance.tikdb.start_debug({"src_gm": x}, interactive=False)
    want = x.reshape(16, 256).copy()
    want[:, 128:] = np.abs(want[:, 128:])
    want = want.reshape(-1)
    want[:256] *= np.float16(2)
    assert out.tobytes() == want.tobytes()


@pytest.mark.parametrize("block_num", [65536, 0, -1, "n"])
def test_block_num_out_of_range(tik_importable, tmp_path, block_num):
    """block_num is a launch's blockDim, 1..65535 as for `.block_dim`, known when the kernel is
    built: at the for_range call, before anything runs."""
    line, col, msg = error_of(tmp_path, f"""
        n = tik_instance.Scalar("int32", name="n", init_value=4)
        with tik_instance.for_range(0, 4, block_num={block_num}) as b:
            pass
    """)
    assert (line, col) == (4, 6)
    if block_num == "n":
        assert "block_num must be an int known when the kernel is built" in msg
    else:
        assert f"block_num {block_num} is out of range (1..65535 cores)" in msg


def test_deep_expressions_lower_without_recursion(tik_importable, tmp_path):
    """Expressions a Python loop builds, thousands of operators deep (past Python's recursion
    limit), fold, lower and serve as offsets, fields, set_as values, loop bounds and
    conditions; a right-leaning chain whose every left operand needs a register takes two."""
    tik_instance = build(tmp_path, VECTOR, """
        s = tik_instance.Scalar("int32", name="s", init_value=1)
        e = s
        for _ in range(3000):
            e = e + 1
        r = s
        for _ in range(3000):
            r = (s * 2 - 2) + r
        n = tik_instance.Scalar("int32", name="n")
        n.set_as(r + 1)
        tik_instance.vec_abs(128, z[e - 3001], x, e - 2999, 8, 8)
        with tik_instance.for_range(0, e - 2999) as i:
            with tik_instance.if_scope(r + i - 1 == n - 1):
                tik_instance.vec_muls(128, z[128], z[128], 2.0, 1, 8, 8)
    """, BUILD)
    x = (np.arange(256) - 100).astype(np.float16)
    z, = tik_instance.tikdb.start_debug({"x_gm": x}, interactive=False)
    want = np.abs(x)
    want[128:] *= np.float16(2)
    assert z.tobytes() == want.tobytes()


@pytest.mark.parametrize("made, use, name, scope", [
    ("with tik_instance.for_range(0, 2) as i:\n    pass",
     "tik_instance.vec_abs(128, z[i * 128], x, 1, 8, 8)", "i", "for_range (line 8)"),
    ("with tik_instance.for_range(0, 2) as i:\n    off = i * 128",
     "tik_instance.vec_abs(128, z, x, 1, 8, 8)\ntik_instance.vec_abs(128, z[off], x, 1, 8, 8)",
     "i", "for_range (line 8)"),
    ("with tik_instance.new_stmt_scope():\n"
     "    t = tik_instance.Tensor('float16', (256,), name='t', scope=tik.scope_ubuf)",
     "tik_instance.vec_abs(128, z, t, 2, 8, 8)", "t", "new_stmt_scope (line 8)"),
    ("with tik_instance.new_stmt_scope():\n"
     "    s = tik_instance.Scalar('int32', name='s', init_value=1)",
     "tik_instance.vec_abs(128, z, x, s, 8, 8)", "s", "new_stmt_scope (line 8)"),
    ("with tik_instance.new_stmt_scope():\n"
     "    s = tik_instance.Scalar('int32', name='s', init_value=1)",
     "s.set_as(2)", "s", "new_stmt_scope (line 8)"),
    ("with tik_instance.new_stmt_scope():\n"
     "    f = tik_instance.Scalar('float16', name='f', init_value=2.0)",
     "tik_instance.vec_muls(128, z, x, f, 2, 8, 8)", "f", "new_stmt_scope (line 8)"),
    ("with tik_instance.if_scope(x_gm.size > 0):\n"
     "    n = tik_instance.Scalar('int32', name='n', init_value=2)",
     "tik_instance.vec_muls(128, z, x, 2.0, n, 8, 8)", "n", "if_scope (line 8)"),
])
def test_names_used_outside_their_scope(tik_importable, tmp_path, made, use, name, scope):
    """A for_range's variable, and the Scalars and Tensors a scope made, are not visible after
    it ends (TIK Scope): pipev has given their registers and UB to others."""
    line, col, msg = error_of(tmp_path, VECTOR, made + "\n", use + "\n", BUILD)
    assert (line, col) == (9 + made.count("\n") + use.count("\n"), 1)
    assert f"'{name}' is used outside its {scope}, which ended" in msg


@pytest.mark.parametrize("bounds", ["5, -5", "-1, 4", "0, -1"])
def test_for_range_bounds(tik_importable, tmp_path, bounds):
    line, col, msg = error_of(tmp_path, f"""
        with tik_instance.for_range({bounds}) as i:
            pass
    """)
    assert (line, col) == (3, 6) and "the bounds must satisfy 0 <= begint <= endt" in msg


def test_python_truth_of_a_scalar_is_a_diagnostic(tik_importable, tmp_path):
    line, col, msg = error_of(tmp_path, """
        n = tik_instance.Scalar("int32", init_value=3)
        if n > 2:
            pass
    """)
    assert (line, col) == (4, 4) and "no Python truth value" in msg
    line, _, msg = error_of(tmp_path, """
        n = tik_instance.Scalar("int32", init_value=3)
        for k in range(n):
            pass
    """)
    assert line == 4 and "for_range" in msg


CONVERT = """
x_gm = tik_instance.Tensor("float32", (128,), name="x_gm", scope=tik.scope_gm)
h_gm = tik_instance.Tensor("float16", (128,), name="h_gm", scope=tik.scope_gm)
i_gm = tik_instance.Tensor("int32", (128,), name="i_gm", scope=tik.scope_gm)
x = tik_instance.Tensor("float32", (128,), name="x", scope=tik.scope_ubuf)
h = tik_instance.Tensor("float16", (128,), name="h", scope=tik.scope_ubuf)
i = tik_instance.Tensor("int32", (128,), name="i", scope=tik.scope_ubuf)
tik_instance.data_move(x, x_gm, 0, 1, 16, 0, 0)
"""


@pytest.mark.parametrize("mode, rounding", [("round", np.rint), ("away-zero", None),
                                             ("to-zero", np.trunc), ("floor", np.floor),
                                             ("ceil", np.ceil)])
def test_vec_conv_round_modes(tik_importable, tmp_path, mode, rounding):
    tik_instance = build(tmp_path, CONVERT, f"""
        tik_instance.vec_conv(64, "{mode}", i, x, 2, 8, 8)
        tik_instance.vec_conv(64, "", h, x, 2, 4, 8)
        tik_instance.data_move(h_gm, h, 0, 1, 8, 0, 0)
        tik_instance.data_move(i_gm, i, 0, 1, 16, 0, 0)
        tik_instance.BuildCCE(kernel_name="k", inputs=[x_gm], outputs=[h_gm, i_gm])
    """)
    x = np.concatenate([np.arange(-8, 8) + 0.5, np.linspace(-300, 300, 112)]).astype(np.float32)
    h, i = tik_instance.tikdb.start_debug({"x_gm": x}, interactive=False)
    exact = x.astype(np.float64)
    if rounding is None:  # half away from zero
        want = np.sign(exact) * np.floor(np.abs(exact) + 0.5)
    else:
        want = rounding(exact)
    assert i.tobytes() == want.astype(np.int32).tobytes()
    assert h.tobytes() == x.astype(np.float16).tobytes()  # in range: IEEE nearest-even


def test_vec_abs_and_or_not(tik_importable, tmp_path):
    tik_instance = build(tmp_path, """
        a_gm = tik_instance.Tensor("int16", (128,), name="a_gm", scope=tik.scope_gm)
        f_gm = tik_instance.Tensor("float16", (128,), name="f_gm", scope=tik.scope_gm)
        o_gm = tik_instance.Tensor("int16", (384,), name="o_gm", scope=tik.scope_gm)
        a = tik_instance.Tensor("int16", (128,), name="a", scope=tik.scope_ubuf)
        f = tik_instance.Tensor("float16", (128,), name="f", scope=tik.scope_ubuf)
        o = tik_instance.Tensor("int16", (384,), name="o", scope=tik.scope_ubuf)
        tik_instance.data_move(a, a_gm, 0, 1, 8, 0, 0)
        tik_instance.data_move(f, f_gm, 0, 1, 8, 0, 0)
        tik_instance.vec_and(128, o, a, f.reinterpret_cast_to("int16"), 1, 8, 8, 8)
        tik_instance.vec_or(128, o[128], a, o, 1, 8, 8, 8)
        tik_instance.vec_not(128, o[256], a, 1, 8, 8)
        tik_instance.vec_abs(128, f, f, 1, 8, 8)
        tik_instance.data_move(o_gm, o, 0, 1, 24, 0, 0)
        tik_instance.data_move(f_gm, f, 0, 1, 8, 0, 0)
        tik_instance.BuildCCE(kernel_name="k", inputs=[a_gm, f_gm], outputs=[o_gm, f_gm])
    """)
    rng = np.random.default_rng(5)
    a = rng.integers(-2**15, 2**15, 128, dtype=np.int16)
    f = rng.uniform(-9, 9, 128).astype(np.float16)
    f[:2] = [np.float16(-0.0), np.float16("nan")]
    o, g = tik_instance.tikdb.start_debug({"a_gm": a, "f_gm": f}, interactive=False)
    anded = a & f.view(np.int16)
    assert o.tobytes() == np.concatenate([anded, a | anded, ~a]).tobytes()
    assert g.tobytes() == (f.view(np.uint16) & np.uint16(0x7FFF)).tobytes()
    line, _, msg = error_of(tmp_path, CONVERT, 'tik_instance.vec_conv(64, "nearest", i, x, 1, 8, '
                                               '8)\n')
    assert line == 10 and "round_mode 'nearest'" in msg
