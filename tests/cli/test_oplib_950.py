"""Issue 34: what the vendor's operator library puts around an arch35 kernel, on pipev's own
kernel written in that style (tests/data/ascendc/oplib): a common header included before
kernel_operator.h and guarded by __CCE_AICORE__, the Mutex-ordered ping-pong schedule, the
16-byte tiling struct through GET_TILING_DATA_PTR_WITH_STRUCT (`__tiling_data_ptr__`), TilingKey
dispatch, the workspace calls, LocalTensor::SetBufferLen, AscendC::VECTOR_REG_WIDTH, the
`tiling/template_argument.h` and `adv_api/...` header paths, and DataCopyPad of uint8_t on the
950; the names the library mentions but pipev does not model stop a run at the call."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.reference import oplib as ref

OPLIB = Path(__file__).resolve().parents[1] / "data" / "ascendc" / "oplib"
N = 4096


def _data(dtype) -> np.ndarray:
    rng = np.random.default_rng(34)
    x = (rng.integers(-24, 24, N) / 8).astype(dtype)
    x[:8] = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0]
    return x


def _run(pipev, tmp_path, dtype, *extra):
    x = _data(dtype)
    x.tofile(tmp_path / "x.bin")
    dt = "3" if dtype == np.float32 else "1"
    proc = pipev("run", OPLIB / "main.cpp", "--chip", "ascend950", "-I", OPLIB / "op_common",
                 "-I", OPLIB / "op_kernel", "-D", f"DT={dt}", *extra, timeout=600)
    return proc, x


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_an_operator_library_style_kernel_runs_bit_exact_and_race_free(pipev, tmp_path, dtype):
    proc, x = _run(pipev, tmp_path, dtype, "--werror")
    assert proc.returncode == 0, proc.stderr
    assert "__CCE_AICORE__ 310" in proc.stdout
    assert "sign_bits<DT><<<2>>> on ascend950" in proc.stderr
    y = np.fromfile(tmp_path / "y.bin", dtype)
    assert y.tobytes() == ref.sign(x).tobytes()
    bits = np.fromfile(tmp_path / "bits.bin", np.uint8)
    assert bits.tobytes() == ref.nonzero_bits(x).tobytes()


def test_without_the_vector_pipe_s_lock_the_race_is_reported(pipev, tmp_path):
    proc, _ = _run(pipev, tmp_path, np.float32, "-D", "OPLIB_SKIP_V_LOCK")
    assert proc.returncode == 0, proc.stderr
    assert "tile_sch.h" in proc.stderr and "race:" in proc.stderr
    assert "Unlock<V> of mutex 0, which is not locked" in proc.stderr


def test_cce_aicore_follows_the_chip(pipev, tmp_path):
    src = tmp_path / "k.cpp"
    src.write_text('#include <cstdio>\n#include "kernel_operator.h"\n'
                   'int main() { printf("aicore %d\\n", __CCE_AICORE__); return 0; }\n')
    for chip, value in (("ascend910b", 220), ("ascend950", 310)):
        proc = pipev("run", src, "--chip", chip)
        assert proc.returncode == 0, proc.stderr
        assert f"aicore {value}" in proc.stdout


def test_a_named_but_unmodelled_api_stops_at_its_call(pipev, tmp_path):
    src = tmp_path / "k.cpp"
    src.write_text("""#include "kernel_operator.h"
#include "adv_api/math/sin.h"
__global__ __aicore__ void k()
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::Duplicate(t, 1.0f, 256);
    static constexpr AscendC::SinConfig config = {AscendC::SinAlgo::RADIAN_REDUCTION};
    AscendC::Sin<float, false, config>(t, t, 256);
}
int main() { k<<<1, nullptr, nullptr>>>(); return 0; }
""")
    proc = pipev("run", src, "--chip", "ascend950")
    assert proc.returncode == 1
    assert "k.cpp:11:" in proc.stderr and "Sin is not modelled by pipev" in proc.stderr


WIDEN = """#include "kernel_operator.h"
constexpr static AscendC::Reg::CastTrait widen = {AscendC::Reg::RegLayout::ZERO,
    AscendC::Reg::SatMode::UNKNOWN, AscendC::Reg::MaskMergeMode::ZEROING,
    AscendC::RoundMode::UNKNOWN};
__simd_vf__ inline void WidenVF(__ubuf__ float* dst, __ubuf__ half* src)
{
    AscendC::Reg::RegTensor<half> h;
    AscendC::Reg::RegTensor<float> f;
    AscendC::Reg::MaskReg all = AscendC::Reg::CreateMask<float>();
    AscendC::Reg::LoadAlign<half, AscendC::Reg::LoadDist::DIST_UNPACK_B16>(h, src);
    AscendC::Reg::Cast<float, half, widen>(f, h, all);
    AscendC::Reg::StoreAlign(dst, f, all);
}
__global__ __aicore__ void widen_kernel(GM_ADDR x, GM_ADDR y)
{
    AscendC::GlobalTensor<half> xGm;
    AscendC::GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, 64);
    yGm.SetGlobalBuffer((__gm__ float*)y, 64);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<half> a = ub.Alloc<half, 64>();
    AscendC::LocalTensor<float> b = ub.Alloc<float, 64>();
    AscendC::DataCopy(a, xGm, 64);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    asc_vf_call<WidenVF>((__ubuf__ float*)b.GetPhyAddr(), (__ubuf__ half*)a.GetPhyAddr());
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(yGm, b, 64);
}
"""


def test_a_cast_trait_with_round_mode_unknown_widens_half_exactly(pipev, tmp_path):
    """The CastTrait page's defaults (RoundMode::UNKNOWN, SatMode::UNKNOWN): half -> float is
    exact, ±inf and NaN kept (the vendor's nan_to_num compares the widened value with inf)."""
    src = tmp_path / "widen.cpp"
    src.write_text(WIDEN)
    x = _data(np.float16)[:64]
    np.save(tmp_path / "x.npy", x)
    proc = pipev("run", src, "--chip", "ascend950", "--kernel", "widen_kernel",
                 "--arg", f"x={tmp_path / 'x.npy'}", "--arg", "y=out:f32[64]",
                 "--output-dir", tmp_path / "out", "--quiet", timeout=300)
    assert proc.returncode == 0, proc.stderr
    y = np.load(tmp_path / "out" / "y.npy")
    assert y.tobytes() == ref.widen(x).tobytes()


LOG = """#include "kernel_operator.h"
__simd_vf__ inline void LogVF(__ubuf__ float* dst, __ubuf__ float* src)
{
    AscendC::Reg::RegTensor<float> a, b;
    AscendC::Reg::MaskReg all = AscendC::Reg::CreateMask<float>();
    AscendC::Reg::LoadAlign(a, src);
    AscendC::Reg::Log(b, a, all);
    AscendC::Reg::StoreAlign(dst, b, all);
}
__global__ __aicore__ void log_kernel(GM_ADDR x, GM_ADDR y)
{
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 64);
    yGm.SetGlobalBuffer((__gm__ float*)y, 64);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<float> a = ub.Alloc<float, 64>();
    AscendC::LocalTensor<float> b = ub.Alloc<float, 64>();
    AscendC::DataCopy(a, xGm, 64);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    asc_vf_call<LogVF>((__ubuf__ float*)b.GetPhyAddr(), (__ubuf__ float*)a.GetPhyAddr());
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(yGm, b, 64);
}
"""


def test_reg_log_is_the_natural_logarithm(pipev, tmp_path):
    """Reg::Log (its page: "equivalent to Ln"), on positive values: each correctly rounded."""
    src = tmp_path / "log.cpp"
    src.write_text(LOG)
    x = np.random.default_rng(7).uniform(1e-3, 1e3, 64).astype(np.float32)
    x[:3] = [1.0, np.inf, 2.0]
    np.save(tmp_path / "x.npy", x)
    proc = pipev("run", src, "--chip", "ascend950", "--kernel", "log_kernel",
                 "--arg", f"x={tmp_path / 'x.npy'}", "--arg", "y=out:f32[64]",
                 "--output-dir", tmp_path / "out", "--quiet", timeout=300)
    assert proc.returncode == 0, proc.stderr
    y = np.load(tmp_path / "out" / "y.npy")
    assert y.tobytes() == ref.natural_log(x).tobytes()
