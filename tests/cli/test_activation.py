"""Sigmoid, Tanh, Silu, Gelu, FasterGeluV2 and Log (pipev/activation.h; third-party kernels
call them with a TBuf's sharedTmpBuffer: `AscendC::Sigmoid<float>(attn, attn, sigTmp, len)`,
`AscendC::Tanh(y, y, tmp, count)`, `AscendC::Silu(out, z, len)`, `AscendC::FasterGeluV2<float,
false, true>(tile, tile, tmp, n)`). pipev's own kernels (tests/data/ascendc/kernels/
activation.cpp) in kernel-only mode; every byte of the result against tests/reference/
activation.py (pipev's documented sequence from the instructions' documented results), and
against the functions themselves to float rounding; the errors at the call."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.reference import activation as ref

KERNEL = Path(__file__).resolve().parents[1] / "data" / "ascendc" / "kernels" / "activation.cpp"
F32, F16 = np.float32, np.float16
NAMES = {F32: "f32", F16: "f16"}
SIGMOID, TANH, SILU, GELU, FASTER_GELU_V2, LOG = 0, 1, 2, 3, 4, 5


def _x(n: int, t, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(n) * 4).astype(t)
    special = [0.0, -0.0, 1e-4, -1e-4, 10.0, -10.0, 30.0, -30.0, 100.0, -100.0, np.inf, -np.inf]
    x[:len(special)] = special
    return x


def _run(pipev, tmp_path: Path, t, api: int, x: np.ndarray, tmp_bytes: int,
         in_place: bool = False, whole: bool = False) -> np.ndarray:
    n = len(x)
    size = -(-n // 64) * 64
    padded = np.zeros(size, t)
    padded[:n] = x
    np.save(tmp_path / "x.npy", padded)
    np.save(tmp_path / "p.npy", np.array([api, n, tmp_bytes, in_place, whole], np.uint32))
    out = tmp_path / "out"
    proc = pipev("run", KERNEL, "--kernel", f"act_{NAMES[t]}", "--arg", f"x={tmp_path / 'x.npy'}",
                 "--arg", f"y=out:{NAMES[t]}[{size}]", "--arg", f"p={tmp_path / 'p.npy'}",
                 "--output-dir", out, "--quiet")
    assert proc.returncode == 0, proc.stderr
    return np.load(out / "y.npy")[:n]


def _same(got: np.ndarray, want: np.ndarray) -> None:
    assert got.tobytes() == want.tobytes(), (got, want, np.nonzero(got != want))


@pytest.mark.parametrize(("t", "n", "tmp", "in_place", "whole"), [
    (F32, 200, 256, False, False),     # passes of 64 elements (the smallest space)
    (F32, 200, 200 * 2, True, False),  # half a tile's bytes, as a third-party kernel gives it
    (F32, 192, 0, False, True),        # the framework's space, the whole tensor
    (F16, 200, 512, False, False),     # a half source through float: 8 bytes an element
    (F16, 128, 4096, True, True),
])
def test_sigmoid(pipev, tmp_path, t, n, tmp, in_place, whole):
    x = _x(n, t, n + tmp)
    got = _run(pipev, tmp_path, t, SIGMOID, x, tmp, in_place, whole)
    _same(got, ref.sigmoid(x))
    with np.errstate(over="ignore"):
        want = 1 / (1 + np.exp(-x.astype(np.float64)))
    # e^100 overflows float: sigmoid(-100) (3.7e-44) comes out 0
    assert np.allclose(got, want, rtol=1e-6 if t == F32 else 1e-3, atol=1e-37 if t == F32 else 1e-7)


@pytest.mark.parametrize(("t", "n", "tmp", "in_place", "whole"), [
    (F32, 200, 256, True, False),
    (F32, 256, 0, False, True),
    (F32, 1000, 1024, False, False),
    (F16, 200, 1024, False, False),
    (F16, 64, 0, True, False),
])
def test_tanh(pipev, tmp_path, t, n, tmp, in_place, whole):
    x = _x(n, t, 7 * n + tmp)
    got = _run(pipev, tmp_path, t, TANH, x, tmp, in_place, whole)
    _same(got, ref.tanh(x))
    # e^2x - 1 near 0 loses relative precision: an absolute bound there
    assert np.allclose(got, np.tanh(x.astype(np.float64)), rtol=1e-6 if t == F32 else 1e-3,
                       atol=3e-7 if t == F32 else 1e-3)


@pytest.mark.parametrize(("t", "n"), [(F32, 200), (F16, 136)])
def test_silu(pipev, tmp_path, t, n):
    x = _x(n, t, 3 * n)
    x = x[np.isfinite(x) | (x > 0)]  # -inf / inf is NaN in the page's formula
    got = _run(pipev, tmp_path, t, SILU, x, 0)
    _same(got, ref.silu(x))
    if t == F32:
        xd = x.astype(np.float64)
        with np.errstate(over="ignore"):
            assert np.allclose(got, xd / (1 + np.exp(-xd)), rtol=1e-6, atol=1e-30)


def _gelu_tanh(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))


@pytest.mark.parametrize(("t", "n", "tmp", "in_place"), [
    (F32, 200, 256, False),
    (F32, 200, 0, True),
    (F16, 136, 1024, False),
])
def test_gelu(pipev, tmp_path, t, n, tmp, in_place):
    x = _x(n, t, 5 * n + tmp)
    x = x[np.isfinite(x) | (x > 0)]  # -inf: -inf / inf in the formula's sigmoid form
    got = _run(pipev, tmp_path, t, GELU, x, tmp, in_place)
    _same(got, ref.gelu(x))
    with np.errstate(over="ignore", invalid="ignore"):
        want = _gelu_tanh(x.astype(np.float64))
    ok = np.isfinite(want)
    assert np.allclose(got[ok], want[ok], rtol=1e-5 if t == F32 else 2e-3, atol=1e-6)


def _faster_gelu_v2(x: np.ndarray) -> np.ndarray:
    """The sample's formula in float64."""
    sgn = (x + 1e-12) / np.abs(x + 1e-12)
    clip = np.minimum(np.abs(0.7071 * x), 1.769)
    return x * (sgn * (-0.1444 * (clip - 1.769) ** 2 + 0.5) + 0.5)


@pytest.mark.parametrize(("t", "n", "tmp", "in_place", "whole"), [
    (F32, 200, 768, True, True),     # passes of 64 elements: 3 float buffers an element
    (F32, 200, 1000, False, False),
    (F32, 64, 0, False, False),
    (F16, 200, 1024, True, False),   # a half source: a fourth (its float copy)
])
def test_faster_gelu_v2(pipev, tmp_path, t, n, tmp, in_place, whole):
    x = _x(n, t, 9 * n + tmp)
    x = x[np.isfinite(x)]
    got = _run(pipev, tmp_path, t, FASTER_GELU_V2, x, tmp, in_place, whole)
    _same(got, ref.faster_gelu_v2(x))
    assert np.allclose(got, _faster_gelu_v2(x.astype(np.float64)),
                       rtol=1e-5 if t == F32 else 2e-3, atol=1e-6)


@pytest.mark.parametrize(("t", "n", "in_place", "whole"), [
    (F32, 200, True, False),  # in place, as a third-party Softplus calls it
    (F32, 192, False, True),
    (F16, 136, False, False),
])
def test_log(pipev, tmp_path, t, n, in_place, whole):
    x = np.abs(_x(n, t, 11 * n)) + t(1e-3)
    x[:3] = [1, np.inf, 1e-30 if t == F32 else 1e-7]
    got = _run(pipev, tmp_path, t, LOG, x, 0, in_place, whole)
    _same(got, ref.log(x))
    assert np.allclose(got, np.log(x.astype(np.float64)), rtol=1e-6 if t == F32 else 1e-3,
                       atol=1e-7 if t == F32 else 1e-3)


@pytest.mark.parametrize(("kernel", "text"), [
    ("silu_overlap", "Silu: dstLocal (UB 0x20) and srcLocal (UB 0x0) overlap over 64 elements"),
    ("sigmoid_small_tmp", "Sigmoid: sharedTmpBuffer holds 128 bytes, the call needs 256"),
])
def test_errors_at_the_call(pipev, tmp_path, kernel, text):
    proc = pipev("run", KERNEL, "--kernel", kernel, "--arg", "x=out:f32[64]",
                 "--arg", "y=out:f32[64]", "--output-dir", tmp_path / "out")
    assert proc.returncode == 1
    line = next(n for n, s in enumerate(KERNEL.read_text().splitlines(), 1)
                if f"{kernel.split('_')[0].capitalize()}(t" in s)
    assert f"activation.cpp:{line}:" in proc.stderr and text in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr
