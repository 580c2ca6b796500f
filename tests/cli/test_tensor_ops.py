"""The whole-tensor operators (pipev/tensor_ops.h; the Add, Sub, Mul, Div, And, Or and Compare
pages' `dst = src0 OP src1;`): pipev's own kernel (tests/data/ascendc/kernels/tensor_ops.cpp)
against numpy byte for byte — every element of the destination (Compare: its bits, LSB first),
specials among the floats, the in-place `a = a * b` — and the errors at the expression's line: a
source shorter than the destination, and the Atlas 200I/500 A2, whose pages leave the operators
out."""

from __future__ import annotations

from pathlib import Path

import numpy as np

KERNEL = Path(__file__).resolve().parents[1] / "data" / "ascendc" / "kernels" / "tensor_ops.cpp"
N = 256
OUTS = {"sum": "f32", "diff": "f32", "prod": "f32", "quot": "f32", "both": "s16",
        "either": "s16", "bits": "u8"}


def _run(pipev, tmp_path: Path, short: int = 0, chip: str = "ascend910b"):
    rng = np.random.default_rng(21)
    x = rng.standard_normal(N).astype(np.float32)
    y = rng.standard_normal(N).astype(np.float32)
    x[:6] = [np.nan, -0.0, np.inf, 1.5, 3.0e38, 2.0]
    y[:6] = [1.0, 0.0, np.inf, 1.5, 10.0, -0.0]
    y[40:48] = x[40:48]  # equal pairs
    p = rng.integers(-2**15, 2**15, N).astype(np.int16)
    q = rng.integers(-2**15, 2**15, N).astype(np.int16)
    args = []
    for name, value in {"x": x, "y": y, "p": p, "q": q,
                        "shortY": np.array([short], np.uint32)}.items():
        np.save(tmp_path / f"{name}.npy", value)
        args += ["--arg", f"{name}={tmp_path / name}.npy"]
    for name, t in OUTS.items():
        args += ["--arg", f"{name}=out:{t}[{6 * N // 8 if name == 'bits' else N}]"]
    proc = pipev("run", KERNEL, "--kernel", "tensor_ops", "--chip", chip, *args,
                 "--output-dir", tmp_path / "out", "--quiet")
    return proc, (x, y, p, q)


def test_each_operator_is_its_count_form_over_the_whole_destination(pipev, tmp_path):
    proc, (x, y, p, q) = _run(pipev, tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = {name: np.load(tmp_path / "out" / f"{name}.npy") for name in OUTS}
    with np.errstate(all="ignore"):
        want = {"sum": x + y, "diff": x - y, "prod": x * y, "quot": x / y, "both": p & q,
                "either": p | q}
        compares = [x < y, x > y, x == y, x <= y, x >= y, x != y]  # CMPMODE's order
    for name, value in want.items():
        assert out[name].tobytes() == value.tobytes(), name
    assert out["bits"].tobytes() == b"".join(
        np.packbits(c, bitorder="little").tobytes() for c in compares)


def test_a_source_shorter_than_the_destination_is_an_error_at_the_expression(pipev, tmp_path):
    proc, _ = _run(pipev, tmp_path, short=1)
    assert proc.returncode == 1
    line = KERNEL.read_text().splitlines().index("    c = a + b;") + 1
    assert (f"tensor_ops.cpp:{line}:" in proc.stderr and "`dst = src0 + src1` computes 256 "
            "elements (the whole destination), but src1 holds 64" in proc.stderr), proc.stderr
    assert "Traceback" not in proc.stderr


def test_the_atlas_200i_500_a2_has_no_whole_tensor_operators(pipev, tmp_path):
    proc, _ = _run(pipev, tmp_path, chip="ascend310b")
    assert proc.returncode == 1
    line = KERNEL.read_text().splitlines().index("    c = a + b;") + 1
    assert f"tensor_ops.cpp:{line}:" in proc.stderr, proc.stderr
    assert "the whole-tensor operators are not on the Atlas 200I/500 A2" in proc.stderr
