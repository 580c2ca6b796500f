"""A LocalTensor's operator() as a reference to the element, TPipe::Init and a pipe's UB freed by
Destroy (third-party kernels: `outRow(d) += p * vRow(d)`, `outRow(i) *= invDen`, `pipe.Init()`, a
TPipe made in a row function). pipev's own kernels
(tests/data/ascendc/kernels/local_ref.cpp) in kernel-only mode, every byte of the result against
numpy's arithmetic in the element's type."""

from __future__ import annotations

from pathlib import Path

import numpy as np

KERNEL = Path(__file__).resolve().parents[1] / "data" / "ascendc" / "kernels" / "local_ref.cpp"
F32 = np.float32


def _run(pipev, tmp_path: Path, kernel: str, x: np.ndarray, name: str) -> np.ndarray:
    np.save(tmp_path / "x.npy", x)
    out = tmp_path / "out"
    proc = pipev("run", KERNEL, "--kernel", kernel, "--arg", f"x={tmp_path / 'x.npy'}",
                 "--arg", f"y=out:{name}[32]", "--output-dir", out, "--quiet")
    assert proc.returncode == 0, proc.stderr
    return np.load(out / "y.npy")


def test_compound_assignments_of_float_elements(pipev, tmp_path):
    x = (np.arange(32, dtype=F32) * F32(1.25) + F32(0.5)).astype(F32)
    want = x.copy()
    want[0] += F32(1.5)
    want[1] -= F32(2)
    want[2] *= F32(3)
    want[3] *= F32(0.25)
    want[4] /= F32(3)
    want[5] = want[6]  # an element assigned from another: the value, not the proxy
    want[7] += F32(1)
    want[8] += F32(1)
    want[9] -= F32(1)
    want[10] -= F32(1)
    old = want[11]
    want[11] += F32(1)
    want[12] = old  # the postfix increment's value is the old one
    for d in range(8):
        want[16 + d] += want[d] * F32(2)
    got = _run(pipev, tmp_path, "local_ref_f32", x, "f32")
    assert got.tobytes() == want.tobytes(), (got, want)


def test_compound_assignments_of_integer_elements(pipev, tmp_path):
    x = np.arange(32, dtype=np.int32) * 37 + 11
    want = x.copy()
    want[0] %= 5
    want[1] &= 0xF0
    want[2] |= 0x0F
    want[3] ^= 0xFF
    want[4] <<= 3
    want[5] >>= 2
    want[6] += 7
    want[7] = want[8]
    want[9] += 1
    want[10] -= 1
    got = _run(pipev, tmp_path, "local_ref_s32", x, "s32")
    assert got.tobytes() == want.tobytes(), (got, want)


def test_a_pipe_init_after_destroy_and_on_a_new_pipe(pipev, tmp_path):
    x = np.arange(32, dtype=F32) * F32(1.25) + F32(0.5)
    got = _run(pipev, tmp_path, "pipe_init_again", x, "f32")
    assert got.tobytes() == (x * F32(2) + F32(1)).astype(F32).tobytes(), got


def test_a_pipe_a_row_reuses_the_destroyed_pipes_ub(pipev, tmp_path):
    # 4 pipes of 100 KB one after another in 192 KB of UB: each starts where the last one did
    got = _run(pipev, tmp_path, "pipe_a_row", np.zeros(32, F32), "f32")
    assert got.tobytes() == np.repeat(np.arange(4, dtype=F32) + F32(0.5), 8).tobytes(), got


def test_two_live_pipes_do_not_share_ub(pipev, tmp_path):
    np.save(tmp_path / "x.npy", np.zeros(32, F32))
    proc = pipev("run", KERNEL, "--kernel", "two_live_pipes", "--arg", f"x={tmp_path / 'x.npy'}",
                 "--arg", "y=out:f32[32]", "--output-dir", tmp_path / "out")
    line = next(n for n, s in enumerate(KERNEL.read_text().splitlines(), 1)
                if "// beyond UB" in s)
    assert proc.returncode == 1
    assert f"local_ref.cpp:{line}:" in proc.stderr and "goes beyond UB" in proc.stderr, proc.stderr
