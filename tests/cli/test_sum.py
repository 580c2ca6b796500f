"""Sum (pipev/sum.h; a third-party top-k kernel sums a row in place: `AscendC::Sum(calcRet,
calcRet, params)`): pipev's own kernel (tests/data/ascendc/kernels/sum.cpp) in kernel-only mode,
every byte of the sums against tests/reference/sum.py (pipev's documented order from the
instructions' documented results) and numpy's sums to float rounding; the error at the call."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.reference import sum as ref

KERNEL = Path(__file__).resolve().parents[1] / "data" / "ascendc" / "kernels" / "sum.cpp"
F32, F16 = np.float32, np.float16
NAMES = {F32: "f32", F16: "f16"}


@pytest.mark.parametrize(("t", "outter", "inner", "n", "tmp", "in_place"), [
    (F32, 1, 200, 200, 0, True),      # one row in place, as the third-party kernel
    (F32, 7, 2024, 2023, 4096, False),  # the vendor sample's shape: 2023 of 2024
    (F32, 20, 40, 33, 0, False),       # groups of 8 rows, a partial last group
    (F32, 9, 8, 3, 0, False),          # n within one block
    (F32, 3, 2048 + 8, 2050, 0, False),  # a row stride past 255 blocks: a row at a time
    (F16, 5, 48, 37, 0, False),        # half summed in float
    (F16, 18, 256, 256, 8256, True),
])
def test_sum(pipev, tmp_path, t, outter, inner, n, tmp, in_place):
    rng = np.random.default_rng(outter * inner + n)
    x = (rng.standard_normal((outter, inner)) * 3).astype(t)
    x[:, n:] = 1000  # padding: left out of the sums
    np.save(tmp_path / "x.npy", x.reshape(-1))
    np.save(tmp_path / "p.npy", np.array([outter, inner, n, tmp, in_place], np.uint32))
    per = 32 // np.dtype(t).itemsize
    out_len = -(-outter // per) * per
    out = tmp_path / "out"
    proc = pipev("run", KERNEL, "--kernel", f"sum_{NAMES[t]}", "--arg", f"x={tmp_path / 'x.npy'}",
                 "--arg", f"y=out:{NAMES[t]}[{out_len}]", "--arg", f"p={tmp_path / 'p.npy'}",
                 "--output-dir", out, "--quiet")
    assert proc.returncode == 0, proc.stderr
    got = np.load(out / "y.npy")[:outter]
    want = ref.sum_rows(x, n)
    assert got.tobytes() == want.tobytes(), (got, want)
    exact = x[:, :n].astype(np.float64).sum(1)
    assert np.allclose(got, exact, rtol=1e-5 if t == F32 else 2e-3, atol=1e-4 if t == F32 else 0.05)


def test_inner_not_whole_blocks_is_an_error_at_the_call(pipev, tmp_path):
    proc = pipev("run", KERNEL, "--kernel", "sum_unaligned", "--arg", "x=out:f32[8]",
                 "--arg", "y=out:f32[8]", "--output-dir", tmp_path / "out")
    line = next(i for i, s in enumerate(KERNEL.read_text().splitlines(), 1) if "// inner 12" in s)
    assert proc.returncode == 1
    assert f"sum.cpp:{line}:" in proc.stderr, proc.stderr
    assert "SumParams inner 12 is not a whole number of 32-byte blocks" in proc.stderr
    assert "Traceback" not in proc.stderr
