"""#29: TIK's vec_ln_high_preci — float16 only, a float16 work tensor of the pages' size (10 ×
the source extent rounded to a block), the correctly rounded natural logarithm (the reference:
tests/reference/elementwise.py's exact `decimal` logarithm, rounded once), raw bytes."""

from __future__ import annotations

import runpy
import textwrap
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.reference.elementwise import unary

N = 1024  # 8 repeats of 128


LN = """
from tbe import tik
tik_instance = tik.Tik()
x_gm = tik_instance.Tensor("float16", ({n},), name="x_gm", scope=tik.scope_gm)
y_gm = tik_instance.Tensor("float16", ({n},), name="y_gm", scope=tik.scope_gm)
x = tik_instance.Tensor("float16", ({n},), name="x", scope=tik.scope_ubuf)
y = tik_instance.Tensor("float16", ({n},), name="y", scope=tik.scope_ubuf)
work = tik_instance.Tensor("{wt}", ({work},), name="work", scope=tik.scope_ubuf)
tik_instance.data_move(x, x_gm, 0, 1, {n} * 2 // 32, 0, 0)
tik_instance.vec_ln_high_preci({mask}, y, x, work[0:], {rep}, 8, 8)
tik_instance.data_move(y_gm, y, 0, 1, {n} * 2 // 32, 0, 0)
tik_instance.BuildCCE(kernel_name="ln_precise", inputs=[x_gm], outputs=[y_gm])
"""


def build(tmp_path: Path, **kw):
    args = dict(n=N, wt="float16", work=10 * N, mask=128, rep=N // 128) | kw
    path = tmp_path / "op.py"
    path.write_text(textwrap.dedent(LN.format(**args)))
    return runpy.run_path(str(path))["tik_instance"]


def want(x: np.ndarray) -> bytes:
    return b"".join(unary("vln", "f16", v.tobytes()) for v in x)


SPECIALS = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -1.0, 1.0, 2.0, 65504.0, 6e-8, 6.1e-5,
                     0.5, 0.9995, 1.001, -6e-8], dtype=np.float16)


def run(tik_instance, x: np.ndarray) -> np.ndarray:
    [y] = tik_instance.tikdb.start_debug({"x_gm": x}, interactive=False)
    return y


def test_directed_specials_and_a_sweep_of_every_positive_exponent(tik_importable, tmp_path):
    tik_instance = build(tmp_path)
    bits = np.random.default_rng(29).integers(0, 1 << 16, N, dtype=np.uint16)
    x = bits.view(np.float16).copy()
    x[:len(SPECIALS)] = SPECIALS
    x.view(np.uint16)[len(SPECIALS):len(SPECIALS) + 31] = np.arange(31, dtype=np.uint16) << 10
    assert run(tik_instance, x).tobytes() == want(x)


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.binary(min_size=2 * N, max_size=2 * N))
def test_random_bit_patterns_are_correctly_rounded(tik_importable, tmp_path, raw):
    tik_instance = build(tmp_path)
    x = np.frombuffer(raw, np.float16).copy()
    assert run(tik_instance, x).tobytes() == want(x)


def test_a_work_tensor_smaller_than_the_pages_formula_is_an_error(tik_importable, tmp_path):
    from isa.diagnostics import DiagnosticError
    # mask [3, 2**64-1] over 2 repeats: mask_len 66, extent 194, unit 208, the pages' 2080
    with pytest.raises(DiagnosticError) as e:
        build(tmp_path, work=2079, mask="[3, 2**64 - 1]", rep=2)
    assert "has 2079 float16 elements" in str(e.value) and "asks 2080" in str(e.value)
    assert ":10:" in str(e.value)
    build(tmp_path, work=2080, mask="[3, 2**64 - 1]", rep=2)


def test_a_float32_work_tensor_or_source_is_an_error(tik_importable, tmp_path):
    from isa.diagnostics import DiagnosticError
    with pytest.raises(DiagnosticError) as e:
        build(tmp_path, wt="float32")
    assert "work_tensor must be a float16 Tensor" in str(e.value)
