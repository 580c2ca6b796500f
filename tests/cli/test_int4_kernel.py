"""int4b_t (#27) in kernel-only mode: programs/ascendc/quant_int4.cpp launched with pipev's own GM
buffers, the int4 output declared `out:s4[N]` (N elements, N / 2 bytes) and written as one int8
value an element; checked against numpy, with ties, saturation and signed zeros in the data."""

from __future__ import annotations

from pathlib import Path

import numpy as np

KERNEL = Path(__file__).resolve().parents[2] / "programs" / "ascendc" / "quant_int4.cpp"
N = 1024


def test_kernel_only_int4_output_is_one_value_an_element(pipev, tmp_path):
    x = (np.arange(N) % 96 / 4 - 12).astype(np.float16)  # quarter steps in [-12, 12): ties
    x[:4] = [-0.0, 0.25, -0.25, 65504.0]
    np.save(tmp_path / "x.npy", x)
    proc = pipev("run", KERNEL, "--kernel", "quant_int4", "--arg", f"x={tmp_path / 'x.npy'}",
                 "--arg", f"q=out:s4[{N}]", "--arg", f"y=out:f16[{N}]", "--output-dir",
                 tmp_path / "out", "--quiet")
    assert proc.returncode == 0, proc.stderr
    q, y = np.load(tmp_path / "out" / "q.npy"), np.load(tmp_path / "out" / "y.npy")
    want = np.clip(np.round(x.astype(np.float64) * 2), -8, 7).astype(np.int8)  # rint
    assert q.dtype == np.int8 and q.shape == (N,)
    assert q.tolist() == want.tolist()
    assert y.tobytes() == (want * 0.5).astype(np.float16).tobytes()  # +0, never -0
