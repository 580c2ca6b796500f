"""#29 follow-up: what real TIK operators stopped at — a single index into a multi-dimensional
tensor, ... Our own kernels in the operators' style, each bit-exact against numpy."""

from __future__ import annotations

import runpy
import sys
import textwrap
from pathlib import Path

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
