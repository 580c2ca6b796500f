"""Issue 34: Reg::ShiftLefts / ShiftRights (a scalar int16_t count) on pipev's own reg-based
kernel, bit-exact against tests/reference/regvec.py for a signed 8-bit, an unsigned 16-bit and
a signed 32-bit type, counts inside and past the width; elements the mask leaves off are 0."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.reference import regvec as ref

KERNEL = Path(__file__).resolve().parents[1] / "data" / "ascendc" / "reg" / "reg_shifts.asc"
N = 512


@pytest.mark.parametrize(("name", "dtype", "count"), [
    ("shifts_s8", np.int8, 3), ("shifts_s8", np.int8, 9), ("shifts_u16", np.uint16, 5),
    ("shifts_u16", np.uint16, 16), ("shifts_s32", np.int32, 31), ("shifts_s32", np.int32, 0),
])
def test_shift_by_a_scalar_matches_the_pages(pipev, tmp_path, name, dtype, count):
    info = np.iinfo(dtype)
    x = np.random.default_rng(count).integers(info.min, info.max, N, endpoint=True,
                                              dtype=dtype)
    x[:4] = [info.min, info.max, 0, -1 if info.min < 0 else 1]
    np.save(tmp_path / "x.npy", x)
    t = {np.int8: "s8", np.uint16: "u16", np.int32: "s32"}[dtype]
    proc = pipev("run", KERNEL, "--chip", "ascend950", "-D", f"SHIFT_COUNT={count}",
                 "--kernel", name, "--arg", f"x={tmp_path / 'x.npy'}",
                 "--arg", f"y=out:{t}[{2 * N}]", "--output-dir", tmp_path / "out", "--quiet",
                 timeout=300)
    assert proc.returncode == 0, proc.stderr
    y = np.load(tmp_path / "out" / "y.npy")
    n = N - 3  # the mask's elements; the rest are zeroed
    for half, left in ((y[:N], True), (y[N:], False)):
        want = ref.shift_scalar(x, count, left)
        want[n:] = 0
        assert half.tobytes() == want.tobytes(), (left, count)
