"""SoftMax and SimpleSoftMax (pipev/softmax.h): pipev's own kernels
(tests/data/ascendc/kernels/softmax.cpp) in kernel-only mode, every byte of dst, max and sum
against tests/reference/softmax.py — float, half, half with float max/sum; padding columns
(oriSrcK < srcK); a one-row unaligned srcK; -inf entries and rows of one value; passes over
the rows from a small sharedTmpBuffer and from the framework's space; the form without max and
sum with its shape from SoftMaxTilingFunc — and the errors at the call; the host helpers."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.reference import softmax as ref

KERNEL = Path(__file__).resolve().parents[1] / "data" / "ascendc" / "kernels" / "softmax.cpp"
F32, F16 = np.float32, np.float16
NAMES = {F32: "f32", F16: "f16"}


def _scalar(tmp_path: Path, name: str, value: int) -> str:
    np.save(tmp_path / f"{name}.npy", np.array([value], np.uint32))
    return f"{name}={tmp_path / name}.npy"


def _run(pipev, tmp_path: Path, kernel: str, x: np.ndarray, u, scalars: dict,
         stats: tuple[np.ndarray, np.ndarray] | None = None):
    """Run KERNEL on X (m, k); returns (dst, max, sum) as the kernel wrote them."""
    m, k = x.shape
    t = x.dtype.type
    per = 32 // x.itemsize
    n = -(-m * k // per) * per
    flat = np.zeros(n, t)
    flat[:m * k] = x.reshape(-1)
    np.save(tmp_path / "x.npy", flat)
    block = 32 // np.dtype(u).itemsize
    args = ["--arg", f"x={tmp_path / 'x.npy'}", "--arg", f"y=out:{NAMES[t]}[{n}]"]
    for name, data in zip(("mx", "sm"), stats or (None, None), strict=True):
        if data is None:
            args += ["--arg", f"{name}=out:{NAMES[u]}[{m * block}]"]
        else:
            np.save(tmp_path / f"{name}.npy", data.reshape(-1))
            args += ["--arg", f"{name}={tmp_path / name}.npy"]
    for name, value in scalars.items():
        args += ["--arg", _scalar(tmp_path, name, value)]
    out = tmp_path / "out"
    proc = pipev("run", KERNEL, "--kernel", kernel, *args, "--output-dir", out, "--quiet")
    assert proc.returncode == 0, proc.stderr
    y = np.load(out / "y.npy")[:m * k].reshape(m, k)
    if stats is not None:
        return y, None, None
    return (y, np.load(out / "mx.npy").reshape(m, block),
            np.load(out / "sm.npy").reshape(m, block))


def _directed(m: int, k: int, t, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal((m, k)) * 4).astype(t)
    x[0, ::3] = -np.inf  # masked entries: exp gives 0
    x[1 % m, :] = 2.5  # one value: every column 1/k
    x[-1, 5] = 60  # a large value dominates its row
    x[-1, 6] = -0.0
    return x


def _same(got: np.ndarray, want: np.ndarray, what: str) -> None:
    assert got.tobytes() == want.tobytes(), (what, got, want)


@pytest.mark.parametrize(("kernel", "t", "u", "m", "k", "ori", "tmp"), [
    ("softmax_f32", F32, F32, 9, 200, 190, 0),      # padding columns; the framework's space
    ("softmax_f32", F32, F32, 12, 200, 200, 4096),  # passes of a few rows
    ("softmax_f32", F32, F32, 20, 40, 33, 0),       # a row within one repeat
    ("softmax_f32", F32, F32, 1, 100, 100, 0),      # one row, srcK not 32-byte aligned
    ("softmax_f16", F16, F16, 7, 160, 150, 0),
    ("softmax_f16", F16, F16, 9, 96, 96, 6144),
    ("softmax_f16_f32", F16, F32, 10, 128, 120, 0),
])
def test_softmax_is_the_documented_sequence_byte_for_byte(pipev, tmp_path, kernel, t, u, m, k,
                                                          ori, tmp):
    x = _directed(m, k, t, m * k)
    y, mx, sm = _run(pipev, tmp_path, kernel, x, u, {"m": m, "k": k, "ori": ori, "tmp": tmp})
    want_y, want_max, want_sum = ref.softmax(x, ori, u)
    _same(mx, want_max, "max")
    _same(sm, want_sum, "sum")
    _same(y, want_y, "dst")


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(m=st.integers(1, 24), blocks=st.integers(1, 40), cut=st.integers(0, 7),
       half=st.booleans(), seed=st.integers(0, 2**16), small_tmp=st.booleans())
def test_softmax_on_random_shapes(pipev, tmp_path, m, blocks, cut, half, seed, small_tmp):
    t = F16 if half else F32
    k = blocks * (32 // np.dtype(t).itemsize)
    m = min(m, 8192 // k)  # the kernel's buffers: 8,192 elements
    ori = max(1, k - cut)
    x = (np.random.default_rng(seed).standard_normal((m, k)) * 3).astype(t)
    kernel = "softmax_f16" if half else "softmax_f32"
    tmp = 2048 + k * 4 if small_tmp else 0  # one pass a row, or as many as fit
    y, mx, sm = _run(pipev, tmp_path, kernel, x, t, {"m": m, "k": k, "ori": ori, "tmp": tmp})
    want_y, want_max, want_sum = ref.softmax(x, ori)
    _same(mx, want_max, "max")
    _same(sm, want_sum, "sum")
    _same(y, want_y, "dst")


@pytest.mark.parametrize(("kernel", "t", "tmp"), [("simple_f32", F32, 0),
                                                  ("simple_f16", F16, 4096)])
def test_simple_softmax_uses_the_given_max_and_sum(pipev, tmp_path, kernel, t, tmp):
    m, k = 6, 128
    x = _directed(m, k, t, 7)
    _, mx, sm = ref.softmax(x, k)
    sm = (sm.astype(F32) * F32(1.5)).astype(t)  # not SoftMax's own: the given ones are read
    y, _, _ = _run(pipev, tmp_path, kernel, x, t, {"m": m, "k": k, "tmp": tmp}, (mx, sm))
    _same(y, ref.simple_softmax(x, mx, sm), "dst")


def test_softmax_in_place_without_max_and_sum_takes_the_tilings_shape(pipev, tmp_path):
    x = _directed(5, 64, F32, 3)
    y, _, _ = _run(pipev, tmp_path, "in_place_f32", x, F32, {"m": 5, "k": 64},
                   (np.zeros((5, 8), F32), np.zeros((5, 8), F32)))
    _same(y, ref.softmax(x, 64)[0], "dst")


CALL = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR out) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, mb, sb, tb;
    pipe.InitBuffer(xb, 4096); pipe.InitBuffer(mb, 512); pipe.InitBuffer(sb, 512);
    pipe.InitBuffer(tb, 1024);
    auto x = xb.Get<float>(); auto mx = mb.Get<float>(); auto sm = sb.Get<float>();
    Duplicate(x, 1.0f, 1024);
    SoftMaxTiling tiling;
    %s
}
"""


@pytest.mark.parametrize(("call", "message"), [
    ("SoftMax<float>(x, sm, mx, x, tiling, {4, 100, 4, 100});",
     "SoftMax: srcK = 100 elements is 400 bytes a row, not a multiple of 32"),
    ("SoftMax<float, false, true>(x, sm, mx, x, tiling, {4, 64, 4, 64});",
     "SoftMax with isBasicBlock: the page asks srcK a multiple of 64 in [64, 2048) and srcM a "
     "multiple of 8, and the shape is 4 x 64"),
    ("SoftMax<float, false, false, true>(x, sm, mx, x, tiling, {8, 64, 8, 64});",
     "SoftMax: the NZ format (isDataFormatNZ) is not modelled"),
    ("SoftMax<float>(x, sm, mx, x, tiling);",
     "SoftMax: the shape is 0 x 0: give SoftMaxShapeInfo"),
    ("SoftMax<float>(x, sm, mx, x, tb.Get<uint8_t>(), tiling, {8, 256, 8, 256});",
     "SoftMax: sharedTmpBuffer holds 1024 bytes, the call needs 1600"),
])
def test_softmax_errors_at_the_call(pipev, tmp_path, call, message):
    src = tmp_path / "k.cpp"
    src.write_text(CALL % call)
    proc = pipev("run", src, "--kernel", "k", "--arg", "out=out:u8[32]", "--quiet", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert f"k.cpp:11:5: error: {message}" in proc.stderr, proc.stderr


HOST = """// pipev's own host program: the SoftMax tiling helpers on a [300, 200] float shape
#include <cstdio>
#include "tiling/tiling_api.h"
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(OpTiling)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, softmaxTilingData);
END_TILING_DATA_DEF;
}
int main() {
    ge::Shape shape({300, 200});
    uint32_t mn = AscendC::GetSoftMaxMinTmpSize(shape, sizeof(float), false);
    uint32_t mx = AscendC::GetSoftMaxMaxTmpSize(shape, sizeof(float), false);
    optiling::OpTiling tiling;
    AscendC::SoftMaxTilingFunc(shape, sizeof(float), 16 * mn, tiling.softmaxTilingData);
    const SoftMaxTiling& t = tiling.softmaxTilingData;
    SoftMaxTiling basic;
    optiling::SoftMaxTilingFunc(ge::Shape({64, 64}), sizeof(float), mx, basic);
    std::printf("min %u max %u split %u range %u tail %u basic %d %d %d\\n", mn, mx, t.splitM,
                t.rangeM, t.tailM, AscendC::IsBasicBlockInSoftMax(t, 4),
                AscendC::IsBasicBlockInSoftMax(basic, 4), AscendC::IsBasicBlockInSoftMax(basic, 2));
    return 0;
}
"""


def test_the_host_helpers_size_pipevs_passes(pipev, tmp_path):
    (tmp_path / "host.cpp").write_text(HOST)
    proc = pipev("run", tmp_path / "host.cpp", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # one row: 800 bytes of float copy, 256 of accumulator, 32 + 32 of values (its group of
    # 8, as float and half), 5 blocks for each of the 8; at most 255 rows (311,776 bytes); 16
    # times the minimum holds 31 rows a pass (32 would need 39,104 bytes)
    assert "min 2400 max 311776 split 31 range 9 tail 21 basic 0 1 0" in proc.stdout, \
        proc.stdout


def test_a_body_for_vector_cores_only_runs(pipev, tmp_path):
    src = tmp_path / "k.cpp"
    src.write_text('#include "kernel_operator.h"\n'
                   'extern "C" __global__ __aicore__ void k(GM_ADDR out) {\n'
                   '    if ASCEND_IS_AIC {\n'
                   '        return;\n'
                   '    }\n'
                   '    if ASCEND_IS_AIV {\n'
                   '        AscendC::GlobalTensor<uint8_t> g;\n'
                   '        g.SetGlobalBuffer((__gm__ uint8_t*)out, 32);\n'
                   '        g.SetValue(0, 7);\n'
                   '    }\n'
                   '}\n')
    proc = pipev("run", src, "--kernel", "k", "--arg", "out=out:u8[32]", "--output-dir",
                 tmp_path / "o", "--quiet", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert np.load(tmp_path / "o" / "out.npy")[0] == 7
