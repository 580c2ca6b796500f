"""#27 TIK's set_atomic_add: the mode numbers (0 off, then the AtomicDtype order) and dtype
names public TIK operators pass, applied by data_move UB → GM (two stores add up), and a bad
mode reported at the call."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from simulator.tik import SHIM
from simulator.tik.errors import TikError


@pytest.fixture
def tik(monkeypatch):
    monkeypatch.syspath_prepend(SHIM)
    from tbe import tik as module
    yield module
    for name in [m for m in sys.modules if m.split(".")[0] in ("tbe", "te", "tik")]:
        del sys.modules[name]


def _kernel(tik, dtype: str, mode):
    ti = tik.Tik()
    x_gm = ti.Tensor(dtype, (64,), name="x_gm", scope=tik.scope_gm)
    z_gm = ti.Tensor(dtype, (64,), name="z_gm", scope=tik.scope_gm, is_atomic_add=True)
    x = ti.Tensor(dtype, (64,), name="x", scope=tik.scope_ubuf)
    blocks = 64 * np.dtype(dtype).itemsize // 32
    ti.data_move(x, x_gm, 0, 1, blocks, 0, 0)
    ti.set_atomic_add(mode)
    ti.data_move(z_gm, x, 0, 1, blocks, 0, 0)
    ti.data_move(z_gm, x, 0, 1, blocks, 0, 0)
    ti.set_atomic_add(0)
    ti.data_move(z_gm, x, 0, 1, blocks, 0, 0)  # a plain store again: overwrites
    ti.BuildCCE(kernel_name="atomic_tik", inputs=[x_gm], outputs=[z_gm])
    return ti


@pytest.mark.parametrize(("dtype", "mode"), [("float32", 1), ("float16", 2), ("int32", 4),
                                             ("int16", "int16"), ("float32", "float32")])
def test_set_atomic_add_accumulates_then_stops(tik, dtype, mode):
    ti = _kernel(tik, dtype, mode)
    x = (np.arange(64) - 20).astype(dtype)
    (z,) = ti.tikdb.start_debug({"x_gm": x}, interactive=False)
    assert z.tobytes() == x.tobytes()  # the last, plain store wins


def test_set_atomic_add_sums_two_stores(tik):
    ti = tik.Tik()
    x_gm = ti.Tensor("float32", (64,), name="x_gm", scope=tik.scope_gm)
    z_gm = ti.Tensor("float32", (64,), name="z_gm", scope=tik.scope_gm, is_atomic_add=True)
    x = ti.Tensor("float32", (64,), name="x", scope=tik.scope_ubuf)
    ti.data_move(x, x_gm, 0, 1, 8, 0, 0)
    ti.set_atomic_add(1)
    ti.data_move(z_gm, x, 0, 1, 8, 0, 0)
    ti.data_move(z_gm, x, 0, 1, 8, 0, 0)
    ti.set_atomic_add(0)
    ti.BuildCCE(kernel_name="atomic_sum", inputs=[x_gm], outputs=[z_gm])
    x = np.linspace(-3, 3, 64).astype(np.float32)
    (z,) = ti.tikdb.start_debug({"x_gm": x}, interactive=False)
    assert z.tobytes() == (x + x).tobytes()  # GM starts at 0: 0 + x + x


@pytest.mark.parametrize("mode", [7, -1, "float64", True, 1.0])
def test_a_bad_mode_is_reported_at_the_call(tik, mode):
    ti = tik.Tik()
    with pytest.raises(TikError, match="mode must be 0..6 or a dtype name"):
        ti.set_atomic_add(mode)
