"""#29: what TransData2D-style operators take from `impl.util.platform_adapter` besides TIK —
`register_operator_compute`, `platform_info` (its `C0_SIZE`), `para_check.check_tensor_shape_size`
and `REQUIRED_ATTR_STR` in `check_op_params`. Our own operator in that style, bit-exact."""

from __future__ import annotations

import runpy
import sys
import textwrap

import numpy as np
import pytest

from simulator.tik import SHIM

PACKAGES = ("tbe", "te", "tik", "impl")


@pytest.fixture
def tik_importable(monkeypatch):
    monkeypatch.syspath_prepend(SHIM)
    yield
    for name in [m for m in sys.modules if m.split(".")[0] in PACKAGES]:
        del sys.modules[name]


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
