"""#27 (h27c): the AscendC face of ascend950's flexible-scalar Adds / Muls / Maxs / Mins / Subs,
run as a user runs it, bit-exact against the reference model's element rule."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from tests.reference.model import arith

DATA = Path(__file__).resolve().parents[1] / "data" / "elementwise"
N = 256


def ref(hw: str, t: str, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.frombuffer(b"".join(arith(hw, t, u.tobytes(), v.tobytes())
                                  for u, v in zip(x, y, strict=True)), x.dtype)


def test_flex_arith_950_kernel(pipev, tmp_path):
    proc = pipev("run", "--chip", "ascend950", DATA / "flex_arith_950.cpp", timeout=300)
    assert proc.returncode == 0, proc.stderr
    a = np.fromfile(tmp_path / "flex_arith_950_in_a.bin", np.int16)
    h = np.fromfile(tmp_path / "flex_arith_950_in_h.bin", np.float16)
    out = np.fromfile(tmp_path / "flex_arith_950_out.bin", np.uint8)
    z, q = out[:8 * N].view(np.int16), out[8 * N:].view(np.float16)

    def full(v, dt):
        return np.full(N, v, dt)
    want = {
        "Adds(dst, 1.5, src)": (q[:N], ref("vadd", "f16", full(1.5, np.float16), h)),
        "Subs(dst, 1.0, src) high-dimensional": (q[N:2 * N], ref("vsub", "f16",
                                                                 full(1, np.float16), h)),
        "Muls<…, {0}>(dst, src[5], src)": (q[2 * N:3 * N], ref("vmul", "f16",
                                                              full(h[5], np.float16), h)),
        "Adds(dst, src, 2.0)": (q[3 * N:], ref("vadd", "f16", h, full(2, np.float16))),
        "Maxs(dst, -7, src)": (z[:N], ref("vmax", "s16", full(-7, np.int16), a)),
        "Mins(dst, src, src[3])": (z[N:2 * N], ref("vmin", "s16", a, full(a[3], np.int16))),
        "Subs(dst, src, src[7])": (z[2 * N:3 * N], ref("vsub", "s16", a, full(a[7], np.int16))),
        "Muls(dst, src, 3)": (z[3 * N:], ref("vmul", "s16", a, full(3, np.int16))),
    }
    for what, (got, exp) in want.items():
        assert got.tobytes() == exp.tobytes(), what


def test_shift_tensor_950_kernel(pipev, tmp_path):
    from tests.reference.shift_tensor import shift
    proc = pipev("run", "--chip", "ascend950", DATA / "shift_tensor_950.cpp", timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "negative shift counts" in proc.stderr  # the counts -3 … -1: warned, with the count
    a = np.fromfile(tmp_path / "shift_tensor_950_in_a.bin", np.int16)
    c = np.fromfile(tmp_path / "shift_tensor_950_in_h.bin", np.int16)
    z = np.fromfile(tmp_path / "shift_tensor_950_out.bin", np.int16)

    def ref(name, t, x, counts):
        return b"".join(shift(name, t, u.tobytes(), v.tobytes()) for u, v in zip(x, counts,
                                                                                 strict=True))
    assert z[:N].tobytes() == ref("shift_left", "s16", a, c), "ShiftLeft(int16_t, int16_t)"
    assert z[N:2 * N].tobytes() == ref("shift_right", "s16", a, c), "ShiftRight(int16_t)"
    assert z[2 * N:3 * N].tobytes() == ref("shift_right", "u16", a.view(np.uint16), c), \
        "ShiftRight(uint16_t, int16_t counts)"
    assert z[3 * N:].tobytes() == ref("shift_left", "s16", a, np.full(N, 3, np.int16)), \
        "ShiftLeft(int16_t, scalar 3)"
