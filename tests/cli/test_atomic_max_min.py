"""#27 GM atomics beyond SetAtomicAdd: an AscendC kernel on 4 blocks combines each block's row
into one shared GM row with SetAtomicMax<half> and SetAtomicMin<int16_t> (then SetAtomicNone);
the shared rows must be the element-wise max / min of the initial row and every block's row, and
the cross-core race check must stay quiet (atomic combination is not a race)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parents[1] / "data" / "elementwise"


def test_set_atomic_max_and_min_on_four_blocks(pipev, tmp_path):
    proc = pipev("run", DATA / "atomic_max_min.cpp", timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "4 cores" in proc.stdout + proc.stderr
    assert "warning" not in proc.stdout + proc.stderr

    def read(name: str, dt) -> np.ndarray:
        return np.fromfile(tmp_path / f"atomic_max_min_{name}.bin", dt)
    x, y = read("in_x", np.float16).reshape(4, 128), read("in_y", np.int16).reshape(4, 128)
    h0, m0 = read("in_hmax", np.float16), read("in_hmin", np.int16)
    h, m = read("out_hmax", np.float16), read("out_hmin", np.int16)
    assert (h != h0).any() and (m != m0).any()  # the blocks' rows reached GM
    assert h.tobytes() == np.maximum(h0, x.max(axis=0)).tobytes(), "SetAtomicMax<half>"
    assert m.tobytes() == np.minimum(m0, y.min(axis=0)).tobytes(), "SetAtomicMin<int16_t>"
