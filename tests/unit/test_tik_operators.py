"""#29 follow-up: what real TIK operators stopped at — a single index into a multi-dimensional
tensor, ... Our own kernels in the operators' style, each bit-exact against numpy."""

from __future__ import annotations

import runpy
import textwrap
from pathlib import Path

import numpy as np
import pytest


def build(tmp_path: Path, text: str):
    path = tmp_path / "op.py"
    path.write_text(textwrap.dedent(text))
    return runpy.run_path(str(path))["tik_instance"]


# -- one index into a multi-dimensional tensor: its elements, flat (TIK's __getitem__) -------
FLAT_INDEX = """
from te import tik
N = 16
tik_instance = tik.Tik(tik.Dprofile("v100", "cloud"))
x_gm = tik_instance.Tensor("float32", (N, N), name="x_gm", scope=tik.scope_gm)
y_gm = tik_instance.Tensor("float32", (N, N), name="y_gm", scope=tik.scope_gm)
x = tik_instance.Tensor("float32", (N, N), name="x", scope=tik.scope_ubuf)
tik_instance.data_move(x, x_gm, 0, 1, N * N * 4 // 32, 0, 0)
last = tik_instance.Scalar("float32", name="last")
last.set_as(x[N * N - 1])               # flat: the last element, not row N*N-1
with tik_instance.for_range(0, N) as i:
    x[i * N + i].set_as(last)           # the diagonal, flat
x[-2].set_as(x[0, 1])                   # an immediate from the end
tik_instance.vmuls(16, x[3 * N], x[3 * N], 2.0, 1, 1, 1, 8, 8)  # row 3, by its flat start
tik_instance.data_move(y_gm, x, 0, 1, N * N * 4 // 32, 0, 0)
tik_instance.BuildCCE(kernel_name="flat", inputs=[x_gm], outputs=[y_gm])
"""


def test_one_index_into_a_2d_tensor_is_flat(tik_importable, tmp_path):
    tik_instance = build(tmp_path, FLAT_INDEX)
    x = np.random.default_rng(0).standard_normal((16, 16)).astype(np.float32)
    [y] = tik_instance.tikdb.start_debug({"x_gm": x}, interactive=False)
    want = x.copy()
    np.fill_diagonal(want, x[15, 15])
    want.reshape(-1)[-2] = want[0, 1]
    want[3] *= np.float32(2.0)
    assert y.tobytes() == want.tobytes()


# -- set_atomic_add: data_moves into GM accumulate, across cores -----------------------------
ATOMIC = """
from impl.util.platform_adapter import tik
CORES, N = 4, 64
tik_instance = tik.Tik(tik.Dprofile())
x_gm = tik_instance.Tensor("float32", (CORES, N), name="x_gm", scope=tik.scope_gm)
y_gm = tik_instance.Tensor("float32", (N,), name="y_gm", scope=tik.scope_gm, is_atomic_add=True)
with tik_instance.for_range(0, CORES, block_num=CORES) as core:
    x = tik_instance.Tensor("float32", (N,), name="x", scope=tik.scope_ubuf)
    tik_instance.data_move(x, x_gm[core, 0], 0, 1, N * 4 // 32, 0, 0)
    tik_instance.set_atomic_add(1)
    tik_instance.data_move(y_gm, x, 0, 1, N * 4 // 32, 0, 0)
    tik_instance.set_atomic_add(0)
    tik_instance.data_move(y_gm, x, 0, 1, 1, 0, 0) if {plain} else None
tik_instance.BuildCCE(kernel_name="atomic", inputs=[x_gm], outputs=[y_gm])
"""


def test_set_atomic_add_accumulates_across_cores(tik_importable, tmp_path):
    tik_instance = build(tmp_path, ATOMIC.format(plain=False))
    x = (np.arange(256, dtype=np.float32).reshape(4, 64) / 3).astype(np.float32)
    [y] = tik_instance.tikdb.start_debug({"x_gm": x}, interactive=False)
    want = np.zeros(64, np.float32)
    for row in x:  # the order of the cores does not change a sum of four thirds-of-integers
        want = want + row
    assert y.tobytes() == want.tobytes()
    assert not tik_instance.tikdb.result.diagnostics


def test_a_plain_store_after_set_atomic_add_0_is_still_a_race(tik_importable, tmp_path):
    tik_instance = build(tmp_path, ATOMIC.format(plain=True))
    x = np.ones((4, 64), np.float32)
    tik_instance.tikdb.start_debug({"x_gm": x}, interactive=False)
    assert any("another core also writes" in d.message and d.line == 13
               for d in tik_instance.tikdb.result.diagnostics)


def test_set_atomic_add_takes_the_documented_modes(tik_importable, tmp_path):
    from isa.diagnostics import DiagnosticError
    with pytest.raises(DiagnosticError) as e:
        build(tmp_path, ATOMIC.replace("set_atomic_add(1)", "set_atomic_add(9)").format(
            plain=False))
    assert "set_atomic_add: mode must be 0..6 or a dtype name" in str(e.value)


# -- a Python `if` on a TIK `==`: decided when built, as TIK's expressions answer ------------
PY_IF = """
from tbe import tik
tik_instance = tik.Tik()
x_gm = tik_instance.Tensor("int32", (8,), name="x_gm", scope=tik.scope_gm)
y_gm = tik_instance.Tensor("int32", (8,), name="y_gm", scope=tik.scope_gm)
y = tik_instance.Tensor("int32", (8,), name="y", scope=tik.scope_ubuf)
tik_instance.data_move(y, x_gm, 0, 1, 1, 0, 0)
n = tik_instance.Scalar("int32", name="n", init_value=3)
for _ in range(3):  # recorded three times, warned once
    if n == 3:
        y[0].set_as(100)
    else:
        y[0].set_as(200)
if n != n:
    y[1].set_as(300)
tik_instance.data_move(y_gm, y, 0, 1, 1, 0, 0)
tik_instance.BuildCCE(kernel_name="py_if", inputs=[x_gm], outputs=[y_gm])
"""


def test_a_python_if_on_a_tik_equality_is_decided_by_identity_and_warned(tik_importable,
                                                                         tmp_path):
    tik_instance = build(tmp_path, PY_IF)
    [y] = tik_instance.tikdb.start_debug({"x_gm": np.arange(8, dtype=np.int32)},
                                         interactive=False)
    assert y.tolist() == [200, 1, 2, 3, 4, 5, 6, 7]  # `n == 3` is False, `n != n` False
    notes = [d for d in tik_instance.tikdb.result.diagnostics if d.severity == "warning"]
    assert [(d.line, "decided when the kernel is built" in d.message) for d in notes] == \
        [(10, True), (14, True)]


def test_a_python_if_on_a_tik_ordering_is_an_error(tik_importable, tmp_path):
    from isa.diagnostics import DiagnosticError
    with pytest.raises(DiagnosticError) as e:
        build(tmp_path, PY_IF.replace("if n == 3:", "if n < 3:"))
    assert "no Python truth value" in str(e.value)


# -- vtranspose: one 16 x 16 matrix of 2-byte elements, in place too -------------------------
TRANSPOSE = """
from te import tik
tik_instance = tik.Tik()
x_gm = tik_instance.Tensor("{dtype}", (2, 16, 16), name="x_gm", scope=tik.scope_gm)
y_gm = tik_instance.Tensor("{dtype}", (2, 16, 16), name="y_gm", scope=tik.scope_gm)
x = tik_instance.Tensor("{dtype}", (2, 16, 16), name="x", scope=tik.scope_ubuf)
y = tik_instance.Tensor("{dtype}", (2, 16, 16), name="y", scope=tik.scope_ubuf)
tik_instance.data_move(x, x_gm, 0, 1, 32, 0, 0)
tik_instance.vtranspose(y[0, 0, 0], x[0, 0, 0])
tik_instance.vtranspose(x[256], x[256])
tik_instance.data_move(y[256], x[256], 0, 1, 16, 0, 0)
tik_instance.data_move(y_gm, y, 0, 1, 32, 0, 0)
tik_instance.BuildCCE(kernel_name="tr", inputs=[x_gm], outputs=[y_gm])
"""


@pytest.mark.parametrize("dtype", ["int16", "uint16", "float16"])
def test_vtranspose_transposes_a_16_by_16_matrix(tik_importable, tmp_path, dtype):
    tik_instance = build(tmp_path, TRANSPOSE.format(dtype=dtype))
    raw = np.random.default_rng(1).integers(0, 1 << 16, (2, 16, 16), dtype=np.uint16)
    x = raw.view(np.dtype(dtype))
    [y] = tik_instance.tikdb.start_debug({"x_gm": x}, interactive=False)
    assert y.tobytes() == np.ascontiguousarray(x.transpose(0, 2, 1)).tobytes()


# -- the softmax-gradient operators' shapes: block_num inside a serial loop, a bool GM mask
#    viewed as uint8, data_move between dtypes, vtranspose after a masked vor ---------------
NESTED = """
from te import tik
import te.platform as tbe_platform
CORES, N = 2, 16
tik_instance = tik.Tik(tik.Dprofile(), disable_debug=True)
x_gm = tik_instance.Tensor("float16", (2, CORES, N, N), name="x_gm", scope=tbe_platform.scope_gm)
m_gm = tik_instance.Tensor("bool", (N * N,), name="m_gm", scope=tbe_platform.scope_gm)
y_gm = tik_instance.Tensor("float16", (2, CORES, N, N), name="y_gm", scope=tbe_platform.scope_gm)
m8 = m_gm.reinterpret_cast_to("uint8")
with tik_instance.for_range(0, 2) as z:
    with tik_instance.for_range(0, CORES, block_num=CORES) as core:
        x = tik_instance.Tensor("float16", (N, N), name="x", scope=tbe_platform.scope_ubuf)
        raw = tik_instance.Tensor("int32", (N * N // 2,), name="raw", scope=tik.scope_ubuf)
        m = tik_instance.Tensor("uint8", (N * N,), name="m", scope=tik.scope_ubuf)
        mh = tik_instance.Tensor("float16", (N * N,), name="mh", scope=tik.scope_ubuf)
        zero = tik_instance.Tensor("int16", (N,), name="zero", scope=tik.scope_ubuf)
        tik_instance.data_move(raw, x_gm[z, core, 0, 0], 0, 1, N * N * 2 // 32, 0, 0)
        tik_instance.data_move(x, raw.reinterpret_cast_to("float16"), 0, 1, N * N * 2 // 32,
                               0, 0)
        tik_instance.data_move(m, m8, 0, 1, N * N // 32, 0, 0)
        tik_instance.vconv(128, "", mh, m, 2, 1, 1, 8, 4)
        tik_instance.vec_dup(16, zero, 0, 1, 1)
        xi = x.reinterpret_cast_to("int16")
        tik_instance.vor(16, xi, xi, zero, 16, 1, 1, 0, 1, 1, 0)  # MASK is 16 now
        tik_instance.vtranspose(x, x)
        tik_instance.vec_mul(128, x, x, mh, 2, 8, 8, 8)
        tik_instance.data_move(y_gm[z, core, 0, 0], x, 0, 1, N * N * 2 // 32, 0, 0)
tik_instance.BuildCCE(kernel_name="nested", inputs=[x_gm, m_gm], outputs=[y_gm])
"""


def test_block_num_inside_a_serial_loop_and_the_mask_shapes(tik_importable, tmp_path):
    tik_instance = build(tmp_path, NESTED)
    assert tik_instance.block_dim == 2
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 2, 16, 16)).astype(np.float16)
    m = rng.random(256) < 0.5
    [y] = tik_instance.tikdb.start_debug({"x_gm": x, "m_gm": m}, interactive=False)
    want = (x.transpose(0, 1, 3, 2) * m.reshape(16, 16).astype(np.float16)).astype(np.float16)
    assert y.tobytes() == np.ascontiguousarray(want).tobytes()


def test_two_multi_core_loops_are_an_error(tik_importable, tmp_path):
    from isa.diagnostics import DiagnosticError
    text = NESTED.replace("tik_instance.BuildCCE", "with tik_instance.for_range(0, 2, "
                          "block_num=2) as c2:\n    pass\ntik_instance.BuildCCE")
    with pytest.raises(DiagnosticError) as e:
        build(tmp_path, text)
    assert "block_num on a second loop" in str(e.value)


def test_a_gm_view_of_another_element_size_is_the_same_bytes(tik_importable, tmp_path):
    # (session 8: it was an error; Flatten views int64 GM as int8) the mask moved in as
    # float16 words is the same 256 bytes
    tik_instance = build(tmp_path, NESTED.replace('m8 = m_gm.reinterpret_cast_to("uint8")',
                                                  'm8 = m_gm.reinterpret_cast_to("float16")'
                                                  '.reinterpret_cast_to("uint8")'))
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 2, 16, 16)).astype(np.float16)
    m = rng.random(256) < 0.5
    [y] = tik_instance.tikdb.start_debug({"x_gm": x, "m_gm": m}, interactive=False)
    want = (x.transpose(0, 1, 3, 2) * m.reshape(16, 16).astype(np.float16)).astype(np.float16)
    assert y.tobytes() == np.ascontiguousarray(want).tobytes()


# -- tik_break / tik_continue (TIK's pages: inside a for_range; not directly in a block_num
#    loop; what follows in the same scope does not run) ----------------------------------
BREAK = """
from tbe import tik
tik_instance = tik.Tik()
src_gm = tik_instance.Tensor("float16", (512,), name="src_gm", scope=tik.scope_gm)
n_gm = tik_instance.Tensor("int32", (8,), name="n_gm", scope=tik.scope_gm)
dst_gm = tik_instance.Tensor("float16", (512,), name="dst_gm", scope=tik.scope_gm)
src = tik_instance.Tensor("float16", (512,), name="src", scope=tik.scope_ubuf)
dst = tik_instance.Tensor("float16", (512,), name="dst", scope=tik.scope_ubuf)
n_ub = tik_instance.Tensor("int32", (8,), name="n_ub", scope=tik.scope_ubuf)
stop = tik_instance.Scalar("int32", name="stop")
tik_instance.data_move(n_ub, n_gm, 0, 1, 1, 0, 0)
stop.set_as(n_ub[0])
tik_instance.vec_dup(128, dst, 0.0, 4, 8)
tik_instance.data_move(src, src_gm, 0, 1, 32, 0, 0)
with tik_instance.for_range(0, 8) as i:
    with tik_instance.if_scope(i == 1):
        tik_instance.tik_continue()
    with tik_instance.for_range(0, 4) as j:
        with tik_instance.if_scope(j == 2):
            tik_instance.tik_break()     # the inner loop only
        tik_instance.vec_adds(16, dst[i * 64 + j * 16], src[i * 64 + j * 16], 1.0, 1, 8, 8)
    with tik_instance.if_scope(i == stop):
        tik_instance.tik_break()
    tik_instance.vec_muls(64, dst[i * 64], dst[i * 64], 2.0, 1, 8, 8)
tik_instance.data_move(dst_gm, dst, 0, 1, 32, 0, 0)
tik_instance.BuildCCE(kernel_name="brk", inputs=[src_gm, n_gm], outputs=[dst_gm])
"""


@pytest.mark.parametrize("stop", [3, 6, 100])
def test_tik_break_and_continue_jump_as_the_pages_say(tik_importable, tmp_path, stop):
    tik_instance = build(tmp_path, BREAK)
    src = np.arange(512, dtype=np.float16)
    [dst] = tik_instance.tikdb.start_debug({"src_gm": src, "n_gm": np.full(8, stop, np.int32)},
                                           interactive=False)
    want = np.zeros(512, np.float16)
    for i in range(8):
        if i == 1:
            continue
        for j in range(4):
            if j == 2:
                break
            k = i * 64 + j * 16
            want[k:k + 16] = src[k:k + 16] + np.float16(1)
        if i == stop:
            break
        want[i * 64:i * 64 + 64] *= np.float16(2)
    assert dst.tobytes() == want.tobytes()
    assert not tik_instance.tikdb.result.diagnostics


@pytest.mark.parametrize("where, message", [
    ("tik_instance.tik_break()\nwith tik_instance.for_range(0, 2) as i:\n    pass",
     "tik_break() is only allowed inside a for_range"),
    ("with tik_instance.for_range(0, 2, block_num=2) as c:\n    tik_instance.tik_continue()",
     "tik_continue() directly in a block_num loop")])
def test_tik_break_and_continue_outside_a_loop_are_errors(tik_importable, tmp_path, where,
                                                          message):
    from isa.diagnostics import DiagnosticError
    text = BREAK.replace("tik_instance.data_move(dst_gm, dst", where +
                         "\ntik_instance.data_move(dst_gm, dst")
    with pytest.raises(DiagnosticError) as e:
        build(tmp_path, text)
    assert message in str(e.value)


# -- vec_rec_high_preci / vec_rsqrt_high_preci: the correctly rounded result, a work tensor
#    of the pages' size -------------------------------------------------------------------
PRECISE = """
from tbe import tik
tik_instance = tik.Tik()
x_gm = tik_instance.Tensor("{t}", (256,), name="x_gm", scope=tik.scope_gm)
r_gm = tik_instance.Tensor("{t}", (256,), name="r_gm", scope=tik.scope_gm)
q_gm = tik_instance.Tensor("{t}", (256,), name="q_gm", scope=tik.scope_gm)
x = tik_instance.Tensor("{t}", (256,), name="x", scope=tik.scope_ubuf)
r = tik_instance.Tensor("{t}", (256,), name="r", scope=tik.scope_ubuf)
q = tik_instance.Tensor("{t}", (256,), name="q", scope=tik.scope_ubuf)
work = tik_instance.Tensor("float32", ({work},), name="work", scope=tik.scope_ubuf)
tik_instance.data_move(x, x_gm, 0, 1, 256 * {size} // 32, 0, 0)
tik_instance.vec_rec_high_preci({mask}, r, x, work, {rep}, 8, 8)
tik_instance.vec_rsqrt_high_preci({mask}, q, x, work, {rep}, 8, 8)
tik_instance.data_move(r_gm, r, 0, 1, 256 * {size} // 32, 0, 0)
tik_instance.data_move(q_gm, q, 0, 1, 256 * {size} // 32, 0, 0)
tik_instance.BuildCCE(kernel_name="precise", inputs=[x_gm], outputs=[r_gm, q_gm])
"""
PRECISE_CASES = {"float16": dict(size=2, mask=128, rep=2, need=6 * 256),
                 "float32": dict(size=4, mask=64, rep=4, need=4 * 256)}


@pytest.mark.parametrize("t", ["float16", "float32"])
def test_high_precision_reciprocals_are_correctly_rounded(tik_importable, tmp_path, t):
    from fractions import Fraction
    c = PRECISE_CASES[t]
    tik_instance = build(tmp_path, PRECISE.format(t=t, work=c["need"], **c))
    x = (np.random.default_rng(5).random(256) * 100 + 0.01).astype(t)
    r, q = tik_instance.tikdb.start_debug({"x_gm": x}, interactive=False)
    # correctly rounded: 1/x exactly (Fraction), rounded once to T via float64 when the float64
    # rounding is not a tie of T (none here); rsqrt through float64 likewise
    want_r = np.array([float(1 / Fraction(float(v))) for v in x]).astype(t)
    want_q = (1 / np.sqrt(x.astype(np.float64))).astype(t)
    assert r.tobytes() == want_r.tobytes() and q.tobytes() == want_q.tobytes()


def test_a_work_tensor_smaller_than_the_pages_formula_is_an_error(tik_importable, tmp_path):
    from isa.diagnostics import DiagnosticError
    c = PRECISE_CASES["float16"]
    with pytest.raises(DiagnosticError) as e:
        build(tmp_path, PRECISE.format(t="float16", work=4 * 256, **c))
    assert "the pages' formula asks 1536" in str(e.value)


# -- scalar GM accesses are seen by the cross-core race check -----------------------------
SCALAR_GM = """
from tbe import tik
tik_instance = tik.Tik()
x_gm = tik_instance.Tensor("int32", (2, 8), name="x_gm", scope=tik.scope_gm)
y_gm = tik_instance.Tensor("int32", (2, 8), name="y_gm", scope=tik.scope_gm)
with tik_instance.for_range(0, 2, block_num=2) as core:
    v = tik_instance.Scalar("int32", name="v")
    v.set_as(x_gm[core, 0])                 # each core its own row: no race
    y_gm[{row}, 1].set_as(v + 1)            # row {row}: {what}
    y_gm[core, 0].set_as(v)
tik_instance.BuildCCE(kernel_name="sgm", inputs=[x_gm], outputs=[y_gm])
"""


def test_scalar_gm_stores_of_two_cores_to_one_element_are_a_race(tik_importable, tmp_path):
    tik_instance = build(tmp_path, SCALAR_GM.format(row=0, what="both cores: a race"))
    x = np.arange(16, dtype=np.int32).reshape(2, 8)
    tik_instance.tikdb.start_debug({"x_gm": x}, interactive=False)
    races = [d for d in tik_instance.tikdb.result.diagnostics
             if "another core also writes" in d.message or "also writes" in d.message]
    assert [d.line for d in races] == [9]


def test_scalar_gm_stores_of_separate_elements_are_not(tik_importable, tmp_path):
    tik_instance = build(tmp_path, SCALAR_GM.format(row="core", what="its own: no race"))
    x = np.arange(16, dtype=np.int32).reshape(2, 8)
    [y] = tik_instance.tikdb.start_debug({"x_gm": x}, interactive=False)
    assert not tik_instance.tikdb.result.diagnostics
    assert y[:, :2].tolist() == [[0, 1], [8, 9]]


# -- a GM tensor whose outermost dimension is an InputScalar: bound at run time ------------
INPUT_SHAPE = """
from tbe import tik
tik_instance = tik.Tik()
n = tik_instance.InputScalar("int32", name="n")
x_gm = tik_instance.Tensor("float32", (n, 64), name="x_gm", scope=tik.scope_gm)
y_gm = tik_instance.Tensor("float32", (n, 64), name="y_gm", scope=tik.scope_gm)
x = tik_instance.Tensor("float32", (64,), name="x", scope=tik.scope_ubuf)
with tik_instance.for_range(0, n) as i:
    tik_instance.data_move(x, x_gm[i, 0], 0, 1, 8, 0, 0)
    tik_instance.vec_muls(64, x, x, 3.0, 1, 8, 8)
    tik_instance.data_move(y_gm[i, 0], x, 0, 1, 8, 0, 0)
tik_instance.BuildCCE(kernel_name="shape_n", inputs=[x_gm, n], outputs=[y_gm])
"""


@pytest.mark.parametrize("rows", [1, 5])
def test_a_tensor_shape_holding_an_input_scalar(tik_importable, tmp_path, rows):
    tik_instance = build(tmp_path, INPUT_SHAPE)
    x = np.random.default_rng(rows).standard_normal((rows, 64)).astype(np.float32)
    [y] = tik_instance.tikdb.start_debug({"x_gm": x.reshape(-1), "n": rows},
                                         interactive=False)
    assert y[:rows * 64].tobytes() == (x * np.float32(3)).reshape(-1).tobytes()


def test_a_ub_tensor_shape_holding_an_input_scalar_is_placed_when_the_kernel_runs(
        tik_importable, tmp_path):
    # (session 8: it was an error at the line; TIK's dynamic-shape operators declare them)
    tik_instance = build(tmp_path, INPUT_SHAPE.replace('(64,), name="x"', '(n, 64), name="x"'))
    x = np.random.default_rng(3).standard_normal((3, 64)).astype(np.float32)
    [y] = tik_instance.tikdb.start_debug({"x_gm": x.reshape(-1), "n": 3}, interactive=False)
    assert y[:3 * 64].tobytes() == (x * np.float32(3)).reshape(-1).tobytes()
