"""#29: the dynamic shapes TIK operators use — GM tensors declared at 2^63-1 elements (bound
at run time to what is given, checked against it), UB tensors whose size is a Scalar read from
the tiling data (placed when the kernel runs; too big: an error at the declaration), the
byte-granular `data_move_pad` and the older `vsel`. Our own kernel in the operators' style,
bit-exact against numpy."""

from __future__ import annotations

import runpy
import textwrap
from pathlib import Path

import numpy as np
import pytest

from isa.diagnostics import DiagnosticError


def build(tmp_path: Path, text: str):
    path = tmp_path / "op.py"
    path.write_text(textwrap.dedent(text))
    return runpy.run_path(str(path))["tik_instance"]


# y[i] = bit i of keep ? x[i] * scale : 0, in chunks of `chunk` elements per core; the tiling:
# cores, elements per core, chunk, the last core's elements
MASKED_SCALE = """
from impl.util.platform_adapter import tik
MAX = 2 ** 63 - 1
DT = "{dt}"
SIZE = {size}
LANES = 256 // SIZE
tik_instance = tik.Tik()
tiling_gm = tik_instance.Tensor("int64", (4,), name="tiling_gm", scope=tik.scope_gm)
x_gm = tik_instance.Tensor(DT, (MAX,), name="x_gm", scope=tik.scope_gm)
keep_gm = tik_instance.Tensor("uint8", (MAX,), name="keep_gm", scope=tik.scope_gm)
y_gm = tik_instance.Tensor(DT, (MAX,), name="y_gm", scope=tik.scope_gm)
tiling = tik_instance.Tensor("int64", (4,), name="tiling", scope=tik.scope_ubuf)
tik_instance.data_move(tiling, tiling_gm, 0, 1, 1, 0, 0)
cores = tik_instance.Scalar("int64", name="cores", init_value=tiling[0])
per_core = tik_instance.Scalar("int64", name="per_core", init_value=tiling[1])
chunk = tik_instance.Scalar("int64", name="chunk", init_value=tiling[2])
last = tik_instance.Scalar("int64", name="last", init_value=tiling[3])
zero = tik_instance.Scalar(DT, name="zero", init_value=0.0)


def one_chunk(start, n):
    tik_instance.data_move_pad(x_ub, x_gm[start], 1, n * SIZE, 0, 0)
    tik_instance.data_move_pad(keep_ub, keep_gm[start // 8], 1, (n + 7) // 8, 0, 0)
    repeats = (n + LANES - 1) // LANES
    tik_instance.vmuls(LANES, x_ub, x_ub, {scale}, repeats, 1, 1, 8, 8)
    tik_instance.vsel(LANES, 1, x_ub, keep_ub, x_ub, zero, repeats, 1, 1, 1, 8, 8, 8)
    tik_instance.data_move_pad(y_gm[start], x_ub, 1, n * SIZE, 0, 0)


with tik_instance.for_range(0, cores, block_num=cores) as core:
    keep_ub = tik_instance.Tensor("uint8", ((chunk + 7) // 8,), name="keep_ub",
                                  scope=tik.scope_ubuf)
    x_ub = tik_instance.Tensor(DT, (chunk,), name="x_ub", scope=tik.scope_ubuf)
    mine = tik_instance.Scalar("int64", name="mine", init_value=per_core)
    with tik_instance.if_scope(core == cores - 1):
        mine.set_as(last)
    with tik_instance.for_range(0, mine // chunk) as k:
        one_chunk(core * per_core + k * chunk, chunk)
    with tik_instance.if_scope(mine % chunk > 0):
        one_chunk(core * per_core + mine // chunk * chunk, mine % chunk)
tik_instance.BuildCCE(kernel_name="masked_scale", inputs=[x_gm, keep_gm], outputs=[y_gm],
                      flowtable=[tiling_gm])
"""


def line_of(text: str, part: str) -> int:
    return next(i for i, line in enumerate(text.split("\n"), 1) if part in line)


def masked_scale(x: np.ndarray, keep: np.ndarray, scale: float) -> np.ndarray:
    bits = np.unpackbits(keep, bitorder="little")[:x.size].astype(bool)
    return np.where(bits, (x * x.dtype.type(scale)).astype(x.dtype), np.zeros((), x.dtype))


@pytest.mark.parametrize("dt,n,cores,chunk", [("float16", 10000, 4, 1024),
                                              ("float32", 3000, 3, 512),
                                              ("float16", 200, 1, 2048)])
def test_a_dynamic_shape_operator_runs_bit_exact(tik_importable, tmp_path, dt, n, cores, chunk):
    size = np.dtype(dt).itemsize
    tik_instance = build(tmp_path, MASKED_SCALE.format(dt=dt, size=size, scale=1.25))
    per = -(-n // cores + 255) // 256 * 256 if cores > 1 else n
    per = min(per, n)
    tiling = np.array([cores, per, chunk, n - per * (cores - 1)], np.int64)
    rng = np.random.default_rng(n)
    x = rng.standard_normal(n).astype(dt)
    keep = rng.integers(0, 256, -(-n // 8), dtype=np.uint8)
    [y] = tik_instance.tikdb.start_debug({"x_gm": x, "keep_gm": keep, "tiling_gm": tiling},
                                         interactive=False)
    # a tail chunk's last repeat reads past the data it moved in (a warning, as on the device:
    # those lanes are never written back)
    assert all(d.severity == "warning" and "never written" in d.message
               for d in tik_instance.tikdb.result.diagnostics)
    assert y[:n].tobytes() == masked_scale(x, keep, 1.25).tobytes()
    assert not y[n:].any()  # nothing written past the bound data


def test_a_run_time_ub_tensor_too_big_is_an_error_at_its_declaration(tik_importable,
                                                                       tmp_path):
    tik_instance = build(tmp_path, MASKED_SCALE.format(dt="float16", size=2, scale=2.0))
    n = 1 << 17  # one chunk of 2^17 float16: 256 KiB, more than the UB
    tiling = np.array([1, n, n, n], np.int64)
    x = np.ones(n, np.float16)
    keep = np.full(n // 8, 255, np.uint8)
    with pytest.raises(DiagnosticError) as e:
        tik_instance.tikdb.start_debug({"x_gm": x, "keep_gm": keep, "tiling_gm": tiling},
                                       interactive=False)
    [d] = [d for d in e.value.diagnostics if d.severity == "error"]
    assert "Tensor 'x_ub' does not fit in UB" in d.message
    assert d.line == line_of(MASKED_SCALE, "x_ub = ")


def test_a_2_63_element_input_is_checked_against_what_was_bound(tik_importable, tmp_path):
    tik_instance = build(tmp_path, MASKED_SCALE.format(dt="float16", size=2, scale=2.0))
    n = 4096
    tiling = np.array([1, n, 1024, n], np.int64)
    x = np.ones(1024, np.float16)  # a quarter of what the tiling says
    keep = np.full(n // 8, 255, np.uint8)
    with pytest.raises(DiagnosticError) as e:
        tik_instance.tikdb.start_debug({"x_gm": x, "keep_gm": keep, "tiling_gm": tiling},
                                       interactive=False)
    errors = [d for d in e.value.diagnostics if d.severity == "error"]
    assert errors and "x_gm" in errors[0].message
    assert errors[0].line == line_of(MASKED_SCALE, "data_move_pad(x_ub")


def test_two_run_time_ub_tensors_do_not_overlap(tik_importable, tmp_path):
    text = """
    from tbe import tik
    tik_instance = tik.Tik()
    n_gm = tik_instance.Tensor("int64", (4,), name="n_gm", scope=tik.scope_gm)
    y_gm = tik_instance.Tensor("int32", (2, 64), name="y_gm", scope=tik.scope_gm)
    n_ub = tik_instance.Tensor("int64", (4,), name="n_ub", scope=tik.scope_ubuf)
    tik_instance.data_move(n_ub, n_gm, 0, 1, 1, 0, 0)
    n = tik_instance.Scalar("int64", name="n", init_value=n_ub[0])
    a = tik_instance.Tensor("int32", (n,), name="a", scope=tik.scope_ubuf)
    b = tik_instance.Tensor("int32", (n, 8), name="b", scope=tik.scope_ubuf)
    tik_instance.vec_dup(64, a, 7, 1, 8)
    tik_instance.vec_dup(64, b, 9, 1, 8)
    a[n - 1].set_as(5)
    tik_instance.data_move(y_gm, a, 0, 1, 8, 0, 0)
    tik_instance.data_move(y_gm[1, 0], b, 0, 1, 8, 0, 0)
    tik_instance.BuildCCE(kernel_name="two", inputs=[n_gm], outputs=[y_gm])
    """
    tik_instance = build(tmp_path, text)
    # n = 3: a holds 3 int32 (32 bytes), b 24: b starts at a's 32-byte boundary
    [y] = tik_instance.tikdb.start_debug({"n_gm": np.array([3, 0, 0, 0], np.int64)},
                                         interactive=False)
    want_a = np.full(64, 7, np.int32)
    want_a[8:] = 9  # b's dup (64 elements) starts at a's element 8
    want_a[2] = 5
    assert y[0].tolist() == want_a.tolist() and y[1].tolist() == [9] * 64


# -- reinterpret_cast_to another element size: the last dimension scaled (TIK's page) ---------
CAST = """
from tbe import tik
tik_instance = tik.Tik()
x_gm = tik_instance.Tensor("float16", (4, 16), name="x_gm", scope=tik.scope_gm)
y_gm = tik_instance.Tensor("uint32", (4, 8), name="y_gm", scope=tik.scope_gm)
x = tik_instance.Tensor("float16", {shape}, name="x", scope=tik.scope_ubuf)
tik_instance.data_move(x, x_gm, 0, 1, 4, 0, 0)
w = x.reinterpret_cast_to("uint32")
tik_instance.data_move(y_gm, w, 0, 1, 4, 0, 0)
tik_instance.BuildCCE(kernel_name="cast", inputs=[x_gm], outputs=[y_gm])
"""


def test_reinterpret_cast_to_a_wider_type_scales_the_last_dimension(tik_importable, tmp_path):
    tik_instance = build(tmp_path, CAST.format(shape="(4, 16)"))
    w = next(t for t in tik_instance.tensors.values() if t.dtype == "uint32" and
             t.scope == "ubuf")
    assert w is not None
    x = np.random.default_rng(0).standard_normal((4, 16)).astype(np.float16)
    [y] = tik_instance.tikdb.start_debug({"x_gm": x}, interactive=False)
    assert y.shape == (4, 8) and y.tobytes() == x.tobytes()


def test_reinterpret_cast_to_a_wider_type_of_an_odd_last_dimension_is_an_error(
        tik_importable, tmp_path):
    with pytest.raises(DiagnosticError) as e:
        build(tmp_path, CAST.format(shape="(64, 1)"))
    assert "can't be divided" in str(e.value) and ":8:" in str(e.value)


# -- a GM tensor as another element size: the same bytes (Flatten's int64 path) --------------
GM_CAST = """
from impl.util.platform_adapter import tik
tik_instance = tik.Tik()
n_gm = tik_instance.Tensor("int64", (4,), name="n_gm", scope=tik.scope_gm)
src_gm = tik_instance.Tensor("int64", (2 ** 31 - 1,), name="src_gm", scope=tik.scope_gm)
dst_gm = tik_instance.Tensor("int64", (2 ** 31 - 1,), name="dst_gm", scope=tik.scope_gm)
n_ub = tik_instance.Tensor("int64", (4,), name="n_ub", scope=tik.scope_ubuf)
tik_instance.data_move(n_ub, n_gm, 0, 1, 1, 0, 0)
n = tik_instance.Scalar("int64", name="n", init_value=n_ub[0])
data = tik_instance.Tensor("int64", (64,), name="data", scope=tik.scope_ubuf)
s8_src = src_gm.reinterpret_cast_to("int8")
s8_dst = dst_gm.reinterpret_cast_to("int8")
s8_data = data.reinterpret_cast_to("int8")
tik_instance.data_move_pad(s8_data, s8_src[8], 1, n * 8, 0, 0)     # from element 1
tik_instance.data_move_pad(s8_dst[16], s8_data, 1, n * 8, 0, 0)    # to element 2
words = src_gm.reinterpret_cast_to("int32")
w = tik_instance.Scalar("int32", name="w", init_value=words[1])    # element 0's high word
dst_gm[0].set_as(w)
tik_instance.BuildCCE(kernel_name="gm_cast", inputs=[src_gm], outputs=[dst_gm],
                      flowtable=[n_gm])
"""


def test_a_gm_tensor_viewed_as_another_element_size_is_the_same_bytes(tik_importable,
                                                                      tmp_path):
    tik_instance = build(tmp_path, GM_CAST)
    x = np.arange(1, 41, dtype=np.int64) * 0x1_0000_0001
    [y] = tik_instance.tikdb.start_debug({"src_gm": x, "n_gm": np.array([30, 0, 0, 0],
                                                                          np.int64)},
                                         interactive=False)
    assert y[0] == 1 and y[2:32].tolist() == x[1:31].tolist()


def test_run_time_ub_tensors_when_registers_are_short(tik_importable, tmp_path):
    # 16 Scalars alive (as an operator's tiling arguments): the tensors' ends are then the
    # expressions of their sizes, recomputed where used; the bytes are the same
    text = """
    from tbe import tik
    tik_instance = tik.Tik()
    n_gm = tik_instance.Tensor("int64", (4,), name="n_gm", scope=tik.scope_gm)
    y_gm = tik_instance.Tensor("int32", (2, 64), name="y_gm", scope=tik.scope_gm)
    n_ub = tik_instance.Tensor("int64", (4,), name="n_ub", scope=tik.scope_ubuf)
    tik_instance.data_move(n_ub, n_gm, 0, 1, 1, 0, 0)
    held = [tik_instance.Scalar("int64", name=f"s{k}", init_value=k) for k in range(16)]
    n = tik_instance.Scalar("int64", name="n", init_value=n_ub[0])
    a = tik_instance.Tensor("int32", (n,), name="a", scope=tik.scope_ubuf)
    b = tik_instance.Tensor("int32", (n, 8), name="b", scope=tik.scope_ubuf)
    tik_instance.vec_dup(64, a, 7, 1, 8)
    tik_instance.vec_dup(64, b, 9, 1, 8)
    a[n - 1].set_as(held[5])
    tik_instance.data_move(y_gm, a, 0, 1, 8, 0, 0)
    tik_instance.data_move(y_gm[1, 0], b, 0, 1, 8, 0, 0)
    tik_instance.BuildCCE(kernel_name="two", inputs=[n_gm], outputs=[y_gm])
    """
    tik_instance = build(tmp_path, text)
    assert not any(hasattr(p.end, "reg") for p in tik_instance.runtime_ub)  # no registers
    [y] = tik_instance.tikdb.start_debug({"n_gm": np.array([3, 0, 0, 0], np.int64)},
                                         interactive=False)
    want_a = np.full(64, 7, np.int32)
    want_a[8:] = 9
    want_a[2] = 5
    assert y[0].tolist() == want_a.tolist() and y[1].tolist() == [9] * 64
