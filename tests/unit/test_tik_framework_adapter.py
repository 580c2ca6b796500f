"""#29: what TransData2D-style operators take from `impl.util.platform_adapter` besides TIK —
`register_operator_compute`, `platform_info` (its `C0_SIZE`), `para_check.check_tensor_shape_size`
and `REQUIRED_ATTR_STR` in `check_op_params`. Our own operator in that style, bit-exact."""

from __future__ import annotations

import runpy
import textwrap

import numpy as np
import pytest

COPY_5D = """
from impl.util.platform_adapter import para_check, platform_info, register_operator_compute
from impl.util.platform_adapter import tbe_platform, tik


@register_operator_compute("copy_5d", op_mode="static", support_fusion=True)
def copy_5d_compute(src, dst, kernel_name):
    n, c = src["shape"]
    size = para_check.check_tensor_shape_size([n, c])
    assert c % platform_info.C0_SIZE == 0
    tik_instance = tik.Tik()
    src_gm = tik_instance.Tensor("float16", (n, c), name="src_gm", scope=tbe_platform.scope_gm)
    dst_gm = tik_instance.Tensor("float16", (n, c // platform_info.C0_SIZE, platform_info.C0_SIZE),
                                 name="dst_gm", scope=tbe_platform.scope_gm)
    per_core = size // 2
    with tik_instance.for_range(0, 2, block_num=2) as core:
        ub = tik_instance.Tensor("float16", (per_core,), name="ub", scope=tbe_platform.scope_ubuf)
        tik_instance.data_move(ub, src_gm[core * per_core], 0, 1, per_core // 16, 0, 0)
        tik_instance.data_move(dst_gm[core * per_core], ub, 0, 1, per_core // 16, 0, 0)
    tik_instance.BuildCCE(kernel_name=kernel_name, inputs=[src_gm], outputs=[dst_gm])
    return tik_instance


@para_check.check_op_params(para_check.REQUIRED_INPUT, para_check.REQUIRED_OUTPUT,
                            para_check.REQUIRED_ATTR_STR, para_check.KERNEL_NAME)
def copy_5d(src, dst, src_format, kernel_name="copy_5d"):
    return copy_5d_compute(src, dst, kernel_name)


tik_instance = copy_5d({"shape": (8, 64), "dtype": "float16"},
                       {"shape": (8, 4, 16), "dtype": "float16"}, "NCHW")
"""


def test_a_trans_data_style_operator_runs_bit_exact(tik_importable, tmp_path):
    path = tmp_path / "op.py"
    path.write_text(textwrap.dedent(COPY_5D))
    tik_instance = runpy.run_path(str(path))["tik_instance"]
    x = np.random.default_rng(0).standard_normal((8, 64)).astype(np.float16)
    [y] = tik_instance.tikdb.start_debug({"src_gm": x}, interactive=False)
    assert y.shape == (8, 4, 16) and y.tobytes() == x.tobytes()


# GetShape's style: shape words (int64) stored into an int32 output element by element, and
# `check_dtype(dtype, ("int32"))` — a str, not a tuple
SHAPES = """
from impl.util.platform_adapter import para_check, tik
para_check.check_dtype("int32", ("int32"), param_name="y")
tik_instance = tik.Tik(tik.Dprofile())
x_gm = tik_instance.Tensor("int64", (16,), name="x_gm", scope=tik.scope_gm)
y_gm = tik_instance.Tensor("int32", (8,), name="y_gm", scope=tik.scope_gm)
x_ub = tik_instance.Tensor("int64", (16,), name="x_ub", scope=tik.scope_ubuf)
y_ub = tik_instance.Tensor("{yt}", (8,), name="y_ub", scope=tik.scope_ubuf)
tik_instance.data_move(x_ub, x_gm, 0, 1, 4, 0, 0)
n = tik_instance.Scalar("int32", name="n", init_value=x_ub[0])
with tik_instance.for_range(0, n) as i:
    y_ub[i].set_as(x_ub[i + 1])
tik_instance.data_move(y_gm, y_ub, 0, 1, 1, 0, 0)
tik_instance.BuildCCE(kernel_name="shapes", inputs=[x_gm], outputs=[y_gm])
"""


def test_an_int64_element_stored_into_an_int32_tensor_keeps_its_low_bytes(tik_importable,
                                                                           tmp_path):
    path = tmp_path / "op.py"
    path.write_text(textwrap.dedent(SHAPES.format(yt="int32")))
    tik_instance = runpy.run_path(str(path))["tik_instance"]
    x = np.array([8, 2, 3, -4, 5, 1 << 33 | 6, 7, 8, 9] + [0] * 7, np.int64)
    [y] = tik_instance.tikdb.start_debug({"x_gm": x}, interactive=False)
    assert y.tolist() == [2, 3, -4, 5, 6, 7, 8, 9]


def test_a_float_element_of_another_type_is_still_an_error(tik_importable, tmp_path):
    from isa.diagnostics import DiagnosticError
    path = tmp_path / "op.py"
    path.write_text(textwrap.dedent(SHAPES.format(yt="float32").replace(
        '"int64", (16,), name="x_ub"', '"float16", (16,), name="x_ub"').replace(
        'init_value=x_ub[0]', 'init_value=8')))
    with pytest.raises(DiagnosticError) as e:
        runpy.run_path(str(path))
    assert "the element is float16, the tensor float32" in str(e.value)
