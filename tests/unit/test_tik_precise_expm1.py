"""#29: TIK's vec_expm1_high_preci — float16 only, a float16 work tensor of the pages' size
(11 × the extent, a stride up to 8 counted as 8), e^x − 1 correctly rounded for every one of
the 65,536 float16 inputs (tests/reference/expm1.py: exact), raw bytes."""

from __future__ import annotations

import runpy
import textwrap
from pathlib import Path

import numpy as np
import pytest

from isa.diagnostics import DiagnosticError
from tests.reference.expm1 import expm1

CHUNK = 4096  # 32 repeats of 128


EXPM1 = """
from tbe import tik
tik_instance = tik.Tik()
x_gm = tik_instance.Tensor("float16", ({n},), name="x_gm", scope=tik.scope_gm)
y_gm = tik_instance.Tensor("float16", ({n},), name="y_gm", scope=tik.scope_gm)
x = tik_instance.Tensor("float16", ({chunk},), name="x", scope=tik.scope_ubuf)
y = tik_instance.Tensor("float16", ({chunk},), name="y", scope=tik.scope_ubuf)
work = tik_instance.Tensor("float16", ({work},), name="work", scope=tik.scope_ubuf)
with tik_instance.for_range(0, {n} // {chunk}) as i:
    tik_instance.data_move(x, x_gm[i * {chunk}], 0, 1, {chunk} // 16, 0, 0)
    tik_instance.vec_dup(128, y, 0.0, {chunk} // 128, 8)
    tik_instance.vec_expm1_high_preci({mask}, y, x, work[0:], {rep}, 8, {stride})
    tik_instance.data_move(y_gm[i * {chunk}], y, 0, 1, {chunk} // 16, 0, 0)
tik_instance.BuildCCE(kernel_name="expm1", inputs=[x_gm], outputs=[y_gm])
"""


def build(tmp_path: Path, **kw):
    args = dict(n=65536, chunk=CHUNK, work=11 * CHUNK, mask=128, rep=CHUNK // 128,
                stride=8) | kw
    path = tmp_path / "op.py"
    path.write_text(textwrap.dedent(EXPM1.format(**args)))
    return runpy.run_path(str(path))["tik_instance"]


def test_every_float16_input_is_correctly_rounded(tik_importable, tmp_path):
    tik_instance = build(tmp_path)
    x = np.arange(65536, dtype=np.uint16).view(np.float16)
    [y] = tik_instance.tikdb.start_debug({"x_gm": x}, interactive=False)
    want = b"".join(expm1(v.tobytes()) for v in x)
    got = y.view(np.uint16)
    bad = np.flatnonzero(got != np.frombuffer(want, np.uint16))
    assert bad.size == 0, (x[bad[:8]], y[bad[:8]])
    assert not tik_instance.tikdb.result.diagnostics  # no race, no uninitialised read


def test_a_partial_mask_writes_only_its_lanes(tik_importable, tmp_path):
    # mask [hi, lo]: lanes 0..2 and 64, 65 of each repeat; the others keep vec_dup's 0
    tik_instance = build(tmp_path, n=CHUNK, mask="[3, 7]")
    x = (np.random.default_rng(1).standard_normal(CHUNK) * 4).astype(np.float16)
    [y] = tik_instance.tikdb.start_debug({"x_gm": x}, interactive=False)
    lanes = np.zeros(CHUNK, bool)
    for base in range(0, CHUNK, 128):
        lanes[[base, base + 1, base + 2, base + 64, base + 65]] = True
    want = np.zeros(CHUNK, np.float16)
    want[lanes] = np.frombuffer(b"".join(expm1(v.tobytes()) for v in x[lanes]), np.float16)
    assert y.tobytes() == want.tobytes()


def test_a_work_tensor_smaller_than_the_pages_formula_is_an_error(tik_importable, tmp_path):
    # repeat 2, stride 4 counted as 8: extent 256, the pages' 11 × 256
    with pytest.raises(DiagnosticError) as e:
        build(tmp_path, n=CHUNK, work=11 * 256 - 1, rep=2, stride=4)
    assert "asks 2816" in str(e.value) and ":12:" in str(e.value)
    build(tmp_path, n=CHUNK, work=11 * 256, rep=2, stride=4)


def test_stride_0_over_several_repeats_needs_pipevs_layout(tik_importable, tmp_path):
    # the pages ask 11 × 128 for src_rep_stride 0; pipev's float32 rows need more for 2 repeats
    with pytest.raises(DiagnosticError) as e:
        build(tmp_path, n=CHUNK, work=11 * 128, rep=2, stride=0)
    assert "pipev's expansion lays out 2704" in str(e.value)
