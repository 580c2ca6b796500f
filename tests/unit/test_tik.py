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
from simulator.tik import SHIM
from simulator.tik.errors import TikError

ROOT = Path(__file__).resolve().parents[2]
TIK = ROOT / "programs" / "tik"
HEAD = "from tbe import tik\ntik_instance = tik.Tik()\n"


@pytest.fixture
def tik_importable(monkeypatch):
    monkeypatch.syspath_prepend(SHIM)
    yield
    for name in [m for m in sys.modules if m.split(".")[0] in ("tbe", "te", "tik")]:
        del sys.modules[name]


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


# -- misuse at the script's line ---------------------------------------------------------------
def test_wrong_arity_is_at_the_call(tik_importable, tmp_path):
    line, col, msg = error_of(tmp_path, VECTOR, "tik_instance.vec_adds(128, z, x, 1.0, 2, 8)\n")
    assert (line, col) == (8, 1) and "vec_adds()" in msg and "src_rep_stride" in msg


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
